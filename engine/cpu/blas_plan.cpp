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
bool fusedStepPays(const BlasLayout& l) {
    return l.B <= kFusedMaxBatch || fusedBlockInL1(l.H, int(l.G), kernelIsa(), l1DataCacheBytes());
}

// The bytes of one batch row of one step's input projection, and the part of L2 the projection of
// all steps may take before the projection runs closer to the steps (PackedChunks, PackedRows).
std::int64_t projectionRowBytes(const BlasLayout& l) {
    return l.DGH() * std::int64_t(sizeof(float));
}
std::int64_t projectionL2BudgetBytes() {
    return l2CacheBytes() / kInputChunkL2Divisor;
}

// Training on a team that splits the batch rows (rowTeamThreads()): each thread runs the forward and backward
// steps of its rows on its own packed copies of all of W_hh, so both copies must fit in half its L2 (LSTM up
// to H=181 at 2 MiB). Its threads then read nothing that another wrote in the recurrence. 1: no such team.
// RNNPROF_STEP_TEAM=rows drops the L2 bound, a forced team or split forbids the rows. See docs/cpu-blas.md.
int trainingRowTeam(const BlasLayout& l, int threads) {
    const ForcedStepTeam& forced = forcedStepTeam();
    if (!l.training || forced.team != 0) return 1;
    const std::int64_t copiesBytes = 2 * l.GH() * l.H * std::int64_t(sizeof(float));
    if (copiesBytes > l2CacheBytes() / 2 && !forced.rows) return 1;
    return rowTeamThreads(stepFlops(l), l.B, threads, true);
}

// The chunk of InputProjection::PackedChunks for a plan projecting all steps on packed W_ih, 0 where it does
// not apply; not on a team that splits the rows (PackedRows instead: its threads read only their own rows).
// A projection of all steps beyond the L2 budget goes through memory before the steps read it back; in chunks
// of steps it stays in L2. See docs/cpu-blas.md.
std::int64_t inputChunkFor(const BlasLayout& l, const RecurrentPlan& plan) {
    if (plan.input != InputProjection::PackedAllSteps || l.D != 1 || plan.threads.rows) return 0;
    return inputChunkSteps(l.T, l.B, projectionRowBytes(l), projectionL2BudgetBytes());
}

// Whether a plan projecting all steps on packed W_ih takes InputProjection::PackedRows: on a team
// over the rows whose
// projection of all steps exceeds the L2 budget, each thread projects its own rows of one step just
// before the step, so the projection stays in L2 instead of going through memory (GRU H=64 B=256
// T=100, two threads: 0.8x the time). See docs/cpu-blas.md.
bool inputRowsFor(const BlasLayout& l, const RecurrentPlan& plan) {
    if (plan.input != InputProjection::PackedAllSteps || l.D != 1 || plan.threads.team == 1 ||
        !plan.threads.rows)
        return false;
    return l.T * l.B * projectionRowBytes(l) > projectionL2BudgetBytes();
}

// The chunk of InputProjection::PackedAhead for a plan projecting all steps on packed W_ih, 0 where it does
// not apply (to be asked after PackedChunks and PackedRows). Where the recurrence runs on one thread, the
// other threads would only run the input GEMM over all steps before it; instead a second thread projects the
// later steps beside the recurrence, whose own thread projects the first ones (inputAheadFirstSteps()) so
// that it starts without waiting for a whole chunk. See docs/cpu-blas.md.
std::int64_t inputAheadFor(const BlasLayout& l, const RecurrentPlan& plan, int threads) {
    if (plan.input != InputProjection::PackedAllSteps || l.D != 1 || threads < 2 || plan.threads.team != 1 ||
        plan.threads.singleTeam != 1)
        return 0;
    return inputAheadSteps(l.T, l.B, l.layerInput(0), l.H);
}

// RecurrentProduct::PackedPaddedH. oneDNN's packed sgemm reads h_{t-1} faster from rows padded off a multiple
// of 4 KiB, as oneDNN's own RNN primitive pads its states (rnn_utils' get_good_ld()): from 48 rows on
// 0.83-1.01x the time of plain rows (0.83-0.93x at 64), at 32 rows and fewer 1.08-1.58x, hence
// kMinPaddedRows. Rows 2 or 3 KiB apart gain little and stay as they are. See docs/cpu-blas.md.
bool paddedHPays(const BlasLayout& l, const RecurrentPlan& plan) {
    if (l.training || plan.slices.empty() || !hiddenRowsAlias(l.H)) return false;
    for (const RecurrentPlan::Slice& slice : plan.slices)
        if (slice.units.width() > 0 &&
            (slice.forward.m < kMinPaddedRows || !runsOnPackedSgemm(slice.forward)))
            return false;
    return true;
}

// recurrentPlan() but for the input projections that follow from the rest (PackedChunks,
// PackedRows, PackedAhead).
RecurrentPlan productsPlan(const BlasLayout& l, GemmProvider provider, int threads) {
    RecurrentPlan plan;
    // With OpenBLAS, its own pool runs the step's GEMMs and our loops stay on one thread.
    if (provider != GemmProvider::OneDnn) return plan;
    // Inference's weights stay as they are, so W_ih is packed once (or per slice: EachStep, below):
    // 0.73-0.86x the time of sgemm at H=64 B=1. See docs/cpu-blas.md.
    plan.input = l.training ? InputProjection::AllSteps : InputProjection::PackedAllSteps;
    const int available = resolveThreads(threads);
    plan.threads = layoutStepThreads(l, available);
    // Above kFusedMaxBatch, a slice of W_hh that streams from beyond L2 each step runs the fused step
    // too, every row in one pass (fused_step.h, fusedStreamPays(): why, and what it measured), on a
    // team that splits the units (a team over the rows would stream all of W_hh on every thread).
    const bool fusedCell = !l.training && (l.lstm || l.resetAfter);
    const bool streamed =
        fusedCell && l.B > kFusedMaxBatch &&
        fusedStreamPays(kernelIsa(), l.B, sliceWhhBytes(l, plan.threads.team), l2CacheBytes());
    const bool fusable = fusedCell && (fusedStepPays(l) || streamed);
    // Where the rows allow a team at least as large as the units do, the fused step runs on a team that
    // splits the rows instead (recurrent_threads.h: rowTeamThreads()): its threads read only the state they
    // wrote, where a team over the units reads every unit of h_{t-1}, half of it from the other core.
    // Training takes a team over the rows on its own terms (trainingRowTeam()). See docs/cpu-blas.md.
    const int rowTeam = l.training ? trainingRowTeam(l, available)
                        : fusable && !streamed && forcedStepTeam().team == 0
                            ? rowTeamThreads(stepFlops(l), l.B, available, false)
                            : 1;
    if (rowTeam > 1 && rowTeam >= plan.threads.team)
        plan.threads = {.team = rowTeam, .singleTeam = 1, .rows = true};
    const int team = plan.threads.team;
    plan.gemmThreads = team > 1 ? 1 : plan.threads.singleTeam;
    // Inference at small batch, or where a block of W_hh fits in L1 (fusedStepPays()): the fused
    // step (fused_step.h) on the team's slices of units or rows, with no GEMM call and no gate buffer. A team
    // of one that would run its GEMMs on several threads keeps them, and so does --gemm openblas (returned
    // above).
    if (fusable && (team > 1 || plan.threads.singleTeam == 1)) {
        plan.product = streamed ? RecurrentProduct::FusedStream : RecurrentProduct::Fused;
        return plan;
    }
    // Training at batch 1 on one thread, W_hh's rows 4 KiB apart: the forward products on a padded
    // copy (small_batch_gemm.h), whose forward steps took 0.6-0.85x the time on plain rows (H=1024)
    // for a copy of 1.2-1.7 ms an iteration after SGD. See docs/cpu-blas.md.
    if (l.training && l.B == 1 && team == 1 && plan.threads.singleTeam == 1 && hiddenRowsAlias(l.H)) {
        plan.product = RecurrentProduct::PaddedCopy;
        return plan;
    }
    // The packed products cover the recurrent GEMMs of LSTM and reset-after GRU, whose operands
    // keep one row stride for the whole sequence (the reset-before GRU's products read strided
    // column blocks, and a bidirectional inference reads h0 and y with different strides).
    if (!(l.lstm || l.resetAfter) || !(l.training || l.D == 1)) return plan;
    // Training below batch 4 keeps sgemm on a team of one or where a thread's slice of W_hh stays below
    // kMinSmallBatchPackedSliceBytes: the repack after every SGD step and the backward product (K = GH) gain
    // nothing there. A larger slice, which sgemm would read in place from beyond L2, pays for each thread
    // packing it into its own cache. See docs/cpu-blas.md.
    if (smallBatchTeamOnSgemm(l, team)) return plan;
    // A team over the units: a slice of W_hh per thread, on every row; over the rows (training): all
    // of W_hh per thread, on its rows, written in place.
    const bool rows = plan.threads.rows;
    plan.product = RecurrentProduct::Packed;
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
    // Inference with the input projection of all T steps done first reads each step's back from memory in the
    // gate pass; projecting each step's input just before its recurrent product keeps it in L2, and a team's
    // threads read their slice products in place. It pays from kMinStepInputBatch rows,
    // kMinTeamStepInputBatch on a team. Training only on a team of one (a team's slice layout does not fit
    // the gates training keeps); one direction only (a bidirectional layer's directions share the rows of the
    // projection). See docs/cpu-blas.md.
    if (l.D == 1 && (!l.training || team == 1) &&
        l.B >= (team > 1 ? kMinTeamStepInputBatch : kMinStepInputBatch))
        plan.input = InputProjection::EachStep;
    if (paddedHPays(l, plan)) {
        plan.product = RecurrentProduct::PackedPaddedH;
        for (RecurrentPlan::Slice& slice : plan.slices)
            slice.forward.lda = paddedRowLd(l.H);
    }
    return plan;
}

} // namespace

// The threads of every step of this layout's recurrence over its H units. Training below batch 4
// whose team of more than two threads would run on sgemm takes a team of one on every GEMM thread
// instead where the step is large enough to split (kMinSplitStepFlops): on 16 threads that took 0.65x
// the time of a team of 13 on sgemm (LSTM H=512 B=1). A team of two keeps its sgemm, no slower than
// the split. See docs/cpu-blas.md.
RecurrentThreads layoutStepThreads(const BlasLayout& l, int threads) {
    RecurrentThreads r = recurrentThreads(stepFlops(l), l.H, threads, l.training);
    if (r.team > 2 && smallBatchTeamOnSgemm(l, r.team) && stepFlops(l) >= kMinSplitStepFlops)
        r = {.team = 1, .singleTeam = std::max(threads, 1)};
    return forcedStepThreads(r, forcedStepTeam(), l.H, threads);
}

RecurrentPlan recurrentPlan(const BlasLayout& l, GemmProvider provider, int threads) {
    RecurrentPlan plan = productsPlan(l, provider, threads);
    if (const std::int64_t chunk = inputChunkFor(l, plan); chunk > 0) {
        plan.input = InputProjection::PackedChunks;
        plan.inputSteps = chunk;
    } else if (inputRowsFor(l, plan)) {
        plan.input = InputProjection::PackedRows;
    } else if (const std::int64_t ahead = inputAheadFor(l, plan, resolveThreads(threads)); ahead > 0) {
        plan.input = InputProjection::PackedAhead;
        plan.inputSteps = ahead;
    }
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

// Training whose steps run on one thread: below kMinThreadedTrainingGemmFlops of all-steps GEMMs a
// second thread gained nothing (two threads / one: 0.97-1.20 at 10-16 MFLOP, 0.80-1.01 from 39 MFLOP
// on), and its parallel regions slowed the serial parts: the SGD step of GRU H=64 B=4 took 10.2 us
// against 3.5 on one thread. See docs/cpu-blas.md.
int sessionThreads(const BlasLayout& l, GemmProvider provider, int requested) {
    const int threads = resolveThreads(requested);
    if (threads == 1 || !l.training || provider != GemmProvider::OneDnn) return threads;
    const RecurrentThreads steps = layoutStepThreads(l, threads);
    const bool serialSteps = steps.team == 1 && steps.singleTeam == 1 && trainingRowTeam(l, threads) == 1;
    return serialSteps && trainingAllStepsGemmFlops(l) < kMinThreadedTrainingGemmFlops ? 1 : threads;
}

std::int64_t inputProjectionSteps(const BlasLayout& l, const RecurrentPlan& plan) {
    switch (plan.input) {
    case InputProjection::EachStep:
    case InputProjection::PackedRows:
        return 1;
    case InputProjection::PackedChunks:
        return plan.inputSteps;
    default:
        return l.T;
    }
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
    if (plan.input == InputProjection::PackedRows) {
        for (int i = 0; i < team; ++i)
            add(rowSlice(l.B, i, team).count());
        return shapes;
    }
    if (plan.input == InputProjection::PackedAhead) { // the first steps, the chunks after them, the last
        const std::int64_t first = inputAheadFirstSteps(plan.inputSteps);
        for (const std::int64_t chunk : {first, plan.inputSteps, (l.T - first) % plan.inputSteps})
            add(chunk * l.B);
        return shapes;
    }
    const bool shared = plan.input == InputProjection::PackedChunks && team > 1;
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
    const bool teamThread = plan.input == InputProjection::PackedRows ||
                            plan.input == InputProjection::PackedAhead ||
                            (plan.input == InputProjection::PackedChunks && plan.threads.team > 1);
    return teamThread ? 1
                      : allStepsGemmThreads(AllStepsGemm::InferenceInput, shape.m, shape.n, shape.k, threads);
}

MemoryFootprint packedInputFootprint(const BlasLayout& l, const RecurrentPlan& plan, int threads) {
    MemoryFootprint m;
    if (!isPackedInput(plan.input)) return m;
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

void declarePackedProducts(const BlasLayout& l, const RecurrentPlan& plan,
                           const std::function<void(const SliceProductsPlan&)>& declare) {
    if (!isPacked(plan.product)) return;
    const bool eachStep = plan.input == InputProjection::EachStep;
    const bool padded = plan.product == RecurrentProduct::PackedPaddedH;
    for (int layer = 0; layer < l.L; ++layer)
        for (int d = 0; d < l.D; ++d)
            for (int i = 0; i < int(plan.slices.size()); ++i) {
                const RecurrentPlan::Slice& slice = plan.slices[std::size_t(i)];
                const std::int64_t w = slice.units.width(), in = l.layerInput(layer);
                if (w == 0) continue;
                SliceProductsPlan s;
                s.layer = layer;
                s.direction = d;
                s.slice = i;
                s.forward = slice.forward;
                s.backward = slice.backward;
                s.outFloats = slice.outFloats;
                if (eachStep) s.input = PackedGemm::Shape{.m = l.B, .n = l.G * w, .k = in, .lda = in};
                if (eachStep && plan.threads.team > 1) s.inFloats = l.B * l.G * w;
                if (padded) s.paddedHFloats = slice.forward.m * slice.forward.lda;
                if (s.inFloats > 0) s.biasFloats = 2 * l.G * w;
                declare(s);
            }
}

std::int64_t fusedStreamRowsFloats(const BlasLayout& l, const RecurrentPlan& plan) {
    return plan.product == RecurrentProduct::FusedStream ? fusedStreamRows(l.B) * l.H : 0;
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

MemoryFootprint packedProductsFootprint(const BlasLayout& l, const RecurrentPlan& plan) {
    MemoryFootprint m;
    if (isFused(plan.product)) {
        std::uint64_t floats = 0;
        for (int i = 0; i < fusedCopies(plan); ++i)
            floats += std::uint64_t(fusedFloats(l, plan, i));
        m.addNamed("packed W_hh", BufferCategory::Weights, floats * sizeof(float) * std::uint64_t(l.L * l.D));
        m.add(BufferCategory::Workspace, std::uint64_t(fusedStreamRowsFloats(l, plan)) * sizeof(float) *
                                             std::uint64_t(plan.threads.team));
        return m;
    }
    if (plan.product == RecurrentProduct::PaddedCopy) {
        const std::uint64_t floats = std::uint64_t(l.GH() * paddedRowLd(l.H) * l.L * l.D);
        m.addNamed("packed W_hh", BufferCategory::Weights, floats * sizeof(float));
        return m;
    }
    if (!isPacked(plan.product)) return m;
    const dnnl::engine engine = cpuEngine();
    const auto bytesOf = [&](const PackedGemm::Shape& shape) {
        return PackedGemm::requiredBytes(engine, shape, plan.gemmThreads);
    };
    std::uint64_t packed = 0, input = 0, floats = 0, bias = 0;
    declarePackedProducts(l, plan, [&](const SliceProductsPlan& s) {
        packed += bytesOf(s.forward) + (s.backward ? bytesOf(*s.backward) : 0);
        input += s.input ? bytesOf(*s.input) : 0;
        floats += std::uint64_t(s.outFloats + s.inFloats + s.paddedHFloats);
        bias += std::uint64_t(s.biasFloats);
    });
    m.addNamed("packed W_hh", BufferCategory::Weights, packed);
    if (plan.input == InputProjection::EachStep) m.addNamed("packed W_ih", BufferCategory::Weights, input);
    m.add(BufferCategory::Weights, bias * sizeof(float));
    m.add(BufferCategory::Workspace, floats * sizeof(float));
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
    return allStepsGemmThreads(AllStepsGemm::Training, shape.m, shape.n, shape.k, threads);
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
