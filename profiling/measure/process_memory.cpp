#include "profiling/measure/process_memory.h"

#include <fstream>
#include <string>

namespace rnnprof {

std::optional<ProcessMemory> readProcessMemory() {
    std::ifstream in("/proc/self/status");
    if (!in) return std::nullopt;
    ProcessMemory m;
    std::string key;
    bool rss = false, hwm = false;
    while (in >> key) {
        if (key == "VmRSS:") {
            std::uint64_t kib = 0;
            in >> kib;
            m.rssBytes = kib * 1024;
            rss = true;
        } else if (key == "VmHWM:") {
            std::uint64_t kib = 0;
            in >> kib;
            m.peakBytes = kib * 1024;
            hwm = true;
        }
        in.ignore(1 << 16, '\n');
    }
    if (!rss || !hwm) return std::nullopt;
    return m;
}

bool resetPeakRss() {
    std::ofstream out("/proc/self/clear_refs");
    if (!out) return false;
    out << "5";
    return bool(out.flush());
}

} // namespace rnnprof
