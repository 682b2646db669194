// The result data model's own behaviour: status names, NaN-aware equality, timestamps.
#include "profiling/result.h"
#include "sample_results.h"

#include <gtest/gtest.h>

#include <regex>

namespace rnnprof {
namespace {

TEST(PointStatusNames, RoundTripForEveryStatus) {
    for (PointStatus s : {PointStatus::Ok, PointStatus::Ineligible, PointStatus::Unavailable,
                          PointStatus::Refused, PointStatus::Failed, PointStatus::Cancelled})
        EXPECT_EQ(parsePointStatus(toString(s)), s);
    EXPECT_EQ(toString(PointStatus::Ok), "ok");
    EXPECT_EQ(toString(PointStatus::Cancelled), "cancelled");
}

TEST(PointStatusNames, UnknownNamesDoNotParse) {
    EXPECT_FALSE(parsePointStatus("OK").has_value());
    EXPECT_FALSE(parsePointStatus("").has_value());
    EXPECT_FALSE(parsePointStatus("skipped").has_value());
}

TEST(PointResultEquality, NotApplicablePhasesCompareEqual) {
    const PointResult a = test::measuredPoint("cpu-blas", Mode::Inference, {4, 20}, 1.0);
    ASSERT_TRUE(std::isnan(a.phaseMedianMs[1]));
    PointResult b = a;
    EXPECT_EQ(a, b);
    b.phaseMedianMs[1] = 0.0;
    EXPECT_NE(a, b);
}

TEST(PointResultEquality, EveryFieldCounts) {
    const PointResult a = test::gpuPoint();
    auto differs = [&a](auto change) {
        PointResult b = a;
        change(b);
        return !(a == b);
    };
    EXPECT_TRUE(differs([](PointResult& p) { p.backend = "x"; }));
    EXPECT_TRUE(differs([](PointResult& p) { p.shape.seqLen += 1; }));
    EXPECT_TRUE(differs([](PointResult& p) { p.iteration.p90 += 1; }));
    EXPECT_TRUE(differs([](PointResult& p) { p.steps[0].callsPerIteration = 9; }));
    EXPECT_TRUE(differs([](PointResult& p) { p.numerics.maxRelErr = 1; }));
    EXPECT_TRUE(differs([](PointResult& p) { p.trace.pop_back(); }));
    EXPECT_TRUE(differs([](PointResult& p) { p.gpu->kernels[0].count = 1; }));
    EXPECT_TRUE(differs([](PointResult& p) { p.gpu.reset(); }));
    EXPECT_TRUE(differs([](PointResult& p) { p.memory.workspace = 1; }));
    EXPECT_TRUE(differs([](PointResult& p) { p.measureSeconds = 2; }));
}

TEST(SweepResultEquality, TheLabelIsNotData) {
    SweepResult a = test::sampleResult();
    SweepResult b = a;
    b.label = "results.json (bench-01)";
    EXPECT_EQ(a, b);
    b.complete = !a.complete;
    EXPECT_NE(a, b);
}

TEST(Timestamp, IsIso8601Utc) {
    EXPECT_TRUE(std::regex_match(isoTimestampUtc(), std::regex(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)")));
}

} // namespace
} // namespace rnnprof
