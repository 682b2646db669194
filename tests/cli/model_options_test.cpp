// The model flags shared by the headless commands: every flag reaches its RnnConfig field, every
// problem is reported at once naming the flag, the allowed values and the value given, and the
// dropout/seed flags are accepted or refused depending on the command.
#include "cli/model_options.h"

#include <QCommandLineParser>
#include <QStringList>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace rnnprof::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

struct Parsed {
    RnnConfig config;
    std::vector<std::string> problems;
    bool parsed = false;
};

Parsed parse(const ModelOptionSettings& settings, const QStringList& flags, const RnnConfig& base = {}) {
    QCommandLineParser parser;
    const ModelOptions options(settings);
    options.addTo(parser);
    Parsed p;
    p.parsed = parser.parse(QStringList{QStringLiteral("rnnprof")} + flags);
    p.config = options.read(parser, p.problems, base);
    return p;
}

const ModelOptionSettings kSweep{QStringLiteral("sweep"), true, false};
const ModelOptionSettings kEval{QStringLiteral("eval"), false, true};

QStringList words(const char* text) {
    return QString::fromUtf8(text).split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

TEST(ModelOptions, EveryFlagReachesItsField) {
    const Parsed p = parse(
        kSweep, words("--cell gru --input-size 12 --hidden-size 34 --layers 3 --bidirectional --no-bias "
                      "--activation relu --recurrent-activation hard_sigmoid --reset-before --dropout 0.25 "
                      "--recurrent-dropout 0.5 --seed 18446744073709551615"));
    ASSERT_TRUE(p.parsed);
    EXPECT_THAT(p.problems, ::testing::IsEmpty());
    const RnnConfig& c = p.config;
    EXPECT_EQ(c.cell, CellType::Gru);
    EXPECT_EQ(c.inputSize, 12);
    EXPECT_EQ(c.hiddenSize, 34);
    EXPECT_EQ(c.layers, 3);
    EXPECT_TRUE(c.bidirectional);
    EXPECT_FALSE(c.bias);
    EXPECT_EQ(c.activation, Activation::Relu);
    EXPECT_EQ(c.recurrentActivation, RecurrentActivation::HardSigmoid);
    EXPECT_FALSE(c.resetAfter);
    EXPECT_EQ(c.dropout, 0.25);
    EXPECT_EQ(c.recurrentDropout, 0.5);
    EXPECT_EQ(c.seed, 18446744073709551615ULL);
}

// Keras' LeakyReLU(negative_slope=0.05) and Keras 3's hard_sigmoid, as a user of either writes them.
TEST(ModelOptions, LeakyReluTakesItsSlopeAndKeras3HardSigmoidIsItsOwnValue) {
    const Parsed p =
        parse(kSweep, words("--cell lstm --input-size 8 --hidden-size 64 --layers 1 --activation "
                            "leaky_relu=0.05 --recurrent-activation hard_sigmoid_keras3"));
    EXPECT_THAT(p.problems, ::testing::IsEmpty());
    EXPECT_EQ(p.config.activation, Activation::LeakyRelu);
    EXPECT_EQ(p.config.negativeSlope, 0.05);
    EXPECT_EQ(p.config.recurrentActivation, RecurrentActivation::HardSigmoidKeras3);
    EXPECT_EQ(parse(kSweep, words("--activation leaky_relu")).config.negativeSlope,
              RnnConfig{}.negativeSlope);
    for (const char* bad : {"--activation leaky_relu=2", "--activation leaky_relu=x", "--activation relu=0.1",
                            "--activation leaky_relu="})
        EXPECT_THAT(parse(kSweep, words(bad)).problems,
                    ::testing::Contains(HasSubstr("--activation must be tanh, relu, leaky_relu or")))
            << bad;
}

TEST(ModelOptions, FlagsNotGivenKeepTheBaseValues) {
    RnnConfig base;
    base.hiddenSize = 77;
    base.seed = 5;
    base.bidirectional = true;
    const Parsed p = parse(kSweep, words("--layers 2"), base);
    EXPECT_THAT(p.problems, ::testing::IsEmpty());
    RnnConfig want = base;
    want.layers = 2;
    EXPECT_EQ(p.config, want);
}

TEST(ModelOptions, EveryProblemNamesTheFlagTheAllowedValuesAndTheValueGiven) {
    const Parsed p =
        parse(kSweep, words("--cell rnn --input-size 1e3 --hidden-size 0 --layers 17 --activation "
                            "sigmoid --recurrent-activation tanh --dropout lots --recurrent-dropout 0.99 "
                            "--seed -1"));
    EXPECT_THAT(p.problems,
                UnorderedElementsAre(
                    "--cell must be lstm or gru (got 'rnn')",
                    "--input-size must be an integer between 1 and 16384 (got '1e3')",
                    "--hidden-size must be between 1 and 8192 (got 0)",
                    "--layers must be between 1 and 16 (got 17)",
                    "--activation must be tanh, relu, leaky_relu or leaky_relu=SLOPE (0-1) (got 'sigmoid')",
                    "--recurrent-activation must be sigmoid, hard_sigmoid (Keras 2: clip(0.2x + 0.5)) or "
                    "hard_sigmoid_keras3 (clip(x/6 + 0.5)) (got 'tanh')",
                    "--dropout must be a number between 0 and 0.95 (got 'lots')",
                    "--recurrent-dropout must be a probability between 0 and 0.95 (got "
                    "0.99)",
                    "--seed must be an integer between 0 and 18446744073709551615 (got "
                    "'-1')"));
}

TEST(ModelOptions, RequiredModelFlagsAreNamedWhenMissing) {
    const Parsed p = parse(kEval, words("--hidden-size 8"));
    EXPECT_THAT(p.problems, UnorderedElementsAre("--cell is required", "--input-size is required",
                                                 "--layers is required"));
    EXPECT_THAT(parse(kSweep, {}).problems, ::testing::IsEmpty());
}

TEST(ModelOptions, DropoutAndSeedAreRefusedWithAReasonWhereTheyMakeNoSense) {
    const Parsed p = parse(kEval, words("--cell lstm --input-size 2 --hidden-size 3 --layers 1 --dropout 0.1 "
                                        "--recurrent-dropout 0.1 --seed 3"));
    ASSERT_EQ(p.problems.size(), 3u);
    EXPECT_THAT(p.problems[0], HasSubstr("--dropout is not accepted by rnnprof eval: dropout is random"));
    EXPECT_THAT(p.problems[1], HasSubstr("--recurrent-dropout is not accepted by rnnprof eval"));
    EXPECT_THAT(p.problems[2], HasSubstr("--seed is not accepted by rnnprof eval"));
    EXPECT_EQ(p.config.dropout, 0.0);
}

TEST(ModelOptions, RefusedFlagsAreHiddenFromHelp) {
    QCommandLineParser eval, sweep;
    ModelOptions(kEval).addTo(eval);
    ModelOptions(kSweep).addTo(sweep);
    EXPECT_FALSE(eval.helpText().contains(QStringLiteral("--dropout")));
    EXPECT_FALSE(eval.helpText().contains(QStringLiteral("--seed")));
    EXPECT_TRUE(sweep.helpText().contains(QStringLiteral("--recurrent-dropout")));
    EXPECT_TRUE(sweep.helpText().contains(QStringLiteral("--seed")));
    EXPECT_TRUE(eval.helpText().contains(QStringLiteral("(required)")));
}

TEST(ModelOptions, ResetBeforeAppliesToGruOnly) {
    EXPECT_THAT(parse(kSweep, words("--cell lstm --reset-before")).problems,
                UnorderedElementsAre("--reset-before applies to GRU only (got --cell lstm)"));
    EXPECT_FALSE(parse(kSweep, words("--cell gru --reset-before")).config.resetAfter);
    EXPECT_TRUE(parse(kSweep, words("--cell gru")).config.resetAfter);
    // With an unknown cell only the cell is reported.
    EXPECT_EQ(parse(kSweep, words("--cell rnn --reset-before")).problems.size(), 1u);
}

TEST(ModelOptions, AFlagGivenTwiceIsAProblem) {
    EXPECT_THAT(parse(kSweep, words("--layers 2 --layers 3")).problems,
                UnorderedElementsAre("--layers is given 2 times; give it once"));
}

TEST(ModelOptions, AModelTooLargeToIndexNamesTheSizeFlags) {
    const Parsed p =
        parse(kSweep, words("--input-size 16384 --hidden-size 8192 --layers 16 --bidirectional"));
    ASSERT_EQ(p.problems.size(), 1u);
    EXPECT_THAT(p.problems[0], HasSubstr("--hidden-size: the model is too large"));
    EXPECT_THAT(p.problems[0], HasSubstr("at most 2147483647"));
}

TEST(ModelOptions, FlagForFieldTurnsUnderscoresIntoDashes) {
    EXPECT_EQ(flagForField("input_size"), "--input-size");
    EXPECT_EQ(flagForField("recurrent_dropout"), "--recurrent-dropout");
    EXPECT_EQ(flagForField("layers"), "--layers");
}

} // namespace
} // namespace rnnprof::cli
