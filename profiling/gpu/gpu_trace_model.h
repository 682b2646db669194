#pragma once
// GPU activity of one sweep point as plain records (what CUPTI reports, already decoded) and the
// pure functions that turn them into a GpuProfile and Chrome-trace slices: correlation map,
// attribution to (iteration, phase), sorting, aggregation, busy time, memory peaks.
// No CUDA headers and no CUPTI calls: all of it is tested on hand-built records on machines
// without a GPU. Decoding CUPTI's structs lives in cupti_decode.h, talking to CUPTI in
// cupti_tracer.h. Times are nanoseconds of CUPTI's clock (CLOCK_REALTIME on Linux) unless a name
// says otherwise.
#include "engine/phase_hook.h"
#include "profiling/result.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rnnprof::gpu {

// Values equal CUpti_ActivityMemcpyKind, so decoding is a cast.
enum class CopyKind : std::uint8_t {
    Unknown = 0,
    HtoD = 1,
    DtoH = 2,
    HtoA = 3,
    AtoH = 4,
    AtoA = 5,
    AtoD = 6,
    DtoA = 7,
    DtoD = 8,
    HtoH = 9,
    PtoP = 10,
};
[[nodiscard]] std::string_view toString(CopyKind kind); // "HtoD", ..., "unknown"

// Values equal CUpti_ActivityMemoryOperationType.
enum class MemoryOperation : std::uint8_t { Unknown = 0, Allocation = 1, Release = 2 };

// Values equal CUpti_ActivityMemoryKind.
enum class MemoryKind : std::uint8_t {
    Unknown = 0,
    Pageable = 1,
    Pinned = 2,
    Device = 3,
    Array = 4,
    Managed = 5,
    DeviceStatic = 6,
    ManagedStatic = 7,
};

struct KernelRecord {
    std::string name; // demangled
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    std::array<std::int32_t, 3> grid{};
    std::array<std::int32_t, 3> block{};
    std::uint16_t registersPerThread = 0;
    std::int32_t staticSharedMemory = 0;
    std::int32_t dynamicSharedMemory = 0;
    std::uint32_t correlationId = 0;
    std::uint32_t streamId = 0;
    std::uint32_t deviceId = 0;
    bool operator==(const KernelRecord&) const = default;
};

struct MemcpyRecord {
    CopyKind kind = CopyKind::Unknown;
    std::uint64_t bytes = 0;
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    std::uint32_t correlationId = 0;        // of the driver API call
    std::uint32_t runtimeCorrelationId = 0; // of the runtime API call, 0 when none
    std::uint32_t streamId = 0;
    std::uint32_t deviceId = 0;
    bool async = false;
    bool operator==(const MemcpyRecord&) const = default;
};

struct MemsetRecord {
    std::uint64_t bytes = 0;
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    std::uint32_t value = 0;
    std::uint32_t correlationId = 0;
    std::uint32_t streamId = 0;
    std::uint32_t deviceId = 0;
    bool operator==(const MemsetRecord&) const = default;
};

// One allocation or one release (CUPTI MEMORY2 reports both, each with its own correlation id).
struct MemoryRecord {
    MemoryOperation operation = MemoryOperation::Unknown;
    MemoryKind memoryKind = MemoryKind::Unknown;
    std::uint64_t address = 0;
    std::uint64_t bytes = 0;
    std::uint64_t timestamp = 0;
    std::uint32_t correlationId = 0;
    std::uint32_t streamId = 0;
    std::uint32_t deviceId = 0;
    bool async = false; // cudaMallocAsync family
    bool operator==(const MemoryRecord&) const = default;
};

struct ExternalCorrelationRecord {
    std::uint32_t externalKind = 0; // CUpti_ExternalCorrelationKind
    std::uint64_t externalId = 0;
    std::uint32_t correlationId = 0;
    bool operator==(const ExternalCorrelationRecord&) const = default;
};

enum class ApiDomain : std::uint8_t { Runtime, Driver };

struct ApiRecord {
    ApiDomain domain = ApiDomain::Runtime;
    std::uint32_t callbackId = 0; // CUpti_CallbackId of the runtime or driver function
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    std::uint32_t threadId = 0;
    std::uint32_t correlationId = 0;
    std::uint32_t returnValue = 0;
    bool operator==(const ApiRecord&) const = default;
};

// The records of one activity buffer, in buffer order (which is not time order).
struct RecordBatch {
    std::vector<KernelRecord> kernels;
    std::vector<MemcpyRecord> memcpys;
    std::vector<MemsetRecord> memsets;
    std::vector<MemoryRecord> memory;
    std::vector<ExternalCorrelationRecord> correlations;
    std::vector<ApiRecord> apis;
    std::uint64_t ignoredRecords = 0; // kinds not decoded (overhead, ...)
    bool truncated = false;           // iteration stopped at an invalid or incomplete record
};

// --- Tags: which (point, iteration, phase) an external correlation id stands for ---------------

inline constexpr std::uint32_t kCustom0CorrelationKind = 3; // CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0
inline constexpr std::uint32_t kMaxTaggedIteration = 0xFFFFFF;

struct PhaseTag {
    std::uint32_t pointId = 0;
    std::uint32_t iteration = 0;
    std::optional<Phase> phase; // nullopt: outside any phase (setup, between phases, warm-up)
    bool operator==(const PhaseTag&) const = default;
};

// externalId = (pointId << 32) | (iteration << 8) | (phase + 1), 0 in the low byte for no phase.
// Iterations above kMaxTaggedIteration saturate (a sweep point never runs that many).
[[nodiscard]] std::uint64_t encodeExternalId(const PhaseTag& tag);
// nullopt when the low byte names no phase (an id rnnprof did not push).
[[nodiscard]] std::optional<PhaseTag> decodeExternalId(std::uint64_t externalId);

// correlationId -> externalId, from the external-correlation records of ALL buffers of a point:
// the record naming a kernel's correlation id can land in a later buffer than the kernel.
struct CorrelationMap {
    std::unordered_map<std::uint32_t, std::uint64_t> externalIds;
    std::uint64_t conflicts = 0; // a correlation id seen with two different external ids: first wins
};
[[nodiscard]] CorrelationMap buildCorrelationMap(std::span<const RecordBatch> batches,
                                                 std::uint32_t externalKind = kCustom0CorrelationKind);

enum class Scope : std::uint8_t {
    Phase,        // inside a phase of a measured iteration
    Setup,        // a measured iteration, but outside its phases
    Foreign,      // tagged for another point (stale warm-up work) or beyond the measured iterations
    Unattributed, // no tag: launched outside the pushed scopes or from another thread
};

struct Attribution {
    Scope scope = Scope::Unattributed;
    std::uint32_t iteration = 0;
    Phase phase = Phase::Forward; // meaningful for Scope::Phase only
    bool operator==(const Attribution&) const = default;
};

[[nodiscard]] Attribution attribute(std::uint32_t correlationId, const CorrelationMap& map,
                                    std::uint32_t pointId, std::uint32_t iterations);
// A memcpy carries the driver call's id and the runtime call's id; either may be the tagged one.
[[nodiscard]] Attribution attributeCopy(const MemcpyRecord& copy, const CorrelationMap& map,
                                        std::uint32_t pointId, std::uint32_t iterations);

template <class Record>
struct Attributed {
    Record record;
    Attribution where;
};

struct TraceCounters {
    std::uint64_t missingTimestamps = 0;    // start = end = 0 (device buffer was full) or end < start
    std::uint64_t unattributed = 0;         // GPU records with Scope::Unattributed
    std::uint64_t foreign = 0;              // GPU records with Scope::Foreign
    std::uint64_t correlationConflicts = 0; // see CorrelationMap::conflicts
    std::uint64_t truncatedBuffers = 0;
    bool operator==(const TraceCounters&) const = default;
};

// Every GPU record of a point, attributed, without those missing timestamps, sorted by time
// (kernels, memcpys, memsets by start; memory by timestamp) whatever the buffer order was.
struct AttributedTrace {
    std::vector<Attributed<KernelRecord>> kernels;
    std::vector<Attributed<MemcpyRecord>> memcpys;
    std::vector<Attributed<MemsetRecord>> memsets;
    std::vector<Attributed<MemoryRecord>> memory;
    TraceCounters counters;
};

// Two passes: the correlation map over every batch first, then attribution of each GPU record.
[[nodiscard]] AttributedTrace attributeRecords(std::span<const RecordBatch> batches, std::uint32_t pointId,
                                               std::uint32_t iterations);

// --- Aggregation (gpu_trace_aggregate.cpp) ------------------------------------------------------

struct TimeInterval {
    std::uint64_t start = 0;
    std::uint64_t end = 0;
};

// Length of the union of the intervals (overlapping kernels on several streams count once).
[[nodiscard]] std::uint64_t unionLength(std::vector<TimeInterval> intervals);

// Peak live bytes of device memory per phase, above the level when tracing started. The records
// must be sorted by timestamp (attributeRecords does that). A running sum over every record (any
// scope: live memory is device-wide): + bytes on allocation, - the allocation's bytes on its
// release (matched by address); a release whose allocation was not seen (made before tracing) is
// ignored. A phase's peak is the highest level just before or after any of its own records.
// Only MemoryKind::Device counts (pinned host memory is not device memory).
[[nodiscard]] std::array<std::uint64_t, kPhaseCount>
peakDeviceBytes(std::span<const Attributed<MemoryRecord>> sortedRecords);

// The profile of `iterations` measured iterations, all figures per iteration:
// - kernels: per (phase, name): launches (averaged, rounded), total and mean/min/max duration,
//   share of the kernel time of the point (shares sum to 1); sorted by phase, then total time;
// - memcpys: per direction ("HtoD", ...) plus "Memset", bytes, time and count, in phases or
//   between them;
// - gpuBusyUs: mean union of kernel/memcpy/memset intervals of an iteration;
// - wallUs: mean length of `iterationWindows` (host time of each iteration, same clock), or the
//   span of the iteration's GPU records when no windows are given;
// - droppedRecords: records missing timestamps (the caller adds CUPTI's own dropped count);
// - unattributedRecords.
// traced = true; fields CUPTI cannot know (eventMs, workspace, math type, overhead) stay default.
[[nodiscard]] GpuProfile aggregateProfile(const AttributedTrace& trace, std::uint32_t iterations,
                                          std::span<const TimeInterval> iterationWindows);

// Kernels, memcpys and memsets of one measured iteration (in a phase or between phases) as trace
// slices on track 1 + streamId, microseconds relative to originNs, sorted by start.
[[nodiscard]] std::vector<TraceSlice> traceSlices(const AttributedTrace& trace, std::uint32_t iteration,
                                                  std::uint64_t originNs);

} // namespace rnnprof::gpu
