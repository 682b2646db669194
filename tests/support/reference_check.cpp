#include "support/reference_check.h"

#include "engine/reference/reference_rnn.h"
#include "support/compare.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace rnnprof::test {
namespace {

Tensor<double> paramTensor(const ParamSet<double>& p) {
    Tensor<double> t({std::int64_t(p.values.size())});
    t.data = p.values;
    return t;
}

Tensor<double> asDouble(const Tensor<float>& t) {
    return t.cast<double>();
}

} // namespace

void expectRunMatchesReference(Session& session, const Problem& problem, double tol) {
    NullPhaseHook hook;
    session.run(hook);
    const RunOutputs out = session.outputs();
    const auto ref = reference::runIteration<double>(problem);
    const bool lstm = problem.config.cell == CellType::Lstm;
    EXPECT_TRUE(tensorsClose(asDouble(out.y), ref.y, tol, "output"));
    EXPECT_TRUE(tensorsClose(asDouble(out.hN), ref.hN, tol, "h_n"));
    if (lstm) {
        EXPECT_TRUE(tensorsClose(asDouble(out.cN), ref.cN, tol, "c_n"));
    }
    if (problem.mode != Mode::Training) return;
    ASSERT_TRUE(out.training);
    EXPECT_NEAR(out.loss, ref.loss, tol * std::max(1.0, ref.loss));
    expectParamGradientsClose(out.gradients.dParams, ref.gradients.dParams, tol);
    EXPECT_TRUE(tensorsClose(asDouble(out.gradients.dx), ref.gradients.dx, tol, "grad_input"));
    EXPECT_TRUE(tensorsClose(asDouble(out.gradients.dh0), ref.gradients.dh0, tol, "grad_h0"));
    if (lstm) {
        EXPECT_TRUE(tensorsClose(asDouble(out.gradients.dc0), ref.gradients.dc0, tol, "grad_c0"));
    }
    EXPECT_TRUE(tensorsClose(paramTensor(out.paramsAfter.cast<double>()), paramTensor(ref.paramsAfter), tol,
                             "parameters after SGD"));
}

} // namespace rnnprof::test
