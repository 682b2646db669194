#pragma once
// The CPU side of measurement: a PhaseHook on a monotonic clock. For every measured iteration it
// records the time of each phase, the total time of each named sub-step, and the slices of that
// iteration (for the Chrome trace). Cheap: a few clock reads per phase and step.
#include "engine/phase_hook.h"
#include "profiling/result.h"

#include <array>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace rnnprof {

class PhaseTimer final : public PhaseHook {
public:
    using Clock = std::chrono::steady_clock;

    void beginIteration();
    void endIteration();
    // Drops the iteration begun last: a run abandoned for a stop request is no measurement.
    void abandonIteration();

    void beginPhase(Phase phase) override;
    void endPhase(Phase phase) override;
    void beginStep(const char* name) override;
    void endStep(const char* name) override;

    [[nodiscard]] int iterations() const { return int(m_iterations.size()); }
    // Median per phase over the iterations; NaN for a phase that never ran.
    [[nodiscard]] std::array<double, kPhaseCount> phaseMedians() const;
    // Median total per iteration of each sub-step, in order of first appearance.
    [[nodiscard]] std::vector<StepStat> stepStats() const;
    // The slices of iteration `index`, relative to its start.
    [[nodiscard]] std::vector<TraceSlice> trace(int index) const;
    // The iteration whose wall time is the median one (-1 when none).
    [[nodiscard]] int medianIteration() const;
    [[nodiscard]] double iterationMs(int index) const { return m_iterations[std::size_t(index)].totalMs; }

private:
    struct StepTotal {
        const char* name;
        Phase phase;
        double ms;
        int calls;
    };
    struct Iteration {
        double totalMs = 0.0;
        std::array<double, kPhaseCount> phaseMs{};
        std::array<bool, kPhaseCount> ran{};
        std::vector<StepTotal> steps;
        std::vector<TraceSlice> slices;
    };
    [[nodiscard]] double sinceStartUs(Clock::time_point t) const;

    std::vector<Iteration> m_iterations;
    Clock::time_point m_iterationStart{};
    std::array<Clock::time_point, kPhaseCount> m_phaseStart{};
    Phase m_currentPhase = Phase::Forward;
    struct OpenStep {
        const char* name;
        Clock::time_point start;
    };
    std::vector<OpenStep> m_openSteps;
};

class Session;

// One measured run as the sweep runner performs it: opens an iteration on `timer`, times
// session.run(hook) on `now` (empty: the monotonic clock), closes the iteration. Returns the run's
// milliseconds. A run that throws (a stop request, a failure) leaves no iteration on `timer`.
// `hook` must include `timer`. Public so that the runner's own overhead can be benchmarked.
using RunClock = std::function<PhaseTimer::Clock::time_point()>;
double timedRun(Session& session, PhaseTimer& timer, PhaseHook& hook, const RunClock& now = {});

// Forwards every call to several hooks (the CPU timer and the GPU kernel tracer).
class FanOutHook final : public PhaseHook {
public:
    explicit FanOutHook(std::vector<PhaseHook*> hooks) : m_hooks(std::move(hooks)) {}
    void beginPhase(Phase p) override {
        for (auto* h : m_hooks)
            h->beginPhase(p);
    }
    void endPhase(Phase p) override {
        for (auto it = m_hooks.rbegin(); it != m_hooks.rend(); ++it)
            (*it)->endPhase(p);
    }
    void beginStep(const char* n) override {
        for (auto* h : m_hooks)
            h->beginStep(n);
    }
    void endStep(const char* n) override {
        for (auto it = m_hooks.rbegin(); it != m_hooks.rend(); ++it)
            (*it)->endStep(n);
    }

private:
    std::vector<PhaseHook*> m_hooks;
};

} // namespace rnnprof
