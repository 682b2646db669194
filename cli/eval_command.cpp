#include "cli/eval_command.h"

#include "cli/cli_common.h"
#include "cli/model_options.h"
#include "cli/output_files.h"
#include "cli/path_arguments.h"
#include "cli/sweep_options.h"
#include "engine/backend.h"
#include "engine/error.h"
#include "engine/file_read.h"
#include "engine/host_memory.h"
#include "engine/npy.h"
#include "engine/params.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <regex>

namespace rnnprof::cli {
namespace {

namespace fs = std::filesystem;
using Dims = std::vector<std::int64_t>;

const char* const kDescription =
    "Runs an LSTM or GRU once on weights and inputs from .npy files and writes the results as .npy files.\n"
    "\n"
    "Weights: one file per parameter in --weights DIR, named and shaped as PyTorch names them:\n"
    "  weight_ih_l<k>.npy [G*H, in], weight_hh_l<k>.npy [G*H, H], bias_ih_l<k>.npy [G*H], bias_hh_l<k>.npy "
    "[G*H],\n"
    "  with _reverse for the backward direction; gates i,f,g,o (LSTM, G=4) or r,z,n (GRU, G=3).\n"
    "Input: [T, B, I], sequence-major. --h0/--c0: [L*D, B, H] (zeros when not given; D = 2 when "
    "bidirectional).\n"
    "Input files may be float32 or float64; the backend computes in float32.\n"
    "\n"
    "Writes into --out DIR (created when missing; its parent must exist), every file float32:\n"
    "  output.npy [T, B, D*H], h_n.npy [L*D, B, H], c_n.npy (LSTM);\n"
    "  with --grad-output DY: grad_input.npy, grad_h0.npy, grad_c0.npy (LSTM) and grad_<parameter>.npy,\n"
    "  the gradients of sum(output*DY) + sum(h_n*DHN) + sum(c_n*DCN) (the last two with "
    "--grad-h-n/--grad-c-n).\n"
    "Every file is written only when all were computed; on failure none is left behind.\n"
    "Exit status: 0 done, 1 failed while running (files, backend), 2 bad command line.";

const ModelOptionSettings kModelSettings{QStringLiteral("eval"), false, true};

std::string dims(const Dims& d) {
    return shapeToString(d);
}

// Whether `path` is a file the flag can read, from its header alone: it exists, is a regular file of
// the size its header describes and has the `expected` shape. Reads no data; returns the shape.
Dims checkNpyFile(const std::string& flag, const std::string& path, const Dims& expected) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        throw Error(ErrorKind::InvalidInput, flag + " " + path + ": " + std::strerror(errno) +
                                                 " (expected a .npy of shape " + dims(expected) + ")");
    if (!S_ISREG(st.st_mode))
        throw Error(ErrorKind::InvalidInput, flag + " " + path + " is " +
                                                 std::string(describeFileType(st.st_mode)) +
                                                 ": it needs a regular .npy file of shape " + dims(expected) +
                                                 ", which is read twice (its header, then its data)");
    try {
        const NpyInfo info = readNpyInfo(path);
        requireNpyShape(path, info.shape, expected);
        return info.shape;
    } catch (const Error& e) {
        throw Error(e.kind(), flag + " " + e.what());
    }
}

Tensor<float> readTensor(const std::string& flag, const std::string& path, const Dims& expected) {
    try {
        return readNpyTensor<float>(path, expected);
    } catch (const Error& e) {
        throw Error(e.kind(), flag + " " + e.what());
    }
}

// A parameter file the configuration does not have means the flags do not describe the weights
// (e.g. a 2-layer model evaluated with --layers 1): refuse instead of ignoring it silently.
void refuseStrayWeightFiles(const std::string& dir, const ParamLayout& layout, const RnnConfig& c) {
    static const std::regex paramFile(R"((weight|bias)_(ih|hh)_l\d+(_reverse)?\.npy)");
    std::vector<std::string> stray;
    for (const auto& entry : fs::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (std::regex_match(name, paramFile) && !layout.find(name.substr(0, name.size() - 4)))
            stray.push_back(name);
    }
    if (stray.empty()) return;
    std::sort(stray.begin(), stray.end());
    throw Error(ErrorKind::InvalidInput,
                "--weights " + dir + " holds " + stray.front() + ", which the model (" + describe(c) +
                    ") does not have: check --layers, --bidirectional and --no-bias");
}

std::string weightPath(const EvalRequest& r, const ParamSpec& spec) {
    return (fs::path(r.weightsDir) / (spec.name + ".npy")).string();
}

// Every weight file is there with its shape before the parameters (up to 8 GiB) are allocated.
void checkWeightFiles(const EvalRequest& r, const ParamLayout& layout) {
    if (!fs::is_directory(r.weightsDir))
        throw Error(ErrorKind::InvalidInput, "--weights " + r.weightsDir + " is not a folder");
    refuseStrayWeightFiles(r.weightsDir, layout, r.config);
    for (const ParamSpec& spec : layout.specs()) {
        const std::string path = weightPath(r, spec);
        if (!fs::is_regular_file(path))
            throw Error(ErrorKind::InvalidInput, "missing weight file " + path + " (expected shape " +
                                                     dims(spec.shape()) + " for " + describe(r.config) + ")");
        requireNpyShape(path, readNpyInfo(path).shape, spec.shape());
    }
}

ParamSet<float> readParams(const EvalRequest& r) {
    ParamSet<float> params(r.config);
    for (const ParamSpec& spec : params.layout.specs()) {
        const Tensor<float> t = readNpyTensor<float>(weightPath(r, spec), spec.shape());
        std::copy(t.data.begin(), t.data.end(), params.data(spec));
    }
    return params;
}

// The host bytes eval holds besides the backend's buffers, an upper bound: the parameters and
// every input as float32, the largest file once more as float64 while it is converted (readNpy),
// and every result twice (as computed, then encoded as .npy before any file is written).
std::uint64_t evalHostBytes(const Problem& problem) {
    const RnnConfig& c = problem.config;
    const bool lstm = c.cell == CellType::Lstm, gradients = problem.mode == Mode::Training;
    const auto T = std::uint64_t(problem.shape.seqLen), B = std::uint64_t(problem.shape.batch);
    const auto D = std::uint64_t(directionCount(c)), H = std::uint64_t(c.hiddenSize);
    const auto params = std::uint64_t(ParamLayout(c).totalSize());
    const std::uint64_t x = T * B * std::uint64_t(c.inputSize), out = T * B * D * H;
    const std::uint64_t states = std::uint64_t(c.layers) * D * B * H * (lstm ? 2 : 1);
    std::uint64_t inputs = params + x + states, results = out + states;
    if (gradients) {
        inputs += 2 * out + states; // target, DY, DHN (and DCN)
        results += x + states + params;
    }
    const std::uint64_t largest = std::max({x, out, states, params});
    return 4 * inputs + 8 * largest + 2 * 4 * results;
}

const Backend& findBackend(const std::string& id) {
    if (const Backend* b = builtinBackends().find(id)) return *b;
    std::string known;
    for (const auto& k : builtinBackends().ids())
        known += (known.empty() ? "" : ", ") + k;
    throw Error(ErrorKind::InvalidInput, "unknown backend '" + id + "' (available: " + known + ")");
}

void requireShape(const Tensor<float>& t, const Dims& expected, const std::string& what,
                  std::string_view backend) {
    if (t.shape != expected || t.size() != Tensor<float>::elementCount(expected))
        throw Error(ErrorKind::BackendFailure, std::string(backend) + " returned " + what + " of shape " +
                                                   dims(t.shape) + ", expected " + dims(expected));
}

} // namespace

std::vector<EvalFile> evaluate(const EvalRequest& r) {
    const RnnConfig& c = r.config;
    const Backend& backend = findBackend(r.backend);
    requireValid(c);
    const bool lstm = c.cell == CellType::Lstm;
    const std::int64_t D = directionCount(c), H = c.hiddenSize, LD = c.layers * D;

    // Every file is checked from its header before anything is allocated. Weights before states:
    // a stray or missing weight file explains a wrong --layers or --bidirectional better than the
    // state shape that follows from it.
    const Dims xShape = checkNpyFile("--input", r.input, {-1, -1, c.inputSize});
    const std::int64_t T = xShape[0], B = xShape[1];
    const Shape shape{int(std::min<std::int64_t>(B, Limits::maxBatch + 1)),
                      int(std::min<std::int64_t>(T, Limits::maxSeqLen + 1))};
    if (const auto issues = validate(c, shape); !issues.empty())
        throw Error(ErrorKind::InvalidInput,
                    "--input " + r.input + " of shape " + dims(xShape) + ": " + joinIssues(issues));
    checkWeightFiles(r, ParamLayout(c));
    const Dims stateShape{LD, B, H}, outShape{T, B, D * H};
    if (!r.h0.empty()) (void)checkNpyFile("--h0", r.h0, stateShape);
    if (lstm && !r.c0.empty()) (void)checkNpyFile("--c0", r.c0, stateShape);
    if (!r.gradOutput.empty()) (void)checkNpyFile("--grad-output", r.gradOutput, outShape);
    if (!r.gradHN.empty()) (void)checkNpyFile("--grad-h-n", r.gradHN, stateShape);
    if (lstm && !r.gradCN.empty()) (void)checkNpyFile("--grad-c-n", r.gradCN, stateShape);

    Problem problem;
    problem.config = c;
    problem.shape = shape;
    if (r.wantsGradients()) {
        problem.mode = Mode::Training;
        problem.inputGradients = true;
        problem.options.learningRate = 0.0; // the gradients are the result; leave the weights alone
    }
    // The backend's refusal (unavailable, unsupported, its buffers too large) comes before reading.
    const Verdict verdict = assess(backend, problem);
    if (!verdict.ready()) (void)backend.prepare(problem, verdict); // throws the refusal
    if (const auto available = availableHostMemory())
        requireFits(evalHostBytes(problem) + (verdict.footprint.onDevice ? 0 : verdict.footprint.total()),
                    *available,
                    "eval of " + describe(c) + " with " + std::string(backend.id()) + " at batch " +
                        std::to_string(B) + ", seq_len " + std::to_string(T));

    auto data = std::make_shared<ProblemData<float>>();
    data->x = readTensor("--input", r.input, xShape);
    problem.overrides.params = std::make_shared<const ParamSet<float>>(readParams(r));
    data->h0 = r.h0.empty() ? Tensor<float>(stateShape) : readTensor("--h0", r.h0, stateShape);
    if (lstm) data->c0 = r.c0.empty() ? Tensor<float>(stateShape) : readTensor("--c0", r.c0, stateShape);
    if (r.wantsGradients()) {
        data->target = Tensor<float>(outShape);
        auto& o = problem.overrides;
        o.outputGrad =
            std::make_shared<const Tensor<float>>(readTensor("--grad-output", r.gradOutput, outShape));
        if (!r.gradHN.empty())
            o.hNGrad = std::make_shared<const Tensor<float>>(readTensor("--grad-h-n", r.gradHN, stateShape));
        if (lstm && !r.gradCN.empty())
            o.cNGrad = std::make_shared<const Tensor<float>>(readTensor("--grad-c-n", r.gradCN, stateShape));
    }
    problem.overrides.data = data;

    auto session = backend.prepare(problem, verdict);
    NullPhaseHook hook;
    session->run(hook);
    RunOutputs out = session->outputs();

    const std::string_view id = backend.id();
    std::vector<EvalFile> files;
    requireShape(out.y, outShape, "output", id);
    requireShape(out.hN, stateShape, "h_n", id);
    files.push_back({"output.npy", std::move(out.y)});
    files.push_back({"h_n.npy", std::move(out.hN)});
    if (lstm) {
        requireShape(out.cN, stateShape, "c_n", id);
        files.push_back({"c_n.npy", std::move(out.cN)});
    }
    if (!r.wantsGradients()) return files;

    Gradients<float>& g = out.gradients;
    requireShape(g.dx, data->x.shape, "grad_input", id);
    requireShape(g.dh0, stateShape, "grad_h0", id);
    files.push_back({"grad_input.npy", std::move(g.dx)});
    files.push_back({"grad_h0.npy", std::move(g.dh0)});
    if (lstm) {
        requireShape(g.dc0, stateShape, "grad_c0", id);
        files.push_back({"grad_c0.npy", std::move(g.dc0)});
    }
    const ParamLayout layout(c);
    if (g.dParams.values.size() != std::size_t(layout.totalSize()))
        throw Error(ErrorKind::BackendFailure,
                    std::string(id) + " returned " + std::to_string(g.dParams.values.size()) +
                        " parameter gradients, expected " + std::to_string(layout.totalSize()));
    for (const ParamSpec& spec : layout.specs()) {
        Tensor<float> t(spec.shape());
        std::copy(g.dParams.values.begin() + spec.offset,
                  g.dParams.values.begin() + spec.offset + spec.size(), t.data.begin());
        files.push_back({"grad_" + spec.name + ".npy", std::move(t)});
    }
    return files;
}

namespace {

struct Flags {
    QCommandLineOption weights{QStringLiteral("weights"),
                               QStringLiteral("Folder of <parameter>.npy weight files (required)"),
                               QStringLiteral("DIR")};
    QCommandLineOption input{QStringLiteral("input"), QStringLiteral("Input [T, B, I] (required)"),
                             QStringLiteral("X.npy")};
    QCommandLineOption h0{QStringLiteral("h0"), QStringLiteral("Initial hidden state [L*D, B, H]"),
                          QStringLiteral("F.npy")};
    QCommandLineOption c0{QStringLiteral("c0"), QStringLiteral("LSTM only: initial cell state [L*D, B, H]"),
                          QStringLiteral("F.npy")};
    QCommandLineOption gradOutput{
        QStringLiteral("grad-output"),
        QStringLiteral("Gradient DY of output [T, B, D*H]: also write every gradient"),
        QStringLiteral("DY.npy")};
    QCommandLineOption gradHN{QStringLiteral("grad-h-n"),
                              QStringLiteral("Gradient of h_n [L*D, B, H] (needs --grad-output)"),
                              QStringLiteral("F.npy")};
    QCommandLineOption gradCN{QStringLiteral("grad-c-n"),
                              QStringLiteral("LSTM only: gradient of c_n [L*D, B, H] (needs --grad-output)"),
                              QStringLiteral("F.npy")};
    QCommandLineOption backend{QStringLiteral("backend"),
                               QStringLiteral("Backend that computes (default cpu-reference): ") +
                                   QString::fromStdString([] {
                                       std::string s;
                                       for (const auto& id : builtinBackends().ids())
                                           s += (s.empty() ? "" : ", ") + id;
                                       return s;
                                   }()),
                               QStringLiteral("ID")};
    QCommandLineOption out{QStringLiteral("out"), QStringLiteral("Folder for the results (required)"),
                           QStringLiteral("DIR")};
};

// Reads one path flag; a flag given twice is a problem.
std::string pathFlag(const QCommandLineParser& parser, const QCommandLineOption& option, bool required,
                     std::vector<std::string>& problems) {
    const QStringList values = parser.values(option);
    const std::string name = "--" + option.names().front().toStdString();
    if (values.size() > 1)
        problems.push_back(name + " is given " + std::to_string(values.size()) + " times; give it once");
    if (values.isEmpty()) {
        if (required) problems.push_back(name + " is required");
        return {};
    }
    if (values.back().isEmpty()) problems.push_back(name + " needs a non-empty value");
    return pathFromArgument(values.back());
}

EvalRequest readRequest(const QCommandLineParser& parser, const Flags& f,
                        std::vector<std::string>& problems) {
    EvalRequest r;
    r.config = ModelOptions(kModelSettings).read(parser, problems);
    r.weightsDir = pathFlag(parser, f.weights, true, problems);
    r.input = pathFlag(parser, f.input, true, problems);
    r.h0 = pathFlag(parser, f.h0, false, problems);
    r.c0 = pathFlag(parser, f.c0, false, problems);
    r.gradOutput = pathFlag(parser, f.gradOutput, false, problems);
    r.gradHN = pathFlag(parser, f.gradHN, false, problems);
    r.gradCN = pathFlag(parser, f.gradCN, false, problems);
    r.outDir = pathFlag(parser, f.out, true, problems);
    if (parser.isSet(f.backend)) r.backend = pathFlag(parser, f.backend, false, problems);
    const bool gru = r.config.cell == CellType::Gru;
    if (gru && !r.c0.empty()) problems.push_back("--c0 applies to LSTM only (got --cell gru)");
    if (gru && !r.gradCN.empty()) problems.push_back("--grad-c-n applies to LSTM only (got --cell gru)");
    for (const auto* o : {&f.gradHN, &f.gradCN})
        if (parser.isSet(*o) && r.gradOutput.empty())
            problems.push_back(
                "--" + o->names().front().toStdString() +
                " needs --grad-output (pass zeros of shape [T, B, D*H] for a loss of the final "
                "states alone)");
    for (const QString& extra : parser.positionalArguments())
        problems.push_back("unexpected argument '" + extra.toStdString() + "'");
    return r;
}

std::string joinProblems(const std::vector<std::string>& problems) {
    std::string text;
    for (const auto& p : problems)
        text += (text.empty() ? "" : "; ") + p;
    return text;
}

// Every file eval may write into --out (a run writes some of them, never another).
std::vector<std::string> possibleOutputNames(const EvalRequest& r) {
    std::vector<std::string> names{"output.npy",     "h_n.npy",     "c_n.npy",
                                   "grad_input.npy", "grad_h0.npy", "grad_c0.npy"};
    const ParamLayout layout(r.config);
    for (const ParamSpec& spec : layout.specs())
        names.push_back("grad_" + spec.name + ".npy");
    return names;
}

// Every file eval reads, with its flag.
std::vector<NamedPath> inputsOf(const EvalRequest& r) {
    std::vector<NamedPath> inputs{{"--input", r.input},     {"--h0", r.h0},
                                  {"--c0", r.c0},           {"--grad-output", r.gradOutput},
                                  {"--grad-h-n", r.gradHN}, {"--grad-c-n", r.gradCN}};
    const ParamLayout layout(r.config);
    for (const ParamSpec& spec : layout.specs())
        inputs.push_back({"--weights", weightPath(r, spec)});
    return inputs;
}

int run(const EvalRequest& r) {
    checkOutputFolder(r.outDir); // fail before the work, not after it
    std::vector<std::string> problems;
    checkFolderOutputs({"--out", r.outDir}, possibleOutputNames(r), inputsOf(r), problems);
    if (!problems.empty()) throw Error(ErrorKind::InvalidInput, joinProblems(problems));
    const std::vector<EvalFile> files = evaluate(r);
    StagedFiles staged(r.outDir);
    for (const EvalFile& f : files)
        staged.add(f.name, npyBytes(f.tensor));
    const bool created = createOutputFolder(r.outDir);
    try {
        staged.commit();
    } catch (...) {
        if (created) fs::remove(r.outDir); // only when empty, which commit() guarantees
        throw;
    }
    return kExitOk;
}

} // namespace

int runEvalCommand(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = commandArguments(argc, argv, "eval"); // file names kept byte for byte

    QCommandLineParser parser;
    parser.setApplicationDescription(QString::fromUtf8(kDescription));
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption help = parser.addHelpOption();
    ModelOptions(kModelSettings).addTo(parser);
    const Flags flags;
    for (const auto* o : {&flags.weights, &flags.input, &flags.h0, &flags.c0, &flags.gradOutput,
                          &flags.gradHN, &flags.gradCN, &flags.backend, &flags.out})
        parser.addOption(*o);

    if (!parser.parse(args)) {
        printError("eval", parseErrorText(parser) + " (see rnnprof eval --help)");
        return kExitUsage;
    }
    if (parser.isSet(help)) {
        // helpText() names the executable's path; the sub-command reads better.
        std::string text = parser.helpText().toStdString();
        if (text.rfind("Usage: ", 0) == 0) text.replace(0, text.find(" [options]"), "Usage: rnnprof eval");
        std::fputs(text.c_str(), stdout);
        return kExitOk;
    }
    std::vector<std::string> problems;
    const EvalRequest request = readRequest(parser, flags, problems);
    if (!problems.empty()) {
        printError("eval", joinProblems(problems));
        return kExitUsage;
    }
    try {
        return run(request);
    } catch (const std::exception& e) {
        printError("eval", e.what());
        return kExitFailure;
    }
}

} // namespace rnnprof::cli
