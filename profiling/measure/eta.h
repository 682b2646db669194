#pragma once
// How long a sweep will take, from its plan: each point's FLOPs (profiling/analysis/flops.h) at a rate per
// backend and mode, times the runs the measurement settings make at that speed, plus a fixed cost
// per point (prepare, numerics check). Before Run the rates are rough defaults for this machine;
// while the sweep runs they are the rates its own points achieved, so the estimate follows the
// plan (a big point late in the grid counts as big) instead of the mean time of the points so far.
// Pure functions: tests compute the seconds by hand.
#include "profiling/plan.h"
#include "profiling/result.h"

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace rnnprof {

struct EtaRates {
    // GFLOP/s per (series id, mode); a series missing here runs at `fallbackGflops` of its backend.
    std::map<std::pair<std::string, Mode>, double> gflops;
    // Series whose points end at once (unavailable, ineligible): 0 s apart from the overhead.
    std::vector<std::string> instant;
    std::function<double(const std::string& series)> fallbackGflops;
    // With the fallback rate only: the launch floor of each recurrent step (cost_terms.h), which
    // dominates small shapes: t = steps * fallbackStepMs + FLOPs / rate.
    double fallbackStepMs = 0.0;
    double overheadSeconds = 0.0; // per point
};

// Seconds one point spends running, at `iterationMs` per iteration: the warm-up runs and the
// measured runs, which go on past minRepeats until timeBudgetMs is spent or maxRepeats reached.
[[nodiscard]] double pointRunSeconds(double iterationMs, const MeasureSettings& settings);

// The rates before anything is measured, on `cores` CPU cores: a per-core rate for CPU backends
// (the 2-core development machine reached 37-83 GFLOP/s on one thread at T=100, the 16-core
// reference host 50 per core at B=64; small shapes are held back by the step floor instead), a
// rate for GPU backends and a floor per recurrent step; `available` says which backends can run
// here (the others' points end at once).
[[nodiscard]] EtaRates defaultEtaRates(const SweepPlan& plan, int cores,
                                       const std::function<bool(const std::string& backend)>& available);
// The defaults updated with what `done` measured: each (series, mode) at the FLOPs of its ok points
// over their median times; series whose points all ended without a time become instant; the
// overhead is the mean time a point spent beyond its runs.
[[nodiscard]] EtaRates learnEtaRates(EtaRates defaults, const std::vector<PointResult>& done,
                                     const MeasureSettings& settings);

// Seconds the points `remaining` of `plan` will take at `rates`.
[[nodiscard]] double estimateSeconds(const SweepPlan& plan, const std::vector<PointSpec>& remaining,
                                     const EtaRates& rates);

} // namespace rnnprof
