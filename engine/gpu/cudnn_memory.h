#pragma once
// gpu-cudnn's device memory by category. The sizes cuDNN decides (weight space, workspace,
// reserve space, dropout states) are exact once prepare() has asked cuDNN for this shape; before
// that (estimateMemory, no handle needed) they come from formulas fitted to cuDNN's own answers
// (tests/data/cudnn/cudnn-rnn-sizes-session-h100.csv) that lean high. Compiled in every build (no CUDA).
#include "engine/backend.h"
#include "engine/problem.h"

#include <cstdint>

namespace rnnprof::gpu {

struct CudnnSpaceSizes {
    std::uint64_t weightSpace = 0;   // bytes, cudnnGetRNNWeightSpaceSize
    std::uint64_t workspace = 0;     // cudnnGetRNNTempSpaceSizes for the run's mode
    std::uint64_t reserve = 0;       // training only
    std::uint64_t dropoutStates = 0; // cudnnDropoutGetStatesSize, only with dropout between layers
};

// True when cuDNN applies dropout between layers for this problem (training, dropout > 0, more
// than one layer): cuDNN then samples its own mask.
[[nodiscard]] bool cudnnDrawsDropout(const Problem& problem);
// What cuDNN will ask for, before a handle exists: the weight space exactly (the dense parameter
// count), the reserve space by cuDNN's own rule, the workspace from a fit that is never below
// cuDNN's answers on the H100 (and a sixteenth above it for GPUs and versions it does not cover),
// for the problem's cuDNN algorithm (options.cudnnAlgo; PERSIST_DYNAMIC as the persistent ones).
// The formulas and where their constants come from are in cudnn_memory.cpp.
[[nodiscard]] CudnnSpaceSizes estimateCudnnSpaces(const Problem& problem);
// weights = weight space; gradients = dweight space (training); activations = reserve space;
// workspace = cuDNN workspace + dropout states + the partial sums of the loss (training with the
// MSE loss); io = x, y, states, sequence lengths, and in training the target and the gradients of
// y, x and states. `detail` names the cuDNN buffers and the loss's partial sums.
[[nodiscard]] MemoryFootprint cudnnFootprint(const Problem& problem, const CudnnSpaceSizes& spaces);

} // namespace rnnprof::gpu
