#include "profiling/crossover.h"

#include "engine/backend.h"
#include "profiling/plan.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

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

namespace {

std::string formatNumber(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

std::string yesNo(bool v) {
    return v ? "true" : "false";
}

std::string joinInts(const std::vector<int>& values) {
    std::string out;
    for (int v : values)
        out += (out.empty() ? "" : ", ") + std::to_string(v);
    return out;
}

bool isFastest(std::string_view side) {
    return side == kFastestCpu || side == kFastestGpu;
}

} // namespace

bool isGpuBackendId(std::string_view id) {
    // A series of one backend ("gpu-cudnn[persist_static]") is that backend's.
    if (const Backend* b = builtinBackends().find(registryIdOf(id))) return b->isGpu();
    return id.substr(0, 4) == "gpu-";
}

std::vector<FieldDifference> modelDifferences(const RnnConfig& a, const RnnConfig& b) {
    std::vector<FieldDifference> out;
    auto compare = [&](const char* field, const std::string& x, const std::string& y) {
        if (x != y) out.push_back({field, x, y});
    };
    compare("cell", std::string(toString(a.cell)), std::string(toString(b.cell)));
    compare("input_size", std::to_string(a.inputSize), std::to_string(b.inputSize));
    compare("hidden_size", std::to_string(a.hiddenSize), std::to_string(b.hiddenSize));
    compare("layers", std::to_string(a.layers), std::to_string(b.layers));
    compare("bidirectional", yesNo(a.bidirectional), yesNo(b.bidirectional));
    compare("bias", yesNo(a.bias), yesNo(b.bias));
    compare("activation", std::string(toString(a.activation)), std::string(toString(b.activation)));
    compare("recurrent_activation", std::string(toString(a.recurrentActivation)),
            std::string(toString(b.recurrentActivation)));
    compare("recurrent_dropout", formatNumber(a.recurrentDropout), formatNumber(b.recurrentDropout));
    compare("dropout", formatNumber(a.dropout), formatNumber(b.dropout));
    if (a.cell == CellType::Gru || b.cell == CellType::Gru)
        compare("reset_after", yesNo(a.resetAfter), yesNo(b.resetAfter));
    return out;
}

std::string describeDifferences(const std::vector<FieldDifference>& differences) {
    std::string out;
    for (const auto& d : differences)
        out += (out.empty() ? "" : ", ") + d.field + " " + d.baseline + " vs " + d.challenger;
    return out;
}

namespace {

// The times of one side among the points `take` accepts: ok points for measurements, predicted
// points for predictions (matchPredicted), never the two mixed.
template <class Take>
std::map<ShapeKey, SideTime> sideTimesOf(const SweepResult& result, std::string_view side, Take take) {
    std::map<ShapeKey, SideTime> out;
    const bool fastest = isFastest(side);
    const bool wantGpu = side == kFastestGpu;
    for (int i = 0; i < static_cast<int>(result.points.size()); ++i) {
        const PointResult& p = result.points[static_cast<std::size_t>(i)];
        if (!take(p)) continue;
        if (fastest ? isGpuBackendId(p.backend) != wantGpu : p.backend != side) continue;
        const ShapeKey key{p.mode, p.shape.seqLen, p.shape.batch};
        auto it = out.find(key);
        if (it == out.end())
            out.emplace(key, SideTime{p.iteration.median, i, p.backend});
        else if (fastest && p.iteration.median < it->second.ms)
            it->second = SideTime{p.iteration.median, i, p.backend};
    }
    return out;
}

bool predictedUsable(const PointResult& p) {
    return p.predicted() && std::isfinite(p.iteration.median) && p.iteration.median > 0.0;
}

} // namespace

std::map<ShapeKey, SideTime> sideTimes(const SweepResult& result, std::string_view side) {
    return sideTimesOf(result, side, [](const PointResult& p) { return usable(p, p.mode); });
}

std::map<ShapeKey, SideTime> predictedSideTimes(const SweepResult& result, std::string_view side) {
    return sideTimesOf(result, side, predictedUsable);
}

std::vector<std::string> sideChoices(const SweepResult& result) {
    std::set<std::string> measured;
    bool cpu = false, gpu = false;
    for (const auto& p : result.points)
        if (usable(p, p.mode) || predictedUsable(p)) {
            measured.insert(p.backend);
            (isGpuBackendId(p.backend) ? gpu : cpu) = true;
        }
    std::vector<std::string> out;
    // Registry order (CPU before GPU), then ids this build does not know, alphabetically.
    for (const std::string& id : builtinBackends().ids())
        if (measured.erase(id)) out.push_back(id);
    out.insert(out.end(), measured.begin(), measured.end());
    if (cpu) out.emplace_back(kFastestCpu);
    if (gpu) out.emplace_back(kFastestGpu);
    return out;
}

namespace {

// Rule 3 on the times of two sides, whichever points they were taken from.
PairMatch matchTimes(const std::map<ShapeKey, SideTime>& base, const std::map<ShapeKey, SideTime>& chal) {
    PairMatch m;
    std::set<int> baseT, chalT;
    for (const auto& [key, t] : base)
        baseT.insert(std::get<1>(key));
    for (const auto& [key, t] : chal)
        chalT.insert(std::get<1>(key));
    std::set_difference(baseT.begin(), baseT.end(), chalT.begin(), chalT.end(),
                        std::back_inserter(m.seqLensOnlyBaseline));
    std::set_difference(chalT.begin(), chalT.end(), baseT.begin(), baseT.end(),
                        std::back_inserter(m.seqLensOnlyChallenger));
    for (const auto& [key, t] : base) {
        const auto it = chal.find(key);
        if (it != chal.end())
            m.points.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), t, it->second});
        else if (chalT.count(std::get<1>(key)))
            ++m.shapesOnlyBaseline;
    }
    for (const auto& [key, t] : chal)
        if (!base.count(key) && baseT.count(std::get<1>(key))) ++m.shapesOnlyChallenger;
    if (base.empty()) m.notes.push_back("the baseline has no successful point");
    if (chal.empty()) m.notes.push_back("the challenger has no successful point");
    if (!base.empty() && !chal.empty()) {
        if (!m.seqLensOnlyBaseline.empty())
            m.notes.push_back("sequence lengths only the baseline measured: T=" +
                              joinInts(m.seqLensOnlyBaseline));
        if (!m.seqLensOnlyChallenger.empty())
            m.notes.push_back("sequence lengths only the challenger measured: T=" +
                              joinInts(m.seqLensOnlyChallenger));
        if (m.shapesOnlyBaseline > 0)
            m.notes.push_back(std::to_string(m.shapesOnlyBaseline) +
                              " point(s) without a partner: measured by the baseline only");
        if (m.shapesOnlyChallenger > 0)
            m.notes.push_back(std::to_string(m.shapesOnlyChallenger) +
                              " point(s) without a partner: measured by the challenger only");
        if (m.points.empty()) m.notes.push_back("no mode, batch and sequence length measured by both");
    }
    return m;
}

} // namespace

PairMatch matchPair(const SweepResult& baseline, std::string_view baselineSide, const SweepResult& challenger,
                    std::string_view challengerSide) {
    const auto differences = modelDifferences(baseline.plan.config, challenger.plan.config);
    if (!differences.empty()) {
        PairMatch m;
        m.differences = differences;
        m.notes.push_back("not compared: the two results ran different models (" +
                          describeDifferences(m.differences) + ")");
        return m;
    }
    return matchTimes(sideTimes(baseline, baselineSide), sideTimes(challenger, challengerSide));
}

PairMatch matchPredicted(const SweepResult& measured, std::string_view measuredSide,
                         const SweepResult& predicted, std::string_view predictedSide) {
    const auto differences = modelDifferences(measured.plan.config, predicted.plan.config);
    if (!differences.empty()) {
        PairMatch m;
        m.differences = differences;
        m.notes.push_back("not compared: the prediction is for another model (" +
                          describeDifferences(m.differences) + ")");
        return m;
    }
    return matchTimes(sideTimes(measured, measuredSide), predictedSideTimes(predicted, predictedSide));
}

bool isPredictedResult(const SweepResult& result) {
    return !result.points.empty() && std::all_of(result.points.begin(), result.points.end(),
                                                 [](const PointResult& p) { return p.predicted(); });
}

std::vector<Crossover> findCrossovers(const std::vector<MatchedPoint>& points, Mode mode) {
    std::map<int, std::vector<std::pair<int, double>>> bySeqLen;
    for (const MatchedPoint& p : points)
        if (p.mode == mode)
            bySeqLen[p.seqLen].emplace_back(p.batch, std::log(p.challenger.ms / p.baseline.ms));
    std::vector<Crossover> out;
    for (auto& [seqLen, ratios] : bySeqLen) {
        std::sort(ratios.begin(), ratios.end());
        out.push_back(crossoverAt(seqLen, ratios));
    }
    return out;
}

std::string hostBrief(const HostInfo& host) {
    const std::string name = host.hostname.empty() ? std::string("unknown host") : host.hostname;
    if (host.gpu.available && !host.gpu.devices.empty())
        return name + " (" + host.gpu.devices.front().name + ")";
    std::string what = host.cpuModel;
    if (host.cpuCores > 0) what += (what.empty() ? "" : ", ") + std::to_string(host.cpuCores) + " cores";
    return what.empty() ? name : name + " (" + what + ")";
}

std::string pairReportText(const SweepResult& baseline, std::string_view baselineSide,
                           const SweepResult& challenger, std::string_view challengerSide) {
    std::ostringstream out;
    out << "Crossover of " << challengerSide << " on " << hostBrief(challenger.host) << " over "
        << baselineSide << " on " << hostBrief(baseline.host) << "\n";
    const PairMatch m = matchPair(baseline, baselineSide, challenger, challengerSide);
    for (const auto& note : m.notes)
        out << "  note: " << note << "\n";
    if (!m.sameModel()) return out.str();
    std::set<Mode> modes;
    for (const auto& p : m.points)
        modes.insert(p.mode);
    for (Mode mode : modes)
        for (const Crossover& c : findCrossovers(m.points, mode)) {
            out << "  " << toString(mode) << " T=" << c.seqLen << ": " << c.note << "\n";
            for (const MatchedPoint& p : m.points) {
                if (p.mode != mode || p.seqLen != c.seqLen) continue;
                char line[256];
                std::snprintf(line, sizeof line, "    B=%-6d %10.4g ms %-12s %10.4g ms %-12s speedup %.3gx\n",
                              p.batch, p.baseline.ms, p.baseline.backend.c_str(), p.challenger.ms,
                              p.challenger.backend.c_str(), p.speedup());
                out << line;
            }
        }
    return out.str();
}

} // namespace rnnprof
