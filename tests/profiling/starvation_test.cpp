// Starved runs and disturbed points (profiling/measure/starvation.h), from injected counters: a run is
// starved when the process waited for a CPU for more than a quarter of it, a point is disturbed
// when at least half of its runs were; and the runner measures a disturbed point again at the end.
#include "profiling/measure/runner.h"
#include "profiling/measure/starvation.h"
#include "support/fake_backend.h"

#include <gtest/gtest.h>

#include <cmath>

namespace rnnprof {
namespace {

constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();

RunUsage run(double wallMs, double cpuMs, double waitMs, std::uint64_t switches = 0) {
    return {wallMs, cpuMs, waitMs, switches};
}

TEST(Starvation, TheRunsUsageIsTheDifferenceOfTheCounters) {
    const RunUsage u = usageBetween({100.0, 40.0, 7}, {108.0, 43.5, 9}, 10.0);
    EXPECT_DOUBLE_EQ(u.wallMs, 10.0);
    EXPECT_DOUBLE_EQ(u.cpuMs, 8.0);
    EXPECT_DOUBLE_EQ(u.waitMs, 3.5);
    EXPECT_EQ(u.involuntarySwitches, 2u);
    EXPECT_TRUE(std::isnan(usageBetween({0.0, kUnknown, 0}, {1.0, 5.0, 0}, 1.0).waitMs))
        << "a wait unknown at either end stays unknown";
}

TEST(Starvation, ARunIsStarvedWhenItsThreadsWaitedForACpuMoreThanAQuarterOfIt) {
    EXPECT_FALSE(isStarved(run(10.0, 10.0, 0.2))); // a quiet machine
    EXPECT_FALSE(isStarved(run(10.0, 10.0, 2.5))); // exactly the share: not above it
    EXPECT_TRUE(isStarved(run(10.0, 10.0, 2.6)));
    EXPECT_TRUE(isStarved(run(10.0, 13.0, 6.7))); // two threads each waiting a third of the run
    EXPECT_FALSE(isStarved(run(10.0, 0.5, 0.0)))  // a GPU run waiting in a blocking sync
        << "little CPU time alone is no starvation where the wait is known";
}

TEST(Starvation, WithoutTheRunQueueDelayLittleCpuTimeWithPreemptionsIsStarvation) {
    EXPECT_TRUE(isStarved(run(10.0, 4.0, kUnknown, 2)));
    EXPECT_FALSE(isStarved(run(10.0, 4.0, kUnknown, 1))) << "one preemption";
    EXPECT_FALSE(isStarved(run(10.0, 4.0, kUnknown, 0))) << "gave the CPU up itself: waiting for a GPU";
    EXPECT_FALSE(isStarved(run(10.0, 6.0, kUnknown, 50))) << "most of the run on a CPU";
    EXPECT_FALSE(isStarved(run(0.0, 0.0, 5.0))) << "a run of no time";
}

TEST(Starvation, APointIsDisturbedWhenAtLeastHalfOfItsRunsWereStarved) {
    const Disturbance two = summarizeRuns({run(10, 10, 5), run(10, 10, 0), run(10, 10, 6), run(10, 10, 1)});
    EXPECT_EQ(two.runs, 4);
    EXPECT_EQ(two.starvedRuns, 2);
    EXPECT_NEAR(two.medianWaitShare, 0.3, 1e-12); // of 0.5, 0, 0.6, 0.1: between 0.1 and 0.5
    EXPECT_DOUBLE_EQ(two.medianCpuShare, 1.0);
    EXPECT_TRUE(isDisturbed(two));
    const Disturbance one = summarizeRuns({run(10, 10, 5), run(10, 10, 0), run(10, 10, 0)});
    EXPECT_EQ(one.starvedRuns, 1);
    EXPECT_FALSE(isDisturbed(one)) << "one run of three: the median is a quiet run";
    EXPECT_FALSE(isDisturbed(summarizeRuns({}))) << "nothing recorded (older files)";
    EXPECT_TRUE(std::isnan(summarizeRuns({run(10, 10, kUnknown)}).medianWaitShare));
}

TEST(Starvation, TheDisturbedTextSaysHowManyRunsAndHowLongTheyWaited) {
    Disturbance d = summarizeRuns({run(10, 10, 6), run(10, 10, 6), run(10, 10, 0)});
    EXPECT_EQ(
        disturbedText(d),
        "disturbed: 2 of 3 runs starved of CPU by other processes (median 60 % of a run waiting for a CPU)");
    d.remeasured = 1;
    EXPECT_EQ(disturbedText(d), "disturbed: 2 of 3 runs starved of CPU by other processes (median 60 % of a "
                                "run waiting for a CPU); still so after 1 re-measurement");
    EXPECT_EQ(disturbedText(summarizeRuns({run(10, 10, 0)})), "");
}

TEST(Starvation, TheRunQueueDelayIsTheSecondFieldOfSchedstatInNanoseconds) {
    EXPECT_DOUBLE_EQ(parseSchedstatWaitMs("372815517 209191222 116\n"), 209.191222);
    EXPECT_TRUE(std::isnan(parseSchedstatWaitMs("garbage")));
    EXPECT_TRUE(std::isnan(parseSchedstatWaitMs("")));
}

TEST(Starvation, TheCountersOfThisProcessCanBeRead) {
    const UsageCounters c = readUsageCounters();
    EXPECT_GE(c.cpuMs, 0.0);
#ifdef __linux__
    EXPECT_FALSE(std::isnan(c.waitMs)) << "/proc/self/task/*/schedstat";
#endif
}

// Counters that make every run starved, or none, by a switch the test flips: each run reads them
// before and after, and the read after a run adds a wait far longer than any run (or none).
struct ScriptedCounters {
    bool starve = true;
    UsageCounters now{0.0, 0.0, 0};
    int reads = 0;
    UsageCounters read() {
        if (reads++ % 2 == 1) {
            now.cpuMs += 1e6; // far more than any wall time: only the wait decides
            now.waitMs += starve ? 1e9 : 0.0;
        }
        return now;
    }
};

std::optional<HostLoad> quietMachine() {
    return HostLoad{0.1, 0.0, 1.0, {}};
}

TEST(SweepRunnerDisturbed, AStarvedPointIsMeasuredAgainAtTheEndAndKeepsItsFlagWhenStillStarved) {
    const auto registry = test::registryOf({test::named("a")});
    SweepPlan plan = test::fakePlan({"a"}, {1, 2});
    plan.modes = {Mode::Inference};
    plan.settings.remeasureDisturbed = 1;
    SweepRunner runner(registry, plan);
    ScriptedCounters counters;
    runner.setUsageProbe([&] { return counters.read(); });
    runner.setLoadProbe(quietMachine);
    std::vector<PointResult> reported;
    runner.setCallbacks({{}, [&](const PointResult& p) { reported.push_back(p); }});
    StopToken stop;
    const SweepResult result = runner.run(stop);
    ASSERT_EQ(result.points.size(), 2u);
    EXPECT_EQ(reported.size(), 4u) << "two points, each measured again once";
    for (const PointResult& p : result.points) {
        EXPECT_TRUE(p.disturbed);
        EXPECT_EQ(p.disturbance.runs, 3);
        EXPECT_EQ(p.disturbance.starvedRuns, 3);
        EXPECT_EQ(p.disturbance.remeasured, 1);
    }
    EXPECT_TRUE(result.complete);
}

TEST(SweepRunnerDisturbed, AReMeasurementThatIsNoLongerStarvedReplacesThePoint) {
    const auto registry = test::registryOf({test::named("a")});
    SweepPlan plan = test::fakePlan({"a"}, {1});
    plan.modes = {Mode::Inference};
    plan.settings.remeasureDisturbed = 2;
    SweepRunner runner(registry, plan);
    ScriptedCounters counters;
    int points = 0;
    runner.setUsageProbe([&] { return counters.read(); });
    runner.setLoadProbe(quietMachine);
    runner.setCallbacks({{}, [&](const PointResult&) {
                             ++points;
                             counters.starve = false; // the competitor is gone after the first
                         }});
    StopToken stop;
    const SweepResult result = runner.run(stop);
    ASSERT_EQ(result.points.size(), 1u);
    EXPECT_EQ(points, 2) << "measured again once: the second measurement was quiet";
    EXPECT_FALSE(result.points[0].disturbed);
    EXPECT_EQ(result.points[0].disturbance.starvedRuns, 0);
    EXPECT_EQ(result.points[0].disturbance.remeasured, 1);
}

TEST(SweepRunnerDisturbed, NoReMeasurementWhenTurnedOff) {
    const auto registry = test::registryOf({test::named("a")});
    SweepPlan plan = test::fakePlan({"a"}, {1});
    plan.modes = {Mode::Inference};
    plan.settings.remeasureDisturbed = 0;
    SweepRunner runner(registry, plan);
    ScriptedCounters counters;
    runner.setUsageProbe([&] { return counters.read(); });
    runner.setLoadProbe(quietMachine);
    StopToken stop;
    const SweepResult result = runner.run(stop);
    ASSERT_EQ(result.points.size(), 1u);
    EXPECT_TRUE(result.points[0].disturbed);
    EXPECT_EQ(result.points[0].disturbance.remeasured, 0);
}

TEST(SweepRunnerDisturbed, APointMeasuredWhileAnotherProcessHeldACoreIsDisturbedWithoutWaiting) {
    // A competitor on a hyperthread sibling or another guest of the hypervisor slows a run without
    // making it wait in this kernel's run queue: the host's load says it.
    const auto registry = test::registryOf({test::named("a")});
    SweepPlan plan = test::fakePlan({"a"}, {1});
    plan.modes = {Mode::Inference};
    plan.settings.threads = 0; // every core: none left for others
    SweepRunner runner(registry, plan);
    ScriptedCounters counters;
    counters.starve = false;
    runner.setUsageProbe([&] { return counters.read(); });
    runner.setLoadProbe([] { return std::optional<HostLoad>(HostLoad{2.0, 1.0, 1.0, {{"spin", 7, 1.0}}}); });
    StopToken stop;
    const SweepResult result = runner.run(stop);
    ASSERT_EQ(result.points.size(), 1u);
    const PointResult& p = result.points[0];
    EXPECT_EQ(p.disturbance.starvedRuns, 0);
    EXPECT_DOUBLE_EQ(p.disturbance.otherBusyCores, 1.0);
    EXPECT_TRUE(p.disturbance.hostBusy);
    EXPECT_TRUE(p.disturbed);
    EXPECT_EQ(disturbedText(p.disturbance), "disturbed: other processes kept 1.0 cores busy while it ran");
}

TEST(SweepRunnerDisturbed, AnotherProcessOnACoreTheSweepLeavesFreeDisturbsNothing) {
    Disturbance d;
    d.runs = 5;
    d.otherBusyCores = 1.0;
    d.hostBusy = false; // what the runner records with threads = 1 of 2 cores
    EXPECT_FALSE(isDisturbed(d));
    d.hostBusy = true;
    EXPECT_TRUE(isDisturbed(d));
}

} // namespace
} // namespace rnnprof
