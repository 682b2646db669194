// The measurement protocol of a GPU point (profiling/measure/runner.cpp,
// profiling/measure/device_phase_timer.h): the headline runs are never traced; the kernel trace comes from a
// separate pass of traced runs after a traced warm-up, interleaved with untraced runs of the same kind so
// that the collector's overhead is a fair ratio; the GPU time of each phase comes from the session's
// queue, read only after the host has waited for it; peak device memory counts what the session allocated.
#include "profiling/measure/runner.h"
#include "support/fake_backend.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <vector>

namespace rnnprof {
namespace {

using test::FakeBehaviour;
using test::FakeDeviceQueue;
using test::fakePlan;
using test::named;
using test::registryOf;

// A kernel tracer that records when it is used: the run (by the session's run counter) in which its
// hook saw each forward phase, and what the runner told it.
class RecordingTracer final : public KernelTracer {
public:
    explicit RecordingTracer(const std::atomic<int>& runs) : m_hook(*this), m_runs(runs) {}
    [[nodiscard]] std::string unavailableReason() const override { return {}; }
    void beginPoint() override { ++beginPoints; }
    void discardSoFar() override { tracedRunsAtDiscard = int(tracedRuns.size()); }
    [[nodiscard]] PhaseHook& hook() override { return m_hook; }
    void endIteration() override { ++iterationsEnded; }
    [[nodiscard]] GpuProfile endPoint(int iterations) override {
        endPointIterations.push_back(iterations);
        GpuProfile p;
        p.traced = true;
        p.peakDeviceBytes = {100, 0, 0}; // CUPTI saw 100 bytes allocated inside forward
        return p;
    }

    int beginPoints = 0;
    int tracedRunsAtDiscard = -1;
    int iterationsEnded = 0;
    std::vector<int> endPointIterations;
    std::vector<int> tracedRuns; // run index (0-based) of each run the hook saw

private:
    struct Hook final : PhaseHook {
        explicit Hook(RecordingTracer& t) : tracer(t) {}
        void beginPhase(Phase p) override {
            if (p == Phase::Forward) tracer.tracedRuns.push_back(tracer.m_runs.load() - 1);
        }
        RecordingTracer& tracer;
    };
    Hook m_hook;
    const std::atomic<int>& m_runs;
};

struct GpuFixture {
    std::atomic<int> runs{0};
    FakeDeviceQueue queue;
    FakeBehaviour gpuBackend(int stepsPerPhase = 1) {
        FakeBehaviour b = named("fake-gpu");
        b.gpu = true;
        b.queue = &queue;
        b.runs = &runs;
        b.stepsPerPhase = stepsPerPhase;
        return b;
    }
};

SweepPlan onePoint(Mode mode, int warmup, int repeats) {
    SweepPlan plan = fakePlan({"fake-gpu"}, {1}, {3});
    plan.modes = {mode};
    plan.settings.warmup = warmup;
    plan.settings.minRepeats = repeats;
    plan.settings.maxRepeats = repeats;
    return plan;
}

// Runs the one point of `plan` on `backend`, traced by `tracer` when given.
PointResult measureOne(const FakeBehaviour& backend, const SweepPlan& plan, KernelTracer* tracer = nullptr) {
    const auto registry = registryOf({backend});
    SweepRunner runner(registry, plan);
    if (tracer) runner.setKernelTracer(tracer);
    StopToken stop;
    const SweepResult result = runner.run(stop);
    EXPECT_EQ(result.points.size(), 1u);
    return result.points.at(0);
}

TEST(MeasurementProtocol, TheHeadlineRunsAreNeverTracedAndTheTracedPassComesAfterThem) {
    GpuFixture f;
    RecordingTracer tracer(f.runs);
    const PointResult p = measureOne(f.gpuBackend(), onePoint(Mode::Training, 2, 4), &tracer);
    ASSERT_EQ(p.status, PointStatus::Ok) << p.reason;
    EXPECT_EQ(p.measuredRuns, 4);
    // 2 warm-up, 4 timed; then 1 traced warm-up and 4 untraced + 4 traced runs, alternating.
    EXPECT_EQ(f.runs.load(), 2 + 4 + 1 + 4 + 4);
    EXPECT_EQ(tracer.tracedRuns, (std::vector<int>{6, 8, 10, 12, 14}));
    EXPECT_EQ(tracer.beginPoints, 1);
    EXPECT_EQ(tracer.tracedRunsAtDiscard, 1) << "the traced warm-up run is discarded";
    EXPECT_EQ(tracer.iterationsEnded, 4);
    EXPECT_EQ(tracer.endPointIterations, std::vector<int>{4});
    ASSERT_TRUE(p.gpu.has_value());
    EXPECT_TRUE(p.gpu->traced);
    EXPECT_GT(p.gpu->tracedMedianMs, 0.0);
    EXPECT_GT(p.gpu->untracedMedianMs, 0.0);
}

TEST(MeasurementProtocol, TheTracedPassRunsAtMostTenTimes) {
    GpuFixture f;
    RecordingTracer tracer(f.runs);
    const PointResult p = measureOne(f.gpuBackend(), onePoint(Mode::Inference, 1, 25), &tracer);
    ASSERT_EQ(p.status, PointStatus::Ok) << p.reason;
    EXPECT_EQ(p.measuredRuns, 25);
    EXPECT_EQ(tracer.endPointIterations, std::vector<int>{10});
    EXPECT_EQ(tracer.tracedRuns.size(), 11u);
}

TEST(MeasurementProtocol, DeviceTimeOfEachPhaseComesFromTheQueueAfterTheHostWaited) {
    GpuFixture f;
    SweepPlan plan = onePoint(Mode::Training, 1, 3);
    plan.settings.gpuTrace = false;
    const PointResult p = measureOne(f.gpuBackend(2), plan);
    ASSERT_EQ(p.status, PointStatus::Ok) << p.reason;
    ASSERT_TRUE(p.gpu.has_value());
    EXPECT_FALSE(p.gpu->traced);
    EXPECT_NE(p.gpu->unavailableReason.find("kernel trace off"), std::string::npos);
    // The fake session enqueues 2, 3 and 1 ms of device work in forward, backward and update.
    EXPECT_DOUBLE_EQ(p.gpu->eventMs[0], 2.0);
    EXPECT_DOUBLE_EQ(p.gpu->eventMs[1], 3.0);
    EXPECT_DOUBLE_EQ(p.gpu->eventMs[2], 1.0);
    EXPECT_EQ(f.queue.earlyReads(), 0) << "a stopwatch was read before the host waited for its stop mark";
}

TEST(MeasurementProtocol, TimedRunsWaitAtPhaseEndsAndThePerStepPassAtEveryStep) {
    GpuFixture f;
    SweepPlan plan = onePoint(Mode::Training, 1, 3);
    plan.settings.gpuTrace = false;
    const PointResult p = measureOne(f.gpuBackend(2), plan); // two steps per phase
    ASSERT_EQ(p.status, PointStatus::Ok) << p.reason;
    // Each run() ends with the session's own wait. Warm-up: nothing more. Timed runs: one wait at
    // the end of each of the 3 phases. Per-step pass (3 untraced runs, no tracer): a wait after
    // each of the 6 steps and at each of the 3 phase ends.
    const int warmup = 1 * 1;
    const int timed = 3 * (1 + 3);
    const int perStep = 3 * (1 + 6 + 3);
    EXPECT_EQ(f.queue.syncs(), warmup + timed + perStep);
    // Step times come from the pass that waited after each step.
    ASSERT_EQ(p.steps.size(), 6u);
    EXPECT_EQ(p.steps.front().name, "work");
}

TEST(MeasurementProtocol, PeakDeviceMemoryIsTheSessionsAllocationsPlusWhatTheTraceSawInThePhase) {
    for (Mode mode : {Mode::Inference, Mode::Training}) {
        GpuFixture f;
        FakeBehaviour b = f.gpuBackend();
        b.estimateBytes = 4096; // the session's device footprint
        RecordingTracer tracer(f.runs);
        const PointResult p = measureOne(b, onePoint(mode, 1, 3), &tracer);
        ASSERT_EQ(p.status, PointStatus::Ok) << p.reason;
        ASSERT_TRUE(p.gpu.has_value());
        EXPECT_EQ(p.gpu->peakDeviceBytes[0], 4096u + 100u);
        EXPECT_EQ(p.gpu->peakDeviceBytes[1], mode == Mode::Training ? 4096u : 0u)
            << "no figure for a phase that never ran";
        EXPECT_EQ(p.gpu->peakDeviceBytes[2], mode == Mode::Training ? 4096u : 0u);
    }
}

TEST(MeasurementProtocol, CpuPointsHaveNoDevicePassAndNoGpuProfile) {
    std::atomic<int> runs{0};
    FakeBehaviour cpu = named("fake-cpu");
    cpu.runs = &runs;
    SweepPlan plan = fakePlan({"fake-cpu"}, {1}, {3});
    plan.modes = {Mode::Inference};
    const PointResult p = measureOne(cpu, plan);
    ASSERT_EQ(p.status, PointStatus::Ok) << p.reason;
    EXPECT_EQ(runs.load(), 1 + 3) << "warm-up and timed runs only";
    EXPECT_FALSE(p.gpu.has_value());
    ASSERT_FALSE(p.steps.empty());
}

} // namespace
} // namespace rnnprof
