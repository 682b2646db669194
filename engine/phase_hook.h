#pragma once
// The engine-side hook through which a backend marks what it is doing. Backends call it; the
// profiling layer implements it (CPU timers, CUPTI external-correlation ranges, trace slices).
// A backend never includes profiling headers. Calls nest: beginPhase, then any number of
// beginStep/endStep pairs, then endPhase. Step names are string literals (stable pointers).
#include <string_view>

namespace rnnprof {

enum class Phase { Forward = 0, Backward = 1, Update = 2 };
inline constexpr int kPhaseCount = 3;

[[nodiscard]] constexpr std::string_view toString(Phase p) {
    switch (p) {
    case Phase::Forward:
        return "forward";
    case Phase::Backward:
        return "backward";
    case Phase::Update:
        return "update";
    }
    return "?";
}

// The names of the sub-steps that code outside a backend reads by name (the benchmark splits a
// batch-1 step into its input projection and its recurrence): one spelling for every backend.
inline constexpr const char* kInputGemmStep = "input GEMM";
inline constexpr const char* kRecurrentStepsStep = "recurrent steps";

class PhaseHook {
public:
    virtual ~PhaseHook() = default;
    virtual void beginPhase(Phase) {}
    virtual void endPhase(Phase) {}
    virtual void beginStep(const char* /*name*/) {}
    virtual void endStep(const char* /*name*/) {}
};

// A hook that records nothing: for numeric checks and tests.
class NullPhaseHook final : public PhaseHook {};

class PhaseScope {
public:
    PhaseScope(PhaseHook& hook, Phase phase) : m_hook(hook), m_phase(phase) { m_hook.beginPhase(phase); }
    ~PhaseScope() { m_hook.endPhase(m_phase); }
    PhaseScope(const PhaseScope&) = delete;
    PhaseScope& operator=(const PhaseScope&) = delete;

private:
    PhaseHook& m_hook;
    Phase m_phase;
};

class StepScope {
public:
    StepScope(PhaseHook& hook, const char* name) : m_hook(hook), m_name(name) { m_hook.beginStep(name); }
    ~StepScope() { m_hook.endStep(m_name); }
    StepScope(const StepScope&) = delete;
    StepScope& operator=(const StepScope&) = delete;

private:
    PhaseHook& m_hook;
    const char* m_name;
};

} // namespace rnnprof
