// A model as a list of layers: which layers run as one call (PyTorch's num_layers) and which one
// by one (Keras), what every layer reads, its parameters (hand-derived), that the homogeneous stack
// is one call with exactly its RnnConfig, that every problem names its layer, and the layer syntax
// of the command line in both directions.
#include "engine/model.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace rnnprof {
namespace {

using ::testing::HasSubstr;

LayerSpec layer(std::string_view text) {
    const LayerParse p = parseLayer(text);
    EXPECT_TRUE(p.layer) << p.error;
    return p.layer.value_or(LayerSpec{});
}

ModelSpec model(int inputSize, std::initializer_list<std::string_view> layers) {
    ModelSpec m;
    m.inputSize = inputSize;
    for (std::string_view l : layers)
        m.layers.push_back(layer(l));
    return m;
}

// The small-batch scenario: Keras' LSTM(64, LeakyReLU(0.05), return_sequences=True) -> Dropout(0.2)
// -> LSTM(32) -> Dense(8) on 8 features.
ModelSpec scenario() {
    return model(8, {"lstm:64:leaky_relu=0.05", "dropout:0.2", "lstm:32:last", "dense:8"});
}

std::vector<std::string> fields(const std::vector<FieldIssue>& issues) {
    std::vector<std::string> out;
    for (const FieldIssue& i : issues)
        out.push_back(i.field);
    return out;
}

TEST(Model, TheHomogeneousStackIsOneCallWithExactlyItsConfig) {
    RnnConfig three;
    three.layers = 3;
    three.dropout = 0.3;
    three.bidirectional = true;
    RnnConfig gru;
    gru.cell = CellType::Gru;
    gru.resetAfter = false;
    gru.activation = Activation::LeakyRelu;
    gru.negativeSlope = 0.2;
    gru.recurrentActivation = RecurrentActivation::HardSigmoidKeras3;
    gru.recurrentDropout = 0.1;
    gru.bias = false;
    gru.layers = 2;
    gru.seed = 7;
    for (const RnnConfig& c : {RnnConfig{}, three, gru}) {
        SCOPED_TRACE(describe(c));
        const ModelSpec m = modelOf(c);
        EXPECT_TRUE(validate(m).empty());
        EXPECT_EQ(stages(m).size(), 1u);
        EXPECT_EQ(singleCall(m), c);
    }
    // Dropout layers between the layers of the stack: 2L - 1 layers for L = 3.
    EXPECT_EQ(modelOf(three).layers.size(), 5u);
    EXPECT_EQ(modelOf(three).layers[1].kind, LayerKind::Dropout);
}

TEST(Model, TheScenarioRunsAsFourCallsWithTheWidthsEachLayerReads) {
    const ModelSpec m = scenario();
    ASSERT_TRUE(validate(m).empty());
    const std::vector<ModelStage> s = stages(m);
    ASSERT_EQ(s.size(), 4u);
    EXPECT_EQ(s[0].kind, StageKind::Recurrent);
    EXPECT_EQ(s[0].config.inputSize, 8);
    EXPECT_EQ(s[0].config.hiddenSize, 64);
    EXPECT_EQ(s[0].config.layers, 1);
    EXPECT_EQ(s[0].config.activation, Activation::LeakyRelu);
    EXPECT_EQ(s[0].config.negativeSlope, 0.05);
    EXPECT_EQ(s[0].outputWidth, 64);
    EXPECT_EQ(s[1].kind, StageKind::Dropout);
    EXPECT_EQ(s[1].inputWidth, 64);
    EXPECT_EQ(s[1].outputWidth, 64);
    EXPECT_TRUE(s[1].perStep);
    EXPECT_EQ(s[2].kind, StageKind::Recurrent);
    EXPECT_EQ(s[2].config.inputSize, 64);
    EXPECT_EQ(s[2].config.hiddenSize, 32);
    EXPECT_EQ(s[2].config.activation, Activation::Tanh);
    EXPECT_FALSE(s[2].returnSequences);
    EXPECT_EQ(s[3].kind, StageKind::Dense);
    EXPECT_EQ(s[3].inputWidth, 32);
    EXPECT_EQ(s[3].outputWidth, 8);
    EXPECT_FALSE(s[3].perStep); // one row per sequence: the LSTM kept its last step only
    // Stages of one model draw different weights; the first keeps the model's seed.
    EXPECT_EQ(s[0].config.seed, m.seed);
    EXPECT_EQ(s[2].config.seed, m.seed + 2);
    EXPECT_EQ(singleCall(m), std::nullopt);
}

TEST(Model, IdenticalLayersSeparatedByOneDropoutRateRunAsOneCall) {
    const auto s = stages(model(16, {"lstm:32", "dropout:0.3", "lstm:32", "dropout:0.3", "lstm:32"}));
    ASSERT_EQ(s.size(), 1u);
    EXPECT_EQ(s[0].config.layers, 3);
    EXPECT_EQ(s[0].config.dropout, 0.3);
    EXPECT_EQ(s[0].lastLayer, 4);

    const auto rates = stages(model(16, {"lstm:32", "dropout:0.3", "lstm:32", "dropout:0.2", "lstm:32"}));
    ASSERT_EQ(rates.size(), 3u);
    EXPECT_EQ(rates[0].config.layers, 2);
    EXPECT_EQ(rates[1].kind, StageKind::Dropout);
    EXPECT_EQ(rates[2].config.layers, 1);
    EXPECT_EQ(rates[2].config.inputSize, 32);

    // A bidirectional stack merges too; its upper layers read both directions.
    const auto bi = stages(model(16, {"gru:24:bi", "gru:24:bi"}));
    ASSERT_EQ(bi.size(), 1u);
    EXPECT_EQ(bi[0].config.layers, 2);
    EXPECT_EQ(layerInputSize(bi[0].config, 1), 48);
}

TEST(Model, LayersThatDifferInAnythingButTheirInputRunOneCallEach) {
    for (auto second : {"lstm:16", "gru:32", "lstm:32:bi", "lstm:32:relu", "lstm:32:leaky_relu=0.3",
                        "lstm:32:hard_sigmoid", "lstm:32:no_bias", "lstm:32:recurrent_dropout=0.1"}) {
        SCOPED_TRACE(second);
        const auto s = stages(model(8, {"lstm:32:leaky_relu=0.2", second}));
        ASSERT_EQ(s.size(), 2u);
        EXPECT_EQ(s[1].config.inputSize, 32);
    }
    // A layer that hands on only its last step ends the call.
    EXPECT_EQ(stages(model(8, {"lstm:32:last", "dense:4"})).size(), 2u);
    // The slope of a non-leaky activation does not tell layers apart.
    ModelSpec m = model(8, {"lstm:32", "lstm:32"});
    m.layers[1].negativeSlope = 0.5;
    EXPECT_EQ(stages(m).size(), 1u);
}

// Hand-derived: a recurrent layer has D * (G*H*(in + H) + 2*G*H) parameters, a dense one in*units + units.
TEST(Model, ParametersPerLayerAreTheHandDerivedCounts) {
    const ModelSpec m = scenario();
    EXPECT_EQ(layerParameterCount(m, 0), 4 * 64 * (8 + 64) + 2 * 4 * 64);  // 18944
    EXPECT_EQ(layerParameterCount(m, 1), 0);                               // dropout
    EXPECT_EQ(layerParameterCount(m, 2), 4 * 32 * (64 + 32) + 2 * 4 * 32); // 12544
    EXPECT_EQ(layerParameterCount(m, 3), 32 * 8 + 8);                      // 264
    const ModelSpec bi = model(10, {"gru:20:bi:no_bias", "dense:3:no_bias"});
    EXPECT_EQ(layerParameterCount(bi, 0), 2 * (3 * 20 * (10 + 20)));
    EXPECT_EQ(layerParameterCount(bi, 1), 40 * 3);
    // The homogeneous stack: the layers' counts add up to the stack's.
    RnnConfig c;
    c.layers = 3;
    c.bidirectional = true;
    const ModelSpec stack = modelOf(c);
    std::int64_t sum = 0;
    for (int i = 0; i < int(stack.layers.size()); ++i)
        sum += layerParameterCount(stack, i);
    EXPECT_EQ(sum, parameterCount(c));
}

TEST(Model, EveryProblemNamesItsLayerAndField) {
    ModelSpec m = model(8, {"lstm:32:last", "lstm:16", "dropout:0.5", "dense:4"});
    m.layers[2].rate = 2.0;
    m.layers[3].units = 0;
    m.layers[0].negativeSlope = 3.0; // ignored: not leaky
    const auto issues = validate(m);
    EXPECT_THAT(fields(issues), ::testing::ElementsAre("layers[1]", "layers[2].rate", "layers[3].units"));
    EXPECT_THAT(issues[0].message, HasSubstr("layers[1] (lstm) needs a sequence, but layers[0] hands on only "
                                             "its last step (return_sequences = false)"));
    EXPECT_THAT(issues[1].message,
                HasSubstr("layers[2].rate must be a probability between 0 and 0.95 (got 2)"));

    ModelSpec leaky = model(8, {"lstm:32:leaky_relu"});
    leaky.layers[0].negativeSlope = 3.0;
    leaky.layers[0].units = 9000;
    EXPECT_THAT(fields(validate(leaky)),
                ::testing::ElementsAre("layers[0].units", "layers[0].negative_slope"));

    EXPECT_THAT(fields(validate(model(8, {"dense:4"}))), ::testing::ElementsAre("layers"));
    EXPECT_THAT(fields(validate(ModelSpec{})), ::testing::ElementsAre("layers"));
    ModelSpec wide = model(0, {"lstm:4"});
    EXPECT_THAT(fields(validate(wide)), ::testing::ElementsAre("input_size"));
}

TEST(Model, LayerTextParsesBackToTheSameLayer) {
    for (const char* text : {"lstm:64", "lstm:64:leaky_relu=0.05",
                             "gru:32:bidirectional:no_bias:relu:hard_sigmoid_keras3:"
                             "recurrent_dropout=0.25:reset_before:last",
                             "dropout:0.2", "dense:8", "dense:10:softmax:no_bias"}) {
        SCOPED_TRACE(text);
        const LayerSpec l = layer(text);
        EXPECT_EQ(layerText(l), text);
        EXPECT_EQ(layer(layerText(l)), l);
    }
    const LayerSpec l = layer("gru:32:bi:leaky_relu=0.1:hard_sigmoid_keras2:last");
    EXPECT_EQ(l.kind, LayerKind::Gru);
    EXPECT_EQ(l.units, 32);
    EXPECT_TRUE(l.bidirectional);
    EXPECT_EQ(l.activation, Activation::LeakyRelu);
    EXPECT_EQ(l.negativeSlope, 0.1);
    EXPECT_EQ(l.recurrentActivation, RecurrentActivation::HardSigmoid);
    EXPECT_FALSE(l.returnSequences);
}

TEST(Model, ALayerThatIsNotOneSaysWhatWasWrongAndWhatIsAllowed) {
    const std::pair<const char*, const char*> cases[] = {
        {"rnn:4", "'rnn' is not a layer kind"},
        {"lstm", "the lstm layer needs its size"},
        {"lstm:0", "UNITS must be a whole number between 1 and 8192 (got '0')"},
        {"lstm:x", "(got 'x')"},
        {"lstm:32:softmax", "'softmax' is not an option of a lstm layer"},
        {"lstm:32:reset_before", "'reset_before' is not an option of a lstm layer"},
        {"lstm:32:leaky_relu=-1", "'leaky_relu=-1' is not an option"},
        {"lstm:32:recurrent_dropout=1", "'recurrent_dropout=1' is not an option"},
        {"dropout:1.5", "the dropout rate must be a number between 0 and 0.95 (got '1.5')"},
        {"dropout:0.1:x", "a dropout layer has no options"},
        {"dense:8:leaky_relu", "'leaky_relu' is not an option of a dense layer"},
    };
    for (const auto& [text, why] : cases) {
        SCOPED_TRACE(text);
        const LayerParse p = parseLayer(text);
        EXPECT_FALSE(p.layer);
        EXPECT_THAT(p.error, HasSubstr(why));
        EXPECT_THAT(p.error, HasSubstr("a layer is lstm|gru:UNITS"));
    }
}

TEST(Model, DescribeReadsAsTheLayersInOrder) {
    EXPECT_EQ(describe(scenario()), "in 8 -> LSTM 64, leaky_relu(0.05)/sigmoid -> dropout 0.2 -> LSTM 32, "
                                    "tanh/sigmoid, last step -> dense 8");
    EXPECT_EQ(describeLayer(layer("gru:16:bi:no_bias:reset_before:recurrent_dropout=0.5")),
              "GRU 16 bi, tanh/sigmoid, no bias, reset before, rec. dropout 0.5");
    EXPECT_EQ(describeLayer(layer("dense:3:softmax:no_bias")), "dense 3 softmax, no bias");
}

} // namespace
} // namespace rnnprof
