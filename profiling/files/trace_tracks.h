#pragma once
// The tracks of a point's traced iteration (TraceSlice, result.h), for everything that lays them
// out: the Chrome trace export and the GUI's time line name and filter them the same way.
#include "profiling/result.h"

#include <string>

namespace rnnprof {

// Whether a slice can be laid out on a time line: finite times, a non-negative duration and track.
[[nodiscard]] bool isDrawableSlice(const TraceSlice& slice);
// "engine thread", "GPU stream 7": the one name of a track in traces and the GUI's time line.
[[nodiscard]] std::string traceTrackName(int track);

} // namespace rnnprof
