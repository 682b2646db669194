// The built-in presets and the config-file schema they share with `--config FILE.json`.
#include "engine/error.h"
#include "engine/framework_fast_path.h"
#include "profiling/files/presets.h"
#include "profiling/int_list.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

namespace rnnprof {
namespace {

using ::testing::HasSubstr;

const std::vector<std::string> kBuiltinBackends{"cpu-reference", "cpu-blas", "cpu-onednn", "gpu-generic",
                                                "gpu-cudnn"};

// The message of the Error planFromJson throws for `text`, or "" when it parses.
std::string parseError(const std::string& text) {
    try {
        (void)planFromJson(text, "config.json");
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
        return e.what();
    }
    return "";
}

const SweepPlan& presetPlan(const char* name) {
    const Preset* p = findPreset(name);
    if (!p) throw std::runtime_error(std::string("no preset ") + name);
    return p->plan;
}

TEST(Presets, TheSixScenariosAreBuiltIn) {
    std::vector<std::string> names;
    for (const auto& p : builtinPresets())
        names.push_back(p.name);
    EXPECT_THAT(names, ::testing::UnorderedElementsAre("quick-start", "cudnn-lstm-vs-lstm",
                                                       "gru-train-vs-infer", "cpu-gpu-crossover",
                                                       "bilstm-relu", "deepbench-lstm-inference"));
    EXPECT_EQ(defaultPresetName(), "quick-start");
    EXPECT_EQ(builtinPresets().front().name, defaultPresetName());
    EXPECT_EQ(findPreset("no-such-preset"), nullptr);
}

TEST(Presets, EachHasAOneLineTitleAndADescription) {
    for (const auto& p : builtinPresets()) {
        SCOPED_TRACE(p.name);
        EXPECT_FALSE(p.title.empty());
        EXPECT_EQ(p.title.find('\n'), std::string::npos);
        EXPECT_GT(p.description.size(), 80u);
        EXPECT_EQ(p.plan.preset, p.name);
    }
}

TEST(Presets, EachValidatesAgainstTheBuiltInBackends) {
    for (const auto& p : builtinPresets()) {
        SCOPED_TRACE(p.name);
        EXPECT_EQ(joinIssues(validate(p.plan, kBuiltinBackends)), "");
        EXPECT_FALSE(points(p.plan).empty());
    }
}

TEST(Presets, EachRoundTripsThroughPlanToJson) {
    for (const auto& p : builtinPresets()) {
        SCOPED_TRACE(p.name);
        EXPECT_EQ(planFromJson(planToJson(p.plan), p.name), p.plan);
    }
}

TEST(Presets, QuickStartIsASmallLstmSweepWithoutTheReference) {
    const SweepPlan& p = presetPlan("quick-start");
    EXPECT_EQ(p.config.cell, CellType::Lstm);
    EXPECT_EQ(p.config.inputSize, 128);
    EXPECT_EQ(p.config.hiddenSize, 256);
    EXPECT_EQ(p.batches, (std::vector<int>{1, 4, 16, 64}));
    EXPECT_EQ(p.seqLens, (std::vector<int>{20}));
    EXPECT_EQ(p.modes, (std::vector<Mode>{Mode::Inference, Mode::Training}));
    EXPECT_EQ(std::count(p.backends.begin(), p.backends.end(), "cpu-reference"), 0);
    EXPECT_EQ(p.backends.size(), 4u);
    EXPECT_LE(p.settings.maxRepeats, 10);
}

TEST(Presets, CudnnLstmVsLstmIsTheKerasSetup) {
    const SweepPlan& p = presetPlan("cudnn-lstm-vs-lstm");
    EXPECT_EQ(p.config.inputSize, 100);
    EXPECT_EQ(p.config.hiddenSize, 128);
    EXPECT_EQ(p.seqLens, (std::vector<int>{20}));
    EXPECT_EQ(p.modes, (std::vector<Mode>{Mode::Training}));
    EXPECT_EQ(p.batches, (std::vector<int>{16, 32, 64, 128, 256, 512}));
    EXPECT_THAT(p.backends,
                ::testing::UnorderedElementsAre("gpu-cudnn", "gpu-generic", "cpu-blas", "cpu-onednn"));
}

TEST(Presets, GruTrainVsInferCoversBothModesAndTwoLengths) {
    const SweepPlan& p = presetPlan("gru-train-vs-infer");
    EXPECT_EQ(p.config.cell, CellType::Gru);
    EXPECT_EQ(p.config.hiddenSize, 64);
    EXPECT_EQ(p.batches.front(), 1);
    EXPECT_EQ(p.batches.back(), 1024);
    EXPECT_EQ(p.seqLens, (std::vector<int>{50, 200}));
    EXPECT_EQ(p.modes.size(), 2u);
}

TEST(Presets, CrossoverSweepsPowersOfTwoInInference) {
    const SweepPlan& p = presetPlan("cpu-gpu-crossover");
    EXPECT_EQ(p.batches, (std::vector<int>{1, 2, 4, 8, 16, 32, 64, 128, 256, 512}));
    EXPECT_EQ(p.seqLens, (std::vector<int>{20, 100}));
    EXPECT_EQ(p.modes, (std::vector<Mode>{Mode::Inference}));
}

TEST(Presets, BiLstmReluLeavesTheCudnnPath) {
    const SweepPlan& p = presetPlan("bilstm-relu");
    EXPECT_EQ(p.config.activation, Activation::Relu);
    EXPECT_TRUE(p.config.bidirectional);
    EXPECT_EQ(p.config.layers, 2);
    EXPECT_EQ(p.config.inputSize, 128);
    EXPECT_EQ(p.config.hiddenSize, 256);
    EXPECT_EQ(p.modes, (std::vector<Mode>{Mode::Training}));
}

// Its description says what the verdicts of its model say: neither framework runs it on cuDNN.
TEST(Presets, BiLstmReluShowsItIsOffBothFrameworkFastPaths) {
    const Preset* preset = findPreset("bilstm-relu");
    ASSERT_NE(preset, nullptr);
    const FrameworkFastPath v = frameworkFastPath(preset->plan.config);
    EXPECT_EQ(v.keras.text(),
              "no: activation=relu (Keras needs tanh for cuDNN and falls back to the generic kernel)");
    EXPECT_EQ(v.pytorch.text(),
              "no: activation=relu (nn.LSTM has no activation option: it always uses tanh)");
    EXPECT_THAT(preset->description, HasSubstr("Keras: no: activation=relu ("));
    EXPECT_THAT(preset->description, HasSubstr("PyTorch: no: activation=relu (nn.LSTM has no activation"));
}

// The Keras CuDNNLSTM comparison and the other LSTM/GRU presets are on both fast paths.
TEST(Presets, EveryOtherPresetIsOnBothFrameworkFastPaths) {
    for (const Preset& p : builtinPresets()) {
        if (p.name == "bilstm-relu") continue;
        SCOPED_TRACE(p.name);
        const FrameworkFastPath v = frameworkFastPath(p.plan.config);
        EXPECT_EQ(v.keras.text(), "yes");
        EXPECT_EQ(v.pytorch.text(), "yes");
    }
}

TEST(Presets, DeepBenchUsesInputEqualToHidden) {
    const SweepPlan& p = presetPlan("deepbench-lstm-inference");
    EXPECT_EQ(p.config.inputSize, 512);
    EXPECT_EQ(p.config.hiddenSize, 512);
    EXPECT_EQ(p.seqLens, (std::vector<int>{25}));
    EXPECT_EQ(p.batches, (std::vector<int>{1, 2, 4, 8, 16, 32, 64}));
    EXPECT_THAT(findPreset("deepbench-lstm-inference")->description, HasSubstr("inference_server_set"));
}

TEST(ConfigFile, MissingKeysKeepTheirDefaults) {
    EXPECT_EQ(planFromJson("{}", "config.json"), SweepPlan{});
    const SweepPlan p =
        planFromJson(R"({"model": {"hidden_size": 32}, "sweep": {"batch": [2, 8]}})", "c.json");
    EXPECT_EQ(p.config.hiddenSize, 32);
    EXPECT_EQ(p.config.inputSize, RnnConfig{}.inputSize);
    EXPECT_EQ(p.batches, (std::vector<int>{2, 8}));
    EXPECT_EQ(p.seqLens, SweepPlan{}.seqLens);
}

TEST(ConfigFile, EveryFieldRoundTrips) {
    SweepPlan p;
    p.config = {.cell = CellType::Gru,
                .inputSize = 33,
                .hiddenSize = 17,
                .layers = 3,
                .bidirectional = true,
                .bias = false,
                .activation = Activation::LeakyRelu,
                .negativeSlope = 0.05,
                .recurrentActivation = RecurrentActivation::HardSigmoidKeras3,
                .recurrentDropout = 0.25,
                .dropout = 0.5,
                .resetAfter = false,
                .seed = 12345678901234ULL};
    p.batches = {3, 1};
    p.seqLens = {7};
    p.backends = {"x", "y"};
    p.modes = {Mode::Training};
    p.settings = {4, 2, 9, 123.5, 1, 0.125, true, GemmProvider::OpenBlas, false, 1e6, 0.2, false};
    p.preset = "mine";
    EXPECT_EQ(planFromJson(planToJson(p), "round trip"), p);
}

TEST(ConfigFile, ListsMayBeWrittenInTheGrammarOfTheGuiAndCommandLine) {
    const SweepPlan p = planFromJson(R"({"sweep": {"batch": "1..20", "seq_len": "3-5, 100"}})", "c.json");
    EXPECT_EQ(p.batches, (std::vector<int>{1, 2, 4, 8, 16, 20}));
    EXPECT_EQ(p.seqLens, (std::vector<int>{3, 4, 5, 100}));
    EXPECT_THAT(parseError(R"({"sweep": {"batch": "16, x"}})"),
                HasSubstr("sweep.batch: 'x' is not a whole number"));
    EXPECT_THAT(parseError(R"({"sweep": {"seq_len": "70000"}})"),
                HasSubstr("sweep.seq_len: 70000 is out of range (1..65535)"));
}

TEST(ConfigFile, AcceptsLongModeNames) {
    EXPECT_EQ(planFromJson(R"({"sweep": {"modes": ["inference", "training"]}})", "c").modes,
              (std::vector<Mode>{Mode::Inference, Mode::Training}));
}

TEST(ConfigFile, UnknownKeyIsNamedWithItsPath) {
    EXPECT_THAT(parseError(R"({"model": {"hiden_size": 64}})"),
                HasSubstr("config.json: model.hiden_size: unknown key (allowed here: "));
    EXPECT_THAT(parseError(R"({"sweeps": {}})"), HasSubstr("sweeps: unknown key"));
}

TEST(ConfigFile, WrongTypeIsNamedWithItsPath) {
    EXPECT_THAT(parseError(R"({"sweep": {"batch": 16}})"),
                HasSubstr("sweep.batch: expected an array of integers"));
    EXPECT_THAT(parseError(R"({"sweep": {"batch": [1, "2"]}})"),
                HasSubstr("sweep.batch[1]: expected an integer, got string"));
    EXPECT_THAT(parseError(R"({"model": {"layers": 1.5}})"),
                HasSubstr("model.layers: expected an integer, got number"));
    EXPECT_THAT(parseError(R"({"model": {"bidirectional": 1}})"),
                HasSubstr("model.bidirectional: expected true or false"));
    EXPECT_THAT(parseError(R"({"measure": 3})"), HasSubstr("measure: expected an object, got integer"));
    EXPECT_THAT(parseError(R"([1, 2])"), HasSubstr("expected an object, got array"));
    EXPECT_THAT(parseError(R"({"model": {"seed": -1}})"),
                HasSubstr("model.seed: expected a non-negative integer"));
}

TEST(ConfigFile, BadEnumListsTheAllowedValues) {
    EXPECT_THAT(parseError(R"({"model": {"cell": "lsmt"}})"),
                HasSubstr("model.cell: 'lsmt' is not one of lstm, gru"));
    EXPECT_THAT(parseError(R"({"measure": {"gemm": "mkl"}})"),
                HasSubstr("'mkl' is not one of onednn, openblas"));
    EXPECT_THAT(parseError(R"({"sweep": {"modes": ["infer", "both"]}})"),
                HasSubstr("sweep.modes[1]: 'both' is not one of infer, train"));
}

TEST(ConfigFile, OutOfRangeValuesAreNamedWithTheirPath) {
    EXPECT_THAT(parseError(R"({"model": {"hidden_size": 0}})"),
                HasSubstr("model.hidden_size: hidden_size must be between 1 and 8192 (got 0)"));
    EXPECT_THAT(parseError(R"({"sweep": {"batch": []}})"), HasSubstr("sweep.batch: batch is empty"));
    EXPECT_THAT(parseError(R"({"measure": {"min_repeats": 0}})"), HasSubstr("measure.min_repeats:"));
    EXPECT_THAT(parseError(R"({"measure": {"learning_rate": null}})"), HasSubstr("measure.learning_rate:"));
}

// The command line takes at most kMaxListValues batch sizes (or sequence lengths); a file may not
// hold more: 5000 values are refused by their count, naming it, not swept.
TEST(ConfigFile, AListHoldsNoMoreValuesThanTheCommandLineTakes) {
    // "[1,2,...,n]"
    const auto list = [](int n) {
        std::string text = "[1";
        for (int i = 2; i <= n; ++i) {
            text += ',';
            text += std::to_string(i);
        }
        return text + "]";
    };
    const std::string many = list(5000);
    EXPECT_THAT(parseError(R"({"sweep": {"batch": )" + many + "}}"),
                HasSubstr("sweep.batch: holds 5000 values, at most " + std::to_string(kMaxListValues) +
                          " are allowed"));
    EXPECT_EQ(
        planFromJson(R"({"sweep": {"seq_len": )" + list(kMaxListValues) + "}}", "c.json").seqLens.size(),
        std::size_t(kMaxListValues));
}

TEST(ConfigFile, EveryProblemIsInOneError) {
    const std::string message = parseError(
        R"({"model": {"cell": "rnn", "hidden_size": -5, "colour": 1}, "sweep": {"seq_len": [0]}})");
    EXPECT_THAT(message, HasSubstr("model.cell"));
    EXPECT_THAT(message, HasSubstr("model.hidden_size"));
    EXPECT_THAT(message, HasSubstr("model.colour"));
    EXPECT_THAT(message, HasSubstr("sweep.seq_len"));
}

TEST(ConfigFile, UnknownBackendsAreLeftToValidate) {
    // The file cannot know which backends this build has; validate() checks them.
    const SweepPlan p = planFromJson(R"({"sweep": {"backends": ["tpu"]}})", "c");
    EXPECT_EQ(p.backends, (std::vector<std::string>{"tpu"}));
    EXPECT_THAT(joinIssues(validate(p, kBuiltinBackends)), HasSubstr("unknown backend 'tpu'"));
}

TEST(ConfigFile, SyntaxErrorsSayWhere) {
    EXPECT_THAT(parseError(R"({"model": {"cell": "lstm",}})"), HasSubstr("config.json: not valid JSON"));
    EXPECT_THAT(parseError(""), HasSubstr("not valid JSON"));
    EXPECT_THAT(parseError("{\"model\": {\"cell\": \"lstm\""), HasSubstr("not valid JSON"));
}

} // namespace
} // namespace rnnprof
