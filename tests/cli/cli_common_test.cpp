// The pieces shared by the headless commands: one-line error messages, the output folder checks
// and StagedFiles' all-or-nothing writing.
#include "cli/cli_common.h"
#include "cli/cli_process.h"
#include "engine/error.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>

namespace rnnprof::cli {
namespace {

namespace fs = std::filesystem;
using test::filesIn;
using test::TempDir;
using ::testing::HasSubstr;

std::string ioErrorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Io);
        return e.what();
    }
    ADD_FAILURE() << "no error";
    return {};
}

TEST(OneLine, JoinsLinesWithSemicolons) {
    EXPECT_EQ(oneLine("a\nb\r\nc\n"), "a; b; c");
    EXPECT_EQ(oneLine("single"), "single");
    EXPECT_EQ(oneLine(""), "");
}

TEST(OneLine, WritesEveryOtherControlCharacterAsAnEscape) {
    EXPECT_EQ(oneLine("cannot read \x1b[2Jx.json"), "cannot read \\x1b[2Jx.json");
    EXPECT_EQ(oneLine("a\tb\x7f"), "a\\x09b\\x7f");
    EXPECT_EQ(oneLine("caf\xc3\xa9"), "caf\xc3\xa9") << "UTF-8 stays as it is";
}

TEST(OutputFolder, AnExistingFolderOrAMissingOneWithAParentIsFine) {
    TempDir dir;
    EXPECT_NO_THROW(checkOutputFolder(dir.path()));
    EXPECT_NO_THROW(checkOutputFolder(dir.path("new")));
    EXPECT_FALSE(fs::exists(dir.path("new"))); // checking creates nothing
    EXPECT_TRUE(createOutputFolder(dir.path("new")));
    EXPECT_TRUE(fs::is_directory(dir.path("new")));
    EXPECT_FALSE(createOutputFolder(dir.path("new")));
    // A trailing slash names the same folder.
    EXPECT_NO_THROW(checkOutputFolder(dir.path("slash/")));
    EXPECT_TRUE(createOutputFolder(dir.path("slash/")));
    EXPECT_TRUE(fs::is_directory(dir.path("slash")));
}

TEST(OutputFolder, RefusesAFileAMissingParentAndAnEmptyName) {
    TempDir dir;
    std::ofstream(dir.path("file")) << "x";
    EXPECT_THAT(ioErrorOf([&] { checkOutputFolder(dir.path("file")); }), HasSubstr("is not a folder"));
    EXPECT_THAT(ioErrorOf([&] { checkOutputFolder(dir.path("a/b")); }),
                HasSubstr("its parent folder " + dir.path("a") + " does not exist"));
    EXPECT_THAT(ioErrorOf([&] { (void)createOutputFolder(dir.path("file/sub")); }), HasSubstr("file"));
    EXPECT_THAT(ioErrorOf([] { checkOutputFolder(""); }), HasSubstr("empty"));
}

TEST(StagedFiles, NothingIsWrittenBeforeCommit) {
    TempDir dir;
    StagedFiles files(dir.path());
    files.add("a.bin", "alpha");
    files.add("b.bin", "beta");
    EXPECT_TRUE(filesIn(dir.path()).empty());
    EXPECT_EQ(files.names(), (std::vector<std::string>{"a.bin", "b.bin"}));
    files.commit();
    EXPECT_EQ(filesIn(dir.path()), (std::set<std::string>{"a.bin", "b.bin"}));
    EXPECT_EQ(test::slurp(dir.path("b.bin")), "beta");
}

TEST(StagedFiles, ReplacesExistingFiles) {
    TempDir dir;
    std::ofstream(dir.path("a.bin")) << "old contents";
    StagedFiles files(dir.path());
    files.add("a.bin", "new");
    files.commit();
    EXPECT_EQ(test::slurp(dir.path("a.bin")), "new");
}

TEST(StagedFiles, AFailureRemovesEveryFileItWroteAndEveryTemporary) {
    TempDir dir;
    fs::create_directory(dir.path("c.bin")); // renaming onto a folder fails
    std::ofstream(dir.path("other.txt")) << "not ours";
    StagedFiles files(dir.path());
    files.add("a.bin", "alpha");
    files.add("b.bin", "beta");
    files.add("c.bin", "gamma");
    files.add("d.bin", "delta");
    EXPECT_THAT(ioErrorOf([&] { files.commit(); }), HasSubstr("cannot write " + dir.path("c.bin")));
    EXPECT_EQ(filesIn(dir.path()), (std::set<std::string>{"c.bin", "other.txt"}));
}

TEST(StagedFiles, AFolderThatDoesNotExistFailsBeforeWritingAnything) {
    TempDir dir;
    StagedFiles files(dir.path("missing"));
    files.add("a.bin", "alpha");
    EXPECT_THAT(ioErrorOf([&] { files.commit(); }), HasSubstr("cannot write " + dir.path("missing/a.bin")));
    EXPECT_TRUE(filesIn(dir.path()).empty());
}

} // namespace
} // namespace rnnprof::cli
