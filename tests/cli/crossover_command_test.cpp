// `rnnprof crossover`: the real binary searches a grid for where a GPU file's times overtake a
// backend measured here, measuring only the batch sizes the bisection needs, and writes them with
// the crossover record; bad sides are refused with a message naming what is allowed.
#include "cli_process.h"

#include "profiling/files/result_files.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>

namespace rnnprof {
namespace {

using test::Args;
using test::ProcessResult;
using test::runRnnprof;
using test::TempDir;

ProcessResult crossover(Args args) {
    args.insert(args.begin(), "crossover");
    return runRnnprof(args);
}

// A GPU result of LSTM 3->4 at T=3, B = 1..64: far slower than any CPU up to B=8 and far faster
// from B=16, so the crossing lies between 8 and 16 whatever this machine's CPU times are.
SweepResult steppedGpuResult() {
    return test::tinyGpuResult({1, 2, 4, 8, 16, 32, 64}, {Mode::Inference},
                               [](int batch) { return batch <= 8 ? 1e6 : 1e-9; });
}

TEST(CrossoverCommand, MeasuresOnlyTheBatchSizesTheBisectionNeedsAndRecordsTheCrossover) {
    TempDir dir;
    saveResultJson(dir.path("gpu.json"), steppedGpuResult());
    const auto run =
        crossover({"--baseline", "cpu-reference", "--challenger", dir.path("gpu.json"), "--repeats", "2",
                   "--out", dir.path("x.json"), "--crossover-csv", dir.path("x.csv")});
    ASSERT_EQ(run.status, 0) << run.err << run.out;
    // Ends 1 and 64, then 8 (index 3 of 7), then 16 (index 4): one grid step wide.
    EXPECT_NE(run.out.find("measured 4 of 7 batch sizes of the grid (B=1..64): bracket one grid step wide "
                           "(B=8..16)"),
              std::string::npos)
        << run.out;
    EXPECT_NE(run.out.find("Crossover of " + dir.path("gpu.json") +
                           ":fastest-gpu over cpu-reference, infer T=3: "
                           "faster from B\u2248"),
              std::string::npos)
        << run.out;
    const SweepResult r = loadResultFile(dir.path("x.json"));
    std::set<int> batches;
    for (const PointResult& p : r.points) {
        EXPECT_EQ(p.backend, "cpu-reference");
        batches.insert(p.shape.batch);
    }
    EXPECT_EQ(batches, (std::set<int>{1, 8, 16, 64}));
    EXPECT_EQ(r.plan.batches, (std::vector<int>{1, 8, 16, 64}));
    ASSERT_EQ(r.crossovers.size(), 1u);
    const CrossoverRecord& c = r.crossovers[0];
    EXPECT_EQ(c.baseline, "cpu-reference");
    EXPECT_EQ(c.challenger, dir.path("gpu.json") + ":fastest-gpu");
    EXPECT_EQ(c.seqLen, 3);
    EXPECT_EQ(c.measuredBatches, 4);
    EXPECT_EQ(c.gridBatches, 7);
    EXPECT_GT(c.batch, 8.0);
    EXPECT_LT(c.batch, 16.0);
    EXPECT_LE(c.low, c.batch);
    EXPECT_GE(c.high, c.batch);
    // The same record as CSV.
    std::ifstream csv(dir.path("x.csv"));
    std::string header, row;
    ASSERT_TRUE(std::getline(csv, header) && std::getline(csv, row));
    EXPECT_EQ(header,
              "baseline,challenger,mode,seq_len,batch,low,high,verdict,flags,measured_batches,grid_batches");
    EXPECT_EQ(row.rfind("cpu-reference," + dir.path("gpu.json") + ":fastest-gpu,infer,3,", 0), 0u) << row;
    EXPECT_EQ(row.substr(row.size() - 4), ",4,7") << row;
}

TEST(CrossoverCommand, BadSidesAreRefusedNamingWhatIsAllowed) {
    TempDir dir;
    saveResultJson(dir.path("gpu.json"), steppedGpuResult());
    const auto noChallenger = crossover({"--seq-len", "3", "--out", dir.path("x.json")});
    EXPECT_EQ(noChallenger.status, 2);
    EXPECT_NE(noChallenger.err.find("--challenger is required"), std::string::npos) << noChallenger.err;
    const auto unknown =
        crossover({"--challenger", "gpu-magic", "--seq-len", "3", "--out", dir.path("x.json")});
    EXPECT_EQ(unknown.status, 2);
    EXPECT_NE(unknown.err.find("'gpu-magic' is no side: give a backend (cpu-reference"), std::string::npos)
        << unknown.err;
    const auto twoFiles = crossover({"--baseline", dir.path("gpu.json"), "--challenger", dir.path("gpu.json"),
                                     "--out", dir.path("x.json")});
    EXPECT_EQ(twoFiles.status, 2);
    EXPECT_NE(twoFiles.err.find("one side must be measured here"), std::string::npos) << twoFiles.err;
    const auto otherModel =
        crossover({"--baseline", "cpu-reference", "--challenger", dir.path("gpu.json"), "--cell", "gru",
                   "--input-size", "3", "--hidden-size", "4", "--out", dir.path("x.json")});
    EXPECT_EQ(otherModel.status, 2);
    EXPECT_NE(otherModel.err.find("ran another model (cell lstm vs gru)"), std::string::npos)
        << otherModel.err;
}

} // namespace
} // namespace rnnprof
