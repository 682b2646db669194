// The deterministic sum gpu-cudnn's loss runs on the device (engine/kernels/reduce_kernels.h), run
// on the host in the device's order: every index counted exactly once, whatever the number of
// blocks, and the sum of squared errors as a double sum gives it. No GPU needed.
#include "engine/kernels/reduce_kernels.h"
#include "engine/random.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace rnnprof {
namespace {

using kernels::Index;

// 1 at every index: the sum counts the indices the threads visited.
struct OneTerm {
    RNNPROF_HD float operator()(Index) const { return 1.0f; }
};

// Each index visited once: the term records its visits.
struct VisitTerm {
    std::vector<int>* visits;
    float operator()(Index i) const {
        ++(*visits)[std::size_t(i)];
        return 0.0f;
    }
};

TEST(ReduceKernels, BlocksCoverTheTermsUpToTheLimit) {
    EXPECT_EQ(kernels::reduceBlocks(0), 1);
    EXPECT_EQ(kernels::reduceBlocks(1), 1);
    EXPECT_EQ(kernels::reduceBlocks(256), 1);
    EXPECT_EQ(kernels::reduceBlocks(257), 2);
    EXPECT_EQ(kernels::reduceBlocks(256 * 1024), 1024);
    EXPECT_EQ(kernels::reduceBlocks(Index(1) << 31), 1024) << "past the limit the threads stride";
    EXPECT_EQ(kernels::kReducePartialsBytes, 1024u * sizeof(float));
}

TEST(ReduceKernels, EveryIndexIsSummedExactlyOnce) {
    for (Index n : {Index(0), Index(1), Index(255), Index(256), Index(257), Index(1000), Index(256 * 1024),
                    Index(256 * 1024 + 3), Index(700'001)}) {
        SCOPED_TRACE("n = " + std::to_string(n));
        EXPECT_EQ(kernels::sumInDeviceOrder<float>(OneTerm{}, n), float(n)); // exact below 2^24
        std::vector<int> visits(std::size_t(n), 0);
        (void)kernels::sumInDeviceOrder<float>(VisitTerm{&visits}, n);
        EXPECT_EQ(std::count(visits.begin(), visits.end(), 1), std::ptrdiff_t(n));
    }
}

TEST(ReduceKernels, SquaredErrorSumMatchesADoubleSum) {
    SplitMix64 rng(11);
    for (Index n : {Index(1), Index(37), Index(4096), Index(300'000)}) {
        std::vector<float> y(static_cast<std::size_t>(n)), target(static_cast<std::size_t>(n));
        double want = 0.0;
        for (std::size_t i = 0; i < y.size(); ++i) {
            y[i] = float(rng.uniform(-2.0, 2.0));
            target[i] = float(rng.uniform(-2.0, 2.0));
            const double d = double(y[i]) - double(target[i]);
            want += d * d;
        }
        const float got =
            kernels::sumInDeviceOrder<float>(kernels::SquaredErrorTerm<float>{y.data(), target.data()}, n);
        EXPECT_NEAR(got, want, 1e-5 * want) << "n = " << n;
    }
}

TEST(ReduceKernels, TheTreeAddsPairsHalfTheWidthApart) {
    std::vector<float> v{1, 2, 3, 4, 5, 6, 7, 8};
    for (Index k = 0; k < 4; ++k)
        kernels::treeStep(v.data(), k, 4);
    EXPECT_EQ(v, (std::vector<float>{6, 8, 10, 12, 5, 6, 7, 8}));
    EXPECT_EQ(kernels::stridedSum<float>(kernels::ValueTerm<float>{v.data()}, 8, 1, 3), 8.0f + 5.0f + 8.0f);
}

} // namespace
} // namespace rnnprof
