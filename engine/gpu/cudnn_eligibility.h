#pragma once
// Which configurations cuDNN's RNN API can run, by the rules frameworks apply before choosing it
// (Keras' criteria): activation tanh, recurrent activation sigmoid, no recurrent dropout, GRU with
// reset_after, bias on. Pure function of the configuration; compiled in every build (no CUDA).
// cuDNN may still refuse a configuration at run time (NOT_SUPPORTED); that is reported by the
// session as Error(Unsupported), not here.
#include "engine/config.h"

#include <string>
#include <vector>

namespace rnnprof::gpu {

// Every reason cuDNN cannot run `config`, one sentence each, e.g. "cuDNN LSTM requires
// activation=tanh (got relu); the generic GPU kernel will be used". Empty when eligible.
[[nodiscard]] std::vector<std::string> cudnnEligibility(const RnnConfig& config);

} // namespace rnnprof::gpu
