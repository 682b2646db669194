#pragma once
// The layers of a model that are not recurrent, as sessions on the host: a dense layer
// (y = act(x W^T + b) over its rows, GEMMs through the configured SGEMM provider) and a dropout
// layer (y = x * mask in training; nothing at all in inference, as frameworks skip it). They mark
// the same phases as the recurrent sessions, so a model's iteration reads as one.
// Weights of a dense layer are seeded as PyTorch's nn.Linear draws them: uniform in
// [-1/sqrt(in), 1/sqrt(in)].
#include "engine/backend.h"
#include "engine/model.h"

#include <optional>

namespace rnnprof {

struct HostStageSetup {
    LayerSpec layer;
    int inputWidth = 0;
    std::int64_t rows = 0; // T*B, or B after a layer that kept its last step only
    Mode mode = Mode::Inference;
    BackendOptions options;
    std::uint64_t seed = 0;
    bool last = false;                  // training: the MSE loss starts backward here
    bool inputGradients = false;        // training: the gradient of x is needed below
    std::optional<Tensor<float>> input; // [rows, inputWidth]; empty: seeded
};

// A dense layer's parameters [units * in + units], seeded; w rows are outputs.
struct DenseParams {
    Tensor<float> weight; // [units, in]
    Tensor<float> bias;   // [units], zeros without bias
};
[[nodiscard]] DenseParams seededDenseParams(const LayerSpec& layer, int inputWidth, std::uint64_t seed);

// y = act(z) per row, and d loss / d z from y and d loss / d y (softmax over each row).
void denseActivate(DenseActivation act, std::int64_t rows, std::int64_t width, float* z);
void denseActivationGrad(DenseActivation act, std::int64_t rows, std::int64_t width, const float* y,
                         const float* dy, float* dz);

// Bytes a host stage allocates, by category.
[[nodiscard]] MemoryFootprint hostStageFootprint(const HostStageSetup& setup);
// The stage's session; the layer must be dense or dropout.
[[nodiscard]] std::unique_ptr<Session> makeHostStage(HostStageSetup setup);

} // namespace rnnprof
