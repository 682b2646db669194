#include "profiling/measure/statistics.h"

#include <algorithm>
#include <cmath>

namespace rnnprof {

double percentile(const std::vector<double>& sorted, double q) {
    if (sorted.empty()) return 0.0;
    if (!(q >= 0.0)) q = 0.0; // also catches NaN
    if (q > 1.0) q = 1.0;
    // NumPy's "linear" method: the q-quantile lies at fractional rank q * (n - 1).
    const double rank = q * double(sorted.size() - 1);
    const auto lo = std::size_t(std::floor(rank));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    const double frac = rank - double(lo);
    return sorted[lo] + frac * (sorted[hi] - sorted[lo]);
}

double relativeSpread(const SampleStats& s) {
    return s.median != 0.0 ? (s.p90 - s.p10) / std::abs(s.median) : 0.0;
}

bool isNoisy(const SampleStats& s, double threshold) {
    return relativeSpread(s) > threshold;
}

SampleStats summarize(std::vector<double> samples) {
    // A non-finite timing is a measurement fault, not a sample; dropping it keeps the ordering
    // well defined and the mean meaningful.
    std::erase_if(samples, [](double v) { return !std::isfinite(v); });
    SampleStats s;
    if (samples.empty()) return s;
    std::sort(samples.begin(), samples.end());
    s.count = int(samples.size());
    s.min = samples.front();
    s.max = samples.back();
    s.median = percentile(samples, 0.5);
    s.p10 = percentile(samples, 0.1);
    s.p90 = percentile(samples, 0.9);
    double sum = 0.0;
    for (double v : samples)
        sum += v;
    s.mean = sum / double(samples.size());
    if (samples.size() > 1) {
        double squares = 0.0;
        for (double v : samples)
            squares += (v - s.mean) * (v - s.mean);
        s.stddev = std::sqrt(squares / double(samples.size() - 1));
    }
    s.cv = s.mean != 0.0 ? s.stddev / std::abs(s.mean) : 0.0;
    return s;
}

} // namespace rnnprof
