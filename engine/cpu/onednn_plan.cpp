#include "engine/cpu/onednn_plan.h"

#include "engine/cpu/onednn_params.h"
#include "engine/cpu/onednn_support.h"
#include "engine/error.h"

#include <cmath>
#include <type_traits>

namespace rnnprof::cpu {
namespace {

using dnnl::memory;
using tag = memory::format_tag;
using dt = memory::data_type;

// The memory descriptors of one primitive; weights in `any` so oneDNN picks its layout, or the
// layout the layer's first primitive chose.
struct LayerMds {
    memory::desc src, state, weightsLayer, weightsIter, bias, dst;
    memory::desc backwardWeightsLayer, backwardWeightsIter;
};

template <class Fwd, class Bwd>
OneDnnPrimitiveDescs createDescs(const LayerMds& m, dnnl::rnn_direction direction, bool training,
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
    OneDnnPrimitiveDescs out;
    out.forward = forward;
    if (!training) return out;
    // Gradients in the forward weights' layout, so that SGD is one elementwise pass over both.
    const memory::desc dWl = forward.weights_layer_desc(), dWi = forward.weights_iter_desc();
    const memory::desc &bWl = m.backwardWeightsLayer, &bWi = m.backwardWeightsIter;
    const auto backwardDesc = [&] {
        if constexpr (lstm)
            return typename Bwd::desc(dnnl::prop_kind::backward, direction, m.src, m.state, m.state, bWl, bWi,
                                      m.bias, m.dst, m.state, m.state, m.src, m.state, m.state, dWl, dWi,
                                      m.bias, m.dst, m.state, m.state);
        else
            return typename Bwd::desc(dnnl::prop_kind::backward, direction, m.src, m.state, bWl, bWi, m.bias,
                                      m.dst, m.state, m.src, m.state, dWl, dWi, m.bias, m.dst, m.state);
    }();
    out.backward = typename Bwd::primitive_desc(backwardDesc, attr, engine, forward);
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

memory::desc oneDnnStateDesc(const OneDnnDims& d, std::int64_t directions) {
    return memory::desc({1, directions, d.B, d.H}, dt::f32, tag::ldnc);
}

memory::desc oneDnnBiasDesc(const OneDnnDims& d, std::int64_t directions) {
    return memory::desc({1, directions, d.biasGates, d.H}, dt::f32, tag::ldgo);
}

memory::desc oneDnnUserWeightsDesc(const OneDnnDims& d, std::int64_t directions, std::int64_t cols) {
    return memory::desc({1, directions, cols, d.G, d.H}, dt::f32, tag::ldgoi);
}

memory::desc oneDnnFlatDesc(std::int64_t n) {
    return memory::desc({n}, dt::f32, tag::a);
}

std::vector<OneDnnChunk> oneDnnChunks(std::int64_t T, double flopsPerStep, double budget) {
    const double fit = flopsPerStep > 0 ? std::floor(budget / flopsPerStep) : double(T);
    const std::int64_t steps = std::clamp<std::int64_t>(std::int64_t(std::min(fit, double(T))), 1, T);
    std::vector<OneDnnChunk> chunks;
    for (std::int64_t first = 0; first < T; first += steps)
        chunks.push_back({first, std::min(steps, T - first)});
    return chunks;
}

std::uint64_t OneDnnLayerDescs::workspaceBytes() const {
    std::uint64_t sum = 0;
    for (std::int64_t part = 0; part < parts; ++part)
        for (std::size_t c = 0; c < chunks.size(); ++c)
            sum += bytes(of(part, c).forward.workspace_desc());
    return sum;
}

OneDnnPlan::OneDnnPlan(const Problem& problem, double chunkFlops)
    : m_dims(validated(problem)), m_threads(resolveOneDnnThreads(problem.options.threads)) {
    const RnnConfig& c = problem.config;
    const OneDnnDims& d = m_dims;
    const OmpThreadCount threads(m_threads);
    m_engine = cpuEngine();
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    for (std::int64_t layer = 0; layer < d.L; ++layer) {
        const std::int64_t in = d.layerInput(layer);
        OneDnnLayerDescs l;
        // The GEMM work of one step of one direction: input projection and recurrence.
        const double stepFlops = 2.0 * double(d.B) * double(d.G * d.H) * double(in + d.H);
        l.chunks = oneDnnChunks(d.T, stepFlops, chunkFlops / double(d.D));
        if (d.D == 2 && l.chunks.size() > 1) {
            l.parts = 2;
            l.chunks = oneDnnChunks(d.T, stepFlops, chunkFlops);
        }
        const std::int64_t pd = l.partDirections(d.D);
        std::vector<std::int64_t> lengths{l.chunks.front().steps};
        if (l.chunks.back().steps != lengths.front()) lengths.push_back(l.chunks.back().steps);
        for (std::int64_t part = 0; part < l.parts; ++part) {
            const auto direction = pd == 2     ? dnnl::rnn_direction::bidirectional_concat
                                   : part == 0 ? dnnl::rnn_direction::unidirectional_left2right
                                               : dnnl::rnn_direction::unidirectional_right2left;
            l.descs.emplace_back();
            for (const std::int64_t steps : lengths) {
                LayerMds m{memory::desc({steps, d.B, in}, dt::f32, tag::tnc),
                           oneDnnStateDesc(d, pd),
                           memory::desc({1, pd, in, d.G, d.H}, dt::f32, tag::any),
                           memory::desc({1, pd, d.H, d.G, d.H}, dt::f32, tag::any),
                           oneDnnBiasDesc(d, pd),
                           // A part of a split layer writes its half of each row of the output.
                           l.parts == 1 ? memory::desc({steps, d.B, d.D * d.H}, dt::f32, tag::tnc)
                                        : memory::desc({steps, d.B, d.H}, dt::f32,
                                                       memory::dims{d.B * d.D * d.H, d.D * d.H, 1}),
                           {},
                           {}};
                m.backwardWeightsLayer = m.weightsLayer;
                m.backwardWeightsIter = m.weightsIter;
                if (!l.descs.front().empty()) { // the layouts the layer's first primitive chose
                    const OneDnnPrimitiveDescs& first = l.first();
                    m.weightsLayer = first.forward.weights_layer_desc();
                    m.weightsIter = first.forward.weights_iter_desc();
                    if (d.training) {
                        m.backwardWeightsLayer = first.backward.weights_layer_desc();
                        m.backwardWeightsIter = first.backward.weights_iter_desc();
                    }
                }
                l.descs.back().push_back(oneDnnCall(primitiveName(d, c, layer), [&] {
                    if (d.lstm)
                        return createDescs<dnnl::lstm_forward, dnnl::lstm_backward>(m, direction, d.training,
                                                                                    attr, m_engine);
                    if (c.resetAfter)
                        return createDescs<dnnl::lbr_gru_forward, dnnl::lbr_gru_backward>(
                            m, direction, d.training, attr, m_engine);
                    return createDescs<dnnl::gru_forward, dnnl::gru_backward>(m, direction, d.training, attr,
                                                                              m_engine);
                }));
            }
        }
        if (d.training) {
            const OneDnnPrimitiveDescs& first = l.first();
            l.separateBackwardWeights =
                !(first.backward.weights_layer_desc() == first.forward.weights_layer_desc() &&
                  first.backward.weights_iter_desc() == first.forward.weights_iter_desc());
        }
        m_layers.push_back(std::move(l));
    }
}

std::uint64_t OneDnnPlan::scratchpadBytes() const {
    std::uint64_t most = 0;
    for (const auto& l : m_layers)
        for (const auto& lengths : l.descs)
            for (const OneDnnPrimitiveDescs& p : lengths) {
                most = std::max(most, bytes(p.forward.scratchpad_desc()));
                if (m_dims.training) most = std::max(most, bytes(p.backward.scratchpad_desc()));
            }
    return most;
}

std::int64_t OneDnnPlan::chunkStateElements(std::size_t layer) const {
    const OneDnnLayerDescs& l = m_layers[layer];
    return l.partDirections(m_dims.D) * m_dims.B * m_dims.H;
}

std::int64_t OneDnnPlan::reverseInputGradientElements() const {
    std::int64_t most = 0;
    for (std::size_t layer = 0; layer < m_layers.size(); ++layer)
        if (m_dims.training && m_layers[layer].parts == 2)
            most = std::max(most, m_dims.T * m_dims.B * m_dims.layerInput(std::int64_t(layer)));
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
    for (std::size_t layer = 0; layer < m_layers.size(); ++layer) {
        const OneDnnLayerDescs& l = m_layers[layer];
        const OneDnnPrimitiveDescs& p = l.first();
        const std::uint64_t parts = n(l.parts);
        m.weights += parts * (bytes(p.forward.weights_layer_desc()) + bytes(p.forward.weights_iter_desc()) +
                              bytes(p.forward.bias_desc()));
        const std::uint64_t chunkState = stateKinds * n(chunkStateElements(layer)) * f;
        m.workspace += parts * n(l.boundaries()) * chunkState;
        if (!d.training) continue;
        if (l.separateBackwardWeights)
            m.weights +=
                parts * (bytes(p.backward.weights_layer_desc()) + bytes(p.backward.weights_iter_desc()));
        m.gradients +=
            parts * (bytes(p.backward.diff_weights_layer_desc()) +
                     bytes(p.backward.diff_weights_iter_desc()) + bytes(p.backward.diff_bias_desc()));
        m.activations += l.workspaceBytes();
        m.workspace += parts * n(l.gradientBoundaries()) * chunkState;
    }
    // Training keeps the canonical biases: b_ih and b_hh cannot be recovered from their sum.
    if (d.training && d.bias) m.weights += n(d.L * d.D * 2 * d.G * d.H) * f;

    m.workspace += scratchpadBytes() + n(d.forwardBuffers()) * out;
    if (d.betweenDropout) m.workspace += 2 * n(d.L - 1) * out; // the masks and the masked inputs
    if (d.training)
        m.workspace += out /*dy*/ + n(d.backwardBuffers()) * out + stateKinds * states /*dh_n, dc_n*/ +
                       n(reverseInputGradientElements()) * f;

    m.io = n(d.T * d.B * d.I) * f /*x*/ + out /*y*/ + 2 * stateKinds * states /*h0, h_n, c0, c_n*/;
    if (d.training) m.io += out /*target*/ + n(d.T * d.B * d.I) * f /*dx*/ + stateKinds * states /*dh0, dc0*/;
    return m;
}

std::string OneDnnPlan::chunking() const {
    std::string s;
    for (std::size_t layer = 0; layer < m_layers.size(); ++layer) {
        const OneDnnLayerDescs& l = m_layers[layer];
        if (l.chunks.size() == 1) continue;
        s += (s.empty() ? "" : "; ") + std::string("layer ") + std::to_string(layer + 1) + " in " +
             std::to_string(l.chunks.size()) + " chunks of up to " + std::to_string(l.chunks.front().steps) +
             " time steps" + (l.parts == 2 ? ", each direction its own primitive" : "");
    }
    return s;
}

std::string OneDnnPlan::implementations() const {
    if (m_layers.empty()) return {};
    const OneDnnPrimitiveDescs& p = m_layers.front().first();
    std::string s = "forward " + std::string(p.forward.impl_info_str());
    if (m_dims.training) s += ", backward " + std::string(p.backward.impl_info_str());
    return s;
}

} // namespace rnnprof::cpu
