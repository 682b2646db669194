// `rnnprof predict` end to end: predictions from synthetic GPU files made from known cost-model
// coefficients match the formula at a model and grid no file ran; every written point is flagged
// predicted (JSON, CSV, terminal); and every refused input names what was wrong.
#include "cli_process.h"

#include "profiling/analysis/cost_model.h"
#include "profiling/analysis/flops.h"
#include "profiling/files/result_files.h"
#include "support/strict_csv.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace rnnprof {
namespace {

using test::Args;
using test::ProcessResult;
using test::runRnnprof;
using test::TempDir;
using ::testing::HasSubstr;

ProcessResult predict(Args args) {
    args.insert(args.begin(), "predict");
    return runRnnprof(args);
}

// The known GPU: c = 0.02 ms, 5 us per kernel launch, 2000 GB/s, 3000 GFLOP/s, 10 ps per gate value.
double knownMs(const RnnConfig& config, Shape shape, Mode mode) {
    const CostFeatures x = costFeatures(config, shape, {"gpu-cudnn", mode});
    return 0.02 + x[kLaunchTerm] * 0.005 + x[kStreamTerm] / 2000e6 + x[kComputeTerm] / 3000e6 +
           x[kElementTerm] * 10e-9;
}

// A model "measured" on that GPU at T in {20, 100}, B = 1..256, inference only, with a CPU backend
// beside it that must not be fitted: by default LSTM 128->256.
SweepResult syntheticGpuFile(int inputSize = 128, int hiddenSize = 256, int layers = 1) {
    SweepResult r;
    r.plan.config.inputSize = inputSize;
    r.plan.config.hiddenSize = hiddenSize;
    r.plan.config.layers = layers;
    r.createdAt = "2026-01-01T00:00:00Z";
    r.host.hostname = "gpubox";
    r.host.gpu.available = true;
    r.host.gpu.devices.push_back({});
    r.host.gpu.devices.back().name = "Synthetic GPU";
    r.plan.seqLens = {20, 100};
    r.plan.batches = {1, 4, 16, 64, 256};
    r.plan.backends = {"cpu-blas", "gpu-cudnn"};
    r.plan.modes = {Mode::Inference};
    for (int t : r.plan.seqLens)
        for (int b : r.plan.batches)
            for (const char* backend : {"cpu-blas", "gpu-cudnn"}) {
                PointResult p;
                p.backend = backend;
                p.shape = {b, t};
                p.iteration.count = 3;
                p.iteration.median = knownMs(r.plan.config, p.shape, Mode::Inference) *
                                     (std::string(backend) == "cpu-blas" ? 50.0 : 1.0);
                r.points.push_back(p);
            }
    r.complete = true;
    return r;
}

Args gruGrid(const TempDir& dir) {
    return {"--from",
            dir.path("gpu.json"),
            "--cell",
            "gru",
            "--input-size",
            "64",
            "--hidden-size",
            "512",
            "--layers",
            "2",
            "--bidirectional",
            "--batch",
            "1,8,64",
            "--seq-len",
            "50",
            "--out",
            dir.path("predicted.json")};
}

TEST(PredictCommand, PredictsTheKnownTimesOfAModelNoFileRanAndFlagsEveryPoint) {
    // Three models, so that the fit can tell each term from the others.
    TempDir dir;
    saveResultJson(dir.path("gpu.json"), syntheticGpuFile());
    saveResultJson(dir.path("gpu-64.json"), syntheticGpuFile(64, 64, 1));
    saveResultJson(dir.path("gpu-512.json"), syntheticGpuFile(512, 512, 2));
    Args args = gruGrid(dir);
    args.insert(args.end(), {"--from", dir.path("gpu-64.json"), "--from", dir.path("gpu-512.json"), "--csv",
                             dir.path("predicted.csv")});
    const auto run = predict(args);
    ASSERT_EQ(run.status, 0) << run.err;
    const SweepResult predicted = loadResultFile(dir.path("predicted.json"));
    ASSERT_EQ(predicted.points.size(), 3u) << "the file's GPU backend and mode, one point per B";
    EXPECT_EQ(predicted.plan.config.cell, CellType::Gru);
    EXPECT_EQ(predicted.plan.config.hiddenSize, 512);
    for (const PointResult& p : predicted.points) {
        EXPECT_EQ(p.backend, "gpu-cudnn");
        EXPECT_EQ(p.status, PointStatus::Predicted);
        const double expected = knownMs(predicted.plan.config, p.shape, p.mode);
        EXPECT_NEAR(p.iteration.median, expected, expected * 0.01) << "B=" << p.shape.batch;
        ASSERT_TRUE(p.prediction.has_value());
        EXPECT_EQ(p.prediction->from, "gpu.json, gpu-64.json, gpu-512.json");
        EXPECT_EQ(p.prediction->gpu, "Synthetic GPU");
        EXPECT_EQ(p.prediction->fittedPoints, 30) << "the CPU points are not fitted";
        EXPECT_EQ(p.prediction->check, "leave-one-model-out");
    }
    const test::StrictCsv csv = test::readStrictCsv([&] {
        std::ifstream in(dir.path("predicted.csv"));
        return std::string(std::istreambuf_iterator<char>(in), {});
    }());
    ASSERT_EQ(csv.rows.size(), 4u);
    const auto& header = csv.rows[0];
    const auto status = std::size_t(std::find(header.begin(), header.end(), "status") - header.begin());
    const auto from = std::size_t(std::find(header.begin(), header.end(), "predicted_from") - header.begin());
    ASSERT_LT(from, header.size());
    for (std::size_t i = 1; i < csv.rows.size(); ++i) {
        EXPECT_EQ(csv.rows[i][status], "predicted");
        EXPECT_EQ(csv.rows[i][from],
                  "predicted from gpu.json, gpu-64.json, gpu-512.json (Synthetic GPU) \u2014 not measured");
    }
    EXPECT_THAT(run.out,
                HasSubstr("gpu-cudnn infer from gpu.json, gpu-64.json, gpu-512.json (Synthetic GPU)"));
    EXPECT_THAT(run.out, HasSubstr("predicted"));
    EXPECT_THAT(run.out, HasSubstr("not measured"));
}

TEST(PredictCommand, PredictsFromTheShippedH100FileForTheAskedBackendsAndModes) {
    TempDir dir;
    const auto run =
        predict({"--from", std::string(RNNPROF_REFERENCE_DIR) + "/h100-quick-start.json", "--cell", "lstm",
                 "--input-size", "256", "--hidden-size", "1024", "--batch", "1..64", "--seq-len", "20,50",
                 "--backend", "gpu-cudnn,gpu-generic", "--mode", "train,infer", "--out", dir.path("p.json")});
    ASSERT_EQ(run.status, 0) << run.err;
    const SweepResult predicted = loadResultFile(dir.path("p.json"));
    EXPECT_EQ(predicted.points.size(), 7u * 2 * 2 * 2);
    for (const PointResult& p : predicted.points) {
        EXPECT_TRUE(p.predicted());
        EXPECT_GT(p.iteration.median, 0.0);
        EXPECT_THAT(p.reason, HasSubstr("(NVIDIA H100 80GB HBM3) \u2014 not measured"));
    }
}

// A prediction is a grid like a sweep's and has its cap: 4096 batch sizes x 50 sequence lengths
// x 2 backends x 1 mode = 409,600 points are refused before any is predicted or written.
TEST(PredictCommand, AGridBeyondTheSweepsPointCapIsRefusedBeforeAnythingIsWritten) {
    TempDir dir;
    const auto run =
        predict({"--from", std::string(RNNPROF_REFERENCE_DIR) + "/h100-quick-start.json", "--cell", "lstm",
                 "--input-size", "256", "--hidden-size", "1024", "--batch", "1-4096", "--seq-len", "1-50",
                 "--backend", "gpu-cudnn,gpu-generic", "--mode", "infer", "--out", dir.path("p.json")});
    EXPECT_EQ(run.status, 2) << run.err;
    EXPECT_THAT(run.err, HasSubstr("the grid has 409600 points, at most 100000 are allowed"));
    EXPECT_FALSE(std::filesystem::exists(dir.path("p.json")));
}

TEST(PredictCommand, AFileWithoutTheAskedBackendOrModeSaysWhatItHas) {
    TempDir dir;
    saveResultJson(dir.path("gpu.json"), syntheticGpuFile());
    Args args = gruGrid(dir);
    args.insert(args.end(), {"--mode", "train"});
    const auto train = predict(args);
    EXPECT_EQ(train.status, 2);
    EXPECT_THAT(train.err, HasSubstr("cannot fit gpu-cudnn train"));
    EXPECT_THAT(train.err, HasSubstr("gpu.json: cpu-blas infer 10, gpu-cudnn infer 10"));
    EXPECT_FALSE(std::filesystem::exists(dir.path("predicted.json")));
    Args generic = gruGrid(dir);
    generic.insert(generic.end(), {"--backend", "gpu-generic"});
    EXPECT_THAT(predict(generic).err, HasSubstr("cannot fit gpu-generic infer"));
}

TEST(PredictCommand, AFileWithoutGpuPointsIsRefused) {
    TempDir dir;
    SweepResult cpu = syntheticGpuFile();
    std::erase_if(cpu.points, [](const PointResult& p) { return p.backend != "cpu-blas"; });
    saveResultJson(dir.path("gpu.json"), cpu);
    const auto run = predict(gruGrid(dir));
    EXPECT_EQ(run.status, 2);
    EXPECT_THAT(run.err, HasSubstr("holds no ok GPU point"));
}

TEST(PredictCommand, FromMayBeRepeatedAndOtherFlagsMayNot) {
    TempDir dir;
    saveResultJson(dir.path("gpu.json"), syntheticGpuFile());
    Args twice = gruGrid(dir);
    twice.insert(twice.end(), {"--from", dir.path("gpu.json"), "--out", dir.path("other.json")});
    const auto run = predict(twice);
    EXPECT_EQ(run.status, 2);
    EXPECT_THAT(run.err, HasSubstr("--out is given 2 times; give it once"));
    EXPECT_THAT(run.err, ::testing::Not(HasSubstr("--from is given")));
    EXPECT_THAT(run.err,
                HasSubstr("--from " + dir.path("gpu.json") + " is given twice: each file is pooled once"));
}

TEST(PredictCommand, CheckPrintsEachModelPredictedFromTheOthersPerBackendAndMode) {
    // Three models on the known GPU: each predicted exactly from the other two.
    TempDir dir;
    saveResultJson(dir.path("gpu.json"), syntheticGpuFile());
    saveResultJson(dir.path("gpu-64.json"), syntheticGpuFile(64, 64, 1));
    saveResultJson(dir.path("gpu-512.json"), syntheticGpuFile(512, 512, 2));
    const auto run = predict({"--check", "--from", dir.path("gpu.json"), "--from", dir.path("gpu-64.json"),
                              "--from", dir.path("gpu-512.json")});
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_THAT(run.out, HasSubstr("| gpu-cudnn infer | 3 | 30 | 0.0 % | 0.0 % | 100 % | 100 % |"));
    EXPECT_THAT(run.out, HasSubstr("| all |  | 30 |"));
    EXPECT_THAT(run.out,
                HasSubstr("| gpu-cudnn infer | 30 | 0.02 ms | 5 µs | 2000 GB/s | 3000 GFLOP/s | 10 ps |"))
        << "the known coefficients, fitted back";
    EXPECT_THAT(run.out, ::testing::Not(HasSubstr("cpu-blas"))) << "CPU points are not a GPU family";
    EXPECT_THAT(run.out, HasSubstr("(Synthetic GPU): each model's points predicted"));
    EXPECT_FALSE(std::filesystem::exists(dir.path("predicted.json")));
    // Files of two GPUs are pooled as one, and the check says so.
    SweepResult other = syntheticGpuFile(512, 512, 2);
    other.host.gpu.devices.back().name = "Other GPU";
    saveResultJson(dir.path("gpu-512.json"), other);
    const auto mixed = predict({"--check", "--from", dir.path("gpu.json"), "--from", dir.path("gpu-64.json"),
                                "--from", dir.path("gpu-512.json")});
    EXPECT_THAT(mixed.out,
                HasSubstr("(Synthetic GPU, Other GPU; pooled as one GPU: check each GPU's files apart)"));
}

TEST(PredictCommand, CheckTakesOnlyFromFilesAndNeedsGpuPoints) {
    TempDir dir;
    saveResultJson(dir.path("gpu.json"), syntheticGpuFile());
    const auto extra =
        predict({"--check", "--from", dir.path("gpu.json"), "--batch", "1", "--out", dir.path("p.json")});
    EXPECT_EQ(extra.status, 2);
    EXPECT_THAT(extra.err, HasSubstr("--batch has no use with --check: it checks the --from files only"));
    EXPECT_THAT(extra.err, HasSubstr("--out has no use with --check"));
    EXPECT_THAT(predict({"--check"}).err, HasSubstr("--from is required"));
    SweepResult cpu = syntheticGpuFile();
    std::erase_if(cpu.points, [](const PointResult& p) { return p.backend != "cpu-blas"; });
    saveResultJson(dir.path("cpu.json"), cpu);
    const auto none = predict({"--check", "--from", dir.path("cpu.json")});
    EXPECT_EQ(none.status, 2);
    EXPECT_THAT(none.err, HasSubstr("holds no ok GPU point"));
}

TEST(PredictCommand, CudaGraphReplaysAreAFamilyOfTheirOwn) {
    TempDir dir;
    SweepResult graphs = syntheticGpuFile();
    graphs.plan.settings.cudaGraph = true;
    saveResultJson(dir.path("gpu.json"), graphs);
    const auto plain = predict(gruGrid(dir));
    EXPECT_EQ(plain.status, 2);
    EXPECT_THAT(
        plain.err,
        HasSubstr("cannot fit gpu-cudnn infer: it needs at least 3 ok gpu-cudnn infer points, got 0"));
    EXPECT_THAT(plain.err, HasSubstr("gpu-cudnn infer, CUDA graphs 10"));
    Args withGraphs = gruGrid(dir);
    withGraphs.push_back("--cuda-graph");
    const auto run = predict(withGraphs);
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_TRUE(loadResultFile(dir.path("predicted.json")).plan.settings.cudaGraph);
}

TEST(PredictCommand, MissingFlagsAndUnreadableFilesAreNamed) {
    TempDir dir;
    const auto bare = predict({"--out", dir.path("p.json")});
    EXPECT_EQ(bare.status, 2);
    for (const char* flag : {"--from is required", "--cell is required", "--input-size is required",
                             "--hidden-size is required", "--batch is required", "--seq-len is required"})
        EXPECT_THAT(bare.err, HasSubstr(flag));
    Args missing = gruGrid(dir);
    missing[1] = dir.path("nope.json");
    const auto none = predict(missing);
    EXPECT_EQ(none.status, 2);
    EXPECT_THAT(none.err, HasSubstr("--from " + dir.path("nope.json") + ": "));
    Args badMode = gruGrid(dir);
    badMode.insert(badMode.end(), {"--mode", "sideways"});
    EXPECT_THAT(predict(badMode).err, HasSubstr("--mode: 'sideways' is not train or infer"));
}

TEST(PredictCommand, HelpDescribesTheModel) {
    const auto run = predict({"--help"});
    EXPECT_EQ(run.status, 0);
    EXPECT_THAT(run.out, HasSubstr("t = c + lambda*K + Q/BW + W/R + epsilon*E"));
    EXPECT_THAT(run.out, HasSubstr("--check"));
    EXPECT_THAT(run.out, HasSubstr("--from"));
}

} // namespace
} // namespace rnnprof
