#pragma once
// Given gradients of y, h_n and c_n for a training problem (what a layer above would pass down),
// in place of the MSE loss's: fixed small patterns, so that a run is checked against the reference
// on gradients that are not the loss's.
#include "engine/problem.h"

#include <memory>

namespace rnnprof::test {

inline void setGradientOverrides(Problem& p) {
    const auto data = makeProblemData<float>(p.config, p.shape, p.mode);
    Tensor<float> dy(data.target.shape), dhN(data.h0.shape), dcN(data.h0.shape);
    for (std::size_t i = 0; i < dy.data.size(); ++i)
        dy.data[i] = float(int(i % 7) - 3) * 0.1f;
    for (std::size_t i = 0; i < dhN.data.size(); ++i)
        dhN.data[i] = float(int(i % 5) - 2) * 0.2f;
    for (std::size_t i = 0; i < dcN.data.size(); ++i)
        dcN.data[i] = float(int(i % 3) - 1) * 0.3f;
    p.overrides.outputGrad = std::make_shared<Tensor<float>>(dy);
    p.overrides.hNGrad = std::make_shared<Tensor<float>>(dhN);
    if (p.config.cell == CellType::Lstm) p.overrides.cNGrad = std::make_shared<Tensor<float>>(dcN);
}

} // namespace rnnprof::test
