// Chart files: each format is a valid, non-empty file of its kind, and the headless renderer writes
// every chart of the catalog. Also: charts follow a dark palette.
#include "engine/error.h"
#include "gui/charts/chart_export.h"
#include "gui/charts/chart_view.h"
#include "gui/charts/render_all.h"
#include "gui/fake_results.h"
#include "gui/models/chart_time.h"

#include <QChart>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QTemporaryDir>
#include <QXmlStreamReader>

#include <gtest/gtest.h>

namespace rnnprof::gui {
namespace {

using test::fakeSweep;

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool isPng(const QString& path) {
    return readAll(path).startsWith("\x89PNG\r\n\x1a\n");
}

bool isSvg(const QString& path) {
    QXmlStreamReader xml(readAll(path));
    bool sawSvg = false;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == QStringLiteral("svg")) sawSvg = true;
    }
    return sawSvg && !xml.hasError();
}

bool isPdf(const QString& path) {
    const QByteArray bytes = readAll(path);
    return bytes.startsWith("%PDF-") && bytes.contains("%%EOF");
}

ChartData sampleChart() {
    ChartSelection s;
    s.seqLen = 10;
    return timeVsBatch({fakeSweep()}, s);
}

TEST(ChartExport, WritesAValidPng) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("chart.png"));
    exportChart(sampleChart(), lightChartStyle(), path, ImageFormat::Png, QSize(640, 400));
    ASSERT_TRUE(isPng(path));
    const QImage image(path);
    EXPECT_EQ(image.width(), 1280); // drawn at twice the size for sharp text
    EXPECT_EQ(image.height(), 800);
    // Not a blank image: the series are drawn in colour.
    int coloured = 0;
    for (int y = 0; y < image.height(); y += 4)
        for (int x = 0; x < image.width(); x += 4) {
            const QColor c = image.pixelColor(x, y);
            coloured += (c.saturation() > 80) ? 1 : 0;
        }
    EXPECT_GT(coloured, 50);
}

TEST(ChartExport, WritesAValidSvg) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("chart.svg"));
    exportChart(sampleChart(), lightChartStyle(), path, ImageFormat::Svg);
    EXPECT_GT(QFileInfo(path).size(), 1000);
    EXPECT_TRUE(isSvg(path));
    EXPECT_TRUE(readAll(path).contains("Time per iteration"));
}

TEST(ChartExport, WritesAValidPdf) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("chart.pdf"));
    exportChart(sampleChart(), lightChartStyle(), path, ImageFormat::Pdf);
    EXPECT_TRUE(isPdf(path));
}

TEST(ChartExport, FailsWithAnIoErrorForAnUnwritablePath) {
    EXPECT_THROW(exportChart(sampleChart(), lightChartStyle(), QStringLiteral("/nonexistent/dir/chart.png"),
                             ImageFormat::Png),
                 Error);
}

TEST(ChartExport, FormatFollowsTheSuffix) {
    EXPECT_EQ(formatForPath(QStringLiteral("a/b.PNG")), ImageFormat::Png);
    EXPECT_EQ(formatForPath(QStringLiteral("b.svg")), ImageFormat::Svg);
    EXPECT_EQ(formatForPath(QStringLiteral("b.pdf")), ImageFormat::Pdf);
    EXPECT_FALSE(formatForPath(QStringLiteral("b.jpg")).has_value());
}

TEST(RenderAllCharts, WritesEveryChartOfTheCatalog) {
    QTemporaryDir dir;
    const QStringList files =
        renderAllCharts({fakeSweep()}, dir.path(), {ImageFormat::Png, ImageFormat::Svg}, QSize(500, 350));
    QStringList names;
    for (const QString& f : files)
        names << QFileInfo(f).fileName();
    for (const char* expected :
         {"time-vs-batch-T10.png", "time-vs-batch-T100.svg", "time-vs-seqlen-B64.png", "throughput-T100.png",
          "speedup-T10.png", "crossover.svg", "memory-slow-cpu-T10-infer.png", "phases.png", "top-steps.svg"})
        EXPECT_TRUE(names.contains(QString::fromLatin1(expected))) << expected;
    for (const QString& f : files) {
        if (f.endsWith(QStringLiteral(".png"))) {
            EXPECT_TRUE(isPng(f)) << f.toStdString();
        } else {
            EXPECT_TRUE(isSvg(f)) << f.toStdString();
        }
    }
}

TEST(ChartStyle, FollowsADarkPalette) {
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(30, 30, 30));
    dark.setColor(QPalette::Base, QColor(20, 20, 20));
    dark.setColor(QPalette::Text, QColor(230, 230, 230));
    EXPECT_TRUE(isDarkPalette(dark));
    EXPECT_FALSE(isDarkPalette(QPalette(Qt::white)));
    ChartView view;
    view.setChartData(sampleChart());
    view.setPalette(dark);
    EXPECT_EQ(view.chart()->theme(), QChart::ChartThemeDark);
    EXPECT_EQ(view.chart()->backgroundBrush().color(), QColor(20, 20, 20));
    view.setPalette(QPalette(Qt::white));
    EXPECT_EQ(view.chart()->theme(), QChart::ChartThemeLight);
}

} // namespace
} // namespace rnnprof::gui
