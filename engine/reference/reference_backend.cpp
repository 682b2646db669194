#include "engine/reference/reference_backend.h"

#include "engine/reference/reference_rnn.h"

namespace rnnprof {
namespace {

class ReferenceSession final : public Session {
public:
    ReferenceSession(const Problem& problem, const MemoryFootprint& memory)
        : m_problem(problem), m_memory(memory),
          m_data(resolveData(problem)), m_params(resolveParams(problem)) {}

    void run(PhaseHook& hook) override {
        const bool training = m_problem.mode == Mode::Training;
        const DropoutMasks<float>* masks = training ? &m_data.masks : nullptr;
        {
            PhaseScope phase(hook, Phase::Forward);
            m_fwd = reference::forward(m_problem.config, m_params, m_data.x, m_data.h0, m_data.c0, masks);
        }
        if (!training) return;
        {
            PhaseScope phase(hook, Phase::Backward);
            const auto& o = m_problem.overrides;
            Tensor<float> dy;
            if (o.outputGrad) {
                dy = *o.outputGrad;
            } else {
                StepScope step(hook, "loss");
                m_loss = mseLoss(m_fwd.y, m_data.target, &dy);
            }
            m_grads = reference::backward<float>(m_problem.config, m_params, m_fwd, m_data.h0, m_data.c0, masks, dy,
                                                 o.hNGrad.get(), o.cNGrad.get());
        }
        {
            PhaseScope phase(hook, Phase::Update);
            const float lr = float(m_problem.options.learningRate);
            for (std::size_t i = 0; i < m_params.values.size(); ++i)
                m_params.values[i] -= lr * m_grads.dParams.values[i];
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
            out.paramsAfter = m_params;
        }
        return out;
    }

    [[nodiscard]] MemoryFootprint memory() const override { return m_memory; }

private:
    Problem m_problem;
    MemoryFootprint m_memory;
    ProblemData<float> m_data;
    ParamSet<float> m_params;
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

std::unique_ptr<Session> ReferenceBackend::prepare(const Problem& problem) const {
    requirePreparable(*this, problem);
    return std::make_unique<ReferenceSession>(problem, estimateMemory(problem));
}

} // namespace rnnprof
