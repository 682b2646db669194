#include "profiling/analysis/crossover.h"

#include "engine/backend.h"
#include "profiling/analysis/busy_host.h"
#include "profiling/analysis/traced_headline.h"
#include "profiling/plan.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

namespace rnnprof {
namespace {

bool usable(const PointResult& p, Mode mode) {
    return p.ok() && p.mode == mode && std::isfinite(p.iteration.median) && p.iteration.median > 0.0;
}

using Times = std::map<int, SideTime>; // per batch size at one sequence length

Times timesOf(const std::vector<PointResult>& points, const std::string& backend, Mode mode, int seqLen) {
    Times out;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const PointResult& p = points[i];
        if (p.backend == backend && p.shape.seqLen == seqLen && usable(p, mode))
            out.emplace(p.shape.batch, sideTimeOf(p, int(i)));
    }
    return out;
}

std::string formatBatch(double b) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", b);
    return text;
}

// One batch both measured: log(challenger / baseline) of the medians (< 0: challenger faster) and
// of the band's ends, with what is doubtful about the two points.
struct LogRatio {
    int batch = 0;
    double y = 0.0;
    double lo = 0.0;
    double hi = 0.0;
    std::vector<std::string> flags;
};

// A band end where both ends are known and positive, else the median's value.
double bandEnd(double challengerMs, double baselineMs, double central) {
    if (!(challengerMs > 0.0) || !(baselineMs > 0.0) || !std::isfinite(challengerMs) ||
        !std::isfinite(baselineMs))
        return central;
    return std::log(challengerMs / baselineMs);
}

void flagSide(std::vector<std::string>& flags, int batch, const SideTime& t) {
    if (t.disturbed) flags.push_back("B=" + std::to_string(batch) + ": " + t.backend + " disturbed");
    if (t.noisy) flags.push_back("B=" + std::to_string(batch) + ": " + t.backend + " noisy");
}

LogRatio logRatio(int batch, const SideTime& base, const SideTime& chal) {
    LogRatio r;
    r.batch = batch;
    r.y = std::log(chal.ms / base.ms);
    r.lo = std::min(r.y, bandEnd(chal.lowMs, base.highMs, r.y));
    r.hi = std::max(r.y, bandEnd(chal.highMs, base.lowMs, r.y));
    flagSide(r.flags, batch, base);
    flagSide(r.flags, batch, chal);
    return r;
}

bool straddles(const LogRatio& r) {
    return r.lo < 0.0 && r.hi >= 0.0;
}

std::vector<LogRatio> logRatios(const Times& baseline, const Times& challenger) {
    std::vector<LogRatio> out;
    for (const auto& [batch, base] : baseline)
        if (auto it = challenger.find(batch); it != challenger.end())
            out.push_back(logRatio(batch, base, it->second));
    return out;
}

// Where `ya` at a and `yb` at b is zero, linearly in log(batch).
double zeroBetween(const LogRatio& a, const LogRatio& b, double ya, double yb) {
    const double t = ya == yb ? 0.0 : ya / (ya - yb);
    return std::exp(std::log(double(a.batch)) + t * (std::log(double(b.batch)) - std::log(double(a.batch))));
}

// The crossing of the medians between r[k] and r[k + 1]. Its interval: the band edge that gets
// past equal time first (the low edge when the challenger becomes faster) is followed left, the
// other edge right, each to where it crosses; no further than the neighbouring crossings
// (`leftLimit`, `rightLimit`: indexes of r), where the two are not resolved from each other.
Crossing crossingAt(const std::vector<LogRatio>& r, std::size_t k, std::size_t leftLimit,
                    std::size_t rightLimit, const std::vector<double>& centrals) {
    const bool down = r[k].y >= 0.0; // the challenger becomes faster
    auto past = [down](double y) { return down ? y < 0.0 : y >= 0.0; };
    auto early = [down](const LogRatio& x) { return down ? x.lo : x.hi; };
    auto late = [down](const LogRatio& x) { return down ? x.hi : x.lo; };
    Crossing c;
    c.challengerFaster = down;
    c.batch = zeroBetween(r[k], r[k + 1], r[k].y, r[k + 1].y);
    c.below = r[k].batch;
    c.above = r[k + 1].batch;
    c.flags = r[k].flags;
    c.flags.insert(c.flags.end(), r[k + 1].flags.begin(), r[k + 1].flags.end());

    std::size_t j = k + 1;
    while (j > leftLimit && past(early(r[j - 1])))
        --j;
    if (j > leftLimit) {
        c.low = zeroBetween(r[j - 1], r[j], early(r[j - 1]), early(r[j]));
    } else if (leftLimit > 0) {
        c.low = centrals[0];
        c.flags.push_back("not resolved from the crossing at B\u2248" + formatBatch(centrals[0]));
    }
    j = k;
    while (j < rightLimit && !past(late(r[j + 1])))
        ++j;
    if (j < rightLimit) {
        c.high = zeroBetween(r[j], r[j + 1], late(r[j]), late(r[j + 1]));
    } else if (rightLimit + 1 < r.size()) {
        c.high = centrals[1];
        c.flags.push_back("not resolved from the crossing at B\u2248" + formatBatch(centrals[1]));
    }
    return c;
}

std::string range(const std::vector<LogRatio>& r) {
    return "B=" + std::to_string(r.front().batch) + ".." + std::to_string(r.back().batch);
}

std::string joined(const std::vector<std::string>& parts, const char* separator) {
    std::string out;
    for (const auto& p : parts)
        out += (out.empty() ? "" : separator) + p;
    return out;
}

// Where no crossing is: the batches at which the band still reaches equal time, and disturbed points.
void noteUncertainty(Crossover& c, const std::vector<LogRatio>& r) {
    std::vector<std::string> straddling;
    for (const LogRatio& x : r) {
        if (straddles(x)) straddling.push_back(std::to_string(x.batch));
        for (const std::string& f : x.flags)
            if (f.find("disturbed") != std::string::npos) c.flags.push_back(f);
    }
    if (!straddling.empty())
        c.note += "; the runs' spread reaches equal time at B=" + joined(straddling, ", ");
    if (!c.flags.empty()) c.note += " [" + joined(c.flags, "; ") + "]";
}

Crossover crossoverAt(int seqLen, const std::vector<LogRatio>& r) {
    Crossover c;
    c.seqLen = seqLen;
    if (r.empty()) {
        c.note = "no batch size measured for both backends";
        return c;
    }
    c.firstBatch = r.front().batch;
    c.lastBatch = r.back().batch;
    std::vector<std::size_t> at; // k of every crossing between r[k] and r[k + 1]
    for (std::size_t k = 0; k + 1 < r.size(); ++k)
        if ((r[k].y >= 0.0) != (r[k + 1].y >= 0.0)) at.push_back(k);
    if (at.empty()) {
        c.fasterEverywhere = r.front().y < 0.0;
        c.neverFaster = !c.fasterEverywhere;
        c.note =
            (c.fasterEverywhere ? "faster at every batch measured (" : "never faster (") + range(r) + ")";
        noteUncertainty(c, r);
        return c;
    }
    std::vector<double> centrals;
    for (std::size_t k : at)
        centrals.push_back(zeroBetween(r[k], r[k + 1], r[k].y, r[k + 1].y));
    std::vector<std::string> phrases;
    if (r.front().y < 0.0)
        phrases.push_back("faster at the smallest batch (B=" + std::to_string(c.firstBatch) + ")");
    for (std::size_t i = 0; i < at.size(); ++i) {
        const std::size_t left = i == 0 ? 0 : at[i - 1] + 1;
        const std::size_t right = i + 1 == at.size() ? r.size() - 1 : at[i + 1];
        const std::vector<double> neighbours{i == 0 ? 0.0 : centrals[i - 1],
                                             i + 1 == at.size() ? 0.0 : centrals[i + 1]};
        Crossing x = crossingAt(r, at[i], left, right, neighbours);
        const bool again = i > 0;
        phrases.push_back(std::string(x.challengerFaster ? "faster" : "slower") + (again ? " again" : "") +
                          " from " + crossingText(x, c.firstBatch, c.lastBatch) +
                          (x.flags.empty() ? "" : " [" + joined(x.flags, "; ") + "]"));
        c.flags.insert(c.flags.end(), x.flags.begin(), x.flags.end());
        if (x.challengerFaster && !c.batch) {
            c.batch = x.batch;
            c.low = x.low;
            c.high = x.high;
        }
        c.crossings.push_back(std::move(x));
    }
    c.note = joined(phrases, ", ");
    return c;
}

} // namespace

std::string crossingText(const Crossing& c, int firstBatch, int lastBatch) {
    return "B\u2248" + formatBatch(c.batch) + " (" +
           (c.low ? formatBatch(*c.low) : "<" + std::to_string(firstBatch)) + "\u2013" +
           (c.high ? formatBatch(*c.high) : ">" + std::to_string(lastBatch)) + ")";
}

std::string crossoverText(const Crossover& c) {
    for (const Crossing& x : c.crossings)
        if (x.challengerFaster) return crossingText(x, c.firstBatch, c.lastBatch);
    return {};
}

SideTime sideTimeOf(const PointResult& p, int index) {
    SideTime t{p.iteration.median, index, p.backend};
    if (p.prediction) {
        t.lowMs = p.prediction->lowMs;
        t.highMs = p.prediction->highMs;
    } else if (p.iteration.count > 1) {
        t.lowMs = p.iteration.p10;
        t.highMs = p.iteration.p90;
    }
    t.noisy = p.noisy;
    t.disturbed = p.disturbed;
    return t;
}

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
    for (const auto& [batch, t] : base)
        if (auto it = chal.find(batch); it != chal.end()) out.push_back({batch, t.ms / it->second.ms});
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
    compare("activation", activationText(a), activationText(b));
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
            out.emplace(key, sideTimeOf(p, i));
        else if (fastest && p.iteration.median < it->second.ms)
            it->second = sideTimeOf(p, i);
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

bool ratioStraddlesOne(const MatchedPoint& point) {
    return straddles(logRatio(point.batch, point.baseline, point.challenger));
}

std::vector<Crossover> findCrossovers(const std::vector<MatchedPoint>& points, Mode mode) {
    std::map<int, std::vector<LogRatio>> bySeqLen;
    for (const MatchedPoint& p : points)
        if (p.mode == mode) bySeqLen[p.seqLen].push_back(logRatio(p.batch, p.baseline, p.challenger));
    std::vector<Crossover> out;
    for (auto& [seqLen, ratios] : bySeqLen) {
        std::sort(ratios.begin(), ratios.end(),
                  [](const LogRatio& a, const LogRatio& b) { return a.batch < b.batch; });
        out.push_back(crossoverAt(seqLen, ratios));
    }
    return out;
}

std::vector<CrossoverRecord> crossoverRecords(const std::vector<MatchedPoint>& points,
                                              const std::string& baseline, const std::string& challenger) {
    std::vector<CrossoverRecord> out;
    for (Mode mode : {Mode::Inference, Mode::Training})
        for (const Crossover& c : findCrossovers(points, mode)) {
            CrossoverRecord r;
            r.baseline = baseline;
            r.challenger = challenger;
            r.mode = mode;
            r.seqLen = c.seqLen;
            r.batch = c.batch.value_or(kNoValue);
            r.low = c.low.value_or(kNoValue);
            r.high = c.high.value_or(kNoValue);
            r.verdict = c.note;
            r.flags = c.flags;
            out.push_back(std::move(r));
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
    // A busy machine makes every time of its side doubtful, whatever the points' own flags say.
    for (const SweepResult* r : {&baseline, &challenger})
        if (const std::string busy = hostBusyWarning(r->host, r->plan.settings.threads); !busy.empty())
            out << "  warning: " << (r == &baseline ? "baseline" : "challenger") << " host "
                << hostBrief(r->host) << " was busy " << busy << "\n";
    for (const SweepResult* r : {&baseline, &challenger})
        if (const std::string traced = tracedHeadlineBrief(*r); !traced.empty())
            out << "  warning: " << (r == &baseline ? "baseline" : "challenger") << " " << traced << "\n";
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
                std::snprintf(line, sizeof line, "    B=%-6d %10.4g ms %-12s %10.4g ms %-12s speedup %.3gx",
                              p.batch, p.baseline.ms, p.baseline.backend.c_str(), p.challenger.ms,
                              p.challenger.backend.c_str(), p.speedup());
                out << line;
                for (const SideTime* t : {&p.baseline, &p.challenger}) {
                    if (t->disturbed) out << "  " << t->backend << " disturbed";
                    if (t->noisy) out << "  " << t->backend << " noisy";
                }
                out << "\n";
            }
        }
    return out.str();
}

} // namespace rnnprof
