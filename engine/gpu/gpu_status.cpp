#include "engine/gpu/gpu_status.h"

namespace rnnprof::gpu {
namespace {

// Values of the CUDA 13 / cuBLAS 13 / cuDNN 9 headers, repeated here so this file needs none of
// them; tests/gpu/gpu_status_test.cpp checks them against the headers in CUDA builds.
constexpr int kCudaErrorMemoryAllocation = 2;
constexpr int kCudaErrorInitializationError = 3;
constexpr int kCudaErrorStubLibrary = 34;
constexpr int kCudaErrorInsufficientDriver = 35;
constexpr int kCudaErrorCallRequiresNewerDriver = 36;
constexpr int kCudaErrorDevicesUnavailable = 46;
constexpr int kCudaErrorNoDevice = 100;
constexpr int kCudaErrorInvalidDevice = 101;
constexpr int kCudaErrorNoKernelImageForDevice = 209;
constexpr int kCudaErrorUnsupportedPtxVersion = 222;
constexpr int kCudaErrorSystemNotReady = 802;
constexpr int kCudaErrorSystemDriverMismatch = 803;
constexpr int kCudaErrorCompatNotSupportedOnDevice = 804;

constexpr int kCublasNotInitialized = 1;
constexpr int kCublasAllocFailed = 3;
constexpr int kCublasArchMismatch = 8;
constexpr int kCublasNotSupported = 15;

constexpr int kCudnnCategoryNotInitialized = 1000;
constexpr int kCudnnCategoryNotSupported = 3000;
constexpr int kCudnnHostAllocationFailed = 4003;
constexpr int kCudnnDeviceAllocationFailed = 4004;

std::string withAdvice(ErrorKind kind, std::string message, std::string_view library) {
    switch (kind) {
    case ErrorKind::OutOfMemory:
        message += " (device memory exhausted: reduce batch, sequence length or hidden size)";
        break;
    case ErrorKind::DeviceUnavailable:
        message += " (no usable NVIDIA driver or device for " + std::string(library) + ")";
        break;
    case ErrorKind::Unsupported:
        if (library == "cuDNN")
            message += " (cuDNN refused this configuration; gpu-generic runs every configuration)";
        break;
    default:
        break;
    }
    return message;
}

} // namespace

ErrorKind cudaErrorKind(int code) {
    switch (code) {
    case kCudaErrorMemoryAllocation:
        return ErrorKind::OutOfMemory;
    case kCudaErrorInitializationError:
    case kCudaErrorStubLibrary:
    case kCudaErrorInsufficientDriver:
    case kCudaErrorCallRequiresNewerDriver:
    case kCudaErrorDevicesUnavailable:
    case kCudaErrorNoDevice:
    case kCudaErrorInvalidDevice:
    case kCudaErrorSystemNotReady:
    case kCudaErrorSystemDriverMismatch:
    case kCudaErrorCompatNotSupportedOnDevice:
        return ErrorKind::DeviceUnavailable;
    case kCudaErrorNoKernelImageForDevice:
    case kCudaErrorUnsupportedPtxVersion:
        return ErrorKind::Unsupported;
    default:
        return ErrorKind::BackendFailure;
    }
}

ErrorKind cublasErrorKind(int code) {
    switch (code) {
    case kCublasAllocFailed:
        return ErrorKind::OutOfMemory;
    case kCublasNotInitialized:
        return ErrorKind::DeviceUnavailable;
    case kCublasArchMismatch:
    case kCublasNotSupported:
        return ErrorKind::Unsupported;
    default:
        return ErrorKind::BackendFailure;
    }
}

ErrorKind cudnnErrorKind(int code) {
    if (code == kCudnnHostAllocationFailed || code == kCudnnDeviceAllocationFailed)
        return ErrorKind::OutOfMemory;
    switch (cudnnStatusCategory(code)) {
    case kCudnnCategoryNotInitialized:
        return ErrorKind::DeviceUnavailable;
    case kCudnnCategoryNotSupported:
        return ErrorKind::Unsupported;
    default:
        return ErrorKind::BackendFailure;
    }
}

std::string gpuCallFailure(std::string_view call, std::string_view statusName, int code,
                           std::string_view detail) {
    std::string s(call);
    s += " failed: ";
    s += statusName.empty() ? std::string_view("unknown status") : statusName;
    s += " (" + std::to_string(code) + ")";
    if (!detail.empty() && detail != statusName) {
        s += ": ";
        s += detail;
    }
    return s;
}

Error cudaFailure(std::string_view call, int code, std::string_view name, std::string_view detail) {
    const ErrorKind kind = cudaErrorKind(code);
    return Error(kind, withAdvice(kind, gpuCallFailure(call, name, code, detail), "CUDA"));
}

Error cublasFailure(std::string_view call, int code, std::string_view name, std::string_view detail) {
    const ErrorKind kind = cublasErrorKind(code);
    return Error(kind, withAdvice(kind, gpuCallFailure(call, name, code, detail), "cuBLAS"));
}

Error cudnnFailure(std::string_view call, int code, std::string_view name, std::string_view detail) {
    const ErrorKind kind = cudnnErrorKind(code);
    return Error(kind, withAdvice(kind, gpuCallFailure(call, name, code, detail), "cuDNN"));
}

} // namespace rnnprof::gpu
