// Aggregation half of gpu_trace_model.h: from attributed records to per-iteration figures.
#include "profiling/gpu/gpu_trace_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>
#include <unordered_map>

namespace rnnprof::gpu {
namespace {

constexpr double kNsPerUs = 1000.0;
constexpr int kMemsetKey = 1000;              // sorts after every CopyKind
constexpr std::uint32_t kMaxTrack = 1u << 30; // CUPTI's invalid stream id is 0xFFFFFFFF

struct DurationAccumulator {
    std::uint64_t count = 0;
    std::uint64_t bytes = 0;
    std::uint64_t totalNs = 0;
    std::uint64_t minNs = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t maxNs = 0;

    void add(std::uint64_t durationNs, std::uint64_t addedBytes = 0) {
        ++count;
        bytes += addedBytes;
        totalNs += durationNs;
        minNs = std::min(minNs, durationNs);
        maxNs = std::max(maxNs, durationNs);
    }
};

bool inMeasuredIteration(const Attribution& where) {
    return where.scope == Scope::Phase || where.scope == Scope::Setup;
}

// Per-iteration average of a count, rounded: 3 launches over 2 iterations is 2 per iteration.
int perIteration(std::uint64_t total, std::uint32_t iterations) {
    return int(std::llround(double(total) / double(iterations)));
}

double toUs(double ns) {
    return ns / kNsPerUs;
}

std::vector<KernelStat> kernelStats(const AttributedTrace& trace, std::uint32_t iterations) {
    std::map<std::pair<int, std::string>, DurationAccumulator> byPhaseAndName;
    std::uint64_t allKernelNs = 0;
    for (const auto& [k, where] : trace.kernels) {
        if (where.scope != Scope::Phase) continue;
        const std::uint64_t ns = k.end - k.start;
        byPhaseAndName[{int(where.phase), k.name}].add(ns);
        allKernelNs += ns;
    }
    std::vector<KernelStat> stats;
    stats.reserve(byPhaseAndName.size());
    for (const auto& [key, acc] : byPhaseAndName) {
        KernelStat s;
        s.phase = Phase(key.first);
        s.name = key.second;
        s.count = perIteration(acc.count, iterations);
        s.totalUs = toUs(double(acc.totalNs) / iterations);
        s.meanUs = toUs(double(acc.totalNs) / double(acc.count));
        s.minUs = toUs(double(acc.minNs));
        s.maxUs = toUs(double(acc.maxNs));
        s.share = allKernelNs > 0 ? double(acc.totalNs) / double(allKernelNs) : 0.0;
        stats.push_back(std::move(s));
    }
    std::sort(stats.begin(), stats.end(), [](const KernelStat& a, const KernelStat& b) {
        return std::tuple(int(a.phase), -a.totalUs, a.name) < std::tuple(int(b.phase), -b.totalUs, b.name);
    });
    return stats;
}

std::vector<MemcpyStat> copyStats(const AttributedTrace& trace, std::uint32_t iterations) {
    std::map<int, DurationAccumulator> byDirection;
    for (const auto& [c, where] : trace.memcpys)
        if (inMeasuredIteration(where)) byDirection[int(c.kind)].add(c.end - c.start, c.bytes);
    for (const auto& [s, where] : trace.memsets)
        if (inMeasuredIteration(where)) byDirection[kMemsetKey].add(s.end - s.start, s.bytes);
    std::vector<MemcpyStat> stats;
    for (const auto& [key, acc] : byDirection) {
        MemcpyStat s;
        s.direction = key == kMemsetKey ? "Memset" : std::string(toString(CopyKind(key)));
        s.bytes = std::uint64_t(std::llround(double(acc.bytes) / iterations));
        s.totalUs = toUs(double(acc.totalNs) / iterations);
        s.count = perIteration(acc.count, iterations);
        stats.push_back(std::move(s));
    }
    return stats;
}

// The GPU intervals of each measured iteration: kernels, memcpys and memsets.
std::vector<std::vector<TimeInterval>> intervalsPerIteration(const AttributedTrace& trace,
                                                             std::uint32_t iterations) {
    std::vector<std::vector<TimeInterval>> perIteration(iterations);
    const auto collect = [&](const auto& records) {
        for (const auto& [r, where] : records)
            if (inMeasuredIteration(where) && where.iteration < iterations)
                perIteration[where.iteration].push_back({r.start, r.end});
    };
    collect(trace.kernels);
    collect(trace.memcpys);
    collect(trace.memsets);
    return perIteration;
}

double meanWallNs(std::span<const TimeInterval> windows, const std::vector<std::vector<TimeInterval>>& gpu) {
    double sum = 0.0;
    int n = 0;
    if (!windows.empty()) {
        for (const TimeInterval& w : windows) {
            if (w.end <= w.start) continue;
            sum += double(w.end - w.start);
            ++n;
        }
    } else {
        for (const auto& intervals : gpu) {
            if (intervals.empty()) continue;
            std::uint64_t first = std::numeric_limits<std::uint64_t>::max();
            std::uint64_t last = 0;
            for (const TimeInterval& i : intervals) {
                first = std::min(first, i.start);
                last = std::max(last, i.end);
            }
            sum += double(last - first);
            ++n;
        }
    }
    return n > 0 ? sum / n : 0.0;
}

// Signed microseconds from origin; computed in integers first because nanosecond timestamps of
// the realtime clock (~1.8e18) are beyond double's exact range.
double usSince(std::uint64_t t, std::uint64_t originNs) {
    return toUs(double(std::int64_t(t) - std::int64_t(originNs)));
}

} // namespace

std::uint64_t unionLength(std::vector<TimeInterval> intervals) {
    std::sort(intervals.begin(), intervals.end(),
              [](const TimeInterval& a, const TimeInterval& b) { return a.start < b.start; });
    std::uint64_t total = 0;
    std::uint64_t coveredUntil = 0;
    for (const TimeInterval& i : intervals) {
        if (i.end <= i.start) continue;
        const std::uint64_t from = std::max(i.start, coveredUntil);
        if (i.end > from) total += i.end - from;
        coveredUntil = std::max(coveredUntil, i.end);
    }
    return total;
}

std::array<std::uint64_t, kPhaseCount>
peakDeviceBytes(std::span<const Attributed<MemoryRecord>> sortedRecords) {
    std::array<std::uint64_t, kPhaseCount> peaks{};
    std::unordered_map<std::uint64_t, std::uint64_t> liveByAddress;
    std::uint64_t live = 0;
    for (const auto& [m, where] : sortedRecords) {
        if (m.memoryKind != MemoryKind::Device) continue;
        const std::uint64_t before = live;
        if (m.operation == MemoryOperation::Allocation) {
            std::uint64_t& slot = liveByAddress[m.address];
            live = live - slot + m.bytes; // an address allocated twice without a seen release
            slot = m.bytes;
        } else if (m.operation == MemoryOperation::Release) {
            const auto it = liveByAddress.find(m.address);
            if (it != liveByAddress.end()) {
                live -= it->second;
                liveByAddress.erase(it);
            }
        }
        if (where.scope == Scope::Phase) {
            std::uint64_t& peak = peaks[std::size_t(where.phase)];
            peak = std::max({peak, before, live});
        }
    }
    return peaks;
}

GpuProfile aggregateProfile(const AttributedTrace& trace, std::uint32_t iterations,
                            std::span<const TimeInterval> iterationWindows) {
    GpuProfile profile;
    profile.traced = true;
    profile.droppedRecords = trace.counters.missingTimestamps;
    profile.unattributedRecords = trace.counters.unattributed;
    profile.peakDeviceBytes = peakDeviceBytes(trace.memory);
    if (iterations == 0) return profile; // nothing can belong to a measured iteration
    profile.kernels = kernelStats(trace, iterations);
    profile.memcpys = copyStats(trace, iterations);
    const auto gpu = intervalsPerIteration(trace, iterations);
    double busyNs = 0.0;
    for (const auto& intervals : gpu)
        busyNs += double(unionLength(intervals));
    profile.gpuBusyUs = toUs(busyNs / iterations);
    profile.wallUs = toUs(meanWallNs(iterationWindows, gpu));
    return profile;
}

std::vector<TraceSlice> traceSlices(const AttributedTrace& trace, std::uint32_t iteration,
                                    std::uint64_t originNs) {
    std::vector<TraceSlice> slices;
    const auto wanted = [&](const Attribution& where) {
        return inMeasuredIteration(where) && where.iteration == iteration;
    };
    const auto slice = [&](std::string name, const char* category, const auto& r) {
        TraceSlice s;
        s.name = std::move(name);
        s.category = category;
        s.startUs = usSince(r.start, originNs);
        s.durationUs = toUs(double(r.end - r.start));
        s.track = 1 + int(std::min<std::uint32_t>(r.streamId, kMaxTrack));
        slices.push_back(std::move(s));
    };
    for (const auto& [k, where] : trace.kernels)
        if (wanted(where)) slice(k.name, "kernel", k);
    for (const auto& [c, where] : trace.memcpys)
        if (wanted(where)) slice("Memcpy " + std::string(toString(c.kind)), "memcpy", c);
    for (const auto& [s, where] : trace.memsets)
        if (wanted(where)) slice("Memset", "memset", s);
    std::stable_sort(slices.begin(), slices.end(),
                     [](const TraceSlice& a, const TraceSlice& b) { return a.startUs < b.startUs; });
    return slices;
}

} // namespace rnnprof::gpu
