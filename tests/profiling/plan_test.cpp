// Sweep plans: validate() names every problem with its field, points() runs modes, then sequence
// lengths, then batch sizes, with the backends interleaved innermost.
#include "engine/cpu/cpu_libraries.h"
#include "profiling/plan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

namespace rnnprof {
namespace {

using ::testing::HasSubstr;

const std::vector<std::string> kKnown{"cpu-reference", "cpu-blas", "cpu-onednn"};

SweepPlan validPlan() {
    SweepPlan p;
    p.batches = {1, 4};
    p.seqLens = {20};
    p.backends = {"cpu-blas", "cpu-onednn"};
    p.modes = {Mode::Inference};
    return p;
}

// The issues of `plan` for `field`, joined, or "" when there are none.
std::string issuesFor(const SweepPlan& plan, const std::string& field) {
    std::string text;
    for (const auto& issue : validate(plan, kKnown))
        if (issue.field == field) text += issue.message + "\n";
    return text;
}

TEST(PlanValidation, DefaultPlanIsValid) {
    EXPECT_TRUE(validate(SweepPlan{}, kKnown).empty());
    EXPECT_TRUE(validate(validPlan(), kKnown).empty());
}

TEST(PlanValidation, EmptyGridIsRefused) {
    SweepPlan p = validPlan();
    p.batches.clear();
    p.seqLens.clear();
    p.backends.clear();
    p.modes.clear();
    EXPECT_THAT(issuesFor(p, "batch"), HasSubstr("batch is empty"));
    EXPECT_THAT(issuesFor(p, "seq_len"), HasSubstr("seq_len is empty"));
    EXPECT_THAT(issuesFor(p, "backends"), HasSubstr("backends is empty"));
    EXPECT_THAT(issuesFor(p, "modes"), HasSubstr("modes is empty"));
}

TEST(PlanValidation, DuplicateValuesAreNamed) {
    SweepPlan p = validPlan();
    p.batches = {1, 4, 1};
    p.seqLens = {20, 20};
    p.backends = {"cpu-blas", "cpu-blas"};
    p.modes = {Mode::Training, Mode::Training};
    EXPECT_THAT(issuesFor(p, "batch"), HasSubstr("batch lists 1 more than once"));
    EXPECT_THAT(issuesFor(p, "seq_len"), HasSubstr("20 more than once"));
    EXPECT_THAT(issuesFor(p, "backends"), HasSubstr("cpu-blas more than once"));
    EXPECT_THAT(issuesFor(p, "modes"), HasSubstr("train more than once"));
}

TEST(PlanValidation, UnknownBackendListsTheKnownOnes) {
    SweepPlan p = validPlan();
    p.backends = {"cpu-blas", "gpu-cudnnn"};
    EXPECT_THAT(
        issuesFor(p, "backends"),
        HasSubstr("unknown backend 'gpu-cudnnn': known backends are cpu-reference, cpu-blas, cpu-onednn"));
}

TEST(PlanValidation, BatchAndSequenceLengthMustBeWithinLimits) {
    SweepPlan p = validPlan();
    p.batches = {0, 65537};
    p.seqLens = {-3, 65536};
    EXPECT_THAT(issuesFor(p, "batch"), HasSubstr("batch must be between 1 and 65536 (got 0)"));
    EXPECT_THAT(issuesFor(p, "batch"), HasSubstr("(got 65537)"));
    EXPECT_THAT(issuesFor(p, "seq_len"), HasSubstr("seq_len must be between 1 and 65535 (got -3)"));
    EXPECT_THAT(issuesFor(p, "seq_len"), HasSubstr("(got 65536)"));
}

TEST(PlanValidation, BuffersBeyondTheEngineLimitAreRefused) {
    SweepPlan p = validPlan();
    p.config.hiddenSize = 8192;
    p.batches = {1, 65536};
    p.seqLens = {65535};
    EXPECT_THAT(issuesFor(p, "batch"), HasSubstr("too large"));
}

TEST(PlanValidation, RepeatSettingsMustBeInRange) {
    SweepPlan p = validPlan();
    p.settings.warmup = 1001;
    p.settings.minRepeats = 0;
    p.settings.maxRepeats = 100001;
    EXPECT_THAT(issuesFor(p, "warmup"), HasSubstr("warmup must be between 0 and 1000 (got 1001)"));
    EXPECT_THAT(issuesFor(p, "min_repeats"), HasSubstr("between 1 and 100000 (got 0)"));
    EXPECT_THAT(issuesFor(p, "max_repeats"), HasSubstr("(got 100001)"));
    p = validPlan();
    p.settings.warmup = -1;
    p.settings.minRepeats = 20;
    p.settings.maxRepeats = 10;
    EXPECT_THAT(issuesFor(p, "warmup"), HasSubstr("(got -1)"));
    EXPECT_THAT(issuesFor(p, "min_repeats"), HasSubstr("min_repeats (20) must not exceed max_repeats (10)"));
}

TEST(PlanValidation, TimeBudgetLearningRateAndNoiseThresholdMustBeInRange) {
    SweepPlan p = validPlan();
    p.settings.timeBudgetMs = 3600001;
    p.settings.learningRate = 0.0;
    p.settings.noiseThreshold = 10.5;
    p.settings.numericsMaxWork = -1;
    EXPECT_THAT(issuesFor(p, "time_budget_ms"), HasSubstr("between 0 and 3600000"));
    EXPECT_THAT(issuesFor(p, "learning_rate"), HasSubstr("greater than 0 and at most 10 (got 0)"));
    EXPECT_THAT(issuesFor(p, "noise_threshold"), HasSubstr("(got 10.5)"));
    EXPECT_THAT(issuesFor(p, "numerics_max_work"), HasSubstr("0 or more (got -1)"));
    p = validPlan();
    p.settings.timeBudgetMs = -1;
    p.settings.learningRate = std::numeric_limits<double>::quiet_NaN();
    p.settings.noiseThreshold = 0.0;
    EXPECT_FALSE(issuesFor(p, "time_budget_ms").empty());
    EXPECT_FALSE(issuesFor(p, "learning_rate").empty());
    EXPECT_FALSE(issuesFor(p, "noise_threshold").empty());
}

TEST(PlanValidation, ThreadsMayNotOversubscribeTheCpu) {
    SweepPlan p = validPlan();
    p.settings.threads = availableCpuCores();
    EXPECT_TRUE(issuesFor(p, "threads").empty());
    p.settings.threads = availableCpuCores() + 1;
    EXPECT_THAT(issuesFor(p, "threads"), HasSubstr("oversubscribe"));
    p.settings.threads = -1;
    EXPECT_THAT(issuesFor(p, "threads"), HasSubstr("(got -1)"));
}

TEST(PlanValidation, AtMostOneHundredThousandPoints) {
    SweepPlan p = validPlan();
    p.batches.clear();
    for (int b = 1; b <= 1000; ++b)
        p.batches.push_back(b);
    p.seqLens.clear();
    for (int t = 1; t <= 51; ++t)
        p.seqLens.push_back(t);
    // 1000 x 51 x 2 backends x 1 mode = 102000
    EXPECT_THAT(issuesFor(p, "points"), HasSubstr("102000 points, at most 100000"));
    p.seqLens.resize(50);
    EXPECT_TRUE(issuesFor(p, "points").empty());
}

TEST(PlanValidation, ModelIssuesAreIncluded) {
    SweepPlan p = validPlan();
    p.config.hiddenSize = 0;
    p.config.dropout = 1.5;
    EXPECT_THAT(issuesFor(p, "hidden_size"), HasSubstr("hidden_size must be between 1 and 8192 (got 0)"));
    EXPECT_FALSE(issuesFor(p, "dropout").empty());
}

TEST(PlanPoints, ModesThenSequenceLengthsThenBatchesThenBackends) {
    SweepPlan p;
    p.modes = {Mode::Inference, Mode::Training};
    p.seqLens = {20, 100};
    p.batches = {1, 8};
    p.backends = {"a", "b"};
    const auto pts = points(p);
    ASSERT_EQ(pts.size(), 16u);
    std::vector<std::string> got;
    for (const auto& pt : pts)
        got.push_back(describe(pt));
    EXPECT_EQ(got[0], "a infer B=1 T=20");
    EXPECT_EQ(got[1], "b infer B=1 T=20");
    EXPECT_EQ(got[2], "a infer B=8 T=20");
    EXPECT_EQ(got[3], "b infer B=8 T=20");
    EXPECT_EQ(got[4], "a infer B=1 T=100");
    EXPECT_EQ(got[8], "a train B=1 T=20");
    EXPECT_EQ(got[15], "b train B=8 T=100");
}

TEST(PlanPoints, EmptyGridHasNoPoints) {
    SweepPlan p;
    p.backends.clear();
    EXPECT_TRUE(points(p).empty());
}

TEST(PlanPoints, ProblemCarriesTheModelShapeModeAndSettings) {
    SweepPlan p = validPlan();
    p.config.hiddenSize = 32;
    p.settings.threads = 1;
    p.settings.learningRate = 0.5;
    p.settings.allowTf32 = true;
    p.settings.gemm = GemmProvider::OpenBlas;
    const Problem problem = problemFor(p, {"cpu-blas", Mode::Training, {8, 30}});
    EXPECT_EQ(problem.config, p.config);
    EXPECT_EQ(problem.shape, (Shape{8, 30}));
    EXPECT_EQ(problem.mode, Mode::Training);
    EXPECT_EQ(problem.options,
              (BackendOptions{1, 0.5, true, GemmProvider::OpenBlas, CudnnAlgo::Standard, false}));
    p.settings.cudaGraph = true;
    EXPECT_TRUE(problemFor(p, {"gpu-cudnn", Mode::Training, {8, 30}}).options.cudaGraph);
    EXPECT_FALSE(problem.inputGradients);
}

TEST(PlanPoints, GpuCudnnRunsOncePerAlgorithmAsItsOwnSeries) {
    SweepPlan p;
    p.modes = {Mode::Inference};
    p.seqLens = {20};
    p.batches = {1, 8};
    p.backends = {"cpu-blas", "gpu-cudnn"};
    p.settings.cudnnAlgos = {CudnnAlgo::Standard, CudnnAlgo::PersistStatic};
    std::vector<std::string> got;
    for (const auto& pt : points(p))
        got.push_back(describe(pt));
    EXPECT_EQ(got, (std::vector<std::string>{"cpu-blas infer B=1 T=20", "gpu-cudnn infer B=1 T=20",
                                             "gpu-cudnn[persist_static] infer B=1 T=20",
                                             "cpu-blas infer B=8 T=20", "gpu-cudnn infer B=8 T=20",
                                             "gpu-cudnn[persist_static] infer B=8 T=20"}));
    const Problem problem = problemFor(p, points(p)[2]);
    EXPECT_EQ(problem.options.cudnnAlgo, CudnnAlgo::PersistStatic);
    EXPECT_EQ(problemFor(p, points(p)[0]).options.cudnnAlgo, CudnnAlgo::Standard);
}

TEST(PlanValidation, CudnnAlgorithmsMustBeAListWithoutDuplicates) {
    SweepPlan p = validPlan();
    p.settings.cudnnAlgos.clear();
    EXPECT_THAT(
        issuesFor(p, "cudnn_algos"),
        HasSubstr("cudnn_algos is empty: give at least one cuDNN algorithm (standard, persist_static, "
                  "persist_dynamic, persist_static_small_h)"));
    p.settings.cudnnAlgos = {CudnnAlgo::PersistDynamic, CudnnAlgo::PersistDynamic};
    EXPECT_THAT(issuesFor(p, "cudnn_algos"), HasSubstr("lists persist_dynamic more than once"));
}

TEST(PlanPoints, DescribeNamesBackendModeAndShape) {
    EXPECT_EQ(describe(PointSpec{"cpu-blas", Mode::Training, {64, 100}}), "cpu-blas train B=64 T=100");
    EXPECT_EQ(describe(PointSpec{"gpu-cudnn", Mode::Inference, {1, 20}}), "gpu-cudnn infer B=1 T=20");
}

} // namespace
} // namespace rnnprof
