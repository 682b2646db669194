// cpu-blas's weight-gradient product c = a^T * b on oneDNN's matmul (TransposedGemm) against a
// plain triple loop in double, on strided operands, and the rule that picks it over sgemm.
#include "engine/cpu/onednn_support.h"
#include "engine/cpu/transposed_gemm.h"

#include "support/random_problems.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace rnnprof {
namespace {

using cpu::TransposedGemm;
using cpu::transposedGemmPays;
using test::randomFloats;

void expectProductOfTheTransposedA(const TransposedGemm::Shape& s) {
    SCOPED_TRACE(testing::Message() << "m=" << s.m << " n=" << s.n << " k=" << s.k << " lda=" << s.lda
                                    << " ldb=" << s.ldb << " ldc=" << s.ldc);
    const std::vector<float> a = randomFloats(s.k * s.lda, 1), b = randomFloats(s.k * s.ldb, 2);
    const float untouched = 1234.5f; // the padding of c's rows stays as it was
    std::vector<float> c(std::size_t(s.m * s.ldc), untouched);
    const dnnl::engine engine = cpu::cpuEngine();
    TransposedGemm product(engine, s, 1);
    std::vector<float> scratchpad(product.scratchpadBytes() / sizeof(float) + 1);
    product.run(a.data(), b.data(), c.data(), scratchpad.data());
    int wrong = 0;
    for (std::int64_t i = 0; i < s.m; ++i) {
        for (std::int64_t j = 0; j < s.n; ++j) {
            double want = 0.0, magnitude = 0.0;
            for (std::int64_t kk = 0; kk < s.k; ++kk) {
                const double term =
                    double(a[std::size_t(kk * s.lda + i)]) * double(b[std::size_t(kk * s.ldb + j)]);
                want += term;
                magnitude += std::abs(term);
            }
            // float accumulation over k terms: well within 1e-5 of the sum of their magnitudes
            if (std::abs(double(c[std::size_t(i * s.ldc + j)]) - want) > 1e-5 * magnitude && ++wrong <= 5)
                ADD_FAILURE() << "c[" << i << ", " << j << "] = " << c[std::size_t(i * s.ldc + j)]
                              << ", want " << want;
        }
        for (std::int64_t j = s.n; j < s.ldc; ++j)
            if (c[std::size_t(i * s.ldc + j)] != untouched && ++wrong <= 5)
                ADD_FAILURE() << "c[" << i << ", " << j << "] beyond n was written";
    }
    EXPECT_EQ(wrong, 0);
}

TEST(TransposedGemm, EqualsTheProductOfTheTransposedFirstOperand) {
    expectProductOfTheTransposedA({.m = 5, .n = 3, .k = 7, .lda = 5, .ldb = 3, .ldc = 3});
    // a's rows and c's rows padded, b's too: each stride is read as given
    expectProductOfTheTransposedA({.m = 37, .n = 19, .k = 53, .lda = 41, .ldb = 24, .ldc = 21});
    // a's stride as in the weight gradients that run on the matmul (4H = 1024 at H = 256, T*B = 1024)
    expectProductOfTheTransposedA({.m = 1024, .n = 40, .k = 1024, .lda = 1024, .ldb = 40, .ldc = 48});
}

// Shapes of the benchmark grid (LSTM: m = 4H, lda = 4H; GRU: 3H; dW_ih has n = I = 128, dW_hh n = H;
// k = T * B), and what the rule's measurements say for each.
TEST(TransposedGemm, PaysForAliasingStridesOfNarrowResultsOverManySteps) {
    const auto shape = [](std::int64_t m, std::int64_t n, std::int64_t k) {
        return TransposedGemm::Shape{.m = m, .n = n, .k = k, .lda = m, .ldb = n, .ldc = n};
    };
    EXPECT_TRUE(transposedGemmPays(shape(2048, 512, 6400)));   // LSTM H=512 B=64 T=100, dW_hh
    EXPECT_TRUE(transposedGemmPays(shape(2048, 128, 6400)));   // ... its dW_ih
    EXPECT_TRUE(transposedGemmPays(shape(1024, 256, 1280)));   // LSTM H=256 B=64 T=20
    EXPECT_TRUE(transposedGemmPays(shape(1536, 512, 1600)));   // GRU H=512 B=16 T=100 (6 KiB rows)
    EXPECT_TRUE(transposedGemmPays(shape(4096, 128, 25600)));  // LSTM H=1024 B=256 T=100, dW_ih
    EXPECT_FALSE(transposedGemmPays(shape(4096, 1024, 6400))); // LSTM H=1024 dW_hh: sgemm is fast there
    EXPECT_FALSE(transposedGemmPays(shape(768, 256, 6400)));   // GRU H=256: rows 3 KiB apart
    EXPECT_FALSE(transposedGemmPays(shape(512, 128, 6400)));   // LSTM H=128: too few rows of c
    EXPECT_FALSE(transposedGemmPays(shape(2048, 512, 400)));   // LSTM H=512 B=4 T=100: too few steps
    EXPECT_FALSE(transposedGemmPays({.m = 2048, .n = 512, .k = 6400, .lda = 2050, .ldb = 512, .ldc = 512}));
}

} // namespace
} // namespace rnnprof
