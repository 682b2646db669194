#pragma once
// Small vectorised loops of the cpu-blas session that are not step kernels (those run through
// kernel_runner.h, compiled per ISA).
#include "engine/cpu/kernel_runner.h"

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

} // namespace rnnprof::cpu
