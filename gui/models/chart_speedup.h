#pragma once
// Where one backend overtakes another. The speedup chart plots baseline median / challenger median
// against batch size at one sequence length (per mode and result), with the 1x line and the
// crossover batch marked; the crossover chart plots the crossover batch against sequence length.
// Both read profiling's crossover functions; nothing is re-derived here.
#include "gui/models/chart_data.h"
#include "gui/models/chart_selection.h"

namespace rnnprof::gui {

[[nodiscard]] ChartData speedupVsBatch(const std::vector<SweepResult>& results,
                                       const ChartSelection& selection);
[[nodiscard]] ChartData crossoverVsSeqLen(const std::vector<SweepResult>& results,
                                          const ChartSelection& selection);

} // namespace rnnprof::gui
