// cuBLAS (with cuBLASLt, about 0.5 GB) is loaded only when gpu-generic runs on a GPU
// (engine/gpu/cublas_library.h): a command that runs no GPU backend must not map it. The oracle is
// the dynamic loader's own account (glibc's LD_DEBUG=libs), which lists every library it
// initialises.
#include "cli/cli_process.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

namespace rnnprof {
namespace {

using test::Args;
using test::ProcessResult;
using test::TempDir;
using ::testing::HasSubstr;
using ::testing::Not;

// Runs rnnprof with the loader reporting the libraries it initialises on standard error.
ProcessResult runTracingLibraries(const Args& args) {
    setenv("LD_DEBUG", "libs", 1);
    ProcessResult run = test::runRnnprof(args);
    unsetenv("LD_DEBUG");
    return run;
}

TEST(LibraryLoading, TheLoaderTraceNamesTheLibrariesTheProgramLinks) {
    // The oracle works: the loader does report what it initialises (Qt is linked, so listed).
    const ProcessResult run = runTracingLibraries({"--version"});
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_THAT(run.err, HasSubstr("calling init: "));
    EXPECT_THAT(run.err, HasSubstr("libQt6Core"));
}

TEST(LibraryLoading, VersionAndACpuSweepNeverLoadCublas) {
    const ProcessResult version = runTracingLibraries({"--version"});
    ASSERT_EQ(version.status, 0) << version.err;
    EXPECT_THAT(version.err, Not(HasSubstr("libcublas")));

    TempDir dir;
    const ProcessResult sweep =
        runTracingLibraries(test::oneTinyPointSweep(dir.path("r.json"), "cpu-reference,cpu-blas"));
    ASSERT_EQ(sweep.status, 0) << sweep.err;
    EXPECT_THAT(sweep.err, Not(HasSubstr("libcublas")));
}

} // namespace
} // namespace rnnprof
