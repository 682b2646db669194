#include "engine/framework_fast_path.h"

#include <sstream>

namespace rnnprof {
namespace {

// "activation=relu": the key as in config files, the value as toString() spells it.
std::string setting(const char* key, std::string_view value) {
    return std::string(key) + "=" + std::string(value);
}

std::string flag(bool v) {
    return v ? "true" : "false";
}

// Keras' rules, in the order of its docstring (unroll is never set in rnnprof).
FastPathVerdict keras(const RnnConfig& c) {
    const auto rule = [](const std::string& got, const std::string& needed) {
        return got + " (Keras needs " + needed + " for cuDNN and falls back to the generic kernel)";
    };
    FastPathVerdict v;
    if (c.activation != Activation::Tanh)
        v.reasons.push_back(rule(setting("activation", toString(c.activation)), "tanh"));
    if (c.recurrentActivation != RecurrentActivation::Sigmoid)
        v.reasons.push_back(
            rule(setting("recurrent_activation", toString(c.recurrentActivation)), "sigmoid"));
    if (c.recurrentDropout != 0.0)
        v.reasons.push_back(rule(setting("recurrent_dropout", numberText(c.recurrentDropout)), "0"));
    if (!c.bias) v.reasons.push_back(rule(setting("bias", flag(c.bias)), "use_bias=True"));
    if (c.cell == CellType::Gru && !c.resetAfter)
        v.reasons.push_back(rule(setting("reset_after", flag(c.resetAfter)), "reset_after=True"));
    return v;
}

// What nn.LSTM / nn.GRU cannot express; everything they can express runs on cuDNN.
FastPathVerdict pytorch(const RnnConfig& c) {
    const std::string module = c.cell == CellType::Lstm ? "nn.LSTM" : "nn.GRU";
    FastPathVerdict v;
    if (c.activation != Activation::Tanh)
        v.reasons.push_back(setting("activation", toString(c.activation)) + " (" + module +
                            " has no activation option: it always uses tanh)");
    if (c.recurrentActivation != RecurrentActivation::Sigmoid)
        v.reasons.push_back(setting("recurrent_activation", toString(c.recurrentActivation)) + " (" + module +
                            " has no recurrent activation option: its gates always use sigmoid)");
    if (c.recurrentDropout != 0.0)
        v.reasons.push_back(setting("recurrent_dropout", numberText(c.recurrentDropout)) + " (" + module +
                            " has no recurrent dropout: its dropout acts between layers)");
    if (c.cell == CellType::Gru && !c.resetAfter)
        v.reasons.push_back(setting("reset_after", flag(c.resetAfter)) + " (" + module +
                            " has no reset-before form: its reset gate acts after the recurrent product)");
    return v;
}

} // namespace

std::string FastPathVerdict::text() const {
    if (reasons.empty()) return "yes";
    std::string out = "no: ";
    for (std::size_t i = 0; i < reasons.size(); ++i)
        out += (i ? "; " : "") + reasons[i];
    return out;
}

FrameworkFastPath frameworkFastPath(const RnnConfig& config) {
    return {keras(config), pytorch(config)};
}

} // namespace rnnprof
