#include "profiling/analysis/traced_headline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rnnprof {

bool headlineIsTraced(const PointResult& point) {
    if (!point.ok() || !point.gpu || !point.gpu->traced) return false;
    const double traced = point.gpu->tracedMedianMs;
    const double untraced = point.gpu->untracedMedianMs;
    if (!(traced > 0.0) || !(untraced > 0.0) || traced == untraced) return false;
    return std::abs(point.iteration.median - traced) <= 1e-9 * traced;
}

std::string tracedHeadlineBrief(const SweepResult& result) {
    double worst = 0.0;
    for (const PointResult& p : result.points)
        if (headlineIsTraced(p)) worst = std::max(worst, p.gpu->tracedMedianMs / p.gpu->untracedMedianMs);
    if (!(worst > 0.0)) return {};
    if (worst <= 1.0)
        return "GPU times measured while CUPTI traced (the untraced median recorded beside them differs): "
               "not a time reference";
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.2g", worst);
    return std::string("GPU times measured while CUPTI traced (up to ") + ratio +
           "× the untraced median recorded beside them): not a time reference";
}

} // namespace rnnprof
