// The check of a command's output paths (cli/output_files.h): one file under two spellings or
// links is the same file, an output that is an input is refused, and folders are checked as
// folders.
#include "cli/output_files.h"
#include "support/temp_dir.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <iterator>

namespace rnnprof::cli {
namespace {

namespace fs = std::filesystem;
using test::TempDir;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(SameFile, SeesThroughSpellingsLinksAndHardLinks) {
    TempDir dir;
    std::ofstream(dir.path("a.json")) << "a";
    fs::create_symlink(dir.path("a.json"), dir.path("link.json"));
    fs::create_hard_link(dir.path("a.json"), dir.path("hard.json"));
    EXPECT_TRUE(sameFile(dir.path("a.json"), dir.path() + "/./a.json"));
    EXPECT_TRUE(sameFile(dir.path("a.json"), dir.path("link.json")));
    EXPECT_TRUE(sameFile(dir.path("a.json"), dir.path("hard.json")));
    EXPECT_TRUE(sameFile(dir.path("new.json"),
                         dir.path() + "/../" + fs::path(dir.path()).filename().string() + "/new.json"))
        << "files that do not exist yet compare by their canonical path";
    EXPECT_FALSE(sameFile(dir.path("a.json"), dir.path("b.json")));
}

// A link made before the file it names exists (`ln -s r.json r.csv`, then --out r.json --csv
// r.csv) names that file already: the results would land in it and the CSV over them. Chains of
// links and relative targets resolve the same way; a loop of links is no file at all.
TEST(SameFile, ALinkToAFileNotYetWrittenIsThatFile) {
    TempDir dir;
    fs::create_symlink("r.json", dir.path("r.csv"));              // relative, dangling
    fs::create_symlink(dir.path("r.csv"), dir.path("chain.csv")); // a link to the link
    fs::create_directory(dir.path("sub"));
    fs::create_symlink("../r.json", dir.path("sub/up.csv"));
    EXPECT_TRUE(sameFile(dir.path("r.json"), dir.path("r.csv")));
    EXPECT_TRUE(sameFile(dir.path("r.csv"), dir.path("r.json")));
    EXPECT_TRUE(sameFile(dir.path("r.json"), dir.path("chain.csv")));
    EXPECT_TRUE(sameFile(dir.path("r.json"), dir.path("sub/up.csv")));
    EXPECT_EQ(resolvedPath(dir.path("chain.csv")), fs::weakly_canonical(dir.path()) / "r.json");
    EXPECT_FALSE(sameFile(dir.path("r.csv"), dir.path("other.json")));
    fs::create_symlink("loop-b", dir.path("loop-a"));
    fs::create_symlink("loop-a", dir.path("loop-b"));
    EXPECT_FALSE(sameFile(dir.path("loop-a"), dir.path("r.json"))) << "a loop ends, naming no other file";
}

TEST(CheckFolderOutputs, NamesTheInputAFileWrittenIntoTheFolderWouldReplace) {
    TempDir dir;
    fs::create_directory(dir.path("self"));
    std::ofstream(dir.path("self/output.npy")) << "x";
    std::vector<std::string> problems;
    checkFolderOutputs({"--out", dir.path("self")}, {"output.npy", "h_n.npy"},
                       {{"--input", dir.path("self/output.npy")}, {"--h0", dir.path("h0.npy")}}, problems);
    EXPECT_THAT(problems, ElementsAre(HasSubstr("--out " + dir.path("self") + " would replace --input " +
                                                dir.path("self/output.npy") + " (as output.npy)")));
}

TEST(CheckOutputFiles, NamesBothFlagsOfEachCollisionAndTheInputAnOutputWouldOverwrite) {
    TempDir dir;
    std::ofstream(dir.path("plan.json")) << "{}";
    std::vector<std::string> problems;
    checkOutputFiles(
        {{"--out", dir.path("r.json")}, {"--csv", dir.path("r.json")}, {"--trace", dir.path("plan.json")}},
        {{"--config", dir.path("plan.json")}}, problems);
    ASSERT_EQ(problems.size(), 2u);
    EXPECT_THAT(problems[0], HasSubstr("--out " + dir.path("r.json") + " and --csv " + dir.path("r.json") +
                                       " are the same file"));
    EXPECT_THAT(problems[1],
                HasSubstr("--trace " + dir.path("plan.json") + " is the file given to --config"));
}

TEST(CheckOutputFiles, AFileBesideAnotherSharesItsFoldersVerdict) {
    std::vector<std::string> problems;
    checkOutputFiles(
        {{"--out", "/nonexistent/r.json"}, {"the journal of --out,", "/nonexistent/r.json.journal", true}},
        {}, problems);
    EXPECT_THAT(problems,
                ElementsAre(HasSubstr("--out /nonexistent/r.json: the folder /nonexistent does not exist")));
}

TEST(CheckOutputFiles, AnOutputFolderMayBeMissingInAWritableFolderButMustNotBeAFile) {
    TempDir dir;
    std::ofstream(dir.path("file")) << "x";
    std::vector<std::string> problems;
    checkOutputFiles({{"--charts", dir.path("charts"), false, true}, {"--charts", dir.path(), false, true}},
                     {}, problems);
    EXPECT_TRUE(problems.empty()) << problems.front();
    checkOutputFiles({{"--charts", dir.path("file"), false, true}}, {}, problems);
    EXPECT_THAT(problems, ElementsAre(HasSubstr("exists and is not a folder")));
}

TEST(CheckOutputFiles, AnOutputWithAJournalBesideItMustBeARegularFileNotADeviceOrPipe) {
    TempDir dir;
    ASSERT_EQ(::mkfifo(dir.path("fifo").c_str(), 0600), 0);
    std::ofstream(dir.path("earlier.json")) << "{}";
    std::vector<std::string> problems;
    // Only looked at: nothing is made beside /dev/null, even if the check regressed.
    checkOutputFiles({{"--out", "/dev/null", false, false, true},
                      {"the journal of --out,", "/dev/null.journal", true},
                      {"--out", dir.path("fifo"), false, false, true},
                      {"--out", dir.path("earlier.json"), false, false, true},
                      {"--out", dir.path("new.json"), false, false, true}},
                     {}, problems);
    EXPECT_THAT(problems,
                ElementsAre("--out /dev/null is a character device: --out needs a regular file, new or "
                            "existing, since its journal is kept beside it",
                            "--out " + dir.path("fifo") +
                                " is a FIFO (named pipe): --out needs a regular "
                                "file, new or existing, since its journal is kept "
                                "beside it"));
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 2)
        << "nothing was made";

    std::vector<std::string> csv;
    checkOutputFiles({{"--csv", "/dev/null"}}, {}, csv);
    EXPECT_TRUE(csv.empty()) << "a file without a journal is written through a device";
}

TEST(CheckOutputFiles, AChartsFolderThatIsAnOutputFileIsACollision) {
    TempDir dir;
    std::vector<std::string> problems;
    checkOutputFiles({{"--out", dir.path("r.json")}, {"--charts", dir.path("r.json"), false, true}}, {},
                     problems);
    EXPECT_THAT(problems, ElementsAre(HasSubstr("--out " + dir.path("r.json") + " and --charts " +
                                                dir.path("r.json") + " are the same file")));
}

} // namespace
} // namespace rnnprof::cli
