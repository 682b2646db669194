#include "engine/reference/reference_backend.h"

#include "engine/reference/reference_rnn.h"

namespace rnnprof {
namespace {

class ReferenceSession final : public Session {
public:
    ReferenceSession(const Problem& problem, const MemoryFootprint& memory)
        : m_problem(problem), m_memory(memory), m_in(resolve(problem)) {
        m_problem.overrides = {}; // resolved into m_in; do not keep the caller's data alive twice
    }

    void run(PhaseHook& hook) override {
        const bool training = m_problem.mode == Mode::Training;
        const DropoutMasks<float>* masks = training ? &m_in.data.masks : nullptr;
        {
            PhaseScope phase(hook, Phase::Forward);
            m_fwd = reference::forward(m_problem.config, m_in.params, m_in.data.x, m_in.data.h0, m_in.data.c0,
                                       masks, stopToken());
        }
        if (!training) return;
        {
            PhaseScope phase(hook, Phase::Backward);
            Tensor<float> dy;
            if (m_in.outputGrad) {
                dy = *m_in.outputGrad;
            } else {
                StepScope step(hook, "loss");
                m_loss = mseLoss(m_fwd.y, m_in.data.target, &dy);
            }
            m_grads =
                reference::backward<float>(m_problem.config, m_in.params, m_fwd, m_in.data.h0, m_in.data.c0,
                                           masks, dy, m_in.hNGrad.get(), m_in.cNGrad.get(), stopToken());
        }
        if (stopRequested()) throw StopRequested("before update");
        {
            PhaseScope phase(hook, Phase::Update);
            const float lr = float(m_problem.options.learningRate);
            for (std::size_t i = 0; i < m_in.params.values.size(); ++i)
                m_in.params.values[i] -= lr * m_grads.dParams.values[i];
        }
    }

    [[nodiscard]] RunOutputs outputs() const override {
        RunOutputs out;
        out.y = m_fwd.y;
        out.hN = m_fwd.hN;
        out.cN = m_fwd.cN;
        out.training = m_problem.mode == Mode::Training;
        if (out.training) {
            out.loss = m_loss;
            out.gradients = m_grads;
            out.paramsAfter = m_in.params;
        }
        return out;
    }

    [[nodiscard]] MemoryFootprint memory() const override { return m_memory; }

private:
    Problem m_problem;
    MemoryFootprint m_memory;
    ResolvedProblem<float> m_in; // the inputs, and the parameters that training updates
    reference::ForwardPass<float> m_fwd;
    Gradients<float> m_grads;
    double m_loss = 0.0;
};

} // namespace

std::vector<std::string> ReferenceBackend::unsupportedReasons(const RnnConfig&, Mode) const {
    return {};
}

MemoryFootprint ReferenceBackend::estimateMemory(const Problem& p) const {
    const auto& c = p.config;
    const std::uint64_t f = sizeof(float);
    const std::uint64_t D = std::uint64_t(directionCount(c)), H = std::uint64_t(c.hiddenSize);
    const std::uint64_t TB = std::uint64_t(p.shape.seqLen) * std::uint64_t(p.shape.batch);
    const std::uint64_t G = std::uint64_t(gateCount(c.cell));
    const std::uint64_t states = std::uint64_t(c.layers) * D * std::uint64_t(p.shape.batch) * H;
    MemoryFootprint m;
    m.weights = std::uint64_t(ParamLayout(c).totalSize()) * f;
    // The forward pass keeps, per layer, its input and output and per direction the gates and
    // one more [T, B, H] tensor, in both modes (the loops do not distinguish).
    std::uint64_t kept = 0;
    for (int l = 0; l < c.layers; ++l)
        kept += TB * std::uint64_t(layerInputSize(c, l)) + TB * D * H + D * TB * (G + 1) * H;
    m.activations = kept * f;
    m.io = (TB * std::uint64_t(c.inputSize) + TB * D * H + 2 * states) * f;
    if (p.mode == Mode::Training) {
        m.gradients = m.weights;
        m.io +=
            (TB * D * H /*target*/ + TB * D * H /*dy*/ + TB * std::uint64_t(c.inputSize) + 2 * states) * f;
    }
    return m;
}

std::unique_ptr<Session> ReferenceBackend::makeSession(const Problem& problem,
                                                       const MemoryFootprint& estimate) const {
    return std::make_unique<ReferenceSession>(problem, estimate);
}

} // namespace rnnprof
