#pragma once
// What a user changed on a chart view (series hidden from its legend, the zoom, log or linear
// axes, error bars) as a plain value: ChartView keeps one, and exports draw their off-screen views
// with the window's, so that an exported chart is the chart the user was looking at.
#include <QPointF>
#include <QStringList>

#include <optional>

namespace rnnprof::gui {

// The axis ranges shown: x (min, max) and y (min, max).
struct ChartRanges {
    QPointF x;
    QPointF y;
    bool operator==(const ChartRanges&) const = default;
};

struct ChartViewState {
    QStringList hiddenSeries;        // names of the series (lines) or bar sets (bars) the user hid
    std::optional<ChartRanges> zoom; // line charts: the zoomed ranges
    std::optional<bool> logX;        // overrides of the chart's own choice; nullopt: its choice
    std::optional<bool> logY;
    bool errorBars = false; // line charts: p10-p90 error bars
    bool operator==(const ChartViewState&) const = default;
};

} // namespace rnnprof::gui
