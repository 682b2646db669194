// `rnnprof sweep` killed in the middle of a sweep: SIGKILL gives the process no chance to clean up,
// so only what was already on disk counts. The journal must reopen with every point whose line
// was complete when the process died (a torn last line is dropped), in run order, and the results
// file must not exist half-written. SIGINT (Ctrl-C) instead stops at the next safe point and saves.
#include "support/child_process.h"

#include "engine/error.h"
#include "profiling/plan.h"
#include "profiling/result_files.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

namespace rnnprof {
namespace {

using test::ChildProcess;
using test::ProcessResult;
using test::slurp;
using test::TempDir;
using test::waitUntil;

// 2 modes x 3 sequence lengths x 8 batch sizes = 48 points of at least 50 ms each: long enough
// that the sweep is always still running when it is killed after its first points.
std::vector<std::string> longSweep(const std::string& out) {
    return {RNNPROF_EXE,     "sweep",
            "--backend",     "cpu-reference",
            "--input-size",  "4",
            "--hidden-size", "4",
            "--batch",       "1,2,3,4,5,6,7,8",
            "--seq-len",     "3,4,5",
            "--mode",        "both",
            "--warmup",      "0",
            "--min-repeats", "1",
            "--max-repeats", "100000",
            "--time-budget", "50",
            "--no-numerics", "--quiet",
            "--out",         out};
}

// The grid of longSweep() in run order.
std::vector<PointSpec> longSweepGrid() {
    SweepPlan plan;
    plan.batches = {1, 2, 3, 4, 5, 6, 7, 8};
    plan.seqLens = {3, 4, 5};
    plan.backends = {"cpu-reference"};
    plan.modes = {Mode::Inference, Mode::Training};
    return points(plan);
}

std::size_t completeLines(const std::string& path) {
    const std::string text = slurp(path);
    return std::size_t(std::count(text.begin(), text.end(), '\n'));
}

class SweepKilled : public ::testing::TestWithParam<int> {};

TEST_P(SweepKilled, TheJournalReopensWithEveryFinishedPoint) {
    TempDir dir;
    const std::string out = dir.path("results.json");
    const std::string journal = journalPathFor(out);
    ChildProcess sweep(longSweep(out));
    ASSERT_TRUE(sweep.started());
    // The header and two points on disk, then a little more so the kill lands at varied moments
    // (between points, inside a measurement, possibly inside a write).
    ASSERT_TRUE(waitUntil([&] { return completeLines(journal) >= 3 || !sweep.running(); }))
        << "no point reached the journal";
    std::this_thread::sleep_for(std::chrono::milliseconds(GetParam()));
    ASSERT_TRUE(sweep.running()) << "the sweep ended before it could be killed: " << sweep.wait().err;
    sweep.kill(SIGKILL);
    EXPECT_EQ(sweep.wait().status, 128 + SIGKILL);

    const std::size_t finished = completeLines(journal) - 1; // every complete line after the header
    ASSERT_GE(finished, 2u);
    const SweepResult reopened = loadResultFile(journal);
    EXPECT_FALSE(reopened.complete);
    ASSERT_EQ(reopened.points.size(), finished) << "a finished point was lost or a torn one kept";
    const std::vector<PointSpec> grid = longSweepGrid();
    for (std::size_t i = 0; i < reopened.points.size(); ++i) {
        const PointResult& p = reopened.points[i];
        EXPECT_EQ(p.backend, grid[i].backend);
        EXPECT_EQ(p.mode, grid[i].mode);
        EXPECT_EQ(p.shape, grid[i].shape);
        EXPECT_EQ(p.status, PointStatus::Ok) << p.reason;
        EXPECT_GE(p.measuredRuns, 1);
        EXPECT_GT(p.iteration.median, 0.0);
    }
    EXPECT_EQ(reopened.plan.batches, (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8}));
    EXPECT_FALSE(std::filesystem::exists(out)) << "a results file appeared although the sweep never finished";
}

INSTANTIATE_TEST_SUITE_P(AtVariedMoments, SweepKilled, ::testing::Values(0, 7, 23, 61, 149),
                         [](const auto& info) { return std::to_string(info.param) + "ms"; });

// The journal of a killed sweep is all that is left of its points: a plain re-run must not touch
// it, and --resume measures only what it lacks.
TEST(SweepKilledThenRerun, TheJournalSurvivesARerunAndResumeMeasuresOnlyTheMissingPoints) {
    TempDir dir;
    const std::string out = dir.path("results.json");
    const std::string journal = journalPathFor(out);
    {
        ChildProcess sweep(longSweep(out));
        ASSERT_TRUE(sweep.started());
        ASSERT_TRUE(waitUntil([&] { return completeLines(journal) >= 4 || !sweep.running(); }));
        ASSERT_TRUE(sweep.running()) << sweep.wait().err;
        sweep.kill(SIGKILL);
        EXPECT_EQ(sweep.wait().status, 128 + SIGKILL);
    }
    const std::string left = slurp(journal);
    const SweepResult killed = loadResultFile(journal);
    ASSERT_GE(killed.points.size(), 3u);

    std::vector<std::string> rerun = longSweep(out);
    const ProcessResult refused = test::runToEnd(rerun);
    EXPECT_EQ(refused.status, 2) << refused.err;
    EXPECT_NE(refused.err.find("--resume"), std::string::npos) << refused.err;
    EXPECT_EQ(slurp(journal), left) << "the re-run changed the killed run's journal";
    EXPECT_FALSE(std::filesystem::exists(out));

    rerun.push_back("--resume");
    const ProcessResult resumed = test::runToEnd(rerun);
    ASSERT_EQ(resumed.status, 0) << resumed.err;
    EXPECT_NE(resumed.err.find(std::to_string(killed.points.size()) + " points kept"), std::string::npos)
        << resumed.err;
    const SweepResult saved = loadResultFile(out);
    EXPECT_TRUE(saved.complete);
    const std::vector<PointSpec> grid = longSweepGrid();
    ASSERT_EQ(saved.points.size(), grid.size());
    for (std::size_t i = 0; i < grid.size(); ++i) {
        EXPECT_EQ(saved.points[i].shape, grid[i].shape);
        EXPECT_EQ(saved.points[i].mode, grid[i].mode);
        EXPECT_EQ(saved.points[i].status, PointStatus::Ok) << saved.points[i].reason;
    }
    for (std::size_t i = 0; i < killed.points.size(); ++i)
        EXPECT_EQ(saved.points[i], killed.points[i]) << "the journal's point " << i << " was measured again";
    EXPECT_FALSE(std::filesystem::exists(journal));
}

TEST(SweepInterrupted, CtrlCStopsAtASafePointAndSavesWhatWasMeasured) {
    TempDir dir;
    const std::string out = dir.path("results.json");
    ChildProcess sweep(longSweep(out));
    ASSERT_TRUE(sweep.started());
    ASSERT_TRUE(waitUntil([&] { return completeLines(journalPathFor(out)) >= 2 || !sweep.running(); }));
    ASSERT_TRUE(sweep.running()) << sweep.wait().err;
    sweep.kill(SIGINT);
    const ProcessResult r = sweep.wait();
    EXPECT_EQ(r.status, 130) << r.err;
    const SweepResult saved = loadResultFile(out);
    EXPECT_FALSE(saved.complete);
    ASSERT_GE(saved.points.size(), 1u);
    for (std::size_t i = 0; i + 1 < saved.points.size(); ++i)
        EXPECT_EQ(saved.points[i].status, PointStatus::Ok) << saved.points[i].reason;
    EXPECT_FALSE(std::filesystem::exists(journalPathFor(out)))
        << "the journal is removed once the results are saved";
}

} // namespace
} // namespace rnnprof
