#pragma once
// The KernelTracer of rnnprof: drives an ActivityApi through one sweep point at a time and turns
// what it collected into a GpuProfile and trace slices. Knows no CUPTI types, so it runs against
// a fake in tests. Every failure of the API degrades to an untraced profile carrying
// "kernel trace unavailable: <reason>"; nothing throws and nothing aborts.
//
// Use from one thread, the engine thread that issues the CUDA calls (correlation ids are pushed
// on the calling thread's stack):
//   beginPoint()                      enable collection, before warm-up
//   warm-up runs with hook()          (optional: hook() or any other hook)
//   discardSoFar()                    drop warm-up records
//   for each measured run: session.run(hook()), then endIteration()
//   endPoint(iterations)              flush, decode, aggregate, disable, detach
//   traceSlices(i)                    GPU slices of measured iteration i of that point
#include "profiling/gpu/activity_api.h"
#include "profiling/gpu/gpu_trace_model.h"
#include "profiling/measure/runner.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rnnprof::gpu {

inline constexpr std::string_view kUnavailablePrefix = "kernel trace unavailable: ";

// CUPTI API versions (CUPTI_API_VERSION, cuptiGetVersion(); xxyyzz from CUDA 13.0 on, a small
// integer before: 12.9 Update 1 is 28).
inline constexpr std::uint32_t kCupti130Ga = 130000;      // CUDA 13.0: the record layouts decoded here
inline constexpr std::uint32_t kCupti130Update1 = 130001; // CUDA 13.0 Update 1

// What a CUPTI library of API `version` means for tracing. Below 13.0 it is refused: its records
// have other layouts than the 13.0 headers this build decodes. 13.0 GA traces with a warning
// naming what 13.0 Update 1 fixed (a deadlock in cuptiActivityDisable, a crash in
// cuptiActivityFlushAll, missing sync records); from Update 1 on, quietly.
struct CuptiVersionCheck {
    std::string refusal; // not empty: do not trace, for this reason
    std::string warning; // not empty: trace, and record this with every point
};
[[nodiscard]] CuptiVersionCheck checkCuptiVersion(std::uint32_t version);

class ActivityTracer;
// Opens the activity interface (subscribes); on failure returns null and sets `error`.
using OpenActivityApi = std::function<std::unique_ptr<ActivityApi>(std::string& error)>;
// The tracer for a CUPTI library of API `version`: unavailable with the refusal (then `open` is
// not called) or with `open`'s error, otherwise tracing through what `open` returned, with the
// version's warning, if any.
[[nodiscard]] std::unique_ptr<ActivityTracer> makeActivityTracer(std::uint32_t version,
                                                                 const OpenActivityApi& open);

class ActivityTracer final : public KernelTracer {
public:
    // Traces through `api`; a null api makes an unavailable tracer. A `warning` (about the CUPTI
    // library) goes into GpuProfile::warnings of every point.
    explicit ActivityTracer(std::unique_ptr<ActivityApi> api, std::string warning = {});
    // Never traces; `reason` says why ("built without CUPTI").
    explicit ActivityTracer(std::string reason);
    ~ActivityTracer() override;
    ActivityTracer(const ActivityTracer&) = delete;
    ActivityTracer& operator=(const ActivityTracer&) = delete;

    [[nodiscard]] std::string unavailableReason() const override { return m_unavailable; }
    [[nodiscard]] const std::string& warning() const { return m_warning; }
    void beginPoint() override;
    void discardSoFar() override;
    [[nodiscard]] PhaseHook& hook() override { return m_hook; }
    void endIteration() override;
    [[nodiscard]] GpuProfile endPoint(int iterations) override;
    [[nodiscard]] std::vector<TraceSlice> traceSlices(int iteration) const override;

    // Correlation pushes CUPTI refused since construction (their records come out unattributed).
    [[nodiscard]] std::uint64_t pushFailures() const { return m_pushFailures; }

private:
    class CorrelationHook final : public PhaseHook {
    public:
        explicit CorrelationHook(ActivityTracer& tracer) : m_tracer(tracer) {}
        void beginPhase(Phase phase) override { m_tracer.onBeginPhase(phase); }
        void endPhase(Phase phase) override { m_tracer.onEndPhase(phase); }

    private:
        ActivityTracer& m_tracer;
    };

    void onBeginPhase(Phase phase);
    void onEndPhase(Phase phase);
    void startEpoch();
    bool push(const PhaseTag& tag);
    void pushSetup();
    void popSetup();
    void popAll();
    void disableAll();
    void makeUnavailable(const std::string& reason);
    [[nodiscard]] GpuProfile collect(int iterations);

    std::unique_ptr<ActivityApi> m_api;
    std::string m_unavailable; // empty while tracing works
    std::string m_warning;
    CorrelationHook m_hook{*this};

    bool m_active = false; // between beginPoint and endPoint
    std::string m_pointError;
    std::vector<ActivityKind> m_enabled;
    std::uint32_t m_epochs = 0;
    std::uint32_t m_pointId = 0; // the epoch: new at beginPoint and at discardSoFar
    std::uint32_t m_iteration = 0;
    bool m_setupPushed = false;
    std::vector<bool> m_phasePushes; // one per open phase: whether its push succeeded
    std::uint64_t m_pushFailures = 0;

    std::uint64_t m_iterationStart = 0;
    std::optional<std::uint64_t> m_firstPhaseBegin;
    std::optional<std::uint64_t> m_lastPhaseEnd;
    std::vector<TimeInterval> m_windows; // host time of each finished iteration

    AttributedTrace m_lastTrace; // of the last endPoint, for traceSlices()
    std::vector<TimeInterval> m_lastWindows;
};

} // namespace rnnprof::gpu
