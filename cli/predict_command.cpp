#include "cli/predict_command.h"

#include "cli/output_files.h"
#include "cli/path_arguments.h"

#include "cli/cli_common.h"
#include "cli/model_options.h"
#include "cli/sweep_options.h"
#include "engine/config.h"
#include "engine/error.h"
#include "profiling/analysis/cost_model.h"
#include "profiling/analysis/crossover.h"
#include "profiling/analysis/prediction_check.h"
#include "profiling/analysis/summary_text.h"
#include "profiling/files/result_files.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>

namespace rnnprof::cli {
namespace {

const ModelOptionSettings kModelSettings{QStringLiteral("predict"), true, false};

const char* const kDescription =
    "Predicts GPU times for a model and grid nobody measured. Per iteration\n"
    "  t = c + lambda*K + Q/BW + W/R + epsilon*E\n"
    "(K kernel launches, Q weight bytes streamed, W FLOPs, E gate values computed), fitted on the ok\n"
    "points of every GPU backend and mode of the --from files at once: c, R and epsilon per backend and\n"
    "mode, lambda and BW shared, BW and R at most the GPU's published peaks. Writes one point per grid\n"
    "point with status \"predicted\", its band (from the errors of each model's points predicted from\n"
    "the other models', widened with the distance to the nearest measured model) and that check;\n"
    "--check prints the check per backend and mode instead. Predictions are not measurements: check\n"
    "them against a sweep on the GPU. Exit status: 0 written, 1 failed (files), 2 bad command line or\n"
    "input.";

QString opt(const char* name) {
    return QString::fromLatin1(name);
}

// The GPU series of `result` with an ok point, and the modes of those points: the defaults of
// --backend and --mode.
void gpuSeriesAndModes(const SweepResult& result, std::vector<std::string>& backends,
                       std::vector<Mode>& modes) {
    for (const PointResult& p : result.points) {
        if (!p.ok() || !isGpuBackendId(registryIdOf(p.backend))) continue;
        if (std::find(backends.begin(), backends.end(), p.backend) == backends.end())
            backends.push_back(p.backend);
        if (std::find(modes.begin(), modes.end(), p.mode) == modes.end()) modes.push_back(p.mode);
    }
}

// "c 0.021 ms, launches 0.0091 ms/step, BW 1900 GB/s, R 3010 GFLOP/s; fitted on 14 points; left-out
// points (leave-one-model-out) predicted with median error 12.3 %, 86 % within +-30 %": one fit for
// the terminal.
std::string fitLine(const Prediction& p) {
    char line[512];
    std::snprintf(
        line, sizeof line,
        "c %.4g ms, launches %.4g ms/step, BW %.0f GB/s, R %.0f GFLOP/s; fitted on %d points; left-out "
        "points (%s) predicted with median error %.1f %%, %.0f %% within +-30 %%%s%s",
        p.fixedMs, p.stepMs, p.bandwidthGBs, p.gflops, p.fittedPoints, p.check.c_str(),
        100 * p.looMedianError, 100 * p.looWithin30, p.unreliable ? "; " : "", unreliableText(p).c_str());
    return line;
}

} // namespace

PredictRequest parsePredictArguments(const QStringList& args, std::vector<std::string>& problems) {
    PredictRequest req;
    QCommandLineParser parser;
    const QCommandLineOption help = setUpParser(parser, kDescription);
    const ModelOptions model(kModelSettings);
    parser.addOptions({
        {opt("from"),
         QStringLiteral(
             "A result file with GPU points to fit on (repeat for more; their points are pooled)."),
         QStringLiteral("FILE")},
        {opt("batch"), QStringLiteral("Batch sizes to predict, e.g. 1,4,16 or 1..256 (required)."),
         QStringLiteral("LIST")},
        {opt("seq-len"), QStringLiteral("Sequence lengths to predict, e.g. 20,100 (required)."),
         QStringLiteral("LIST")},
        {opt("backend"),
         QStringLiteral("Backends to predict, comma-separated (default: every GPU backend of the files)."),
         QStringLiteral("LIST")},
        {opt("mode"), QStringLiteral("train, infer or both: train,infer (default: the files' modes)."),
         QStringLiteral("LIST")},
        {opt("out"), QStringLiteral("Write the predicted points to FILE.json (required)."),
         QStringLiteral("FILE")},
        {opt("csv"), QStringLiteral("Also write them as CSV."), QStringLiteral("FILE")},
        {opt("cuda-graph"),
         QStringLiteral("Predict the CUDA-graph replays (fitted on points measured with sweep --cuda-graph), "
                        "a family of their own.")},
        {opt("check"),
         QStringLiteral("Print how well the model predicts the --from files' models, each from the others "
                        "(leave-one-model-out per backend and mode), and the fitted coefficients; "
                        "nothing else is needed or written.")},
    });
    model.addTo(parser);
    if (!parseFlags(parser, args, help, problems, req.help, req.helpText, false, {opt("from")})) return req;
    for (const QString& f : parser.values(opt("from")))
        req.fromPaths.push_back(pathFromArgument(f));
    if (req.fromPaths.empty())
        problems.push_back("--from is required: a result file with GPU points to fit on");
    // A file given twice would count each of its points twice (and check each against its twin).
    for (std::size_t i = 0; i < req.fromPaths.size(); ++i)
        for (std::size_t j = 0; j < i; ++j) {
            std::error_code ec;
            if (req.fromPaths[i] == req.fromPaths[j] ||
                std::filesystem::equivalent(req.fromPaths[i], req.fromPaths[j], ec)) {
                problems.push_back("--from " + req.fromPaths[i] +
                                   " is given twice: each file is pooled once");
                break;
            }
        }
    if ((req.check = parser.isSet(opt("check")))) {
        for (const QString& name : parser.optionNames())
            if (name != opt("from") && name != opt("check"))
                problems.push_back("--" + name.toStdString() +
                                   " has no use with --check: it checks the --from files only");
        return req;
    }
    // The model is the point of a prediction: no silent default for its size.
    for (const char* name : {"cell", "input-size", "hidden-size"})
        if (!parser.isSet(opt(name)))
            problems.push_back(std::string("--") + name + " is required: the model to predict");
    SweepPlan& plan = req.plan;
    plan.config = model.read(parser, problems, plan.config);
    for (const char* name : {"batch", "seq-len"}) {
        if (!parser.isSet(opt(name))) {
            problems.push_back(std::string("--") + name + " is required: the grid to predict");
            continue;
        }
        const int max = std::string(name) == "batch" ? Limits::maxBatch : Limits::maxSeqLen;
        (std::string(name) == "batch" ? plan.batches : plan.seqLens) =
            parseIntList(std::string("--") + name, parser.value(opt(name)).toStdString(), max, problems);
    }
    plan.settings.cudaGraph = parser.isSet(opt("cuda-graph"));
    plan.backends.clear();
    if (parser.isSet(opt("backend")))
        for (const std::string& b : splitList(parser.value(opt("backend")).toStdString())) {
            if (b.empty())
                problems.push_back(
                    "--backend: an empty name; give backend ids such as gpu-cudnn,gpu-generic");
            else if (std::find(plan.backends.begin(), plan.backends.end(), b) == plan.backends.end())
                plan.backends.push_back(b);
        }
    plan.modes.clear();
    if (parser.isSet(opt("mode"))) {
        const std::string text = parser.value(opt("mode")).toStdString();
        for (const std::string& m :
             text == "both" ? std::vector<std::string>{"infer", "train"} : splitList(text)) {
            if (const auto mode = parseMode(m)) {
                if (std::find(plan.modes.begin(), plan.modes.end(), *mode) == plan.modes.end())
                    plan.modes.push_back(*mode);
            } else {
                problems.push_back("--mode: '" + m + "' is not train or infer");
            }
        }
    }
    // The files written, checked against each other and against the --from files read.
    std::vector<NamedPath> outputs, inputs;
    if (!parser.isSet(opt("out")))
        problems.push_back("--out is required: the JSON file to write the predicted points to");
    else
        outputs.push_back({"--out", req.outPath = pathFromArgument(parser.value(opt("out")))});
    if (parser.isSet(opt("csv")))
        outputs.push_back({"--csv", req.csvPath = pathFromArgument(parser.value(opt("csv")))});
    for (const std::string& path : req.fromPaths)
        inputs.push_back({"--from", path});
    checkOutputFiles(outputs, inputs, problems);
    return req;
}

namespace {

std::string joinedPaths(const std::vector<std::string>& paths) {
    std::string files;
    for (const auto& p : paths)
        files += (files.empty() ? "" : ", ") + p;
    return files;
}

std::string noGpuPointText(const std::vector<std::string>& paths) {
    return "--from " + joinedPaths(paths) +
           " holds no ok GPU point: give a result measured on a GPU machine, or name the backends to fit "
           "with --backend";
}

// --check: the leave-one-model-out tables of the files.
int printCheck(const std::vector<NamedResult>& from, const std::vector<std::string>& paths) {
    const std::vector<FamilyCheck> checks = checkFamilies(from);
    if (checks.empty()) {
        printError("predict", noGpuPointText(paths));
        return kExitUsage;
    }
    std::string gpus;
    for (const FamilyCheck& c : checks)
        if (c.fit && c.fit->gpu.size() > gpus.size()) gpus = c.fit->gpu;
    std::printf("Leave-one-model-out over %s (%s%s): each model's points predicted from a fit on the "
                "other models' points.\n\n%s",
                joinedPaths(paths).c_str(), gpus.c_str(),
                gpus.find(", ") != std::string::npos ? "; pooled as one GPU: check each GPU's files apart"
                                                     : "",
                predictionCheckText(checks).c_str());
    return kExitOk;
}

int runParsed(const QStringList& args) {
    std::vector<std::string> problems;
    PredictRequest req = parsePredictArguments(args, problems);
    if (req.help) {
        std::fputs(req.helpText.c_str(), stdout);
        return kExitOk;
    }
    // The files, each loaded once; a file that cannot be read is one more problem.
    std::vector<SweepResult> loaded;
    loaded.reserve(req.fromPaths.size());
    std::vector<NamedResult> from;
    for (const std::string& path : req.fromPaths) {
        try {
            loaded.push_back(loadResultFile(path));
        } catch (const Error& e) {
            problems.push_back("--from " + path + ": " + e.what());
        }
    }
    if (!problems.empty()) {
        for (const auto& p : problems)
            printError("predict", p);
        return kExitUsage;
    }
    for (std::size_t i = 0; i < loaded.size(); ++i)
        from.push_back({&loaded[i], std::filesystem::path(req.fromPaths[i]).filename().string()});
    if (req.check) return printCheck(from, req.fromPaths);
    if (req.plan.backends.empty() || req.plan.modes.empty()) {
        std::vector<std::string> backends;
        std::vector<Mode> modes;
        for (const auto& r : loaded)
            gpuSeriesAndModes(r, backends, modes);
        if (backends.empty()) {
            printError("predict", noGpuPointText(req.fromPaths));
            return kExitUsage;
        }
        if (req.plan.backends.empty()) req.plan.backends = backends;
        if (req.plan.modes.empty()) req.plan.modes = modes;
    }
    if (const std::string problem = planPointCountProblem(req.plan); !problem.empty()) {
        printError("predict", problem);
        return kExitUsage;
    }
    SweepResult predicted;
    try {
        predicted = predictResult(from, req.plan);
    } catch (const Error& e) {
        printError("predict", std::string(e.what()) + "; choose others with --backend and --mode");
        return kExitUsage;
    }
    // One line per fit, then the points: what the band and the reliability rest on.
    for (Mode mode : req.plan.modes)
        for (const auto& backend : req.plan.backends)
            for (const PointResult& p : predicted.points)
                if (p.backend == backend && p.mode == mode && p.prediction) {
                    std::printf("%s %s from %s (%s): %s\n", backend.c_str(),
                                std::string(toString(mode)).c_str(), p.prediction->from.c_str(),
                                p.prediction->gpu.c_str(), fitLine(*p.prediction).c_str());
                    break;
                }
    std::fputs(summaryTable(predicted).c_str(), stdout);
    std::fflush(stdout);
    try {
        saveResultJson(req.outPath, predicted);
        if (!req.csvPath.empty()) saveResultCsv(req.csvPath, predicted);
    } catch (const Error& e) {
        printError("predict", e.what());
        return kExitFailure;
    }
    std::fprintf(stderr, "rnnprof predict: wrote %zu predicted points to %s%s%s\n", predicted.points.size(),
                 req.outPath.c_str(), req.csvPath.empty() ? "" : " and ", req.csvPath.c_str());
    return kExitOk;
}

} // namespace

int runPredictCommand(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = commandArguments(argc, argv, "predict"); // file names kept byte for byte
    return runParsed(args);
}

} // namespace rnnprof::cli
