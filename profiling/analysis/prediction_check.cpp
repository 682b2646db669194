#include "profiling/analysis/prediction_check.h"

#include "profiling/analysis/crossover.h"
#include "profiling/measure/statistics.h"
#include "profiling/plan.h"

#include <algorithm>
#include <cstdio>
#include <tuple>

namespace rnnprof {
namespace {

std::string percent(double share) {
    char text[32];
    std::snprintf(text, sizeof text, "%.0f %%", 100 * share);
    return text;
}

// "| gpu-cudnn infer | 3 | 53 | 18.9 % | 40.6 % | 74 % | 87 % |"
std::string errorRow(const std::string& name, const std::string& models, std::vector<double> errors,
                     double coverage) {
    std::sort(errors.begin(), errors.end());
    char text[300];
    std::snprintf(text, sizeof text, "| %s | %s | %zu | %.1f %% | %.1f %% | %s | %s |\n", name.c_str(),
                  models.c_str(), errors.size(), 100 * percentile(errors, 0.5), 100 * percentile(errors, 0.9),
                  percent(shareWithin30(errors)).c_str(), percent(coverage).c_str());
    return text;
}

} // namespace

std::vector<CostFamily> gpuFamilies(const std::vector<NamedResult>& from) {
    std::vector<CostFamily> out;
    for (const NamedResult& r : from) {
        if (!r.result) continue;
        for (const PointResult& p : r.result->points) {
            const CostFamily f = familyOf(*r.result, p);
            if (p.ok() && isGpuBackendId(registryIdOf(p.backend)) &&
                std::find(out.begin(), out.end(), f) == out.end())
                out.push_back(f);
        }
    }
    std::sort(out.begin(), out.end(), [](const CostFamily& a, const CostFamily& b) {
        return std::tie(a.backend, a.mode, a.cudaGraph) < std::tie(b.backend, b.mode, b.cudaGraph);
    });
    return out;
}

std::vector<FamilyCheck> checkFamilies(const std::vector<NamedResult>& from) {
    std::vector<FamilyCheck> out;
    for (const CostFamily& family : gpuFamilies(from)) {
        FamilyCheck c{family, std::nullopt, {}};
        c.fit = fitBackend(from, family, &c.whyNot);
        out.push_back(std::move(c));
    }
    return out;
}

std::string predictionCheckText(const std::vector<FamilyCheck>& checks) {
    std::string text =
        "| backend, mode | models | left-out points | median error | p90 | within ±30 % | inside the band |\n"
        "|---|---|---|---|---|---|---|\n";
    std::vector<double> all;
    double inside = 0.0;
    std::string limits, notFitted;
    for (const FamilyCheck& c : checks) {
        if (!c.fit) {
            notFitted += "- " + c.whyNot + "\n";
            continue;
        }
        const BackendFit& f = *c.fit;
        limits = f.limits.source;
        if (f.crossModelErrors.empty()) {
            notFitted += "- " + toString(c.family) + ": one model only (" + std::to_string(f.model.points) +
                         " points), no model to leave out\n";
            continue;
        }
        text += errorRow(toString(c.family), std::to_string(f.familyModels.size()), f.crossModelErrors,
                         f.bandCoverage);
        all.insert(all.end(), f.crossModelErrors.begin(), f.crossModelErrors.end());
        inside += f.bandCoverage * double(f.crossModelErrors.size());
    }
    if (!all.empty()) text += errorRow("all", "", all, inside / double(all.size()));
    if (!notFitted.empty()) text += "\nNot checked:\n\n" + notFitted;
    text += "\nFitted on all points" + (limits.empty() ? std::string() : ", " + limits) +
            ":\n\n| backend, mode | points | c | launch | bandwidth | rate | per gate value |\n"
            "|---|---|---|---|---|---|---|\n";
    for (const FamilyCheck& c : checks) {
        if (!c.fit) continue;
        const CostModel& m = c.fit->model;
        char row[300];
        std::snprintf(row, sizeof row,
                      "| %s | %d | %.3g ms | %.3g µs | %.0f GB/s | %.0f GFLOP/s | %.3g ps |\n",
                      toString(c.family).c_str(), m.points, m.fixedMs, m.launchUs, m.bandwidthGBs, m.gflops,
                      m.elementPs);
        text += row;
    }
    return text;
}

} // namespace rnnprof
