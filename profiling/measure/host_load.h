#pragma once
// How busy the machine is apart from rnnprof: the 1-minute load average and the CPU time other
// processes took over a short window, with the busiest of them by name. A sweep records one
// sample before it starts and the busiest sample while it runs (HostInfo::loadBefore/loadDuring),
// so that a time measured while another process held a core can be told from a quiet one. Linux
// /proc only; elsewhere, or when /proc cannot be read, no sample is made. The parsers take the
// files' text so that tests can feed them fakes.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rnnprof {

struct BusyProcess {
    std::string name; // the command name of /proc/PID/stat
    int pid = 0;
    double cores = 0.0; // CPU time over the window / the window: 1.0 is one core fully used
    bool operator==(const BusyProcess&) const = default;
};

struct HostLoad {
    double loadAverage1 = 0.0;   // /proc/loadavg, first field (runnable tasks, ours included)
    double otherBusyCores = 0.0; // cores kept busy by every process but this one, over the window
    double windowSeconds = 0.0;
    std::vector<BusyProcess> busiest; // the busiest other processes, busiest first (at most 3)
    bool operator==(const HostLoad&) const = default;
};

// Jiffies of the "cpu" line of /proc/stat, summed over all CPUs, and how many "cpuN" lines it has.
struct CpuTimes {
    std::uint64_t busy = 0;  // everything but idle and iowait
    std::uint64_t total = 0; // everything
    int cpus = 0;
};

struct ProcessTimes {
    int pid = 0;
    std::string name;
    std::uint64_t ticks = 0; // utime + stime, in the same clock ticks as /proc/stat
};

// Everything needed to compute a HostLoad between two moments.
struct LoadSnapshot {
    CpuTimes cpu;
    std::vector<ProcessTimes> processes; // every process readable in /proc, this one included
    std::chrono::steady_clock::time_point at;
};

[[nodiscard]] std::optional<double> parseLoadAverage(std::string_view procLoadavg);
[[nodiscard]] std::optional<CpuTimes> parseCpuTimes(std::string_view procStat);
// The text of /proc/PID/stat; the name may hold spaces and parentheses (it ends at the last ')').
[[nodiscard]] std::optional<ProcessTimes> parseProcessStat(std::string_view procPidStat);

// The load between two snapshots, leaving out process `selfPid` (and its threads, which share its
// stat line). Pure: the tests' oracle is arithmetic on the fake snapshots.
[[nodiscard]] HostLoad loadBetween(const LoadSnapshot& before, const LoadSnapshot& after, int selfPid,
                                   double loadAverage1);

// Reads /proc now; nullopt where /proc/stat cannot be read (not Linux).
[[nodiscard]] std::optional<LoadSnapshot> takeLoadSnapshot();
// Samples the load since the previous sample (or construction). Cheap enough to call between
// points (a few hundred small reads), never during a timed run.
class HostLoadMonitor {
public:
    HostLoadMonitor();
    // The load since the previous call; nullopt without /proc.
    [[nodiscard]] std::optional<HostLoad> sample();
    [[nodiscard]] double secondsSinceLastSample() const;

private:
    std::optional<LoadSnapshot> m_last;
};
// The load over the last stretch of at least `window` ending now, however short the calls between:
// what a sweep judges each point by (a point of 2 ms holds too few clock ticks for a share of its
// own, so it shares a window with the points before it). mark() before the first point.
class LoadWindow {
public:
    explicit LoadWindow(double windowSeconds) : m_window(windowSeconds) {}
    void mark();
    // nullopt without /proc or before `window` seconds have passed since the first mark().
    [[nodiscard]] std::optional<HostLoad> sinceWindowStart();

private:
    double m_window;
    std::vector<LoadSnapshot> m_history; // oldest first; the first is at least `window` old when full
};
// One sample over `window` (sleeps that long): what a sweep records before it starts.
[[nodiscard]] std::optional<HostLoad> sampleHostLoad(std::chrono::milliseconds window);

// The cores a sweep with `threads` threads (0: all) leaves to others on `cores` cores.
[[nodiscard]] double coresLeftFree(int cores, int threads);
// Busy: other processes keep more cores busy than the sweep leaves free, by more than half a core
// (a desktop's background flickers below that). Empty when not busy; otherwise one sentence
// naming the load and the busiest processes, and what to do.
[[nodiscard]] std::string busyWarning(const HostLoad& load, int cores, int threads);

// How much longer a sweep with `threads` threads (0: all) on `cores` cores takes while `load` holds:
// the cores it uses over those other processes leave it (the part of their load beyond the cores it
// leaves free), never more than 4x; 1 on a quiet machine.
[[nodiscard]] double busySlowdown(const HostLoad& load, int cores, int threads);

// CPU seconds the calling thread has used (user + system); 0 where unknown.
[[nodiscard]] double threadCpuSeconds();

} // namespace rnnprof
