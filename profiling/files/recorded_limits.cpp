#include "profiling/files/recorded_limits.h"

#include "engine/backend.h"
#include "engine/problem.h"
#include "profiling/plan.h"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <set>

namespace rnnprof {
namespace {

struct AcceptedIds {
    std::mutex mutex;
    std::set<std::string, std::less<>> ids;
};

AcceptedIds& acceptedIds() {
    static AcceptedIds accepted;
    return accepted;
}

bool isAccepted(std::string_view id) {
    AcceptedIds& accepted = acceptedIds();
    const std::lock_guard lock(accepted.mutex);
    return accepted.ids.contains(id);
}

} // namespace

void acceptBackendIds(const std::vector<std::string>& ids) {
    AcceptedIds& accepted = acceptedIds();
    const std::lock_guard lock(accepted.mutex);
    accepted.ids.insert(ids.begin(), ids.end());
}

bool isWithinRecordedRange(double v) {
    return std::isfinite(v) && std::fabs(v) <= kMaxRecordedValue;
}

bool isKnownSeriesId(std::string_view id) {
    const std::string_view registry = registryIdOf(id);
    const std::vector<std::string> ids = builtinBackends().ids();
    if (std::find(ids.begin(), ids.end(), registry) == ids.end()) return isAccepted(id);
    if (registry.size() == id.size()) return true;
    if (id == kCudnnBestSeries) return true;
    // "gpu-cudnn[ALGO]": the brackets hold exactly one algorithm's spelling.
    if (!runsPerCudnnAlgo(registry) || id.back() != ']') return false;
    const std::string_view algo = id.substr(registry.size() + 1, id.size() - registry.size() - 2);
    return parseSpelling(kCudnnAlgoSpellings, algo).has_value();
}

std::string knownSeriesIdsText() {
    std::string text;
    for (const std::string& id : builtinBackends().ids())
        text += id + ", ";
    const std::string_view best = kCudnnBestSeries;
    return text + "or gpu-cudnn[ALGO] with ALGO one of " + spellingList(kCudnnAlgoSpellings) + ", " +
           std::string(best.substr(best.find('[') + 1, best.size() - best.find('[') - 2));
}

} // namespace rnnprof
