#pragma once
// The results table's filter applied to the charts: a chart shows only the points the table
// shows. Applied to line charts' samples (a series with none left disappears, so filtering by a
// backend's name leaves that backend), and a crossover marker goes with its series; guides, the
// markers of series that stay (crossovers are computed on every point) and bar charts, which show
// one selected point, are left as they are.
#include "gui/models/chart_data.h"

#include <vector>

namespace rnnprof::gui {

void keepShownPoints(ChartData& data, const std::vector<PointRef>& shown);

} // namespace rnnprof::gui
