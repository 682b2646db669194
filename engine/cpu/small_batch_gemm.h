#pragma once
// c = a * b^T for a of 1-4 rows and b row-major (the forward recurrent product h * W_hh^T of a step at batch
// 1-4): every row j of b is streamed once, with every row r of a, into one accumulator vector per (r, j);
// kLanes such accumulators are reduced together at the end of their rows by a tree of shuffles. cpu-blas runs
// it on its copy of W_hh in padded rows (RecurrentProduct::PaddedCopy): sgemm reads W_hh in place, and where
// its rows lie a multiple of 4 KiB apart (H = 1024) the rows it streams side by side evict each other in L1.
// Compiled once per vector ISA (small_batch_gemm_impl.h, included by each kernel_runner_<isa>.cpp) and chosen
// by kernelIsa(), like the step kernels: plain types only here. See docs/cpu-blas.md.
#include "engine/cpu/gemm.h"
#include "engine/cpu/kernel_runner.h"

namespace rnnprof::cpu {

// The most rows of a the kernel takes: every accumulator of a pass stays in a register.
inline constexpr Index kMaxSmallBatchRows = 4;

// Whether smallBatchGemm() computes `g`: 1-4 rows of a, neither a nor b^T transposed (c = a * b^T
// with b row-major), alpha 1, beta 0 or 1.
[[nodiscard]] constexpr bool smallBatchGemmApplies(const GemmArgs& g) {
    return g.m >= 1 && g.m <= kMaxSmallBatchRows && g.n >= 1 && g.k >= 1 && g.opA == Op::N &&
           g.opB == Op::T && g.alpha == 1.0f && (g.beta == 0.0f || g.beta == 1.0f);
}

#define RNNPROF_DECLARE_SMALL_BATCH(ns)                                                                      \
    namespace ns {                                                                                           \
    void smallBatchGemm(const GemmArgs& g);                                                                  \
    }
RNNPROF_DECLARE_SMALL_BATCH(isa_sse2)
RNNPROF_DECLARE_SMALL_BATCH(isa_avx2)
RNNPROF_DECLARE_SMALL_BATCH(isa_avx512)
#undef RNNPROF_DECLARE_SMALL_BATCH

// c = a * b^T + beta * c for `g` with smallBatchGemmApplies(g), on the calling thread.
inline void smallBatchGemm(const GemmArgs& g) {
    switch (kernelIsa()) {
    case Isa::Avx512:
        return isa_avx512::smallBatchGemm(g);
    case Isa::Avx2:
        return isa_avx2::smallBatchGemm(g);
    default:
        return isa_sse2::smallBatchGemm(g);
    }
}

} // namespace rnnprof::cpu
