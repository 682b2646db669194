#pragma once
// A model as a user has it: an input width and a list of layers run in order. Recurrent layers
// (LSTM, GRU) each have their own size, direction and cell options; dropout layers and a dense
// head sit between and after them. Plain values.
// A model runs as stages: consecutive recurrent layers that differ only in their input width (and
// are separated by nothing or by dropout layers of one rate) run as one multi-layer call, as
// PyTorch's num_layers does; any other layer is a call of its own, as Keras runs every layer. The
// homogeneous stack of RnnConfig is the model of one such call (modelOf(), singleCall()).
#include "engine/config.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rnnprof {

enum class LayerKind { Lstm, Gru, Dropout, Dense };
inline constexpr Spellings<LayerKind, 4> kLayerKindSpellings{{{LayerKind::Lstm, "lstm"},
                                                              {LayerKind::Gru, "gru"},
                                                              {LayerKind::Dropout, "dropout"},
                                                              {LayerKind::Dense, "dense"}}};

// The activation of a dense layer (Keras' Dense(activation=...)); element-wise after the product.
enum class DenseActivation { Linear, Relu, Tanh, Sigmoid, Softmax };
inline constexpr Spellings<DenseActivation, 5> kDenseActivationSpellings{
    {{DenseActivation::Linear, "linear"},
     {DenseActivation::Relu, "relu"},
     {DenseActivation::Tanh, "tanh"},
     {DenseActivation::Sigmoid, "sigmoid"},
     {DenseActivation::Softmax, "softmax"}}};

struct LayerSpec {
    LayerKind kind = LayerKind::Lstm;
    int units = 64; // hidden units per direction (lstm, gru) or outputs (dense)
    // Recurrent layers: as RnnConfig's fields of the same names.
    bool bidirectional = false;
    bool bias = true; // dense too
    Activation activation = Activation::Tanh;
    double negativeSlope = 0.01;
    RecurrentActivation recurrentActivation = RecurrentActivation::Sigmoid;
    double recurrentDropout = 0.0;
    bool resetAfter = true;
    // Whether every step's output goes on (true) or only the last step's (Keras'
    // return_sequences=False): a layer after it sees one row per sequence, so no recurrent layer may follow.
    bool returnSequences = true;
    double rate = 0.0; // dropout: the fraction dropped in training
    DenseActivation denseActivation = DenseActivation::Linear;
    bool operator==(const LayerSpec&) const = default;
};

struct ModelSpec {
    std::string name;   // shown in titles; empty: describe() names it
    std::string source; // the file it was imported from; empty when typed in
    int inputSize = 128;
    std::vector<LayerSpec> layers;
    std::uint64_t seed = 42;
    bool operator==(const ModelSpec&) const = default;
};

inline constexpr int kMaxModelLayers = 64;

[[nodiscard]] bool isRecurrent(LayerKind kind);

// One call of a model's run: a recurrent call of one or more layers, a dropout or a dense layer.
enum class StageKind { Recurrent, Dropout, Dense };
struct ModelStage {
    StageKind kind = StageKind::Recurrent;
    int firstLayer = 0; // the model's layers this stage runs: [firstLayer, lastLayer]
    int lastLayer = 0;
    int inputWidth = 0;  // features per row it reads
    int outputWidth = 0; // features per row it writes
    bool perStep = true; // whether it reads one row per step (true) or one per sequence
    // Recurrent: the call (inputSize, layers, dropout between them, the seed of this stage).
    RnnConfig config;
    bool returnSequences = true; // recurrent: whether its output keeps every step
    bool operator==(const ModelStage&) const = default;
};

// Every problem of the model, each naming its field as files and flags do ("layers[2].units").
[[nodiscard]] std::vector<FieldIssue> validate(const ModelSpec& model);
// The stages of a valid model, in run order. Stage k's recurrent seed is the model's seed + k, so
// that stages of equal shape do not draw the same weights.
[[nodiscard]] std::vector<ModelStage> stages(const ModelSpec& model);
// The homogeneous stack as a model: `layers` recurrent layers with dropout layers between them
// when config.dropout > 0.
[[nodiscard]] ModelSpec modelOf(const RnnConfig& config);
// The RnnConfig of a model that is a single recurrent call whose output keeps every step (the
// homogeneous stack of modelOf()); empty for any other model.
[[nodiscard]] std::optional<RnnConfig> singleCall(const ModelSpec& model);
// The width of what layer `index` reads: the model's input for layer 0.
[[nodiscard]] int layerInputWidth(const ModelSpec& model, int index);
// The RnnConfig of recurrent layer `index` alone (its input width, one layer, no dropout).
[[nodiscard]] RnnConfig layerConfig(const ModelSpec& model, int index);
// Parameters of layer `index` (weights and biases; 0 for dropout).
[[nodiscard]] std::int64_t layerParameterCount(const ModelSpec& model, int index);

// A layer as command lines write it: KIND:SIZE[:OPTION...], e.g. "lstm:64:leaky_relu=0.05",
// "gru:32:bidirectional:reset_before", "dropout:0.2", "dense:8:softmax", "lstm:32:last". The
// message says what was wrong and what is allowed when the text is not one.
struct LayerParse {
    std::optional<LayerSpec> layer;
    std::string error;
};
[[nodiscard]] LayerParse parseLayer(std::string_view text);
inline constexpr std::string_view kLayerSyntaxHelp =
    "lstm|gru:UNITS[:bidirectional][:no_bias][:tanh|relu|leaky_relu[=SLOPE]]"
    "[:sigmoid|hard_sigmoid|hard_sigmoid_keras3][:recurrent_dropout=P][:reset_before][:last], "
    "dropout:RATE, or dense:UNITS[:linear|relu|tanh|sigmoid|softmax][:no_bias]";
// The inverse of parseLayer(): the shortest text that parses back to `layer`.
[[nodiscard]] std::string layerText(const LayerSpec& layer);

// "LSTM 64 leaky_relu(0.05) -> dropout 0.2 -> LSTM 32 (last step) -> dense 8", from the input width.
[[nodiscard]] std::string describe(const ModelSpec& model);
// One layer in the same words: "LSTM 64 bi, leaky_relu(0.05)/sigmoid".
[[nodiscard]] std::string describeLayer(const LayerSpec& layer);

} // namespace rnnprof
