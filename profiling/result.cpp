#include "profiling/result.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <ctime>
#include <tuple>
#include <utility>

namespace rnnprof {
namespace {

// NaN marks a value that is not there (a phase that did not run; null in a result file): it is
// the same as another NaN, so that a result read back from its file compares equal to what was
// saved. Everything else compares with its own ==.
bool same(double a, double b) {
    return a == b || (std::isnan(a) && std::isnan(b));
}

template <class T>
bool same(const T& a, const T& b) {
    return a == b;
}

template <class T, std::size_t N>
bool same(const std::array<T, N>& a, const std::array<T, N>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), [](const T& x, const T& y) { return same(x, y); });
}

bool same(const SampleStats& a, const SampleStats& b);
bool same(const Numerics& a, const Numerics& b);
bool same(const Prediction& a, const Prediction& b);

template <class T>
bool same(const std::optional<T>& a, const std::optional<T>& b) {
    return a.has_value() == b.has_value() && (!a || same(*a, *b));
}

template <class... T>
bool sameMembers(const std::tuple<T...>& a, const std::tuple<T...>& b) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
        return (same(std::get<I>(a), std::get<I>(b)) && ...);
    }
    (std::index_sequence_for<T...>{});
}

// Every member, in declaration order. A structured binding has to name each member of the
// struct, so adding one stops these from compiling until it is listed: equality cannot skip it.
auto members(const SampleStats& s) {
    const auto& [count, median, p10, p90, min, max, mean, stddev, cv] = s;
    return std::tie(count, median, p10, p90, min, max, mean, stddev, cv);
}

auto members(const Numerics& n) {
    const auto& [checked, maxAbsErr, maxRelErr, worstTensor, note] = n;
    return std::tie(checked, maxAbsErr, maxRelErr, worstTensor, note);
}

auto members(const Prediction& p) {
    const auto& [lowMs, highMs, from, gpu, fittedPoints, fixedMs, stepMs, gflops, bandwidthGBs,
                 looMedianError, looWithin30, unreliable, unreliableReason, check, band] = p;
    return std::tie(lowMs, highMs, from, gpu, fittedPoints, fixedMs, stepMs, gflops, bandwidthGBs,
                    looMedianError, looWithin30, unreliable, unreliableReason, check, band);
}

auto members(const PointResult& p) {
    const auto& [backend, mode, shape, status, reason, warmupRuns, measuredRuns, iteration, phaseMedianMs,
                 steps, noisy, noiseThreshold, disturbed, disturbance, flopsPerIteration, sequencesPerSecond,
                 tokensPerSecond, gflopsPerSecond, memory, peakRssGrowthBytes, numerics, notes, trace, gpu,
                 measureSeconds, prediction, hostIndex] = p;
    return std::tie(backend, mode, shape, status, reason, warmupRuns, measuredRuns, iteration, phaseMedianMs,
                    steps, noisy, noiseThreshold, disturbed, disturbance, flopsPerIteration,
                    sequencesPerSecond, tokensPerSecond, gflopsPerSecond, memory, peakRssGrowthBytes,
                    numerics, notes, trace, gpu, measureSeconds, prediction, hostIndex);
}

// `label` is how a loaded file is shown, not part of the data: it is neither saved nor compared.
// The recorded verdicts are compared by their value, fastPath() (SweepResult::operator==).
auto members(const SweepResult& r) {
    const auto& [schemaVersion, createdAt, host, plan, points, complete, stoppedBy, recordedFastPath, label,
                 shard, otherHosts, crossovers] = r;
    (void)recordedFastPath;
    (void)label;
    return std::tie(schemaVersion, createdAt, host, plan, points, complete, stoppedBy, shard, otherHosts,
                    crossovers);
}

auto members(const CrossoverRecord& c) {
    const auto& [baseline, challenger, mode, seqLen, batch, low, high, verdict, flags, measuredBatches,
                 gridBatches] = c;
    return std::tie(baseline, challenger, mode, seqLen, batch, low, high, verdict, flags, measuredBatches,
                    gridBatches);
}

bool same(const SampleStats& a, const SampleStats& b) {
    return sameMembers(members(a), members(b));
}

bool same(const Numerics& a, const Numerics& b) {
    return sameMembers(members(a), members(b));
}

bool same(const Prediction& a, const Prediction& b) {
    return sameMembers(members(a), members(b));
}

} // namespace

std::string predictedFromText(const Prediction& p) {
    return "predicted from " + p.from + (p.gpu.empty() ? std::string() : " (" + p.gpu + ")") +
           " \u2014 not measured" + (p.unreliable ? " \u2014 UNRELIABLE" : "");
}

std::string unreliableText(const Prediction& p) {
    if (!p.unreliable) return {};
    return "UNRELIABLE: " +
           (p.unreliableReason.empty()
                ? std::string("wrong by more than \u00b130 % on more than a fifth of the points")
                : p.unreliableReason);
}

std::string_view toString(PointStatus s) {
    return spellingOf(kPointStatusSpellings, s);
}

std::optional<PointStatus> parsePointStatus(std::string_view s) {
    return parseSpelling(kPointStatusSpellings, s);
}

bool CrossoverRecord::operator==(const CrossoverRecord& o) const {
    return sameMembers(members(*this), members(o));
}

bool PointResult::operator==(const PointResult& o) const {
    return sameMembers(members(*this), members(o));
}

bool SweepResult::operator==(const SweepResult& o) const {
    return sameMembers(members(*this), members(o)) && fastPath() == o.fastPath();
}

FastPathTexts fastPathTexts(const RnnConfig& config) {
    const FrameworkFastPath v = frameworkFastPath(config);
    return {v.keras.text(), v.pytorch.text()};
}

std::vector<std::string> fastPathLines(const FastPathTexts& texts) {
    return {"Keras: " + texts.keras, "PyTorch: " + texts.pytorch};
}

FastPathTexts SweepResult::fastPath() const {
    return recordedFastPath ? *recordedFastPath : fastPathTexts(plan.config);
}

const HostInfo& hostOf(const SweepResult& result, const PointResult& point) {
    const int i = point.hostIndex;
    return i >= 1 && std::size_t(i) <= result.otherHosts.size() ? result.otherHosts[std::size_t(i) - 1]
                                                                : result.host;
}

int disturbedPointCount(const SweepResult& result) {
    int n = 0;
    for (const PointResult& p : result.points)
        n += p.measured() && p.disturbed ? 1 : 0;
    return n;
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
