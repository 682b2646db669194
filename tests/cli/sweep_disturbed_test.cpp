// A sweep beside a process spinning on a core: its points are disturbed, and the summary says so.
// What is asserted is the detection (the other process's CPU over the stretch ending with each
// point), not a time: a busier machine only makes it more certain.
#include "cli_process.h"

#include "profiling/files/result_files.h"

#include <gtest/gtest.h>

namespace rnnprof {
namespace {

using test::ChildProcess;
using test::runRnnprof;
using test::TempDir;

TEST(SweepDisturbed, PointsMeasuredBesideASpinningProcessAreDisturbedAndSaidSo) {
    ChildProcess spinner({"sh", "-c", "while :; do :; done"}); // killed when the test ends
    TempDir dir;
    // Every core for the sweep (threads 0), none left free; four points of 150 ms each, so that all
    // but the first end a stretch of at least 0.25 s, long enough to judge the load.
    const auto run = runRnnprof({"sweep",
                                 "--cell",
                                 "lstm",
                                 "--input-size",
                                 "8",
                                 "--hidden-size",
                                 "8",
                                 "--batch",
                                 "1,2,4,8",
                                 "--seq-len",
                                 "4",
                                 "--backend",
                                 "cpu-reference",
                                 "--mode",
                                 "infer",
                                 "--warmup",
                                 "0",
                                 "--min-repeats",
                                 "1",
                                 "--max-repeats",
                                 "100000",
                                 "--time-budget",
                                 "150",
                                 "--no-numerics",
                                 "--remeasure",
                                 "0",
                                 "--threads",
                                 "0",
                                 "--out",
                                 dir.path("r.json")});
    ASSERT_EQ(run.status, 0) << run.err;
    const SweepResult r = loadResultFile(dir.path("r.json"));
    int disturbed = 0;
    for (const PointResult& p : r.points) {
        if (!p.disturbed) continue;
        ++disturbed;
        EXPECT_TRUE(p.disturbance.hostBusy);
        EXPECT_GE(p.disturbance.otherBusyCores, 0.5);
        EXPECT_EQ(p.disturbance.remeasured, 0) << "--remeasure 0";
    }
    EXPECT_GE(disturbed, 3) << run.out;
    EXPECT_NE(run.out.find("disturbed by other processes"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("disturbed: other processes kept"), std::string::npos) << run.out;
}

} // namespace
} // namespace rnnprof
