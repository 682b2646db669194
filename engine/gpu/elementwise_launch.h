#pragma once
// Launches one element-wise functor of engine/kernels/step_kernels.h over [0, n) on a stream,
// through the single generic __global__ wrapper in elementwise_launch.cu (one thread per index,
// grid-stride). Explicitly instantiated there for every functor gpu-generic and gpu-cudnn use, so
// host-only translation units can call it. Throws Error when the launch fails. CUDA builds only.
#include "engine/kernels/step_kernels.h"

#include <cuda_runtime_api.h>

namespace rnnprof::gpu {

inline constexpr int kElementwiseBlockSize = 256;

template <class F>
void launchElementwise(const F& functor, kernels::Index n, cudaStream_t stream);

} // namespace rnnprof::gpu
