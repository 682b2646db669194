#pragma once
// `rnnprof eval`: one forward pass (and with --grad-output one backward pass) of a configured
// LSTM/GRU on weights and inputs read from .npy files, through any registered backend, writing
// outputs, final states and gradients as float32 .npy files. For checking numbers against another
// framework, not for timing: use sweeps for that.
#include "engine/config.h"
#include "engine/tensor.h"

#include <string>
#include <vector>

namespace rnnprof::cli {

// Everything `rnnprof eval` was asked to do, after the flags were read. Empty paths: not given.
struct EvalRequest {
    RnnConfig config;
    std::string backend = "cpu-reference";
    std::string weightsDir;
    std::string input;
    std::string h0, c0;         // zeros when not given
    std::string gradOutput;     // gradients are computed only when given
    std::string gradHN, gradCN; // optional extra terms of the loss
    std::string outDir;
    [[nodiscard]] bool wantsGradients() const { return !gradOutput.empty(); }
};

// One result file: its name in the output folder and its contents.
struct EvalFile {
    std::string name; // e.g. "output.npy", "grad_weight_ih_l0.npy"
    Tensor<float> tensor;
};

// Reads every input, runs the backend and returns the files to write, in a fixed order. Writes
// nothing. Throws Error with a message naming the file, flag or backend at fault.
[[nodiscard]] std::vector<EvalFile> evaluate(const EvalRequest& request);

// The sub-command's entry point; argv[1] is "eval". Returns the process exit code.
int runEvalCommand(int argc, char** argv);

} // namespace rnnprof::cli
