#include "engine/cpu/blas_plan.h"

#include "engine/cpu/fused_step.h"
#include "engine/cpu/kernel_runner.h"
#include "engine/cpu/onednn_support.h"

#include <algorithm>

namespace rnnprof::cpu {

namespace {

// The FLOPs of the recurrent products of one step: 2 * D * B * G*H * H.
double stepFlops(const BlasLayout& l) {
    return 2.0 * double(l.D * l.B * l.GH() * l.H);
}
// The bytes of W_hh's rows for the largest slice of units of a team of `team` threads (its first):
// what a team thread reads each step.
std::int64_t sliceWhhBytes(const BlasLayout& l, int team) {
    return l.G * unitSlice(l.H, 0, team).width() * l.H * std::int64_t(sizeof(float));
}

// Training below batch 4 on a team whose slices of W_hh stay below kMinSmallBatchPackedSliceBytes
// runs its products through sgemm, which packs the slice again on every call (productsPlan()).
bool smallBatchTeamOnSgemm(const BlasLayout& l, int team) {
    return l.training && l.B < 4 && (team == 1 || sliceWhhBytes(l, team) < kMinSmallBatchPackedSliceBytes);
}

// Whether inference of this layout runs the fused step (given a team that allows it).
bool fusedStepFits(const BlasLayout& l) {
    return l.B <= kFusedMaxBatch || fusedBlockInL1(l.H, int(l.G), kernelIsa(), l1DataCacheBytes());
}

// The bytes of one batch row of one step's input projection, and the part of L2 the projection of
// all steps may take before the projection runs closer to the steps (inputChunk, inputRows).
std::int64_t projectionRowBytes(const BlasLayout& l) {
    return l.DGH() * std::int64_t(sizeof(float));
}
std::int64_t projectionL2BudgetBytes() {
    return l2CacheBytes() / kInputChunkL2Divisor;
}

// Training on a team that splits the batch rows (rowTeamThreads()): each thread runs the forward
// and backward steps of its rows on its own packed copies of all of W_hh (forward and backward
// products), so both copies must stay in its L2, here within half of it (LSTM up to H=181, GRU
// H=209 at 2 MiB). Its threads then read nothing that another thread wrote in the recurrence,
// where a team over the units exchanges h and the gate gradients of every step, and a team of one
// forks and joins its GEMMs' threads every step. 1: no such team. RNNPROF_STEP_TEAM=rows drops the
// L2 bound (for measuring it), a forced team or split forbids the rows. Measured against the L2 bound
// on the 2-core Xeon (2026-11-27, two threads, T=20, alternated twice, us a step): the rows took
// the same time as the rule's plan at H=256 (LSTM B=64 574 against 572, B=256 2401-2464 against
// 2311-2498; GRU B=64 441-448 against 446-451) and 1.14x its time at LSTM H=512 B=64 (2188-2215
// against 1913-1947), GRU H=512 B=256 1.01x. On the 16-core Xeon beside the H200 (same day, 16
// threads, one or two rounds): H=256 LSTM B=64 230-239 against 229-314, B=256 658-766 against 826,
// GRU B=64 204-224 against 199-201, B=256 805 against 823; H=512 1.1-2.2x slower (LSTM B=64
// 1059-1083 against 657-676), LSTM H=1024 B=256 11.7 ms against 6.8; within the bound LSTM H=64
// B=64 39.9 against 92.5 on the GEMM split (cpu-onednn 69.4).
int trainingRowTeam(const BlasLayout& l, int threads) {
    const ForcedStepTeam& forced = forcedStepTeam();
    if (!l.training || forced.team != 0) return 1;
    const std::int64_t copiesBytes = 2 * l.GH() * l.H * std::int64_t(sizeof(float));
    if (copiesBytes > l2CacheBytes() / 2 && !forced.rows) return 1;
    return rowTeamThreads(stepFlops(l), l.B, threads, true);
}

// RecurrentPlan::inputChunk of a plan whose other fields are set; not on a team that splits the rows
// (inputRows instead: its threads read only their own rows). Measured on the 2-core Xeon (2 MiB L2;
// 2026-11-26, rnnprof sweep, one thread, old and new builds alternated, medians of 10-200 runs): GRU H=64
// B=256 T=100, whose 19.6 MB projection went to memory (GEMM 164 GFLOP/s against 197 at T=20, steps 75
// against 57 us), 16.1-16.6 -> 13.4-13.6 ms; LSTM 21.8 -> 17.7; GRU B=256 T=20 2.48-2.52 -> 2.37-2.39. Chunks
// of 1, 2, 5, 10 and 21 steps took 13.2-13.5 ms at the first point, so the budget is not fine-tuned. On a
// team over the units (2026-11-27, two threads, rnn_backends_bench's paired benchmark, old and new builds
// alternated twice, cpu-blas / cpu-onednn), where the streamed fused step had projected all steps first: LSTM
// H=512 B=16 T=100 1.01 -> 0.89-0.93 (`rnnprof sweep` 15.0-15.2 -> 14.4-14.7 ms), LSTM H=1024 0.97 ->
// 0.91-0.92, GRU H=1024 0.84 -> 0.78-0.80.
std::int64_t inputChunkFor(const BlasLayout& l, const RecurrentPlan& plan) {
    if (!plan.inputPacked || l.D != 1 || plan.threads.rows) return 0;
    return inputChunkSteps(l.T, l.B, projectionRowBytes(l), projectionL2BudgetBytes());
}

// RecurrentPlan::inputRows of a plan whose other fields are set. Measured on the 2-core Xeon
// (2026-11-27, rnn_backends_bench's paired benchmark, two threads, old and new builds alternated
// twice, cpu-blas / cpu-onednn): GRU H=64 B=256 T=100 1.09-1.14 -> 0.87-0.90 (the projection of all
// steps, 19.6 MB, had gone through memory; `rnnprof sweep` alone 7.04-7.08 -> 6.69-6.85 ms), T=20
// 0.99-1.00 -> 0.91-0.92; LSTM H=64 B=256 T=100 0.84-0.88 -> 0.67-0.68, T=20 0.76 -> 0.71-0.72;
// at B=16 and 64 (8 and 32 rows a thread) unchanged within the noise.
bool inputRowsFor(const BlasLayout& l, const RecurrentPlan& plan) {
    if (!plan.inputPacked || l.D != 1 || plan.threads.team == 1 || !plan.threads.rows) return false;
    return l.T * l.B * projectionRowBytes(l) > projectionL2BudgetBytes();
}

// RecurrentPlan::inputAhead of a plan whose other fields are set. Where the recurrence runs on one
// thread, the session's other threads had only the input GEMM over all steps, before it: at batch 1
// and I=128, H=64 on two threads (the 2-core Zen 4 VM, 2026-11-28, rnnprof sweep, T=100) an LSTM
// iteration spent 44 us in that GEMM and 88 in the steps. Beside the steps (rnn_backends_bench's
// paired benchmark, two threads, without and with alternated twice, step / floor): LSTM H=64 B=1
// T=100 0.96-1.01 -> 0.78-0.80, GRU 0.98-1.02 -> 0.70-0.77; T=20 LSTM 1.05-1.44 -> 0.97-1.06, GRU
// 1.19-1.45 -> 0.94-1.04. Every chunk on the second thread gained nothing at T=20 (the recurrence
// waited for the first: LSTM 1.35-1.50), hence inputAheadFirstSteps(); chunks of 4 rows were slower
// at T=100 (LSTM 1.26-1.27), of 16 no faster there and slower at T=20 (1.71-1.77).
std::int64_t inputAheadFor(const BlasLayout& l, const RecurrentPlan& plan, int threads) {
    if (!plan.inputPacked || plan.inputChunk > 0 || plan.inputRows || l.D != 1 || threads < 2 ||
        plan.threads.team != 1 || plan.threads.singleTeam != 1)
        return 0;
    return inputAheadSteps(l.T, l.B, l.layerInput(0), l.H);
}

// RecurrentPlan::stackedInput of a plan whose other fields are set: LSTM inference projecting each
// step (stepInput) on a team over the units or of one, where every layer's stacked product would
// run on matmul's brgemm (not on the packed sgemm: runsOnPackedSgemm()) and each slice is at least
// kMinStackedInputColumns wide. Measured on the 2-core Xeon (2026-11-27, `rnnprof sweep`, LSTM inference,
// I=128, B = 64 and 256, T = 20 and 100, best of three runs / cpu-onednn's best, the two products -> the
// stacked one): where it runs on brgemm every one of 12 points faster, median 1.009 -> 0.969, above 1.00 7 ->
// 3; H=256 one thread 1.047, 1.097, 1.002, 0.993
// -> 1.005, 1.035, 0.965, 0.953 (B=64 T=20, B=64 T=100, B=256 T=20, B=256 T=100), two threads (a team of two)
// 0.947, 0.984, 1.089, 0.935 -> 0.867, 0.962, 1.021, 0.855; H=512 two threads 1.019, 1.034, 1.017, 0.994 ->
// 0.991, 0.972, 0.988, 0.935. Where it would run on the packed sgemm (K = in + H >= 512 and the slice at
// least 1536 wide: H=512 one thread, H=1024) mostly slower (best of two runs): H=1024 B=256 one thread 0.854
// and 0.869 -> 0.941 and 0.922, two threads 0.833 and 0.908 -> 0.948 and 0.984; H=512 B=256 one
// thread 0.966 and 0.999 -> 1.027 and 1.060.
// Each thread copies B * (in + H) floats a step for 2 * B * (in + H) * n FLOPs of its product: the
// slices measured were 512 (H=256 on two threads) to 1024 wide; narrower ones (larger teams, as on
// 16 cores at H=1024: 256) copy more per FLOP and keep the two products until measured.
constexpr std::int64_t kMinStackedInputColumns = 512;
// The slice's forward product over [x_t | h_{t-1}] of `layer` (K = lda = in + H).
PackedGemm::Shape stackedShape(const BlasLayout& l, const RecurrentPlan::Slice& slice, int layer) {
    PackedGemm::Shape shape = slice.forward;
    shape.k = shape.lda = l.layerInput(layer) + l.H;
    return shape;
}
bool stackedInputFits(const BlasLayout& l, const RecurrentPlan& plan) {
    if (!plan.stepInput || !l.lstm || l.training || plan.threads.rows || plan.slices.empty()) return false;
    for (int layer = 0; layer < l.L; ++layer)
        for (const RecurrentPlan::Slice& slice : plan.slices) {
            if (slice.units.width() > 0 && slice.forward.n < kMinStackedInputColumns) return false;
            if (runsOnPackedSgemm(stackedShape(l, slice, layer))) return false;
        }
    return true;
}

// RecurrentPlan::paddedH. oneDNN's packed sgemm read h_{t-1} faster from rows padded off a multiple
// of 4 KiB, as oneDNN's own RNN primitive pads its states (rnn_utils' get_good_ld()). Measured on the
// 2-core Zen 4 VM (2026-11-28, one thread; the product alone, sgemm_compute on W packed once, M rows
// of depth K, N columns, padded and plain alternated 12 times in one process, medians of 120 calls,
// time padded / plain): K=1024 at M=64 0.87-0.92 (N=3072) and 0.83-0.92 (N=4096), 0.96-0.97 for a
// team of two's slices (N=1536, 2048), M=48 0.97, 96 0.93, 128 0.97, 256 1.00-1.01; K=2048, M=64
// 0.89-0.93; but M=32 1.08-1.12 (and 1.18 at K=2048), M=16 1.43-1.58, hence kMinPaddedRows; rows
// 2 or 3 KiB apart (K=512, 768) 0.95-0.99 and 0.91-0.98, left as they are; padding by 1024 floats
// (rows 8 KiB apart) 0.98. In the session (rnnprof sweep, inference, I=128, T=20, one thread, medians
// of 7 runs, without and with alternated, ms an iteration): GRU H=1024 B=64 88.4-93.0 -> 84.4-89.2
// (cpu-onednn 83.6-88.7), LSTM H=1024 B=64 125.2-125.8 -> 115.1-116.0 (123.1-126.6); B=256 the same
// (GRU 343-344 both, LSTM 464-473 against 473-484). rnn_backends_bench's paired cpu-blas / cpu-onednn,
// T=20, without and with alternated twice: LSTM H=1024 B=64 one thread 0.98-1.04 -> 0.87-0.88, two
// threads (a team of two) 0.89-0.96 -> 0.90-0.92, GRU one thread 1.12-1.13 -> 0.96-1.01, two threads
// 1.01-1.09 -> 0.95-0.98; B=256 0.89-1.01 without and 0.99-1.03 with, within the VM's noise.
bool paddedHPays(const BlasLayout& l, const RecurrentPlan& plan) {
    if (l.training || plan.stackedInput || plan.slices.empty() || !hiddenRowsAlias(l.H)) return false;
    for (const RecurrentPlan::Slice& slice : plan.slices)
        if (slice.units.width() > 0 &&
            (slice.forward.m < kMinPaddedRows || !runsOnPackedSgemm(slice.forward)))
            return false;
    return true;
}

// recurrentPlan() but for RecurrentPlan::inputChunk and inputRows, which follow from the rest.
RecurrentPlan productsPlan(const BlasLayout& l, GemmProvider provider, int threads) {
    RecurrentPlan plan;
    // With OpenBLAS, its own pool runs the step's GEMMs and our loops stay on one thread.
    if (provider != GemmProvider::OneDnn) return plan;
    // Inference's weights stay as they are, so W_ih is packed once (and no stepInput: set below).
    // Measured on the 2-core machine (2026-11-24, rnn_backends_bench, inference at B <= 16, 1 and 2
    // threads, the binaries before and after alternated twice, medians of 3, time after / before):
    // geometric mean 0.96 over 192 point-runs; H=64 B=1 T=20 0.73-0.86 (the input GEMM of an LSTM
    // iteration 9.5 -> 6.1-6.9 us of 19.4), H=256 B=1 and 4 0.82-1.06 (median 0.92). Above 1.05 in
    // both runs only LSTM H=512 B=1 T=100 on 2 threads (1.07-1.10; 0.88-0.97 in an earlier pair of
    // runs); single runs reached 1.13, as points this path does not touch (B=16 on 2 threads)
    // varied between 0.84 and 1.14.
    plan.inputPacked = !l.training;
    const int available = resolveThreads(threads);
    plan.threads = layoutStepThreads(l, available);
    // Above kFusedMaxBatch, a slice of W_hh that streams from beyond L2 each step runs the fused step
    // too, every row in one pass (fused_step.h, fusedStreamPays(): why, and what it measured), on a
    // team that splits the units (a team over the rows would stream all of W_hh on every thread).
    const bool fusedCell = !l.training && (l.lstm || l.resetAfter);
    const bool streamed =
        fusedCell && l.B > kFusedMaxBatch &&
        fusedStreamPays(kernelIsa(), l.B, sliceWhhBytes(l, plan.threads.team), l2CacheBytes());
    const bool fusable = fusedCell && (fusedStepFits(l) || streamed);
    // Where the rows allow a team at least as large as the units do, the fused step runs on a team
    // that splits the rows instead (recurrent_threads.h: rowTeamThreads()): its threads read only
    // the state they wrote themselves, where a team over the units reads every unit of h_{t-1},
    // half of it from the other core. Measured on the 2-core Xeon (2026-11-26, rnnprof sweep, two
    // threads, units against rows alternated twice, ms an iteration) where both give a team of
    // two: GRU H=64 B=256 T=100 7.09-7.35 -> 5.90-5.99, T=20 1.39-1.40 -> 1.30-1.35; LSTM H=64
    // B=256 T=100 10.7-11.0 -> 8.7-9.2, B=64 T=100 2.48 -> 1.99-2.02, B=16 T=100 0.62-0.64 ->
    // 0.57-0.59; GRU H=64 B=64 T=20 0.38-0.41 -> 0.32-0.33; LSTM H=128 B=64 T=100 6.1-6.2 ->
    // 5.0-5.3, B=256 T=20 4.40-4.43 -> 3.93-3.94; GRU H=128 B=16 T=100 1.25-1.27 -> 1.12-1.15. (On
    // the Zen 4 VM the two measured the same at H=64.)
    // Training takes a team over the rows on the same terms (trainingRowTeam()). Measured on the
    // 2-core Xeon (2026-11-27, rnnprof sweep, two threads, the rows against the plan before them
    // forced by RNNPROF_STEP_TEAM, alternated twice, us a step): LSTM H=64 B=64 T=100 81.6-82.5
    // against 106.3-107.4 on the GEMM split (cpu-onednn 112), GRU 75.6-76.9 against 93.5-94.4 (99-101);
    // B=16 T=100 (one thread before) LSTM 22.8-23.9 against 25.2-25.5, GRU 20.3-21.3 against
    // 23.2-23.5; B=256 T=20 LSTM 320-325 against 337-352, GRU 282-285 against 286-291; H=128 B=64
    // T=20 against a team of two over the units LSTM 196-205 against 236-240, GRU 160-164 against
    // 196-204 (cpu-onednn 191-261).
    const int rowTeam = l.training ? trainingRowTeam(l, available)
                        : fusable && !streamed && forcedStepTeam().team == 0
                            ? rowTeamThreads(stepFlops(l), l.B, available, false)
                            : 1;
    if (rowTeam > 1 && rowTeam >= plan.threads.team)
        plan.threads = {.team = rowTeam, .singleTeam = 1, .rows = true};
    const int team = plan.threads.team;
    plan.gemmThreads = team > 1 ? 1 : plan.threads.singleTeam;
    // Inference at small batch, or where a block of W_hh fits in L1 (fusedStepFits()): the fused
    // step (fused_step.h) on the team's slices of units or rows, with no GEMM call and no gate buffer. A team
    // of one that would run its GEMMs on several threads keeps them, and so does --gemm openblas (returned
    // above).
    if (fusable && (team > 1 || plan.threads.singleTeam == 1)) {
        plan.fused = true;
        plan.fusedStream = streamed;
        return plan;
    }
    // Training at batch 1 on one thread, W_hh's rows 4 KiB apart: the forward products on a padded
    // copy (small_batch_gemm.h). Measured on the 2-core Zen 4 (2026-11-25, rnnprof sweep, I=128,
    // H=1024, one thread, binaries before and after alternated three times, medians of 10-20 runs):
    // the forward steps of LSTM T=100 33.0-42.1 -> 28.0-29.6 ms, T=20 9.3-12.0 -> 6.1-7.3, GRU T=100
    // 30.7-40.3 -> 21.0-22.8; the copy after SGD 1.2-1.7 ms an iteration; cpu-blas / cpu-onednn in the
    // same runs, LSTM T=100 0.90-0.98 -> 0.81-0.92, T=20 0.71-0.81 -> 0.62-0.72.
    plan.paddedWhh =
        l.training && l.B == 1 && team == 1 && plan.threads.singleTeam == 1 && hiddenRowsAlias(l.H);
    // The packed products cover the recurrent GEMMs of LSTM and reset-after GRU, whose operands
    // keep one row stride for the whole sequence (the reset-before GRU's products read strided
    // column blocks, and a bidirectional inference reads h0 and y with different strides).
    if (!(l.lstm || l.resetAfter) || !(l.training || l.D == 1)) return plan;
    // Training repacks after every SGD step, and on a team of one at batch 1 the backward product
    // (K = GH) gains nothing from packing: measured on the 2-core machine (1 thread, LSTM
    // H=256/512, T=20 and 100), training with packed products took 1.02-1.25x the time with sgemm
    // at B=1 and 0.93-0.96x at B=4; inference 0.77-0.9x at B=4 and within 7 % at B=1, H <= 256.
    // A team's threads pack their slices in parallel and then read them from their own caches,
    // where sgemm reads its slice in place: for the backward product a column block of W_hh, half
    // of every row at two threads. That pays from a slice of 1 MiB on (kMinSmallBatchPackedSliceBytes).
    // Measured on the 2-core machine (2026-11-24, 2 threads = a team of two, B=1), time with packed
    // products / with sgemm at T=20 and T=100: rnn_backends_bench, two and three runs of medians of
    // 3 and 5: LSTM H=512 (slice 2 MiB) 0.76-0.87 and 0.66-0.68, GRU H=512 (1.5 MiB) 0.75-0.76 and
    // 0.59-0.64 (the sweep's step breakdown, LSTM H=512 T=20: backward steps 98 -> 38 us, packing
    // 30 us a step); but LSTM H=256 (0.5 MiB) 1.11-1.18 and 0.98-1.06, GRU H=256 1.17-1.22 and
    // 1.04-1.08.
    if (smallBatchTeamOnSgemm(l, team)) return plan;
    // A team over the units: a slice of W_hh per thread, on every row; over the rows (training): all
    // of W_hh per thread, on its rows, written in place.
    const bool rows = plan.threads.rows;
    for (int i = 0; i < team; ++i) {
        RecurrentPlan::Slice& slice = plan.slices.emplace_back();
        slice.units = rows ? UnitSlice{0, l.H} : unitSlice(l.H, i, team);
        const std::int64_t w = slice.units.width(), m = rows ? rowSlice(l.B, i, team).count() : l.B;
        if (w == 0) continue;
        slice.forward = {.m = m, .n = l.G * w, .k = l.H, .lda = l.H, .repacked = l.training};
        if (l.training)
            slice.backward = PackedGemm::Shape{
                .m = m, .n = w, .k = l.GH(), .lda = l.lstm ? l.DGH() : l.GH(), .repacked = true};
        if (team > 1 && !rows) slice.outFloats = l.B * l.G * w;
    }
    // Inference: with the input projection of all T steps done first, the gate pass reads each
    // step's back from memory (at B = 256, H = 256 on one thread the gate pass took a fifth of the
    // step, most of it waiting on those loads). Projecting each step's input just before its
    // recurrent product keeps it in L2. Measured on the 2-core machine, one thread, medians of two
    // runs, cpu-blas / cpu-onednn: at B = 64 and 256 (H = 256-1024, T = 20 and 100) from 0.98-1.35
    // to 0.89-1.13 (LSTM H=256 B=256 T=100: 1.35 -> 1.07, H=512 B=256 T=20: 1.12 -> 1.03); at B = 16
    // the all-steps GEMM's larger M paid more (LSTM H=512: 1.07 -> 1.14). A team's threads also
    // read their slice products in place, and there it paid from B = 16: 2 threads (a team of
    // two), B = 16, two runs: H = 256 from 0.97-1.11 to 0.87-0.99, H = 512 and 1024 unchanged
    // (0.77-1.09 both); B = 64 and 256 from 0.92-1.33 to 0.79-1.16.
    // Training on a team of one too (one thread, B = 64 and 256, H = 64-1024, two runs: geometric
    // mean of the step time 0.98x, points above cpu-onednn's time 15 -> 12 of 32; and no T-step
    // input buffer); a team's slice layout does not fit the gates training keeps, so not there.
    // One direction only: the one-step buffer is a dense [B, G*H] product, while a bidirectional
    // layer's directions share the rows of the input projection (and of the gates training keeps).
    plan.stepInput = l.D == 1 && (!l.training || team == 1) &&
                     l.B >= (team > 1 ? kMinTeamStepInputBatch : kMinStepInputBatch);
    plan.inputPacked = plan.inputPacked && !plan.stepInput;
    plan.stackedInput = stackedInputFits(l, plan);
    plan.paddedH = paddedHPays(l, plan);
    if (plan.paddedH)
        for (RecurrentPlan::Slice& slice : plan.slices)
            slice.forward.lda = paddedRowLd(l.H);
    return plan;
}

} // namespace

// The threads of every step of this layout's recurrence over its H units. Training below batch 4
// whose team of more than two threads would run on sgemm takes a team of one on every GEMM thread
// instead where the step is large enough to split (kMinSplitStepFlops). Measured on the 16-core
// Xeon beside the H200 (2026-11-27, rnnprof sweep, RNNPROF_STEP_TEAM, one pass, 16 threads, LSTM
// H=512 B=1 T=20, us a step): a team of one on 16 GEMM threads 86.0, teams of 4 (packed slices of
// 1 MiB), 8 and 16 on sgemm 100.6, 115.0 and 124.5, the old rule's team of 13 (11 with units) 131.6,
// cpu-onednn 90.6. A team of two keeps its sgemm: on the 2-core Xeon (2026-11-27, three alternations, T=20)
// LSTM H=256 B=2 36.5-40.9 against 38.6-42.9 on the split, H=320 B=3 65.1-66.5 against 65.2-70.7.
RecurrentThreads layoutStepThreads(const BlasLayout& l, int threads) {
    RecurrentThreads r = recurrentThreads(stepFlops(l), l.H, threads, l.training);
    if (r.team > 2 && smallBatchTeamOnSgemm(l, r.team) && stepFlops(l) >= kMinSplitStepFlops)
        r = {.team = 1, .singleTeam = std::max(threads, 1)};
    return forcedStepThreads(r, forcedStepTeam(), l.H, threads);
}

RecurrentPlan recurrentPlan(const BlasLayout& l, GemmProvider provider, int threads) {
    RecurrentPlan plan = productsPlan(l, provider, threads);
    plan.inputChunk = inputChunkFor(l, plan);
    plan.inputRows = inputRowsFor(l, plan);
    plan.inputAhead = inputAheadFor(l, plan, resolveThreads(threads));
    return plan;
}

namespace {

// Training's GEMMs over all steps in one iteration: per layer the input projection, dW_ih and
// (above layer 0) the input gradients, each 2 * T*B * D*G*H * in, and dW_hh, 2 * T*B * D*G*H * H.
double trainingAllStepsGemmFlops(const BlasLayout& l) {
    double flops = 0;
    for (int layer = 0; layer < l.L; ++layer) {
        const double perInput = 2.0 * double(l.TB()) * double(l.DGH());
        flops += perInput * double(l.layerInput(layer)) * (layer == 0 ? 2 : 3) + perInput * double(l.H);
    }
    return flops;
}

} // namespace

// Measured on the 2-core machine (2026-11-24, rnn_backends_bench, medians of 3-5, 2 threads / 1
// thread, four to seven runs): training at H=64 with its steps on one thread, LSTM and GRU, B=4
// T=20 (13 and 10 MFLOP of all-steps GEMMs) 1.00-1.20 and B=1 T=100 (16 and 12 MFLOP) 0.97-1.15,
// against B=4 T=100 (65 MFLOP) LSTM 0.83-0.96 and B=16 T=20 (52 and 39) 0.80-1.01. In a GRU B=4
// T=20 iteration the SGD step, a serial loop over 37k parameters, took 10.2 us in a two-thread
// session and 3.5 in a one-thread one (3.8 with OMP_WAIT_POLICY=passive, whose sleeping worker
// makes every parallel region slow to start instead); the steps 60 against 44 us.
int sessionThreads(const BlasLayout& l, GemmProvider provider, int requested) {
    const int threads = resolveThreads(requested);
    if (threads == 1 || !l.training || provider != GemmProvider::OneDnn) return threads;
    const RecurrentThreads steps = layoutStepThreads(l, threads);
    const bool serialSteps = steps.team == 1 && steps.singleTeam == 1 && trainingRowTeam(l, threads) == 1;
    return serialSteps && trainingAllStepsGemmFlops(l) < kMinThreadedTrainingGemmFlops ? 1 : threads;
}

std::int64_t inputProjectionSteps(const BlasLayout& l, const RecurrentPlan& plan) {
    return plan.stepInput || plan.inputRows ? 1 : plan.inputChunk > 0 ? plan.inputChunk : l.T;
}

std::int64_t inputChunkSteps(std::int64_t steps, std::int64_t batch, std::int64_t rowBytes,
                             std::int64_t budgetBytes) {
    const std::int64_t stepBytes = batch * rowBytes;
    if (steps * stepBytes <= budgetBytes) return 0;
    const std::int64_t byBudget = budgetBytes / stepBytes;
    const std::int64_t byRows = (kMinInputChunkRows + batch - 1) / batch;
    const std::int64_t chunk = std::max<std::int64_t>({byBudget, byRows, 1});
    return 2 * chunk > steps ? 0 : chunk;
}

std::vector<PackedGemm::Shape> inputGemmShapes(const BlasLayout& l, const RecurrentPlan& plan, int layer) {
    const std::int64_t in = l.layerInput(layer), steps = inputProjectionSteps(l, plan);
    const int team = plan.threads.team;
    std::vector<PackedGemm::Shape> shapes;
    const auto add = [&](std::int64_t m) { shapes.push_back({.m = m, .n = l.DGH(), .k = in, .lda = in}); };
    if (plan.inputRows) {
        for (int i = 0; i < team; ++i)
            add(rowSlice(l.B, i, team).count());
        return shapes;
    }
    if (plan.inputAhead > 0) { // the first steps, the chunks after them, the last chunk (may be none)
        const std::int64_t first = inputAheadFirstSteps(plan.inputAhead);
        for (const std::int64_t chunk : {first, plan.inputAhead, (l.T - first) % plan.inputAhead})
            add(chunk * l.B);
        return shapes;
    }
    const bool shared = plan.inputChunk > 0 && team > 1;
    for (const std::int64_t chunk : {steps, l.T % steps}) {
        if (chunk == 0) continue;
        if (!shared) add(chunk * l.B);
        for (int i = 0; shared && i < team; ++i)
            add(inputChunkShare(chunk * l.B, i, team).count());
    }
    return shapes;
}

std::int64_t inputAheadSteps(std::int64_t steps, std::int64_t batch, std::int64_t input,
                             std::int64_t hidden) {
    if (input > kMaxInputAheadRatio * hidden) return 0;
    const std::int64_t chunk = std::max<std::int64_t>((kInputAheadRows + batch - 1) / batch, 1);
    return inputAheadFirstSteps(chunk) + 2 * chunk > steps ? 0 : chunk;
}

std::int64_t inputAheadFirstSteps(std::int64_t chunk) {
    return (chunk + 1) / 2;
}

RowSlice inputChunkShare(std::int64_t rows, int index, int count) {
    return rowSlice(rows, index, count);
}

int inputGemmThreads(const RecurrentPlan& plan, const PackedGemm::Shape& shape, int threads) {
    const bool teamThread =
        plan.inputRows || plan.inputAhead > 0 || (plan.inputChunk > 0 && plan.threads.team > 1);
    return teamThread ? 1 : inputProjectionGemmThreads(shape.m, shape.n, shape.k, threads);
}

MemoryFootprint packedInputFootprint(const BlasLayout& l, const RecurrentPlan& plan, int threads) {
    MemoryFootprint m;
    if (!plan.inputPacked) return m;
    const dnnl::engine engine = cpuEngine();
    std::uint64_t bytes = 0;
    for (int layer = 0; layer < l.L; ++layer)
        for (const PackedGemm::Shape& shape : inputGemmShapes(l, plan, layer))
            if (shape.m > 0)
                bytes += PackedGemm::requiredBytes(engine, shape,
                                                   inputGemmThreads(plan, shape, resolveThreads(threads)));
    m.addNamed("packed W_ih", BufferCategory::Weights, bytes);
    return m;
}

PackedGemm::Shape stepInputShape(const BlasLayout& l, const RecurrentPlan::Slice& slice, int layer) {
    const std::int64_t in = l.layerInput(layer);
    return {.m = l.B, .n = l.G * slice.units.width(), .k = in, .lda = in};
}

PackedGemm::Shape sliceForwardShape(const BlasLayout& l, const RecurrentPlan& plan,
                                    const RecurrentPlan::Slice& slice, int layer) {
    return plan.stackedInput ? stackedShape(l, slice, layer) : slice.forward;
}

std::int64_t slicePaddedHFloats(const RecurrentPlan& plan, const RecurrentPlan::Slice& slice) {
    return plan.paddedH && slice.units.width() > 0 ? slice.forward.m * slice.forward.lda : 0;
}

std::int64_t sliceInFloats(const BlasLayout& l, const RecurrentPlan& plan, const RecurrentPlan::Slice& slice,
                           int layer) {
    if (plan.stackedInput) return l.B * (l.layerInput(layer) + l.H);
    return plan.stepInput && plan.threads.team > 1 ? l.B * l.G * slice.units.width() : 0;
}

std::int64_t fusedStreamRowsFloats(const BlasLayout& l, const RecurrentPlan& plan) {
    return plan.fusedStream ? fusedStreamRows(l.B) * l.H : 0;
}

int fusedCopies(const RecurrentPlan& plan) {
    return plan.threads.rows ? 1 : plan.threads.team;
}

UnitSlice fusedUnits(const BlasLayout& l, const RecurrentPlan& plan, int index) {
    return plan.threads.rows ? UnitSlice{0, l.H} : unitSlice(l.H, index, plan.threads.team);
}

Index fusedFloats(const BlasLayout& l, const RecurrentPlan& plan, int index) {
    const UnitSlice u = fusedUnits(l, plan, index);
    return fusedSliceFloats(l.H, int(l.G), u.j0, u.j1, kernelIsa());
}

std::int64_t sliceBiasFloats(const BlasLayout& l, const RecurrentPlan& plan,
                             const RecurrentPlan::Slice& slice) {
    return (plan.stackedInput ? 3 : 2) * l.G * slice.units.width();
}

MemoryFootprint packedProductsFootprint(const BlasLayout& l, const RecurrentPlan& plan) {
    MemoryFootprint m;
    if (plan.fused) {
        std::uint64_t floats = 0;
        for (int i = 0; i < fusedCopies(plan); ++i)
            floats += std::uint64_t(fusedFloats(l, plan, i));
        m.addNamed("packed W_hh", BufferCategory::Weights, floats * sizeof(float) * std::uint64_t(l.L * l.D));
        m.add(BufferCategory::Workspace, std::uint64_t(fusedStreamRowsFloats(l, plan)) * sizeof(float) *
                                             std::uint64_t(plan.threads.team));
        return m;
    }
    if (plan.paddedWhh) {
        const std::uint64_t floats = std::uint64_t(l.GH() * paddedRowLd(l.H) * l.L * l.D);
        m.addNamed("packed W_hh", BufferCategory::Weights, floats * sizeof(float));
        return m;
    }
    if (plan.slices.empty()) return m;
    const dnnl::engine engine = cpuEngine();
    std::uint64_t packed = 0, input = 0, out = 0, bias = 0;
    for (int layer = 0; layer < l.L; ++layer)
        for (const RecurrentPlan::Slice& slice : plan.slices) {
            if (slice.units.width() == 0) continue;
            const std::int64_t inFloats = sliceInFloats(l, plan, slice, layer);
            std::uint64_t p =
                PackedGemm::requiredBytes(engine, sliceForwardShape(l, plan, slice, layer), plan.gemmThreads);
            if (slice.backward) p += PackedGemm::requiredBytes(engine, *slice.backward, plan.gemmThreads);
            packed += p * std::uint64_t(l.D);
            out += std::uint64_t(slice.outFloats + inFloats + slicePaddedHFloats(plan, slice)) *
                   sizeof(float) * std::uint64_t(l.D);
            if (inFloats > 0)
                bias += std::uint64_t(sliceBiasFloats(l, plan, slice)) * sizeof(float) * std::uint64_t(l.D);
            if (plan.stepInput && !plan.stackedInput)
                input +=
                    PackedGemm::requiredBytes(engine, stepInputShape(l, slice, layer), plan.gemmThreads) *
                    std::uint64_t(l.D);
        }
    m.addNamed("packed W_hh", BufferCategory::Weights, packed);
    if (plan.stepInput && !plan.stackedInput) m.addNamed("packed W_ih", BufferCategory::Weights, input);
    m.add(BufferCategory::Weights, bias);
    m.add(BufferCategory::Workspace, out);
    return m;
}

std::vector<TransposedGemm::Shape> weightGradientShapes(const BlasLayout& l, int layer) {
    const std::int64_t in = l.layerInput(layer), H = l.H, TB = l.TB();
    std::vector<TransposedGemm::Shape> shapes{
        {.m = l.DGH(), .n = in, .k = TB, .lda = l.DGH(), .ldb = in, .ldc = in}};
    const std::int64_t ld = l.lstm ? l.DGH() : 3 * H; // gate gradients: LSTM's dXP, GRU's dHP
    for (int d = 0; d < l.D; ++d) {
        if (!l.resetBefore()) {
            shapes.push_back({.m = l.GH(), .n = H, .k = TB, .lda = ld, .ldb = H, .ldc = H});
            continue;
        }
        shapes.push_back({.m = 2 * H, .n = H, .k = TB, .lda = ld, .ldb = H, .ldc = H});
        shapes.push_back({.m = H, .n = H, .k = TB, .lda = ld, .ldb = H, .ldc = H});
    }
    return shapes;
}

int weightGradientMatmulThreads(const TransposedGemm::Shape& shape, GemmProvider provider, int threads) {
    if (provider != GemmProvider::OneDnn || !transposedGemmPays(shape)) return 0;
    return allStepsGemmThreads(shape.m, shape.n, shape.k, threads);
}

std::int64_t weightGradientScratchpadFloats(const BlasLayout& l, GemmProvider provider, int threads) {
    if (!l.training) return 0;
    const dnnl::engine engine = cpuEngine();
    std::uint64_t bytes = 0;
    for (int layer = 0; layer < l.L; ++layer)
        for (const TransposedGemm::Shape& shape : weightGradientShapes(l, layer))
            if (const int n = weightGradientMatmulThreads(shape, provider, threads))
                bytes = std::max(bytes, TransposedGemm::scratchpadBytes(engine, shape, n));
    return std::int64_t((bytes + sizeof(float) - 1) / sizeof(float));
}

MemoryFootprint weightGradientFootprint(const BlasLayout& l, GemmProvider provider, int threads) {
    MemoryFootprint m;
    const std::int64_t floats = weightGradientScratchpadFloats(l, provider, resolveThreads(threads));
    if (floats > 0)
        m.addNamed("weight-gradient scratchpad", BufferCategory::Workspace,
                   std::uint64_t(floats) * sizeof(float));
    return m;
}

} // namespace rnnprof::cpu
