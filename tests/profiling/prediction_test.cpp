// Predicted points: GPU results generated from known cost-model coefficients are fitted and
// predicted at a model and grid they never ran; the oracle is the formula with the known constants.
// Every predicted point is flagged: status predicted, not ok(), its band and source recorded.
#include "engine/error.h"
#include "profiling/analysis/cost_model.h"
#include "profiling/analysis/crossover.h"
#include "profiling/analysis/flops.h"
#include "profiling/analysis/summary_text.h"
#include "support/sized_model.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace rnnprof {
namespace {

using ::testing::HasSubstr;

// The known GPU: c = 0.02 ms, 5 us per kernel launch, 2000 GB/s, R = 3000 GFLOP/s, 10 ps per gate
// value (1 GB/s = 1e6 bytes per ms, 1 GFLOP/s = 1e6 FLOP per ms).
constexpr double kC = 0.02, kLaunchMs = 0.005, kGBs = 2000.0, kGflops = 3000.0, kValueMs = 10e-9;

double knownMs(const RnnConfig& config, Shape shape, Mode mode) {
    const CostFeatures x = costFeatures(config, shape, {"gpu-cudnn", mode});
    return kC + x[kLaunchTerm] * kLaunchMs + x[kStreamTerm] / (kGBs * 1e6) +
           x[kComputeTerm] / (kGflops * 1e6) + x[kElementTerm] * kValueMs;
}

// A result "measured" on that GPU: by default LSTM 128->256, T in {20, 100}, B = 1..256, both modes.
SweepResult syntheticGpuResult(const RnnConfig& config = RnnConfig{}) {
    SweepResult r;
    r.host.hostname = "gpu-box";
    r.host.gpu.devices = {{0, "Synthetic GPU", 9, 0, 0, 0, 132}};
    r.plan.config = config;
    r.plan.backends = {"gpu-cudnn"};
    r.plan.modes = {Mode::Inference, Mode::Training};
    for (Mode mode : r.plan.modes)
        for (int t : {20, 100})
            for (int b = 1; b <= 256; b *= 4) {
                PointResult p;
                p.backend = "gpu-cudnn";
                p.mode = mode;
                p.shape = {b, t};
                p.iteration.median = knownMs(r.plan.config, p.shape, mode);
                r.points.push_back(p);
            }
    return r;
}

// Three models of the known GPU: the terms vary apart, so the fit can find each coefficient.
std::vector<SweepResult> threeModels() {
    return {syntheticGpuResult(), syntheticGpuResult(test::sizedModel(CellType::Gru, 64, 64, 1)),
            syntheticGpuResult(test::sizedModel(CellType::Lstm, 512, 512, 2))};
}

std::vector<NamedResult> named(const std::vector<SweepResult>& results) {
    std::vector<NamedResult> out;
    for (std::size_t i = 0; i < results.size(); ++i)
        out.push_back({&results[i], "m" + std::to_string(i) + ".json"});
    return out;
}

// The model and grid the user measured on the CPU: a 2-layer bidirectional GRU 64 -> 512.
SweepPlan userPlan() {
    SweepPlan plan;
    plan.config.cell = CellType::Gru;
    plan.config.inputSize = 64;
    plan.config.hiddenSize = 512;
    plan.config.layers = 2;
    plan.config.bidirectional = true;
    plan.batches = {1, 8, 64};
    plan.seqLens = {50};
    plan.backends = {"gpu-cudnn"};
    plan.modes = {Mode::Inference, Mode::Training};
    return plan;
}

const CostFamily kCudnnInfer{"gpu-cudnn", Mode::Inference};
const CostFamily kCudnnTrain{"gpu-cudnn", Mode::Training};

TEST(Prediction, PredictsTheKnownTimesOfAModelAndGridNoFileRan) {
    const std::vector<SweepResult> gpu = threeModels();
    const SweepPlan plan = userPlan();
    const SweepResult predicted = predictResult(named(gpu), plan);
    ASSERT_EQ(predicted.points.size(), 6u); // 2 modes x 1 T x 3 B x 1 backend
    for (const PointResult& p : predicted.points) {
        const double expected = knownMs(plan.config, p.shape, p.mode);
        EXPECT_NEAR(p.iteration.median, expected, expected * 0.01)
            << toString(p.mode) << " B=" << p.shape.batch;
        EXPECT_EQ(p.flopsPerIteration, iterationFlops(plan.config, p.shape, p.mode));
        // The fitted coefficients, as each point records them.
        EXPECT_NEAR(p.prediction->fixedMs, kC, kC * 0.01);
        const double stepMs = kLaunchMs * kernelsPerStep("gpu-cudnn", p.mode, p.shape.batch);
        EXPECT_NEAR(p.prediction->stepMs, stepMs, stepMs * 0.01);
        EXPECT_NEAR(p.prediction->bandwidthGBs, kGBs, kGBs * 0.01);
        EXPECT_NEAR(p.prediction->gflops, kGflops, kGflops * 0.01);
        EXPECT_EQ(p.prediction->check, "leave-one-model-out");
        EXPECT_FALSE(p.prediction->unreliable);
    }
    EXPECT_EQ(predicted.plan, plan);
    EXPECT_EQ(predicted.host.hostname, "gpu-box") << "the predicted machine is the first file's";
}

TEST(Prediction, EveryPredictedPointIsFlaggedWithItsBandAndSource) {
    const SweepResult gpu = syntheticGpuResult();
    const SweepResult predicted = predictResult({{&gpu, "synthetic.json"}}, userPlan());
    for (const PointResult& p : predicted.points) {
        EXPECT_EQ(p.status, PointStatus::Predicted);
        EXPECT_EQ(toString(p.status), "predicted");
        EXPECT_FALSE(p.ok()) << "nothing may treat a prediction as a measurement";
        ASSERT_TRUE(p.prediction.has_value());
        EXPECT_EQ(p.prediction->from, "synthetic.json");
        EXPECT_EQ(p.prediction->gpu, "Synthetic GPU");
        EXPECT_EQ(p.reason, "predicted from synthetic.json (Synthetic GPU) \u2014 not measured");
        EXPECT_EQ(p.prediction->fittedPoints, 10); // 2 T x 5 B of the mode
        // An exact fit: the band closes on the prediction and leave-one-out is right everywhere.
        EXPECT_NEAR(p.prediction->lowMs, p.iteration.median, p.iteration.median * 1e-6);
        EXPECT_NEAR(p.prediction->highMs, p.iteration.median, p.iteration.median * 1e-6);
        EXPECT_LT(p.prediction->looMedianError, 1e-6);
        EXPECT_DOUBLE_EQ(p.prediction->looWithin30, 1.0);
        EXPECT_FALSE(p.prediction->unreliable);
        // One file of one model: a prediction for another model cannot be checked across shapes.
        EXPECT_EQ(p.prediction->check, "leave-one-out; another model, cross-shape error unchecked");
    }
}

TEST(Prediction, APredictionForAFittedModelCarriesTheBandOfItsLeaveOneOutResiduals) {
    // Every other measured point 20 % slow: no fit is right on both groups. The band of a
    // prediction for the file's own model comes from its leave-one-out residuals, and holds most of
    // the measured times.
    SweepResult gpu = syntheticGpuResult();
    for (std::size_t i = 0; i < gpu.points.size(); i += 2)
        gpu.points[i].iteration.median *= 1.2;
    const auto fit = fitBackend({{&gpu, "noisy.json"}}, kCudnnInfer);
    ASSERT_TRUE(fit.has_value());
    ASSERT_EQ(fit->looResiduals.size(), 10u);
    int inside = 0, measured = 0;
    for (const PointResult& point : gpu.points) {
        if (point.mode != Mode::Inference) continue;
        const PointResult p = predictedPoint(*fit, gpu.plan.config, point.shape);
        const PredictedTime band = bandFrom(p.iteration.median, fit->looResiduals, 1.0);
        EXPECT_DOUBLE_EQ(p.prediction->lowMs, band.lowMs);
        EXPECT_DOUBLE_EQ(p.prediction->highMs, band.highMs);
        const double t = point.iteration.median;
        inside += t >= p.prediction->lowMs && t <= p.prediction->highMs;
        ++measured;
    }
    EXPECT_GE(inside, measured * 8 / 10) << "a 10-90 % band of leave-one-out residuals";
    // The spread of the data is 20 %: the band is wider than 10 %.
    const PointResult p = predictedPoint(*fit, userPlan().config, {8, 50});
    EXPECT_GT(p.prediction->highMs / p.prediction->lowMs, 1.1);
}

TEST(Prediction, TheBandOfAnUnseenModelWidensWithItsDistanceFromTheFittedOnes) {
    // The three models fit exactly but for one 1.5x slow: left-out-model residuals are not all 0.
    std::vector<SweepResult> gpu = threeModels();
    for (PointResult& p : gpu[1].points)
        p.iteration.median *= 1.5;
    const auto fit = fitBackend(named(gpu), kCudnnInfer);
    ASSERT_TRUE(fit.has_value());
    RnnConfig near = gpu[0].plan.config, far = near;
    near.hiddenSize = 300;
    far.hiddenSize = 2048;
    const PointResult a = predictedPoint(*fit, near, {16, 50}), b = predictedPoint(*fit, far, {16, 50});
    const double widthNear = std::log(a.prediction->highMs / a.prediction->lowMs);
    const double widthFar = std::log(b.prediction->highMs / b.prediction->lowMs);
    EXPECT_GT(widthNear, 0.0);
    // The near model's band is the residuals' band widened by 1 + its distance to LSTM 128->256.
    const double dNear = std::log(300.0 / 256.0);
    const PredictedTime expected = bandFrom(1.0, fit->crossModelResiduals, bandWidening(dNear));
    EXPECT_NEAR(widthNear, std::log(expected.highMs / expected.lowMs), 1e-9);
    EXPECT_GT(widthFar, widthNear);
}

TEST(Prediction, PoolsTheSamplesOfSeveralFilesAndNamesThemAll) {
    const SweepResult a = syntheticGpuResult();
    SweepResult b = syntheticGpuResult();
    b.host.gpu.devices[0].name = "Another GPU";
    const auto fit = fitBackend({{&a, "a.json"}, {&b, "b.json"}}, kCudnnTrain);
    ASSERT_TRUE(fit.has_value());
    EXPECT_EQ(fit->model.points, 20); // 10 of each file
    EXPECT_EQ(fit->from, "a.json, b.json");
    EXPECT_EQ(fit->gpu, "Synthetic GPU, Another GPU");
}

TEST(Prediction, AFileWithoutPointsOfTheAskedBackendAndModeSaysWhatItHas) {
    const SweepResult gpu = syntheticGpuResult();
    SweepPlan plan = userPlan();
    plan.backends = {"gpu-generic"};
    try {
        (void)predictResult({{&gpu, "synthetic.json"}}, plan);
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
        EXPECT_THAT(e.what(), HasSubstr("cannot fit gpu-generic infer"));
        EXPECT_THAT(e.what(), HasSubstr("at least 3 ok gpu-generic infer points, got 0"));
        EXPECT_THAT(e.what(), HasSubstr("synthetic.json: gpu-cudnn infer 10, gpu-cudnn train 10"));
    }
    std::string why;
    EXPECT_FALSE(fitBackend({{&gpu, "synthetic.json"}}, {"gpu-generic", Mode::Training}, &why).has_value());
    EXPECT_THAT(why, HasSubstr("gpu-generic train"));
}

TEST(Prediction, PredictedPointsAreNotPairedOrCrossedAsMeasurements) {
    const SweepResult gpu = syntheticGpuResult();
    SweepResult predicted = predictResult({{&gpu, "synthetic.json"}}, userPlan());
    EXPECT_TRUE(costSamples(predicted, kCudnnInfer).empty()) << "never fitted on itself";
    EXPECT_TRUE(sideTimes(predicted, "gpu-cudnn").empty());
    EXPECT_TRUE(speedups(predicted.points, "gpu-cudnn", "gpu-cudnn", Mode::Inference, 50).empty());
}

TEST(Prediction, AMeasuredSideAgainstAPredictedOneGivesThePredictedCrossover) {
    // The CPU is twice as fast as the predicted GPU at B=1 and half as fast at B=8: log(ratio)
    // goes from +log 2 to -log 2, so on a log batch scale the crossover is halfway, B = sqrt(8).
    const SweepResult gpu = syntheticGpuResult();
    SweepPlan plan = userPlan();
    plan.batches = {1, 8};
    plan.modes = {Mode::Inference};
    const SweepResult predicted = predictResult({{&gpu, "synthetic.json"}}, plan);
    SweepResult cpu;
    cpu.plan = plan;
    cpu.plan.backends = {"cpu-blas"};
    for (const PointResult& g : predicted.points) {
        PointResult p;
        p.backend = "cpu-blas";
        p.shape = g.shape;
        p.iteration.median = g.iteration.median * (g.shape.batch == 1 ? 0.5 : 2.0);
        cpu.points.push_back(p);
    }
    EXPECT_TRUE(isPredictedResult(predicted));
    EXPECT_FALSE(isPredictedResult(cpu));
    EXPECT_TRUE(matchPair(cpu, "cpu-blas", predicted, "gpu-cudnn").points.empty())
        << "measured pairs never take predicted points";
    const PairMatch m = matchPredicted(cpu, "cpu-blas", predicted, kFastestGpu);
    ASSERT_EQ(m.points.size(), 2u);
    const auto c = findCrossovers(m.points, Mode::Inference);
    ASSERT_EQ(c.size(), 1u);
    ASSERT_TRUE(c[0].batch.has_value());
    EXPECT_NEAR(*c[0].batch, std::sqrt(8.0), 1e-9);
    // A prediction for another model is not compared, as measured pairs are not.
    SweepResult other = cpu;
    other.plan.config.hiddenSize = 128;
    EXPECT_FALSE(matchPredicted(other, "cpu-blas", predicted, "gpu-cudnn").sameModel());
    // The predicted backend is a side a chart or `plot --challenger` may name.
    const auto choices = sideChoices(predicted);
    EXPECT_NE(std::find(choices.begin(), choices.end(), "gpu-cudnn"), choices.end());
}

TEST(Prediction, TheSummaryTableShowsPredictedWithTheBandAndTheLabel) {
    const SweepResult gpu = syntheticGpuResult();
    const SweepResult predicted = predictResult({{&gpu, "synthetic.json"}}, userPlan());
    const std::string table = summaryTable(predicted);
    EXPECT_THAT(table, HasSubstr("predicted"));
    EXPECT_THAT(table, HasSubstr("predicted from synthetic.json (Synthetic GPU) \u2014 not measured"));
    EXPECT_THAT(table, HasSubstr("0 of 6 points measured, 6 predicted (not measured)"));
}

TEST(Prediction, AModelNoFileRanIsJudgedByLeaveOneModelOut) {
    // Three models on the formula and a fourth, a GRU 32->1024, 1.5x slower than it. Left out, the
    // fourth is predicted from an exact fit of the three: every one of its points at 1/1.5 of its
    // time, a residual of -1/3. Every point of every model is predicted once.
    std::vector<SweepResult> gpu = threeModels();
    gpu.push_back(syntheticGpuResult(test::sizedModel(CellType::Gru, 32, 1024, 1)));
    for (PointResult& p : gpu[3].points)
        p.iteration.median *= 1.5;
    const auto fit = fitBackend(named(gpu), kCudnnInfer);
    ASSERT_TRUE(fit.has_value());
    ASSERT_EQ(fit->models.size(), 4u);
    ASSERT_EQ(fit->crossModelErrors.size(), 40u);
    ASSERT_EQ(fit->crossModelOf.size(), 40u);
    for (std::size_t i = 0; i < fit->crossModelOf.size(); ++i)
        if (fit->crossModelOf[i] == 3) {
            EXPECT_NEAR(fit->crossModelResiduals[i], -1.0 / 3.0, 1e-6);
            EXPECT_NEAR(fit->crossModelErrors[i], 1.0 / 3.0, 1e-6);
        }
    EXPECT_TRUE(isFittedModel(*fit, gpu[0].plan.config));
    EXPECT_FALSE(isFittedModel(*fit, userPlan().config));
    const PointResult other = predictedPoint(*fit, userPlan().config, {8, 50});
    EXPECT_EQ(other.prediction->unreliable, unreliable(fit->crossModelErrors));
    EXPECT_DOUBLE_EQ(other.prediction->looMedianError, medianOf(fit->crossModelErrors));
    EXPECT_DOUBLE_EQ(other.prediction->looWithin30, shareWithin30(fit->crossModelErrors));
    EXPECT_EQ(other.prediction->check, "leave-one-model-out");
    // A model a file ran is judged by leave-one-out within the pooled points instead.
    const PointResult own = predictedPoint(*fit, gpu[0].plan.config, {8, 50});
    EXPECT_DOUBLE_EQ(own.prediction->looMedianError, medianOf(fit->looErrors));
    EXPECT_EQ(own.prediction->check, "leave-one-out");
}

TEST(Prediction, ExactDataPredictsEveryLeftOutModelAndItsBandsHoldThem) {
    const std::vector<SweepResult> gpu = threeModels();
    for (const CostFamily& family : {kCudnnInfer, kCudnnTrain}) {
        const auto fit = fitBackend(named(gpu), family);
        ASSERT_TRUE(fit.has_value());
        ASSERT_EQ(fit->crossModelErrors.size(), 30u);
        for (double e : fit->crossModelErrors)
            EXPECT_LT(e, 1e-6);
        EXPECT_DOUBLE_EQ(fit->bandCoverage, 1.0);
    }
}

TEST(Prediction, ACpuBackendIsFittedAloneWithoutTheGpusLimits) {
    SweepResult r = syntheticGpuResult();
    r.host.gpu.devices = {{0, "NVIDIA H100 80GB HBM3", 9, 0, 0, 0, 132}};
    const std::size_t gpuPoints = r.points.size();
    for (std::size_t i = 0; i < gpuPoints; ++i) {
        PointResult p = r.points[i];
        p.backend = "cpu-blas";
        p.iteration.median *= 20.0;
        r.points.push_back(p);
    }
    const auto cpu = fitBackend({{&r, "mixed.json"}}, {"cpu-blas", Mode::Inference});
    ASSERT_TRUE(cpu.has_value());
    EXPECT_EQ(cpu->model.points, 10);
    EXPECT_EQ(cpu->familyModels.size(), 1u);
    EXPECT_EQ(cpu->limits.source, "no published peaks known: bandwidth and rate unbounded");
    const auto gpu = fitBackend({{&r, "mixed.json"}}, kCudnnInfer);
    ASSERT_TRUE(gpu.has_value());
    EXPECT_NE(gpu->limits.source.find("H100 SXM5 80GB"), std::string::npos) << gpu->limits.source;
}

TEST(Prediction, FilesOfTwoGpuModelsAreBoundedByTheHigherPeakOfEach) {
    // An H200 (4.8 TB/s, FP32) and an H100 allowed TF32 (3.35 TB/s, 494.7 TFLOP/s): each limit is
    // the higher of the two, whatever the order of the files.
    SweepResult h200 = syntheticGpuResult(),
                h100 = syntheticGpuResult(test::sizedModel(CellType::Gru, 64, 64, 1));
    h200.host.gpu.devices = {{0, "NVIDIA H200", 9, 0, 0, 0, 132}};
    h100.host.gpu.devices = {{0, "NVIDIA H100 80GB HBM3", 9, 0, 0, 0, 132}};
    h100.plan.settings.allowTf32 = true;
    for (const auto& from : {std::vector<NamedResult>{{&h200, "a"}, {&h100, "b"}},
                             std::vector<NamedResult>{{&h100, "b"}, {&h200, "a"}}}) {
        const auto fit = fitBackend(from, kCudnnInfer);
        ASSERT_TRUE(fit.has_value());
        EXPECT_DOUBLE_EQ(fit->limits.lowest[kStreamTerm], 1.0 / 4.8e9);
        EXPECT_DOUBLE_EQ(fit->limits.lowest[kComputeTerm], 1.0 / 494.7e9);
    }
}

TEST(Prediction, ShareWithinThirtyAndMedian) {
    EXPECT_DOUBLE_EQ(shareWithin30({0.1, 0.3, 0.31, 0.5}), 0.5);
    EXPECT_DOUBLE_EQ(shareWithin30({}), 0.0);
    EXPECT_DOUBLE_EQ(medianOf({3, 1, 2}), 2.0);
    EXPECT_DOUBLE_EQ(medianOf({4, 1, 2, 3}), 2.5);
    EXPECT_TRUE(std::isnan(medianOf({})));
}

} // namespace
} // namespace rnnprof

namespace rnnprof {
namespace {

// The synthetic GPU result cut to the points `keep` accepts.
template <class Keep>
SweepResult syntheticGpuResultWhere(Keep keep) {
    SweepResult r = syntheticGpuResult();
    std::erase_if(r.points, [&](const PointResult& p) { return !keep(p); });
    return r;
}

TEST(PredictionReach, AFitOnOneSequenceLengthIsUnreliableAtAnotherWithThatReason) {
    const SweepResult gpu =
        syntheticGpuResultWhere([](const PointResult& p) { return p.shape.seqLen == 20; });
    SweepPlan plan;
    plan.config = gpu.plan.config;
    plan.backends = {"gpu-cudnn"};
    plan.modes = {Mode::Inference};
    plan.batches = {4};
    plan.seqLens = {20, 100};
    const SweepResult predicted = predictResult({{&gpu, "one-t.json"}}, plan);
    ASSERT_EQ(predicted.points.size(), 2u);
    EXPECT_FALSE(predicted.points[0].prediction->unreliable) << "T=20: what the fit saw";
    EXPECT_EQ(predicted.points[0].prediction->unreliableReason, "");
    EXPECT_TRUE(predicted.points[1].prediction->unreliable);
    EXPECT_EQ(predicted.points[1].prediction->unreliableReason,
              "cannot extrapolate in T from one sequence length (T=20)");
    EXPECT_EQ(unreliableText(*predicted.points[1].prediction),
              "UNRELIABLE: cannot extrapolate in T from one sequence length (T=20)");
    EXPECT_THAT(predicted.points[1].reason, HasSubstr("UNRELIABLE")) << "visible wherever the label is";
}

TEST(PredictionReach, AFitOnOneBatchSizeIsUnreliableAtAnother) {
    SweepResult gpu = syntheticGpuResultWhere([](const PointResult& p) { return p.shape.batch == 16; });
    PointResult third = gpu.points.front(); // a third sequence length: three points to fit
    third.shape.seqLen = 50;
    third.iteration.median = knownMs(gpu.plan.config, third.shape, third.mode);
    gpu.points.push_back(third);
    BackendFit fit = *fitBackend({{&gpu, "one-b.json"}}, kCudnnInfer);
    EXPECT_EQ(extrapolationProblem(fit, {16, 50}), "");
    EXPECT_EQ(extrapolationProblem(fit, {64, 20}), "cannot extrapolate in B from one batch size (B=16)");
}

} // namespace
} // namespace rnnprof
