// `rnnprof sweep` end to end: the files it writes, the presets, GPU points on a machine without a
// GPU, every refused command line, and Ctrl-C keeping what was measured.
#include "cli_process.h"

#include "engine/gpu/gpu_info.h"
#include "profiling/files/presets.h"
#include "profiling/files/result_files.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>

namespace rnnprof {
namespace {

using test::Args;
using test::ChildProcess;
using test::filesIn;
using test::ProcessResult;
using test::runRnnprof;
using test::TempDir;
using test::waitUntil;

ProcessResult sweep(Args args) {
    args.insert(args.begin(), "sweep");
    return runRnnprof(args);
}

// A grid that runs in well under a second.
Args tinyGrid(const TempDir& dir) {
    return {"--cell",  "lstm",  "--input-size",    "3", "--hidden-size", "4",
            "--batch", "1,2",   "--seq-len",       "3", "--backend",     "cpu-blas,cpu-reference",
            "--mode",  "both",  "--warmup",        "0", "--repeats",     "2",
            "--quiet", "--out", dir.path("r.json")};
}

TEST(SweepCommand, ListsEveryPresetOnOneLine) {
    const auto run = sweep({"--list-presets"});
    ASSERT_EQ(run.status, 0) << run.err;
    for (const Preset& p : builtinPresets())
        EXPECT_NE(run.out.find(p.name + " "), std::string::npos) << p.name;
    EXPECT_NE(run.out.find("(default)"), std::string::npos);
}

TEST(SweepCommand, WritesResultsCsvTraceAndASummaryTable) {
    TempDir dir;
    Args args = tinyGrid(dir);
    args.insert(args.end(), {"--csv", dir.path("r.csv"), "--trace", dir.path("t.json")});
    const auto run = sweep(args);
    ASSERT_EQ(run.status, 0) << run.err;
    const SweepResult result = loadResultFile(dir.path("r.json"));
    EXPECT_TRUE(result.complete);
    ASSERT_EQ(result.points.size(), 8u); // 2 backends x 2 batches x 2 modes
    for (const auto& p : result.points) {
        EXPECT_EQ(p.status, PointStatus::Ok) << p.reason;
        EXPECT_EQ(p.measuredRuns, 2);
        EXPECT_TRUE(p.numerics.checked);
        EXPECT_LT(p.numerics.maxRelErr, 1e-4);
    }
    EXPECT_EQ(test::slurp(dir.path("r.csv")).rfind("backend,mode,cell,input_size", 0), 0u);
    EXPECT_NE(test::slurp(dir.path("t.json")).find("\"traceEvents\""), std::string::npos);
    EXPECT_NE(run.out.find("median ms"), std::string::npos);
    EXPECT_NE(run.out.find("8 of 8 points measured"), std::string::npos) << run.out;
    EXPECT_EQ(filesIn(dir.path()), (std::set<std::string>{"r.csv", "r.json", "t.json"}))
        << "the journal is removed";
}

// After the table: would Keras and PyTorch run this model on cuDNN? Also in the results file.
TEST(SweepCommand, SaysWhetherKerasAndPytorchWouldRunTheModelOnCudnn) {
    TempDir dir;
    Args args = tinyGrid(dir);
    args.insert(args.end(), {"--recurrent-dropout", "0.2"});
    const auto run = sweep(args);
    ASSERT_EQ(run.status, 0) << run.err;
    const std::string keras =
        "no: recurrent_dropout=0.2 (Keras needs 0 for cuDNN and falls back to the generic kernel)";
    EXPECT_NE(run.out.find("  Keras: " + keras + "\n"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("  PyTorch: no: recurrent_dropout=0.2 (nn.LSTM has no recurrent dropout"),
              std::string::npos)
        << run.out;
    const SweepResult result = loadResultFile(dir.path("r.json"));
    ASSERT_TRUE(result.recordedFastPath.has_value());
    EXPECT_EQ(result.recordedFastPath->keras, keras);
}

// Every point unavailable: the file records each with its reason, and the exit status says that
// nothing was measured (a script must not take it for a finished sweep).
TEST(SweepCommand, ReportsGpuPointsUnavailableWithTheReasonWhenThereIsNoGpu) {
    if (gpuInfo().available) GTEST_SKIP() << "this machine has a GPU: " << gpuInfo().summary();
    TempDir dir;
    const auto run = sweep({"--backend", "gpu-cudnn,gpu-generic", "--batch", "1", "--seq-len", "2", "--quiet",
                            "--out", dir.path("r.json")});
    EXPECT_EQ(run.status, 1) << run.err;
    EXPECT_NE(run.err.find("rnnprof sweep: nothing was measured: every point was unavailable"),
              std::string::npos)
        << run.err;
    const SweepResult result = loadResultFile(dir.path("r.json"));
    ASSERT_FALSE(result.points.empty());
    for (const auto& p : result.points) {
        EXPECT_EQ(p.status, PointStatus::Unavailable);
        EXPECT_EQ(p.reason, gpuInfo().reason);
    }
}

TEST(SweepCommand, RunsGpuCudnnOncePerAlgorithmWhateverTheBackends) {
    TempDir dir;
    const auto cpuOnly =
        sweep({"--backend", "cpu-blas", "--batch", "1", "--seq-len", "2", "--repeats", "1", "--cudnn-algo",
               "standard,persist_static", "--no-numerics", "--quiet", "--out", dir.path("cpu.json")});
    ASSERT_EQ(cpuOnly.status, 0) << cpuOnly.err;
    EXPECT_EQ(loadResultFile(dir.path("cpu.json")).plan.settings.cudnnAlgos,
              (std::vector<CudnnAlgo>{CudnnAlgo::Standard, CudnnAlgo::PersistStatic}));
    const auto graphs = sweep({"--backend", "cpu-blas", "--batch", "1", "--seq-len", "2", "--repeats", "1",
                               "--cuda-graph", "--no-numerics", "--quiet", "--out", dir.path("graphs.json")});
    ASSERT_EQ(graphs.status, 0) << graphs.err;
    EXPECT_TRUE(loadResultFile(dir.path("graphs.json")).plan.settings.cudaGraph);

    const auto run =
        sweep({"--backend", "gpu-cudnn", "--batch", "1", "--seq-len", "2", "--mode", "infer", "--cudnn-algo",
               "persist_static,persist_dynamic", "--quiet", "--out", dir.path("r.json")});
    ASSERT_EQ(run.status, gpuInfo().available ? 0 : 1) << run.err; // 1: nothing measured without a GPU
    std::vector<std::string> series;
    for (const auto& p : loadResultFile(dir.path("r.json")).points)
        series.push_back(p.backend);
    EXPECT_EQ(series, (std::vector<std::string>{"gpu-cudnn[persist_static]", "gpu-cudnn[persist_dynamic]",
                                                "gpu-cudnn[best]"}));
}

class EveryPreset : public ::testing::TestWithParam<std::string> {};

// Each preset loads and runs headless (on a one-point grid per backend and mode, to stay quick).
TEST_P(EveryPreset, RunsHeadless) {
    TempDir dir;
    const auto run = sweep({"--preset", GetParam(), "--batch", "1", "--seq-len", "2", "--warmup", "0",
                            "--repeats", "1", "--no-numerics", "--quiet", "--out", dir.path("r.json")});
    ASSERT_EQ(run.status, 0) << run.err;
    const SweepResult result = loadResultFile(dir.path("r.json"));
    const Preset* preset = findPreset(GetParam());
    ASSERT_NE(preset, nullptr);
    // The preset's backends this machine cannot run are left out, each said on stderr.
    for (const std::string& id : preset->plan.backends) {
        if (std::find(result.plan.backends.begin(), result.plan.backends.end(), id) ==
            result.plan.backends.end()) {
            EXPECT_NE(run.err.find("left out " + id + " (unavailable here: "), std::string::npos) << run.err;
        }
    }
    EXPECT_EQ(result.points.size(), result.plan.backends.size() * preset->plan.modes.size());
    EXPECT_EQ(result.plan.preset, GetParam());
    for (const auto& p : result.points) {
        if (p.status != PointStatus::Ok) {
            EXPECT_FALSE(p.reason.empty()) << p.backend;
        }
    }
}

std::vector<std::string> presetNames() {
    std::vector<std::string> names;
    for (const auto& p : builtinPresets())
        names.push_back(p.name);
    return names;
}

INSTANTIATE_TEST_SUITE_P(Presets, EveryPreset, ::testing::ValuesIn(presetNames()), [](const auto& info) {
    std::string n = info.param;
    for (char& c : n)
        if (c == '-') c = '_';
    return n;
});

struct RefusedCase {
    const char* name;
    Args args;
    const char* message; // part of the one-line error
};

class RefusedCommandLine : public ::testing::TestWithParam<RefusedCase> {};

TEST_P(RefusedCommandLine, ExitsWithUsageErrorNamingTheProblemAndWritesNothing) {
    TempDir dir;
    Args args = GetParam().args;
    for (auto& a : args)
        if (a == "OUT") a = dir.path("r.json");
    const auto run = sweep(args);
    EXPECT_EQ(run.status, 2) << run.err;
    EXPECT_NE(run.err.find(GetParam().message), std::string::npos) << run.err;
    EXPECT_EQ(run.err.rfind("rnnprof sweep: ", 0), 0u) << run.err;
    EXPECT_TRUE(filesIn(dir.path()).empty());
}

const RefusedCase kRefused[] = {
    {"EmptyBatchList", {"--batch", "", "--out", "OUT"}, "--batch: give at least one value"},
    {"DuplicateBatch", {"--batch", "1,4,1", "--out", "OUT"}, "--batch: 1 is given twice"},
    {"NotANumber", {"--seq-len", "20,x", "--out", "OUT"}, "--seq-len: 'x' is not a whole number"},
    {"BatchOutOfRange", {"--batch", "0", "--out", "OUT"}, "--batch: 0 is out of range"},
    {"UnknownBackend", {"--backend", "cpu-fast", "--out", "OUT"}, "cpu-fast"},
    {"DuplicateBackend", {"--backend", "cpu-blas,cpu-blas", "--out", "OUT"}, "cpu-blas"},
    {"UnknownPreset", {"--preset", "nope", "--out", "OUT"}, "--preset nope: no such preset"},
    {"PresetAndConfig",
     {"--preset", "quick-start", "--config", "x.json", "--out", "OUT"},
     "exclude each other"},
    {"MissingConfigFile", {"--config", "/nonexistent/plan.json", "--out", "OUT"}, "cannot read"},
    {"EndlessConfigFile",
     {"--config", "/dev/zero", "--out", "OUT"},
     "it is a character device, not a regular file"},
    {"FolderAsConfigFile", {"--config", "/tmp", "--out", "OUT"}, "it is a directory, not a regular file"},
    {"BadMode", {"--mode", "eval", "--out", "OUT"}, "--mode: 'eval' is not train or infer"},
    {"NegativeWarmup", {"--warmup", "-1", "--out", "OUT"}, "--warmup must be a whole number from 0"},
    {"TooManyThreads", {"--threads", "100000", "--out", "OUT"}, "--threads must be a whole number"},
    {"BadGemm", {"--gemm", "mkl", "--out", "OUT"}, "--gemm must be onednn or openblas"},
    {"BadCudnnAlgo",
     {"--cudnn-algo", "standard,fastest", "--out", "OUT"},
     "--cudnn-algo: 'fastest' is not a cuDNN algorithm; use standard, persist_static, persist_dynamic, "
     "persist_static_small_h"},
    {"DuplicateCudnnAlgo",
     {"--cudnn-algo", "standard,standard", "--out", "OUT"},
     "lists standard more than once"},
    {"BadCell", {"--cell", "rnn", "--out", "OUT"}, "--cell"},
    {"ZeroHidden", {"--hidden-size", "0", "--out", "OUT"}, "--hidden-size"},
    {"NoOut", {"--batch", "1"}, "--out FILE.json is required"},
    {"OutInMissingFolder", {"--out", "/nonexistent/folder/r.json"}, "does not exist"},
    {"OutIsAFolder", {"--out", "/tmp"}, "is a folder"},
    {"UnknownFlag", {"--bogus", "--out", "OUT"}, "bogus"},
    {"StrayArgument", {"extra", "--out", "OUT"}, "unexpected argument 'extra'"},
};

INSTANTIATE_TEST_SUITE_P(Cases, RefusedCommandLine, ::testing::ValuesIn(kRefused),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(SweepCommand, RefusesAMalformedConfigFileNamingTheKey) {
    TempDir dir;
    {
        std::ofstream f(dir.path("plan.json"));
        f << R"({"model": {"cell": "lstm", "hidden_size": "big"}})";
    }
    const auto run = sweep({"--config", dir.path("plan.json"), "--out", dir.path("r.json")});
    EXPECT_EQ(run.status, 2);
    EXPECT_NE(run.err.find("hidden_size"), std::string::npos) << run.err;
}

TEST(SweepCommand, AnUnwritableChartsFolderIsRefusedBeforeMeasuring) {
    TempDir dir;
    // /proc takes no new files, not even from root (whom permission bits would not stop).
    Args args = tinyGrid(dir);
    args.insert(args.end(), {"--charts", "/proc/rnnprof-charts"});
    const auto run = sweep(args);
    EXPECT_EQ(run.status, 2) << run.err;
    EXPECT_NE(run.err.find("--charts /proc/rnnprof-charts: the folder /proc is not writable ("),
              std::string::npos)
        << run.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path("r.json"))) << "nothing was measured";
}

TEST(SweepCommand, AGridWithTooManyChartsIsRefusedBeforeMeasuring) {
    // 300 sequence lengths x 2 backends x 2 modes: a memory chart each, as PNG and SVG.
    TempDir dir;
    const auto run = sweep({"--cell", "lstm", "--input-size", "3", "--hidden-size", "4", "--batch", "1,2",
                            "--seq-len", "1-300", "--backend", "cpu-blas,cpu-reference", "--mode", "both",
                            "--quiet", "--out", dir.path("r.json"), "--charts", dir.path("charts")});
    EXPECT_EQ(run.status, 2) << run.err;
    EXPECT_NE(run.err.find("chart files, at most 2000 are written per sweep"), std::string::npos) << run.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path("r.json"))) << "nothing was measured";
    EXPECT_FALSE(std::filesystem::exists(dir.path("charts")));
}

TEST(SweepCommand, ChartFootersNameTheResultAsItsFileIsNamedWhenOpened) {
    TempDir dir;
    Args args = tinyGrid(dir);
    args.insert(args.end(), {"--charts", dir.path("charts")});
    const auto run = sweep(args);
    ASSERT_EQ(run.status, 0) << run.err;
    const SweepResult reopened = loadResultFile(dir.path("r.json"));
    std::ifstream svg(dir.path("charts") + "/time-vs-batch-T3.svg");
    const std::string text((std::istreambuf_iterator<char>(svg)), std::istreambuf_iterator<char>());
    ASSERT_FALSE(text.empty());
    EXPECT_NE(text.find(reopened.label + ":"), std::string::npos) << "the footer names " << reopened.label;
    EXPECT_EQ(text.find("result 1:"), std::string::npos);
}

// Two points: B=1 T=1 takes well under a second, B=1 T=65535 many minutes (20000 runs of 65535
// steps; about 45 minutes on the 2-core development machine). Progress lines on stderr.
Args twoPointSweep(const std::string& out) {
    return {RNNPROF_EXE,     "sweep",    "--cell",    "lstm",  "--input-size",  "8",
            "--hidden-size", "64",       "--batch",   "1",     "--seq-len",     "1,65535",
            "--backend",     "cpu-blas", "--mode",    "infer", "--threads",     "1",
            "--warmup",      "0",        "--repeats", "20000", "--no-numerics", "--out=" + out};
}

// The signal is sent once the progress line of the second point is out, so it arrives while that
// point is being measured (never after the sweep's end), however fast or busy the machine is; the
// test ends as soon as the runner honours it.
TEST(SweepCommand, CtrlCStopsAtTheNextSafePointAndWritesWhatWasMeasured) {
    TempDir dir;
    const std::string out = dir.path("r.json");
    ChildProcess child(twoPointSweep(out));
    ASSERT_TRUE(child.started());
    const auto secondPointBegun = [&] { return child.errSoFar().find("T=65535") != std::string::npos; };
    ASSERT_TRUE(waitUntil([&] { return secondPointBegun() || !child.running(); }));
    ASSERT_TRUE(child.running()) << "the sweep ended before the signal: " << child.wait().err;
    child.kill(SIGINT);
    const ProcessResult run = child.wait();

    EXPECT_EQ(run.status, 130) << run.err;
    const SweepResult result = loadResultFile(out);
    // The second point has the runs measured before the stop, or none.
    const auto measured = std::count_if(result.points.begin(), result.points.end(),
                                        [](const PointResult& p) { return p.measured(); });
    EXPECT_NE(run.err.find("stopped early by SIGINT; 2 points saved, " + std::to_string(measured) +
                           " of them with measured runs"),
              std::string::npos)
        << run.err;
    EXPECT_FALSE(result.complete);
    ASSERT_EQ(result.points.size(), 2u);
    EXPECT_EQ(result.points[0].status, PointStatus::Ok) << result.points[0].reason;
    EXPECT_EQ(result.points[0].shape.seqLen, 1);
    EXPECT_EQ(result.points[0].measuredRuns, 20000);
    EXPECT_EQ(result.points[1].status, PointStatus::Cancelled);
    EXPECT_EQ(result.points[1].shape.seqLen, 65535);
    EXPECT_NE(result.points[1].reason.find("stopped by request"), std::string::npos)
        << result.points[1].reason;
    EXPECT_EQ(filesIn(dir.path()), std::set<std::string>{"r.json"}) << "the journal is removed once saved";
}

// --compare FILE: a GPU server's result of the same model (tinyGrid's LSTM 3->4), hand-made with
// GPU times far below any CPU time, so that the GPU is faster at every batch.
SweepResult gpuServerResult() {
    SweepResult r = test::tinyGpuResult({1, 2}, {Mode::Inference, Mode::Training}, [](int) { return 1e-6; });
    r.plan.config.seed = 7; // the seed may differ
    return r;
}

TEST(SweepCompare, PrintsTheCrossoverOfTheFastestCpuHereAgainstTheFastestGpuThere) {
    TempDir dir;
    saveResultJson(dir.path("server.json"), gpuServerResult());
    Args args = tinyGrid(dir);
    args.insert(args.end(), {"--compare", dir.path("server.json"), "--crossover-csv", dir.path("x.csv")});
    const auto run = sweep(args);
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_NE(run.out.find("--compare " + dir.path("server.json")), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("Crossover of fastest-gpu on gpubox (NVIDIA H100 80GB HBM3) over fastest-cpu on "),
              std::string::npos)
        << run.out;
    EXPECT_NE(run.out.find("infer T=3: faster at every batch measured (B=1..2)"), std::string::npos)
        << run.out;
    EXPECT_NE(run.out.find("train T=3: faster at every batch measured (B=1..2)"), std::string::npos)
        << run.out;
    // The results file records the comparison's crossovers.
    const SweepResult r = loadResultFile(dir.path("r.json"));
    ASSERT_EQ(r.crossovers.size(), 2u);
    EXPECT_EQ(r.crossovers[0].mode, Mode::Inference);
    EXPECT_EQ(r.crossovers[0].baseline, "fastest-cpu");
    EXPECT_EQ(r.crossovers[0].challenger, dir.path("server.json") + ":fastest-gpu");
    // (A busy machine running the tests may add its disturbed points in brackets.)
    EXPECT_EQ(r.crossovers[0].verdict.rfind("faster at every batch measured (B=1..2)", 0), 0u);
    EXPECT_TRUE(std::isnan(r.crossovers[0].batch));
    EXPECT_EQ(r.crossovers[1].mode, Mode::Training);
    std::ifstream csv(dir.path("x.csv"));
    std::string header, infer, train;
    ASSERT_TRUE(std::getline(csv, header) && std::getline(csv, infer) && std::getline(csv, train));
    EXPECT_EQ(infer.rfind("fastest-cpu," + dir.path("server.json") +
                              ":fastest-gpu,infer,3,,,,faster at every batch measured (B=1..2)",
                          0),
              0u)
        << infer;
    EXPECT_EQ(infer.substr(infer.size() - 2), ",,") << "no search: measured and grid batch sizes empty";
}

TEST(SweepCompare, TheCrossoverCsvNeedsACompare) {
    TempDir dir;
    Args args = tinyGrid(dir);
    args.insert(args.end(), {"--crossover-csv", dir.path("x.csv")});
    const auto run = sweep(args);
    EXPECT_EQ(run.status, 2);
    EXPECT_NE(run.err.find("--crossover-csv needs --compare"), std::string::npos) << run.err;
}

TEST(SweepCompare, AFileOfAnotherModelIsRefusedBeforeMeasuringNamingTheFields) {
    TempDir dir;
    SweepResult other = gpuServerResult();
    other.plan.config.hiddenSize = 256;
    saveResultJson(dir.path("server.json"), other);
    Args args = tinyGrid(dir);
    args.insert(args.end(), {"--compare", dir.path("server.json")});
    const auto run = sweep(args);
    EXPECT_EQ(run.status, 2);
    EXPECT_NE(run.err.find("ran a different model (this sweep vs the file: hidden_size 4 vs 256)"),
              std::string::npos)
        << run.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path("r.json"))) << "nothing was measured";
}

TEST(SweepCompare, AFileWithoutGpuPointsOrUnreadableIsRefused) {
    TempDir dir;
    SweepResult cpuOnly = gpuServerResult();
    for (auto& p : cpuOnly.points)
        p.backend = "cpu-blas";
    saveResultJson(dir.path("cpu.json"), cpuOnly);
    Args args = tinyGrid(dir);
    args.insert(args.end(), {"--compare", dir.path("cpu.json")});
    const auto run = sweep(args);
    EXPECT_EQ(run.status, 2);
    EXPECT_NE(run.err.find("holds no successful GPU point (only cpu-blas): give a result from a GPU machine"),
              std::string::npos)
        << run.err;
    Args missing = tinyGrid(dir);
    missing.insert(missing.end(), {"--compare", dir.path("nope.json")});
    const auto none = sweep(missing);
    EXPECT_EQ(none.status, 2);
    EXPECT_NE(none.err.find("--compare " + dir.path("nope.json") + ": cannot read"), std::string::npos)
        << none.err;
}

} // namespace
} // namespace rnnprof
