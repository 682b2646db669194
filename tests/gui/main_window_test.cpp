// The main window end to end: a real sweep fills the table and the charts, clicking a chart point
// selects its row and drives the breakdown, files open (or are refused with a message) and export,
// settings persist, and closing mid-sweep stops cleanly with the journal kept.
#include "gui/charts/chart_page.h"
#include "gui/charts/chart_view.h"
#include "gui/config/config_panel.h"
#include "gui/fake_results.h"
#include "gui/main_window.h"
#include "gui/models/result_store.h"
#include "gui/results_model.h"
#include "gui/results_view.h"
#include "gui/sweep_controller.h"
#include "gui/sweep_progress.h"
#include "profiling/files/result_files.h"
#include "support/fake_backend.h"

#include <QAbstractSeries>
#include <QAction>
#include <QChart>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QLabel>
#include <QMenu>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

namespace rnnprof::gui {
namespace {

using namespace std::chrono_literals;

class MainWindowTest : public ::testing::Test {
protected:
    MainWindowOptions options(const BackendRegistry* registry = nullptr) {
        MainWindowOptions o;
        o.settingsPath = dir.filePath(QStringLiteral("settings.ini"));
        o.autosaveDir = dir.filePath(QStringLiteral("autosave"));
        o.interactive = false;
        o.backends = registry;
        return o;
    }
    QString write(const QString& name, const QByteArray& bytes) {
        QFile f(dir.filePath(name));
        EXPECT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(bytes);
        return f.fileName();
    }
    QTemporaryDir dir;
};

// Hovering shows a tooltip, which the offscreen platform cannot raise(); that warning is platform
// chatter, every other message still reaches the suite's handler.
class IgnoreOffscreenRaise {
public:
    IgnoreOffscreenRaise() { s_previous = qInstallMessageHandler(&filter); }
    ~IgnoreOffscreenRaise() { qInstallMessageHandler(s_previous); }

private:
    static void filter(QtMsgType type, const QMessageLogContext& context, const QString& message) {
        if (message.contains(QStringLiteral("does not support raise()"))) return;
        if (s_previous) s_previous(type, context, message);
    }
    static inline QtMessageHandler s_previous = nullptr;
};

ChartPage* page(const MainWindow& w, const QString& id) {
    for (ChartPage* p : w.chartPages())
        if (p->spec().id == id) return p;
    return nullptr;
}

// A real sweep on cpu-reference with tiny shapes: 2 x 2 x 1 backend x 2 modes.
SweepPlan tinyReferencePlan() {
    SweepPlan p;
    p.config.inputSize = 4;
    p.config.hiddenSize = 6;
    p.batches = {1, 3};
    p.seqLens = {2, 5};
    p.backends = {"cpu-reference"};
    p.modes = {Mode::Inference, Mode::Training};
    p.settings.warmup = 0;
    p.settings.minRepeats = 2;
    p.settings.maxRepeats = 3;
    p.settings.timeBudgetMs = 5;
    return p;
}

TEST_F(MainWindowTest, ChartsAndTableReceiveThePointsOfAFinishedSweep) {
    MainWindow w(options());
    w.resize(1400, 900);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    w.configPanel()->setPlan(tinyReferencePlan());
    QSignalSpy finished(&w.controller(), &SweepController::finished);
    ASSERT_TRUE(w.startSweep());
    EXPECT_FALSE(w.runAction()->isEnabled());
    EXPECT_TRUE(w.stopAction()->isEnabled());
    ASSERT_TRUE(finished.wait(60000));
    EXPECT_TRUE(w.runAction()->isEnabled());
    ASSERT_EQ(w.store().count(), 1);
    const SweepResult& result = w.store().results().front();
    ASSERT_EQ(result.points.size(), 8u);
    for (const auto& p : result.points)
        ASSERT_TRUE(p.ok()) << p.reason;
    EXPECT_TRUE(result.complete);
    EXPECT_EQ(w.resultsModel()->rowCount(), 8);

    w.refreshChartsNow();
    ChartPage* timePage = page(w, QStringLiteral("time-vs-batch"));
    ASSERT_NE(timePage, nullptr);
    ChartView* view = timePage->views().front();
    // Sequence length 2 (the default): infer and train series, two batch sizes each.
    EXPECT_EQ(view->chartData().sampleCount(), 4);
    EXPECT_EQ(view->chartData().series.size(), 2u);

    // Hover explains a point; a click selects its row and drives the breakdown.
    w.chartTabs()->setCurrentWidget(timePage);
    QTest::qWait(50);
    const QPointF at = view->positionOf(0, 1);
    QString tip;
    const PointRef ref = view->sampleAt(at, &tip);
    ASSERT_TRUE(ref.valid());
    EXPECT_TRUE(tip.contains(QStringLiteral("median")));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at.toPoint());
    const QModelIndex current = w.resultsView()->table()->currentIndex();
    ASSERT_TRUE(current.isValid());
    EXPECT_EQ(current.data(ResultsModel::PointRefRole).value<PointRef>(), ref);
    EXPECT_EQ(page(w, QStringLiteral("breakdown"))->selection().selected, ref);
    const auto* details =
        page(w, QStringLiteral("breakdown"))->findChild<QLabel*>(QStringLiteral("pointDetails"));
    ASSERT_NE(details, nullptr);
    EXPECT_TRUE(details->text().contains(pointTitle(result.points[std::size_t(ref.point)]).toHtmlEscaped()));

    // The autosave holds the result.
    const QStringList saved = QDir(w.autosaveDir()).entryList({QStringLiteral("sweep-*.json")});
    ASSERT_EQ(saved.size(), 1);
    const SweepResult reopened = loadResultFile(QDir(w.autosaveDir()).filePath(saved[0]).toStdString());
    EXPECT_EQ(reopened.points.size(), 8u);
    // One name on every surface: the live result is called what its file is called when opened.
    EXPECT_EQ(result.label, reopened.label);
}

TEST_F(MainWindowTest, ProgressShowsDoneTotalAndTheCurrentPoint) {
    SweepProgress p;
    p.done = 12;
    p.total = 40;
    p.etaSeconds = 65;
    p.current = "cpu-blas train B=64 T=100";
    EXPECT_EQ(progressText(p), QStringLiteral("12 / 40 · ETA 1:05 · cpu-blas train B=64 T=100"));
    p.etaSeconds = -1;
    EXPECT_TRUE(progressText(p).contains(QStringLiteral("estimating")));
    EXPECT_EQ(formatDuration(3725), QStringLiteral("1:02:05"));
}

TEST_F(MainWindowTest, ClosingMidSweepStopsJoinsAndSavesWhatWasMeasured) {
    const auto registry = test::fakeRegistry(40ms);
    auto w = std::make_unique<MainWindow>(options(&registry));
    SweepPlan plan;
    plan.batches = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    plan.seqLens = {1};
    plan.backends = {"fake-ok"};
    plan.settings.warmup = 0;
    plan.settings.minRepeats = 3;
    plan.settings.maxRepeats = 3;
    plan.settings.checkNumerics = false;
    w->configPanel()->setPlan(plan);
    QSignalSpy points(&w->controller(), &SweepController::pointFinished);
    ASSERT_TRUE(w->startSweep());
    ASSERT_TRUE(points.wait(20000));
    QElapsedTimer timer;
    timer.start();
    EXPECT_TRUE(w->close());
    EXPECT_LT(timer.elapsed(), 5000);
    EXPECT_TRUE(w->controller().isShutDown());
    w.reset();
    // The stopped sweep was saved as a results file (SweepSession's policy: its journal then goes).
    const QDir autosave(dir.filePath(QStringLiteral("autosave")));
    EXPECT_TRUE(autosave.entryList({QStringLiteral("*.journal")}).isEmpty());
    const QStringList saved = autosave.entryList({QStringLiteral("*.json")});
    ASSERT_EQ(saved.size(), 1);
    const SweepResult kept = loadResultFile(autosave.filePath(saved[0]).toStdString());
    EXPECT_FALSE(kept.complete);
    EXPECT_GE(kept.points.size(), 1u);
    EXPECT_LT(kept.points.size(), 10u);
}

// The engine thread is held inside a measured run (a gate) while Stop is pressed: the status bar
// says so at once, before the run has returned; then the run is abandoned and the point cancelled.
TEST_F(MainWindowTest, StopIsAcknowledgedInTheStatusBarBeforeTheRunInProgressReturns) {
    test::Gate gate(test::Stage::Forward, 0, 0);
    test::FakeBehaviour held = test::named("fake-ok");
    held.gate = &gate;
    const BackendRegistry registry = test::registryOf({held});
    auto w = std::make_unique<MainWindow>(options(&registry));
    SweepPlan plan;
    plan.batches = {1, 2};
    plan.seqLens = {1};
    plan.backends = {"fake-ok"};
    plan.modes = {Mode::Inference};
    plan.settings.warmup = 0;
    plan.settings.minRepeats = plan.settings.maxRepeats = 3;
    plan.settings.checkNumerics = false;
    w->configPanel()->setPlan(plan);
    QSignalSpy finished(&w->controller(), &SweepController::finished);
    ASSERT_TRUE(w->startSweep());
    ASSERT_TRUE(gate.waitForArrival(std::chrono::seconds(60))) << "the first run never began";
    w->findChild<QAction*>(QStringLiteral("actionStop"))->trigger();
    EXPECT_TRUE(w->statusBar()->currentMessage().startsWith(
        QStringLiteral("Stopping: the run in progress is abandoned")))
        << w->statusBar()->currentMessage().toStdString();
    gate.release();
    ASSERT_TRUE(finished.wait(60000));
    const auto result = finished.at(0).at(0).value<SweepResult>();
    EXPECT_FALSE(result.complete);
    ASSERT_EQ(result.points.size(), 1u);
    EXPECT_EQ(result.points[0].status, PointStatus::Cancelled);
    EXPECT_NE(result.points[0].reason.find("abandoned in forward"), std::string::npos)
        << result.points[0].reason;
}

TEST_F(MainWindowTest, HostileResultFilesAreRefusedOnOpenNotDrawn) {
    // Drawn, a median of 1.1e308 would make QtCharts' log axis recurse until the stack is gone, and
    // a 1 MB backend id would take gigabytes in the legend: both are refused on open.
    MainWindow w(options());
    SweepResult huge = test::fakeSweep();
    huge.points[0].iteration.median = 1.1e308;
    const QString hugePath = dir.filePath(QStringLiteral("huge.json"));
    saveResultJson(hugePath.toStdString(), huge);
    SweepResult longId = test::fakeSweep();
    longId.points[0].backend = std::string(1 << 20, 'b');
    const QString longPath = dir.filePath(QStringLiteral("long-id.json"));
    saveResultJson(longPath.toStdString(), longId);

    EXPECT_EQ(w.openFiles({hugePath}, false), 0);
    EXPECT_TRUE(w.lastMessage().contains(
        QStringLiteral("iteration_ms.median: must be null or a number from 0 to 1e+15")))
        << w.lastMessage().toStdString();
    EXPECT_EQ(w.openFiles({longPath}, false), 0);
    EXPECT_TRUE(w.lastMessage().contains(QStringLiteral("at most 4096 are allowed")))
        << w.lastMessage().size();
    EXPECT_EQ(w.store().count(), 0);
    EXPECT_TRUE(w.runAction()->isEnabled());
}

TEST_F(MainWindowTest, MalformedOrForeignFilesAreRefusedWithAMessageAndTheWindowStaysUsable) {
    MainWindow w(options());
    const QString good = dir.filePath(QStringLiteral("good.json"));
    saveResultJson(good.toStdString(), test::fakeSweep());
    ASSERT_EQ(w.openFiles({good}, false), 1);
    const int points = w.store().pointCount();

    // QByteArrayLiteral keeps the leading NUL; QByteArray(const char*) would stop there and write
    // an empty file, which empty.json already covers.
    const QByteArray garbage = QByteArrayLiteral("\x00\x01not json at all");
    ASSERT_EQ(garbage.size(), 17);
    const QStringList bad{
        write(QStringLiteral("garbage.json"), garbage),
        write(QStringLiteral("foreign.json"), R"({"name": "a package.json", "version": "1.0"})"),
        write(QStringLiteral("empty.json"), ""),
        write(QStringLiteral("future.json"), R"({"schema_version": 999, "points": []})"),
        dir.filePath(QStringLiteral("missing.json"))};
    ASSERT_EQ(QFileInfo(bad[0]).size(), garbage.size()) << "garbage.json holds every byte, NUL included";
    for (const QString& path : bad) {
        EXPECT_EQ(w.openFiles({path}, false), 0) << path.toStdString();
        EXPECT_TRUE(w.lastMessage().contains(QFileInfo(path).fileName())) << w.lastMessage().toStdString();
        EXPECT_EQ(w.store().pointCount(), points) << "what was loaded stays";
    }
    EXPECT_TRUE(w.runAction()->isEnabled());
    // One bad file among good ones: the good ones open, and the message says what is wrong.
    EXPECT_EQ(w.openFiles({good, bad[0]}, false), 1);
    EXPECT_EQ(w.store().count(), 1);
    EXPECT_TRUE(w.lastMessage().contains(QStringLiteral("garbage.json: not valid JSON")))
        << w.lastMessage().toStdString();
}

TEST_F(MainWindowTest, SeveralFilesOverlayWithSeriesLabelledBySource) {
    MainWindow w(options());
    const QString a = dir.filePath(QStringLiteral("laptop.json"));
    saveResultJson(a.toStdString(), test::fakeSweep("laptop"));
    const QString journal =
        QString::fromStdString(journalPathFor(dir.filePath(QStringLiteral("server.json")).toStdString()));
    {
        const SweepResult server = test::fakeSweep("server");
        Journal j(journal.toStdString(), server);
        for (const auto& p : server.points)
            j.append(p);
    }
    ASSERT_EQ(w.openFiles({a, journal}, false), 2);
    ASSERT_EQ(w.store().count(), 2);
    EXPECT_FALSE(w.resultsView()->table()->isColumnHidden(0));
    const ChartData& d = page(w, QStringLiteral("time-vs-batch"))->views().front()->chartData();
    ASSERT_EQ(d.series.size(), 4u);
    QStringList names;
    for (const auto& s : d.series)
        names << s.name;
    EXPECT_TRUE(
        names.join(QLatin1Char('|')).contains(QStringLiteral("laptop.json (laptop): slow-cpu infer")));
    EXPECT_TRUE(names.join(QLatin1Char('|')).contains(QStringLiteral("(server): slow-cpu infer")));
    // "Add for comparison" keeps what is loaded.
    ASSERT_EQ(w.openFiles({a}, true), 1);
    EXPECT_EQ(w.store().count(), 3);
}

TEST_F(MainWindowTest, ExportsResultsCsvTraceAndCharts) {
    MainWindow w(options());
    const QString in = dir.filePath(QStringLiteral("in.json"));
    saveResultJson(in.toStdString(), test::fakeSweep());
    ASSERT_EQ(w.openFiles({in}, false), 1);

    const QString json = dir.filePath(QStringLiteral("out.json"));
    ASSERT_TRUE(w.saveResult(json));
    EXPECT_EQ(loadResultFile(json.toStdString()).points, test::fakeSweep().points);

    const QString csv = dir.filePath(QStringLiteral("out.csv"));
    ASSERT_TRUE(w.exportCsv(csv));
    QFile csvFile(csv);
    ASSERT_TRUE(csvFile.open(QIODevice::ReadOnly));
    EXPECT_EQ(csvFile.readAll().toStdString(), toCsv(w.store().results().front()));

    const QString trace = dir.filePath(QStringLiteral("trace.json"));
    ASSERT_TRUE(w.exportTrace(trace));
    QFile traceFile(trace);
    ASSERT_TRUE(traceFile.open(QIODevice::ReadOnly));
    QJsonParseError error{};
    QJsonDocument::fromJson(traceFile.readAll(), &error);
    EXPECT_EQ(error.error, QJsonParseError::NoError);

    ChartView* view = page(w, QStringLiteral("throughput"))->views().front();
    for (const char* name : {"chart.png", "chart.svg", "chart.pdf"}) {
        const QString path = dir.filePath(QString::fromLatin1(name));
        ASSERT_TRUE(w.exportChartFile(*view, path)) << w.lastMessage().toStdString();
        EXPECT_GT(QFileInfo(path).size(), 500);
    }
    EXPECT_FALSE(w.exportChartFile(*view, dir.filePath(QStringLiteral("chart.bmp"))));
    EXPECT_TRUE(w.lastMessage().contains(QStringLiteral(".png, .svg or .pdf")));

    const QStringList all = w.exportAllCharts(dir.filePath(QStringLiteral("all")), QStringLiteral("svg"));
    std::size_t charts = 0;
    for (ChartPage* p : w.chartPages())
        charts += p->views().size();
    EXPECT_EQ(static_cast<std::size_t>(all.size()), charts);

    EXPECT_FALSE(w.saveResult(QStringLiteral("/nonexistent/dir/out.json")));
    EXPECT_FALSE(w.lastMessage().isEmpty());
}

TEST_F(MainWindowTest, RemembersTheConfigurationAndRecentFiles) {
    const QString file = dir.filePath(QStringLiteral("r.json"));
    saveResultJson(file.toStdString(), test::fakeSweep());
    {
        MainWindow w(options());
        qobject_cast<QSpinBox*>(w.configPanel()->fieldEditor(QStringLiteral("hidden_size")))->setValue(77);
        ASSERT_EQ(w.openFiles({file}, false), 1);
        w.close();
    }
    MainWindow again(options());
    EXPECT_EQ(again.configPanel()->plan().config.hiddenSize, 77);
    bool listed = false;
    for (QMenu* menu : again.findChildren<QMenu*>())
        for (QAction* a : menu->actions())
            listed = listed || a->text() == QDir::toNativeSeparators(file);
    EXPECT_TRUE(listed);
}

TEST_F(MainWindowTest, ClickingABarOfTheBreakdownSelectsItsPoint) {
    MainWindow w(options());
    w.resize(1400, 900);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    const QString file = dir.filePath(QStringLiteral("r.json"));
    saveResultJson(file.toStdString(), test::fakeSweep());
    ASSERT_EQ(w.openFiles({file}, false), 1);
    ChartPage* breakdown = page(w, QStringLiteral("breakdown"));
    w.chartTabs()->setCurrentWidget(breakdown);
    w.selectPoint({0, 0});
    QTest::qWait(50);
    ChartView* phases = breakdown->views().front();
    ASSERT_EQ(phases->chartData().categories.size(), 2u); // both backends at B=1 T=10
    // The second category's bar (horizontal bars: value along x, category along y), half way along.
    const auto* series = phases->chart()->series().front();
    const double half = phases->chartData().barSets.front().values[1] / 2;
    const QPointF scenePos = phases->chart()->mapToScene(
        phases->chart()->mapToPosition(QPointF(half, 1), const_cast<QAbstractSeries*>(series)));
    QSignalSpy clicked(phases, &ChartView::pointClicked);
    const IgnoreOffscreenRaise quiet;
    QTest::mouseClick(phases->viewport(), Qt::LeftButton, {}, phases->mapFromScene(scenePos));
    ASSERT_TRUE(clicked.wait(2000));
    const PointRef ref = clicked.at(0).at(0).value<PointRef>();
    EXPECT_EQ(ref, phases->chartData().barSets.front().refs[1]);
    QTest::qWait(50); // the view redraws itself for the new selection without crashing
    EXPECT_EQ(breakdown->selection().selected, ref);
}

TEST_F(MainWindowTest, ShowsTheHostAndGpuStatus) {
    MainWindow w(options());
    const auto* host = w.findChild<QLabel*>(QStringLiteral("hostStatus"));
    ASSERT_NE(host, nullptr);
    EXPECT_TRUE(host->text().contains(QStringLiteral("GPU")));
}

} // namespace
} // namespace rnnprof::gui
