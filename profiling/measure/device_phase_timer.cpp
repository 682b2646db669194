#include "profiling/measure/device_phase_timer.h"

#include "profiling/measure/statistics.h"

namespace rnnprof {

DevicePhaseTimer::DevicePhaseTimer(DeviceQueue& queue, WaitAt waitAt) : m_queue(queue), m_waitAt(waitAt) {
    for (auto& watch : m_watches)
        watch = m_queue.makeStopwatch();
}

void DevicePhaseTimer::beginPhase(Phase phase) {
    m_watches[std::size_t(phase)]->start();
}

void DevicePhaseTimer::endPhase(Phase phase) {
    DeviceStopwatch& watch = *m_watches[std::size_t(phase)];
    watch.stop();
    m_queue.synchronize();
    m_samples[std::size_t(phase)].push_back(watch.elapsedMs());
}

void DevicePhaseTimer::endStep(const char* /*name*/) {
    if (m_waitAt == WaitAt::StepEnds) m_queue.synchronize();
}

std::array<double, kPhaseCount> DevicePhaseTimer::phaseMedians() const {
    std::array<double, kPhaseCount> medians{};
    for (std::size_t p = 0; p < medians.size(); ++p)
        if (!m_samples[p].empty()) medians[p] = summarize(m_samples[p]).median;
    return medians;
}

} // namespace rnnprof
