#include "cli/sweep_command.h"

#include "cli/cli_common.h"
#include "cli/headless_commands.h"
#include "cli/path_arguments.h"
#include "cli/sweep_options.h"
#include "engine/error.h"
#include "profiling/analysis/crossover.h"
#include "profiling/analysis/summary_text.h"
#include "profiling/files/presets.h"
#include "profiling/files/result_files.h"
#include "profiling/gpu/cupti_tracer.h"
#include "profiling/measure/runner.h"
#include "profiling/measure/sweep_session.h"

#include <QCoreApplication>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <unistd.h>

namespace rnnprof::cli {
namespace {

std::atomic<StopToken*> g_stop{nullptr};
std::atomic<bool> g_stderrIsTty{false};

// The signals that stop a sweep as Ctrl-C does: Ctrl-C itself, SIGTERM (what Slurm and Kubernetes
// send at a time limit or preemption, and `kill`'s default) and SIGHUP (a closed terminal or ssh
// session). Each saves what was measured and exits with 128 + the signal's number.
struct StopSignal {
    int number;
    const char* name; // also the reason recorded in the results file ("stopped_by")
};
constexpr StopSignal kStopSignals[] = {{SIGINT, "SIGINT"}, {SIGTERM, "SIGTERM"}, {SIGHUP, "SIGHUP"}};

// Said at once, from the handler (write() is async-signal-safe): the stop itself may take until
// the session's next check inside the run, or the end of a GPU run.
constexpr char kStoppingBefore[] = "rnnprof sweep: stopping (";
constexpr char kStopping[] = "): the run in progress is abandoned (a GPU run finishes first), the runs "
                             "measured so far are saved; the same signal again quits at once "
                             "(the journal keeps the finished points)\n";

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
    writeToStderr(kStoppingBefore, sizeof kStoppingBefore - 1);
    writeToStderr(name, std::strlen(name));
    writeToStderr(kStopping, sizeof kStopping - 1);
}

// Installs the stop-signal handlers for the lifetime of a sweep.
class StopSignalGuard {
public:
    explicit StopSignalGuard(StopToken& stop) {
        g_stderrIsTty.store(::isatty(STDERR_FILENO) == 1);
        g_stop.store(&stop);
        for (std::size_t i = 0; i < std::size(kStopSignals); ++i)
            m_previous[i] = std::signal(kStopSignals[i].number, onStopSignal);
    }
    ~StopSignalGuard() {
        for (std::size_t i = 0; i < std::size(kStopSignals); ++i)
            std::signal(kStopSignals[i].number, m_previous[i] == SIG_ERR ? SIG_DFL : m_previous[i]);
        g_stop.store(nullptr);
    }
    StopSignalGuard(const StopSignalGuard&) = delete;
    StopSignalGuard& operator=(const StopSignalGuard&) = delete;

private:
    void (*m_previous[std::size(kStopSignals)])(int) = {};
};

// The exit status of a sweep stopped early: 128 + the signal that stopped it (the result's
// stopped_by), as a shell reports a process the signal ended (130 for Ctrl-C); 130 otherwise.
int stoppedExitStatus(const std::string& stoppedBy) {
    for (const StopSignal& s : kStopSignals)
        if (stoppedBy == s.name) return 128 + s.number;
    return 128 + SIGINT;
}

void listPresets() {
    std::size_t width = 0;
    for (const Preset& p : builtinPresets())
        width = std::max(width, p.name.size());
    for (const Preset& p : builtinPresets()) {
        const bool isDefault = p.name == defaultPresetName();
        std::printf("%-*s  %s%s\n", int(width), p.name.c_str(), p.title.c_str(),
                    isDefault ? " (default)" : "");
    }
}

// Prints the progress line: rewritten in place on a terminal, one line per update otherwise.
class ProgressPrinter {
public:
    explicit ProgressPrinter(bool quiet) : m_quiet(quiet), m_tty(::isatty(STDERR_FILENO) == 1) {}
    void show(const SweepProgress& p) {
        if (m_quiet) return;
        const std::string line = progressLine(p);
        if (m_tty)
            std::fprintf(stderr, "\r\033[2K%s", line.c_str());
        else
            std::fprintf(stderr, "%s\n", line.c_str());
        std::fflush(stderr);
    }
    void finish() {
        if (!m_quiet && m_tty) std::fputs("\n", stderr);
    }

private:
    bool m_quiet;
    bool m_tty;
};

int runRequest(const SweepRequest& req) {
    StopToken stop;
    StopSignalGuard guard(stop);
    std::unique_ptr<KernelTracer> tracer = makeKernelTracer(); // on this (the engine) thread
    ProgressPrinter progress(req.quiet);

    SweepSessionEvents events;
    events.onProgress = [&](const SweepProgress& p) { progress.show(p); };
    events.onFileProblem = [&](const std::string& problem) { printError("sweep", problem); };
    std::optional<SweepSession> session;
    try {
        session.emplace(builtinBackends(), req.plan, req.outPath, std::move(events), tracer.get());
        session->setShard(req.shard);
    } catch (const Error& e) {
        printError("sweep", e.what());
        return kExitUsage;
    }
    try { // without a journal a crash would lose every point: refuse to start
        const EarlierJournal earlier = !req.resume       ? EarlierJournal::Refuse
                                       : req.skipDamaged ? EarlierJournal::ResumeSkippingDamaged
                                                         : EarlierJournal::Resume;
        if (const std::size_t kept = session->openJournal(earlier); kept > 0)
            std::fprintf(stderr,
                         "rnnprof sweep: resuming the earlier run in %s: %zu points kept, only the "
                         "missing ones are measured\n",
                         session->resumedFrom().c_str(), kept);
        for (const std::string& line : session->skippedLines())
            std::fprintf(stderr, "rnnprof sweep: left out the damaged %s; its point is measured again\n",
                         oneLine(line).c_str());
    } catch (const JournalDamaged& e) {
        printError("sweep", std::string(e.what()) + ". Give --resume --skip-damaged to keep its " +
                                std::to_string(e.points()) +
                                " sound points and measure the rest, or delete " + e.path() +
                                " to start over");
        return kExitUsage;
    } catch (const JournalLeftOver& e) {
        printError("sweep", std::string(e.what()) +
                                ". Give --resume to keep its points and measure only the rest, or delete " +
                                e.path() + " to start over");
        return kExitUsage;
    } catch (const Error& e) { // a journal that is not ours to write is a usage problem, not a failure
        printError("sweep", e.what());
        return e.kind() == ErrorKind::Io ? kExitFailure : kExitUsage;
    }
    for (const std::string& skipped : req.skipped)
        std::fprintf(stderr, "rnnprof sweep: left out %s; name it with --backend to record it anyway\n",
                     skipped.c_str());
    if (req.shard && !req.quiet)
        std::fprintf(stderr, "rnnprof sweep: shard %s: %zu of the plan's %zu points\n",
                     shardText(*req.shard).c_str(), shardPoints(req.plan, *req.shard).size(),
                     points(req.plan).size());
    const SweepOutcome outcome = session->run(stop);
    progress.finish();
    const SweepResult& result = outcome.result;

    std::fputs(summaryTable(result).c_str(), stdout);
    if (req.compareWith) {
        std::printf("\n--compare %s:\n", req.comparePath.c_str());
        std::fputs(pairReportText(result, kFastestCpu, *req.compareWith, kFastestGpu).c_str(), stdout);
    }
    std::fflush(stdout);
    if (!outcome.saved) return kExitFailure; // the session named the problem and the journal
    try {
        if (req.compareWith) { // the comparison's crossovers recorded in the results file
            SweepResult withCrossovers = result;
            const PairMatch m = matchPair(result, kFastestCpu, *req.compareWith, kFastestGpu);
            withCrossovers.crossovers = crossoverRecords(m.points, std::string(kFastestCpu),
                                                         req.comparePath + ":" + std::string(kFastestGpu));
            saveResultJson(req.outPath, withCrossovers);
            if (!req.crossoverCsvPath.empty()) saveCrossoverCsv(req.crossoverCsvPath, withCrossovers);
        }
        if (!req.csvPath.empty()) saveResultCsv(req.csvPath, result);
        if (!req.tracePath.empty()) saveChromeTrace(req.tracePath, result);
        if (!req.chartsDir.empty()) {      // parsing refused --charts without chart support
            SweepResult labelled = result; // named as plot and report name the file written
            labelled.label = resultLabel(req.outPath, result.host);
            const std::size_t files = chartSupport()->writeCharts(labelled, req.chartsDir);
            std::fprintf(stderr, "rnnprof sweep: wrote %zu chart files to %s\n", files,
                         req.chartsDir.c_str());
        }
    } catch (const Error& e) {
        printError("sweep", std::string(e.what()) + " (the measured points are in " + req.outPath + ")");
        return kExitFailure;
    }
    std::fprintf(stderr, "rnnprof sweep: wrote %s\n", req.outPath.c_str());
    const bool anyMeasured = std::any_of(result.points.begin(), result.points.end(),
                                         [](const PointResult& p) { return p.measured(); });
    if (result.complete && !anyMeasured && !result.points.empty()) {
        printError("sweep",
                   "nothing was measured: every point was unavailable, ineligible, too large or failed "
                   "(the summary above and " +
                       req.outPath + " give each point's reason)");
        return kExitFailure;
    }
    if (!result.complete) {
        std::fprintf(stderr, "rnnprof sweep: stopped early%s; %zu points were measured and saved\n",
                     result.stoppedBy.empty() ? "" : (" by " + result.stoppedBy).c_str(),
                     result.points.size());
        return stoppedExitStatus(result.stoppedBy);
    }
    return kExitOk;
}

int runParsed(const QStringList& args) {
    std::vector<std::string> problems;
    const SweepRequest req = parseSweepArguments(args, problems);
    if (req.help) {
        std::fputs(req.helpText.c_str(), stdout);
        return kExitOk;
    }
    if (!problems.empty()) {
        for (const auto& p : problems)
            printError("sweep", p);
        return kExitUsage;
    }
    if (req.listPresets) {
        listPresets();
        return kExitOk;
    }
    return runRequest(req);
}

bool wantsCharts(int argc, char** argv) {
    for (int i = 2; i < argc; ++i)
        if (std::strcmp(argv[i], "--charts") == 0 || std::strncmp(argv[i], "--charts=", 9) == 0) return true;
    return false;
}

} // namespace

int runSweepCommand(int argc, char** argv) {
    // Charts need the desktop build's application object (offscreen without a display); everything
    // else a QCoreApplication.
    std::unique_ptr<QCoreApplication> app;
    if (wantsCharts(argc, argv) && chartSupport())
        app = chartSupport()->makeApplication(argc, argv);
    else
        app = std::make_unique<QCoreApplication>(argc, argv);
    const QStringList args = commandArguments(argc, argv, "sweep"); // file names kept byte for byte
    return runParsed(args);
}

int runSweep(const std::vector<std::string>& args) {
    QStringList list{QStringLiteral("rnnprof sweep")};
    for (const auto& a : args)
        list << QString::fromStdString(a);
    return runParsed(list);
}

} // namespace rnnprof::cli
