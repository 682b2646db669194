// The canonical <-> cuDNN weight mapping and the dense parameter count, without a GPU.
#include "engine/error.h"
#include "engine/gpu/cudnn_weight_map.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace rnnprof {
namespace {

using gpu::CanonicalGateBlock;
using gpu::CudnnWeightSlot;

RnnConfig config(CellType cell, int layers, bool bi) {
    RnnConfig c;
    c.cell = cell;
    c.inputSize = 10;
    c.hiddenSize = 20;
    c.layers = layers;
    c.bidirectional = bi;
    return c;
}

TEST(CudnnWeightMap, PseudoLayerIsTwoLayersPlusDirectionWhenBidirectional) {
    const RnnConfig bi = config(CellType::Lstm, 3, true), uni = config(CellType::Lstm, 3, false);
    EXPECT_EQ(gpu::cudnnPseudoLayer(bi, 0, 0), 0);
    EXPECT_EQ(gpu::cudnnPseudoLayer(bi, 0, 1), 1);
    EXPECT_EQ(gpu::cudnnPseudoLayer(bi, 2, 1), 5);
    EXPECT_EQ(gpu::cudnnPseudoLayer(uni, 2, 0), 2);
}

TEST(CudnnWeightMap, LstmGatesMapToLinLayerIdsInPyTorchOrder) {
    const RnnConfig c = config(CellType::Lstm, 2, true);
    // weight_ih gates i, f, g, o -> 0..3; weight_hh -> 4..7; biases alike.
    EXPECT_EQ(gpu::toCudnnSlot(c, {1, 1, ParamKind::WeightIh, 2}), (CudnnWeightSlot{3, 2, false}));
    EXPECT_EQ(gpu::toCudnnSlot(c, {0, 0, ParamKind::WeightHh, 0}), (CudnnWeightSlot{0, 4, false}));
    EXPECT_EQ(gpu::toCudnnSlot(c, {0, 0, ParamKind::BiasHh, 3}), (CudnnWeightSlot{0, 7, true}));
    EXPECT_EQ(gpu::toCudnnSlot(c, {1, 0, ParamKind::BiasIh, 1}), (CudnnWeightSlot{2, 1, true}));
}

TEST(CudnnWeightMap, GruGatesMapToLinLayerIdsResetUpdateNew) {
    const RnnConfig c = config(CellType::Gru, 1, false);
    EXPECT_EQ(gpu::toCudnnSlot(c, {0, 0, ParamKind::WeightIh, 0}), (CudnnWeightSlot{0, 0, false})); // r
    EXPECT_EQ(gpu::toCudnnSlot(c, {0, 0, ParamKind::WeightIh, 1}), (CudnnWeightSlot{0, 1, false})); // z
    EXPECT_EQ(gpu::toCudnnSlot(c, {0, 0, ParamKind::WeightHh, 2}), (CudnnWeightSlot{0, 5, false})); // n
    EXPECT_EQ(gpu::toCudnnSlot(c, {0, 0, ParamKind::BiasHh, 2}), (CudnnWeightSlot{0, 5, true}));    // b_hn
}

TEST(CudnnWeightMap, MappingRoundTripsForEveryBlock) {
    for (CellType cell : {CellType::Lstm, CellType::Gru})
        for (bool bi : {false, true})
            for (int layers : {1, 3}) {
                const RnnConfig c = config(cell, layers, bi);
                std::set<std::tuple<int, int, bool>> slots;
                for (const auto& block : gpu::cudnnWeightBlocks(c)) {
                    EXPECT_EQ(gpu::fromCudnnSlot(c, block.slot), block.canonical)
                        << describeBlock(c, block.canonical);
                    slots.insert({block.slot.pseudoLayer, block.slot.linLayerId, block.slot.bias});
                }
                // Every (pseudo-layer, linLayerID, matrix|bias) exactly once.
                const int G = gateCount(cell), D = bi ? 2 : 1;
                EXPECT_EQ(int(slots.size()), layers * D * 2 * G * 2);
            }
}

// bias=false runs with CUDNN_RNN_NO_BIAS: the weight space holds the matrices alone, so no bias
// block may be asked of cudnnGetRNNWeightParams (it has none to give: a null address).
TEST(CudnnWeightMap, BiasModeIsDoubleWithBiasAndNoneWithout) {
    RnnConfig c = config(CellType::Gru, 1, false);
    EXPECT_EQ(gpu::cudnnBiasMode(c), gpu::CudnnBiasMode::DoubleBias);
    EXPECT_EQ(gpu::cudnnBiasModeName(gpu::cudnnBiasMode(c)), "DOUBLE_BIAS");
    EXPECT_EQ(gpu::biasVectorsPerGate(gpu::CudnnBiasMode::DoubleBias), 2);
    c.bias = false;
    EXPECT_EQ(gpu::cudnnBiasMode(c), gpu::CudnnBiasMode::NoBias);
    EXPECT_EQ(gpu::cudnnBiasModeName(gpu::cudnnBiasMode(c)), "NO_BIAS");
    EXPECT_EQ(gpu::biasVectorsPerGate(gpu::CudnnBiasMode::NoBias), 0);
}

TEST(CudnnWeightMap, WithoutBiasOnlyTheMatricesAreLocatedAndTheyTileTheParameters) {
    for (CellType cell : {CellType::Lstm, CellType::Gru})
        for (bool bi : {false, true})
            for (int layers : {1, 3}) {
                RnnConfig c = config(cell, layers, bi);
                c.bias = false;
                SCOPED_TRACE(describe(c));
                const auto blocks = gpu::cudnnWeightBlocks(c);
                // L*D pseudo-layers, G input and G recurrent matrices each, no bias.
                const int G = gateCount(cell), D = bi ? 2 : 1;
                ASSERT_EQ(int(blocks.size()), layers * D * 2 * G);
                std::set<std::pair<int, int>> slots;
                for (const auto& b : blocks) {
                    EXPECT_FALSE(b.slot.bias) << describeBlock(c, b.canonical);
                    EXPECT_TRUE(b.canonical.kind == ParamKind::WeightIh ||
                                b.canonical.kind == ParamKind::WeightHh);
                    EXPECT_EQ(gpu::fromCudnnSlot(c, b.slot), b.canonical);
                    slots.insert({b.slot.pseudoLayer, b.slot.linLayerId});
                }
                EXPECT_EQ(int(slots.size()), layers * D * 2 * G);
                // The matrices cover the bias-free canonical layout exactly once, and the dense
                // weight space has exactly as many floats.
                const ParamLayout layout(c);
                std::vector<int> covered(std::size_t(layout.totalSize()), 0);
                for (const auto& b : blocks)
                    for (std::int64_t i = 0; i < b.size(); ++i)
                        ++covered[std::size_t(b.canonicalOffset + i)];
                EXPECT_TRUE(std::all_of(covered.begin(), covered.end(), [](int n) { return n == 1; }));
                EXPECT_EQ(gpu::cudnnDenseParameterCount(c), layout.totalSize());
            }
}

// The weight space of a no-bias GRU packed densely as cuDNN would (matrices only): scatter then
// gather gives the parameters back, and nothing is written past the matrices.
TEST(CudnnWeightMap, NoBiasScatterAndGatherRoundTrip) {
    RnnConfig c = config(CellType::Gru, 2, true);
    c.bias = false;
    const ParamSet<float> params = initParams<float>(c, 9);
    std::vector<gpu::CudnnPlacedBlock> placed;
    std::int64_t offset = 0;
    for (const auto& b : gpu::cudnnWeightBlocks(c)) {
        placed.push_back({b, offset});
        offset += b.size();
    }
    ASSERT_EQ(offset, gpu::cudnnDenseParameterCount(c));
    gpu::checkPlacement(c, placed, offset);
    std::vector<float> space(std::size_t(offset) + 4, -99.0f);
    gpu::scatterToWeightSpace(placed, params, space);
    EXPECT_EQ(space[std::size_t(offset)], -99.0f);
    EXPECT_EQ(gpu::gatherFromWeightSpace(placed, c, space).values, params.values);
}

TEST(CudnnWeightMap, BlocksTileTheCanonicalParametersExactly) {
    for (CellType cell : {CellType::Lstm, CellType::Gru}) {
        RnnConfig c = config(cell, 2, true);
        const auto blocks = gpu::cudnnWeightBlocks(c);
        const ParamLayout layout(c);
        std::vector<int> covered(std::size_t(layout.totalSize()), 0);
        for (const auto& b : blocks) {
            EXPECT_EQ(b.rows, c.hiddenSize);
            for (std::int64_t i = 0; i < b.size(); ++i)
                ++covered[std::size_t(b.canonicalOffset + i)];
        }
        EXPECT_TRUE(std::all_of(covered.begin(), covered.end(), [](int n) { return n == 1; }));
    }
}

TEST(CudnnWeightMap, BlockOffsetsPointAtTheGateRowsOfTheNamedParameter) {
    const RnnConfig c = config(CellType::Lstm, 2, true);
    const ParamLayout layout(c);
    for (const auto& b : gpu::cudnnWeightBlocks(c)) {
        const ParamSpec* spec = layout.find(b.canonical.layer, b.canonical.direction, b.canonical.kind);
        ASSERT_NE(spec, nullptr);
        EXPECT_EQ(b.canonicalOffset, spec->offset + b.canonical.gate * c.hiddenSize * spec->cols);
        EXPECT_EQ(b.cols, spec->cols);
    }
    // weight_ih_l1 reads both directions of layer 0: 2H columns.
    const auto blocks = gpu::cudnnWeightBlocks(c);
    const auto it = std::find_if(blocks.begin(), blocks.end(), [](const auto& b) {
        return b.canonical.layer == 1 && b.canonical.kind == ParamKind::WeightIh;
    });
    ASSERT_NE(it, blocks.end());
    EXPECT_EQ(it->cols, 2 * c.hiddenSize);
}

TEST(CudnnWeightMap, DescribesBlocksByCanonicalNameAndGate) {
    const RnnConfig lstm = config(CellType::Lstm, 2, true), gru = config(CellType::Gru, 1, false);
    EXPECT_EQ(gpu::describeBlock(lstm, {1, 1, ParamKind::WeightHh, 1}), "weight_hh_l1_reverse gate f");
    EXPECT_EQ(gpu::describeBlock(gru, {0, 0, ParamKind::BiasIh, 2}), "bias_ih_l0 gate n");
}

TEST(CudnnWeightMap, RejectsBlocksOutsideTheConfiguration) {
    RnnConfig c = config(CellType::Gru, 2, false);
    EXPECT_THROW((void)gpu::toCudnnSlot(c, {2, 0, ParamKind::WeightIh, 0}), Error);
    EXPECT_THROW((void)gpu::toCudnnSlot(c, {0, 1, ParamKind::WeightIh, 0}), Error);
    EXPECT_THROW((void)gpu::toCudnnSlot(c, {0, 0, ParamKind::WeightIh, 3}), Error);
    EXPECT_THROW((void)gpu::fromCudnnSlot(c, {2, 0, false}), Error);
    EXPECT_THROW((void)gpu::fromCudnnSlot(c, {0, 6, false}), Error);
    c.bias = false;
    try {
        (void)gpu::toCudnnSlot(c, {0, 0, ParamKind::BiasIh, 0});
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
        EXPECT_NE(std::string(e.what()).find("bias=false"), std::string::npos) << e.what();
    }
}

TEST(CudnnWeightMap, LstmProjectionMatrixIsNotPartOfTheMapping) {
    const RnnConfig c = config(CellType::Lstm, 1, false);
    try {
        (void)gpu::fromCudnnSlot(c, {0, 8, false});
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("no LSTM projection"), std::string::npos) << e.what();
    }
}

TEST(CudnnWeightMap, DenseCountMatchesHandComputedSizes) {
    // LSTM 10 -> 20, one layer: 4*20*10 + 4*20*20 + 2*4*20.
    EXPECT_EQ(gpu::cudnnDenseParameterCount(config(CellType::Lstm, 1, false)), 800 + 1600 + 160);
    // GRU 10 -> 20, two bidirectional layers: layer 0 2*(600+1200+120), layer 1 2*(3*20*40+1200+120).
    EXPECT_EQ(gpu::cudnnDenseParameterCount(config(CellType::Gru, 2, true)), 2 * 1920 + 2 * (2400 + 1320));
    RnnConfig noBias = config(CellType::Lstm, 1, false);
    noBias.bias = false;
    EXPECT_EQ(gpu::cudnnDenseParameterCount(noBias), 800 + 1600);
}

TEST(CudnnWeightMap, DenseCountEqualsTheCanonicalParameterCount) {
    for (CellType cell : {CellType::Lstm, CellType::Gru})
        for (bool bi : {false, true})
            for (bool bias : {false, true})
                for (int layers : {1, 2, 4}) {
                    RnnConfig c = config(cell, layers, bi);
                    c.bias = bias;
                    c.inputSize = 7 + layers;
                    EXPECT_EQ(gpu::cudnnDenseParameterCount(c), ParamLayout(c).totalSize()) << describe(c);
                }
}

// A weight space laid out as JAX observed it (all matrices, then all biases), in reverse block
// order, with padding: scatter then gather returns the parameters unchanged.
TEST(CudnnWeightMap, ScatterAndGatherRoundTripThroughAnyPlacement) {
    const RnnConfig c = config(CellType::Gru, 2, true);
    ParamSet<float> params = initParams<float>(c, 5);
    auto blocks = gpu::cudnnWeightBlocks(c);
    std::stable_partition(blocks.begin(), blocks.end(), [](const auto& b) { return !b.slot.bias; });
    std::vector<gpu::CudnnPlacedBlock> placed;
    std::int64_t offset = 16; // leading padding
    for (auto it = blocks.rbegin(); it != blocks.rend(); ++it) {
        placed.push_back({*it, offset});
        offset += it->size() + 3; // gaps between blocks
    }
    gpu::checkPlacement(c, placed, offset);
    std::vector<float> space(std::size_t(offset), -99.0f);
    gpu::scatterToWeightSpace(placed, params, space);
    EXPECT_EQ(space[0], -99.0f); // padding untouched
    const ParamSet<float> back = gpu::gatherFromWeightSpace(placed, c, space);
    EXPECT_EQ(back.values, params.values);
}

TEST(CudnnWeightMap, PlacementCheckRejectsOverlapsAndOutOfRangeBlocks) {
    const RnnConfig c = config(CellType::Lstm, 1, false);
    const auto blocks = gpu::cudnnWeightBlocks(c);
    std::vector<gpu::CudnnPlacedBlock> placed{{blocks[0], 0}, {blocks[1], blocks[0].size() - 1}};
    EXPECT_THROW(gpu::checkPlacement(c, placed, 100000), Error);
    placed = {{blocks[0], 0}, {blocks[1], blocks[0].size()}};
    EXPECT_NO_THROW(gpu::checkPlacement(c, placed, blocks[0].size() + blocks[1].size()));
    EXPECT_THROW(gpu::checkPlacement(c, placed, blocks[0].size() + blocks[1].size() - 1), Error);
}

} // namespace
} // namespace rnnprof
