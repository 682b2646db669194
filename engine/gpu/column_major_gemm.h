#pragma once
// cuBLAS is column-major; rnnprof's buffers are row-major. A row-major matrix read column-major is
// its transpose, so row-major C = op(A) op(B) is the column-major call C^T = op(B)^T op(A)^T: swap
// the operands, their transpose flags and m with n. This one function does that for DeviceExec
// (cublasSgemm) and for the tests, which run every GEMM of gpu-generic through it against a
// column-major reference and check cuBLAS's leading-dimension rules. Header-only, no CUDA.
#include <cstdint>

namespace rnnprof::gpu {

// The arguments of a column-major (BLAS/cuBLAS) SGEMM: C = alpha op(A) op(B) + beta C with op(A)
// m x k, op(B) k x n, C m x n.
struct ColumnMajorGemm {
    bool transA = false;
    bool transB = false;
    std::int64_t m = 0, n = 0, k = 0;
    const float* A = nullptr;
    std::int64_t lda = 0;
    const float* B = nullptr;
    std::int64_t ldb = 0;
    float* C = nullptr;
    std::int64_t ldc = 0;

    // cuBLAS's rules: lda >= rows of A as stored (m for N, k for T), likewise ldb, and ldc >= m.
    [[nodiscard]] bool leadingDimensionsValid() const {
        const auto atLeast1 = [](std::int64_t v) { return v < 1 ? std::int64_t(1) : v; };
        return lda >= atLeast1(transA ? k : m) && ldb >= atLeast1(transB ? n : k) && ldc >= atLeast1(m);
    }
};

// Row-major C[m, n] (ldc) = op(A) op(B) with A (lda) and B (ldb) row-major.
[[nodiscard]] constexpr ColumnMajorGemm columnMajorFor(bool transA, bool transB, std::int64_t m,
                                                       std::int64_t n, std::int64_t k, const float* A,
                                                       std::int64_t lda, const float* B, std::int64_t ldb,
                                                       float* C, std::int64_t ldc) {
    return {transB, transA, n, m, k, B, ldb, A, lda, C, ldc};
}

} // namespace rnnprof::gpu
