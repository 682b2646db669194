#include "engine/gpu/gpu_info.h"

#include <cudaTypedefs.h> // the driver's function types; the driver itself is reached through cudart
#include <cuda_runtime_api.h>
#if RNNPROF_WITH_CUDNN
#include <cudnn.h>
#endif

#include <optional>

namespace rnnprof {
namespace {

std::string cudaVersionString(int v) {
    return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

// The driver calls measureFreeMemory() needs, found through the runtime (cudaGetDriverEntryPoint-
// ByVersion), so that rnnprof links no libcuda and still starts on machines without a driver.
struct DriverCalls {
    PFN_cuDeviceGet_v2000 deviceGet = nullptr;
    PFN_cuDevicePrimaryCtxRetain_v7000 retain = nullptr;
    PFN_cuDevicePrimaryCtxRelease_v11000 release = nullptr;
    PFN_cuCtxPushCurrent_v4000 push = nullptr;
    PFN_cuCtxPopCurrent_v4000 pop = nullptr;
    PFN_cuMemGetInfo_v3020 memGetInfo = nullptr;
    [[nodiscard]] bool complete() const {
        return deviceGet && retain && release && push && pop && memGetInfo;
    }
};

template <class F>
void findDriverCall(const char* symbol, F& out) {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    // The signature as of CUDA 12.0 (the _v2 forms of cuMemGetInfo, push/pop and release).
    if (cudaGetDriverEntryPointByVersion(symbol, &fn, 12000, cudaEnableDefault, &found) == cudaSuccess &&
        found == cudaDriverEntryPointSuccess)
        out = reinterpret_cast<F>(fn);
    else
        cudaGetLastError();
}

const DriverCalls& driverCalls() {
    static const DriverCalls calls = [] {
        DriverCalls c;
        findDriverCall("cuDeviceGet", c.deviceGet);
        findDriverCall("cuDevicePrimaryCtxRetain", c.retain);
        findDriverCall("cuDevicePrimaryCtxRelease", c.release);
        findDriverCall("cuCtxPushCurrent", c.push);
        findDriverCall("cuCtxPopCurrent", c.pop);
        findDriverCall("cuMemGetInfo", c.memGetInfo);
        return c;
    }();
    return calls;
}

std::optional<std::uint64_t> freeMemoryOf(int ordinal) {
    const DriverCalls& d = driverCalls();
    if (!d.complete()) return std::nullopt;
    CUdevice device{};
    CUcontext context = nullptr;
    if (d.deviceGet(&device, ordinal) != CUDA_SUCCESS || d.retain(&context, device) != CUDA_SUCCESS)
        return std::nullopt;
    std::optional<std::uint64_t> free;
    if (d.push(context) == CUDA_SUCCESS) {
        std::size_t freeBytes = 0, totalBytes = 0;
        if (d.memGetInfo(&freeBytes, &totalBytes) == CUDA_SUCCESS) free = freeBytes;
        CUcontext popped = nullptr;
        (void)d.pop(&popped);
    }
    (void)d.release(device); // destroys the context only if this call made it
    return free;
}

} // namespace

void measureFreeMemory(GpuInfo& info) {
    if (!info.available) return;
    for (GpuDevice& device : info.devices)
        device.freeMemory = freeMemoryOf(device.index).value_or(0);
}

GpuInfo queryGpuInfo() {
    GpuInfo info;
    info.builtWithCuda = true;
    int runtime = 0;
    if (cudaRuntimeGetVersion(&runtime) == cudaSuccess) info.runtimeVersion = cudaVersionString(runtime);
    int driver = 0;
    if (cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0)
        info.driverVersion = cudaVersionString(driver);
#if RNNPROF_WITH_CUDNN
    info.builtWithCudnn = true;
    {
        const std::size_t v = cudnnGetVersion(); // MAJOR*10000 + MINOR*100 + PATCH on cuDNN 9
        info.cudnnVersion = std::to_string(v / 10000) + "." + std::to_string((v % 10000) / 100) + "." +
                            std::to_string(v % 100);
    }
#endif
    int count = 0; // stays 0 when the call fails (no driver)
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        info.reason = describeCudaDeviceCountError(int(err), cudaGetErrorName(err));
        cudaGetLastError(); // clear the sticky-free error so later calls start clean
        return info;
    }
    if (count == 0) {
        info.reason = "no CUDA-capable device";
        return info;
    }
    for (int i = 0; i < count; ++i) {
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) continue;
        GpuDevice d;
        d.index = i;
        d.name = prop.name;
        d.computeMajor = prop.major;
        d.computeMinor = prop.minor;
        d.totalMemory = prop.totalGlobalMem;
        d.multiprocessors = prop.multiProcessorCount;
        info.devices.push_back(d);
    }
    if (info.devices.empty()) {
        info.reason = "cudaGetDeviceProperties failed for every device";
        return info;
    }
    info.available = true;
    return info;
}

} // namespace rnnprof
