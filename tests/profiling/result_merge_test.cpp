// Joining results of one plan (`rnnprof merge`): shards become the whole sweep, whole sweeps of
// other machines keep their hosts, and every mixture the file could not describe is refused with
// the reason.
#include "profiling/files/result_merge.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

namespace rnnprof {
namespace {

using ::testing::HasSubstr;

SweepPlan mergePlan() {
    SweepPlan p;
    p.config.inputSize = 8;
    p.config.hiddenSize = 16;
    p.batches = {1, 2, 4, 8};
    p.seqLens = {10};
    p.backends = {"cpu-blas", "cpu-onednn"};
    p.modes = {Mode::Inference, Mode::Training};
    return p;
}

HostInfo hostNamed(const std::string& name, const std::string& cpu) {
    HostInfo h;
    h.hostname = name;
    h.cpuModel = cpu;
    h.cpuCores = 16;
    return h;
}

// What a sweep of `specs` on `host` would have written: every point ok, its time its index.
SweepResult resultOf(const SweepPlan& plan, const std::vector<PointSpec>& specs, const HostInfo& host,
                     std::optional<Shard> shard = std::nullopt) {
    SweepResult r;
    r.createdAt = "2026-11-23T08:00:00Z";
    r.host = host;
    r.plan = plan;
    r.shard = shard;
    r.complete = true;
    for (const PointSpec& s : specs) {
        PointResult& p = r.points.emplace_back();
        p.backend = seriesId(s);
        p.mode = s.mode;
        p.shape = s.shape;
        p.iteration.median = double(r.points.size());
    }
    return r;
}

std::vector<SweepResult> shardsOf(const SweepPlan& plan, int count, const std::string& machine) {
    std::vector<SweepResult> out;
    for (int i = 1; i <= count; ++i)
        out.push_back(resultOf(plan, shardPoints(plan, {i, count}),
                               hostNamed(std::string("node0").append(std::to_string(i)), machine),
                               Shard{i, count}));
    return out;
}

std::vector<NamedResult> named(const std::vector<SweepResult>& results) {
    std::vector<NamedResult> out;
    for (std::size_t i = 0; i < results.size(); ++i)
        out.push_back({&results[i], std::string("r").append(std::to_string(i + 1)).append(".json")});
    return out;
}

// The problems of merging `results`, one per line.
std::string refusal(const std::vector<SweepResult>& results) {
    std::vector<std::string> problems;
    const SweepResult merged = mergeResults(named(results), problems);
    EXPECT_FALSE(problems.empty()) << "expected a refusal";
    EXPECT_TRUE(merged.points.empty());
    std::string text;
    for (const auto& p : problems)
        text += p + "\n";
    return text;
}

TEST(MergeShards, GiveTheWholeSweepInThePlansOrderWithEachPointsHost) {
    const SweepPlan plan = mergePlan();
    const auto shards = shardsOf(plan, 4, "Xeon 8480");
    std::vector<std::string> problems;
    const SweepResult merged = mergeResults(named(shards), problems);
    ASSERT_TRUE(problems.empty()) << problems.front();
    const auto all = points(plan);
    ASSERT_EQ(merged.points.size(), all.size());
    for (std::size_t i = 0; i < all.size(); ++i) {
        EXPECT_EQ(merged.points[i].backend, all[i].backend);
        EXPECT_EQ(merged.points[i].mode, all[i].mode);
        EXPECT_EQ(merged.points[i].shape, all[i].shape);
        // Measured where its shard ran.
        const int shard = shardAssignment(plan, 4)[i];
        EXPECT_EQ(hostOf(merged, merged.points[i]).hostname,
                  std::string("node0").append(std::to_string(shard + 1)));
    }
    EXPECT_EQ(merged.host.hostname, "node01");
    EXPECT_EQ(merged.otherHosts.size(), 3u);
    EXPECT_FALSE(merged.shard);
    EXPECT_TRUE(merged.complete);
    EXPECT_EQ(merged.plan, plan);
}

// `rnnprof merge` loads its inputs for the merge only: their points are moved, not copied (a
// merge of 100k points then holds each once), with the same result as the copying merge.
TEST(MergeShards, MovedFromLoadedResultsGiveWhatTheCopyingMergeGives) {
    const SweepPlan plan = mergePlan();
    std::vector<SweepResult> shards = shardsOf(plan, 3, "Xeon 8480");
    for (SweepResult& shard : shards)
        for (PointResult& p : shard.points)
            p.notes = {"oneDNN RNN primitives, 2 threads"};
    std::vector<std::string> problems;
    const SweepResult copied = mergeResults(named(shards), problems);
    ASSERT_TRUE(problems.empty()) << problems.front();
    const SweepResult moved = mergeResults(shards, {"r1.json", "r2.json", "r3.json"}, problems);
    ASSERT_TRUE(problems.empty()) << problems.front();
    EXPECT_EQ(moved, copied);
    EXPECT_EQ(moved.points.front().notes, std::vector<std::string>{"oneDNN RNN primitives, 2 threads"});
}

TEST(MergeShards, AStoppedShardMakesAnIncompleteResult) {
    const SweepPlan plan = mergePlan();
    auto shards = shardsOf(plan, 2, "Xeon 8480");
    shards[1].complete = false; // a journal holding every point, say
    std::vector<std::string> problems;
    EXPECT_FALSE(mergeResults(named(shards), problems).complete);
    EXPECT_TRUE(problems.empty());
}

TEST(MergeRefuses, ResultsOfDifferentPlansNamingTheDifference) {
    const SweepPlan plan = mergePlan();
    SweepPlan other = plan;
    other.config.hiddenSize = 32;
    auto shards = shardsOf(plan, 2, "Xeon");
    shards[1].plan = other;
    EXPECT_THAT(refusal(shards), HasSubstr("r2.json ran another plan than r1.json"));
    EXPECT_THAT(refusal(shards), HasSubstr("model.hidden_size 16 vs 32"));
}

TEST(MergeRefuses, ResultsOfDifferentSchemas) {
    auto shards = shardsOf(mergePlan(), 2, "Xeon");
    shards[0].schemaVersion = 0;
    EXPECT_THAT(refusal(shards), HasSubstr("r2.json has schema 1, r1.json schema 0"));
}

TEST(MergeRefuses, AMissingPointNamingIt) {
    auto shards = shardsOf(mergePlan(), 2, "Xeon");
    const PointResult dropped = shards[1].points.back();
    shards[1].points.pop_back();
    const std::string text = refusal(shards);
    EXPECT_THAT(text, HasSubstr("1 point of the plan is missing (measured on Xeon): " +
                                describe(PointSpec{dropped.backend, dropped.mode, dropped.shape})));
}

TEST(MergeRefuses, ACancelledPointAsMissing) {
    auto shards = shardsOf(mergePlan(), 2, "Xeon");
    shards[0].points.back().status = PointStatus::Cancelled;
    EXPECT_THAT(refusal(shards), HasSubstr("1 point of the plan is missing"));
}

TEST(MergeRefuses, ADoubledPointNamingBothFiles) {
    auto shards = shardsOf(mergePlan(), 2, "Xeon");
    const PointResult extra = shards[0].points.front();
    shards[1].points.push_back(extra);
    EXPECT_THAT(refusal(shards),
                HasSubstr(describe(PointSpec{extra.backend, extra.mode, extra.shape}) +
                          " is given more than once (measured on Xeon): in r1.json and r2.json"));
}

TEST(MergeRefuses, AMissingDoubledOrForeignShard) {
    const SweepPlan plan = mergePlan();
    auto shards = shardsOf(plan, 4, "Xeon");
    auto missing = shards;
    missing.erase(missing.begin() + 2);
    EXPECT_THAT(refusal(missing), HasSubstr("shard 3/4 is missing (measured on Xeon)"));

    auto doubled = shards;
    doubled[3] = doubled[1];
    const std::string text = refusal(doubled);
    EXPECT_THAT(text, HasSubstr("shard 2/4 is given more than once (r2.json and r4.json)"));
    EXPECT_THAT(text, HasSubstr("shard 4/4 is missing"));

    auto foreign = shards;
    foreign[3] = shardsOf(plan, 5, "Xeon")[3];
    EXPECT_THAT(refusal(foreign), HasSubstr("r4.json is shard 4/5 but r1.json is shard 1/4"));
}

TEST(MergeRefuses, ShardsOfOneSplitMeasuredOnDifferentMachines) {
    auto shards = shardsOf(mergePlan(), 2, "Xeon");
    shards[1].host.cpuModel = "EPYC 9654";
    const std::string text = refusal(shards);
    EXPECT_THAT(text, HasSubstr("shard 2/2 is missing (measured on Xeon)"));
    EXPECT_THAT(text, HasSubstr("shard 1/2 is missing (measured on EPYC 9654)"));
}

TEST(MergeRefuses, ShardsWithAWholeSweepOfTheSameMachine) {
    const SweepPlan plan = mergePlan();
    auto inputs = shardsOf(plan, 2, "Xeon");
    inputs.push_back(resultOf(plan, points(plan), hostNamed("box", "Xeon")));
    EXPECT_THAT(refusal(inputs),
                HasSubstr("r1.json and r2.json hold shards of a split sweep and r3.json a whole one"));
}

TEST(MergeRefuses, TwoWholeSweepsOfOneKindOfMachine) {
    const SweepPlan plan = mergePlan();
    const std::vector<SweepResult> inputs{resultOf(plan, points(plan), hostNamed("a", "Xeon")),
                                          resultOf(plan, points(plan), hostNamed("b", "Xeon"))};
    EXPECT_THAT(refusal(inputs), HasSubstr("r1.json and r2.json each measured the whole plan on Xeon"));
}

// The same plan on another machine ("edit a file's host"): both sets of points, each with its host.
TEST(MergeHosts, KeepsEachPointsHost) {
    const SweepPlan plan = mergePlan();
    HostInfo gpuBox = hostNamed("gpu-box", "EPYC 9654");
    gpuBox.gpu.available = true;
    gpuBox.gpu.devices.push_back(GpuDevice{});
    gpuBox.gpu.devices.back().name = "NVIDIA H100 80GB HBM3";
    const std::vector<SweepResult> inputs{resultOf(plan, points(plan), hostNamed("laptop", "Core i7")),
                                          resultOf(plan, points(plan), gpuBox)};
    std::vector<std::string> problems;
    const SweepResult merged = mergeResults(named(inputs), problems);
    ASSERT_TRUE(problems.empty()) << problems.front();
    const std::size_t n = points(plan).size();
    ASSERT_EQ(merged.points.size(), 2 * n);
    ASSERT_EQ(merged.otherHosts.size(), 1u);
    EXPECT_EQ(merged.host.hostname, "laptop");
    for (std::size_t i = 0; i < 2 * n; ++i) {
        EXPECT_EQ(merged.points[i].hostIndex, i < n ? 0 : 1);
        EXPECT_EQ(machineName(hostOf(merged, merged.points[i])), i < n ? "Core i7" : "NVIDIA H100 80GB HBM3");
    }
    // And merged again with a third machine: the hosts carry over.
    const std::vector<SweepResult> again{merged, resultOf(plan, points(plan), hostNamed("old", "Xeon E5"))};
    const SweepResult three = mergeResults(named(again), problems);
    ASSERT_TRUE(problems.empty()) << problems.front();
    std::set<std::string> hosts;
    for (const PointResult& p : three.points)
        hosts.insert(hostOf(three, p).hostname);
    EXPECT_EQ(hosts, (std::set<std::string>{"laptop", "gpu-box", "old"}));
    EXPECT_EQ(three.points.size(), 3 * n);
}

} // namespace
} // namespace rnnprof
