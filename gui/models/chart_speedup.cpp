#include "gui/models/chart_speedup.h"

#include "gui/models/chart_lines.h"
#include "profiling/analysis/crossover.h"

#include <algorithm>
#include <cmath>

namespace rnnprof::gui {
namespace {

QString joinedFlags(const std::vector<std::string>& flags) {
    QStringList out;
    for (const std::string& f : flags)
        out << QString::fromStdString(f);
    return out.join(QStringLiteral("; "));
}

QString modeName(Mode m) {
    return QString::fromUtf8(toString(m).data());
}

// One pair of results to compare: the baseline's and the challenger's index. A side with result -1
// compares inside each result: one pair (r, r) per result.
struct ResultPair {
    int baseline = 0;
    int challenger = 0;
};

std::vector<ResultPair> resultPairs(const std::vector<SweepResult>& results, const ChartSelection& s) {
    const int n = static_cast<int>(results.size());
    auto valid = [n](int r) { return r >= 0 && r < n; };
    if (s.baselineResult < 0 && s.challengerResult < 0) {
        std::vector<ResultPair> out;
        for (int r = 0; r < n; ++r)
            out.push_back({r, r});
        return out;
    }
    const int b = s.baselineResult >= 0 ? s.baselineResult : s.challengerResult;
    const int c = s.challengerResult >= 0 ? s.challengerResult : s.baselineResult;
    if (!valid(b) || !valid(c)) return {};
    return {{b, c}};
}

bool crossFile(const ChartSelection& s) {
    return (s.baselineResult >= 0 || s.challengerResult >= 0) && s.baselineResult != s.challengerResult;
}

bool samePair(const ChartSelection& s) {
    return s.baseline == s.challenger &&
           (s.baselineResult == s.challengerResult || s.baselineResult < 0 || s.challengerResult < 0);
}

QString baselineLabel(const std::vector<SweepResult>& results, const ChartSelection& s) {
    return sideLabel(results, s.baselineResult, s.baseline);
}

QString challengerLabel(const std::vector<SweepResult>& results, const ChartSelection& s) {
    return sideLabel(results, s.challengerResult, s.challenger);
}

QString pairName(const std::vector<SweepResult>& results, const ChartSelection& s) {
    return challengerLabel(results, s) + QStringLiteral(" over ") + baselineLabel(results, s);
}

bool isFastest(const QString& side) {
    return side.toStdString() == kFastestCpu || side.toStdString() == kFastestGpu;
}

// "fastest-cpu on laptop (Test CPU, 2 cores)": a side with its host, for notes naming both hosts.
QString sideWithHost(const std::vector<SweepResult>& results, int result, const QString& backend) {
    return backend + QStringLiteral(" on ") +
           QString::fromStdString(hostBrief(results[static_cast<std::size_t>(result)].host));
}

// Notes of a cross-file pair: both hosts, and whatever matching left out or refused.
void addPairNotes(const std::vector<SweepResult>& results, const ChartSelection& s, const ResultPair& p,
                  const PairMatch& m, QStringList& notes) {
    notes << QStringLiteral("baseline: %1; challenger: %2")
                 .arg(sideWithHost(results, p.baseline, s.baseline),
                      sideWithHost(results, p.challenger, s.challenger));
    for (const std::string& note : m.notes)
        notes << QString::fromStdString(note);
}

// "cpu-onednn 1.20 ms" or, for a fastest-* side, "fastest-cpu 1.20 ms (cpu-onednn won)".
QString sideTime(const QString& label, const QString& side, const SideTime& t) {
    QString text = label + QStringLiteral(": ") + formatMs(t.ms);
    if (isFastest(side))
        text += QStringLiteral(" (") + QString::fromStdString(t.backend) + QStringLiteral(" won)");
    return text;
}

QString seriesPrefix(const std::vector<SweepResult>& results, const ChartSelection& s, const ResultPair& p) {
    if (crossFile(s)) return {};
    const QString prefix = resultPrefix(results, p.baseline);
    return prefix.isEmpty() ? QString() : prefix + QStringLiteral(": ");
}

// A pair whose challenger is a predicted result and whose baseline is measured (Compare with
// Reference GPU for a model or grid the reference did not measure): predicted against measured.
bool predictedPair(const std::vector<SweepResult>& results, const ResultPair& p) {
    return p.baseline != p.challenger && isPredictedResult(results[static_cast<std::size_t>(p.challenger)]) &&
           !isPredictedResult(results[static_cast<std::size_t>(p.baseline)]);
}

PairMatch pairMatch(const std::vector<SweepResult>& results, const ChartSelection& s, const ResultPair& p) {
    const SweepResult& br = results[static_cast<std::size_t>(p.baseline)];
    const SweepResult& cr = results[static_cast<std::size_t>(p.challenger)];
    return predictedPair(results, p)
               ? matchPredicted(br, s.baseline.toStdString(), cr, s.challenger.toStdString())
               : matchPair(br, s.baseline.toStdString(), cr, s.challenger.toStdString());
}

// The label and fit of a predicted result: its first point's (predictResult gives every point of one
// backend and mode the same fit; the label names the file and GPU, the same for all).
const Prediction* firstPrediction(const SweepResult& r) {
    for (const auto& p : r.points)
        if (p.prediction) return &*p.prediction;
    return nullptr;
}

// The notes of a predicted pair: what the prediction is and how far to trust it, per fit used.
void addPredictedNotes(const SweepResult& predicted, const PairMatch& m, Mode mode, QStringList& notes) {
    std::vector<std::string> seen;
    for (const MatchedPoint& mp : m.points) {
        if (mp.mode != mode) continue;
        const auto& p = predicted.points[static_cast<std::size_t>(mp.challenger.point)];
        if (!p.prediction || std::find(seen.begin(), seen.end(), p.backend) != seen.end()) continue;
        seen.push_back(p.backend);
        const QString name = QString::fromStdString(p.backend + " " + std::string(toString(mode)) + ", " +
                                                    predictedFromText(*p.prediction));
        const QString note = predictionNote(name, *p.prediction);
        if (!notes.contains(note)) notes << note;
    }
}

} // namespace

ChartData speedupVsBatch(const std::vector<SweepResult>& results, const ChartSelection& s) {
    ChartData d;
    d.title = QStringLiteral("Speedup of %1 (T=%2)").arg(pairName(results, s)).arg(s.seqLen);
    d.xTitle = QStringLiteral("batch size");
    d.yTitle = QStringLiteral("speedup (×)");
    d.logX = d.logY = true;
    if (samePair(s) || s.baseline.isEmpty()) {
        d.notes << QStringLiteral("Choose two different backends to compare.");
        return d;
    }
    const QString base = baselineLabel(results, s), chal = challengerLabel(results, s);
    d.notes << QStringLiteral("speedup = time of %1 / time of %2; above 1x %2 is faster").arg(base, chal);
    const ChartOptions options = chartOptions(results);
    double minX = 0, maxX = 0;
    for (const ResultPair& rp : resultPairs(results, s)) {
        const SweepResult& br = results[static_cast<std::size_t>(rp.baseline)];
        const SweepResult& cr = results[static_cast<std::size_t>(rp.challenger)];
        const PairMatch m = pairMatch(results, s, rp);
        if (crossFile(s)) addPairNotes(results, s, rp, m, d.notes);
        const QString pre = seriesPrefix(results, s, rp);
        const bool predicted = predictedPair(results, rp);
        const Prediction* fit = predicted ? firstPrediction(cr) : nullptr;
        for (Mode mode : options.modes) {
            ChartSeries series;
            series.colorIndex = rp.challenger;
            series.dashed = predicted || mode == Mode::Training;
            series.predicted = predicted;
            // The pair is in the title; the legend only tells modes (and results) apart, and says
            // when the challenger's times are predicted.
            series.name = pre + modeName(mode);
            if (fit) series.name += QStringLiteral(", ") + predictedLegendText(*fit);
            if (predicted) addPredictedNotes(cr, m, mode, d.notes);
            for (const MatchedPoint& mp : m.points) {
                if (mp.mode != mode || mp.seqLen != s.seqLen) continue;
                const auto& bp = br.points[static_cast<std::size_t>(mp.baseline.point)];
                const auto& cp = cr.points[static_cast<std::size_t>(mp.challenger.point)];
                const bool disturbed = bp.disturbed || cp.disturbed;
                ChartSample sample{double(mp.batch),
                                   mp.speedup(),
                                   bp.noisy || cp.noisy || disturbed,
                                   {rp.challenger, mp.challenger.point},
                                   {}};
                if (cp.prediction) {
                    // The speedup's band: the baseline's time over the predicted band's ends.
                    sample.low = mp.baseline.ms / cp.prediction->highMs;
                    sample.high = mp.baseline.ms / cp.prediction->lowMs;
                }
                sample.tooltip =
                    QStringLiteral("%1, B=%2 T=%3\nspeedup %4x\n%5\n%6%7")
                        .arg(pairName(results, s) + QLatin1Char(' ') + series.name)
                        .arg(mp.batch)
                        .arg(s.seqLen)
                        .arg(formatFixed(mp.speedup(), 2))
                        .arg(sideTime(base, s.baseline, mp.baseline),
                             sideTime(chal, s.challenger, mp.challenger),
                             disturbed      ? QStringLiteral("\ndisturbed measurement (starved of CPU)")
                             : sample.noisy ? QStringLiteral("\nnoisy measurement")
                                            : QString());
                series.samples.push_back(sample);
                minX = minX == 0 ? sample.x : std::min(minX, sample.x);
                maxX = std::max(maxX, sample.x);
            }
            if (series.samples.empty()) continue;
            const QString owner = series.name;
            d.series.push_back(std::move(series));
            for (const Crossover& c : findCrossovers(m.points, mode)) {
                if (c.seqLen != s.seqLen) continue;
                // On the plot, where the speedup is 1x: the mode (and result) only where several
                // crossovers may share the plot. Every crossing, with its interval in the legend.
                const QString tagPrefix =
                    pre + (options.modes.size() > 1 ? modeName(mode) + QLatin1Char(' ') : QString());
                for (const Crossing& x : c.crossings) {
                    const QString at = QStringLiteral("B≈%1").arg(x.batch, 0, 'f', 1);
                    const QString what =
                        x.challengerFaster ? QStringLiteral("crossover") : QStringLiteral("crossing back");
                    d.markers.push_back(
                        {x.batch,
                         QStringLiteral("%1%2%3 %4 %5%6")
                             .arg(pre, predicted ? QStringLiteral("predicted ") : QString(), what,
                                  modeName(mode),
                                  QString::fromStdString(crossingText(x, c.firstBatch, c.lastBatch)),
                                  x.flags.empty() ? QString() : QStringLiteral(" (uncertain)")),
                         tagPrefix + at, 1.0, mode == Mode::Training, owner});
                }
                if (c.crossings.empty() && !c.note.empty())
                    d.notes << QStringLiteral("%1%2: %3")
                                   .arg(pre, modeName(mode), QString::fromStdString(c.note));
                for (const Crossing& x : c.crossings)
                    if (!x.flags.empty())
                        d.notes << QStringLiteral("%1%2 crossing at B≈%3 uncertain: %4")
                                       .arg(pre, modeName(mode))
                                       .arg(x.batch, 0, 'f', 1)
                                       .arg(joinedFlags(x.flags));
            }
        }
    }
    if (!d.series.empty()) {
        ChartSeries one;
        one.name = QStringLiteral("1x (equal time)");
        one.reference = true;
        one.samples = {{minX, 1.0, false, {}, {}}, {maxX, 1.0, false, {}, {}}};
        d.series.push_back(std::move(one));
    }
    dropUndrawable(d);
    if (d.empty())
        d.notes << QStringLiteral("Nothing to show yet: %1 and %2 have no common successful batch sizes at "
                                  "sequence length %3.")
                       .arg(base, chal)
                       .arg(s.seqLen);
    return d;
}

ChartData crossoverVsSeqLen(const std::vector<SweepResult>& results, const ChartSelection& s) {
    ChartData d;
    // The pair is in the title, which wraps; an axis title is cut to the plot's height by QtCharts.
    d.title = QStringLiteral("Crossover batch vs sequence length: %1").arg(pairName(results, s));
    d.xTitle = QStringLiteral("sequence length");
    d.yTitle = QStringLiteral("crossover batch");
    d.logX = d.logY = true;
    if (samePair(s) || s.baseline.isEmpty()) {
        d.notes << QStringLiteral("Choose two different backends to compare.");
        return d;
    }
    const ChartOptions options = chartOptions(results);
    // Sequence lengths without a crossover, grouped by what findCrossovers says about them, so that
    // "faster at every batch" at ten sequence lengths is one line under the chart, not ten.
    std::vector<std::pair<QString, QStringList>> without;
    auto noteWithout = [&](const QString& what, int seqLen) {
        auto it =
            std::find_if(without.begin(), without.end(), [&](const auto& w) { return w.first == what; });
        if (it == without.end()) it = without.insert(without.end(), {what, {}});
        it->second << QString::number(seqLen);
    };
    for (const ResultPair& rp : resultPairs(results, s)) {
        const PairMatch m = pairMatch(results, s, rp);
        if (crossFile(s)) addPairNotes(results, s, rp, m, d.notes);
        const QString pre = seriesPrefix(results, s, rp);
        const bool predicted = predictedPair(results, rp);
        for (Mode mode : options.modes) {
            ChartSeries series;
            series.colorIndex = rp.challenger;
            series.dashed = predicted || mode == Mode::Training;
            series.predicted = predicted;
            series.name =
                pre + (predicted ? QStringLiteral("predicted crossover ") : QStringLiteral("crossover ")) +
                modeName(mode);
            if (predicted)
                addPredictedNotes(results[static_cast<std::size_t>(rp.challenger)], m, mode, d.notes);
            for (const Crossover& c : findCrossovers(m.points, mode)) {
                if (c.batch) {
                    series.samples.push_back({double(c.seqLen),
                                              *c.batch,
                                              false,
                                              {},
                                              QStringLiteral("%1, T=%2\n%3 is faster from batch ≈ %4")
                                                  .arg(series.name)
                                                  .arg(c.seqLen)
                                                  .arg(challengerLabel(results, s))
                                                  .arg(*c.batch, 0, 'f', 1)});
                } else {
                    noteWithout(pre + modeName(mode) + QStringLiteral(": ") + QString::fromStdString(c.note),
                                c.seqLen);
                }
            }
            std::sort(series.samples.begin(), series.samples.end(),
                      [](const ChartSample& a, const ChartSample& b) { return a.x < b.x; });
            if (!series.samples.empty()) d.series.push_back(std::move(series));
        }
    }
    for (const auto& [what, seqLens] : without)
        d.notes << what + QStringLiteral(" (T=") + seqLens.join(QStringLiteral(", ")) + QLatin1Char(')');
    dropUndrawable(d);
    if (d.empty() && d.notes.isEmpty())
        d.notes << QStringLiteral("Nothing to show yet: no crossover of %1 found.").arg(pairName(results, s));
    return d;
}

} // namespace rnnprof::gui
