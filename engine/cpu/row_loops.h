#pragma once
// Small vectorised loops of the CPU sessions that are not step kernels (those run through
// kernel_runner.h, compiled per ISA).
#include "engine/cpu/kernel_runner.h"
#include "engine/kernels/step_kernels.h"

#include <algorithm>
#include <cstdint>

namespace rnnprof::cpu {

// out[j] = sum over rows of src[r * ld + j], on `threads` OpenMP threads (from kParallelElements
// on) that each sum a block of columns (a multiple of 16 floats, a cache line) row by row, so that
// the inner loop is contiguous.
// A bias gradient reads the gate gradients of every step (52 MB at LSTM H=512, B=64, T=100).
inline void columnSums(const float* src, std::int64_t rows, std::int64_t cols, std::int64_t ld, float* out,
                       int threads) {
    const std::int64_t block = std::max<std::int64_t>(16, (cols + 16 * threads - 1) / (16 * threads) * 16);
#pragma omp parallel for num_threads(threads) schedule(static) if (rows * cols >= kParallelElements)
    for (std::int64_t j0 = 0; j0 < cols; j0 += block) {
        const std::int64_t j1 = std::min(cols, j0 + block);
        for (std::int64_t j = j0; j < j1; ++j)
            out[j] = 0.0f;
        for (std::int64_t r = 0; r < rows; ++r) {
            const float* row = src + r * ld;
#pragma omp simd
            for (std::int64_t j = j0; j < j1; ++j)
                out[j] += row[j];
        }
    }
}

// Training's loss, the mean squared error of y against target over n elements, and its gradient
// dy = 2 (y - target) / n, on `threads` OpenMP threads (1 or the session's pool) from
// kParallelElements on: both CPU sessions. It reads and writes every output of the last layer (1.3M
// floats at H=256, B=256, T=20): on one thread of the 16-core Xeon that took 2.1 ms of a 16.5 ms
// iteration of 16-thread GRU training, where cpu-onednn's loop on all 16 took 0.14.
inline double mseAndGradient(const float* y, const float* target, float* dy, std::int64_t n, int threads) {
    const kernels::MseGradKernel<float> gradient{y, target, dy, float(2.0 / double(n))}; // as on the GPU
    double sum = 0.0;
#pragma omp parallel for simd num_threads(threads) reduction(+ : sum) if (threads > 1 && n >= kParallelElements)
    for (std::int64_t i = 0; i < n; ++i) {
        const double diff = double(y[i]) - double(target[i]);
        sum += diff * diff;
        gradient(i);
    }
    return sum / double(n);
}

// One SGD step over n parameters (kernels::SgdKernel), on `threads` OpenMP threads from
// kParallelElements on.
inline void sgdStep(float* w, const float* g, float lr, std::int64_t n, int threads) {
    const kernels::SgdKernel<float> step{w, g, lr};
#pragma omp parallel for simd num_threads(threads) if (threads > 1 && n >= kParallelElements)
    for (std::int64_t i = 0; i < n; ++i)
        step(i);
}

} // namespace rnnprof::cpu
