#pragma once
// What the GPU side of this machine offers: the toolkit versions rnnprof was built with and the
// devices the driver reports, or the reason there are none ("no NVIDIA driver"). Never throws
// and never crashes: a build without CUDA, a machine without a driver or without a device all
// come back as available = false with a reason.
#include <cstdint>
#include <string>
#include <vector>

namespace rnnprof {

struct GpuDevice {
    int index = 0;
    std::string name;
    int computeMajor = 0;
    int computeMinor = 0;
    std::uint64_t totalMemory = 0;
    std::uint64_t freeMemory = 0;
    int multiprocessors = 0;
    bool operator==(const GpuDevice&) const = default;
};

struct GpuInfo {
    bool builtWithCuda = false;
    bool builtWithCudnn = false;
    bool builtWithCupti = false; // filled by profiling/ (describeCupti): the tracer is profiling's
    bool available = false;      // a usable device exists
    std::string reason;          // why not, when !available
    std::string runtimeVersion;  // CUDA runtime, e.g. "13.0"
    std::string driverVersion;   // highest CUDA version the driver supports, "" without driver
    std::string cudnnVersion;    // e.g. "9.19.0", "" when not built in
    std::string cuptiVersion;    // CUPTI API version, e.g. "130001"
    std::vector<GpuDevice> devices;
    bool operator==(const GpuInfo&) const = default;

    // "NVIDIA H100 (sm_90, 79.2 GiB)" or "unavailable: no NVIDIA driver"; with the free memory
    // when it was measured: "NVIDIA H100 (sm_90, 79.2 GiB, 78.6 GiB free)"
    [[nodiscard]] std::string summary() const;
    // "78.6 GiB free of 79.2 GiB on NVIDIA H100", one clause per device, or why there is none to
    // report: "none: no GPU (unavailable: no NVIDIA driver)"
    [[nodiscard]] std::string freeMemorySummary() const;
    // "CUDA 13.0 · cuDNN 9.19.0 · CUPTI 130001" or "built without CUDA"
    [[nodiscard]] std::string toolkitSummary() const;
};

// Queries once per process (thread-safe) and returns the cached answer; freeMemory is 0 there (it
// changes: see measureFreeMemory).
[[nodiscard]] const GpuInfo& gpuInfo();
// Sets freeMemory of every device in `info` to the driver's answer now (cuMemGetInfo). Each
// device's primary context is retained for the question and released after it, so a device no
// one uses is left without a context (and without the memory one takes), while one in use (a
// session's) is untouched. A device the driver does not answer for keeps 0; without a GPU there
// are no devices. Builds without CUDA do nothing.
void measureFreeMemory(GpuInfo& info);
// Queries now; for tests.
[[nodiscard]] GpuInfo queryGpuInfo();

// Translation of cudaGetDeviceCount's failures into words, e.g. 35 -> "no NVIDIA driver".
// Exposed so the mapping can be tested without a device.
[[nodiscard]] std::string describeCudaDeviceCountError(int cudaError, const std::string& errorName);

} // namespace rnnprof
