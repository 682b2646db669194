// PackedGemm, c = a * W on weights packed once, against a plain triple loop in double, on both of
// its implementations (oneDNN's matmul and, where packedSgemmPays() and the library exports it,
// oneDNN's packed sgemm), with weights given either way round and a with a row stride beyond k;
// and the rule that picks the packed sgemm.
#include "engine/cpu/kernel_runner.h"
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
    // A second call (a product in column chunks runs them the other way round) gives the same bits.
    std::vector<float> again(c.size(), 0.0f);
    product.run(a.data(), again.data());
    EXPECT_EQ(again, c);
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

// Hand-derived from the rule (packed_gemm.h) on a core with 2 MiB of L2: one thread, W larger than
// L2 and at most three times it, at most 4 rows, chunks of at most half an L2 (1 MiB: 512 columns at K =
// 512).
TEST(PackedGemm, WeightsOfOneToThreeL2sAtFewRowsRunInChunksOfHalfAnL2) {
    constexpr std::int64_t MiB = 1024 * 1024;
    EXPECT_EQ(cpu::columnChunks({.m = 1, .n = 2048, .k = 512, .lda = 512}, 1, 2 * MiB),
              4); // LSTM H=512, 4 MiB
    EXPECT_EQ(cpu::columnChunks({.m = 4, .n = 2048, .k = 512, .lda = 512}, 1, 2 * MiB), 4);
    EXPECT_EQ(cpu::columnChunks({.m = 5, .n = 2048, .k = 512, .lda = 512}, 1, 2 * MiB), 1); // more rows
    EXPECT_EQ(cpu::columnChunks({.m = 1, .n = 1024, .k = 512, .lda = 512}, 1, 2 * MiB), 1); // within L2
    EXPECT_EQ(cpu::columnChunks({.m = 1, .n = 1536, .k = 1024, .lda = 1024}, 1, 2 * MiB),
              6); // 6 MiB: 256 a chunk
    EXPECT_EQ(cpu::columnChunks({.m = 1, .n = 2048, .k = 1024, .lda = 1024}, 1, 2 * MiB), 1); // 8 MiB
    EXPECT_EQ(cpu::columnChunks({.m = 1, .n = 2048, .k = 256, .lda = 256}, 1, 1 * MiB), 4); // 2 MiB on 1 MiB
    EXPECT_EQ(cpu::columnChunks({.m = 1, .n = 2048, .k = 512, .lda = 512}, 1, 0), 1);       // L2 unknown
    EXPECT_EQ(cpu::columnChunks({.m = 1, .n = 2048, .k = 512, .lda = 512}, 2, 2 * MiB), 1); // two threads
}

// Products that this machine's L2 puts in column chunks (W twice its L2, K = 512), one row (the
// chunks write into c) and three (through the chunks' own buffer), a row stride of a beyond k.
TEST(PackedGemm, InColumnChunksEqualsTheProduct) {
    const std::int64_t l2 = cpu::l2CacheBytes(), k = 512;
    const std::int64_t n = 2 * l2 / (k * std::int64_t(sizeof(float))) / 16 * 16;
    if (n < 32 || n > 16384) GTEST_SKIP() << "L2 of " << l2 << " bytes: no chunked shape of a testable size";
    for (const bool rowsOfW : {true, false})
        for (const PackedGemm::Shape& s : {PackedGemm::Shape{.m = 1, .n = n, .k = k, .lda = k},
                                           PackedGemm::Shape{.m = 3, .n = n + 40, .k = k, .lda = k + 8}}) {
            ASSERT_GT(cpu::columnChunks(s, 1, l2), 1);
            EXPECT_EQ(PackedGemm(cpu::cpuEngine(), s, 1).chunks(), cpu::columnChunks(s, 1, l2));
            expectTheProduct(s, rowsOfW);
        }
}

// The library this build links exports it (Debian's oneDNN 2.6): PackedGemm relies on it at H >= 1024.
TEST(PackedGemm, TheLinkedOneDnnExportsItsPackedSgemm) {
    EXPECT_TRUE(cpu::packedSgemmAvailable());
}

} // namespace
} // namespace rnnprof
