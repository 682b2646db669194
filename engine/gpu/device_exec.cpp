#include "engine/gpu/device_exec.h"

#include "engine/error.h"
#include "engine/gpu/column_major_gemm.h"
#include "engine/gpu/cublas_library.h"
#include "engine/gpu/cuda_check.h"

#include <climits>

namespace rnnprof::gpu {
namespace {

int toInt(kernels::Index v, const char* what) {
    if (v < 0 || v > INT_MAX)
        throw Error(ErrorKind::BackendFailure, std::string("gpu-generic: ") + what + " " + std::to_string(v) +
                                                   " exceeds cuBLAS's 32-bit range");
    return int(v);
}

} // namespace

void DeviceExec::gemm(bool transA, bool transB, Index m, Index n, Index k, float alpha, const float* A,
                      Index lda, const float* B, Index ldb, float beta, float* C, Index ldc) const {
    const ColumnMajorGemm g = columnMajorFor(transA, transB, m, n, k, A, lda, B, ldb, C, ldc);
    if (!g.leadingDimensionsValid())
        throw Error(ErrorKind::BackendFailure, "gpu-generic: GEMM leading dimensions violate cuBLAS's rules");
    checkCublas(cublas().sgemm(m_cublas, g.transA ? CUBLAS_OP_T : CUBLAS_OP_N,
                               g.transB ? CUBLAS_OP_T : CUBLAS_OP_N, toInt(g.m, "GEMM m"),
                               toInt(g.n, "GEMM n"), toInt(g.k, "GEMM k"), &alpha, g.A,
                               toInt(g.lda, "GEMM lda"), g.B, toInt(g.ldb, "GEMM ldb"), &beta, g.C,
                               toInt(g.ldc, "GEMM ldc")),
                "cublasSgemm");
}

void DeviceExec::copyRows(float* dst, Index dld, const float* src, Index sld, Index rows, Index cols) const {
    checkCuda(cudaMemcpy2DAsync(dst, std::size_t(dld) * sizeof(float), src, std::size_t(sld) * sizeof(float),
                                std::size_t(cols) * sizeof(float), std::size_t(rows),
                                cudaMemcpyDeviceToDevice, m_stream),
              "cudaMemcpy2DAsync");
}

void DeviceExec::zero(float* p, Index n) const {
    checkCuda(cudaMemsetAsync(p, 0, std::size_t(n) * sizeof(float), m_stream), "cudaMemsetAsync");
}

void DeviceExec::norm(const float* v, Index n, float* out) const {
    checkCublas(cublas().setPointerMode(m_cublas, CUBLAS_POINTER_MODE_DEVICE), "cublasSetPointerMode");
    const cublasStatus_t status = cublas().snrm2(m_cublas, toInt(n, "norm length"), v, 1, out);
    checkCublas(cublas().setPointerMode(m_cublas, CUBLAS_POINTER_MODE_HOST), "cublasSetPointerMode");
    checkCublas(status, "cublasSnrm2");
}

} // namespace rnnprof::gpu
