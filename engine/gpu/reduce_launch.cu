#include "engine/gpu/cuda_check.h"
#include "engine/gpu/reduce_launch.h"

namespace rnnprof::gpu {

// One block's sum of term over its grid-stride share, written to out[blockIdx.x]: the pieces of
// kernels::sumInDeviceOrder(), with a barrier between the rounds of the tree. Named (not in an
// anonymous namespace) so that profiles show "rnnprof::gpu::blockSum<...SquaredErrorTerm...>".
template <class F>
__global__ void __launch_bounds__(kernels::kReduceThreads) blockSum(F term, kernels::Index n, float* out) {
    __shared__ float shared[kernels::kReduceThreads];
    const kernels::Index stride = kernels::Index(gridDim.x) * kernels::kReduceThreads;
    const kernels::Index first = kernels::Index(blockIdx.x) * kernels::kReduceThreads + threadIdx.x;
    shared[threadIdx.x] = kernels::stridedSum<float>(term, n, first, stride);
    __syncthreads();
    for (kernels::Index half = kernels::kReduceThreads / 2; half > 0; half /= 2) {
        if (kernels::Index(threadIdx.x) < half) kernels::treeStep(shared, kernels::Index(threadIdx.x), half);
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = shared[0];
}

template <class F>
void launchSum(const F& term, kernels::Index n, float* partials, float* out, cudaStream_t stream) {
    const int blocks = kernels::reduceBlocks(n);
    blockSum<F><<<unsigned(blocks), kernels::kReduceThreads, 0, stream>>>(term, n, partials);
    checkCuda(cudaGetLastError(), "reduction kernel launch (partial sums)");
    blockSum<kernels::ValueTerm<float>><<<1, kernels::kReduceThreads, 0, stream>>>(
        kernels::ValueTerm<float>{partials}, kernels::Index(blocks), out);
    checkCuda(cudaGetLastError(), "reduction kernel launch (final sum)");
}

template void launchSum(const kernels::SquaredErrorTerm<float>&, kernels::Index, float*, float*,
                        cudaStream_t);
template void launchSum(const kernels::ValueTerm<float>&, kernels::Index, float*, float*, cudaStream_t);

} // namespace rnnprof::gpu
