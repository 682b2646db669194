#include "profiling/analysis/crossover_search.h"

#include <cmath>

namespace rnnprof {
namespace {

bool challengerFaster(const MatchedPoint& p) {
    return p.challenger.ms < p.baseline.ms;
}

std::string range(const std::vector<int>& grid, std::size_t i, std::size_t j) {
    return "B=" + std::to_string(grid[i]) + ".." + std::to_string(grid[j]);
}

} // namespace

CrossoverSearch searchCrossover(const std::vector<int>& grid, Mode mode, int seqLen,
                                const MeasurePair& measure) {
    CrossoverSearch s;
    s.gridSize = int(grid.size());
    auto at = [&](std::size_t index) -> std::optional<MatchedPoint> {
        std::string why;
        auto p = measure(grid[index], why);
        if (!p) {
            s.failure = "B=" + std::to_string(grid[index]) + ": " + why;
            return std::nullopt;
        }
        p->mode = mode;
        p->seqLen = seqLen;
        p->batch = grid[index];
        s.measured.push_back(*p);
        return p;
    };
    if (grid.empty()) {
        s.failure = "no batch size to measure";
        return s;
    }
    std::size_t i = 0, j = grid.size() - 1;
    const auto low = at(i);
    if (!low) return s;
    if (j == i) {
        s.stoppedBecause = "one batch size in the grid";
        return s;
    }
    const auto high = at(j);
    if (!high) return s;
    const bool lowFaster = challengerFaster(*low);
    if (lowFaster == challengerFaster(*high)) {
        s.stoppedBecause = std::string("the challenger is ") + (lowFaster ? "faster" : "not faster") +
                           " at both ends (" + range(grid, i, j) +
                           "); a crossing back and forth between them would need a full sweep";
        return s;
    }
    while (j - i > 1) {
        const std::size_t m = (i + j) / 2; // the grid is log-spaced: the middle index bisects log2(B)
        const auto mid = at(m);
        if (!mid) return s;
        if (ratioStraddlesOne(*mid)) {
            s.stoppedBecause = "the runs' spread at B=" + std::to_string(grid[m]) +
                               " reaches equal time: measuring more would not narrow the interval";
            return s;
        }
        (challengerFaster(*mid) == lowFaster ? i : j) = m;
    }
    s.stoppedBecause = "bracket one grid step wide (" + range(grid, i, j) + ")";
    return s;
}

std::string searchSummary(const CrossoverSearch& search, const std::vector<int>& grid) {
    std::string out = "measured " + std::to_string(search.measured.size()) + " of " +
                      std::to_string(search.gridSize) + " batch sizes";
    if (!grid.empty()) out += " of the grid (" + range(grid, 0, grid.size() - 1) + ")";
    if (!search.failure.empty()) return out + "; stopped: " + search.failure;
    return out + ": " + search.stoppedBecause;
}

} // namespace rnnprof
