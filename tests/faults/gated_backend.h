#pragma once
// A scripted backend for the threaded stop tests: it holds the engine thread at one chosen stage
// of one chosen point (inside prepare(), inside the warm-up run, or inside a phase of the first
// measured run) until the test releases it, so that a stop can be requested from another thread
// at exactly that moment. Test-only: computes nothing.
#include "engine/backend.h"
#include "engine/error.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>

namespace rnnprof::faults {

enum class Stage { Prepare, WarmupRun, Forward, Backward, Update };

inline const char* toString(Stage s) {
    switch (s) {
    case Stage::Prepare:
        return "prepare";
    case Stage::WarmupRun:
        return "warmup";
    case Stage::Forward:
        return "forward";
    case Stage::Backward:
        return "backward";
    case Stage::Update:
        return "update";
    }
    return "?";
}

// Where the engine thread waits, and the hand-shake with the test thread.
class Gate {
public:
    Gate(Stage stage, int point) : m_stage(stage), m_point(point) {}
    [[nodiscard]] Stage stage() const { return m_stage; }
    [[nodiscard]] int point() const { return m_point; }

    // Engine thread: announce the arrival and wait for release().
    void arriveAndWait() {
        std::unique_lock lock(m_mutex);
        m_arrived = true;
        m_cv.notify_all();
        m_cv.wait(lock, [&] { return m_released; });
    }
    // Test thread: false when the engine thread did not arrive within `limit` (a hang bound).
    [[nodiscard]] bool waitForArrival(std::chrono::seconds limit) {
        std::unique_lock lock(m_mutex);
        return m_cv.wait_for(lock, limit, [&] { return m_arrived; });
    }
    void release() {
        std::lock_guard lock(m_mutex);
        m_released = true;
        m_cv.notify_all();
    }

private:
    Stage m_stage;
    int m_point;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    bool m_arrived = false;
    bool m_released = false;
};

class GatedSession final : public Session {
public:
    GatedSession(Gate& gate, bool gated, int warmup, Mode mode, std::atomic<int>& runs)
        : m_gate(gate), m_gated(gated), m_warmup(warmup), m_mode(mode), m_runs(runs) {}
    void run(PhaseHook& hook) override {
        ++m_runs;
        const int index = m_index++;
        if (m_gated && m_gate.stage() == Stage::WarmupRun && index == 0) m_gate.arriveAndWait();
        const bool firstMeasured = index == m_warmup;
        for (Phase ph : {Phase::Forward, Phase::Backward, Phase::Update}) {
            if (ph != Phase::Forward && m_mode == Mode::Inference) break;
            PhaseScope scope(hook, ph);
            if (m_gated && firstMeasured && stageOf(ph) == m_gate.stage()) m_gate.arriveAndWait();
        }
    }
    [[nodiscard]] RunOutputs outputs() const override { return {}; }
    [[nodiscard]] MemoryFootprint memory() const override { return {}; }

private:
    static Stage stageOf(Phase ph) {
        return ph == Phase::Forward    ? Stage::Forward
               : ph == Phase::Backward ? Stage::Backward
                                       : Stage::Update;
    }
    Gate& m_gate;
    bool m_gated;
    int m_warmup;
    Mode m_mode;
    std::atomic<int>& m_runs;
    int m_index = 0;
};

class GatedBackend final : public Backend {
public:
    GatedBackend(Gate& gate, int warmup, std::atomic<int>& runs)
        : m_gate(gate), m_warmup(warmup), m_runs(runs) {}
    [[nodiscard]] std::string_view id() const override { return "gated"; }
    [[nodiscard]] std::string_view description() const override { return "holds the engine thread"; }
    [[nodiscard]] Availability availability() const override { return {}; }
    [[nodiscard]] std::vector<std::string> unsupportedReasons(const RnnConfig&, Mode) const override {
        return {};
    }
    [[nodiscard]] MemoryFootprint estimateMemory(const Problem&) const override { return {}; }
    [[nodiscard]] std::unique_ptr<Session> prepare(const Problem& p) const override {
        const bool gated = m_prepared++ == m_gate.point();
        if (gated && m_gate.stage() == Stage::Prepare) m_gate.arriveAndWait();
        return std::make_unique<GatedSession>(m_gate, gated, m_warmup, p.mode, m_runs);
    }

private:
    Gate& m_gate;
    int m_warmup;
    std::atomic<int>& m_runs;
    mutable std::atomic<int> m_prepared{0};
};

} // namespace rnnprof::faults
