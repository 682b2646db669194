#pragma once
// The CUPTI activity calls the kernel tracer makes, behind a small interface: cupti_tracer.cpp
// implements it over libcupti, tests implement it with a fake so the tracer's sequencing
// (enable before warm-up, discard, correlation pushes, flush, disable, degradation on failure)
// is tested without a GPU. Not a general CUPTI wrapper: it offers what ActivityTracer needs.
#include "profiling/gpu/gpu_trace_model.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rnnprof::gpu {

// The outcome of one call: empty on success, otherwise a sentence naming the call and the status,
// e.g. "cuptiActivityEnable(CONCURRENT_KERNEL) failed: CUPTI_ERROR_UNKNOWN (999)".
struct ApiStatus {
    std::string error;
    [[nodiscard]] bool ok() const { return error.empty(); }
};

enum class ActivityKind : std::uint8_t {
    ConcurrentKernel, // never KERNEL: it serialises every kernel on the GPU
    Memcpy,
    Memset,
    Memory, // MEMORY2: one record per allocation and per release
    Runtime,
    Driver,
    ExternalCorrelation,
};
inline constexpr std::array kTracedActivityKinds{
    ActivityKind::ConcurrentKernel,
    ActivityKind::Memcpy,
    ActivityKind::Memset,
    ActivityKind::Memory,
    ActivityKind::Runtime,
    ActivityKind::Driver,
    ActivityKind::ExternalCorrelation,
};
[[nodiscard]] std::string_view toString(ActivityKind kind); // "CONCURRENT_KERNEL", ...

class ActivityApi {
public:
    virtual ~ActivityApi() = default;
    [[nodiscard]] virtual ApiStatus enable(ActivityKind kind) = 0;
    [[nodiscard]] virtual ApiStatus disable(ActivityKind kind) = 0;
    // External correlation ids of kind CUSTOM0 on the calling thread's stack.
    [[nodiscard]] virtual ApiStatus pushExternalId(std::uint64_t externalId) = 0;
    [[nodiscard]] virtual ApiStatus popExternalId() = 0;
    // Waits for the device to finish its work, then flushes every activity buffer, complete or
    // not, so that all records so far can be taken.
    [[nodiscard]] virtual ApiStatus flush() = 0;
    // The records of every buffer flushed so far, one batch per buffer; they are forgotten here.
    [[nodiscard]] virtual std::vector<RecordBatch> takeRecords() = 0;
    virtual void discardRecords() = 0;
    // Records CUPTI lost since the last call because no buffer was available.
    [[nodiscard]] virtual std::uint64_t takeDroppedCount() = 0;
    // Now, on the clock of the records' timestamps.
    [[nodiscard]] virtual std::uint64_t nowNs() = 0;
    // Lets go of the activity machinery once every kind is disabled and the records are taken,
    // so that the untraced runs after a traced pass pay nothing; the next enable() attaches
    // again. (CUPTI keeps its instrumentation after cuptiActivityDisable: on the H100 every
    // later untraced run was 1.1-1.5x slower, on the device too, until cuptiFinalize.)
    virtual void detach() {}
};

} // namespace rnnprof::gpu
