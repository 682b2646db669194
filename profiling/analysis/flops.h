#pragma once
// Exact floating-point operation counts of one iteration and the figures derived from a measured
// time. One function per formula; the docs/measurement.md ("FLOP counts") writes the same formulas out.
// Counted: every GEMM as 2*M*N*K, and the element-wise work of the cells, the loss and the SGD
// step with the fixed per-element counts below (one add, multiply or activation = one FLOP).
// Not counted: dropout masks, copies, the accumulation of both directions' input gradients.
// The counts are the same for every backend, so GFLOP/s compares backends fairly; they are not a
// model of what a particular backend executes.
#include "engine/config.h"

#include <cstdint>

namespace rnnprof {
namespace flops {

// Per (time step, batch row, hidden unit) of one (layer, direction).
inline constexpr std::uint64_t kLstmForwardPerUnit = 13; // 4 proj. sums, 5 activations, c: 3, h: 1
inline constexpr std::uint64_t kGruForwardPerUnit = 11;  // 2 proj. sums, r*hn + sum: 2, 3 act., h: 4
// Both biases added to every gate's pre-activation: 2 adds per gate.
inline constexpr std::uint64_t kBiasAddsPerGate = 2;
inline constexpr std::uint64_t kLstmBackwardPerUnit = 24; // dh sum 1, tanh(c) 1, dc 5, 4 gates x 4, dc_prev 1
inline constexpr std::uint64_t kGruBackwardPerUnit = 18;  // dh sum 1, dn 5, dz 5, dr 4, r*dn 1, z*dh 1, sum 1
// Bias gradients: both biases accumulate every gate's gradient: 2 adds per gate.
inline constexpr std::uint64_t kBiasGradAddsPerGate = 2;
// MSE loss and its gradient per output element: difference, square, sum, scale.
inline constexpr std::uint64_t kLossPerOutput = 4;
// Plain SGD per parameter: scale by the learning rate, subtract.
inline constexpr std::uint64_t kSgdPerParameter = 2;

} // namespace flops

// 2*M*N*K, saturating at UINT64_MAX instead of wrapping around.
[[nodiscard]] std::uint64_t gemmFlops(std::uint64_t m, std::uint64_t n, std::uint64_t k);

// Inference (and the forward part of training): per layer and direction, the input projection
// 2*T*B*G*H*in, the recurrence 2*T*B*G*H*H and the cell's element-wise work T*B*H*(E_fwd + bias).
// Throws Error(InvalidConfig) when (config, shape) is invalid.
[[nodiscard]] std::uint64_t forwardFlops(const RnnConfig& config, const Shape& shape);

// Backward through time only: per layer and direction dW_ih, dW_hh, the gradient through W_hh,
// the gradient of the layer input (above layer 0, or for layer 0 when `inputGradients`), and the
// element-wise work T*B*H*(E_bwd + bias gradients).
[[nodiscard]] std::uint64_t backwardFlops(const RnnConfig& config, const Shape& shape, bool inputGradients);

// The MSE loss and its gradient over the T*B*D*H outputs.
[[nodiscard]] std::uint64_t lossFlops(const RnnConfig& config, const Shape& shape);

// The SGD step over every parameter (biases included when on).
[[nodiscard]] std::uint64_t updateFlops(const RnnConfig& config);

// One training iteration: forward + loss + backward + update.
[[nodiscard]] std::uint64_t trainingFlops(const RnnConfig& config, const Shape& shape, bool inputGradients);

// forwardFlops for inference, trainingFlops (without input gradients, as sweeps run) for training.
[[nodiscard]] std::uint64_t iterationFlops(const RnnConfig& config, const Shape& shape, Mode mode);

// Derived figures from the time of one iteration in milliseconds; 0 when the time is not a
// positive finite number (nothing was measured).
[[nodiscard]] double sequencesPerSecond(const Shape& shape, double ms); // B per iteration
[[nodiscard]] double tokensPerSecond(const Shape& shape, double ms);    // B*T per iteration
[[nodiscard]] double achievedGflops(std::uint64_t flops, double ms);    // flops / (ms * 1e6)

} // namespace rnnprof
