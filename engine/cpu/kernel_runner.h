#pragma once
// Runs a per-element kernel (engine/kernels/step_kernels.h) on the CPU with the widest vector ISA
// this CPU has: the kernel loops are compiled three times (SSE2, AVX2+FMA, AVX-512) and chosen at
// run time, because the gate math vectorised on AVX-512 is about 7x faster than on the x86-64
// baseline. Only the kernels of kernel_list.h can be run.
#include "engine/cpu/kernel_list.h"

#include <cstdint>

namespace rnnprof::cpu {

enum class Isa { Sse2, Avx2, Avx512 };
// The widest supported ISA; RNNPROF_CPU_ISA=sse2|avx2|avx512 narrows it (for tests and
// comparisons; a value the CPU cannot run is ignored).
[[nodiscard]] Isa kernelIsa();
[[nodiscard]] const char* isaName(Isa isa);

using Index = std::int64_t;

#define RNNPROF_DECLARE_RUNNER(ns)                                                                           \
    namespace ns {                                                                                           \
    template <class K>                                                                                       \
    void runKernel(const K& kernel, Index rows, Index j0, Index j1, int threads);                            \
    }
RNNPROF_DECLARE_RUNNER(isa_sse2)
RNNPROF_DECLARE_RUNNER(isa_avx2)
RNNPROF_DECLARE_RUNNER(isa_avx512)
#undef RNNPROF_DECLARE_RUNNER

// kernel.at(b, j) for 0 <= b < rows and j0 <= j < j1; rows split over `threads` OpenMP threads
// when > 1 and the work is large (never pass > 1 from inside a parallel region).
template <class K>
void runKernel(const K& kernel, Index rows, Index j0, Index j1, int threads) {
    switch (kernelIsa()) {
    case Isa::Avx512:
        return isa_avx512::runKernel(kernel, rows, j0, j1, threads);
    case Isa::Avx2:
        return isa_avx2::runKernel(kernel, rows, j0, j1, threads);
    default:
        return isa_sse2::runKernel(kernel, rows, j0, j1, threads);
    }
}

} // namespace rnnprof::cpu
