#include "engine/gpu/cudnn_memory.h"

#include "engine/gpu/cudnn_weight_map.h"
#include "engine/gpu/generic_buffers.h"

namespace rnnprof::gpu {
namespace {

constexpr std::uint64_t kFloat = sizeof(float);
// cudnnDropoutGetStatesSize depends on the GPU (one RNG state per thread it launches); a few MiB.
constexpr std::uint64_t kDropoutStatesEstimate = std::uint64_t(8) << 20;

} // namespace

bool cudnnDrawsDropout(const Problem& p) {
    return p.mode == Mode::Training && p.config.dropout > 0 && p.config.layers > 1;
}

CudnnSpaceSizes estimateCudnnSpaces(const Problem& p) {
    const RnnConfig& c = p.config;
    const std::uint64_t T = std::uint64_t(p.shape.seqLen), B = std::uint64_t(p.shape.batch);
    const std::uint64_t H = std::uint64_t(c.hiddenSize), G = std::uint64_t(gateCount(c.cell));
    const std::uint64_t D = std::uint64_t(directionCount(c)), L = std::uint64_t(c.layers);
    CudnnSpaceSizes s;
    s.weightSpace = std::uint64_t(cudnnDenseParameterCount(c)) * kFloat;
    if (p.mode == Mode::Training) {
        const std::uint64_t perUnit = c.cell == CellType::Lstm ? G + 2 : G + 4;
        s.reserve = T * B * L * D * H * perUnit * kFloat;
        s.workspace = 4 * B * D * G * H * kFloat;
    } else {
        s.workspace = T * B * D * (G + 2) * H * kFloat;
    }
    if (cudnnDrawsDropout(p)) s.dropoutStates = kDropoutStatesEstimate;
    return s;
}

MemoryFootprint cudnnFootprint(const Problem& p, const CudnnSpaceSizes& spaces) {
    const RnnConfig& c = p.config;
    const bool training = p.mode == Mode::Training, lstm = c.cell == CellType::Lstm;
    const std::uint64_t T = std::uint64_t(p.shape.seqLen), B = std::uint64_t(p.shape.batch);
    const std::uint64_t H = std::uint64_t(c.hiddenSize), D = std::uint64_t(directionCount(c));
    const std::uint64_t states = std::uint64_t(c.layers) * D * B * H * kFloat;
    const std::uint64_t xBytes = T * B * std::uint64_t(c.inputSize) * kFloat, yBytes = T * B * D * H * kFloat;
    const std::uint64_t stateSets = lstm ? 2 : 1; // h (and c)
    MemoryFootprint m;
    m.onDevice = true;
    m.weights = spaces.weightSpace;
    m.gradients = training ? spaces.weightSpace : 0;
    m.activations = training ? spaces.reserve : 0;
    m.workspace = spaces.workspace + spaces.dropoutStates + kCublasWorkspaceBytes;
    m.io = xBytes + yBytes + 2 * stateSets * states + B * sizeof(std::int32_t);
    if (training) {
        if (!p.overrides.outputGrad) m.io += yBytes; // target
        m.io += yBytes + xBytes + kFloat;            // dy, dx (cuDNN always writes it), loss
        if (p.inputGradients) m.io += stateSets * states;
        if (p.overrides.hNGrad) m.io += states;
        if (p.overrides.cNGrad && lstm) m.io += states;
    }
    return m;
}

} // namespace rnnprof::gpu
