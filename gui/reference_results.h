#pragma once
// The reference GPU results built into the application (resources/reference.qrc, installed as well
// to share/rnnprof/reference/): every preset measured by rnnprof on an NVIDIA H100 80GB HBM3 with a
// 16-core Xeon host, CPU and GPU backends, kept unchanged (host, date and versions as recorded).
// They let a machine without a GPU set its CPU sweep against a real GPU ("Compare with Reference
// GPU"). Loaded results are labelled as reference data from another machine.
#include "profiling/plan.h"
#include "profiling/result.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace rnnprof::gui {

// The label of a loaded reference result, in legends, combo boxes and tooltips.
[[nodiscard]] QString referenceLabel();
// ":/reference/h100-quick-start.json", ... sorted by name.
[[nodiscard]] QStringList referenceResultFiles();
// Loads one of referenceResultFiles() with the result file reader; throws Error when it cannot.
[[nodiscard]] SweepResult loadReferenceResult(const QString& resource);
// The reference of the same model as `plan` (profiling's modelDifferences: the seed may differ):
// the file of the plan's preset ("h100-<preset>.json") when it ran that model, else the first other
// untraced one that did. None: `why` says so, naming what the preset's reference ran differently.
[[nodiscard]] std::optional<SweepResult> referenceFor(const SweepPlan& plan, QString& why);

// Copies the kernel profile and timeline of `traced`'s points into the untraced GPU points of
// `reference` with the same backend, mode and shape (a warning on each says where they came from);
// the headline times stay `reference`'s. referenceFor() does it for a reference whose
// "-traced.json" sibling exists.
void attachTracedKernels(SweepResult& reference, const SweepResult& traced, const std::string& tracedName);

// ---- Predicted GPU times for what the references did not measure ----
// The label of a predicted result in legends and combo boxes.
[[nodiscard]] QString predictedReferenceLabel();
// Whether `reference` measured every (mode, sequence length, batch) of `plan` on a GPU backend.
[[nodiscard]] bool referenceCoversGrid(const SweepPlan& plan, const SweepResult& reference);
// The GPU times of `plan`'s model and grid predicted by profiling's cost model (predictResult),
// fitted on every untraced reference (all models and cells of the one GPU pooled): every point status
// predicted, labelled with the files and the GPU. Only backends that fit in every mode of the plan. None:
// `why` says why.
[[nodiscard]] std::optional<SweepResult> predictedReferenceFor(const SweepPlan& plan, QString& why);

} // namespace rnnprof::gui
