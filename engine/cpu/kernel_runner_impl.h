// Included once by each kernel_runner_<isa>.cpp, inside that file's own namespace, with that
// file's compiler flags. The loops live in an anonymous namespace so that the three compilations
// never merge at link time (they differ in instruction set). No include guard on purpose.
#include "engine/cpu/kernel_runner.h"

namespace {

template <class K>
void rowsLoop(const K& kernel, rnnprof::cpu::Index b0, rnnprof::cpu::Index b1, rnnprof::cpu::Index j0,
              rnnprof::cpu::Index j1) {
    for (rnnprof::cpu::Index b = b0; b < b1; ++b) {
#pragma omp simd
        for (rnnprof::cpu::Index j = j0; j < j1; ++j)
            kernel.at(b, j);
    }
}

template <class K>
void runLocal(const K& kernelRef, rnnprof::cpu::Index b0, rnnprof::cpu::Index b1, rnnprof::cpu::Index j0,
              rnnprof::cpu::Index j1, int threads) {
    // A local copy: its pointers are provably loop-invariant.
    const K kernel = kernelRef;
    if (threads > 1 && b1 - b0 > 1 && (b1 - b0) * (j1 - j0) >= rnnprof::cpu::kParallelElements) {
#pragma omp parallel for num_threads(threads) schedule(static)
        for (rnnprof::cpu::Index b = b0; b < b1; ++b)
            rowsLoop(kernel, b, b + 1, j0, j1);
        return;
    }
    rowsLoop(kernel, b0, b1, j0, j1);
}

} // namespace

template <class K>
void runKernel(const K& kernel, Index b0, Index b1, Index j0, Index j1, int threads) {
    runLocal(kernel, b0, b1, j0, j1, threads);
}

#define RNNPROF_INSTANTIATE_RUNNER(...)                                                                      \
    template void runKernel<__VA_ARGS__>(const __VA_ARGS__&, Index, Index, Index, Index, int);
RNNPROF_CPU_KERNELS(RNNPROF_INSTANTIATE_RUNNER)
#undef RNNPROF_INSTANTIATE_RUNNER
