#pragma once
// Developer tool measuring the speed goals of the desktop application: start to first window shown,
// and the GUI event loop's lateness while a 500-point sweep of tiny shapes runs (a 5 ms QTimer
// records how late each tick arrives; p50/p99/max reported). Prints its numbers; asserts nothing.
#include <chrono>

namespace rnnprof::tools {

int runResponsiveness(int argc, char** argv, std::chrono::steady_clock::time_point processStart);

} // namespace rnnprof::tools
