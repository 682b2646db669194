// The canonical <-> oneDNN parameter conversions of the cpu-onednn backend.
#include "engine/cpu/onednn_params.h"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

namespace rnnprof::cpu {
namespace {

TEST(OneDnnParams, GruGatesAreUpdateResetCandidateInOneDnn) {
    const auto gru = oneDnnGateOrder(CellType::Gru);
    EXPECT_EQ(gru[0], 1); // u = canonical z
    EXPECT_EQ(gru[1], 0); // r
    EXPECT_EQ(gru[2], 2); // o = canonical n
    const auto lstm = oneDnnGateOrder(CellType::Lstm);
    for (int g = 0; g < 4; ++g)
        EXPECT_EQ(lstm[std::size_t(g)], g);
}

TEST(OneDnnParams, WeightsRoundTripAndMoveWholeGateBlocks) {
    const int H = 3, cols = 2, G = 3;
    std::vector<float> canonical(G * H * cols), ldgoi(canonical.size()), back(canonical.size());
    std::iota(canonical.begin(), canonical.end(), 0.0f);
    weightsToOneDnn(CellType::Gru, H, cols, canonical.data(), ldgoi.data());
    // oneDNN block 0 (u) is canonical block 1 (z).
    EXPECT_EQ(ldgoi[0], canonical[H * cols]);
    EXPECT_EQ(ldgoi[H * cols], canonical[0]);
    EXPECT_EQ(ldgoi[2 * H * cols + 5], canonical[2 * H * cols + 5]);
    weightsFromOneDnn(CellType::Gru, H, cols, ldgoi.data(), back.data());
    EXPECT_EQ(back, canonical);
}

TEST(OneDnnParams, BiasSumsBothVectorsExceptTheLinearBeforeResetCandidate) {
    RnnConfig c;
    c.cell = CellType::Gru;
    c.hiddenSize = 1;
    const std::vector<float> bih{1, 2, 3}, bhh{10, 20, 30}; // r, z, n
    std::vector<float> ldgo(4);
    biasToOneDnn(c, bih.data(), bhh.data(), ldgo.data());
    EXPECT_EQ(ldgo, (std::vector<float>{22, 11, 3, 30})); // u, r, o = b_in, u' = b_hn

    c.resetAfter = false;
    std::vector<float> three(3);
    biasToOneDnn(c, bih.data(), bhh.data(), three.data());
    EXPECT_EQ(three, (std::vector<float>{22, 11, 33}));

    biasToOneDnn(c, nullptr, nullptr, three.data());
    EXPECT_EQ(three, (std::vector<float>{0, 0, 0}));
}

TEST(OneDnnParams, SummedBiasGradientGoesToBothCanonicalVectors) {
    RnnConfig c;
    c.cell = CellType::Gru;
    c.hiddenSize = 1;
    const std::vector<float> diff{5, 6, 7, 8}; // u, r, o, u'
    std::vector<float> dih(3), dhh(3);
    biasGradientFromOneDnn(c, diff.data(), dih.data(), dhh.data());
    EXPECT_EQ(dih, (std::vector<float>{6, 5, 7}));
    EXPECT_EQ(dhh, (std::vector<float>{6, 5, 8}));

    std::vector<float> bih{0, 0, 0}, bhh{1, 1, 1};
    sgdBiasFromOneDnn(c, diff.data(), 0.5f, bih.data(), bhh.data());
    EXPECT_EQ(bih, (std::vector<float>{-3, -2.5f, -3.5f}));
    EXPECT_EQ(bhh, (std::vector<float>{-2, -1.5f, -3}));
}

TEST(OneDnnParams, BiasGateCountFollowsTheCellFormula) {
    RnnConfig c;
    EXPECT_EQ(oneDnnBiasGates(c), 4);
    c.cell = CellType::Gru;
    EXPECT_EQ(oneDnnBiasGates(c), 4);
    c.resetAfter = false;
    EXPECT_EQ(oneDnnBiasGates(c), 3);
}

} // namespace
} // namespace rnnprof::cpu
