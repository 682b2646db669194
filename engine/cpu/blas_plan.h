#pragma once
// How cpu-blas runs one problem, decided before any buffer exists: the threads of the session and
// of each step, the packed products and the fused step, and the sizes of what they allocate.
// Plain arithmetic on the layout (and oneDNN's primitive descriptors for packed sizes), shared by
// the session (blas_session.h), which creates what the plan says, and estimateMemory(), which
// sizes it without allocating.
#include "engine/backend.h"
#include "engine/cpu/blas_layout.h"
#include "engine/cpu/gemm.h"
#include "engine/cpu/kernel_runner.h"
#include "engine/cpu/packed_gemm.h"
#include "engine/cpu/recurrent_threads.h"
#include "engine/cpu/step_team.h"
#include "engine/cpu/transposed_gemm.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace rnnprof::cpu {

// How each step gets its input projection x_t * W_ih^T: one of the six ways of docs/cpu-blas.md
// ("Input projection"), decided once per problem and dispatched once per layer.
enum class InputProjection {
    // One sgemm over all steps before the recurrence (training, --gemm openblas, or a layer whose
    // products stay on sgemm).
    AllSteps,
    // Inference: the same on W_ih packed once, in prepare(), where sgemm packs W_ih on every call.
    PackedAllSteps,
    // Packed, one direction, on a team of one or over the units, where the projection of all steps
    // would not stay in L2 (inputChunkSteps()): RecurrentPlan::inputSteps steps at a time, just
    // before them; a team's threads each project a share (inputChunkShare()), then a barrier.
    PackedChunks,
    // Packed, one direction, on a team over the rows beyond the same L2 budget: each thread projects
    // its own rows of each step just before it, on its own packed W_ih; no barrier.
    PackedRows,
    // Packed, one direction, a one-thread recurrence in a session of several threads: a second
    // thread projects RecurrentPlan::inputSteps steps at a time beside it (steps_ahead.h), after the
    // first inputAheadFirstSteps() that the recurrence's own thread projects.
    PackedAhead,
    // With packed products (not the fused step), one direction, from kMinStepInputBatch rows
    // (kMinTeamStepInputBatch on a team in inference; training only on a team of one): each step
    // projects its own input just before its recurrent product, on each team thread's slice of W_ih
    // packed once, so that the gate pass reads it from L2 rather than from memory.
    EachStep,
};

// How each step computes h_{t-1} * W_hh^T and the gate math: one of the six ways of
// docs/cpu-blas.md ("Recurrent product").
enum class RecurrentProduct {
    Sgemm,         // sgemm on W_hh as it is, then the gate pass (--gemm openblas, reset-before GRU, ...)
    PaddedCopy,    // training at batch 1 on one thread, W_hh's rows 4 KiB apart (hiddenRowsAlias()):
                   // smallBatchGemm() on a copy of W_hh in rows kPaddedRowFloats longer, remade after SGD
    Packed,        // each team thread's slice of W_hh packed once (RecurrentPlan::slices), then the gate pass
    PackedPaddedH, // Packed on oneDNN's packed sgemm from kMinPaddedRows rows where h_{t-1}'s rows lie
                   // 4 KiB apart: each thread copies them into padded rows first (slice lda)
    Fused,         // inference: the fused step (fused_step.h), product and gate math in one pass
    FusedStream,   // the fused step on FusedOrder::GateMajor blocks, every row in one pass
};

[[nodiscard]] constexpr bool isFused(RecurrentProduct p) {
    return p == RecurrentProduct::Fused || p == RecurrentProduct::FusedStream;
}
[[nodiscard]] constexpr bool isPacked(RecurrentProduct p) {
    return p == RecurrentProduct::Packed || p == RecurrentProduct::PackedPaddedH;
}
// Whether the input GEMMs over steps run on W_ih packed once in prepare() (inputGemmShapes());
// EachStep packs W_ih per slice instead.
[[nodiscard]] constexpr bool isPackedInput(InputProjection i) {
    return i == InputProjection::PackedAllSteps || i == InputProjection::PackedChunks ||
           i == InputProjection::PackedRows || i == InputProjection::PackedAhead;
}

// How cpu-blas runs the recurrence of one problem, the same for every (layer, direction): the
// threads of a step, the two decisions above, and what they need.
struct RecurrentPlan {
    // A team thread's products: on a team over the units, its slice of W_hh for every row; on a
    // team over the rows (training), all of W_hh for its rows (m = its row count, written in place).
    struct Slice {
        UnitSlice units;
        PackedGemm::Shape forward;                 // hRec[B, H] * (the slice's rows of every gate)^T
        std::optional<PackedGemm::Shape> backward; // training: (gate gradients)[B, GH] * W_hh[:, slice]
        std::int64_t outFloats = 0;                // the dense result of a team thread (SliceProducts::out)
    };
    RecurrentThreads threads;
    int gemmThreads = 1; // the threads each packed product runs with
    RecurrentProduct product = RecurrentProduct::Sgemm;
    std::vector<Slice> slices; // isPacked(product): one per team thread; else empty
    InputProjection input = InputProjection::AllSteps;
    std::int64_t inputSteps = 0; // PackedChunks, PackedAhead: the steps of one chunk; else 0
};
// Floats added to every padded row (RecurrentProduct::PaddedCopy, PackedPaddedH): one cache line.
inline constexpr std::int64_t kPaddedRowFloats = 16;
// The row stride of a padded copy of rows of `hidden` floats.
[[nodiscard]] constexpr std::int64_t paddedRowLd(std::int64_t hidden) {
    return hidden + kPaddedRowFloats;
}
// Whether rows of `hidden` floats start a multiple of 4 KiB apart (and so map to the same L1 sets).
[[nodiscard]] constexpr bool hiddenRowsAlias(std::int64_t hidden) {
    return hidden * std::int64_t(sizeof(float)) % 4096 == 0;
}
// The fewest rows of h_{t-1} whose packed-sgemm product reads them from padded rows
// (RecurrentProduct::PackedPaddedH): at 32 rows the padded rows made that product slower.
inline constexpr std::int64_t kMinPaddedRows = 48;
// The smallest batch whose recurrence projects each step's input (InputProjection::EachStep), on a
// team of one and, in inference, on a team of several threads (whose gate pass then also skips two
// copies).
inline constexpr std::int64_t kMinStepInputBatch = 64;
inline constexpr std::int64_t kMinTeamStepInputBatch = 16;
// Training below batch 4 packs its recurrent products only on a team whose thread's slice of W_hh
// is at least this large (a team thread reads a slice of this size in place through sgemm from
// beyond its L2; a smaller one stays there either way, and the repack after every SGD step does
// not pay).
inline constexpr std::int64_t kMinSmallBatchPackedSliceBytes = std::int64_t(1) << 20;
// What one team thread's slice of one (layer, direction) holds with packed products
// (isPacked()): its packed products and the buffers beside them, each a float count.
struct SliceProductsPlan {
    int layer = 0, direction = 0, slice = 0;
    PackedGemm::Shape forward; // the slice's recurrent product (lda padded with PackedPaddedH)
    std::optional<PackedGemm::Shape> backward; // training
    std::optional<PackedGemm::Shape> input;    // EachStep: x_t * (the slice's rows of W_ih)^T
    std::int64_t outFloats = 0;                // a team thread's dense recurrent product [B, G*w]
    std::int64_t inFloats = 0;                 // EachStep on a team: its input projection [B, G*w]
    std::int64_t paddedHFloats = 0;            // PackedPaddedH: h_{t-1} in padded rows [m, lda]
    std::int64_t biasFloats = 0;               // with inFloats: the slice's b_ih [G*w], then its b_hh [G*w]
};
// The one list of the packed products: called once per (layer, direction, slice of some width), in
// that order. The session creates what it declares and counts what it got; packedProductsFootprint()
// sums the same list's oneDNN sizes without creating anything.
void declarePackedProducts(const BlasLayout& l, const RecurrentPlan& plan,
                           const std::function<void(const SliceProductsPlan&)>& declare);
// The steps of the input projection the session holds at once: 1 with EachStep or PackedRows,
// the chunk's with PackedChunks, else T.
[[nodiscard]] std::int64_t inputProjectionSteps(const BlasLayout& l, const RecurrentPlan& plan);
// The input projection of all steps may take this share of one core's L2 (l2CacheBytes()) before it
// runs in chunks of steps (InputProjection::PackedChunks), and a chunk takes at most that much, but at
// least kMinInputChunkRows rows (batch rows times steps), so that its GEMM keeps a useful size; and
// only where the steps make two such chunks at least (a short last chunk alone cost more than it
// saved: LSTM H=512 B=16 T=20, chunks of 16 and 4 steps, within the noise to 5 % slower).
inline constexpr std::int64_t kInputChunkL2Divisor = 2;
inline constexpr std::int64_t kMinInputChunkRows = 256;
// The steps of one chunk of the input projection for `steps` steps of `rowBytes` (one batch row's
// projection) at batch `batch` where `budgetBytes` may hold them, or 0 where all steps fit or fewer
// than two chunks would.
[[nodiscard]] std::int64_t inputChunkSteps(std::int64_t steps, std::int64_t batch, std::int64_t rowBytes,
                                           std::int64_t budgetBytes);
// Rows [b0, b1) of `rows` rows of a chunk of the input projection that thread `index` of a team of
// `count` projects (InputProjection::PackedChunks).
[[nodiscard]] RowSlice inputChunkShare(std::int64_t rows, int index, int count);
// The steps of one chunk of an input projection beside a one-thread recurrence (InputProjection::PackedAhead)
// at batch `batch` over `steps` steps, with a layer-0 input of `input` features and `hidden` units: chunks of
// kInputAheadRows rows; 0 where the steps hold fewer than the first steps (inputAheadFirstSteps()) and two
// chunks, or where `input` exceeds kMaxInputAheadRatio times `hidden` (one thread's projection of a step
// would then take longer than the step's recurrence, which would wait for it).
inline constexpr std::int64_t kInputAheadRows = 8;
inline constexpr std::int64_t kMaxInputAheadRatio = 2;
[[nodiscard]] std::int64_t inputAheadSteps(std::int64_t steps, std::int64_t batch, std::int64_t input,
                                           std::int64_t hidden);
// The first steps of an input projection beside the recurrence (InputProjection::PackedAhead), which
// the recurrence's own thread projects while the second thread projects the first chunk after
// them: so the recurrence starts without waiting for a whole chunk.
[[nodiscard]] std::int64_t inputAheadFirstSteps(std::int64_t chunk);
// The input GEMMs of `layer` (isPackedInput()), x[rows, in] * W_ih^T: one over all steps; with PackedChunks
// one over a chunk of inputSteps steps and, where T is no multiple of it, one over the shorter last chunk (on
// a team, each once per thread over its inputChunkShare(): the full chunk's [0, team), the last one's [team,
// 2 * team)); with PackedRows one per team thread over its rows of one step; with PackedAhead three: the
// first steps, a chunk of inputSteps steps, the shorter last chunk. m = 0 (no product): a share of no rows,
// or no last chunk.
[[nodiscard]] std::vector<PackedGemm::Shape> inputGemmShapes(const BlasLayout& l, const RecurrentPlan& plan,
                                                             int layer);
// The threads an input GEMM of `shape` runs with: one where a team thread runs it (PackedRows, or
// PackedChunks on a team) or the thread beside the recurrence (PackedAhead), else
// allStepsGemmThreads(AllStepsGemm::InferenceInput, ...) (recurrent_threads.h).
[[nodiscard]] int inputGemmThreads(const RecurrentPlan& plan, const PackedGemm::Shape& shape, int threads);
// The named part "packed W_ih" (weights) of isPackedInput(); empty without it.
[[nodiscard]] MemoryFootprint packedInputFootprint(const BlasLayout& l, const RecurrentPlan& plan,
                                                   int threads);
// The largest batch that runs the fused step (inference, LSTM and reset-after GRU) at any hidden
// size; larger batches run it where a block's weights fit in L1 (fusedBlockInL1()).
inline constexpr std::int64_t kFusedMaxBatch = 4;
// The threads of every step of this layout's recurrence (RecurrentPlan::threads before a team over
// the rows replaces it) with `threads` available: not clamped to this machine's cores, so that
// tests check the rule of any core count.
[[nodiscard]] RecurrentThreads layoutStepThreads(const BlasLayout& l, int threads);
[[nodiscard]] RecurrentPlan recurrentPlan(const BlasLayout& l, GemmProvider provider, int threads);
// The floats of one team thread's transposed rows of h_{t-1} (FusedStepArgs::hByK) with
// RecurrentProduct::FusedStream; 0 without.
[[nodiscard]] std::int64_t fusedStreamRowsFloats(const BlasLayout& l, const RecurrentPlan& plan);
// Training whose steps run on one thread (recurrentThreads(): no team, no split) and whose GEMMs
// over all steps (input projection, weight and input gradients) come to less than this many FLOPs
// an iteration runs on one thread altogether: its serial parts (the steps, SGD) read what the other
// threads' GEMMs wrote from those threads' caches, and lost more to it than the GEMMs gained.
inline constexpr double kMinThreadedTrainingGemmFlops = 32e6;
// The threads a cpu-blas session of this layout runs on: the requested count (0: every core), or
// one by the rule above. The session and its memory estimate both use it.
[[nodiscard]] int sessionThreads(const BlasLayout& l, GemmProvider provider, int requested);
// The fused step's packed copies of W_hh per (layer, direction): one per team thread, each of its
// thread's units, or one of every unit that the threads of a team splitting the rows share.
[[nodiscard]] int fusedCopies(const RecurrentPlan& plan);
// The units of fused copy `index`.
[[nodiscard]] UnitSlice fusedUnits(const BlasLayout& l, const RecurrentPlan& plan, int index);
// Floats of fused copy `index` (one layer and direction).
[[nodiscard]] Index fusedFloats(const BlasLayout& l, const RecurrentPlan& plan, int index);
// The named part "packed W_hh" (weights: the packed products', the fused step's or the padded copy)
// and the team's dense results (workspace) of all layers.
[[nodiscard]] MemoryFootprint packedProductsFootprint(const BlasLayout& l, const RecurrentPlan& plan);

// The weight-gradient products of one layer over all steps, c = a^T * b, in the order
// weightGradients() runs them: dW_ih = dXP^T * layer input (both directions at once), then per
// direction dW_hh = (gate gradients)^T * hRec (GRU reset-before: rows [0, 2H) on hRec, then the
// candidate's rows [2H, 3H) on r * hRec).
[[nodiscard]] std::vector<TransposedGemm::Shape> weightGradientShapes(const BlasLayout& l, int layer);
// The threads of a weight-gradient product that runs on TransposedGemm (oneDNN as the GEMM
// provider and transposedGemmPays()), 0 where it runs on sgemm.
[[nodiscard]] int weightGradientMatmulThreads(const TransposedGemm::Shape& shape, GemmProvider provider,
                                              int threads);
// Floats of the weight-gradient scratchpad that the session allocates (0: none).
[[nodiscard]] std::int64_t weightGradientScratchpadFloats(const BlasLayout& l, GemmProvider provider,
                                                          int threads);
// The named part "weight-gradient scratchpad" (workspace): one buffer that the TransposedGemm
// products of every layer share, sized for the largest; empty when none runs on one.
[[nodiscard]] MemoryFootprint weightGradientFootprint(const BlasLayout& l, GemmProvider provider,
                                                      int threads);

} // namespace rnnprof::cpu
