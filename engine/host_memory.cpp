#include "engine/host_memory.h"

#include "engine/error.h"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace rnnprof {

std::optional<std::uint64_t> availableHostMemory() {
    std::ifstream in("/proc/meminfo");
    std::string key;
    std::uint64_t kib = 0;
    std::string unit;
    while (in >> key >> kib >> unit) {
        if (key == "MemAvailable:") return kib * 1024;
    }
    return std::nullopt;
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
    s << what << " needs " << formatBytes(needed) << ", " << formatBytes(available)
      << " available: reduce batch, sequence length or hidden size";
    throw Error(ErrorKind::OutOfMemory, s.str());
}

} // namespace rnnprof
