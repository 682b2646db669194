// `rnnprof sweep` and the files it writes: outputs that are one file under two names are
// refused before measuring, an earlier run's journal is never overwritten and can be resumed, one
// sweep at a time writes an output, and links planted at the journal's name are not followed.
#include "cli_process.h"

#include "profiling/files/result_files.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>

namespace rnnprof {
namespace {

namespace fs = std::filesystem;
using test::Args;
using test::ChildProcess;
using test::ProcessResult;
using test::runRnnprof;
using test::slurp;
using test::TempDir;
using test::waitUntil;

ProcessResult sweep(Args args) {
    args.insert(args.begin(), "sweep");
    return runRnnprof(args);
}

// 2 backends x 2 batches x 2 modes = 8 points in well under a second; `out` relative to `dir`.
Args tinyGrid(const TempDir& dir, const std::string& out = "r.json") {
    return {"--cell",  "lstm",  "--input-size", "3", "--hidden-size", "4",
            "--batch", "1,2",   "--seq-len",    "3", "--backend",     "cpu-blas,cpu-reference",
            "--mode",  "both",  "--warmup",     "0", "--repeats",     "2",
            "--quiet", "--out", dir.path(out)};
}

void writeFile(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

// Every file of `dir` with its content: "nothing written" means this does not change.
std::map<std::string, std::string> snapshot(const TempDir& dir) {
    std::map<std::string, std::string> files;
    for (const auto& name : test::filesIn(dir.path()))
        files[name] = slurp(dir.path(name));
    return files;
}

struct Collision {
    const char* name;
    Args flags;        // "D/" stands for the test's folder
    const char* first; // the two flags the message must name
    const char* second;
};

class OutputCollision : public ::testing::TestWithParam<Collision> {};

TEST_P(OutputCollision, IsRefusedBeforeMeasuringNamingBothFlagsAndWritesNothing) {
    TempDir dir;
    writeFile(dir.path("plan.json"), R"({"model": {"cell": "lstm", "input_size": 3, "hidden_size": 4}})");
    writeFile(dir.path("old.csv"), "kept");
    fs::create_hard_link(dir.path("old.csv"), dir.path("hardlink.json"));
    fs::create_symlink(dir.path("old.csv"), dir.path("symlink.csv"));
    Args args = GetParam().flags;
    for (auto& a : args)
        if (a.rfind("D/", 0) == 0) a = dir.path(a.substr(2));
    const auto before = snapshot(dir);
    const auto run = sweep(args);
    EXPECT_EQ(run.status, 2) << run.err;
    EXPECT_NE(run.err.find(GetParam().first), std::string::npos) << run.err;
    EXPECT_NE(run.err.find(GetParam().second), std::string::npos) << run.err;
    EXPECT_EQ(snapshot(dir), before) << "nothing may be written";
}

const Collision kCollisions[] = {
    {"CsvIsOut", {"--out", "D/r.json", "--csv", "D/r.json"}, "--out ", "--csv "},
    {"TraceIsOutSpelledDifferently", {"--out", "D/r.json", "--trace", "D/./r.json"}, "--out ", "--trace "},
    {"CsvIsTheJournal", {"--out", "D/r.json", "--csv", "D/r.json.journal"}, "the journal of --out", "--csv "},
    {"CsvIsTrace", {"--out", "D/r.json", "--csv", "D/t.json", "--trace", "D/t.json"}, "--csv ", "--trace "},
    {"OutIsTheConfig", {"--config", "D/plan.json", "--out", "D/plan.json"}, "--out ", "--config "},
    {"OutIsAHardLinkOfCsv", {"--out", "D/hardlink.json", "--csv", "D/old.csv"}, "--out ", "--csv "},
    {"CsvIsASymlinkToTrace",
     {"--out", "D/r.json", "--csv", "D/symlink.csv", "--trace", "D/old.csv"},
     "--csv ",
     "--trace "},
};

INSTANTIATE_TEST_SUITE_P(Cases, OutputCollision, ::testing::ValuesIn(kCollisions),
                         [](const auto& info) { return std::string(info.param.name); });

// A journal as a killed run leaves it: the header and the first `kept` points of `full`, then a
// line torn in the middle.
void writeKilledJournal(const std::string& path, const SweepResult& full, std::size_t kept) {
    SweepResult header = full;
    header.points.clear();
    {
        Journal journal(path, header);
        for (std::size_t i = 0; i < kept; ++i)
            journal.append(full.points[i]);
    }
    std::ofstream(path, std::ios::binary | std::ios::app) << R"({"backend": "cpu-bl)";
}

TEST(SweepJournal, AKilledRunsJournalSurvivesAReRunAndResumeMeasuresOnlyTheMissingPoints) {
    TempDir dir;
    // A kept point that was disturbed (a busy machine) is rightly measured again at the end of the
    // resumed sweep; without that re-measurement, exactly the missing points are measured.
    const auto grid = [](const TempDir& d) {
        Args args = tinyGrid(d);
        args.insert(args.end(), {"--remeasure", "0"});
        return args;
    };
    ASSERT_EQ(sweep(grid(dir)).status, 0);
    const SweepResult first = loadResultFile(dir.path("r.json"));
    ASSERT_EQ(first.points.size(), 8u);
    fs::remove(dir.path("r.json"));
    const std::string journal = dir.path("r.json.journal");
    writeKilledJournal(journal, first, 3);
    const std::string left = slurp(journal);

    const auto refused = sweep(grid(dir));
    EXPECT_EQ(refused.status, 2) << refused.err;
    EXPECT_NE(refused.err.find(journal + " is the journal of an earlier run"), std::string::npos)
        << refused.err;
    EXPECT_NE(refused.err.find("holding 3 points"), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("--resume"), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("delete " + journal), std::string::npos) << refused.err;
    EXPECT_EQ(slurp(journal), left) << "the earlier run's journal was changed";
    EXPECT_FALSE(fs::exists(dir.path("r.json")));

    Args resume = grid(dir);
    resume.push_back("--resume");
    const auto resumed = sweep(resume);
    ASSERT_EQ(resumed.status, 0) << resumed.err;
    EXPECT_NE(resumed.err.find("3 points kept"), std::string::npos) << resumed.err;
    const SweepResult result = loadResultFile(dir.path("r.json"));
    EXPECT_TRUE(result.complete);
    EXPECT_EQ(result.createdAt, first.createdAt) << "the resumed run keeps the earlier run's header";
    ASSERT_EQ(result.points.size(), 8u);
    std::size_t measuredAgain = 0;
    for (std::size_t i = 0; i < 8; ++i) {
        EXPECT_EQ(result.points[i].backend, first.points[i].backend);
        EXPECT_EQ(result.points[i].mode, first.points[i].mode);
        EXPECT_EQ(result.points[i].shape, first.points[i].shape);
        EXPECT_EQ(result.points[i].status, PointStatus::Ok) << result.points[i].reason;
        if (!(result.points[i] == first.points[i])) ++measuredAgain;
        if (i < 3) {
            EXPECT_EQ(result.points[i], first.points[i]) << "kept point " << i << " was measured again";
        }
    }
    EXPECT_EQ(measuredAgain, 5u) << "exactly the 5 missing points are measured";
    EXPECT_FALSE(fs::exists(journal)) << "the journal goes once the results are saved";
}

// A journal whose third line (its second point) was damaged on disk, not torn by a kill: refused
// with what is in it and the way to keep its sound points; --resume --skip-damaged keeps them,
// measures the damaged one again, and writes the journal anew.
TEST(SweepJournal, ADamagedLineInTheMiddleIsNamedAndSkipDamagedKeepsTheSoundPoints) {
    TempDir dir;
    ASSERT_EQ(sweep(tinyGrid(dir)).status, 0);
    const SweepResult first = loadResultFile(dir.path("r.json"));
    fs::remove(dir.path("r.json"));
    const std::string journal = dir.path("r.json.journal");
    {
        SweepResult header = first;
        header.points.clear();
        Journal j(journal, header);
        for (std::size_t i = 0; i < 4; ++i)
            j.append(first.points[i]);
    }
    std::string text = slurp(journal);
    const auto third = text.find('\n', text.find('\n') + 1) + 1; // line 3: the second point
    text.replace(third, 10, "#damaged!#");
    std::ofstream(journal, std::ios::binary | std::ios::trunc) << text;

    for (const bool resume : {false, true}) {
        Args args = tinyGrid(dir);
        if (resume) args.push_back("--resume");
        const auto refused = sweep(args);
        EXPECT_EQ(refused.status, 2) << refused.err;
        EXPECT_NE(refused.err.find("with 1 damaged line (" + journal + " line 3: not valid JSON"),
                  std::string::npos)
            << refused.err;
        EXPECT_NE(refused.err.find("Give --resume --skip-damaged to keep its 3 sound points"),
                  std::string::npos)
            << refused.err;
        EXPECT_EQ(slurp(journal), text) << "left as it was";
    }
    Args noResume = tinyGrid(dir);
    noResume.push_back("--skip-damaged");
    EXPECT_EQ(sweep(noResume).status, 2);

    Args skip = tinyGrid(dir);
    skip.insert(skip.end(), {"--resume", "--skip-damaged"});
    const auto resumed = sweep(skip);
    ASSERT_EQ(resumed.status, 0) << resumed.err;
    EXPECT_NE(resumed.err.find("3 points kept"), std::string::npos) << resumed.err;
    EXPECT_NE(resumed.err.find("left out the damaged " + journal + " line 3"), std::string::npos)
        << resumed.err;
    const SweepResult saved = loadResultFile(dir.path("r.json"));
    EXPECT_TRUE(saved.complete);
    ASSERT_EQ(saved.points.size(), first.points.size());
    for (std::size_t i : {0u, 2u, 3u})
        EXPECT_EQ(saved.points[i], first.points[i]) << "the sound point " << i << " was measured again";
    EXPECT_FALSE(fs::exists(journal));
}

TEST(SweepJournal, ResumeRefusesAJournalOfAnotherPlanNamingTheDifference) {
    TempDir dir;
    ASSERT_EQ(sweep(tinyGrid(dir)).status, 0);
    const SweepResult first = loadResultFile(dir.path("r.json"));
    fs::remove(dir.path("r.json"));
    writeKilledJournal(dir.path("r.json.journal"), first, 2);
    const std::string left = slurp(dir.path("r.json.journal"));
    Args other = tinyGrid(dir);
    const auto batch = std::find(other.begin(), other.end(), "--batch");
    ASSERT_NE(batch, other.end());
    *std::next(batch) = "1,4";
    other.push_back("--resume");
    const auto run = sweep(other);
    EXPECT_EQ(run.status, 2) << run.err;
    EXPECT_NE(run.err.find("another plan"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("batch [1,2] vs [1,4]"), std::string::npos) << run.err;
    EXPECT_EQ(slurp(dir.path("r.json.journal")), left);
    EXPECT_FALSE(fs::exists(dir.path("r.json")));
}

// One B=1 T=65535 point of 20000 runs: minutes, so it is surely running during the second start.
std::vector<std::string> longSweep(const std::string& out) {
    return {RNNPROF_EXE,     "sweep",    "--cell",    "lstm",  "--input-size",  "8",
            "--hidden-size", "64",       "--batch",   "1",     "--seq-len",     "65535",
            "--backend",     "cpu-blas", "--mode",    "infer", "--threads",     "1",
            "--warmup",      "0",        "--repeats", "20000", "--no-numerics", "--quiet",
            "--out",         out};
}

TEST(SweepJournal, ASecondSweepOnTheSameOutputIsRefusedNamingTheFirstsProcess) {
    TempDir dir;
    const std::string journal = dir.path("r.json.journal");
    ChildProcess first(longSweep(dir.path("r.json")));
    ASSERT_TRUE(first.started());
    ASSERT_TRUE(
        waitUntil([&] { return slurp(journal).find('\n') != std::string::npos || !first.running(); }));
    ASSERT_TRUE(first.running()) << first.wait().err;
    const std::string before = slurp(journal);

    const auto second = sweep(tinyGrid(dir));
    EXPECT_EQ(second.status, 2) << second.err;
    EXPECT_NE(
        second.err.find("is being written by another sweep (process " + std::to_string(first.pid()) + ")"),
        std::string::npos)
        << second.err;
    EXPECT_EQ(slurp(journal), before) << "the second sweep wrote into the first one's journal";
    EXPECT_FALSE(fs::exists(dir.path("r.json")));
    EXPECT_TRUE(first.running());
}

TEST(SweepJournal, ALinkPlantedAtTheJournalsNameIsNotFollowed) {
    TempDir dir;
    writeFile(dir.path("victim"), "precious");
    fs::create_symlink(dir.path("victim"), dir.path("r.json.journal"));
    const auto run = sweep(tinyGrid(dir));
    EXPECT_EQ(run.status, 2) << run.err;
    EXPECT_NE(run.err.find("symbolic link"), std::string::npos) << run.err;
    EXPECT_EQ(slurp(dir.path("victim")), "precious");
    EXPECT_FALSE(fs::exists(dir.path("r.json")));

    fs::remove(dir.path("r.json.journal")); // a hard link instead: the same file under our name
    fs::create_hard_link(dir.path("victim"), dir.path("r.json.journal"));
    const auto hard = sweep(tinyGrid(dir));
    EXPECT_EQ(hard.status, 2) << hard.err;
    EXPECT_EQ(slurp(dir.path("victim")), "precious");
}

} // namespace
} // namespace rnnprof
