// The Chrome trace (Trace Event Format, opens in Perfetto and chrome://tracing): one traced
// iteration per point, each point a process named by its description, laid out one after another
// in time. The engine thread (track 0) carries phases and sub-steps as nested "X" slices; GPU
// kernels and copies go on one thread per stream ("GPU stream N", track N + 1).
#include "engine/atomic_file.h"
#include "profiling/files/result_files.h"
#include "profiling/files/trace_tracks.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <set>

namespace rnnprof {

bool isDrawableSlice(const TraceSlice& s) {
    return std::isfinite(s.startUs) && std::isfinite(s.durationUs) && s.durationUs >= 0.0 && s.track >= 0;
}

std::string traceTrackName(int track) {
    return track == 0 ? "engine thread" : "GPU stream " + std::to_string(track - 1);
}

namespace {

using Json = nlohmann::ordered_json;

constexpr double kGapUs = 50.0; // between consecutive points, so they do not touch

Json metadata(const char* name, int pid, int tid, Json args) {
    return Json{{"name", name}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", std::move(args)}};
}

// Appends the point's slices shifted by `offsetUs`; returns the end of its last slice.
double appendPoint(Json& events, const PointResult& point, int pid, double offsetUs) {
    std::vector<TraceSlice> slices;
    for (const auto& s : point.trace)
        if (isDrawableSlice(s)) slices.push_back(s);
    // Viewers nest "X" slices by time on one thread: a parent must come before its children,
    // so ties in start time go to the longer slice.
    std::stable_sort(slices.begin(), slices.end(), [](const TraceSlice& a, const TraceSlice& b) {
        return a.startUs != b.startUs ? a.startUs < b.startUs : a.durationUs > b.durationUs;
    });
    const PointSpec spec{point.backend, point.mode, point.shape};
    events.push_back(metadata("process_name", pid, 0, {{"name", describe(spec)}}));
    events.push_back(metadata("process_sort_index", pid, 0, {{"sort_index", pid}}));
    std::set<int> tracks;
    double first = 0.0, end = 0.0;
    if (!slices.empty()) first = slices.front().startUs;
    for (const auto& s : slices) {
        tracks.insert(s.track);
        events.push_back({{"name", s.name},
                          {"cat", s.category.empty() ? "step" : s.category},
                          {"ph", "X"},
                          {"ts", offsetUs + s.startUs - first},
                          {"dur", s.durationUs},
                          {"pid", pid},
                          {"tid", s.track}});
        end = std::max(end, offsetUs + s.startUs - first + s.durationUs);
    }
    for (int track : tracks) {
        events.push_back(metadata("thread_name", pid, track, {{"name", traceTrackName(track)}}));
        events.push_back(metadata("thread_sort_index", pid, track, {{"sort_index", track}}));
    }
    return std::max(end, offsetUs);
}

} // namespace

std::string toChromeTrace(const SweepResult& result) {
    Json events = Json::array();
    double offsetUs = 0.0;
    int pid = 0;
    for (const auto& point : result.points) {
        if (point.trace.empty()) continue;
        offsetUs = appendPoint(events, point, ++pid, offsetUs) + kGapUs;
    }
    Json doc{{"traceEvents", std::move(events)},
             {"displayTimeUnit", "ms"},
             {"otherData",
              {{"model", describe(result.plan.config)},
               {"host", result.host.hostname},
               {"cpu", result.host.cpuModel},
               {"gpu", result.host.gpu.summary()},
               {"created_at", result.createdAt}}}};
    return doc.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

void saveChromeTrace(const std::string& path, const SweepResult& result) {
    writeFileAtomically(path, toChromeTrace(result));
}

} // namespace rnnprof
