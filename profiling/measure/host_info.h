#pragma once
// The machine a measurement was taken on: recorded in every result file, shown in the status bar
// and printed by `rnnprof --version`.
#include "engine/gpu/gpu_info.h"
#include "profiling/measure/host_load.h"

#include <cstdint>
#include <optional>
#include <string>

namespace rnnprof {

struct HostInfo {
    std::string hostname;
    std::string cpuModel;
    int cpuCores = 0;              // logical CPUs this process may run on
    std::uint64_t memoryBytes = 0; // MemTotal
    std::string os;                // e.g. "Debian GNU/Linux 12 (bookworm), Linux 6.1.0"
    std::string cpuLibraries;      // OpenBLAS and oneDNN versions
    GpuInfo gpu; // with each device's free memory when the record was made (measureFreeMemory)
    std::string rnnprofVersion;
    // How busy the machine was apart from rnnprof (profiling/measure/host_load.h): sampled just before a
    // sweep's first point, and the busiest sample between its points. Absent in files written
    // before they were recorded, and where /proc cannot be read.
    std::optional<HostLoad> loadBefore;
    std::optional<HostLoad> loadDuring;

    bool operator==(const HostInfo&) const = default;
};

[[nodiscard]] HostInfo currentHost();
// currentHost() without its GPUs (gpu stays empty, and no CUDA or CUPTI call is made): what a
// CPU-only benchmark records, so that it starts no GPU context beside what it times.
[[nodiscard]] HostInfo currentCpuHost();
// The kind of machine, as merged results tell their hosts apart: the first GPU's name when the host
// had a usable one ("NVIDIA H100 80GB HBM3"), else the CPU model. Shards measured on identical
// cluster nodes share it and chart as one series; results of different machines do not.
[[nodiscard]] std::string machineName(const HostInfo& host);
// Multi-line text for `rnnprof --version`.
[[nodiscard]] std::string describeHost(const HostInfo& host);
// One line for the status bar: "Intel Xeon · 2 cores · GPU: unavailable: no NVIDIA driver".
[[nodiscard]] std::string hostStatusLine(const HostInfo& host);

} // namespace rnnprof
