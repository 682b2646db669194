#pragma once
// A small cost model of one backend and mode, fitted on measured points, to predict the time of
// shapes nobody measured. Per iteration:
//
//     t(B, T) = c + n * alpha + W / R
//
//   n      recurrent steps per iteration: layers * directions * T, twice that in training (forward
//          and backward through time)
//   W      the iteration's FLOPs (profiling/analysis/flops.h, iterationFlops)
//   c      a fixed cost per iteration (launches and copies outside the steps), ms
//   alpha  the per-step floor (launch / synchronisation latency), ms
//   R      the achieved rate, FLOP/ms
//
// It is linear in theta = (c, alpha, 1/R) with the features (1, n, W), and fitted by least squares
// on relative errors ((model - t) / t), every coefficient kept >= 0 (a coefficient that would be
// negative is dropped and the rest refitted). A batch-dependent rate R(B) = Rmax * B / (B + Bh)
// was tried first and left out: for one model its extra term W/B * Bh/Rmax grows with T exactly
// as n * alpha does, so the two cannot be told apart. With a single sequence length, n is
// constant as well: c and alpha then merge (the fit keeps one of them, see fitCostModel).
// One function per formula.
#include "engine/config.h"
#include "profiling/result.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace rnnprof {

// The features of one shape: (1, n, W).
using CostFeatures = std::array<double, 3>;
[[nodiscard]] double recurrentSteps(const RnnConfig& config, const Shape& shape, Mode mode); // n
[[nodiscard]] CostFeatures costFeatures(const RnnConfig& config, const Shape& shape, Mode mode);

struct CostModel {
    double fixedMs = 0.0;          // c
    double stepMs = 0.0;           // alpha
    double gflops = 0.0;           // R in GFLOP/s; 0 when the fit left the W term out
    std::array<double, 3> theta{}; // (c, alpha, 1/R) in ms, ms per step and ms per FLOP
    int points = 0;                // points fitted
    double rmsRelative = 0.0;      // root mean square of (model - t) / t over the fitted points
    double worstRelative = 0.0;    // largest |model - t| / t
    double minRelative = 0.0;      // smallest and largest signed (model - t) / t: the band
    double maxRelative = 0.0;
};

// One measured sample: the features of its shape and its median time.
struct CostSample {
    CostFeatures x{};
    double ms = 0.0;
};

// Fits the model; nullopt when fewer than 3 samples with a positive finite time are given. A
// feature the samples cannot tell from the others (n with a single sequence length) gets 0.
[[nodiscard]] std::optional<CostModel> fitCostModel(const std::vector<CostSample>& samples);
// The model's time for a shape: theta . x, in ms.
[[nodiscard]] double predictMs(const CostModel& model, const CostFeatures& x);
// A prediction with the band the fit's residuals give: a fitted point's time t relates to the
// model's m as t = m / (1 + r), r = (m - t) / t in [minRelative, maxRelative], so a time is
// expected in [m / (1 + maxRelative), m / (1 + minRelative)] (high infinite when minRelative <= -1).
struct PredictedTime {
    double ms = 0.0;
    double lowMs = 0.0;
    double highMs = 0.0;
};
[[nodiscard]] PredictedTime predictWithBand(const CostModel& model, const CostFeatures& x);
// Each sample predicted from a fit on all the others: |prediction - t| / t, for every sample whose
// others can be fitted.
[[nodiscard]] std::vector<double> leaveOneOutErrors(const std::vector<CostSample>& samples);
// The model is not to be trusted when it is wrong by more than 30 % on more than a fifth of the
// points (their errors as leaveOneOutErrors gives them); empty errors are not trusted either.
[[nodiscard]] bool unreliable(const std::vector<double>& relativeErrors);
// The ok points of `backend` in `mode` of a result, as samples of its plan's model.
[[nodiscard]] std::vector<CostSample> costSamples(const SweepResult& result, const std::string& backend,
                                                  Mode mode);

// ---- Predicted points: the fit of other results applied to a model and grid nobody measured ----
// A result to fit on and the name it is shown by (its file name).
struct NamedResult {
    const SweepResult* result = nullptr;
    std::string name;
};

// The model of one backend and mode fitted on the ok points of one or more results (their samples
// pooled: each sample's features come from its own result's model), with its leave-one-out errors
// and the names a label needs.
struct BackendFit {
    std::string backend;
    Mode mode = Mode::Inference;
    CostModel model;
    std::vector<double> looErrors; // leaveOneOutErrors of the pooled samples
    // Leave-one-model-out: each model's samples predicted from a fit on the other models' samples;
    // empty when the results ran fewer than two models. The check of a prediction for a model none
    // of them ran (cross-shape), which leave-one-out within a model cannot give.
    std::vector<double> crossModelErrors;
    std::vector<RnnConfig> models; // the distinct models fitted (crossover.h's modelDifferences)
    // What the fitted points covered: their sequence lengths and batch sizes, and the range of
    // their features n and W (extrapolationProblem()).
    std::vector<int> seqLens;
    std::vector<int> batches;
    CostFeatures lowest{};
    CostFeatures highest{};
    std::string from; // the results' names: "a.json, b.json"
    std::string gpu;  // their GPUs (host.gpu.devices names), distinct, or their hostnames
};
// nullopt when the results have fewer than 3 ok points of `backend` in `mode`; `whyNot` then says
// which results were looked at and what they have instead.
[[nodiscard]] std::optional<BackendFit> fitBackend(const std::vector<NamedResult>& from,
                                                   const std::string& backend, Mode mode,
                                                   std::string* whyNot = nullptr);
// Where a fit cannot reach: a shape outside what its points can carry it to. A fit on one sequence
// length cannot extrapolate in T (n is constant there, c and alpha merged), one on one batch size
// not in B; a fit that dropped its FLOP term (R = 0) or its per-step term (alpha = 0) cannot follow
// W or n beyond the range it saw. Empty when the shape is within reach.
[[nodiscard]] std::string extrapolationProblem(const BackendFit& fit, const Shape& shape,
                                               const CostFeatures& x);
// The Prediction record of a fit at one shape: band, source and fit quality. The quality (the
// loo_* fields and `unreliable`) is of `fit.looErrors`, or, for a model none of the results ran
// (`fittedModel` false) when they ran two or more, of `fit.crossModelErrors`; a non-empty
// `extrapolation` (extrapolationProblem()) makes it unreliable with that reason.
[[nodiscard]] Prediction predictionOf(const BackendFit& fit, const PredictedTime& time, bool fittedModel,
                                      const std::string& extrapolation = {});
// Whether `config` is one of the models the fit's results ran (the seed may differ).
[[nodiscard]] bool isFittedModel(const BackendFit& fit, const RnnConfig& config);
// One predicted point: status predicted, iteration.median the model's time, the band and source in
// `prediction`, the label in `reason` (so every place that shows a reason shows it), FLOPs set.
[[nodiscard]] PointResult predictedPoint(const BackendFit& fit, const RnnConfig& config, const Shape& shape);
// One predicted point per (mode, sequence length, batch, backend) of `plan` (its model, grid, modes
// and backends), in the plan's order (points(plan)). The host is the first result's. Throws
// Error(InvalidInput) naming the backend, mode and results when a pair cannot be fitted.
[[nodiscard]] SweepResult predictResult(const std::vector<NamedResult>& from, const SweepPlan& plan);
// The share of `errors` within +-30 % (0 for none), and their median (NaN for none).
[[nodiscard]] double shareWithin30(const std::vector<double>& errors);
[[nodiscard]] double medianOf(std::vector<double> values);

} // namespace rnnprof
