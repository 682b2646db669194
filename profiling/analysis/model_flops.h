#pragma once
// Floating-point operations of a model of several layers (engine/model.h), per layer and in all,
// with the counts of flops.h: a recurrent layer counts as the one-layer RnnConfig it is, computing
// the gradient of its input when a layer with parameters lies below it; a dense layer counts its
// GEMMs 2*M*N*K over its rows (every step's, or one per sequence after a layer that hands on its
// last step only), one add per output for the bias and one FLOP per output for a non-linear
// activation, forward and backward; dropout counts nothing (masks are not counted). Training adds
// the MSE loss over the model's output once and the SGD step over every parameter. The homogeneous
// stack counts exactly iterationFlops() of its RnnConfig.
#include "engine/config.h"
#include "engine/model.h"

#include <cstdint>
#include <vector>

namespace rnnprof {

// One iteration's FLOPs of layer `index`, the loss excluded. The model must be valid.
[[nodiscard]] std::uint64_t layerFlops(const ModelSpec& model, int index, const Shape& shape, Mode mode);
// Every layer's, in order.
[[nodiscard]] std::vector<std::uint64_t> layerFlopsList(const ModelSpec& model, const Shape& shape,
                                                        Mode mode);
// The sum of the layers' and, in training, the loss over the model's output.
[[nodiscard]] std::uint64_t modelFlops(const ModelSpec& model, const Shape& shape, Mode mode);

} // namespace rnnprof
