#include "gui/report/report_charts.h"

#include "engine/error.h"
#include "gui/charts/render_all.h"
#include "gui/models/chart_catalog.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

namespace rnnprof::gui {
namespace {

// The tab title of the chart a file stem belongs to ("speedup-T10" -> "Speedup & crossover").
QString pageOf(const QString& stem) {
    for (const ChartPageSpec& page : chartCatalog())
        for (const ChartSpec& chart : page.charts)
            if (stem == chart.id || stem.startsWith(chart.id + QLatin1Char('-')))
                return QString(page.title).replace(QStringLiteral("&&"), QStringLiteral("&"));
    return {};
}

// QSvgGenerator writes a standalone document; inside HTML only the <svg> element may stand.
QByteArray withoutProlog(QByteArray svg) {
    const auto start = svg.indexOf("<svg");
    return start < 0 ? QByteArray() : svg.mid(start).trimmed();
}

} // namespace

std::string reportChartCountProblem(const std::vector<SweepResult>& results) {
    const std::size_t count = chartFileCount(results, {ImageFormat::Svg});
    if (count <= kMaxReportCharts) return {};
    return "the report would hold " + std::to_string(count) + " charts, at most " +
           std::to_string(kMaxReportCharts) +
           " fit one page: report results with fewer sequence lengths, batch sizes, backends or modes, or "
           "draw "
           "them as files with rnnprof plot";
}

std::vector<ReportChart> reportCharts(const std::vector<SweepResult>& results) {
    // The plot command's own renderer, into scratch files read back at once: one chart code path
    // for the GUI, the chart files and the report.
    if (const std::string problem = reportChartCountProblem(results); !problem.empty())
        throw Error(ErrorKind::InvalidInput, problem);
    QTemporaryDir scratch;
    if (!scratch.isValid())
        throw Error(ErrorKind::Io, "cannot create a temporary folder for the report's charts: " +
                                       scratch.errorString().toStdString());
    std::vector<ReportChart> charts;
    for (const QString& path : renderAllCharts(results, scratch.path(), {ImageFormat::Svg})) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            throw Error(ErrorKind::Io, "cannot read back chart " + path.toStdString() + ": " +
                                           file.errorString().toStdString());
        const QString stem = QFileInfo(path).completeBaseName();
        charts.push_back({pageOf(stem), stem, withoutProlog(file.readAll())});
    }
    return charts;
}

} // namespace rnnprof::gui
