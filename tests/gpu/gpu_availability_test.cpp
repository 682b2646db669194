// The GPU backends on a machine without a driver or device, with real calls: they are registered,
// report unavailable with the driver's reason, refuse prepare() with DeviceUnavailable, and the
// RAII owners translate the libraries' real failures into errors naming the call. On a machine
// with a GPU these tests skip (gpu_device_test.cpp covers it).
#include "engine/backend.h"
#include "engine/error.h"
#include "engine/gpu/gpu_info.h"
#include "engine/gpu/gpu_session_factory.h"

#if RNNPROF_WITH_CUDA
#include "engine/gpu/cuda_resources.h"
#endif
#if RNNPROF_WITH_CUDNN
#include "engine/gpu/cudnn_resources.h"
#endif

#include <gtest/gtest.h>

#include <functional>

namespace rnnprof {
namespace {

#define SKIP_IF_DEVICE_PRESENT()                                                                             \
    if (gpuInfo().available)                                                                                 \
    GTEST_SKIP() << "a GPU is present (" << gpuInfo().summary() << "): see gpu_device_test"

// Runs `call`, expecting Error of `kind` whose message contains `needle`.
void expectError(const std::function<void()>& call, ErrorKind kind, const std::string& needle) {
    try {
        call();
        ADD_FAILURE() << "expected an error containing \"" << needle << "\"";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), kind) << toString(e.kind()) << ": " << e.what();
        EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
}

Problem defaultProblem(Mode mode) {
    Problem p;
    p.config.inputSize = 8;
    p.config.hiddenSize = 16;
    p.shape = {4, 5};
    p.mode = mode;
    return p;
}

TEST(GpuAvailability, BothGpuBackendsAreRegisteredAsGpuBackends) {
    for (const char* id : {"gpu-generic", "gpu-cudnn"}) {
        const Backend* b = builtinBackends().find(id);
        ASSERT_NE(b, nullptr) << id;
        EXPECT_TRUE(b->isGpu());
        EXPECT_FALSE(b->description().empty());
    }
}

TEST(GpuAvailability, UnavailableWithTheDriversReason) {
    SKIP_IF_DEVICE_PRESENT();
    ASSERT_FALSE(gpuInfo().reason.empty());
    for (const char* id : {"gpu-generic", "gpu-cudnn"}) {
        const Availability a = builtinBackends().find(id)->availability();
        EXPECT_FALSE(a.available) << id;
        if (gpuInfo().builtWithCudnn || std::string(id) == "gpu-generic") {
            EXPECT_EQ(a.reason, gpuInfo().reason) << id;
        }
        EXPECT_FALSE(a.reason.empty());
    }
}

TEST(GpuAvailability, PrepareThrowsDeviceUnavailableNamingTheReason) {
    SKIP_IF_DEVICE_PRESENT();
    for (const char* id : {"gpu-generic", "gpu-cudnn"})
        for (Mode mode : {Mode::Inference, Mode::Training}) {
            const Backend* b = builtinBackends().find(id);
            expectError([&] { (void)b->prepare(defaultProblem(mode)); }, ErrorKind::DeviceUnavailable,
                        std::string(id) + " unavailable: ");
        }
}

TEST(GpuAvailability, SessionFactoriesRefuseWithoutADeviceEvenWhenCalledDirectly) {
    SKIP_IF_DEVICE_PRESENT();
    expectError([] { (void)gpu::makeGenericSession(defaultProblem(Mode::Training)); },
                ErrorKind::DeviceUnavailable, "");
    expectError([] { (void)gpu::makeCudnnSession(defaultProblem(Mode::Training)); },
                ErrorKind::DeviceUnavailable, "");
}

TEST(GpuAvailability, EstimatesNeedNoDevice) {
    for (const char* id : {"gpu-generic", "gpu-cudnn"}) {
        const MemoryFootprint m = builtinBackends().find(id)->estimateMemory(defaultProblem(Mode::Training));
        EXPECT_TRUE(m.onDevice) << id;
        EXPECT_GT(m.weights, 0u) << id;
        EXPECT_EQ(m.gradients, m.weights) << id;
        EXPECT_GT(m.activations, 0u) << id;
        EXPECT_GT(m.workspace, 0u) << id;
        EXPECT_GT(m.io, 0u) << id;
    }
}

#if RNNPROF_WITH_CUDA
TEST(GpuAvailability, WithoutAGpuThereIsNoFreeMemoryAndTheHostRecordSaysWhy) {
    SKIP_IF_DEVICE_PRESENT();
    GpuInfo info = gpuInfo();
    measureFreeMemory(info);
    EXPECT_TRUE(info.devices.empty());
    EXPECT_EQ(info, gpuInfo()) << "nothing to measure";
    EXPECT_EQ(info.freeMemorySummary(), "none: no GPU (unavailable: " + gpuInfo().reason + ")");
}

TEST(GpuAvailability, FreeMemoryIsSummarisedPerDeviceOrSaidToBeUnknown) {
    GpuInfo info;
    info.available = true;
    info.devices = {{0, "NVIDIA H100", 9, 0, 80ULL << 30, 78ULL << 30, 132},
                    {1, "NVIDIA H100", 9, 0, 80ULL << 30, 0, 132}};
    EXPECT_EQ(info.freeMemorySummary(), "78.0 GiB free of 80.0 GiB on device 0 (NVIDIA H100); not known (the "
                                        "driver did not answer) on device 1 (NVIDIA H100)");
    EXPECT_EQ(info.summary(), "NVIDIA H100 (sm_90, 80.0 GiB, 78.0 GiB free) +1 more");
    info.devices.front().freeMemory = 0; // the cached probe: free memory not measured
    EXPECT_EQ(info.summary(), "NVIDIA H100 (sm_90, 80.0 GiB) +1 more");
}

TEST(GpuAvailability, SelectingTheDeviceFailsNamingCudaSetDevice) {
    SKIP_IF_DEVICE_PRESENT();
    expectError([] { gpu::selectDevice(); }, ErrorKind::DeviceUnavailable,
                "cudaSetDevice(0) failed: cudaError");
}

TEST(GpuAvailability, DeviceAllocationFailsNamingCudaMallocAndTheBuffer) {
    SKIP_IF_DEVICE_PRESENT();
    expectError([] { gpu::DeviceBuffer b(4096, "the test buffer"); }, ErrorKind::DeviceUnavailable,
                "cudaMalloc of 4.0 KiB for the test buffer failed: cudaError");
}

TEST(GpuAvailability, CublasCreateFailsNamingTheCall) {
    SKIP_IF_DEVICE_PRESENT();
    expectError([] { gpu::CublasHandle handle(nullptr, false); }, ErrorKind::DeviceUnavailable,
                "cublasCreate failed: CUBLAS_STATUS_NOT_INITIALIZED (1)");
}
#endif

#if RNNPROF_WITH_CUDNN
// cuDNN 9.19 on a machine without a driver returns 1001 CUDNN_STATUS_NOT_INITIALIZED.
TEST(GpuAvailability, CudnnCreateFailsAsNotInitializedNamingTheCall) {
    SKIP_IF_DEVICE_PRESENT();
    expectError([] { gpu::CudnnHandle handle; }, ErrorKind::DeviceUnavailable,
                "cudnnCreate failed: CUDNN_STATUS_NOT_INITIALIZED (1001)");
}

// Descriptors are host objects: they work without a device, and their destructors release them.
TEST(GpuAvailability, CudnnDescriptorsAreCreatedWithoutADevice) {
    gpu::TensorDescriptor tensor;
    gpu::RnnDataDescriptor data;
    gpu::RnnDescriptor rnn;
    gpu::DropoutDescriptor dropout;
    EXPECT_NE(tensor.get(), nullptr);
    EXPECT_NE(data.get(), nullptr);
    EXPECT_NE(rnn.get(), nullptr);
    EXPECT_NE(dropout.get(), nullptr);
}

TEST(GpuAvailability, CudnnRejectsABadDescriptorWithAnErrorNamingTheCall) {
    gpu::RnnDataDescriptor data;
    const std::vector<int> lengths{5, 9}; // 9 > maxSeqLength
    float fill = 0.0f;
    expectError(
        [&] {
            gpu::checkCudnn(cudnnSetRNNDataDescriptor(data.get(), CUDNN_DATA_FLOAT,
                                                      CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED, 5, 2, 4,
                                                      lengths.data(), &fill),
                            "cudnnSetRNNDataDescriptor");
        },
        ErrorKind::BackendFailure, "cudnnSetRNNDataDescriptor failed: CUDNN_STATUS_BAD_PARAM");
}
#endif

} // namespace
} // namespace rnnprof
