#pragma once
// Helpers of the command-line tests: running the real rnnprof binary (RNNPROF_EXE) with its
// standard output and error captured.
#include "support/child_process.h"

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

inline ProcessResult runEval(Args args) {
    args.insert(args.begin(), "eval");
    return runRnnprof(args);
}

} // namespace rnnprof::test
