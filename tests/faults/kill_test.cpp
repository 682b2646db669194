// `rnnprof sweep` killed in the middle of a sweep: SIGKILL gives the process no chance to clean up,
// so only what was already on disk counts. The journal must reopen with every point whose line
// was complete when the process died (a torn last line is dropped), in run order, and the results
// file must not exist half-written. SIGINT (Ctrl-C), SIGTERM and SIGHUP instead stop the run in
// progress at the session's next check (acknowledged at once on stderr) and save.
#include "support/child_process.h"

#include "engine/error.h"
#include "profiling/files/result_files.h"
#include "profiling/plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <thread>

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

// A shard preempted by its scheduler (SIGTERM) saved its points and removed its journal: the same
// command with --resume (what a re-queued job runs) continues from the saved results file and
// measures only the rest, keeping the saved points as they were measured.
TEST(SweepInterrupted, ResumeAfterAStopContinuesFromTheSavedResults) {
    TempDir dir;
    const std::string out = dir.path("results.json");
    std::vector<std::string> args = longSweep(out);
    args.push_back("--resume"); // as a re-queued job runs it from its first start on
    {
        ChildProcess sweep(args);
        ASSERT_TRUE(sweep.started());
        ASSERT_TRUE(waitUntil([&] { return completeLines(journalPathFor(out)) >= 3 || !sweep.running(); }));
        ASSERT_TRUE(sweep.running()) << sweep.wait().err;
        sweep.kill(SIGTERM);
        EXPECT_EQ(sweep.wait().status, 128 + SIGTERM);
    }
    const SweepResult stopped = loadResultFile(out);
    ASSERT_FALSE(stopped.complete);
    std::vector<PointResult> measured;
    for (const PointResult& p : stopped.points)
        if (p.status == PointStatus::Ok) measured.push_back(p);
    ASSERT_GE(measured.size(), 2u);

    const ProcessResult resumed = test::runToEnd(args);
    ASSERT_EQ(resumed.status, 0) << resumed.err;
    EXPECT_NE(resumed.err.find("resuming the earlier run in " + out), std::string::npos) << resumed.err;
    const SweepResult saved = loadResultFile(out);
    EXPECT_TRUE(saved.complete);
    EXPECT_EQ(saved.stoppedBy, "");
    EXPECT_EQ(saved.createdAt, stopped.createdAt) << "one run, continued";
    const std::vector<PointSpec> grid = longSweepGrid();
    ASSERT_EQ(saved.points.size(), grid.size());
    for (std::size_t i = 0; i < measured.size(); ++i)
        EXPECT_EQ(saved.points[i], measured[i]) << "point " << i << " was measured again";
    for (std::size_t i = 0; i < grid.size(); ++i) {
        EXPECT_EQ(saved.points[i].shape, grid[i].shape);
        EXPECT_EQ(saved.points[i].status, PointStatus::Ok) << saved.points[i].reason;
    }
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

// One cpu-reference iteration of this shape takes minutes (4 gates x 2048 units x 4096 inputs and
// states, 33.5 M multiply-adds per sequence and time step, 16 x 200 of them, in plain loops): a
// Ctrl-C must not wait for it.
std::vector<std::string> oneLongIteration(const std::string& out) {
    return {RNNPROF_EXE,
            "sweep",
            "--backend",
            "cpu-reference",
            "--cell",
            "lstm",
            "--input-size",
            "2048",
            "--hidden-size",
            "2048",
            "--batch",
            "16",
            "--seq-len",
            "200",
            "--mode",
            "infer",
            "--warmup",
            "0",
            "--min-repeats",
            "1",
            "--max-repeats",
            "1",
            "--no-numerics",
            "--out",
            out};
}

// The time step in "before time step N of 200", 0 when the reason names none.
int abandonedAtStep(const std::string& reason) {
    const std::string key = "before time step ";
    const auto at = reason.find(key);
    return at == std::string::npos ? 0 : std::stoi(reason.substr(at + key.size()));
}

// Ctrl-C, and what a cluster's scheduler (SIGTERM at a time limit or preemption) or a closed
// terminal (SIGHUP) sends: each acknowledged at once, naming the signal; the sweep saves what it
// measured with the reason, and exits as a shell reports the signal (128 + its number).
struct StopSignalCase {
    int number;
    const char* name;
    int status;
};
class SweepStopSignal : public testing::TestWithParam<StopSignalCase> {};

TEST_P(SweepStopSignal, InsideALongIterationIsAcknowledgedAtOnceAndAbandonsIt) {
    const StopSignalCase signal = GetParam();
    TempDir dir;
    const std::string out = dir.path("results.json");
    ChildProcess sweep(oneLongIteration(out));
    ASSERT_TRUE(sweep.started());
    // The progress line of the point is out: the session is being prepared or already running.
    ASSERT_TRUE(waitUntil([&] {
        return sweep.errSoFar().find("cpu-reference infer") != std::string::npos || !sweep.running();
    }));
    ASSERT_TRUE(sweep.running()) << sweep.wait().err;
    std::this_thread::sleep_for(std::chrono::seconds(2)); // aims inside the iteration; holds either way
    sweep.kill(signal.number);
    const std::string ack =
        "rnnprof sweep: stopping (" + std::string(signal.name) + "): the run in progress is abandoned";
    // A hang guard, far shorter than the iteration: the process ends without finishing it.
    ASSERT_TRUE(waitUntil([&] { return !sweep.running(); }, std::chrono::seconds(60)))
        << "the sweep ran on after " << signal.name << ": " << sweep.errSoFar();
    const ProcessResult r = sweep.wait();
    EXPECT_EQ(r.status, signal.status) << r.err;
    const auto acked = r.err.find(ack);
    ASSERT_NE(acked, std::string::npos) << r.err;
    EXPECT_LT(acked, r.err.find("rnnprof sweep: wrote")) << "acknowledged before the results were saved";

    const SweepResult saved = loadResultFile(out);
    EXPECT_FALSE(saved.complete);
    EXPECT_EQ(saved.stoppedBy, signal.name);
    ASSERT_EQ(saved.points.size(), 1u);
    const PointResult& p = saved.points[0];
    EXPECT_EQ(p.status, PointStatus::Cancelled);
    EXPECT_EQ(p.measuredRuns, 0);
    EXPECT_EQ(p.iteration.count, 0);
    EXPECT_FALSE(p.measured());
    EXPECT_EQ(p.reason.rfind("stopped by request after 0 of at least 1 measured runs", 0), 0u) << p.reason;
    if (p.reason.find("abandoned") != std::string::npos) { // the signal came inside the run
        EXPECT_NE(p.reason.find("in forward, layer 1 of 1"), std::string::npos) << p.reason;
        EXPECT_GE(abandonedAtStep(p.reason), 1) << p.reason;
        EXPECT_LT(abandonedAtStep(p.reason), 200) << p.reason;
    }
}

// rnnprof with the arguments `words` (split at spaces) and then `last` (a path, kept whole).
std::vector<std::string> commandLine(const std::string& words, const std::string& last) {
    std::vector<std::string> args{RNNPROF_EXE};
    std::istringstream in(words);
    for (std::string word; in >> word;)
        args.push_back(word);
    args.push_back(last);
    return args;
}

// oneDNN 2.6's JIT GEMM kernels point the stack register into the heap while they run: a signal
// handler run on a thread inside one writes its frame into the heap, and the process later aborts
// ("corrupted size vs. prev_size") instead of saving. Before the stop signals were routed to a
// thread of their own, about one SIGTERM in two aimed into cpu-onednn training runs of this size
// aborted the sweep; three in a row all must save and exit 143.
TEST(SweepStopSignal, InsideOneDnnKernelsLeavesTheProcessIntact) {
    for (int attempt = 0; attempt < 3; ++attempt) {
        SCOPED_TRACE("attempt " + std::to_string(attempt + 1));
        TempDir dir;
        const std::string out = dir.path("results.json");
        ChildProcess sweep(
            commandLine("sweep --backend cpu-onednn --cell lstm --input-size 512 --hidden-size 512 "
                        "--batch 64 --seq-len 100 --mode train --warmup 0 --min-repeats 1 "
                        "--max-repeats 100000 --time-budget 600000 --no-numerics --out",
                        out));
        ASSERT_TRUE(sweep.started());
        ASSERT_TRUE(waitUntil([&] {
            return sweep.errSoFar().find("cpu-onednn train") != std::string::npos || !sweep.running();
        }));
        ASSERT_TRUE(sweep.running()) << sweep.wait().err;
        // Inside the runs, whose time goes mostly to the GEMMs; a few hundred ms apart per attempt.
        std::this_thread::sleep_for(std::chrono::milliseconds(1500 + 300 * attempt));
        sweep.kill(SIGTERM);
        ASSERT_TRUE(waitUntil([&] { return !sweep.running(); }, std::chrono::seconds(60)))
            << sweep.errSoFar();
        const ProcessResult r = sweep.wait();
        EXPECT_EQ(r.status, 128 + SIGTERM) << r.err;
        EXPECT_EQ(loadResultFile(out).stoppedBy, "SIGTERM");
    }
}

// `rnnprof crossover` stopped by its scheduler: the search ends where it is and the points it
// measured are saved (marked incomplete, naming the signal), as a sweep's are. Both ends of the
// grid are measured first: B=1 takes a second, cpu-reference at B=1024 minutes, so the signal
// sent once B=1 is done lands in B=1024.
TEST(CrossoverStopSignal, SavesThePointsMeasuredAndExitsAsTheSignalSays) {
    TempDir dir;
    const std::string out = dir.path("x.json");
    ChildProcess search(
        commandLine("crossover --baseline cpu-reference --challenger cpu-blas --cell lstm "
                    "--input-size 256 --hidden-size 256 --seq-len 50 --batch 1,1024 --repeats 1 "
                    "--out",
                    out));
    ASSERT_TRUE(search.started());
    ASSERT_TRUE(waitUntil([&] {
        const std::string err = search.errSoFar();
        return (err.find("cpu-reference B=1 T=50 ok") != std::string::npos &&
                err.find("cpu-blas B=1 T=50 ok") != std::string::npos) ||
               !search.running();
    }));
    ASSERT_TRUE(search.running()) << search.wait().err;
    search.kill(SIGTERM);
    ASSERT_TRUE(waitUntil([&] { return !search.running(); }, std::chrono::seconds(60))) << search.errSoFar();
    const ProcessResult r = search.wait();
    EXPECT_EQ(r.status, 128 + SIGTERM) << r.err;
    EXPECT_NE(r.err.find("rnnprof crossover: stopping (SIGTERM): the run in progress is abandoned"),
              std::string::npos)
        << r.err;
    const SweepResult saved = loadResultFile(out);
    EXPECT_FALSE(saved.complete);
    EXPECT_EQ(saved.stoppedBy, "SIGTERM");
    int ok = 0;
    for (const PointResult& p : saved.points)
        ok += p.status == PointStatus::Ok && p.shape.batch == 1 ? 1 : 0;
    EXPECT_EQ(ok, 2) << "both sides at B=1";
}

INSTANTIATE_TEST_SUITE_P(Signals, SweepStopSignal,
                         testing::Values(StopSignalCase{SIGINT, "SIGINT", 130},
                                         StopSignalCase{SIGTERM, "SIGTERM", 143},
                                         StopSignalCase{SIGHUP, "SIGHUP", 129}),
                         [](const testing::TestParamInfo<StopSignalCase>& info) {
                             return std::string(info.param.name);
                         });

} // namespace
} // namespace rnnprof
