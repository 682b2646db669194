#pragma once
// The executor that runs GenericRnn (engine/gpu/generic_rnn.h) on the GPU: cuBLAS SGEMM for the
// row-major GEMMs, launchElementwise for the step kernels, async copies, all on one stream; it
// never waits for the stream (engine/device_queue.h says who does). CUDA only.
#include "engine/gpu/elementwise_launch.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

namespace rnnprof::gpu {

class DeviceExec {
public:
    using Index = kernels::Index;
    DeviceExec(cudaStream_t stream, cublasHandle_t cublas) : m_stream(stream), m_cublas(cublas) {}

    // Row-major C[m, n] = alpha * op(A) * op(B) + beta * C (beta = 0: C is not read).
    void gemm(bool transA, bool transB, Index m, Index n, Index k, float alpha, const float* A, Index lda,
              const float* B, Index ldb, float beta, float* C, Index ldc) const;
    template <class F>
    void launch(const F& functor, Index n) const {
        launchElementwise(functor, n, m_stream);
    }
    // dst[r * dld + c] = src[r * sld + c] for r < rows, c < cols.
    void copyRows(float* dst, Index dld, const float* src, Index sld, Index rows, Index cols) const;
    void zero(float* p, Index n) const;
    // *out = ||v||_2, written on the device (no synchronisation).
    void norm(const float* v, Index n, float* out) const;

private:
    cudaStream_t m_stream;
    cublasHandle_t m_cublas;
};

} // namespace rnnprof::gpu
