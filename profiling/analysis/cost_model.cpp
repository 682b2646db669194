#include "profiling/analysis/cost_model.h"

#include "engine/error.h"
#include "profiling/analysis/crossover.h"
#include "profiling/analysis/flops.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace rnnprof {
namespace {

constexpr std::size_t kN = 3;

// Least squares of the rows `x` (scaled by 1/t: relative errors) over the coefficients in `use`;
// the others stay 0. Normal equations solved by Gaussian elimination with partial pivoting.
// False when the system is singular.
bool solveRelative(const std::vector<CostSample>& samples, const std::array<bool, kN>& use,
                   std::array<double, kN>& theta) {
    // Columns are scaled to unit size first so that 1 and W (up to 1e12) share one matrix.
    std::array<double, kN> scale{};
    for (const auto& s : samples)
        for (std::size_t j = 0; j < kN; ++j)
            scale[j] = std::max(scale[j], std::abs(s.x[j] / s.ms));
    std::vector<std::size_t> cols;
    for (std::size_t j = 0; j < kN; ++j)
        if (use[j] && scale[j] > 0) cols.push_back(j);
    const std::size_t m = cols.size();
    if (m == 0) return false;
    std::vector<std::vector<double>> a(m, std::vector<double>(m + 1, 0.0));
    for (const auto& s : samples)
        for (std::size_t p = 0; p < m; ++p) {
            const double xp = s.x[cols[p]] / s.ms / scale[cols[p]];
            for (std::size_t q = 0; q < m; ++q)
                a[p][q] += xp * (s.x[cols[q]] / s.ms / scale[cols[q]]);
            a[p][m] += xp; // the target: t / t = 1
        }
    double largest = 0.0;
    for (std::size_t p = 0; p < m; ++p)
        largest = std::max(largest, a[p][p]);
    for (std::size_t p = 0; p < m; ++p) {
        std::size_t pivot = p;
        for (std::size_t r = p + 1; r < m; ++r)
            if (std::abs(a[r][p]) > std::abs(a[pivot][p])) pivot = r;
        if (std::abs(a[pivot][p]) < 1e-9 * largest) {
            // Column p is a combination of the columns before it: leave it out (coefficient 0).
            for (std::size_t r = 0; r < m; ++r)
                a[r][p] = 0.0;
            a[p].assign(m + 1, 0.0);
            a[p][p] = 1.0;
            continue;
        }
        std::swap(a[p], a[pivot]);
        for (std::size_t r = 0; r < m; ++r) {
            if (r == p) continue;
            const double f = a[r][p] / a[p][p];
            for (std::size_t q = p; q <= m; ++q)
                a[r][q] -= f * a[p][q];
        }
    }
    theta.fill(0.0);
    for (std::size_t p = 0; p < m; ++p)
        theta[cols[p]] = a[p][m] / a[p][p] / scale[cols[p]];
    return true;
}

} // namespace

double recurrentSteps(const RnnConfig& config, const Shape& shape, Mode mode) {
    const double steps = double(config.layers) * (config.bidirectional ? 2.0 : 1.0) * double(shape.seqLen);
    return mode == Mode::Training ? 2.0 * steps : steps;
}

CostFeatures costFeatures(const RnnConfig& config, const Shape& shape, Mode mode) {
    const double w = double(iterationFlops(config, shape, mode));
    return {1.0, recurrentSteps(config, shape, mode), w};
}

double predictMs(const CostModel& model, const CostFeatures& x) {
    double t = 0.0;
    for (std::size_t j = 0; j < kN; ++j)
        t += model.theta[j] * x[j];
    return t;
}

std::optional<CostModel> fitCostModel(const std::vector<CostSample>& all) {
    std::vector<CostSample> samples;
    for (const auto& s : all)
        if (std::isfinite(s.ms) && s.ms > 0.0) samples.push_back(s);
    if (samples.size() < kN) return std::nullopt;
    std::array<bool, kN> use{true, true, true};
    std::array<double, kN> theta{};
    // Drop the most negative coefficient and refit until none is negative.
    for (;;) {
        if (!solveRelative(samples, use, theta)) return std::nullopt;
        std::size_t worst = kN;
        for (std::size_t j = 0; j < kN; ++j)
            if (use[j] && theta[j] < 0.0 && (worst == kN || theta[j] < theta[worst])) worst = j;
        if (worst == kN) break;
        use[worst] = false;
        theta[worst] = 0.0;
    }
    CostModel m;
    m.theta = theta;
    m.fixedMs = theta[0];
    m.stepMs = theta[1];
    m.gflops = theta[2] > 0.0 ? 1.0 / (theta[2] * 1e6) : 0.0;
    m.points = static_cast<int>(samples.size());
    double sum = 0.0;
    m.minRelative = std::numeric_limits<double>::infinity();
    m.maxRelative = -std::numeric_limits<double>::infinity();
    for (const auto& s : samples) {
        const double rel = (predictMs(m, s.x) - s.ms) / s.ms;
        sum += rel * rel;
        m.worstRelative = std::max(m.worstRelative, std::abs(rel));
        m.minRelative = std::min(m.minRelative, rel);
        m.maxRelative = std::max(m.maxRelative, rel);
    }
    m.rmsRelative = std::sqrt(sum / double(samples.size()));
    return m;
}

PredictedTime predictWithBand(const CostModel& model, const CostFeatures& x) {
    PredictedTime p;
    p.ms = predictMs(model, x);
    p.lowMs = p.ms / (1.0 + model.maxRelative);
    p.highMs =
        model.minRelative > -1.0 ? p.ms / (1.0 + model.minRelative) : std::numeric_limits<double>::infinity();
    return p;
}

std::vector<double> leaveOneOutErrors(const std::vector<CostSample>& samples) {
    std::vector<double> out;
    for (std::size_t i = 0; i < samples.size(); ++i) {
        if (!(std::isfinite(samples[i].ms) && samples[i].ms > 0.0)) continue;
        std::vector<CostSample> others = samples;
        others.erase(others.begin() + static_cast<std::ptrdiff_t>(i));
        if (const auto m = fitCostModel(others))
            out.push_back(std::abs(predictMs(*m, samples[i].x) - samples[i].ms) / samples[i].ms);
    }
    return out;
}

bool unreliable(const std::vector<double>& errors) {
    if (errors.empty()) return true;
    const auto wrong = std::count_if(errors.begin(), errors.end(), [](double e) { return !(e <= 0.30); });
    return 5 * wrong > static_cast<std::ptrdiff_t>(errors.size());
}

std::vector<CostSample> costSamples(const SweepResult& result, const std::string& backend, Mode mode) {
    std::vector<CostSample> out;
    for (const auto& p : result.points)
        if (p.ok() && p.backend == backend && p.mode == mode && std::isfinite(p.iteration.median) &&
            p.iteration.median > 0.0)
            out.push_back({costFeatures(result.plan.config, p.shape, mode), p.iteration.median});
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

void addDistinct(std::vector<int>& list, int v) {
    if (std::find(list.begin(), list.end(), v) == list.end()) list.push_back(v);
}

// What a result has instead, for the message when it has too few points: "gpu-cudnn infer 7,
// cpu-blas train 12", or "no ok points".
std::string okPointCounts(const SweepResult& r) {
    std::map<std::pair<std::string, std::string>, int> counts;
    for (const auto& p : r.points)
        if (p.ok()) ++counts[{p.backend, std::string(toString(p.mode))}];
    std::vector<std::string> parts;
    for (const auto& [key, n] : counts)
        parts.push_back(key.first + " " + key.second + " " + std::to_string(n));
    return parts.empty() ? "no ok points" : joined(parts);
}

} // namespace

std::optional<BackendFit> fitBackend(const std::vector<NamedResult>& from, const std::string& backend,
                                     Mode mode, std::string* whyNot) {
    BackendFit fit;
    fit.backend = backend;
    fit.mode = mode;
    std::vector<CostSample> samples;
    std::vector<std::size_t> modelOf; // per sample, its index in fit.models
    std::vector<std::string> names, gpus, have;
    for (const auto& r : from) {
        if (!r.result) continue;
        const auto s = costSamples(*r.result, backend, mode);
        samples.insert(samples.end(), s.begin(), s.end());
        if (!s.empty()) {
            const auto known = std::find_if(fit.models.begin(), fit.models.end(), [&](const RnnConfig& m) {
                return modelDifferences(m, r.result->plan.config).empty();
            });
            const std::size_t index = std::size_t(known - fit.models.begin());
            if (known == fit.models.end()) fit.models.push_back(r.result->plan.config);
            modelOf.insert(modelOf.end(), s.size(), index);
        }
        for (const PointResult& p : r.result->points)
            if (p.ok() && p.backend == backend && p.mode == mode) {
                addDistinct(fit.seqLens, p.shape.seqLen);
                addDistinct(fit.batches, p.shape.batch);
            }
        names.push_back(r.name);
        have.push_back(r.name + ": " + okPointCounts(*r.result));
        if (s.empty()) continue;
        if (r.result->host.gpu.devices.empty())
            addDistinct(gpus, r.result->host.hostname);
        else
            for (const auto& d : r.result->host.gpu.devices)
                addDistinct(gpus, d.name);
    }
    const auto model = fitCostModel(samples);
    if (!model) {
        if (whyNot)
            *whyNot = "cannot fit " + backend + " " + std::string(toString(mode)) +
                      ": it needs at least 3 ok " + backend + " " + std::string(toString(mode)) +
                      " points, got " + std::to_string(samples.size()) + " (" +
                      (have.empty() ? "no results" : joined(have)) + ")";
        return std::nullopt;
    }
    fit.model = *model;
    fit.lowest = fit.highest = samples.front().x;
    for (const CostSample& sample : samples)
        for (std::size_t k = 0; k < sample.x.size(); ++k) {
            fit.lowest[k] = std::min(fit.lowest[k], sample.x[k]);
            fit.highest[k] = std::max(fit.highest[k], sample.x[k]);
        }
    fit.looErrors = leaveOneOutErrors(samples);
    if (fit.models.size() >= 2)
        for (std::size_t k = 0; k < fit.models.size(); ++k) {
            std::vector<CostSample> others;
            for (std::size_t i = 0; i < samples.size(); ++i)
                if (modelOf[i] != k) others.push_back(samples[i]);
            const auto m = fitCostModel(others);
            if (!m) continue;
            for (std::size_t i = 0; i < samples.size(); ++i)
                if (modelOf[i] == k)
                    fit.crossModelErrors.push_back(std::abs(predictMs(*m, samples[i].x) - samples[i].ms) /
                                                   samples[i].ms);
        }
    fit.from = joined(names);
    fit.gpu = joined(gpus);
    return fit;
}

bool isFittedModel(const BackendFit& fit, const RnnConfig& config) {
    return std::any_of(fit.models.begin(), fit.models.end(),
                       [&](const RnnConfig& m) { return modelDifferences(m, config).empty(); });
}

std::string extrapolationProblem(const BackendFit& fit, const Shape& shape, const CostFeatures& x) {
    auto has = [](const std::vector<int>& values, int v) {
        return std::find(values.begin(), values.end(), v) != values.end();
    };
    // A relative margin: features of the same shape computed for another model differ by rounding.
    auto outside = [&](std::size_t k) {
        return x[k] < fit.lowest[k] * (1 - 1e-9) || x[k] > fit.highest[k] * (1 + 1e-9);
    };
    if (fit.seqLens.size() == 1 && !has(fit.seqLens, shape.seqLen))
        return "cannot extrapolate in T from one sequence length (T=" + std::to_string(fit.seqLens.front()) +
               ")";
    if (fit.batches.size() == 1 && !has(fit.batches, shape.batch))
        return "cannot extrapolate in B from one batch size (B=" + std::to_string(fit.batches.front()) + ")";
    if (fit.model.gflops <= 0.0 && outside(2))
        return "the fit has no FLOP term (R 0): it cannot follow work outside the range it was fitted on";
    if (fit.model.stepMs <= 0.0 && outside(1))
        return "the fit has no per-step term (alpha 0): it cannot follow steps outside the range it was "
               "fitted on";
    return {};
}

Prediction predictionOf(const BackendFit& fit, const PredictedTime& time, bool fittedModel,
                        const std::string& extrapolation) {
    const std::vector<double>& errors =
        !fittedModel && !fit.crossModelErrors.empty() ? fit.crossModelErrors : fit.looErrors;
    Prediction p;
    p.lowMs = time.lowMs;
    p.highMs = std::isfinite(time.highMs) ? time.highMs : std::numeric_limits<double>::quiet_NaN();
    p.from = fit.from;
    p.gpu = fit.gpu;
    p.fittedPoints = fit.model.points;
    p.fixedMs = fit.model.fixedMs;
    p.stepMs = fit.model.stepMs;
    p.gflops = fit.model.gflops;
    p.looMedianError = medianOf(errors);
    p.looWithin30 = shareWithin30(errors);
    p.unreliable = unreliable(errors) || !extrapolation.empty();
    p.unreliableReason = extrapolation;
    p.check = fittedModel                     ? "leave-one-out"
              : !fit.crossModelErrors.empty() ? "leave-one-model-out"
                                              : "leave-one-out; another model, cross-shape error unchecked";
    return p;
}

PointResult predictedPoint(const BackendFit& fit, const RnnConfig& config, const Shape& shape) {
    const CostFeatures x = costFeatures(config, shape, fit.mode);
    const PredictedTime time = predictWithBand(fit.model, x);
    PointResult p;
    p.backend = fit.backend;
    p.mode = fit.mode;
    p.shape = shape;
    p.status = PointStatus::Predicted;
    p.iteration.median = time.ms;
    p.flopsPerIteration = iterationFlops(config, shape, fit.mode);
    p.prediction = predictionOf(fit, time, isFittedModel(fit, config), extrapolationProblem(fit, shape, x));
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
            auto fit = fitBackend(from, backend, mode, &why);
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
