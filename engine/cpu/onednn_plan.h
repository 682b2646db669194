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

// A layer's recurrence runs in chunks of time steps when it is long, one primitive call per chunk
// with the state handed from one to the next, so that a stop request is honoured between chunks
// rather than after the whole layer. A chunk holds at most this many forward GEMM FLOPs (about 0.05 s
// on two Zen 4 cores; its backward about twice that), and at least one time step.
inline constexpr double kOneDnnChunkFlops = 8e9;

// Time steps [first, first + steps) of a layer, run by one primitive call per part.
struct OneDnnChunk {
    std::int64_t first = 0, steps = 0;
    bool operator==(const OneDnnChunk&) const = default;
};

// The chunks of a sequence of T steps when one step of one primitive call costs `flopsPerStep`:
// as many steps per chunk as fit in `budget` (one at least), the last chunk shorter when T does not
// divide; one chunk of T steps when all fit.
[[nodiscard]] std::vector<OneDnnChunk> oneDnnChunks(std::int64_t T, double flopsPerStep, double budget);

// The primitive descriptors of one part of a layer for one chunk length.
struct OneDnnPrimitiveDescs {
    dnnl::rnn_primitive_desc_base forward;
    dnnl::rnn_primitive_desc_base backward; // training only
};

// The primitive descriptors of one layer. A layer runs as one part (both directions in one
// primitive), or, when a bidirectional layer runs in chunks, as two unidirectional parts: the
// reverse direction walks its chunks from the last in time to the first, which a bidirectional
// primitive cannot. Every descriptor of a layer uses the same weight layouts, so one buffer per
// kind holds the parts one after another.
struct OneDnnLayerDescs {
    std::int64_t parts = 1;
    std::vector<OneDnnChunk> chunks; // in time order; one of T steps when the layer is not chunked
    // [part][0] for chunks of chunks[0].steps steps, [part][1] for a shorter last chunk.
    std::vector<std::vector<OneDnnPrimitiveDescs>> descs;
    // oneDNN's backward reads the weights in another layout (ldgoi) than its forward (ldigo), so
    // training keeps a second copy, refreshed after each SGD step.
    bool separateBackwardWeights = false;

    // Which of a part's descriptors runs chunk `chunk`: 0 or 1.
    [[nodiscard]] std::size_t lengthIndex(std::size_t chunk) const {
        return chunks[chunk].steps == chunks.front().steps ? 0 : 1;
    }
    [[nodiscard]] const OneDnnPrimitiveDescs& of(std::int64_t part, std::size_t chunk) const {
        return descs[std::size_t(part)][lengthIndex(chunk)];
    }
    [[nodiscard]] const OneDnnPrimitiveDescs& first() const { return descs.front().front(); }
    // The directions one part computes: both, or one when the layer is split.
    [[nodiscard]] std::int64_t partDirections(std::int64_t D) const { return D / parts; }
    // Bytes of every chunk's workspace (forward_training keeps it for backward).
    [[nodiscard]] std::uint64_t workspaceBytes() const;
    // States handed between the chunks of a part: every one in forward (backward reads them
    // again), a ping-pong pair of their gradients in backward.
    [[nodiscard]] std::int64_t boundaries() const { return std::int64_t(chunks.size()) - 1; }
    [[nodiscard]] std::int64_t gradientBoundaries() const { return std::min<std::int64_t>(boundaries(), 2); }
};

class OneDnnPlan {
public:
    // Throws Error(InvalidConfig) for an invalid problem and Error(Unsupported|BackendFailure) when
    // oneDNN refuses a descriptor.
    // `chunkFlops`: the most forward GEMM FLOPs of one primitive call (kOneDnnChunkFlops; tests
    // pass less to make small problems run in chunks).
    explicit OneDnnPlan(const Problem& problem, double chunkFlops = kOneDnnChunkFlops);

    [[nodiscard]] const OneDnnDims& dims() const { return m_dims; }
    [[nodiscard]] const dnnl::engine& engine() const { return m_engine; }
    [[nodiscard]] int threads() const { return m_threads; }
    [[nodiscard]] const std::vector<OneDnnLayerDescs>& layers() const { return m_layers; }
    // One scratchpad serves every primitive (they run one after another).
    [[nodiscard]] std::uint64_t scratchpadBytes() const;
    // The bytes of every buffer the session allocates, by category.
    [[nodiscard]] MemoryFootprint footprint() const;
    // Floats of one state (h or c) handed between chunks of a part of layer `layer`.
    [[nodiscard]] std::int64_t chunkStateElements(std::size_t layer) const;
    // Training: the reverse part of a split layer writes its share of the layer's input gradient
    // to a buffer of its own, added to the forward part's afterwards; the floats of that buffer.
    [[nodiscard]] std::int64_t reverseInputGradientElements() const;
    // "layer 1 in 29 chunks of up to 7 time steps, each direction its own primitive; ...", or ""
    // when every layer runs in one call.
    [[nodiscard]] std::string chunking() const;
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
[[nodiscard]] dnnl::memory::desc oneDnnStateDesc(const OneDnnDims& d, std::int64_t directions);  // ldnc
[[nodiscard]] dnnl::memory::desc oneDnnBiasDesc(const OneDnnDims& d, std::int64_t directions);   // ldgo
// A user-side weights layout, plain ldgoi: per direction [G][H][cols], the canonical order of rows.
[[nodiscard]] dnnl::memory::desc oneDnnUserWeightsDesc(const OneDnnDims& d, std::int64_t directions,
                                                       std::int64_t cols);
// A flat float buffer of n elements.
[[nodiscard]] dnnl::memory::desc oneDnnFlatDesc(std::int64_t n);

} // namespace rnnprof::cpu
