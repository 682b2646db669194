#pragma once
// Whether a measured run was starved of CPU by other processes, told apart from a run that is slow
// by itself. A run is starved when the process's threads spent a large share of its wall time
// runnable but waiting for a CPU (Linux's run-queue delay, /proc/self/task/*/schedstat); where
// that is unknown, when the process got little CPU over the run and was preempted. A point most of
// whose runs were starved is `disturbed` (distinct from noisy: all runs can be starved alike, so
// the spread stays small while the median is far off) and the sweep measures it again at its end.
// The rules are pure functions of counters, so tests inject them; the reader is the only /proc use.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace rnnprof {

// Process counters at one moment (readUsageCounters()).
struct UsageCounters {
    double cpuMs = 0.0; // user + system time of all threads (getrusage RUSAGE_SELF)
    double waitMs =
        std::numeric_limits<double>::quiet_NaN(); // run-queue delay summed over threads; NaN: unknown
    std::uint64_t involuntarySwitches = 0;        // ru_nivcsw: preemptions
};

// What the process did over one run.
struct RunUsage {
    double wallMs = 0.0;
    double cpuMs = 0.0;
    double waitMs = std::numeric_limits<double>::quiet_NaN();
    std::uint64_t involuntarySwitches = 0;
};
[[nodiscard]] RunUsage usageBetween(const UsageCounters& before, const UsageCounters& after, double wallMs);

// Starved: the threads waited for a CPU longer than this share of the run's wall time (summed over
// threads, so two threads each waiting a third of the run count 0.67). A quiet machine stays
// below 0.05; one competing busy process on two cores puts a two-thread run at about 0.6.
inline constexpr double kStarvedWaitShare = 0.25;
// Without the run-queue delay: CPU time below this share of the wall time, with at least
// kStarvedSwitches preemptions (a GPU run waiting in a blocking sync has a low share too, but
// gives up the CPU voluntarily).
inline constexpr double kStarvedCpuShare = 0.5;
inline constexpr std::uint64_t kStarvedSwitches = 2;
[[nodiscard]] bool isStarved(const RunUsage& run);

// The runs of one point, summarized; what result files record.
struct Disturbance {
    int runs = 0;                                                      // runs with usage recorded
    int starvedRuns = 0;                                               // of them isStarved()
    double medianWaitShare = std::numeric_limits<double>::quiet_NaN(); // waitMs / wallMs; NaN: unknown
    double medianCpuShare = std::numeric_limits<double>::quiet_NaN();  // cpuMs / wallMs
    std::uint64_t involuntarySwitches = 0;                             // over all runs
    // Cores other processes kept busy over the stretch that ended with the point (host_load.h's
    // LoadWindow; NaN: not sampled), and whether that is more than the sweep leaves free
    // (busyWarning()): a competitor on a hyperthread sibling or the hypervisor's other guest slows
    // a run without making it wait in this kernel's run queue.
    double otherBusyCores = std::numeric_limits<double>::quiet_NaN();
    bool hostBusy = false;
    int remeasured = 0; // times the sweep measured the point again for it
    bool operator==(const Disturbance&) const;
};
[[nodiscard]] Disturbance summarizeRuns(const std::vector<RunUsage>& runs);
// Disturbed: at least half of the runs were starved, so the median may be a starved run's time; or
// other processes kept more cores busy than the sweep leaves free while it ran.
[[nodiscard]] bool isDisturbed(const Disturbance& d);
// "disturbed: 5 of 5 runs starved of CPU by other processes (median 62 % of a run waiting for a
// CPU)", "disturbed: other processes kept 1.0 cores busy while it ran"; empty when not.
[[nodiscard]] std::string disturbedText(const Disturbance& d);

// Reads the counters now: getrusage() and, on Linux, every thread's schedstat.
[[nodiscard]] UsageCounters readUsageCounters();
// The run-queue delay in ms of one /proc/.../schedstat text ("oncpu_ns waiting_ns timeslices");
// NaN when it does not parse.
[[nodiscard]] double parseSchedstatWaitMs(const std::string& text);

} // namespace rnnprof
