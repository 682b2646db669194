#pragma once
// What one backend run computes and with which data. Every backend builds its inputs, initial
// states, training target, dropout masks and weights from makeProblemData()/initParams() with the
// same seed, so all backends compute the same function and can be checked against each other.
#include "engine/config.h"
#include "engine/enum_names.h"
#include "engine/params.h"
#include "engine/tensor.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

namespace rnnprof {

enum class GemmProvider { OneDnn, OpenBlas };
// Its spellings in config files and flags (see engine/enum_names.h).
inline constexpr Spellings<GemmProvider, 2> kGemmSpellings{
    {{GemmProvider::OneDnn, "onednn"}, {GemmProvider::OpenBlas, "openblas"}}};
[[nodiscard]] inline std::string_view toString(GemmProvider g) {
    return spellingOf(kGemmSpellings, g);
}
[[nodiscard]] inline std::optional<GemmProvider> parseGemm(std::string_view s) {
    return parseSpelling(kGemmSpellings, s);
}

// gpu-cudnn's RNN algorithm (cudnnRNNAlgo_t): STANDARD (GEMMs and element-wise kernels per
// step), or a persistent kernel that keeps W_hh on chip across steps. Which shapes a persistent
// algorithm supports depends on the GPU and the cuDNN version: only cuDNN's own answer at prepare()
// tells, and a refusal makes the point ineligible with cuDNN's status.
enum class CudnnAlgo { Standard, PersistStatic, PersistDynamic, PersistStaticSmallH };
inline constexpr Spellings<CudnnAlgo, 4> kCudnnAlgoSpellings{
    {{CudnnAlgo::Standard, "standard"},
     {CudnnAlgo::PersistStatic, "persist_static"},
     {CudnnAlgo::PersistDynamic, "persist_dynamic"},
     {CudnnAlgo::PersistStaticSmallH, "persist_static_small_h"}}};
[[nodiscard]] inline std::string_view toString(CudnnAlgo a) {
    return spellingOf(kCudnnAlgoSpellings, a);
}
[[nodiscard]] inline std::optional<CudnnAlgo> parseCudnnAlgo(std::string_view s) {
    return parseSpelling(kCudnnAlgoSpellings, s);
}

// The note of a GPU point measured with BackendOptions::cudaGraph.
inline constexpr std::string_view kCudaGraphNote =
    "CUDA graphs: each phase captured once and replayed with one cudaGraphLaunch (no per-kernel "
    "launches; sub-steps are not marked)";

struct BackendOptions {
    int threads = 0;                           // CPU threads; 0 = all cores
    double learningRate = 0.01;                // plain SGD in training mode
    bool allowTf32 = false;                    // GPU: allow TF32 tensor cores (default: strict FP32)
    GemmProvider gemm = GemmProvider::OneDnn;  // cpu-blas: which SGEMM implementation
    CudnnAlgo cudnnAlgo = CudnnAlgo::Standard; // gpu-cudnn: which RNN algorithm
    bool cudaGraph = false;                    // GPU: replay each phase as a CUDA graph
    bool operator==(const BackendOptions&) const = default;
};

template <class T>
struct ProblemData;

// Replaces the seeded data of a problem; used by `rnnprof eval` and tests. Any member left empty
// keeps its seeded default.
struct ProblemOverrides {
    std::shared_ptr<const ParamSet<float>> params;
    std::shared_ptr<const ProblemData<float>> data; // x, h0, c0 (and target)
    // Training: backpropagate from these gradients of y (and h_n, c_n) instead of the MSE loss's.
    std::shared_ptr<const Tensor<float>> outputGrad;
    std::shared_ptr<const Tensor<float>> hNGrad;
    std::shared_ptr<const Tensor<float>> cNGrad;
};

struct Problem {
    RnnConfig config;
    Shape shape;
    Mode mode = Mode::Inference;
    BackendOptions options;
    // Training: also compute the gradients of x, h0 and c0 (a framework needs them only below
    // another layer or for learned initial states; sweeps leave this off).
    bool inputGradients = false;
    ProblemOverrides overrides;
};

// Dropout masks hold 0 or 1/(1-p). They exist only in training mode with p > 0.
template <class T>
struct DropoutMasks {
    // One [B, H] mask per (layer, direction), index layer*D + dir, applied to h_{t-1} in the
    // recurrent products (the state itself is not masked). Empty when recurrent_dropout = 0.
    std::vector<Tensor<T>> recurrent;
    // One [T, B, D*H] mask per layer boundary (layers-1 of them), applied to a layer's output
    // before the next layer reads it. Empty when dropout = 0.
    std::vector<Tensor<T>> between;
};

template <class T>
struct ProblemData {
    Tensor<T> x;      // [T, B, I], sequence-major
    Tensor<T> h0;     // [L*D, B, H]
    Tensor<T> c0;     // [L*D, B, H] for LSTM, empty for GRU
    Tensor<T> target; // [T, B, D*H], training target of the MSE loss
    DropoutMasks<T> masks;
};

// Seeded tensors, the same bits on every platform: uniform in [-bound, bound], and a dropout mask
// of 0 (probability p) or 1/(1-p).
template <class T>
[[nodiscard]] Tensor<T> seededUniform(std::vector<std::int64_t> shape, std::uint64_t seed, double bound);
template <class T>
[[nodiscard]] Tensor<T> seededMask(std::vector<std::int64_t> shape, std::uint64_t seed, double p);

template <class T>
[[nodiscard]] ProblemData<T> makeProblemData(const RnnConfig& config, const Shape& shape, Mode mode);
template <class T>
[[nodiscard]] DropoutMasks<T> makeDropoutMasks(const RnnConfig& config, const Shape& shape);

// Gradients of a scalar loss with respect to everything a run reads.
template <class T>
struct Gradients {
    Tensor<T> dx;  // [T, B, I]
    Tensor<T> dh0; // [L*D, B, H]
    Tensor<T> dc0; // LSTM only
    ParamSet<T> dParams;
};

// What a session exposes after run() for numeric checks against cpu-reference.
struct RunOutputs {
    Tensor<float> y;  // [T, B, D*H]
    Tensor<float> hN; // [L*D, B, H]
    Tensor<float> cN; // LSTM only
    bool training = false;
    double loss = 0.0;           // training: MSE before the update
    Gradients<float> gradients;  // training: gradients of the loss (before the update)
    ParamSet<float> paramsAfter; // training: parameters after the SGD step
};

// A problem's inputs, checked against its configuration and shape: the overrides where given, the
// seeded defaults elsewhere. The one place where overrides are interpreted, for every backend:
//  - data: x, h0 (and c0 for an LSTM) must have the problem's shapes; an empty target takes the
//    seeded one; when every mask is empty the seeded masks are used;
//  - dropout masks exist only in training (inference has none); their count and shapes are checked;
//  - parameters must have the layout's size;
//  - the gradients that start backward (of y, h_n, c_n) must have the output and state shapes.
// Errors are Error(InvalidInput) naming the tensor, its shape and the expected one. T = double
// (the reference's oracle precision) seeds in double and widens the overrides.
template <class T = float>
struct ResolvedProblem {
    ProblemData<T> data;
    ParamSet<T> params;
    // Training: backward starts from these instead of the MSE loss's gradient (null: not given).
    std::shared_ptr<const Tensor<float>> outputGrad;
    std::shared_ptr<const Tensor<float>> hNGrad;
    std::shared_ptr<const Tensor<float>> cNGrad; // LSTM only
    [[nodiscard]] bool lossFromTarget() const { return outputGrad == nullptr; }
};

template <class T = float>
[[nodiscard]] ResolvedProblem<T> resolve(const Problem& problem);
// The checks of resolve() without building any seeded data: cheap, for before device work.
void requireValidOverrides(const Problem& problem);

// MSE (mean over all elements) and its gradient 2*(y - target)/N.
template <class T>
double mseLoss(const Tensor<T>& y, const Tensor<T>& target, Tensor<T>* dy);

} // namespace rnnprof
