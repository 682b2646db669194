// The seeded data of a problem (inputs, states, target, dropout masks), its overrides, and the
// MSE loss every training run uses.
#include "engine/problem.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

namespace rnnprof {
namespace {

using Dims = std::vector<std::int64_t>;

RnnConfig model(CellType cell, int layers, bool bi) {
    RnnConfig c;
    c.cell = cell;
    c.inputSize = 3;
    c.hiddenSize = 4;
    c.layers = layers;
    c.bidirectional = bi;
    return c;
}

TEST(ProblemData, HasSequenceMajorShapes) {
    const auto d = makeProblemData<float>(model(CellType::Lstm, 2, true), Shape{5, 7}, Mode::Training);
    EXPECT_EQ(d.x.shape, (Dims{7, 5, 3}));
    EXPECT_EQ(d.h0.shape, (Dims{4, 5, 4})); // layers * directions
    EXPECT_EQ(d.c0.shape, (Dims{4, 5, 4}));
    EXPECT_EQ(d.target.shape, (Dims{7, 5, 8}));
}

TEST(ProblemData, GruHasNoCellStateAndInferenceNoTarget) {
    const auto d = makeProblemData<double>(model(CellType::Gru, 1, false), Shape{2, 3}, Mode::Inference);
    EXPECT_TRUE(d.c0.empty());
    EXPECT_TRUE(d.target.empty());
    EXPECT_TRUE(d.masks.recurrent.empty());
    EXPECT_TRUE(d.masks.between.empty());
}

TEST(ProblemData, ValuesAreBoundedAndNonZero) {
    const auto d = makeProblemData<double>(model(CellType::Lstm, 1, false), Shape{8, 9}, Mode::Training);
    double maxX = 0, maxH = 0;
    for (double v : d.x.data)
        maxX = std::max(maxX, std::abs(v));
    for (double v : d.h0.data)
        maxH = std::max(maxH, std::abs(v));
    EXPECT_LE(maxX, 1.0);
    EXPECT_GT(maxX, 0.5);
    EXPECT_LE(maxH, 0.5);
    EXPECT_GT(maxH, 0.25); // non-zero initial states exercise the h0/c0 paths
}

TEST(ProblemData, IsDeterministicPerSeedAndFloatIsRoundedDouble) {
    RnnConfig c = model(CellType::Lstm, 2, true);
    c.dropout = 0.3;
    c.recurrentDropout = 0.2;
    const Shape s{3, 4};
    const auto a = makeProblemData<double>(c, s, Mode::Training);
    const auto b = makeProblemData<double>(c, s, Mode::Training);
    EXPECT_EQ(a.x, b.x);
    EXPECT_EQ(a.c0, b.c0);
    EXPECT_EQ(a.masks.recurrent, b.masks.recurrent);
    const auto f = makeProblemData<float>(c, s, Mode::Training);
    EXPECT_EQ(f.x, a.x.cast<float>());
    EXPECT_EQ(f.target, a.target.cast<float>());
    c.seed += 1;
    EXPECT_NE(makeProblemData<double>(c, s, Mode::Training).x, a.x);
}

TEST(DropoutMasks, ExistOnlyInTrainingWithPositiveProbability) {
    RnnConfig c = model(CellType::Gru, 3, true);
    EXPECT_TRUE(makeProblemData<float>(c, Shape{2, 2}, Mode::Training).masks.recurrent.empty());
    c.recurrentDropout = 0.5;
    c.dropout = 0.5;
    EXPECT_TRUE(makeProblemData<float>(c, Shape{2, 2}, Mode::Inference).masks.recurrent.empty());
    const auto m = makeProblemData<float>(c, Shape{2, 5}, Mode::Training).masks;
    ASSERT_EQ(m.recurrent.size(), 6u); // one per (layer, direction)
    ASSERT_EQ(m.between.size(), 2u);   // one per layer boundary
    EXPECT_EQ(m.recurrent[5].shape, (Dims{2, 4}));
    EXPECT_EQ(m.between[1].shape, (Dims{5, 2, 8}));
}

TEST(DropoutMasks, HoldZeroOrTheInverseKeepProbabilityAtTheRightRate) {
    RnnConfig c = model(CellType::Lstm, 2, false);
    c.hiddenSize = 100;
    c.dropout = 0.3;
    c.recurrentDropout = 0.6;
    const auto m = makeDropoutMasks<double>(c, Shape{50, 20});
    auto check = [](const Tensor<double>& mask, double p) {
        std::int64_t zeros = 0;
        for (double v : mask.data) {
            if (v == 0.0)
                ++zeros;
            else
                ASSERT_DOUBLE_EQ(v, 1.0 / (1.0 - p));
        }
        EXPECT_NEAR(double(zeros) / double(mask.size()), p, 0.05);
    };
    check(m.recurrent[0], 0.6);
    check(m.recurrent[1], 0.6);
    check(m.between[0], 0.3);
    EXPECT_NE(m.recurrent[0], m.recurrent[1]); // independent per layer
}

TEST(ProblemOverrides, ReplaceTheSeededDataAndParameters) {
    Problem p;
    p.config = model(CellType::Lstm, 1, false);
    p.shape = {2, 3};
    EXPECT_EQ(resolveData(p).x, makeProblemData<float>(p.config, p.shape, p.mode).x);
    EXPECT_EQ(resolveParams(p).values, initParams<float>(p.config, p.config.seed).values);

    auto data = std::make_shared<ProblemData<float>>(makeProblemData<float>(p.config, p.shape, p.mode));
    data->x.data.assign(data->x.data.size(), 0.25f);
    auto params = std::make_shared<ParamSet<float>>(p.config);
    params->values.assign(params->values.size(), -0.5f);
    p.overrides.data = data;
    p.overrides.params = params;
    EXPECT_EQ(resolveData(p).x, data->x);
    EXPECT_EQ(resolveParams(p).values, params->values);
}

TEST(MseLoss, IsTheMeanSquaredErrorWithGradientTwoDiffOverN) {
    Tensor<double> y({2, 2}), t({2, 2}), dy;
    y.data = {1.0, 2.0, -1.0, 0.5};
    t.data = {0.0, 2.5, 1.0, 0.5};
    const double loss = mseLoss(y, t, &dy);
    EXPECT_DOUBLE_EQ(loss, (1.0 + 0.25 + 4.0 + 0.0) / 4.0);
    EXPECT_EQ(dy.shape, y.shape);
    EXPECT_DOUBLE_EQ(dy.data[0], 2.0 * 1.0 / 4.0);
    EXPECT_DOUBLE_EQ(dy.data[1], 2.0 * -0.5 / 4.0);
    EXPECT_DOUBLE_EQ(dy.data[2], 2.0 * -2.0 / 4.0);
    EXPECT_DOUBLE_EQ(dy.data[3], 0.0);
    EXPECT_DOUBLE_EQ(mseLoss<double>(y, t, nullptr), loss);
}

TEST(MseLoss, OfAnEmptyTensorIsZero) {
    Tensor<float> y({0, 3}), t({0, 3});
    EXPECT_EQ(mseLoss<float>(y, t, nullptr), 0.0);
}

} // namespace
} // namespace rnnprof
