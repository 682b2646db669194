#include "engine/problem.h"

#include "engine/error.h"
#include "engine/random.h"

namespace rnnprof {
namespace {

template <class T>
Tensor<T> uniformTensor(std::vector<std::int64_t> shape, std::uint64_t seed, double bound) {
    Tensor<T> t(std::move(shape));
    SplitMix64 rng(seed);
    for (auto& v : t.data)
        v = T(rng.uniform(-bound, bound));
    return t;
}

template <class T>
Tensor<T> maskTensor(std::vector<std::int64_t> shape, std::uint64_t seed, double p) {
    Tensor<T> t(std::move(shape));
    SplitMix64 rng(seed);
    const T keep = T(1.0 / (1.0 - p));
    for (auto& v : t.data)
        v = rng.unit() < p ? T(0) : keep;
    return t;
}

} // namespace

template <class T>
DropoutMasks<T> makeDropoutMasks(const RnnConfig& c, const Shape& shape) {
    DropoutMasks<T> masks;
    const int dirs = directionCount(c);
    if (c.recurrentDropout > 0) {
        for (int i = 0; i < c.layers * dirs; ++i)
            masks.recurrent.push_back(
                maskTensor<T>({shape.batch, c.hiddenSize}, c.seed * 1000003 + 101 + i, c.recurrentDropout));
    }
    if (c.dropout > 0) {
        for (int l = 0; l + 1 < c.layers; ++l)
            masks.between.push_back(
                maskTensor<T>({shape.seqLen, shape.batch, std::int64_t(dirs) * c.hiddenSize},
                              c.seed * 1000003 + 7001 + l, c.dropout));
    }
    return masks;
}

template <class T>
ProblemData<T> makeProblemData(const RnnConfig& c, const Shape& shape, Mode mode) {
    const std::int64_t states = std::int64_t(c.layers) * directionCount(c);
    ProblemData<T> d;
    d.x = uniformTensor<T>({shape.seqLen, shape.batch, c.inputSize}, c.seed ^ 0x78ULL, 1.0);
    d.h0 = uniformTensor<T>({states, shape.batch, c.hiddenSize}, c.seed ^ 0x6830ULL, 0.5);
    if (c.cell == CellType::Lstm)
        d.c0 = uniformTensor<T>({states, shape.batch, c.hiddenSize}, c.seed ^ 0x6330ULL, 0.5);
    if (mode == Mode::Training) {
        d.target =
            uniformTensor<T>({shape.seqLen, shape.batch, std::int64_t(directionCount(c)) * c.hiddenSize},
                             c.seed ^ 0x746172ULL, 0.5);
        d.masks = makeDropoutMasks<T>(c, shape);
    }
    return d;
}

namespace {

void requireShape(const Tensor<float>& t, const std::vector<std::int64_t>& expected, const char* what) {
    if (t.shape != expected || t.size() != Tensor<float>::elementCount(expected))
        throw Error(ErrorKind::InvalidInput, std::string(what) + " must have shape " + shapeToString(expected) +
                                                 ", got " + shapeToString(t.shape));
}

} // namespace

ProblemData<float> resolveData(const Problem& p) {
    ProblemData<float> seeded = makeProblemData<float>(p.config, p.shape, p.mode);
    const std::vector<std::int64_t> outShape{p.shape.seqLen, p.shape.batch,
                                             std::int64_t(directionCount(p.config)) * p.config.hiddenSize};
    if (p.overrides.outputGrad) requireShape(*p.overrides.outputGrad, outShape, "output gradient");
    if (p.overrides.hNGrad) requireShape(*p.overrides.hNGrad, seeded.h0.shape, "h_n gradient");
    if (p.overrides.cNGrad) requireShape(*p.overrides.cNGrad, seeded.h0.shape, "c_n gradient");
    if (!p.overrides.data) return seeded;
    ProblemData<float> d = *p.overrides.data;
    requireShape(d.x, seeded.x.shape, "input");
    requireShape(d.h0, seeded.h0.shape, "h0");
    if (p.config.cell == CellType::Lstm) requireShape(d.c0, seeded.c0.shape, "c0");
    if (d.target.empty()) d.target = std::move(seeded.target);
    else requireShape(d.target, seeded.target.shape, "target");
    if (d.masks.recurrent.empty() && d.masks.between.empty()) d.masks = std::move(seeded.masks);
    return d;
}

ParamSet<float> resolveParams(const Problem& p) {
    if (!p.overrides.params) return initParams<float>(p.config, p.config.seed);
    const ParamLayout layout(p.config);
    if (std::int64_t(p.overrides.params->values.size()) != layout.totalSize())
        throw Error(ErrorKind::InvalidInput, "parameters hold " + std::to_string(p.overrides.params->values.size()) +
                                                 " values, the configuration needs " + std::to_string(layout.totalSize()));
    return *p.overrides.params;
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

template ProblemData<float> makeProblemData<float>(const RnnConfig&, const Shape&, Mode);
template ProblemData<double> makeProblemData<double>(const RnnConfig&, const Shape&, Mode);
template DropoutMasks<float> makeDropoutMasks<float>(const RnnConfig&, const Shape&);
template DropoutMasks<double> makeDropoutMasks<double>(const RnnConfig&, const Shape&);
template double mseLoss<float>(const Tensor<float>&, const Tensor<float>&, Tensor<float>*);
template double mseLoss<double>(const Tensor<double>&, const Tensor<double>&, Tensor<double>*);

} // namespace rnnprof
