#pragma once
// Turns the configuration's run-time activation choice into the compile-time CellActs that the
// gate math and kernels are templated on, so inner loops carry no switch.
#include "engine/config.h"
#include "engine/kernels/gate_math.h"

namespace rnnprof::kernels {

template <class F>
decltype(auto) withCellActs(const RnnConfig& config, F&& f) {
    using gates::Act;
    const bool relu = config.activation == Activation::Relu;
    const bool hard = config.recurrentActivation == RecurrentActivation::HardSigmoid;
    if (relu && hard) return f(gates::CellActs<Act::Relu, Act::HardSigmoid>{});
    if (relu) return f(gates::CellActs<Act::Relu, Act::Sigmoid>{});
    if (hard) return f(gates::CellActs<Act::Tanh, Act::HardSigmoid>{});
    return f(gates::CellActs<Act::Tanh, Act::Sigmoid>{});
}

} // namespace rnnprof::kernels
