#include "engine/host_memory.h"

#include "engine/error.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace rnnprof {

namespace {

// A "<key> <n> kB" line of a /proc file, in bytes.
std::optional<std::uint64_t> procKibibytes(const char* file, const std::string& wanted) {
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string key;
        std::uint64_t kib = 0;
        if (fields >> key >> kib && key == wanted) return kib * 1024;
    }
    return std::nullopt;
}

} // namespace

std::optional<std::uint64_t> addressSpaceHeadroom() {
    struct rlimit limit {};
    if (::getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return std::nullopt;
    const std::uint64_t mapped = procKibibytes("/proc/self/status", "VmSize:").value_or(0);
    const auto cap = std::uint64_t(limit.rlim_cur);
    return cap > mapped ? cap - mapped : 0;
}

std::optional<std::uint64_t> availableHostMemory() {
    const auto free = procKibibytes("/proc/meminfo", "MemAvailable:");
    const auto headroom = addressSpaceHeadroom();
    if (free && headroom) return std::min(*free, *headroom);
    return free ? free : headroom;
}

std::string formatBytes(std::uint64_t bytes) {
    static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double value = double(bytes);
    int unit = 0;
    while (value >= 1024.0 && unit < 5) {
        value /= 1024.0;
        ++unit;
    }
    char buf[32];
    if (unit == 0)
        std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
    else
        std::snprintf(buf, sizeof buf, "%.1f %s", value, units[unit]);
    return buf;
}

void requireFits(std::uint64_t needed, std::uint64_t available, const std::string& what) {
    if (needed <= available) return;
    std::ostringstream s;
    s << what << " needs " << formatBytes(needed) << ", " << formatBytes(available) << " available";
    if (const auto headroom = addressSpaceHeadroom(); headroom && *headroom <= available)
        s << " (what the address-space limit, ulimit -v, leaves this process)";
    s << ": reduce batch, sequence length or hidden size";
    throw Error(ErrorKind::OutOfMemory, s.str());
}

} // namespace rnnprof
