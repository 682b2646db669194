#pragma once
// Moving a problem into gpu-generic's buffers and the results out, in the canonical layouts,
// through caller-supplied copy functions (cudaMemcpy on the device, memcpy in the host emulation
// of the tests), so both run the same code. Compiled in every build (no CUDA).
#include "engine/gpu/generic_buffers.h"
#include "engine/problem.h"

#include <cstddef>
#include <functional>

namespace rnnprof::gpu {

// copy(destination, source, float count)
using CopyFloats = std::function<void(float*, const float*, std::size_t)>;

// Parameters, x, h0, c0, target, dropout masks and the gradient overrides. Expects the arena to
// be zeroed before (biases of a bias-free model read zeroBias).
void uploadGenericProblem(const GenericDims& dims, const GenericBuffers& buffers,
                          const ResolvedProblem<float>& host, const ProblemOverrides& overrides,
                          const CopyFloats& toDevice);
// y, h_n, c_n; in training the loss (from ||dy||), the gradients (dx, dh0, dc0 only with
// inputGradients) and the parameters after the update.
[[nodiscard]] RunOutputs downloadGenericOutputs(const GenericDims& dims, const GenericBuffers& buffers,
                                                const CopyFloats& toHost);

} // namespace rnnprof::gpu
