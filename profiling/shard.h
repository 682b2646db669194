#pragma once
// Splitting one sweep plan into N shards that separate processes run (`rnnprof sweep --shard I/N`,
// one array-job task each) and `rnnprof merge` joins again. The split depends on the plan and N
// only, so every task computes the same one without talking to the others:
//   - the unit of the split is a point of points(plan), except that gpu-cudnn's algorithms at one
//     (mode, shape) stay together (gpu-cudnn[best] is derived from all of them);
//   - units are balanced by estimated work (shardCost), greedily: the most expensive unit first,
//     each to the shard with the least work so far (ties: the plan's order, the lowest shard);
//   - within a shard the points keep the plan's order, so its backends stay interleaved.
// Every shard gets at least one unit: N may not exceed the number of units (shardProblem()).
#include "profiling/plan.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rnnprof {

// Shard `index` of `count`, 1-based as the command line spells it: "2/4".
struct Shard {
    int index = 1;
    int count = 1;
    bool operator==(const Shard&) const = default;
};

// "2/4"
[[nodiscard]] std::string shardText(const Shard& shard);
// "I/N" with whole numbers 1 <= I <= N; nullopt and `error` saying what is allowed otherwise.
[[nodiscard]] std::optional<Shard> parseShard(std::string_view text, std::string& error);

// The estimated work of a point: the FLOPs of one iteration (iterationFlops, the same for every
// backend), which is what its measured runs repeat. `plan` must be valid.
[[nodiscard]] double shardCost(const SweepPlan& plan, const PointSpec& point);
// How many units the plan's points make (see above): the most shards it can be split into.
[[nodiscard]] std::size_t shardUnitCount(const SweepPlan& plan);
// Why `shard` cannot split `plan` (a count above shardUnitCount()), or empty.
[[nodiscard]] std::string shardProblem(const SweepPlan& plan, const Shard& shard);
// For each point of points(plan), in order, the 0-based shard of `count` it belongs to.
// Requires 1 <= count <= shardUnitCount(plan).
[[nodiscard]] std::vector<int> shardAssignment(const SweepPlan& plan, int count);
// The points of `shard`, in the plan's order. Throws Error(InvalidConfig) with shardProblem().
[[nodiscard]] std::vector<PointSpec> shardPoints(const SweepPlan& plan, const Shard& shard);

} // namespace rnnprof
