#pragma once
// Summary statistics of repeated timings. One function computes them; everything that shows a
// median or a spread (tables, charts, CSV, JSON) reads these numbers.
#include <vector>

namespace rnnprof {

struct SampleStats {
    int count = 0;
    double median = 0.0;
    double p10 = 0.0;
    double p90 = 0.0;
    double min = 0.0;
    double max = 0.0;
    double mean = 0.0;
    double stddev = 0.0; // sample standard deviation (n-1)
    double cv = 0.0;     // stddev / mean
    bool operator==(const SampleStats&) const = default;
};

// Percentiles by linear interpolation between closest ranks (NumPy's default); an empty input
// gives all zeros and count 0.
[[nodiscard]] SampleStats summarize(std::vector<double> samples);
[[nodiscard]] double percentile(const std::vector<double>& sorted, double q);

// How widely the runs of a point spread: (p90 - p10) / median; 0 for a median of 0. Robust where
// the coefficient of variation is not: one run in ten preempted by another process moves the CV
// far but p90 only by a tenth of that run's excess.
[[nodiscard]] double relativeSpread(const SampleStats& s);
// The rule of the noisy flag: relativeSpread() above `threshold`.
[[nodiscard]] bool isNoisy(const SampleStats& s, double threshold);
// Calibrated on the reference results measured on a quiet 16-core host
// (resources/reference/h100-*.json, 346 successful points without kernel tracing): a spread above
// 30 % flags 14 % of them (cpu-blas 20 %, cpu-onednn 16 %, gpu-generic 9 %, gpu-cudnn 8 %), while
// the earlier rule, CV above 10 %, flagged 22 % there and about 90 % on a busy 2-core machine.
inline constexpr double kDefaultNoiseThreshold = 0.30;

} // namespace rnnprof
