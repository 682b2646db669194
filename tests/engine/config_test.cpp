// Configuration validation: every field's problem names the field, the allowed range and the
// value given; all problems come back at once; the bounds keep every buffer inside 32-bit signed
// index range and are themselves valid.
#include "engine/config.h"
#include "engine/error.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>

namespace rnnprof {
namespace {

using ::testing::HasSubstr;

struct IntField {
    const char* name;
    int RnnConfig::*member;
    int max;
};

const IntField kIntFields[] = {
    {"input_size", &RnnConfig::inputSize, Limits::maxInputSize},
    {"hidden_size", &RnnConfig::hiddenSize, Limits::maxHiddenSize},
    {"layers", &RnnConfig::layers, Limits::maxLayers},
};

// A small valid model, so that raising one field to its maximum stays inside the buffer bound.
RnnConfig smallConfig() {
    RnnConfig c;
    c.inputSize = 4;
    c.hiddenSize = 8;
    return c;
}

void expectSingleIssue(const RnnConfig& c, const std::string& field, const std::string& range,
                       const std::string& got) {
    const auto issues = validate(c);
    ASSERT_EQ(issues.size(), 1u) << joinIssues(issues);
    EXPECT_EQ(issues[0].field, field);
    EXPECT_THAT(issues[0].message, HasSubstr(field));
    EXPECT_THAT(issues[0].message, HasSubstr(range));
    EXPECT_THAT(issues[0].message, HasSubstr("(got " + got + ")"));
}

TEST(ConfigValidation, DefaultConfigurationIsValid) {
    EXPECT_TRUE(validate(RnnConfig{}).empty());
    EXPECT_TRUE(validate(RnnConfig{}, Shape{}).empty());
    EXPECT_NO_THROW(requireValid(RnnConfig{}));
}

TEST(ConfigValidation, EachSizeFieldNamesItselfItsRangeAndTheValueGiven) {
    for (const IntField& f : kIntFields) {
        SCOPED_TRACE(f.name);
        const std::string range = "between 1 and " + std::to_string(f.max);
        for (int bad : {0, -1, f.max + 1, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()}) {
            RnnConfig c = smallConfig();
            c.*f.member = bad;
            expectSingleIssue(c, f.name, range, std::to_string(bad));
        }
    }
}

TEST(ConfigValidation, EachSizeFieldAcceptsBothEndsOfItsRange) {
    for (const IntField& f : kIntFields) {
        SCOPED_TRACE(f.name);
        for (int good : {1, f.max}) {
            RnnConfig c = smallConfig();
            c.*f.member = good;
            EXPECT_TRUE(validate(c).empty()) << joinIssues(validate(c));
        }
    }
}

TEST(ConfigValidation, DropoutFieldsMustBeProbabilitiesUpToTheMaximum) {
    struct Field {
        const char* name;
        double RnnConfig::*member;
    };
    for (Field f :
         {Field{"dropout", &RnnConfig::dropout}, Field{"recurrent_dropout", &RnnConfig::recurrentDropout}}) {
        SCOPED_TRACE(f.name);
        for (double bad : {-0.1, 0.96, 1.0, 7.0}) {
            RnnConfig c = smallConfig();
            c.*f.member = bad;
            std::ostringstream got;
            got << bad;
            expectSingleIssue(c, f.name, "between 0 and 0.95", got.str());
        }
        for (double bad : {std::nan(""), double(INFINITY)}) {
            RnnConfig c = smallConfig();
            c.*f.member = bad;
            const auto issues = validate(c);
            ASSERT_EQ(issues.size(), 1u);
            EXPECT_EQ(issues[0].field, f.name);
        }
        for (double good : {0.0, 0.5, Limits::maxDropout}) {
            RnnConfig c = smallConfig();
            c.*f.member = good;
            EXPECT_TRUE(validate(c).empty()) << good;
        }
    }
}

TEST(ConfigValidation, EnumFieldsOutOfRangeNameTheAllowedValuesAndTheValue) {
    RnnConfig c = smallConfig();
    c.cell = static_cast<CellType>(7);
    expectSingleIssue(c, "cell", "lstm or gru", "7");
    c = smallConfig();
    c.activation = static_cast<Activation>(5);
    expectSingleIssue(c, "activation", "tanh or relu", "5");
    c = smallConfig();
    c.recurrentActivation = static_cast<RecurrentActivation>(-1);
    expectSingleIssue(c, "recurrent_activation", "sigmoid or hard_sigmoid", "-1");
}

TEST(ConfigValidation, ReportsEveryProblemAtOnce) {
    RnnConfig c;
    c.inputSize = 0;
    c.hiddenSize = -3;
    c.layers = 17;
    c.dropout = 2.0;
    c.recurrentDropout = -1.0;
    const auto issues = validate(c, Shape{0, 70000});
    std::vector<std::string> fields;
    for (const auto& i : issues)
        fields.push_back(i.field);
    EXPECT_THAT(fields, ::testing::UnorderedElementsAre("input_size", "hidden_size", "layers", "dropout",
                                                        "recurrent_dropout", "batch", "seq_len"));
    try {
        requireValid(c, Shape{0, 70000});
        FAIL() << "requireValid accepted an invalid configuration";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::InvalidConfig);
        for (const auto& i : issues)
            EXPECT_THAT(e.what(), HasSubstr(i.message));
    }
}

TEST(ConfigValidation, BatchAndSequenceLengthHaveTheirOwnRanges) {
    const RnnConfig c = smallConfig();
    EXPECT_TRUE(validate(c, Shape{1, 1}).empty());
    EXPECT_TRUE(validate(c, Shape{Limits::maxBatch, 1}).empty());
    EXPECT_TRUE(validate(c, Shape{1, Limits::maxSeqLen}).empty());
    auto only = [&](Shape s, const char* field, const std::string& text) {
        const auto issues = validate(c, s);
        ASSERT_EQ(issues.size(), 1u) << joinIssues(issues);
        EXPECT_EQ(issues[0].field, field);
        EXPECT_THAT(issues[0].message, HasSubstr(text));
    };
    only({0, 1}, "batch", "batch must be between 1 and 65536 (got 0)");
    only({Limits::maxBatch + 1, 1}, "batch", "(got 65537)");
    only({1, 0}, "seq_len", "seq_len must be between 1 and 65535 (got 0)");
    only({1, 65536}, "seq_len", "(got 65536)");
}

TEST(ConfigValidation, RefusesShapesWhoseLargestBufferExceedsThirtyTwoBitIndexing) {
    // A bidirectional network of hidden 8192 keeps per-step buffers of D*H*8 = 131072 elements
    // (wider than its 2*4*8192 gate columns), so 16383 steps fit under 2^31 - 1 and 16384 do not.
    RnnConfig c;
    c.inputSize = 16;
    c.hiddenSize = Limits::maxHiddenSize;
    c.bidirectional = true;
    EXPECT_EQ(largestBufferElements(c, Shape{16383, 1}), std::int64_t(16383) * 131072);
    EXPECT_TRUE(validate(c, Shape{16383, 1}).empty());
    EXPECT_TRUE(validate(c, Shape{1, 16383}).empty());
    const auto issues = validate(c, Shape{16384, 1});
    ASSERT_EQ(issues.size(), 1u);
    EXPECT_EQ(issues[0].field, "batch");
    EXPECT_THAT(issues[0].message, HasSubstr("2147483648 elements"));
    EXPECT_THAT(issues[0].message, HasSubstr("at most 2147483647"));
    EXPECT_EQ(validate(c, Shape{128, 128}).size(), 1u);
    EXPECT_FALSE(validate(c, Shape{Limits::maxBatch, Limits::maxSeqLen}).empty());
}

TEST(ConfigValidation, RefusesModelsWhoseParametersExceedThirtyTwoBitIndexing) {
    // Every field at its maximum is too large in total: the flat parameter buffer alone would
    // hold far more than 2^31 - 1 elements.
    RnnConfig c;
    c.inputSize = Limits::maxInputSize;
    c.hiddenSize = Limits::maxHiddenSize;
    c.layers = Limits::maxLayers;
    c.bidirectional = true;
    EXPECT_GT(parameterCount(c), Limits::maxBufferElements);
    const auto issues = validate(c);
    ASSERT_EQ(issues.size(), 1u);
    EXPECT_EQ(issues[0].field, "hidden_size");
    EXPECT_THAT(issues[0].message, HasSubstr(std::to_string(parameterCount(c)) + " elements"));
    EXPECT_THAT(issues[0].message, HasSubstr("at most 2147483647"));
}

TEST(ConfigValidation, EveryBoundAloneStaysInsideThirtyTwoBitIndexing) {
    // Each maximum on its own (others small) is a valid model whose buffers all fit int32 at a
    // 1x1 shape; the weight matrix of the widest layer fits too.
    for (CellType cell : {CellType::Lstm, CellType::Gru}) {
        for (bool bi : {false, true}) {
            RnnConfig c = smallConfig();
            c.cell = cell;
            c.bidirectional = bi;
            c.hiddenSize = Limits::maxHiddenSize;
            c.inputSize = Limits::maxInputSize;
            SCOPED_TRACE(describe(c));
            EXPECT_TRUE(validate(c, Shape{1, 1}).empty()) << joinIssues(validate(c, Shape{1, 1}));
            EXPECT_LE(largestBufferElements(c, Shape{1, 1}), Limits::maxBufferElements);
            EXPECT_LE(std::int64_t(gateCount(cell)) * c.hiddenSize * c.inputSize, Limits::maxBufferElements);
        }
    }
    RnnConfig deep = smallConfig();
    deep.layers = Limits::maxLayers;
    deep.bidirectional = true;
    EXPECT_TRUE(validate(deep, Shape{Limits::maxBatch, 1}).empty());
    EXPECT_TRUE(validate(deep, Shape{1, Limits::maxSeqLen}).empty());
}

TEST(ConfigValidation, ParameterCountMatchesTheFormula) {
    RnnConfig c;
    c.cell = CellType::Gru;
    c.inputSize = 5;
    c.hiddenSize = 3;
    c.layers = 2;
    c.bidirectional = true;
    // Layer 0: 2 x (9*5 + 9*3 + 18); layer 1 reads 2*3 = 6 wide: 2 x (9*6 + 9*3 + 18).
    EXPECT_EQ(parameterCount(c), 2 * (45 + 27 + 18) + 2 * (54 + 27 + 18));
    c.bias = false;
    EXPECT_EQ(parameterCount(c), 2 * (45 + 27) + 2 * (54 + 27));
}

TEST(ConfigNames, ParseAndPrintRoundTrip) {
    for (CellType v : {CellType::Lstm, CellType::Gru})
        EXPECT_EQ(parseCell(toString(v)), v);
    for (Activation v : {Activation::Tanh, Activation::Relu})
        EXPECT_EQ(parseActivation(toString(v)), v);
    for (RecurrentActivation v : {RecurrentActivation::Sigmoid, RecurrentActivation::HardSigmoid})
        EXPECT_EQ(parseRecurrentActivation(toString(v)), v);
    EXPECT_EQ(parseMode("inference"), Mode::Inference);
    EXPECT_EQ(parseMode("train"), Mode::Training);
    EXPECT_EQ(parseCell("LSTM"), std::nullopt);
    EXPECT_EQ(parseCell("rnn"), std::nullopt);
    EXPECT_EQ(parseActivation(""), std::nullopt);
    EXPECT_EQ(parseRecurrentActivation("hard-sigmoid"), std::nullopt);
}

TEST(ConfigNames, DescribeMentionsEveryNonDefaultOption) {
    RnnConfig c;
    c.cell = CellType::Gru;
    c.inputSize = 128;
    c.hiddenSize = 256;
    c.layers = 2;
    c.bidirectional = true;
    c.bias = false;
    c.activation = Activation::Relu;
    c.recurrentActivation = RecurrentActivation::HardSigmoid;
    c.resetAfter = false;
    c.recurrentDropout = 0.25;
    c.dropout = 0.5;
    EXPECT_EQ(describe(c),
              "GRU 128->256 x2 bi, relu/hard_sigmoid, no bias, reset before, rec. dropout 0.25, dropout 0.5");
    EXPECT_EQ(describe(RnnConfig{}), "LSTM 128->256, tanh/sigmoid");
}

} // namespace
} // namespace rnnprof
