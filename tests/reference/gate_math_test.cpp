// The per-element gate math shared by the CPU loops and the CUDA kernels: the float polynomial
// exp/tanh/sigmoid against libm (in double) over [-90, 90], derivatives written in terms of the
// activation's output against finite differences, and the edges of relu and hard_sigmoid.
#include "engine/kernels/gate_math.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rnnprof {
namespace {

using gates::Act;
using gates::activate;
using gates::derivativeFromOutput;

// float's machine epsilon is 2^-23 ~ 1.19e-7; the bounds are a few ulp.
constexpr double kExpRelBound = 2e-7;     // worst seen ~0.7 ulp
constexpr double kTanhRelBound = 5e-7;    // worst seen 2.7e-7 with FMA, 3.3e-7 without (near |x| = 7.9 and 6)
constexpr double kSigmoidRelBound = 3e-7; // worst seen ~1.2 ulp

// Every float in [lo, hi] at a fixed step, plus the ends.
template <class F>
void forEachSample(float lo, float hi, F&& f) {
    const double step = 1e-4;
    for (double x = lo; x < hi; x += step)
        f(float(x));
    f(hi);
}

double relativeError(double got, double want) {
    return std::abs(got - want) / std::abs(want);
}

TEST(GateMath, ExpApproxIsWithinTwoUlpOfLibmWhereFloatIsNormal) {
    double worst = 0;
    forEachSample(-87.0f, 88.0f, [&](float x) {
        worst = std::max(worst, relativeError(gates::expApprox(x), std::exp(double(x))));
    });
    EXPECT_LE(worst, kExpRelBound);
}

TEST(GateMath, ExpApproxIsExactAtZeroAndFiniteAtTheEndsOfItsRange) {
    // 2^n comes from the bits of the rounded x / ln2: at the ends, n = -126 and 127.
    EXPECT_EQ(gates::expApprox(0.0f), 1.0f);
    EXPECT_GT(gates::expApprox(-87.0f), 1e-38f);
    EXPECT_TRUE(std::isfinite(gates::expApprox(88.0f)));
    EXPECT_NEAR(gates::expApprox(88.0f), std::exp(88.0), 2e-7 * std::exp(88.0));
    EXPECT_NEAR(gates::expApprox(-87.0f), std::exp(-87.0), 2e-7 * std::exp(-87.0));
}

TEST(GateMath, TanhApproxIsWithinAFewUlpOfLibmOverTheWholeRange) {
    double worst = 0;
    forEachSample(-90.0f, 90.0f, [&](float x) {
        const double want = std::tanh(double(x));
        if (want != 0) worst = std::max(worst, relativeError(gates::tanhApprox(x), want));
    });
    EXPECT_LE(worst, kTanhRelBound);
    EXPECT_EQ(gates::tanhApprox(0.0f), 0.0f);
}

TEST(GateMath, TanhApproxIsAccurateForTinyArguments) {
    // Where a formula in e^(-2x) would cancel (1 - e^(-2x)), relative accuracy must still hold.
    for (float x = 1e-30f; x < 0.1f; x *= 1.01f)
        ASSERT_LE(relativeError(gates::tanhApprox(x), std::tanh(double(x))), kTanhRelBound) << "x = " << x;
}

TEST(GateMath, TanhApproxIsOddAndSaturatesAtOne) {
    forEachSample(0.0f, 90.0f,
                  [&](float x) { ASSERT_EQ(gates::tanhApprox(-x), -gates::tanhApprox(x)) << x; });
    EXPECT_EQ(gates::tanhApprox(90.0f), 1.0f);
    EXPECT_EQ(gates::tanhApprox(-90.0f), -1.0f);
}

TEST(GateMath, SigmoidApproxIsWithinAFewUlpOfLibm) {
    double worstRel = 0, worstAbs = 0;
    forEachSample(-90.0f, 90.0f, [&](float x) {
        const double want = 1.0 / (1.0 + std::exp(-double(x)));
        const double got = gates::sigmoidApprox(x);
        worstAbs = std::max(worstAbs, std::abs(got - want));
        // Below -80 the argument is clamped: sigmoid(-80) ~ 1.8e-35 stands for anything smaller.
        if (x >= -80.0f) worstRel = std::max(worstRel, relativeError(got, want));
    });
    EXPECT_LE(worstRel, kSigmoidRelBound);
    EXPECT_LE(worstAbs, 2e-7);
    EXPECT_LE(gates::sigmoidApprox(-90.0f), 2e-35f);
    EXPECT_EQ(gates::sigmoidApprox(90.0f), 1.0f);
    EXPECT_NEAR(gates::sigmoidApprox(0.0f), 0.5f, 1e-7f);
}

// d activate(x)/dx from the output y against a central difference, in double, away from kinks.
template <Act A>
void expectDerivativeMatchesFiniteDifference(double lo, double hi, const gates::ActParams& p = {}) {
    const double h = 1e-6;
    for (double x = lo; x <= hi; x += 0.01) {
        const double y = activate<A>(x, p);
        const double numeric = (activate<A>(x + h, p) - activate<A>(x - h, p)) / (2 * h);
        ASSERT_NEAR(derivativeFromOutput<A>(y, p), numeric, 1e-8) << "x = " << x;
    }
}

TEST(GateMath, TanhDerivativeFromOutputMatchesFiniteDifferences) {
    expectDerivativeMatchesFiniteDifference<Act::Tanh>(-8.005, 8.005);
}

TEST(GateMath, SigmoidDerivativeFromOutputMatchesFiniteDifferences) {
    expectDerivativeMatchesFiniteDifference<Act::Sigmoid>(-12.005, 12.005);
}

TEST(GateMath, ReluDerivativeFromOutputMatchesFiniteDifferencesAwayFromZero) {
    expectDerivativeMatchesFiniteDifference<Act::Relu>(-3.005, -0.005);
    expectDerivativeMatchesFiniteDifference<Act::Relu>(0.005, 3.005);
}

TEST(GateMath, LeakyReluDerivativeFromOutputMatchesFiniteDifferencesAwayFromZero) {
    const gates::ActParams leaky{.leak = 0.05};
    expectDerivativeMatchesFiniteDifference<Act::Relu>(-3.005, -0.005, leaky);
    expectDerivativeMatchesFiniteDifference<Act::Relu>(0.005, 3.005, leaky);
}

TEST(GateMath, Keras3HardSigmoidDerivativeFromOutputMatchesFiniteDifferencesAwayFromTheCorners) {
    const gates::ActParams keras3{.hardScale = 1.0 / 6.0}; // corners at -3 and 3
    expectDerivativeMatchesFiniteDifference<Act::HardSigmoid>(-5.005, -3.005, keras3);
    expectDerivativeMatchesFiniteDifference<Act::HardSigmoid>(-2.995, 2.995, keras3);
    expectDerivativeMatchesFiniteDifference<Act::HardSigmoid>(3.005, 5.005, keras3);
}

TEST(GateMath, HardSigmoidDerivativeFromOutputMatchesFiniteDifferencesAwayFromTheCorners) {
    expectDerivativeMatchesFiniteDifference<Act::HardSigmoid>(-5.005, -2.505);
    expectDerivativeMatchesFiniteDifference<Act::HardSigmoid>(-2.495, 2.495);
    expectDerivativeMatchesFiniteDifference<Act::HardSigmoid>(2.505, 5.005);
}

TEST(GateMath, FloatDerivativesFromOutputMatchTheDoubleOnes) {
    for (double x = -6.0; x <= 6.0; x += 0.125) {
        const float xf = float(x);
        EXPECT_NEAR(derivativeFromOutput<Act::Tanh>(activate<Act::Tanh>(xf)),
                    derivativeFromOutput<Act::Tanh>(activate<Act::Tanh>(x)), 1e-6)
            << x;
        EXPECT_NEAR(derivativeFromOutput<Act::Sigmoid>(activate<Act::Sigmoid>(xf)),
                    derivativeFromOutput<Act::Sigmoid>(activate<Act::Sigmoid>(x)), 1e-6)
            << x;
    }
}

TEST(GateMath, HardSigmoidIsKerasClipOfPointTwoXPlusHalf) {
    EXPECT_EQ(activate<Act::HardSigmoid>(0.0), 0.5);
    EXPECT_DOUBLE_EQ(activate<Act::HardSigmoid>(1.0), 0.7);
    EXPECT_DOUBLE_EQ(activate<Act::HardSigmoid>(-1.0), 0.3);
    EXPECT_EQ(activate<Act::HardSigmoid>(-2.5), 0.0);
    EXPECT_EQ(activate<Act::HardSigmoid>(2.5), 1.0);
    EXPECT_EQ(activate<Act::HardSigmoid>(-3.0), 0.0);
    EXPECT_EQ(activate<Act::HardSigmoid>(3.0), 1.0);
    EXPECT_EQ(activate<Act::HardSigmoid>(-1e30), 0.0);
    EXPECT_EQ(activate<Act::HardSigmoid>(1e30), 1.0);
    EXPECT_EQ(activate<Act::HardSigmoid>(2.0f), 0.9f);
}

TEST(GateMath, HardSigmoidDerivativeIsPointTwoInsideAndZeroWhenSaturated) {
    EXPECT_DOUBLE_EQ(derivativeFromOutput<Act::HardSigmoid>(0.5), 0.2);
    EXPECT_DOUBLE_EQ(derivativeFromOutput<Act::HardSigmoid>(1e-9), 0.2);
    EXPECT_DOUBLE_EQ(derivativeFromOutput<Act::HardSigmoid>(1 - 1e-9), 0.2);
    // At and beyond the corners the output is exactly 0 or 1: the gate is saturated.
    EXPECT_EQ(derivativeFromOutput<Act::HardSigmoid>(0.0), 0.0);
    EXPECT_EQ(derivativeFromOutput<Act::HardSigmoid>(1.0), 0.0);
    EXPECT_EQ(derivativeFromOutput<Act::HardSigmoid>(activate<Act::HardSigmoid>(-2.5)), 0.0);
    EXPECT_EQ(derivativeFromOutput<Act::HardSigmoid>(activate<Act::HardSigmoid>(7.0)), 0.0);
}

TEST(GateMath, ReluPassesPositivesAndZeroesTheRestWithDerivativeZeroAtZero) {
    EXPECT_EQ(activate<Act::Relu>(2.5), 2.5);
    EXPECT_EQ(activate<Act::Relu>(-2.5), 0.0);
    EXPECT_EQ(activate<Act::Relu>(0.0), 0.0);
    EXPECT_EQ(activate<Act::Relu>(-0.0f), 0.0f);
    EXPECT_EQ(activate<Act::Relu>(std::numeric_limits<float>::denorm_min()),
              std::numeric_limits<float>::denorm_min());
    EXPECT_EQ(derivativeFromOutput<Act::Relu>(0.0), 0.0); // the subgradient PyTorch uses at 0
    EXPECT_EQ(derivativeFromOutput<Act::Relu>(1e-300), 1.0);
    EXPECT_EQ(derivativeFromOutput<Act::Relu>(3.0f), 1.0f);
}

// Keras 3's hard_sigmoid is relu6(x + 3) / 6 (keras/src/activations/activations.py), Keras 2's
// clip(0.2 x + 0.5, 0, 1); they agree at 0 only.
TEST(GateMath, Keras3HardSigmoidIsRelu6OfXPlus3Over6) {
    const gates::ActParams keras3{.hardScale = 1.0 / 6.0};
    for (double x : {-4.0, -3.0, -1.5, 0.0, 0.6, 2.0, 3.0, 10.0})
        EXPECT_NEAR(activate<Act::HardSigmoid>(x, keras3), std::clamp(x + 3.0, 0.0, 6.0) / 6.0, 1e-15) << x;
    EXPECT_NE(activate<Act::HardSigmoid>(1.0, keras3), activate<Act::HardSigmoid>(1.0));
}

// PyTorch's LeakyReLU: max(0, x) + negative_slope * min(0, x).
TEST(GateMath, LeakyReluScalesNegativesBySlopeAndKeepsPositives) {
    const gates::ActParams leaky{.leak = 0.05};
    EXPECT_EQ(activate<Act::Relu>(2.5, leaky), 2.5);
    EXPECT_DOUBLE_EQ(activate<Act::Relu>(-2.0, leaky), -0.1);
    EXPECT_EQ(activate<Act::Relu>(0.0, leaky), 0.0);
    EXPECT_EQ(activate<Act::Relu>(-2.0f, gates::ActParams{.leak = 0.3}), -0.6f);
    EXPECT_EQ(derivativeFromOutput<Act::Relu>(-0.1, leaky), 0.05);
    EXPECT_EQ(derivativeFromOutput<Act::Relu>(0.0, leaky), 0.05); // the subgradient PyTorch uses at 0
    EXPECT_EQ(derivativeFromOutput<Act::Relu>(1e-300, leaky), 1.0);
}

TEST(GateMath, LstmCellWithLeakyReluUsesTheSlopeForCandidateAndOutput) {
    const gates::CellActs<Act::Relu, Act::Sigmoid> acts{{.leak = 0.1}};
    const auto s = gates::lstmForward(acts, 0.3, -0.2, -0.5, 1.1, -0.4);
    auto sig = [](double x) { return 1 / (1 + std::exp(-x)); };
    EXPECT_DOUBLE_EQ(s.g, -0.05);
    EXPECT_DOUBLE_EQ(s.c, sig(-0.2) * -0.4 + sig(0.3) * -0.05);
    EXPECT_DOUBLE_EQ(s.h, sig(1.1) * 0.1 * s.c);
}

TEST(GateMath, LstmCellUpdateFollowsItsFormula) {
    const gates::CellActs<Act::Tanh, Act::Sigmoid> acts;
    const auto s = gates::lstmForward(acts, 0.3, -0.2, 0.5, 1.1, 0.4);
    auto sig = [](double x) { return 1 / (1 + std::exp(-x)); };
    EXPECT_DOUBLE_EQ(s.i, sig(0.3));
    EXPECT_DOUBLE_EQ(s.f, sig(-0.2));
    EXPECT_DOUBLE_EQ(s.g, std::tanh(0.5));
    EXPECT_DOUBLE_EQ(s.o, sig(1.1));
    EXPECT_DOUBLE_EQ(s.c, sig(-0.2) * 0.4 + sig(0.3) * std::tanh(0.5));
    EXPECT_DOUBLE_EQ(s.h, sig(1.1) * std::tanh(s.c));
}

TEST(GateMath, GruOutputInterpolatesBetweenCandidateAndPreviousState) {
    EXPECT_EQ(gates::gruOutput(0.0, 0.7, -0.4), 0.7);
    EXPECT_EQ(gates::gruOutput(1.0, 0.7, -0.4), -0.4);
    EXPECT_DOUBLE_EQ(gates::gruOutput(0.25, 0.8, 0.4), 0.75 * 0.8 + 0.25 * 0.4);
}

} // namespace
} // namespace rnnprof
