#pragma once
// The cpu-reference implementation: plain loops written for clarity, in float or double. It is
// the oracle every other backend is checked against (and is itself checked against PyTorch's
// golden cases and finite differences). Not for speed.
#include "engine/config.h"
#include "engine/params.h"
#include "engine/problem.h"
#include "engine/stop_token.h"
#include "engine/tensor.h"

#include <type_traits>
#include <vector>

namespace rnnprof::reference {

// Everything forward() computed, including what backward() needs.
template <class T>
struct ForwardPass {
    Tensor<T> y;  // [T, B, D*H]
    Tensor<T> hN; // [L*D, B, H]
    Tensor<T> cN; // [L*D, B, H] (LSTM)
    // Per layer: the input the layer read, after dropout between layers ([T, B, in]).
    std::vector<Tensor<T>> layerInputs;
    // Per layer, before dropout: the layer's output ([T, B, D*H]).
    std::vector<Tensor<T>> layerOutputs;
    // Per (layer, direction), index layer*D + dir, each [T, B, ...]:
    std::vector<Tensor<T>> gates; // gate outputs: i,f,g,o or r,z,n
    std::vector<Tensor<T>> cells; // LSTM c_t
    std::vector<Tensor<T>> extra; // GRU: hn (reset_after) or r*hRec (reset_before), [T, B, H]
};

// masks == nullptr (or empty masks): no dropout, as in inference. `stop` (may be nullptr) is
// checked before every time step of every (layer, direction): when set, StopRequested is thrown.
template <class T>
[[nodiscard]] ForwardPass<T> forward(const RnnConfig& config, const ParamSet<T>& params, const Tensor<T>& x,
                                     const Tensor<T>& h0, const Tensor<T>& c0,
                                     std::type_identity_t<const DropoutMasks<T>*> masks,
                                     const StopToken* stop = nullptr);

// Gradients of sum(y * dy) + sum(hN * dhN) + sum(cN * dcN); dhN and dcN may be nullptr (zero).
// `stop` as in forward().
template <class T>
[[nodiscard]] Gradients<T>
backward(const RnnConfig& config, const ParamSet<T>& params, const ForwardPass<T>& fwd, const Tensor<T>& h0,
         const Tensor<T>& c0, std::type_identity_t<const DropoutMasks<T>*> masks, const Tensor<T>& dy,
         std::type_identity_t<const Tensor<T>*> dhN, std::type_identity_t<const Tensor<T>*> dcN,
         const StopToken* stop = nullptr);

// One full iteration of `mode` on makeProblemData() and initParams() of the problem's seed:
// inference = forward; training = forward, MSE loss, backward, SGD step with the problem's
// learning rate. What every backend's numeric check compares with.
template <class T>
struct Iteration {
    Tensor<T> y, hN, cN;
    double loss = 0.0;
    Gradients<T> gradients;
    ParamSet<T> paramsAfter;
};

template <class T>
[[nodiscard]] Iteration<T> runIteration(const Problem& problem);

} // namespace rnnprof::reference
