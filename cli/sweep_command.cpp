#include "cli/sweep_command.h"

#include "cli/cli_common.h"
#include "cli/headless_commands.h"
#include "cli/path_arguments.h"
#include "cli/stop_signals.h"
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
    StopSignalGuard guard(
        stop, "rnnprof sweep",
        "the run in progress is abandoned (a GPU run finishes first), the runs measured so far "
        "are saved; the same signal again quits at once (the journal keeps the finished "
        "points)");
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
        const auto measured = std::count_if(result.points.begin(), result.points.end(),
                                            [](const PointResult& p) { return p.measured(); });
        std::fprintf(stderr,
                     "rnnprof sweep: stopped early%s; %zu points saved, %zu of them with measured runs\n",
                     result.stoppedBy.empty() ? "" : (" by " + result.stoppedBy).c_str(),
                     result.points.size(), std::size_t(measured));
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
