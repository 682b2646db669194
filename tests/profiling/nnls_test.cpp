// Non-negative least squares against solutions worked out by hand.
#include "profiling/analysis/nnls.h"

#include <gtest/gtest.h>

namespace rnnprof {
namespace {

TEST(Nnls, AConsistentSystemIsSolvedExactly) {
    // x = (2, 0.5, 3) with columns of very different size (1 and 1e9).
    const std::vector<std::vector<double>> a{{1, 1e9, 0}, {1, 2e9, 1}, {1, 0, 2}, {0, 3e9, 1}};
    std::vector<double> b;
    for (const auto& r : a)
        b.push_back(2 * r[0] + 0.5e-9 * r[1] + 3 * r[2]);
    const auto x = nonNegativeLeastSquares(a, b);
    ASSERT_EQ(x.size(), 3u);
    EXPECT_NEAR(x[0], 2.0, 1e-9);
    EXPECT_NEAR(x[1], 0.5e-9, 1e-18);
    EXPECT_NEAR(x[2], 3.0, 1e-9);
}

TEST(Nnls, ACoefficientThatWouldBeNegativeIsZeroAndTheRestRefitted) {
    // Unconstrained: (2 1; 1 2) x = (0, 3) gives x = (-1, 2). With x >= 0: x1 = 0, and x2
    // minimises (x2 - 2)^2 + (x2 - 1)^2: x2 = 1.5.
    const auto x = nonNegativeLeastSquares({{1, 0}, {0, 1}, {1, 1}}, {-1, 2, 1});
    EXPECT_DOUBLE_EQ(x[0], 0.0);
    EXPECT_NEAR(x[1], 1.5, 1e-9);
}

TEST(Nnls, ColumnsThatCannotBeToldApartStillGiveTheBestFit) {
    // Columns 0 and 1 are equal: any split of 4 between them fits exactly.
    const auto x = nonNegativeLeastSquares({{1, 1}, {2, 2}, {3, 3}}, {4, 8, 12});
    EXPECT_GE(x[0], 0.0);
    EXPECT_GE(x[1], 0.0);
    EXPECT_NEAR(x[0] + x[1], 4.0, 1e-6);
}

TEST(Nnls, AnEmptyColumnGetsZero) {
    const auto x = nonNegativeLeastSquares({{1, 0}, {2, 0}}, {3, 6});
    EXPECT_NEAR(x[0], 3.0, 1e-9);
    EXPECT_EQ(x[1], 0.0);
}

} // namespace
} // namespace rnnprof
