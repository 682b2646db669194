#pragma once
// What a chart page lets the user choose (sequence length, batch size, the two backends of a
// speedup, the backend of the memory chart, the mode) and the choices the loaded results offer.
// Plain values so that the GUI pages and the headless renderer pick the same defaults.
#include "engine/config.h"
#include "gui/models/chart_data.h"
#include "profiling/result.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace rnnprof::gui {

// One side of the speedup pair the combo boxes offer: a backend (or fastest-cpu / fastest-gpu, see
// profiling/analysis/crossover.h) of one loaded result, or with result -1 of each result on its own (the
// pair is then compared inside every file, one series per file).
struct PairSideChoice {
    int result = -1;
    QString backend;
    QString label; // "cpu-onednn", "cpu-onednn @ laptop.json (laptop)", "fastest-gpu @ h100 (reference)"
    bool operator==(const PairSideChoice&) const = default;
};

struct ChartOptions {
    std::vector<int> seqLens; // ascending
    std::vector<int> batches; // ascending
    QStringList backends;     // registry order first, then unknown ids alphabetically
    QStringList measured;     // the backends with at least one ok point, in the same order
    std::vector<Mode> modes;  // inference before training
    // The sides a speedup pair may take: with one result its measured backends and the fastest of
    // each kind; with several, first the same inside every result ("… @ each file"), then those of
    // each result ("… @ label").
    std::vector<PairSideChoice> sides;
};

// How the breakdown draws its phase bars: milliseconds on a linear or a logarithmic axis (one slow
// backend then no longer flattens the others), or each bar as 100 % of its own iteration
// (chart_breakdown.h).
enum class PhaseScale { Linear, Log, PercentOfBar };

struct ChartSelection {
    int seqLen = 0;
    int batch = 0;
    QString baseline;        // a backend id, fastest-cpu or fastest-gpu
    int baselineResult = -1; // the result it comes from; -1: compare inside each result
    QString challenger;
    int challengerResult = -1;
    QString backend;
    Mode mode = Mode::Inference;
    PointRef selected; // drives the breakdown
    PhaseScale phaseScale = PhaseScale::Linear;
    bool operator==(const ChartSelection&) const = default;
};

// The shapes, backends and modes that appear in the results (their plans and their points).
[[nodiscard]] ChartOptions chartOptions(const std::vector<SweepResult>& results);
// Replaces every choice the options do not offer with a default: the smallest sequence length and
// batch size, and as the speedup pair the honest question, when the results hold an ok CPU point
// and an ok GPU point: the fastest CPU backend (of the first result with one) against the fastest
// GPU backend (of the last result with one). Otherwise, among the backends that measured
// something, the first as baseline and the last as challenger, inside each result.
void fitSelection(ChartSelection& selection, const ChartOptions& options);
// The index of the side (baseline when `challenger` is false) of `selection` in options.sides, or -1.
[[nodiscard]] int sideIndex(const ChartSelection& selection, const ChartOptions& options, bool challenger);
// "cpu-onednn", or "cpu-onednn @ laptop.json (laptop)" for a side of one of several results.
[[nodiscard]] QString sideLabel(const std::vector<SweepResult>& results, int resultIndex,
                                const QString& backend);

// "cpu-blas infer", prefixed by the result's label when several results are loaded.
[[nodiscard]] QString seriesName(const std::vector<SweepResult>& results, int resultIndex,
                                 const std::string& backend, Mode mode);
// " on NVIDIA A100-SXM4-40GB" for a point of a merged result (rnnprof merge) measured on another
// kind of machine (machineName()) than the result's own host; "" otherwise. By machine, not host
// name: the shards of one sweep ran on several identical nodes and are one series.
[[nodiscard]] QString machineSuffix(const SweepResult& result, const PointResult& point);
// A result's short label for overlays ("server.json (gpu-box)"), or "" when it is the only one.
[[nodiscard]] QString resultPrefix(const std::vector<SweepResult>& results, int resultIndex);
// Every number of a point a hover should explain: shape, median and spread, phases, throughput,
// memory, noise, numerics.
[[nodiscard]] QString pointTooltip(const std::vector<SweepResult>& results, const PointRef& ref);
// "cpu-blas train B=64 T=100"
[[nodiscard]] QString pointTitle(const PointResult& point);

} // namespace rnnprof::gui
