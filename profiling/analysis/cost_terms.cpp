#include "profiling/analysis/cost_terms.h"

#include "profiling/analysis/flops.h"
#include "profiling/plan.h"

namespace rnnprof {

std::string toString(const CostFamily& family) {
    return family.backend + " " + std::string(toString(family.mode)) +
           (family.cudaGraph ? ", CUDA graphs" : "");
}

double recurrentSteps(const RnnConfig& config, const Shape& shape, Mode mode) {
    const double steps = double(config.layers) * double(directionCount(config)) * double(shape.seqLen);
    return mode == Mode::Training ? 2.0 * steps : steps;
}

namespace {

// cuDNN's persistent algorithms: one kernel per sequence, the weights kept on chip.
bool persistent(std::string_view backend) {
    return backend.starts_with("gpu-cudnn[persist");
}

} // namespace

double kernelsPerStep(std::string_view backend, Mode mode, int batch) {
    const bool training = mode == Mode::Training, small = batch <= 4;
    if (persistent(backend)) return 0.0;
    if (registryIdOf(backend) == "gpu-cudnn") return training ? (small ? 4.5 : 5.45) : 2.05;
    if (backend == "gpu-generic") return training ? (small ? 4.45 : 6.45) : (small ? 2.05 : 3.05);
    return 0.0;
}

double kernelLaunches(const RnnConfig& config, const Shape& shape, const CostFamily& family) {
    return kernelsPerStep(family.backend, family.mode, shape.batch) * double(shape.seqLen) *
           double(config.layers) * double(directionCount(config));
}

double streamedWeightBytes(const RnnConfig& config, const Shape& shape, const CostFamily& family) {
    if (persistent(family.backend)) return 0.0;
    const double g = gateCount(config.cell), h = config.hiddenSize, d = directionCount(config);
    const bool training = family.mode == Mode::Training;
    double inputWeights = 0.0;
    for (int layer = 0; layer < config.layers; ++layer)
        inputWeights += g * h * double(layerInputSize(config, layer)) * d;
    const double recurrent = g * h * h * d * double(config.layers) * double(shape.seqLen);
    // Training reads the recurrent weights again backward through time; its input projection runs
    // three times (forward, input gradient, weight gradient).
    return 4.0 * (recurrent * (training ? 2.0 : 1.0) + inputWeights * (training ? 3.0 : 1.0));
}

double gateValues(const RnnConfig& config, const Shape& shape, Mode mode) {
    return recurrentSteps(config, shape, mode) * double(shape.batch) * double(gateCount(config.cell)) *
           double(config.hiddenSize);
}

CostFeatures costFeatures(const RnnConfig& config, const Shape& shape, const CostFamily& family) {
    CostFeatures x{};
    x[kFixedTerm] = 1.0;
    x[kLaunchTerm] = kernelLaunches(config, shape, family);
    x[kStreamTerm] = streamedWeightBytes(config, shape, family);
    x[kComputeTerm] = double(iterationFlops(config, shape, family.mode));
    x[kElementTerm] = gateValues(config, shape, family.mode);
    return x;
}

std::optional<GpuPeaks> publishedPeaks(std::string_view cudaName, bool tf32) {
    // NVIDIA's data sheets: memory bandwidth in TB/s, FP32 and dense TF32 tensor-core TFLOP/s.
    struct Row {
        std::string_view match, name;
        double terabytes, fp32, tf32;
    };
    static constexpr Row kTable[] = {
        {"H200", "H200 SXM 141GB", 4.8, 67.0, 494.7},
        {"H100 80GB HBM3", "H100 SXM5 80GB", 3.35, 67.0, 494.7},
        {"H100 PCIe", "H100 PCIe 80GB", 2.0, 51.0, 378.0},
        {"A100-SXM4-80GB", "A100 SXM4 80GB", 2.039, 19.5, 156.0},
        {"A100-SXM4-40GB", "A100 SXM4 40GB", 1.555, 19.5, 156.0},
        {"A100 80GB PCIe", "A100 PCIe 80GB", 1.935, 19.5, 156.0},
    };
    for (const Row& row : kTable)
        if (cudaName.find(row.match) != std::string_view::npos)
            return GpuPeaks{std::string(row.name), row.terabytes * 1e9, (tf32 ? row.tf32 : row.fp32) * 1e9};
    return std::nullopt;
}

} // namespace rnnprof
