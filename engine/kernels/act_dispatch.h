#pragma once
// Turns the configuration's run-time activation choice into the compile-time CellActs that the
// gate math and kernels are templated on, so inner loops carry no switch.
#include "engine/config.h"
#include "engine/kernels/gate_math.h"

namespace rnnprof::kernels {

// The run-time parameters of the configuration's activations: ReLU is a leaky ReLU of slope 0,
// and both hard sigmoids are one kind with their own slope.
inline gates::ActParams actParams(const RnnConfig& config) {
    gates::ActParams p;
    if (config.activation == Activation::LeakyRelu) p.leak = config.negativeSlope;
    if (config.recurrentActivation != RecurrentActivation::Sigmoid)
        p.hardScale = hardSigmoidSlope(config.recurrentActivation);
    return p;
}

template <class F>
decltype(auto) withCellActs(const RnnConfig& config, F&& f) {
    using gates::Act;
    const bool relu = config.activation != Activation::Tanh;
    const bool hard = config.recurrentActivation != RecurrentActivation::Sigmoid;
    const gates::ActParams params = actParams(config);
    if (relu && hard) return f(gates::CellActs<Act::Relu, Act::HardSigmoid>{params});
    if (relu) return f(gates::CellActs<Act::Relu, Act::Sigmoid>{params});
    if (hard) return f(gates::CellActs<Act::Tanh, Act::HardSigmoid>{params});
    return f(gates::CellActs<Act::Tanh, Act::Sigmoid>{params});
}

} // namespace rnnprof::kernels
