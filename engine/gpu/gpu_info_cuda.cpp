#include "engine/gpu/gpu_info.h"

#include <cuda_runtime_api.h>
#if RNNPROF_WITH_CUDNN
#include <cudnn.h>
#endif

namespace rnnprof {
namespace {

std::string cudaVersionString(int v) {
    return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

} // namespace

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
