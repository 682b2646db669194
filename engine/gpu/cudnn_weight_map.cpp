#include "engine/gpu/cudnn_weight_map.h"

#include "engine/error.h"

#include <algorithm>

namespace rnnprof::gpu {
namespace {

bool isBias(ParamKind kind) {
    return kind == ParamKind::BiasIh || kind == ParamKind::BiasHh;
}

bool isRecurrent(ParamKind kind) {
    return kind == ParamKind::WeightHh || kind == ParamKind::BiasHh;
}

const char* gateName(CellType cell, int gate) {
    static const char* const lstm[] = {"i", "f", "g", "o"};
    static const char* const gru[] = {"r", "z", "n"};
    return cell == CellType::Lstm ? lstm[gate] : gru[gate];
}

[[noreturn]] void reject(const std::string& what, const std::string& allowed) {
    throw Error(ErrorKind::InvalidInput, what + " is outside this configuration: " + allowed);
}

} // namespace

int cudnnPseudoLayer(const RnnConfig& config, int layer, int direction) {
    return config.bidirectional ? 2 * layer + direction : layer;
}

CudnnWeightSlot toCudnnSlot(const RnnConfig& config, const CanonicalGateBlock& b) {
    const int G = gateCount(config.cell);
    if (b.layer < 0 || b.layer >= config.layers)
        reject("layer " + std::to_string(b.layer), "layers are 0.." + std::to_string(config.layers - 1));
    if (b.direction < 0 || b.direction >= directionCount(config))
        reject("direction " + std::to_string(b.direction), config.bidirectional
                                                               ? "directions are 0 (forward) and 1 (reverse)"
                                                               : "the model is unidirectional");
    if (b.gate < 0 || b.gate >= G)
        reject("gate " + std::to_string(b.gate), "gates are 0.." + std::to_string(G - 1));
    if (isBias(b.kind) && !config.bias) reject("a bias", "the model has bias=false");
    CudnnWeightSlot s;
    s.pseudoLayer = cudnnPseudoLayer(config, b.layer, b.direction);
    s.linLayerId = (isRecurrent(b.kind) ? G : 0) + b.gate;
    s.bias = isBias(b.kind);
    return s;
}

CanonicalGateBlock fromCudnnSlot(const RnnConfig& config, const CudnnWeightSlot& s) {
    const int G = gateCount(config.cell), D = directionCount(config);
    if (s.pseudoLayer < 0 || s.pseudoLayer >= config.layers * D)
        reject("pseudo-layer " + std::to_string(s.pseudoLayer),
               "pseudo-layers are 0.." + std::to_string(config.layers * D - 1));
    if (s.linLayerId < 0 || s.linLayerId >= 2 * G)
        reject("linLayerID " + std::to_string(s.linLayerId),
               "linLayerIDs are 0.." + std::to_string(2 * G - 1) + " (no LSTM projection)");
    if (s.bias && !config.bias) reject("a bias", "the model has bias=false");
    CanonicalGateBlock b;
    b.layer = s.pseudoLayer / D;
    b.direction = s.pseudoLayer % D;
    const bool recurrent = s.linLayerId >= G;
    b.gate = s.linLayerId % G;
    b.kind = s.bias ? (recurrent ? ParamKind::BiasHh : ParamKind::BiasIh)
                    : (recurrent ? ParamKind::WeightHh : ParamKind::WeightIh);
    return b;
}

std::vector<CudnnWeightBlock> cudnnWeightBlocks(const RnnConfig& config) {
    const ParamLayout layout(config);
    const int G = gateCount(config.cell);
    const std::int64_t H = config.hiddenSize;
    std::vector<CudnnWeightBlock> blocks;
    for (const ParamSpec& spec : layout.specs()) {
        for (int gate = 0; gate < G; ++gate) {
            CudnnWeightBlock b;
            b.canonical = {spec.layer, spec.direction, spec.kind, gate};
            b.slot = toCudnnSlot(config, b.canonical);
            b.rows = H;
            b.cols = spec.cols;
            b.canonicalOffset = spec.offset + gate * H * spec.cols;
            blocks.push_back(b);
        }
    }
    return blocks;
}

std::string describeBlock(const RnnConfig& config, const CanonicalGateBlock& b) {
    return paramName(b.layer, b.direction, b.kind) + " gate " + gateName(config.cell, b.gate);
}

CudnnBiasMode cudnnBiasMode(const RnnConfig& config) {
    return config.bias ? CudnnBiasMode::DoubleBias : CudnnBiasMode::NoBias;
}

std::string_view cudnnBiasModeName(CudnnBiasMode mode) {
    return mode == CudnnBiasMode::DoubleBias ? "DOUBLE_BIAS" : "NO_BIAS";
}

int biasVectorsPerGate(CudnnBiasMode mode) {
    return mode == CudnnBiasMode::DoubleBias ? 2 : 0;
}

std::int64_t cudnnDenseParameterCount(const RnnConfig& config) {
    const std::int64_t G = gateCount(config.cell), H = config.hiddenSize, D = directionCount(config);
    const std::int64_t nb = biasVectorsPerGate(cudnnBiasMode(config));
    std::int64_t total = 0;
    for (int layer = 0; layer < config.layers; ++layer) {
        const std::int64_t in = layerInputSize(config, layer);
        total += D * (G * H * in + G * H * H + nb * G * H);
    }
    return total;
}

} // namespace rnnprof::gpu

namespace rnnprof::gpu {

void checkPlacement(const RnnConfig& config, const std::vector<CudnnPlacedBlock>& placed,
                    std::int64_t spaceFloats) {
    std::vector<const CudnnPlacedBlock*> order;
    for (const auto& p : placed) {
        if (p.spaceOffset < 0 || p.spaceOffset + p.block.size() > spaceFloats)
            throw Error(ErrorKind::BackendFailure,
                        "cuDNN placed " + describeBlock(config, p.block.canonical) + " at float " +
                            std::to_string(p.spaceOffset) + ", outside its weight space of " +
                            std::to_string(spaceFloats) + " floats");
        order.push_back(&p);
    }
    std::sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->spaceOffset < b->spaceOffset; });
    for (std::size_t i = 1; i < order.size(); ++i)
        if (order[i - 1]->spaceOffset + order[i - 1]->block.size() > order[i]->spaceOffset)
            throw Error(ErrorKind::BackendFailure,
                        "cuDNN weight space: " + describeBlock(config, order[i - 1]->block.canonical) +
                            " overlaps " + describeBlock(config, order[i]->block.canonical));
}

void scatterToWeightSpace(const std::vector<CudnnPlacedBlock>& placed, const ParamSet<float>& params,
                          std::vector<float>& space) {
    for (const auto& p : placed) {
        const auto src = params.values.begin() + p.block.canonicalOffset;
        std::copy(src, src + p.block.size(), space.begin() + p.spaceOffset);
    }
}

ParamSet<float> gatherFromWeightSpace(const std::vector<CudnnPlacedBlock>& placed, const RnnConfig& config,
                                      const std::vector<float>& space) {
    ParamSet<float> params(config);
    for (const auto& p : placed) {
        const auto src = space.begin() + p.spaceOffset;
        std::copy(src, src + p.block.size(), params.values.begin() + p.block.canonicalOffset);
    }
    return params;
}

} // namespace rnnprof::gpu
