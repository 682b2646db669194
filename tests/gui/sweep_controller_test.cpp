// The engine thread: a sweep runs off the GUI thread, reports progress and points as queued
// signals, stops in the middle keeping what was measured, and the thread is joined on shutdown.
#include "gui/sweep_controller.h"
#include "profiling/files/result_files.h"
#include "support/fake_backend.h"

#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <gtest/gtest.h>

#include <atomic>

namespace rnnprof::gui {
namespace {

using namespace std::chrono_literals;
using test::fakeRegistry;

SweepPlan fakePlan(std::vector<int> batches) {
    SweepPlan p;
    p.config.inputSize = 4;
    p.config.hiddenSize = 4;
    p.batches = std::move(batches);
    p.seqLens = {3};
    p.backends = {"fake-ok", "fake-absent"};
    p.modes = {Mode::Inference};
    p.settings.warmup = 0;
    p.settings.minRepeats = 2;
    p.settings.maxRepeats = 2;
    p.settings.checkNumerics = false;
    // Each finished point is counted: a point measured again because the machine running the
    // tests is busy would be reported twice (tests/support/fake_backend.h says the same).
    p.settings.remeasureDisturbed = 0;
    return p;
}

TEST(SweepController, RunsOnTheEngineThreadAndReportsEveryPoint) {
    const auto registry = fakeRegistry(1ms);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("sweep.json"));
    SweepController controller(registry);
    QSignalSpy started(&controller, &SweepController::started);
    QSignalSpy points(&controller, &SweepController::pointFinished);
    QSignalSpy progress(&controller, &SweepController::progressChanged);
    QSignalSpy finished(&controller, &SweepController::finished);
    QSignalSpy running(&controller, &SweepController::runningChanged);
    std::atomic<bool> onGuiThread{false};
    QObject::connect(&controller, &SweepController::pointFinished, &controller,
                     [&] { onGuiThread = QThread::currentThread() == qApp->thread(); });

    ASSERT_TRUE(controller.start(fakePlan({1, 2, 3}), path));
    EXPECT_TRUE(controller.isRunning());
    EXPECT_FALSE(controller.start(fakePlan({1}), path)) << "one sweep at a time";
    ASSERT_TRUE(finished.wait(20000));
    EXPECT_EQ(started.count(), 1);
    EXPECT_EQ(points.count(), 6);
    EXPECT_TRUE(onGuiThread);
    EXPECT_GE(progress.count(), 1);
    const auto last = progress.last().at(0).value<SweepProgress>();
    EXPECT_EQ(last.done, 6);
    EXPECT_EQ(last.total, 6);
    const auto result = finished.at(0).at(0).value<SweepResult>();
    EXPECT_TRUE(result.complete);
    ASSERT_EQ(result.points.size(), 6u);
    EXPECT_EQ(result.points[0].status, PointStatus::Ok);
    EXPECT_EQ(result.points[1].status, PointStatus::Unavailable);
    EXPECT_EQ(result.points[1].reason, "no NVIDIA driver");
    EXPECT_FALSE(controller.isRunning());
    EXPECT_EQ(running.count(), 2);
    // The worker saved the result; the journal, now redundant, is gone (SweepSession's policy).
    EXPECT_EQ(loadResultFile(path.toStdString()).points.size(), 6u);
    EXPECT_FALSE(QFileInfo::exists(QString::fromStdString(journalPathFor(path.toStdString()))));
}

TEST(SweepController, StopKeepsWhatWasMeasured) {
    const auto registry = fakeRegistry(30ms);
    SweepController controller(registry);
    QSignalSpy points(&controller, &SweepController::pointFinished);
    QSignalSpy finished(&controller, &SweepController::finished);
    ASSERT_TRUE(controller.start(fakePlan({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})));
    ASSERT_TRUE(points.wait(20000));
    controller.stop();
    ASSERT_TRUE(finished.wait(20000));
    const auto result = finished.at(0).at(0).value<SweepResult>();
    EXPECT_FALSE(result.complete);
    EXPECT_GE(result.points.size(), 1u);
    EXPECT_LT(result.points.size(), 24u);
    EXPECT_EQ(result.points.front().status, PointStatus::Ok);
    EXPECT_EQ(static_cast<int>(result.points.size()), points.count());
    // A second sweep can run after a stop.
    QSignalSpy again(&controller, &SweepController::finished);
    ASSERT_TRUE(controller.start(fakePlan({1})));
    ASSERT_TRUE(again.wait(20000));
    EXPECT_TRUE(again.at(0).at(0).value<SweepResult>().complete);
}

TEST(SweepController, ShutdownMidSweepJoinsTheThreadAndSavesWhatWasMeasured) {
    const auto registry = fakeRegistry(30ms);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("sweep.json"));
    auto controller = std::make_unique<SweepController>(registry);
    QSignalSpy points(controller.get(), &SweepController::pointFinished);
    ASSERT_TRUE(controller->start(fakePlan({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}), path));
    ASSERT_TRUE(points.wait(20000));
    QElapsedTimer timer;
    timer.start();
    controller->shutdown();
    EXPECT_LT(timer.elapsed(), 5000) << "stops at the next check between runs";
    EXPECT_TRUE(controller->isShutDown());
    EXPECT_FALSE(controller->isRunning());
    EXPECT_FALSE(controller->start(fakePlan({1}))) << "no sweeps after shutdown";
    controller.reset(); // the destructor after shutdown is a no-op
    const SweepResult saved = loadResultFile(path.toStdString());
    EXPECT_FALSE(saved.complete);
    EXPECT_GE(saved.points.size(), 1u);
    EXPECT_LT(saved.points.size(), 12u);
}

TEST(SweepController, AnInvalidPlanFailsWithTheReason) {
    const auto registry = fakeRegistry();
    SweepController controller(registry);
    QSignalSpy failed(&controller, &SweepController::failed);
    SweepPlan plan = fakePlan({1});
    plan.backends = {"no-such-backend"};
    ASSERT_TRUE(controller.start(plan));
    ASSERT_TRUE(failed.wait(20000));
    EXPECT_TRUE(failed.at(0).at(0).toString().contains(QStringLiteral("no-such-backend")));
    EXPECT_FALSE(controller.isRunning());
}

TEST(SweepController, ASweepWhereEveryPointFailsStillFinishes) {
    const auto registry = fakeRegistry();
    SweepController controller(registry);
    QSignalSpy finished(&controller, &SweepController::finished);
    SweepPlan plan = fakePlan({1, 2});
    plan.backends = {"fake-absent"};
    ASSERT_TRUE(controller.start(plan));
    ASSERT_TRUE(finished.wait(20000));
    const auto result = finished.at(0).at(0).value<SweepResult>();
    EXPECT_TRUE(result.complete);
    ASSERT_EQ(result.points.size(), 2u);
    for (const auto& p : result.points)
        EXPECT_EQ(p.reason, "no NVIDIA driver");
}

} // namespace
} // namespace rnnprof::gui
