#pragma once
// The terms of the GPU cost model (cost_model.h), one function each: what one training or
// inference iteration of a model costs in the units the hardware pays in. Per iteration:
//
//     t = c + lambda * K + Q / BW + W / R + epsilon * E
//
//   K   kernel launches: kernels per recurrent step (kernelsPerStep) * T * layers * directions
//   Q   weight bytes streamed from memory: the recurrent weights G*H*H*4 bytes are read at every
//       step (forward, and again backward through time), the input weights once per layer and
//       pass; 0 for cuDNN's persistent algorithms, which keep the weights on chip
//   W   FLOPs (flops.h's iterationFlops), at a peak rate R
//   E   gate values computed: steps * B * G * H (the element-wise work, memory bound at small H)
//
// Together Q / BW + W / R is a roofline: the achieved GEMM rate W / (Q/BW + W/R) rises with the
// batch B (and H) up to R, halfway at the B where streaming the weights costs as much as the math.
// That is the rate family of the model; nothing else depends on B * H.
#include "engine/config.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace rnnprof {

// The terms in the order of the model's features and coefficients.
enum CostTerm : std::size_t { kFixedTerm, kLaunchTerm, kStreamTerm, kComputeTerm, kElementTerm, kCostTerms };
using CostFeatures = std::array<double, kCostTerms>;

// What a series of points shares: backend as results name it (gpu-cudnn[persist_static] and
// gpu-cudnn[best] are their own), mode, and whether each phase was replayed as a CUDA graph.
struct CostFamily {
    std::string backend;
    Mode mode = Mode::Inference;
    bool cudaGraph = false;
    bool operator==(const CostFamily&) const = default;
};
// "gpu-cudnn train", "gpu-generic infer, CUDA graphs"
[[nodiscard]] std::string toString(const CostFamily& family);

// n: recurrent steps per iteration, layers * directions * T, twice that in training.
[[nodiscard]] double recurrentSteps(const RnnConfig& config, const Shape& shape, Mode mode);
// Kernels launched per time step and layer-direction, as the traced H100 reference counts them
// (CUPTI kernels / T, LSTM 128->256): gpu-cudnn 2.05 inference, 4.5 (B <= 4) and 5.45 (B > 4)
// training; gpu-generic 2.05 / 3.05 inference and 4.45 / 6.45 training (cuBLAS takes GEMV kernels at
// B <= 4, GEMM kernels above). 0 for persistent cuDNN algorithms (one kernel per sequence, in c)
// and for CPU backends.
[[nodiscard]] double kernelsPerStep(std::string_view backend, Mode mode, int batch);
[[nodiscard]] double kernelLaunches(const RnnConfig& config, const Shape& shape, const CostFamily& family);
// Q in bytes.
[[nodiscard]] double streamedWeightBytes(const RnnConfig& config, const Shape& shape,
                                         const CostFamily& family);
// E in gate values.
[[nodiscard]] double gateValues(const RnnConfig& config, const Shape& shape, Mode mode);
// (1, K, Q, W, E).
[[nodiscard]] CostFeatures costFeatures(const RnnConfig& config, const Shape& shape,
                                        const CostFamily& family);

// A GPU's published peaks, the physical limits of the fit: memory bandwidth and the FP32 rate
// (TF32 tensor-core rate where the plan allowed TF32), from the vendor's data sheet.
struct GpuPeaks {
    std::string name;  // as the data sheet names it: "H100 SXM5 80GB"
    double bytesPerMs; // memory bandwidth
    double flopsPerMs; // FP32 (or TF32) peak
};
// The peaks of a GPU by the name CUDA reports ("NVIDIA H100 80GB HBM3"); nullopt for a GPU not in
// the table (the fit then has no upper limits, and says so).
[[nodiscard]] std::optional<GpuPeaks> publishedPeaks(std::string_view cudaName, bool tf32);

} // namespace rnnprof
