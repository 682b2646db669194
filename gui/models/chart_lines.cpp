#include "gui/models/chart_lines.h"

#include "gui/models/chart_selection.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace rnnprof::gui {

std::vector<ChartSeries> linesPerBackendAndMode(const std::vector<SweepResult>& results,
                                                const LineSpec& spec) {
    const ChartOptions options = chartOptions(results);
    // key: backend rank, mode, result index, the machine of a merged result's other hosts
    std::map<std::tuple<int, int, int, QString>, ChartSeries> grouped;
    for (int r = 0; r < static_cast<int>(results.size()); ++r) {
        const auto& points = results[static_cast<std::size_t>(r)].points;
        for (int i = 0; i < static_cast<int>(points.size()); ++i) {
            const PointResult& p = points[static_cast<std::size_t>(i)];
            if (!p.ok() || (spec.include && !spec.include(p))) continue;
            const int rank = static_cast<int>(options.backends.indexOf(QString::fromStdString(p.backend)));
            const QString machine = machineSuffix(results[static_cast<std::size_t>(r)], p);
            auto& series = grouped[{rank, static_cast<int>(p.mode), r, machine}];
            if (series.name.isEmpty()) {
                series.name = seriesName(results, r, p.backend, p.mode) + machine;
                series.colorIndex = rank + r * static_cast<int>(options.backends.size());
                series.dashed = p.mode == Mode::Training;
            }
            const PointRef ref{r, i};
            ChartSample sample{spec.x(p), spec.y(p), p.noisy, ref, pointTooltip(results, ref)};
            // A time chart's spread: the error bar between the runs' p10 and p90.
            if (sample.y == p.iteration.median) {
                sample.low = p.iteration.p10;
                sample.high = p.iteration.p90;
            }
            series.samples.push_back(sample);
        }
    }
    std::vector<ChartSeries> out;
    out.reserve(grouped.size());
    for (auto& [key, series] : grouped) {
        std::stable_sort(series.samples.begin(), series.samples.end(),
                         [](const ChartSample& a, const ChartSample& b) { return a.x < b.x; });
        out.push_back(std::move(series));
    }
    return out;
}

void addPredictedLines(const std::vector<SweepResult>& results, const LineSpec& spec, ChartData& data) {
    const ChartOptions options = chartOptions(results);
    std::map<std::tuple<int, int, int>, ChartSeries> grouped;
    std::map<std::tuple<int, int, int>, const Prediction*> fits;
    for (int r = 0; r < static_cast<int>(results.size()); ++r) {
        const auto& points = results[static_cast<std::size_t>(r)].points;
        for (int i = 0; i < static_cast<int>(points.size()); ++i) {
            const PointResult& p = points[static_cast<std::size_t>(i)];
            if (!p.predicted() || !p.prediction || (spec.include && !spec.include(p))) continue;
            const int rank = static_cast<int>(options.backends.indexOf(QString::fromStdString(p.backend)));
            const std::tuple<int, int, int> key{rank, static_cast<int>(p.mode), r};
            auto& series = grouped[key];
            if (series.name.isEmpty()) {
                series.name = QString::fromStdString(p.backend + " " + std::string(toString(p.mode)) + ", ") +
                              predictedLegendText(*p.prediction);
                series.colorIndex = rank + r * static_cast<int>(options.backends.size());
                series.dashed = true;
                series.predicted = true;
                fits[key] = &*p.prediction;
            }
            const PointRef ref{r, i};
            ChartSample sample{spec.x(p), spec.y(p), false, ref, pointTooltip(results, ref)};
            // The band is of the time; a chart of another quantity gets none.
            if (spec.y(p) == p.iteration.median) {
                sample.low = p.prediction->lowMs;
                sample.high = p.prediction->highMs;
            }
            series.samples.push_back(sample);
        }
    }
    for (auto& [key, series] : grouped) {
        std::stable_sort(series.samples.begin(), series.samples.end(),
                         [](const ChartSample& a, const ChartSample& b) { return a.x < b.x; });
        const Prediction& fit = *fits[key];
        const QString fullName = series.name.section(QStringLiteral(", "), 0, 0) + QStringLiteral(", ") +
                                 QString::fromStdString(predictedFromText(fit));
        data.notes << predictionNote(fullName, fit);
        data.series.push_back(std::move(series));
    }
}

QString predictionNote(const QString& seriesName, const Prediction& p) {
    QString note =
        QStringLiteral(
            "%1: fitted on %2 points; points left out of the fit (%3) predicted with median error %4 %, %5 % "
            "within ±30 %")
            .arg(seriesName)
            .arg(p.fittedPoints)
            .arg(QString::fromStdString(p.check))
            .arg(100 * p.looMedianError, 0, 'f', 1)
            .arg(100 * p.looWithin30, 0, 'f', 0);
    if (!p.band.empty()) note += QStringLiteral("; band: ") + QString::fromStdString(p.band);
    if (p.unreliable) note += QStringLiteral(" — ") + QString::fromStdString(unreliableText(p));
    return note;
}

QString predictedLegendText(const Prediction& p) {
    // The fit joins its files' names with ", " (a name holding one is counted as two: a legend's
    // count, the note has the names).
    const std::string separator = ", ";
    std::size_t files = 1;
    for (auto at = p.from.find(separator); at != std::string::npos; at = p.from.find(separator, at + 1))
        ++files;
    if (files <= 1) return QString::fromStdString(predictedFromText(p));
    Prediction shortened = p;
    shortened.from = p.from.substr(0, p.from.find(separator)) + " and " + std::to_string(files - 1) + " more";
    return QString::fromStdString(predictedFromText(shortened));
}

void noteWhenEmpty(ChartData& data, const QString& what) {
    if (data.empty()) data.notes << QStringLiteral("Nothing to show yet: no successful points %1.").arg(what);
}

} // namespace rnnprof::gui
