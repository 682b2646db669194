#pragma once
// Whether a result's host record says its machine was busy (host_load.h's busyWarning() applied
// to the load recorded before and during the sweep): one rule for the terminal summary and the
// window's warning.
#include "profiling/host_info.h"

#include <string>

namespace rnnprof {

// "during the sweep: Busy machine: ..." for the first recorded sample that was busy, empty when
// none was or nothing was recorded (older files, no /proc). `threads` as the plan's (0: all).
[[nodiscard]] std::string hostBusyWarning(const HostInfo& host, int threads);

} // namespace rnnprof
