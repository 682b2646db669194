#include "engine/problem.h"

#include "engine/error.h"
#include "engine/random.h"

namespace rnnprof {
template <class T>
Tensor<T> seededUniform(std::vector<std::int64_t> shape, std::uint64_t seed, double bound) {
    Tensor<T> t(std::move(shape));
    SplitMix64 rng(seed);
    for (auto& v : t.data)
        v = T(rng.uniform(-bound, bound));
    return t;
}

template <class T>
Tensor<T> seededMask(std::vector<std::int64_t> shape, std::uint64_t seed, double p) {
    Tensor<T> t(std::move(shape));
    SplitMix64 rng(seed);
    const T keep = T(1.0 / (1.0 - p));
    for (auto& v : t.data)
        v = rng.unit() < p ? T(0) : keep;
    return t;
}

template <class T>
DropoutMasks<T> makeDropoutMasks(const RnnConfig& c, const Shape& shape) {
    DropoutMasks<T> masks;
    const int dirs = directionCount(c);
    if (c.recurrentDropout > 0) {
        for (int i = 0; i < c.layers * dirs; ++i)
            masks.recurrent.push_back(
                seededMask<T>({shape.batch, c.hiddenSize}, c.seed * 1000003 + 101 + i, c.recurrentDropout));
    }
    if (c.dropout > 0) {
        for (int l = 0; l + 1 < c.layers; ++l)
            masks.between.push_back(
                seededMask<T>({shape.seqLen, shape.batch, std::int64_t(dirs) * c.hiddenSize},
                              c.seed * 1000003 + 7001 + l, c.dropout));
    }
    return masks;
}

namespace {

// The seeded tensors of a problem, each on its own so that resolve() builds only what no override
// replaces.
template <class T>
Tensor<T> seededX(const RnnConfig& c, const Shape& shape) {
    return seededUniform<T>({shape.seqLen, shape.batch, c.inputSize}, c.seed ^ 0x78ULL, 1.0);
}

template <class T>
Tensor<T> seededState(const RnnConfig& c, const Shape& shape, std::uint64_t salt) {
    return seededUniform<T>({std::int64_t(c.layers) * directionCount(c), shape.batch, c.hiddenSize},
                            c.seed ^ salt, 0.5);
}
constexpr std::uint64_t kH0Salt = 0x6830ULL, kC0Salt = 0x6330ULL;

template <class T>
Tensor<T> seededTarget(const RnnConfig& c, const Shape& shape) {
    return seededUniform<T>({shape.seqLen, shape.batch, std::int64_t(directionCount(c)) * c.hiddenSize},
                            c.seed ^ 0x746172ULL, 0.5);
}

} // namespace

template <class T>
ProblemData<T> makeProblemData(const RnnConfig& c, const Shape& shape, Mode mode) {
    ProblemData<T> d;
    d.x = seededX<T>(c, shape);
    d.h0 = seededState<T>(c, shape, kH0Salt);
    if (c.cell == CellType::Lstm) d.c0 = seededState<T>(c, shape, kC0Salt);
    if (mode == Mode::Training) {
        d.target = seededTarget<T>(c, shape);
        d.masks = makeDropoutMasks<T>(c, shape);
    }
    return d;
}

namespace {

template <class T>
void requireShape(const Tensor<T>& t, const std::vector<std::int64_t>& expected, const char* what) {
    if (t.shape == expected && t.size() == Tensor<T>::elementCount(expected)) return;
    throw Error(ErrorKind::InvalidInput, std::string(what) + " has shape " + shapeToString(t.shape) +
                                             ", expected " + shapeToString(expected) +
                                             " for this configuration and shape");
}

struct Shapes {
    std::int64_t states = 0; // layers * directions
    std::vector<std::int64_t> x, state, out, recurrentMask;
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

template <class T>
bool noMasks(const DropoutMasks<T>& m) {
    return m.recurrent.empty() && m.between.empty();
}

// The masks a training run of this configuration reads: one per (layer, direction) with recurrent
// dropout, one per layer boundary with dropout between layers.
template <class T>
void requireMasks(const Problem& p, const DropoutMasks<T>& masks) {
    const RnnConfig& c = p.config;
    const Shapes s = shapesOf(p);
    const std::size_t recurrent = c.recurrentDropout > 0 ? std::size_t(s.states) : 0;
    const std::size_t between = c.dropout > 0 && c.layers > 1 ? std::size_t(c.layers - 1) : 0;
    if (masks.recurrent.size() != recurrent)
        throw Error(ErrorKind::InvalidInput, "expected " + std::to_string(recurrent) +
                                                 " recurrent dropout masks, got " +
                                                 std::to_string(masks.recurrent.size()));
    if (masks.between.size() != between)
        throw Error(ErrorKind::InvalidInput, "expected " + std::to_string(between) +
                                                 " dropout masks between layers, got " +
                                                 std::to_string(masks.between.size()));
    for (const auto& m : masks.recurrent)
        requireShape(m, s.recurrentMask, "recurrent dropout mask");
    for (const auto& m : masks.between)
        requireShape(m, s.out, "dropout mask between layers");
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
        if (!o.data->target.empty()) requireShape(o.data->target, s.out, "training target");
        if (training && !noMasks(o.data->masks)) requireMasks(p, o.data->masks);
    }
    if (o.params && std::int64_t(o.params->values.size()) != ParamLayout(p.config).totalSize())
        throw Error(ErrorKind::InvalidInput, "the parameters hold " +
                                                 std::to_string(o.params->values.size()) +
                                                 " values, the configuration needs " +
                                                 std::to_string(ParamLayout(p.config).totalSize()));
    if (o.outputGrad) requireShape(*o.outputGrad, s.out, "output gradient");
    if (o.hNGrad) requireShape(*o.hNGrad, s.state, "h_n gradient");
    if (o.cNGrad) {
        if (!lstm)
            throw Error(ErrorKind::InvalidInput, "a c_n gradient was given, but a GRU has no cell state");
        requireShape(*o.cNGrad, s.state, "c_n gradient");
    }
}

template <class T>
ResolvedProblem<T> resolve(const Problem& p) {
    requireValidOverrides(p);
    const bool training = p.mode == Mode::Training;
    const RnnConfig& c = p.config;
    const ProblemData<float>* o = p.overrides.data.get();
    ResolvedProblem<T> r;
    r.data.x = o ? o->x.template cast<T>() : seededX<T>(c, p.shape);
    r.data.h0 = o ? o->h0.template cast<T>() : seededState<T>(c, p.shape, kH0Salt);
    if (c.cell == CellType::Lstm)
        r.data.c0 = o ? o->c0.template cast<T>() : seededState<T>(c, p.shape, kC0Salt);
    if (training) {
        r.data.target = o && !o->target.empty() ? o->target.template cast<T>() : seededTarget<T>(c, p.shape);
        if (o && !noMasks(o->masks)) {
            for (const auto& m : o->masks.recurrent)
                r.data.masks.recurrent.push_back(m.template cast<T>());
            for (const auto& m : o->masks.between)
                r.data.masks.between.push_back(m.template cast<T>());
        } else {
            r.data.masks = makeDropoutMasks<T>(c, p.shape);
        }
        requireMasks(p, r.data.masks);
        r.outputGrad = p.overrides.outputGrad;
        r.hNGrad = p.overrides.hNGrad;
        r.cNGrad = p.overrides.cNGrad;
    }
    r.params = p.overrides.params ? p.overrides.params->template cast<T>() : initParams<T>(c, c.seed);
    return r;
}

template <class T>
double mseLoss(const Tensor<T>& y, const Tensor<T>& target, Tensor<T>* dy) {
    const std::size_t n = y.data.size();
    if (dy) *dy = Tensor<T>(y.shape);
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double diff = double(y.data[i]) - double(target.data[i]);
        sum += diff * diff;
        if (dy) dy->data[i] = T(2.0 * diff / double(n));
    }
    return n ? sum / double(n) : 0.0;
}

template Tensor<float> seededUniform<float>(std::vector<std::int64_t>, std::uint64_t, double);
template Tensor<double> seededUniform<double>(std::vector<std::int64_t>, std::uint64_t, double);
template Tensor<float> seededMask<float>(std::vector<std::int64_t>, std::uint64_t, double);
template Tensor<double> seededMask<double>(std::vector<std::int64_t>, std::uint64_t, double);
template ProblemData<float> makeProblemData<float>(const RnnConfig&, const Shape&, Mode);
template ProblemData<double> makeProblemData<double>(const RnnConfig&, const Shape&, Mode);
template DropoutMasks<float> makeDropoutMasks<float>(const RnnConfig&, const Shape&);
template DropoutMasks<double> makeDropoutMasks<double>(const RnnConfig&, const Shape&);
template ResolvedProblem<float> resolve<float>(const Problem&);
template ResolvedProblem<double> resolve<double>(const Problem&);
template double mseLoss<float>(const Tensor<float>&, const Tensor<float>&, Tensor<float>*);
template double mseLoss<double>(const Tensor<double>&, const Tensor<double>&, Tensor<double>*);

} // namespace rnnprof
