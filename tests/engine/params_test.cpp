// The canonical parameter layout (PyTorch's names and shapes, in one flat buffer) and the seeded
// initialisation: uniform in +-1/sqrt(H), deterministic per seed, float = rounded double.
#include "engine/params.h"

#include "support/sized_model.h"
#include <gmock/gmock.h>

#include <gtest/gtest.h>

#include <cmath>
#include <set>

namespace rnnprof {
namespace {

using Shape2 = std::vector<std::int64_t>;

std::vector<std::string> names(const ParamLayout& layout) {
    std::vector<std::string> out;
    for (const auto& s : layout.specs())
        out.push_back(s.name);
    return out;
}

TEST(ParamLayout, SingleLayerLstmHasPytorchNamesAndShapes) {
    const ParamLayout layout(test::sizedModel(CellType::Lstm, 3, 5, 1, false));
    EXPECT_THAT(names(layout),
                ::testing::ElementsAre("weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0"));
    EXPECT_EQ(layout.find("weight_ih_l0")->shape(), (Shape2{20, 3})); // 4 gates x H rows
    EXPECT_EQ(layout.find("weight_hh_l0")->shape(), (Shape2{20, 5}));
    EXPECT_EQ(layout.find("bias_ih_l0")->shape(), (Shape2{20}));
    EXPECT_EQ(layout.find("bias_hh_l0")->shape(), (Shape2{20}));
    EXPECT_EQ(layout.totalSize(), 20 * 3 + 20 * 5 + 20 + 20);
}

TEST(ParamLayout, GruHasThreeGateBlocks) {
    const ParamLayout layout(test::sizedModel(CellType::Gru, 2, 4, 1, false));
    EXPECT_EQ(layout.find("weight_ih_l0")->shape(), (Shape2{12, 2}));
    EXPECT_EQ(layout.find("weight_hh_l0")->shape(), (Shape2{12, 4}));
    EXPECT_EQ(layout.find("bias_hh_l0")->shape(), (Shape2{12}));
}

TEST(ParamLayout, BidirectionalLayersAreKindMajorWithReverseBesideForward) {
    const ParamLayout layout(test::sizedModel(CellType::Gru, 3, 4, 2, true));
    EXPECT_THAT(
        names(layout),
        ::testing::ElementsAre("weight_ih_l0", "weight_ih_l0_reverse", "weight_hh_l0", "weight_hh_l0_reverse",
                               "bias_ih_l0", "bias_ih_l0_reverse", "bias_hh_l0", "bias_hh_l0_reverse",
                               "weight_ih_l1", "weight_ih_l1_reverse", "weight_hh_l1", "weight_hh_l1_reverse",
                               "bias_ih_l1", "bias_ih_l1_reverse", "bias_hh_l1", "bias_hh_l1_reverse"));
    // Layers above the first read both directions' outputs: 2*H wide.
    EXPECT_EQ(layout.find("weight_ih_l0_reverse")->shape(), (Shape2{12, 3}));
    EXPECT_EQ(layout.find("weight_ih_l1")->shape(), (Shape2{12, 8}));
    EXPECT_EQ(layout.find("weight_ih_l1_reverse")->shape(), (Shape2{12, 8}));
    EXPECT_EQ(layout.find("weight_hh_l1_reverse")->shape(), (Shape2{12, 4}));
    const ParamSpec* s = layout.find("bias_hh_l1_reverse");
    EXPECT_EQ(s->layer, 1);
    EXPECT_EQ(s->direction, 1);
    EXPECT_EQ(s->kind, ParamKind::BiasHh);
}

TEST(ParamLayout, WithoutBiasHasOnlyWeights) {
    RnnConfig c = test::sizedModel(CellType::Lstm, 3, 2, 2, true, false);
    const ParamLayout layout(c);
    EXPECT_THAT(names(layout),
                ::testing::ElementsAre("weight_ih_l0", "weight_ih_l0_reverse", "weight_hh_l0",
                                       "weight_hh_l0_reverse", "weight_ih_l1", "weight_ih_l1_reverse",
                                       "weight_hh_l1", "weight_hh_l1_reverse"));
    EXPECT_EQ(layout.find("bias_ih_l0"), nullptr);
    EXPECT_EQ(layout.find(0, 0, ParamKind::BiasHh), nullptr);
    ParamSet<float> p(c);
    EXPECT_EQ(p.data(1, 1, ParamKind::BiasIh), nullptr);
    EXPECT_NE(p.data(1, 1, ParamKind::WeightHh), nullptr);
}

TEST(ParamLayout, TensorsTileTheFlatBufferInOrder) {
    for (CellType cell : {CellType::Lstm, CellType::Gru}) {
        for (bool bias : {true, false}) {
            const RnnConfig c = test::sizedModel(cell, 7, 3, 3, true, bias);
            const ParamLayout layout(c);
            std::int64_t next = 0;
            for (const auto& s : layout.specs()) {
                EXPECT_EQ(s.offset, next) << s.name;
                EXPECT_EQ(s.size(), s.rows * s.cols);
                next += s.size();
            }
            EXPECT_EQ(layout.totalSize(), next);
            EXPECT_EQ(layout.totalSize(), parameterCount(c));
        }
    }
}

TEST(ParamLayout, FindByNameAndByPositionAgree) {
    const ParamLayout layout(test::sizedModel(CellType::Lstm, 3, 2, 3, true));
    std::set<std::string> seen;
    for (const auto& s : layout.specs()) {
        EXPECT_EQ(layout.find(s.name), &s);
        EXPECT_EQ(layout.find(s.layer, s.direction, s.kind), &s);
        EXPECT_EQ(paramName(s.layer, s.direction, s.kind), s.name);
        EXPECT_TRUE(seen.insert(s.name).second) << "duplicate " << s.name;
    }
    EXPECT_EQ(layout.find("weight_ih_l3"), nullptr);
    EXPECT_EQ(layout.find("weight_ih"), nullptr);
    EXPECT_EQ(layout.find(3, 0, ParamKind::WeightIh), nullptr);
}

TEST(ParamNames, FollowPytorch) {
    EXPECT_EQ(paramName(0, 0, ParamKind::WeightIh), "weight_ih_l0");
    EXPECT_EQ(paramName(2, 1, ParamKind::WeightHh), "weight_hh_l2_reverse");
    EXPECT_EQ(paramName(10, 0, ParamKind::BiasIh), "bias_ih_l10");
    EXPECT_EQ(paramName(1, 1, ParamKind::BiasHh), "bias_hh_l1_reverse");
}

TEST(ParamInit, IsUniformWithinOneOverSqrtHidden) {
    const RnnConfig c = test::sizedModel(CellType::Lstm, 16, 25, 2, true);
    const auto p = initParams<double>(c, 7);
    const double bound = 1.0 / std::sqrt(25.0);
    double lo = 1, hi = -1, sum = 0;
    for (double v : p.values) {
        ASSERT_LE(std::abs(v), bound);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        sum += v;
    }
    // Thousands of draws cover the interval and centre on zero.
    ASSERT_GT(p.values.size(), 5000u);
    EXPECT_LT(lo, -0.99 * bound);
    EXPECT_GT(hi, 0.99 * bound);
    EXPECT_NEAR(sum / double(p.values.size()), 0.0, 0.05 * bound);
}

TEST(ParamInit, IsDeterministicPerSeed) {
    const RnnConfig c = test::sizedModel(CellType::Gru, 5, 6, 2, true);
    EXPECT_EQ(initParams<double>(c, 123).values, initParams<double>(c, 123).values);
    EXPECT_NE(initParams<double>(c, 123).values, initParams<double>(c, 124).values);
    EXPECT_EQ(initParams<float>(c, 9).values, initParams<float>(c, 9).values);
}

TEST(ParamInit, FloatValuesAreTheRoundedDoubleValues) {
    const RnnConfig c = test::sizedModel(CellType::Lstm, 5, 6, 2, true, false);
    const auto d = initParams<double>(c, 31);
    const auto f = initParams<float>(c, 31);
    ASSERT_EQ(d.values.size(), f.values.size());
    for (std::size_t i = 0; i < d.values.size(); ++i)
        ASSERT_EQ(f.values[i], float(d.values[i])) << i;
    EXPECT_EQ(d.cast<float>().values, f.values);
}

TEST(ParamSet, DataPointsIntoTheFlatBufferAtTheSpecOffset) {
    ParamSet<double> p(test::sizedModel(CellType::Gru, 2, 3, 1, true));
    const ParamSpec* s = p.layout.find("weight_hh_l0_reverse");
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(p.data(*s), p.values.data() + s->offset);
    EXPECT_EQ(p.data(0, 1, ParamKind::WeightHh), p.data(*s));
    EXPECT_EQ(p.values.size(), std::size_t(p.layout.totalSize()));
    for (double v : p.values)
        EXPECT_EQ(v, 0.0);
}

} // namespace
} // namespace rnnprof
