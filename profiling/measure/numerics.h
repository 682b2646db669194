#pragma once
// The numeric check of a point: the backend runs one iteration on a fresh session and its outputs
// (and, in training, its loss, every parameter gradient and the parameters after the SGD step)
// are compared with cpu-reference in double on the same weights and input. Above a work limit the
// check runs on a smaller shape of the same model (fewer batch rows, then fewer steps) and says so.
#include "engine/backend.h"
#include "engine/reference/reference_rnn.h"
#include "profiling/result.h"

namespace rnnprof {

// Multiply-adds of the reference for one iteration (training counts forward + backward).
[[nodiscard]] double referenceWork(const RnnConfig& config, const Shape& shape, Mode mode);
// `shape`, or the largest smaller shape (batch first, then sequence length) within `maxWork`.
[[nodiscard]] Shape numericsShape(const RnnConfig& config, const Shape& shape, Mode mode, double maxWork);

// Errors of `got` against `ref`: max absolute error, and the worst norm-wise relative error
// max|x - ref| / max|ref| over the compared tensors, naming that tensor.
[[nodiscard]] Numerics compareOutputs(const RunOutputs& got, const reference::Iteration<double>& ref,
                                      Mode mode, CellType cell);

// Never throws: a failure is reported in the note with checked = false.
[[nodiscard]] Numerics checkNumerics(const Backend& backend, const Problem& problem, double maxWork);

} // namespace rnnprof
