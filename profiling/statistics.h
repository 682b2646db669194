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

} // namespace rnnprof
