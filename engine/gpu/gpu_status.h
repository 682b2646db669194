#pragma once
// Translation of CUDA runtime, cuBLAS and cuDNN status codes into rnnprof error categories and
// messages that name the failing call. Pure functions over plain integers (no CUDA headers), so
// the mapping compiles in every build and is tested without a GPU. The CUDA-side checks
// (engine/gpu/cuda_check.h, engine/gpu/cudnn_resources.h) feed the library's names into these.
#include "engine/error.h"

#include <string>
#include <string_view>

namespace rnnprof::gpu {

// cudaError_t: allocation failures -> OutOfMemory; no driver / no device / driver too old ->
// DeviceUnavailable; kernel image missing for this GPU -> Unsupported; else BackendFailure.
[[nodiscard]] ErrorKind cudaErrorKind(int code);
// cublasStatus_t: ALLOC_FAILED -> OutOfMemory; NOT_INITIALIZED -> DeviceUnavailable;
// NOT_SUPPORTED / ARCH_MISMATCH -> Unsupported; else BackendFailure.
[[nodiscard]] ErrorKind cublasErrorKind(int code);
// cudnnStatus_t in cuDNN 9 numbering, bucketed by CUDNN_STATUS_CATEGORY (code / 1000 * 1000):
// 1000 (NOT_INITIALIZED, sub-library loading, version mismatch) -> DeviceUnavailable;
// 3000 (NOT_SUPPORTED_*) -> Unsupported; 4003/4004 (host/device allocation failed) ->
// OutOfMemory; else BackendFailure.
[[nodiscard]] ErrorKind cudnnErrorKind(int code);
[[nodiscard]] constexpr int cudnnStatusCategory(int code) {
    return code / 1000 * 1000;
}

// "cudnnRNNForward failed: CUDNN_STATUS_NOT_SUPPORTED (3000): <detail>"; the detail is left out
// when empty.
[[nodiscard]] std::string gpuCallFailure(std::string_view call, std::string_view statusName, int code,
                                         std::string_view detail);

// The Error for a failed call: message from gpuCallFailure, plus what to do for the categories a
// user can act on (out of memory, no device, cuDNN refusing a configuration).
[[nodiscard]] Error cudaFailure(std::string_view call, int code, std::string_view name,
                                std::string_view detail);
[[nodiscard]] Error cublasFailure(std::string_view call, int code, std::string_view name,
                                  std::string_view detail);
[[nodiscard]] Error cudnnFailure(std::string_view call, int code, std::string_view name,
                                 std::string_view detail);

} // namespace rnnprof::gpu
