#pragma once
// cpu-blas's recurrent step fused in inference (LSTM, GRU with reset_after) at small batches, or at
// any batch where a block of W_hh fits in L1 (fusedBlockInL1()), or, with AVX-512, at batch 5-16
// where a team thread's slice of W_hh streams from beyond L2 (fusedStreamPays()): one
// pass over a team thread's slice of hidden units computes h_{t-1} * W_hh^T for the slice's gate
// rows, adds the step's input projection and the biases, applies the gate math
// (engine/kernels/gate_math.h) and writes c and h while the pre-activations are still in
// registers. At batch 1-4 a step is a GEMV-like stream of W_hh, and a separate GEMM call (with its
// dispatch, a result in memory and a second pass over it for the gates) costs a large share of it;
// here W_hh is streamed once per step (per fusedRowsPerPass() batch rows) from a row-blocked copy
// made once, in prepare(), by packFusedSlice().
//
// Layout of a slice [j0, j1) of units: blocks of fusedLanes() units (the last one zero-padded),
// each block's weights in one of two orders (FusedOrder), then G+1 vectors of
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

// The order of a block's weights (W_hh[g*H + j, k] for the block's units j and gates g).
//  - KMajor, [H][G][lanes]: every pass over the block (fusedRowsPerPass() rows) reads one stream,
//    every gate of a k side by side.
//  - GateMajor, [G][H][lanes]: the streamed step (fusedStreamPays()) takes every batch row (up to
//    kFusedStreamMaxBatch) in one pass over the block, one gate at a time, so that each gate's
//    weights are one contiguous stream, which it prefetches. (KMajor for every step measured 2-3 %
//    slower in LSTM's passes of 4 rows: four streams instead of one.)
enum class FusedOrder { KMajor, GateMajor };

// The largest batch of the streamed step: every row's accumulators of one gate and the weight
// vector fill AVX-512's 32 registers at 16 rows with room to spare, and each row shares every
// weight that the pass streams once per step.
inline constexpr Index kFusedStreamMaxBatch = 16;
// The rows of the streamed step's pass: the batch rounded up to 8, 12 or 16 (rows past the batch are
// zero), so that three compiled passes cover batch 5-16.
[[nodiscard]] constexpr int fusedStreamRows(Index batch) {
    return batch <= 8 ? 8 : batch <= 12 ? 12 : 16;
}
// Whether the streamed step (FusedOrder::GateMajor, all rows in one pass) replaces the packed GEMM
// and gate pass (blas_plan.cpp asks above kFusedMaxBatch, where it is the only fused step): with
// AVX-512 (32 vector registers), for a batch up to kFusedStreamMaxBatch, where a team thread's slice of W_hh
// (`sliceBytes`) takes at least a core's L2 (`l2Bytes`), so that each step streams it from L3 or memory: the
// GEMM (oneDNN's brgemm) then ran at 130-140 GFLOP/s on one core of the 2-core Xeon (M=16, K=1024) where the
// core's peak is about 220, while one pass of 16 rows over prefetched weights took the step nearer its FMA
// bound: 0.83-0.92x the GEMM path's time. Where the slice stays in L2 the GEMM was faster (about
// 0.95x the streamed step's time), and so it was above 16 rows, where a second pass streams W_hh
// again (0.82-0.9x). See docs/cpu-blas.md.
[[nodiscard]] constexpr bool fusedStreamPays(Isa isa, Index batch, Index sliceBytes, Index l2Bytes) {
    return isa == Isa::Avx512 && batch <= kFusedStreamMaxBatch && sliceBytes >= l2Bytes;
}

// Whether one block's weights (H * gates * lanes floats) take at most three quarters of an L1 data
// cache of `l1Bytes` (l1DataCacheBytes()) and at most kMaxFusedBlockBytes, so that at any batch every pass
// over the block (fusedRowsPerPass() rows) reads them from L1, beside the rows of h and of the input
// projection it streams. Larger blocks are read from L2 once per pass: at batch >= 16 and H >= 256 that
// measured 1.1-1.5x cpu-onednn's time on the 2-core Xeon (48 KiB L1), where the packed GEMM with a separate
// gate pass took 1.0-1.3x; with blocks in L1 (H = 64) the fused step took 0.7-1.2x against 1.1-1.9x.
// In a 32 KiB L1 (Zen 4) LSTM's 32 KiB blocks at H=128 took 1.04-1.15x the packed GEMM's time, GRU's
// 24 KiB blocks no more than it, hence three quarters of L1. Never above 32 KiB, the bound measured
// on the Xeon: larger blocks in a larger L1 are untried. See docs/cpu-blas.md.
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
    FusedOrder order = FusedOrder::KMajor;
};
// Writes the packed copy of units [j0, j1) to out[0, fusedSliceFloats()).
void packFusedSlice(const FusedPackArgs& args, Isa isa, float* out);

// One packed slice, as packFusedSlice() wrote it for kernelIsa().
struct FusedSlice {
    const float* packed = nullptr;
    Index j0 = 0, j1 = 0;
    FusedOrder order = FusedOrder::KMajor;
    bool backwards = false; // the blocks from last to first (fusedBackwards())
};

// Whether step `s` of a sequence runs its slice's blocks from last to first: every other step, so
// that each step starts with the blocks the one before ended with. A slice larger than L2 streamed
// in one direction every step finds none of it there (the cache keeps the most recent blocks, which
// the step reads last, after the older ones have pushed them out); turning back each step reads
// about an L2's worth from L2. The blocks are independent, so the results are the same bits. With
// slices beyond a 2 MiB L2 a step took 0.68-0.81x the time of streaming one way (LSTM and GRU H=512
// and 1024, batch 1); a slice within L2 took the same time. See docs/cpu-blas.md.
[[nodiscard]] constexpr bool fusedBackwards(int s) {
    return (s & 1) != 0;
}

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
    // FusedOrder::GateMajor (batch <= kFusedStreamMaxBatch): fusedStreamRows(batch) * hidden
    // floats of the caller's, where the step transposes h_{t-1} ([k][row], rows past the batch zero)
    // so that a pass finds every row's h at k in one cache line, a fixed offset from one pointer
    // (rows of h itself lie ldh apart: 16 row pointers did not fit the general registers, and at
    // H = 1024 the rows map to one L1 set).
    float* hByK = nullptr;
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
