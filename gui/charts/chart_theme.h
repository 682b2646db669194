#pragma once
// Chart colours that stay readable on the window's palette: a dark QChart theme under a dark
// palette, a light one otherwise (QtCharts does not follow the palette by itself), and one series
// colour per backend that is the same in every chart.
#include <QColor>
#include <QPalette>

#include <vector>

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
// The qualitative palette: kPaletteSize colours that are told apart on white and on dark; index
// wraps around beyond it.
inline constexpr int kPaletteSize = 14;
[[nodiscard]] QColor seriesColor(int index, bool dark);
// The palette slot of each series of one chart, from its stable colour key (ChartSeries::colorIndex):
// the same key gives the same slot (inference and training of one backend share a colour, told
// apart by the dash); different keys get different slots while there are at most kPaletteSize keys,
// each keeping key % kPaletteSize when that is still free, so colours stay stable across charts.
[[nodiscard]] std::vector<int> distinctColorSlots(const std::vector<int>& keys);
// The round of the palette a slot is in (0 for the first kPaletteSize keys): a chart with more
// keys than colours tells the later rounds apart by their marker shape.
[[nodiscard]] int paletteRound(int slot);
// Theme, background, fonts and colours of titles, axes and legend; animations off.
void applyChartStyle(QChart& chart, const ChartStyle& style);

} // namespace rnnprof::gui
