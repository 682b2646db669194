// A sweep split over processes and joined again: `rnnprof sweep --shard I/N` in separate
// processes, `rnnprof merge` of their files, and the Slurm array example run task by task here.
// What counts is which points were measured and how they ended, never their times.
#include "cli_process.h"

#include "profiling/files/result_files.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <memory>
#include <set>
#include <tuple>

namespace rnnprof {
namespace {

using test::Args;
using test::ChildProcess;
using test::ProcessResult;
using test::runRnnprof;
using test::TempDir;
using ::testing::HasSubstr;

// (backend, mode, batch, seq_len, status) of every point: what a sweep measured and how it ended.
using PointOutcome = std::tuple<std::string, Mode, int, int, PointStatus>;

std::multiset<PointOutcome> outcomesOf(const SweepResult& r) {
    std::multiset<PointOutcome> out;
    for (const PointResult& p : r.points)
        out.emplace(p.backend, p.mode, p.shape.batch, p.shape.seqLen, p.status);
    return out;
}

// Eight points (2 backends x 2 batch sizes x 2 modes) that run in well under a second.
Args tinyPlan() {
    return {"--cell",  "lstm", "--input-size", "3", "--hidden-size", "4",
            "--batch", "1,2",  "--seq-len",    "3", "--backend",     "cpu-blas,cpu-reference",
            "--mode",  "both", "--warmup",     "0", "--repeats",     "2",
            "--quiet"};
}

ProcessResult sweepWith(Args extra) {
    Args args{"sweep"};
    const Args plan = tinyPlan();
    args.insert(args.end(), plan.begin(), plan.end());
    args.insert(args.end(), extra.begin(), extra.end());
    return runRnnprof(args);
}

ProcessResult merge(Args args) {
    args.insert(args.begin(), "merge");
    return runRnnprof(args);
}

// Shards 1..count of the tiny plan, each its own process, all running at once; their files.
std::vector<std::string> runShards(const TempDir& dir, int count) {
    std::vector<std::unique_ptr<ChildProcess>> children;
    std::vector<std::string> files;
    for (int i = 1; i <= count; ++i) {
        files.push_back(dir.path(std::string("shard-").append(std::to_string(i)).append(".json")));
        Args argv{RNNPROF_EXE, "sweep"};
        const Args plan = tinyPlan();
        argv.insert(argv.end(), plan.begin(), plan.end());
        argv.insert(argv.end(),
                    {"--shard", std::to_string(i) + "/" + std::to_string(count), "--out", files.back()});
        children.push_back(std::make_unique<ChildProcess>(argv));
    }
    for (auto& child : children) {
        const ProcessResult r = child->wait();
        EXPECT_EQ(r.status, 0) << r.err;
    }
    return files;
}

TEST(ShardedSweep, FourShardProcessesMergedEqualTheUnshardedSweep) {
    TempDir dir;
    const ProcessResult whole = sweepWith({"--out", dir.path("whole.json")});
    ASSERT_EQ(whole.status, 0) << whole.err;
    const SweepResult unsharded = loadResultFile(dir.path("whole.json"));
    ASSERT_EQ(unsharded.points.size(), 8u);

    const std::vector<std::string> files = runShards(dir, 4);
    std::multiset<PointOutcome> union_;
    for (int i = 0; i < 4; ++i) {
        const SweepResult shard = loadResultFile(files[std::size_t(i)]);
        EXPECT_EQ(shard.shard, (Shard{i + 1, 4})) << "each file records its shard";
        EXPECT_EQ(shard.plan, unsharded.plan) << "and the whole plan";
        EXPECT_FALSE(shard.points.empty());
        for (const PointOutcome& o : outcomesOf(shard))
            union_.insert(o);
    }
    EXPECT_EQ(union_, outcomesOf(unsharded)) << "disjoint shards that cover the plan";

    Args args = files;
    args.insert(args.end(), {"--out", dir.path("all.json")});
    const ProcessResult merged = merge(args);
    ASSERT_EQ(merged.status, 0) << merged.err;
    EXPECT_THAT(merged.err, HasSubstr("wrote 8 points of 4 files"));
    const SweepResult all = loadResultFile(dir.path("all.json"));
    EXPECT_EQ(outcomesOf(all), outcomesOf(unsharded));
    EXPECT_FALSE(all.shard);
    EXPECT_TRUE(all.complete);
    EXPECT_EQ(all.plan, unsharded.plan);
    for (std::size_t i = 0; i < all.points.size(); ++i) // the plan's order, as the unsharded sweep
        EXPECT_EQ(all.points[i].backend + describe(PointSpec{"", all.points[i].mode, all.points[i].shape}),
                  unsharded.points[i].backend +
                      describe(PointSpec{"", unsharded.points[i].mode, unsharded.points[i].shape}));
}

TEST(ShardedSweep, RefusesAShardThatNamesNoneSayingWhatIsAllowed) {
    TempDir dir;
    for (const char* bad : {"0/4", "5/4", "1/0", "x/y"}) {
        const ProcessResult run = sweepWith({"--shard", bad, "--out", dir.path("r.json")});
        EXPECT_EQ(run.status, 2) << bad;
        EXPECT_THAT(run.err, HasSubstr(std::string("--shard '").append(bad).append("'"))) << run.err;
        EXPECT_THAT(run.err, HasSubstr("1 <= I <= N")) << run.err;
    }
    const ProcessResult tooMany = sweepWith({"--shard", "1/9", "--out", dir.path("r.json")});
    EXPECT_EQ(tooMany.status, 2);
    EXPECT_THAT(tooMany.err, HasSubstr("the plan has 8 points to share out"));
    EXPECT_THAT(tooMany.err, HasSubstr("at most 8 shards"));
    EXPECT_TRUE(test::filesIn(dir.path()).empty()) << "nothing was measured";
}

// A journal of shard 1/4 at the output of shard 2/4 is another shard's work: not resumed.
TEST(ShardedSweep, ResumesOnlyAJournalOfTheSameShard) {
    TempDir dir;
    const ProcessResult first = sweepWith({"--shard", "1/4", "--out", dir.path("r.json")});
    ASSERT_EQ(first.status, 0) << first.err;
    SweepResult header = loadResultFile(dir.path("r.json"));
    header.points.clear();
    { Journal journal(dir.path("r2.json.journal"), header); }
    const ProcessResult second = sweepWith({"--shard", "2/4", "--resume", "--out", dir.path("r2.json")});
    EXPECT_EQ(second.status, 2);
    EXPECT_THAT(second.err, HasSubstr("measured shard 1/4, this run measures shard 2/4"));
}

TEST(MergeCommand, RefusesAMissingShardAndResultsOfAnotherPlan) {
    TempDir dir;
    const std::vector<std::string> files = runShards(dir, 4);
    const ProcessResult missing = merge({files[0], files[1], files[3], "--out", dir.path("all.json")});
    EXPECT_EQ(missing.status, 2);
    EXPECT_THAT(missing.err, HasSubstr("shard 3/4 is missing"));

    const ProcessResult other = runRnnprof({"sweep", "--cell", "lstm", "--input-size", "3", "--hidden-size",
                                            "5", "--batch", "1", "--seq-len", "3", "--backend", "cpu-blas",
                                            "--repeats", "1", "--quiet", "--out", dir.path("other.json")});
    ASSERT_EQ(other.status, 0) << other.err;
    const ProcessResult mixed = merge({files[0], dir.path("other.json"), "--out", dir.path("all.json")});
    EXPECT_EQ(mixed.status, 2);
    EXPECT_THAT(mixed.err, HasSubstr("other.json ran another plan than"));
    EXPECT_THAT(mixed.err, HasSubstr("model.hidden_size"));
    EXPECT_FALSE(std::filesystem::exists(dir.path("all.json")));
}

// The same plan from another machine (its host edited to simulate one): both sets, each its host.
TEST(MergeCommand, KeepsTheHostsOfTheSamePlanMeasuredOnAnotherMachine) {
    TempDir dir;
    const ProcessResult here = sweepWith({"--out", dir.path("here.json")});
    ASSERT_EQ(here.status, 0) << here.err;
    nlohmann::json doc = nlohmann::json::parse(test::slurp(dir.path("here.json")));
    doc["host"]["hostname"] = "gpu-box";
    std::ofstream(dir.path("same-kind.json")) << doc.dump();
    doc["host"]["cpu_model"] = "Another CPU 9000";
    doc["host"]["gpu"]["available"] = false;
    std::ofstream(dir.path("there.json")) << doc.dump();

    const ProcessResult sameKind =
        merge({dir.path("here.json"), dir.path("same-kind.json"), "--out", dir.path("m.json")});
    EXPECT_EQ(sameKind.status, 2);
    EXPECT_THAT(sameKind.err, HasSubstr("each measured the whole plan on"));

    const ProcessResult run =
        merge({dir.path("here.json"), dir.path("there.json"), "--out", dir.path("m.json")});
    ASSERT_EQ(run.status, 0) << run.err;
    const SweepResult merged = loadResultFile(dir.path("m.json"));
    ASSERT_EQ(merged.points.size(), 16u);
    ASSERT_EQ(merged.otherHosts.size(), 1u);
    std::multiset<PointOutcome> fromThere;
    for (const PointResult& p : merged.points)
        if (hostOf(merged, p).hostname == "gpu-box")
            fromThere.emplace(p.backend, p.mode, p.shape.batch, p.shape.seqLen, p.status);
    EXPECT_EQ(fromThere, outcomesOf(loadResultFile(dir.path("here.json"))));
    EXPECT_EQ(merged.host, loadResultFile(dir.path("here.json")).host)
        << "the first file's host is the file's";
}

TEST(MergeCommand, NeedsFilesAndAnOutputThatIsNoneOfThem) {
    TempDir dir;
    const ProcessResult empty = merge({});
    EXPECT_EQ(empty.status, 2);
    EXPECT_THAT(empty.err, HasSubstr("no files to merge"));
    EXPECT_THAT(empty.err, HasSubstr("--out FILE.json is required"));
    std::ofstream(dir.path("a.json")) << "{}";
    const ProcessResult same = merge({dir.path("a.json"), "--out", dir.path("a.json")});
    EXPECT_EQ(same.status, 2);
    EXPECT_THAT(same.err, HasSubstr("a.json"));
    const ProcessResult broken = merge({dir.path("a.json"), "--out", dir.path("b.json")});
    EXPECT_EQ(broken.status, 2);
    EXPECT_THAT(broken.err, HasSubstr("a.json"));
}

// examples/slurm/sweep-array.sh as each array task would run it, then its merge step.
TEST(SlurmArrayExample, EveryTaskThenTheMergeGiveTheWholePlan) {
    TempDir dir;
    const std::string script = std::string(RNNPROF_EXAMPLES_DIR) + "/slurm/sweep-array.sh";
    std::string sweepArgs;
    for (const std::string& a : tinyPlan())
        sweepArgs += (sweepArgs.empty() ? "" : " ") + a;
    const Args env{"/usr/bin/env", std::string("RNNPROF=") + RNNPROF_EXE, "SHARDS=3",
                   "OUT_DIR=" + dir.path("out"), "SWEEP_ARGS=" + sweepArgs};
    auto step = [&](const std::vector<std::string>& extra) {
        Args argv = env;
        argv.insert(argv.end(), extra.begin(), extra.end());
        return test::runToEnd(argv);
    };
    const ProcessResult outside = step({"bash", script});
    EXPECT_EQ(outside.status, 2);
    EXPECT_THAT(outside.err, HasSubstr("not an array task"));
    for (int task = 0; task < 3; ++task) {
        const ProcessResult r =
            step({std::string("SLURM_ARRAY_TASK_ID=").append(std::to_string(task)), "bash", script});
        ASSERT_EQ(r.status, 0) << r.err;
    }
    const ProcessResult merged = step({"bash", script, "merge"});
    ASSERT_EQ(merged.status, 0) << merged.err;
    const SweepResult all = loadResultFile(dir.path("out/sweep.json"));
    std::multiset<PointOutcome> expected;
    for (const PointSpec& s : points(all.plan))
        expected.emplace(s.backend, s.mode, s.shape.batch, s.shape.seqLen, PointStatus::Ok);
    EXPECT_EQ(expected.size(), 8u);
    EXPECT_EQ(outcomesOf(all), expected);
}

} // namespace
} // namespace rnnprof
