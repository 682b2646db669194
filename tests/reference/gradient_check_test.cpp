// The reference backward pass against central finite differences of its own forward pass, in
// double: every gradient (each parameter tensor, x, h0, c0) of the loss
//   L = sum(y * dy) + sum(h_n * dh_n) + sum(c_n * dc_n)
// with random dy, dh_n, dc_n, for LSTM and GRU over layers 1-3, uni- and bidirectional, with and
// without bias, non-zero h0/c0, and every cell option (relu, leaky_relu, both hard_sigmoids, recurrent
// dropout, dropout between layers, GRU reset_before). Errors are norm-wise relative per tensor (max |numeric
// - analytic| / max |analytic|), which stays meaningful where single elements are ~0.
#include "engine/random.h"
#include "engine/reference/reference_rnn.h"
#include "support/compare.h"
#include "support/sized_model.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rnnprof {
namespace {

constexpr double kEps = 1e-6;
constexpr double kTolerance = 1e-6;

struct GradientCase {
    std::string name;
    RnnConfig config;
    // Multiplies the initial weights; > 1 drives hard_sigmoid gates into saturation.
    double weightScale = 1.0;
};

// Everything the loss reads. Perturbed in place by the finite differences.
struct LossInputs {
    ParamSet<double> params;
    Tensor<double> x, h0, c0;
    DropoutMasks<double> masks;
    Tensor<double> dy, dhN, dcN;
};

// Distinct sizes (T, B, I and H all differ) so that a swapped index cannot go unnoticed.
const Shape kShape{3, 6}; // batch 3, seq_len 6
constexpr int kInputSize = 5;
constexpr int kHiddenSize = 2;

Tensor<double> randomTensor(std::vector<std::int64_t> shape, std::uint64_t seed) {
    Tensor<double> t(std::move(shape));
    SplitMix64 rng(seed);
    for (double& v : t.data)
        v = rng.uniform(-1.0, 1.0);
    return t;
}

LossInputs makeInputs(const GradientCase& gc) {
    const RnnConfig& c = gc.config;
    LossInputs in;
    in.params = initParams<double>(c, c.seed);
    for (double& v : in.params.values)
        v *= gc.weightScale;
    ProblemData<double> data = makeProblemData<double>(c, kShape, Mode::Training);
    in.x = std::move(data.x);
    in.h0 = std::move(data.h0);
    in.c0 = std::move(data.c0);
    in.masks = std::move(data.masks);
    const std::int64_t D = directionCount(c), H = c.hiddenSize;
    in.dy = randomTensor({kShape.seqLen, kShape.batch, D * H}, c.seed + 1);
    in.dhN = randomTensor(in.h0.shape, c.seed + 2);
    if (c.cell == CellType::Lstm) in.dcN = randomTensor(in.c0.shape, c.seed + 3);
    return in;
}

double dot(const Tensor<double>& a, const Tensor<double>& b) {
    double sum = 0;
    for (std::size_t i = 0; i < a.data.size(); ++i)
        sum += a.data[i] * b.data[i];
    return sum;
}

double loss(const RnnConfig& c, const LossInputs& in) {
    const auto fwd = reference::forward(c, in.params, in.x, in.h0, in.c0, &in.masks);
    double l = dot(fwd.y, in.dy) + dot(fwd.hN, in.dhN);
    if (c.cell == CellType::Lstm) l += dot(fwd.cN, in.dcN);
    return l;
}

// Central differences of the loss with respect to values[first, first + count).
Tensor<double> numericGradient(const RnnConfig& c, LossInputs& in, std::vector<double>& values,
                               std::int64_t first, const std::vector<std::int64_t>& shape) {
    Tensor<double> g(shape);
    for (std::int64_t i = 0; i < g.size(); ++i) {
        double& v = values[std::size_t(first + i)];
        const double saved = v;
        v = saved + kEps;
        const double up = loss(c, in);
        v = saved - kEps;
        const double down = loss(c, in);
        v = saved;
        g.data[std::size_t(i)] = (up - down) / (2 * kEps);
    }
    return g;
}

class ReferenceGradients : public ::testing::TestWithParam<GradientCase> {};

TEST_P(ReferenceGradients, MatchCentralFiniteDifferences) {
    const GradientCase& gc = GetParam();
    const RnnConfig& c = gc.config;
    LossInputs in = makeInputs(gc);
    const bool lstm = c.cell == CellType::Lstm;

    const auto fwd = reference::forward(c, in.params, in.x, in.h0, in.c0, &in.masks);
    const Gradients<double> grads = reference::backward<double>(c, in.params, fwd, in.h0, in.c0, &in.masks,
                                                                in.dy, &in.dhN, lstm ? &in.dcN : nullptr);

    for (const ParamSpec& spec : in.params.layout.specs()) {
        Tensor<double> analytic(spec.shape());
        std::copy(grads.dParams.data(spec), grads.dParams.data(spec) + spec.size(), analytic.data.begin());
        const auto numeric = numericGradient(c, in, in.params.values, spec.offset, spec.shape());
        EXPECT_TRUE(test::tensorsClose(numeric, analytic, kTolerance, "grad_" + spec.name));
    }
    EXPECT_TRUE(test::tensorsClose(numericGradient(c, in, in.x.data, 0, in.x.shape), grads.dx, kTolerance,
                                   "grad_input"));
    EXPECT_TRUE(test::tensorsClose(numericGradient(c, in, in.h0.data, 0, in.h0.shape), grads.dh0, kTolerance,
                                   "grad_h0"));
    if (lstm) {
        EXPECT_TRUE(test::tensorsClose(numericGradient(c, in, in.c0.data, 0, in.c0.shape), grads.dc0,
                                       kTolerance, "grad_c0"));
    }
}

// The masks must really drop something, or the dropout cases would test nothing.
TEST_P(ReferenceGradients, DropoutCasesHaveZerosInTheirMasks) {
    const LossInputs in = makeInputs(GetParam());
    auto hasZero = [](const std::vector<Tensor<double>>& masks) {
        for (const auto& m : masks)
            for (double v : m.data)
                if (v == 0.0) return true;
        return false;
    };
    if (GetParam().config.recurrentDropout > 0) {
        EXPECT_TRUE(hasZero(in.masks.recurrent));
    }
    if (GetParam().config.dropout > 0) {
        EXPECT_TRUE(hasZero(in.masks.between));
    }
}

RnnConfig baseConfig(CellType cell, int layers, bool bidirectional, bool bias) {
    return test::sizedModel(cell, kInputSize, kHiddenSize, layers, bidirectional, bias);
}

std::vector<GradientCase> gradientCases() {
    std::vector<GradientCase> cases;
    std::uint64_t seed = 100;
    auto add = [&](std::string name, RnnConfig c, double scale = 1.0) {
        c.seed = seed++;
        cases.push_back({std::move(name), c, scale});
    };
    for (CellType cell : {CellType::Lstm, CellType::Gru}) {
        const std::string cn(toString(cell));
        // Structure: layers x directions x bias.
        for (int layers = 1; layers <= 3; ++layers)
            for (bool bi : {false, true})
                for (bool bias : {true, false})
                    add(cn + "_" + std::to_string(layers) + "l_" + (bi ? "bi" : "uni") +
                            (bias ? "" : "_nobias"),
                        baseConfig(cell, layers, bi, bias));
        // Cell options, each alone on a 2-layer bidirectional network.
        RnnConfig c = baseConfig(cell, 2, true, true);
        c.activation = Activation::Relu;
        add(cn + "_relu", c);
        c = baseConfig(cell, 2, true, true);
        c.recurrentActivation = RecurrentActivation::HardSigmoid;
        add(cn + "_hard_sigmoid", c);
        add(cn + "_hard_sigmoid_saturating", c, 4.0);
        c = baseConfig(cell, 2, true, true);
        c.activation = Activation::LeakyRelu;
        c.negativeSlope = 0.2;
        add(cn + "_leaky_relu", c);
        c = baseConfig(cell, 2, true, true);
        c.recurrentActivation = RecurrentActivation::HardSigmoidKeras3;
        add(cn + "_hard_sigmoid_keras3", c);
        c = baseConfig(cell, 2, true, true);
        c.recurrentDropout = 0.4;
        add(cn + "_recurrent_dropout", c);
        c = baseConfig(cell, 3, true, true);
        c.dropout = 0.4;
        add(cn + "_dropout_between_layers", c);
        // Everything at once.
        c = baseConfig(cell, 3, true, false);
        c.activation = Activation::Relu;
        c.recurrentActivation = RecurrentActivation::HardSigmoid;
        c.recurrentDropout = 0.3;
        c.dropout = 0.3;
        c.resetAfter = cell == CellType::Lstm;
        add(cn + "_all_options", c, 2.0);
    }
    for (int layers = 1; layers <= 3; ++layers) {
        for (bool bi : {false, true}) {
            RnnConfig c = baseConfig(CellType::Gru, layers, bi, true);
            c.resetAfter = false;
            add("gru_reset_before_" + std::to_string(layers) + "l_" + (bi ? "bi" : "uni"), c);
        }
    }
    RnnConfig c = baseConfig(CellType::Gru, 2, true, false);
    c.resetAfter = false;
    c.recurrentDropout = 0.4;
    add("gru_reset_before_recurrent_dropout_nobias", c);
    return cases;
}

INSTANTIATE_TEST_SUITE_P(Configurations, ReferenceGradients, ::testing::ValuesIn(gradientCases()),
                         [](const auto& info) { return info.param.name; });

} // namespace
} // namespace rnnprof
