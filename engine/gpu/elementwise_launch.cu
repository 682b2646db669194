#include "engine/gpu/cuda_check.h"
#include "engine/gpu/elementwise_launch.h"

#include <algorithm>

namespace rnnprof::gpu {

// The one kernel of gpu-generic: the functor's body at every index. Named (not in an anonymous
// namespace) so that profiles show "rnnprof::gpu::elementwise<...LstmForwardKernel...>".
template <class F>
__global__ void __launch_bounds__(kElementwiseBlockSize) elementwise(F functor, kernels::Index n) {
    const kernels::Index stride = kernels::Index(gridDim.x) * blockDim.x;
    for (kernels::Index i = kernels::Index(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
        functor(i);
}

template <class F>
void launchElementwise(const F& functor, kernels::Index n, cudaStream_t stream) {
    if (n <= 0) return;
    constexpr kernels::Index maxBlocks = kernels::Index(1) << 20; // the grid-stride loop covers the rest
    const kernels::Index blocks =
        std::min((n + kElementwiseBlockSize - 1) / kElementwiseBlockSize, maxBlocks);
    elementwise<F><<<unsigned(blocks), kElementwiseBlockSize, 0, stream>>>(functor, n);
    checkCuda(cudaGetLastError(), "element-wise kernel launch");
}

#define RNNPROF_CELL_KERNELS(ACTS)                                                                           \
    template void launchElementwise(const kernels::LstmForwardKernel<ACTS, float>&, kernels::Index,          \
                                    cudaStream_t);                                                           \
    template void launchElementwise(const kernels::GruForwardKernel<ACTS, float>&, kernels::Index,           \
                                    cudaStream_t);                                                           \
    template void launchElementwise(const kernels::GruResetBeforeGatesKernel<ACTS, float>&, kernels::Index,  \
                                    cudaStream_t);                                                           \
    template void launchElementwise(const kernels::GruResetBeforeOutputKernel<ACTS, float>&, kernels::Index, \
                                    cudaStream_t);                                                           \
    template void launchElementwise(const kernels::LstmBackwardKernel<ACTS, float>&, kernels::Index,         \
                                    cudaStream_t);                                                           \
    template void launchElementwise(const kernels::GruBackwardKernel<ACTS, float>&, kernels::Index,          \
                                    cudaStream_t);                                                           \
    template void launchElementwise(const kernels::GruResetBeforeBackwardKernel<ACTS, float>&,               \
                                    kernels::Index, cudaStream_t);                                           \
    template void launchElementwise(const kernels::GruResetBeforeResetKernel<ACTS, float>&, kernels::Index,  \
                                    cudaStream_t);

using TanhSigmoid = gates::CellActs<gates::Act::Tanh, gates::Act::Sigmoid>;
using TanhHard = gates::CellActs<gates::Act::Tanh, gates::Act::HardSigmoid>;
using ReluSigmoid = gates::CellActs<gates::Act::Relu, gates::Act::Sigmoid>;
using ReluHard = gates::CellActs<gates::Act::Relu, gates::Act::HardSigmoid>;
RNNPROF_CELL_KERNELS(TanhSigmoid)
RNNPROF_CELL_KERNELS(TanhHard)
RNNPROF_CELL_KERNELS(ReluSigmoid)
RNNPROF_CELL_KERNELS(ReluHard)
#undef RNNPROF_CELL_KERNELS

template void launchElementwise(const kernels::InitialStateGradKernel<float>&, kernels::Index, cudaStream_t);
template void launchElementwise(const kernels::MaskKernel<float>&, kernels::Index, cudaStream_t);
template void launchElementwise(const kernels::SgdKernel<float>&, kernels::Index, cudaStream_t);
template void launchElementwise(const kernels::MseGradKernel<float>&, kernels::Index, cudaStream_t);

} // namespace rnnprof::gpu
