#include "gui/charts/render_all.h"

#include "cli/path_arguments.h"
#include "engine/error.h"
#include "gui/charts/export_footer.h"
#include "gui/models/chart_catalog.h"
#include "profiling/files/file_name_part.h"

#include <QDir>

#include <algorithm>
#include <filesystem>

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
        // Backend ids come from files: the name part is sanitised so it cannot leave `dir`.
        [](const QString& v) -> QString {
            return QLatin1Char('-') + QString::fromStdString(fileNamePart(v.toStdString()));
        });
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

// One chart and the selections it is drawn for, each with its file name suffix.
using ChartFiles = std::pair<const ChartSpec*, std::vector<std::pair<ChartSelection, QString>>>;

// Every chart renderAllCharts() may write for `options`, before any is drawn.
std::vector<ChartFiles> chartPlan(const ChartOptions& options, const std::optional<ChartSelection>& pair) {
    std::vector<ChartFiles> plan;
    for (const ChartPageSpec& page : chartCatalog()) {
        const bool pairPage = std::find(page.selectors.begin(), page.selectors.end(), Selector::Challenger) !=
                              page.selectors.end();
        // A speedup needs two measured backends (or a pair given, whose notes say what is missing).
        if (pairPage && options.measured.size() < 2 && !pair) continue;
        for (const ChartSpec& chart : page.charts)
            plan.emplace_back(&chart, selectionsFor(chart, options, pair));
    }
    return plan;
}

std::size_t fileCount(const std::vector<ChartFiles>& plan, const QList<ImageFormat>& formats) {
    std::size_t files = 0;
    for (const auto& [chart, selections] : plan)
        files += selections.size() * std::size_t(formats.size());
    return files;
}

} // namespace

std::size_t chartFileCount(const std::vector<SweepResult>& results, const QList<ImageFormat>& formats,
                           const std::optional<ChartSelection>& pair) {
    return fileCount(chartPlan(chartOptions(results), pair), formats);
}

std::string chartFileCountProblem(const std::vector<SweepResult>& results, const QList<ImageFormat>& formats,
                                  const std::optional<ChartSelection>& pair) {
    const std::size_t files = chartFileCount(results, formats, pair);
    if (files <= kMaxChartFiles) return {};
    return "the results would make " + std::to_string(files) + " chart files, at most " +
           std::to_string(kMaxChartFiles) +
           " are written per call: plot results with fewer sequence lengths, batch sizes, backends or modes, "
           "or fewer formats";
}

QStringList renderAllCharts(const std::vector<SweepResult>& results, const QString& dir,
                            const QList<ImageFormat>& formats, QSize size,
                            const std::optional<ChartSelection>& pair) {
    const ChartOptions options = chartOptions(results);
    const ChartStyle style = lightChartStyle();
    const std::vector<ChartFiles> plan = chartPlan(options, pair);
    if (const std::string problem = chartFileCountProblem(results, formats, pair); !problem.empty())
        throw Error(ErrorKind::InvalidInput, problem);
    std::error_code ec;
    std::filesystem::create_directories(cli::pathFromArgument(dir), ec);
    if (ec)
        throw Error(ErrorKind::Io, "cannot create the chart folder " +
                                       cli::readableArgument(dir).toStdString() + ": " + ec.message());
    const QString footer = exportFooter(results, QDateTime::currentDateTimeUtc());
    QStringList written;
    for (const auto& [chart, selections] : plan) {
        for (const auto& [selection, suffix] : selections) {
            const ChartData data = chart->build(results, selection);
            // One of several files (per shape or backend) with nothing to show is left out; a
            // chart written once is always written, its notes saying why it is empty.
            if (data.empty() && !chart->dependsOn.empty() && !options.measured.isEmpty()) continue;
            for (ImageFormat format : formats) {
                const QString path =
                    QDir(dir).filePath(chart->id + suffix + QLatin1Char('.') + suffixOf(format));
                exportChart(data, style, path, format, size, footer, {}, LinkAtPath::Replace);
                written << path;
            }
        }
    }
    return written;
}

} // namespace rnnprof::gui
