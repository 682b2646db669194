#include "profiling/measure/host_info.h"

#include "engine/cpu/cpu_libraries.h"
#include "engine/host_memory.h"
#include "profiling/gpu/cupti_tracer.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#ifndef RNNPROF_VERSION
#define RNNPROF_VERSION "0.0.0"
#endif

namespace rnnprof {
namespace {

std::string trim(std::string s) {
    const auto a = s.find_first_not_of(" \t\"");
    const auto b = s.find_last_not_of(" \t\"\n");
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

std::string readCpuModel() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0) return trim(line.substr(line.find(':') + 1));
    return "unknown CPU";
}

std::uint64_t readMemTotal() {
    std::ifstream in("/proc/meminfo");
    std::string key, unit;
    std::uint64_t kib = 0;
    while (in >> key >> kib >> unit)
        if (key == "MemTotal:") return kib * 1024;
    return 0;
}

std::string readOs() {
    std::string pretty;
    std::ifstream in("/etc/os-release");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("PRETTY_NAME=", 0) == 0) pretty = trim(line.substr(12));
    utsname u{};
    if (uname(&u) == 0) pretty += (pretty.empty() ? "" : ", ") + std::string(u.sysname) + " " + u.release;
    return pretty.empty() ? "unknown OS" : pretty;
}

} // namespace

HostInfo currentCpuHost() {
    HostInfo h;
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) == 0) h.hostname = name;
    h.cpuModel = readCpuModel();
    h.cpuCores = availableCpuCores();
    h.memoryBytes = readMemTotal();
    h.os = readOs();
    h.cpuLibraries = cpuLibraryVersions();
    h.rnnprofVersion = RNNPROF_VERSION;
    return h;
}

HostInfo currentHost() {
    HostInfo h = currentCpuHost();
    h.gpu = gpuInfo();
    measureFreeMemory(h.gpu); // now, not when the GPU was first probed
    describeCupti(h.gpu);
    return h;
}

std::string machineName(const HostInfo& host) {
    if (host.gpu.available && !host.gpu.devices.empty() && !host.gpu.devices.front().name.empty())
        return host.gpu.devices.front().name;
    return host.cpuModel.empty() ? host.hostname : host.cpuModel;
}

std::string describeHost(const HostInfo& h) {
    std::ostringstream s;
    s << "rnnprof " << h.rnnprofVersion << "\n"
      << "host:      " << h.hostname << "\n"
      << "CPU:       " << h.cpuModel << ", " << h.cpuCores << " cores, " << formatBytes(h.memoryBytes)
      << " memory\n"
      << "OS:        " << h.os << "\n"
      << "CPU libs:  " << h.cpuLibraries << "\n"
      << "GPU:       " << h.gpu.summary() << "\n"
      << "GPU free:  " << h.gpu.freeMemorySummary() << "\n"
      << "GPU libs:  " << h.gpu.toolkitSummary() << "\n";
    return s.str();
}

std::string hostStatusLine(const HostInfo& h) {
    return h.cpuModel + " · " + std::to_string(h.cpuCores) + " cores · GPU: " + h.gpu.summary() + " · " +
           h.gpu.toolkitSummary();
}

} // namespace rnnprof
