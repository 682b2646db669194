#include "engine/gpu/cudnn_eligibility.h"

#include <sstream>

namespace rnnprof::gpu {
namespace {

std::string rule(const RnnConfig& config, const std::string& requirement, const std::string& got) {
    return std::string("cuDNN ") + (config.cell == CellType::Lstm ? "LSTM" : "GRU") + " requires " +
           requirement + " (got " + got + "); the generic GPU kernel will be used";
}

std::string number(double v) {
    std::ostringstream s;
    s << v;
    return s.str();
}

} // namespace

std::vector<std::string> cudnnEligibility(const RnnConfig& config) {
    std::vector<std::string> reasons;
    if (config.activation != Activation::Tanh)
        reasons.push_back(rule(config, "activation=tanh", std::string(toString(config.activation))));
    if (config.recurrentActivation != RecurrentActivation::Sigmoid)
        reasons.push_back(
            rule(config, "recurrent_activation=sigmoid", std::string(toString(config.recurrentActivation))));
    if (config.recurrentDropout != 0.0)
        reasons.push_back(rule(config, "recurrent_dropout=0", number(config.recurrentDropout)));
    if (config.cell == CellType::Gru && !config.resetAfter)
        reasons.push_back(rule(config, "reset_after=true", "false"));
    if (!config.bias) reasons.push_back(rule(config, "bias=true", "false"));
    return reasons;
}

} // namespace rnnprof::gpu
