#include "gui/charts/chart_speedup.h"

#include "profiling/crossover.h"

#include <algorithm>
#include <cmath>

namespace rnnprof::gui {
namespace {

QString modeName(Mode m) {
    return QString::fromUtf8(toString(m).data());
}

// The ok point of (backend, mode, shape) in `points`, or -1.
int findPoint(const std::vector<PointResult>& points, const std::string& backend, Mode mode, Shape shape) {
    for (int i = 0; i < static_cast<int>(points.size()); ++i) {
        const auto& p = points[static_cast<std::size_t>(i)];
        if (p.ok() && p.backend == backend && p.mode == mode && p.shape == shape) return i;
    }
    return -1;
}

QString pairName(const ChartSelection& s) {
    return s.challenger + QStringLiteral(" over ") + s.baseline;
}

} // namespace

ChartData speedupVsBatch(const std::vector<SweepResult>& results, const ChartSelection& s) {
    ChartData d;
    d.title = QStringLiteral("Speedup of %1 (T=%2)").arg(pairName(s)).arg(s.seqLen);
    d.xTitle = QStringLiteral("batch size");
    d.yTitle = QStringLiteral("speedup (×)");
    d.logX = d.logY = true;
    if (s.baseline == s.challenger || s.baseline.isEmpty()) {
        d.notes << QStringLiteral("Choose two different backends to compare.");
        return d;
    }
    d.notes << QStringLiteral("speedup = time of %1 / time of %2; above 1x %2 is faster")
                   .arg(s.baseline, s.challenger);
    const std::string base = s.baseline.toStdString(), chal = s.challenger.toStdString();
    const ChartOptions options = chartOptions(results);
    double minX = 0, maxX = 0;
    for (int r = 0; r < static_cast<int>(results.size()); ++r) {
        const auto& points = results[static_cast<std::size_t>(r)].points;
        for (Mode mode : options.modes) {
            ChartSeries series;
            series.colorIndex = r;
            series.dashed = mode == Mode::Training;
            const QString prefix = resultPrefix(results, r);
            // The pair is in the title; the legend only tells modes (and results) apart.
            series.name = (prefix.isEmpty() ? QString() : prefix + QStringLiteral(": ")) + modeName(mode);
            for (const SpeedupPoint& sp : speedups(points, base, chal, mode, s.seqLen)) {
                const Shape shape{sp.batch, s.seqLen};
                const int bi = findPoint(points, base, mode, shape);
                const int ci = findPoint(points, chal, mode, shape);
                ChartSample sample{double(sp.batch), sp.speedup, false, {r, ci}, {}};
                if (bi >= 0 && ci >= 0) {
                    const auto& bp = points[static_cast<std::size_t>(bi)];
                    const auto& cp = points[static_cast<std::size_t>(ci)];
                    sample.noisy = bp.noisy || cp.noisy;
                    sample.tooltip =
                        QStringLiteral("%1, B=%2 T=%3\nspeedup %4x\n%5: %6\n%7: %8%9")
                            .arg(pairName(s) + QLatin1Char(' ') + series.name)
                            .arg(sp.batch)
                            .arg(s.seqLen)
                            .arg(sp.speedup, 0, 'f', 2)
                            .arg(s.baseline, formatMs(bp.iteration.median), s.challenger,
                                 formatMs(cp.iteration.median),
                                 sample.noisy ? QStringLiteral("\nnoisy measurement") : QString());
                }
                series.samples.push_back(sample);
                minX = minX == 0 ? sample.x : std::min(minX, sample.x);
                maxX = std::max(maxX, sample.x);
            }
            if (series.samples.empty()) continue;
            d.series.push_back(std::move(series));
            for (const Crossover& c : findCrossovers(points, base, chal, mode)) {
                if (c.seqLen != s.seqLen) continue;
                if (c.batch) {
                    d.markers.push_back(
                        {*c.batch, QStringLiteral("%1crossover %2 B≈%3")
                                       .arg(prefix.isEmpty() ? QString() : prefix + QStringLiteral(": "),
                                            modeName(mode))
                                       .arg(*c.batch, 0, 'f', 1)});
                } else if (!c.note.empty()) {
                    d.notes << QStringLiteral("%1%2: %3")
                                   .arg(prefix.isEmpty() ? QString() : prefix + QStringLiteral(": "),
                                        modeName(mode), QString::fromStdString(c.note));
                }
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
                       .arg(s.baseline, s.challenger)
                       .arg(s.seqLen);
    return d;
}

ChartData crossoverVsSeqLen(const std::vector<SweepResult>& results, const ChartSelection& s) {
    ChartData d;
    d.title = QStringLiteral("Crossover batch vs sequence length");
    d.xTitle = QStringLiteral("sequence length");
    d.yTitle = QStringLiteral("batch where %1 becomes faster").arg(s.challenger);
    d.logX = d.logY = true;
    if (s.baseline == s.challenger || s.baseline.isEmpty()) {
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
    for (int r = 0; r < static_cast<int>(results.size()); ++r) {
        const QString prefix = resultPrefix(results, r);
        const QString pre = prefix.isEmpty() ? QString() : prefix + QStringLiteral(": ");
        for (Mode mode : options.modes) {
            ChartSeries series;
            series.colorIndex = r;
            series.dashed = mode == Mode::Training;
            series.name = pre + QStringLiteral("crossover ") + modeName(mode);
            for (const Crossover& c :
                 findCrossovers(results[static_cast<std::size_t>(r)].points, s.baseline.toStdString(),
                                s.challenger.toStdString(), mode)) {
                if (c.batch) {
                    series.samples.push_back({double(c.seqLen),
                                              *c.batch,
                                              false,
                                              {},
                                              QStringLiteral("%1, T=%2\n%3 is faster from batch ≈ %4")
                                                  .arg(series.name)
                                                  .arg(c.seqLen)
                                                  .arg(s.challenger)
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
        d.notes << QStringLiteral("Nothing to show yet: no crossover of %1 found.").arg(pairName(s));
    return d;
}

} // namespace rnnprof::gui
