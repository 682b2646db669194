#include "profiling/crossover.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace rnnprof {
namespace {

// Median ms per batch size at one sequence length: the first ok point of each shape counts.
using Times = std::map<int, double>;

bool usable(const PointResult& p, Mode mode) {
    return p.ok() && p.mode == mode && std::isfinite(p.iteration.median) && p.iteration.median > 0.0;
}

Times timesOf(const std::vector<PointResult>& points, const std::string& backend, Mode mode, int seqLen) {
    Times out;
    for (const auto& p : points)
        if (p.backend == backend && p.shape.seqLen == seqLen && usable(p, mode))
            out.emplace(p.shape.batch, p.iteration.median);
    return out;
}

// (batch, log(challenger / baseline)) at every batch both measured, ascending; < 0: challenger faster.
std::vector<std::pair<int, double>> logRatios(const Times& baseline, const Times& challenger) {
    std::vector<std::pair<int, double>> out;
    for (const auto& [batch, ms] : baseline)
        if (auto it = challenger.find(batch); it != challenger.end())
            out.emplace_back(batch, std::log(it->second / ms));
    return out;
}

std::string range(const std::vector<std::pair<int, double>>& r) {
    return "B=" + std::to_string(r.front().first) + ".." + std::to_string(r.back().first);
}

std::string formatBatch(double b) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", b);
    return text;
}

Crossover crossoverAt(int seqLen, const std::vector<std::pair<int, double>>& r) {
    Crossover c;
    c.seqLen = seqLen;
    if (r.empty()) {
        c.note = "no batch size measured for both backends";
        return c;
    }
    std::size_t first = 0;
    while (first < r.size() && !(r[first].second < 0.0))
        ++first;
    if (first == r.size()) {
        c.note = "none in range (" + range(r) + ")";
        return c;
    }
    if (first == 0) {
        bool everywhere = true;
        for (const auto& [batch, ratio] : r)
            everywhere = everywhere && ratio < 0.0;
        c.fasterEverywhere = everywhere;
        c.note = everywhere ? "faster at every batch (" + range(r) + ")"
                            : "faster at the smallest batch (B=" + std::to_string(r.front().first) +
                                  "), not at every batch";
        return c;
    }
    // The sign of log(ratio) changes between r[first - 1] (>= 0) and r[first] (< 0): interpolate
    // the zero linearly in log(batch), where per-step costs make time curves close to straight.
    const auto [b0, y0] = r[first - 1];
    const auto [b1, y1] = r[first];
    const double t = y0 / (y0 - y1);
    const double logB = std::log(double(b0)) + t * (std::log(double(b1)) - std::log(double(b0)));
    c.batch = std::exp(logB);
    c.note = "faster from B=" + formatBatch(*c.batch) + " (interpolated)";
    return c;
}

} // namespace

std::vector<Crossover> findCrossovers(const std::vector<PointResult>& points, const std::string& baseline,
                                      const std::string& challenger, Mode mode) {
    std::set<int> seqLens;
    for (const auto& p : points)
        if ((p.backend == baseline || p.backend == challenger) && usable(p, mode))
            seqLens.insert(p.shape.seqLen);
    std::vector<Crossover> out;
    for (int seqLen : seqLens)
        out.push_back(crossoverAt(seqLen, logRatios(timesOf(points, baseline, mode, seqLen),
                                                    timesOf(points, challenger, mode, seqLen))));
    return out;
}

std::vector<SpeedupPoint> speedups(const std::vector<PointResult>& points, const std::string& baseline,
                                   const std::string& challenger, Mode mode, int seqLen) {
    const Times base = timesOf(points, baseline, mode, seqLen);
    const Times chal = timesOf(points, challenger, mode, seqLen);
    std::vector<SpeedupPoint> out;
    for (const auto& [batch, ms] : base)
        if (auto it = chal.find(batch); it != chal.end()) out.push_back({batch, ms / it->second});
    return out;
}

} // namespace rnnprof
