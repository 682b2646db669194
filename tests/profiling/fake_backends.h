#pragma once
// Backends with scripted behaviour for runner tests: each records how it was used and can fail,
// stall, or request a stop at a chosen phase.
#include "engine/backend.h"
#include "engine/error.h"
#include "profiling/runner.h"

#include <atomic>
#include <functional>
#include <string>

namespace rnnprof::test {

struct FakeBehaviour {
    std::string id = "fake";
    bool available = true;
    std::string unavailableReason = "no fake device";
    std::vector<std::string> unsupported; // reasons returned by unsupportedReasons()
    int failAtBatch = -1;                 // prepare() throws BackendFailure for this batch
    int throwInRunAtBatch = -1;           // run() throws std::runtime_error for this batch
    std::uint64_t estimateBytes = 1024;   // estimateMemory().workspace
    bool gpu = false;
    std::function<void(Phase)> onPhase; // called at beginPhase of every run
    std::atomic<int>* runs = nullptr;   // counts run() calls
};

class FakeBackend final : public Backend {
public:
    explicit FakeBackend(FakeBehaviour b) : m_b(std::move(b)) {}
    [[nodiscard]] std::string_view id() const override { return m_b.id; }
    [[nodiscard]] std::string_view description() const override { return "scripted test backend"; }
    [[nodiscard]] bool isGpu() const override { return m_b.gpu; }
    [[nodiscard]] Availability availability() const override {
        return {m_b.available, m_b.available ? "" : m_b.unavailableReason};
    }
    [[nodiscard]] std::vector<std::string> unsupportedReasons(const RnnConfig&, Mode) const override {
        return m_b.unsupported;
    }
    [[nodiscard]] MemoryFootprint estimateMemory(const Problem&) const override {
        MemoryFootprint m;
        m.workspace = m_b.estimateBytes;
        return m;
    }
    [[nodiscard]] std::unique_ptr<Session> prepare(const Problem& p) const override;

private:
    FakeBehaviour m_b;
};

class FakeSession final : public Session {
public:
    FakeSession(FakeBehaviour b, Problem p) : m_b(std::move(b)), m_p(std::move(p)) {}
    void run(PhaseHook& hook) override {
        if (m_b.runs) ++*m_b.runs;
        if (m_p.shape.batch == m_b.throwInRunAtBatch) throw std::runtime_error("scripted failure in run()");
        const Phase phases[] = {Phase::Forward, Phase::Backward, Phase::Update};
        for (Phase ph : phases) {
            if (ph != Phase::Forward && m_p.mode == Mode::Inference) break;
            PhaseScope scope(hook, ph);
            if (m_b.onPhase) m_b.onPhase(ph);
            StepScope step(hook, "work");
        }
    }
    [[nodiscard]] RunOutputs outputs() const override { return {}; }
    [[nodiscard]] MemoryFootprint memory() const override {
        MemoryFootprint m;
        m.workspace = m_b.estimateBytes;
        return m;
    }

private:
    FakeBehaviour m_b;
    Problem m_p;
};

inline FakeBehaviour named(std::string id) {
    FakeBehaviour b;
    b.id = std::move(id);
    return b;
}

inline std::unique_ptr<Session> FakeBackend::prepare(const Problem& p) const {
    if (p.shape.batch == m_b.failAtBatch)
        throw Error(ErrorKind::BackendFailure,
                    "scripted failure in prepare() at batch " + std::to_string(p.shape.batch));
    return std::make_unique<FakeSession>(m_b, p);
}

// A plan over the fake backends with quick measurement and no numeric check.
inline SweepPlan fakePlan(std::vector<std::string> backends, std::vector<int> batches = {1, 2},
                          std::vector<int> seqLens = {3}) {
    SweepPlan plan;
    plan.config.inputSize = 4;
    plan.config.hiddenSize = 4;
    plan.batches = std::move(batches);
    plan.seqLens = std::move(seqLens);
    plan.backends = std::move(backends);
    plan.modes = {Mode::Inference, Mode::Training};
    plan.settings.warmup = 1;
    plan.settings.minRepeats = 3;
    plan.settings.maxRepeats = 3;
    plan.settings.timeBudgetMs = 0;
    plan.settings.checkNumerics = false;
    return plan;
}

} // namespace rnnprof::test
