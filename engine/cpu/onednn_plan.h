#pragma once
// What the cpu-onednn backend will create for one problem: the oneDNN primitive descriptors of
// every layer (forward; backward in training) and the bytes of every buffer the session allocates.
// Creating descriptors allocates no tensors and compiles no kernels, so estimateMemory() builds a
// plan too and reports exactly what prepare() will allocate. Not a session: it owns no buffers.
#include "engine/backend.h"
#include "engine/recurrence_dims.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace rnnprof::cpu {

// Sizes and switches of one problem (engine/recurrence_dims.h), with what the cpu-onednn session
// adds: the shape of oneDNN's bias.
struct OneDnnDims : RecurrenceDims {
    std::int64_t biasGates = 0; // vectors in oneDNN's bias: 4 for LSTM and linear-before-reset GRU
    bool bias = true;

    explicit OneDnnDims(const Problem& problem);
    [[nodiscard]] std::int64_t layerOutputElements() const { return T * B * D * H; }
    [[nodiscard]] std::int64_t stateElements() const { return L * D * B * H; } // h0, hN, ... all layers
    [[nodiscard]] std::int64_t layerStateElements() const { return D * B * H; }
    // Layer outputs kept between layers: all of them in training (backward reads them), else a
    // ping-pong pair at most.
    [[nodiscard]] std::int64_t forwardBuffers() const {
        return training ? L - 1 : std::min<std::int64_t>(L - 1, 2);
    }
    // Gradients between layers in backward: a ping-pong pair at most.
    [[nodiscard]] std::int64_t backwardBuffers() const {
        return training ? std::min<std::int64_t>(L - 1, 2) : 0;
    }
};

// The primitive descriptors of one layer (both directions in one primitive).
struct OneDnnLayerDescs {
    dnnl::rnn_primitive_desc_base forward;
    dnnl::rnn_primitive_desc_base backward; // training only
    // oneDNN's backward reads the weights in another layout (ldgoi) than its forward (ldigo), so
    // training keeps a second copy, refreshed after each SGD step.
    bool separateBackwardWeights = false;
};

class OneDnnPlan {
public:
    // Throws Error(InvalidConfig) for an invalid problem and Error(Unsupported|BackendFailure) when
    // oneDNN refuses a descriptor.
    explicit OneDnnPlan(const Problem& problem);

    [[nodiscard]] const OneDnnDims& dims() const { return m_dims; }
    [[nodiscard]] const dnnl::engine& engine() const { return m_engine; }
    [[nodiscard]] int threads() const { return m_threads; }
    [[nodiscard]] const std::vector<OneDnnLayerDescs>& layers() const { return m_layers; }
    // One scratchpad serves every primitive (they run one after another).
    [[nodiscard]] std::uint64_t scratchpadBytes() const;
    // The bytes of every buffer the session allocates, by category.
    [[nodiscard]] MemoryFootprint footprint() const;
    // Names of the oneDNN implementations chosen, e.g. "forward brgemm, backward ref".
    [[nodiscard]] std::string implementations() const;

private:
    OneDnnDims m_dims;
    int m_threads = 1;
    dnnl::engine m_engine;
    std::vector<OneDnnLayerDescs> m_layers;
};

// The plain memory descriptors the session binds to its buffers.
[[nodiscard]] dnnl::memory::desc oneDnnSequenceDesc(const OneDnnDims& d, std::int64_t channels); // tnc
[[nodiscard]] dnnl::memory::desc oneDnnStateDesc(const OneDnnDims& d); // ldnc, one layer
[[nodiscard]] dnnl::memory::desc oneDnnBiasDesc(const OneDnnDims& d);  // ldgo
// A user-side weights layout, plain ldgoi: per direction [G][H][cols], the canonical order of rows.
[[nodiscard]] dnnl::memory::desc oneDnnUserWeightsDesc(const OneDnnDims& d, std::int64_t cols);
// A flat float buffer of n elements.
[[nodiscard]] dnnl::memory::desc oneDnnFlatDesc(std::int64_t n);

} // namespace rnnprof::cpu
