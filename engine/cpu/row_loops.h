#pragma once
// Small vectorised loops of the cpu-blas session that are not step kernels (those run through
// kernel_runner.h, compiled per ISA).
#include <cstdint>

namespace rnnprof::cpu {

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
