// Crossovers and speedups on synthetic results: where a challenger overtakes a baseline,
// interpolated on log-log axes, and every way there can be no crossover.
#include "profiling/crossover.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

namespace rnnprof {
namespace {

using ::testing::HasSubstr;

PointResult timed(const std::string& backend, int batch, int seqLen, double ms, Mode mode = Mode::Inference) {
    PointResult p;
    p.backend = backend;
    p.mode = mode;
    p.shape = {batch, seqLen};
    p.status = PointStatus::Ok;
    p.iteration.count = 5;
    p.iteration.median = ms;
    return p;
}

// baseline "cpu" and challenger "gpu" at one sequence length: (batch, cpu ms, gpu ms)
std::vector<PointResult> series(int seqLen, const std::vector<std::tuple<int, double, double>>& rows) {
    std::vector<PointResult> out;
    for (const auto& [batch, cpu, gpu] : rows) {
        out.push_back(timed("cpu", batch, seqLen, cpu));
        out.push_back(timed("gpu", batch, seqLen, gpu));
    }
    return out;
}

TEST(Crossover, InterpolatesBetweenTheBracketingBatchesOnLogScales) {
    // ratio gpu/cpu: 3 at B=2, 0.5 at B=8. log(ratio) is zero at t = ln 3 / ln 6 of the way from
    // log 2 to log 8: B = 2 * 4^t = 4.679...
    const auto c = findCrossovers(series(20, {{1, 0.5, 3.0}, {2, 1.0, 3.0}, {8, 4.0, 2.0}, {32, 16.0, 2.5}}),
                                  "cpu", "gpu", Mode::Inference);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].seqLen, 20);
    ASSERT_TRUE(c[0].batch.has_value());
    EXPECT_NEAR(*c[0].batch, 2.0 * std::pow(4.0, std::log(3.0) / std::log(6.0)), 1e-9);
    EXPECT_NEAR(*c[0].batch, 4.679, 1e-3);
    EXPECT_FALSE(c[0].fasterEverywhere);
    EXPECT_THAT(c[0].note, HasSubstr("B=4.68"));
}

TEST(Crossover, ChallengerFasterEverywhere) {
    const auto c = findCrossovers(series(20, {{1, 2.0, 1.0}, {4, 4.0, 1.5}, {16, 9.0, 2.0}}), "cpu", "gpu",
                                  Mode::Inference);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_TRUE(c[0].fasterEverywhere);
    EXPECT_FALSE(c[0].batch.has_value());
    EXPECT_EQ(c[0].note, "faster at every batch (B=1..16)");
}

TEST(Crossover, ChallengerFasterOnlyAtSmallBatchesIsNotEverywhere) {
    const auto c = findCrossovers(series(20, {{1, 2.0, 1.0}, {4, 4.0, 5.0}}), "cpu", "gpu", Mode::Inference);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_FALSE(c[0].fasterEverywhere);
    EXPECT_FALSE(c[0].batch.has_value());
    EXPECT_THAT(c[0].note, HasSubstr("smallest batch (B=1)"));
}

TEST(Crossover, NeverFasterIsNoneInRange) {
    const auto c = findCrossovers(series(20, {{1, 1.0, 5.0}, {16, 2.0, 5.5}, {256, 10.0, 11.0}}), "cpu",
                                  "gpu", Mode::Inference);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_FALSE(c[0].batch.has_value());
    EXPECT_FALSE(c[0].fasterEverywhere);
    EXPECT_EQ(c[0].note, "none in range (B=1..256)");
}

TEST(Crossover, EachSequenceLengthHasItsOwnCrossover) {
    auto points = series(100, {{1, 1.0, 4.0}, {4, 4.0, 4.0 * 0.5}});
    for (auto& p : series(20, {{1, 1.0, 2.0}, {2, 2.0, 1.0}}))
        points.push_back(p);
    const auto c = findCrossovers(points, "cpu", "gpu", Mode::Inference);
    ASSERT_EQ(c.size(), 2u);
    EXPECT_EQ(c[0].seqLen, 20); // ascending
    EXPECT_EQ(c[1].seqLen, 100);
    ASSERT_TRUE(c[0].batch && c[1].batch);
    EXPECT_NEAR(*c[0].batch, std::sqrt(2.0), 1e-9); // log ratios +ln2 and -ln2: halfway in log B
    // ratios 4 and 0.5: t = ln4 / ln8 = 2/3 of the way from log 1 to log 4.
    EXPECT_NEAR(*c[1].batch, std::pow(4.0, 2.0 / 3.0), 1e-9);
}

TEST(Crossover, MissingAndFailedPointsAreIgnored) {
    auto points = series(20, {{1, 1.0, 3.0}, {4, 4.0, 6.0}, {16, 16.0, 8.0}});
    // A failed challenger point that would have been faster at B=2, an inference-only baseline
    // point without a partner, training points and a third backend: none of them count.
    PointResult failed = timed("gpu", 2, 20, 0.1);
    failed.status = PointStatus::Failed;
    points.push_back(failed);
    points.push_back(timed("cpu", 2, 20, 2.0));
    points.push_back(timed("gpu", 4, 20, 0.01, Mode::Training));
    points.push_back(timed("cpu", 4, 20, 100.0, Mode::Training));
    points.push_back(timed("other", 4, 20, 0.001));
    const auto c = findCrossovers(points, "cpu", "gpu", Mode::Inference);
    ASSERT_EQ(c.size(), 1u);
    ASSERT_TRUE(c[0].batch.has_value());
    EXPECT_GT(*c[0].batch, 4.0);
    EXPECT_LT(*c[0].batch, 16.0);
}

TEST(Crossover, EqualTimesAreNotFaster) {
    const auto same =
        findCrossovers(series(20, {{1, 2.0, 2.0}, {8, 3.0, 3.0}}), "cpu", "gpu", Mode::Inference);
    ASSERT_EQ(same.size(), 1u);
    EXPECT_FALSE(same[0].batch.has_value());
    EXPECT_EQ(same[0].note, "none in range (B=1..8)");
    // Equal at B=4, faster at B=8: the times are equal exactly at B=4.
    const auto c = findCrossovers(series(20, {{1, 1.0, 3.0}, {4, 3.0, 3.0}, {8, 5.0, 3.0}}), "cpu", "gpu",
                                  Mode::Inference);
    ASSERT_TRUE(c[0].batch.has_value());
    EXPECT_DOUBLE_EQ(*c[0].batch, 4.0);
}

TEST(Crossover, NoCommonBatchSizeIsSaid) {
    std::vector<PointResult> points{timed("cpu", 1, 20, 1.0), timed("gpu", 4, 20, 1.0)};
    const auto c = findCrossovers(points, "cpu", "gpu", Mode::Inference);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_FALSE(c[0].batch.has_value());
    EXPECT_THAT(c[0].note, HasSubstr("no batch size measured for both"));
}

TEST(Crossover, NoPointsNoCrossovers) {
    EXPECT_TRUE(findCrossovers({}, "cpu", "gpu", Mode::Inference).empty());
}

TEST(Speedups, BaselineOverChallengerAtCommonBatches) {
    auto points = series(20, {{1, 1.0, 4.0}, {8, 6.0, 3.0}});
    points.push_back(timed("cpu", 64, 20, 50.0)); // no partner
    points.push_back(timed("gpu", 8, 100, 1.0));  // other sequence length
    const auto s = speedups(points, "cpu", "gpu", Mode::Inference, 20);
    ASSERT_EQ(s.size(), 2u);
    EXPECT_EQ(s[0].batch, 1);
    EXPECT_DOUBLE_EQ(s[0].speedup, 0.25);
    EXPECT_EQ(s[1].batch, 8);
    EXPECT_DOUBLE_EQ(s[1].speedup, 2.0);
    EXPECT_TRUE(speedups(points, "cpu", "gpu", Mode::Training, 20).empty());
}

} // namespace
} // namespace rnnprof
