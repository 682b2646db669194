// PackedGemm, c = a * W on weights packed once, against a plain triple loop in double, on both of
// its implementations (oneDNN's matmul and, where packedSgemmPays() and the library exports it,
// oneDNN's packed sgemm), with weights given either way round and a with a row stride beyond k;
// and the rule that picks the packed sgemm.
#include "engine/cpu/onednn_packed_sgemm.h"
#include "engine/cpu/onednn_support.h"
#include "engine/cpu/packed_gemm.h"

#include "support/random_problems.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace rnnprof {
namespace {

using cpu::PackedGemm;
using test::randomFloats;

// W[kk, nn] is stored at kk * strideK + nn * strideN of a buffer of k * n floats.
void expectTheProduct(const PackedGemm::Shape& s, bool rowsOfW) {
    SCOPED_TRACE(testing::Message() << "m=" << s.m << " n=" << s.n << " k=" << s.k << " lda=" << s.lda
                                    << (rowsOfW ? ", W given as [n, k]" : ", W given as [k, n]"));
    const std::int64_t strideK = rowsOfW ? 1 : s.n, strideN = rowsOfW ? s.k : 1;
    const std::vector<float> a = randomFloats(s.m * s.lda, 3), w = randomFloats(s.k * s.n, 4);
    const dnnl::engine engine = cpu::cpuEngine();
    const cpu::OmpThreadCount threads(1);
    PackedGemm product(engine, s, 1);
    EXPECT_EQ(product.bytes(), PackedGemm::requiredBytes(engine, s, 1));
    product.pack(w.data(), strideK, strideN);
    std::vector<float> c(std::size_t(s.m * s.n), 0.0f);
    product.run(a.data(), c.data());
    int wrong = 0;
    for (std::int64_t i = 0; i < s.m; ++i)
        for (std::int64_t j = 0; j < s.n; ++j) {
            double want = 0.0, magnitude = 0.0;
            for (std::int64_t kk = 0; kk < s.k; ++kk) {
                const double term = double(a[std::size_t(i * s.lda + kk)]) *
                                    double(w[std::size_t(kk * strideK + j * strideN)]);
                want += term;
                magnitude += std::abs(term);
            }
            // float accumulation over k terms: well within 1e-5 of the sum of their magnitudes
            if (std::abs(double(c[std::size_t(i * s.n + j)]) - want) > 1e-5 * magnitude + 1e-6 &&
                ++wrong <= 5)
                ADD_FAILURE() << "c[" << i << ", " << j << "] = " << c[std::size_t(i * s.n + j)] << ", want "
                              << want;
        }
}

TEST(PackedGemm, OnMatmulEqualsTheProduct) {
    for (const bool rowsOfW : {true, false})
        for (const PackedGemm::Shape& s : {PackedGemm::Shape{.m = 5, .n = 48, .k = 40, .lda = 40},
                                           PackedGemm::Shape{.m = 64, .n = 96, .k = 33, .lda = 50}}) {
            ASSERT_FALSE(cpu::packedSgemmPays(s));
            EXPECT_FALSE(PackedGemm(cpu::cpuEngine(), s, 1).onPackedSgemm());
            expectTheProduct(s, rowsOfW);
        }
}

// Shapes the rule sends to the packed sgemm: the smallest (32 rows, K = 512, N = 1536), and one with
// odd rows and a row stride of a beyond k.
TEST(PackedGemm, OnThePackedSgemmEqualsTheProduct) {
    if (!cpu::packedSgemmAvailable()) GTEST_SKIP() << "this oneDNN does not export its packed sgemm";
    const dnnl::engine engine = cpu::cpuEngine();
    for (const bool rowsOfW : {true, false})
        for (const PackedGemm::Shape& s : {PackedGemm::Shape{.m = 32, .n = 1536, .k = 512, .lda = 512},
                                           PackedGemm::Shape{.m = 37, .n = 1600, .k = 1030, .lda = 1100}}) {
            ASSERT_TRUE(cpu::packedSgemmPays(s));
            EXPECT_TRUE(PackedGemm(engine, s, 1).onPackedSgemm());
            expectTheProduct(s, rowsOfW);
        }
}

// Hand-derived from the measured bounds (packed_gemm.h): at least 32 rows, K = 512, N = 1536, and
// weights packed once (not training's, repacked after every SGD step).
TEST(PackedGemm, ThePackedSgemmTakesLargeWeightsWithEnoughRows) {
    EXPECT_TRUE(cpu::packedSgemmPays({.m = 256, .n = 4096, .k = 1024, .lda = 1024})); // LSTM H=1024 B=256
    EXPECT_TRUE(cpu::packedSgemmPays({.m = 64, .n = 1536, .k = 1024, .lda = 1024}));  // GRU, half the units
    EXPECT_TRUE(cpu::packedSgemmPays({.m = 32, .n = 1536, .k = 1024, .lda = 1024}));
    EXPECT_FALSE(cpu::packedSgemmPays({.m = 16, .n = 4096, .k = 1024, .lda = 1024}));  // too few rows
    EXPECT_TRUE(cpu::packedSgemmPays({.m = 256, .n = 2048, .k = 512, .lda = 512}));    // LSTM H=512
    EXPECT_FALSE(cpu::packedSgemmPays({.m = 256, .n = 1024, .k = 256, .lda = 256}));   // H=256
    EXPECT_FALSE(cpu::packedSgemmPays({.m = 256, .n = 4096, .k = 128, .lda = 128}));   // input projection
    EXPECT_FALSE(cpu::packedSgemmPays({.m = 256, .n = 1024, .k = 4096, .lda = 4096})); // narrow
    EXPECT_FALSE(cpu::packedSgemmPays({.m = 256, .n = 4096, .k = 1024, .lda = 1024, .repacked = true}));
}

// The library this build links exports it (Debian's oneDNN 2.6): PackedGemm relies on it at H >= 1024.
TEST(PackedGemm, TheLinkedOneDnnExportsItsPackedSgemm) {
    EXPECT_TRUE(cpu::packedSgemmAvailable());
}

} // namespace
} // namespace rnnprof
