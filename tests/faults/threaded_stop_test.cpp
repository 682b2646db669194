// Stop requests from another thread, the way the GUI's engine thread receives them: a std::thread
// runs the sweep, the test thread requests a stop while the engine thread is inside a given stage
// of a point, and the engine thread must finish that run, start no other, keep what was measured,
// and return so that it can be joined (within a generous bound that only catches hangs).
#include "engine/error.h"
#include "profiling/files/result_files.h"
#include "profiling/measure/runner.h"
#include "support/child_process.h"
#include "support/fake_backend.h"

#include <gtest/gtest.h>

#include <future>
#include <thread>

namespace rnnprof {
namespace {

using test::FakeBehaviour;
using test::Gate;
using test::Stage;
using test::TempDir;
using test::waitUntil;

constexpr auto kHangBound = std::chrono::seconds(120);

// A fake backend "gated" that counts its runs and holds the engine thread where `gate` says.
BackendRegistry gatedRegistry(Gate& gate, std::atomic<int>& runs) {
    FakeBehaviour b = test::named("gated");
    b.gate = &gate;
    b.runs = &runs;
    return test::registryOf({b});
}

// One warm-up run, as the gates below expect, then three measured runs.
SweepPlan gatedPlan(std::vector<int> batches) {
    SweepPlan plan;
    plan.config.inputSize = 4;
    plan.config.hiddenSize = 4;
    plan.batches = std::move(batches);
    plan.seqLens = {3};
    plan.backends = {"gated"};
    plan.modes = {Mode::Training};
    plan.settings.warmup = 1;
    plan.settings.minRepeats = plan.settings.maxRepeats = 3;
    plan.settings.timeBudgetMs = 0;
    plan.settings.threads = 1;
    plan.settings.checkNumerics = false;
    plan.settings.remeasureDisturbed = 0; // counted points: none measured twice on a busy machine
    return plan;
}

// Runs `runner` on its own thread; the future holds its result (or its exception).
class EngineThread {
public:
    explicit EngineThread(SweepRunner& runner, const StopToken& stop) {
        m_thread = std::thread([this, &runner, &stop] {
            try {
                m_result.set_value(runner.run(stop));
            } catch (...) {
                m_result.set_exception(std::current_exception());
            }
        });
        m_future = m_result.get_future();
    }
    ~EngineThread() {
        if (m_thread.joinable()) m_thread.join();
    }
    EngineThread(const EngineThread&) = delete;
    EngineThread& operator=(const EngineThread&) = delete;

    // The result once the thread has returned and been joined; nullopt when it did not return
    // within the bound (the destructor then still joins: a hang shows as the test's timeout).
    std::optional<SweepResult> join(std::chrono::seconds bound) {
        if (m_future.wait_for(bound) != std::future_status::ready) return std::nullopt;
        m_thread.join();
        return m_future.get();
    }

private:
    std::promise<SweepResult> m_result;
    std::future<SweepResult> m_future;
    std::thread m_thread;
};

class ThreadedStop : public ::testing::TestWithParam<Stage> {};

TEST_P(ThreadedStop, FinishesTheCurrentRunStartsNoOtherAndTheThreadJoins) {
    Gate gate(GetParam(), 1); // the second of two points
    std::atomic<int> runs{0};
    const BackendRegistry registry = gatedRegistry(gate, runs);
    SweepRunner runner(registry, gatedPlan({1, 2}));
    StopToken stop;
    EngineThread engine(runner, stop);

    ASSERT_TRUE(gate.waitForArrival(kHangBound))
        << "the engine thread never reached " << toString(GetParam());
    const int runsAtStop = runs.load();
    stop.requestStop();
    gate.release();
    const std::optional<SweepResult> result = engine.join(kHangBound);
    ASSERT_TRUE(result.has_value()) << "the engine thread did not return after the stop";

    EXPECT_EQ(runs.load(), runsAtStop) << "a run started after the stop request";
    EXPECT_FALSE(result->complete);
    ASSERT_EQ(result->points.size(), 2u);
    EXPECT_EQ(result->points[0].status, PointStatus::Ok) << result->points[0].reason;
    EXPECT_EQ(result->points[0].measuredRuns, 3);
    EXPECT_EQ(result->points[1].status, PointStatus::Cancelled);
    EXPECT_NE(result->points[1].reason.find("stopped by request"), std::string::npos)
        << result->points[1].reason;
}

INSTANTIATE_TEST_SUITE_P(EveryStageOfAPoint, ThreadedStop,
                         ::testing::Values(Stage::Prepare, Stage::WarmupRun, Stage::Forward, Stage::Backward,
                                           Stage::Update),
                         [](const auto& info) { return std::string(toString(info.param)); });

TEST(ThreadedStopOfARealBackend, TheReferenceBackendStopsBetweenRunsAndTheThreadJoins) {
    SweepPlan plan;
    plan.config.inputSize = 3;
    plan.config.hiddenSize = 5;
    plan.batches = {1, 2, 3};
    plan.seqLens = {4};
    plan.backends = {"cpu-reference"}; // plain loops: no OpenMP, so this also runs under TSan
    plan.modes = {Mode::Training};
    plan.settings.warmup = 0;
    plan.settings.minRepeats = 1;
    plan.settings.maxRepeats = 100000;
    plan.settings.timeBudgetMs = 1000; // each point measures for a second unless stopped
    plan.settings.threads = 1;
    plan.settings.checkNumerics = false;
    std::atomic<int> started{0};
    StopToken stop;
    RunnerCallbacks callbacks;
    callbacks.onProgress = [&](const SweepProgress& p) {
        if (!p.current.empty()) started = p.done + 1;
    };
    SweepRunner runner(builtinBackends(), plan, callbacks);
    EngineThread engine(runner, stop);
    ASSERT_TRUE(waitUntil([&] { return started.load() >= 2; }, kHangBound)) << "the second point never began";
    stop.requestStop();
    const std::optional<SweepResult> result = engine.join(kHangBound);
    ASSERT_TRUE(result.has_value()) << "the engine thread did not return after the stop";
    EXPECT_FALSE(result->complete);
    ASSERT_EQ(result->points.size(), 2u);
    EXPECT_EQ(result->points[0].status, PointStatus::Ok) << result->points[0].reason;
    EXPECT_GE(result->points[0].measuredRuns, 1);
    EXPECT_EQ(result->points[1].status, PointStatus::Cancelled);
}

TEST(JournalUnderStop, EveryPointDeliveredBeforeAStopFromAnotherThreadIsInTheJournal) {
    TempDir dir;
    const std::string path = dir.path("results.json.journal");
    Gate gate(Stage::Backward, 2); // the third point
    std::atomic<int> runs{0};
    const BackendRegistry registry = gatedRegistry(gate, runs);
    const SweepPlan plan = gatedPlan({1, 2, 3, 4});
    SweepResult header;
    header.plan = plan;
    Journal journal(path, header);
    RunnerCallbacks callbacks;
    callbacks.onPoint = [&](const PointResult& p) { journal.append(p); }; // on the engine thread
    SweepRunner runner(registry, plan, callbacks);
    StopToken stop;
    EngineThread engine(runner, stop);
    ASSERT_TRUE(gate.waitForArrival(kHangBound));
    stop.requestStop();
    gate.release();
    const std::optional<SweepResult> result = engine.join(kHangBound);
    ASSERT_TRUE(result.has_value());

    const SweepResult reopened = loadResultFile(path);
    EXPECT_FALSE(reopened.complete);
    ASSERT_EQ(reopened.points.size(), 3u); // two measured, one cancelled
    EXPECT_EQ(reopened.points, result->points);
    EXPECT_EQ(reopened.plan, plan);
}

} // namespace
} // namespace rnnprof
