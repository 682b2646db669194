// Legends, palette, titles, crossover tags and export footers: every series of a
// crowded overlay chart has a legend entry with its whole name, at the chart's minimum size and in
// a 2200 px export; no two series keys share a colour; a click on an entry hides and shows its
// series (a bar set too: the value axis then fits the bars left); long labels of horizontal bars
// are elided in the middle to fit beside the plot; the crossover batch, computed here by hand,
// is written on the speedup chart; exports carry a footer naming the files, hosts and CPU/GPU.
#include "gui/charts/chart_export.h"
#include "gui/charts/chart_legend.h"
#include "gui/charts/chart_theme.h"
#include "gui/charts/chart_view.h"
#include "gui/charts/export_footer.h"
#include "gui/fake_results.h"
#include "gui/models/chart_speedup.h"
#include "gui/models/chart_time.h"

#include <QAbstractAxis>
#include <QAbstractSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QFile>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QImage>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>
#include <QXYSeries>

#include <cmath>
#include <set>

#include <gtest/gtest.h>

namespace rnnprof::gui {
namespace {

// `backends` x {inference, training} at batch {1, 4, 16} x T=10, on host `host`.
SweepResult legendResult(const std::string& label, const std::string& host,
                         const std::vector<std::string>& backends) {
    acceptBackendIds(backends);
    SweepResult r;
    r.label = label;
    r.createdAt = "2026-03-04T05:06:07Z";
    r.host.hostname = host;
    r.host.cpuModel = "Test CPU " + host;
    r.host.cpuCores = 4;
    r.plan.batches = {1, 4, 16};
    r.plan.seqLens = {10};
    r.plan.backends = backends;
    r.plan.modes = {Mode::Inference, Mode::Training};
    double ms = 1.0;
    for (const auto& b : backends)
        for (Mode m : r.plan.modes) {
            ms += 0.5;
            for (int batch : r.plan.batches)
                r.points.push_back(test::okPoint(b, m, batch, 10, ms * batch));
        }
    r.complete = true;
    return r;
}

// Two files with two backends each, both modes: 8 series, each named after its file.
std::vector<SweepResult> overlay() {
    return {legendResult("laptop-results.json", "laptop", {"legend-cpu-blas", "legend-cpu-onednn"}),
            legendResult("server-results.json", "server", {"legend-cpu-blas", "legend-gpu-cudnn"})};
}

ChartData crowdedChart() {
    ChartSelection s;
    s.seqLen = 10;
    return timeVsBatch(overlay(), s);
}

QByteArray readFile(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A view of `data` shown at its minimum size, laid out.
struct ShownView {
    ChartView view;
    explicit ShownView(const ChartData& data) {
        view.setFixedStyle(lightChartStyle());
        view.setChartData(data);
        view.resize(view.minimumSize());
        view.show();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(&view));
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::processEvents();
    }
};

TEST(ChartLegend, EverySeriesOfACrowdedOverlayHasItsWholeNameVisibleAtTheMinimumSize) {
    const ChartData data = crowdedChart();
    ASSERT_EQ(data.series.size(), 8u);
    ShownView shown(data);
    const ChartLegend* legend = shown.view.rendered().frame.legend;
    ASSERT_NE(legend, nullptr);
    const QRectF visible = shown.view.mapToScene(shown.view.viewport()->rect()).boundingRect();
    for (std::size_t i = 0; i < data.series.size(); ++i) {
        const QString name = data.series[i].name;
        ASSERT_TRUE(name.contains(QStringLiteral("-results.json")));
        bool found = false;
        for (std::size_t e = 0; e < legend->entries().size(); ++e) {
            if (legend->entries()[e].series != int(i)) continue;
            found = true;
            // All of the name is drawn (wrapped, never elided), inside the view.
            EXPECT_EQ(legend->entryLines(e).join(QString()).remove(QLatin1Char(' ')),
                      QString(name).remove(QLatin1Char(' ')));
            EXPECT_FALSE(legend->entryLines(e).join(QString()).contains(QChar(0x2026)));
            EXPECT_TRUE(visible.contains(legend->mapRectToScene(legend->entryRect(e))))
                << name.toStdString() << " is drawn outside the view";
        }
        EXPECT_TRUE(found) << "no legend entry for " << name.toStdString();
    }
    // The plot keeps room of its own.
    EXPECT_GT(shown.view.chart()->plotArea().height(), 20.0);
}

TEST(ChartLegend, ALongLabelIsWrappedNotCut) {
    const QString label = QStringLiteral("gpu-cudnn[persist_static] @ a-very-long-host-name-without-spaces-"
                                         "at-all-0123456789-0123456789.json infer");
    QFont font;
    const QStringList lines = wrapText(label, font, 120.0);
    EXPECT_GT(lines.size(), 1);
    EXPECT_EQ(lines.join(QString()).remove(QLatin1Char(' ')), QString(label).remove(QLatin1Char(' ')));
    const QFontMetricsF metrics(font);
    for (const QString& line : lines)
        EXPECT_LE(metrics.horizontalAdvance(line), 121.0) << line.toStdString();
}

TEST(ChartLegend, EveryNameOfTheCrowdedChartIsInA2200PixelExport) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("crowded.svg"));
    const ChartData data = crowdedChart();
    exportChart(data, lightChartStyle(), path, ImageFormat::Svg, QSize(2200, 1300));
    const QString svg = QString::fromUtf8(readFile(path));
    for (const ChartSeries& s : data.series)
        EXPECT_TRUE(svg.contains(s.name.toHtmlEscaped()))
            << s.name.toStdString() << " missing from the export";
    EXPECT_TRUE(svg.contains(data.title));
}

TEST(ChartPalette, DifferentSeriesKeysNeverShareAColourUpToThePaletteSize) {
    std::vector<int> keys;
    for (int k = 0; k < kPaletteSize; ++k)
        keys.push_back(k * 10); // every key wraps onto few slots when taken modulo a small palette
    const std::vector<int> assigned = distinctColorSlots(keys);
    std::set<QRgb> colours;
    for (int slot : assigned)
        colours.insert(seriesColor(slot, false).rgb());
    EXPECT_EQ(colours.size(), keys.size());
    // Past the palette, colour and marker shape together stay apart.
    keys.push_back(1000);
    keys.push_back(1001);
    std::set<std::pair<QRgb, int>> looks;
    for (int slot : distinctColorSlots(keys))
        looks.insert({seriesColor(slot, false).rgb(), paletteRound(slot)});
    EXPECT_EQ(looks.size(), keys.size());
    // The same key keeps one colour (inference and training of one backend, told apart by the dash).
    const std::vector<int> same = distinctColorSlots({3, 3, 17});
    EXPECT_EQ(same[0], same[1]);
    EXPECT_NE(same[0], same[2]);
}

TEST(ChartPalette, TheCrowdedChartDrawsEachBackendOfEachFileInItsOwnColour) {
    const ChartData data = crowdedChart();
    ChartView view;
    view.setFixedStyle(lightChartStyle());
    view.setChartData(data);
    const auto& colours = view.rendered().colors;
    ASSERT_EQ(colours.size(), data.series.size());
    for (std::size_t a = 0; a < data.series.size(); ++a)
        for (std::size_t b = a + 1; b < data.series.size(); ++b) {
            const bool sameKey = data.series[a].colorIndex == data.series[b].colorIndex;
            EXPECT_EQ(colours[a] == colours[b], sameKey)
                << data.series[a].name.toStdString() << " / " << data.series[b].name.toStdString();
            if (sameKey) {
                EXPECT_NE(data.series[a].dashed, data.series[b].dashed); // the dash tells them apart
            }
        }
}

TEST(ChartLegend, ClickingAnEntryHidesItsSeriesAndClickingAgainShowsIt) {
    const ChartData data = crowdedChart();
    ShownView shown(data);
    ChartView& view = shown.view;
    const ChartLegend* legend = view.rendered().frame.legend;
    std::size_t entry = 0;
    while (legend->entries()[entry].series != 2)
        ++entry;
    const QPoint at = view.mapFromScene(legend->mapToScene(legend->entryRect(entry).center()));
    const auto& parts = view.rendered().parts[2];
    ASSERT_FALSE(parts.empty());

    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, at);
    EXPECT_FALSE(view.isSeriesVisible(2));
    for (QAbstractSeries* part : view.rendered().parts[2])
        EXPECT_FALSE(part->isVisible());
    EXPECT_TRUE(view.isSeriesVisible(1)); // the others stay
    for (QAbstractSeries* part : view.rendered().parts[1])
        EXPECT_TRUE(part->isVisible());
    // Hidden stays hidden when the chart is redrawn with new data (a sweep adds points).
    view.setChartData(data);
    for (QAbstractSeries* part : view.rendered().parts[2])
        EXPECT_FALSE(part->isVisible());

    QCoreApplication::processEvents();
    const QPoint again = view.mapFromScene(
        view.rendered().frame.legend->mapToScene(view.rendered().frame.legend->entryRect(entry).center()));
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, again);
    EXPECT_TRUE(view.isSeriesVisible(2));
    for (QAbstractSeries* part : view.rendered().parts[2])
        EXPECT_TRUE(part->isVisible());
}

// A phase of 1000 ms and one of a few ms, stacked per backend, on a linear axis.
ChartData hugeAndSmallPhases() {
    ChartData d;
    d.kind = ChartData::Kind::StackedBars;
    d.title = QStringLiteral("phases");
    d.categories = {QStringLiteral("cpu-reference"), QStringLiteral("cpu-blas")};
    d.barSets.push_back({QStringLiteral("forward"), {1000.0, 2.0}, {}, {}});
    d.barSets.push_back({QStringLiteral("backward"), {3.0, 4.0}, {}, {}});
    return d;
}

double valueAxisMax(const ChartView& view) {
    const auto axes = view.chart()->axes(Qt::Vertical);
    const auto* axis = axes.isEmpty() ? nullptr : qobject_cast<const QValueAxis*>(axes.first());
    return axis ? axis->max() : -1.0;
}

TEST(ChartLegend, ClickingABarSetsEntryHidesItsBarsAndTheValueAxisFitsTheRest) {
    ShownView shown(hugeAndSmallPhases());
    ChartView& view = shown.view;
    const auto clickEntryOf = [&view](int series) {
        const ChartLegend* legend = view.rendered().frame.legend;
        ASSERT_NE(legend, nullptr);
        std::size_t entry = 0;
        while (entry < legend->entries().size() && legend->entries()[entry].series != series)
            ++entry;
        ASSERT_LT(entry, legend->entries().size()) << "no legend entry for bar set " << series;
        QTest::mouseClick(view.viewport(), Qt::LeftButton, {},
                          view.mapFromScene(legend->mapToScene(legend->entryRect(entry).center())));
        QCoreApplication::processEvents(); // the bars are redrawn from the event loop
    };
    ASSERT_GE(valueAxisMax(view), 1003.0);

    clickEntryOf(0);
    EXPECT_FALSE(view.isSeriesVisible(0));
    EXPECT_TRUE(view.isSeriesVisible(1));
    EXPECT_TRUE(view.rendered().frame.legend->isSeriesHidden(0)); // drawn faded, still there
    ASSERT_EQ(view.rendered().barSets.size(), 2u);
    for (int i = 0; i < 2; ++i)
        EXPECT_EQ(view.rendered().barSets[0]->at(i), 0.0);
    // Only the other phase is left: the axis ends near its tallest bar, 4 ms, not at 1000.
    EXPECT_GE(valueAxisMax(view), 4.0);
    EXPECT_LT(valueAxisMax(view), 10.0);

    clickEntryOf(0);
    EXPECT_TRUE(view.isSeriesVisible(0));
    EXPECT_EQ(view.rendered().barSets[0]->at(0), 1000.0);
    EXPECT_GE(valueAxisMax(view), 1003.0);
}

// Horizontal phase bars of an overlay: labels as long as the breakdown makes them, alike but for
// their ends (which the middle elision keeps).
ChartData longLabelledBars() {
    ChartData d;
    d.kind = ChartData::Kind::HorizontalStackedBars;
    d.title = QStringLiteral("phases");
    for (const char* end : {"cpu-blas infer", "cpu-blas train", "cpu-onednn infer", "gpu-cudnn infer host",
                            "gpu-cudnn infer device", "gpu-generic infer device"})
        d.categories.push_back(QStringLiteral("H100 (NVIDIA H100 80GB HBM3, sweep of today) ") +
                               QLatin1String(end));
    d.barSets.push_back({QStringLiteral("forward"), {6.0, 5.0, 4.0, 3.0, 2.0, 1.0}, {}, {}});
    d.barSets.push_back({QStringLiteral("backward"), {1.0, 1.0, 1.0, 1.0, 1.0, 1.0}, {}, {}});
    return d;
}

TEST(BarLabels, LongCategoryLabelsFitBetweenTheChartsEdgeAndThePlotAtAnyWidth) {
    const ChartData data = longLabelledBars();
    ShownView shown(data);
    ChartView& view = shown.view;
    for (const int width : {360, 520, 900}) {
        view.resize(width, view.height());
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::processEvents();
        const auto axes = view.chart()->axes(Qt::Vertical);
        auto* axis = axes.isEmpty() ? nullptr : qobject_cast<QBarCategoryAxis*>(axes.first());
        ASSERT_NE(axis, nullptr);
        const QStringList labels = axis->categories();
        ASSERT_EQ(labels.size(), qsizetype(data.categories.size())) << "a label was dropped as a repeat";
        // Every bar can be told from the others by what is shown (gpu-cudnn and gpu-generic too).
        QStringList shown = labels;
        for (QString& label : shown)
            label.remove(QChar(0x200B));
        EXPECT_EQ(QSet<QString>(shown.begin(), shown.end()).size(), shown.size())
            << width << " px: " << shown.join(QStringLiteral(" | ")).toStdString();
        const QFontMetricsF metrics(axis->labelsFont());
        // Room for the labels: from the chart's left margin to the plot (QtCharts clips what is wider).
        const qreal room = view.chart()->plotArea().left() - view.chart()->margins().left();
        for (qsizetype i = 0; i < labels.size(); ++i) {
            EXPECT_LE(metrics.horizontalAdvance(labels[i]), room)
                << width << " px: " << labels[i].toStdString();
            // Elided in the middle: a start of the name, an ellipsis, an end of it.
            const QString& name = data.categories[std::size_t(i)];
            const qsizetype cut = labels[i].indexOf(QChar(0x2026));
            ASSERT_GE(cut, 0) << width << " px: not elided: " << labels[i].toStdString();
            EXPECT_TRUE(name.startsWith(labels[i].left(cut))) << labels[i].toStdString();
            EXPECT_TRUE(name.endsWith(labels[i].mid(cut + 1))) << labels[i].toStdString();
            // At a wide chart, what tells the bars apart, the backend and mode, is whole.
            const QString end = name.section(QStringLiteral(") "), 1);
            if (width >= 900) {
                EXPECT_TRUE(labels[i].endsWith(end)) << width << " px: " << labels[i].toStdString();
            }
        }
    }
    view.resize(1400, view.height()); // room enough: whole names
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QCoreApplication::processEvents();
    auto* axis = qobject_cast<QBarCategoryAxis*>(view.chart()->axes(Qt::Vertical).first());
    EXPECT_EQ(axis->categories().first(), data.categories.front());
}

// The CPU takes 1 ms per sequence, the GPU a constant 6 ms: the speedup B / 6 is 1 at B = 6
// exactly, and a power law, so interpolating on log scales between B=4 and B=8 finds 6.0.
std::vector<SweepResult> crossingAtSix() {
    acceptBackendIds({"linear-cpu", "constant-gpu"});
    SweepResult r;
    r.host.hostname = "crossing";
    r.plan.batches = {1, 2, 4, 8, 16};
    r.plan.seqLens = {10};
    r.plan.backends = {"linear-cpu", "constant-gpu"};
    r.plan.modes = {Mode::Inference};
    for (int b : r.plan.batches) {
        r.points.push_back(test::okPoint("linear-cpu", Mode::Inference, b, 10, 1.0 * b));
        r.points.push_back(test::okPoint("constant-gpu", Mode::Inference, b, 10, 6.0));
    }
    return {r};
}

TEST(CrossoverTag, TheHandComputedCrossoverIsWrittenOnTheSpeedupChartAtTheOneXLine) {
    ChartSelection s;
    s.seqLen = 10;
    s.baseline = QStringLiteral("linear-cpu");
    s.challenger = QStringLiteral("constant-gpu");
    const ChartData data = speedupVsBatch(crossingAtSix(), s);
    ShownView shown(data);
    QChart* chart = shown.view.chart();
    const QGraphicsSimpleTextItem* tag = nullptr;
    for (QGraphicsItem* item : shown.view.scene()->items())
        if (auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item);
            text && text->text() == QStringLiteral("B≈6.0"))
            tag = text;
    ASSERT_NE(tag, nullptr) << "no B≈6.0 on the chart";
    EXPECT_TRUE(tag->isVisible());
    // Beside the point (6, 1x): within a few pixels of it.
    const QPointF crossing =
        chart->mapToScene(chart->mapToPosition(QPointF(6.0, 1.0), shown.view.rendered().anchors.front()));
    const QRectF box = tag->sceneBoundingRect();
    EXPECT_LT(std::abs(box.bottom() - crossing.y()), 6.0);
    EXPECT_LT(std::min(std::abs(box.left() - crossing.x()), std::abs(box.right() - crossing.x())), 6.0);
    // Zooming moves the plot under the tag; the tag follows the crossing.
    chart->zoom(1.3);
    QCoreApplication::processEvents();
    const QPointF zoomed =
        chart->mapToScene(chart->mapToPosition(QPointF(6.0, 1.0), shown.view.rendered().anchors.front()));
    ASSERT_GT(std::abs(zoomed.x() - crossing.x()), 5.0);
    const QRectF moved = tag->sceneBoundingRect();
    EXPECT_LT(std::abs(moved.bottom() - zoomed.y()), 6.0);
    EXPECT_LT(std::min(std::abs(moved.left() - zoomed.x()), std::abs(moved.right() - zoomed.x())), 6.0);
    // The legend names it too, with the interval the runs' spread gives.
    ASSERT_EQ(data.markers.size(), 1u);
    EXPECT_TRUE(data.markers[0].label.contains(QStringLiteral("crossover infer B≈6 (")))
        << data.markers[0].label.toStdString();
}

TEST(ChartTitle, ALongTitleIsWrappedToTheChartWidthNotCut) {
    ChartData data = crowdedChart();
    data.title = QStringLiteral("Crossover batch vs sequence length: fastest-cpu @ laptop-results.json over "
                                "fastest-gpu @ server-results.json (gpu-box)");
    ShownView shown(data);
    const QGraphicsTextItem* title = shown.view.rendered().frame.title;
    ASSERT_NE(title, nullptr);
    EXPECT_EQ(title->toPlainText(), data.title);
    EXPECT_LE(title->boundingRect().width(), shown.view.width());
    EXPECT_GT(title->boundingRect().height(), 1.5 * QFontMetricsF(title->font()).height()); // wrapped
}

TEST(ChartTitle, AShortPlotSaysTheShortYTitleInsteadOfACutOne) {
    ChartData data = crowdedChart();
    ASSERT_FALSE(data.yTitleShort.isEmpty());
    ShownView shown(data);
    ChartView& view = shown.view;
    const auto yTitle = [&view] { return view.chart()->axes(Qt::Vertical).first()->titleText(); };
    for (const int height : {view.minimumHeight(), 900}) {
        view.resize(900, height);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::processEvents();
        const QAbstractAxis* axis = view.chart()->axes(Qt::Vertical).first();
        const qreal plot = view.chart()->plotArea().height();
        const qreal whole = QFontMetricsF(axis->titleFont()).horizontalAdvance(data.yTitle);
        // Whichever is shown fits along the plot; the whole title wherever it fits.
        EXPECT_EQ(yTitle(), whole <= plot ? data.yTitle : data.yTitleShort) << height << " px";
        EXPECT_LE(QFontMetricsF(axis->titleFont()).horizontalAdvance(yTitle()), plot) << height << " px";
    }
    EXPECT_EQ(yTitle(), data.yTitle) << "a 900 px view has room for the whole title";
    view.resize(900, view.minimumHeight());
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QCoreApplication::processEvents();
    EXPECT_EQ(yTitle(), data.yTitleShort)
        << "the crowded legend leaves the plot too short for " << data.yTitle.toStdString();
}

TEST(ExportFooter, NamesEveryFileHostCpuAndGpuAndTheDate) {
    std::vector<SweepResult> results = overlay();
    GpuDevice h100;
    h100.name = "NVIDIA H100 80GB HBM3";
    results[1].host.gpu.available = true;
    results[1].host.gpu.devices = {h100};
    const QString footer = exportFooter(results, QDateTime(QDate(2026, 11, 23), QTime(7, 50), Qt::UTC));
    for (const char* part : {"laptop-results.json", "server-results.json", "laptop", "server",
                             "Test CPU laptop", "NVIDIA H100 80GB HBM3", "no GPU", "2026-11-23 07:50 UTC"})
        EXPECT_TRUE(footer.contains(QString::fromUtf8(part))) << part << " missing: " << footer.toStdString();
    EXPECT_TRUE(exportFooter({}, QDateTime::currentDateTimeUtc()).isEmpty());
}

TEST(ExportFooter, ExportsKeepTheFooterUnderThePlotAndNameTheHostsInSvg) {
    const std::vector<SweepResult> results = overlay();
    const QString footer = exportFooter(results, QDateTime::currentDateTimeUtc());
    const ChartData data = crowdedChart();
    const QSize size(1100, 700);
    const ExportLayout layout = exportLayout({data}, size, footer);
    ASSERT_FALSE(layout.footer.isEmpty());
    EXPECT_GT(layout.footer.top(), layout.charts[0].bottom());
    EXPECT_EQ(layout.footer.bottom(), size.height() - 1);

    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("c.png"));
    exportChart(data, lightChartStyle(), png, ImageFormat::Png, size, footer);
    const QImage image(png);
    ASSERT_EQ(image.height(), 2 * size.height());
    // The footer's text is drawn in its band below the plot.
    int dark = 0;
    for (int y = 2 * layout.footer.top(); y < image.height(); ++y)
        for (int x = 0; x < image.width(); x += 2)
            dark += image.pixelColor(x, y).lightness() < 128 ? 1 : 0;
    EXPECT_GT(dark, 50);

    const QString svgPath = dir.filePath(QStringLiteral("c.svg"));
    exportChart(data, lightChartStyle(), svgPath, ImageFormat::Svg, size, footer);
    const QString svg = QString::fromUtf8(readFile(svgPath));
    for (const char* name : {"laptop-results.json", "server-results.json", "Test CPU server"})
        EXPECT_TRUE(svg.contains(QString::fromUtf8(name))) << name;
}

} // namespace
} // namespace rnnprof::gui
