// summarize(): percentiles by linear interpolation between closest ranks (NumPy's default),
// sample standard deviation, coefficient of variation; checked on hand-computed samples.
#include "profiling/measure/statistics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace rnnprof {
namespace {

TEST(Statistics, OddCountHasTheMiddleValueAsMedian) {
    const SampleStats s = summarize({5, 1, 3, 2, 4});
    EXPECT_EQ(s.count, 5);
    EXPECT_DOUBLE_EQ(s.median, 3.0);
    EXPECT_DOUBLE_EQ(s.p10, 1.4); // rank 0.4 between 1 and 2, as numpy.percentile(.., 10)
    EXPECT_DOUBLE_EQ(s.p90, 4.6); // rank 3.6 between 4 and 5
    EXPECT_DOUBLE_EQ(s.min, 1.0);
    EXPECT_DOUBLE_EQ(s.max, 5.0);
    EXPECT_DOUBLE_EQ(s.mean, 3.0);
    EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(2.5)); // sum of squares 10 over n - 1 = 4
    EXPECT_DOUBLE_EQ(s.cv, std::sqrt(2.5) / 3.0);
}

TEST(Statistics, EvenCountInterpolatesTheMedian) {
    const SampleStats s = summarize({10, 20, 30, 40});
    EXPECT_DOUBLE_EQ(s.median, 25.0);
    EXPECT_DOUBLE_EQ(s.p10, 13.0); // rank 0.3
    EXPECT_DOUBLE_EQ(s.p90, 37.0); // rank 2.7
    EXPECT_DOUBLE_EQ(s.mean, 25.0);
    EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(500.0 / 3.0));
}

TEST(Statistics, OneSampleIsEveryStatisticWithZeroSpread) {
    const SampleStats s = summarize({7.5});
    EXPECT_EQ(s.count, 1);
    for (double v : {s.median, s.p10, s.p90, s.min, s.max, s.mean})
        EXPECT_DOUBLE_EQ(v, 7.5);
    EXPECT_DOUBLE_EQ(s.stddev, 0.0);
    EXPECT_DOUBLE_EQ(s.cv, 0.0);
}

TEST(Statistics, EmptyInputGivesZerosAndCountZero) {
    EXPECT_EQ(summarize({}), SampleStats{});
}

TEST(Statistics, UnsortedInputGivesTheSameAsSorted) {
    EXPECT_EQ(summarize({9, 2, 7, 1, 8, 3}), summarize({1, 2, 3, 7, 8, 9}));
}

TEST(Statistics, ConstantSamplesHaveNoSpread) {
    const SampleStats s = summarize({2, 2, 2, 2});
    EXPECT_DOUBLE_EQ(s.median, 2.0);
    EXPECT_DOUBLE_EQ(s.p10, 2.0);
    EXPECT_DOUBLE_EQ(s.p90, 2.0);
    EXPECT_DOUBLE_EQ(s.stddev, 0.0);
    EXPECT_DOUBLE_EQ(s.cv, 0.0);
}

TEST(Statistics, NonFiniteSamplesAreDropped) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_EQ(summarize({3, nan, 1, inf, 2}), summarize({1, 2, 3}));
    EXPECT_EQ(summarize({nan}).count, 0);
}

TEST(Statistics, CoefficientOfVariationIsZeroForZeroMean) {
    const SampleStats s = summarize({-1, 1});
    EXPECT_DOUBLE_EQ(s.mean, 0.0);
    EXPECT_DOUBLE_EQ(s.cv, 0.0);
}

TEST(Percentile, InterpolatesBetweenClosestRanks) {
    const std::vector<double> sorted{1, 2, 4, 8};
    EXPECT_DOUBLE_EQ(percentile(sorted, 0.0), 1.0);
    EXPECT_DOUBLE_EQ(percentile(sorted, 1.0), 8.0);
    EXPECT_DOUBLE_EQ(percentile(sorted, 0.5), 3.0);
    EXPECT_DOUBLE_EQ(percentile(sorted, 0.75), 5.0); // rank 2.25
}

TEST(Percentile, ClampsQuantilesOutsideZeroToOne) {
    const std::vector<double> sorted{1, 2, 3};
    EXPECT_DOUBLE_EQ(percentile(sorted, -0.5), 1.0);
    EXPECT_DOUBLE_EQ(percentile(sorted, 1.5), 3.0);
    EXPECT_DOUBLE_EQ(percentile(sorted, std::numeric_limits<double>::quiet_NaN()), 1.0);
    EXPECT_DOUBLE_EQ(percentile({}, 0.5), 0.0);
}

// The noisy rule: (p90 - p10) / median above the threshold, so one slow run in ten (a context
// switch) does not flag a point while a wide spread of all runs does.
TEST(NoisyRule, OneOutlierInTenRunsIsNotNoisyThoughItsCvIsHigh) {
    const SampleStats s = summarize({1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 3.0});
    // p10 = 1, p90 at rank 8.1: 1 + 0.1 * 2 = 1.2, median 1: spread 0.2.
    EXPECT_NEAR(relativeSpread(s), 0.2, 1e-12);
    EXPECT_GT(s.cv, 0.5); // a rule on the CV (above 10 %) would call this noisy
    EXPECT_FALSE(isNoisy(s, kDefaultNoiseThreshold));
}

TEST(NoisyRule, RunsSpreadWiderThanTheThresholdAreNoisy) {
    const SampleStats s = summarize({1.0, 1.2, 1.4, 1.6, 1.8}); // p10 1.08, p90 1.72, median 1.4
    EXPECT_NEAR(relativeSpread(s), 0.64 / 1.4, 1e-12);
    EXPECT_TRUE(isNoisy(s, kDefaultNoiseThreshold));
    EXPECT_FALSE(isNoisy(s, 0.5));
}

TEST(NoisyRule, AZeroMedianHasNoSpread) {
    EXPECT_EQ(relativeSpread(summarize({})), 0.0);
    EXPECT_FALSE(isNoisy(summarize({}), 0.0));
}

} // namespace
} // namespace rnnprof
