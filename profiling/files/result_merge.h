#pragma once
// Joining result files of one plan (`rnnprof merge`): the shards of a split sweep (shard.h), and
// whole sweeps of the same plan measured on different machines, into one result whose points keep
// the host that measured them (PointResult::hostIndex). The rules live here and nowhere else:
//   - every input ran the same plan (model, grid, settings) with the same schema;
//   - the points measured on one kind of machine (machineName()) form one run: one whole result,
//     or every shard 1..N of one split, each once; a run holds each point of the plan exactly once
//     (a cancelled point counts as missing);
//   - anything else is refused, naming what differs, which shard or which point.
// Not for results of different plans: put those side by side in the desktop application instead.
#include "profiling/analysis/cost_model.h"
#include "profiling/result.h"

#include <string>
#include <vector>

namespace rnnprof {

// The merged result: the first input's header (its host is the file's host, the others go to
// otherHosts), the earliest created_at, no shard, complete when every input was; the points run by
// run in the order the inputs introduce the machines, each run in the plan's order. On a refusal
// `problems` gets one entry per reason (the input names in them) and the result is empty.
[[nodiscard]] SweepResult mergeResults(const std::vector<NamedResult>& inputs,
                                       std::vector<std::string>& problems);
// The same for results loaded for the merge only (`names[i]` naming `loaded[i]`): their points are
// moved into the merged result, not copied, and `loaded` keeps only the headers.
[[nodiscard]] SweepResult mergeResults(std::vector<SweepResult>& loaded,
                                       const std::vector<std::string>& names,
                                       std::vector<std::string>& problems);

} // namespace rnnprof
