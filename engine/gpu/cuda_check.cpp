#include "engine/gpu/cuda_check.h"

#include "engine/gpu/cublas_library.h"
#include "engine/gpu/gpu_status.h"

namespace rnnprof::gpu {

void checkCuda(cudaError_t status, std::string_view call) {
    if (status == cudaSuccess) return;
    (void)cudaGetLastError();
    throw cudaFailure(call, int(status), cudaGetErrorName(status), cudaGetErrorString(status));
}

void checkCublas(cublasStatus_t status, std::string_view call) {
    if (status == CUBLAS_STATUS_SUCCESS) return;
    throw cublasFailure(call, int(status), cublas().getStatusName(status), cublas().getStatusString(status));
}

} // namespace rnnprof::gpu
