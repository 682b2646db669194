// The journal: one fsync()ed JSON line per finished point after a header line. Whatever a killed
// process left behind is recovered, a torn last line is ignored, any other damage is an error.
#include "engine/error.h"
#include "profiling/files/result_files.h"
#include "sample_results.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace rnnprof {
namespace {

using ::testing::HasSubstr;

std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The sample result without its points: what a sweep knows when it starts.
SweepResult header() {
    SweepResult h = test::sampleResult();
    h.points.clear();
    h.complete = false;
    return h;
}

// Journals every point of `full` at `path` as a sweep does; returns the file's text.
std::string writeJournalOf(const std::string& path, const SweepResult& full) {
    {
        Journal journal(path, header());
        for (const auto& p : full.points)
            journal.append(p);
    }
    return readText(path);
}

std::string journalError(const std::string& text) {
    try {
        (void)journalFromText(text, "r.json.journal");
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
        return e.what();
    }
    ADD_FAILURE() << "expected an error";
    return "";
}

TEST(Journal, PathSitsNextToTheOutput) {
    EXPECT_EQ(journalPathFor("out/results.json"), "out/results.json.journal");
}

TEST(Journal, EveryAppendedPointIsReadBack) {
    test::TempDir dir;
    const std::string path = dir.file("r.json.journal");
    const SweepResult full = test::sampleResult();
    {
        Journal journal(path, header());
        EXPECT_EQ(journal.path(), path);
        for (const auto& p : full.points)
            journal.append(p);
    }
    const SweepResult back = journalFromText(readText(path), path);
    EXPECT_EQ(back.points, full.points);
    EXPECT_EQ(back.host, full.host);
    EXPECT_EQ(back.plan, full.plan);
    EXPECT_EQ(back.createdAt, full.createdAt);
    EXPECT_FALSE(back.complete);
}

TEST(Journal, OneLinePerPointAfterTheHeader) {
    test::TempDir dir;
    const std::string path = dir.file("j");
    {
        Journal journal(path, header());
        journal.append(test::gpuPoint());
        journal.append(test::gpuPoint());
    }
    const std::string text = readText(path);
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3);
    EXPECT_EQ(text.back(), '\n');
}

TEST(Journal, TornLastLineIsIgnored) {
    test::TempDir dir;
    const std::string path = dir.file("j");
    const SweepResult full = test::sampleResult();
    const std::string text = writeJournalOf(path, full);
    // Cut anywhere inside the last record: the other points survive.
    const std::size_t lastStart = text.rfind('\n', text.size() - 2) + 1;
    for (std::size_t cut = lastStart + 1; cut < text.size() - 1; cut += 97) {
        const SweepResult back = journalFromText(text.substr(0, cut), path);
        ASSERT_EQ(back.points.size(), full.points.size() - 1) << "cut at " << cut;
        EXPECT_EQ(back.points.back(), full.points[full.points.size() - 2]);
    }
    // Cut right before the final line break: the record is complete and kept.
    EXPECT_EQ(journalFromText(text.substr(0, text.size() - 1), path).points.size(), full.points.size());
}

// loadResultFile() reads a journal a line at a time from the file: torn or not, with blank lines,
// it gives what the whole text gives.
TEST(Journal, AJournalFileReadsAsItsWholeText) {
    test::TempDir dir;
    const std::string path = dir.file("j");
    const SweepResult full = test::sampleResult();
    const std::string text = writeJournalOf(path, full);
    for (const std::string& variant : {text, text + "\n  \n", text.substr(0, text.size() - 20)}) {
        const std::string copy = dir.file("copy.journal");
        std::ofstream(copy, std::ios::binary | std::ios::trunc) << variant;
        EXPECT_EQ(loadResultFile(copy), journalFromText(variant, copy));
    }
    EXPECT_EQ(loadResultFile(path).points.size(), full.points.size());
}

TEST(Journal, DamageBeforeTheLastLineIsAnError) {
    test::TempDir dir;
    const std::string path = dir.file("j");
    {
        Journal journal(path, header());
        journal.append(test::gpuPoint());
        journal.append(test::gpuPoint());
    }
    std::string text = readText(path);
    const std::size_t second = text.find('\n') + 1;
    text.insert(second + 10, "#garbage#");
    EXPECT_THAT(journalError(text), HasSubstr("r.json.journal line 2: not valid JSON"));
}

TEST(Journal, WrongRecordsNameTheirLine) {
    test::TempDir dir;
    const std::string path = dir.file("j");
    { Journal journal(path, header()); }
    const std::string text =
        readText(path) +
        R"({"backend": "cpu-blas", "mode": "sideways", "batch": 1, "seq_len": 1, "status": "ok"})" + "\n";
    EXPECT_THAT(journalError(text), HasSubstr("line 2: mode: 'sideways' is not one of infer, train"));
}

TEST(Journal, EmptyJournalIsAnError) {
    EXPECT_THAT(journalError(""), HasSubstr("the journal is empty"));
    EXPECT_THAT(journalError("\n\n"), HasSubstr("the journal is empty"));
    // A header torn while being written leaves nothing to recover either.
    EXPECT_THAT(journalError("{\"format\":\"rnnprof-journal\",\"sch"), HasSubstr("the journal is empty"));
}

TEST(Journal, HeaderOnlyIsASweepWithoutPoints) {
    test::TempDir dir;
    const std::string path = dir.file("j");
    { Journal journal(path, header()); }
    const SweepResult back = loadResultFile(path);
    EXPECT_TRUE(back.points.empty());
    EXPECT_EQ(back.host, header().host);
    EXPECT_EQ(back.plan, header().plan);
    EXPECT_FALSE(back.complete);
}

TEST(Journal, NewerSchemaIsRefused) {
    test::TempDir dir;
    const std::string path = dir.file("r.json.journal");
    SweepResult h = header();
    h.schemaVersion = 3;
    { Journal journal(path, h); }
    try {
        (void)loadResultFile(path);
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()),
                  path + " was written by a newer rnnprof (schema 3, this build reads up to 1)");
    }
}

TEST(Journal, LoadResultFileTellsJournalsFromResultFiles) {
    test::TempDir dir;
    const SweepResult full = test::sampleResult();
    saveResultJson(dir.file("r.json"), full);
    {
        Journal journal(dir.file("r.json.journal"), header());
        journal.append(full.points[0]);
    }
    EXPECT_TRUE(loadResultFile(dir.file("r.json")).complete);
    const SweepResult journal = loadResultFile(dir.file("r.json.journal"));
    EXPECT_FALSE(journal.complete);
    EXPECT_EQ(journal.points.size(), 1u);
    EXPECT_EQ(journal.label, "r.json.journal (bench-01)");
}

TEST(Journal, UnwritablePathIsAnIoError) {
    try {
        Journal journal("/nonexistent-dir/r.json.journal", header());
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Io);
        EXPECT_THAT(e.what(), HasSubstr("/nonexistent-dir/r.json.journal"));
    }
}

TEST(Journal, RecoversEverythingAKilledProcessAppended) {
    test::TempDir dir;
    const std::string path = dir.file("killed.journal");
    const SweepResult full = test::sampleResult();
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        // The sweep process: appends three points, then dies without unwinding or closing.
        try {
            Journal journal(path, header());
            for (int i = 0; i < 3; ++i)
                journal.append(full.points[std::size_t(i)]);
        } catch (...) {
            ::_exit(3);
        }
        ::kill(::getpid(), SIGKILL);
        ::_exit(4);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "child status " << status;
    const SweepResult back = loadResultFile(path);
    ASSERT_EQ(back.points.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i)
        EXPECT_EQ(back.points[i], full.points[i]);
    EXPECT_FALSE(back.complete);
}

} // namespace
} // namespace rnnprof
