// cpu-blas's fused recurrent step (engine/cpu/fused_step.h), which inference at batch <=
// kFusedMaxBatch, and at any batch where a block of W_hh fits in L1, runs instead of a GEMM and a
// cell kernel per step: its outputs and final states
// must be the double reference's, for every cell it covers, unit counts that are and are not a
// multiple of the vector width (padded blocks), batches that fill a pass over W_hh and leave rows
// over, and teams of one and two threads (each thread its own slice of units). ctest runs these tests
// once more per vector ISA (tests/CMakeLists.txt), so every compiled copy of the step is checked.
#include "engine/backend.h"
#include "engine/cpu/blas_session.h"
#include "engine/cpu/cpu_libraries.h"
#include "engine/cpu/fused_step.h"
#include "engine/forced_isa.h"
#include "engine/reference/reference_rnn.h"
#include "support/compare.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

namespace rnnprof::test {
namespace {

bool hasNote(const std::vector<std::string>& notes, const std::string& text) {
    return std::any_of(notes.begin(), notes.end(),
                       [&](const std::string& n) { return n.find(text) != std::string::npos; });
}

Problem fusedProblem(CellType cell, int hidden, int batch, int threads) {
    Problem p;
    p.config.cell = cell;
    p.config.inputSize = 24;
    p.config.hiddenSize = hidden;
    p.config.seed = 11;
    p.shape = {.batch = batch, .seqLen = 6};
    p.mode = Mode::Inference;
    p.options.threads = threads;
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
// on none (64 KiB with SSE2's 4 lanes).
TEST(FusedStep, OnlyInferenceOfLstmAndResetAfterGruAtSmallBatchOrWithBlocksInL1) {
    const Backend* blas = builtinBackends().find("cpu-blas");
    ASSERT_NE(blas, nullptr);
    const auto fused = [&](const Problem& p) { return hasNote(blas->prepare(p)->notes(), kFusedNote); };
    EXPECT_TRUE(fused(fusedProblem(CellType::Lstm, 1024, int(cpu::kFusedMaxBatch), 1)));
    EXPECT_FALSE(fused(fusedProblem(CellType::Lstm, 1024, int(cpu::kFusedMaxBatch) + 1, 1)));
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

} // namespace
} // namespace rnnprof::test
