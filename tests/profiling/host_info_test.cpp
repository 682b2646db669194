// currentCpuHost(): the host as a CPU-only benchmark records it, without touching a GPU.
#include "profiling/measure/host_info.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace rnnprof {
namespace {

// The first "model name" of /proc/cpuinfo, read here independently of the code under test.
std::string procCpuModel() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0) {
            const std::string v = line.substr(line.find(':') + 1);
            const auto a = v.find_first_not_of(" \t"), b = v.find_last_not_of(" \t");
            return a == std::string::npos ? std::string() : v.substr(a, b - a + 1);
        }
    return {};
}

TEST(HostInfo, TheCpuHostIsTheHostWithoutItsGpus) {
    const HostInfo cpu = currentCpuHost();
    HostInfo full = currentHost();
    EXPECT_EQ(cpu.gpu, GpuInfo{}) << "currentCpuHost() must not probe the GPU";
    EXPECT_FALSE(cpu.loadBefore.has_value());
    EXPECT_FALSE(cpu.loadDuring.has_value());
    full.gpu = GpuInfo{};
    EXPECT_EQ(cpu, full) << "everything but the GPUs is the same as currentHost()'s";
}

TEST(HostInfo, TheCpuHostNamesTheCpuModelTheOsAndTheCpuLibraries) {
    const HostInfo cpu = currentCpuHost();
    if (const std::string model = procCpuModel(); !model.empty()) {
        EXPECT_EQ(cpu.cpuModel, model);
    }
    EXPECT_GE(cpu.cpuCores, 1);
    EXPECT_GT(cpu.memoryBytes, 0u);
    EXPECT_FALSE(cpu.os.empty());
    EXPECT_NE(cpu.cpuLibraries.find("oneDNN"), std::string::npos) << cpu.cpuLibraries;
    EXPECT_FALSE(cpu.rnnprofVersion.empty());
}

} // namespace
} // namespace rnnprof
