#include "engine/gpu/cudnn_memory.h"

#include "engine/gpu/cudnn_weight_map.h"
#include "engine/kernels/reduce_kernels.h"

#include <algorithm>
#include <cmath>

namespace rnnprof::gpu {
namespace {

constexpr std::uint64_t kFloat = sizeof(float);
constexpr std::uint64_t kMiB = std::uint64_t(1) << 20;
// cudnnDropoutGetStatesSize depends on the GPU (one RNG state per thread it launches); a few MiB.
constexpr std::uint64_t kDropoutStatesEstimate = std::uint64_t(8) << 20;

// Where the constants below come from: cudnnGetRNNWeightSpaceSize and cudnnGetRNNTempSpaceSizes of
// cuDNN 9.14 on an H100 (132 SMs), asked through the session's own descriptors (CudnnRnnSetup:
// FMA math, padded SEQ_MAJOR_UNPACKED I/O, DOUBLE_BIAS) by tests/bench/cudnn_sizes for 164,160
// configurations: LSTM and GRU; STANDARD, PERSIST_STATIC, PERSIST_STATIC_SMALL_H; input
// 32/100/128/512; hidden 48..1024; 1-3 layers; uni- and bidirectional; batch 1..512; sequence
// length 1..200; inference and training; dropout 0 and 0.3. A sample of them is
// tests/data/cudnn/cudnn-rnn-sizes-session-h100.csv. With G gates, H hidden, I input, L layers,
// D directions, T steps, B batch, W the weight space in bytes:
//
//   weight space = W = 4 * dense parameter count                              (every row, exactly)
//   reserve      = 4*T*B*D*H * (R*L - 1) + 256,  R = 6 (LSTM), 7 (GRU)        (every row, exactly)
//                  + T*B*D*H*(L-1)/4 + 256 with dropout between layers       (the masks; <= 80 B over)
//       The first layer keeps R-1 H-vectors per (step, row, direction), every further layer R.
//       The same rule gives the P100 sizes of pytorch/pytorch#2895 (4 layers, H 320) to the byte.
//   workspace    = 17/16 * (8 MiB*L*D + W + 4*B*L*D*H*c + 4*T*B*D*(a*I + b*H) [+ 5 KiB*H])
//       STANDARD is exactly linear in B and T*B for a fixed model (e.g. LSTM inference: the T*B
//       term is I + (5D + 4(D-1))*H floats, the input copy and the gate pre-activations); the
//       persistent algorithms in training are not (up to 15 % off a line). (a, b, c) per cell,
//       algorithm family and mode are the smallest upper bound over every row, chosen by a grid
//       search for the lowest median; the bracketed 5 KiB per hidden unit is the persistent
//       kernels' fixed training buffer. The 17/16 margin is for GPUs with other SM counts and
//       other cuDNN versions; prepare() asks cuDNN and checks the device memory again with its
//       answer. Estimate / cuDNN over every row, margin included: STANDARD median 1.076, max
//       1.85; PERSIST_STATIC median 1.091, max 1.79; PERSIST_STATIC_SMALL_H median 1.089, max 1.79.
struct WorkspaceCoefficients {
    double perInput;        // a: floats per (step, row, direction) per input feature
    double perHidden;       // b: floats per (step, row, direction) per hidden unit
    std::uint64_t perBatch; // c: floats per (row, layer, direction) per hidden unit
};

WorkspaceCoefficients workspaceCoefficients(CellType cell, bool persistent, bool training) {
    const bool lstm = cell == CellType::Lstm;
    if (!persistent) {
        if (training) return lstm ? WorkspaceCoefficients{2.75, 7, 13} : WorkspaceCoefficients{3, 6, 7};
        return lstm ? WorkspaceCoefficients{1, 7, 12} : WorkspaceCoefficients{1, 6, 7};
    }
    if (training) return lstm ? WorkspaceCoefficients{3, 21, 10} : WorkspaceCoefficients{3, 19, 6};
    return lstm ? WorkspaceCoefficients{1, 21, 9} : WorkspaceCoefficients{1, 16, 5};
}

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

CudnnSpaceSizes estimateCudnnSpaces(const Problem& p) {
    const RnnConfig& c = p.config;
    const bool training = p.mode == Mode::Training, lstm = c.cell == CellType::Lstm;
    const std::uint64_t T = std::uint64_t(p.shape.seqLen), B = std::uint64_t(p.shape.batch);
    const std::uint64_t H = std::uint64_t(c.hiddenSize), I = std::uint64_t(c.inputSize);
    const std::uint64_t D = std::uint64_t(directionCount(c)), L = std::uint64_t(c.layers);
    CudnnSpaceSizes s;
    s.weightSpace = std::uint64_t(cudnnDenseParameterCount(c)) * kFloat;

    const bool persistent = p.options.cudnnAlgo != CudnnAlgo::Standard;
    const WorkspaceCoefficients k = workspaceCoefficients(c.cell, persistent, training);
    const double perStepRow = double(D) * (k.perInput * double(I) + k.perHidden * double(H)); // floats
    std::uint64_t workspace = kWorkspacePerPseudoLayer * L * D + s.weightSpace +
                              kFloat * B * L * D * H * k.perBatch +
                              std::uint64_t(std::ceil(double(kFloat * T * B) * perStepRow));
    if (persistent && training) workspace += kPersistentTrainingBytesPerUnit * H;
    s.workspace = withMargin(workspace);

    if (training) {
        const std::uint64_t kept = lstm ? 6 : 7; // H-vectors per layer above the first
        s.reserve = kFloat * T * B * D * H * (kept * L - 1) + kReserveAlignment;
        if (cudnnDrawsDropout(p)) s.reserve += T * B * D * H * (L - 1) / 4 + kReserveAlignment;
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
