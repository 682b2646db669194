#pragma once
// Whether a result's host record says its machine was busy (host_load.h's busyWarning() applied
// to the load recorded before and during the sweep): one rule for the terminal summary and the
// window's warning.
#include "profiling/measure/host_info.h"

#include <string>

namespace rnnprof {

// "during the sweep: Busy machine: ..." for the first recorded sample that was busy, empty when
// none was or nothing was recorded (older files, no /proc). `threads` as the plan's (0: all).
[[nodiscard]] std::string hostBusyWarning(const HostInfo& host, int threads);
// The same verdict in a few words, for chart notes and footers: "busy before the sweep: others kept
// 1.9 of 2 cores busy"; empty when hostBusyWarning() is.
[[nodiscard]] std::string hostBusyBrief(const HostInfo& host, int threads);

} // namespace rnnprof
