// cpu-reference against PyTorch's golden cases: outputs, final states, every gradient and the
// parameters after one SGD step, in double and in float.
#include "engine/reference/reference_rnn.h"
#include "support/compare.h"
#include "support/pytorch_fixture.h"

#include <gtest/gtest.h>

namespace rnnprof {
namespace {

using test::tensorsClose;

class ReferenceMatchesPytorch : public ::testing::TestWithParam<std::string> {};

template <class T>
void checkCase(const test::PytorchCase& pc, double tol) {
    const auto params = pc.params.cast<T>();
    const auto x = pc.x.cast<T>();
    const auto h0 = pc.h0.cast<T>();
    const auto c0 = pc.c0.cast<T>();
    const auto fwd = reference::forward(pc.config, params, x, h0, c0, nullptr);
    EXPECT_TRUE(tensorsClose(fwd.y, pc.output, tol, "output"));
    EXPECT_TRUE(tensorsClose(fwd.hN, pc.hN, tol, "h_n"));
    if (pc.config.cell == CellType::Lstm) {
        EXPECT_TRUE(tensorsClose(fwd.cN, pc.cN, tol, "c_n"));
    }

    const auto dy = pc.dy.cast<T>();
    const auto dhN = pc.dhN.cast<T>();
    const auto dcN = pc.dcN.cast<T>();
    const auto grads = reference::backward(pc.config, params, fwd, h0, c0, nullptr, dy, &dhN,
                                           pc.config.cell == CellType::Lstm ? &dcN : nullptr);
    EXPECT_TRUE(tensorsClose(grads.dx, pc.gradInput, tol, "grad_input"));
    EXPECT_TRUE(tensorsClose(grads.dh0, pc.gradH0, tol, "grad_h0"));
    if (pc.config.cell == CellType::Lstm) {
        EXPECT_TRUE(tensorsClose(grads.dc0, pc.gradC0, tol, "grad_c0"));
    }
    for (const auto& spec : params.layout.specs()) {
        Tensor<T> got(spec.shape());
        Tensor<double> want(spec.shape());
        std::copy(grads.dParams.data(spec), grads.dParams.data(spec) + spec.size(), got.data.begin());
        std::copy(pc.gradParams.data(spec), pc.gradParams.data(spec) + spec.size(), want.data.begin());
        EXPECT_TRUE(tensorsClose(got, want, tol, "grad_" + spec.name));
    }
}

TEST_P(ReferenceMatchesPytorch, InDouble) {
    checkCase<double>(test::loadPytorchCase(GetParam()), 1e-10);
}

TEST_P(ReferenceMatchesPytorch, InFloat) {
    checkCase<float>(test::loadPytorchCase(GetParam()), 2e-6);
}

TEST_P(ReferenceMatchesPytorch, OneSgdStepOnMseLossMatches) {
    const auto pc = test::loadPytorchCase(GetParam());
    const auto fwd = reference::forward(pc.config, pc.params, pc.x, pc.h0, pc.c0, nullptr);
    Tensor<double> dy;
    const double loss = mseLoss(fwd.y, pc.target, &dy);
    EXPECT_NEAR(loss, pc.lossBeforeStep, 1e-12);
    const auto grads =
        reference::backward<double>(pc.config, pc.params, fwd, pc.h0, pc.c0, nullptr, dy, nullptr, nullptr);
    ParamSet<double> after = pc.params;
    for (std::size_t i = 0; i < after.values.size(); ++i)
        after.values[i] -= 0.1 * grads.dParams.values[i];
    Tensor<double> got({std::int64_t(after.values.size())}), want({std::int64_t(after.values.size())});
    got.data = after.values;
    want.data = pc.paramsAfterSgd.values;
    EXPECT_TRUE(tensorsClose(got, want, 1e-12, "parameters after SGD"));
}

INSTANTIATE_TEST_SUITE_P(PytorchCases, ReferenceMatchesPytorch, ::testing::ValuesIn(test::pytorchCaseNames()),
                         [](const auto& info) { return info.param; });

} // namespace
} // namespace rnnprof
