#include "engine/gpu/cudnn_eligibility.h"

#include <sstream>

namespace rnnprof::gpu {
namespace {

std::string limit(const std::string& what, const std::string& got) {
    return what + " (got " + got + "); gpu-generic runs it";
}

} // namespace

std::vector<std::string> cudnnEligibility(const RnnConfig& config, Mode mode) {
    const std::string cell = config.cell == CellType::Lstm ? "cuDNN's LSTM" : "cuDNN's GRU";
    std::vector<std::string> reasons;
    if (config.activation != Activation::Tanh)
        reasons.push_back(limit(cell + " has no activation but tanh",
                                "activation=" + std::string(toString(config.activation))));
    if (config.recurrentActivation != RecurrentActivation::Sigmoid)
        reasons.push_back(limit(cell + " gates have no activation but sigmoid",
                                "recurrent_activation=" + std::string(toString(config.recurrentActivation))));
    // Recurrent dropout only acts in training; in inference the network is the one cuDNN runs.
    if (mode == Mode::Training && config.recurrentDropout != 0.0)
        reasons.push_back(limit("cuDNN has no dropout inside the recurrence, only between layers",
                                "recurrent_dropout=" + numberText(config.recurrentDropout) + " in training"));
    if (config.cell == CellType::Gru && !config.resetAfter)
        reasons.push_back(
            limit(cell + " applies the reset gate after the recurrent product only", "reset_after=false"));
    return reasons;
}

} // namespace rnnprof::gpu
