// Outputs and symbolic links, as a hostile or careless user arranges them: every command compares
// its outputs with each other and with its inputs through links (also links to files that do not
// exist yet) before it writes or deletes anything, and a file it makes inside an output folder
// replaces a link planted there instead of writing through it.
#include "cli/cli_process.h"
#include "profiling/files/result_files.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace rnnprof {
namespace {

namespace fs = std::filesystem;
using test::Args;
using test::ProcessResult;
using test::runRnnprof;
using test::slurp;
using test::TempDir;
using ::testing::HasSubstr;

Args tinySweep(const TempDir& dir) {
    return test::oneTinyPointSweep(dir.path("r.json"));
}

const std::string kDecoy = "the decoy's own bytes";

// A file outside the output folder and a link to it planted in the folder under `name`.
void plantDecoy(const TempDir& dir, const std::string& folder, const std::string& name) {
    fs::create_directories(dir.path(folder));
    std::ofstream(dir.path("decoy")) << kDecoy;
    fs::create_symlink(dir.path("decoy"), dir.path(folder + "/" + name));
}

// The decoy kept its bytes, and the planted link became the command's own regular file.
void expectDecoyUntouched(const TempDir& dir, const std::string& planted) {
    EXPECT_EQ(slurp(dir.path("decoy")), kDecoy) << "written through the link planted at " << planted;
    EXPECT_FALSE(fs::is_symlink(dir.path(planted))) << planted;
    EXPECT_TRUE(fs::is_regular_file(dir.path(planted))) << planted;
}

TEST(OutputLinks, ACsvOrTraceLinkedToTheResultsFileNotYetWrittenIsRefusedBeforeMeasuring) {
    for (const std::string flag : {"--csv", "--trace"}) {
        SCOPED_TRACE(flag);
        TempDir dir;
        fs::create_symlink("r.json", dir.path("other.out"));
        Args args = tinySweep(dir);
        args.insert(args.end(), {flag, dir.path("other.out")});
        const ProcessResult run = runRnnprof(args);
        EXPECT_EQ(run.status, 2) << run.err;
        EXPECT_THAT(run.err, HasSubstr("--out " + dir.path("r.json") + " and " + flag + " " +
                                       dir.path("other.out") + " are the same file"));
        EXPECT_FALSE(fs::exists(dir.path("r.json"))) << "nothing is measured or written";
        EXPECT_FALSE(fs::exists(dir.path("r.json.journal")));
    }
}

TEST(OutputLinks, APredictionsCsvLinkedToItsJsonNotYetWrittenIsRefused) {
    TempDir dir;
    saveResultJson(dir.path("gpu.json"),
                   test::tinyGpuResult({1, 2, 4, 8}, {Mode::Inference}, [](int b) { return 1.0 + 0.1 * b; }));
    fs::create_symlink("p.json", dir.path("p.csv"));
    const ProcessResult run = runRnnprof({"predict", "--from", dir.path("gpu.json"), "--input-size", "3",
                                          "--hidden-size", "4", "--batch", "1,2", "--seq-len", "3", "--out",
                                          dir.path("p.json"), "--csv", dir.path("p.csv")});
    EXPECT_EQ(run.status, 2) << run.err;
    EXPECT_THAT(run.err, HasSubstr("are the same file"));
    EXPECT_FALSE(fs::exists(dir.path("p.json")));
}

TEST(OutputLinks, EvalRefusesAnOutputFolderThatHoldsItsInputUnderAnOutputsName) {
    TempDir dir;
    fs::create_directories(dir.path("self"));
    fs::create_directories(dir.path("w"));
    std::ofstream(dir.path("self/output.npy")) << "the input";
    const ProcessResult run = test::runEval({"--cell", "lstm", "--input-size", "2", "--hidden-size", "3",
                                             "--layers", "1", "--weights", dir.path("w"), "--input",
                                             dir.path("self/output.npy"), "--out", dir.path("self")});
    EXPECT_NE(run.status, 0);
    EXPECT_THAT(run.err, HasSubstr("--out " + dir.path("self") + " would replace --input " +
                                   dir.path("self/output.npy") + " (as output.npy)"));
    EXPECT_EQ(slurp(dir.path("self/output.npy")), "the input");
}

TEST(OutputLinks, ReportRefusesAFolderWhosePageWouldReplaceAResultFileItReads) {
    TempDir dir;
    fs::create_directories(dir.path("rdir"));
    const SweepResult r = test::tinyGpuResult({1, 2}, {Mode::Inference}, [](int b) { return 1.0 * b; });
    saveResultJson(dir.path("rdir/index.html"), r);
    const std::string before = slurp(dir.path("rdir/index.html"));
    const ProcessResult run =
        test::runWithoutDisplay("report", {dir.path("rdir/index.html"), "--out", dir.path("rdir")});
    EXPECT_EQ(run.status, 2) << run.err;
    EXPECT_THAT(run.err, HasSubstr("would replace the result file " + dir.path("rdir/index.html")));
    EXPECT_EQ(slurp(dir.path("rdir/index.html")), before);
}

TEST(OutputLinks, PlotReplacesALinkPlantedInItsFolderInsteadOfWritingThroughIt) {
    TempDir dir;
    saveResultJson(dir.path("r1.json"),
                   test::tinyGpuResult({1, 2}, {Mode::Inference}, [](int b) { return 1.0 * b; }));
    plantDecoy(dir, "pl", "time-vs-batch-T3.png");
    const ProcessResult run =
        test::runWithoutDisplay("plot", {dir.path("r1.json"), "--out", dir.path("pl"), "--format", "png"});
    ASSERT_EQ(run.status, 0) << run.err;
    expectDecoyUntouched(dir, "pl/time-vs-batch-T3.png");
}

TEST(OutputLinks, ReportReplacesALinkPlantedAtItsPage) {
    TempDir dir;
    saveResultJson(dir.path("r1.json"),
                   test::tinyGpuResult({1, 2}, {Mode::Inference}, [](int b) { return 1.0 * b; }));
    plantDecoy(dir, "rp", "index.html");
    const ProcessResult run =
        test::runWithoutDisplay("report", {dir.path("r1.json"), "--out", dir.path("rp")});
    ASSERT_EQ(run.status, 0) << run.err;
    expectDecoyUntouched(dir, "rp/index.html");
}

TEST(OutputLinks, SweepChartsReplaceALinkPlantedInTheirFolder) {
    TempDir dir;
    plantDecoy(dir, "ch", "time-vs-batch-T2.png");
    test::forgetDisplay();
    Args args = tinySweep(dir);
    args.insert(args.end(), {"--charts", dir.path("ch")});
    const ProcessResult run = runRnnprof(args);
    ASSERT_EQ(run.status, 0) << run.err;
    expectDecoyUntouched(dir, "ch/time-vs-batch-T2.png");
}

} // namespace
} // namespace rnnprof
