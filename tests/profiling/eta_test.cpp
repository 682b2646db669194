// The sweep's time estimate (profiling/measure/eta.h): the runs a point makes at a given speed, and the
// seconds of a plan at known rates, computed by hand.
#include "profiling/measure/eta.h"

#include "profiling/analysis/flops.h"
#include "profiling/files/presets.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace rnnprof {
namespace {

MeasureSettings etaSettings() {
    MeasureSettings s;
    s.warmup = 1;
    s.minRepeats = 3;
    s.maxRepeats = 10;
    s.timeBudgetMs = 100;
    return s;
}

TEST(EtaRuns, MeasuredRunsFillTheBudgetWithinMinAndMaxRepeats) {
    const MeasureSettings s = etaSettings();
    EXPECT_DOUBLE_EQ(pointRunSeconds(20.0, s), (1 + 5) * 0.020);  // 100 ms / 20 ms = 5 runs
    EXPECT_DOUBLE_EQ(pointRunSeconds(1.0, s), (1 + 10) * 0.001);  // 100 runs capped at 10
    EXPECT_DOUBLE_EQ(pointRunSeconds(200.0, s), (1 + 3) * 0.200); // 1 run raised to 3
    EXPECT_DOUBLE_EQ(pointRunSeconds(0.0, s), 0.0);
}

SweepPlan etaPlan() {
    SweepPlan plan;
    plan.batches = {4};
    plan.seqLens = {10};
    plan.backends = {"cpu-blas", "gpu-cudnn"};
    plan.modes = {Mode::Inference};
    plan.settings = etaSettings();
    return plan;
}

TEST(Eta, APlanAtKnownRatesTakesTheHandComputedSeconds) {
    const SweepPlan plan = etaPlan();
    const double flops = double(iterationFlops(plan.config, Shape{4, 10}, Mode::Inference));
    EtaRates rates;
    rates.gflops[{"cpu-blas", Mode::Inference}] = flops / 0.020 / 1e9; // 20 ms per iteration
    rates.instant = {"gpu-cudnn"};                                     // no GPU here
    rates.overheadSeconds = 0.05;
    // cpu-blas: 1 warm-up + 5 runs of 20 ms, plus the overhead; gpu-cudnn: the overhead only.
    EXPECT_NEAR(estimateSeconds(plan, points(plan), rates), 0.12 + 0.05 + 0.05, 1e-12);
}

TEST(Eta, DefaultsBeforeRunScaleWithCoresAndSkipUnavailableBackends) {
    const SweepPlan plan = etaPlan();
    const auto noGpu = [](const std::string& id) { return !id.starts_with("gpu-"); };
    const EtaRates two = defaultEtaRates(plan, 2, noGpu);
    const EtaRates four = defaultEtaRates(plan, 4, noGpu);
    EXPECT_EQ(two.instant, std::vector<std::string>{"gpu-cudnn"});
    EXPECT_DOUBLE_EQ(four.fallbackGflops("cpu-blas"), 2 * two.fallbackGflops("cpu-blas"));
    EXPECT_GT(estimateSeconds(plan, points(plan), two), 0.0);
}

TEST(Eta, LearnedRatesAreTheFlopsOverTheMedianTimesOfWhatRan) {
    const MeasureSettings s = etaSettings();
    PointResult blas;
    blas.backend = "cpu-blas";
    blas.flopsPerIteration = 4'000'000'000;
    blas.iteration.median = 2.0; // ms: 2000 GFLOP/s
    blas.measureSeconds = 1.0;   // its runs took (1 + 10) * 2 ms
    PointResult gpu;
    gpu.backend = "gpu-cudnn";
    gpu.status = PointStatus::Unavailable;
    const EtaRates rates = learnEtaRates(EtaRates{}, {blas, gpu}, s);
    EXPECT_DOUBLE_EQ(rates.gflops.at({"cpu-blas", Mode::Inference}), 2000.0);
    EXPECT_EQ(rates.instant, std::vector<std::string>{"gpu-cudnn"});
    EXPECT_DOUBLE_EQ(rates.overheadSeconds, 1.0 - 0.022);
}

TEST(Eta, BeforeRunSmallShapesCostTheirStepFloor) {
    SweepPlan plan = etaPlan();
    plan.backends = {"cpu-blas"};
    const EtaRates rates = defaultEtaRates(plan, 2, {});
    const double flops = double(iterationFlops(plan.config, Shape{4, 10}, Mode::Inference));
    // 10 steps at the floor plus the FLOPs at the 2-core rate, run as pointRunSeconds says.
    const double iterationMs = 10 * rates.fallbackStepMs + flops / (rates.fallbackGflops("cpu-blas") * 1e6);
    EXPECT_NEAR(estimateSeconds(plan, points(plan), rates),
                rates.overheadSeconds + pointRunSeconds(iterationMs, plan.settings), 1e-12);
}

// The quick-start preset says it takes a few seconds on two cores; the estimate agrees.
TEST(Eta, QuickStartTakesAFewSecondsOnTwoCoresWithoutAGpu) {
    const Preset* quick = findPreset("quick-start");
    ASSERT_NE(quick, nullptr);
    EXPECT_THAT(quick->description, ::testing::HasSubstr("a few seconds on two cores"));
    const auto noGpu = [](const std::string& id) { return !id.starts_with("gpu-"); };
    const double seconds =
        estimateSeconds(quick->plan, points(quick->plan), defaultEtaRates(quick->plan, 2, noGpu));
    EXPECT_GT(seconds, 1.0);
    EXPECT_LT(seconds, 15.0);
}

} // namespace
} // namespace rnnprof
