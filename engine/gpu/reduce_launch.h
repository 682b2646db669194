#pragma once
// Launches the deterministic two-pass sum of engine/kernels/reduce_kernels.h on a stream: *out =
// the sum of term(i) over [0, n), written on the device (no synchronisation). `partials` is device
// memory of kernels::kReducePartialsBytes. Explicitly instantiated in reduce_launch.cu for the
// terms the sessions use, so host-only translation units can call it. Throws Error when a launch
// fails. CUDA builds only.
#include "engine/kernels/reduce_kernels.h"

#include <cuda_runtime_api.h>

namespace rnnprof::gpu {

template <class F>
void launchSum(const F& term, kernels::Index n, float* partials, float* out, cudaStream_t stream);

} // namespace rnnprof::gpu
