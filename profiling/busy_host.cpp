#include "profiling/busy_host.h"

namespace rnnprof {

std::string hostBusyWarning(const HostInfo& host, int threads) {
    if (host.loadBefore)
        if (std::string w = busyWarning(*host.loadBefore, host.cpuCores, threads); !w.empty())
            return "before the sweep: " + w;
    if (host.loadDuring)
        if (std::string w = busyWarning(*host.loadDuring, host.cpuCores, threads); !w.empty())
            return "during the sweep: " + w;
    return {};
}

} // namespace rnnprof
