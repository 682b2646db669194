#pragma once
// Memory by category (weights, gradients, activations or reserve space, workspace, inputs/outputs,
// total) against batch size, for one backend at one sequence length.
#include "gui/models/chart_data.h"
#include "gui/models/chart_selection.h"

namespace rnnprof::gui {

[[nodiscard]] ChartData memoryVsBatch(const std::vector<SweepResult>& results,
                                      const ChartSelection& selection);

} // namespace rnnprof::gui
