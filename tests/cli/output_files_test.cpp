// The check of a command's output paths (cli/output_files.h): one file under two spellings or
// links is the same file, an output that is an input is refused, and folders are checked as
// folders.
#include "cli/output_files.h"
#include "support/temp_dir.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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

} // namespace
} // namespace rnnprof::cli
