// The float reference (polynomial exp/tanh, float accumulation) against the double one (libm) on
// random problems covering every cell option, both modes, batch 1..33 and sequences up to 40:
// outputs, states, loss, every gradient and the parameters after the SGD step agree to float
// accuracy (norm-wise relative error per tensor).
#include "engine/reference/reference_rnn.h"
#include "support/compare.h"
#include "support/random_problems.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace rnnprof {
namespace {

using test::tensorsClose;

// Float rounding compounds over up to 40 steps and 3 layers: the worst error seen on these
// problems is about 1.2e-6; 1e-5 leaves a margin and still fails on any real formula difference.
constexpr double kTolerance = 1e-5;

Tensor<double> paramTensor(const ParamSet<double>& p) {
    Tensor<double> t({std::int64_t(p.values.size())});
    t.data = p.values;
    return t;
}

TEST(ReferenceFloatVsDouble, AgreeOnRandomProblems) {
    for (const Problem& problem : test::randomProblems({.count = 40, .seed = 99})) {
        SCOPED_TRACE(test::describeProblem(problem));
        const auto f = reference::runIteration<float>(problem);
        const auto d = reference::runIteration<double>(problem);
        EXPECT_TRUE(tensorsClose(f.y, d.y, kTolerance, "output"));
        EXPECT_TRUE(tensorsClose(f.hN, d.hN, kTolerance, "h_n"));
        if (problem.config.cell == CellType::Lstm) {
            EXPECT_TRUE(tensorsClose(f.cN, d.cN, kTolerance, "c_n"));
        }
        if (problem.mode != Mode::Training) continue;
        EXPECT_NEAR(f.loss, d.loss, kTolerance * std::max(1.0, d.loss));
        EXPECT_TRUE(tensorsClose(f.gradients.dx, d.gradients.dx, kTolerance, "grad_input"));
        EXPECT_TRUE(tensorsClose(f.gradients.dh0, d.gradients.dh0, kTolerance, "grad_h0"));
        if (problem.config.cell == CellType::Lstm) {
            EXPECT_TRUE(tensorsClose(f.gradients.dc0, d.gradients.dc0, kTolerance, "grad_c0"));
        }
        for (const auto& spec : d.gradients.dParams.layout.specs()) {
            Tensor<float> got(spec.shape());
            Tensor<double> want(spec.shape());
            std::copy(f.gradients.dParams.data(spec), f.gradients.dParams.data(spec) + spec.size(),
                      got.data.begin());
            std::copy(d.gradients.dParams.data(spec), d.gradients.dParams.data(spec) + spec.size(),
                      want.data.begin());
            EXPECT_TRUE(tensorsClose(got, want, kTolerance, "grad_" + spec.name));
        }
        EXPECT_TRUE(tensorsClose(paramTensor(f.paramsAfter.cast<double>()), paramTensor(d.paramsAfter),
                                 kTolerance, "parameters after SGD"));
    }
}

TEST(ReferenceFloatVsDouble, FloatIsNotComputedInDouble) {
    // Guards the test above: if the float path secretly ran in double and rounded at the end, its
    // outputs would all be the rounded double ones and the comparison would prove nothing.
    Problem p;
    p.config.inputSize = 7;
    p.config.hiddenSize = 9;
    p.shape = {4, 6};
    const auto f = reference::runIteration<float>(p);
    const auto d = reference::runIteration<double>(p);
    bool anyDifferent = false;
    for (std::size_t i = 0; i < f.y.data.size(); ++i)
        anyDifferent = anyDifferent || f.y.data[i] != float(d.y.data[i]);
    EXPECT_TRUE(anyDifferent);
}

} // namespace
} // namespace rnnprof
