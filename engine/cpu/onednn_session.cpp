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

Memory OneDnnSession::partView(const Memory& buffer, std::int64_t part, const Memory::desc& md) const {
    return Memory(md, m_plan.engine(), static_cast<char*>(buffer.get_data_handle()) + part * md.get_size());
}

Memory OneDnnSession::stateView(const Memory& states, int layer, std::int64_t part) const {
    const OneDnnDims& d = m_plan.dims();
    const std::int64_t directions = m_plan.layers()[std::size_t(layer)].partDirections(d.D);
    return view(states, (layer * d.D + part * directions) * d.B * d.H, oneDnnStateDesc(d, directions));
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
    if (const std::int64_t n = m_plan.reverseInputGradientElements(); n > 0)
        m_reverseInputGradient = allocate(ws, oneDnnFlatDesc(n));
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
    const OneDnnPrimitiveDescs& first = descs.first();
    const std::int64_t parts = descs.parts;
    const std::string where = " (layer " + std::to_string(layer) + ")";
    Layer& l = m_layers[std::size_t(layer)];
    // A buffer of every part of a kind, in the layout `md` of one part.
    const auto buffer = [&](std::uint64_t& category, const Memory::desc& md) {
        return allocate(category, Memory::desc({parts * std::int64_t(md.get_size())}, Memory::data_type::u8,
                                               Memory::format_tag::a));
    };
    auto& w = m_memory.weights;
    l.weightsLayer = buffer(w, first.forward.weights_layer_desc());
    l.weightsIter = buffer(w, first.forward.weights_iter_desc());
    l.bias = buffer(w, first.forward.bias_desc());
    for (const auto& lengths : descs.descs)
        for (const OneDnnPrimitiveDescs& p : lengths) {
            l.forward.push_back(
                oneDnnCall("forward primitive creation" + where, [&] { return dnnl::primitive(p.forward); }));
            if (d.training)
                l.backward.push_back(oneDnnCall("backward primitive creation" + where,
                                                [&] { return dnnl::primitive(p.backward); }));
        }
    if (d.training) {
        if (descs.separateBackwardWeights) {
            l.backwardWeightsLayer = buffer(w, first.backward.weights_layer_desc());
            l.backwardWeightsIter = buffer(w, first.backward.weights_iter_desc());
            oneDnnCall("weights reorder creation" + where, [&] {
                l.refreshWeightsLayer = dnnl::reorder(
                    dnnl::reorder::primitive_desc(m_plan.engine(), first.forward.weights_layer_desc(),
                                                  m_plan.engine(), first.backward.weights_layer_desc()));
                l.refreshWeightsIter = dnnl::reorder(
                    dnnl::reorder::primitive_desc(m_plan.engine(), first.forward.weights_iter_desc(),
                                                  m_plan.engine(), first.backward.weights_iter_desc()));
            });
        } else {
            l.backwardWeightsLayer = l.weightsLayer;
            l.backwardWeightsIter = l.weightsIter;
        }
        auto& g = m_memory.gradients;
        l.diffWeightsLayer = buffer(g, first.backward.diff_weights_layer_desc());
        l.diffWeightsIter = buffer(g, first.backward.diff_weights_iter_desc());
        l.diffBias = buffer(g, first.backward.diff_bias_desc());
    }
    l.parts.resize(std::size_t(parts));
    for (std::int64_t part = 0; part < parts; ++part) {
        Part& p = l.parts[std::size_t(part)];
        p.weightsLayer = partView(l.weightsLayer, part, first.forward.weights_layer_desc());
        p.weightsIter = partView(l.weightsIter, part, first.forward.weights_iter_desc());
        p.bias = partView(l.bias, part, first.forward.bias_desc());
        if (!d.training) continue;
        p.backwardWeightsLayer = partView(l.backwardWeightsLayer, part, first.backward.weights_layer_desc());
        p.backwardWeightsIter = partView(l.backwardWeightsIter, part, first.backward.weights_iter_desc());
        p.diffWeightsLayer = partView(l.diffWeightsLayer, part, first.backward.diff_weights_layer_desc());
        p.diffWeightsIter = partView(l.diffWeightsIter, part, first.backward.diff_weights_iter_desc());
        p.diffBias = partView(l.diffBias, part, first.backward.diff_bias_desc());
    }

    // Weights: the canonical rows, gate blocks in oneDNN's order (plain ldgoi), then one reorder
    // per part into the layout the primitives chose. Done once; runs update the primitive's copy
    // in place.
    const std::int64_t directions = descs.partDirections(d.D);
    for (const ParamKind kind : {ParamKind::WeightIh, ParamKind::WeightHh}) {
        const std::int64_t cols = kind == ParamKind::WeightIh ? d.layerInput(layer) : d.H;
        Memory user = oneDnnCall("buffer allocation", [&] {
            return Memory(oneDnnUserWeightsDesc(d, d.D, cols), m_plan.engine());
        });
        for (int dir = 0; dir < int(d.D); ++dir)
            weightsToOneDnn(c.cell, int(d.H), int(cols), params.data(layer, dir, kind),
                            ptr(user) + dir * d.G * d.H * cols);
        const Memory::desc userPart = oneDnnUserWeightsDesc(d, directions, cols);
        for (const Part& p : l.parts) {
            const std::int64_t part = &p - l.parts.data();
            Memory from = partView(user, part, userPart);
            Memory target = kind == ParamKind::WeightIh ? p.weightsLayer : p.weightsIter;
            oneDnnCall("weights reorder into the primitive's layout" + where, [&] {
                dnnl::reorder(from, target).execute(m_stream, from, target);
                if (d.training && descs.separateBackwardWeights) {
                    Memory back =
                        kind == ParamKind::WeightIh ? p.backwardWeightsLayer : p.backwardWeightsIter;
                    dnnl::reorder(from, back).execute(m_stream, from, back);
                }
                m_stream.wait();
            });
        }
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

Memory OneDnnSession::layerInput(int layer) const {
    if (layer == 0) return m_x;
    return m_plan.dims().betweenDropout ? m_maskedIn[std::size_t(layer - 1)] : layerOutput(layer - 1);
}

Memory OneDnnSession::layerOutput(int layer) const {
    const OneDnnDims& d = m_plan.dims();
    if (layer == int(d.L) - 1) return m_y;
    return d.training ? m_forwardOut[std::size_t(layer)] : m_forwardOut[std::size_t(layer % 2)];
}

// Gradients between layers ping-pong: layer k writes buffer (k-1)%2, layer k-1 reads it.
Memory OneDnnSession::layerInputGradient(int layer) const {
    return layer == 0 ? m_dx : m_backwardOut[std::size_t((layer - 1) % 2)];
}

Memory OneDnnSession::layerOutputGradient(int layer) const {
    return layer == int(m_plan.dims().L) - 1 ? m_dy : m_backwardOut[std::size_t(layer % 2)];
}

void OneDnnSession::bindArguments(int layer) {
    const OneDnnLayerDescs& descs = m_plan.layers()[std::size_t(layer)];
    Layer& l = m_layers[std::size_t(layer)];
    const std::size_t n = descs.chunks.size();
    for (std::int64_t part = 0; part < descs.parts; ++part) {
        Part& p = l.parts[std::size_t(part)];
        p.calls.resize(n);
        for (std::size_t position = 0; position < n; ++position)
            bindCall(layer, part, position, p.calls[position]);
    }
}

// Call `position` of `part`: the reverse part of a split layer runs its chunks from the last in time.
// A call reads the state the part's previous call wrote (h0 for the first) and writes the one its
// next call reads (hN for the last); in backward, the state gradients flow the other way.
void OneDnnSession::bindCall(int layer, std::int64_t part, std::size_t position, Call& call) {
    const OneDnnDims& d = m_plan.dims();
    const OneDnnLayerDescs& descs = m_plan.layers()[std::size_t(layer)];
    Layer& l = m_layers[std::size_t(layer)];
    const Part& p = l.parts[std::size_t(part)];
    const std::size_t n = descs.chunks.size();
    const std::size_t chunk = part == 1 ? n - 1 - position : position;
    const std::size_t lengths = descs.descs[std::size_t(part)].size();
    call.chunk = descs.chunks[chunk];
    call.primitive = std::size_t(part) * lengths + descs.lengthIndex(chunk);
    const OneDnnPrimitiveDescs& pd = descs.of(part, chunk);
    const std::int64_t in = d.layerInput(layer), t0 = call.chunk.first;
    const std::int64_t outOffset = t0 * d.B * d.D * d.H + part * d.H;
    const Memory::desc state = oneDnnStateDesc(d, descs.partDirections(d.D));
    // The states between this part's calls (n - 1 in forward, then a pair of gradients): h and c at
    // each, allocated when first bound.
    const std::size_t kinds = d.lstm ? 2 : 1;
    l.chunkStates.resize(std::size_t(descs.parts) * (n + 1) * kinds);
    const auto boundary = [&](std::size_t index, int kind) -> Memory {
        Memory& m = l.chunkStates[(std::size_t(part) * (n + 1) + index) * kinds + std::size_t(kind)];
        if (!m) m = allocate(m_memory.workspace, state);
        return m;
    };
    Args& f = call.forwardArgs;
    f[DNNL_ARG_SRC_LAYER] = view(layerInput(layer), t0 * d.B * in, pd.forward.src_layer_desc());
    f[DNNL_ARG_DST_LAYER] = view(layerOutput(layer), outOffset, pd.forward.dst_layer_desc());
    f[DNNL_ARG_SRC_ITER] = position == 0 ? stateView(m_h0, layer, part) : boundary(position - 1, 0);
    f[DNNL_ARG_DST_ITER] = position == n - 1 ? stateView(m_hN, layer, part) : boundary(position, 0);
    if (d.lstm) {
        f[DNNL_ARG_SRC_ITER_C] = position == 0 ? stateView(m_c0, layer, part) : boundary(position - 1, 1);
        f[DNNL_ARG_DST_ITER_C] = position == n - 1 ? stateView(m_cN, layer, part) : boundary(position, 1);
    }
    f[DNNL_ARG_WEIGHTS_LAYER] = p.weightsLayer;
    f[DNNL_ARG_WEIGHTS_ITER] = p.weightsIter;
    f[DNNL_ARG_BIAS] = p.bias;
    if (m_scratchpad) f[DNNL_ARG_SCRATCHPAD] = m_scratchpad;
    if (!d.training) return;
    l.workspaces.push_back(allocate(m_memory.activations, pd.forward.workspace_desc()));
    f[DNNL_ARG_WORKSPACE] = l.workspaces.back();

    Args& b = call.backwardArgs = f;
    b[DNNL_ARG_WEIGHTS_LAYER] = p.backwardWeightsLayer;
    b[DNNL_ARG_WEIGHTS_ITER] = p.backwardWeightsIter;
    b[DNNL_ARG_DIFF_DST_LAYER] =
        view(layerOutputGradient(layer), outOffset, pd.backward.diff_dst_layer_desc());
    const Memory inputGradient = part == 0 ? layerInputGradient(layer) : m_reverseInputGradient;
    b[DNNL_ARG_DIFF_SRC_LAYER] = view(inputGradient, t0 * d.B * in, pd.backward.diff_src_layer_desc());
    // Backward runs the calls from the last position: a ping-pong pair of state gradients.
    const auto gradient = [&](std::size_t index, int kind) { return boundary(n - 1 + index % 2, kind); };
    b[DNNL_ARG_DIFF_DST_ITER] = position == n - 1 ? stateView(m_dhN, layer, part) : gradient(position, 0);
    b[DNNL_ARG_DIFF_SRC_ITER] = position == 0 ? stateView(m_dh0, layer, part) : gradient(position - 1, 0);
    if (d.lstm) {
        b[DNNL_ARG_DIFF_DST_ITER_C] =
            position == n - 1 ? stateView(m_dcN, layer, part) : gradient(position, 1);
        b[DNNL_ARG_DIFF_SRC_ITER_C] =
            position == 0 ? stateView(m_dc0, layer, part) : gradient(position - 1, 1);
    }
    b[DNNL_ARG_DIFF_WEIGHTS_LAYER] = p.diffWeightsLayer;
    b[DNNL_ARG_DIFF_WEIGHTS_ITER] = p.diffWeightsIter;
    b[DNNL_ARG_DIFF_BIAS] = p.diffBias;
}

void OneDnnSession::weightsToCanonical(int layer, Memory Part::*source, ParamKind kind,
                                       ParamSet<float>& out) const {
    const OneDnnDims& d = m_plan.dims();
    const std::int64_t cols = kind == ParamKind::WeightIh ? d.layerInput(layer) : d.H;
    const Layer& l = m_layers[std::size_t(layer)];
    const std::int64_t directions = m_plan.layers()[std::size_t(layer)].partDirections(d.D);
    Memory user = oneDnnCall("buffer allocation",
                             [&] { return Memory(oneDnnUserWeightsDesc(d, d.D, cols), m_plan.engine()); });
    for (const Part& p : l.parts) {
        Memory from = p.*source;
        Memory to = partView(user, &p - l.parts.data(), oneDnnUserWeightsDesc(d, directions, cols));
        oneDnnCall("weights reorder to the canonical layout", [&] {
            dnnl::reorder(from, to).execute(m_stream, from, to);
            m_stream.wait();
        });
    }
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
        weightsToCanonical(layer, &Part::diffWeightsLayer, ParamKind::WeightIh, g.dParams);
        weightsToCanonical(layer, &Part::diffWeightsIter, ParamKind::WeightHh, g.dParams);
        weightsToCanonical(layer, &Part::weightsLayer, ParamKind::WeightIh, out.paramsAfter);
        weightsToCanonical(layer, &Part::weightsIter, ParamKind::WeightHh, out.paramsAfter);
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
    std::vector<std::string> notes{"oneDNN RNN primitives, " + threadCount(m_plan.threads()) + ", ISA " +
                                       cpuIsaName(dnnl::get_effective_cpu_isa()),
                                   "oneDNN implementations: " + m_plan.implementations()};
    if (const std::string chunks = m_plan.chunking(); !chunks.empty())
        notes.push_back("time steps run in chunks so that a stop waits for one chunk only: " + chunks);
    return notes;
}

} // namespace rnnprof::cpu
