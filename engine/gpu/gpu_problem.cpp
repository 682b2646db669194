#include "engine/gpu/gpu_problem.h"

#include "engine/error.h"

namespace rnnprof::gpu {
namespace {

void requireShape(const Tensor<float>& t, const std::vector<std::int64_t>& expected, const char* what) {
    if (t.shape == expected && t.size() == Tensor<float>::elementCount(expected)) return;
    throw Error(ErrorKind::InvalidInput, std::string(what) + " has shape " + shapeToString(t.shape) +
                                             ", expected " + shapeToString(expected) +
                                             " for this configuration and shape");
}

struct Shapes {
    std::vector<std::int64_t> x, state, out, recurrentMask;
    std::int64_t states = 0;
};

Shapes shapesOf(const Problem& p) {
    const RnnConfig& c = p.config;
    const std::int64_t T = p.shape.seqLen, B = p.shape.batch, H = c.hiddenSize, D = directionCount(c);
    Shapes s;
    s.states = std::int64_t(c.layers) * D;
    s.x = {T, B, c.inputSize};
    s.state = {s.states, B, H};
    s.out = {T, B, D * H};
    s.recurrentMask = {B, H};
    return s;
}

// Masks of a training run whose configuration uses them.
void requireMasks(const Problem& p, const DropoutMasks<float>& masks) {
    const RnnConfig& c = p.config;
    const Shapes s = shapesOf(p);
    if (c.recurrentDropout > 0) {
        if (masks.recurrent.size() != std::size_t(s.states))
            throw Error(ErrorKind::InvalidInput, "expected " + std::to_string(s.states) +
                                                     " recurrent dropout masks, got " +
                                                     std::to_string(masks.recurrent.size()));
        for (const auto& m : masks.recurrent)
            requireShape(m, s.recurrentMask, "recurrent dropout mask");
    }
    if (c.dropout > 0 && c.layers > 1) {
        if (masks.between.size() != std::size_t(c.layers - 1))
            throw Error(ErrorKind::InvalidInput, "expected " + std::to_string(c.layers - 1) +
                                                     " dropout masks between layers, got " +
                                                     std::to_string(masks.between.size()));
        for (const auto& m : masks.between)
            requireShape(m, s.out, "dropout mask between layers");
    }
}

} // namespace

void requireValidOverrides(const Problem& p) {
    const bool training = p.mode == Mode::Training, lstm = p.config.cell == CellType::Lstm;
    const Shapes s = shapesOf(p);
    const ProblemOverrides& o = p.overrides;
    if (o.data) {
        requireShape(o.data->x, s.x, "input x");
        requireShape(o.data->h0, s.state, "initial state h0");
        if (lstm) requireShape(o.data->c0, s.state, "initial cell state c0");
        if (training && !o.outputGrad && !o.data->target.empty())
            requireShape(o.data->target, s.out, "training target");
        if (training && !(o.data->masks.recurrent.empty() && o.data->masks.between.empty()))
            requireMasks(p, o.data->masks);
    }
    if (o.params && std::int64_t(o.params->values.size()) != ParamLayout(p.config).totalSize())
        throw Error(ErrorKind::InvalidInput, "parameter override holds " +
                                                 std::to_string(o.params->values.size()) +
                                                 " values, the configuration needs " +
                                                 std::to_string(ParamLayout(p.config).totalSize()));
    if (training) {
        if (o.outputGrad) requireShape(*o.outputGrad, s.out, "output gradient override");
        if (o.hNGrad) requireShape(*o.hNGrad, s.state, "h_n gradient override");
        if (o.cNGrad && lstm) requireShape(*o.cNGrad, s.state, "c_n gradient override");
    }
}

HostProblem resolveHostProblem(const Problem& p) {
    requireValidOverrides(p);
    const bool training = p.mode == Mode::Training;
    HostProblem hp;
    hp.data = resolveData(p);
    hp.params = resolveParams(p);
    if (p.overrides.data) {
        // As reference::runIteration: an override without target or masks keeps the seeded ones.
        if (training && hp.data.target.empty() && !p.overrides.outputGrad)
            hp.data.target = makeProblemData<float>(p.config, p.shape, p.mode).target;
        if (training && hp.data.masks.recurrent.empty() && hp.data.masks.between.empty())
            hp.data.masks = makeDropoutMasks<float>(p.config, p.shape);
    }
    if (!training) hp.data.masks = {};
    if (training) requireMasks(p, hp.data.masks);
    return hp;
}

} // namespace rnnprof::gpu
