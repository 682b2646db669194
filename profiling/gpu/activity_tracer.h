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
//   endPoint(iterations)              flush, decode, aggregate, disable
//   traceSlices(i)                    GPU slices of measured iteration i of that point
#include "profiling/gpu/activity_api.h"
#include "profiling/gpu/gpu_trace_model.h"
#include "profiling/runner.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rnnprof::gpu {

inline constexpr std::string_view kUnavailablePrefix = "kernel trace unavailable: ";

class ActivityTracer final : public KernelTracer {
public:
    // Traces through `api`; a null api makes an unavailable tracer.
    explicit ActivityTracer(std::unique_ptr<ActivityApi> api);
    // Never traces; `reason` says why ("built without CUPTI").
    explicit ActivityTracer(std::string reason);
    ~ActivityTracer() override;
    ActivityTracer(const ActivityTracer&) = delete;
    ActivityTracer& operator=(const ActivityTracer&) = delete;

    [[nodiscard]] std::string unavailableReason() const override { return m_unavailable; }
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

    std::unique_ptr<ActivityApi> m_api;
    std::string m_unavailable; // empty while tracing works
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
