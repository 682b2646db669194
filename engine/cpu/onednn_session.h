#pragma once
// The cpu-onednn session: oneDNN RNN primitives per layer (both directions in one; a long layer in
// chunks of time steps, see OneDnnPlan), weights converted once from the canonical layout into the
// layouts the primitives chose, every buffer allocated up front and reused by each run(). Training:
// forward_training keeps oneDNN's workspace, MSE loss, backward primitives, SGD in the primitives' own weight
// layout. Dropout between layers is applied here, between the layer primitives. Create, run and destroy on
// one thread.
#include "engine/backend.h"
#include "engine/cpu/onednn_plan.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <unordered_map>
#include <vector>

namespace rnnprof::cpu {

class OneDnnSession final : public Session {
public:
    // Throws Error (InvalidInput for overrides of the wrong shape, BackendFailure/OutOfMemory from
    // oneDNN). `plan` must come from the same problem.
    OneDnnSession(const Problem& problem, OneDnnPlan plan);

    void run(PhaseHook& hook) override;
    [[nodiscard]] RunOutputs outputs() const override;
    [[nodiscard]] MemoryFootprint memory() const override { return m_memory; }
    [[nodiscard]] std::vector<std::string> notes() const override;

private:
    using Args = std::unordered_map<int, dnnl::memory>;

    // One primitive call: one part of a layer over one chunk of time steps.
    struct Call {
        std::size_t primitive = 0; // index into Layer::forward and Layer::backward
        OneDnnChunk chunk;
        Args forwardArgs, backwardArgs;
    };
    // Views of one part's share of its layer's parameter buffers, and its calls in the order the
    // part runs them (the reverse part of a split layer from the last chunk in time).
    struct Part {
        dnnl::memory weightsLayer, weightsIter, bias;
        dnnl::memory backwardWeightsLayer, backwardWeightsIter;
        dnnl::memory diffWeightsLayer, diffWeightsIter, diffBias;
        std::vector<Call> calls;
    };
    // The primitives and buffers of one layer. Parameter buffers hold every part, one after another.
    struct Layer {
        std::vector<dnnl::primitive> forward, backward;         // per (part, chunk length)
        dnnl::memory weightsLayer, weightsIter, bias;           // in the forward primitives' layouts
        dnnl::memory backwardWeightsLayer, backwardWeightsIter; // the same handles when shared
        dnnl::memory diffWeightsLayer, diffWeightsIter, diffBias;
        dnnl::primitive refreshWeightsLayer, refreshWeightsIter; // forward -> backward layout, per part
        std::vector<Part> parts;
        std::vector<dnnl::memory> workspaces, chunkStates; // owned here, bound in the calls' arguments
    };

    dnnl::memory allocate(std::uint64_t& category, const dnnl::memory::desc& md);
    [[nodiscard]] dnnl::memory view(const dnnl::memory& buffer, std::int64_t offset,
                                    const dnnl::memory::desc& md) const;
    // Part `part` of a buffer holding parts of `md`'s size one after another.
    [[nodiscard]] dnnl::memory partView(const dnnl::memory& buffer, std::int64_t part,
                                        const dnnl::memory::desc& md) const;
    // The state (h0, hN, ... of every layer) of `part` of `layer`.
    [[nodiscard]] dnnl::memory stateView(const dnnl::memory& states, int layer, std::int64_t part) const;
    void loadData(ResolvedProblem<float>& in); // takes the masks it keeps
    void createLayer(int layer, const ParamSet<float>& params);
    void bindArguments(int layer);
    void bindCall(int layer, std::int64_t part, std::size_t position, Call& call);
    [[nodiscard]] dnnl::memory layerInput(int layer) const;
    [[nodiscard]] dnnl::memory layerOutput(int layer) const;
    [[nodiscard]] dnnl::memory layerInputGradient(int layer) const;
    [[nodiscard]] dnnl::memory layerOutputGradient(int layer) const;

    void forward(PhaseHook& hook);
    void backward(PhaseHook& hook);
    void update(PhaseHook& hook);
    void stopBeforeLayer(const char* pass, int layer) const; // Session::setStopToken
    void stopBeforeCall(const char* pass, int layer, std::int64_t part, const Call& call) const;
    void applyBetweenMask(const dnnl::memory& in, const Tensor<float>& mask, const dnnl::memory& out);
    // Reorders a parameter buffer into plain ldgoi and writes it to `out` in the canonical layout.
    void weightsToCanonical(int layer, dnnl::memory Part::*source, ParamKind kind,
                            ParamSet<float>& out) const;

    Problem m_problem;
    OneDnnPlan m_plan;
    MemoryFootprint m_memory;
    mutable dnnl::stream m_stream; // a handle; outputs() runs reorders on it
    std::vector<Layer> m_layers;

    dnnl::memory m_x, m_y, m_h0, m_c0, m_hN, m_cN;
    std::vector<dnnl::memory> m_forwardOut; // between layers
    std::vector<dnnl::memory> m_maskedIn;   // dropout applied: input of layer k+1
    std::vector<Tensor<float>> m_masks;     // dropout between layers (training)
    dnnl::memory m_target, m_dy, m_dx, m_dh0, m_dc0, m_dhN, m_dcN;
    std::vector<dnnl::memory> m_backwardOut; // gradients between layers
    dnnl::memory m_reverseInputGradient;     // OneDnnPlan::reverseInputGradientElements()
    dnnl::memory m_scratchpad;
    // Per layer, direction: bias_ih then bias_hh [G*H] (training with bias).
    std::vector<float> m_canonicalBias;

    bool m_lossFromTarget = true;
    double m_loss = 0.0;
};

} // namespace rnnprof::cpu
