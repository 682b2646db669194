#pragma once
// The device side of measurement: a PhaseHook that times each phase of a GPU session on the device
// (a stopwatch of the session's DeviceQueue around the phase: CUDA events) and decides where the
// host waits for the device. This is the measurement protocol's one place for that decision:
// - WaitAt::PhaseEnds (the timed runs): the host waits at the end of every phase, so that a phase's
//   host wall time (PhaseTimer) and its GPU time cover the same work; the difference is launch
//   and synchronisation overhead. Within a phase the work is only enqueued, as a framework does.
// - WaitAt::StepEnds (the per-step pass): the host also waits at the end of every marked step, so
//   that a step's host time is the time its device work took; this perturbs the iteration and is
//   never used for the headline time.
// Put it last in a FanOutHook: ends are delivered in reverse order, so it waits before the other
// hooks (the CPU timer, the kernel tracer) close the phase or step.
#include "engine/device_queue.h"
#include "engine/phase_hook.h"

#include <array>
#include <memory>
#include <vector>

namespace rnnprof {

class DevicePhaseTimer final : public PhaseHook {
public:
    enum class WaitAt { PhaseEnds, StepEnds };
    DevicePhaseTimer(DeviceQueue& queue, WaitAt waitAt);

    void beginPhase(Phase phase) override;
    void endPhase(Phase phase) override;
    void endStep(const char* name) override;

    // Median device milliseconds of each phase over the runs seen; 0 for a phase that never ran
    // (the GpuProfile convention for "no figure").
    [[nodiscard]] std::array<double, kPhaseCount> phaseMedians() const;
    // Whether a phase ran at least once.
    [[nodiscard]] bool ran(Phase phase) const { return !m_samples[std::size_t(phase)].empty(); }

private:
    DeviceQueue& m_queue;
    WaitAt m_waitAt;
    std::array<std::unique_ptr<DeviceStopwatch>, kPhaseCount> m_watches;
    std::array<std::vector<double>, kPhaseCount> m_samples;
};

} // namespace rnnprof
