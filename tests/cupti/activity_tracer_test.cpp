// The tracer's sequencing over a fake CUPTI: enable before warm-up, discard warm-up, correlation
// ids per (iteration, phase), flush/decode/aggregate/disable, and degradation on every failure.
#include "fake_activity_api.h"
#include "profiling/gpu/activity_tracer.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace rnnprof::gpu {
namespace {

using test::FakeActivityApi;
using test::FakeCupti;

class ActivityTracerTest : public ::testing::Test {
protected:
    std::shared_ptr<FakeCupti> cupti = std::make_shared<FakeCupti>();
    ActivityTracer tracer{std::make_unique<FakeActivityApi>(cupti)};

    [[nodiscard]] std::optional<PhaseTag> top() const {
        if (cupti->stack.empty()) return std::nullopt;
        return decodeExternalId(cupti->stack.back());
    }
    // One training-like iteration: a kernel in each phase, `us` microseconds apart.
    void iteration(std::uint64_t t0) {
        for (Phase p : {Phase::Forward, Phase::Backward, Phase::Update}) {
            cupti->now = t0;
            tracer.hook().beginPhase(p);
            cupti->launch(std::string(toString(p)) + "_kernel", t0 + 1000, t0 + 3000);
            cupti->now = t0 + 4000;
            tracer.hook().endPhase(p);
            t0 += 5000;
        }
        tracer.endIteration();
    }
};

TEST_F(ActivityTracerTest, EnablesEveryKindAtBeginPointAndDisablesThemAllAtEndPoint) {
    EXPECT_TRUE(tracer.unavailableReason().empty());
    tracer.beginPoint();
    for (ActivityKind k : kTracedActivityKinds)
        EXPECT_TRUE(cupti->enabled.contains(k)) << toString(k);
    EXPECT_EQ(std::count(cupti->log.begin(), cupti->log.end(), "enable KERNEL"), 0) << "KERNEL serialises";
    (void)tracer.endPoint(1);
    EXPECT_TRUE(cupti->enabled.empty());
    EXPECT_TRUE(cupti->stack.empty()) << "every pushed id is popped";
}

TEST_F(ActivityTracerTest, PushesOnePhaseIdAboveAnIterationSetupId) {
    tracer.beginPoint();
    tracer.discardSoFar();
    ASSERT_TRUE(top().has_value());
    const std::uint32_t point = top()->pointId;
    EXPECT_EQ(*top(), (PhaseTag{point, 0, std::nullopt})) << "between phases: setup of iteration 0";
    tracer.hook().beginPhase(Phase::Backward);
    EXPECT_EQ(*top(), (PhaseTag{point, 0, Phase::Backward}));
    EXPECT_EQ(cupti->stack.size(), 2u);
    tracer.hook().endPhase(Phase::Backward);
    EXPECT_EQ(*top(), (PhaseTag{point, 0, std::nullopt}));
    tracer.endIteration();
    EXPECT_EQ(*top(), (PhaseTag{point, 1, std::nullopt}));
    EXPECT_EQ(cupti->stack.size(), 1u);
    tracer.hook().beginPhase(Phase::Forward);
    EXPECT_EQ(*top(), (PhaseTag{point, 1, Phase::Forward}));
    tracer.hook().endPhase(Phase::Forward);
    (void)tracer.endPoint(2);
    EXPECT_TRUE(cupti->stack.empty());
}

TEST_F(ActivityTracerTest, DiscardsWarmUpRecordsAndTagsMeasuredRunsWithANewPointId) {
    tracer.beginPoint();
    const std::uint32_t warmupPoint = top()->pointId;
    iteration(10'000); // warm-up, flushed into the bin below
    tracer.hook().beginPhase(Phase::Forward);
    tracer.hook().endPhase(Phase::Forward);
    cupti->launch("late warm-up kernel", 30'000, 31'000); // surfaces only after the discard
    const std::vector<RecordBatch> lateWarmup = std::exchange(cupti->pending, {});
    tracer.discardSoFar();
    EXPECT_NE(top()->pointId, warmupPoint);
    const auto flushAt = std::find(cupti->log.begin(), cupti->log.end(), "flush");
    ASSERT_NE(flushAt, cupti->log.end());
    EXPECT_EQ(*(flushAt + 1), "discard");
    cupti->pending = lateWarmup;
    iteration(100'000);
    const GpuProfile p = tracer.endPoint(1);
    ASSERT_TRUE(p.traced) << p.unavailableReason;
    ASSERT_EQ(p.kernels.size(), 3u);
    for (const KernelStat& k : p.kernels)
        EXPECT_NE(k.name, "late warm-up kernel");
    EXPECT_EQ(p.unattributedRecords, 0u) << "warm-up leftovers are foreign, not unattributed";
}

// CUPTI keeps instrumenting kernels after its kinds are disabled, so the tracer lets go of it
// after every traced pass; the next point attaches again by enabling.
TEST_F(ActivityTracerTest, EndPointDetachesAfterDisablingEveryKindAndTheNextPointEnablesAgain) {
    for (int point = 0; point < 2; ++point) {
        cupti->log.clear();
        tracer.beginPoint();
        tracer.discardSoFar();
        iteration(100'000);
        ASSERT_TRUE(tracer.endPoint(1).traced);
        ASSERT_FALSE(cupti->log.empty());
        EXPECT_EQ(cupti->log.back(), "detach") << "point " << point;
        EXPECT_EQ(std::count(cupti->log.begin(), cupti->log.end(), "detach"), 1);
        EXPECT_EQ(std::count_if(cupti->log.begin(), cupti->log.end(),
                                [](const std::string& e) { return e.rfind("enable ", 0) == 0; }),
                  std::ptrdiff_t(gpu::kTracedActivityKinds.size()));
        EXPECT_TRUE(cupti->enabled.empty());
    }
}

TEST_F(ActivityTracerTest, EndPointAggregatesTheMeasuredIterations) {
    tracer.beginPoint();
    tracer.discardSoFar();
    iteration(100'000);
    iteration(200'000);
    cupti->launch("zero timestamps", 0, 0);
    cupti->dropped = 5;
    const GpuProfile p = tracer.endPoint(2);
    ASSERT_TRUE(p.traced) << p.unavailableReason;
    EXPECT_TRUE(p.unavailableReason.empty());
    ASSERT_EQ(p.kernels.size(), 3u);
    EXPECT_EQ(p.kernels[0].name, "forward_kernel");
    EXPECT_EQ(p.kernels[0].phase, Phase::Forward);
    EXPECT_EQ(p.kernels[0].count, 1);
    EXPECT_DOUBLE_EQ(p.kernels[0].totalUs, 2.0);
    EXPECT_EQ(p.kernels[2].phase, Phase::Update);
    EXPECT_DOUBLE_EQ(p.gpuBusyUs, 6.0);
    EXPECT_DOUBLE_EQ(p.wallUs, 14.0) << "first phase begin to last phase end";
    EXPECT_EQ(p.droppedRecords, 6u) << "CUPTI's dropped records plus the one without timestamps";
    EXPECT_EQ(p.unattributedRecords, 0u);
}

TEST_F(ActivityTracerTest, TraceSlicesOfAnIterationStartAtItsFirstPhase) {
    tracer.beginPoint();
    tracer.discardSoFar();
    iteration(100'000);
    iteration(200'000);
    (void)tracer.endPoint(2);
    const std::vector<TraceSlice> slices = tracer.traceSlices(1);
    ASSERT_EQ(slices.size(), 3u);
    EXPECT_EQ(slices[0], (TraceSlice{"forward_kernel", "kernel", 1.0, 2.0, 8}));
    EXPECT_EQ(slices[2].startUs, 11.0);
    EXPECT_TRUE(tracer.traceSlices(2).empty());
    EXPECT_TRUE(tracer.traceSlices(-1).empty());
}

TEST_F(ActivityTracerTest, AFailingEnableMakesTheTracerUnavailableAndUndoesEarlierEnables) {
    cupti->failEnable = ActivityKind::Memory;
    tracer.beginPoint();
    EXPECT_EQ(tracer.unavailableReason(), "kernel trace unavailable: cuptiActivityEnable(MEMORY2) failed: "
                                          "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35)");
    EXPECT_TRUE(cupti->enabled.empty());
    tracer.hook().beginPhase(Phase::Forward);
    EXPECT_TRUE(cupti->stack.empty()) << "an unavailable tracer pushes nothing";
    tracer.hook().endPhase(Phase::Forward);
    tracer.endIteration();
    const GpuProfile p = tracer.endPoint(1);
    EXPECT_FALSE(p.traced);
    EXPECT_EQ(p.unavailableReason, tracer.unavailableReason());
}

TEST_F(ActivityTracerTest, AFailingFlushLeavesThatPointUntracedAndTheNextOneTraced) {
    tracer.beginPoint();
    tracer.discardSoFar();
    iteration(100'000);
    cupti->failFlush = true;
    const GpuProfile failed = tracer.endPoint(1);
    EXPECT_FALSE(failed.traced);
    EXPECT_EQ(
        failed.unavailableReason,
        "kernel trace unavailable: cudaDeviceSynchronize failed: cudaErrorIllegalAddress (an illegal memory "
        "access)");
    EXPECT_TRUE(cupti->enabled.empty());
    EXPECT_TRUE(tracer.unavailableReason().empty());
    cupti->failFlush = false;
    tracer.beginPoint();
    tracer.discardSoFar();
    iteration(200'000);
    EXPECT_TRUE(tracer.endPoint(1).traced);
}

TEST_F(ActivityTracerTest, RefusedPushesAreCountedAndNeverPopped) {
    tracer.beginPoint();
    tracer.discardSoFar();
    cupti->failPush = true;
    const std::size_t depth = cupti->stack.size();
    tracer.hook().beginPhase(Phase::Forward);
    tracer.hook().endPhase(Phase::Forward);
    EXPECT_EQ(cupti->stack.size(), depth) << "the setup id below must survive";
    EXPECT_EQ(tracer.pushFailures(), 1u);
    (void)tracer.endPoint(1);
}

TEST_F(ActivityTracerTest, EndPointWithoutMeasuredIterationsAbandonsThePoint) {
    tracer.beginPoint();
    iteration(100'000);
    const GpuProfile p = tracer.endPoint(0);
    EXPECT_FALSE(p.traced);
    EXPECT_EQ(p.unavailableReason, "kernel trace unavailable: no measured iterations");
    EXPECT_TRUE(cupti->enabled.empty());
    EXPECT_TRUE(cupti->stack.empty());
}

TEST_F(ActivityTracerTest, EndPointWithoutBeginPointIsHarmless) {
    tracer.hook().beginPhase(Phase::Forward);
    tracer.hook().endPhase(Phase::Forward);
    tracer.endIteration();
    tracer.discardSoFar();
    const GpuProfile p = tracer.endPoint(3);
    EXPECT_FALSE(p.traced);
    EXPECT_NE(p.unavailableReason.find("without beginPoint"), std::string::npos);
    EXPECT_TRUE(cupti->log.empty());
}

TEST_F(ActivityTracerTest, BeginPointTwiceStartsAfresh) {
    tracer.beginPoint();
    tracer.hook().beginPhase(Phase::Forward);
    tracer.beginPoint(); // the previous point never ended (runner bug): must not leak ids or kinds
    EXPECT_EQ(cupti->stack.size(), 1u);
    iteration(100'000);
    EXPECT_TRUE(tracer.endPoint(1).traced);
    EXPECT_TRUE(cupti->stack.empty());
}

TEST(ActivityTracerLifetime, DestroyingAnOpenPointDisablesCollection) {
    auto cupti = std::make_shared<FakeCupti>();
    {
        ActivityTracer tracer{std::make_unique<FakeActivityApi>(cupti)};
        tracer.beginPoint();
        tracer.hook().beginPhase(Phase::Forward);
    }
    EXPECT_TRUE(cupti->enabled.empty());
    EXPECT_TRUE(cupti->stack.empty());
}

TEST(UnavailableTracer, SaysWhyAndIgnoresEveryCall) {
    ActivityTracer tracer{std::string("built without CUPTI")};
    EXPECT_EQ(tracer.unavailableReason(), "kernel trace unavailable: built without CUPTI");
    tracer.beginPoint();
    tracer.hook().beginPhase(Phase::Forward);
    tracer.hook().endPhase(Phase::Forward);
    tracer.discardSoFar();
    tracer.endIteration();
    const GpuProfile p = tracer.endPoint(1);
    EXPECT_FALSE(p.traced);
    EXPECT_EQ(p.unavailableReason, tracer.unavailableReason());
    EXPECT_TRUE(tracer.traceSlices(0).empty());
    EXPECT_FALSE(ActivityTracer{std::unique_ptr<ActivityApi>{}}.unavailableReason().empty());
}

} // namespace
} // namespace rnnprof::gpu
