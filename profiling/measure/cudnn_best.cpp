#include "profiling/measure/cudnn_best.h"

#include "profiling/plan.h"

#include <algorithm>

namespace rnnprof {

std::string cudnnAlgoOfSeries(const std::string& seriesId) {
    const auto open = seriesId.find('[');
    if (open == std::string::npos || seriesId.back() != ']')
        return std::string(toString(CudnnAlgo::Standard));
    return seriesId.substr(open + 1, seriesId.size() - open - 2);
}

PointResult bestCudnnPoint(const std::vector<PointResult>& siblings) {
    const PointResult* best = nullptr;
    for (const PointResult& p : siblings)
        if (p.ok() && (!best || p.iteration.median < best->iteration.median)) best = &p;
    if (best) {
        PointResult derived = *best;
        derived.backend = std::string(kCudnnBestSeries);
        derived.notes.insert(derived.notes.begin(),
                             "fastest cuDNN algorithm here: " + cudnnAlgoOfSeries(best->backend) + " (of " +
                                 std::to_string(siblings.size()) +
                                 " measured; a copy of its measurement, not a run of its own)");
        return derived;
    }
    PointResult none;
    none.backend = std::string(kCudnnBestSeries);
    if (!siblings.empty()) {
        none.mode = siblings.front().mode;
        none.shape = siblings.front().shape;
        none.noiseThreshold = siblings.front().noiseThreshold;
    }
    // One cause for all (no GPU here, say): that status and reason.
    const bool alike =
        !siblings.empty() && std::all_of(siblings.begin(), siblings.end(), [&](const PointResult& p) {
            return p.status == siblings.front().status && p.reason == siblings.front().reason;
        });
    if (alike) {
        none.status = siblings.front().status;
        none.reason = siblings.front().reason;
        return none;
    }
    none.status = PointStatus::Ineligible;
    none.reason = "no cuDNN algorithm ran here:";
    for (const PointResult& p : siblings)
        none.reason += " " + cudnnAlgoOfSeries(p.backend) + ": " + std::string(toString(p.status)) +
                       (p.reason.empty() ? "" : " (" + p.reason + ")") + ";";
    none.reason.pop_back();
    return none;
}

} // namespace rnnprof
