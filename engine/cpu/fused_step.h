#pragma once
// cpu-blas's recurrent step fused, for inference (LSTM, reset-after GRU) at batch 1-4, at any batch where a
// block of W_hh fits in L1 (fusedBlockInL1()), or with AVX-512 at batch 5-16 where a slice streams from
// beyond L2 (fusedStreamPays()). One pass over a team thread's slice of units computes h_{t-1} * W_hh^T, adds
// the input projection and biases, applies the gate math (engine/kernels/gate_math.h) and writes c and h from
// registers: no GEMM call, whose dispatch and second pass for the gates cost a large share of a GEMV-like
// step. It reads a copy made once by packFusedSlice(): blocks of fusedLanes() units (the last zero-padded),
// each its weights in a FusedOrder, then G+1 bias vectors (b_ih + b_hh per gate, GRU's candidate b_ih only;
// GRU's b_hn, LSTM zeros). Compiled per ISA (fused_step_impl.h, in each kernel_runner_<isa>.cpp), chosen by
// kernelIsa(): plain types only.
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
//  - KMajor, [H][G][lanes]: a pass (fusedRowsPerPass() rows) reads one stream, every gate of a k side by
//  side.
//  - GateMajor, [G][H][lanes]: the streamed step (fusedStreamPays()) takes every row (up to
//  kFusedStreamMaxBatch)
//    in one pass, one gate at a time, each gate's weights one contiguous stream that it prefetches.
//    (GateMajor for every step made LSTM's passes of 4 rows 2-3 % slower than KMajor: four streams instead of
//    one.)
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
// Whether the streamed step (FusedOrder::GateMajor, all rows in one pass) replaces the packed GEMM and gate
// pass (blas_plan.cpp asks above kFusedMaxBatch): with AVX-512 (32 vector registers), up to
// kFusedStreamMaxBatch rows, where a team thread's slice of W_hh (`sliceBytes`) takes at least a core's L2
// (`l2Bytes`). Streamed from L3 or memory, W_hh bounds the step, and one pass of every row over prefetched
// weights nears the FMA bound where the GEMM does not; a slice in L2, or a second pass above 16 rows, favours
// the GEMM. See docs/cpu-blas.md.
[[nodiscard]] constexpr bool fusedStreamPays(Isa isa, Index batch, Index sliceBytes, Index l2Bytes) {
    return isa == Isa::Avx512 && batch <= kFusedStreamMaxBatch && sliceBytes >= l2Bytes;
}

// Whether one block's weights (H * gates * lanes floats) take at most three quarters of an L1 data cache of
// `l1Bytes` (l1DataCacheBytes()) and at most kMaxFusedBlockBytes, so that every pass over the block reads
// them from L1, beside the rows of h and of the input projection it streams: then the fused step pays at any
// batch. Larger blocks are read from L2 once per pass, where the packed GEMM with a gate pass was faster. 32
// KiB is the bound measured; larger blocks in a larger L1 are untried. See docs/cpu-blas.md.
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

// Whether step `s` of a sequence runs its slice's blocks from last to first: every other step, so that each
// step starts with the blocks the one before ended with, still in L2. A slice larger than L2 streamed one way
// every step finds none of it there (the blocks it reads first were pushed out by the ones read after them).
// The blocks are independent, so the results are the same bits. See docs/cpu-blas.md.
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
    void lstmFusedStep(A acts, const FusedSlice& slice, const FusedStepArgs& args);                          \
    template <class A>                                                                                       \
    void gruFusedStep(A acts, const FusedSlice& slice, const FusedStepArgs& args);                           \
    }
RNNPROF_DECLARE_FUSED(isa_sse2)
RNNPROF_DECLARE_FUSED(isa_avx2)
RNNPROF_DECLARE_FUSED(isa_avx512)
#undef RNNPROF_DECLARE_FUSED

// Units [slice.j0, slice.j1) of h_t (and c_t) for every batch row; A is the cell's CellActs.
template <class A>
void fusedStep(A acts, bool lstm, const FusedSlice& slice, const FusedStepArgs& args) {
    switch (kernelIsa()) {
    case Isa::Avx512:
        return lstm ? isa_avx512::lstmFusedStep(acts, slice, args)
                    : isa_avx512::gruFusedStep(acts, slice, args);
    case Isa::Avx2:
        return lstm ? isa_avx2::lstmFusedStep(acts, slice, args) : isa_avx2::gruFusedStep(acts, slice, args);
    default:
        return lstm ? isa_sse2::lstmFusedStep(acts, slice, args) : isa_sse2::gruFusedStep(acts, slice, args);
    }
}

} // namespace rnnprof::cpu
