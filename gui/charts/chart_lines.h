#pragma once
// The common reduction behind the time, throughput and memory charts: the ok points of every loaded
// result, grouped into one series per (result, backend, mode), with x and y taken by the caller.
#include "gui/charts/chart_data.h"
#include "profiling/result.h"

#include <functional>
#include <vector>

namespace rnnprof::gui {

struct LineSpec {
    std::function<bool(const PointResult&)> include; // besides status ok
    std::function<double(const PointResult&)> x;
    std::function<double(const PointResult&)> y;
};

// Series ordered by backend (registry order), then mode, then result; samples sorted by x. Each
// sample carries the point's tooltip and its noise flag.
[[nodiscard]] std::vector<ChartSeries> linesPerBackendAndMode(const std::vector<SweepResult>& results,
                                                              const LineSpec& spec);

// The series of a shape-filtered chart have nothing to show: say why ("no ok points at T=100 yet").
void noteWhenEmpty(ChartData& data, const QString& what);

} // namespace rnnprof::gui
