#pragma once
// Runs a per-element kernel functor (engine/kernels/step_kernels.h) over a [rows, width] index
// space on the CPU: rows split across threads when the work is large enough to pay for it, the
// inner loop vectorised (the functors are branch-free inline code).
#include <cstdint>

namespace rnnprof::cpu {

// Below this many elements a parallel region costs more than it saves.
inline constexpr std::int64_t kParallelElements = 1 << 14;

template <class Kernel>
void forEachElement(const Kernel& kernelRef, std::int64_t rows, std::int64_t width, int threads) {
    // A local copy: its pointers are then provably loop-invariant, so the compiler can unswitch
    // the optional outputs and vectorise the rest.
    const Kernel kernel = kernelRef;
    if (threads > 1 && rows > 1 && rows * width >= kParallelElements) {
#pragma omp parallel for num_threads(threads) schedule(static)
        for (std::int64_t b = 0; b < rows; ++b) {
#pragma omp simd
            for (std::int64_t j = 0; j < width; ++j)
                kernel.at(b, j);
        }
        return;
    }
    for (std::int64_t b = 0; b < rows; ++b) {
#pragma omp simd
        for (std::int64_t j = 0; j < width; ++j)
            kernel.at(b, j);
    }
}

// The same over the columns [j0, j1) of every row, on the calling thread (a team thread).
template <class Kernel>
void forEachInColumns(const Kernel& kernelRef, std::int64_t rows, std::int64_t j0, std::int64_t j1) {
    const Kernel kernel = kernelRef;
    for (std::int64_t b = 0; b < rows; ++b) {
#pragma omp simd
        for (std::int64_t j = j0; j < j1; ++j)
            kernel.at(b, j);
    }
}

// out[j] (+)= sum over rows of src[r * ld + j], row by row so the inner loop is contiguous.
inline void columnSums(const float* src, std::int64_t rows, std::int64_t cols, std::int64_t ld, float* out,
                       bool accumulate) {
    if (!accumulate)
        for (std::int64_t j = 0; j < cols; ++j)
            out[j] = 0.0f;
    for (std::int64_t r = 0; r < rows; ++r) {
        const float* row = src + r * ld;
#pragma omp simd
        for (std::int64_t j = 0; j < cols; ++j)
            out[j] += row[j];
    }
}

} // namespace rnnprof::cpu
