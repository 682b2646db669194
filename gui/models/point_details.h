#pragma once
// Every recorded fact of one point as a small HTML table for the breakdown page: timing spread,
// phases, throughput, memory by category, numerics against cpu-reference, the session's notes and
// what CUPTI saw (or why it could not look).
#include "gui/models/chart_data.h"
#include "profiling/result.h"

#include <QString>

#include <vector>

namespace rnnprof::gui {

[[nodiscard]] QString pointDetailsHtml(const std::vector<SweepResult>& results, const PointRef& ref);

} // namespace rnnprof::gui
