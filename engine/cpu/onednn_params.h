#pragma once
// Conversions between the canonical (PyTorch) parameter layout and oneDNN's RNN layouts, one layer and
// direction at a time. oneDNN's gates: LSTM i,f,g,o (the canonical order); GRU u,r,o, i.e. canonical z,r,n.
// Its bias has one vector per gate, so a gate's b_ih + b_hh becomes one vector; the linear-before-reset GRU
// (reset_after=true) keeps a fourth vector b_hn inside r*(...) and puts only b_in in the candidate's own
// vector. Pure functions on plain float arrays, used by the cpu-onednn session; not a general oneDNN adapter.
#include "engine/config.h"

#include <array>

namespace rnnprof::cpu {

// Gate g of oneDNN holds canonical gate order[g] (G entries used).
[[nodiscard]] std::array<int, 4> oneDnnGateOrder(CellType cell);
// Vectors in oneDNN's bias per direction: LSTM 4, GRU reset_after 4 (linear-before-reset), else 3.
[[nodiscard]] int oneDnnBiasGates(const RnnConfig& config);

// Canonical [G*H, cols] (one direction of weight_ih or weight_hh) to oneDNN's plain ldgoi block of
// that direction, [G][H][cols] with the gates in oneDNN's order; and back.
void weightsToOneDnn(CellType cell, int hidden, int cols, const float* canonical, float* ldgoi);
void weightsFromOneDnn(CellType cell, int hidden, int cols, const float* ldgoi, float* canonical);

// One direction: canonical bias_ih and bias_hh ([G*H] each; nullptr = no bias, zeros) to oneDNN's
// bias block [biasGates][H].
void biasToOneDnn(const RnnConfig& config, const float* biasIh, const float* biasHh, float* ldgo);
// One direction: the gradient of oneDNN's bias block to the canonical gradients. A summed vector's
// gradient goes to both b_ih and b_hh, since d(b_ih + b_hh)/d b_ih = d(...)/d b_hh = 1.
void biasGradientFromOneDnn(const RnnConfig& config, const float* ldgoDiff, float* dBiasIh, float* dBiasHh);
// One direction: the SGD step b -= lr * db on the canonical biases from oneDNN's bias gradient
// (without materialising the canonical gradients).
void sgdBiasFromOneDnn(const RnnConfig& config, const float* ldgoDiff, float learningRate, float* biasIh,
                       float* biasHh);

} // namespace rnnprof::cpu
