#pragma once
// A plausible sweep result for the file fault tests: measured points with a trace each, so that a
// file of N points is a few KiB per point. Values are made up; only sizes and identity matter.
#include "profiling/result.h"

#include <string>

namespace rnnprof::test {

inline PointResult samplePoint(int index) {
    PointResult p;
    p.backend = "cpu-reference";
    p.mode = index % 2 ? Mode::Training : Mode::Inference;
    p.shape = {index + 1, 7};
    p.status = PointStatus::Ok;
    p.warmupRuns = 1;
    p.measuredRuns = 3;
    p.iteration = {3, 1.5 + index, 1.4, 1.6, 1.3, 1.7, 1.5, 0.1, 0.066};
    p.phaseMedianMs = {1.0, 0.4, 0.1};
    p.flopsPerIteration = 1000u + unsigned(index);
    p.notes = {"sample point " + std::to_string(index)};
    for (int i = 0; i < 20; ++i)
        p.trace.push_back({"step " + std::to_string(i), "step", 10.0 * i, 9.5, 0});
    return p;
}

inline SweepResult sampleSweep(int points) {
    SweepResult r;
    r.createdAt = "2026-01-01T00:00:00Z";
    r.host.hostname = "faults-test";
    r.plan.backends = {"cpu-reference"};
    r.complete = true;
    for (int i = 0; i < points; ++i)
        r.points.push_back(samplePoint(i));
    return r;
}

} // namespace rnnprof::test
