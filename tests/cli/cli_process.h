#pragma once
// Helpers of the command-line tests: running the real rnnprof binary (RNNPROF_EXE) with its
// standard output and error captured.
#include "support/child_process.h"

#include <cstdlib>
#include <string>
#include <vector>

namespace rnnprof::test {

using Args = std::vector<std::string>;

// Runs `rnnprof <args>` and waits for it.
inline ProcessResult runRnnprof(const Args& args) {
    std::vector<std::string> argv{RNNPROF_EXE};
    argv.insert(argv.end(), args.begin(), args.end());
    return runToEnd(std::move(argv));
}

// Leaves no display (nor a Qt platform) in this process's environment, for the children it starts.
inline void forgetDisplay() {
    unsetenv("DISPLAY");
    unsetenv("WAYLAND_DISPLAY");
    unsetenv("QT_QPA_PLATFORM");
}

// Runs `rnnprof <command> <args>` with no display: the commands that draw charts (plot, report)
// must not need one.
inline ProcessResult runWithoutDisplay(const std::string& command, Args args) {
    forgetDisplay();
    args.insert(args.begin(), command);
    return runRnnprof(args);
}

inline ProcessResult runEval(Args args) {
    args.insert(args.begin(), "eval");
    return runRnnprof(args);
}

} // namespace rnnprof::test
