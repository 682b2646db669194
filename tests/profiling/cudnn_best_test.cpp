// gpu-cudnn[best]: the fastest cuDNN algorithm per point, derived from the algorithms' own points.
#include "profiling/measure/cudnn_best.h"
#include "profiling/measure/runner.h"
#include "support/fake_backend.h"

#include <gtest/gtest.h>

namespace rnnprof {
namespace {

PointResult algoPoint(const std::string& series, double medianMs, PointStatus status = PointStatus::Ok) {
    PointResult p;
    p.backend = series;
    p.mode = Mode::Inference;
    p.shape = {8, 100};
    p.status = status;
    p.iteration.median = medianMs;
    if (status != PointStatus::Ok)
        p.reason = "cudnnGetRNNTempSpaceSizes failed: CUDNN_STATUS_NOT_SUPPORTED (3000)";
    p.notes = {"device: H100"};
    return p;
}

TEST(CudnnBest, IsACopyOfTheFastestAlgorithmThatRanAndNamesIt) {
    const PointResult best =
        bestCudnnPoint({algoPoint("gpu-cudnn", 1.12), algoPoint("gpu-cudnn[persist_static]", 0.626),
                        algoPoint("gpu-cudnn[persist_dynamic]", 0.511)});
    EXPECT_EQ(best.backend, "gpu-cudnn[best]");
    EXPECT_EQ(best.status, PointStatus::Ok);
    EXPECT_DOUBLE_EQ(best.iteration.median, 0.511);
    EXPECT_EQ(best.shape, (Shape{8, 100}));
    ASSERT_EQ(best.notes.size(), 2u);
    EXPECT_EQ(
        best.notes[0],
        "fastest cuDNN algorithm here: persist_dynamic (of 3 measured; a copy of its measurement, not a "
        "run of its own)");
    EXPECT_EQ(best.notes[1], "device: H100");
}

TEST(CudnnBest, AlgorithmsThatDidNotRunAreNotCandidates) {
    const PointResult best =
        bestCudnnPoint({algoPoint("gpu-cudnn", 1.12),
                        algoPoint("gpu-cudnn[persist_static_small_h]", 0.0, PointStatus::Ineligible)});
    EXPECT_EQ(best.status, PointStatus::Ok);
    EXPECT_DOUBLE_EQ(best.iteration.median, 1.12);
    EXPECT_NE(best.notes[0].find("here: standard"), std::string::npos) << best.notes[0];
}

TEST(CudnnBest, WhenNoAlgorithmRanItIsIneligibleAndSaysWhyEachDidNot) {
    const PointResult best =
        bestCudnnPoint({algoPoint("gpu-cudnn[persist_static]", 0, PointStatus::Ineligible),
                        algoPoint("gpu-cudnn[persist_static_small_h]", 0, PointStatus::Failed)});
    EXPECT_EQ(best.backend, "gpu-cudnn[best]");
    EXPECT_EQ(best.status, PointStatus::Ineligible);
    EXPECT_EQ(best.shape, (Shape{8, 100}));
    EXPECT_NE(best.reason.find("persist_static: ineligible (cudnnGetRNNTempSpaceSizes failed"),
              std::string::npos)
        << best.reason;
    EXPECT_NE(best.reason.find("persist_static_small_h: failed"), std::string::npos) << best.reason;
}

TEST(CudnnBest, WhenNoneRanForOneReasonTheBestSaysThatReason) {
    PointResult a = algoPoint("gpu-cudnn", 0, PointStatus::Unavailable);
    PointResult b = algoPoint("gpu-cudnn[persist_static]", 0, PointStatus::Unavailable);
    a.reason = b.reason = "no NVIDIA driver";
    const PointResult best = bestCudnnPoint({a, b});
    EXPECT_EQ(best.status, PointStatus::Unavailable);
    EXPECT_EQ(best.reason, "no NVIDIA driver");
}

TEST(CudnnBest, TheAlgorithmOfASeriesIdIsInItsBrackets) {
    EXPECT_EQ(cudnnAlgoOfSeries("gpu-cudnn"), "standard");
    EXPECT_EQ(cudnnAlgoOfSeries("gpu-cudnn[persist_static_small_h]"), "persist_static_small_h");
}

TEST(CudnnBest, ASweepOverSeveralAlgorithmsAddsTheBestPointAfterTheirs) {
    test::FakeBehaviour cudnn = test::named("gpu-cudnn"); // a fake under the id that runs per algorithm
    cudnn.refusedAlgos = {CudnnAlgo::PersistStaticSmallH};
    const auto registry = test::registryOf({test::named("cpu-blas"), cudnn});
    SweepPlan plan = test::fakePlan({"cpu-blas", "gpu-cudnn"}, {1, 4}, {20});
    plan.modes = {Mode::Inference};
    plan.settings.cudnnAlgos = {CudnnAlgo::Standard, CudnnAlgo::PersistStaticSmallH};
    SweepRunner runner(registry, plan);
    StopToken stop;
    const SweepResult r = runner.run(stop);
    std::vector<std::string> series;
    for (const auto& p : r.points)
        series.push_back(p.backend + " B=" + std::to_string(p.shape.batch) + " " +
                         std::string(toString(p.status)));
    EXPECT_EQ(series,
              (std::vector<std::string>{
                  "cpu-blas B=1 ok", "gpu-cudnn B=1 ok", "gpu-cudnn[persist_static_small_h] B=1 ineligible",
                  "gpu-cudnn[best] B=1 ok", "cpu-blas B=4 ok", "gpu-cudnn B=4 ok",
                  "gpu-cudnn[persist_static_small_h] B=4 ineligible", "gpu-cudnn[best] B=4 ok"}));
    EXPECT_DOUBLE_EQ(r.points[3].iteration.median, r.points[1].iteration.median);
    EXPECT_NE(r.points[2].reason.find("CUDNN_STATUS_NOT_SUPPORTED"), std::string::npos) << r.points[2].reason;
    EXPECT_TRUE(r.complete);
}

TEST(CudnnBest, OneAlgorithmAddsNoBestPoint) {
    const auto registry = test::registryOf({test::named("gpu-cudnn")});
    SweepPlan plan = test::fakePlan({"gpu-cudnn"}, {1}, {20});
    plan.settings.cudnnAlgos = {CudnnAlgo::PersistStatic};
    SweepRunner runner(registry, plan);
    StopToken stop;
    const SweepResult r = runner.run(stop);
    ASSERT_EQ(r.points.size(), 2u); // infer and train
    for (const auto& p : r.points)
        EXPECT_EQ(p.backend, "gpu-cudnn[persist_static]");
}

} // namespace
} // namespace rnnprof
