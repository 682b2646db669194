#include "engine/cpu/onednn_plan.h"

#include "engine/cpu/onednn_params.h"
#include "engine/cpu/onednn_support.h"
#include "engine/error.h"

#include <type_traits>

namespace rnnprof::cpu {
namespace {

using dnnl::memory;
using tag = memory::format_tag;
using dt = memory::data_type;

// The memory descriptors of one layer's primitives; weights in `any` so oneDNN picks its layout.
struct LayerMds {
    memory::desc src, state, weightsLayer, weightsIter, bias, dst;
};

template <class Fwd, class Bwd>
OneDnnLayerDescs createLayer(const LayerMds& m, dnnl::rnn_direction direction, bool training,
                             const dnnl::primitive_attr& attr, const dnnl::engine& engine) {
    constexpr bool lstm = std::is_same_v<Fwd, dnnl::lstm_forward>;
    const auto prop = training ? dnnl::prop_kind::forward_training : dnnl::prop_kind::forward_inference;
    const auto forwardDesc = [&] {
        if constexpr (lstm)
            return typename Fwd::desc(prop, direction, m.src, m.state, m.state, m.weightsLayer, m.weightsIter,
                                      m.bias, m.dst, m.state, m.state);
        else
            return typename Fwd::desc(prop, direction, m.src, m.state, m.weightsLayer, m.weightsIter, m.bias,
                                      m.dst, m.state);
    }();
    const typename Fwd::primitive_desc forward(forwardDesc, attr, engine);
    OneDnnLayerDescs out;
    out.forward = forward;
    if (!training) return out;
    // Gradients in the forward weights' layout, so that SGD is one elementwise pass over both.
    const memory::desc dWl = forward.weights_layer_desc(), dWi = forward.weights_iter_desc();
    const auto backwardDesc = [&] {
        if constexpr (lstm)
            return typename Bwd::desc(dnnl::prop_kind::backward, direction, m.src, m.state, m.state,
                                      m.weightsLayer, m.weightsIter, m.bias, m.dst, m.state, m.state, m.src,
                                      m.state, m.state, dWl, dWi, m.bias, m.dst, m.state, m.state);
        else
            return typename Bwd::desc(dnnl::prop_kind::backward, direction, m.src, m.state, m.weightsLayer,
                                      m.weightsIter, m.bias, m.dst, m.state, m.src, m.state, dWl, dWi, m.bias,
                                      m.dst, m.state);
    }();
    const typename Bwd::primitive_desc backward(backwardDesc, attr, engine, forward);
    out.backward = backward;
    out.separateBackwardWeights = !(backward.weights_layer_desc() == dWl &&
                                    backward.weights_iter_desc() == forward.weights_iter_desc());
    return out;
}

std::string primitiveName(const OneDnnDims& d, const RnnConfig& c, std::int64_t layer) {
    const std::string cell = d.lstm ? "LSTM" : (c.resetAfter ? "linear-before-reset GRU" : "GRU");
    return cell + (d.training ? " forward_training/backward" : " forward_inference") +
           " primitive descriptor (layer " + std::to_string(layer) + ")";
}

const Problem& validated(const Problem& p) {
    requireValid(p.config, p.shape);
    return p;
}

std::uint64_t bytes(const memory::desc& md) {
    return std::uint64_t(md.get_size());
}

} // namespace

OneDnnDims::OneDnnDims(const Problem& p)
    : RecurrenceDims(RecurrenceDims::of(p)), biasGates(oneDnnBiasGates(p.config)), bias(p.config.bias) {}

memory::desc oneDnnSequenceDesc(const OneDnnDims& d, std::int64_t channels) {
    return memory::desc({d.T, d.B, channels}, dt::f32, tag::tnc);
}

memory::desc oneDnnStateDesc(const OneDnnDims& d) {
    return memory::desc({1, d.D, d.B, d.H}, dt::f32, tag::ldnc);
}

memory::desc oneDnnBiasDesc(const OneDnnDims& d) {
    return memory::desc({1, d.D, d.biasGates, d.H}, dt::f32, tag::ldgo);
}

memory::desc oneDnnUserWeightsDesc(const OneDnnDims& d, std::int64_t cols) {
    return memory::desc({1, d.D, cols, d.G, d.H}, dt::f32, tag::ldgoi);
}

memory::desc oneDnnFlatDesc(std::int64_t n) {
    return memory::desc({n}, dt::f32, tag::a);
}

OneDnnPlan::OneDnnPlan(const Problem& problem)
    : m_dims(validated(problem)), m_threads(resolveOneDnnThreads(problem.options.threads)) {
    const RnnConfig& c = problem.config;
    const OneDnnDims& d = m_dims;
    const OmpThreadCount threads(m_threads);
    m_engine = cpuEngine();
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    const auto direction =
        d.D == 2 ? dnnl::rnn_direction::bidirectional_concat : dnnl::rnn_direction::unidirectional_left2right;
    for (std::int64_t layer = 0; layer < d.L; ++layer) {
        const std::int64_t in = d.layerInput(layer);
        const LayerMds m{oneDnnSequenceDesc(d, in),
                         oneDnnStateDesc(d),
                         memory::desc({1, d.D, in, d.G, d.H}, dt::f32, tag::any),
                         memory::desc({1, d.D, d.H, d.G, d.H}, dt::f32, tag::any),
                         oneDnnBiasDesc(d),
                         oneDnnSequenceDesc(d, d.D * d.H)};
        m_layers.push_back(oneDnnCall(primitiveName(d, c, layer), [&] {
            if (d.lstm)
                return createLayer<dnnl::lstm_forward, dnnl::lstm_backward>(m, direction, d.training, attr,
                                                                            m_engine);
            if (c.resetAfter)
                return createLayer<dnnl::lbr_gru_forward, dnnl::lbr_gru_backward>(m, direction, d.training,
                                                                                  attr, m_engine);
            return createLayer<dnnl::gru_forward, dnnl::gru_backward>(m, direction, d.training, attr,
                                                                      m_engine);
        }));
    }
}

std::uint64_t OneDnnPlan::scratchpadBytes() const {
    std::uint64_t most = 0;
    for (const auto& l : m_layers) {
        most = std::max(most, bytes(l.forward.scratchpad_desc()));
        if (m_dims.training) most = std::max(most, bytes(l.backward.scratchpad_desc()));
    }
    return most;
}

MemoryFootprint OneDnnPlan::footprint() const {
    const OneDnnDims& d = m_dims;
    const std::uint64_t f = sizeof(float);
    const auto n = [](std::int64_t v) { return std::uint64_t(v); };
    const std::uint64_t out = n(d.layerOutputElements()) * f;
    const std::uint64_t states = n(d.stateElements()) * f;
    const std::uint64_t stateKinds = d.lstm ? 2 : 1; // h (and c)
    MemoryFootprint m;
    for (const auto& l : m_layers) {
        m.weights += bytes(l.forward.weights_layer_desc()) + bytes(l.forward.weights_iter_desc()) +
                     bytes(l.forward.bias_desc());
        if (!d.training) continue;
        if (l.separateBackwardWeights)
            m.weights += bytes(l.backward.weights_layer_desc()) + bytes(l.backward.weights_iter_desc());
        m.gradients += bytes(l.backward.diff_weights_layer_desc()) +
                       bytes(l.backward.diff_weights_iter_desc()) + bytes(l.backward.diff_bias_desc());
        m.activations += bytes(l.forward.workspace_desc());
    }
    // Training keeps the canonical biases: b_ih and b_hh cannot be recovered from their sum.
    if (d.training && d.bias) m.weights += n(d.L * d.D * 2 * d.G * d.H) * f;

    m.workspace = scratchpadBytes() + n(d.forwardBuffers()) * out;
    if (d.betweenDropout) m.workspace += 2 * n(d.L - 1) * out; // the masks and the masked inputs
    if (d.training)
        m.workspace += out /*dy*/ + n(d.backwardBuffers()) * out + stateKinds * states /*dh_n, dc_n*/;

    m.io = n(d.T * d.B * d.I) * f /*x*/ + out /*y*/ + 2 * stateKinds * states /*h0, h_n, c0, c_n*/;
    if (d.training) m.io += out /*target*/ + n(d.T * d.B * d.I) * f /*dx*/ + stateKinds * states /*dh0, dc0*/;
    return m;
}

std::string OneDnnPlan::implementations() const {
    if (m_layers.empty()) return {};
    const auto& l = m_layers.front();
    std::string s = "forward " + std::string(l.forward.impl_info_str());
    if (m_dims.training) s += ", backward " + std::string(l.backward.impl_info_str());
    return s;
}

} // namespace rnnprof::cpu
