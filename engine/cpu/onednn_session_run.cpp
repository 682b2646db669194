// OneDnnSession::run(): the per-iteration work, kept apart from the setup in onednn_session.cpp.
#include "engine/cpu/onednn_params.h"
#include "engine/cpu/onednn_session.h"
#include "engine/cpu/onednn_support.h"
#include "engine/cpu/row_loops.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <string>

namespace rnnprof::cpu {
namespace {

using Memory = dnnl::memory;

// Step names must be string literals (the hook keeps the pointers).
constexpr const char* kForwardSteps[] = {
    "layer 0 forward",  "layer 1 forward",  "layer 2 forward",  "layer 3 forward",
    "layer 4 forward",  "layer 5 forward",  "layer 6 forward",  "layer 7 forward",
    "layer 8 forward",  "layer 9 forward",  "layer 10 forward", "layer 11 forward",
    "layer 12 forward", "layer 13 forward", "layer 14 forward", "layer 15 forward"};
constexpr const char* kBackwardSteps[] = {
    "layer 0 backward",  "layer 1 backward",  "layer 2 backward",  "layer 3 backward",
    "layer 4 backward",  "layer 5 backward",  "layer 6 backward",  "layer 7 backward",
    "layer 8 backward",  "layer 9 backward",  "layer 10 backward", "layer 11 backward",
    "layer 12 backward", "layer 13 backward", "layer 14 backward", "layer 15 backward"};
static_assert(std::size(kForwardSteps) == Limits::maxLayers &&
              std::size(kBackwardSteps) == Limits::maxLayers);

float* ptr(const Memory& m) {
    return static_cast<float*>(m.get_data_handle());
}

std::int64_t floats(const Memory& m) {
    return std::int64_t(m.get_desc().get_size() / sizeof(float));
}

void execute(const dnnl::primitive& p, dnnl::stream& s, const std::unordered_map<int, Memory>& args,
             const char* what) {
    oneDnnCall(what, [&] {
        p.execute(s, args);
        s.wait();
    });
}

void multiply(const float* a, const float* mask, float* out, std::int64_t n) {
#pragma omp parallel for simd if (n >= kParallelElements)
    for (std::int64_t i = 0; i < n; ++i)
        out[i] = a[i] * mask[i];
}

// into[i] += from[i]
void add(const float* from, float* into, std::int64_t n) {
#pragma omp parallel for simd if (n >= kParallelElements)
    for (std::int64_t i = 0; i < n; ++i)
        into[i] += from[i];
}

// w -= lr * dw over whole buffers of one layout (padding is 0 in both and stays 0).
void sgd(const Memory& w, const Memory& dw, float lr, int threads) {
    sgdStep(ptr(w), ptr(dw), lr, floats(w), threads);
}

} // namespace

void OneDnnSession::run(PhaseHook& hook) {
    const OmpThreadCount threads(m_plan.threads());
    forward(hook);
    if (!m_plan.dims().training) return;
    backward(hook);
    if (stopRequested()) throw StopRequested("before update");
    update(hook);
}

// A primitive call runs a whole layer, or a chunk of its time steps: the stop checks go between
// the calls.
void OneDnnSession::stopBeforeLayer(const char* pass, int layer) const {
    if (stopRequested())
        throw StopRequested("in " + std::string(pass) + ", before layer " + std::to_string(layer + 1) +
                            " of " + std::to_string(m_plan.dims().L));
}

void OneDnnSession::stopBeforeCall(const char* pass, int layer, std::int64_t part, const Call& call) const {
    if (!stopRequested()) return;
    const OneDnnDims& d = m_plan.dims();
    const std::int64_t first = call.chunk.first + 1, last = call.chunk.first + call.chunk.steps;
    const std::string steps = first == last
                                  ? "time step " + std::to_string(first)
                                  : "time steps " + std::to_string(first) + " to " + std::to_string(last);
    throw StopRequested("in " + std::string(pass) + ", layer " + std::to_string(layer + 1) + " of " +
                        std::to_string(d.L) + ", before " + steps + " of " + std::to_string(d.T) +
                        (part == 1 ? " of the reverse direction" : ""));
}

void OneDnnSession::applyBetweenMask(const Memory& in, const Tensor<float>& mask, const Memory& out) {
    multiply(ptr(in), mask.ptr(), ptr(out), mask.size());
}

void OneDnnSession::forward(PhaseHook& hook) {
    const OneDnnDims& d = m_plan.dims();
    PhaseScope phase(hook, Phase::Forward);
    for (int layer = 0; layer < int(d.L); ++layer) {
        stopBeforeLayer("forward", layer);
        if (d.betweenDropout && layer > 0) {
            StepScope step(hook, "dropout");
            applyBetweenMask(layerOutput(layer - 1), m_masks[std::size_t(layer - 1)],
                             m_maskedIn[std::size_t(layer - 1)]);
        }
        StepScope step(hook, kForwardSteps[layer]);
        const Layer& l = m_layers[std::size_t(layer)];
        // A split layer's parts take turns, chunk by chunk.
        for (std::size_t position = 0; position < l.parts.front().calls.size(); ++position)
            for (std::size_t part = 0; part < l.parts.size(); ++part) {
                const Call& call = l.parts[part].calls[position];
                if (position > 0 || part > 0) stopBeforeCall("forward", layer, std::int64_t(part), call);
                execute(l.forward[call.primitive], m_stream, call.forwardArgs, kForwardSteps[layer]);
            }
    }
}

void OneDnnSession::backward(PhaseHook& hook) {
    const OneDnnDims& d = m_plan.dims();
    PhaseScope phase(hook, Phase::Backward);
    if (m_lossFromTarget) {
        StepScope step(hook, "loss");
        m_loss =
            mseAndGradient(ptr(m_y), ptr(m_target), ptr(m_dy), d.layerOutputElements(), m_plan.threads());
    }
    {
        // oneDNN accumulates into the parameter gradients.
        StepScope step(hook, "zero gradients");
        for (const Layer& l : m_layers)
            for (const Memory* m : {&l.diffWeightsLayer, &l.diffWeightsIter, &l.diffBias})
                std::memset(m->get_data_handle(), 0, m->get_desc().get_size());
    }
    for (int layer = int(d.L) - 1; layer >= 0; --layer) {
        stopBeforeLayer("backward", layer);
        const Layer& l = m_layers[std::size_t(layer)];
        {
            StepScope step(hook, kBackwardSteps[layer]);
            const std::size_t n = l.parts.front().calls.size();
            for (std::size_t position = n; position-- > 0;)
                for (std::size_t part = 0; part < l.parts.size(); ++part) {
                    const Call& call = l.parts[part].calls[position];
                    if (position < n - 1 || part > 0)
                        stopBeforeCall("backward", layer, std::int64_t(part), call);
                    execute(l.backward[call.primitive], m_stream, call.backwardArgs, kBackwardSteps[layer]);
                }
            if (l.parts.size() == 2) // both directions' shares of the input gradient
                add(ptr(m_reverseInputGradient), ptr(layerInputGradient(layer)),
                    d.T * d.B * d.layerInput(layer));
        }
        if (d.betweenDropout && layer > 0) {
            StepScope step(hook, "dropout");
            const Memory dIn = layerInputGradient(layer);
            applyBetweenMask(dIn, m_masks[std::size_t(layer - 1)], dIn);
        }
    }
}

void OneDnnSession::update(PhaseHook& hook) {
    const OneDnnDims& d = m_plan.dims();
    const RnnConfig& c = m_problem.config;
    const float lr = float(m_problem.options.learningRate);
    PhaseScope phase(hook, Phase::Update);
    {
        StepScope step(hook, "SGD");
        for (int layer = 0; layer < int(d.L); ++layer) {
            const Layer& l = m_layers[std::size_t(layer)];
            sgd(l.weightsLayer, l.diffWeightsLayer, lr, m_plan.threads());
            sgd(l.weightsIter, l.diffWeightsIter, lr, m_plan.threads());
            if (!d.bias) continue;
            // b_ih and b_hh step separately (each gets the summed vector's gradient), then re-sum.
            for (int dir = 0; dir < int(d.D); ++dir) {
                float* bih = m_canonicalBias.data() + (std::int64_t(layer) * d.D + dir) * 2 * d.G * d.H;
                float* bhh = bih + d.G * d.H;
                const std::int64_t block = dir * d.biasGates * d.H;
                sgdBiasFromOneDnn(c, ptr(l.diffBias) + block, lr, bih, bhh);
                biasToOneDnn(c, bih, bhh, ptr(l.bias) + block);
            }
        }
    }
    const auto& plans = m_plan.layers();
    if (std::none_of(plans.begin(), plans.end(), [](const auto& p) { return p.separateBackwardWeights; }))
        return;
    StepScope step(hook, "weights reorder");
    for (std::size_t layer = 0; layer < m_layers.size(); ++layer) {
        if (!plans[layer].separateBackwardWeights) continue;
        const Layer& l = m_layers[layer];
        for (const Part& p : l.parts) {
            execute(l.refreshWeightsLayer, m_stream,
                    {{DNNL_ARG_FROM, p.weightsLayer}, {DNNL_ARG_TO, p.backwardWeightsLayer}},
                    "weights reorder");
            execute(l.refreshWeightsIter, m_stream,
                    {{DNNL_ARG_FROM, p.weightsIter}, {DNNL_ARG_TO, p.backwardWeightsIter}},
                    "weights reorder");
        }
    }
}

} // namespace rnnprof::cpu
