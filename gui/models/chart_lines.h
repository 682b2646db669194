#pragma once
// The common reduction behind the time, throughput and memory charts: the ok points of every loaded
// result, grouped into one series per (result, backend, mode), with x and y taken by the caller.
#include "gui/models/chart_data.h"
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

// The predicted points (status predicted) of every loaded result, one series per (result, backend,
// mode) as above, named "<backend> <mode>, predicted from <file> (<GPU>) — not measured", dashed,
// each sample with its band. Appended to `data`, with a note per series whose fit is unreliable
// (wrong by more than 30 % on more than a fifth of its leave-one-out points).
void addPredictedLines(const std::vector<SweepResult>& results, const LineSpec& spec, ChartData& data);

// "<series>: fitted on 14 points; leave-one-out median error 12.0 %, 86 % within ±30 %", and when
// the fit is unreliable "— UNRELIABLE: wrong by more than ±30 % on more than a fifth of the points".
[[nodiscard]] QString predictionNote(const QString& seriesName, const Prediction& prediction);

// "predicted from <file> (<GPU>) — not measured" for a legend: a fit on several files names the
// first and counts the rest ("h100-bilstm-relu.json and 4 more"); the note lists them all.
[[nodiscard]] QString predictedLegendText(const Prediction& prediction);

// The series of a shape-filtered chart have nothing to show: say why ("no ok points at T=100 yet").
void noteWhenEmpty(ChartData& data, const QString& what);

} // namespace rnnprof::gui
