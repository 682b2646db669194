#pragma once
// Loads a golden case of tests/data/pytorch (computed by PyTorch in float64).
#include "engine/config.h"
#include "engine/params.h"
#include "engine/tensor.h"

#include <string>
#include <vector>

namespace rnnprof::test {

struct PytorchCase {
    std::string name;
    std::string dir;
    RnnConfig config;
    Shape shape;
    double lossBeforeStep = 0.0;
    ParamSet<double> params;
    Tensor<double> x, h0, c0, output, hN, cN, dy, dhN, dcN, target;
    Tensor<double> gradInput, gradH0, gradC0;
    ParamSet<double> gradParams;
    ParamSet<double> paramsAfterSgd; // lr = 0.1 on mean((output - target)^2)
};

std::string testDataDir();
std::vector<std::string> pytorchCaseNames();
PytorchCase loadPytorchCase(const std::string& name);

} // namespace rnnprof::test
