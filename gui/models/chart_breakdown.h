#pragma once
// The breakdown of the selected point: its phases (forward / backward / update) next to every other
// backend and mode measured at the same shape, and where the time of the point itself goes (the top
// GPU kernels when CUPTI traced it, else the sub-steps the engine marked).
#include "gui/models/chart_data.h"
#include "gui/models/chart_selection.h"

namespace rnnprof::gui {

// The point a breakdown shows when nothing is selected: the first ok point of the largest shape.
[[nodiscard]] PointRef defaultBreakdownPoint(const std::vector<SweepResult>& results);
// The selection's point when it is valid and ok, else defaultBreakdownPoint().
[[nodiscard]] PointRef breakdownPoint(const std::vector<SweepResult>& results,
                                      const ChartSelection& selection);

// The longest bar label the breakdown hands to QtCharts, which would otherwise cut a label that does
// not fit down to "…": longer names (kernels, overlaid results) are elided in the middle and given
// in full in the bar's tooltip.
inline constexpr int kBreakdownLabelChars = 30;

// "ms per iteration (linear)", ...: what the breakdown page offers, in this order.
inline constexpr PhaseScale kPhaseScales[] = {PhaseScale::Linear, PhaseScale::Log, PhaseScale::PercentOfBar};
[[nodiscard]] QString phaseScaleLabel(PhaseScale scale);

// One horizontal stacked bar per backend (and mode, and result) at the selected point's shape, the
// first on top, drawn as selection.phaseScale says.
[[nodiscard]] ChartData phaseBreakdown(const std::vector<SweepResult>& results,
                                       const ChartSelection& selection);
// At most `top` bars; the rest is summed into "other".
[[nodiscard]] ChartData topSubsteps(const std::vector<SweepResult>& results, const ChartSelection& selection,
                                    int top = 10);

} // namespace rnnprof::gui
