// The element-wise loops both CPU sessions share (engine/cpu/row_loops.h): training's loss and its
// gradient, and the SGD step, on one thread and split over two, against values computed here in long
// double from the definitions (mean of squared differences; 2 (y - t) / n; w - lr g).
#include "engine/cpu/kernel_runner.h"
#include "engine/cpu/row_loops.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

namespace rnnprof {
namespace {

// Deterministic values in [-1, 1) with no pattern the loops could exploit.
std::vector<float> values(std::int64_t n, std::uint32_t seed) {
    std::vector<float> v(static_cast<std::size_t>(n));
    for (float& x : v) {
        seed = seed * 1664525u + 1013904223u;
        x = float(seed >> 8) / float(1u << 23) - 1.0f;
    }
    return v;
}

// Large enough that two threads split it (cpu::kParallelElements), odd so no thread's share is even.
constexpr std::int64_t kElements = 5 * cpu::kParallelElements + 3;

TEST(CpuLoops, TheLossAndItsGradientAreTheDefinitionsOnAnyThreadCount) {
    const std::vector<float> y = values(kElements, 1), target = values(kElements, 2);
    long double sum = 0;
    for (std::int64_t i = 0; i < kElements; ++i) {
        const long double d = (long double)y[std::size_t(i)] - (long double)target[std::size_t(i)];
        sum += d * d;
    }
    const double expectedLoss = double(sum / kElements);
    for (int threads : {1, 2}) {
        SCOPED_TRACE(testing::Message() << threads << " threads");
        std::vector<float> dy(std::size_t(kElements), -7.0f);
        const double loss = cpu::mseAndGradient(y.data(), target.data(), dy.data(), kElements, threads);
        EXPECT_NEAR(loss, expectedLoss, 1e-12 * expectedLoss);
        for (std::int64_t i = 0; i < kElements; i += 997) {
            const double want =
                2.0 * (double(y[std::size_t(i)]) - double(target[std::size_t(i)])) / double(kElements);
            EXPECT_NEAR(dy[std::size_t(i)], want, 1e-6 * std::abs(want) + 1e-12) << "element " << i;
        }
        EXPECT_NE(dy.back(), -7.0f) << "the last element, past every thread's even share";
    }
}

TEST(CpuLoops, AnSgdStepSubtractsTheScaledGradientOnAnyThreadCount) {
    const std::vector<float> w0 = values(kElements, 3), g = values(kElements, 4);
    const float lr = 0.25f;
    for (int threads : {1, 2}) {
        SCOPED_TRACE(testing::Message() << threads << " threads");
        std::vector<float> w = w0;
        cpu::sgdStep(w.data(), g.data(), lr, kElements, threads);
        for (std::int64_t i = 0; i < kElements; ++i)
            ASSERT_FLOAT_EQ(w[std::size_t(i)], w0[std::size_t(i)] - lr * g[std::size_t(i)])
                << "element " << i;
    }
}

} // namespace
} // namespace rnnprof
