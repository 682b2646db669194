#include "profiling/shard.h"

#include "engine/error.h"
#include "profiling/analysis/flops.h"

#include <algorithm>
#include <charconv>
#include <numeric>
#include <sstream>

namespace rnnprof {
namespace {

// The first point of each unit, as indices into points(plan); the last entry is the point count.
std::vector<std::size_t> unitStarts(const std::vector<PointSpec>& grid) {
    std::vector<std::size_t> starts;
    for (std::size_t i = 0; i < grid.size(); ++i) {
        const bool sameUnit = i > 0 && runsPerCudnnAlgo(grid[i].backend) &&
                              grid[i].backend == grid[i - 1].backend && grid[i].mode == grid[i - 1].mode &&
                              grid[i].shape == grid[i - 1].shape;
        if (!sameUnit) starts.push_back(i);
    }
    starts.push_back(grid.size());
    return starts;
}

bool parseWhole(std::string_view text, int& out) {
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, out);
    return !text.empty() && ec == std::errc() && ptr == end;
}

} // namespace

std::string shardText(const Shard& shard) {
    std::string text = std::to_string(shard.index);
    text += '/';
    text += std::to_string(shard.count);
    return text;
}

std::optional<Shard> parseShard(std::string_view text, std::string& error) {
    const auto slash = text.find('/');
    Shard shard;
    const bool numbers = slash != std::string_view::npos && parseWhole(text.substr(0, slash), shard.index) &&
                         parseWhole(text.substr(slash + 1), shard.count);
    if (numbers && shard.count >= 1 && shard.index >= 1 && shard.index <= shard.count) return shard;
    std::ostringstream message; // not string concatenation: GCC 12 warns falsely (-Wrestrict) on it
    message << "'" << text << (numbers ? "' names no shard" : "' is not a shard")
            << ": give I/N with whole numbers 1 <= I <= N, e.g. 1/4 for the first of four";
    error = message.str();
    return std::nullopt;
}

double shardCost(const SweepPlan& plan, const PointSpec& point) {
    return double(iterationFlops(plan.config, point.shape, point.mode));
}

std::size_t shardUnitCount(const SweepPlan& plan) {
    return unitStarts(points(plan)).size() - 1;
}

std::string shardProblem(const SweepPlan& plan, const Shard& shard) {
    const std::size_t units = shardUnitCount(plan);
    if (std::size_t(shard.count) <= units) return {};
    return shardText(shard) + ": the plan has " + std::to_string(units) +
           " points to share out (gpu-cudnn's algorithms of one shape count once), so it splits into at "
           "most " +
           std::to_string(units) + " shards";
}

std::vector<int> shardAssignment(const SweepPlan& plan, int count) {
    const std::vector<PointSpec> grid = points(plan);
    const std::vector<std::size_t> starts = unitStarts(grid);
    const std::size_t units = starts.size() - 1;
    std::vector<double> unitCost(units, 0.0);
    for (std::size_t u = 0; u < units; ++u)
        for (std::size_t i = starts[u]; i < starts[u + 1]; ++i)
            unitCost[u] += shardCost(plan, grid[i]);
    std::vector<std::size_t> order(units);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return unitCost[a] > unitCost[b]; });
    std::vector<double> load(std::size_t(std::max(count, 1)), 0.0);
    std::vector<int> shardOfUnit(units, 0);
    for (std::size_t u : order) {
        const auto lightest = std::min_element(load.begin(), load.end()); // the first of equals
        *lightest += unitCost[u];
        shardOfUnit[u] = int(lightest - load.begin());
    }
    std::vector<int> out(grid.size(), 0);
    for (std::size_t u = 0; u < units; ++u)
        for (std::size_t i = starts[u]; i < starts[u + 1]; ++i)
            out[i] = shardOfUnit[u];
    return out;
}

std::vector<PointSpec> shardPoints(const SweepPlan& plan, const Shard& shard) {
    if (const std::string problem = shardProblem(plan, shard); !problem.empty())
        throw Error(ErrorKind::InvalidConfig, problem);
    const std::vector<PointSpec> grid = points(plan);
    const std::vector<int> assignment = shardAssignment(plan, shard.count);
    std::vector<PointSpec> out;
    for (std::size_t i = 0; i < grid.size(); ++i)
        if (assignment[i] == shard.index - 1) out.push_back(grid[i]);
    return out;
}

} // namespace rnnprof
