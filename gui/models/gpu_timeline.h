#pragma once
// What the breakdown says about the GPU of a traced point: how busy it was per iteration (the figure
// a launch-bound GPU shows at a glance) and the lanes of its traced iteration, the host's engine
// thread first, then one per CUDA stream. Plain values from PointResult; no widgets.
#include "profiling/result.h"

#include <QString>

#include <vector>

namespace rnnprof::gui {

// "GPU busy 91.0 µs of 852 µs per iteration — idle 89 %"; empty when the point was not traced or
// recorded no iteration time.
[[nodiscard]] QString gpuBusyText(const GpuProfile& gpu);
// The idle share of the iteration in percent, 0..100 (busy time beyond the wall time counts as 0).
[[nodiscard]] double gpuIdlePercent(const GpuProfile& gpu);

struct TimelineLane {
    QString name; // traceTrackName(): "engine thread", "GPU stream 7"
    int track = 0;
    std::vector<TraceSlice> slices; // in start order
};

// One lane per track of the drawable slices of `trace` (TraceSlice::track): the host first, then streams by
// id. A lane is there as soon as one slice is on it.
[[nodiscard]] std::vector<TimelineLane> timelineLanes(const std::vector<TraceSlice>& trace);

} // namespace rnnprof::gui
