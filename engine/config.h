#pragma once
// The model a user configures (RnnConfig), the data shape of one run (Shape) and the run mode.
// Plain values: they cross layers and threads by copy. validate() reports every problem at once;
// the bounds in Limits keep every index of every buffer inside 32-bit signed range.
#include "engine/enum_names.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rnnprof {

enum class CellType { Lstm, Gru };
// LeakyRelu: x for x > 0, negativeSlope * x otherwise.
enum class Activation { Tanh, Relu, LeakyRelu };
// HardSigmoid is Keras 2's clip(0.2 x + 0.5, 0, 1); Keras 3 redefined hard_sigmoid as
// clip(x / 6 + 0.5, 0, 1) (relu6(x + 3) / 6): HardSigmoidKeras3.
enum class RecurrentActivation { Sigmoid, HardSigmoid, HardSigmoidKeras3 };
enum class Mode { Inference, Training };

struct RnnConfig {
    CellType cell = CellType::Lstm;
    int inputSize = 128;
    int hiddenSize = 256;
    int layers = 1;
    bool bidirectional = false;
    bool bias = true;
    Activation activation = Activation::Tanh;
    double negativeSlope = 0.01; // leaky_relu only (PyTorch's default; Keras' LeakyReLU has 0.3)
    RecurrentActivation recurrentActivation = RecurrentActivation::Sigmoid;
    double recurrentDropout = 0.0; // per-sequence mask on h inside the recurrence (training only)
    double dropout = 0.0;          // between layers (training only)
    bool resetAfter = true;        // GRU: reset gate applied after the recurrent product (cuDNN)
    std::uint64_t seed = 42;       // weights, inputs, targets and dropout masks

    bool operator==(const RnnConfig&) const = default;
};

struct Shape {
    int batch = 1;
    int seqLen = 1;
    bool operator==(const Shape&) const = default;
};

// Upper bounds of everything a user can enter. Documented in docs/reliability.md ("Limits").
struct Limits {
    static constexpr int maxInputSize = 16384;
    static constexpr int maxHiddenSize = 8192;
    static constexpr int maxLayers = 16;
    static constexpr int maxBatch = 65536;
    static constexpr int maxSeqLen = 65535; // cuDNN refuses longer sequences
    static constexpr double maxDropout = 0.95;
    static constexpr double maxNegativeSlope = 1.0;
    // No single buffer may hold more elements than this (32-bit signed index arithmetic).
    static constexpr std::int64_t maxBufferElements = 2147483647;
};

// One problem found by validation: the field's name as in files and flags, and a message that
// names the field, the allowed range and the value given.
struct FieldIssue {
    std::string field;
    std::string message;
    bool operator==(const FieldIssue&) const = default;
};

[[nodiscard]] std::vector<FieldIssue> validate(const RnnConfig& config);
// Checks batch and sequence length and that no buffer of (config, shape) exceeds the limits.
[[nodiscard]] std::vector<FieldIssue> validate(const RnnConfig& config, const Shape& shape);
// Throws Error(InvalidConfig) with every issue, one per line, when validate() finds any.
void requireValid(const RnnConfig& config);
void requireValid(const RnnConfig& config, const Shape& shape);
[[nodiscard]] std::string joinIssues(const std::vector<FieldIssue>& issues);

[[nodiscard]] int gateCount(CellType cell);
[[nodiscard]] int directionCount(const RnnConfig& config);
// Width of the input of `layer`: inputSize for layer 0, directions*hidden above.
[[nodiscard]] int layerInputSize(const RnnConfig& config, int layer);
// Elements of all parameters together (the flat ParamSet buffer), without building the layout.
[[nodiscard]] std::int64_t parameterCount(const RnnConfig& config);
// Elements in the largest buffer any backend allocates for (config, shape).
[[nodiscard]] std::int64_t largestBufferElements(const RnnConfig& config, const Shape& shape);

// The spellings in config files, result files, CSV and flags; toString() gives the first of each
// value, parse*() accepts every one, and messages list them with spellingList().
inline constexpr Spellings<CellType, 2> kCellSpellings{{{CellType::Lstm, "lstm"}, {CellType::Gru, "gru"}}};
inline constexpr Spellings<Activation, 3> kActivationSpellings{
    {{Activation::Tanh, "tanh"}, {Activation::Relu, "relu"}, {Activation::LeakyRelu, "leaky_relu"}}};
inline constexpr Spellings<RecurrentActivation, 4> kRecurrentActivationSpellings{
    {{RecurrentActivation::Sigmoid, "sigmoid"},
     {RecurrentActivation::HardSigmoid, "hard_sigmoid"},
     {RecurrentActivation::HardSigmoidKeras3, "hard_sigmoid_keras3"},
     {RecurrentActivation::HardSigmoid, "hard_sigmoid_keras2", true}}};
inline constexpr Spellings<Mode, 4> kModeSpellings{{{Mode::Inference, "infer"},
                                                    {Mode::Training, "train"},
                                                    {Mode::Inference, "inference", true},
                                                    {Mode::Training, "training", true}}};

// Empty for a value outside the enum (only a cast or a corrupt file makes one).
[[nodiscard]] std::string_view toString(CellType v);
[[nodiscard]] std::string_view toString(Activation v);
[[nodiscard]] std::string_view toString(RecurrentActivation v);
[[nodiscard]] std::string_view toString(Mode v); // "infer" | "train"
[[nodiscard]] std::optional<CellType> parseCell(std::string_view s);
[[nodiscard]] std::optional<Activation> parseActivation(std::string_view s);
[[nodiscard]] std::optional<RecurrentActivation> parseRecurrentActivation(std::string_view s);
[[nodiscard]] std::optional<Mode> parseMode(std::string_view s); // accepts infer|inference|train|training

// A number as messages and descriptions print it: "0.25", "1e-05" (a stream's default format).
[[nodiscard]] std::string numberText(double v);

// The slope of y = clip(slope * x + 0.5, 0, 1) of a hard sigmoid: 0.2 (Keras 2) or 1/6 (Keras 3);
// 0 for sigmoid.
[[nodiscard]] double hardSigmoidSlope(RecurrentActivation v);
// An activation as flags and layer lists write it: "tanh", "relu", "leaky_relu" (the slope given
// as `slope`) or "leaky_relu=0.05"; empty for anything else (a slope outside [0, 1] included).
struct ActivationSetting {
    Activation activation = Activation::Tanh;
    double negativeSlope = 0.01;
};
[[nodiscard]] std::optional<ActivationSetting> parseActivationSetting(std::string_view text, double slope);
inline constexpr std::string_view kActivationSettingHelp = "tanh, relu, leaky_relu or leaky_relu=SLOPE (0-1)";
// "tanh", "relu", "leaky_relu(0.05)": the activation with its slope where it has one.
[[nodiscard]] std::string activationText(const RnnConfig& config);

// One line describing the model, e.g. "LSTM 128->256 x2 bi, tanh/sigmoid".
[[nodiscard]] std::string describe(const RnnConfig& config);

} // namespace rnnprof
