#include "engine/gpu/gpu_info.h"

#include "engine/host_memory.h"

#include <mutex>

namespace rnnprof {

std::string GpuInfo::summary() const {
    if (!available || devices.empty()) return "unavailable: " + reason;
    const GpuDevice& d = devices.front();
    std::string s = d.name + " (sm_" + std::to_string(d.computeMajor) + std::to_string(d.computeMinor) +
                    ", " + formatBytes(d.totalMemory) +
                    (d.freeMemory > 0 ? ", " + formatBytes(d.freeMemory) + " free" : std::string()) + ")";
    if (devices.size() > 1) s += " +" + std::to_string(devices.size() - 1) + " more";
    return s;
}

std::string GpuInfo::freeMemorySummary() const {
    if (!available || devices.empty()) return "none: no GPU (" + summary() + ")";
    std::string s;
    for (const GpuDevice& d : devices) {
        if (!s.empty()) s += "; ";
        s += d.freeMemory > 0 ? formatBytes(d.freeMemory) + " free of " + formatBytes(d.totalMemory)
                              : std::string("not known (the driver did not answer)");
        s += " on device " + std::to_string(d.index) + " (" + d.name + ")";
    }
    return s;
}

std::string GpuInfo::toolkitSummary() const {
    if (!builtWithCuda) return "built without CUDA";
    std::string s = "CUDA " + runtimeVersion;
    if (!driverVersion.empty()) s += " (driver supports " + driverVersion + ")";
    s += builtWithCudnn ? " · cuDNN " + cudnnVersion : " · no cuDNN";
    s += builtWithCupti ? " · CUPTI " + cuptiVersion : " · no CUPTI";
    return s;
}

std::string describeCudaDeviceCountError(int cudaError, const std::string& errorName) {
    switch (cudaError) {
    case 35:
        return "no NVIDIA driver (cudaErrorInsufficientDriver: the driver is missing or older than CUDA "
               "runtime)";
    case 100:
        return "no CUDA-capable device (cudaErrorNoDevice)";
    case 3:
        return "the CUDA driver failed to initialise (cudaErrorInitializationError)";
    case 34:
        return "CUDA stub library loaded instead of the driver (cudaErrorStubLibrary): no NVIDIA driver";
    case 999:
        return "unknown CUDA error (cudaErrorUnknown): is the NVIDIA driver loaded?";
    default:
        return "cudaGetDeviceCount failed: " + errorName + " (" + std::to_string(cudaError) + ")";
    }
}

const GpuInfo& gpuInfo() {
    static std::once_flag once;
    static GpuInfo info;
    std::call_once(once, [] { info = queryGpuInfo(); });
    return info;
}

} // namespace rnnprof
