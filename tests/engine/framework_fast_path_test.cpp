// frameworkFastPath(): would Keras (tf.keras.layers.LSTM/GRU) choose its cuDNN kernel, and can
// PyTorch (nn.LSTM/nn.GRU, which runs cuDNN for everything it expresses) express the model? Each
// rule alone flips its verdict with its own sentence; the sentences are written out by hand.
#include "engine/framework_fast_path.h"

#include <gtest/gtest.h>

namespace rnnprof {
namespace {

RnnConfig defaults(CellType cell) {
    RnnConfig c;
    c.cell = cell;
    return c;
}

TEST(FrameworkFastPath, TheDefaultLstmAndGruAreOnBothFastPaths) {
    for (CellType cell : {CellType::Lstm, CellType::Gru}) {
        const FrameworkFastPath v = frameworkFastPath(defaults(cell));
        EXPECT_TRUE(v.keras.usesCudnn());
        EXPECT_TRUE(v.pytorch.usesCudnn());
        EXPECT_EQ(v.keras.text(), "yes");
        EXPECT_EQ(v.pytorch.text(), "yes");
    }
}

// Sizes, layers, directions and dropout between layers (a Dropout layer in Keras, nn.LSTM's
// dropout argument in PyTorch) are on both fast paths.
TEST(FrameworkFastPath, SizesLayersDirectionsAndDropoutBetweenLayersDoNotMatter) {
    RnnConfig c = defaults(CellType::Gru);
    c.inputSize = 3;
    c.hiddenSize = 4096;
    c.layers = 8;
    c.bidirectional = true;
    c.dropout = 0.5;
    const FrameworkFastPath v = frameworkFastPath(c);
    EXPECT_EQ(v.keras.text(), "yes");
    EXPECT_EQ(v.pytorch.text(), "yes");
}

TEST(FrameworkFastPath, ReluActivationLeavesBoth) {
    RnnConfig c = defaults(CellType::Lstm);
    c.activation = Activation::Relu;
    const FrameworkFastPath v = frameworkFastPath(c);
    EXPECT_EQ(v.keras.text(),
              "no: activation=relu (Keras needs tanh for cuDNN and falls back to the generic kernel)");
    EXPECT_EQ(v.pytorch.text(),
              "no: activation=relu (nn.LSTM has no activation option: it always uses tanh)");
}

TEST(FrameworkFastPath, HardSigmoidLeavesBoth) {
    RnnConfig c = defaults(CellType::Gru);
    c.recurrentActivation = RecurrentActivation::HardSigmoid;
    const FrameworkFastPath v = frameworkFastPath(c);
    EXPECT_EQ(v.keras.reasons,
              std::vector<std::string>{"recurrent_activation=hard_sigmoid (Keras needs sigmoid "
                                       "for cuDNN and falls back to the generic kernel)"});
    EXPECT_EQ(v.pytorch.reasons, std::vector<std::string>{
                                     "recurrent_activation=hard_sigmoid (nn.GRU has no recurrent activation "
                                     "option: its gates always use sigmoid)"});
}

TEST(FrameworkFastPath, RecurrentDropoutLeavesBoth) {
    RnnConfig c = defaults(CellType::Lstm);
    c.recurrentDropout = 0.2;
    const FrameworkFastPath v = frameworkFastPath(c);
    EXPECT_EQ(v.keras.text(),
              "no: recurrent_dropout=0.2 (Keras needs 0 for cuDNN and falls back to the generic kernel)");
    EXPECT_EQ(
        v.pytorch.text(),
        "no: recurrent_dropout=0.2 (nn.LSTM has no recurrent dropout: its dropout acts between layers)");
}

// Keras' use_bias rule; nn.LSTM(bias=False) still runs on cuDNN (CUDNN_RNN_NO_BIAS).
TEST(FrameworkFastPath, NoBiasLeavesKerasOnly) {
    for (CellType cell : {CellType::Lstm, CellType::Gru}) {
        RnnConfig c = defaults(cell);
        c.bias = false;
        const FrameworkFastPath v = frameworkFastPath(c);
        EXPECT_EQ(
            v.keras.text(),
            "no: bias=false (Keras needs use_bias=True for cuDNN and falls back to the generic kernel)");
        EXPECT_EQ(v.pytorch.text(), "yes");
    }
}

TEST(FrameworkFastPath, GruResetBeforeLeavesBoth) {
    RnnConfig c = defaults(CellType::Gru);
    c.resetAfter = false;
    const FrameworkFastPath v = frameworkFastPath(c);
    EXPECT_EQ(v.keras.text(),
              "no: reset_after=false (Keras needs reset_after=True for cuDNN and falls back to "
              "the generic kernel)");
    EXPECT_EQ(v.pytorch.text(), "no: reset_after=false (nn.GRU has no reset-before form: its reset gate acts "
                                "after the recurrent product)");
}

TEST(FrameworkFastPath, ResetAfterDoesNotMatterForLstm) {
    RnnConfig c = defaults(CellType::Lstm);
    c.resetAfter = false;
    const FrameworkFastPath v = frameworkFastPath(c);
    EXPECT_TRUE(v.keras.usesCudnn());
    EXPECT_TRUE(v.pytorch.usesCudnn());
}

// Several broken rules give several sentences, in rule order, joined by "; ".
TEST(FrameworkFastPath, SeveralBrokenRulesGiveOneSentenceEach) {
    RnnConfig c = defaults(CellType::Gru);
    c.activation = Activation::Relu;
    c.recurrentDropout = 0.25;
    c.bias = false;
    c.resetAfter = false;
    const FrameworkFastPath v = frameworkFastPath(c);
    ASSERT_EQ(v.keras.reasons.size(), 4u);
    EXPECT_EQ(
        v.keras.text(),
        "no: activation=relu (Keras needs tanh for cuDNN and falls back to the generic kernel); "
        "recurrent_dropout=0.25 (Keras needs 0 for cuDNN and falls back to the generic kernel); "
        "bias=false (Keras needs use_bias=True for cuDNN and falls back to the generic kernel); "
        "reset_after=false (Keras needs reset_after=True for cuDNN and falls back to the generic kernel)");
    ASSERT_EQ(v.pytorch.reasons.size(), 3u);
    EXPECT_EQ(v.pytorch.text(),
              "no: activation=relu (nn.GRU has no activation option: it always uses tanh); "
              "recurrent_dropout=0.25 (nn.GRU has no recurrent dropout: its dropout acts between layers); "
              "reset_after=false (nn.GRU has no reset-before form: its reset gate acts after the recurrent "
              "product)");
}

// Every combination of the five settings: Keras counts all five rules, PyTorch all but bias.
TEST(FrameworkFastPath, EveryCombinationCountsItsBrokenRules) {
    for (int mask = 0; mask < 32; ++mask) {
        RnnConfig c = defaults(CellType::Gru);
        if (mask & 1) c.activation = Activation::Relu;
        if (mask & 2) c.recurrentActivation = RecurrentActivation::HardSigmoid;
        if (mask & 4) c.recurrentDropout = 0.1;
        if (mask & 8) c.bias = false;
        if (mask & 16) c.resetAfter = false;
        const FrameworkFastPath v = frameworkFastPath(c);
        EXPECT_EQ(int(v.keras.reasons.size()), __builtin_popcount(unsigned(mask))) << mask;
        EXPECT_EQ(int(v.pytorch.reasons.size()), __builtin_popcount(unsigned(mask & ~8))) << mask;
        EXPECT_EQ(v.keras.text().rfind(mask ? "no: " : "yes", 0), 0u) << v.keras.text();
        EXPECT_EQ(v.pytorch.usesCudnn(), (mask & ~8) == 0) << mask;
    }
}

} // namespace
} // namespace rnnprof
