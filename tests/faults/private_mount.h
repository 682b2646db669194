#pragma once
// Helpers of the fault-injection tests that need a filesystem only one process sees: a shell script
// run inside a private mount namespace (where a small or read-only filesystem can be mounted), and
// this test executable, whose --probe mode runs one file operation there (faults_main.cpp).
#include "support/child_process.h"

#include <filesystem>
#include <optional>
#include <string>

namespace rnnprof::test {

inline std::string shellQuote(const std::string& s) {
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// Runs `script` with sh inside a private mount namespace (mounts vanish with the process).
inline ProcessResult runInPrivateMount(const std::string& script) {
    return runToEnd({"unshare", "--mount", "--propagation", "private", "sh", "-c", script});
}

// Why a private mount namespace with a tmpfs cannot be had here, or nullopt when it can (needs
// root or CAP_SYS_ADMIN, and unshare from util-linux).
inline std::optional<std::string> privateMountUnavailable() {
    static const std::optional<std::string> reason = []() -> std::optional<std::string> {
        if (::geteuid() != 0) return "needs root to mount a filesystem in a private mount namespace";
        TempDir probe;
        const ProcessResult r =
            runInPrivateMount("mount -t tmpfs -o size=4k tmpfs " + shellQuote(probe.path()));
        if (r.status != 0)
            return "cannot mount a tmpfs in a private mount namespace (unshare -m): " +
                   (r.err.empty() ? "exit status " + std::to_string(r.status) : r.err);
        return std::nullopt;
    }();
    return reason;
}

// This test executable (for its --probe mode, see faults_main.cpp).
inline std::string selfExecutable() {
    std::error_code ec;
    return std::filesystem::read_symlink("/proc/self/exe", ec).string();
}

} // namespace rnnprof::test
