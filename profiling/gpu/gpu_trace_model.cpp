#include "profiling/gpu/gpu_trace_model.h"

#include <algorithm>

namespace rnnprof::gpu {
namespace {

constexpr std::uint64_t kPhaseMask = 0xFF;
constexpr int kIterationShift = 8;
constexpr int kPointShift = 32;

// CUPTI writes start = end = 0 when it could not collect a timestamp; end < start would make a
// negative duration. Neither can be placed on a timeline.
bool missingTimes(std::uint64_t start, std::uint64_t end) {
    return start == 0 || end < start;
}

Attribution attributeTagged(std::uint64_t externalId, std::uint32_t pointId, std::uint32_t iterations) {
    const std::optional<PhaseTag> tag = decodeExternalId(externalId);
    Attribution a;
    if (!tag || tag->pointId != pointId || tag->iteration >= iterations) {
        a.scope = Scope::Foreign;
        return a;
    }
    a.iteration = tag->iteration;
    if (tag->phase) {
        a.scope = Scope::Phase;
        a.phase = *tag->phase;
    } else {
        a.scope = Scope::Setup;
    }
    return a;
}

void count(TraceCounters& counters, const Attribution& where) {
    if (where.scope == Scope::Unattributed) ++counters.unattributed;
    if (where.scope == Scope::Foreign) ++counters.foreign;
}

template <class Record>
void sortByStart(std::vector<Attributed<Record>>& records) {
    std::stable_sort(records.begin(), records.end(),
                     [](const auto& a, const auto& b) { return a.record.start < b.record.start; });
}

} // namespace

std::string_view toString(CopyKind kind) {
    switch (kind) {
    case CopyKind::HtoD:
        return "HtoD";
    case CopyKind::DtoH:
        return "DtoH";
    case CopyKind::HtoA:
        return "HtoA";
    case CopyKind::AtoH:
        return "AtoH";
    case CopyKind::AtoA:
        return "AtoA";
    case CopyKind::AtoD:
        return "AtoD";
    case CopyKind::DtoA:
        return "DtoA";
    case CopyKind::DtoD:
        return "DtoD";
    case CopyKind::HtoH:
        return "HtoH";
    case CopyKind::PtoP:
        return "PtoP";
    case CopyKind::Unknown:
        break;
    }
    return "unknown";
}

std::uint64_t encodeExternalId(const PhaseTag& tag) {
    const std::uint64_t iteration = std::min(tag.iteration, kMaxTaggedIteration);
    const std::uint64_t phase = tag.phase ? std::uint64_t(int(*tag.phase) + 1) : 0;
    return (std::uint64_t(tag.pointId) << kPointShift) | (iteration << kIterationShift) | phase;
}

std::optional<PhaseTag> decodeExternalId(std::uint64_t externalId) {
    const std::uint64_t phase = externalId & kPhaseMask;
    if (phase > std::uint64_t(kPhaseCount)) return std::nullopt;
    PhaseTag tag;
    tag.pointId = std::uint32_t(externalId >> kPointShift);
    tag.iteration = std::uint32_t((externalId >> kIterationShift) & kMaxTaggedIteration);
    if (phase > 0) tag.phase = Phase(int(phase) - 1);
    return tag;
}

CorrelationMap buildCorrelationMap(std::span<const RecordBatch> batches, std::uint32_t externalKind) {
    CorrelationMap map;
    for (const RecordBatch& batch : batches) {
        for (const ExternalCorrelationRecord& r : batch.correlations) {
            if (r.externalKind != externalKind) continue;
            const auto [it, inserted] = map.externalIds.try_emplace(r.correlationId, r.externalId);
            if (!inserted && it->second != r.externalId) ++map.conflicts;
        }
    }
    return map;
}

Attribution attribute(std::uint32_t correlationId, const CorrelationMap& map, std::uint32_t pointId,
                      std::uint32_t iterations) {
    const auto it = map.externalIds.find(correlationId);
    if (it == map.externalIds.end()) return Attribution{};
    return attributeTagged(it->second, pointId, iterations);
}

Attribution attributeCopy(const MemcpyRecord& copy, const CorrelationMap& map, std::uint32_t pointId,
                          std::uint32_t iterations) {
    Attribution a = attribute(copy.correlationId, map, pointId, iterations);
    if (a.scope == Scope::Unattributed && copy.runtimeCorrelationId != 0)
        a = attribute(copy.runtimeCorrelationId, map, pointId, iterations);
    return a;
}

AttributedTrace attributeRecords(std::span<const RecordBatch> batches, std::uint32_t pointId,
                                 std::uint32_t iterations) {
    const CorrelationMap map = buildCorrelationMap(batches);
    AttributedTrace trace;
    TraceCounters& counters = trace.counters;
    counters.correlationConflicts = map.conflicts;
    for (const RecordBatch& batch : batches) {
        if (batch.truncated) ++counters.truncatedBuffers;
        for (const KernelRecord& k : batch.kernels) {
            if (missingTimes(k.start, k.end)) {
                ++counters.missingTimestamps;
                continue;
            }
            const Attribution where = attribute(k.correlationId, map, pointId, iterations);
            count(counters, where);
            trace.kernels.push_back({k, where});
        }
        for (const MemcpyRecord& c : batch.memcpys) {
            if (missingTimes(c.start, c.end)) {
                ++counters.missingTimestamps;
                continue;
            }
            const Attribution where = attributeCopy(c, map, pointId, iterations);
            count(counters, where);
            trace.memcpys.push_back({c, where});
        }
        for (const MemsetRecord& s : batch.memsets) {
            if (missingTimes(s.start, s.end)) {
                ++counters.missingTimestamps;
                continue;
            }
            const Attribution where = attribute(s.correlationId, map, pointId, iterations);
            count(counters, where);
            trace.memsets.push_back({s, where});
        }
        for (const MemoryRecord& m : batch.memory) {
            if (m.timestamp == 0) {
                ++counters.missingTimestamps;
                continue;
            }
            const Attribution where = attribute(m.correlationId, map, pointId, iterations);
            count(counters, where);
            trace.memory.push_back({m, where});
        }
    }
    sortByStart(trace.kernels);
    sortByStart(trace.memcpys);
    sortByStart(trace.memsets);
    std::stable_sort(trace.memory.begin(), trace.memory.end(),
                     [](const auto& a, const auto& b) { return a.record.timestamp < b.record.timestamp; });
    return trace;
}

} // namespace rnnprof::gpu
