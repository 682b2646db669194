#include "profiling/measure/phase_timer.h"

#include "engine/backend.h"
#include "profiling/measure/statistics.h"

#include <algorithm>
#include <cstring>

namespace rnnprof {
namespace {

double msBetween(PhaseTimer::Clock::time_point a, PhaseTimer::Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

} // namespace

double PhaseTimer::sinceStartUs(Clock::time_point t) const {
    return std::chrono::duration<double, std::micro>(t - m_iterationStart).count();
}

void PhaseTimer::beginIteration() {
    m_iterations.emplace_back();
    m_openSteps.clear();
    m_iterationStart = Clock::now();
}

void PhaseTimer::endIteration() {
    if (m_iterations.empty()) return;
    m_iterations.back().totalMs = msBetween(m_iterationStart, Clock::now());
}

void PhaseTimer::abandonIteration() {
    if (!m_iterations.empty()) m_iterations.pop_back();
    m_openSteps.clear();
}

void PhaseTimer::beginPhase(Phase phase) {
    m_currentPhase = phase;
    m_phaseStart[std::size_t(phase)] = Clock::now();
}

void PhaseTimer::endPhase(Phase phase) {
    const auto now = Clock::now();
    if (m_iterations.empty()) return;
    Iteration& it = m_iterations.back();
    const auto start = m_phaseStart[std::size_t(phase)];
    it.phaseMs[std::size_t(phase)] += msBetween(start, now);
    it.ran[std::size_t(phase)] = true;
    it.slices.push_back({std::string(toString(phase)), "phase", sinceStartUs(start),
                         std::chrono::duration<double, std::micro>(now - start).count(), 0});
}

void PhaseTimer::beginStep(const char* name) {
    m_openSteps.push_back({name, Clock::now()});
}

void PhaseTimer::endStep(const char* name) {
    const auto now = Clock::now();
    if (m_iterations.empty() || m_openSteps.empty()) return;
    const OpenStep open = m_openSteps.back();
    m_openSteps.pop_back();
    Iteration& it = m_iterations.back();
    const double ms = msBetween(open.start, now);
    auto found = std::find_if(it.steps.begin(), it.steps.end(), [&](const StepTotal& s) {
        return s.phase == m_currentPhase && (s.name == name || std::strcmp(s.name, name) == 0);
    });
    if (found == it.steps.end())
        it.steps.push_back({name, m_currentPhase, ms, 1});
    else {
        found->ms += ms;
        ++found->calls;
    }
    it.slices.push_back({name, "step", sinceStartUs(open.start), ms * 1000.0, 0});
}

std::array<double, kPhaseCount> PhaseTimer::phaseMedians() const {
    std::array<double, kPhaseCount> out{kNoValue, kNoValue, kNoValue};
    for (int p = 0; p < kPhaseCount; ++p) {
        std::vector<double> samples;
        for (const auto& it : m_iterations)
            if (it.ran[std::size_t(p)]) samples.push_back(it.phaseMs[std::size_t(p)]);
        if (!samples.empty()) out[std::size_t(p)] = summarize(std::move(samples)).median;
    }
    return out;
}

std::vector<StepStat> PhaseTimer::stepStats() const {
    std::vector<StepStat> out;
    for (const auto& it : m_iterations)
        for (const auto& s : it.steps) {
            const bool known = std::any_of(out.begin(), out.end(), [&](const StepStat& o) {
                return o.name == s.name && o.phase == s.phase;
            });
            if (!known) out.push_back({s.name, s.phase, 0.0, s.calls});
        }
    for (StepStat& stat : out) {
        std::vector<double> samples;
        for (const auto& it : m_iterations) {
            double ms = 0.0;
            for (const auto& s : it.steps)
                if (s.phase == stat.phase && stat.name == s.name) ms += s.ms;
            samples.push_back(ms);
        }
        stat.medianMs = summarize(std::move(samples)).median;
    }
    return out;
}

std::vector<TraceSlice> PhaseTimer::trace(int index) const {
    if (index < 0 || index >= iterations()) return {};
    std::vector<TraceSlice> slices = m_iterations[std::size_t(index)].slices;
    std::stable_sort(slices.begin(), slices.end(), [](const TraceSlice& a, const TraceSlice& b) {
        return a.startUs < b.startUs || (a.startUs == b.startUs && a.durationUs > b.durationUs);
    });
    return slices;
}

int PhaseTimer::medianIteration() const {
    if (m_iterations.empty()) return -1;
    std::vector<int> order(m_iterations.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = int(i);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        return m_iterations[std::size_t(a)].totalMs < m_iterations[std::size_t(b)].totalMs;
    });
    return order[order.size() / 2];
}

double timedRun(Session& session, PhaseTimer& timer, PhaseHook& hook, const RunClock& now) {
    auto read = [&now] { return now ? now() : PhaseTimer::Clock::now(); };
    timer.beginIteration();
    const auto start = read();
    try {
        session.run(hook);
    } catch (...) {
        timer.abandonIteration();
        throw;
    }
    const double ms = std::chrono::duration<double, std::milli>(read() - start).count();
    timer.endIteration();
    return ms;
}

} // namespace rnnprof
