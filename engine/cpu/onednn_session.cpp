#include "engine/cpu/onednn_session.h"

#include "engine/cpu/gemm.h"
#include "engine/cpu/onednn_params.h"
#include "engine/cpu/onednn_support.h"
#include "engine/error.h"

#include <algorithm>
#include <cstring>

namespace rnnprof::cpu {
namespace {

using Memory = dnnl::memory;

float* ptr(const Memory& m) {
    return static_cast<float*>(m.get_data_handle());
}

void copyIn(const Tensor<float>& t, const Memory& m) {
    std::copy(t.data.begin(), t.data.end(), ptr(m));
}

Tensor<float> copyOut(const Memory& m, std::vector<std::int64_t> shape) {
    Tensor<float> t(std::move(shape));
    std::copy_n(ptr(m), t.data.size(), t.data.begin());
    return t;
}

} // namespace

OneDnnSession::OneDnnSession(const Problem& problem, OneDnnPlan plan)
    : m_problem(problem), m_plan(std::move(plan)) {
    const OmpThreadCount threads(m_plan.threads());
    m_stream = oneDnnCall("CPU stream creation", [&] { return dnnl::stream(m_plan.engine()); });
    ResolvedProblem<float> in = resolve(problem); // every override checked there
    loadData(in);
    const OneDnnDims& d = m_plan.dims();
    if (d.training && d.bias) {
        m_canonicalBias.assign(std::size_t(d.L * d.D * 2 * d.G * d.H), 0.0f);
        m_memory.weights += m_canonicalBias.size() * sizeof(float);
    }
    m_layers.resize(std::size_t(d.L));
    for (int layer = 0; layer < int(d.L); ++layer)
        createLayer(layer, in.params);
    for (int layer = 0; layer < int(d.L); ++layer)
        bindArguments(layer);
    m_problem.overrides = {}; // copied into the session's buffers; do not keep the caller's data alive
}

Memory OneDnnSession::allocate(std::uint64_t& category, const Memory::desc& md) {
    Memory m = oneDnnCall("buffer allocation", [&] { return Memory(md, m_plan.engine()); });
    // Zeroed: padding between rows of the weight layouts then stays 0 through SGD, and every page
    // is touched here rather than in the first measured run.
    std::memset(m.get_data_handle(), 0, md.get_size());
    category += md.get_size();
    return m;
}

Memory OneDnnSession::view(const Memory& buffer, std::int64_t offset, const Memory::desc& md) const {
    return Memory(md, m_plan.engine(), ptr(buffer) + offset);
}

void OneDnnSession::loadData(ResolvedProblem<float>& in) {
    const OneDnnDims& d = m_plan.dims();
    ProblemData<float>& data = in.data;
    m_lossFromTarget = d.training && in.lossFromTarget();

    auto& io = m_memory.io;
    auto& ws = m_memory.workspace;
    const Memory::desc out = oneDnnSequenceDesc(d, d.D * d.H), stateMd = oneDnnFlatDesc(d.stateElements());
    m_x = allocate(io, oneDnnSequenceDesc(d, d.I));
    copyIn(data.x, m_x);
    m_y = allocate(io, out);
    m_h0 = allocate(io, stateMd);
    copyIn(data.h0, m_h0);
    m_hN = allocate(io, stateMd);
    if (d.lstm) {
        m_c0 = allocate(io, stateMd);
        copyIn(data.c0, m_c0);
        m_cN = allocate(io, stateMd);
    }
    for (std::int64_t i = 0; i < d.forwardBuffers(); ++i)
        m_forwardOut.push_back(allocate(ws, out));
    if (d.betweenDropout) {
        m_masks = std::move(data.masks.between);
        for (const auto& mask : m_masks) {
            ws += mask.data.size() * sizeof(float);
            m_maskedIn.push_back(allocate(ws, out));
        }
    }
    if (const std::uint64_t bytes = m_plan.scratchpadBytes(); bytes > 0)
        m_scratchpad =
            allocate(ws, Memory::desc({std::int64_t(bytes)}, Memory::data_type::u8, Memory::format_tag::a));
    if (!d.training) return;

    m_target = allocate(io, out);
    m_dy = allocate(ws, out);
    if (m_lossFromTarget)
        copyIn(data.target, m_target);
    else
        copyIn(*in.outputGrad, m_dy);
    for (std::int64_t i = 0; i < d.backwardBuffers(); ++i)
        m_backwardOut.push_back(allocate(ws, out));
    m_dx = allocate(io, oneDnnSequenceDesc(d, d.I));
    m_dh0 = allocate(io, stateMd);
    m_dhN = allocate(ws, stateMd);
    if (in.hNGrad) copyIn(*in.hNGrad, m_dhN);
    if (d.lstm) {
        m_dc0 = allocate(io, stateMd);
        m_dcN = allocate(ws, stateMd);
        if (in.cNGrad) copyIn(*in.cNGrad, m_dcN);
    }
}

void OneDnnSession::createLayer(int layer, const ParamSet<float>& params) {
    const OneDnnDims& d = m_plan.dims();
    const RnnConfig& c = m_problem.config;
    const OneDnnLayerDescs& descs = m_plan.layers()[std::size_t(layer)];
    const std::string where = " (layer " + std::to_string(layer) + ")";
    Layer& l = m_layers[std::size_t(layer)];
    auto& w = m_memory.weights;
    l.weightsLayer = allocate(w, descs.forward.weights_layer_desc());
    l.weightsIter = allocate(w, descs.forward.weights_iter_desc());
    l.bias = allocate(w, descs.forward.bias_desc());
    l.forward =
        oneDnnCall("forward primitive creation" + where, [&] { return dnnl::primitive(descs.forward); });
    if (d.training) {
        if (descs.separateBackwardWeights) {
            l.backwardWeightsLayer = allocate(w, descs.backward.weights_layer_desc());
            l.backwardWeightsIter = allocate(w, descs.backward.weights_iter_desc());
            oneDnnCall("weights reorder creation" + where, [&] {
                l.refreshWeightsLayer = dnnl::reorder(l.weightsLayer, l.backwardWeightsLayer);
                l.refreshWeightsIter = dnnl::reorder(l.weightsIter, l.backwardWeightsIter);
            });
        } else {
            l.backwardWeightsLayer = l.weightsLayer;
            l.backwardWeightsIter = l.weightsIter;
        }
        auto& g = m_memory.gradients;
        l.diffWeightsLayer = allocate(g, descs.backward.diff_weights_layer_desc());
        l.diffWeightsIter = allocate(g, descs.backward.diff_weights_iter_desc());
        l.diffBias = allocate(g, descs.backward.diff_bias_desc());
        l.workspace = allocate(m_memory.activations, descs.forward.workspace_desc());
        l.backward = oneDnnCall("backward primitive creation" + where,
                                [&] { return dnnl::primitive(descs.backward); });
    }

    // Weights: the canonical rows, gate blocks in oneDNN's order (plain ldgoi), then one reorder
    // into the layout the primitive chose. Done once; runs update the primitive's copy in place.
    for (const ParamKind kind : {ParamKind::WeightIh, ParamKind::WeightHh}) {
        const std::int64_t cols = kind == ParamKind::WeightIh ? d.layerInput(layer) : d.H;
        Memory user = oneDnnCall("buffer allocation",
                                 [&] { return Memory(oneDnnUserWeightsDesc(d, cols), m_plan.engine()); });
        for (int dir = 0; dir < int(d.D); ++dir)
            weightsToOneDnn(c.cell, int(d.H), int(cols), params.data(layer, dir, kind),
                            ptr(user) + dir * d.G * d.H * cols);
        Memory& target = kind == ParamKind::WeightIh ? l.weightsLayer : l.weightsIter;
        oneDnnCall("weights reorder into the primitive's layout" + where, [&] {
            dnnl::reorder(user, target).execute(m_stream, user, target);
            if (d.training && descs.separateBackwardWeights) {
                Memory& back = kind == ParamKind::WeightIh ? l.backwardWeightsLayer : l.backwardWeightsIter;
                dnnl::reorder(user, back).execute(m_stream, user, back);
            }
            m_stream.wait();
        });
    }
    for (int dir = 0; dir < int(d.D); ++dir) {
        const float* bih = params.data(layer, dir, ParamKind::BiasIh);
        const float* bhh = params.data(layer, dir, ParamKind::BiasHh);
        biasToOneDnn(c, bih, bhh, ptr(l.bias) + dir * d.biasGates * d.H);
        if (!m_canonicalBias.empty() && bih && bhh) {
            float* canonical = m_canonicalBias.data() + (std::int64_t(layer) * d.D + dir) * 2 * d.G * d.H;
            std::copy_n(bih, d.G * d.H, canonical);
            std::copy_n(bhh, d.G * d.H, canonical + d.G * d.H);
        }
    }
}

Memory OneDnnSession::layerOutput(int layer) const {
    const OneDnnDims& d = m_plan.dims();
    if (layer == int(d.L) - 1) return m_y;
    return d.training ? m_forwardOut[std::size_t(layer)] : m_forwardOut[std::size_t(layer % 2)];
}

void OneDnnSession::bindArguments(int layer) {
    const OneDnnDims& d = m_plan.dims();
    Layer& l = m_layers[std::size_t(layer)];
    const Memory::desc state = oneDnnStateDesc(d);
    const std::int64_t offset = layer * d.layerStateElements();
    Args& f = l.forwardArgs;
    f[DNNL_ARG_SRC_LAYER] =
        layer == 0 ? m_x : (d.betweenDropout ? m_maskedIn[std::size_t(layer - 1)] : layerOutput(layer - 1));
    f[DNNL_ARG_SRC_ITER] = view(m_h0, offset, state);
    f[DNNL_ARG_WEIGHTS_LAYER] = l.weightsLayer;
    f[DNNL_ARG_WEIGHTS_ITER] = l.weightsIter;
    f[DNNL_ARG_BIAS] = l.bias;
    f[DNNL_ARG_DST_LAYER] = layerOutput(layer);
    f[DNNL_ARG_DST_ITER] = view(m_hN, offset, state);
    if (d.lstm) {
        f[DNNL_ARG_SRC_ITER_C] = view(m_c0, offset, state);
        f[DNNL_ARG_DST_ITER_C] = view(m_cN, offset, state);
    }
    if (m_scratchpad) f[DNNL_ARG_SCRATCHPAD] = m_scratchpad;
    if (!d.training) return;
    f[DNNL_ARG_WORKSPACE] = l.workspace;

    Args& b = l.backwardArgs = f;
    b[DNNL_ARG_WEIGHTS_LAYER] = l.backwardWeightsLayer;
    b[DNNL_ARG_WEIGHTS_ITER] = l.backwardWeightsIter;
    // Gradients between layers ping-pong: layer k writes buffer (k-1)%2, layer k-1 reads it.
    b[DNNL_ARG_DIFF_DST_LAYER] = layer == int(d.L) - 1 ? m_dy : m_backwardOut[std::size_t(layer % 2)];
    b[DNNL_ARG_DIFF_SRC_LAYER] = layer == 0 ? m_dx : m_backwardOut[std::size_t((layer - 1) % 2)];
    b[DNNL_ARG_DIFF_SRC_ITER] = view(m_dh0, offset, state);
    b[DNNL_ARG_DIFF_DST_ITER] = view(m_dhN, offset, state);
    if (d.lstm) {
        b[DNNL_ARG_DIFF_SRC_ITER_C] = view(m_dc0, offset, state);
        b[DNNL_ARG_DIFF_DST_ITER_C] = view(m_dcN, offset, state);
    }
    b[DNNL_ARG_DIFF_WEIGHTS_LAYER] = l.diffWeightsLayer;
    b[DNNL_ARG_DIFF_WEIGHTS_ITER] = l.diffWeightsIter;
    b[DNNL_ARG_DIFF_BIAS] = l.diffBias;
}

void OneDnnSession::weightsToCanonical(int layer, const Memory& source, ParamKind kind,
                                       ParamSet<float>& out) const {
    const OneDnnDims& d = m_plan.dims();
    const std::int64_t cols = kind == ParamKind::WeightIh ? d.layerInput(layer) : d.H;
    Memory from = source;
    Memory user = oneDnnCall("buffer allocation",
                             [&] { return Memory(oneDnnUserWeightsDesc(d, cols), m_plan.engine()); });
    oneDnnCall("weights reorder to the canonical layout", [&] {
        dnnl::reorder(from, user).execute(m_stream, from, user);
        m_stream.wait();
    });
    for (int dir = 0; dir < int(d.D); ++dir)
        weightsFromOneDnn(m_problem.config.cell, int(d.H), int(cols), ptr(user) + dir * d.G * d.H * cols,
                          out.data(layer, dir, kind));
}

RunOutputs OneDnnSession::outputs() const {
    const OneDnnDims& d = m_plan.dims();
    const RnnConfig& c = m_problem.config;
    const OmpThreadCount threads(m_plan.threads());
    const std::vector<std::int64_t> states{d.L * d.D, d.B, d.H};
    RunOutputs out;
    out.y = copyOut(m_y, {d.T, d.B, d.D * d.H});
    out.hN = copyOut(m_hN, states);
    if (d.lstm) out.cN = copyOut(m_cN, states);
    out.training = d.training;
    if (!d.training) return out;
    out.loss = m_loss;
    Gradients<float>& g = out.gradients;
    g.dParams = ParamSet<float>(c);
    out.paramsAfter = ParamSet<float>(c);
    for (int layer = 0; layer < int(d.L); ++layer) {
        const Layer& l = m_layers[std::size_t(layer)];
        weightsToCanonical(layer, l.diffWeightsLayer, ParamKind::WeightIh, g.dParams);
        weightsToCanonical(layer, l.diffWeightsIter, ParamKind::WeightHh, g.dParams);
        weightsToCanonical(layer, l.weightsLayer, ParamKind::WeightIh, out.paramsAfter);
        weightsToCanonical(layer, l.weightsIter, ParamKind::WeightHh, out.paramsAfter);
        if (!d.bias) continue;
        for (int dir = 0; dir < int(d.D); ++dir) {
            biasGradientFromOneDnn(c, ptr(l.diffBias) + dir * d.biasGates * d.H,
                                   g.dParams.data(layer, dir, ParamKind::BiasIh),
                                   g.dParams.data(layer, dir, ParamKind::BiasHh));
            const float* canonical =
                m_canonicalBias.data() + (std::int64_t(layer) * d.D + dir) * 2 * d.G * d.H;
            std::copy_n(canonical, d.G * d.H, out.paramsAfter.data(layer, dir, ParamKind::BiasIh));
            std::copy_n(canonical + d.G * d.H, d.G * d.H,
                        out.paramsAfter.data(layer, dir, ParamKind::BiasHh));
        }
    }
    if (m_problem.inputGradients) {
        g.dx = copyOut(m_dx, {d.T, d.B, d.I});
        g.dh0 = copyOut(m_dh0, states);
        if (d.lstm) g.dc0 = copyOut(m_dc0, states);
    }
    return out;
}

std::vector<std::string> OneDnnSession::notes() const {
    return {"oneDNN RNN primitives, " + threadCount(m_plan.threads()) + ", ISA " +
                cpuIsaName(dnnl::get_effective_cpu_isa()),
            "oneDNN implementations: " + m_plan.implementations()};
}

} // namespace rnnprof::cpu
