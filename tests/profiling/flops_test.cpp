// FLOP formulas against counts worked out by hand on small shapes (docs/measurement.md "FLOP counts"):
// GEMMs as 2*M*N*K per layer and direction, element-wise work per (t, b, j), loss and SGD.
#include "engine/error.h"
#include "profiling/analysis/flops.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace rnnprof {
namespace {

// T=5, B=4: 20 rows in every GEMM.
const Shape kShape{4, 5};

RnnConfig lstm(int input, int hidden) {
    RnnConfig c;
    c.cell = CellType::Lstm;
    c.inputSize = input;
    c.hiddenSize = hidden;
    return c;
}

RnnConfig gru(int input, int hidden) {
    RnnConfig c = lstm(input, hidden);
    c.cell = CellType::Gru;
    return c;
}

TEST(Flops, GemmIsTwoMnk) {
    EXPECT_EQ(gemmFlops(2, 3, 4), 48u);
}

TEST(Flops, LstmForwardCountsBothProjectionsAndTheCell) {
    // G*H = 12. Input GEMM 2*20*12*2 = 960, recurrence 2*20*12*3 = 1440,
    // cell (13 + 8 bias adds) per (t, b, j): 20*3*21 = 1260.
    EXPECT_EQ(forwardFlops(lstm(2, 3), kShape), 960u + 1440u + 1260u);
}

TEST(Flops, BiasAddsAreCountedOnlyWithBias) {
    RnnConfig c = lstm(2, 3);
    c.bias = false;
    EXPECT_EQ(forwardFlops(c, kShape), 960u + 1440u + 20u * 3u * 13u);
}

TEST(Flops, GruForwardUsesThreeGates) {
    // G*H = 9: 2*20*9*2 = 720, 2*20*9*3 = 1080, cell (11 + 6) * 60 = 1020.
    EXPECT_EQ(forwardFlops(gru(2, 3), kShape), 720u + 1080u + 1020u);
    RnnConfig before = gru(2, 3);
    before.resetAfter = false; // same products, same count
    EXPECT_EQ(forwardFlops(before, kShape), forwardFlops(gru(2, 3), kShape));
}

TEST(Flops, UpperLayersOfABidirectionalStackReadBothDirections) {
    RnnConfig c = lstm(2, 3);
    c.layers = 2;
    c.bidirectional = true;
    c.bias = false;
    // T = B = 1. Layer 0, per direction: 2*12*2 + 2*12*3 + 13*3 = 159.
    // Layer 1 reads 2*3 = 6 wide: 2*12*6 + 2*12*3 + 39 = 255. Two directions each.
    EXPECT_EQ(forwardFlops(c, {1, 1}), 2u * 159u + 2u * 255u);
}

TEST(Flops, LstmBackwardCountsWeightStateAndInputGradients) {
    // dW_ih 960 + dW_hh 1440 + dh through W_hh 1440 + element-wise (24 + 8 bias grads) * 60 = 1920.
    EXPECT_EQ(backwardFlops(lstm(2, 3), kShape, false), 960u + 1440u + 1440u + 1920u);
    // dx = W_ih^T dG for layer 0 only when asked: 2*20*2*12 = 960.
    EXPECT_EQ(backwardFlops(lstm(2, 3), kShape, true), 5760u + 960u);
}

TEST(Flops, GruBackwardCountsEighteenPerUnit) {
    // dW_ih 720 + dW_hh 1080 + dh 1080 + (18 + 6) * 60 = 1440.
    EXPECT_EQ(backwardFlops(gru(2, 3), kShape, false), 720u + 1080u + 1080u + 1440u);
}

TEST(Flops, BackwardAboveLayerZeroAlwaysComputesTheInputGradient) {
    RnnConfig c = lstm(2, 3);
    c.layers = 2;
    c.bidirectional = true;
    c.bias = false;
    // T = B = 1. Layer 0 per direction: 48 + 72 + 72 + 24*3 = 264.
    // Layer 1 per direction: dW_ih 144 + 72 + 72 + dx 144 + 72 = 504.
    EXPECT_EQ(backwardFlops(c, {1, 1}, false), 2u * 264u + 2u * 504u);
    EXPECT_EQ(backwardFlops(c, {1, 1}, true), 2u * 264u + 2u * 504u + 2u * 48u);
}

TEST(Flops, LossIsFourPerOutputElement) {
    RnnConfig c = lstm(2, 3);
    EXPECT_EQ(lossFlops(c, kShape), 20u * 3u * 4u);
    c.bidirectional = true;
    EXPECT_EQ(lossFlops(c, kShape), 20u * 6u * 4u);
}

TEST(Flops, UpdateIsTwoPerParameter) {
    // W_ih 12x2 + W_hh 12x3 + two biases of 12 = 84 parameters.
    EXPECT_EQ(updateFlops(lstm(2, 3)), 168u);
    RnnConfig c = lstm(2, 3);
    c.bias = false;
    EXPECT_EQ(updateFlops(c), 120u);
}

TEST(Flops, TrainingIsForwardLossBackwardAndUpdate) {
    EXPECT_EQ(trainingFlops(lstm(2, 3), kShape, false), 3660u + 240u + 5760u + 168u);
    EXPECT_EQ(trainingFlops(lstm(2, 3), kShape, true), 3660u + 240u + 6720u + 168u);
}

TEST(Flops, IterationFlopsFollowsTheMode) {
    EXPECT_EQ(iterationFlops(lstm(2, 3), kShape, Mode::Inference), forwardFlops(lstm(2, 3), kShape));
    EXPECT_EQ(iterationFlops(lstm(2, 3), kShape, Mode::Training), trainingFlops(lstm(2, 3), kShape, false));
}

TEST(Flops, InvalidConfigurationIsRefused) {
    EXPECT_THROW((void)forwardFlops(lstm(2, 0), kShape), Error);
    EXPECT_THROW((void)trainingFlops(lstm(2, 3), {0, 5}, false), Error);
    try {
        (void)forwardFlops(lstm(2, 3), {4, -1});
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::InvalidConfig);
    }
}

TEST(Flops, LargestValidShapeDoesNotOverflow) {
    // The widest layer at the most rows its buffers allow: about 5e13 FLOPs per GEMM.
    const RnnConfig c = lstm(16384, 8192);
    const Shape widest{32000, 1};
    ASSERT_TRUE(validate(c, widest).empty());
    const std::uint64_t f = trainingFlops(c, widest, true);
    EXPECT_GT(f, 4 * gemmFlops(32000, 4 * 8192, 8192));
    EXPECT_LT(f, std::numeric_limits<std::uint64_t>::max());
}

TEST(DerivedFigures, SequencesAndTokensPerSecond) {
    EXPECT_DOUBLE_EQ(sequencesPerSecond({64, 100}, 2.0), 32000.0);
    EXPECT_DOUBLE_EQ(tokensPerSecond({64, 100}, 2.0), 3.2e6);
}

TEST(DerivedFigures, AchievedGflops) {
    EXPECT_DOUBLE_EQ(achievedGflops(3'000'000'000ULL, 1.5), 2000.0);
}

TEST(DerivedFigures, ZeroWhenNothingWasMeasured) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (double ms : {0.0, -1.0, nan, std::numeric_limits<double>::infinity()}) {
        EXPECT_EQ(sequencesPerSecond({8, 8}, ms), 0.0);
        EXPECT_EQ(tokensPerSecond({8, 8}, ms), 0.0);
        EXPECT_EQ(achievedGflops(1000, ms), 0.0);
    }
}

} // namespace
} // namespace rnnprof
