#pragma once
// Time per iteration (median) against batch size at one sequence length, and against sequence
// length at one batch size: one series per backend x mode (x result when overlaid), log-log axes.
#include "gui/models/chart_data.h"
#include "gui/models/chart_selection.h"

namespace rnnprof::gui {

[[nodiscard]] ChartData timeVsBatch(const std::vector<SweepResult>& results, const ChartSelection& selection);
[[nodiscard]] ChartData timeVsSeqLen(const std::vector<SweepResult>& results,
                                     const ChartSelection& selection);
// Sequences per second against batch size at one sequence length.
[[nodiscard]] ChartData throughputVsBatch(const std::vector<SweepResult>& results,
                                          const ChartSelection& selection);

} // namespace rnnprof::gui
