#include "profiling/result.h"

#include <array>
#include <cmath>
#include <ctime>

namespace rnnprof {
namespace {

// Result files store NaN as null and read it back as NaN: a value that is "not there" must
// compare equal to itself so that a round trip compares equal.
bool same(double a, double b) {
    return a == b || (std::isnan(a) && std::isnan(b));
}

bool same(const SampleStats& a, const SampleStats& b) {
    return a.count == b.count && same(a.median, b.median) && same(a.p10, b.p10) && same(a.p90, b.p90) &&
           same(a.min, b.min) && same(a.max, b.max) && same(a.mean, b.mean) && same(a.stddev, b.stddev) &&
           same(a.cv, b.cv);
}

bool same(const Numerics& a, const Numerics& b) {
    return a.checked == b.checked && same(a.maxAbsErr, b.maxAbsErr) && same(a.maxRelErr, b.maxRelErr) &&
           a.worstTensor == b.worstTensor && a.note == b.note;
}

bool samePhases(const std::array<double, kPhaseCount>& a, const std::array<double, kPhaseCount>& b) {
    for (int i = 0; i < kPhaseCount; ++i)
        if (!same(a[std::size_t(i)], b[std::size_t(i)])) return false;
    return true;
}

} // namespace

std::string_view toString(PointStatus s) {
    return spellingOf(kPointStatusSpellings, s);
}

std::optional<PointStatus> parsePointStatus(std::string_view s) {
    return parseSpelling(kPointStatusSpellings, s);
}

bool PointResult::operator==(const PointResult& o) const {
    return backend == o.backend && mode == o.mode && shape == o.shape && status == o.status &&
           reason == o.reason && warmupRuns == o.warmupRuns && measuredRuns == o.measuredRuns &&
           same(iteration, o.iteration) && samePhases(phaseMedianMs, o.phaseMedianMs) && steps == o.steps &&
           noisy == o.noisy && same(noiseThreshold, o.noiseThreshold) &&
           flopsPerIteration == o.flopsPerIteration && same(sequencesPerSecond, o.sequencesPerSecond) &&
           same(tokensPerSecond, o.tokensPerSecond) && same(gflopsPerSecond, o.gflopsPerSecond) &&
           memory == o.memory && peakRssGrowthBytes == o.peakRssGrowthBytes && same(numerics, o.numerics) &&
           notes == o.notes && trace == o.trace && gpu == o.gpu && same(measureSeconds, o.measureSeconds);
}

// `label` is how a loaded file is shown, not part of the data: it is neither saved nor compared.
bool SweepResult::operator==(const SweepResult& o) const {
    return schemaVersion == o.schemaVersion && createdAt == o.createdAt && host == o.host && plan == o.plan &&
           points == o.points && complete == o.complete;
}

std::string isoTimestampUtc() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32] = {};
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

} // namespace rnnprof
