#pragma once
// `rnnprof sweep`: a sweep headless, from a preset, a config file and flags (see --help). Writes
// JSON (and optionally CSV, a Chrome trace and charts), a journal while it runs, a progress line
// on stderr and a summary table on stdout. Ctrl-C is acknowledged at once, abandons the run in
// progress (Session::setStopToken) and keeps the measured points and runs.
#include <string>
#include <vector>

namespace rnnprof::cli {

// argv[1] is "sweep". Returns the process exit code.
int runSweepCommand(int argc, char** argv);

// The same with ready-made arguments (without the program name and "sweep"); used by the
// no-display default run of `rnnprof`. Needs an existing QApplication when --charts is given.
int runSweep(const std::vector<std::string>& args);

} // namespace rnnprof::cli
