#pragma once
// A sweep plan: one model configuration, a grid of batch sizes x sequence lengths x backends x
// modes, and how to measure each point. validate() names every problem; points() lists the grid
// in run order, interleaving backends so that drift over time does not favour one of them.
#include "engine/config.h"
#include "engine/problem.h"
#include "profiling/measure/statistics.h"

#include <string>
#include <vector>

namespace rnnprof {

struct MeasureSettings {
    int warmup = 2;             // discarded runs before measuring
    int minRepeats = 5;         // measured runs: at least this many ...
    int maxRepeats = 50;        // ... at most this many ...
    double timeBudgetMs = 2000; // ... stopping once this much time was spent measuring
    int threads = 0;            // CPU threads; 0 = all cores
    double learningRate = 0.01;
    bool allowTf32 = false;
    GemmProvider gemm = GemmProvider::OneDnn;
    bool checkNumerics = true;
    // Numeric checks run on the full shape when the reference's work (T*B*L*D*G*H*(I+H)) stays
    // below this; above it, on a smaller shape of the same model, and the result says so.
    double numericsMaxWork = 2e8;
    double noiseThreshold = kDefaultNoiseThreshold; // spread above which a point is noisy (isNoisy())
    // How often a disturbed point (starvation.h) is measured again at the end of the sweep.
    int remeasureDisturbed = 1;
    bool gpuTrace = true; // CUPTI kernel trace on GPU backends
    // gpu-cudnn runs once per algorithm listed, each its own series (seriesId()).
    std::vector<CudnnAlgo> cudnnAlgos{CudnnAlgo::Standard};
    bool cudaGraph = false; // GPU backends replay each phase as a CUDA graph (launch overhead off)
    bool operator==(const MeasureSettings&) const = default;
};

struct SweepPlan {
    RnnConfig config;
    std::vector<int> batches{1, 4, 16, 64};
    std::vector<int> seqLens{20, 100};
    std::vector<std::string> backends{"cpu-blas", "cpu-onednn"};
    std::vector<Mode> modes{Mode::Inference};
    MeasureSettings settings;
    std::string preset; // the preset it came from, if any
    bool operator==(const SweepPlan&) const = default;
};

struct PointSpec {
    std::string backend; // the registry's id
    Mode mode = Mode::Inference;
    Shape shape;
    CudnnAlgo cudnnAlgo = CudnnAlgo::Standard; // gpu-cudnn only
    bool operator==(const PointSpec&) const = default;
};

// The backend as results name it, one series per name: the registry id, and for gpu-cudnn with a
// persistent algorithm the algorithm too ("gpu-cudnn[persist_static]"; STANDARD keeps the plain
// id, so results of earlier versions and of plans with one algorithm compare with these).
[[nodiscard]] std::string seriesId(const PointSpec& point);
// The registry id of a series id: "gpu-cudnn" for "gpu-cudnn[persist_static]".
[[nodiscard]] std::string_view registryIdOf(std::string_view seriesId);
// The series id of gpu-cudnn's fastest algorithm per point, a series derived from the others.
inline constexpr std::string_view kCudnnBestSeries = "gpu-cudnn[best]";
// Whether a backend runs once per algorithm of MeasureSettings::cudnnAlgos.
[[nodiscard]] bool runsPerCudnnAlgo(std::string_view backend);

// Every problem of the plan: empty grid, duplicates, unknown backend ids (against `knownBackends`),
// out-of-range settings, and the model configuration's own issues.
[[nodiscard]] std::vector<FieldIssue> validate(const SweepPlan& plan,
                                               const std::vector<std::string>& knownBackends);
// Modes outermost, then sequence lengths, then batch sizes, then backends innermost (gpu-cudnn once
// per algorithm, in the settings' order).
[[nodiscard]] std::vector<PointSpec> points(const SweepPlan& plan);
// The most points a plan may have, as a sweep or as a prediction (validate() refuses more).
inline constexpr std::size_t kMaxPlanPoints = 100000;
// The points of the plan's grid, counted without listing them: batch sizes x sequence lengths x
// modes x runs per shape (one per backend, gpu-cudnn one per cuDNN algorithm).
[[nodiscard]] std::size_t planPointCount(const SweepPlan& plan);
// "the grid has 409600 points, at most 100000 are allowed (...)", or "" within kMaxPlanPoints.
[[nodiscard]] std::string planPointCountProblem(const SweepPlan& plan);
[[nodiscard]] Problem problemFor(const SweepPlan& plan, const PointSpec& point);
// "cpu-blas train B=64 T=100", "gpu-cudnn[persist_static] infer B=1 T=20"
[[nodiscard]] std::string describe(const PointSpec& point);

} // namespace rnnprof
