#include "engine/gpu/cudnn_memory.h"

#include "engine/gpu/cudnn_weight_map.h"
#include "engine/kernels/reduce_kernels.h"

#include <algorithm>

namespace rnnprof::gpu {
namespace {

constexpr std::uint64_t kFloat = sizeof(float);
constexpr std::uint64_t kMiB = std::uint64_t(1) << 20;
// cudnnDropoutGetStatesSize depends on the GPU (one RNG state per thread it launches); a few MiB.
constexpr std::uint64_t kDropoutStatesEstimate = std::uint64_t(8) << 20;

// Where the constants below come from: cudnnGetRNNWeightSpaceSize and cudnnGetRNNTempSpaceSizes
// of cuDNN 9.14 on an H100 (132 SMs) for 5,760 configurations, copied to
// tests/data/cudnn/cudnn-rnn-sizes-h100.csv: LSTM and GRU, algorithms STANDARD, PERSIST_STATIC
// and PERSIST_STATIC_SMALL_H, input 64/128/512, hidden 64..1024, 1-2 layers, uni- and
// bidirectional, batch 1/8/64/512, sequence length 10/100, inference and training, FP32,
// DOUBLE_BIAS, padded I/O. The test CudnnSizes.EstimateIsNeverBelowCudnnOnTheH100 holds the
// estimate to every row. With G gates (LSTM 4, GRU 3), H hidden, I input, L layers, D directions,
// T steps, B batch, W the weight space in bytes:
//
//   weight space = W = 4 * dense parameter count                          (every row, exactly)
//   reserve      = 4*T*B*D*H * (R*L - 1) + 256,  R = 6 (LSTM), 7 (GRU)    (every row, exactly)
//       The first layer keeps R-1 H-vectors per (step, row, direction), every further layer R.
//       The same rule gives the P100 sizes of pytorch/pytorch#2895 (4 layers, H 320) to the byte,
//       so it is taken as cuDNN's and used without margin.
//   workspace    = 17/16 * (8 MiB * L*D + W + 4*B*H*L*D*(G + 2D) + 4*T*B*S + P)
//       8 MiB per pseudo-layer and a copy of the weights: what remains at T = 0, B = 1.
//       4*B*H*L*D*(G + 2D): the part that grows with B alone (an upper bound of it).
//       S floats per (step, row), read off the table (what cuDNN keeps there is not documented;
//       the first term looks like the input projections of all steps):
//         STANDARD    inference  D*G*H + 4(D-1)*H
//                     training   max(that, D*D*I + 2*D*H)  (wide inputs take more in training)
//         PERSIST_*   inference  D*G*H + 4(D-1)*H + 4*G*H
//                     training   that + D*D*I + 2*L*D*H, and P = 5 KiB * H more
//       The fit is exact to within alignment on most rows (median estimate/cuDNN 1.001 for
//       STANDARD) and up to 1.41 above where it is an upper bound. Layers beyond 2 are
//       extrapolated linearly (the table has 1 and 2; the reserve rule also holds at 4). The 17/16
//       margin is for GPUs with other SM counts and other cuDNN versions, which the table does not
//       cover; prepare() asks cuDNN and checks the device memory again with its answer.
// Ratios estimate / cuDNN over the rows with status 0, with the margin: STANDARD median 1.063,
// max 1.49; PERSIST_STATIC median 1.080, max 1.70; PERSIST_STATIC_SMALL_H median 1.084, max 1.70.
constexpr std::uint64_t kWorkspacePerPseudoLayer = 8 * kMiB;
constexpr std::uint64_t kPersistentTrainingBytesPerUnit = 5 * 1024;
constexpr std::uint64_t kReserveAlignment = 256;

std::uint64_t withMargin(std::uint64_t bytes) {
    return bytes + bytes / 16;
}

} // namespace

bool cudnnDrawsDropout(const Problem& p) {
    return p.mode == Mode::Training && p.config.dropout > 0 && p.config.layers > 1;
}

CudnnSpaceSizes estimateCudnnSpaces(const Problem& p, CudnnRnnAlgo algo) {
    const RnnConfig& c = p.config;
    const bool training = p.mode == Mode::Training, lstm = c.cell == CellType::Lstm;
    const std::uint64_t T = std::uint64_t(p.shape.seqLen), B = std::uint64_t(p.shape.batch);
    const std::uint64_t H = std::uint64_t(c.hiddenSize), G = std::uint64_t(gateCount(c.cell));
    const std::uint64_t I = std::uint64_t(c.inputSize);
    const std::uint64_t D = std::uint64_t(directionCount(c)), L = std::uint64_t(c.layers);
    CudnnSpaceSizes s;
    s.weightSpace = std::uint64_t(cudnnDenseParameterCount(c)) * kFloat;

    const bool persistent = algo != CudnnRnnAlgo::Standard;
    std::uint64_t perStep = D * G * H + 4 * (D - 1) * H; // floats per (step, batch row)
    std::uint64_t fixed =
        kWorkspacePerPseudoLayer * L * D + s.weightSpace + kFloat * B * H * L * D * (G + 2 * D);
    if (!persistent) {
        if (training) perStep = std::max(perStep, D * D * I + 2 * D * H);
    } else {
        perStep += 4 * G * H;
        if (training) {
            perStep += D * D * I + 2 * L * D * H;
            fixed += kPersistentTrainingBytesPerUnit * H;
        }
    }
    s.workspace = withMargin(fixed + kFloat * T * B * perStep);

    if (training) {
        const std::uint64_t kept = lstm ? 6 : 7; // H-vectors per layer above the first
        s.reserve = kFloat * T * B * D * H * (kept * L - 1) + kReserveAlignment;
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
    if (training) m.addNamed(std::string(kBufferCudnnReserve), BufferCategory::Activations, spaces.reserve);
    m.addNamed(std::string(kBufferCudnnWorkspace), BufferCategory::Workspace, spaces.workspace);
    if (spaces.dropoutStates > 0)
        m.addNamed(std::string(kBufferCudnnDropoutStates), BufferCategory::Workspace, spaces.dropoutStates);
    m.io = xBytes + yBytes + 2 * stateSets * states + B * sizeof(std::int32_t);
    if (training) {
        if (!p.overrides.outputGrad) {
            m.io += yBytes + kFloat; // target, loss
            m.addNamed("loss partial sums", BufferCategory::Workspace, kernels::kReducePartialsBytes);
        }
        m.io += yBytes + xBytes; // dy, dx (cuDNN always writes it)
        if (p.inputGradients) m.io += stateSets * states;
        if (p.overrides.hNGrad) m.io += states;
        if (p.overrides.cNGrad && lstm) m.io += states;
    }
    return m;
}

} // namespace rnnprof::gpu
