#include "profiling/measure/host_load.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace rnnprof {
namespace {

constexpr std::size_t kBusiestShown = 3;
// A process below this share is background noise, not a competitor worth naming.
constexpr double kNamedProcessCores = 0.05;
// Other processes may use this much beyond what the sweep leaves free before the machine counts
// as busy: an idle desktop's daemons stay well below it.
constexpr double kBusyMarginCores = 0.5;

std::string readWhole(const std::string& path) {
    std::ifstream in(path);
    if (!in) return {};
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The space-separated numbers at the start of `line`; a negative one (tpgid -1 in
// /proc/PID/stat) counts as 0, none of the fields read here can be negative.
std::vector<std::uint64_t> numbersOf(std::string_view line) {
    std::vector<std::uint64_t> values;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && line[i] == ' ')
            ++i;
        long long v = 0;
        const auto [end, ec] = std::from_chars(line.data() + i, line.data() + line.size(), v);
        if (ec != std::errc{}) break;
        values.push_back(v < 0 ? 0 : std::uint64_t(v));
        i = std::size_t(end - line.data());
    }
    return values;
}

std::string fixed1(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", v);
    return text;
}

} // namespace

std::optional<double> parseLoadAverage(std::string_view text) {
    double v = 0.0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc{} || v < 0.0) return std::nullopt;
    return v;
}

std::optional<CpuTimes> parseCpuTimes(std::string_view text) {
    std::optional<CpuTimes> out;
    int cpus = 0;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view line = text.substr(start, end - start);
        start = end + 1;
        if (line.rfind("cpu ", 0) == 0) {
            // user nice system idle iowait irq softirq steal (guest time is already in user)
            const std::vector<std::uint64_t> v = numbersOf(line.substr(4));
            if (v.size() < 4) return std::nullopt;
            CpuTimes t;
            for (std::size_t i = 0; i < std::min<std::size_t>(v.size(), 8); ++i) {
                t.total += v[i];
                if (i != 3 && i != 4) t.busy += v[i];
            }
            out = t;
        } else if (line.rfind("cpu", 0) == 0 && line.size() > 3 && line[3] >= '0' && line[3] <= '9') {
            ++cpus;
        }
    }
    if (out) out->cpus = std::max(cpus, 1);
    return out;
}

std::optional<ProcessTimes> parseProcessStat(std::string_view text) {
    const std::size_t open = text.find('(');
    const std::size_t close = text.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open)
        return std::nullopt;
    ProcessTimes p;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + open, p.pid);
    if (ec != std::errc{}) return std::nullopt;
    p.name = std::string(text.substr(open + 1, close - open - 1));
    // After the name: state (field 3), then numbers; utime and stime are fields 14 and 15.
    std::string_view rest = text.substr(close + 1);
    const std::size_t state = rest.find_first_not_of(' ');
    if (state == std::string_view::npos) return std::nullopt;
    const std::vector<std::uint64_t> v = numbersOf(rest.substr(state + 1));
    if (v.size() < 12) return std::nullopt; // fields 4..15
    p.ticks = v[10] + v[11];
    return p;
}

HostLoad loadBetween(const LoadSnapshot& before, const LoadSnapshot& after, int selfPid,
                     double loadAverage1) {
    HostLoad load;
    load.loadAverage1 = loadAverage1;
    load.windowSeconds = std::chrono::duration<double>(after.at - before.at).count();
    if (after.cpu.total <= before.cpu.total) return load;
    // Ticks per core over the window: the total of all CPUs divided by their number.
    const double ticksPerCore =
        double(after.cpu.total - before.cpu.total) / double(std::max(after.cpu.cpus, 1));
    const double busy = after.cpu.busy >= before.cpu.busy ? double(after.cpu.busy - before.cpu.busy) : 0.0;
    double self = 0.0;
    for (const ProcessTimes& p : after.processes) {
        const auto earlier = std::find_if(before.processes.begin(), before.processes.end(),
                                          [&](const ProcessTimes& b) { return b.pid == p.pid; });
        // A process started within the window (a new or reused pid) used all its ticks in it.
        const bool started = earlier == before.processes.end() || p.ticks < earlier->ticks;
        const double used = double(started ? p.ticks : p.ticks - earlier->ticks);
        if (p.pid == selfPid) {
            self = used;
            continue;
        }
        if (used / ticksPerCore >= kNamedProcessCores)
            load.busiest.push_back({p.name, p.pid, used / ticksPerCore});
    }
    load.otherBusyCores = std::max(0.0, busy - self) / ticksPerCore;
    std::sort(load.busiest.begin(), load.busiest.end(),
              [](const BusyProcess& a, const BusyProcess& b) { return a.cores > b.cores; });
    if (load.busiest.size() > kBusiestShown) load.busiest.resize(kBusiestShown);
    return load;
}

std::optional<LoadSnapshot> takeLoadSnapshot() {
    LoadSnapshot s;
    s.at = std::chrono::steady_clock::now();
    const auto cpu = parseCpuTimes(readWhole("/proc/stat"));
    if (!cpu) return std::nullopt;
    s.cpu = *cpu;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
        const std::string name = entry.path().filename().string();
        if (name.empty() ||
            !std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; }))
            continue;
        if (auto p = parseProcessStat(readWhole(entry.path().string() + "/stat"))) s.processes.push_back(*p);
    }
    return s;
}

HostLoadMonitor::HostLoadMonitor() : m_last(takeLoadSnapshot()) {}

std::optional<HostLoad> HostLoadMonitor::sample() {
    auto now = takeLoadSnapshot();
    if (!now || !m_last) return std::nullopt;
    const double average = parseLoadAverage(readWhole("/proc/loadavg")).value_or(0.0);
    HostLoad load = loadBetween(*m_last, *now, int(getpid()), average);
    m_last = std::move(now);
    return load;
}

double HostLoadMonitor::secondsSinceLastSample() const {
    return m_last ? std::chrono::duration<double>(std::chrono::steady_clock::now() - m_last->at).count()
                  : 0.0;
}

void LoadWindow::mark() {
    if (auto now = takeLoadSnapshot()) m_history.push_back(std::move(*now));
}

std::optional<HostLoad> LoadWindow::sinceWindowStart() {
    auto now = takeLoadSnapshot();
    if (!now) return std::nullopt;
    auto age = [&](const LoadSnapshot& s) { return std::chrono::duration<double>(now->at - s.at).count(); };
    // Keep the newest snapshot that is still at least a window old, and everything after it.
    while (m_history.size() >= 2 && age(m_history[1]) >= m_window)
        m_history.erase(m_history.begin());
    std::optional<HostLoad> load;
    if (!m_history.empty() && age(m_history.front()) >= m_window) {
        const double average = parseLoadAverage(readWhole("/proc/loadavg")).value_or(0.0);
        load = loadBetween(m_history.front(), *now, int(getpid()), average);
    }
    m_history.push_back(std::move(*now));
    return load;
}

std::optional<HostLoad> sampleHostLoad(std::chrono::milliseconds window) {
    HostLoadMonitor monitor;
    std::this_thread::sleep_for(window);
    return monitor.sample();
}

double coresLeftFree(int cores, int threads) {
    if (threads <= 0 || threads >= cores) return 0.0;
    return double(cores - threads);
}

std::string busyWarning(const HostLoad& load, int cores, int threads) {
    const double free = coresLeftFree(cores, threads);
    if (load.otherBusyCores <= free + kBusyMarginCores) return {};
    std::string text = "Busy machine: other processes kept " + fixed1(load.otherBusyCores) + " of " +
                       std::to_string(cores) + " cores busy (load average " + fixed1(load.loadAverage1) +
                       ") while this sweep leaves " + fixed1(free) + " free";
    if (!load.busiest.empty()) {
        text += "; busiest: ";
        for (std::size_t i = 0; i < load.busiest.size(); ++i)
            text += (i ? ", " : "") + load.busiest[i].name + " (" + fixed1(load.busiest[i].cores) + ")";
    }
    return text + ". Times measured now may be far too slow: stop the other work or use fewer threads.";
}

double busySlowdown(const HostLoad& load, int cores, int threads) {
    if (cores <= 0) return 1.0;
    const double used = cores - coresLeftFree(cores, threads);
    const double taken = std::max(0.0, load.otherBusyCores - coresLeftFree(cores, threads));
    return used / std::max(used - taken, used / 4.0);
}

double threadCpuSeconds() {
#ifdef RUSAGE_THREAD
    rusage usage{};
    if (getrusage(RUSAGE_THREAD, &usage) != 0) return 0.0;
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
#else
    return 0.0;
#endif
}

} // namespace rnnprof
