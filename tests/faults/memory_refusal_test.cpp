// A configuration whose buffers exceed the memory available is refused before anything is
// allocated, with the numbers: by prepare() of every CPU backend, and by the sweep runner, which
// records the refusal and goes on with the next point.
#include "oversized_config.h"

#include "engine/error.h"
#include "profiling/measure/process_memory.h"
#include "profiling/measure/runner.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

namespace rnnprof {
namespace {

using test::kOversizedShape;
using test::oversizedModel;
using test::oversizedProblem;
using test::whyItWouldFit;
using ::testing::HasSubstr;

const std::vector<std::string> kCpuBackends{"cpu-reference", "cpu-blas", "cpu-onednn"};

class PrepareRefusesOversizedBuffers : public ::testing::TestWithParam<std::string> {};

TEST_P(PrepareRefusesOversizedBuffers, BeforeAllocatingAndNamesNeededAndAvailableBytes) {
    const Backend* backend = builtinBackends().find(GetParam());
    ASSERT_NE(backend, nullptr);
    const Problem problem = oversizedProblem(Mode::Training);
    ASSERT_TRUE(validate(problem.config, problem.shape).empty()) << "the configuration itself must be valid";
    if (const auto why = whyItWouldFit(*backend, problem)) GTEST_SKIP() << *why;
    const std::uint64_t needed = backend->estimateMemory(problem).total();

    (void)resetPeakRss();
    const auto before = readProcessMemory();
    try {
        (void)backend->prepare(problem);
        FAIL() << GetParam() << " prepared a session that needs " << formatBytes(needed);
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::OutOfMemory) << e.what();
        EXPECT_THAT(e.what(),
                    HasSubstr(GetParam() + " at batch 65536, seq_len 127 needs " + formatBytes(needed)));
        EXPECT_THAT(e.what(), HasSubstr(" available"));
    }
    const auto after = readProcessMemory();
    if (before && after) {
        EXPECT_LT(after->peakBytes, before->rssBytes + (std::uint64_t(256) << 20))
            << "memory was allocated before the refusal";
    }
}

INSTANTIATE_TEST_SUITE_P(EveryCpuBackend, PrepareRefusesOversizedBuffers, ::testing::ValuesIn(kCpuBackends),
                         [](const auto& info) {
                             std::string name = info.param;
                             std::replace(name.begin(), name.end(), '-', '_');
                             return name;
                         });

TEST(FailingPoint, AShapeRefusedByTheMemoryEstimateIsRecordedAndTheSweepGoesOn) {
    SweepPlan plan;
    plan.config = oversizedModel();
    plan.batches = {1, kOversizedShape.batch, 2};
    plan.seqLens = {kOversizedShape.seqLen};
    plan.backends = kCpuBackends;
    plan.modes = {Mode::Training};
    plan.settings.warmup = 0;
    plan.settings.minRepeats = plan.settings.maxRepeats = 1;
    plan.settings.threads = 1;
    plan.settings.checkNumerics = false;
    for (const auto& id : kCpuBackends)
        if (const auto why = whyItWouldFit(*builtinBackends().find(id),
                                           problemFor(plan, {id, Mode::Training, kOversizedShape})))
            GTEST_SKIP() << *why;

    SweepRunner runner(builtinBackends(), plan);
    StopToken stop;
    const SweepResult result = runner.run(stop);
    EXPECT_TRUE(result.complete);
    ASSERT_EQ(result.points.size(), 9u);
    for (const PointResult& p : result.points) {
        if (p.shape.batch != kOversizedShape.batch) {
            EXPECT_EQ(p.status, PointStatus::Ok) << p.backend << ": " << p.reason;
            continue;
        }
        EXPECT_EQ(p.status, PointStatus::Refused) << p.backend;
        EXPECT_THAT(p.reason, HasSubstr("needs " + formatBytes(p.memory.total())));
        EXPECT_THAT(p.reason, HasSubstr("available: reduce batch, sequence length or hidden size"));
        EXPECT_GT(p.memory.total(), std::uint64_t(64) << 30) << "the estimate is kept with the point";
        EXPECT_EQ(p.measuredRuns, 0);
    }
}

TEST(FailingPoint, AnUnavailableGpuBackendIsRecordedWithItsReasonAndTheSweepGoesOn) {
    std::vector<std::string> gpuIds;
    for (const Backend* b : builtinBackends().all())
        if (b->isGpu() && !b->availability().available) gpuIds.push_back(std::string(b->id()));
    if (gpuIds.empty()) GTEST_SKIP() << "every GPU backend is available here";
    SweepPlan plan;
    plan.config.inputSize = 4;
    plan.config.hiddenSize = 4;
    plan.batches = {1};
    plan.seqLens = {3};
    plan.backends = gpuIds;
    plan.backends.push_back("cpu-reference");
    plan.modes = {Mode::Inference};
    plan.settings.warmup = 0;
    plan.settings.minRepeats = plan.settings.maxRepeats = 1;
    plan.settings.threads = 1;
    SweepRunner runner(builtinBackends(), plan);
    StopToken stop;
    const SweepResult result = runner.run(stop);
    EXPECT_TRUE(result.complete);
    ASSERT_EQ(result.points.size(), plan.backends.size());
    for (const PointResult& p : result.points) {
        if (p.backend == "cpu-reference") {
            EXPECT_EQ(p.status, PointStatus::Ok) << p.reason;
        } else {
            EXPECT_EQ(p.status, PointStatus::Unavailable) << p.backend;
            EXPECT_EQ(p.reason, builtinBackends().find(p.backend)->availability().reason);
            EXPECT_FALSE(p.reason.empty());
        }
    }
}

} // namespace
} // namespace rnnprof
