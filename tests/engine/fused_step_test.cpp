// cpu-blas's fused recurrent step (engine/cpu/fused_step.h), which inference at batch <=
// kFusedMaxBatch, at any batch where a block of W_hh fits in L1, and (streamed, AVX-512) at batch
// 5-16 where a slice of W_hh lies beyond L2, runs instead of a GEMM and a cell kernel per step: its
// outputs and final states
// must be the double reference's, for every cell it covers, unit counts that are and are not a
// multiple of the vector width (padded blocks), batches that fill a pass over W_hh and leave rows
// over, and teams of one and two threads (each thread its own slice of units). ctest runs these tests
// once more per vector ISA (tests/CMakeLists.txt), so every compiled copy of the step is checked.
#include "engine/backend.h"
#include "engine/cpu/blas_session.h"
#include "engine/cpu/cpu_libraries.h"
#include "engine/cpu/fused_step.h"
#include "engine/cpu/kernel_list.h"
#include "engine/cpu/step_team.h"
#include "engine/forced_isa.h"
#include "engine/reference/reference_rnn.h"
#include "support/compare.h"
#include "support/cpu_problems.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace rnnprof::test {
namespace {

Problem fusedProblem(CellType cell, int hidden, int batch, int threads) {
    Problem p = inferenceProblem(cell, 24, hidden, 1, 11, threads);
    p.shape = {.batch = batch, .seqLen = 6};
    return p;
}

// Runs cpu-blas on `p` and checks y, h_n and c_n against the double reference; returns its notes.
std::vector<std::string> expectMatchesReference(const Problem& p) {
    const Backend* blas = builtinBackends().find("cpu-blas");
    EXPECT_NE(blas, nullptr);
    if (!blas) return {};
    auto session = blas->prepare(p);
    NullPhaseHook hook;
    session->run(hook);
    const RunOutputs out = session->outputs();
    const auto ref = reference::runIteration<double>(p);
    EXPECT_TRUE(tensorsClose(out.y.cast<double>(), ref.y, 1e-5, "output y"));
    EXPECT_TRUE(tensorsClose(out.hN.cast<double>(), ref.hN, 1e-5, "final h"));
    if (p.config.cell == CellType::Lstm) {
        EXPECT_TRUE(tensorsClose(out.cN.cast<double>(), ref.cN, 1e-5, "final c"));
    }
    return session->notes();
}

constexpr const char* kFusedNote = "recurrent steps fused";

class FusedStepTest : public testing::TestWithParam<std::tuple<CellType, int, int, int>> {};

TEST_P(FusedStepTest, InferenceEqualsTheReference) {
    if (const auto missing = forcedIsaMissing()) GTEST_SKIP() << *missing;
    const auto [cell, hidden, batch, threads] = GetParam();
    const std::vector<std::string> notes = expectMatchesReference(fusedProblem(cell, hidden, batch, threads));
    EXPECT_TRUE(hasNote(notes, kFusedNote)) << "this problem is meant to run the fused step";
}

// H = 37 is no multiple of any vector width (4, 8, 16); 100 splits into slices of 48 and 52 units
// on a team of two; 256 is the benchmark's size. B = 2 and 3 are short passes on AVX-512 (4 rows a
// pass); 3 leaves a row over after a pass of 2 on AVX2 and SSE2.
INSTANTIATE_TEST_SUITE_P(Shapes, FusedStepTest,
                         testing::Combine(testing::Values(CellType::Lstm, CellType::Gru),
                                          testing::Values(37, 100, 256), testing::Values(1, 2, 3, 4),
                                          testing::Values(1, 2)));

// Larger batches where a block's weights stay in L1 (H = 37 and 90 on every ISA with an L1 of 32 KiB
// or more: LSTM H=90 with AVX-512 is 22.5 KiB a block): many passes over each block, full and
// short, per step (25 = 6 passes of 4 rows and one of 1 on AVX-512). At 2 threads H = 37 stays on
// one thread, and H = 90 runs on a team of two: over units (slices of 48 and 42) at B = 5, over
// rows at B = 16 and 25 (8 + 8 and 16 + 9 rows; blas_plan.cpp).
INSTANTIATE_TEST_SUITE_P(LargeBatches, FusedStepTest,
                         testing::Combine(testing::Values(CellType::Lstm, CellType::Gru),
                                          testing::Values(37, 90), testing::Values(5, 16, 25),
                                          testing::Values(1, 2)));

// With two threads, a step large enough for a team of two splits its units: each thread runs the
// fused step on its own slice.
TEST(FusedStep, TwoThreadTeamSplitsTheUnits) {
    if (const auto missing = forcedIsaMissing()) GTEST_SKIP() << *missing;
    if (availableCpuCores() < 2) GTEST_SKIP() << "one core: OpenMP gives a team of one";
    for (CellType cell : {CellType::Lstm, CellType::Gru}) {
        SCOPED_TRACE(cell == CellType::Lstm ? "LSTM" : "GRU");
        const std::vector<std::string> notes = expectMatchesReference(fusedProblem(cell, 256, 4, 2));
        EXPECT_TRUE(hasNote(notes, kFusedNote));
        EXPECT_TRUE(hasNote(notes, "units split across the team"));
    }
}

// Every layer and direction has its own packed copy, read with the strides of a bidirectional
// layer's output; the other activations go through the same gate math.
TEST(FusedStep, StackedBidirectionalWithOtherActivationsEqualsTheReference) {
    if (const auto missing = forcedIsaMissing()) GTEST_SKIP() << *missing;
    for (CellType cell : {CellType::Lstm, CellType::Gru}) {
        SCOPED_TRACE(cell == CellType::Lstm ? "LSTM" : "GRU");
        Problem p = fusedProblem(cell, 40, 2, 1);
        p.config.layers = 2;
        p.config.bidirectional = true;
        p.config.activation = Activation::Relu;
        p.config.recurrentActivation = RecurrentActivation::HardSigmoid;
        p.config.bias = false;
        EXPECT_TRUE(hasNote(expectMatchesReference(p), kFusedNote));
    }
}

// A block of W_hh stays in L1 where it takes at most three quarters of it, and never more than
// 32 KiB. Hand-derived block sizes (H * gates * lanes * 4 bytes): LSTM H=128 with AVX-512's 16 lanes
// 32 KiB, in a 48 KiB L1 (36 KiB) but not in a 32 KiB one (24 KiB); H=144 (36 KiB) in neither, nor
// in a 1 MiB one; GRU H=128 24 KiB, in both; LSTM H=192 with AVX2's 8 lanes 24 KiB; LSTM H=64 16
// KiB, also in a 24 KiB L1 (18 KiB), where H=128 GRU is not.
TEST(FusedStep, ABlockStaysInThreeQuartersOfL1) {
    using cpu::fusedBlockInL1;
    using cpu::Isa;
    EXPECT_TRUE(fusedBlockInL1(128, 4, Isa::Avx512, 48 * 1024));
    EXPECT_FALSE(fusedBlockInL1(144, 4, Isa::Avx512, 48 * 1024));
    EXPECT_FALSE(fusedBlockInL1(144, 4, Isa::Avx512, 1024 * 1024));
    EXPECT_FALSE(fusedBlockInL1(128, 4, Isa::Avx512, 32 * 1024));
    EXPECT_TRUE(fusedBlockInL1(128, 3, Isa::Avx512, 32 * 1024));
    EXPECT_TRUE(fusedBlockInL1(192, 4, Isa::Avx2, 32 * 1024));
    EXPECT_FALSE(fusedBlockInL1(193, 4, Isa::Avx2, 32 * 1024));
    EXPECT_TRUE(fusedBlockInL1(64, 4, Isa::Avx512, 24 * 1024));
    EXPECT_FALSE(fusedBlockInL1(128, 3, Isa::Avx512, 24 * 1024));
    EXPECT_GT(cpu::l1DataCacheBytes(), 0);
}

// Where the fused step does not apply, the session keeps the GEMM and the cell kernel.
// Above kFusedMaxBatch only where a block of W_hh stays in L1 (above): H = 64 does on every ISA
// with an L1 of 24 KiB or more (64 * 4 gates * 16 lanes * 4 bytes = 16 KiB with AVX-512), H = 1024
// on none (64 KiB with SSE2's 4 lanes); or, with AVX-512, streamed up to batch 16 where W_hh (16 MiB
// at H = 1024, one thread) takes more than L2, but never at batch 17.
TEST(FusedStep, OnlyInferenceOfLstmAndResetAfterGruAtSmallBatchOrWithBlocksInL1) {
    const Backend* blas = builtinBackends().find("cpu-blas");
    ASSERT_NE(blas, nullptr);
    const auto fused = [&](const Problem& p) { return hasNote(blas->prepare(p)->notes(), kFusedNote); };
    EXPECT_TRUE(fused(fusedProblem(CellType::Lstm, 1024, int(cpu::kFusedMaxBatch), 1)));
    const bool streams = cpu::kernelIsa() == cpu::Isa::Avx512 && cpu::l2CacheBytes() <= 16 * 1024 * 1024;
    EXPECT_EQ(fused(fusedProblem(CellType::Lstm, 1024, int(cpu::kFusedMaxBatch) + 1, 1)), streams);
    EXPECT_EQ(fused(fusedProblem(CellType::Lstm, 1024, int(cpu::kFusedStreamMaxBatch), 1)), streams);
    EXPECT_FALSE(fused(fusedProblem(CellType::Lstm, 1024, int(cpu::kFusedStreamMaxBatch) + 1, 1)));
    EXPECT_TRUE(fused(fusedProblem(CellType::Lstm, 64, 64, 1)));
    EXPECT_TRUE(fused(fusedProblem(CellType::Gru, 64, 256, 1)));
    Problem training = fusedProblem(CellType::Lstm, 64, 1, 1);
    training.mode = Mode::Training;
    EXPECT_FALSE(fused(training));
    Problem resetBefore = fusedProblem(CellType::Gru, 64, 1, 1);
    resetBefore.config.resetAfter = false;
    EXPECT_FALSE(fused(resetBefore));
    Problem openBlas = fusedProblem(CellType::Lstm, 64, 1, 1);
    openBlas.options.gemm = GemmProvider::OpenBlas;
    EXPECT_FALSE(fused(openBlas));
}

// The streamed step's rule (fusedStreamPays()), by hand: AVX-512 only (AVX2's 16 vector registers
// do not hold 16 rows' accumulators), up to 16 rows, and only a slice of W_hh of at least L2's size.
TEST(FusedStep, StreamsSlicesOfAtLeastL2WithAvx512UpToSixteenRows) {
    using cpu::fusedStreamPays;
    using cpu::Isa;
    constexpr cpu::Index MiB = 1024 * 1024;
    EXPECT_TRUE(fusedStreamPays(Isa::Avx512, 16, 2 * MiB, 2 * MiB));
    EXPECT_TRUE(fusedStreamPays(Isa::Avx512, 5, 16 * MiB, 2 * MiB));
    EXPECT_FALSE(fusedStreamPays(Isa::Avx512, 17, 16 * MiB, 2 * MiB));
    EXPECT_FALSE(fusedStreamPays(Isa::Avx512, 16, 2 * MiB - 4, 2 * MiB));
    EXPECT_FALSE(fusedStreamPays(Isa::Avx2, 16, 16 * MiB, 2 * MiB));
    EXPECT_FALSE(fusedStreamPays(Isa::Sse2, 8, 16 * MiB, 1 * MiB));
    // A pass takes 8, 12 or 16 rows: the batch rounded up.
    EXPECT_EQ(cpu::fusedStreamRows(5), 8);
    EXPECT_EQ(cpu::fusedStreamRows(8), 8);
    EXPECT_EQ(cpu::fusedStreamRows(9), 12);
    EXPECT_EQ(cpu::fusedStreamRows(12), 12);
    EXPECT_EQ(cpu::fusedStreamRows(13), 16);
    EXPECT_EQ(cpu::fusedStreamRows(16), 16);
}

// One step of the fused kernel on random operands, for the given block order; writes into
// pre-filled outputs so that what it must not touch can be checked.
struct KernelStep {
    static constexpr float kUntouched = -7.0f;
    int gates;
    cpu::Index batch, hidden, j0, j1;
    std::vector<float> whh, bih, bhh, h, xp, cPrev, c, hOut;
    cpu::Index ldh, ldhOut;

    KernelStep(int g, cpu::Index b, cpu::Index H, cpu::Index first, cpu::Index last)
        : gates(g), batch(b), hidden(H), j0(first), j1(last), ldh(H + 3), ldhOut(H + 5) {
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        const auto random = [&](std::size_t n) {
            std::vector<float> v(n);
            for (float& x : v)
                x = u(rng);
            return v;
        };
        whh = random(std::size_t(g * H * H));
        bih = random(std::size_t(g * H));
        bhh = random(std::size_t(g * H));
        h = random(std::size_t(b * ldh));
        xp = random(std::size_t(b * g * H));
        cPrev = random(std::size_t(b * H));
    }

    void run(cpu::FusedOrder order, bool backwards = false) {
        const cpu::Isa isa = cpu::kernelIsa();
        cpu::AlignedFloats packed(std::size_t(cpu::fusedSliceFloats(hidden, gates, j0, j1, isa)));
        cpu::packFusedSlice({.whh = whh.data(),
                             .bih = bih.data(),
                             .bhh = bhh.data(),
                             .hidden = hidden,
                             .gates = gates,
                             .j0 = j0,
                             .j1 = j1,
                             .order = order},
                            isa, packed.data());
        std::vector<float> hByK(std::size_t(cpu::fusedStreamRows(batch) * hidden), kUntouched);
        c.assign(std::size_t(batch * hidden), kUntouched);
        hOut.assign(std::size_t(batch * ldhOut), kUntouched);
        const cpu::FusedStepArgs args{.batch = batch,
                                      .hidden = hidden,
                                      .h = h.data(),
                                      .ldh = ldh,
                                      .xp = xp.data(),
                                      .ldxp = gates * hidden,
                                      .cPrev = gates == 4 ? cPrev.data() : nullptr,
                                      .c = gates == 4 ? c.data() : nullptr,
                                      .hOut = hOut.data(),
                                      .ldhOut = ldhOut,
                                      .hByK = order == cpu::FusedOrder::GateMajor ? hByK.data() : nullptr};
        cpu::fusedStep(cpu::ActsTanhSigmoid{}, gates == 4, {packed.data(), j0, j1, order, backwards}, args);
    }
};

// The streamed step (FusedOrder::GateMajor: every row in one pass of 8, 12 or 16 rows, one gate at
// a time) computes what the passes of a few rows over KMajor blocks compute, to float rounding (a
// row of a short KMajor pass sums its products in two partial sums, a streamed row in one), and it
// writes the slice's units of the batch's rows only. Units [3, 37) of H = 37: two full blocks and a
// padded one with AVX-512's 16 lanes; batches that fill a pass and that leave zero rows in it. Runs
// on every compiled ISA (ctest's per-ISA runs).
TEST(FusedStep, StreamedPassEqualsPassesOfFewRows) {
    if (const auto missing = forcedIsaMissing()) GTEST_SKIP() << *missing;
    constexpr float kRounding = 1e-5f; // pre-activations: sums of 37 products of magnitude < 1
    for (int gates : {4, 3})
        for (cpu::Index batch : {5, 8, 9, 12, 13, 16}) {
            SCOPED_TRACE((gates == 4 ? "LSTM, batch " : "GRU, batch ") + std::to_string(batch));
            KernelStep step(gates, batch, 37, 3, 37);
            step.run(cpu::FusedOrder::KMajor);
            const std::vector<float> c = step.c, hOut = step.hOut;
            step.run(cpu::FusedOrder::GateMajor);
            int written = 0;
            for (cpu::Index b = 0; b < batch; ++b)
                for (cpu::Index j = 0; j < step.hidden; ++j) {
                    const bool inSlice = j >= step.j0 && j < step.j1;
                    const float hj = step.hOut[std::size_t(b * step.ldhOut + j)];
                    ASSERT_NEAR(hj, hOut[std::size_t(b * step.ldhOut + j)], kRounding)
                        << "h of row " << b << ", unit " << j;
                    EXPECT_EQ(hj == KernelStep::kUntouched, !inSlice) << "row " << b << ", unit " << j;
                    if (gates == 4) {
                        ASSERT_NEAR(step.c[std::size_t(b * step.hidden + j)],
                                    c[std::size_t(b * step.hidden + j)], kRounding);
                    }
                    written += inSlice && std::isfinite(hj) && std::fabs(hj) < 1.0f;
                }
            EXPECT_EQ(written, batch * (step.j1 - step.j0)); // every h of the slice is a tanh-bounded value
            for (cpu::Index b = 0; b < batch; ++b)           // nothing past a row's H units
                for (cpu::Index j = step.hidden; j < step.ldhOut; ++j)
                    EXPECT_EQ(step.hOut[std::size_t(b * step.ldhOut + j)], KernelStep::kUntouched);
        }
}

// Every other step runs the slice's blocks from last to first (fusedBackwards(), so that a slice
// larger than L2 finds part of itself there): each block's units depend on h_{t-1} and the block's
// own weights only, so the order changes no bit of c_t and h_t, and it writes the same units.
// Units [3, 37) of H = 37 (three to nine blocks, the last one padded, by ISA), passes of one and
// three rows (KMajor) and a streamed pass (GateMajor, batch 6).
TEST(FusedStep, BlocksBackwardsGiveTheSameBits) {
    if (const auto missing = forcedIsaMissing()) GTEST_SKIP() << *missing;
    EXPECT_FALSE(cpu::fusedBackwards(0));
    EXPECT_TRUE(cpu::fusedBackwards(1));
    EXPECT_FALSE(cpu::fusedBackwards(2));
    const struct {
        cpu::FusedOrder order;
        cpu::Index batch;
    } cases[] = {{cpu::FusedOrder::KMajor, 1}, {cpu::FusedOrder::KMajor, 3}, {cpu::FusedOrder::GateMajor, 6}};
    for (int gates : {4, 3})
        for (const auto& [order, batch] : cases) {
            SCOPED_TRACE(std::string(gates == 4 ? "LSTM" : "GRU") + ", batch " + std::to_string(batch) +
                         (order == cpu::FusedOrder::KMajor ? ", KMajor" : ", GateMajor"));
            KernelStep step(gates, batch, 37, 3, 37);
            step.run(order);
            const std::vector<float> c = step.c, hOut = step.hOut;
            step.run(order, true);
            EXPECT_EQ(step.hOut, hOut); // also every untouched float outside the slice
            if (gates == 4) {
                EXPECT_EQ(step.c, c);
            }
            int inSlice = 0;
            for (cpu::Index b = 0; b < batch; ++b)
                for (cpu::Index j = step.j0; j < step.j1; ++j)
                    inSlice += step.hOut[std::size_t(b * step.ldhOut + j)] != KernelStep::kUntouched;
            EXPECT_EQ(inSlice, batch * (step.j1 - step.j0)); // so the comparison covered the slice
        }
}

// The hidden size whose slice of W_hh (a team of `threads` over the units) takes at least this
// machine's L2, so that the streamed step runs with AVX-512; 0 where that would take more than
// 1100 units (the double reference's time).
int streamedHidden(int gates, int threads) {
    for (int hidden = 133; hidden <= 1100; hidden += 16) {
        const cpu::Index sliceBytes = gates * cpu::unitSlice(hidden, 0, threads).width() * hidden * 4;
        if (sliceBytes >= cpu::l2CacheBytes()) return hidden;
    }
    return 0;
}

class StreamedStepTest : public testing::TestWithParam<std::tuple<CellType, int, int>> {};

// Sessions on the streamed step: one and two layers (the second reads the first's output), teams of
// one and two threads over the units, against the double reference. H is 5 past a multiple of 16
// (a padded block). Without AVX-512 the same problems run the packed products.
TEST_P(StreamedStepTest, InferenceEqualsTheReference) {
    if (const auto missing = forcedIsaMissing()) GTEST_SKIP() << *missing;
    const auto [cell, batch, threads] = GetParam();
    if (threads > 1 && availableCpuCores() < 2) GTEST_SKIP() << "one core: OpenMP gives a team of one";
    const int hidden = streamedHidden(cell == CellType::Lstm ? 4 : 3, threads);
    if (hidden == 0) GTEST_SKIP() << "this machine's L2 (" << cpu::l2CacheBytes() << " bytes) needs H > 1100";
    Problem p = fusedProblem(cell, hidden, batch, threads);
    p.shape.seqLen = 3;
    p.config.layers = 2;
    const std::vector<std::string> notes = expectMatchesReference(p);
    EXPECT_EQ(hasNote(notes, "W_hh streamed from beyond L2"), cpu::kernelIsa() == cpu::Isa::Avx512)
        << "H=" << hidden;
}

INSTANTIATE_TEST_SUITE_P(Shapes, StreamedStepTest,
                         testing::Combine(testing::Values(CellType::Lstm, CellType::Gru),
                                          testing::Values(5, 12, 16), testing::Values(1, 2)));

} // namespace
} // namespace rnnprof::test
