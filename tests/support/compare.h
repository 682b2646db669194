#pragma once
// Comparison helpers for tests: element-wise and norm-wise errors between tensors.
#include "engine/params.h"
#include "engine/tensor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace rnnprof::test {

struct Diff {
    double maxAbs = 0.0;
    double maxRef = 0.0;
    // max |a - b| / max |b|: the norm-wise relative error (robust near zero elements).
    [[nodiscard]] double relative() const { return maxRef > 0 ? maxAbs / maxRef : maxAbs; }
};

template <class A, class B>
Diff diff(const std::vector<A>& a, const std::vector<B>& b) {
    Diff d;
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
        d.maxAbs = std::max(d.maxAbs, std::abs(double(a[i]) - double(b[i])));
        d.maxRef = std::max(d.maxRef, std::abs(double(b[i])));
    }
    if (a.size() != b.size()) d.maxAbs = INFINITY;
    return d;
}

template <class A, class B>
::testing::AssertionResult tensorsClose(const Tensor<A>& a, const Tensor<B>& b, double relTol,
                                        const std::string& what) {
    if (a.shape != b.shape)
        return ::testing::AssertionFailure()
               << what << ": shape " << shapeToString(a.shape) << " vs " << shapeToString(b.shape);
    const Diff d = diff(a.data, b.data);
    if (d.relative() <= relTol) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << what << ": relative error " << d.relative() << " > " << relTol
                                         << " (max abs " << d.maxAbs << ", max |ref| " << d.maxRef << ")";
}

// Every parameter's gradient in `got` within relTol (norm-wise, tensorsClose) of `want`'s, one
// expectation per parameter, named "grad_<parameter>".
template <class A, class B>
void expectParamGradientsClose(const ParamSet<A>& got, const ParamSet<B>& want, double relTol) {
    for (const auto& spec : want.layout.specs()) {
        Tensor<double> g(spec.shape()), w(spec.shape());
        std::copy(got.data(spec), got.data(spec) + spec.size(), g.data.begin());
        std::copy(want.data(spec), want.data(spec) + spec.size(), w.data.begin());
        EXPECT_TRUE(tensorsClose(g, w, relTol, "grad_" + spec.name));
    }
}

} // namespace rnnprof::test
