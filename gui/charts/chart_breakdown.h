#pragma once
// The breakdown of the selected point: its phases (forward / backward / update) next to every other
// backend and mode measured at the same shape, and where the time of the point itself goes (the top
// GPU kernels when CUPTI traced it, else the sub-steps the engine marked).
#include "gui/charts/chart_data.h"
#include "gui/charts/chart_selection.h"

namespace rnnprof::gui {

// The point a breakdown shows when nothing is selected: the first ok point of the largest shape.
[[nodiscard]] PointRef defaultBreakdownPoint(const std::vector<SweepResult>& results);
// The selection's point when it is valid and ok, else defaultBreakdownPoint().
[[nodiscard]] PointRef breakdownPoint(const std::vector<SweepResult>& results,
                                      const ChartSelection& selection);

[[nodiscard]] ChartData phaseBreakdown(const std::vector<SweepResult>& results,
                                       const ChartSelection& selection);
// At most `top` bars; the rest is summed into "other".
[[nodiscard]] ChartData topSubsteps(const std::vector<SweepResult>& results, const ChartSelection& selection,
                                    int top = 10);

} // namespace rnnprof::gui
