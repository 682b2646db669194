// A GPU point whose headline median is its traced median (a file that timed the runs CUPTI traced)
// is no time reference; a point that records its traced median beside an untraced headline is.
#include "profiling/analysis/traced_headline.h"

#include <gtest/gtest.h>

namespace rnnprof {
namespace {

PointResult gpuPoint(double headlineMs, double tracedMs, double untracedMs) {
    PointResult p;
    p.status = PointStatus::Ok;
    p.backend = "gpu-cudnn";
    p.iteration.median = headlineMs;
    p.gpu.emplace();
    p.gpu->traced = true;
    p.gpu->tracedMedianMs = tracedMs;
    p.gpu->untracedMedianMs = untracedMs;
    return p;
}

TEST(TracedHeadline, OnlyAHeadlineEqualToTheTracedMedianBesideADifferentUntracedOneIsTraced) {
    EXPECT_TRUE(headlineIsTraced(gpuPoint(0.548392, 0.548392, 0.46602)));
    EXPECT_FALSE(headlineIsTraced(gpuPoint(0.46602, 0.548392, 0.46602))) << "untraced headline";
    EXPECT_FALSE(headlineIsTraced(gpuPoint(0.5, 0.5, 0.0))) << "no untraced median recorded";
    EXPECT_FALSE(headlineIsTraced(gpuPoint(0.5, 0.5, 0.5))) << "tracing cost nothing measurable";
    PointResult untraced = gpuPoint(0.5, 0.6, 0.4);
    untraced.gpu->traced = false;
    EXPECT_FALSE(headlineIsTraced(untraced));
    PointResult cpu;
    cpu.status = PointStatus::Ok;
    cpu.iteration.median = 1.0;
    EXPECT_FALSE(headlineIsTraced(cpu));
}

TEST(TracedHeadline, TheBriefNamesTheLargestInflationOfTheResult) {
    SweepResult r;
    EXPECT_TRUE(tracedHeadlineBrief(r).empty());
    r.points.push_back(gpuPoint(0.46602, 0.548392, 0.46602)); // untraced headline: not counted
    EXPECT_TRUE(tracedHeadlineBrief(r).empty());
    r.points.push_back(gpuPoint(1.1, 1.1, 1.0));    // 1.1×
    r.points.push_back(gpuPoint(3.66, 3.66, 1.63)); // 2.245…×
    const std::string brief = tracedHeadlineBrief(r);
    EXPECT_NE(brief.find("up to 2.2×"), std::string::npos) << brief;
    EXPECT_NE(brief.find("not a time reference"), std::string::npos) << brief;
    SweepResult faster;
    faster.points.push_back(gpuPoint(1.19, 1.19, 1.42)); // the traced runs happened to be faster
    EXPECT_NE(tracedHeadlineBrief(faster).find("differs"), std::string::npos);
}

} // namespace
} // namespace rnnprof
