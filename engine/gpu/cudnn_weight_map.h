#pragma once
// Where each gate block of the canonical (PyTorch) parameters lives in cuDNN's weight space:
// pseudo-layer 2*layer+dir (bidirectional) or layer, and linLayerID = gate for the input GEMM,
// G + gate for the recurrent GEMM (LSTM gates i,f,g,o = 0..3 / 4..7; GRU r,z,n = 0..2 / 3..5, the
// same order as the canonical layout). Only the mapping: the byte offsets inside the weight space
// are opaque and must be asked of cudnnGetRNNWeightParams. Compiled in every build (no CUDA).
#include "engine/config.h"
#include "engine/params.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rnnprof::gpu {

// One gate block of a canonical parameter: rows [gate*H, (gate+1)*H) of weight_ih / weight_hh
// (a contiguous H x cols block, row-major) or elements [gate*H, (gate+1)*H) of a bias.
struct CanonicalGateBlock {
    int layer = 0;
    int direction = 0;
    ParamKind kind = ParamKind::WeightIh;
    int gate = 0;
    bool operator==(const CanonicalGateBlock&) const = default;
};

// The arguments of cudnnGetRNNWeightParams that locate a block; `bias` selects bAddr over mAddr.
struct CudnnWeightSlot {
    int pseudoLayer = 0;
    int linLayerId = 0;
    bool bias = false;
    bool operator==(const CudnnWeightSlot&) const = default;
};

// A block with everything needed to copy it: where it is in a ParamSet and its shape.
struct CudnnWeightBlock {
    CanonicalGateBlock canonical;
    CudnnWeightSlot slot;
    std::int64_t canonicalOffset = 0; // element offset into ParamSet::values
    std::int64_t rows = 0;            // H
    std::int64_t cols = 0;            // layer input width, H, or 1 for biases
    [[nodiscard]] std::int64_t size() const { return rows * cols; }
};

[[nodiscard]] int cudnnPseudoLayer(const RnnConfig& config, int layer, int direction);
// Throws Error(InvalidInput) for a block outside the configuration (layer, direction, gate out of
// range, or a bias when bias is off).
[[nodiscard]] CudnnWeightSlot toCudnnSlot(const RnnConfig& config, const CanonicalGateBlock& block);
// The inverse; throws Error(InvalidInput) for a slot outside the configuration (e.g. linLayerID 8,
// LSTM projection, which rnnprof never enables).
[[nodiscard]] CanonicalGateBlock fromCudnnSlot(const RnnConfig& config, const CudnnWeightSlot& slot);
// Every block of the configuration, in canonical layout order.
[[nodiscard]] std::vector<CudnnWeightBlock> cudnnWeightBlocks(const RnnConfig& config);
// "weight_hh_l1_reverse gate f"
[[nodiscard]] std::string describeBlock(const RnnConfig& config, const CanonicalGateBlock& block);

// A block located in cuDNN's weight space (as cudnnGetRNNWeightParams reported it), in floats.
struct CudnnPlacedBlock {
    CudnnWeightBlock block;
    std::int64_t spaceOffset = 0;
};

// Throws Error(BackendFailure) when a block lies outside a weight space of `spaceFloats` floats or
// two blocks overlap: the copies below would then corrupt the weights.
void checkPlacement(const RnnConfig& config, const std::vector<CudnnPlacedBlock>& placed,
                    std::int64_t spaceFloats);
// Copies every canonical gate block into its place in `space` (host memory, spaceFloats long).
void scatterToWeightSpace(const std::vector<CudnnPlacedBlock>& placed, const ParamSet<float>& params,
                          std::vector<float>& space);
// The inverse: canonical parameters (or gradients) from a weight (or dweight) space.
[[nodiscard]] ParamSet<float> gatherFromWeightSpace(const std::vector<CudnnPlacedBlock>& placed,
                                                    const RnnConfig& config, const std::vector<float>& space);

// cuDNN's bias mode for a configuration: with bias, two vectors per gate (CUDNN_RNN_DOUBLE_BIAS:
// bias_ih on the input GEMM, bias_hh on the recurrent one, as PyTorch); without, none
// (CUDNN_RNN_NO_BIAS), and the weight space then holds no bias blocks: cudnnWeightBlocks() lists
// none, so none is asked of cudnnGetRNNWeightParams (which would return a null address).
enum class CudnnBiasMode { NoBias, DoubleBias };
[[nodiscard]] CudnnBiasMode cudnnBiasMode(const RnnConfig& config);
// "NO_BIAS" | "DOUBLE_BIAS": cuDNN's name without the CUDNN_RNN_ prefix.
[[nodiscard]] std::string_view cudnnBiasModeName(CudnnBiasMode mode);
// Bias vectors per gate: 0 (NO_BIAS) or 2 (DOUBLE_BIAS).
[[nodiscard]] int biasVectorsPerGate(CudnnBiasMode mode);

// Dense parameter count of cuDNN's weight space (without padding), summed over pseudo-layers:
// G*H*in + G*H*H + nb*G*H with nb = biasVectorsPerGate(cudnnBiasMode(config)); no LSTM
// projection. Used as a sanity check against cudnnGetRNNWeightSpaceSize and for estimates.
[[nodiscard]] std::int64_t cudnnDenseParameterCount(const RnnConfig& config);

} // namespace rnnprof::gpu
