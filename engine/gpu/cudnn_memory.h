#pragma once
// gpu-cudnn's device memory by category. The sizes cuDNN decides (weight space, workspace,
// reserve space, dropout states) are exact once prepare() has asked cuDNN for this shape; before
// that (estimateMemory, no handle needed) they come from formulas fitted to published sizes
// (see shared/design/gpu-cudnn.md, section 5) and lean high. Compiled in every build (no CUDA).
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
// Formula estimates: weight space = dense parameter count; training reserve about (G+2)*H (LSTM)
// or (G+4)*H (GRU) floats per (step, batch row, layer, direction); training workspace about four
// steps of gate pre-activations; inference workspace one layer's input projection and outputs.
[[nodiscard]] CudnnSpaceSizes estimateCudnnSpaces(const Problem& problem);
// weights = weight space; gradients = dweight space (training); activations = reserve space;
// workspace = cuDNN workspace + dropout states + the cuBLAS workspace of the loss; io = x, y,
// states, sequence lengths, and in training the target and the gradients of y, x and states.
[[nodiscard]] MemoryFootprint cudnnFootprint(const Problem& problem, const CudnnSpaceSizes& spaces);

} // namespace rnnprof::gpu
