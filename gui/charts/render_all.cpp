#include "gui/charts/render_all.h"

#include "engine/error.h"
#include "gui/charts/chart_catalog.h"

#include <QDir>

#include <algorithm>

namespace rnnprof::gui {
namespace {

bool dependsOn(const ChartSpec& chart, Selector s) {
    return std::find(chart.dependsOn.begin(), chart.dependsOn.end(), s) != chart.dependsOn.end();
}

// Every selection the chart's file set covers, with its file name suffix.
std::vector<std::pair<ChartSelection, QString>> selectionsFor(const ChartSpec& chart,
                                                              const ChartOptions& options,
                                                              const std::optional<ChartSelection>& pair) {
    ChartSelection base;
    fitSelection(base, options);
    if (pair) {
        base.baseline = pair->baseline;
        base.baselineResult = pair->baselineResult;
        base.challenger = pair->challenger;
        base.challengerResult = pair->challengerResult;
    }
    std::vector<std::pair<ChartSelection, QString>> out{{base, QString()}};
    auto expand = [&](Selector s, auto values, auto apply, auto suffix) {
        if (!dependsOn(chart, s)) return;
        std::vector<std::pair<ChartSelection, QString>> next;
        for (const auto& [sel, name] : out)
            for (const auto& v : values) {
                ChartSelection copy = sel;
                apply(copy, v);
                next.emplace_back(copy, name + suffix(v));
            }
        out = std::move(next);
    };
    expand(
        Selector::Backend, options.measured, [](ChartSelection& s, const QString& v) { s.backend = v; },
        [](const QString& v) -> QString { return QLatin1Char('-') + v; });
    expand(
        Selector::SeqLen, options.seqLens, [](ChartSelection& s, int v) { s.seqLen = v; },
        [](int v) -> QString { return QStringLiteral("-T%1").arg(v); });
    expand(
        Selector::Mode, options.modes, [](ChartSelection& s, Mode v) { s.mode = v; },
        [](Mode v) -> QString { return QLatin1Char('-') + QString::fromUtf8(toString(v).data()); });
    expand(
        Selector::Batch, options.batches, [](ChartSelection& s, int v) { s.batch = v; },
        [](int v) -> QString { return QStringLiteral("-B%1").arg(v); });
    return out;
}

} // namespace

QStringList renderAllCharts(const std::vector<SweepResult>& results, const QString& dir,
                            const QList<ImageFormat>& formats, QSize size,
                            const std::optional<ChartSelection>& pair) {
    if (!QDir().mkpath(dir))
        throw Error(ErrorKind::Io,
                    QStringLiteral("cannot create the chart folder %1").arg(dir).toStdString());
    const ChartOptions options = chartOptions(results);
    const ChartStyle style = lightChartStyle();
    QStringList written;
    for (const ChartPageSpec& page : chartCatalog()) {
        const bool pairPage = std::find(page.selectors.begin(), page.selectors.end(), Selector::Challenger) !=
                              page.selectors.end();
        // A speedup needs two measured backends (or a pair given, whose notes say what is missing).
        if (pairPage && options.measured.size() < 2 && !pair) continue;
        for (const ChartSpec& chart : page.charts) {
            for (const auto& [selection, suffix] : selectionsFor(chart, options, pair)) {
                const ChartData data = chart.build(results, selection);
                // One of several files (per shape or backend) with nothing to show is left out; a
                // chart written once is always written, its notes saying why it is empty.
                if (data.empty() && !chart.dependsOn.empty() && !options.measured.isEmpty()) continue;
                for (ImageFormat format : formats) {
                    const QString path =
                        QDir(dir).filePath(chart.id + suffix + QLatin1Char('.') + suffixOf(format));
                    exportChart(data, style, path, format, size);
                    written << path;
                }
            }
        }
    }
    return written;
}

} // namespace rnnprof::gui
