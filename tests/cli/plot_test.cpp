// `rnnprof plot` end to end: the real binary, real result files, chart files on disk, no display.
#include "cli/cli_process.h"
#include "gui/fake_results.h"
#include "profiling/files/result_files.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace rnnprof {
namespace {

namespace fs = std::filesystem;
using test::Args;
using test::ProcessResult;
using test::TempDir;

// The command must not need a display: run it with none.
ProcessResult runPlot(Args args) {
    return test::runWithoutDisplay("plot", std::move(args));
}

// fakeSweep with built-in backend ids: rnnprof plot, another process, refuses made-up ones.
SweepResult builtinSweep(const std::string& host = "testhost") {
    SweepResult r = test::fakeSweep(host);
    auto rename = [](std::string& id) {
        id = id == "slow-cpu" ? "cpu-blas" : id == "fast-gpu" ? "cpu-onednn" : id;
    };
    for (PointResult& p : r.points)
        rename(p.backend);
    for (std::string& id : r.plan.backends)
        rename(id);
    return r;
}

bool startsWith(const std::string& path, std::string_view magic) {
    return test::slurp(path).compare(0, magic.size(), magic) == 0;
}

TEST(PlotCommand, WritesEveryChartAsPngAndSvgWithoutADisplay) {
    TempDir dir;
    const std::string results = dir.path("results.json");
    saveResultJson(results, builtinSweep());
    const ProcessResult run = runPlot({results, "--out", dir.path("charts")});
    ASSERT_EQ(run.status, 0) << run.err;
    int png = 0, svg = 0;
    for (const std::string& name : test::filesIn(dir.path("charts"))) {
        const std::string path = dir.path("charts/" + name);
        EXPECT_GT(fs::file_size(path), 500u) << name;
        if (name.ends_with(".png")) {
            ++png;
            EXPECT_TRUE(startsWith(path, "\x89PNG\r\n\x1a\n")) << name;
        } else if (name.ends_with(".svg")) {
            ++svg;
            EXPECT_TRUE(startsWith(path, "<?xml")) << name;
        }
    }
    EXPECT_GE(png, 10);
    EXPECT_EQ(png, svg);
    EXPECT_TRUE(fs::exists(dir.path("charts/time-vs-batch-T100.png")));
    EXPECT_TRUE(fs::exists(dir.path("charts/speedup-T10.svg")));
    EXPECT_NE(run.out.find("time-vs-batch-T10.png"), std::string::npos) << "lists what it wrote";
}

// Too many charts are refused from the files' plans, before any point is decoded: the same
// file's first point is damaged, and the refusal names the chart count, not the point. A file of
// a million points is so refused in the time it takes to scan it, holding one point at a time.
TEST(PlotCommand, TooManyChartsAreRefusedFromThePlansBeforeAnyPointIsLoaded) {
    TempDir dir;
    SweepResult r = builtinSweep();
    r.plan.seqLens.clear();
    for (int t = 1; t <= 1200; ++t)
        r.plan.seqLens.push_back(t);
    nlohmann::json doc = nlohmann::json::parse(toJson(r));
    doc["points"][0]["iteration_ms"] = "damaged";
    std::ofstream(dir.path("big.json")) << doc.dump();
    for (const char* command : {"plot", "report"}) {
        SCOPED_TRACE(command);
        const ProcessResult run =
            test::runWithoutDisplay(command, {dir.path("big.json"), "--out", dir.path("out")});
        EXPECT_EQ(run.status, 1) << run.err;
        EXPECT_NE(run.err.find(std::string(command) == "plot" ? "chart files, at most 2000"
                                                              : "charts, at most 300"),
                  std::string::npos)
            << run.err;
        EXPECT_FALSE(fs::exists(dir.path("out")));
    }
}

TEST(PlotCommand, AFileNamedWithBytesThatAreNotUtf8IsOpenedByItsBytes) {
    // Qt decodes arguments as UTF-8 and replaced \xff with U+FFFD: "no such file".
    TempDir dir;
    const std::string results = dir.path("r\xff\xfe-caf\xe9.json");
    saveResultJson(results, builtinSweep());
    const ProcessResult run = runPlot({results, "--out", dir.path("charts")});
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_FALSE(test::filesIn(dir.path("charts")).empty());
}

TEST(PlotCommand, OverlaysAFileAndAJournalAsPdf) {
    TempDir dir;
    const std::string a = dir.path("laptop.json");
    saveResultJson(a, builtinSweep("laptop"));
    const std::string journal = journalPathFor(dir.path("server.json"));
    {
        const SweepResult server = builtinSweep("server");
        Journal j(journal, server);
        for (const auto& p : server.points)
            j.append(p);
    }
    const ProcessResult run = runPlot({a, journal, "--out", dir.path("out"), "--format", "pdf"});
    ASSERT_EQ(run.status, 0) << run.err;
    ASSERT_TRUE(fs::exists(dir.path("out/time-vs-batch-T10.pdf")));
    EXPECT_TRUE(startsWith(dir.path("out/time-vs-batch-T10.pdf"), "%PDF-"));
    EXPECT_FALSE(fs::exists(dir.path("out/time-vs-batch-T10.png")));
}

TEST(PlotCommand, RejectsBadFlagsWithTheUsageExitCode) {
    TempDir dir;
    EXPECT_EQ(runPlot({"--out", dir.path()}).status, 2);
    const ProcessResult noOut = runPlot({dir.path("x.json")});
    EXPECT_EQ(noOut.status, 2);
    EXPECT_NE(noOut.err.find("--out"), std::string::npos);
    const ProcessResult badFormat = runPlot({"x.json", "--out", dir.path(), "--format", "gif"});
    EXPECT_EQ(badFormat.status, 2);
    EXPECT_NE(badFormat.err.find("gif"), std::string::npos);
    const ProcessResult badSize = runPlot({"x.json", "--out", dir.path(), "--size", "10x10"});
    EXPECT_EQ(badSize.status, 2);
    EXPECT_EQ(runPlot({"--help"}).status, 0);
}

TEST(PlotCommand, AMalformedFileFailsWithItsNameAndTheReason) {
    TempDir dir;
    const std::string bad = dir.path("broken.json");
    std::ofstream(bad) << "{\"schema_version\": 1, \"points\": [";
    const ProcessResult run = runPlot({bad, "--out", dir.path("out")});
    EXPECT_EQ(run.status, 1);
    EXPECT_NE(run.err.find("broken.json"), std::string::npos) << run.err;
    EXPECT_FALSE(fs::exists(dir.path("out"))) << "nothing is created for a failed run";
}

TEST(PlotCommand, ANumberTooLargeForAChartIsRefusedNotACrash) {
    // 1.1e308 overflowed the log axis range to inf: QtCharts recursed until SIGSEGV (rc 139).
    TempDir dir;
    const std::string results = dir.path("huge.json");
    std::string text = toJson(builtinSweep());
    const std::string key = "\"median\": ";
    ASSERT_NE(text.find(key), std::string::npos);
    text.replace(text.find(key) + key.size(), text.find(',', text.find(key)) - text.find(key) - key.size(),
                 "1.1e308");
    std::ofstream(results) << text;
    const ProcessResult run = runPlot({results, "--out", dir.path("out")});
    EXPECT_EQ(run.status, 1) << run.err;
    EXPECT_NE(run.err.find("points[0].iteration_ms.median: must be null or a number from 0 to 1e+15"),
              std::string::npos)
        << run.err;
    EXPECT_FALSE(fs::exists(dir.path("out")));
}

TEST(PlotCommand, BackendIdsThatAreNotBackendsWriteNothingAnywhere) {
    TempDir dir;
    ASSERT_TRUE(fs::create_directories(dir.path("a/b")));
    SweepResult r = builtinSweep();
    for (PointResult& p : r.points)
        if (p.backend == "cpu-blas") p.backend = "x/../../ESCAPED";
    std::ofstream(dir.path("a/b/escape.json")) << toJson(r);
    const ProcessResult run = runPlot({dir.path("a/b/escape.json"), "--out", dir.path("a/b/out")});
    EXPECT_EQ(run.status, 1) << run.err;
    EXPECT_NE(run.err.find("unknown backend 'x/../../ESCAPED': known are cpu-reference, cpu-blas"),
              std::string::npos)
        << run.err;
    EXPECT_EQ(test::filesIn(dir.path("a")), std::set<std::string>{"b"}) << "no chart escaped --out";
    EXPECT_EQ(test::filesIn(dir.path("a/b")), std::set<std::string>{"escape.json"});
    EXPECT_EQ(test::filesIn(dir.path()), std::set<std::string>{"a"});
    EXPECT_FALSE(fs::exists(dir.path("a/b/out")));
}

TEST(PlotCommand, AnOutputFolderWithoutParentIsRefused) {
    TempDir dir;
    const std::string results = dir.path("results.json");
    saveResultJson(results, builtinSweep());
    const ProcessResult run = runPlot({results, "--out", dir.path("no/such/dir")});
    EXPECT_EQ(run.status, 1);
    EXPECT_NE(run.err.find("no/such"), std::string::npos) << run.err;
}

// fakeSweep with only `backend` kept, renamed to `as`: a CPU-only laptop file, a GPU server file.
SweepResult onlyBackend(const std::string& host, const std::string& backend, const std::string& as) {
    SweepResult r = test::fakeSweep(host);
    std::vector<PointResult> kept;
    for (PointResult p : r.points)
        if (p.backend == backend) {
            p.backend = as;
            kept.push_back(p);
        }
    r.points = kept;
    r.plan.backends = {as};
    return r;
}

TEST(PlotCommand, ComparesABackendOfOneFileWithABackendOfAnotherNamingBothHosts) {
    TempDir dir;
    saveResultJson(dir.path("laptop.json"), onlyBackend("laptop", "slow-cpu", "cpu-onednn"));
    saveResultJson(dir.path("server.json"), onlyBackend("server", "fast-gpu", "gpu-cudnn"));
    // The files need not be given again as RESULTS.
    const ProcessResult run =
        runPlot({"--baseline", dir.path("laptop.json") + ":cpu-onednn", "--challenger",
                 dir.path("server.json") + ":gpu-cudnn", "--out", dir.path("cmp"), "--format", "svg"});
    ASSERT_EQ(run.status, 0) << run.err;
    const std::string svg = test::slurp(dir.path("cmp/speedup-T10.svg"));
    EXPECT_NE(svg.find("gpu-cudnn on server"), std::string::npos) << "the note names the challenger's host";
    EXPECT_NE(svg.find("cpu-onednn on laptop"), std::string::npos) << "and the baseline's";
    EXPECT_TRUE(fs::exists(dir.path("cmp/crossover.svg")));
}

// A challenger file of predicted points (what `rnnprof predict` writes) is drawn as predicted: the
// legend and notes say "predicted from ... — not measured" and the crossover marker "predicted".
TEST(PlotCommand, APredictedChallengerIsDrawnAndLabelledAsPredicted) {
    TempDir dir;
    saveResultJson(dir.path("laptop.json"), onlyBackend("laptop", "slow-cpu", "cpu-onednn"));
    SweepResult predicted = onlyBackend("server", "fast-gpu", "gpu-cudnn");
    for (PointResult& p : predicted.points) {
        p.status = PointStatus::Predicted;
        Prediction pr;
        pr.lowMs = p.iteration.median * 0.9;
        pr.highMs = p.iteration.median * 1.1;
        pr.from = "h100.json";
        pr.gpu = "NVIDIA H100 80GB HBM3";
        pr.fittedPoints = 8;
        p.prediction = pr;
        p.reason = predictedFromText(pr);
    }
    saveResultJson(dir.path("predicted.json"), predicted);
    const ProcessResult run =
        runPlot({"--baseline", dir.path("laptop.json") + ":cpu-onednn", "--challenger",
                 dir.path("predicted.json") + ":gpu-cudnn", "--out", dir.path("cmp"), "--format", "svg"});
    ASSERT_EQ(run.status, 0) << run.err;
    const std::string svg = test::slurp(dir.path("cmp/speedup-T10.svg"));
    EXPECT_NE(svg.find("predicted crossover"), std::string::npos);
    EXPECT_NE(svg.find("not measured"), std::string::npos);
}

TEST(PlotCommand, TheDefaultPairOfACpuFileAndAGpuFileIsFastestCpuAgainstFastestGpu) {
    TempDir dir;
    saveResultJson(dir.path("laptop.json"), onlyBackend("laptop", "slow-cpu", "cpu-onednn"));
    saveResultJson(dir.path("server.json"), onlyBackend("server", "fast-gpu", "gpu-cudnn"));
    const ProcessResult run = runPlot(
        {dir.path("laptop.json"), dir.path("server.json"), "--out", dir.path("cmp"), "--format", "svg"});
    ASSERT_EQ(run.status, 0) << run.err;
    const std::string svg = test::slurp(dir.path("cmp/speedup-T10.svg"));
    EXPECT_NE(svg.find("fastest-gpu on server"), std::string::npos);
    EXPECT_NE(svg.find("fastest-cpu on laptop"), std::string::npos);
}

TEST(PlotCommand, ABadPairSideNamesWhatIsWrongAndWhatIsAllowed) {
    TempDir dir;
    saveResultJson(dir.path("laptop.json"), onlyBackend("laptop", "slow-cpu", "cpu-onednn"));
    const std::string laptop = dir.path("laptop.json");
    // No BACKEND part.
    const ProcessResult noColon =
        runPlot({"--baseline", laptop, "--challenger", laptop + ":cpu-onednn", "--out", dir.path("o")});
    EXPECT_EQ(noColon.status, 2);
    EXPECT_NE(noColon.err.find("--baseline " + laptop + ": give FILE:BACKEND"), std::string::npos)
        << noColon.err;
    // A backend the file did not measure: the allowed ones are listed.
    const ProcessResult noGpu = runPlot({"--baseline", laptop + ":cpu-onednn", "--challenger",
                                         laptop + ":gpu-cudnn", "--out", dir.path("o")});
    EXPECT_EQ(noGpu.status, 2);
    EXPECT_NE(
        noGpu.err.find("--challenger " + laptop + ":gpu-cudnn: " + laptop +
                       " has no successful point of backend 'gpu-cudnn'; allowed: cpu-onednn, fastest-cpu"),
        std::string::npos)
        << noGpu.err;
    EXPECT_FALSE(fs::exists(dir.path("o"))) << "nothing is written for a refused pair";
    // One side alone.
    const ProcessResult alone =
        runPlot({laptop, "--baseline", laptop + ":cpu-onednn", "--out", dir.path("o")});
    EXPECT_EQ(alone.status, 2);
    EXPECT_NE(alone.err.find("--baseline and --challenger go together"), std::string::npos) << alone.err;
    // A file that does not exist is a failure to read (exit 1), named.
    const ProcessResult missing = runPlot({"--baseline", dir.path("nope.json") + ":cpu-onednn",
                                           "--challenger", laptop + ":cpu-onednn", "--out", dir.path("o")});
    EXPECT_EQ(missing.status, 1);
    EXPECT_NE(missing.err.find("nope.json"), std::string::npos) << missing.err;
}

// `rnnprof` alone without a display (the README's run command on a server) must not fail: it runs
// the default preset headless and names the folder of its results and charts. This runs the real
// default sweep (about a minute on two cores).
TEST(NoDisplay, RunsTheDefaultPresetHeadlessAndNamesItsFolder) {
    TempDir dir;
    const fs::path before = fs::current_path();
    fs::current_path(dir.path());
    test::forgetDisplay();
    const ProcessResult run = test::runRnnprof({});
    fs::current_path(before);
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_NE(run.err.find("no display"), std::string::npos) << run.err;
    std::string folder;
    for (const std::string& name : test::filesIn(dir.path()))
        if (name.rfind("rnnprof-results-", 0) == 0) folder = dir.path(name);
    ASSERT_FALSE(folder.empty()) << run.err;
    EXPECT_NE(run.err.find(folder), std::string::npos) << "names the folder";
    const SweepResult result = loadResultFile(folder + "/results.json");
    EXPECT_TRUE(result.complete);
    EXPECT_FALSE(result.points.empty());
    EXPECT_TRUE(fs::exists(folder + "/results.csv"));
    EXPECT_TRUE(fs::exists(folder + "/trace.json"));
    const auto charts = test::filesIn(folder + "/charts");
    EXPECT_TRUE(charts.count("time-vs-batch-T20.png")) << "the default preset sweeps seq_len 20";
    EXPECT_GE(charts.size(), 10u);
}

TEST(NoDisplay, OtherArgumentsPointToThePlotCommand) {
    test::forgetDisplay();
    const ProcessResult run = test::runRnnprof({"results.json"});
    EXPECT_EQ(run.status, 2);
    EXPECT_NE(run.err.find("rnnprof plot"), std::string::npos) << run.err;
    EXPECT_EQ(test::runRnnprof({"--help"}).status, 0);
}

} // namespace
} // namespace rnnprof
