// The row-major -> column-major mapping handed to cublasSgemm, checked against a plain row-major
// product for every transpose combination, with leading dimensions wider than the rows.
#include "engine/gpu/column_major_gemm.h"
#include "tests/gpu/host_exec.h"

#include <gtest/gtest.h>

#include <vector>

namespace rnnprof {
namespace {

using Index = std::int64_t;

// Row-major element (r, c) of op(X) where X is stored row-major with leading dimension ld.
float at(const std::vector<float>& x, bool trans, Index ld, Index r, Index c) {
    return trans ? x[std::size_t(c * ld + r)] : x[std::size_t(r * ld + c)];
}

TEST(ColumnMajorGemm, MappingComputesTheRowMajorProductForEveryTransposeCombination) {
    const Index m = 3, n = 4, k = 5, pad = 2;
    for (bool ta : {false, true})
        for (bool tb : {false, true}) {
            // Stored shapes: A is m x k (k x m when transposed), B is k x n (n x k).
            const Index lda = (ta ? m : k) + pad, ldb = (tb ? k : n) + pad, ldc = n + pad;
            std::vector<float> A(std::size_t((ta ? k : m) * lda)), B(std::size_t((tb ? n : k) * ldb));
            for (std::size_t i = 0; i < A.size(); ++i)
                A[i] = float(int(i % 7) - 3);
            for (std::size_t i = 0; i < B.size(); ++i)
                B[i] = float(int(i % 5) - 2) * 0.5f;
            std::vector<float> C(std::size_t(m * ldc), 100.0f);
            const gpu::ColumnMajorGemm g =
                gpu::columnMajorFor(ta, tb, m, n, k, A.data(), lda, B.data(), ldb, C.data(), ldc);
            EXPECT_TRUE(g.leadingDimensionsValid());
            EXPECT_EQ(g.m, n);
            EXPECT_EQ(g.n, m);
            test::HostExec::columnMajorSgemm(g, 1.0f, 0.0f);
            for (Index r = 0; r < m; ++r) {
                for (Index c = 0; c < n; ++c) {
                    float want = 0;
                    for (Index p = 0; p < k; ++p)
                        want += at(A, ta, lda, r, p) * at(B, tb, ldb, p, c);
                    EXPECT_FLOAT_EQ(C[std::size_t(r * ldc + c)], want)
                        << ta << tb << " (" << r << ", " << c << ")";
                }
                for (Index c = n; c < ldc; ++c)
                    EXPECT_EQ(C[std::size_t(r * ldc + c)], 100.0f) << "padding written";
            }
        }
}

TEST(ColumnMajorGemm, BetaOneAccumulatesIntoC) {
    std::vector<float> A{1, 2}, B{3, 4}, C{10};
    const auto g = gpu::columnMajorFor(false, true, 1, 1, 2, A.data(), 2, B.data(), 2, C.data(), 1);
    test::HostExec::columnMajorSgemm(g, 1.0f, 1.0f);
    EXPECT_EQ(C[0], 10 + 1 * 3 + 2 * 4);
}

TEST(ColumnMajorGemm, LeadingDimensionsNarrowerThanARowAreInvalid) {
    std::vector<float> A(16), B(16), C(16);
    // Row-major A is 2 x 4: lda 3 < 4 columns.
    EXPECT_FALSE(gpu::columnMajorFor(false, false, 2, 2, 4, A.data(), 3, B.data(), 2, C.data(), 2)
                     .leadingDimensionsValid());
    EXPECT_FALSE(gpu::columnMajorFor(false, false, 2, 3, 4, A.data(), 4, B.data(), 3, C.data(), 2)
                     .leadingDimensionsValid()); // ldc 2 < 3 columns
    EXPECT_TRUE(gpu::columnMajorFor(false, false, 2, 3, 4, A.data(), 4, B.data(), 3, C.data(), 3)
                    .leadingDimensionsValid());
}

} // namespace
} // namespace rnnprof
