// The seeded data of a problem (inputs, states, target, dropout masks), its overrides, and the
// MSE loss every training run uses.
#include "engine/error.h"
#include "engine/problem.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

namespace rnnprof {
namespace {

using Dims = std::vector<std::int64_t>;
using ::testing::HasSubstr;

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

// resolve(): the one place where a problem's overrides are interpreted, for every backend.
Problem trainingProblem(CellType cell, double recurrentDropout = 0.0, double dropout = 0.0, int layers = 2) {
    Problem p;
    p.config = model(cell, layers, true);
    p.config.recurrentDropout = recurrentDropout;
    p.config.dropout = dropout;
    p.shape.batch = 3;
    p.shape.seqLen = 4;
    p.mode = Mode::Training;
    return p;
}

std::string refusal(const Problem& p) {
    try {
        (void)resolve(p);
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
        return e.what();
    }
    ADD_FAILURE() << "expected a refusal";
    return {};
}

TEST(ResolveProblem, WithoutOverridesIsTheSeededProblem) {
    const Problem p = trainingProblem(CellType::Lstm, 0.2, 0.3);
    const ResolvedProblem<float> r = resolve(p);
    const ProblemData<float> seeded = makeProblemData<float>(p.config, p.shape, p.mode);
    EXPECT_EQ(r.data.x, seeded.x);
    EXPECT_EQ(r.data.h0, seeded.h0);
    EXPECT_EQ(r.data.c0, seeded.c0);
    EXPECT_EQ(r.data.target, seeded.target);
    EXPECT_EQ(r.data.masks.recurrent, seeded.masks.recurrent);
    EXPECT_EQ(r.data.masks.between, seeded.masks.between);
    EXPECT_EQ(r.params.values, initParams<float>(p.config, p.config.seed).values);
    EXPECT_TRUE(r.lossFromTarget());
}

TEST(ResolveProblem, InDoubleSeedsInDoubleAsTheOracleNeeds) {
    const Problem p = trainingProblem(CellType::Gru);
    const ResolvedProblem<double> r = resolve<double>(p);
    EXPECT_EQ(r.data.x, (makeProblemData<double>(p.config, p.shape, p.mode).x));
    EXPECT_EQ(r.params.values, initParams<double>(p.config, p.config.seed).values);
}

TEST(ResolveProblem, OverridesReplaceTheSeededDataAndParameters) {
    Problem p = trainingProblem(CellType::Lstm);
    auto data = std::make_shared<ProblemData<float>>(makeProblemData<float>(p.config, p.shape, p.mode));
    data->x.data.assign(data->x.data.size(), 0.25f);
    data->target = {}; // an override without target keeps the seeded one
    auto params = std::make_shared<ParamSet<float>>(p.config);
    params->values.assign(params->values.size(), -0.5f);
    p.overrides.data = data;
    p.overrides.params = params;
    const ResolvedProblem<float> r = resolve(p);
    EXPECT_EQ(r.data.x, data->x);
    EXPECT_EQ(r.params.values, params->values);
    EXPECT_EQ(r.data.target, (makeProblemData<float>(p.config, p.shape, p.mode).target));
}

TEST(ResolveProblem, AnOverrideWithoutMasksKeepsTheSeededMasks) {
    Problem p = trainingProblem(CellType::Lstm, 0.2, 0.3);
    auto data = std::make_shared<ProblemData<float>>(makeProblemData<float>(p.config, p.shape, p.mode));
    data->masks = {};
    p.overrides.data = data;
    EXPECT_EQ(resolve(p).data.masks.recurrent, (makeDropoutMasks<float>(p.config, p.shape).recurrent));
}

TEST(ResolveProblem, InferenceHasNoMasksNorTarget) {
    Problem p = trainingProblem(CellType::Lstm, 0.2, 0.3);
    p.mode = Mode::Inference;
    const ResolvedProblem<float> r = resolve(p);
    EXPECT_TRUE(r.data.masks.recurrent.empty());
    EXPECT_TRUE(r.data.masks.between.empty());
    EXPECT_TRUE(r.data.target.empty());
}

TEST(ResolveProblem, NamesEveryTensorOfTheWrongShape) {
    const Problem base = trainingProblem(CellType::Lstm); // T=4 B=3, 2 layers, bidirectional, I=3 H=4
    auto withData = [&](auto change) {
        Problem p = base;
        auto data = std::make_shared<ProblemData<float>>(makeProblemData<float>(p.config, p.shape, p.mode));
        change(*data);
        p.overrides.data = data;
        return refusal(p);
    };
    EXPECT_THAT(withData([](ProblemData<float>& d) {
                    d.x = Tensor<float>({4, 3, 6});
                }),
                HasSubstr("input x has shape [4, 3, 6], expected [4, 3, 3]"));
    EXPECT_THAT(withData([](ProblemData<float>& d) {
                    d.h0 = Tensor<float>({2, 3, 4});
                }),
                HasSubstr("initial state h0 has shape [2, 3, 4], expected [4, 3, 4]"));
    EXPECT_THAT(withData([](ProblemData<float>& d) { d.c0 = {}; }),
                HasSubstr("initial cell state c0 has shape"));
    EXPECT_THAT(withData([](ProblemData<float>& d) {
                    d.target = Tensor<float>({4, 3, 4});
                }),
                HasSubstr("training target has shape [4, 3, 4], expected [4, 3, 8]"));

    Problem grads = base;
    grads.overrides.outputGrad = std::make_shared<Tensor<float>>(std::vector<std::int64_t>{4, 3, 7});
    EXPECT_THAT(refusal(grads), HasSubstr("output gradient has shape [4, 3, 7], expected [4, 3, 8]"));
    grads = base;
    grads.overrides.hNGrad = std::make_shared<Tensor<float>>(std::vector<std::int64_t>{1, 3, 4});
    EXPECT_THAT(refusal(grads), HasSubstr("h_n gradient has shape [1, 3, 4], expected [4, 3, 4]"));
    grads = base;
    grads.overrides.params = std::make_shared<ParamSet<float>>(model(CellType::Gru, 2, true));
    EXPECT_THAT(refusal(grads), HasSubstr("the configuration needs"));
}

TEST(ResolveProblem, ChecksTheCountAndShapeOfDropoutMasks) {
    const Problem base = trainingProblem(CellType::Gru, 0.2, 0.3);
    auto withMasks = [&](auto change) {
        Problem p = base;
        auto data = std::make_shared<ProblemData<float>>(makeProblemData<float>(p.config, p.shape, p.mode));
        change(data->masks);
        p.overrides.data = data;
        return refusal(p);
    };
    EXPECT_THAT(withMasks([](DropoutMasks<float>& m) { m.recurrent.pop_back(); }),
                HasSubstr("expected 4 recurrent dropout masks, got 3"));
    EXPECT_THAT(withMasks([](DropoutMasks<float>& m) {
                    m.recurrent[1] = Tensor<float>({3, 5});
                }),
                HasSubstr("recurrent dropout mask has shape [3, 5], expected [3, 4]"));
    EXPECT_THAT(withMasks([](DropoutMasks<float>& m) { m.between.clear(); }),
                HasSubstr("expected 1 dropout masks between layers, got 0"));
    EXPECT_THAT(withMasks([](DropoutMasks<float>& m) {
                    m.between[0] = Tensor<float>({4, 3, 4});
                }),
                HasSubstr("dropout mask between layers has shape [4, 3, 4], expected [4, 3, 8]"));
}

TEST(ResolveProblem, AGruHasNoCellStateGradient) {
    Problem p = trainingProblem(CellType::Gru);
    p.overrides.cNGrad = std::make_shared<Tensor<float>>(std::vector<std::int64_t>{4, 3, 4});
    EXPECT_THAT(refusal(p), HasSubstr("a GRU has no cell state"));
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
