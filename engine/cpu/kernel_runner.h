#pragma once
// Runs a per-element kernel (engine/kernels/step_kernels.h) on the CPU with the widest vector ISA
// this CPU has: the kernel loops are compiled three times (SSE2, AVX2+FMA, AVX-512) and chosen at
// run time, because the gate math vectorised on AVX-512 is about 7x faster than on the x86-64
// baseline. Only the kernels of kernel_list.h can be run.
#include "engine/cpu/kernel_list.h"

#include <cstdint>

namespace rnnprof::cpu {

// This header is compiled once per ISA (kernel_runner_<isa>.cpp): plain types only, so that no
// inline library code is compiled with wider instructions than the CPU may have.
enum class Isa { Sse2, Avx2, Avx512 }; // in order of width
// The widest ISA this CPU runs the kernels with (AVX2 with FMA; AVX-512 F, BW, DQ and VL).
[[nodiscard]] Isa widestIsa();
// The ISA the kernels run with, chosen once per process: widestIsa(), unless the environment
// variable RNNPROF_CPU_ISA=sse2|avx2|avx512 names a narrower one (to test or compare the kernels
// of each ISA on one machine). A wider ISA than the CPU has is capped to widestIsa() and an unknown
// name is ignored, not refused: the variable only ever narrows, so a script that sets it still
// runs everywhere. kernelIsaNote() says what the variable did.
[[nodiscard]] Isa kernelIsa();
// "" without RNNPROF_CPU_ISA; otherwise "set by RNNPROF_CPU_ISA=sse2", or why the variable was
// capped or ignored. cpu-blas sessions add it to their notes.
[[nodiscard]] const char* kernelIsaNote();
// The ISA named "sse2", "avx2" or "avx512" (the names RNNPROF_CPU_ISA takes); false for others.
[[nodiscard]] bool parseIsa(const char* name, Isa& isa);
[[nodiscard]] const char* isaName(Isa isa); // "SSE2", "AVX2", "AVX-512"

using Index = std::int64_t;
// One core's L1 data cache in bytes, as the system reports it (sysconf), or kDefaultL1DataBytes
// where it reports none. Whether inference above kFusedMaxBatch runs the fused step depends on it
// (fusedBlockInL1(), fused_step.h).
inline constexpr Index kDefaultL1DataBytes = 32 * 1024;
[[nodiscard]] Index l1DataCacheBytes();
// One core's L2 cache in bytes (sysconf), or kDefaultL2Bytes where the system reports none. Where
// the input projection runs in chunks of steps depends on it (InputProjection::PackedChunks).
inline constexpr Index kDefaultL2Bytes = 1024 * 1024;
[[nodiscard]] Index l2CacheBytes();

// Below this many elements a parallel region costs more than it saves (the kernels' loops here and
// the session's other element-wise loops, row_loops.h).
inline constexpr Index kParallelElements = 1 << 14;

#define RNNPROF_DECLARE_RUNNER(ns)                                                                           \
    namespace ns {                                                                                           \
    template <class K>                                                                                       \
    void runKernel(const K& kernel, Index b0, Index b1, Index j0, Index j1, int threads);                    \
    }
RNNPROF_DECLARE_RUNNER(isa_sse2)
RNNPROF_DECLARE_RUNNER(isa_avx2)
RNNPROF_DECLARE_RUNNER(isa_avx512)
#undef RNNPROF_DECLARE_RUNNER

// kernel.at(b, j) for b0 <= b < b1 and j0 <= j < j1; rows split over `threads` OpenMP threads
// when > 1 and the work is large (never pass > 1 from inside a parallel region).
template <class K>
void runKernel(const K& kernel, Index b0, Index b1, Index j0, Index j1, int threads) {
    switch (kernelIsa()) {
    case Isa::Avx512:
        return isa_avx512::runKernel(kernel, b0, b1, j0, j1, threads);
    case Isa::Avx2:
        return isa_avx2::runKernel(kernel, b0, b1, j0, j1, threads);
    default:
        return isa_sse2::runKernel(kernel, b0, b1, j0, j1, threads);
    }
}
// The same for every row, 0 <= b < rows.
template <class K>
void runKernel(const K& kernel, Index rows, Index j0, Index j1, int threads) {
    runKernel(kernel, Index(0), rows, j0, j1, threads);
}

} // namespace rnnprof::cpu
