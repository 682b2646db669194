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
#include <optional>
#include <vector>

namespace rnnprof::cpu {

// How cpu-blas runs the recurrence of one problem: the threads of a step (recurrentThreads) and the
// recurrent products on packed W_hh of each team thread, the same for every (layer, direction).
// Shared by the session, which creates them, and estimateMemory(), which sizes them.
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
    int gemmThreads = 1;       // the threads each packed product runs with
    std::vector<Slice> slices; // one per team thread; empty: no packed products (sgemm or fused step)
    bool fused = false;        // the fused step (fused_step.h) on each thread's units, or its rows of a
                               // row-splitting team, instead
    bool fusedStream = false;  // fused, on FusedOrder::GateMajor blocks, every row in one pass
                               // (fusedStreamPays(); never a team that splits the rows)
    // Packed products of one direction from kMinStepInputBatch rows (inference in a team of several
    // threads: from kMinTeamStepInputBatch; training only in a team of one): each step projects
    // its own input, x_t * (the slice's rows of W_ih)^T on W_ih packed once, just before its
    // recurrent product, instead of one GEMM over all steps whose result the gate pass then reads
    // back from memory. A team of one writes it to a one-step buffer; a team's threads to their
    // slice's `in`, and their gate pass reads both products where they landed, in the slice's own
    // layout.
    bool stepInput = false;
    // With stepInput, LSTM inference on a team over the units (or of one): each step's input and
    // recurrent products are one GEMM, [x_t | h_{t-1}] [B, in + H] * (the slice's rows of
    // [W_ih | W_hh])^T on both packed once (sliceForwardShape(): K = in + H), where that product runs
    // on matmul's brgemm and each slice is at least 512 wide (blas_plan.cpp, stackedInputPays(): the
    // measurements and why); each thread first copies both rows into its slice's `in`
    // (sliceInFloats()). GRU's candidate needs its two products apart (n = act(xn + r * hn)).
    bool stackedInput = false;
    // Inference without stepInput: the input GEMM over all steps on W_ih packed once, in prepare(),
    // where sgemm packs W_ih again on every call (a third of the GEMM at T*B = 20 rows).
    bool inputPacked = false;
    // With inputPacked on a team of one or a team that splits the units, one direction, where the
    // projection of all T steps would not stay in L2 (inputChunkSteps()): the input GEMM runs over
    // this many steps at a time, just before them, into a buffer of that many steps, so that the
    // steps read their projection from L2 rather than from memory. A team's threads each project a
    // share of the chunk's rows (inputChunkShare()) and wait at a barrier before its first step.
    // 0: one GEMM over all steps.
    std::int64_t inputChunk = 0;
    // With inputPacked on a team that splits the rows, one direction, where the projection of all T
    // steps would not stay in L2 (more than the budget of kInputChunkL2Divisor): each thread
    // projects its own rows of each step's input just before its step, on its own W_ih packed once
    // (m = its rows), into a one-step buffer. No barrier: a thread of such a team reads only its
    // own rows.
    bool inputRows = false;
    // With inputPacked and the projection of all T steps at once (no inputChunk), one direction,
    // where the recurrence runs on one thread (a team of one on single-threaded GEMMs) in a session
    // of several threads: a second thread runs the input GEMM this many steps at a time while the
    // recurrence runs, and each step waits until its chunk is written (StepTeam::runBeside(),
    // steps_ahead.h), instead of the recurrence waiting for a GEMM over all steps first
    // (inputAheadSteps()). 0: none.
    std::int64_t inputAhead = 0;
    // Training at batch 1 on one thread where W_hh's rows lie a multiple of 4 KiB apart
    // (hiddenRowsAlias()): the forward product of each step runs smallBatchGemm() on a copy of W_hh
    // whose rows are kPaddedRowFloats longer (paddedRowLd()), made in prepare() and after every SGD
    // step (small_batch_gemm.h: why).
    bool paddedWhh = false;
    // Inference whose recurrent products run on oneDNN's packed sgemm (runsOnPackedSgemm()) over at
    // least kMinPaddedRows rows of h_{t-1} that lie a multiple of 4 KiB apart (hiddenRowsAlias()):
    // each team thread copies h_{t-1} into rows kPaddedRowFloats longer (paddedRowLd(); the slice's
    // forward shape has that lda, and SliceProducts::paddedH holds them) just before its product,
    // as oneDNN's own RNN pads its states' rows. (blas_plan.cpp: what it measured.)
    bool paddedH = false;
};
// Floats added to every padded row (RecurrentPlan::paddedWhh, paddedH): one cache line.
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
// (RecurrentPlan::paddedH): at 32 rows the padded rows made that product slower.
inline constexpr std::int64_t kMinPaddedRows = 48;
// The smallest batch whose recurrence projects each step's input (RecurrentPlan::stepInput), on a
// team of one and, in inference, on a team of several threads (whose gate pass then also skips two
// copies).
inline constexpr std::int64_t kMinStepInputBatch = 64;
inline constexpr std::int64_t kMinTeamStepInputBatch = 16;
// Training below batch 4 packs its recurrent products only on a team whose thread's slice of W_hh
// is at least this large (a team thread reads a slice of this size in place through sgemm from
// beyond its L2; a smaller one stays there either way, and the repack after every SGD step does
// not pay).
inline constexpr std::int64_t kMinSmallBatchPackedSliceBytes = std::int64_t(1) << 20;
// The input product of one team thread's slice in `layer` (RecurrentPlan::stepInput).
[[nodiscard]] PackedGemm::Shape stepInputShape(const BlasLayout& l, const RecurrentPlan::Slice& slice,
                                               int layer);
// The forward product of one team thread's slice in `layer`: the slice's own, or with stackedInput
// the one over [x_t | h_{t-1}] (K = lda = in + H).
[[nodiscard]] PackedGemm::Shape sliceForwardShape(const BlasLayout& l, const RecurrentPlan& plan,
                                                  const RecurrentPlan::Slice& slice, int layer);
// Floats of a team thread's padded rows of h_{t-1} (RecurrentPlan::paddedH; else none).
[[nodiscard]] std::int64_t slicePaddedHFloats(const RecurrentPlan& plan, const RecurrentPlan::Slice& slice);
// Floats of a team thread's `in` in `layer`: with stepInput on a team of several threads its input
// projection [B, G*w], with stackedInput the rows [x_t | h_{t-1}], [B, in + H]; else none.
[[nodiscard]] std::int64_t sliceInFloats(const BlasLayout& l, const RecurrentPlan& plan,
                                         const RecurrentPlan::Slice& slice, int layer);
// The steps of the input projection the session holds at once: 1 with stepInput or inputRows,
// inputChunk, or T.
[[nodiscard]] std::int64_t inputProjectionSteps(const BlasLayout& l, const RecurrentPlan& plan);
// The input projection of all steps may take this share of one core's L2 (l2CacheBytes()) before it
// runs in chunks of steps (RecurrentPlan::inputChunk), and a chunk takes at most that much, but at
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
// `count` projects (RecurrentPlan::inputChunk).
[[nodiscard]] RowSlice inputChunkShare(std::int64_t rows, int index, int count);
// The steps of one chunk of an input projection that runs beside a one-thread recurrence
// (RecurrentPlan::inputAhead) at batch `batch` over `steps` steps, whose layer-0 input has
// `input` features and whose hidden state `hidden`: chunks of kInputAheadRows rows; 0 where the steps
// hold fewer than the first steps (inputAheadFirstSteps()) and two chunks, or where the input is
// more than kMaxInputAheadRatio times wider than the hidden state (the projection of a step on one thread
// would then take longer than its recurrence, which would wait for it).
inline constexpr std::int64_t kInputAheadRows = 8;
inline constexpr std::int64_t kMaxInputAheadRatio = 2;
[[nodiscard]] std::int64_t inputAheadSteps(std::int64_t steps, std::int64_t batch, std::int64_t input,
                                           std::int64_t hidden);
// The first steps of an input projection beside the recurrence (RecurrentPlan::inputAhead), which
// the recurrence's own thread projects while the second thread projects the first chunk after
// them: so the recurrence starts without waiting for a whole chunk.
[[nodiscard]] std::int64_t inputAheadFirstSteps(std::int64_t chunk);
// The input GEMMs of `layer` (RecurrentPlan::inputPacked): x[rows, in] * W_ih^T over all steps, or
// over a chunk of inputChunk steps and, where T is no multiple of it, over the last, shorter one
// (on a team of several threads each of the two once per thread, over its inputChunkShare(): the
// full chunk's [0, team), then the last one's [team, 2 * team)), or with inputRows one per team
// thread, over its rows of one step, or with inputAhead three: over the first steps, over a chunk
// of inputAhead steps, and over the shorter last chunk (m = 0 where there is none). A share of no
// rows has a shape of m = 0 and no product.
[[nodiscard]] std::vector<PackedGemm::Shape> inputGemmShapes(const BlasLayout& l, const RecurrentPlan& plan,
                                                             int layer);
// The threads an input GEMM of `shape` runs with: one where a team thread runs it (inputRows, or
// inputChunk on a team) or the thread beside the recurrence (inputAhead), else inputProjectionGemmThreads()
// (recurrent_threads.h).
[[nodiscard]] int inputGemmThreads(const RecurrentPlan& plan, const PackedGemm::Shape& shape, int threads);
// The named part "packed W_ih" (weights) of RecurrentPlan::inputPacked; empty without it.
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
// RecurrentPlan::fusedStream; 0 without.
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
// The bias floats of a team thread's slice products that have their own input projection: the
// slice's b_ih [G*w], then its b_hh [G*w], and with stackedInput a row of G*w zeros that the gate
// pass reads as the input projection (the stacked product holds it already).
[[nodiscard]] std::int64_t sliceBiasFloats(const BlasLayout& l, const RecurrentPlan& plan,
                                           const RecurrentPlan::Slice& slice);
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
