#include "cli/crossover_command.h"

#include "cli/cli_common.h"
#include "cli/model_options.h"
#include "cli/output_files.h"
#include "cli/path_arguments.h"
#include "cli/stop_signals.h"
#include "cli/sweep_options.h"
#include "engine/cpu/cpu_libraries.h"
#include "engine/error.h"
#include "profiling/analysis/summary_text.h"
#include "profiling/files/result_files.h"
#include "profiling/measure/crossover_run.h"
#include "profiling/measure/runner.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>

namespace rnnprof::cli {
namespace {

const ModelOptionSettings kModelSettings{QStringLiteral("crossover"), true, false};

const char* const kDescription =
    "Finds from which batch size the challenger is faster than the baseline, for one model, sequence\n"
    "length and mode, measuring only the batch sizes needed: the two ends of the grid, then the middle\n"
    "of the bracket in log2(B) until it is one grid step wide or the runs' spread at the middle\n"
    "reaches equal time. A side is a backend measured here (cpu-blas, cpu-onednn, gpu-cudnn, ...),\n"
    "fastest-cpu / fastest-gpu of the backends available here, or FILE.json[:SIDE], a side of a result\n"
    "file (SIDE defaults to its fastest GPU backend, else its fastest CPU backend); with a file side the\n"
    "model defaults to the file's and the grid to the batch sizes it measured. Writes the points\n"
    "measured as a result file with the crossover record.\n"
    "Ctrl-C, SIGTERM and SIGHUP end the search where it is and save the points measured.\n"
    "Exit status: 0 written, 1 measuring or writing failed, 2 bad command line or input, 128+N\n"
    "stopped by signal N (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP).";

QString opt(const char* name) {
    return QString::fromLatin1(name);
}

bool isFileSide(const CrossoverSide& s) {
    return !s.file.empty();
}

// The grid by default: the powers of two up to 1024.
std::vector<int> powersOfTwo() {
    std::vector<int> out;
    for (int b = 1; b <= 1024; b *= 2)
        out.push_back(b);
    return out;
}

} // namespace

CrossoverSide parseCrossoverSide(const std::string& text) {
    CrossoverSide s{text, {}, text};
    const std::string json = ".json";
    const auto at = text.rfind(json + ":");
    if (at != std::string::npos) {
        s.file = text.substr(0, at + json.size());
        s.side = text.substr(at + json.size() + 1);
    } else if (text.size() > json.size() && text.compare(text.size() - json.size(), json.size(), json) == 0) {
        s.file = text;
        s.side.clear(); // the file's fastest GPU backend, else its fastest CPU backend
    }
    return s;
}

CrossoverRequest parseCrossoverArguments(const QStringList& args, std::vector<std::string>& problems) {
    CrossoverRequest req;
    QCommandLineParser parser;
    const QCommandLineOption help = setUpParser(parser, kDescription);
    const ModelOptions model(kModelSettings);
    parser.addOptions({
        {opt("baseline"), QStringLiteral("The side to overtake (default fastest-cpu)."),
         QStringLiteral("SIDE")},
        {opt("challenger"), QStringLiteral("The side that overtakes (required), e.g. ref.json:fastest-gpu."),
         QStringLiteral("SIDE")},
        {opt("seq-len"), QStringLiteral("The sequence length (required unless a file side measured one)."),
         QStringLiteral("T")},
        {opt("mode"), QStringLiteral("infer (default) or train."), QStringLiteral("MODE")},
        {opt("batch"),
         QStringLiteral("The grid searched, e.g. 1..1024 (default: the powers of two to 1024, or a file "
                        "side's batch sizes)."),
         QStringLiteral("LIST")},
        {opt("threads"), QStringLiteral("CPU threads (0 = all cores)."), QStringLiteral("N")},
        {opt("repeats"), QStringLiteral("Measured runs per point (default 5 to 50 within 2 s)."),
         QStringLiteral("N")},
        {opt("out"), QStringLiteral("Write the points measured and the crossover to FILE.json (required)."),
         QStringLiteral("FILE")},
        {opt("crossover-csv"),
         QStringLiteral(
             "Also write the crossover record as CSV (central, low and high batch, verdict, flags, "
             "batch sizes measured of the grid)."),
         QStringLiteral("FILE")},
    });
    model.addTo(parser);
    if (!parseFlags(parser, args, help, problems, req.help, req.helpText)) return req;
    req.baseline =
        parseCrossoverSide(parser.isSet(opt("baseline")) ? parser.value(opt("baseline")).toStdString()
                                                         : std::string(kFastestCpu));
    if (!parser.isSet(opt("challenger")))
        problems.push_back("--challenger is required: the side that overtakes, e.g. a reference GPU file "
                           "(h100-quick-start.json) or gpu-cudnn");
    else
        req.challenger = parseCrossoverSide(parser.value(opt("challenger")).toStdString());
    for (CrossoverSide* s : {&req.baseline, &req.challenger})
        if (s->file.empty() && !s->text.empty() && s->side != kFastestCpu && s->side != kFastestGpu &&
            !builtinBackends().find(s->side))
            problems.push_back("'" + s->text + "' is no side: give a backend (" + [] {
                std::string ids;
                for (const std::string& id : builtinBackends().ids())
                    ids += (ids.empty() ? "" : ", ") + id;
                return ids;
            }() + "), fastest-cpu, fastest-gpu or FILE.json[:SIDE]");
    if (isFileSide(req.baseline) && isFileSide(req.challenger))
        problems.push_back("both sides are files: one side must be measured here (to compare two files, use "
                           "rnnprof plot)");
    SweepPlan& plan = req.plan;
    plan.config = model.read(parser, problems, plan.config);
    plan.modes = {Mode::Inference};
    if (parser.isSet(opt("mode"))) {
        const std::string m = parser.value(opt("mode")).toStdString();
        if (const auto mode = parseMode(m))
            plan.modes = {*mode};
        else
            problems.push_back("--mode: '" + m + "' is not train or infer");
    }
    plan.seqLens.clear();
    if (parser.isSet(opt("seq-len"))) {
        plan.seqLens = parseIntList("--seq-len", parser.value(opt("seq-len")).toStdString(),
                                    Limits::maxSeqLen, problems);
        if (plan.seqLens.size() > 1) problems.push_back("--seq-len: one sequence length, not a list");
    }
    plan.batches = powersOfTwo();
    if (parser.isSet(opt("batch"))) {
        req.gridGiven = true;
        plan.batches =
            parseIntList("--batch", parser.value(opt("batch")).toStdString(), Limits::maxBatch, problems);
    }
    readIntFlag(parser, "threads", 0, availableCpuCores(), plan.settings.threads, problems);
    if (parser.isSet(opt("repeats"))) {
        readIntFlag(parser, "repeats", 1, 100000, plan.settings.minRepeats, problems);
        plan.settings.maxRepeats = plan.settings.minRepeats;
    }
    std::vector<NamedPath> outputs, inputs;
    if (!parser.isSet(opt("out")))
        problems.push_back("--out is required: the JSON file to write the points measured to");
    else
        outputs.push_back({"--out", req.outPath = pathFromArgument(parser.value(opt("out")))});
    if (parser.isSet(opt("crossover-csv")))
        outputs.push_back(
            {"--crossover-csv", req.crossoverCsvPath = pathFromArgument(parser.value(opt("crossover-csv")))});
    for (const CrossoverSide* s : {&req.baseline, &req.challenger})
        if (isFileSide(*s)) inputs.push_back({"--baseline/--challenger", s->file});
    checkOutputFiles(outputs, inputs, problems);
    return req;
}

namespace {

// The backends a side measured here needs: itself, or every available CPU (GPU) backend.
void addBackendsOf(const CrossoverSide& s, std::vector<std::string>& backends) {
    if (isFileSide(s)) return;
    std::vector<std::string> ids;
    if (s.side == kFastestCpu || s.side == kFastestGpu) {
        for (const std::string& id : builtinBackends().ids()) {
            const Backend* b = builtinBackends().find(id);
            if (b && b->isGpu() == (s.side == kFastestGpu) && b->availability().available &&
                id != "cpu-reference")
                ids.push_back(id);
        }
    } else {
        ids.push_back(s.side);
    }
    for (const std::string& id : ids)
        if (std::find(backends.begin(), backends.end(), id) == backends.end()) backends.push_back(id);
}

int runParsed(const QStringList& args) {
    std::vector<std::string> problems;
    CrossoverRequest req = parseCrossoverArguments(args, problems);
    if (req.help) {
        std::fputs(req.helpText.c_str(), stdout);
        return kExitOk;
    }
    std::map<std::string, SweepResult> files;
    for (CrossoverSide* s : {&req.baseline, &req.challenger}) {
        if (!isFileSide(*s) || files.count(s->file)) continue;
        try {
            files.emplace(s->file, loadResultFile(s->file));
        } catch (const Error& e) {
            problems.push_back(s->file + ": " + e.what());
        }
    }
    if (!problems.empty()) {
        for (const auto& p : problems)
            printError("crossover", p);
        return kExitUsage;
    }
    SweepPlan& plan = req.plan;
    const Mode mode = plan.modes.front();
    // A file side: its default side, its model (unless flags named one), its sequence length and grid.
    const std::vector<std::string> modelFlags{"cell", "input-size", "hidden-size", "layers"};
    for (CrossoverSide* s : {&req.baseline, &req.challenger}) {
        if (!isFileSide(*s)) continue;
        const SweepResult& file = files.at(s->file);
        if (s->side.empty()) {
            const auto choices = sideChoices(file);
            s->side = std::find(choices.begin(), choices.end(), kFastestGpu) != choices.end()
                          ? std::string(kFastestGpu)
                          : std::string(kFastestCpu);
            s->text = s->file + ":" + s->side;
        }
        const auto differences = modelDifferences(file.plan.config, plan.config);
        if (!differences.empty() && plan.config == RnnConfig{})
            plan.config = file.plan.config;
        else if (!differences.empty()) {
            printError("crossover", s->file + " ran another model (" + describeDifferences(differences) +
                                        "): give no model flags to take its model, or a file of this model");
            return kExitUsage;
        }
        std::vector<int> measured; // the file side's batch sizes at (mode, T)
        const auto times = sideTimes(file, s->side);
        if (plan.seqLens.empty())
            for (const auto& [key, t] : times)
                if (std::get<0>(key) == mode) {
                    plan.seqLens = {std::get<1>(key)};
                    break;
                }
        for (const auto& [key, t] : times)
            if (std::get<0>(key) == mode && !plan.seqLens.empty() && std::get<1>(key) == plan.seqLens.front())
                measured.push_back(std::get<2>(key));
        if (measured.empty()) {
            printError(
                "crossover",
                s->text + " has no ok " + std::string(toString(mode)) + " point" +
                    (plan.seqLens.empty() ? std::string() : " at T=" + std::to_string(plan.seqLens.front())) +
                    ": choose --seq-len, --mode or another side");
            return kExitUsage;
        }
        if (!req.gridGiven) plan.batches = measured;
        std::erase_if(plan.batches, [&](int b) {
            return std::find(measured.begin(), measured.end(), b) == measured.end();
        });
    }
    if (plan.seqLens.empty()) {
        printError("crossover", "--seq-len is required: the sequence length to search at");
        return kExitUsage;
    }
    std::sort(plan.batches.begin(), plan.batches.end());
    plan.batches.erase(std::unique(plan.batches.begin(), plan.batches.end()), plan.batches.end());
    if (plan.batches.empty()) {
        printError("crossover", "no batch size of --batch was measured by the file side: nothing to search");
        return kExitUsage;
    }
    plan.backends.clear();
    addBackendsOf(req.baseline, plan.backends);
    addBackendsOf(req.challenger, plan.backends);
    if (plan.backends.empty()) {
        printError("crossover", "no backend available here for " +
                                    (isFileSide(req.baseline) ? req.challenger.text : req.baseline.text));
        return kExitFailure;
    }
    const std::vector<int> grid = plan.batches;
    const int seqLen = plan.seqLens.front();
    auto searchSide = [&](const CrossoverSide& s) {
        return SearchSide{s.text, s.side, isFileSide(s) ? &files.at(s.file) : nullptr};
    };
    RunnerCallbacks callbacks;
    callbacks.onPoint = [&](const PointResult& p) {
        std::fprintf(stderr, "rnnprof crossover: %s B=%d T=%d %s\n", p.backend.c_str(), p.shape.batch,
                     p.shape.seqLen, std::string(toString(p.status)).c_str());
    };
    // Ctrl-C, SIGTERM and SIGHUP end the search where it is, and the points measured are saved.
    StopToken stop;
    StopSignalGuard guard(
        stop, "rnnprof crossover",
        "the run in progress is abandoned (a GPU run finishes first), the search ends there "
        "and the points measured so far are saved; the same signal again quits at once "
        "(and saves nothing)");
    SearchRun run = runCrossoverSearch(builtinBackends(), plan, searchSide(req.baseline),
                                       searchSide(req.challenger), stop, callbacks);
    SweepResult& here = run.result;
    if (stop.stopRequested()) here.stoppedBy = stop.reason();
    const CrossoverSearch& search = run.search;
    const std::string verdict = here.crossovers.empty() ? "no crossover: " + searchSummary(search, grid)
                                                        : here.crossovers.front().verdict;
    std::fputs(summaryTable(here).c_str(), stdout);
    std::printf("\nCrossover of %s over %s, %s T=%d: %s\n  %s\n", req.challenger.text.c_str(),
                req.baseline.text.c_str(), std::string(toString(mode)).c_str(), seqLen, verdict.c_str(),
                searchSummary(search, grid).c_str());
    std::fflush(stdout);
    try {
        saveResultJson(req.outPath, here);
        if (!req.crossoverCsvPath.empty()) saveCrossoverCsv(req.crossoverCsvPath, here);
    } catch (const Error& e) {
        printError("crossover", e.what());
        return kExitFailure;
    }
    std::fprintf(stderr, "rnnprof crossover: wrote %s\n", req.outPath.c_str());
    if (stop.stopRequested()) return stoppedExitStatus(here.stoppedBy);
    return search.failure.empty() ? kExitOk : kExitFailure;
}

} // namespace

int runCrossoverCommand(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = commandArguments(argc, argv, "crossover"); // file names kept byte for byte
    return runParsed(args);
}

} // namespace rnnprof::cli
