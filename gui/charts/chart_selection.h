#pragma once
// What a chart page lets the user choose (sequence length, batch size, the two backends of a
// speedup, the backend of the memory chart, the mode) and the choices the loaded results offer.
// Plain values so that the GUI pages and the headless renderer pick the same defaults.
#include "engine/config.h"
#include "gui/charts/chart_data.h"
#include "profiling/result.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace rnnprof::gui {

struct ChartOptions {
    std::vector<int> seqLens; // ascending
    std::vector<int> batches; // ascending
    QStringList backends;     // registry order first, then unknown ids alphabetically
    QStringList measured;     // the backends with at least one ok point, in the same order
    std::vector<Mode> modes;  // inference before training
};

struct ChartSelection {
    int seqLen = 0;
    int batch = 0;
    QString baseline;
    QString challenger;
    QString backend;
    Mode mode = Mode::Inference;
    PointRef selected; // drives the breakdown
    bool operator==(const ChartSelection&) const = default;
};

// The shapes, backends and modes that appear in the results (their plans and their points).
[[nodiscard]] ChartOptions chartOptions(const std::vector<SweepResult>& results);
// Replaces every choice the options do not offer with a default: the smallest sequence length and
// batch size, and among the backends that measured something the first as baseline and the last
// (GPU backends come last) as challenger.
void fitSelection(ChartSelection& selection, const ChartOptions& options);

// "cpu-blas infer", prefixed by the result's label when several results are loaded.
[[nodiscard]] QString seriesName(const std::vector<SweepResult>& results, int resultIndex,
                                 const std::string& backend, Mode mode);
// A result's short label for overlays ("server.json (gpu-box)"), or "" when it is the only one.
[[nodiscard]] QString resultPrefix(const std::vector<SweepResult>& results, int resultIndex);
// Every number of a point a hover should explain: shape, median and spread, phases, throughput,
// memory, noise, numerics.
[[nodiscard]] QString pointTooltip(const std::vector<SweepResult>& results, const PointRef& ref);
// "cpu-blas train B=64 T=100"
[[nodiscard]] QString pointTitle(const PointResult& point);

} // namespace rnnprof::gui
