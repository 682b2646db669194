// The sweep runner: every point recorded with a status, failures and refusals never end the sweep,
// stop requests are honoured promptly at any phase and keep what was measured.
#include "profiling/measure/runner.h"
#include "support/fake_backend.h"

#include <gtest/gtest.h>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>

namespace rnnprof {
namespace {

using namespace std::chrono_literals;
using test::FakeBehaviour;
using test::fakePlan;
using test::named;
using test::registryOf;

const PointResult* find(const SweepResult& r, const std::string& backend, Mode mode, int batch) {
    for (const auto& p : r.points)
        if (p.backend == backend && p.mode == mode && p.shape.batch == batch) return &p;
    return nullptr;
}

TEST(SweepRunner, MeasuresEveryPointOfTheGridWithStatistics) {
    const auto registry = registryOf({named("a"), named("b")});
    SweepRunner runner(registry, fakePlan({"a", "b"}));
    StopToken stop;
    const SweepResult result = runner.run(stop);
    EXPECT_TRUE(result.complete);
    ASSERT_EQ(result.points.size(), 8u); // 2 backends x 2 batches x 1 seq x 2 modes
    for (const auto& p : result.points) {
        EXPECT_EQ(p.status, PointStatus::Ok) << p.reason;
        EXPECT_EQ(p.measuredRuns, 3);
        EXPECT_EQ(p.warmupRuns, 1);
        EXPECT_EQ(p.iteration.count, 3);
        EXPECT_GE(p.iteration.p90, p.iteration.p10);
        EXPECT_FALSE(std::isnan(p.phaseMedianMs[0]));
        EXPECT_EQ(std::isnan(p.phaseMedianMs[1]), p.mode == Mode::Inference);
        EXPECT_FALSE(p.trace.empty());
        EXPECT_GT(p.flopsPerIteration, 0u);
        ASSERT_FALSE(p.steps.empty());
        EXPECT_EQ(p.steps.front().name, "work");
    }
}

TEST(SweepRunner, InterleavesBackendsInRunOrder) {
    const auto registry = registryOf({named("a"), named("b")});
    SweepRunner runner(registry, fakePlan({"a", "b"}));
    StopToken stop;
    const auto result = runner.run(stop);
    for (std::size_t i = 0; i + 1 < result.points.size(); i += 2) {
        EXPECT_EQ(result.points[i].backend, "a");
        EXPECT_EQ(result.points[i + 1].backend, "b");
        EXPECT_EQ(result.points[i].shape, result.points[i + 1].shape);
    }
}

TEST(SweepRunner, AFailingBackendIsRecordedAndTheSweepContinues) {
    FakeBehaviour bad = named("bad");
    bad.failAtBatch = 1;
    bad.throwInRunAtBatch = 2;
    const auto registry = registryOf({bad, named("good")});
    SweepRunner runner(registry, fakePlan({"bad", "good"}));
    StopToken stop;
    const auto result = runner.run(stop);
    EXPECT_TRUE(result.complete);
    const PointResult* prepareFail = find(result, "bad", Mode::Inference, 1);
    ASSERT_NE(prepareFail, nullptr);
    EXPECT_EQ(prepareFail->status, PointStatus::Failed);
    EXPECT_NE(prepareFail->reason.find("scripted failure in prepare()"), std::string::npos);
    const PointResult* runFail = find(result, "bad", Mode::Training, 2);
    ASSERT_NE(runFail, nullptr);
    EXPECT_EQ(runFail->status, PointStatus::Failed);
    EXPECT_NE(runFail->reason.find("scripted failure in run()"), std::string::npos);
    for (const auto& p : result.points)
        if (p.backend == "good") {
            EXPECT_EQ(p.status, PointStatus::Ok);
        }
}

TEST(SweepRunner, RecordsIneligibleUnavailableAndRefusedPointsWithTheirReasons) {
    FakeBehaviour inel = named("inel");
    inel.unsupported = {"needs tanh (got relu)."};
    FakeBehaviour gone = named("gone");
    gone.available = false;
    gone.unavailableReason = "no NVIDIA driver";
    FakeBehaviour huge = named("huge");
    huge.estimateBytes = std::uint64_t(1) << 62;
    const auto registry = registryOf({inel, gone, huge});
    SweepRunner runner(registry, fakePlan({"inel", "gone", "huge"}, {1}));
    StopToken stop;
    const auto result = runner.run(stop);
    ASSERT_EQ(result.points.size(), 6u);
    for (const auto& p : result.points) {
        if (p.backend == "inel") {
            EXPECT_EQ(p.status, PointStatus::Ineligible);
            EXPECT_EQ(p.reason, "needs tanh (got relu).");
        } else if (p.backend == "gone") {
            EXPECT_EQ(p.status, PointStatus::Unavailable);
            EXPECT_EQ(p.reason, "no NVIDIA driver");
        } else {
            EXPECT_EQ(p.status, PointStatus::Refused);
            EXPECT_NE(p.reason.find("needs 4096.0 PiB"), std::string::npos) << p.reason;
            EXPECT_NE(p.reason.find("available"), std::string::npos);
            EXPECT_EQ(p.memory.workspace, std::uint64_t(1) << 62); // the estimate is kept
        }
    }
}

TEST(SweepRunner, ReportsProgressWithTotalAndCurrentPoint) {
    const auto registry = registryOf({named("a")});
    std::vector<SweepProgress> seen;
    RunnerCallbacks callbacks;
    callbacks.onProgress = [&](const SweepProgress& p) { seen.push_back(p); };
    SweepRunner runner(registry, fakePlan({"a"}), callbacks);
    StopToken stop;
    (void)runner.run(stop);
    ASSERT_EQ(seen.size(), 5u); // before each of 4 points, then the end
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(seen[i].done, int(i));
        EXPECT_EQ(seen[i].total, 4);
        EXPECT_FALSE(seen[i].current.empty());
    }
    // Estimated from the plan (eta.h) before the first point, and from its rates afterwards.
    EXPECT_GE(seen[0].etaSeconds, 0.0);
    EXPECT_GE(seen[1].etaSeconds, 0.0);
    EXPECT_EQ(seen.back().done, 4);
    EXPECT_TRUE(seen.back().current.empty());
}

TEST(SweepRunner, RecordsHowBusyTheMachineWasBeforeTheSweep) {
    const auto registry = registryOf({named("a")});
    SweepRunner runner(registry, fakePlan({"a"}));
    EXPECT_FALSE(runner.header().host.loadBefore.has_value()); // taken when the run begins
    StopToken stop;
    const SweepResult result = runner.run(stop);
    if (!std::filesystem::exists("/proc/stat")) GTEST_SKIP() << "no /proc here";
    ASSERT_TRUE(result.host.loadBefore.has_value());
    EXPECT_GT(result.host.loadBefore->windowSeconds, 0.05);
    EXPECT_GE(result.host.loadBefore->otherBusyCores, 0.0);
}

// Another process that keeps one core busy while it lives (/bin/sh spinning), killed at the end.
class OtherBusyProcess {
public:
    OtherBusyProcess() : m_pid(::fork()) {
        if (m_pid == 0) {
            ::execl("/bin/sh", "sh", "-c", "while :; do :; done", static_cast<char*>(nullptr));
            ::_exit(127);
        }
    }
    ~OtherBusyProcess() {
        if (m_pid <= 0) return;
        ::kill(m_pid, SIGKILL);
        ::waitpid(m_pid, nullptr, 0);
    }
    OtherBusyProcess(const OtherBusyProcess&) = delete;
    OtherBusyProcess& operator=(const OtherBusyProcess&) = delete;
    [[nodiscard]] bool started() const { return m_pid > 0; }

private:
    pid_t m_pid;
};

TEST(SweepRunner, RecordsHowBusyOtherProcessesKeptTheMachineDuringTheSweep) {
    if (!std::filesystem::exists("/proc/stat")) GTEST_SKIP() << "no /proc here";
    FakeBehaviour slow = named("a");
    slow.runTime = std::chrono::milliseconds(50); // 4 points x 4 runs: 0.8 s of sweep
    const auto registry = registryOf({slow});
    SweepRunner runner(registry, fakePlan({"a"}));
    const OtherBusyProcess spinner;
    ASSERT_TRUE(spinner.started());
    StopToken stop;
    const SweepResult result = runner.run(stop);
    ASSERT_TRUE(result.host.loadDuring.has_value()) << "no load sampled while the sweep ran";
    EXPECT_GE(result.host.loadDuring->windowSeconds, 0.25);
    // The spinning shell is another process: a good part of a core at least, whatever else runs.
    EXPECT_GE(result.host.loadDuring->otherBusyCores, 0.3);
    EXPECT_FALSE(result.host.loadDuring->busiest.empty());
}

TEST(SweepRunner, DeliversEachPointAsItFinishes) {
    const auto registry = registryOf({named("a")});
    int delivered = 0;
    RunnerCallbacks callbacks;
    callbacks.onPoint = [&](const PointResult&) { ++delivered; };
    SweepRunner runner(registry, fakePlan({"a"}), callbacks);
    StopToken stop;
    const auto result = runner.run(stop);
    EXPECT_EQ(delivered, int(result.points.size()));
}

class StopAtPhase : public ::testing::TestWithParam<Phase> {};

TEST_P(StopAtPhase, StopsPromptlyAndKeepsTheFinishedPoints) {
    StopToken stop;
    std::atomic<int> runs{0};
    int point = 0;
    FakeBehaviour b = named("a");
    b.runs = &runs;
    // Each point makes 4 runs (1 warm-up + 3 measured): stop during the first run of the second point.
    b.onPhase = [&](Phase ph) {
        if (ph == GetParam() && runs.load() == 5) stop.requestStop();
    };
    const auto registry = registryOf({b});
    SweepPlan plan = fakePlan({"a"}, {1, 2});
    plan.modes = {Mode::Training};
    RunnerCallbacks callbacks;
    callbacks.onPoint = [&](const PointResult&) { ++point; };
    SweepRunner runner(registry, plan, callbacks);
    const auto result = runner.run(stop);
    EXPECT_FALSE(result.complete);
    ASSERT_EQ(result.points.size(), 2u);
    EXPECT_EQ(result.points[0].status, PointStatus::Ok);
    EXPECT_EQ(result.points[1].status, PointStatus::Cancelled);
    EXPECT_NE(result.points[1].reason.find("stopped"), std::string::npos);
    EXPECT_EQ(runs.load(), 5); // no run started after the stop request
}

INSTANTIATE_TEST_SUITE_P(EveryPhase, StopAtPhase,
                         ::testing::Values(Phase::Forward, Phase::Backward, Phase::Update),
                         [](const auto& info) { return std::string(toString(info.param)); });

// Measured runs of scripted length on the measure clock (durations[i] for the i-th run, moved in
// its forward phase); the run after them requests a stop in its forward phase, which the fake
// session (like a CPU session) sees at its next step and abandons the run.
struct StopAfterRuns {
    explicit StopAfterRuns(std::vector<int> durations) : durationsMs(std::move(durations)) {}
    std::vector<int> durationsMs;
    StopToken stop;
    std::chrono::steady_clock::time_point now{};
    int run = 0;

    FakeBehaviour backend() {
        FakeBehaviour b = named("a");
        b.onPhase = [this](Phase ph) {
            if (ph != Phase::Forward) return;
            if (run < int(durationsMs.size()))
                now += std::chrono::milliseconds(durationsMs[std::size_t(run)]);
            else
                stop.requestStop();
            ++run;
        };
        return b;
    }
    PointResult measure() {
        const auto registry = registryOf({backend()});
        SweepPlan plan = fakePlan({"a"}, {4});
        plan.modes = {Mode::Inference};
        plan.settings.warmup = 0;
        plan.settings.minRepeats = plan.settings.maxRepeats = 5;
        SweepRunner runner(registry, plan);
        runner.setMeasureClock([this] { return now; });
        const SweepResult result = runner.run(stop);
        EXPECT_FALSE(result.complete);
        EXPECT_EQ(result.points.size(), 1u);
        return result.points.at(0);
    }
};

TEST(SweepRunnerStop, AStopInsideRunKPlusOneKeepsTheKRunsBeforeItAndDropsThatRun) {
    StopAfterRuns script({40, 10, 30});
    const PointResult p = script.measure();
    EXPECT_EQ(script.run, 4) << "no run after the abandoned one";
    EXPECT_EQ(p.status, PointStatus::Cancelled);
    EXPECT_EQ(p.reason, "stopped by request after 3 of at least 5 measured runs; the run in progress was "
                        "abandoned in forward, before step 1 of 1");
    EXPECT_TRUE(p.measured());
    EXPECT_EQ(p.measuredRuns, 3);
    EXPECT_EQ(p.iteration.count, 3);
    EXPECT_DOUBLE_EQ(p.iteration.median, 30.0); // of 40, 10, 30
    EXPECT_DOUBLE_EQ(p.iteration.min, 10.0);
    EXPECT_DOUBLE_EQ(p.iteration.max, 40.0);
    EXPECT_DOUBLE_EQ(p.iteration.mean, 80.0 / 3.0);
    EXPECT_DOUBLE_EQ(p.sequencesPerSecond, 4 * 1000.0 / 30.0); // batch 4 per median iteration
    EXPECT_FALSE(std::isnan(p.phaseMedianMs[0]));
    ASSERT_EQ(p.steps.size(), 1u);
    EXPECT_EQ(p.steps[0].callsPerIteration, 1) << "the abandoned run left no partial iteration";
    EXPECT_FALSE(p.trace.empty());
    EXPECT_FALSE(p.numerics.checked);
}

TEST(SweepRunnerStop, AStopInsideTheFirstMeasuredRunLeavesNoStatistics) {
    StopAfterRuns script(std::vector<int>{});
    const PointResult p = script.measure();
    EXPECT_EQ(p.status, PointStatus::Cancelled);
    EXPECT_FALSE(p.measured());
    EXPECT_EQ(p.measuredRuns, 0);
    EXPECT_EQ(p.iteration.count, 0);
    EXPECT_TRUE(p.trace.empty());
    EXPECT_EQ(p.reason, "stopped by request after 0 of at least 5 measured runs; the run in progress was "
                        "abandoned in forward, before step 1 of 1");
}

TEST(SweepRunner, AStopBeforeTheFirstPointRecordsNothing) {
    const auto registry = registryOf({named("a")});
    SweepRunner runner(registry, fakePlan({"a"}));
    StopToken stop;
    stop.requestStop();
    const auto result = runner.run(stop);
    EXPECT_FALSE(result.complete);
    EXPECT_TRUE(result.points.empty());
}

TEST(SweepRunner, RefusesAnInvalidPlanBeforeRunningAnything) {
    std::atomic<int> runs{0};
    FakeBehaviour counting = named("a");
    counting.runs = &runs;
    const auto registry = registryOf({counting});
    SweepPlan plan = fakePlan({"a", "nope"});
    plan.batches = {};
    SweepRunner runner(registry, plan);
    StopToken stop;
    try {
        (void)runner.run(stop);
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::InvalidConfig);
        EXPECT_NE(std::string(e.what()).find("nope"), std::string::npos) << e.what();
    }
    EXPECT_EQ(runs.load(), 0);
}

TEST(SweepRunner, RunsUntilTheTimeBudgetBetweenMinAndMaxRepeats) {
    const auto registry = registryOf({named("a")});
    SweepPlan plan = fakePlan({"a"}, {1});
    plan.modes = {Mode::Inference};
    plan.settings.minRepeats = 2;
    plan.settings.maxRepeats = 40;
    plan.settings.timeBudgetMs = 1e6; // never reached: max repeats bound
    SweepRunner runner(registry, plan);
    StopToken stop;
    EXPECT_EQ(runner.run(stop).points.at(0).measuredRuns, 40);
}

// A budget clock that moves only when a run moves it (by `perRun`, in each forward phase): the time
// budget then runs out after a known number of runs, however fast or busy the machine is.
class ClockMovedByRuns {
public:
    explicit ClockMovedByRuns(std::chrono::milliseconds perRun) : m_perRun(perRun) {}
    FakeBehaviour backend(std::string id) {
        FakeBehaviour b = named(std::move(id));
        b.onPhase = [this](Phase ph) {
            if (ph == Phase::Forward) m_now += m_perRun;
        };
        return b;
    }
    MeasureClock clock() {
        return [this] { return m_now; };
    }

private:
    std::chrono::milliseconds m_perRun;
    std::chrono::steady_clock::time_point m_now{};
};

struct Budget {
    int minRepeats = 1;
    int maxRepeats = 1000;
    double timeBudgetMs = 0;
    int warmup = 0;
};

// The measured runs of each point of a two-point sweep whose runs take 10 ms on the budget clock.
std::vector<int> measuredRunsPerPoint(const Budget& budget) {
    ClockMovedByRuns clock(10ms);
    const auto registry = registryOf({clock.backend("a")});
    SweepPlan plan = fakePlan({"a"}, {1, 2});
    plan.modes = {Mode::Inference};
    plan.settings.warmup = budget.warmup;
    plan.settings.minRepeats = budget.minRepeats;
    plan.settings.maxRepeats = budget.maxRepeats;
    plan.settings.timeBudgetMs = budget.timeBudgetMs;
    SweepRunner runner(registry, plan);
    runner.setMeasureClock(clock.clock());
    StopToken stop;
    std::vector<int> runs;
    for (const PointResult& p : runner.run(stop).points) {
        EXPECT_EQ(p.status, PointStatus::Ok) << p.reason;
        EXPECT_EQ(p.iteration.count, p.measuredRuns);
        runs.push_back(p.measuredRuns);
    }
    return runs;
}

TEST(SweepRunnerTimeBudget, MeasuresUntilTheBudgetIsSpentAfreshAtEveryPoint) {
    // After 3 runs 30 ms have passed, less than 35: a 4th run; after it 40 ms, and the point ends.
    EXPECT_EQ(measuredRunsPerPoint({.minRepeats = 1, .timeBudgetMs = 35}), (std::vector<int>{4, 4}));
    EXPECT_EQ(measuredRunsPerPoint({.minRepeats = 1, .timeBudgetMs = 5}), (std::vector<int>{1, 1}));
    EXPECT_EQ(measuredRunsPerPoint({.minRepeats = 1, .timeBudgetMs = 95}), (std::vector<int>{10, 10}));
}

TEST(SweepRunnerTimeBudget, MinRepeatsAreMeasuredEvenWhenTheBudgetIsSpent) {
    EXPECT_EQ(measuredRunsPerPoint({.minRepeats = 6, .timeBudgetMs = 15}), (std::vector<int>{6, 6}));
    EXPECT_EQ(measuredRunsPerPoint({.minRepeats = 3, .timeBudgetMs = 0}), (std::vector<int>{3, 3}));
}

TEST(SweepRunnerTimeBudget, MaxRepeatsEndAPointBeforeItsBudget) {
    EXPECT_EQ(measuredRunsPerPoint({.minRepeats = 2, .maxRepeats = 5, .timeBudgetMs = 1000}),
              (std::vector<int>{5, 5}));
}

TEST(SweepRunnerTimeBudget, WarmUpRunsDoNotSpendTheBudget) {
    // Five warm-up runs take 50 ms, more than the budget; the measured runs still get all of it.
    EXPECT_EQ(measuredRunsPerPoint({.minRepeats = 1, .timeBudgetMs = 35, .warmup = 5}),
              (std::vector<int>{4, 4}));
}

TEST(SweepRunner, ASessionThatCannotBeComparedIsNotCheckedAndSaysWhy) {
    FakeBehaviour own = named("own-rng");
    own.notComparable = "it samples its own dropout mask";
    const auto registry = test::registryOf({own});
    SweepPlan plan = fakePlan({"own-rng"}, {2});
    plan.settings.checkNumerics = true;
    StopToken stop;
    const auto result = SweepRunner(registry, plan).run(stop);
    ASSERT_FALSE(result.points.empty());
    for (const auto& p : result.points) {
        ASSERT_EQ(p.status, PointStatus::Ok) << p.reason;
        EXPECT_FALSE(p.numerics.checked);
        EXPECT_EQ(p.numerics.note, "numerics not comparable: it samples its own dropout mask");
    }
}

TEST(SweepRunner, AGpuPointNamesItsLibraryBuffersAndMathTypeAsTheSessionSaysThem) {
    FakeBehaviour gpu = named("fake-gpu");
    gpu.gpu = true;
    gpu.mathType = "strict FP32 (CUDNN_FMA_MATH)";
    gpu.detail = {{std::string(kBufferCudnnWorkspace), BufferCategory::Workspace, 8000},
                  {std::string(kBufferCudnnReserve), BufferCategory::Activations, 30000},
                  {std::string(kBufferCudnnDropoutStates), BufferCategory::Workspace, 500},
                  {std::string(kBufferCublasWorkspace), BufferCategory::Workspace, 700},
                  {"something of its own", BufferCategory::Workspace, 11}};
    FakeBehaviour cpu = named("fake-cpu");
    cpu.mathType = "ignored: not a GPU backend";
    const auto registry = registryOf({gpu, cpu});
    SweepPlan plan = fakePlan({"fake-gpu", "fake-cpu"}, {2});
    plan.settings.gpuTrace = false;
    StopToken stop;
    const auto result = SweepRunner(registry, plan).run(stop);
    for (Mode mode : {Mode::Inference, Mode::Training}) {
        const PointResult* p = find(result, "fake-gpu", mode, 2);
        ASSERT_NE(p, nullptr);
        ASSERT_EQ(p->status, PointStatus::Ok) << p->reason;
        ASSERT_TRUE(p->gpu.has_value());
        EXPECT_EQ(p->gpu->unavailableReason, "kernel trace off (gpu_trace = false)");
        EXPECT_EQ(p->gpu->mathType, "strict FP32 (CUDNN_FMA_MATH)");
        EXPECT_EQ(p->gpu->cudnnWorkspaceBytes, 8000u);
        EXPECT_EQ(p->gpu->cudnnReserveBytes, 30000u);
        EXPECT_EQ(p->gpu->dropoutStateBytes, 500u);
        EXPECT_EQ(p->gpu->cublasWorkspaceBytes, 700u);
        // The footprint keeps every part, in its category.
        EXPECT_EQ(p->memory.detail.size(), 5u);
        EXPECT_EQ(p->memory.workspace, 1024u + 8000u + 500u + 700u + 11u);
        EXPECT_EQ(p->memory.activations, 30000u);
        const PointResult* c = find(result, "fake-cpu", mode, 2);
        ASSERT_NE(c, nullptr);
        EXPECT_FALSE(c->gpu.has_value());
    }
}

TEST(SweepRunner, ChecksNumericsOfARealBackendAgainstTheReference) {
    SweepPlan plan;
    plan.config.inputSize = 5;
    plan.config.hiddenSize = 7;
    plan.batches = {3};
    plan.seqLens = {4};
    plan.backends = {"cpu-blas"};
    plan.modes = {Mode::Inference, Mode::Training};
    plan.settings.warmup = 0;
    plan.settings.minRepeats = plan.settings.maxRepeats = 2;
    SweepRunner runner(builtinBackends(), plan);
    StopToken stop;
    const auto result = runner.run(stop);
    for (const auto& p : result.points) {
        ASSERT_EQ(p.status, PointStatus::Ok) << p.reason;
        EXPECT_TRUE(p.numerics.checked) << p.numerics.note;
        EXPECT_LT(p.numerics.maxRelErr, 1e-4) << p.numerics.worstTensor;
        EXPECT_EQ(p.numerics.note, "checked on the full shape");
        EXPECT_GT(p.gflopsPerSecond, 0.0);
        EXPECT_GT(p.memory.total(), 0u);
        EXPECT_FALSE(p.notes.empty());
    }
}

TEST(SweepRunner, ChecksLargeShapesOnASmallerShapeAndSaysSo) {
    SweepPlan plan;
    plan.config.inputSize = 8;
    plan.config.hiddenSize = 8;
    plan.batches = {64};
    plan.seqLens = {50};
    plan.backends = {"cpu-blas"};
    plan.modes = {Mode::Training};
    plan.settings.warmup = 0;
    plan.settings.minRepeats = plan.settings.maxRepeats = 1;
    plan.settings.numericsMaxWork = 2e4;
    SweepRunner runner(builtinBackends(), plan);
    StopToken stop;
    const auto p = runner.run(stop).points.at(0);
    EXPECT_TRUE(p.numerics.checked);
    EXPECT_NE(p.numerics.note.find("checked on batch"), std::string::npos) << p.numerics.note;
    EXPECT_LT(p.numerics.maxRelErr, 1e-4);
}

} // namespace
} // namespace rnnprof
