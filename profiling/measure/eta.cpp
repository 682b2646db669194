#include "profiling/measure/eta.h"

#include "profiling/analysis/cost_model.h"
#include "profiling/analysis/flops.h"

#include <algorithm>
#include <cmath>

namespace rnnprof {
namespace {

// Before Run (defaultEtaRates): GFLOP/s per core of the CPU backends, of the GPU backends (small
// shapes are bound by launch latency: quick-start on the H100 reached 50-800 GFLOP/s below B=64),
// of cpu-reference (the plain-loop oracle), and the cost of a point beyond its runs.
constexpr double kCpuGflopsPerCore = 20.0;
constexpr double kReferenceGflopsPerCore = 0.5;
constexpr double kGpuGflops = 1000.0;
constexpr double kDefaultStepMs = 0.005;
constexpr double kDefaultOverheadSeconds = 0.05;

bool contains(const std::vector<std::string>& list, const std::string& item) {
    return std::find(list.begin(), list.end(), item) != list.end();
}

} // namespace

double pointRunSeconds(double iterationMs, const MeasureSettings& settings) {
    if (!(iterationMs > 0.0) || !std::isfinite(iterationMs)) return 0.0;
    const double byBudget = std::ceil(settings.timeBudgetMs / iterationMs);
    const double runs = std::clamp(byBudget, double(settings.minRepeats),
                                   double(std::max(settings.maxRepeats, settings.minRepeats)));
    return (double(settings.warmup) + runs) * iterationMs / 1000.0;
}

EtaRates defaultEtaRates(const SweepPlan& plan, int cores,
                         const std::function<bool(const std::string& backend)>& available) {
    EtaRates rates;
    rates.overheadSeconds = kDefaultOverheadSeconds;
    rates.fallbackStepMs = kDefaultStepMs;
    const double usedCores = double(
        plan.settings.threads > 0 ? std::min(plan.settings.threads, std::max(cores, 1)) : std::max(cores, 1));
    rates.fallbackGflops = [usedCores](const std::string& series) {
        const std::string_view backend = registryIdOf(series);
        if (backend.starts_with("gpu-")) return kGpuGflops;
        if (backend == "cpu-reference") return kReferenceGflopsPerCore * usedCores;
        return kCpuGflopsPerCore * usedCores;
    };
    for (const std::string& backend : plan.backends)
        if (available && !available(backend)) rates.instant.push_back(backend);
    return rates;
}

EtaRates learnEtaRates(EtaRates rates, const std::vector<PointResult>& done,
                       const MeasureSettings& settings) {
    std::map<std::pair<std::string, Mode>, std::pair<double, double>> work; // FLOPs, ms
    std::map<std::string, bool> anyTimed;
    double excess = 0.0;
    int measured = 0;
    for (const PointResult& p : done) {
        anyTimed.try_emplace(p.backend, false);
        if (!p.ok() || !(p.iteration.median > 0.0)) continue;
        anyTimed[p.backend] = true;
        auto& [flops, ms] = work[{p.backend, p.mode}];
        flops += double(p.flopsPerIteration);
        ms += p.iteration.median;
        excess += std::max(0.0, p.measureSeconds - pointRunSeconds(p.iteration.median, settings));
        ++measured;
    }
    for (const auto& [key, sums] : work)
        if (sums.first > 0.0 && sums.second > 0.0) rates.gflops[key] = sums.first / sums.second / 1e6;
    for (const auto& [series, timed] : anyTimed)
        if (!timed && !contains(rates.instant, series)) rates.instant.push_back(series);
    if (measured > 0) rates.overheadSeconds = excess / double(measured);
    return rates;
}

double estimateSeconds(const SweepPlan& plan, const std::vector<PointSpec>& remaining,
                       const EtaRates& rates) {
    double seconds = 0.0;
    for (const PointSpec& spec : remaining) {
        const std::string series = seriesId(spec);
        seconds += rates.overheadSeconds;
        if (contains(rates.instant, series) || contains(rates.instant, std::string(registryIdOf(series))))
            continue;
        const double flops = double(iterationFlops(plan.config, spec.shape, spec.mode));
        if (const auto it = rates.gflops.find({series, spec.mode}); it != rates.gflops.end()) {
            if (it->second > 0.0) seconds += pointRunSeconds(flops / (it->second * 1e6), plan.settings);
        } else if (rates.fallbackGflops) {
            const double gflops = rates.fallbackGflops(series);
            if (!(gflops > 0.0)) continue;
            const double floorMs = recurrentSteps(plan.config, spec.shape, spec.mode) * rates.fallbackStepMs;
            seconds += pointRunSeconds(floorMs + flops / (gflops * 1e6), plan.settings);
        }
    }
    return seconds;
}

} // namespace rnnprof
