#pragma once
// Status checks for CUDA runtime and cuBLAS calls: a failure throws rnnprof::Error whose message
// names the call ("cudaMalloc of 1.2 GiB failed: cudaErrorMemoryAllocation (2): out of memory")
// and whose category follows engine/gpu/gpu_status.h. CUDA builds only.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <string_view>

namespace rnnprof::gpu {

// Throws on anything but cudaSuccess; clears CUDA's last-error state first so that a later,
// unrelated check does not report this failure again.
void checkCuda(cudaError_t status, std::string_view call);
void checkCublas(cublasStatus_t status, std::string_view call);

} // namespace rnnprof::gpu
