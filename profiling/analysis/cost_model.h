#pragma once
// The cost model of GPU backends, fitted on measured points, to predict the time of models and
// shapes nobody measured. Its terms are the hardware's (cost_terms.h):
//
//     t = c + lambda * K + Q / BW + W / R + epsilon * E
//
// Linear in theta = (c, lambda, 1/BW, 1/R, epsilon) and fitted by non-negative least squares on
// relative errors ((model - t) / t), made robust to disturbed points, all families of a GPU at once:
// one launch cost lambda shared by every family that launches kernels from the host (it is the
// host's and the driver's, not the backend's), one bandwidth BW shared by all (one memory), and c,
// R, epsilon per family. A CUDA-graph family has a lambda of its own (a replayed graph pays no host
// launch). Physical limits: every coefficient >= 0, BW and R at most the GPU's published peaks
// (cost_terms.h's publishedPeaks), recorded in the fit.
//
// A prediction's check is leave-one-model-out: each model's points predicted from a fit on every
// other model's (all families), as for a model nobody measured; its band comes from those
// residuals and widens with the distance in (H, I, layers) to the nearest measured model.
#include "engine/config.h"
#include "profiling/analysis/cost_terms.h"
#include "profiling/result.h"

#include <optional>
#include <string>
#include <vector>

namespace rnnprof {

struct CostModel {
    CostFamily family;
    CostFeatures theta{};      // c ms, lambda ms per launch, 1/BW ms per byte, 1/R ms per FLOP, ms per value
    double fixedMs = 0.0;      // c
    double launchUs = 0.0;     // lambda in microseconds
    double bandwidthGBs = 0.0; // BW in GB/s (at least the floor the limits give); 0 when unbounded and unused
    double gflops = 0.0;       // R in GFLOP/s
    double elementPs = 0.0;    // epsilon in picoseconds per gate value
    int points = 0;            // points fitted of this family
    double rmsRelative = 0.0;  // root mean square of (model - t) / t over them
    double minRelative = 0.0;  // smallest and largest signed (model - t) / t
    double maxRelative = 0.0;
};

// One measured sample: its features, its median time, its family and its model (indexes into the
// lists the fit is given).
struct CostSample {
    CostFeatures x{};
    double ms = 0.0;
    std::size_t family = 0;
    std::size_t model = 0;
};

// Lower limits of theta (the inverse of the published peaks; 0 where none is known) and the text
// that says where they came from.
struct CostLimits {
    CostFeatures lowest{};
    // "bandwidth and rate at most the published peaks of the H100 SXM5 80GB: 3350 GB/s, 67000 GFLOP/s"
    // or "no published peaks known: bandwidth and rate unbounded".
    std::string source;
};
[[nodiscard]] CostLimits costLimits(const std::optional<GpuPeaks>& peaks);

// Fits every family at once; entry f is family f's model (points 0 when it had no sample).
// `launchMs`, when given, fixes the shared lambda instead of fitting it. nullopt when fewer than 3
// samples with a positive finite time are given.
[[nodiscard]] std::optional<std::vector<CostModel>>
fitCostModels(const std::vector<CostSample>& samples, const std::vector<CostFamily>& families,
              const CostLimits& limits = {}, std::optional<double> launchMs = std::nullopt);
// One family, no limits: the samples' `family` fields are ignored.
[[nodiscard]] std::optional<CostModel> fitCostModel(std::vector<CostSample> samples);
// theta . x, in ms.
[[nodiscard]] double predictMs(const CostModel& model, const CostFeatures& x);

// A predicted time and its band.
struct PredictedTime {
    double ms = 0.0;
    double lowMs = 0.0;
    double highMs = 0.0; // infinite when the residuals give no upper bound
};
// The band of a prediction m from signed residuals r = (m - t) / t of comparable predictions: the
// measured t = m / (1 + r) lies in [m / (1 + r90), m / (1 + r10)] (10th and 90th percentiles; the
// extremes below 10 residuals), each side's logarithm widened by `widen` >= 1, always containing m.
[[nodiscard]] PredictedTime bandFrom(double ms, const std::vector<double>& residuals, double widen);
// How far a model is from another, in logarithms of its sizes: |ln H/H'| + |ln I/I'| +
// |ln layers/layers'| + |ln gates/gates'| (an LSTM from a GRU: ln 4/3) + |ln directions/directions'|.
[[nodiscard]] double modelDistance(const RnnConfig& a, const RnnConfig& b);
// The band's widening for that distance: 1 + distance.
[[nodiscard]] double bandWidening(double distance);

// The model is not to be trusted when it is wrong by more than 30 % on more than a fifth of the
// points; empty errors are not trusted either.
[[nodiscard]] bool unreliable(const std::vector<double>& relativeErrors);
// The ok points of `family` in a result, as samples of its plan's model (family and model 0).
[[nodiscard]] std::vector<CostSample> costSamples(const SweepResult& result, const CostFamily& family);
// The family of a point of a result.
[[nodiscard]] CostFamily familyOf(const SweepResult& result, const PointResult& point);

// ---- Predicted points: the fit of other results applied to a model and grid nobody measured ----
// A result to fit on and the name it is shown by (its file name).
struct NamedResult {
    const SweepResult* result = nullptr;
    std::string name;
};

// The model of one family fitted on the results (every GPU family of them at once), with its checks.
struct BackendFit {
    CostFamily family;
    CostModel model;
    CostLimits limits;
    // Leave-one-out within the models fitted: each of the family's points predicted from the rest
    // (lambda as fitted on all, unless the family replays CUDA graphs), as signed (model - t) / t;
    // looErrors their absolute values.
    std::vector<double> looResiduals, looErrors;
    // Leave-one-model-out: each model's points of the family predicted from a fit on every other
    // model's points; empty when the family ran fewer than two models. crossModelOf: the model of each.
    std::vector<double> crossModelResiduals, crossModelErrors;
    std::vector<std::size_t> crossModelOf;
    // The share of left-out-model points within the band their prediction carries (built from the
    // other models' residuals only, widened by the distance to the nearest other model).
    double bandCoverage = 0.0;
    std::vector<RnnConfig> models;         // the distinct models fitted, of every family
    std::vector<std::size_t> familyModels; // which of them the family ran
    // What the family's points covered: their sequence lengths and batch sizes.
    std::vector<int> seqLens;
    std::vector<int> batches;
    std::string from; // the results' names: "a.json, b.json"
    std::string gpu;  // their GPUs (host.gpu.devices names), distinct, or their hostnames
};
// nullopt when the results have fewer than 3 ok points of the family; `whyNot` then says which
// results were looked at and what they have instead.
[[nodiscard]] std::optional<BackendFit> fitBackend(const std::vector<NamedResult>& from,
                                                   const CostFamily& family, std::string* whyNot = nullptr);
// Where a fit cannot reach: a fit on one sequence length cannot extrapolate in T, one on one batch
// size not in B. Empty when the shape is within reach.
[[nodiscard]] std::string extrapolationProblem(const BackendFit& fit, const Shape& shape);
// The Prediction record of the fit for `config` at `shape`: the time in `time`, and band, source,
// coefficients and check. For a model the family ran, band and check are of the leave-one-out
// residuals; for another, when the family ran two or more models, of the leave-one-model-out
// residuals, the band widened by the distance to the nearest fitted model. An extrapolation
// (extrapolationProblem) makes it unreliable with that reason.
[[nodiscard]] Prediction predictionOf(const BackendFit& fit, const RnnConfig& config, const Shape& shape,
                                      PredictedTime& time);
// Whether `config` is one of the models the family ran (the seed may differ).
[[nodiscard]] bool isFittedModel(const BackendFit& fit, const RnnConfig& config);
// One predicted point: status predicted, iteration.median the model's time, the band and source in
// `prediction`, the label in `reason`, FLOPs set.
[[nodiscard]] PointResult predictedPoint(const BackendFit& fit, const RnnConfig& config, const Shape& shape);
// One predicted point per (mode, sequence length, batch, backend) of `plan`, in the plan's order
// (points(plan)); its families replay CUDA graphs when the plan does. The host is the first
// result's. Throws Error(InvalidInput) naming the family and results when one cannot be fitted.
[[nodiscard]] SweepResult predictResult(const std::vector<NamedResult>& from, const SweepPlan& plan);
// The share of `errors` within +-30 % (0 for none), and their median (NaN for none).
[[nodiscard]] double shareWithin30(const std::vector<double>& errors);
[[nodiscard]] double medianOf(std::vector<double> values);

} // namespace rnnprof
