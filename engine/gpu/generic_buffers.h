#pragma once
// Every buffer gpu-generic uses, carved out of one float arena: the single definition of their
// sizes, used for the memory estimate (estimateMemory), for the device allocation in prepare() and
// for the host emulation in the tests. Compiled in every build (no CUDA).
#include "engine/backend.h"
#include "engine/problem.h"
#include "engine/recurrence_dims.h"

#include <cstdint>
#include <vector>

namespace rnnprof::gpu {

// cuBLAS gets a workspace of this size from the session (cublasSetWorkspace), so its device
// memory is known in advance instead of growing behind our back (NVIDIA recommends 32 MiB on
// Hopper, 4 MiB before).
inline constexpr std::uint64_t kCublasWorkspaceBytes = std::uint64_t(32) << 20;

// The sizes of one problem (engine/recurrence_dims.h), with gpu-generic's extra switches that
// decide which buffers exist.
struct GenericDims : RecurrenceDims {
    RnnConfig config;
    bool inputGradients = false;  // training: dx, dh0, dc0
    bool outputGradGiven = false; // training from an override dy instead of the MSE loss
    bool hNGradGiven = false;
    bool cNGradGiven = false;

    [[nodiscard]] static GenericDims of(const Problem& problem);
};

// Pointers into the arena; nullptr where a buffer does not exist for this problem. Per-(layer,
// direction) vectors are indexed layer*D + dir; all sequence buffers are time-major [T, B, ...].
struct GenericBuffers {
    // weights, gradients (canonical flat layout, see engine/params.h)
    float* params = nullptr;
    float* grads = nullptr;
    float* zeroBias = nullptr; // [D*G*H] zeros, read as the biases when bias is off
    // io
    float* x = nullptr;  // [T, B, I]
    float* h0 = nullptr; // [L*D, B, H]
    float* c0 = nullptr;
    float* y = nullptr; // [T, B, D*H], the last layer's output
    float* hN = nullptr;
    float* cN = nullptr;
    float* target = nullptr;           // training with the MSE loss
    float* dy = nullptr;               // training: gradient of y (the loss's, or the override)
    float* dhN = nullptr;              // override
    float* dcN = nullptr;              // override
    float* dx = nullptr;               // inputGradients
    float* dh0 = nullptr;              // inputGradients
    float* dc0 = nullptr;              // inputGradients, LSTM
    float* lossNorm = nullptr;         // training: ||dy|| (1 float)
    float* ones = nullptr;             // training with biases: [T*B] ones, for the bias gradients
    std::vector<float*> recurrentMask; // [B, H] per (layer, dir)
    std::vector<float*> betweenMask;   // [T, B, D*H] per layer boundary (index layer-1)
    // activations kept for backward (training)
    std::vector<float*> layerOut; // [T, B, D*H] per layer (inference: two alternating, the last is y)
    std::vector<float*> layerIn;  // [T, B, D*H] per layer >= 1: the input after dropout
    std::vector<float*> saved;    // [T, B, savedWidth] per (layer, dir)
    std::vector<float*> cells;    // LSTM c_t, [T, B, H] per (layer, dir)
    std::vector<float*> rh;       // GRU reset_before r * hRec, [T, B, H] per (layer, dir)
    std::vector<float*> hRec;     // recurrent input of each step, [T, B, H] per (layer, dir)
    // workspace
    float* xp = nullptr;           // [T*B, D*G*H] input projection of one layer
    float* hp = nullptr;           // [B, G*H] recurrent projection of one step
    float* hpn = nullptr;          // [B, H] GRU reset_before candidate projection
    float* cState = nullptr;       // [B, H] LSTM cell state (inference)
    float* gatesScratch = nullptr; // [B, 3H] GRU reset_before gates (inference)
    float* rhScratch = nullptr;    // [B, H] GRU reset_before r * h (inference)
    float* dXP = nullptr;          // [T*B, D*G*H] gradients of the input projections
    float* dHP = nullptr;          // [T*B, G*H] gradients of the recurrent projections (GRU)
    float* dOutA = nullptr;        // [T*B, D*H] gradient of a lower layer's output
    float* dOutB = nullptr;
    float* dhCarry = nullptr; // [B, H]
    float* dcCarry = nullptr; // [B, H] LSTM
    float* dhRec = nullptr;   // [B, H]
    float* drh = nullptr;     // [B, H] GRU reset_before
};

// Floats in the arena (every buffer rounded up to 64 floats, 256 bytes, for aligned access).
[[nodiscard]] std::int64_t genericArenaElements(const GenericDims& dims);
// The buffers inside an arena of genericArenaElements(dims) floats starting at `base`.
[[nodiscard]] GenericBuffers bindGenericBuffers(const GenericDims& dims, float* base);
// Device bytes by category: the arena plus the cuBLAS workspace (counted as workspace and listed
// in `detail` as kBufferCublasWorkspace).
[[nodiscard]] MemoryFootprint genericFootprint(const GenericDims& dims);

} // namespace rnnprof::gpu
