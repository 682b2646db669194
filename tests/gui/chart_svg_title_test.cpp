// An SVG chart file whose title holds text from a result file (a backend id, a host name): the
// text stays text. Qt 6.4's QSvgGenerator writes title and description unescaped, so a "<script>"
// there became an SVG script element, run by a browser opening the file or `rnnprof report`'s page.
#include "gui/charts/chart_export.h"
#include "gui/charts/chart_theme.h"

#include <QFile>
#include <QTemporaryDir>
#include <QXmlStreamReader>

#include <gtest/gtest.h>

namespace rnnprof::gui {
namespace {

TEST(ChartSvgTitle, MarkupFromFilesInTheTitleIsTextNotElements) {
    ChartData data;
    data.title = QStringLiteral("Speedup of <script>alert(1)</script> & co");
    ChartSeries series;
    series.name = QStringLiteral("s");
    for (double x : {1.0, 2.0}) {
        ChartSample sample;
        sample.x = x;
        sample.y = x + 1.0;
        series.samples.push_back(sample);
    }
    data.series.push_back(series);
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("chart.svg"));
    exportChart(data, lightChartStyle(), path, ImageFormat::Svg);
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(file.readAll());
    QString title;
    bool script = false;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement()) continue;
        if (xml.name() == QStringLiteral("script")) script = true;
        if (xml.name() == QStringLiteral("title") && title.isEmpty()) title = xml.readElementText();
    }
    EXPECT_FALSE(xml.hasError()) << xml.errorString().toStdString();
    EXPECT_FALSE(script);
    EXPECT_EQ(title, data.title);
}

} // namespace
} // namespace rnnprof::gui
