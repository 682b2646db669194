#include "profiling/measure/starvation.h"

#include "profiling/measure/statistics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <sys/resource.h>
#include <vector>

namespace rnnprof {
namespace {

bool same(double a, double b) {
    return a == b || (std::isnan(a) && std::isnan(b));
}

std::string percent(double share) {
    char text[16];
    std::snprintf(text, sizeof text, "%.0f %%", 100.0 * share);
    return text;
}

} // namespace

RunUsage usageBetween(const UsageCounters& before, const UsageCounters& after, double wallMs) {
    RunUsage u;
    u.wallMs = wallMs;
    u.cpuMs = std::max(0.0, after.cpuMs - before.cpuMs);
    if (!std::isnan(after.waitMs) && !std::isnan(before.waitMs))
        u.waitMs = std::max(0.0, after.waitMs - before.waitMs);
    u.involuntarySwitches = after.involuntarySwitches > before.involuntarySwitches
                                ? after.involuntarySwitches - before.involuntarySwitches
                                : 0;
    return u;
}

bool isStarved(const RunUsage& run) {
    if (!(run.wallMs > 0.0)) return false;
    if (!std::isnan(run.waitMs)) return run.waitMs > kStarvedWaitShare * run.wallMs;
    return run.involuntarySwitches >= kStarvedSwitches && run.cpuMs < kStarvedCpuShare * run.wallMs;
}

bool Disturbance::operator==(const Disturbance& o) const {
    return runs == o.runs && starvedRuns == o.starvedRuns && same(medianWaitShare, o.medianWaitShare) &&
           same(medianCpuShare, o.medianCpuShare) && involuntarySwitches == o.involuntarySwitches &&
           same(otherBusyCores, o.otherBusyCores) && hostBusy == o.hostBusy && remeasured == o.remeasured;
}

Disturbance summarizeRuns(const std::vector<RunUsage>& runs) {
    Disturbance d;
    std::vector<double> waits, cpus;
    for (const RunUsage& r : runs) {
        if (!(r.wallMs > 0.0)) continue;
        ++d.runs;
        d.starvedRuns += isStarved(r) ? 1 : 0;
        d.involuntarySwitches += r.involuntarySwitches;
        cpus.push_back(r.cpuMs / r.wallMs);
        if (!std::isnan(r.waitMs)) waits.push_back(r.waitMs / r.wallMs);
    }
    if (!cpus.empty()) d.medianCpuShare = summarize(cpus).median;
    if (!waits.empty() && waits.size() == cpus.size()) d.medianWaitShare = summarize(waits).median;
    return d;
}

namespace {

bool mostRunsStarved(const Disturbance& d) {
    return d.runs > 0 && 2 * d.starvedRuns >= d.runs;
}

} // namespace

bool isDisturbed(const Disturbance& d) {
    return mostRunsStarved(d) || d.hostBusy;
}

std::string disturbedText(const Disturbance& d) {
    if (!isDisturbed(d)) return {};
    std::vector<std::string> why;
    if (mostRunsStarved(d))
        why.push_back(std::to_string(d.starvedRuns) + " of " + std::to_string(d.runs) +
                      " runs starved of CPU by other processes (" +
                      (!std::isnan(d.medianWaitShare)
                           ? "median " + percent(d.medianWaitShare) + " of a run waiting for a CPU"
                           : "median CPU time " + percent(d.medianCpuShare) + " of a run's wall time") +
                      ")");
    if (d.hostBusy) {
        char cores[32];
        std::snprintf(cores, sizeof cores, "%.1f", d.otherBusyCores);
        why.push_back(std::string("other processes kept ") + cores + " cores busy while it ran");
    }
    std::string out = "disturbed: " + why.front() + (why.size() > 1 ? "; " + why.back() : "");
    if (d.remeasured > 0)
        out += "; still so after " + std::to_string(d.remeasured) + " re-measurement" +
               (d.remeasured > 1 ? "s" : "");
    return out;
}

double parseSchedstatWaitMs(const std::string& text) {
    std::istringstream in(text);
    unsigned long long onCpu = 0, waiting = 0;
    if (!(in >> onCpu >> waiting)) return std::nan("");
    return double(waiting) / 1e6;
}

UsageCounters readUsageCounters() {
    UsageCounters c;
    rusage usage{};
    if (::getrusage(RUSAGE_SELF, &usage) == 0) {
        c.cpuMs = (double(usage.ru_utime.tv_sec) + double(usage.ru_stime.tv_sec)) * 1e3 +
                  (double(usage.ru_utime.tv_usec) + double(usage.ru_stime.tv_usec)) / 1e3;
        c.involuntarySwitches = usage.ru_nivcsw > 0 ? std::uint64_t(usage.ru_nivcsw) : 0;
    }
#ifdef __linux__
    // Threads that ended during the run take their delay with them; the engine's pools live as
    // long as the process, so what is lost is small and only ever lowers the figure.
    if (DIR* dir = ::opendir("/proc/self/task")) {
        double total = 0.0;
        bool any = false;
        while (const dirent* entry = ::readdir(dir)) {
            if (entry->d_name[0] == '.') continue;
            std::ifstream file(std::string("/proc/self/task/") + entry->d_name + "/schedstat");
            std::string text;
            if (!std::getline(file, text)) continue;
            const double ms = parseSchedstatWaitMs(text);
            if (std::isnan(ms)) continue;
            total += ms;
            any = true;
        }
        ::closedir(dir);
        if (any) c.waitMs = total;
    }
#endif
    return c;
}

} // namespace rnnprof
