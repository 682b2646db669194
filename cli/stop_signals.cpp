#include "cli/stop_signals.h"

#include <atomic>
#include <cstring>
#include <iterator>
#include <mutex>
#include <pthread.h>
#include <thread>
#include <unistd.h>

namespace rnnprof::cli {
namespace {

std::atomic<StopToken*> g_stop{nullptr};
std::atomic<bool> g_stderrIsTty{false};

struct StopSignal {
    int number;
    const char* name; // also the reason recorded in the results file ("stopped_by")
};
constexpr StopSignal kStopSignals[] = {{SIGINT, "SIGINT"}, {SIGTERM, "SIGTERM"}, {SIGHUP, "SIGHUP"}};

// Said at once, from the handler (write() is async-signal-safe): "rnnprof sweep: stopping (SIGTERM)"
// and what happens next. The stop itself may take until the session's next check inside the run,
// or the end of a GPU run.
std::atomic<const char*> g_command{"rnnprof"};
std::atomic<const char*> g_whatHappens{""};
constexpr char kStopping[] = ": stopping (";

void writeToStderr(const char* text, std::size_t length) {
    if (::write(STDERR_FILENO, text, length) < 0) return; // nothing better to do in a handler
}

extern "C" void onStopSignal(int number) {
    const char* name = "a signal";
    for (const StopSignal& s : kStopSignals)
        if (s.number == number) name = s.name;
    if (StopToken* stop = g_stop.load()) stop->requestStop(name);
    std::signal(number, SIG_DFL); // the same signal again ends the process; the journal stays valid
    if (g_stderrIsTty.load()) writeToStderr("\n", 1); // below the progress line, which stays as it was
    for (const char* text :
         {g_command.load(), static_cast<const char*>(kStopping), name, "): ", g_whatHappens.load(), "\n"})
        writeToStderr(text, std::strlen(text));
}

sigset_t stopSignalSet() {
    sigset_t set;
    sigemptyset(&set);
    for (const StopSignal& s : kStopSignals)
        sigaddset(&set, s.number);
    return set;
}

// Blocks the stop signals in the calling thread, and so in the threads it starts from now on, and
// starts the one thread that receives them: it only waits, so a handler interrupts nothing there.
// (Threads some library started before, such as OpenBLAS's pool, may receive them too; they run no
// JIT code that moves the stack.) Once per process.
void routeStopSignalsToOneThread() {
    static std::once_flag once;
    std::call_once(once, [] {
        const sigset_t set = stopSignalSet();
        pthread_sigmask(SIG_BLOCK, &set, nullptr);
        std::thread([set] {
            pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
            for (;;)
                ::pause();
        }).detach();
    });
}

static_assert(std::size(kStopSignals) == 3, "StopSignalGuard::m_previous holds one handler per signal");

} // namespace

StopSignalGuard::StopSignalGuard(StopToken& stop, const char* command, const char* whatHappens) {
    routeStopSignalsToOneThread();
    g_command.store(command);
    g_whatHappens.store(whatHappens);
    g_stderrIsTty.store(::isatty(STDERR_FILENO) == 1);
    g_stop.store(&stop);
    for (std::size_t i = 0; i < std::size(kStopSignals); ++i)
        m_previous[i] = std::signal(kStopSignals[i].number, onStopSignal);
}

StopSignalGuard::~StopSignalGuard() {
    for (std::size_t i = 0; i < std::size(kStopSignals); ++i)
        std::signal(kStopSignals[i].number, m_previous[i] == SIG_ERR ? SIG_DFL : m_previous[i]);
    g_stop.store(nullptr);
}

int stoppedExitStatus(const std::string& stoppedBy) {
    for (const StopSignal& s : kStopSignals)
        if (stoppedBy == s.name) return 128 + s.number;
    return 128 + SIGINT;
}

} // namespace rnnprof::cli
