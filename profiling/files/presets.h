#pragma once
// Presets: named sweep plans shipped in resources/presets/*.json and compiled into the binary.
// A preset file and a `--config FILE.json` share one schema (see docs/user-guide.md "Presets and config
// files").
#include "profiling/plan.h"

#include <string>
#include <string_view>
#include <vector>

namespace rnnprof {

struct Preset {
    std::string name;        // file name without .json, e.g. "cudnn-lstm-vs-lstm"
    std::string title;       // one line
    std::string description; // what it reproduces and what to look at
    SweepPlan plan;
};

[[nodiscard]] const std::vector<Preset>& builtinPresets();
[[nodiscard]] const Preset* findPreset(std::string_view name);
[[nodiscard]] std::string defaultPresetName();

// Parses a plan document; every unknown key, wrong type or out-of-range value is an error naming
// the key (Error(InvalidInput), all problems in one message). Missing keys keep their defaults.
[[nodiscard]] SweepPlan planFromJson(std::string_view text, const std::string& source);
[[nodiscard]] std::string planToJson(const SweepPlan& plan);

} // namespace rnnprof
