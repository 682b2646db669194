#include "profiling/analysis/busy_host.h"

#include <cstdio>
#include <utility>

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

std::string hostBusyBrief(const HostInfo& host, int threads) {
    for (const auto& [when, load] :
         {std::pair{"before", &host.loadBefore}, std::pair{"during", &host.loadDuring}})
        if (*load && !busyWarning(**load, host.cpuCores, threads).empty()) {
            char cores[32];
            std::snprintf(cores, sizeof cores, "%.1f", (*load)->otherBusyCores);
            return std::string("busy ") + when + " the sweep: others kept " + cores + " of " +
                   std::to_string(host.cpuCores) + " cores busy";
        }
    return {};
}

} // namespace rnnprof
