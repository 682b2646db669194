// Output on a full disk or a read-only filesystem. Each case runs the real writer (this binary's
// --probe mode, see faults_main.cpp) or the real `rnnprof sweep` inside a private mount namespace
// on a small tmpfs, then copies what is left on that filesystem out for inspection. Expected: a
// clear error naming the path and the system's reason, the previous file untouched, no temporary
// left behind, and the journal loadable with every point written before the failure.
#include "private_mount.h"
#include "sample_sweep.h"

#include "engine/error.h"
#include "profiling/files/result_files.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace rnnprof {
namespace {

using test::filesIn;
using test::privateMountUnavailable;
using test::ProcessResult;
using test::runInPrivateMount;
using test::sampleSweep;
using test::selfExecutable;
using test::shellQuote;
using test::slurp;
using test::TempDir;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

#define SKIP_WITHOUT_PRIVATE_MOUNTS()                                                                        \
    if (const auto why = privateMountUnavailable()) GTEST_SKIP() << *why

// A tmpfs at `mnt` (created by `prepare`, then optionally made read-only), `command` run on it,
// then everything on it copied to `copy`. The exit status is the command's; 90 when mounting failed.
ProcessResult onSmallFilesystem(const std::string& mnt, const std::string& options,
                                const std::string& prepare, bool readOnly, const std::string& command,
                                const std::string& copy) {
    std::string script = "mount -t tmpfs -o " + options + " tmpfs " + shellQuote(mnt) + " || exit 90\n";
    script += prepare + "\n";
    if (readOnly) script += "mount -o remount,ro " + shellQuote(mnt) + " || exit 91\n";
    script += command + "\nrc=$?\ncp -a " + shellQuote(mnt) + "/. " + shellQuote(copy) + "/\nexit $rc\n";
    return runInPrivateMount(script);
}

std::string probe(const std::string& kind, const std::string& path, int points) {
    return shellQuote(selfExecutable()) + " --probe " + kind + " " + shellQuote(path) + " " +
           std::to_string(points);
}

std::vector<std::string> smallSweep(const std::string& out) {
    return {RNNPROF_EXE,    "sweep", "--backend",     "cpu-reference",
            "--input-size", "4",     "--hidden-size", "4",
            "--batch",      "1,2",   "--seq-len",     "3",
            "--mode",       "both",  "--warmup",      "0",
            "--repeats",    "2",     "--no-numerics", "--quiet",
            "--out",        out};
}

std::string commandLine(const std::vector<std::string>& argv) {
    std::string s;
    for (const auto& a : argv)
        s.append(s.empty() ? "" : " ").append(shellQuote(a));
    return s;
}

TEST(FullDisk, AJournalOnDevFullFailsNamingThePath) {
    if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "this system has no /dev/full";
    try {
        Journal journal("/dev/full", SweepResult{});
        FAIL() << "writing the journal header to /dev/full succeeded";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Io);
        EXPECT_THAT(e.what(), HasSubstr("/dev/full"));
        EXPECT_THAT(e.what(), HasSubstr("No space left on device"));
    }
}

TEST(FullDisk, SavingResultsFailsNamingThePathAndKeepsThePreviousFile) {
    SKIP_WITHOUT_PRIVATE_MOUNTS();
    TempDir mnt, copy;
    const std::string target = mnt.path() + "/results.json";
    // 16 KiB of space; the sample of 40 points is about 100 KiB.
    const ProcessResult r =
        onSmallFilesystem(mnt.path(), "size=16k", "printf previous > " + shellQuote(target), false,
                          probe("save-json", target, 40), copy.path());
    ASSERT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("error: cannot write " + target + ": No space left on device"));
    EXPECT_THAT(filesIn(copy.path()), UnorderedElementsAre("results.json"))
        << "a temporary file was left behind";
    EXPECT_EQ(slurp(copy.path("results.json")), "previous");
}

TEST(FullDisk, AJournalThatFillsTheDiskKeepsEveryPointAppendedBeforeIt) {
    SKIP_WITHOUT_PRIVATE_MOUNTS();
    TempDir mnt, copy;
    const std::string path = mnt.path() + "/results.json.journal";
    const ProcessResult r =
        onSmallFilesystem(mnt.path(), "size=16k", "", false, probe("journal", path, 100), copy.path());
    ASSERT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("error: cannot append to journal " + path + ": No space left on device"));
    int appended = -1;
    ASSERT_EQ(std::sscanf(r.out.c_str(), "appended %d", &appended), 1) << r.out;
    ASSERT_GE(appended, 1) << "the disk should hold the header and a few points";

    const std::string text = slurp(copy.path("results.json.journal"));
    ASSERT_FALSE(text.empty());
    EXPECT_EQ(text.back(), '\n') << "the failed append was not cut back to the last complete line";
    const SweepResult reopened = loadResultFile(copy.path("results.json.journal"));
    const SweepResult sample = sampleSweep(appended);
    EXPECT_EQ(reopened.points, sample.points);
}

TEST(FullDisk, SweepResultsOnAFullDiskFailNamingTheFileAndKeepTheJournal) {
    SKIP_WITHOUT_PRIVATE_MOUNTS();
    TempDir mnt, copy;
    const std::string out = mnt.path() + "/results.json";
    // Two inodes: the root folder and the journal. The results file's temporary finds none left.
    const ProcessResult r = onSmallFilesystem(mnt.path(), "size=1m,nr_inodes=2", "", false,
                                              commandLine(smallSweep(out)), copy.path());
    ASSERT_EQ(r.status, 1) << r.err;
    EXPECT_THAT(r.err, HasSubstr("rnnprof sweep: cannot write " + out + ": No space left on device"));
    EXPECT_THAT(r.err, HasSubstr("the measured points are in " + out + ".journal"));
    EXPECT_THAT(filesIn(copy.path()), UnorderedElementsAre("results.json.journal"));
    const SweepResult reopened = loadResultFile(copy.path("results.json.journal"));
    ASSERT_EQ(reopened.points.size(), 4u);
    for (const PointResult& p : reopened.points)
        EXPECT_EQ(p.status, PointStatus::Ok) << p.reason;
}

TEST(FullDisk, AJournalThatFillsTheDiskMidSweepAndTheResultsFileAgreeOnWhatWasKept) {
    SKIP_WITHOUT_PRIVATE_MOUNTS();
    TempDir mnt, copy;
    const std::string out = mnt.path() + "/results.json", journal = out + ".journal";
    // One page: the journal's header and a point or two (about 1.3 kB each) of the four.
    const ProcessResult r =
        onSmallFilesystem(mnt.path(), "size=4k", "", false, commandLine(smallSweep(out)), copy.path());
    ASSERT_EQ(r.status, 1) << r.err;
    const std::string failed = "rnnprof sweep: writing the journal failed (cannot append to journal " +
                               journal + ": No space left on device); it keeps ";
    ASSERT_THAT(r.err, HasSubstr(failed));
    int kept = -1;
    ASSERT_EQ(std::sscanf(r.err.c_str() + r.err.find(failed) + failed.size(), "%d", &kept), 1) << r.err;
    EXPECT_THAT(r.err, HasSubstr(" points, and the sweep goes on: every point is saved in " + out));
    EXPECT_THAT(r.err, HasSubstr("rnnprof sweep: cannot write " + out + ": No space left on device (" +
                                 journal + " keeps " + std::to_string(kept) +
                                 " of the 4 points; the others were measured "
                                 "after the journal failed and are lost)"));
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 2) << r.err;
    EXPECT_EQ(loadResultFile(copy.path("results.json.journal")).points.size(), std::size_t(kept));
}

TEST(FullDisk, ACsvOnAFullDiskFailsNamingTheCsvAndKeepsTheResults) {
    SKIP_WITHOUT_PRIVATE_MOUNTS();
    TempDir dir, mnt, copy;
    const std::string out = dir.path("results.json");
    const std::string csv = mnt.path() + "/results.csv";
    std::vector<std::string> argv = smallSweep(out);
    argv.insert(argv.end(), {"--csv", csv});
    const std::string fill =
        "dd if=/dev/zero of=" + shellQuote(mnt.path() + "/fill") + " bs=4k 2>/dev/null; true";
    const ProcessResult r =
        onSmallFilesystem(mnt.path(), "size=64k", fill, false, commandLine(argv), copy.path());
    ASSERT_EQ(r.status, 1) << r.err;
    EXPECT_THAT(r.err, HasSubstr("cannot write " + csv + ": No space left on device"));
    EXPECT_THAT(filesIn(copy.path()), UnorderedElementsAre("fill")) << "a temporary file was left behind";
    EXPECT_EQ(loadResultFile(out).points.size(), 4u);
    EXPECT_THAT(r.err, HasSubstr("the measured points are in " + out));
}

TEST(FullDisk, ChartsOnAFullDiskFailNamingTheReasonAndLeaveNoPartialFile) {
    // A full disk must leave no truncated SVG and no 0-byte PNG, and the error names the reason
    // (not a bare "PNG writer failed").
    SKIP_WITHOUT_PRIVATE_MOUNTS();
    TempDir dir, mnt, copy;
    const std::string results = dir.path("results.json");
    saveResultJson(results, sampleSweep(8));
    const std::string out = mnt.path() + "/charts";
    const ProcessResult r =
        onSmallFilesystem(mnt.path(), "size=64k", "", false,
                          commandLine({RNNPROF_EXE, "plot", results, "--out", out}), copy.path());
    ASSERT_EQ(r.status, 1) << r.err;
    EXPECT_THAT(r.err, HasSubstr("cannot write " + out + "/"));
    EXPECT_THAT(r.err, HasSubstr(": No space left on device"));
    for (const std::string& name : filesIn(copy.path("charts"))) {
        const std::string bytes = slurp(copy.path("charts/" + name));
        EXPECT_EQ(name.find(".tmp-"), std::string::npos) << "a temporary file was left behind: " << name;
        if (name.ends_with(".png")) {
            EXPECT_EQ(bytes.substr(0, 8), "\x89PNG\r\n\x1a\n") << name;
            EXPECT_NE(bytes.find("IEND"), std::string::npos) << name << " is cut short";
        } else {
            EXPECT_NE(bytes.find("</svg>"), std::string::npos) << name << " is cut short";
        }
    }
}

TEST(ReadOnlyOutput, SweepRefusesAReadOnlyOutputFolderBeforeMeasuring) {
    SKIP_WITHOUT_PRIVATE_MOUNTS();
    TempDir mnt, copy;
    const std::string out = mnt.path() + "/results.json";
    const ProcessResult r =
        onSmallFilesystem(mnt.path(), "size=64k", "", true, commandLine(smallSweep(out)), copy.path());
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_THAT(r.err, HasSubstr("--out " + out + ": the folder " + mnt.path() + " is not writable"));
    EXPECT_TRUE(filesIn(copy.path()).empty());
}

TEST(ReadOnlyOutput, SavingResultsFailsNamingThePathAndKeepsThePreviousFile) {
    SKIP_WITHOUT_PRIVATE_MOUNTS();
    TempDir mnt, copy;
    const std::string target = mnt.path() + "/results.json";
    const ProcessResult r =
        onSmallFilesystem(mnt.path(), "size=64k", "printf previous > " + shellQuote(target), true,
                          probe("save-json", target, 2), copy.path());
    ASSERT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("error: cannot write " + target + ": Read-only file system"));
    EXPECT_THAT(filesIn(copy.path()), UnorderedElementsAre("results.json"));
    EXPECT_EQ(slurp(copy.path("results.json")), "previous");
}

TEST(ReadOnlyOutput, AJournalOnAReadOnlyFilesystemFailsNamingThePath) {
    SKIP_WITHOUT_PRIVATE_MOUNTS();
    TempDir mnt, copy;
    const std::string path = mnt.path() + "/results.json.journal";
    const ProcessResult r =
        onSmallFilesystem(mnt.path(), "size=64k", "", true, probe("journal", path, 3), copy.path());
    ASSERT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("appended 0"));
    EXPECT_THAT(r.out, HasSubstr("error: cannot create journal " + path + ": Read-only file system"));
    EXPECT_TRUE(filesIn(copy.path()).empty());
}

} // namespace
} // namespace rnnprof
