// Which CUPTI releases the tracer works with (over the fake CUPTI): 13.0 GA traces with a warning
// naming what 13.0 Update 1 fixed, which reaches every point's profile and the summary the command
// line prints; 13.0 Update 1 and later trace without it; CUPTI older than 13.0 (other record
// layouts than the headers this build decodes) is refused without being opened.
#include "fake_activity_api.h"
#include "profiling/analysis/summary_text.h"
#include "profiling/gpu/activity_tracer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace rnnprof::gpu {
namespace {

using test::FakeActivityApi;
using test::FakeCupti;
using ::testing::HasSubstr;

constexpr std::uint32_t kGa = 130000, kUpdate1 = 130001, kCuda131 = 130100, kCuda129Update1 = 28;

struct Opened {
    std::shared_ptr<FakeCupti> cupti = std::make_shared<FakeCupti>();
    int opens = 0;
    std::unique_ptr<ActivityTracer> tracer;
    explicit Opened(std::uint32_t version) {
        tracer = makeActivityTracer(version, [this](std::string&) {
            ++opens;
            return std::make_unique<FakeActivityApi>(cupti);
        });
    }
    // One traced point with one kernel in its forward phase.
    GpuProfile tracePoint() {
        tracer->beginPoint();
        tracer->discardSoFar();
        cupti->now = 2'000'000;
        tracer->hook().beginPhase(Phase::Forward);
        cupti->launch("lstm_fwd", 2'001'000, 2'004'000);
        cupti->now = 2'005'000;
        tracer->hook().endPhase(Phase::Forward);
        tracer->endIteration();
        return tracer->endPoint(1);
    }
};

TEST(CuptiVersion, GaTracesWithAWarningNamingWhatUpdate1Fixed) {
    Opened o(kGa);
    EXPECT_EQ(o.opens, 1);
    ASSERT_TRUE(o.tracer->unavailableReason().empty()) << o.tracer->unavailableReason();
    const std::string& warning = o.tracer->warning();
    EXPECT_THAT(warning, HasSubstr("130000"));
    EXPECT_THAT(warning, HasSubstr("13.0 Update 1"));
    EXPECT_THAT(warning,
                HasSubstr("a possible deadlock when disabling CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL"));
    EXPECT_THAT(warning, HasSubstr("a possible crash in cuptiActivityFlushAll"));
    for (int point = 0; point < 2; ++point) {
        const GpuProfile p = o.tracePoint();
        EXPECT_TRUE(p.traced) << p.unavailableReason;
        ASSERT_EQ(p.kernels.size(), 1u);
        EXPECT_EQ(p.warnings, std::vector<std::string>{warning}) << "every point carries it";
    }
}

TEST(CuptiVersion, Update1AndLaterTraceWithoutAWarning) {
    for (std::uint32_t version : {kUpdate1, kCuda131}) {
        Opened o(version);
        EXPECT_EQ(o.opens, 1);
        EXPECT_TRUE(o.tracer->unavailableReason().empty()) << o.tracer->unavailableReason();
        EXPECT_TRUE(o.tracer->warning().empty()) << o.tracer->warning();
        const GpuProfile p = o.tracePoint();
        EXPECT_TRUE(p.traced) << p.unavailableReason;
        EXPECT_TRUE(p.warnings.empty());
    }
}

TEST(CuptiVersion, OlderThan130IsRefusedWithoutOpeningCupti) {
    for (std::uint32_t version : {kCuda129Update1, kGa - 1}) {
        Opened o(version);
        EXPECT_EQ(o.opens, 0) << "no subscription for a refused version";
        const std::string reason = o.tracer->unavailableReason();
        EXPECT_THAT(reason, HasSubstr("kernel trace unavailable: CUPTI API version " +
                                      std::to_string(version) + " is older than 130000"));
        const GpuProfile p = o.tracePoint();
        EXPECT_FALSE(p.traced);
        EXPECT_EQ(p.unavailableReason, reason);
        EXPECT_TRUE(p.warnings.empty());
    }
}

TEST(CuptiVersion, AFailedOpenSaysWhy) {
    const auto tracer = makeActivityTracer(kUpdate1, [](std::string& error) -> std::unique_ptr<ActivityApi> {
        error = "cuptiSubscribe_v2 failed: CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED (39)";
        return nullptr;
    });
    EXPECT_EQ(tracer->unavailableReason(), "kernel trace unavailable: cuptiSubscribe_v2 failed: "
                                           "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED (39)");
}

TEST(CuptiVersion, TheCommandLineSummaryPrintsTheWarningOnce) {
    Opened o(kGa);
    SweepResult result;
    for (int batch : {1, 2}) {
        PointResult p;
        p.backend = "gpu-cudnn";
        p.shape = {batch, 3};
        p.gpu = o.tracePoint();
        result.points.push_back(p);
    }
    const std::string summary = summaryTable(result);
    const std::string line = "warning: " + o.tracer->warning() + "\n";
    const auto first = summary.find(line);
    ASSERT_NE(first, std::string::npos) << summary;
    EXPECT_EQ(summary.find(line, first + 1), std::string::npos) << "once, not per point:\n" << summary;
}

} // namespace
} // namespace rnnprof::gpu
