// FLOPs of a model of several layers against counts derived by hand for the small-batch scenario
// (LSTM 64 leaky ReLU -> dropout -> LSTM 32 keeping its last step -> dense 8, on 8 features), and
// the homogeneous stack against iterationFlops() of its RnnConfig.
#include "profiling/analysis/model_flops.h"

#include "engine/error.h"
#include "profiling/analysis/flops.h"

#include <gtest/gtest.h>

namespace rnnprof {
namespace {

ModelSpec scenario() {
    ModelSpec m;
    m.inputSize = 8;
    for (const char* text : {"lstm:64:leaky_relu=0.05", "dropout:0.2", "lstm:32:last", "dense:8"})
        m.layers.push_back(*parseLayer(text).layer);
    return m;
}

// Per (layer, direction), flops.h: forward 2*T*B*G*H*in + 2*T*B*G*H*H + T*B*H*(13 + 2*4) for an LSTM
// with bias; backward 2*T*B*G*H*in + 2*T*B*G*H*H + 2*T*B*H*G (+ 2*T*B*in*G for dx) + T*B*H*(24 + 2*4);
// SGD 2 per parameter. T = 100, B = 1.
TEST(ModelFlops, TheScenarioCountsWhatEachLayerComputesInInference) {
    const Shape shape{1, 100};
    const std::vector<std::uint64_t> f = layerFlopsList(scenario(), shape, Mode::Inference);
    ASSERT_EQ(f.size(), 4u);
    EXPECT_EQ(f[0], 409600u + 3276800u + 134400u); // LSTM 8 -> 64
    EXPECT_EQ(f[1], 0u);                           // dropout
    EXPECT_EQ(f[2], 1638400u + 819200u + 67200u);  // LSTM 64 -> 32, every step computed
    EXPECT_EQ(f[3], 512u + 8u);                    // dense 32 -> 8 on one row per sequence, bias
    EXPECT_EQ(modelFlops(scenario(), shape, Mode::Inference), 6346120u);
}

TEST(ModelFlops, TheScenarioInTrainingAddsBackwardUpdateAndOneLoss) {
    const Shape shape{1, 100};
    const std::vector<std::uint64_t> f = layerFlopsList(scenario(), shape, Mode::Training);
    // No gradient of the model's input: nothing below the first LSTM needs it.
    EXPECT_EQ(f[0], 3820800u + (409600u + 3276800u + 3276800u + 204800u) + 2u * 18944u);
    EXPECT_EQ(f[2], 2524800u + (1638400u + 819200u + 819200u + 1638400u + 102400u) + 2u * 12544u);
    EXPECT_EQ(f[3], 520u + (512u + 8u) + 512u + 2u * 264u); // forward, dW and db, dX, SGD
    EXPECT_EQ(modelFlops(scenario(), shape, Mode::Training),
              f[0] + f[2] + f[3] + 8u * flops::kLossPerOutput); // the loss over 1 row of 8 outputs
}

TEST(ModelFlops, TheHomogeneousStackCountsExactlyItsRnnConfig) {
    RnnConfig deep;
    deep.layers = 3;
    deep.dropout = 0.25;
    deep.bidirectional = true;
    deep.inputSize = 20;
    deep.hiddenSize = 12;
    RnnConfig gru;
    gru.cell = CellType::Gru;
    gru.bias = false;
    gru.layers = 2;
    for (const RnnConfig& c : {RnnConfig{}, deep, gru})
        for (Mode mode : {Mode::Inference, Mode::Training})
            for (const Shape shape : {Shape{1, 1}, Shape{16, 50}}) {
                SCOPED_TRACE(describe(c) + " " + std::string(toString(mode)));
                EXPECT_EQ(modelFlops(modelOf(c), shape, mode), iterationFlops(c, shape, mode));
            }
}

TEST(ModelFlops, AnInvalidModelIsRefusedNamingTheLayer) {
    ModelSpec m = scenario();
    m.layers[0].units = 0;
    try {
        (void)modelFlops(m, {1, 1}, Mode::Inference);
        FAIL() << "an invalid model was counted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("layers[0].units must be between 1 and"), std::string::npos)
            << e.what();
    }
}

} // namespace
} // namespace rnnprof
