// Who may write a journal or a results file: an existing journal is never truncated, one
// writer at a time holds it, and links planted at the journal's name or at a temporary file's name
// are never written through, so the file they point to stays as it was.
#include "engine/error.h"
#include "profiling/files/result_files.h"
#include "sample_results.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace rnnprof {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void writeText(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

SweepResult header() {
    SweepResult h = test::sampleResult();
    h.points.clear();
    h.complete = false;
    return h;
}

// The message of the Error(InvalidInput) that `open` throws.
template <class Open>
std::string refusal(Open open) {
    try {
        open();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::InvalidInput) << e.what();
        return e.what();
    }
    ADD_FAILURE() << "expected a refusal";
    return "";
}

TEST(JournalOwnership, AnEarlierJournalIsReadNeverTruncated) {
    test::TempDir dir;
    const std::string path = dir.file("r.json.journal");
    {
        Journal journal(path, header());
        journal.append(test::sampleResult().points[0]);
    }
    const std::string before = readText(path);
    {
        const Journal reopened(path);
        EXPECT_EQ(reopened.earlierText(), before);
    }
    EXPECT_THAT(refusal([&] { Journal fresh(path, header()); }), HasSubstr("never overwritten"));
    EXPECT_EQ(readText(path), before);
}

TEST(JournalOwnership, ASecondWriterIsRefusedWhileTheFirstHoldsIt) {
    test::TempDir dir;
    const std::string path = dir.file("r.json.journal");
    {
        Journal first(path, header());
        EXPECT_NE(journalHolder(path), 0);
        EXPECT_THAT(refusal([&] { Journal second(path); }), HasSubstr("is being written by another sweep"));
        first.append(test::sampleResult().points[0]);
    }
    EXPECT_EQ(journalHolder(path), 0) << "the lock goes with the journal";
    const Journal later(path);
    EXPECT_EQ(journalFromText(later.earlierText(), path).points.size(), 1u);
}

TEST(JournalOwnership, RemoveDeletesOnlyTheFileItHolds) {
    test::TempDir dir;
    const std::string path = dir.file("r.json.journal");
    Journal journal(path, header());
    fs::rename(path, dir.file("moved"));
    writeText(path, "someone else's");
    journal.remove();
    EXPECT_EQ(readText(path), "someone else's");
}

TEST(JournalOwnership, ALinkPlantedAtTheJournalsNameIsNeverWrittenThrough) {
    test::TempDir dir;
    const std::string path = dir.file("r.json.journal");
    writeText(dir.file("victim"), "precious");
    fs::create_symlink(dir.file("victim"), path);
    EXPECT_THAT(refusal([&] { Journal journal(path, header()); }), HasSubstr("is a symbolic link"));
    EXPECT_EQ(readText(dir.file("victim")), "precious");

    // A dangling link would make a new file wherever it points.
    fs::remove(path);
    fs::create_symlink(dir.file("made-through-the-link"), path);
    EXPECT_THAT(refusal([&] { Journal journal(path, header()); }), HasSubstr("is a symbolic link"));
    EXPECT_FALSE(fs::exists(dir.file("made-through-the-link")));

    fs::remove(path);
    fs::create_hard_link(dir.file("victim"), path);
    EXPECT_THAT(refusal([&] { Journal journal(path); }), HasSubstr("has other hard links"));
    EXPECT_EQ(readText(dir.file("victim")), "precious");
}

TEST(AtomicWrite, ALinkPlantedAtTheOldTemporaryNameIsNotWrittenThrough) {
    test::TempDir dir;
    const std::string target = dir.file("r.json");
    writeText(dir.file("victim"), "precious");
    // Earlier versions wrote "<target>.tmp-<pid>", a name anyone could guess and plant.
    fs::create_symlink(dir.file("victim"), target + ".tmp-" + std::to_string(::getpid()));
    saveResultJson(target, test::sampleResult());
    EXPECT_EQ(readText(dir.file("victim")), "precious");
    EXPECT_EQ(loadResultFile(target).points, test::sampleResult().points);
    EXPECT_TRUE(fs::is_symlink(target + ".tmp-" + std::to_string(::getpid()))) << "the planted link is left";
}

} // namespace
} // namespace rnnprof
