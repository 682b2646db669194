// Translation of CUDA, cuBLAS and cuDNN statuses into error categories and messages naming the
// call. The numeric values are checked against the real headers in CUDA builds.
#include "engine/gpu/gpu_status.h"

#if RNNPROF_WITH_CUDA
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#endif
#if RNNPROF_WITH_CUDNN
#include <cudnn.h>
#endif

#include <gtest/gtest.h>

namespace rnnprof {
namespace {

using namespace rnnprof::gpu;

TEST(GpuStatus, CudaAllocationFailureIsOutOfMemory) {
    EXPECT_EQ(cudaErrorKind(2), ErrorKind::OutOfMemory);
}

TEST(GpuStatus, CudaMissingDriverOrDeviceIsDeviceUnavailable) {
    for (int code : {3, 34, 35, 36, 46, 100, 101, 802, 803, 804})
        EXPECT_EQ(cudaErrorKind(code), ErrorKind::DeviceUnavailable) << code;
}

TEST(GpuStatus, CudaMissingKernelImageIsUnsupported) {
    EXPECT_EQ(cudaErrorKind(209), ErrorKind::Unsupported);
    EXPECT_EQ(cudaErrorKind(222), ErrorKind::Unsupported);
}

TEST(GpuStatus, OtherCudaErrorsAreBackendFailures) {
    for (int code : {1, 9, 700, 719, 999})
        EXPECT_EQ(cudaErrorKind(code), ErrorKind::BackendFailure) << code;
}

TEST(GpuStatus, CublasStatusesMapByMeaning) {
    EXPECT_EQ(cublasErrorKind(1), ErrorKind::DeviceUnavailable); // NOT_INITIALIZED
    EXPECT_EQ(cublasErrorKind(3), ErrorKind::OutOfMemory);       // ALLOC_FAILED
    EXPECT_EQ(cublasErrorKind(8), ErrorKind::Unsupported);       // ARCH_MISMATCH
    EXPECT_EQ(cublasErrorKind(15), ErrorKind::Unsupported);      // NOT_SUPPORTED
    EXPECT_EQ(cublasErrorKind(7), ErrorKind::BackendFailure);    // INVALID_VALUE
    EXPECT_EQ(cublasErrorKind(13), ErrorKind::BackendFailure);   // EXECUTION_FAILED
}

TEST(GpuStatus, CudnnStatusesMapByCategoryInCudnn9Numbering) {
    EXPECT_EQ(cudnnStatusCategory(3007), 3000);
    for (int code : {3000, 3001, 3002, 3007, 3014})
        EXPECT_EQ(cudnnErrorKind(code), ErrorKind::Unsupported) << code;
    for (int code : {1001, 1002, 1008})
        EXPECT_EQ(cudnnErrorKind(code), ErrorKind::DeviceUnavailable) << code;
    EXPECT_EQ(cudnnErrorKind(4003), ErrorKind::OutOfMemory);
    EXPECT_EQ(cudnnErrorKind(4004), ErrorKind::OutOfMemory);
    for (int code : {2000, 2002, 4000, 4001, 5000, 5002})
        EXPECT_EQ(cudnnErrorKind(code), ErrorKind::BackendFailure);
    // cuDNN 8's NOT_SUPPORTED was 9 and BAD_PARAM 3: meaningless in cuDNN 9.
    EXPECT_EQ(cudnnErrorKind(3), ErrorKind::BackendFailure);
}

TEST(GpuStatus, MessageNamesTheCallTheStatusAndItsCode) {
    EXPECT_EQ(
        gpuCallFailure("cudnnRNNForward", "CUDNN_STATUS_NOT_SUPPORTED", 3000, "no kernel for this shape"),
        "cudnnRNNForward failed: CUDNN_STATUS_NOT_SUPPORTED (3000): no kernel for this shape");
    EXPECT_EQ(gpuCallFailure("cudaMalloc", "cudaErrorMemoryAllocation", 2, ""),
              "cudaMalloc failed: cudaErrorMemoryAllocation (2)");
}

TEST(GpuStatus, CudnnRefusalSaysWhichBackendRunsEverything) {
    const Error e = cudnnFailure("cudnnGetRNNTempSpaceSizes", 3000, "CUDNN_STATUS_NOT_SUPPORTED", "");
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
    EXPECT_NE(
        std::string(e.what()).find("cudnnGetRNNTempSpaceSizes failed: CUDNN_STATUS_NOT_SUPPORTED (3000)"),
        std::string::npos);
    EXPECT_NE(std::string(e.what()).find("gpu-generic"), std::string::npos) << e.what();
}

TEST(GpuStatus, OutOfMemorySaysWhatToReduce) {
    const Error e =
        cudaFailure("cudaMalloc of 3.0 GiB for x", 2, "cudaErrorMemoryAllocation", "out of memory");
    EXPECT_EQ(e.kind(), ErrorKind::OutOfMemory);
    EXPECT_NE(std::string(e.what()).find("reduce batch"), std::string::npos) << e.what();
}

#if RNNPROF_WITH_CUDA
TEST(GpuStatus, RepeatedConstantsMatchTheCudaAndCublasHeaders) {
    EXPECT_EQ(cudaErrorKind(cudaErrorMemoryAllocation), ErrorKind::OutOfMemory);
    EXPECT_EQ(cudaErrorKind(cudaErrorInsufficientDriver), ErrorKind::DeviceUnavailable);
    EXPECT_EQ(cudaErrorKind(cudaErrorNoDevice), ErrorKind::DeviceUnavailable);
    EXPECT_EQ(cudaErrorKind(cudaErrorStubLibrary), ErrorKind::DeviceUnavailable);
    EXPECT_EQ(cudaErrorKind(cudaErrorInitializationError), ErrorKind::DeviceUnavailable);
    EXPECT_EQ(cudaErrorKind(cudaErrorCallRequiresNewerDriver), ErrorKind::DeviceUnavailable);
    EXPECT_EQ(cudaErrorKind(cudaErrorDevicesUnavailable), ErrorKind::DeviceUnavailable);
    EXPECT_EQ(cudaErrorKind(cudaErrorInvalidDevice), ErrorKind::DeviceUnavailable);
    EXPECT_EQ(cudaErrorKind(cudaErrorSystemNotReady), ErrorKind::DeviceUnavailable);
    EXPECT_EQ(cudaErrorKind(cudaErrorSystemDriverMismatch), ErrorKind::DeviceUnavailable);
    EXPECT_EQ(cudaErrorKind(cudaErrorCompatNotSupportedOnDevice), ErrorKind::DeviceUnavailable);
    EXPECT_EQ(cudaErrorKind(cudaErrorNoKernelImageForDevice), ErrorKind::Unsupported);
    EXPECT_EQ(cudaErrorKind(cudaErrorUnsupportedPtxVersion), ErrorKind::Unsupported);
    EXPECT_EQ(cublasErrorKind(CUBLAS_STATUS_NOT_INITIALIZED), ErrorKind::DeviceUnavailable);
    EXPECT_EQ(cublasErrorKind(CUBLAS_STATUS_ALLOC_FAILED), ErrorKind::OutOfMemory);
    EXPECT_EQ(cublasErrorKind(CUBLAS_STATUS_ARCH_MISMATCH), ErrorKind::Unsupported);
    EXPECT_EQ(cublasErrorKind(CUBLAS_STATUS_NOT_SUPPORTED), ErrorKind::Unsupported);
}
#endif

#if RNNPROF_WITH_CUDNN
TEST(GpuStatus, RepeatedConstantsMatchTheCudnnHeader) {
    EXPECT_EQ(cudnnStatusCategory(CUDNN_STATUS_NOT_SUPPORTED_SHAPE),
              CUDNN_STATUS_CATEGORY(CUDNN_STATUS_NOT_SUPPORTED_SHAPE));
    EXPECT_EQ(cudnnErrorKind(CUDNN_STATUS_NOT_INITIALIZED), ErrorKind::DeviceUnavailable);
    EXPECT_EQ(cudnnErrorKind(CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED), ErrorKind::DeviceUnavailable);
    EXPECT_EQ(cudnnErrorKind(CUDNN_STATUS_NOT_SUPPORTED), ErrorKind::Unsupported);
    EXPECT_EQ(cudnnErrorKind(CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH), ErrorKind::Unsupported);
    EXPECT_EQ(cudnnErrorKind(CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED), ErrorKind::OutOfMemory);
    EXPECT_EQ(cudnnErrorKind(CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED), ErrorKind::OutOfMemory);
    EXPECT_EQ(cudnnErrorKind(CUDNN_STATUS_BAD_PARAM), ErrorKind::BackendFailure);
    EXPECT_EQ(cudnnErrorKind(CUDNN_STATUS_EXECUTION_FAILED), ErrorKind::BackendFailure);
}
#endif

} // namespace
} // namespace rnnprof
