#pragma once
// Finding a crossover instead of sweeping for it: on a grid of batch sizes (powers of two), measure
// the two ends, and where the challenger is faster at one and not at the other, bisect in log2(B)
// — each step measures the middle of the bracket and keeps the half where the sign changes —
// until the bracket is one grid step wide, or the ratio's band (crossover.h) at the middle
// reaches equal time, so that measuring more could not narrow it. The measurements come from a
// callback, so the rule is tested on known curves and `rnnprof crossover` measures for real.
#include "profiling/analysis/crossover.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rnnprof {

// Both sides at one batch size; nullopt when either has no usable time there (`why` says which).
using MeasurePair = std::function<std::optional<MatchedPoint>(int batch, std::string& why)>;

struct CrossoverSearch {
    std::vector<MatchedPoint> measured; // in the order measured
    int gridSize = 0;                   // the batch sizes a sweep of the grid would have measured
    std::string stoppedBecause;         // "bracket one step wide (B=4..8)", ...
    std::string failure;                // not empty: the search could not go on (a side failed)
};

// `grid`: ascending batch sizes, at least one.
[[nodiscard]] CrossoverSearch searchCrossover(const std::vector<int>& grid, Mode mode, int seqLen,
                                              const MeasurePair& measure);

// "measured 4 of 11 batch sizes of the grid (B=1..1024): bracket one step wide (B=4..8)"
[[nodiscard]] std::string searchSummary(const CrossoverSearch& search, const std::vector<int>& grid);

} // namespace rnnprof
