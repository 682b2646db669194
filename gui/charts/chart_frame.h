#pragma once
// What surrounds the plot of a QChart, drawn by rnnprof so that nothing is elided: the title,
// word-wrapped to the chart's width (QChart cuts it to "Crossover batch vs sequence l..."), the
// ChartLegend under the plot, and the tags of vertical markers written on the plot ("B≈4.9" where
// the crossover line meets the 1x line). The chart's margins are set so the plot leaves them room,
// and they are laid out again whenever the chart is resized: the window and every export (any
// size) use the same layout. All items are children of the chart and die with it.
#include "gui/charts/chart_legend.h"
#include "gui/charts/chart_theme.h"
#include "gui/models/chart_data.h"

#include <vector>

QT_BEGIN_NAMESPACE
class QChart;
class QGraphicsSimpleTextItem;
class QGraphicsTextItem;
class QXYSeries;
QT_END_NAMESPACE

namespace rnnprof::gui {

struct ChartFrame {
    QGraphicsTextItem* title = nullptr;
    ChartLegend* legend = nullptr;
    std::vector<QGraphicsSimpleTextItem*> tags; // one per marker with a tag, in order
};

// The height the title and legend take in a chart `width` wide, margins included: the view keeps
// at least this much plus room for the plot, so no legend entry is ever pushed out of sight.
[[nodiscard]] qreal frameHeightFor(const ChartFrame& frame, qreal width);

// `anchor` is a series attached to both axes (maps marker positions); null when there is none.
ChartFrame frameChart(QChart& chart, const QString& title, std::vector<LegendEntry> legend,
                      const std::vector<ChartMarker>& markers, QXYSeries* anchor, const ChartStyle& style);

} // namespace rnnprof::gui
