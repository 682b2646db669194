#pragma once
// Which configurations cuDNN's RNN API can run: its limits, not a framework's rules for choosing
// it (those are engine/framework_fast_path.h). cuDNN's LSTM and GRU have a fixed tanh activation
// and sigmoid gates, no dropout inside the recurrence (its dropout acts between layers), and one
// GRU form, the reset gate applied after the recurrent product (reset_after). Bias on or off is
// not a limit (CUDNN_RNN_DOUBLE_BIAS or CUDNN_RNN_NO_BIAS), nor is recurrent dropout in inference,
// where it does nothing. Pure function of the configuration and mode; compiled in every build (no
// CUDA). cuDNN may still refuse a configuration at run time (NOT_SUPPORTED); that is reported by
// the session as Error(Unsupported), not here.
#include "engine/config.h"

#include <string>
#include <vector>

namespace rnnprof::gpu {

// Every limit of cuDNN that `config` in `mode` runs into, one sentence each, e.g. "cuDNN's LSTM
// has no activation but tanh (got activation=relu); gpu-generic runs it". Empty when cuDNN can run
// it.
[[nodiscard]] std::vector<std::string> cudnnEligibility(const RnnConfig& config, Mode mode);

} // namespace rnnprof::gpu
