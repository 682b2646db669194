// Load sampling: the /proc parsers on fake texts, the share of other processes between two fake
// snapshots by hand arithmetic, and when a machine counts as busy.
#include "profiling/measure/host_load.h"

#include "profiling/analysis/busy_host.h"
#include "profiling/analysis/summary_text.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace rnnprof {
namespace {

using ::testing::HasSubstr;

// Two CPUs; the "cpu" line sums them: user nice system idle iowait irq softirq steal guest guest_nice.
LoadSnapshot fakeSnapshot(std::uint64_t busy, std::uint64_t idle, std::vector<ProcessTimes> processes,
                          double atSeconds) {
    LoadSnapshot s;
    s.cpu = {busy, busy + idle, 2};
    s.processes = std::move(processes);
    s.at = std::chrono::steady_clock::time_point(std::chrono::milliseconds(std::int64_t(atSeconds * 1000)));
    return s;
}

TEST(HostLoadParsing, LoadAverageIsTheFirstField) {
    EXPECT_DOUBLE_EQ(*parseLoadAverage("2.50 1.20 0.80 3/412 12345\n"), 2.5);
    EXPECT_FALSE(parseLoadAverage("").has_value());
    EXPECT_FALSE(parseLoadAverage("busy").has_value());
}

TEST(HostLoadParsing, CpuTimesSumTheAggregateLineAndCountTheCpus) {
    const auto t = parseCpuTimes("cpu  100 5 20 800 30 1 2 3 0 0\n"
                                 "cpu0 50 2 10 400 15 1 1 2 0 0\n"
                                 "cpu1 50 3 10 400 15 0 1 1 0 0\n"
                                 "intr 12345 0 0\nctxt 999\n");
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(t->busy, 100u + 5 + 20 + 1 + 2 + 3); // all but idle (800) and iowait (30)
    EXPECT_EQ(t->total, 100u + 5 + 20 + 800 + 30 + 1 + 2 + 3);
    EXPECT_EQ(t->cpus, 2);
    EXPECT_FALSE(parseCpuTimes("intr 1 2 3\n").has_value());
}

TEST(HostLoadParsing, ProcessStatTakesUtimePlusStimeAndANameWithSpacesAndParentheses) {
    const auto p = parseProcessStat("4242 (Web (Content) x) R 1 4242 4242 0 -1 4194304 100 0 0 0 "
                                    "700 50 0 0 20 0 8 0 1234 5678 90");
    ASSERT_TRUE(p.has_value());
    EXPECT_EQ(p->pid, 4242);
    EXPECT_EQ(p->name, "Web (Content) x");
    EXPECT_EQ(p->ticks, 750u);
    EXPECT_FALSE(parseProcessStat("12 (short) S 1 2").has_value());
    EXPECT_FALSE(parseProcessStat("no parentheses").has_value());
}

TEST(HostLoad, OtherProcessesShareIsTheBusyTimeLessOursPerCore) {
    // One second on two cores at 100 ticks/s: 200 ticks in all, 150 busy; we (pid 10) used 40,
    // "stress" 100, "daemon" 4 (0.04 cores: too little to name), "gone" exited, "new" started
    // within the second and used 80.
    const auto before = fakeSnapshot(
        1000, 1000, {{10, "rnnprof", 500}, {20, "stress", 0}, {30, "daemon", 10}, {40, "gone", 5}}, 0.0);
    const auto after = fakeSnapshot(
        1150, 1050, {{10, "rnnprof", 540}, {20, "stress", 100}, {30, "daemon", 14}, {50, "new", 80}}, 1.0);
    const HostLoad load = loadBetween(before, after, 10, 1.75);
    EXPECT_DOUBLE_EQ(load.windowSeconds, 1.0);
    EXPECT_DOUBLE_EQ(load.loadAverage1, 1.75);
    EXPECT_DOUBLE_EQ(load.otherBusyCores, (150.0 - 40.0) / 100.0);
    ASSERT_EQ(load.busiest.size(), 2u);
    EXPECT_EQ(load.busiest[0], (BusyProcess{"stress", 20, 1.0}));
    EXPECT_EQ(load.busiest[1], (BusyProcess{"new", 50, 0.8}));
}

TEST(HostLoad, BusiestAreSortedAndAtMostThree) {
    const auto before = fakeSnapshot(0, 0, {{1, "a", 0}, {2, "b", 0}, {3, "c", 0}, {4, "d", 0}}, 0.0);
    const auto after = fakeSnapshot(200, 0, {{1, "a", 10}, {2, "b", 60}, {3, "c", 30}, {4, "d", 90}}, 1.0);
    const HostLoad load = loadBetween(before, after, 99, 0.0);
    ASSERT_EQ(load.busiest.size(), 3u);
    EXPECT_EQ(load.busiest[0].name, "d");
    EXPECT_EQ(load.busiest[1].name, "b");
    EXPECT_EQ(load.busiest[2].name, "c");
}

TEST(HostLoad, NoTicksGiveNoLoad) {
    const auto same = fakeSnapshot(10, 10, {}, 0.0);
    EXPECT_EQ(loadBetween(same, same, 1, 0.5).otherBusyCores, 0.0);
}

TEST(BusyWarning, OtherWorkBeyondWhatTheSweepLeavesFreeIsBusy) {
    HostLoad load;
    load.loadAverage1 = 3.0;
    load.otherBusyCores = 1.0;
    load.busiest = {{"stress", 7, 0.98}};
    // All of 2 cores for the sweep: a core taken by another process is busy.
    const std::string warning = busyWarning(load, 2, 0);
    EXPECT_THAT(warning, HasSubstr("Busy machine"));
    EXPECT_THAT(warning, HasSubstr("stress (1.0)"));
    EXPECT_THAT(warning, HasSubstr("load average 3.0"));
    // One thread on 2 cores leaves one free: the same load fits beside the sweep.
    EXPECT_EQ(busyWarning(load, 2, 1), "");
    load.otherBusyCores = 0.3; // background flicker
    EXPECT_EQ(busyWarning(load, 2, 0), "");
}

TEST(BusyWarning, CoresLeftFreeCountsThreadsOfZeroAsAll) {
    EXPECT_EQ(coresLeftFree(16, 0), 0.0);
    EXPECT_EQ(coresLeftFree(16, 4), 12.0);
    EXPECT_EQ(coresLeftFree(2, 8), 0.0);
}

TEST(BusySlowdown, TheCoresTheSweepUsesOverWhatOthersLeaveIt) {
    HostLoad load;
    load.otherBusyCores = 1.0;
    EXPECT_DOUBLE_EQ(busySlowdown(load, 2, 0), 2.0); // both cores, one taken: half of them left
    EXPECT_DOUBLE_EQ(busySlowdown(load, 2, 1), 1.0); // one thread, the other core free for others
    EXPECT_DOUBLE_EQ(busySlowdown(load, 16, 0), 16.0 / 15.0);
    load.otherBusyCores = 2.0;
    EXPECT_DOUBLE_EQ(busySlowdown(load, 2, 0), 4.0) << "never more than 4x";
    load.otherBusyCores = 0.0;
    EXPECT_DOUBLE_EQ(busySlowdown(load, 2, 0), 1.0);
}

TEST(HostLoad, SamplingThisMachineGivesAShareWithinItsCores) {
    const auto load = sampleHostLoad(std::chrono::milliseconds(20));
    if (!load) GTEST_SKIP() << "no /proc/stat here";
    EXPECT_GE(load->otherBusyCores, 0.0);
    EXPECT_GE(load->windowSeconds, 0.0);
}

TEST(BusyWarning, TheSummaryOfAResultMeasuredOnABusyMachineSaysSo) {
    SweepResult r;
    r.host.cpuCores = 2;
    EXPECT_EQ(hostBusyWarning(r.host, 0), ""); // nothing recorded: an older file
    r.host.loadBefore = HostLoad{0.1, 0.0, 0.1, {}};
    r.host.loadDuring = HostLoad{2.5, 1.2, 1.0, {{"cc1plus", 77, 1.1}}};
    EXPECT_THAT(hostBusyWarning(r.host, 0), ::testing::StartsWith("during the sweep: Busy machine"));
    EXPECT_THAT(summaryTable(r), HasSubstr("warning: during the sweep: Busy machine"));
    EXPECT_THAT(summaryTable(r), HasSubstr("cc1plus (1.1)"));
    EXPECT_EQ(hostBusyWarning(r.host, 1), "") << "one thread leaves a core to the compiler";
}

} // namespace
} // namespace rnnprof
