// One time step of each cell with every weight chosen by hand, checked against the cell's
// textbook formulas written out here (PyTorch's gate order: LSTM i,f,g,o; GRU r,z,n). The forward
// cases use H = 2 so a transposed W_hh shows; the backward cases use H = 1 so the chain rule can
// be written out term by term.
#include "engine/reference/reference_rnn.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace rnnprof {
namespace {

constexpr double kTol = 1e-14;

double sigmoid(double x) {
    return 1.0 / (1.0 + std::exp(-x));
}

RnnConfig singleLayer(CellType cell, int hidden, bool resetAfter = true) {
    RnnConfig c;
    c.cell = cell;
    c.inputSize = 1;
    c.hiddenSize = hidden;
    c.layers = 1;
    c.resetAfter = resetAfter;
    return c;
}

Tensor<double> tensor(std::vector<std::int64_t> shape, std::vector<double> values) {
    Tensor<double> t(std::move(shape));
    t.data = std::move(values);
    return t;
}

void set(ParamSet<double>& p, ParamKind kind, const std::vector<double>& values) {
    const ParamSpec* spec = p.layout.find(0, 0, kind);
    ASSERT_NE(spec, nullptr);
    ASSERT_EQ(spec->size(), std::int64_t(values.size()));
    std::copy(values.begin(), values.end(), p.data(*spec));
}

double at(const ParamSet<double>& p, ParamKind kind, int index) {
    return p.data(0, 0, kind)[index];
}

// Distinct values per gate row, so a swapped gate order changes the result.
ParamSet<double> handParams(const RnnConfig& c) {
    const int rows = gateCount(c.cell) * c.hiddenSize;
    ParamSet<double> p(c);
    std::vector<double> wih(rows), whh(std::size_t(rows) * c.hiddenSize), bih(rows), bhh(rows);
    for (int r = 0; r < rows; ++r) {
        wih[r] = 0.1 * (r + 1) - 0.45;
        bih[r] = 0.05 * r - 0.2;
        bhh[r] = 0.3 - 0.07 * r;
        for (int k = 0; k < c.hiddenSize; ++k)
            whh[std::size_t(r) * c.hiddenSize + k] = 0.13 * (r + 1) * (k == 0 ? 1.0 : -0.6) - 0.1 * k;
    }
    set(p, ParamKind::WeightIh, wih);
    set(p, ParamKind::WeightHh, whh);
    set(p, ParamKind::BiasIh, bih);
    set(p, ParamKind::BiasHh, bhh);
    return p;
}

// Pre-activation of gate row r: W_ih[r] x + b_ih[r] + W_hh[r] . h + b_hh[r].
double preActivation(const ParamSet<double>& p, int r, double x, const std::vector<double>& h) {
    double sum =
        at(p, ParamKind::WeightIh, r) * x + at(p, ParamKind::BiasIh, r) + at(p, ParamKind::BiasHh, r);
    for (std::size_t k = 0; k < h.size(); ++k)
        sum += at(p, ParamKind::WeightHh, r * int(h.size()) + int(k)) * h[k];
    return sum;
}

TEST(HandComputedLstm, OneStepForward) {
    const RnnConfig c = singleLayer(CellType::Lstm, 2);
    const ParamSet<double> p = handParams(c);
    const double x = 0.7;
    const std::vector<double> h0{0.25, -0.4}, c0{-0.3, 0.6};
    const auto fwd = reference::forward(c, p, tensor({1, 1, 1}, {x}), tensor({1, 1, 2}, h0),
                                        tensor({1, 1, 2}, c0), nullptr);
    for (int j = 0; j < 2; ++j) {
        const double i = sigmoid(preActivation(p, j, x, h0));
        const double f = sigmoid(preActivation(p, 2 + j, x, h0));
        const double g = std::tanh(preActivation(p, 4 + j, x, h0));
        const double o = sigmoid(preActivation(p, 6 + j, x, h0));
        const double cell = f * c0[j] + i * g;
        const double h = o * std::tanh(cell);
        EXPECT_NEAR(fwd.cN.data[j], cell, kTol) << "unit " << j;
        EXPECT_NEAR(fwd.hN.data[j], h, kTol) << "unit " << j;
        EXPECT_NEAR(fwd.y.data[j], h, kTol) << "unit " << j;
    }
}

TEST(HandComputedGru, OneStepForwardResetAfter) {
    const RnnConfig c = singleLayer(CellType::Gru, 2);
    const ParamSet<double> p = handParams(c);
    const double x = -0.9;
    const std::vector<double> h0{0.45, -0.15};
    const auto fwd = reference::forward(c, p, tensor({1, 1, 1}, {x}), tensor({1, 1, 2}, h0), {}, nullptr);
    for (int j = 0; j < 2; ++j) {
        const double r = sigmoid(preActivation(p, j, x, h0));
        const double z = sigmoid(preActivation(p, 2 + j, x, h0));
        // cuDNN's formula: r multiplies the whole recurrent term W_hn h + b_hn.
        double hn = at(p, ParamKind::BiasHh, 4 + j);
        for (int k = 0; k < 2; ++k)
            hn += at(p, ParamKind::WeightHh, (4 + j) * 2 + k) * h0[k];
        const double n =
            std::tanh(at(p, ParamKind::WeightIh, 4 + j) * x + at(p, ParamKind::BiasIh, 4 + j) + r * hn);
        const double h = (1 - z) * n + z * h0[j];
        EXPECT_NEAR(fwd.hN.data[j], h, kTol) << "unit " << j;
        EXPECT_NEAR(fwd.y.data[j], h, kTol) << "unit " << j;
    }
}

TEST(HandComputedGru, OneStepForwardResetBefore) {
    const RnnConfig c = singleLayer(CellType::Gru, 2, false);
    const ParamSet<double> p = handParams(c);
    const double x = 0.35;
    const std::vector<double> h0{-0.55, 0.2};
    const auto fwd = reference::forward(c, p, tensor({1, 1, 1}, {x}), tensor({1, 1, 2}, h0), {}, nullptr);
    std::vector<double> r(2), z(2);
    for (int j = 0; j < 2; ++j) {
        r[j] = sigmoid(preActivation(p, j, x, h0));
        z[j] = sigmoid(preActivation(p, 2 + j, x, h0));
    }
    for (int j = 0; j < 2; ++j) {
        // Keras' reset_after=False: r multiplies h before the recurrent product.
        double rec = at(p, ParamKind::BiasHh, 4 + j);
        for (int k = 0; k < 2; ++k)
            rec += at(p, ParamKind::WeightHh, (4 + j) * 2 + k) * (r[k] * h0[k]);
        const double n =
            std::tanh(at(p, ParamKind::WeightIh, 4 + j) * x + at(p, ParamKind::BiasIh, 4 + j) + rec);
        const double h = (1 - z[j]) * n + z[j] * h0[j];
        EXPECT_NEAR(fwd.hN.data[j], h, kTol) << "unit " << j;
    }
}

// H = 1, one step: y = h_n, so the loss y*dy + h_n*dhN (+ c_n*dcN) has dL/dh = dy + dhN.
struct ScalarStep {
    double x = 0.8, h0 = -0.35, c0 = 0.45, dy = 0.6, dhN = -0.25, dcN = 0.7;
};

Gradients<double> scalarBackward(const RnnConfig& c, const ParamSet<double>& p, const ScalarStep& s) {
    const auto x = tensor({1, 1, 1}, {s.x});
    const auto h0 = tensor({1, 1, 1}, {s.h0});
    const auto c0 = c.cell == CellType::Lstm ? tensor({1, 1, 1}, {s.c0}) : Tensor<double>();
    const auto dy = tensor({1, 1, 1}, {s.dy});
    const auto dhN = tensor({1, 1, 1}, {s.dhN});
    const auto dcN = tensor({1, 1, 1}, {s.dcN});
    const auto fwd = reference::forward(c, p, x, h0, c0, nullptr);
    return reference::backward<double>(c, p, fwd, h0, c0, nullptr, dy, &dhN,
                                       c.cell == CellType::Lstm ? &dcN : nullptr);
}

double grad(const Gradients<double>& g, ParamKind kind, int index) {
    return g.dParams.data(0, 0, kind)[index];
}

TEST(HandComputedLstm, OneStepBackward) {
    const RnnConfig c = singleLayer(CellType::Lstm, 1);
    const ParamSet<double> p = handParams(c);
    const ScalarStep s;
    auto pre = [&](int r) { return preActivation(p, r, s.x, {s.h0}); };
    const double i = sigmoid(pre(0)), f = sigmoid(pre(1)), g = std::tanh(pre(2)), o = sigmoid(pre(3));
    const double cell = f * s.c0 + i * g;
    const double dh = s.dy + s.dhN;
    const double dc = dh * o * (1 - std::tanh(cell) * std::tanh(cell)) + s.dcN;
    const double dPre[4] = {dc * g * i * (1 - i), dc * s.c0 * f * (1 - f), dc * i * (1 - g * g),
                            dh * std::tanh(cell) * o * (1 - o)};

    const Gradients<double> got = scalarBackward(c, p, s);
    double dx = 0, dh0 = 0;
    for (int r = 0; r < 4; ++r) {
        EXPECT_NEAR(grad(got, ParamKind::WeightIh, r), dPre[r] * s.x, kTol) << "gate " << r;
        EXPECT_NEAR(grad(got, ParamKind::WeightHh, r), dPre[r] * s.h0, kTol) << "gate " << r;
        EXPECT_NEAR(grad(got, ParamKind::BiasIh, r), dPre[r], kTol) << "gate " << r;
        EXPECT_NEAR(grad(got, ParamKind::BiasHh, r), dPre[r], kTol) << "gate " << r;
        dx += at(p, ParamKind::WeightIh, r) * dPre[r];
        dh0 += at(p, ParamKind::WeightHh, r) * dPre[r];
    }
    EXPECT_NEAR(got.dx.data[0], dx, kTol);
    EXPECT_NEAR(got.dh0.data[0], dh0, kTol);
    EXPECT_NEAR(got.dc0.data[0], dc * f, kTol);
}

TEST(HandComputedGru, OneStepBackwardResetAfter) {
    const RnnConfig c = singleLayer(CellType::Gru, 1);
    const ParamSet<double> p = handParams(c);
    const ScalarStep s;
    auto pre = [&](int r) { return preActivation(p, r, s.x, {s.h0}); };
    const double r = sigmoid(pre(0)), z = sigmoid(pre(1));
    const double hn = at(p, ParamKind::WeightHh, 2) * s.h0 + at(p, ParamKind::BiasHh, 2);
    const double n = std::tanh(at(p, ParamKind::WeightIh, 2) * s.x + at(p, ParamKind::BiasIh, 2) + r * hn);
    const double dh = s.dy + s.dhN;
    const double dn = dh * (1 - z) * (1 - n * n);
    const double dz = dh * (s.h0 - n) * z * (1 - z);
    const double dr = dn * hn * r * (1 - r);
    const double dhn = dn * r; // gradient of W_hn h + b_hn

    const Gradients<double> got = scalarBackward(c, p, s);
    const double dInput[3] = {dr, dz, dn}, dRecurrent[3] = {dr, dz, dhn};
    double dx = 0, dh0 = dh * z;
    for (int g = 0; g < 3; ++g) {
        EXPECT_NEAR(grad(got, ParamKind::WeightIh, g), dInput[g] * s.x, kTol) << "gate " << g;
        EXPECT_NEAR(grad(got, ParamKind::BiasIh, g), dInput[g], kTol) << "gate " << g;
        EXPECT_NEAR(grad(got, ParamKind::WeightHh, g), dRecurrent[g] * s.h0, kTol) << "gate " << g;
        EXPECT_NEAR(grad(got, ParamKind::BiasHh, g), dRecurrent[g], kTol) << "gate " << g;
        dx += at(p, ParamKind::WeightIh, g) * dInput[g];
        dh0 += at(p, ParamKind::WeightHh, g) * dRecurrent[g];
    }
    EXPECT_NEAR(got.dx.data[0], dx, kTol);
    EXPECT_NEAR(got.dh0.data[0], dh0, kTol);
}

TEST(HandComputedGru, OneStepBackwardResetBefore) {
    const RnnConfig c = singleLayer(CellType::Gru, 1, false);
    const ParamSet<double> p = handParams(c);
    const ScalarStep s;
    auto pre = [&](int r) { return preActivation(p, r, s.x, {s.h0}); };
    const double r = sigmoid(pre(0)), z = sigmoid(pre(1));
    const double whn = at(p, ParamKind::WeightHh, 2);
    const double n = std::tanh(at(p, ParamKind::WeightIh, 2) * s.x + at(p, ParamKind::BiasIh, 2) +
                               whn * (r * s.h0) + at(p, ParamKind::BiasHh, 2));
    const double dh = s.dy + s.dhN;
    const double dn = dh * (1 - z) * (1 - n * n);
    const double dz = dh * (s.h0 - n) * z * (1 - z);
    const double drh = whn * dn; // gradient of r * h0
    const double dr = drh * s.h0 * r * (1 - r);

    const Gradients<double> got = scalarBackward(c, p, s);
    const double dPre[3] = {dr, dz, dn};
    const double recurrentInput[3] = {s.h0, s.h0, r * s.h0};
    double dx = 0;
    for (int g = 0; g < 3; ++g) {
        EXPECT_NEAR(grad(got, ParamKind::WeightIh, g), dPre[g] * s.x, kTol) << "gate " << g;
        EXPECT_NEAR(grad(got, ParamKind::BiasIh, g), dPre[g], kTol) << "gate " << g;
        EXPECT_NEAR(grad(got, ParamKind::WeightHh, g), dPre[g] * recurrentInput[g], kTol) << "gate " << g;
        EXPECT_NEAR(grad(got, ParamKind::BiasHh, g), dPre[g], kTol) << "gate " << g;
        dx += at(p, ParamKind::WeightIh, g) * dPre[g];
    }
    const double dh0 =
        at(p, ParamKind::WeightHh, 0) * dr + at(p, ParamKind::WeightHh, 1) * dz + drh * r + dh * z;
    EXPECT_NEAR(got.dx.data[0], dx, kTol);
    EXPECT_NEAR(got.dh0.data[0], dh0, kTol);
}

} // namespace
} // namespace rnnprof
