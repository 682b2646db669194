#include "profiling/analysis/cost_model.h"

#include "engine/error.h"
#include "profiling/analysis/crossover.h"
#include "profiling/analysis/flops.h"
#include "profiling/analysis/nnls.h"
#include "profiling/measure/statistics.h"
#include "profiling/plan.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace rnnprof {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

bool usable(const CostSample& s) {
    return std::isfinite(s.ms) && s.ms > 0.0;
}

// The derived figures of a model from its theta, and its residuals on `samples` of its family.
void describe(CostModel& m, const std::vector<CostSample>& samples, std::size_t family) {
    const CostFeatures& t = m.theta;
    m.fixedMs = t[kFixedTerm];
    m.launchUs = t[kLaunchTerm] * 1e3;
    m.bandwidthGBs = t[kStreamTerm] > 0.0 ? 1.0 / (t[kStreamTerm] * 1e6) : 0.0;
    m.gflops = t[kComputeTerm] > 0.0 ? 1.0 / (t[kComputeTerm] * 1e6) : 0.0;
    m.elementPs = t[kElementTerm] * 1e9;
    double sum = 0.0;
    m.points = 0;
    m.minRelative = kInfinity;
    m.maxRelative = -kInfinity;
    for (const CostSample& s : samples) {
        if (s.family != family) continue;
        const double r = (predictMs(m, s.x) - s.ms) / s.ms;
        ++m.points;
        sum += r * r;
        m.minRelative = std::min(m.minRelative, r);
        m.maxRelative = std::max(m.maxRelative, r);
    }
    if (m.points == 0) m.minRelative = m.maxRelative = 0.0;
    m.rmsRelative = m.points ? std::sqrt(sum / double(m.points)) : 0.0;
}

// A Huber-like robust fit under x >= 0, by iteratively reweighted least squares: a row whose
// residual r exceeds kRobustFrom counts by |r| (its square weighted by 1 / |r|), so that a single
// disturbed point (the references hold a few measured at twice their neighbours' time) does not
// pull the fit; rows within it keep the weight of plain least squares.
constexpr double kRobustFrom = 0.1;
std::vector<double> robustNonNegativeFit(const std::vector<std::vector<double>>& rows,
                                         const std::vector<double>& target) {
    std::vector<double> z = nonNegativeLeastSquares(rows, target);
    for (int iteration = 0; iteration < 20; ++iteration) {
        std::vector<std::vector<double>> weighted = rows;
        std::vector<double> weightedTarget = target;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            double r = -target[i];
            for (std::size_t j = 0; j < z.size(); ++j)
                r += rows[i][j] * z[j];
            const double w = std::sqrt(1.0 / std::max(std::abs(r), kRobustFrom));
            for (double& v : weighted[i])
                v *= w;
            weightedTarget[i] *= w;
        }
        z = nonNegativeLeastSquares(weighted, weightedTarget);
    }
    return z;
}

double quantile(std::vector<double> v, double f) {
    std::sort(v.begin(), v.end());
    return percentile(v, f);
}

} // namespace

CostLimits costLimits(const std::optional<GpuPeaks>& peaks) {
    CostLimits l;
    if (!peaks) {
        l.source = "no published peaks known: bandwidth and rate unbounded";
        return l;
    }
    l.lowest[kStreamTerm] = 1.0 / peaks->bytesPerMs;
    l.lowest[kComputeTerm] = 1.0 / peaks->flopsPerMs;
    char text[200];
    std::snprintf(text, sizeof text,
                  "bandwidth and rate at most the published peaks of the %s: %.0f GB/s, %.0f GFLOP/s",
                  peaks->name.c_str(), peaks->bytesPerMs / 1e6, peaks->flopsPerMs / 1e6);
    l.source = text;
    return l;
}

std::optional<std::vector<CostModel>> fitCostModels(const std::vector<CostSample>& all,
                                                    const std::vector<CostFamily>& families,
                                                    const CostLimits& limits,
                                                    std::optional<double> launchMs) {
    std::vector<CostSample> samples;
    std::copy_if(all.begin(), all.end(), std::back_inserter(samples), usable);
    if (samples.size() < 3) return std::nullopt;
    // Columns: theta of each (family, term); the host-launch lambda is one column for every family
    // without CUDA graphs (or none when fixed), the bandwidth one column for all (one memory).
    constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
    std::vector<std::array<std::size_t, kCostTerms>> column(families.size());
    std::size_t columns = 0, sharedLaunch = kNone, sharedStream = kNone;
    std::vector<bool> present(families.size(), false);
    for (const CostSample& s : samples)
        present.at(s.family) = true;
    for (std::size_t f = 0; f < families.size(); ++f)
        for (std::size_t k = 0; k < kCostTerms; ++k) {
            column[f][k] = kNone;
            if (!present[f]) continue;
            if (k == kLaunchTerm && !families[f].cudaGraph) {
                if (launchMs) continue;
                if (sharedLaunch == kNone) sharedLaunch = columns++;
                column[f][k] = sharedLaunch;
            } else if (k == kStreamTerm) {
                if (sharedStream == kNone) sharedStream = columns++;
                column[f][k] = sharedStream;
            } else {
                column[f][k] = columns++;
            }
        }
    // Rows scaled by 1 / t (relative errors); the limits moved to the right-hand side:
    // theta = lowest + z with z >= 0.
    std::vector<std::vector<double>> rows;
    std::vector<double> target;
    for (const CostSample& s : samples) {
        std::vector<double> row(columns, 0.0);
        double rhs = 1.0;
        for (std::size_t k = 0; k < kCostTerms; ++k) {
            double floor = limits.lowest[k];
            if (k == kLaunchTerm && launchMs && !families[s.family].cudaGraph) floor = *launchMs;
            rhs -= floor * s.x[k] / s.ms;
            if (column[s.family][k] != kNone) row[column[s.family][k]] += s.x[k] / s.ms;
        }
        rows.push_back(std::move(row));
        target.push_back(rhs);
    }
    const std::vector<double> z = robustNonNegativeFit(rows, target);
    std::vector<CostModel> out(families.size());
    for (std::size_t f = 0; f < families.size(); ++f) {
        out[f].family = families[f];
        for (std::size_t k = 0; k < kCostTerms; ++k) {
            double floor = limits.lowest[k];
            if (k == kLaunchTerm && launchMs && !families[f].cudaGraph) floor = *launchMs;
            out[f].theta[k] = floor + (column[f][k] != kNone ? z[column[f][k]] : 0.0);
        }
        describe(out[f], samples, f);
    }
    return out;
}

std::optional<CostModel> fitCostModel(std::vector<CostSample> samples) {
    for (CostSample& s : samples)
        s.family = 0;
    const auto fit = fitCostModels(samples, {CostFamily{}});
    if (!fit) return std::nullopt;
    return fit->front();
}

double predictMs(const CostModel& model, const CostFeatures& x) {
    double t = 0.0;
    for (std::size_t k = 0; k < kCostTerms; ++k)
        t += model.theta[k] * x[k];
    return t;
}

PredictedTime bandFrom(double ms, const std::vector<double>& residuals, double widen) {
    PredictedTime p{ms, ms, ms};
    if (residuals.empty()) return p;
    const bool few = residuals.size() < 10;
    const double low = few ? *std::min_element(residuals.begin(), residuals.end()) : quantile(residuals, 0.1);
    const double high =
        few ? *std::max_element(residuals.begin(), residuals.end()) : quantile(residuals, 0.9);
    // t = m / (1 + r): the largest residual gives the lowest time.
    p.lowMs = ms * std::exp(std::min(0.0, -std::log1p(high)) * widen);
    p.highMs = low > -1.0 ? ms * std::exp(std::max(0.0, -std::log1p(low)) * widen) : kInfinity;
    return p;
}

double modelDistance(const RnnConfig& a, const RnnConfig& b) {
    const auto term = [](int x, int y) { return std::abs(std::log(double(x) / double(y))); };
    return term(a.hiddenSize, b.hiddenSize) + term(a.inputSize, b.inputSize) + term(a.layers, b.layers) +
           term(gateCount(a.cell), gateCount(b.cell)) + term(directionCount(a), directionCount(b));
}

double bandWidening(double distance) {
    return 1.0 + distance;
}

bool unreliable(const std::vector<double>& errors) {
    if (errors.empty()) return true;
    const auto wrong = std::count_if(errors.begin(), errors.end(), [](double e) { return !(e <= 0.30); });
    return 5 * wrong > static_cast<std::ptrdiff_t>(errors.size());
}

CostFamily familyOf(const SweepResult& result, const PointResult& point) {
    return {point.backend, point.mode, result.plan.settings.cudaGraph};
}

std::vector<CostSample> costSamples(const SweepResult& result, const CostFamily& family) {
    std::vector<CostSample> out;
    for (const auto& p : result.points)
        if (p.ok() && familyOf(result, p) == family && std::isfinite(p.iteration.median) &&
            p.iteration.median > 0.0)
            out.push_back({costFeatures(result.plan.config, p.shape, family), p.iteration.median});
    return out;
}

double shareWithin30(const std::vector<double>& errors) {
    if (errors.empty()) return 0.0;
    const auto within = std::count_if(errors.begin(), errors.end(), [](double e) { return e <= 0.30; });
    return double(within) / double(errors.size());
}

double medianOf(std::vector<double> v) {
    if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
    std::sort(v.begin(), v.end());
    const std::size_t h = v.size() / 2;
    return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

namespace {

std::string joined(const std::vector<std::string>& parts) {
    std::string out;
    for (const auto& p : parts)
        out += (out.empty() ? "" : ", ") + p;
    return out;
}

void addDistinct(std::vector<std::string>& list, const std::string& s) {
    if (!s.empty() && std::find(list.begin(), list.end(), s) == list.end()) list.push_back(s);
}

template <class T>
std::size_t indexOf(std::vector<T>& list, const T& value) {
    const auto it = std::find(list.begin(), list.end(), value);
    if (it != list.end()) return std::size_t(it - list.begin());
    list.push_back(value);
    return list.size() - 1;
}

std::size_t modelIndex(std::vector<RnnConfig>& models, const RnnConfig& config) {
    const auto it = std::find_if(models.begin(), models.end(),
                                 [&](const RnnConfig& m) { return modelDifferences(m, config).empty(); });
    if (it != models.end()) return std::size_t(it - models.begin());
    models.push_back(config);
    return models.size() - 1;
}

// What a result has instead, for the message when it has too few points: "gpu-cudnn infer 7,
// cpu-blas train 12", "gpu-cudnn infer, CUDA graphs 10", or "no ok points".
std::string okPointCounts(const SweepResult& r) {
    std::map<std::string, int> counts;
    for (const auto& p : r.points)
        if (p.ok()) ++counts[toString(familyOf(r, p))];
    std::vector<std::string> parts;
    for (const auto& [family, n] : counts)
        parts.push_back(family + " " + std::to_string(n));
    return parts.empty() ? "no ok points" : joined(parts);
}

// The distance from `config` to the nearest model the fit's family ran, `except` (an index into
// fit.models) left aside.
double nearestDistance(const BackendFit& fit, const RnnConfig& config,
                       std::size_t except = std::numeric_limits<std::size_t>::max()) {
    double best = kInfinity;
    for (std::size_t m : fit.familyModels)
        if (m != except) best = std::min(best, modelDistance(fit.models[m], config));
    return std::isfinite(best) ? best : 0.0;
}

} // namespace

std::optional<BackendFit> fitBackend(const std::vector<NamedResult>& from, const CostFamily& family,
                                     std::string* whyNot) {
    BackendFit fit;
    fit.family = family;
    std::vector<CostFamily> families{family};
    std::vector<CostSample> samples;
    std::vector<std::string> names, gpus, have;
    std::optional<GpuPeaks> peaks;
    bool unknownGpu = false;
    // A GPU family is fitted with every GPU family of the results (they share the launch cost,
    // the bandwidth and the limits); a CPU family alone.
    const bool gpuFamily = isGpuBackendId(registryIdOf(family.backend));
    for (const auto& r : from) {
        if (!r.result) continue;
        have.push_back(r.name + ": " + okPointCounts(*r.result));
        bool contributes = false;
        for (const PointResult& p : r.result->points) {
            const CostFamily f = familyOf(*r.result, p);
            if (!p.ok() || !(f == family || (gpuFamily && isGpuBackendId(registryIdOf(p.backend))))) continue;
            if (!(std::isfinite(p.iteration.median) && p.iteration.median > 0.0)) continue;
            CostSample s{costFeatures(r.result->plan.config, p.shape, f), p.iteration.median};
            s.family = indexOf(families, f);
            s.model = modelIndex(fit.models, r.result->plan.config);
            samples.push_back(s);
            contributes = true;
            if (s.family != 0) continue;
            if (std::find(fit.seqLens.begin(), fit.seqLens.end(), p.shape.seqLen) == fit.seqLens.end())
                fit.seqLens.push_back(p.shape.seqLen);
            if (std::find(fit.batches.begin(), fit.batches.end(), p.shape.batch) == fit.batches.end())
                fit.batches.push_back(p.shape.batch);
            if (std::find(fit.familyModels.begin(), fit.familyModels.end(), s.model) ==
                fit.familyModels.end())
                fit.familyModels.push_back(s.model);
        }
        if (!contributes) continue;
        names.push_back(r.name);
        if (r.result->host.gpu.devices.empty()) {
            addDistinct(gpus, r.result->host.hostname);
            unknownGpu = true;
        }
        for (const auto& d : r.result->host.gpu.devices) {
            addDistinct(gpus, d.name);
            const auto known = publishedPeaks(d.name, r.result->plan.settings.allowTf32);
            if (!known) {
                unknownGpu = true;
            } else if (!peaks) {
                peaks = known;
            } else { // pooled GPUs of different models: each limit is the highest of theirs
                peaks->bytesPerMs = std::max(peaks->bytesPerMs, known->bytesPerMs);
                peaks->flopsPerMs = std::max(peaks->flopsPerMs, known->flopsPerMs);
                if (peaks->name.find(known->name) == std::string::npos) peaks->name += " and " + known->name;
            }
        }
    }
    const auto own =
        std::count_if(samples.begin(), samples.end(), [](const CostSample& s) { return s.family == 0; });
    fit.limits = costLimits(gpuFamily && !unknownGpu ? peaks : std::nullopt);
    const auto models = own >= 3 ? fitCostModels(samples, families, fit.limits) : std::nullopt;
    if (!models) {
        if (whyNot)
            *whyNot = "cannot fit " + toString(family) + ": it needs at least 3 ok " + family.backend + " " +
                      std::string(toString(family.mode)) + " points, got " + std::to_string(own) + " (" +
                      (have.empty() ? "no results" : joined(have)) + ")";
        return std::nullopt;
    }
    fit.model = models->front();
    // Leave-one-out within the family, lambda as fitted on all.
    std::vector<CostSample> mine;
    std::copy_if(samples.begin(), samples.end(), std::back_inserter(mine),
                 [](const CostSample& s) { return s.family == 0; });
    const double launchMs = fit.model.theta[kLaunchTerm];
    for (std::size_t i = 0; i < mine.size(); ++i) {
        std::vector<CostSample> others = mine;
        others.erase(others.begin() + std::ptrdiff_t(i));
        const auto m = fitCostModels(others, {family}, fit.limits,
                                     family.cudaGraph ? std::nullopt : std::optional(launchMs));
        if (!m) continue;
        fit.looResiduals.push_back((predictMs(m->front(), mine[i].x) - mine[i].ms) / mine[i].ms);
    }
    // Leave-one-model-out: every family refitted without the model's points.
    if (fit.familyModels.size() >= 2)
        for (std::size_t k : fit.familyModels) {
            std::vector<CostSample> others;
            std::copy_if(samples.begin(), samples.end(), std::back_inserter(others),
                         [&](const CostSample& s) { return s.model != k; });
            const auto left = std::count_if(others.begin(), others.end(),
                                            [](const CostSample& s) { return s.family == 0; });
            const auto m = left >= 3 ? fitCostModels(others, families, fit.limits) : std::nullopt;
            if (!m) continue;
            for (const CostSample& s : mine)
                if (s.model == k) {
                    fit.crossModelResiduals.push_back((predictMs(m->front(), s.x) - s.ms) / s.ms);
                    fit.crossModelOf.push_back(k);
                }
        }
    for (double r : fit.looResiduals)
        fit.looErrors.push_back(std::abs(r));
    for (double r : fit.crossModelResiduals)
        fit.crossModelErrors.push_back(std::abs(r));
    // The band check: each left-out point against the band of the other models' residuals.
    std::size_t inside = 0;
    for (std::size_t i = 0; i < fit.crossModelResiduals.size(); ++i) {
        std::vector<double> rest;
        for (std::size_t j = 0; j < fit.crossModelResiduals.size(); ++j)
            if (fit.crossModelOf[j] != fit.crossModelOf[i]) rest.push_back(fit.crossModelResiduals[j]);
        const std::size_t k = fit.crossModelOf[i];
        const PredictedTime band = bandFrom(1.0, rest, bandWidening(nearestDistance(fit, fit.models[k], k)));
        const double measured = 1.0 / (1.0 + fit.crossModelResiduals[i]);
        // A relative margin of 1e-6: exact data leaves residuals of rounding size on both sides.
        if (measured >= band.lowMs * (1 - 1e-6) && measured <= band.highMs * (1 + 1e-6)) ++inside;
    }
    fit.bandCoverage =
        fit.crossModelResiduals.empty() ? 0.0 : double(inside) / double(fit.crossModelResiduals.size());
    fit.from = joined(names);
    fit.gpu = joined(gpus);
    return fit;
}

bool isFittedModel(const BackendFit& fit, const RnnConfig& config) {
    return std::any_of(fit.familyModels.begin(), fit.familyModels.end(),
                       [&](std::size_t m) { return modelDifferences(fit.models[m], config).empty(); });
}

std::string extrapolationProblem(const BackendFit& fit, const Shape& shape) {
    auto has = [](const std::vector<int>& values, int v) {
        return std::find(values.begin(), values.end(), v) != values.end();
    };
    if (fit.seqLens.size() == 1 && !has(fit.seqLens, shape.seqLen))
        return "cannot extrapolate in T from one sequence length (T=" + std::to_string(fit.seqLens.front()) +
               ")";
    if (fit.batches.size() == 1 && !has(fit.batches, shape.batch))
        return "cannot extrapolate in B from one batch size (B=" + std::to_string(fit.batches.front()) + ")";
    return {};
}

Prediction predictionOf(const BackendFit& fit, const RnnConfig& config, const Shape& shape,
                        PredictedTime& time) {
    const bool fittedModel = isFittedModel(fit, config);
    const bool crossModel = !fittedModel && !fit.crossModelErrors.empty();
    const std::vector<double>& errors = crossModel ? fit.crossModelErrors : fit.looErrors;
    const double distance = crossModel ? nearestDistance(fit, config) : 0.0;
    time = bandFrom(predictMs(fit.model, costFeatures(config, shape, fit.family)),
                    crossModel ? fit.crossModelResiduals : fit.looResiduals, bandWidening(distance));
    const std::string extrapolation = extrapolationProblem(fit, shape);
    Prediction p;
    p.lowMs = time.lowMs;
    p.highMs = std::isfinite(time.highMs) ? time.highMs : std::numeric_limits<double>::quiet_NaN();
    p.from = fit.from;
    p.gpu = fit.gpu;
    p.fittedPoints = fit.model.points;
    p.fixedMs = fit.model.fixedMs;
    p.stepMs =
        fit.model.theta[kLaunchTerm] * kernelsPerStep(fit.family.backend, fit.family.mode, shape.batch);
    p.gflops = fit.model.gflops;
    p.bandwidthGBs = fit.model.bandwidthGBs;
    p.looMedianError = medianOf(errors);
    p.looWithin30 = shareWithin30(errors);
    p.unreliable = unreliable(errors) || !extrapolation.empty();
    p.unreliableReason = extrapolation;
    p.check = fittedModel  ? "leave-one-out"
              : crossModel ? "leave-one-model-out"
                           : "leave-one-out; another model, cross-shape error unchecked";
    const std::size_t residuals = crossModel ? fit.crossModelResiduals.size() : fit.looResiduals.size();
    p.band = std::string(residuals < 10 ? "the range" : "10-90 %") + " of the " + std::to_string(residuals) +
             (crossModel ? " left-out-model" : " left-out-point") + " errors";
    if (distance > 0.0) {
        char widened[120];
        std::snprintf(widened, sizeof widened,
                      ", widened x%.2f for the distance to the nearest measured model",
                      bandWidening(distance));
        p.band += widened;
    }
    return p;
}

PointResult predictedPoint(const BackendFit& fit, const RnnConfig& config, const Shape& shape) {
    PointResult p;
    PredictedTime time;
    p.prediction = predictionOf(fit, config, shape, time);
    p.backend = fit.family.backend;
    p.mode = fit.family.mode;
    p.shape = shape;
    p.status = PointStatus::Predicted;
    p.iteration.median = time.ms;
    p.flopsPerIteration = iterationFlops(config, shape, fit.family.mode);
    p.reason = predictedFromText(*p.prediction);
    return p;
}

SweepResult predictResult(const std::vector<NamedResult>& from, const SweepPlan& plan) {
    SweepResult out;
    out.createdAt = isoTimestampUtc();
    if (!from.empty() && from.front().result) out.host = from.front().result->host;
    out.plan = plan;
    out.complete = true;
    std::map<std::pair<std::string, Mode>, BackendFit> fits;
    for (Mode mode : plan.modes)
        for (const auto& backend : plan.backends) {
            std::string why;
            auto fit = fitBackend(from, {backend, mode, plan.settings.cudaGraph}, &why);
            if (!fit) throw Error(ErrorKind::InvalidInput, why);
            fits.emplace(std::make_pair(backend, mode), std::move(*fit));
        }
    for (Mode mode : plan.modes)
        for (int t : plan.seqLens)
            for (int b : plan.batches)
                for (const auto& backend : plan.backends)
                    out.points.push_back(predictedPoint(fits.at({backend, mode}), plan.config, Shape{b, t}));
    return out;
}

} // namespace rnnprof
