// Output paths that are not plain files. A results file is replaced by renaming a temporary over
// it; done blindly, `--out /dev/null` run as root replaced the system's /dev/null with a regular
// file (found by this suite). Devices and pipes are written through instead (except as --out, which
// keeps a journal beside it), and a symbolic link is followed, so the file it names is replaced and
// the link itself kept.
#include "private_mount.h"
#include "sample_sweep.h"

#include "engine/atomic_file.h"
#include "profiling/files/result_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

namespace rnnprof {
namespace {

using test::filesIn;
using test::privateMountUnavailable;
using test::ProcessResult;
using test::runInPrivateMount;
using test::sampleSweep;
using test::shellQuote;
using test::TempDir;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

mode_t fileType(const std::string& path) {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0 ? st.st_mode & S_IFMT : 0;
}

TEST(SpecialFiles, AResultsFileSavedToAPipeGoesThroughItAndThePipeStays) {
    TempDir dir;
    const std::string fifo = dir.path("results.fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    // A non-blocking reader first, so that the writer's open() does not wait; the sample fits the
    // pipe's buffer, so the writer never waits either.
    const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    ASSERT_GE(reader, 0);
    const SweepResult sample = sampleSweep(1);
    const std::string expected = toJson(sample);
    ASSERT_LT(expected.size(), 16384u);
    saveResultJson(fifo, sample);
    std::string received;
    char buffer[4096];
    for (ssize_t n; (n = ::read(reader, buffer, sizeof buffer)) > 0;)
        received.append(buffer, std::size_t(n));
    ::close(reader);
    EXPECT_EQ(received, expected);
    EXPECT_EQ(fileType(fifo), mode_t(S_IFIFO)) << "the pipe was replaced by a file";
    EXPECT_THAT(filesIn(dir.path()), ElementsAre("results.fifo")) << "a temporary was left behind";
}

TEST(SpecialFiles, ASymbolicLinkIsFollowedAndKept) {
    TempDir dir;
    std::filesystem::create_directory(dir.path("store"));
    const std::string real = dir.path("store/results.json"), link = dir.path("results.json");
    writeFileAtomically(real, "previous");
    std::filesystem::create_symlink("store/results.json", link);
    saveResultJson(link, sampleSweep(1));
    EXPECT_EQ(fileType(link), mode_t(S_IFLNK)) << "the link was replaced by a file";
    EXPECT_EQ(loadResultFile(real).points.size(), 1u);
    EXPECT_THAT(filesIn(dir.path("store")), ElementsAre("results.json")) << "a temporary was left behind";
}

// A tiny sweep's command line with `outputs` appended, shell-quoted.
std::string tinySweep(const std::vector<std::string>& outputs) {
    std::string sweep = shellQuote(RNNPROF_EXE);
    for (const char* a :
         {"sweep", "--backend", "cpu-reference", "--input-size", "2", "--hidden-size", "2", "--batch", "1",
          "--seq-len", "2", "--warmup", "0", "--repeats", "1", "--no-numerics", "--quiet"})
        sweep.append(" ").append(a);
    for (const std::string& o : outputs)
        sweep.append(" ").append(o.rfind("--", 0) == 0 ? o : shellQuote(o));
    return sweep;
}

TEST(SpecialFiles, SweepCsvToADeviceWritesThroughItAndKeepsTheDevice) {
    if (const auto why = privateMountUnavailable()) GTEST_SKIP() << *why;
    // A private copy of /dev/null (character device 1,3) on a tmpfs that only this test sees: the
    // system's own /dev/null is never at risk, even if the behaviour regressed.
    TempDir mnt;
    const std::string out = mnt.path() + "/r.json", csv = mnt.path() + "/csv-null";
    const std::string script =
        "mount -t tmpfs tmpfs " + shellQuote(mnt.path()) + " || exit 90\n" + "mknod " + shellQuote(csv) +
        " c 1 3 || exit 91\n" + tinySweep({"--out", out, "--csv", csv}) +
        " >/dev/null\nrc=$?\nstat -c '%n %F' " + shellQuote(mnt.path()) + "/*\nexit $rc\n";
    const ProcessResult r = runInPrivateMount(script);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr(csv + " character special file"));
    EXPECT_THAT(r.out, HasSubstr(out + " regular file"));
}

TEST(SpecialFiles, SweepOutToADeviceIsRefusedAndNothingIsMadeBesideIt) {
    if (const auto why = privateMountUnavailable()) GTEST_SKIP() << *why;
    // --out keeps its journal beside it: /dev/full.journal would be a file in the system's /dev.
    TempDir mnt;
    const std::string full = mnt.path() + "/full";
    const std::string script = "mount -t tmpfs tmpfs " + shellQuote(mnt.path()) + " || exit 90\n" + "mknod " +
                               shellQuote(full) + " c 1 7 || exit 91\n" + tinySweep({"--out", full}) +
                               " >/dev/null\nrc=$?\nls -A " + shellQuote(mnt.path()) + "\nexit $rc\n";
    const ProcessResult r = runInPrivateMount(script);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_THAT(r.err, HasSubstr("--out " + full + " is a character device: --out needs a regular file"));
    EXPECT_EQ(r.out, "full\n") << "only the device is there";
}

TEST(SpecialFiles, SweepOutToAPipeIsRefusedBeforeMeasuring) {
    TempDir dir;
    const std::string fifo = dir.path("fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const ProcessResult r = test::runToEnd({"/bin/sh", "-c", tinySweep({"--out", fifo})});
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_THAT(r.err, HasSubstr("--out " + fifo +
                                 " is a FIFO (named pipe): --out needs a regular file, "
                                 "new or existing, since its journal is kept beside it"));
    EXPECT_THAT(filesIn(dir.path()), ElementsAre("fifo"));
}

} // namespace
} // namespace rnnprof
