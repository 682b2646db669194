#pragma once
// The signals that stop a sweep as Ctrl-C does: Ctrl-C itself, SIGTERM (what Slurm and Kubernetes
// send at a time limit or preemption, and `kill`'s default) and SIGHUP (a closed terminal or ssh
// session). Each is acknowledged at once, the run in progress is abandoned at the session's next
// check, what was measured is saved, and the sweep exits with 128 + the signal's number.
#include "engine/stop_token.h"

#include <csignal>
#include <string>

namespace rnnprof::cli {

// Installs the stop-signal handlers for the lifetime of a sweep. The handlers never run on a thread
// that computes: the first guard blocks the signals in the calling thread (and so in every thread
// it starts later: OpenMP's, the engine's) and starts one thread that only receives them. oneDNN
// 2.6's JIT GEMM kernels point the stack register into the heap while they run; a handler run on
// such a thread writes its frame there and corrupts the heap (fixed upstream after oneDNN 3.11).
// So the first guard must be made before the process runs any kernel.
class StopSignalGuard {
public:
    // `command` ("rnnprof sweep") and `whatHappens` (what the stop does to the run in progress and
    // what is saved) make the acknowledgement; string literals, read by the handler.
    StopSignalGuard(StopToken& stop, const char* command, const char* whatHappens);
    ~StopSignalGuard();
    StopSignalGuard(const StopSignalGuard&) = delete;
    StopSignalGuard& operator=(const StopSignalGuard&) = delete;

private:
    using Handler = void (*)(int);
    Handler m_previous[3] = {};
};

// The exit status of a sweep stopped early: 128 + the signal that stopped it (the result's
// stopped_by), as a shell reports a process the signal ended (130 for Ctrl-C); 130 otherwise.
[[nodiscard]] int stoppedExitStatus(const std::string& stoppedBy);

} // namespace rnnprof::cli
