#pragma once
// cpu-blas's recurrent step fused in inference (LSTM, GRU with reset_after) at small batches, or at
// any batch where a block of W_hh fits in L1 (fusedBlockInL1()): one
// pass over a team thread's slice of hidden units computes h_{t-1} * W_hh^T for the slice's gate
// rows, adds the step's input projection and the biases, applies the gate math
// (engine/kernels/gate_math.h) and writes c and h while the pre-activations are still in
// registers. At batch 1-4 a step is a GEMV-like stream of W_hh, and a separate GEMM call (with its
// dispatch, a result in memory and a second pass over it for the gates) costs a large share of it;
// here W_hh is streamed once per step (per fusedRowsPerPass() batch rows) from a row-blocked copy
// made once, in prepare(), by packFusedSlice().
//
// Layout of a slice [j0, j1) of units: blocks of fusedLanes() units (the last one zero-padded),
// each block [H][G][lanes] weights (W_hh[g*H + j, k] at k, g, j - jBlock), then G+1 vectors of
// lanes biases: b_ih + b_hh per gate (GRU's candidate: b_ih only), then GRU's b_hn (LSTM: zeros),
// which the r gate multiplies with the candidate's recurrent product.
//
// The loops are compiled once per vector ISA (fused_step_impl.h, included by each
// kernel_runner_<isa>.cpp) and chosen by kernelIsa(), like the step kernels: plain types only here.
#include "engine/cpu/kernel_runner.h"

namespace rnnprof::cpu {

// Units per block for `isa`: one vector of floats.
[[nodiscard]] constexpr int fusedLanes(Isa isa) {
    return isa == Isa::Avx512 ? 16 : isa == Isa::Avx2 ? 8 : 4;
}
// Batch rows per pass over W_hh: as many as keep every row's gate accumulators (4 for LSTM) and the
// weight vectors in the ISA's vector registers (32 with AVX-512, 16 with AVX2 and SSE2).
[[nodiscard]] constexpr int fusedRowsPerPass(Isa isa) {
    return isa == Isa::Avx512 ? 4 : 2;
}

// Whether one block's weights (H * gates * lanes floats) take at most three quarters of an L1 data
// cache of `l1Bytes` (l1DataCacheBytes()) and at most kMaxFusedBlockBytes, so that at any batch every pass
// over the block (fusedRowsPerPass() rows) reads them from L1, beside the rows of h and of the input
// projection it streams. Larger blocks are read from L2 once per pass: at batch >= 16 and H >= 256 that
// measured 1.1-1.5x cpu-onednn's time on the 2-core Xeon (48 KiB L1), where the packed GEMM with a separate
// gate pass took 1.0-1.3x; with blocks in L1 (H = 64) the fused step took 0.7-1.2x against 1.1-1.9x
// (README, CPU performance). On the 2-core AMD EPYC, Zen 4 (32 KiB L1; 2026-11-24, rnnprof sweep,
// inference, I=128, H=128, T=100, two runs of 20, medians) LSTM's 32 KiB blocks at B=64 and 256
// took 10.4-10.5 and 39.2-41.0 ms on two threads against 8.9-9.3 and 36.3-37.0 with the packed GEMM
// (one thread at B=256: 71.3-72.1 against 68.5-69.4), while GRU's 24 KiB blocks were as fast as the
// GEMM at B=64 and 256 and faster at B=16 (1.57-1.65 against 1.88-1.95 ms on two threads).
// Never above 32 KiB, the bound measured on the Xeon: larger blocks in a larger L1 are untried.
inline constexpr Index kMaxFusedBlockBytes = 32 * 1024;
[[nodiscard]] constexpr bool fusedBlockInL1(Index hidden, int gates, Isa isa, Index l1Bytes) {
    const Index bytes = hidden * gates * fusedLanes(isa) * Index(sizeof(float));
    return bytes <= kMaxFusedBlockBytes && bytes * 4 <= l1Bytes * 3;
}

// Floats of one block of `lanes` units: weights, then G+1 bias vectors.
[[nodiscard]] constexpr Index fusedBlockFloats(Index hidden, int gates, int lanes) {
    return (hidden * gates + gates + 1) * lanes;
}
// Floats of the packed copy of units [j0, j1) of a cell with `gates` gates and `hidden` units.
[[nodiscard]] Index fusedSliceFloats(Index hidden, int gates, Index j0, Index j1, Isa isa);

struct FusedPackArgs {
    const float* whh = nullptr; // [G*H, H]
    const float* bih = nullptr; // [G*H]
    const float* bhh = nullptr; // [G*H]
    Index hidden = 0;
    int gates = 4; // 4: LSTM, 3: GRU (reset_after)
    Index j0 = 0, j1 = 0;
};
// Writes the packed copy of units [j0, j1) to out[0, fusedSliceFloats()).
void packFusedSlice(const FusedPackArgs& args, Isa isa, float* out);

// One packed slice, as packFusedSlice() wrote it for kernelIsa().
struct FusedSlice {
    const float* packed = nullptr;
    Index j0 = 0, j1 = 0;
};

// The operands of one step of one direction. Row b of every view starts at p + b * ld; unit j of
// gate g of xp is column g*H + j.
struct FusedStepArgs {
    Index batch = 0, hidden = 0;
    const float* h = nullptr; // h_{t-1} [B, H]
    Index ldh = 0;
    const float* xp = nullptr; // this step's input projection [B, G*H], without biases
    Index ldxp = 0;
    const float* cPrev = nullptr; // LSTM: c_{t-1} [B, H], row stride H
    float* c = nullptr;           // LSTM: c_t [B, H], row stride H
    float* hOut = nullptr;        // h_t [B, H]; not h
    Index ldhOut = 0;
};

#define RNNPROF_DECLARE_FUSED(ns)                                                                            \
    namespace ns {                                                                                           \
    template <class A>                                                                                       \
    void lstmFusedStep(const FusedSlice& slice, const FusedStepArgs& args);                                  \
    template <class A>                                                                                       \
    void gruFusedStep(const FusedSlice& slice, const FusedStepArgs& args);                                   \
    }
RNNPROF_DECLARE_FUSED(isa_sse2)
RNNPROF_DECLARE_FUSED(isa_avx2)
RNNPROF_DECLARE_FUSED(isa_avx512)
#undef RNNPROF_DECLARE_FUSED

// Units [slice.j0, slice.j1) of h_t (and c_t) for every batch row; A is the cell's CellActs.
template <class A>
void fusedStep(bool lstm, const FusedSlice& slice, const FusedStepArgs& args) {
    switch (kernelIsa()) {
    case Isa::Avx512:
        return lstm ? isa_avx512::lstmFusedStep<A>(slice, args) : isa_avx512::gruFusedStep<A>(slice, args);
    case Isa::Avx2:
        return lstm ? isa_avx2::lstmFusedStep<A>(slice, args) : isa_avx2::gruFusedStep<A>(slice, args);
    default:
        return lstm ? isa_sse2::lstmFusedStep<A>(slice, args) : isa_sse2::gruFusedStep<A>(slice, args);
    }
}

} // namespace rnnprof::cpu
