// The cost model on synthetic data: times generated from known c, alpha and R are
// fitted back to within 1 %, each formula by hand, and no coefficient goes negative.
#include "profiling/analysis/cost_model.h"

#include <gtest/gtest.h>

#include <cmath>

namespace rnnprof {
namespace {

// The model's formula written out: c + n*alpha + W/R, R in GFLOP/s = 1e6 FLOP per ms.
double modelMs(double c, double alpha, double gflops, const RnnConfig& config, Shape shape, Mode mode) {
    const CostFeatures x = costFeatures(config, shape, mode);
    return c + x[1] * alpha + x[2] / (gflops * 1e6);
}

std::vector<CostSample> synthetic(double c, double alpha, double gflops, const RnnConfig& config, Mode mode,
                                  std::vector<int> seqLens = {20, 100}) {
    std::vector<CostSample> out;
    for (int t : seqLens)
        for (int b = 1; b <= 512; b *= 2)
            out.push_back(
                {costFeatures(config, {b, t}, mode), modelMs(c, alpha, gflops, config, {b, t}, mode)});
    return out;
}

TEST(CostModel, FeaturesAreOneStepsAndFlops) {
    RnnConfig lstm; // 128 -> 256, one layer
    // Forward FLOPs at B=1, T=1: 2*4*256*128 + 2*4*256*256 + 256*(13 + 2*4) = 791808.
    const CostFeatures x = costFeatures(lstm, {1, 1}, Mode::Inference);
    EXPECT_DOUBLE_EQ(x[0], 1.0);
    EXPECT_DOUBLE_EQ(x[1], 1.0);
    EXPECT_DOUBLE_EQ(x[2], 791808.0);
    EXPECT_DOUBLE_EQ(costFeatures(lstm, {4, 3}, Mode::Inference)[2], 12 * 791808.0); // W grows with B*T
    RnnConfig deep;
    deep.layers = 2;
    deep.bidirectional = true;
    // 2 layers x 2 directions x 10 steps, forward and backward in training.
    EXPECT_DOUBLE_EQ(recurrentSteps(deep, {8, 10}, Mode::Training), 80.0);
    EXPECT_DOUBLE_EQ(recurrentSteps(deep, {8, 10}, Mode::Inference), 40.0);
}

TEST(CostModel, PredictionIsTheFormula) {
    CostModel m;
    // c = 0.03 ms, alpha = 0.012 ms, R = 4000 GFLOP/s (2.5e-10 ms per FLOP).
    m.theta = {0.03, 0.012, 2.5e-10};
    // B=1, T=1: 0.03 + 0.012 + 791808 * 2.5e-10 = 0.042197952 ms.
    EXPECT_NEAR(predictMs(m, costFeatures(RnnConfig{}, {1, 1}, Mode::Inference)), 0.042197952, 1e-12);
}

TEST(CostModel, RecoversKnownAlphaAndRateToOnePercent) {
    const RnnConfig lstm;
    for (Mode mode : {Mode::Inference, Mode::Training}) {
        const auto m = fitCostModel(synthetic(0.03, 0.012, 4000.0, lstm, mode));
        ASSERT_TRUE(m.has_value());
        EXPECT_EQ(m->points, 20);
        EXPECT_NEAR(m->fixedMs, 0.03, 0.03 * 0.01);
        EXPECT_NEAR(m->stepMs, 0.012, 0.012 * 0.01);
        EXPECT_NEAR(m->gflops, 4000.0, 40.0);
        EXPECT_LT(m->rmsRelative, 1e-6);
    }
}

TEST(CostModel, AGruAtAnotherSizeIsRecoveredToo) {
    RnnConfig gru;
    gru.cell = CellType::Gru;
    gru.inputSize = 64;
    gru.hiddenSize = 64;
    const auto m = fitCostModel(synthetic(0.1, 0.004, 900.0, gru, Mode::Training));
    ASSERT_TRUE(m.has_value());
    EXPECT_NEAR(m->fixedMs, 0.1, 0.001);
    EXPECT_NEAR(m->stepMs, 0.004, 0.00004);
    EXPECT_NEAR(m->gflops, 900.0, 9.0);
}

TEST(CostModel, WithOneSequenceLengthTheFixedAndStepCostsMergeAndStillFit) {
    // n is the same at every point: c + n*alpha is one number, 0.03 + 20*0.012 = 0.27 ms.
    const RnnConfig lstm;
    const auto m = fitCostModel(synthetic(0.03, 0.012, 4000.0, lstm, Mode::Inference, {20}));
    ASSERT_TRUE(m.has_value());
    EXPECT_NEAR(m->fixedMs + 20 * m->stepMs, 0.27, 0.27 * 1e-6);
    EXPECT_TRUE(m->fixedMs == 0.0 || m->stepMs == 0.0) << "one of the two is left out";
    EXPECT_NEAR(m->gflops, 4000.0, 40.0);
}

TEST(CostModel, NoCoefficientGoesNegative) {
    // Times with a negative intercept (-0.01 ms, all times still positive): unconstrained, c would
    // be -0.01; it is dropped and the rest refitted.
    const RnnConfig lstm;
    std::vector<CostSample> samples;
    for (int t : {10, 50})
        for (int b = 1; b <= 256; b *= 2) {
            const CostFeatures x = costFeatures(lstm, {b, t}, Mode::Inference);
            samples.push_back({x, x[1] * 0.01 + x[2] * 1e-9 - 0.01});
        }
    const auto m = fitCostModel(samples);
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(m->fixedMs, 0.0);
    for (double t : m->theta)
        EXPECT_GE(t, 0.0);
}

TEST(CostModel, FewerThanThreeUsablePointsFitNothing) {
    const RnnConfig lstm;
    std::vector<CostSample> samples = synthetic(0.03, 0.012, 4000.0, lstm, Mode::Inference);
    samples.resize(2);
    EXPECT_FALSE(fitCostModel(samples).has_value());
    samples.push_back({costFeatures(lstm, {1, 1}, Mode::Inference), std::nan("")});
    EXPECT_FALSE(fitCostModel(samples).has_value()) << "a NaN time is not a point";
}

TEST(CostModel, SamplesAreTheOkPointsOfOneBackendAndMode) {
    SweepResult r;
    PointResult p;
    p.backend = "gpu-cudnn";
    p.shape = {4, 20};
    p.iteration.median = 0.5;
    r.points = {p, p, p};
    r.points[1].status = PointStatus::Failed;
    r.points[2].mode = Mode::Training;
    const auto s = costSamples(r, "gpu-cudnn", Mode::Inference);
    ASSERT_EQ(s.size(), 1u);
    EXPECT_DOUBLE_EQ(s[0].ms, 0.5);
    EXPECT_EQ(s[0].x, costFeatures(r.plan.config, {4, 20}, Mode::Inference));
}

TEST(CostModel, TheBandComesFromTheSignedResidualsOfTheFit) {
    CostModel m;
    m.theta = {1.0, 0.0, 0.0}; // 1 ms at every shape
    m.minRelative = -0.2;      // a point measured 1 / 0.8 = 1.25 ms
    m.maxRelative = 0.25;      // a point measured 1 / 1.25 = 0.8 ms
    const PredictedTime p = predictWithBand(m, costFeatures(RnnConfig{}, {4, 20}, Mode::Inference));
    EXPECT_DOUBLE_EQ(p.ms, 1.0);
    EXPECT_DOUBLE_EQ(p.lowMs, 0.8);
    EXPECT_DOUBLE_EQ(p.highMs, 1.25);
    m.minRelative = -1.0;
    EXPECT_TRUE(std::isinf(predictWithBand(m, costFeatures(RnnConfig{}, {4, 20}, Mode::Inference)).highMs));
}

TEST(CostModel, AnExactFitHasANarrowBandAndLeaveOneOutErrorsNearZero) {
    const auto samples = synthetic(0.03, 0.012, 4000.0, RnnConfig{}, Mode::Inference);
    const auto m = fitCostModel(samples);
    ASSERT_TRUE(m.has_value());
    EXPECT_NEAR(m->minRelative, 0.0, 1e-9);
    EXPECT_NEAR(m->maxRelative, 0.0, 1e-9);
    const auto errors = leaveOneOutErrors(samples);
    ASSERT_EQ(errors.size(), samples.size());
    for (double e : errors)
        EXPECT_LT(e, 1e-6);
    EXPECT_FALSE(unreliable(errors));
}

TEST(CostModel, UnreliableWhenWrongByMoreThanThirtyPercentOnMoreThanAFifth) {
    EXPECT_TRUE(unreliable({0.1, 0.4, 0.5, 0.1, 0.1}));   // 2 of 5 beyond 30 %
    EXPECT_FALSE(unreliable({0.31, 0.1, 0.1, 0.1, 0.1})); // 1 of 5: a fifth, not more
    EXPECT_FALSE(unreliable({0.30, 0.30, 0.1}));          // exactly 30 % is within
    EXPECT_TRUE(unreliable({}));
}

} // namespace
} // namespace rnnprof
