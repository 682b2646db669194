#pragma once
// The check of the cost model on a set of GPU result files, as the tables a user reads before
// trusting a prediction: per GPU family (backend, mode, CUDA graphs) the leave-one-model-out errors
// (each model's points predicted from a fit on the other models') with the share inside the band
// their prediction carried, and the coefficients fitted on all points with their physical limits.
// `rnnprof predict --check` prints it; the user guide's validation table is its output on the
// shipped H100 references.
#include "profiling/analysis/cost_model.h"

#include <string>
#include <vector>

namespace rnnprof {

// Every GPU family with an ok point in the results, by backend, then mode, then CUDA graphs.
[[nodiscard]] std::vector<CostFamily> gpuFamilies(const std::vector<NamedResult>& from);

struct FamilyCheck {
    CostFamily family;
    std::optional<BackendFit> fit; // none: `whyNot` says why
    std::string whyNot;
};
[[nodiscard]] std::vector<FamilyCheck> checkFamilies(const std::vector<NamedResult>& from);

// The two tables in Markdown: errors per family and over all, then coefficients per family.
[[nodiscard]] std::string predictionCheckText(const std::vector<FamilyCheck>& checks);

} // namespace rnnprof
