#include "gui/models/gpu_timeline.h"

#include "gui/models/chart_data.h"
#include "profiling/files/trace_tracks.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace rnnprof::gui {

double gpuIdlePercent(const GpuProfile& gpu) {
    if (!(gpu.wallUs > 0.0) || !std::isfinite(gpu.gpuBusyUs)) return 0.0;
    return std::clamp(100.0 * (1.0 - gpu.gpuBusyUs / gpu.wallUs), 0.0, 100.0);
}

QString gpuBusyText(const GpuProfile& gpu) {
    if (!gpu.traced || !(gpu.wallUs > 0.0)) return {};
    return QStringLiteral("GPU busy %1 of %2 per iteration — idle %3 %")
        .arg(formatMs(gpu.gpuBusyUs / 1000.0), formatMs(gpu.wallUs / 1000.0))
        .arg(std::lround(gpuIdlePercent(gpu)));
}

std::vector<TimelineLane> timelineLanes(const std::vector<TraceSlice>& trace) {
    std::map<int, TimelineLane> byTrack; // ordered: the host (0) first, then streams
    for (const TraceSlice& slice : trace) {
        if (!isDrawableSlice(slice)) continue;
        TimelineLane& lane = byTrack[slice.track];
        lane.track = slice.track;
        lane.slices.push_back(slice);
    }
    std::vector<TimelineLane> lanes;
    for (auto& [track, lane] : byTrack) {
        lane.name = QString::fromStdString(traceTrackName(track));
        std::stable_sort(lane.slices.begin(), lane.slices.end(),
                         [](const TraceSlice& a, const TraceSlice& b) { return a.startUs < b.startUs; });
        lanes.push_back(std::move(lane));
    }
    return lanes;
}

} // namespace rnnprof::gui
