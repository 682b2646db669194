#pragma once
// Chart colours that stay readable on the window's palette: a dark QChart theme under a dark
// palette, a light one otherwise (QtCharts does not follow the palette by itself), and one series
// colour per backend that is the same in every chart.
#include <QColor>
#include <QPalette>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace rnnprof::gui {

struct ChartStyle {
    bool dark = false;
    QColor background;
    QColor foreground;
    QColor grid;
};

[[nodiscard]] bool isDarkPalette(const QPalette& palette);
[[nodiscard]] ChartStyle chartStyleFor(const QPalette& palette);
// The light style of exported files and headless charts.
[[nodiscard]] ChartStyle lightChartStyle();
[[nodiscard]] QColor seriesColor(int index, bool dark);
// Theme, background, fonts and colours of titles, axes and legend; animations off.
void applyChartStyle(QChart& chart, const ChartStyle& style);

} // namespace rnnprof::gui
