// The real tracer from makeKernelTracer(), with real CUPTI calls: on a machine without a driver it
// must say which CUPTI call failed and stay harmless; on a GPU it must see the probe's kernel.
#include "profiling/gpu/cupti_tracer.h"

#include "engine/gpu/gpu_info.h"
#include "profiling/measure/runner.h"
#if RNNPROF_WITH_CUDA
#include "engine/gpu/device_probe.h"
#endif

#include <gtest/gtest.h>

#include <algorithm>

namespace rnnprof {
namespace {

TEST(CuptiTracer, FactoryAlwaysReturnsATracer) {
    EXPECT_NE(makeKernelTracer(), nullptr);
}

TEST(CuptiTracer, WithoutADriverItIsUnavailableNamingTheFailingCuptiCall) {
    if (gpuInfo().available) GTEST_SKIP() << "a GPU is present: " << gpuInfo().summary();
    const std::unique_ptr<KernelTracer> tracer = makeKernelTracer();
    const std::string reason = tracer->unavailableReason();
    EXPECT_EQ(reason.rfind("kernel trace unavailable: ", 0), 0u) << reason;
#if RNNPROF_WITH_CUPTI
    EXPECT_NE(reason.find("cuptiSubscribe_v2 failed: CUPTI_ERROR_"), std::string::npos) << reason;
    EXPECT_NE(reason.find(gpuInfo().reason), std::string::npos) << "and why there is no GPU: " << reason;
#else
    EXPECT_EQ(reason, "kernel trace unavailable: built without CUPTI");
#endif
}

TEST(CuptiTracer, CallsOnAnUnavailableTracerAreHarmless) {
    if (gpuInfo().available) GTEST_SKIP() << "a GPU is present: " << gpuInfo().summary();
    const std::unique_ptr<KernelTracer> tracer = makeKernelTracer();
    for (int point = 0; point < 2; ++point) {
        tracer->beginPoint();
        tracer->hook().beginPhase(Phase::Forward);
        tracer->hook().endPhase(Phase::Forward);
        tracer->discardSoFar();
        tracer->hook().beginPhase(Phase::Backward);
        tracer->hook().beginStep("step");
        tracer->hook().endStep("step");
        tracer->hook().endPhase(Phase::Backward);
        tracer->endIteration();
        const GpuProfile p = tracer->endPoint(1);
        EXPECT_FALSE(p.traced);
        EXPECT_EQ(p.unavailableReason, tracer->unavailableReason());
        EXPECT_TRUE(p.kernels.empty());
        EXPECT_TRUE(tracer->traceSlices(0).empty());
    }
    EXPECT_FALSE(tracer->endPoint(0).traced);
}

// CUPTI has one subscription, and a tracer holds it only during a traced pass (between passes it
// detaches, so that untraced runs are not slowed). Two tracers are therefore both available; the
// one that starts a pass while the other traces is refused, naming who holds the subscription.
TEST(CuptiTracer, TwoTracersInOneProcessAreSafe) {
    const std::unique_ptr<KernelTracer> first = makeKernelTracer();
    const std::unique_ptr<KernelTracer> second = makeKernelTracer();
    if (!first->unavailableReason().empty()) {
        EXPECT_FALSE(second->unavailableReason().empty());
        return;
    }
    first->beginPoint();
    second->beginPoint();
    const GpuProfile refused = second->endPoint(1);
    EXPECT_FALSE(refused.traced);
    EXPECT_NE(refused.unavailableReason.find("MULTIPLE_SUBSCRIBERS"), std::string::npos)
        << "the second tracer must say who holds the subscription: " << refused.unavailableReason;
    const GpuProfile held = first->endPoint(0);
    EXPECT_EQ(held.unavailableReason.find("MULTIPLE_SUBSCRIBERS"), std::string::npos)
        << held.unavailableReason;
}

TEST(CuptiStatus, IsDescribedByNameAndNumber) {
#if RNNPROF_WITH_CUPTI
    EXPECT_EQ(gpu::describeCuptiStatus(35), "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35)");
    EXPECT_EQ(gpu::describeCuptiStatus(39), "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED (39)");
    EXPECT_EQ(gpu::describeCuptiStatus(999), "CUPTI_ERROR_UNKNOWN (999)");
#endif
    EXPECT_NE(gpu::describeCuptiStatus(123456).find("(123456)"), std::string::npos);
}

#if RNNPROF_WITH_CUDA
TEST(CuptiTracerOnGpu, SeesTheProbeKernelCopyAndAllocationInTheForwardPhase) {
    if (!gpuInfo().available) GTEST_SKIP() << "needs a GPU: " << gpuInfo().reason;
    const std::unique_ptr<KernelTracer> tracer = makeKernelTracer();
    ASSERT_TRUE(tracer->unavailableReason().empty()) << tracer->unavailableReason();
    tracer->beginPoint();
    ASSERT_EQ(runDeviceProbe(), ""); // warm-up: module load, context creation
    tracer->discardSoFar();
    for (int i = 0; i < 2; ++i) {
        tracer->hook().beginPhase(Phase::Forward);
        ASSERT_EQ(runDeviceProbe(), "");
        tracer->hook().endPhase(Phase::Forward);
        tracer->endIteration();
    }
    const GpuProfile p = tracer->endPoint(2);
    ASSERT_TRUE(p.traced) << p.unavailableReason;
    ASSERT_FALSE(p.kernels.empty());
    const auto fill = std::find_if(p.kernels.begin(), p.kernels.end(), [](const KernelStat& k) {
        return k.name.find("fillKernel") != std::string::npos;
    });
    ASSERT_NE(fill, p.kernels.end()) << "kernels seen: " << p.kernels.front().name;
    EXPECT_EQ(fill->phase, Phase::Forward);
    EXPECT_EQ(fill->count, 1);
    EXPECT_GT(fill->totalUs, 0.0);
    const auto dtoh = std::find_if(p.memcpys.begin(), p.memcpys.end(),
                                   [](const MemcpyStat& m) { return m.direction == "DtoH"; });
    ASSERT_NE(dtoh, p.memcpys.end());
    EXPECT_EQ(dtoh->bytes, 1024u * sizeof(int));
    EXPECT_GE(p.peakDeviceBytes[0], 1024u * sizeof(int));
    EXPECT_GT(p.gpuBusyUs, 0.0);
    EXPECT_GT(p.wallUs, 0.0);
    const auto slices = tracer->traceSlices(1);
    EXPECT_TRUE(std::any_of(slices.begin(), slices.end(),
                            [](const TraceSlice& s) { return s.category == "kernel"; }));
}

// The whole protocol on a real GPU: the headline runs untraced, the traced pass separate, device
// time per phase from CUDA events, and peak device memory that counts the session's allocations.
TEST(MeasurementOnGpu, ARealPointHasDeviceTimesPeakMemoryAndATracedPass) {
    if (!gpuInfo().available) GTEST_SKIP() << "needs a GPU: " << gpuInfo().reason;
    const std::unique_ptr<KernelTracer> tracer = makeKernelTracer();
    SweepPlan plan;
    plan.config.inputSize = 32;
    plan.config.hiddenSize = 64;
    plan.batches = {4};
    plan.seqLens = {10};
    plan.backends = {"gpu-cudnn", "gpu-generic"};
    plan.modes = {Mode::Training};
    plan.settings.warmup = 2;
    plan.settings.minRepeats = plan.settings.maxRepeats = 5;
    plan.settings.checkNumerics = false;
    SweepRunner runner(builtinBackends(), plan);
    runner.setKernelTracer(tracer.get());
    StopToken stop;
    const SweepResult result = runner.run(stop);
    ASSERT_EQ(result.points.size(), 2u);
    for (const PointResult& p : result.points) {
        SCOPED_TRACE(p.backend);
        ASSERT_EQ(p.status, PointStatus::Ok) << p.reason;
        ASSERT_TRUE(p.gpu.has_value());
        for (int ph = 0; ph < kPhaseCount; ++ph) {
            EXPECT_GT(p.gpu->eventMs[std::size_t(ph)], 0.0) << "GPU time of phase " << ph;
            EXPECT_GE(p.gpu->peakDeviceBytes[std::size_t(ph)], p.memory.total()) << "phase " << ph;
        }
        EXPECT_GT(p.memory.total(), 0u);
        EXPECT_FALSE(p.gpu->mathType.empty());
        if (!tracer->unavailableReason().empty()) continue;
        EXPECT_TRUE(p.gpu->traced) << p.gpu->unavailableReason;
        EXPECT_FALSE(p.gpu->kernels.empty());
        EXPECT_GT(p.gpu->tracedMedianMs, 0.0);
        EXPECT_GT(p.gpu->untracedMedianMs, 0.0);
    }
}
#endif

} // namespace
} // namespace rnnprof
