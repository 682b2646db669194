#pragma once
// The one adapter between ChartData and QtCharts: builds the series, axes and legend of a QChart
// from plain chart data. Everything QtCharts-specific (log axes, replace() instead of append(),
// hollow markers for noisy points, hidden legend entries) is here; the notes of the data are
// not drawn (they would squeeze or be elided with the title): ChartPage and exportChart show them, so a move
// to another chart library touches this file and ChartView only. It draws what it is given and computes
// nothing.
#include "gui/charts/chart_frame.h"
#include "gui/charts/chart_theme.h"
#include "gui/models/chart_data.h"

#include <vector>

QT_BEGIN_NAMESPACE
class QAbstractSeries;
class QChart;
class QXYSeries;
class QBarSet;
QT_END_NAMESPACE

namespace rnnprof::gui {

struct RenderedChart {
    std::vector<QXYSeries*> anchors; // one per ChartData::series: maps values to positions
    std::vector<QBarSet*> barSets;   // one per ChartData::barSets
    // One per ChartData::series: everything drawn for it (line, markers, band), to hide or show it.
    std::vector<std::vector<QAbstractSeries*>> parts;
    std::vector<QColor> colors; // one per ChartData::series (lines) or barSets, as drawn
    ChartFrame frame;           // title, legend and marker tags (QLegend stays hidden)
};

// Replaces the content of `chart` (owned by the caller) with `data`.
RenderedChart renderChart(QChart& chart, const ChartData& data, const ChartStyle& style);

// The longest legend entry, axis title or bar category drawn, in characters: long enough for a
// labelled prediction ("gpu-cudnn @ h100 — predicted from <file> (<GPU>) — not measured"), short
// enough that QtCharts' label truncation (quadratic in the length) stays instant.
inline constexpr int kMaxLabelChars = 120;

// elideMiddle() (chart_data.h) shortens labels to it.

} // namespace rnnprof::gui
