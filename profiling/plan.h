#pragma once
// A sweep plan: one model configuration, a grid of batch sizes x sequence lengths x backends x
// modes, and how to measure each point. validate() names every problem; points() lists the grid
// in run order, interleaving backends so that drift over time does not favour one of them.
#include "engine/config.h"
#include "engine/problem.h"

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
    double noiseThreshold = 0.10; // CV above which a point is flagged noisy
    bool gpuTrace = true;         // CUPTI kernel trace on GPU backends
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
    std::string backend;
    Mode mode = Mode::Inference;
    Shape shape;
    bool operator==(const PointSpec&) const = default;
};

// Every problem of the plan: empty grid, duplicates, unknown backend ids (against `knownBackends`),
// out-of-range settings, and the model configuration's own issues.
[[nodiscard]] std::vector<FieldIssue> validate(const SweepPlan& plan, const std::vector<std::string>& knownBackends);
// Modes outermost, then sequence lengths, then batch sizes, then backends innermost.
[[nodiscard]] std::vector<PointSpec> points(const SweepPlan& plan);
[[nodiscard]] Problem problemFor(const SweepPlan& plan, const PointSpec& point);
// "cpu-blas train B=64 T=100"
[[nodiscard]] std::string describe(const PointSpec& point);

} // namespace rnnprof
