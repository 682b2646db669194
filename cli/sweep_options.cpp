#include "cli/sweep_options.h"

#include "cli/cli_common.h"
#include "cli/headless_commands.h"
#include "cli/model_options.h"
#include "cli/output_files.h"
#include "cli/path_arguments.h"
#include "engine/backend.h"
#include "engine/cpu/cpu_libraries.h"
#include "engine/error.h"
#include "engine/file_read.h"
#include "profiling/analysis/crossover.h"
#include "profiling/files/presets.h"
#include "profiling/files/result_files.h"
#include "profiling/int_list.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QRegularExpression>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <set>
#include <sstream>
#include <unistd.h>

namespace rnnprof::cli {
namespace {

const ModelOptionSettings kModelSettings{QStringLiteral("sweep"), true, false};

const char* const kDescription =
    "Runs a sweep headless: a grid of batch sizes x sequence lengths x backends x modes for one model,\n"
    "with warm-up and repeated measured runs per point. Start from a preset (--preset, see\n"
    "--list-presets) or a config file (--config, the preset format), then override with flags.\n"
    "Progress goes to stderr, a summary table to stdout. Each finished point is appended to a journal\n"
    "(<out>.journal) so that a crash loses nothing, and --resume continues a killed sweep from it; Ctrl-C,\n"
    "SIGTERM (a scheduler's time limit or preemption) and SIGHUP abandon the run in progress and write\n"
    "what was measured. Exit status: 0 done, 1 failed (files, or no point could be measured), 2 bad\n"
    "command line (or an output in use or left by an earlier run), 128+N stopped by signal N (130\n"
    "Ctrl-C, 143 SIGTERM, 129 SIGHUP).";

bool parseDouble(const std::string& text, double& out) {
    std::istringstream in(text);
    in >> out;
    return !in.fail() && in.eof() && std::isfinite(out);
}

QString opt(const char* name) {
    return QString::fromLatin1(name);
}

} // namespace

bool parseInt(const std::string& text, long long& out) {
    const char* b = text.data();
    const char* e = b + text.size();
    auto [ptr, ec] = std::from_chars(b, e, out);
    return ec == std::errc() && ptr == e;
}

void readIntFlag(const QCommandLineParser& parser, const char* name, int lo, int hi, int& target,
                 std::vector<std::string>& problems) {
    if (!parser.isSet(opt(name))) return;
    long long v = 0;
    const std::string text = parser.value(opt(name)).toStdString();
    if (!parseInt(text, v) || v < lo || v > hi)
        problems.push_back(std::string("--") + name + " must be a whole number from " + std::to_string(lo) +
                           " to " + std::to_string(hi) + " (got " + text + ")");
    else
        target = int(v);
}

std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> parts;
    std::string part;
    std::istringstream in(text);
    while (std::getline(in, part, ',')) {
        part.erase(0, part.find_first_not_of(" \t"));
        part.erase(part.find_last_not_of(" \t") + 1);
        parts.push_back(part);
    }
    return parts;
}

// A grid whose charts would pass ChartSupport::maxChartFiles is refused now, not after measuring.
void checkChartCount(const SweepRequest& req, std::vector<std::string>& problems) {
    const ChartSupport* charts = chartSupport();
    if (!charts || !charts->countCharts) return;
    SweepResult grid; // every point of the plan, as if it succeeded: the most charts there can be
    grid.plan = req.plan;
    for (const PointSpec& spec : points(req.plan)) {
        PointResult& p = grid.points.emplace_back();
        p.backend = seriesId(spec);
        p.mode = spec.mode;
        p.shape = spec.shape;
    }
    if (const std::size_t files = charts->countCharts(grid); files > charts->maxChartFiles)
        problems.push_back("--charts " + req.chartsDir + ": the grid would make up to " +
                           std::to_string(files) + " chart files, at most " +
                           std::to_string(charts->maxChartFiles) +
                           " are written per sweep: sweep fewer sequence lengths, batch sizes, backends or "
                           "modes, or leave out --charts and draw them with rnnprof plot");
}

QCommandLineOption setUpParser(QCommandLineParser& parser, const char* description) {
    parser.setApplicationDescription(QString::fromLatin1(description));
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help."));
    parser.addOption(help);
    return help;
}

namespace {

// The edit distance of two flag names (insertions, deletions, substitutions).
std::size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

} // namespace

std::string parseErrorText(const QCommandLineParser& parser) {
    const std::string error = parser.errorText().toStdString();
    static const QRegularExpression unknown(QStringLiteral("^Unknown option '([^']+)'"));
    const QRegularExpressionMatch m = unknown.match(parser.errorText());
    if (!m.hasMatch()) return error;
    const std::string given = m.captured(1).toStdString();
    static const QRegularExpression flag(QStringLiteral("--([a-z0-9][a-z0-9-]*)"));
    std::string best;
    std::size_t bestDistance = 3; // a suggestion within two edits, or a plural / prefix of a flag
    for (auto it = flag.globalMatch(parser.helpText()); it.hasNext();) {
        const std::string name = it.next().captured(1).toStdString();
        std::size_t d = editDistance(given, name);
        if (given.size() > 3 && (name.rfind(given, 0) == 0 || given.rfind(name, 0) == 0))
            d = std::min<std::size_t>(d, 2);
        if (d < bestDistance) {
            best = name;
            bestDistance = d;
        }
    }
    return best.empty() ? error : error + " Did you mean --" + best + "?";
}

bool parseFlags(QCommandLineParser& parser, const QStringList& args, const QCommandLineOption& help,
                std::vector<std::string>& problems, bool& helpAsked, std::string& helpText, bool takesFiles,
                const QStringList& repeatable) {
    if (!parser.parse(args)) {
        problems.push_back(parseErrorText(parser));
        return false;
    }
    if (parser.isSet(help)) {
        helpAsked = true;
        // QCommandLineParser names the program by the process's argv[0] (a path); the command's own
        // name ("rnnprof sweep", args[0]) is what a user types.
        QString text = parser.helpText();
        const QString usage = QStringLiteral("Usage: ");
        const QString program = QCoreApplication::arguments().value(0);
        if (!args.isEmpty() && !program.isEmpty() && text.startsWith(usage + program))
            text.replace(usage.size(), program.size(), args.front());
        helpText = text.toStdString();
        return false;
    }
    if (!takesFiles && !parser.positionalArguments().isEmpty())
        problems.push_back("unexpected argument '" + parser.positionalArguments().front().toStdString() +
                           "' (flags start with --; see --help)");
    refuseRepeatedFlags(parser, problems, repeatable);
    return true;
}

void refuseRepeatedFlags(const QCommandLineParser& parser, std::vector<std::string>& problems,
                         const QStringList& repeatable) {
    QStringList named;
    for (const QString& name : parser.optionNames()) {
        const auto times = parser.values(name).size(); // a switch (--quiet) has none: given twice, no harm
        if (times < 2 || named.contains(name) || repeatable.contains(name)) continue;
        named << name;
        problems.push_back("--" + name.toStdString() + " is given " + std::to_string(times) +
                           " times; give it once");
    }
}

std::vector<int> parseIntList(const std::string& flag, const std::string& text, int max,
                              std::vector<std::string>& problems) {
    IntListParse parsed = rnnprof::parseIntList(text, max);
    if (!parsed.ok()) problems.push_back(flag + ": " + parsed.error);
    return std::move(parsed.values);
}

namespace {

// A list flag replaces the plan's list only when it parsed, so that the plan's own check does not
// report the same flag a second time ("batch is empty").
void readListFlag(const QCommandLineParser& parser, const char* name, int max, std::vector<int>& target,
                  std::vector<std::string>& problems) {
    if (!parser.isSet(opt(name))) return;
    const std::size_t before = problems.size();
    std::vector<int> values =
        parseIntList(std::string("--") + name, parser.value(opt(name)).toStdString(), max, problems);
    if (problems.size() == before) target = std::move(values);
}

// --compare FILE: loads it and checks that the comparison can be made before anything runs.
void readCompare(const std::string& path, SweepRequest& req, std::vector<std::string>& problems) {
    req.comparePath = path;
    SweepResult other;
    try {
        other = loadResultFile(path);
    } catch (const Error& e) {
        problems.push_back("--compare " + path + ": " + e.what());
        return;
    }
    const auto differences = modelDifferences(req.plan.config, other.plan.config);
    if (!differences.empty()) {
        problems.push_back("--compare " + path + " ran a different model (this sweep vs the file: " +
                           describeDifferences(differences) + "); give a result of the same model");
        return;
    }
    const auto choices = sideChoices(other);
    if (std::find(choices.begin(), choices.end(), std::string(kFastestGpu)) == choices.end()) {
        std::string list;
        for (const auto& c : choices)
            if (c != kFastestCpu) list += (list.empty() ? "" : ", ") + c;
        problems.push_back("--compare " + path + " holds no successful GPU point (" +
                           (list.empty() ? std::string("no successful point at all") : "only " + list) +
                           "): give a result from a GPU machine");
        return;
    }
    if (std::none_of(req.plan.backends.begin(), req.plan.backends.end(),
                     [](const std::string& b) { return !isGpuBackendId(b); }))
        problems.push_back("--compare sets the fastest CPU backend of this sweep against the file's GPU "
                           "backends, and --backend names no CPU backend");
    req.compareWith = std::move(other);
}

// Every file the sweep writes, checked against each other and the files it reads before it
// measures; the paths land in `req`.
void checkSweepOutputs(const QCommandLineParser& parser, SweepRequest& req,
                       std::vector<std::string>& problems) {
    std::vector<NamedPath> outputs;
    auto output = [&](const char* name, std::string& target) {
        if (!parser.isSet(opt(name))) return;
        target = pathFromArgument(parser.value(opt(name)));
        outputs.push_back({std::string("--") + name, target});
    };
    output("out", req.outPath);
    if (!outputs.empty()) {
        outputs.back().regularFile = true; // not a device: its journal would be made beside it
        outputs.push_back({"the journal of --out,", journalPathFor(req.outPath), true});
    }
    output("csv", req.csvPath);
    output("crossover-csv", req.crossoverCsvPath);
    if (!req.crossoverCsvPath.empty() && !parser.isSet(opt("compare")))
        problems.push_back("--crossover-csv needs --compare: it records the comparison's crossovers");
    output("trace", req.tracePath);
    if (chartSupport() && parser.isSet(opt("charts"))) { // without support it is refused below
        output("charts", req.chartsDir);
        outputs.back().folder = true;
    }
    std::vector<NamedPath> inputs;
    for (const char* name : {"config", "compare"})
        if (parser.isSet(opt(name)))
            inputs.push_back({std::string("--") + name, pathFromArgument(parser.value(opt(name)))});
    checkOutputFiles(outputs, inputs, problems);
}

} // namespace

SweepRequest parseSweepArguments(const QStringList& args, std::vector<std::string>& problems) {
    SweepRequest req;
    QCommandLineParser parser;
    const QCommandLineOption help = setUpParser(parser, kDescription);
    const ModelOptions model(kModelSettings);
    parser.addOptions({
        {opt("preset"), QStringLiteral("Start from preset NAME (see --list-presets)."),
         QStringLiteral("NAME")},
        {opt("config"), QStringLiteral("Start from a plan in FILE.json (the preset format)."),
         QStringLiteral("FILE")},
        {opt("list-presets"), QStringLiteral("List the presets, one line each, and exit.")},
        {opt("batch"), QStringLiteral("Batch sizes, e.g. 1,4,16 or 1..256 (powers of two)."),
         QStringLiteral("LIST")},
        {opt("seq-len"), QStringLiteral("Sequence lengths, e.g. 20,100."), QStringLiteral("LIST")},
        {opt("backend"), QStringLiteral("Backend ids, comma-separated, or 'all'."), QStringLiteral("LIST")},
        {opt("mode"), QStringLiteral("train, infer or both: train,infer."), QStringLiteral("LIST")},
        {opt("warmup"), QStringLiteral("Discarded runs before measuring (0..1000)."), QStringLiteral("N")},
        {opt("repeats"), QStringLiteral("Exactly N measured runs per point."), QStringLiteral("N")},
        {opt("min-repeats"), QStringLiteral("At least N measured runs."), QStringLiteral("N")},
        {opt("max-repeats"), QStringLiteral("At most N measured runs."), QStringLiteral("N")},
        {opt("time-budget"), QStringLiteral("Stop measuring a point after MS ms (past min-repeats)."),
         QStringLiteral("MS")},
        {opt("threads"), QStringLiteral("CPU threads (0 = all cores)."), QStringLiteral("N")},
        {opt("remeasure"),
         QStringLiteral("Measure a disturbed point (most of its runs starved of CPU by other processes) "
                        "again at the end of the sweep, up to N times (0..10, default 1); one still "
                        "disturbed keeps the flag."),
         QStringLiteral("N")},
        {opt("gemm"), QStringLiteral("cpu-blas GEMM provider: onednn or openblas."), QStringLiteral("NAME")},
        {opt("learning-rate"), QStringLiteral("SGD learning rate in training."), QStringLiteral("X")},
        {opt("tf32"), QStringLiteral("Allow TF32 tensor cores on the GPU (default: strict FP32).")},
        {opt("cuda-graph"),
         QStringLiteral("GPU backends replay each phase as a CUDA graph: one launch per phase, to show "
                        "how much of an iteration is launch overhead.")},
        {opt("cudnn-algo"),
         QStringLiteral(
             "gpu-cudnn's RNN algorithms, each its own series: standard (default), persist_static, "
             "persist_dynamic, persist_static_small_h. With two or more, gpu-cudnn[best] is the "
             "fastest per point."),
         QStringLiteral("LIST")},
        {opt("no-numerics"), QStringLiteral("Skip the numeric check against cpu-reference.")},
        {opt("no-gpu-trace"), QStringLiteral("Do not trace GPU kernels with CUPTI.")},
        {opt("out"),
         QStringLiteral("Write results to FILE.json (required; a regular file: its journal goes beside it)."),
         QStringLiteral("FILE")},
        {opt("csv"), QStringLiteral("Also write a CSV file."), QStringLiteral("FILE")},
        {opt("crossover-csv"),
         QStringLiteral(
             "With --compare: also write the comparison's crossovers as CSV (central, low and high "
             "batch, verdict, flags per mode and sequence length)."),
         QStringLiteral("FILE")},
        {opt("trace"), QStringLiteral("Also write a Chrome trace (Perfetto)."), QStringLiteral("FILE")},
        {opt("charts"), QStringLiteral("Also write every chart as PNG and SVG into DIR."),
         QStringLiteral("DIR")},
        {opt("compare"),
         QStringLiteral("After the sweep, print where the fastest GPU backend of FILE (a result of the same "
                        "model from a GPU machine) overtakes the fastest CPU backend of this sweep."),
         QStringLiteral("FILE")},
        {opt("resume"),
         QStringLiteral("Continue the sweep whose journal (<out>.journal) an earlier, interrupted run left: "
                        "its points are kept, only the missing ones are measured. The plan must be the "
                        "same. Without --resume such a journal is never overwritten: the sweep refuses "
                        "to start.")},
        {opt("skip-damaged"),
         QStringLiteral("With --resume: leave out the journal's damaged lines (not the torn last line of a "
                        "killed run, which is always left out) and keep the points of its sound ones; the "
                        "left-out points are measured again.")},
        {opt("shard"),
         QStringLiteral(
             "Measure only shard I of N of the plan's points (1/4 .. 4/4), e.g. one task of an array "
             "job; the same plan and N always give the same split, balanced by each point's "
             "FLOPs. The results file records the shard and the whole plan: join the shards "
             "with rnnprof merge. N may not exceed the number of points."),
         QStringLiteral("I/N")},
        {opt("quiet"), QStringLiteral("No progress line.")},
    });
    model.addTo(parser);
    if (!parseFlags(parser, args, help, problems, req.help, req.helpText)) return req;
    if (parser.isSet(opt("list-presets"))) {
        req.listPresets = true;
        return req;
    }

    // The starting plan: a preset, a config file, or the defaults.
    if (parser.isSet(opt("preset")) && parser.isSet(opt("config")))
        problems.push_back("--preset and --config exclude each other: give one");
    if (parser.isSet(opt("preset"))) {
        const std::string name = parser.value(opt("preset")).toStdString();
        if (const Preset* preset = findPreset(name))
            req.plan = preset->plan;
        else {
            std::string known;
            for (const auto& p : builtinPresets())
                known += (known.empty() ? "" : ", ") + p.name;
            problems.push_back("--preset " + name + ": no such preset (known: " + known + ")");
        }
    } else if (parser.isSet(opt("config"))) {
        const std::string path = pathFromArgument(parser.value(opt("config")));
        try {
            req.plan = planFromJson(readRegularFile(path, kMaxConfigFileBytes), path);
        } catch (const Error& e) {
            problems.push_back(std::string("--config ") + e.what());
        }
    } else {
        req.plan.backends = {"cpu-blas", "cpu-onednn", "gpu-cudnn", "gpu-generic"};
    }

    SweepPlan& plan = req.plan;
    plan.config = model.read(parser, problems, plan.config);
    readListFlag(parser, "batch", Limits::maxBatch, plan.batches, problems);
    readListFlag(parser, "seq-len", Limits::maxSeqLen, plan.seqLens, problems);
    if (parser.isSet(opt("backend"))) {
        const std::string text = parser.value(opt("backend")).toStdString();
        plan.backends = text == "all" ? builtinBackends().ids() : splitList(text);
    }
    if (parser.isSet(opt("mode"))) {
        plan.modes.clear();
        const std::string text = parser.value(opt("mode")).toStdString();
        for (const std::string& m :
             text == "both" ? std::vector<std::string>{"infer", "train"} : splitList(text)) {
            if (auto mode = parseMode(m))
                plan.modes.push_back(*mode);
            else
                problems.push_back("--mode: '" + m + "' is not train or infer");
        }
    }
    auto intFlag = [&](const char* name, int lo, int hi, int& target) {
        readIntFlag(parser, name, lo, hi, target, problems);
    };
    auto doubleFlag = [&](const char* name, double lo, double hi, double& target) {
        if (!parser.isSet(opt(name))) return;
        double v = 0;
        const std::string text = parser.value(opt(name)).toStdString();
        if (!parseDouble(text, v) || v < lo || v > hi) {
            std::ostringstream s;
            s.precision(10); // "3600000", not "3.6e+06"
            s << "--" << name << " must be a number from " << lo << " to " << hi << " (got " << text << ")";
            problems.push_back(s.str());
        } else {
            target = v;
        }
    };
    MeasureSettings& m = plan.settings;
    intFlag("warmup", 0, 1000, m.warmup);
    if (parser.isSet(opt("repeats"))) {
        int n = m.minRepeats;
        intFlag("repeats", 1, 100000, n);
        m.minRepeats = m.maxRepeats = n;
    }
    intFlag("min-repeats", 1, 100000, m.minRepeats);
    intFlag("max-repeats", 1, 100000, m.maxRepeats);
    doubleFlag("time-budget", 0, 3600000, m.timeBudgetMs);
    intFlag("threads", 0, availableCpuCores(), m.threads);
    intFlag("remeasure", 0, 10, m.remeasureDisturbed);
    doubleFlag("learning-rate", 1e-12, 10, m.learningRate);
    if (parser.isSet(opt("gemm"))) {
        const std::string g = parser.value(opt("gemm")).toStdString();
        if (const auto gemm = parseGemm(g))
            m.gemm = *gemm;
        else
            problems.push_back("--gemm must be " + spellingList(kGemmSpellings, " or ") + " (got " + g + ")");
    }
    if (parser.isSet(opt("tf32"))) m.allowTf32 = true;
    if (parser.isSet(opt("cuda-graph"))) m.cudaGraph = true;
    if (parser.isSet(opt("cudnn-algo"))) {
        m.cudnnAlgos.clear();
        for (const std::string& name : splitList(parser.value(opt("cudnn-algo")).toStdString())) {
            if (const auto algo = parseCudnnAlgo(name))
                m.cudnnAlgos.push_back(*algo);
            else
                problems.push_back("--cudnn-algo: '" + name + "' is not a cuDNN algorithm; use " +
                                   spellingList(kCudnnAlgoSpellings));
        }
    }
    if (parser.isSet(opt("no-numerics"))) m.checkNumerics = false;
    if (parser.isSet(opt("no-gpu-trace"))) m.gpuTrace = false;
    req.quiet = parser.isSet(opt("quiet"));

    for (const FieldIssue& issue : validate(plan, builtinBackends().ids())) {
        // Model fields were reported by their flags already when they came from flags, in
        // ModelOptions' words: "--hidden-size must be ..." for "hidden_size must be ...".
        const std::string& message = issue.message;
        const std::string flag = flagForField(issue.field);
        const std::string asModelFlag = message.rfind(issue.field, 0) == 0
                                            ? flag + message.substr(issue.field.size())
                                            : flag + ": " + message;
        if (std::find(problems.begin(), problems.end(), message) == problems.end() &&
            std::find(problems.begin(), problems.end(), asModelFlag) == problems.end())
            problems.push_back(flag + ": " + message);
    }

    if (parser.isSet(opt("shard"))) {
        std::string error;
        req.shard = parseShard(parser.value(opt("shard")).toStdString(), error);
        if (!req.shard)
            problems.push_back("--shard " + error);
        else if (problems.empty()) // a valid plan: its points can be counted
            if (const std::string problem = shardProblem(plan, *req.shard); !problem.empty())
                problems.push_back("--shard " + problem);
    }

    req.resume = parser.isSet(opt("resume"));
    req.skipDamaged = parser.isSet(opt("skip-damaged"));
    if (req.skipDamaged && !req.resume)
        problems.push_back(
            "--skip-damaged goes with --resume: it says which of an earlier run's points to keep");
    if (!parser.isSet(opt("out"))) problems.push_back("--out FILE.json is required (where the results go)");
    checkSweepOutputs(parser, req, problems);
    if (parser.isSet(opt("compare")))
        readCompare(pathFromArgument(parser.value(opt("compare"))), req, problems);
    if (parser.isSet(opt("charts")) && !chartSupport()) {
        problems.push_back("--charts needs the charts of the desktop application, and this rnnprof was built "
                           "without it (RNNPROF_BUILD_GUI=OFF); draw them elsewhere with `rnnprof plot`");
    } else if (!req.chartsDir.empty() && problems.empty()) {
        // A valid grid, its folder checked with the other outputs: every point may succeed, each
        // one's charts counted.
        checkChartCount(req, problems);
    }
    // A shard keeps the whole plan: `rnnprof merge` joins shards of one plan, measured on nodes
    // that may differ in what they can run.
    if (!parser.isSet(opt("backend")) && !req.shard) {
        // Backends a preset or config chose that this machine cannot run are left out, as the
        // window deselects them, and said once; named with --backend they are measured (and
        // recorded as unavailable), so a cluster script sees them in its results.
        std::vector<std::string> kept;
        for (const std::string& id : plan.backends) {
            const Backend* b = builtinBackends().find(id);
            const Availability a = b ? b->availability() : Availability{true, {}};
            if (a.available)
                kept.push_back(id);
            else
                req.skipped.push_back(id + " (unavailable here: " + a.reason + ")");
        }
        if (!kept.empty())
            plan.backends = std::move(kept);
        else
            req.skipped.clear();
    }
    return req;
}

} // namespace rnnprof::cli
