// The cost model on synthetic data: times generated from known coefficients are fitted back to
// within 1 %, term by term and all together; limits and shared launch costs hold; bands and
// distances against values worked out by hand.
#include "profiling/analysis/cost_model.h"

#include "support/sized_model.h"

#include <gtest/gtest.h>

#include <cmath>

namespace rnnprof {
namespace {

const CostFamily kGenericTrain{"gpu-generic", Mode::Training};

// The known GPU: c 0.02 ms, lambda 5 us per launch, BW 2000 GB/s, R 20000 GFLOP/s, 20 ps per gate
// value (GB/s = 1e6 bytes per ms, GFLOP/s = 1e6 FLOP per ms).
constexpr CostFeatures kKnown{0.02, 0.005, 1.0 / (2000 * 1e6), 1.0 / (20000 * 1e6), 20e-9};

// Three models of different sizes, two sequence lengths, B = 1..512: the terms vary apart.
const std::vector<RnnConfig> kModels{test::sizedModel(CellType::Lstm, 128, 256, 1),
                                     test::sizedModel(CellType::Gru, 64, 64, 1),
                                     test::sizedModel(CellType::Lstm, 512, 512, 2)};

double knownMs(const CostFeatures& theta, const CostFeatures& x) {
    double t = 0.0;
    for (std::size_t k = 0; k < kCostTerms; ++k)
        t += theta[k] * x[k];
    return t;
}

std::vector<CostSample> synthetic(const CostFeatures& theta, const CostFamily& family,
                                  std::size_t familyIndex = 0) {
    std::vector<CostSample> out;
    for (std::size_t m = 0; m < kModels.size(); ++m)
        for (int t : {20, 100})
            for (int b = 1; b <= 512; b *= 2) {
                const CostFeatures x = costFeatures(kModels[m], {b, t}, family);
                out.push_back({x, knownMs(theta, x), familyIndex, m});
            }
    return out;
}

void expectRecovered(const CostModel& m, const CostFeatures& theta) {
    for (std::size_t k = 0; k < kCostTerms; ++k)
        if (theta[k] > 0.0)
            EXPECT_NEAR(m.theta[k], theta[k], theta[k] * 0.01) << "term " << k;
        else
            EXPECT_LT(m.theta[k] * 1e3, knownMs(kKnown, {1, 1, 1, 1, 1})) << "term " << k << " should be ~0";
}

TEST(CostModel, EveryTermAloneIsRecoveredToOnePercent) {
    for (std::size_t term = kLaunchTerm; term < kCostTerms; ++term) {
        CostFeatures theta{};
        theta[kFixedTerm] = kKnown[kFixedTerm];
        theta[term] = kKnown[term];
        const auto m = fitCostModel(synthetic(theta, kGenericTrain));
        ASSERT_TRUE(m.has_value());
        SCOPED_TRACE("term " + std::to_string(term));
        expectRecovered(*m, theta);
        EXPECT_LT(m->rmsRelative, 1e-6);
    }
}

TEST(CostModel, AllTermsTogetherAreRecoveredToOnePercent) {
    for (Mode mode : {Mode::Inference, Mode::Training}) {
        const auto m = fitCostModel(synthetic(kKnown, {"gpu-generic", mode}));
        ASSERT_TRUE(m.has_value());
        expectRecovered(*m, kKnown);
        EXPECT_NEAR(m->launchUs, 5.0, 0.05);
        EXPECT_NEAR(m->bandwidthGBs, 2000.0, 20.0);
        EXPECT_NEAR(m->gflops, 20000.0, 200.0);
        EXPECT_NEAR(m->elementPs, 20.0, 0.2);
        EXPECT_EQ(m->points, 3 * 2 * 10);
    }
}

TEST(CostModel, FamiliesShareOneLaunchCostUnlessTheyReplayGraphs) {
    // gpu-cudnn inference with another c and R than gpu-generic training, the same lambda; a
    // CUDA-graph family with a launch cost of its own (1 us).
    CostFeatures cudnn = kKnown;
    cudnn[kFixedTerm] = 0.05;
    cudnn[kComputeTerm] = 1.0 / (40000 * 1e6);
    CostFeatures graph = kKnown;
    graph[kLaunchTerm] = 0.001;
    const std::vector<CostFamily> families{
        kGenericTrain, {"gpu-cudnn", Mode::Inference}, {"gpu-generic", Mode::Training, true}};
    auto samples = synthetic(kKnown, families[0], 0);
    for (const auto& s : synthetic(cudnn, families[1], 1))
        samples.push_back(s);
    for (const auto& s : synthetic(graph, families[2], 2))
        samples.push_back(s);
    const auto fit = fitCostModels(samples, families);
    ASSERT_TRUE(fit.has_value());
    ASSERT_EQ(fit->size(), 3u);
    expectRecovered((*fit)[0], kKnown);
    expectRecovered((*fit)[1], cudnn);
    expectRecovered((*fit)[2], graph);
    EXPECT_EQ((*fit)[0].theta[kLaunchTerm], (*fit)[1].theta[kLaunchTerm]) << "one lambda";
}

TEST(CostModel, BandwidthAndRateStayWithinThePublishedPeaks) {
    // Times that would need 10x the H100's bandwidth: the fit keeps BW at its peak.
    CostFeatures theta{};
    theta[kStreamTerm] = 1.0 / (33500 * 1e6);
    theta[kComputeTerm] = 1.0 / (20000 * 1e6);
    const CostLimits limits = costLimits(publishedPeaks("NVIDIA H100 80GB HBM3", false));
    const auto fit = fitCostModels(synthetic(theta, kGenericTrain), {kGenericTrain}, limits);
    ASSERT_TRUE(fit.has_value());
    EXPECT_NEAR(fit->front().bandwidthGBs, 3350.0, 1e-6);
    EXPECT_LE(fit->front().gflops, 67000.0 * (1 + 1e-12));
    EXPECT_NE(limits.source.find("3350 GB/s, 67000 GFLOP/s"), std::string::npos) << limits.source;
    EXPECT_NE(costLimits(std::nullopt).source.find("unbounded"), std::string::npos);
}

TEST(CostModel, AFixedLaunchCostIsKeptAsGiven) {
    const auto fit = fitCostModels(synthetic(kKnown, kGenericTrain), {kGenericTrain}, {}, 0.005);
    ASSERT_TRUE(fit.has_value());
    EXPECT_DOUBLE_EQ(fit->front().theta[kLaunchTerm], 0.005);
    expectRecovered(fit->front(), kKnown);
}

TEST(CostModel, NoCoefficientGoesNegative) {
    // Times with a negative intercept (-0.01 ms, all times still positive): c is 0, not -0.01.
    CostFeatures theta{};
    theta[kLaunchTerm] = 0.01;
    theta[kComputeTerm] = 1e-9;
    auto samples = synthetic(theta, kGenericTrain);
    for (auto& s : samples)
        s.ms -= 0.01;
    const auto m = fitCostModel(samples);
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(m->fixedMs, 0.0);
    for (double t : m->theta)
        EXPECT_GE(t, 0.0);
}

TEST(CostModel, FewerThanThreeUsablePointsFitNothing) {
    std::vector<CostSample> samples = synthetic(kKnown, kGenericTrain);
    samples.resize(2);
    EXPECT_FALSE(fitCostModel(samples).has_value());
    samples.push_back({costFeatures(RnnConfig{}, {1, 1}, kGenericTrain), std::nan("")});
    EXPECT_FALSE(fitCostModel(samples).has_value()) << "a NaN time is not a point";
}

TEST(CostModel, SamplesAreTheOkPointsOfOneFamily) {
    SweepResult r;
    PointResult p;
    p.backend = "gpu-cudnn";
    p.shape = {4, 20};
    p.iteration.median = 0.5;
    r.points = {p, p, p};
    r.points[1].status = PointStatus::Failed;
    r.points[2].mode = Mode::Training;
    const CostFamily family{"gpu-cudnn", Mode::Inference};
    const auto s = costSamples(r, family);
    ASSERT_EQ(s.size(), 1u);
    EXPECT_DOUBLE_EQ(s[0].ms, 0.5);
    EXPECT_EQ(s[0].x, costFeatures(r.plan.config, {4, 20}, family));
    r.plan.settings.cudaGraph = true;
    EXPECT_TRUE(costSamples(r, family).empty()) << "graph replays are a family of their own";
}

TEST(CostModel, TheBandComesFromSignedResidualsWidenedInLogSpace) {
    // Residuals -0.2 and 0.25: measured times 1 / 0.8 = 1.25 and 1 / 1.25 = 0.8 of the prediction.
    PredictedTime p = bandFrom(1.0, {-0.2, 0.25}, 1.0);
    EXPECT_DOUBLE_EQ(p.ms, 1.0);
    EXPECT_DOUBLE_EQ(p.lowMs, 0.8);
    EXPECT_DOUBLE_EQ(p.highMs, 1.25);
    p = bandFrom(2.0, {-0.2, 0.25}, 2.0); // each side's logarithm doubled
    EXPECT_DOUBLE_EQ(p.lowMs, 2.0 * 0.64);
    EXPECT_DOUBLE_EQ(p.highMs, 2.0 * 1.5625);
    p = bandFrom(1.0, {0.1, 0.2}, 1.0); // always over-predicted: the band still contains m
    EXPECT_DOUBLE_EQ(p.highMs, 1.0);
    EXPECT_DOUBLE_EQ(p.lowMs, 1.0 / 1.2);
    EXPECT_TRUE(std::isinf(bandFrom(1.0, {-1.0, 0.1}, 1.0).highMs));
    // From 10 residuals on, the 10th and 90th percentiles: 0.1 * 9 = 0.9 of the way from r0 to r1.
    std::vector<double> ten{-0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0};
    p = bandFrom(1.0, ten, 1.0);
    EXPECT_NEAR(p.highMs, 1.0 / (1.0 - 0.05), 1e-12);
    EXPECT_NEAR(p.lowMs, 1.0 / 1.1, 1e-12);
}

TEST(CostModel, DistanceBetweenModelsIsInLogarithmsOfTheirSizes) {
    const RnnConfig a = test::sizedModel(CellType::Lstm, 128, 256, 1);
    EXPECT_DOUBLE_EQ(modelDistance(a, a), 0.0);
    EXPECT_NEAR(modelDistance(a, test::sizedModel(CellType::Lstm, 128, 512, 1)), std::log(2.0), 1e-15);
    EXPECT_NEAR(modelDistance(a, test::sizedModel(CellType::Lstm, 64, 256, 4)), std::log(2.0) + std::log(4.0),
                1e-15);
    // A GRU has 3 gates to the LSTM's 4; a bidirectional model 2 directions.
    EXPECT_NEAR(modelDistance(a, test::sizedModel(CellType::Gru, 128, 256, 1, true)),
                std::log(4.0 / 3.0) + std::log(2.0), 1e-15);
    EXPECT_DOUBLE_EQ(bandWidening(0.5), 1.5);
}

TEST(CostModel, UnreliableWhenWrongByMoreThanThirtyPercentOnMoreThanAFifth) {
    EXPECT_TRUE(unreliable({0.1, 0.4, 0.5, 0.1, 0.1}));   // 2 of 5 beyond 30 %
    EXPECT_FALSE(unreliable({0.31, 0.1, 0.1, 0.1, 0.1})); // 1 of 5: a fifth, not more
    EXPECT_FALSE(unreliable({0.30, 0.30, 0.1}));          // exactly 30 % is within
    EXPECT_TRUE(unreliable({}));
}

} // namespace
} // namespace rnnprof
