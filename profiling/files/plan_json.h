#pragma once
// The one JSON spelling of a sweep plan, shared by presets, `--config FILE.json` and the plan
// recorded in result files and journals (docs/user-guide.md "Presets and config files"). Internal to
// profiling/: the public entry points are planFromJson()/planToJson() in presets.h.
#include "profiling/files/json_reader.h"
#include "profiling/plan.h"

namespace rnnprof::jsonio {

[[nodiscard]] Json planToJsonValue(const SweepPlan& plan);

// Reads the document's structure (unknown keys, types, enum spellings) into `plan`, reporting
// every problem under `path`; keys that are absent keep the plan's values. No range checks: a
// result file records what was run, wherever it was run.
void readPlan(const Json& value, const std::string& path, Problems& problems, SweepPlan& plan);

// Where two plans differ, one entry per key path in file spelling, both values:
// "sweep.batch [1,2] vs [1,2,4]". Empty when the files would spell them alike.
[[nodiscard]] std::vector<std::string> planDifferences(const SweepPlan& a, const SweepPlan& b);

// "batch" -> "sweep.batch", "hidden_size" -> "model.hidden_size": where validate()'s field lives.
[[nodiscard]] std::string planKeyPath(const std::string& field);

} // namespace rnnprof::jsonio
