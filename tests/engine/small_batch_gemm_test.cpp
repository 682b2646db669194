// cpu-blas's small-batch product c = a * b^T (engine/cpu/small_batch_gemm.h) against a plain loop in
// double: every row count it takes (1-4), row counts of b that fill its passes and leave rows over,
// lengths that are and are not a multiple of any vector width, strided operands (b in padded rows,
// as the session's copy of W_hh) and beta 0 and 1. ctest runs these tests once more per vector ISA
// (tests/CMakeLists.txt), so every compiled copy of the kernel is checked.
#include "engine/cpu/small_batch_gemm.h"
#include "engine/forced_isa.h"

#include "support/random_problems.h"

#include <gtest/gtest.h>

#include <cmath>
#include <tuple>
#include <vector>

namespace rnnprof {
namespace {

using cpu::GemmArgs;
using cpu::Op;
using test::randomFloats;

// c = a * b^T + beta * c on strided operands: rows of a and c with room after them, b in rows 16
// floats longer (as the session's padded copy of W_hh).
void expectTheProductInDouble(std::int64_t m, std::int64_t n, std::int64_t k, float beta) {
    SCOPED_TRACE(testing::Message() << "m=" << m << " n=" << n << " k=" << k << " beta=" << beta);
    const std::int64_t lda = k + 3, ldb = k + 16, ldc = n + 5;
    const std::vector<float> a = randomFloats(m * lda, 1), b = randomFloats(n * ldb, 2);
    const std::vector<float> before = randomFloats(m * ldc, 3);
    std::vector<float> c = before;
    const GemmArgs g{.opA = Op::N,
                     .opB = Op::T,
                     .m = m,
                     .n = n,
                     .k = k,
                     .a = a.data(),
                     .lda = lda,
                     .b = b.data(),
                     .ldb = ldb,
                     .beta = beta,
                     .c = c.data(),
                     .ldc = ldc};
    ASSERT_TRUE(cpu::smallBatchGemmApplies(g));
    cpu::smallBatchGemm(g);
    for (std::int64_t r = 0; r < m; ++r) {
        for (std::int64_t j = 0; j < n; ++j) {
            double want = beta == 0.0f ? 0.0 : double(before[std::size_t(r * ldc + j)]);
            double magnitude = std::abs(want);
            for (std::int64_t i = 0; i < k; ++i) {
                const double term = double(a[std::size_t(r * lda + i)]) * double(b[std::size_t(j * ldb + i)]);
                want += term;
                magnitude += std::abs(term);
            }
            ASSERT_NEAR(c[std::size_t(r * ldc + j)], want, 1e-6 * magnitude + 1e-7)
                << "row " << r << ", column " << j;
        }
        for (std::int64_t j = n; j < ldc; ++j) // the room after each row of c is left alone
            ASSERT_EQ(c[std::size_t(r * ldc + j)], before[std::size_t(r * ldc + j)]) << "row " << r;
    }
}

class SmallBatchGemmTest : public testing::TestWithParam<std::tuple<int, int>> {};

// n = 40 fills 2 passes of 16 rows of b (AVX-512, one row of a) and leaves 8, and passes of 4 and 8
// with none over; 37 leaves rows over wherever a pass takes several rows of b, 1 is a single row.
// Beta 0 overwrites c, 1 adds.
TEST_P(SmallBatchGemmTest, EqualsTheProductInDouble) {
    if (const auto missing = test::forcedIsaMissing()) GTEST_SKIP() << *missing;
    const auto [m, k] = GetParam();
    for (const std::int64_t n : {1, 37, 40})
        for (const float beta : {0.0f, 1.0f})
            expectTheProductInDouble(m, n, k, beta);
}

// k = 37 and 100 are no multiple of a vector (a tail after the vectors), 64 and 1024 are (1024:
// W_hh's rows at H = 1024), 3 is shorter than one.
INSTANTIATE_TEST_SUITE_P(Shapes, SmallBatchGemmTest,
                         testing::Combine(testing::Values(1, 2, 3, 4),
                                          testing::Values(3, 37, 64, 100, 1024)));

TEST(SmallBatchGemm, TakesOnlyAFewRowsTimesATransposedB) {
    GemmArgs g{.opA = Op::N, .opB = Op::T, .m = 1, .n = 8, .k = 8};
    EXPECT_TRUE(cpu::smallBatchGemmApplies(g));
    g.m = cpu::kMaxSmallBatchRows;
    EXPECT_TRUE(cpu::smallBatchGemmApplies(g));
    g.m = cpu::kMaxSmallBatchRows + 1;
    EXPECT_FALSE(cpu::smallBatchGemmApplies(g)) << "more rows than the kernel's accumulators";
    g.m = 1;
    g.opB = Op::N;
    EXPECT_FALSE(cpu::smallBatchGemmApplies(g)) << "b must be read by rows";
    g.opB = Op::T;
    g.opA = Op::T;
    EXPECT_FALSE(cpu::smallBatchGemmApplies(g));
    g.opA = Op::N;
    g.alpha = 2.0f;
    EXPECT_FALSE(cpu::smallBatchGemmApplies(g));
    g.alpha = 1.0f;
    g.beta = 0.5f;
    EXPECT_FALSE(cpu::smallBatchGemmApplies(g)) << "beta is 0 (overwrite) or 1 (accumulate)";
}

} // namespace
} // namespace rnnprof
