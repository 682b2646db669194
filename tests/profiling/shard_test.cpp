// Splitting a plan into shards (`rnnprof sweep --shard I/N`): every point in exactly one shard, the
// plan's order kept inside each, the work balanced to within one point, and the same split every
// time for the same plan and N.
#include "engine/error.h"
#include "profiling/shard.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

namespace rnnprof {
namespace {

using ::testing::HasSubstr;

SweepPlan shardedPlan(std::vector<int> batches, std::vector<int> seqLens, std::vector<std::string> backends,
                      std::vector<Mode> modes) {
    SweepPlan p;
    p.config.inputSize = 8;
    p.config.hiddenSize = 16;
    p.batches = std::move(batches);
    p.seqLens = std::move(seqLens);
    p.backends = std::move(backends);
    p.modes = std::move(modes);
    return p;
}

// Plans of different shapes: equal costs (one shape), widely spread costs, both modes.
std::vector<SweepPlan> variedPlans() {
    return {
        shardedPlan({1, 2, 4, 8, 16, 32, 64}, {10, 100}, {"cpu-blas", "cpu-onednn"}, {Mode::Inference}),
        shardedPlan({1, 3, 5, 7}, {1, 17, 250}, {"cpu-reference", "cpu-blas", "cpu-onednn"},
                    {Mode::Inference, Mode::Training}),
        shardedPlan({4}, {20}, {"cpu-blas", "cpu-onednn", "cpu-reference"}, {Mode::Training}),
    };
}

std::size_t indexIn(const std::vector<PointSpec>& all, const PointSpec& p) {
    return std::size_t(std::find(all.begin(), all.end(), p) - all.begin());
}

TEST(ShardText, ParsesIOfN) {
    std::string error;
    const auto shard = parseShard("2/4", error);
    ASSERT_TRUE(shard) << error;
    EXPECT_EQ(*shard, (Shard{2, 4}));
    EXPECT_EQ(shardText(*shard), "2/4");
    EXPECT_EQ(parseShard("1/1", error), (Shard{1, 1}));
}

TEST(ShardText, RefusesWhatNamesNoShardAndSaysWhatIsAllowed) {
    for (const char* bad :
         {"0/4", "5/4", "1/0", "x/y", "2", "/4", "1/", "-1/4", "1/4/2", " 1/4", "1.5/4", ""}) {
        std::string error;
        EXPECT_FALSE(parseShard(bad, error)) << bad;
        EXPECT_THAT(error, HasSubstr(std::string("'").append(bad).append("'")));
        EXPECT_THAT(error, HasSubstr("1 <= I <= N")) << bad;
    }
}

// Costs proportional to the batch (one shape otherwise): 1, 2, 3, 4. Greedy, largest first:
// 4 -> shard 1, 3 -> shard 2, 2 -> shard 2 (3 < 4), 1 -> shard 1 (4 < 5): 5 and 5.
TEST(ShardSplit, BalancesAHandCountedExample) {
    const SweepPlan plan = shardedPlan({1, 2, 3, 4}, {5}, {"cpu-blas"}, {Mode::Inference});
    const auto first = shardPoints(plan, {1, 2});
    const auto second = shardPoints(plan, {2, 2});
    ASSERT_EQ(first.size(), 2u);
    ASSERT_EQ(second.size(), 2u);
    EXPECT_EQ(first[0].shape.batch, 1); // the plan's order within the shard
    EXPECT_EQ(first[1].shape.batch, 4);
    EXPECT_EQ(second[0].shape.batch, 2);
    EXPECT_EQ(second[1].shape.batch, 3);
    // The cost is the iteration's FLOPs, linear in the batch at one sequence length.
    EXPECT_DOUBLE_EQ(shardCost(plan, first[1]), 4 * shardCost(plan, first[0]));
}

TEST(ShardSplit, EveryPointIsInExactlyOneShardInThePlansOrder) {
    for (const SweepPlan& plan : variedPlans()) {
        const std::vector<PointSpec> all = points(plan);
        for (int n = 1; n <= int(shardUnitCount(plan)); ++n) {
            std::vector<int> seen(all.size(), 0);
            for (int i = 1; i <= n; ++i) {
                const auto part = shardPoints(plan, {i, n});
                EXPECT_FALSE(part.empty()) << "shard " << i << "/" << n;
                for (std::size_t k = 0; k < part.size(); ++k) {
                    const std::size_t at = indexIn(all, part[k]);
                    ASSERT_LT(at, all.size()) << describe(part[k]);
                    ++seen[at];
                    if (k > 0) {
                        EXPECT_LT(indexIn(all, part[k - 1]), at) << "the plan's order";
                    }
                }
            }
            EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }))
                << n << " shards";
        }
    }
}

TEST(ShardSplit, ShardsDifferInWorkByAtMostOnePoint) {
    for (const SweepPlan& plan : variedPlans()) {
        double largest = 0;
        for (const PointSpec& p : points(plan))
            largest = std::max(largest, shardCost(plan, p));
        for (int n = 1; n <= int(shardUnitCount(plan)); ++n) {
            std::vector<double> work;
            for (int i = 1; i <= n; ++i) {
                const auto part = shardPoints(plan, {i, n});
                work.push_back(
                    std::accumulate(part.begin(), part.end(), 0.0, [&](double sum, const PointSpec& p) {
                        return sum + shardCost(plan, p);
                    }));
            }
            const auto [lo, hi] = std::minmax_element(work.begin(), work.end());
            EXPECT_LE(*hi - *lo, largest) << n << " shards";
        }
    }
}

TEST(ShardSplit, TheSamePlanAndCountGiveTheSameSplit) {
    for (const SweepPlan& plan : variedPlans()) {
        const SweepPlan copy = plan; // another object, as in another process
        for (int n = 1; n <= int(shardUnitCount(plan)); ++n)
            EXPECT_EQ(shardAssignment(plan, n), shardAssignment(copy, n)) << n;
    }
}

// gpu-cudnn[best] is derived from every algorithm at a (mode, shape): they stay in one shard.
TEST(ShardSplit, KeepsTheCudnnAlgorithmsOfOneShapeTogether) {
    SweepPlan plan = shardedPlan({1, 8}, {10, 20}, {"cpu-blas", "gpu-cudnn"}, {Mode::Inference});
    plan.settings.cudnnAlgos = {CudnnAlgo::Standard, CudnnAlgo::PersistStatic};
    EXPECT_EQ(points(plan).size(), 12u);
    EXPECT_EQ(shardUnitCount(plan), 8u);
    for (int i = 1; i <= 3; ++i) {
        const auto part = shardPoints(plan, {i, 3});
        for (std::size_t k = 0; k < part.size(); ++k) {
            if (part[k].backend != "gpu-cudnn" || part[k].cudnnAlgo != CudnnAlgo::Standard) continue;
            ASSERT_LT(k + 1, part.size());
            EXPECT_EQ(part[k + 1].cudnnAlgo, CudnnAlgo::PersistStatic) << describe(part[k]);
            EXPECT_EQ(part[k + 1].shape, part[k].shape);
        }
    }
}

TEST(ShardSplit, MoreShardsThanPointsAreRefusedWithTheMostThereCanBe) {
    const SweepPlan plan = shardedPlan({1, 2}, {5}, {"cpu-blas"}, {Mode::Inference});
    EXPECT_EQ(shardProblem(plan, {1, 2}), "");
    EXPECT_THAT(shardProblem(plan, {1, 3}), HasSubstr("at most 2 shards"));
    EXPECT_THROW((void)shardPoints(plan, {3, 3}), Error);
}

} // namespace
} // namespace rnnprof
