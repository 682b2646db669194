// cudnnEligibility(): every rule with its sentence, and every combination of broken rules.
#include "engine/backend.h"
#include "engine/gpu/cudnn_eligibility.h"

#include <gtest/gtest.h>

namespace rnnprof {
namespace {

using gpu::cudnnEligibility;

RnnConfig eligible(CellType cell) {
    RnnConfig c;
    c.cell = cell;
    return c;
}

TEST(CudnnEligibility, DefaultLstmAndGruAreEligible) {
    EXPECT_TRUE(cudnnEligibility(eligible(CellType::Lstm)).empty());
    EXPECT_TRUE(cudnnEligibility(eligible(CellType::Gru)).empty());
}

TEST(CudnnEligibility, EligibilityIgnoresSizesDirectionsAndDropoutBetweenLayers) {
    RnnConfig c = eligible(CellType::Lstm);
    c.layers = 4;
    c.bidirectional = true;
    c.inputSize = 3;
    c.hiddenSize = 1000;
    c.dropout = 0.5; // cuDNN supports it (with its own mask)
    EXPECT_TRUE(cudnnEligibility(c).empty());
}

TEST(CudnnEligibility, ReluActivationIsRefusedWithItsSentence) {
    RnnConfig c = eligible(CellType::Lstm);
    c.activation = Activation::Relu;
    EXPECT_EQ(cudnnEligibility(c),
              std::vector<std::string>{"cuDNN LSTM requires activation=tanh (got relu); the "
                                       "generic GPU kernel will be used"});
}

TEST(CudnnEligibility, HardSigmoidIsRefusedWithItsSentence) {
    RnnConfig c = eligible(CellType::Gru);
    c.recurrentActivation = RecurrentActivation::HardSigmoid;
    EXPECT_EQ(
        cudnnEligibility(c),
        std::vector<std::string>{"cuDNN GRU requires recurrent_activation=sigmoid (got hard_sigmoid); the "
                                 "generic GPU kernel will be used"});
}

TEST(CudnnEligibility, RecurrentDropoutIsRefusedWithItsSentence) {
    RnnConfig c = eligible(CellType::Lstm);
    c.recurrentDropout = 0.3;
    EXPECT_EQ(cudnnEligibility(c),
              std::vector<std::string>{"cuDNN LSTM requires recurrent_dropout=0 (got 0.3); "
                                       "the generic GPU kernel will be used"});
}

TEST(CudnnEligibility, GruResetBeforeIsRefusedWithItsSentence) {
    RnnConfig c = eligible(CellType::Gru);
    c.resetAfter = false;
    EXPECT_EQ(cudnnEligibility(c),
              std::vector<std::string>{"cuDNN GRU requires reset_after=true (got false); the "
                                       "generic GPU kernel will be used"});
}

TEST(CudnnEligibility, ResetAfterDoesNotMatterForLstm) {
    RnnConfig c = eligible(CellType::Lstm);
    c.resetAfter = false;
    EXPECT_TRUE(cudnnEligibility(c).empty());
}

TEST(CudnnEligibility, MissingBiasIsRefusedWithItsSentence) {
    RnnConfig c = eligible(CellType::Lstm);
    c.bias = false;
    EXPECT_EQ(cudnnEligibility(c), std::vector<std::string>{"cuDNN LSTM requires bias=true (got false); the "
                                                            "generic GPU kernel will be used"});
}

// All 2^5 combinations of the five rules: one sentence per broken rule, in rule order.
TEST(CudnnEligibility, ReportsEveryBrokenRuleOfEveryCombination) {
    for (int mask = 0; mask < 32; ++mask) {
        RnnConfig c = eligible(CellType::Gru);
        if (mask & 1) c.activation = Activation::Relu;
        if (mask & 2) c.recurrentActivation = RecurrentActivation::HardSigmoid;
        if (mask & 4) c.recurrentDropout = 0.25;
        if (mask & 8) c.resetAfter = false;
        if (mask & 16) c.bias = false;
        const auto reasons = cudnnEligibility(c);
        ASSERT_EQ(int(reasons.size()), __builtin_popcount(unsigned(mask))) << "mask " << mask;
        std::size_t i = 0;
        const char* keys[] = {"activation=tanh", "recurrent_activation=sigmoid", "recurrent_dropout=0",
                              "reset_after=true", "bias=true"};
        for (int rule = 0; rule < 5; ++rule) {
            if (!(mask & (1 << rule))) continue;
            ASSERT_LT(i, reasons.size());
            EXPECT_NE(reasons[i].find(keys[rule]), std::string::npos) << reasons[i];
            EXPECT_EQ(reasons[i].rfind("cuDNN GRU requires ", 0), 0u) << reasons[i];
            ++i;
        }
    }
}

TEST(CudnnEligibility, GpuCudnnBackendReportsTheseReasonsInBothModes) {
    const Backend* backend = builtinBackends().find("gpu-cudnn");
    ASSERT_NE(backend, nullptr);
    RnnConfig c = eligible(CellType::Lstm);
    c.activation = Activation::Relu;
    c.bias = false;
    for (Mode mode : {Mode::Inference, Mode::Training})
        EXPECT_EQ(backend->unsupportedReasons(c, mode), cudnnEligibility(c));
}

TEST(CudnnEligibility, GpuGenericSupportsEveryOption) {
    const Backend* backend = builtinBackends().find("gpu-generic");
    ASSERT_NE(backend, nullptr);
    RnnConfig c = eligible(CellType::Gru);
    c.activation = Activation::Relu;
    c.recurrentActivation = RecurrentActivation::HardSigmoid;
    c.recurrentDropout = 0.5;
    c.resetAfter = false;
    c.bias = false;
    for (Mode mode : {Mode::Inference, Mode::Training})
        EXPECT_TRUE(backend->unsupportedReasons(c, mode).empty());
}

} // namespace
} // namespace rnnprof
