// cudnnEligibility(): cuDNN's own limits, each with its sentence, and every combination of them.
// Not a framework's rules: bias off and recurrent dropout in inference are configurations cuDNN
// runs (what Keras or PyTorch would choose is engine/framework_fast_path.h).
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
    for (Mode mode : {Mode::Inference, Mode::Training}) {
        EXPECT_TRUE(cudnnEligibility(eligible(CellType::Lstm), mode).empty());
        EXPECT_TRUE(cudnnEligibility(eligible(CellType::Gru), mode).empty());
    }
}

TEST(CudnnEligibility, EligibilityIgnoresSizesDirectionsAndDropoutBetweenLayers) {
    RnnConfig c = eligible(CellType::Lstm);
    c.layers = 4;
    c.bidirectional = true;
    c.inputSize = 3;
    c.hiddenSize = 1000;
    c.dropout = 0.5; // cuDNN supports it (with its own mask)
    EXPECT_TRUE(cudnnEligibility(c, Mode::Training).empty());
}

// CUDNN_RNN_NO_BIAS: Keras' use_bias rule is not a cuDNN limit.
TEST(CudnnEligibility, ModelsWithoutBiasAreEligible) {
    for (CellType cell : {CellType::Lstm, CellType::Gru})
        for (Mode mode : {Mode::Inference, Mode::Training}) {
            RnnConfig c = eligible(cell);
            c.bias = false;
            EXPECT_TRUE(cudnnEligibility(c, mode).empty()) << describe(c);
        }
}

TEST(CudnnEligibility, ReluActivationIsACudnnLimitWithItsSentence) {
    RnnConfig c = eligible(CellType::Lstm);
    c.activation = Activation::Relu;
    EXPECT_EQ(cudnnEligibility(c, Mode::Inference),
              std::vector<std::string>{
                  "cuDNN's LSTM has no activation but tanh (got activation=relu); gpu-generic runs it"});
}

TEST(CudnnEligibility, HardSigmoidIsACudnnLimitWithItsSentence) {
    RnnConfig c = eligible(CellType::Gru);
    c.recurrentActivation = RecurrentActivation::HardSigmoid;
    EXPECT_EQ(cudnnEligibility(c, Mode::Training),
              std::vector<std::string>{"cuDNN's GRU gates have no activation but sigmoid (got "
                                       "recurrent_activation=hard_sigmoid); gpu-generic runs it"});
}

TEST(CudnnEligibility, RecurrentDropoutInTrainingIsACudnnLimitWithItsSentence) {
    RnnConfig c = eligible(CellType::Lstm);
    c.recurrentDropout = 0.3;
    EXPECT_EQ(cudnnEligibility(c, Mode::Training),
              std::vector<std::string>{"cuDNN has no dropout inside the recurrence, only between layers (got "
                                       "recurrent_dropout=0.3 in training); gpu-generic runs it"});
}

// Recurrent dropout acts in training only: the inference network is the plain one.
TEST(CudnnEligibility, RecurrentDropoutInInferenceIsEligible) {
    for (CellType cell : {CellType::Lstm, CellType::Gru}) {
        RnnConfig c = eligible(cell);
        c.recurrentDropout = 0.5;
        EXPECT_TRUE(cudnnEligibility(c, Mode::Inference).empty()) << describe(c);
    }
}

TEST(CudnnEligibility, GruResetBeforeIsACudnnLimitWithItsSentence) {
    RnnConfig c = eligible(CellType::Gru);
    c.resetAfter = false;
    EXPECT_EQ(cudnnEligibility(c, Mode::Inference),
              std::vector<std::string>{"cuDNN's GRU applies the reset gate after the recurrent product only "
                                       "(got reset_after=false); gpu-generic runs it"});
}

TEST(CudnnEligibility, ResetAfterDoesNotMatterForLstm) {
    RnnConfig c = eligible(CellType::Lstm);
    c.resetAfter = false;
    EXPECT_TRUE(cudnnEligibility(c, Mode::Training).empty());
}

// All 2^5 combinations of the four limits and bias (never a limit) in training: one sentence per
// limit hit, in rule order, each naming the setting it got.
TEST(CudnnEligibility, ReportsEveryLimitOfEveryCombination) {
    const char* got[] = {"activation=relu", "recurrent_activation=hard_sigmoid", "recurrent_dropout=0.25",
                         "reset_after=false"};
    for (int mask = 0; mask < 32; ++mask) {
        RnnConfig c = eligible(CellType::Gru);
        if (mask & 1) c.activation = Activation::Relu;
        if (mask & 2) c.recurrentActivation = RecurrentActivation::HardSigmoid;
        if (mask & 4) c.recurrentDropout = 0.25;
        if (mask & 8) c.resetAfter = false;
        if (mask & 16) c.bias = false;
        const auto reasons = cudnnEligibility(c, Mode::Training);
        ASSERT_EQ(int(reasons.size()), __builtin_popcount(unsigned(mask & 15))) << "mask " << mask;
        std::size_t i = 0;
        for (int rule = 0; rule < 4; ++rule) {
            if (!(mask & (1 << rule))) continue;
            ASSERT_LT(i, reasons.size());
            EXPECT_NE(reasons[i].find(std::string("(got ") + got[rule]), std::string::npos) << reasons[i];
            EXPECT_EQ(reasons[i].rfind("cuDNN", 0), 0u) << reasons[i];
            EXPECT_NE(reasons[i].find("; gpu-generic runs it"), std::string::npos) << reasons[i];
            ++i;
        }
    }
}

TEST(CudnnEligibility, GpuCudnnBackendReportsTheseReasonsInEachMode) {
    const Backend* backend = builtinBackends().find("gpu-cudnn");
    ASSERT_NE(backend, nullptr);
    RnnConfig c = eligible(CellType::Lstm);
    c.activation = Activation::Relu;
    c.recurrentDropout = 0.2;
    c.bias = false;
    for (Mode mode : {Mode::Inference, Mode::Training})
        EXPECT_EQ(backend->unsupportedReasons(c, mode), cudnnEligibility(c, mode));
    EXPECT_EQ(backend->unsupportedReasons(c, Mode::Inference).size(), 1u);
    EXPECT_EQ(backend->unsupportedReasons(c, Mode::Training).size(), 2u);
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
