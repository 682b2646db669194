#pragma once
// The fake backends of every test suite: one Backend whose behaviour a test scripts (unavailable,
// refusing some configurations, failing in prepare() or run(), taking time per run, calling back
// at each phase, holding the engine thread at a chosen stage), so that the sweep runner, the GUI's
// controller and panels and the threaded stop tests all run against the same fake. Fakes compute
// nothing: plans over them switch numeric checks off.
#include "engine/backend.h"
#include "engine/error.h"
#include "profiling/plan.h"

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace rnnprof::test {

// Where a Gate holds the engine thread: inside prepare(), at the start of the first (warm-up) run,
// or inside a phase of the first measured run.
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

// Holds the engine thread at one stage of one point (the `point`-th prepare() of the backend, from
// 0) until the test releases it, so that a stop can be requested from another thread at exactly
// that moment. `warmupRuns` is the plan's warm-up count: the run after them is the first measured.
class Gate {
public:
    Gate(Stage stage, int point, int warmupRuns = 1)
        : m_stage(stage), m_point(point), m_warmupRuns(warmupRuns) {}
    [[nodiscard]] Stage stage() const { return m_stage; }
    [[nodiscard]] int point() const { return m_point; }
    [[nodiscard]] int warmupRuns() const { return m_warmupRuns; }

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
    int m_warmupRuns;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    bool m_arrived = false;
    bool m_released = false;
};

// The device queue of a fake GPU session: it knows how much simulated device work has been
// enqueued and how much of it the host has waited for, so that a stopwatch's elapsed time is the
// work enqueued between its marks, readable only once a synchronize() has passed its stop mark.
class FakeDeviceQueue final : public DeviceQueue {
public:
    void enqueue(double ms) { m_enqueuedMs += ms; }
    void synchronize() override {
        ++m_syncs;
        m_waitedMs = m_enqueuedMs;
    }
    [[nodiscard]] std::unique_ptr<DeviceStopwatch> makeStopwatch() override {
        return std::make_unique<Watch>(*this);
    }
    [[nodiscard]] int syncs() const { return m_syncs; }
    [[nodiscard]] int earlyReads() const { return m_earlyReads; } // elapsedMs() before the wait

private:
    struct Watch final : DeviceStopwatch {
        explicit Watch(FakeDeviceQueue& q) : queue(q) {}
        void start() override { startMs = queue.m_enqueuedMs; }
        void stop() override { stopMs = queue.m_enqueuedMs; }
        [[nodiscard]] double elapsedMs() const override {
            if (queue.m_waitedMs < stopMs) ++queue.m_earlyReads;
            return stopMs - startMs;
        }
        FakeDeviceQueue& queue;
        double startMs = 0.0;
        double stopMs = 0.0;
    };
    double m_enqueuedMs = 0.0;
    double m_waitedMs = 0.0;
    int m_syncs = 0;
    int m_earlyReads = 0;
};

// What a fake backend does. The defaults make a backend that is available, supports everything
// and runs in no time; a test sets what it is about.
struct FakeBehaviour {
    std::string id = "fake";
    bool available = true;
    std::string unavailableReason = "no fake device";
    std::vector<std::string> unsupported; // unsupportedReasons() for every configuration
    bool refusesRelu = false;             // and "<id> requires activation=tanh; got relu" for relu
    bool gpu = false;
    std::uint64_t estimateBytes = 1024;   // estimateMemory() and the session's memory(): workspace
    int failAtBatch = -1;                 // prepare() throws BackendFailure for this batch
    int throwInRunAtBatch = -1;           // run() throws std::runtime_error for this batch
    std::chrono::milliseconds runTime{0}; // each run sleeps this long in its forward phase
    std::function<void(Phase)> onPhase;   // called at the start of every phase of every run
    std::atomic<int>* runs = nullptr;     // counts run() calls
    Gate* gate = nullptr;                 // holds the engine thread where the gate says
    std::string notComparable;            // non-empty: the session's numericsComparable().why
    // gpu: the session's device queue (owned by the test); each step enqueues the GPU time of
    // its phase (forward, backward, update) divided among the phase's steps.
    FakeDeviceQueue* queue = nullptr;
    std::array<double, kPhaseCount> deviceMs{2.0, 3.0, 1.0};
    int stepsPerPhase = 1; // "work", then "more"
    // prepare() refuses these cuDNN algorithms as cuDNN does a shape it cannot run.
    std::vector<CudnnAlgo> refusedAlgos;
    std::vector<NamedBytes> detail; // the session's named buffers, added to its memory()
    std::string mathType;           // the session's mathType()
};

inline FakeBehaviour named(std::string id) {
    FakeBehaviour b;
    b.id = std::move(id);
    return b;
}

// A run marks its phases (forward; backward and update in training), each with one step "work".
// Like a CPU session it polls its stop token (Session::setStopToken) before every step and abandons
// the run when it is set; a fake GPU session (with a queue) does not, like the real ones.
class FakeSession final : public Session {
public:
    FakeSession(FakeBehaviour b, Problem p, bool gated)
        : m_b(std::move(b)), m_p(std::move(p)), m_gated(gated) {}
    void run(PhaseHook& hook) override {
        if (m_b.runs) ++*m_b.runs;
        const int index = m_index++;
        if (m_gated && m_b.gate->stage() == Stage::WarmupRun && index == 0) m_b.gate->arriveAndWait();
        if (m_p.shape.batch == m_b.throwInRunAtBatch) throw std::runtime_error("scripted failure in run()");
        const bool firstMeasured = m_gated && index == m_b.gate->warmupRuns();
        for (Phase ph : {Phase::Forward, Phase::Backward, Phase::Update}) {
            if (ph != Phase::Forward && m_p.mode == Mode::Inference) break;
            PhaseScope scope(hook, ph);
            if (m_b.onPhase) m_b.onPhase(ph);
            if (firstMeasured && stageOf(ph) == m_b.gate->stage()) m_b.gate->arriveAndWait();
            for (int i = 0; i < m_b.stepsPerPhase; ++i) {
                if (!m_b.queue && stopRequested())
                    throw StopRequested(std::string("in ")
                                            .append(rnnprof::toString(ph))
                                            .append(", before step ")
                                            .append(std::to_string(i + 1))
                                            .append(" of ")
                                            .append(std::to_string(m_b.stepsPerPhase)));
                StepScope step(hook, i == 0 ? "work" : "more");
                if (ph == Phase::Forward && i == 0 && m_b.runTime.count() > 0)
                    std::this_thread::sleep_for(m_b.runTime);
                if (m_b.queue) m_b.queue->enqueue(m_b.deviceMs[std::size_t(ph)] / m_b.stepsPerPhase);
            }
        }
        if (m_b.queue) m_b.queue->synchronize(); // a GPU session's run() returns with its work done
    }
    [[nodiscard]] DeviceQueue* deviceQueue() override { return m_b.queue; }
    [[nodiscard]] RunOutputs outputs() const override { return {}; }
    [[nodiscard]] Comparability numericsComparable() const override {
        return {m_b.notComparable.empty(), m_b.notComparable};
    }
    [[nodiscard]] MemoryFootprint memory() const override {
        MemoryFootprint m;
        m.workspace = m_b.estimateBytes;
        m.onDevice = m_b.gpu;
        for (const NamedBytes& d : m_b.detail)
            m.addNamed(d.name, d.category, d.bytes);
        return m;
    }
    [[nodiscard]] std::string mathType() const override { return m_b.mathType; }

private:
    static Stage stageOf(Phase ph) {
        return ph == Phase::Forward    ? Stage::Forward
               : ph == Phase::Backward ? Stage::Backward
                                       : Stage::Update;
    }
    FakeBehaviour m_b;
    Problem m_p;
    bool m_gated;
    int m_index = 0;
};

class FakeBackend final : public Backend {
public:
    explicit FakeBackend(FakeBehaviour b) : m_b(std::move(b)) {}
    [[nodiscard]] std::string_view id() const override { return m_b.id; }
    [[nodiscard]] std::string_view description() const override { return "a scripted test backend"; }
    [[nodiscard]] bool isGpu() const override { return m_b.gpu; }
    [[nodiscard]] Availability availability() const override {
        return {m_b.available, m_b.available ? "" : m_b.unavailableReason};
    }
    [[nodiscard]] std::vector<std::string> unsupportedReasons(const RnnConfig& c, Mode) const override {
        std::vector<std::string> reasons = m_b.unsupported;
        if (m_b.refusesRelu && c.activation == Activation::Relu)
            reasons.push_back(m_b.id + " requires activation=tanh; got relu");
        return reasons;
    }
    [[nodiscard]] MemoryFootprint estimateMemory(const Problem&) const override {
        MemoryFootprint m;
        m.workspace = m_b.estimateBytes;
        return m;
    }

protected:
    [[nodiscard]] std::unique_ptr<Session> makeSession(const Problem& p,
                                                       const MemoryFootprint&) const override {
        const bool gated = m_b.gate && m_prepared++ == m_b.gate->point();
        if (gated && m_b.gate->stage() == Stage::Prepare) m_b.gate->arriveAndWait();
        for (CudnnAlgo a : m_b.refusedAlgos)
            if (p.options.cudnnAlgo == a)
                throw Error(ErrorKind::Unsupported,
                            "cudnnGetRNNTempSpaceSizes failed: CUDNN_STATUS_NOT_SUPPORTED (3000)");
        if (p.shape.batch == m_b.failAtBatch)
            throw Error(ErrorKind::BackendFailure,
                        "scripted failure in prepare() at batch " + std::to_string(p.shape.batch));
        return std::make_unique<FakeSession>(m_b, p, gated);
    }

private:
    FakeBehaviour m_b;
    mutable std::atomic<int> m_prepared{0};
};

inline BackendRegistry registryOf(std::vector<FakeBehaviour> behaviours) {
    BackendRegistry r;
    for (auto& b : behaviours)
        r.add(std::make_unique<FakeBackend>(std::move(b)));
    return r;
}

// "fake-ok", "fake-picky" (refuses relu) and "fake-absent" (no NVIDIA driver), whose runs take
// `runTime`: the backends a user of the GUI would see on a machine without a GPU.
inline BackendRegistry fakeRegistry(std::chrono::milliseconds runTime = std::chrono::milliseconds(1)) {
    FakeBehaviour ok = named("fake-ok");
    FakeBehaviour picky = named("fake-picky");
    picky.refusesRelu = true;
    FakeBehaviour absent = named("fake-absent");
    absent.available = false;
    absent.unavailableReason = "no NVIDIA driver";
    for (FakeBehaviour* b : {&ok, &picky, &absent})
        b->runTime = runTime;
    return registryOf({ok, picky, absent});
}

// A plan over fake backends with quick measurement (one warm-up, exactly three measured runs)
// and no numeric check.
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
    // Whether a run of microseconds was starved depends on what else the machine runs: tests of
    // re-measurement inject the counters (SweepRunner::setUsageProbe) and turn it on themselves.
    plan.settings.remeasureDisturbed = 0;
    return plan;
}

} // namespace rnnprof::test
