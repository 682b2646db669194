// Chart interaction: the right button opens a menu (never a file dialog), zoom changes the axes and
// reset restores them, a view's state (hidden series, zoom, log axes, error bars) draws another
// view the same way (what exports do), p10-p90 error bars, the selected point ringed, the table filter
// applied to the charts, inference and training crossovers drawn differently; and measurement honesty in the
// window: the busy-machine banner and the estimate before Run.
#include "gui/busy_banner.h"
#include "gui/charts/chart_filter.h"
#include "gui/charts/chart_page.h"
#include "gui/charts/chart_renderer.h"
#include "gui/charts/chart_view.h"
#include "gui/config/config_panel.h"
#include "gui/fake_results.h"
#include "gui/main_window.h"
#include "gui/models/chart_selection.h"
#include "gui/models/chart_time.h"
#include "gui/models/result_store.h"
#include "gui/results_model.h"
#include "gui/results_view.h"
#include "gui/sweep_progress.h"
#include "gui/window_options.h"
#include "profiling/files/result_files.h"

#include <QAction>
#include <QApplication>
#include <QChart>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QMenu>
#include <QMouseEvent>
#include <QProgressBar>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

namespace rnnprof::gui {
namespace {

// One series of three measured times with their p10/p90, on linear axes.
ChartData threePointChart() {
    ChartData d;
    d.title = QStringLiteral("time");
    ChartSeries s;
    s.name = QStringLiteral("cpu-blas infer");
    for (int i = 0; i < 3; ++i) {
        ChartSample sample{double(i + 1), 10.0 * (i + 1), false, PointRef{0, i}, QString()};
        sample.low = sample.y * 0.8;
        sample.high = sample.y * 1.3;
        s.samples.push_back(sample);
    }
    d.series.push_back(s);
    return d;
}

std::vector<QLineSeries*> seriesNamed(QChart* chart, const QString& objectName) {
    std::vector<QLineSeries*> out;
    for (QAbstractSeries* s : chart->series())
        if (s->objectName() == objectName)
            if (auto* line = qobject_cast<QLineSeries*>(s)) out.push_back(line);
    return out;
}

QStringList actionTexts(const QMenu& menu) {
    QStringList texts;
    for (const QAction* a : menu.actions())
        if (!a->isSeparator()) texts << a->text();
    return texts;
}

TEST(ChartContextMenu, OffersExportCopyResetZoomLogAxesAndErrorBars) {
    ChartView view;
    view.setChartData(threePointChart());
    const auto menu = view.makeContextMenu();
    EXPECT_EQ(actionTexts(*menu),
              (QStringList{QStringLiteral("Export…"), QStringLiteral("Copy image"),
                           QStringLiteral("Reset zoom"), QStringLiteral("Logarithmic x axis"),
                           QStringLiteral("Logarithmic y axis"), QStringLiteral("Error bars (p10–p90)")}));
    QSignalSpy exportRequested(&view, &ChartView::exportRequested);
    menu->actions().front()->trigger();
    EXPECT_EQ(exportRequested.count(), 1);
}

TEST(ChartContextMenu, TheLogActionsSwitchTheAxes) {
    ChartView view;
    view.setChartData(threePointChart());
    ASSERT_FALSE(view.logY());
    view.makeContextMenu()->actions().at(5)->trigger(); // after a separator: Logarithmic y axis
    EXPECT_TRUE(view.logY());
    EXPECT_FALSE(view.logX());
}

// threePointChart() in a shown 640x480 view, laid out.
struct ShownChart {
    ChartView view;
    ShownChart() {
        view.resize(640, 480);
        view.show();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(&view));
        view.setChartData(threePointChart());
        QApplication::processEvents();
    }
};

TEST(ChartZoom, ZoomNarrowsTheAxesSurvivesARefreshAndResetRestoresThem) {
    ShownChart shown;
    ChartView& view = shown.view;
    const ChartView::Ranges before = view.shownRanges();
    const QRectF plot = view.chart()->plotArea();
    view.zoomTo(QRectF(plot.center() - QPointF(plot.width() / 4, plot.height() / 4),
                       QSizeF(plot.width() / 2, plot.height() / 2)));
    const ChartView::Ranges zoomed = view.shownRanges();
    EXPECT_TRUE(view.isZoomed());
    EXPECT_GT(zoomed.x.x(), before.x.x());
    EXPECT_LT(zoomed.x.y(), before.x.y());
    EXPECT_LT(zoomed.y.y() - zoomed.y.x(), before.y.y() - before.y.x());
    view.setChartData(threePointChart()); // a refresh while a sweep runs
    EXPECT_EQ(view.shownRanges(), zoomed);
    view.resetZoom();
    EXPECT_FALSE(view.isZoomed());
    EXPECT_EQ(view.shownRanges(), before);
}

// A mouse event on the chart's viewport, with the buttons held during it.
void sendMouse(ChartView& view, QEvent::Type type, QPointF at, Qt::MouseButton button,
               Qt::MouseButtons held) {
    QWidget* viewport = view.viewport();
    QMouseEvent event(type, at, viewport->mapToGlobal(at), button, held, Qt::NoModifier);
    QApplication::sendEvent(viewport, &event);
}

TEST(ChartZoom, ADraggedRectangleZoomsInTheMiddleButtonAndTheArrowKeysPan) {
    ShownChart shown;
    ChartView& view = shown.view;
    const ChartView::Ranges before = view.shownRanges();
    const QRectF plot = view.chart()->plotArea();
    // A rectangle over the upper-left quarter of the plot (no sample there to click instead).
    const QPointF from =
        view.mapFromScene(plot.topLeft() + QPointF(plot.width() * 0.05, plot.height() * 0.05));
    const QPointF to = view.mapFromScene(plot.center());
    sendMouse(view, QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton);
    sendMouse(view, QEvent::MouseMove, (from + to) / 2, Qt::NoButton, Qt::LeftButton);
    sendMouse(view, QEvent::MouseMove, to, Qt::NoButton, Qt::LeftButton);
    sendMouse(view, QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton);
    const ChartView::Ranges zoomed = view.shownRanges();
    ASSERT_TRUE(view.isZoomed());
    // The left half of x and the upper half of y, give or take the rectangle's edges.
    const double xMid = (before.x.x() + before.x.y()) / 2, yMid = (before.y.x() + before.y.y()) / 2;
    EXPECT_GE(zoomed.x.x(), before.x.x());
    EXPECT_NEAR(zoomed.x.y(), xMid, 0.02 * (before.x.y() - before.x.x()));
    EXPECT_NEAR(zoomed.y.x(), yMid, 0.02 * (before.y.y() - before.y.x()));
    EXPECT_LE(zoomed.y.y(), before.y.y());

    // Middle-drag to the right: the content follows the mouse, smaller x come into view.
    const QPointF centre = view.mapFromScene(view.chart()->plotArea().center());
    sendMouse(view, QEvent::MouseButtonPress, centre, Qt::MiddleButton, Qt::MiddleButton);
    sendMouse(view, QEvent::MouseMove, centre + QPointF(40, 0), Qt::NoButton, Qt::MiddleButton);
    sendMouse(view, QEvent::MouseButtonRelease, centre + QPointF(40, 0), Qt::MiddleButton, Qt::NoButton);
    const ChartView::Ranges panned = view.shownRanges();
    EXPECT_LT(panned.x.x(), zoomed.x.x());
    EXPECT_LT(panned.x.y(), zoomed.x.y());
    EXPECT_NEAR(panned.x.y() - panned.x.x(), zoomed.x.y() - zoomed.x.x(), 1e-9); // moved, not scaled
    EXPECT_NEAR(panned.y.x(), zoomed.y.x(), 1e-9);

    // The right arrow key moves the other way; the view keeps what it was panned to.
    QTest::keyClick(&view, Qt::Key_Right);
    const ChartView::Ranges keyed = view.shownRanges();
    EXPECT_GT(keyed.x.x(), panned.x.x());
    EXPECT_EQ(view.viewState().zoom, keyed);
}

TEST(ChartViewState, AnotherViewGivenAViewsStateDrawsTheChartTheSameWay) {
    ChartData d = threePointChart();
    ChartSeries second = d.series[0];
    second.name = QStringLiteral("cpu-onednn infer");
    d.series.push_back(second);
    ChartView window;
    window.setChartData(d);
    window.setSeriesVisible(1, false);
    window.setLogAxes(std::nullopt, true);
    window.setErrorBarsShown(true);
    ChartViewState state = window.viewState();
    state.zoom = ChartRanges{QPointF(1.5, 2.5), QPointF(12.0, 25.0)};

    ChartView exported; // as an export makes its off-screen view
    exported.setChartData(d);
    exported.setViewState(state);
    EXPECT_EQ(exported.viewState(), state);
    EXPECT_TRUE(exported.isSeriesVisible(0));
    EXPECT_FALSE(exported.isSeriesVisible(1));
    for (QAbstractSeries* part : exported.rendered().parts[1])
        EXPECT_FALSE(part->isVisible());
    EXPECT_TRUE(exported.logY());
    EXPECT_FALSE(exported.logX());
    EXPECT_TRUE(exported.errorBarsShown());
    EXPECT_FALSE(seriesNamed(exported.chart(), QStringLiteral("errorBar")).empty());
    EXPECT_EQ(exported.shownRanges(), *state.zoom);
}

TEST(ChartErrorBars, EachMeasuredSampleGetsASegmentFromItsP10ToItsP90) {
    ChartData d = threePointChart();
    d.errorBars = true;
    QChart chart;
    (void)renderChart(chart, d, ChartStyle{});
    const auto bars = seriesNamed(&chart, QStringLiteral("errorBar"));
    ASSERT_EQ(bars.size(), 3u);
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const ChartSample& s = d.series[0].samples[i];
        EXPECT_EQ(bars[i]->points(), (QList<QPointF>{{s.x, s.low}, {s.x, s.high}}));
    }
    d.errorBars = false;
    QChart plain;
    (void)renderChart(plain, d, ChartStyle{});
    EXPECT_TRUE(seriesNamed(&plain, QStringLiteral("errorBar")).empty());
}

TEST(ChartErrorBars, TimeChartsCarryTheRunsP10AndP90) {
    const std::vector<SweepResult> results{test::fakeSweep()};
    ChartSelection selection;
    selection.seqLen = 10;
    const ChartData d = timeVsBatch(results, selection);
    ASSERT_FALSE(d.series.empty());
    for (const ChartSeries& s : d.series)
        for (const ChartSample& sample : s.samples) {
            const PointResult& p = results[0].points[std::size_t(sample.ref.point)];
            EXPECT_DOUBLE_EQ(sample.low, p.iteration.p10);
            EXPECT_DOUBLE_EQ(sample.high, p.iteration.p90);
        }
}

TEST(ChartSelectionRing, TheSelectedPointIsRingedWhereItIsDrawn) {
    ChartView view;
    view.setChartData(threePointChart());
    EXPECT_TRUE(seriesNamed(view.chart(), QStringLiteral("selectedPoint")).empty());
    view.setHighlightedPoint(PointRef{0, 1});
    QList<QAbstractSeries*> rings;
    for (QAbstractSeries* s : view.chart()->series())
        if (s->objectName() == QStringLiteral("selectedPoint")) rings << s;
    ASSERT_EQ(rings.size(), 1);
    EXPECT_EQ(qobject_cast<QXYSeries*>(rings[0])->points(), (QList<QPointF>{{2.0, 20.0}}));
    view.setChartData(threePointChart()); // kept across refreshes
    EXPECT_EQ(view.highlightedPoint(), (PointRef{0, 1}));
}

// `d` with a copy of its first series named "gpu infer", its samples of a second result.
ChartData withASecondResultsSeries(ChartData d) {
    ChartSeries other = d.series[0];
    other.name = QStringLiteral("gpu infer");
    for (auto& s : other.samples)
        s.ref.result = 1;
    d.series.push_back(other);
    return d;
}

TEST(ChartFilter, SamplesOfFilteredOutPointsAndEmptiedSeriesAreLeftOut) {
    ChartData d = withASecondResultsSeries(threePointChart());
    ChartSeries guide;
    guide.name = QStringLiteral("1x");
    guide.reference = true;
    guide.samples.push_back({1.0, 1.0, false, PointRef{}, QString()});
    d.series.push_back(guide);
    keepShownPoints(d, {PointRef{0, 0}, PointRef{0, 2}});
    ASSERT_EQ(d.series.size(), 2u); // "gpu infer" had no shown point left
    EXPECT_EQ(d.series[0].samples.size(), 2u);
    EXPECT_EQ(d.series[0].samples[1].ref, (PointRef{0, 2}));
    EXPECT_TRUE(d.series[1].reference);
}

TEST(ChartFilter, ACrossoverMarkerGoesWithTheSeriesItMarksAndStaysWithOneThatStays) {
    ChartData d = withASecondResultsSeries(threePointChart());
    ChartMarker ofKept{2.0, QStringLiteral("crossover kept")};
    ofKept.series = d.series[0].name;
    ChartMarker ofRemoved{3.0, QStringLiteral("crossover removed")};
    ofRemoved.series = QStringLiteral("gpu infer");
    const ChartMarker ownerless{4.0, QStringLiteral("a guide")};
    d.markers = {ofKept, ofRemoved, ownerless};
    keepShownPoints(d, {PointRef{0, 0}, PointRef{0, 2}}); // none of "gpu infer"
    ASSERT_EQ(d.markers.size(), 2u);
    EXPECT_EQ(d.markers[0].label, QStringLiteral("crossover kept"));
    EXPECT_EQ(d.markers[1].label, QStringLiteral("a guide"));
}

TEST(CrossoverMarkers, InferenceAndTrainingAreDrawnWithDifferentPens) {
    ChartData d = threePointChart();
    ChartMarker inferMarker{2.0, QStringLiteral("infer crossover")};
    ChartMarker trainMarker{2.0, QStringLiteral("train crossover")};
    trainMarker.training = true;
    d.markers = {inferMarker, trainMarker};
    QChart chart;
    (void)renderChart(chart, d, ChartStyle{});
    QPen infer, train;
    for (QAbstractSeries* s : chart.series()) {
        if (s->name() == QStringLiteral("infer crossover")) infer = qobject_cast<QLineSeries*>(s)->pen();
        if (s->name() == QStringLiteral("train crossover")) train = qobject_cast<QLineSeries*>(s)->pen();
    }
    EXPECT_NE(infer.style(), train.style());
    EXPECT_NE(infer.style(), Qt::SolidLine);
    EXPECT_NE(train.style(), Qt::SolidLine);
}

SweepResult busyResult() {
    SweepResult r = test::fakeSweep("busyhost");
    r.host.cpuCores = 2;
    r.host.loadDuring = HostLoad{3.1, 1.0, 1.0, {{"stress", 42, 0.97}}};
    return r;
}

TEST(BusyWarningBanner, AResultMeasuredOnABusyMachineIsFlagged) {
    EXPECT_TRUE(busyResultText(busyResult()).contains(QStringLiteral("stress")));
    EXPECT_TRUE(busyResultText(test::fakeSweep()).isEmpty()); // nothing recorded
    SweepResult quiet = test::fakeSweep();
    quiet.host.loadDuring = HostLoad{0.2, 0.1, 1.0, {}};
    EXPECT_TRUE(busyResultText(quiet).isEmpty());

    BusyBanner banner;
    banner.showResults({test::fakeSweep(), busyResult()});
    EXPECT_FALSE(banner.isHidden());
    EXPECT_TRUE(banner.text().contains(QStringLiteral("busy")));
    EXPECT_TRUE(banner.toolTip().contains(QStringLiteral("stress (1.0)")));
    banner.showResults({test::fakeSweep()});
    EXPECT_TRUE(banner.isHidden());
}

// While a sweep runs the banner shows each sample of the load (BusyBanner::startWatching's timer):
// other processes keeping 1.8 of 2 cores busy take more than the one core a one-thread sweep
// leaves free (with half a core of margin).
TEST(BusyWarningBanner, ALiveSampleOfABusyMachineShowsTheWarningAndAQuietOneHidesIt) {
    BusyBanner banner;
    banner.showLoad(HostLoad{2.4, 1.8, 3.0, {{"stress", 42, 0.97}}}, 2, 1);
    EXPECT_FALSE(banner.isHidden());
    EXPECT_TRUE(banner.toolTip().contains(QStringLiteral("stress"))) << banner.toolTip().toStdString();
    banner.showLoad(HostLoad{0.3, 0.05, 3.0, {}}, 2, 1);
    EXPECT_TRUE(banner.isHidden());
}

class ChartWindowTest : public ::testing::Test {
protected:
    MainWindowOptions options() { return test::scratchWindowOptions(dir); }
    // Shows `w` at 1200x800 holding test::fakeSweep(), its charts drawn.
    static void showWithASweep(MainWindow& w) {
        w.resize(1200, 800);
        w.show();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(&w));
        w.store().add(test::fakeSweep());
        w.refreshChartsNow();
    }
    QTemporaryDir dir;
};

ChartView* timeView(const MainWindow& w) {
    for (ChartPage* p : w.chartPages())
        if (p->spec().id == QStringLiteral("time-vs-batch")) return p->views().front();
    return nullptr;
}

// A popup menu asks the platform to raise it and grab the keyboard, which the offscreen plugin
// cannot do; those warnings are platform chatter, every other message still reaches the suite's
// handler.
class IgnoreOffscreenPopupChatter {
public:
    IgnoreOffscreenPopupChatter() { s_previous = qInstallMessageHandler(&filter); }
    ~IgnoreOffscreenPopupChatter() { qInstallMessageHandler(s_previous); }

private:
    static void filter(QtMsgType type, const QMessageLogContext& context, const QString& message) {
        if (message.contains(QStringLiteral("does not support raise()")) ||
            message.contains(QStringLiteral("does not support grabbing")))
            return;
        if (s_previous) s_previous(type, context, message);
    }
    static inline QtMessageHandler s_previous = nullptr;
};

TEST_F(ChartWindowTest, RightClickOnAChartOpensItsMenuAndNoFileDialog) {
    const IgnoreOffscreenPopupChatter quiet;
    MainWindow w(options());
    showWithASweep(w);
    ChartView* view = timeView(w);
    ASSERT_NE(view, nullptr);
    // Where a right click lands: the chart's viewport.
    QWidget* viewport = view->viewport();
    const QPoint at = viewport->rect().center();
    QContextMenuEvent event(QContextMenuEvent::Mouse, at, viewport->mapToGlobal(at));
    QApplication::sendEvent(viewport, &event);
    QApplication::processEvents();
    auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
    ASSERT_NE(menu, nullptr);
    EXPECT_EQ(menu->objectName(), QStringLiteral("chartContextMenu"));
    for (QWidget* top : QApplication::topLevelWidgets())
        EXPECT_EQ(qobject_cast<QFileDialog*>(top), nullptr);
    menu->close();
}

TEST_F(ChartWindowTest, ARowChosenInTheTableIsRingedOnTheCharts) {
    MainWindow w(options());
    w.store().add(test::fakeSweep());
    w.refreshChartsNow();
    QTableView* table = w.resultsView()->table();
    const QModelIndex row = table->model()->index(2, 0);
    const auto ref = row.data(ResultsModel::PointRefRole).value<PointRef>();
    ASSERT_TRUE(ref.valid());
    table->setCurrentIndex(row); // as a click or the arrow keys do
    EXPECT_EQ(timeView(w)->highlightedPoint(), ref);
}

TEST_F(ChartWindowTest, CopyImagePutsTheChartOnTheClipboard) {
    const IgnoreOffscreenPopupChatter quiet;
    MainWindow w(options());
    showWithASweep(w);
    ChartView* view = timeView(w);
    QGuiApplication::clipboard()->clear();
    const auto menu = view->makeContextMenu();
    for (QAction* action : menu->actions())
        if (action->text() == QStringLiteral("Copy image")) action->trigger();
    const QImage copied = QGuiApplication::clipboard()->image();
    ASSERT_FALSE(copied.isNull());
    EXPECT_EQ(copied.size(), view->grab().toImage().size());
}

TEST_F(ChartWindowTest, TheTableFilterFiltersTheCharts) {
    MainWindow w(options());
    w.store().add(test::fakeSweep());
    w.refreshChartsNow();
    ASSERT_EQ(timeView(w)->chartData().series.size(), 2u);
    auto* filter = w.resultsView()->findChild<QLineEdit*>(QStringLiteral("resultsFilter"));
    ASSERT_NE(filter, nullptr);
    filter->setText(QStringLiteral("slow-cpu"));
    w.refreshChartsNow();
    const ChartData& d = timeView(w)->chartData();
    ASSERT_EQ(d.series.size(), 1u);
    EXPECT_TRUE(d.series[0].name.contains(QStringLiteral("slow-cpu")));
    filter->clear();
    w.refreshChartsNow();
    EXPECT_EQ(timeView(w)->chartData().series.size(), 2u);
}

// "Run takes about 1:05 here ..." in seconds; -1 when the text holds no duration.
double estimatedSeconds(const QString& text) {
    const QRegularExpressionMatch m =
        QRegularExpression(QStringLiteral("about (\\d+):(\\d\\d)(?::(\\d\\d))? here")).match(text);
    if (!m.hasMatch()) return -1;
    if (m.captured(3).isEmpty()) return m.captured(1).toDouble() * 60 + m.captured(2).toDouble();
    return m.captured(1).toDouble() * 3600 + m.captured(2).toDouble() * 60 + m.captured(3).toDouble();
}

TEST_F(ChartWindowTest, TheEstimateBeforeRunFollowsThePlan) {
    MainWindow w(options());
    SweepPlan plan = w.configPanel()->plan();
    plan.backends = {"cpu-reference"};
    plan.modes = {Mode::Inference};
    plan.batches = {1};
    plan.seqLens = {10};
    w.configPanel()->setPlan(plan);
    const double small = estimatedSeconds(w.progressView()->text());
    ASSERT_GE(small, 0) << w.progressView()->text().toStdString();
    // 64 times the sequences, 10 times the steps, training too: far more work.
    plan.batches = {64};
    plan.seqLens = {100};
    plan.modes = {Mode::Inference, Mode::Training};
    w.configPanel()->setPlan(plan);
    const double large = estimatedSeconds(w.progressView()->text());
    EXPECT_GT(large, small) << w.progressView()->text().toStdString();
    EXPECT_GT(large, 10 * std::max(small, 1.0)) << w.progressView()->text().toStdString();
}

TEST_F(ChartWindowTest, ALoadedBusyResultShowsTheBannerAndRunShowsAnEstimateFirst) {
    MainWindow w(options());
    EXPECT_TRUE(w.busyBanner()->isHidden());
    EXPECT_TRUE(w.progressView()->text().contains(QStringLiteral("Run takes about")));
    const QString path = dir.filePath(QStringLiteral("busy.json"));
    saveResultJson(path.toStdString(), busyResult());
    ASSERT_EQ(w.openFiles({path}, false), 1);
    EXPECT_FALSE(w.busyBanner()->isHidden());
}

TEST_F(ChartWindowTest, TheBusyWarningStaysBesideAStatusMessageNotUnderIt) {
    MainWindow w(options());
    w.resize(1366, 768);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    SweepResult busy = busyResult();
    busy.label = std::string(300, 'n'); // a long name: the warning stays short
    const QString path = dir.filePath(QStringLiteral("busy.json"));
    saveResultJson(path.toStdString(), busy);
    ASSERT_EQ(w.openFiles({path}, false), 1);
    w.statusBar()->showMessage(QStringLiteral("Selected cpu-onednn train B=64 T=100 — its phases and "
                                              "sub-steps are in the Breakdown tab"));
    QCoreApplication::processEvents();
    BusyBanner* banner = w.busyBanner();
    EXPECT_TRUE(banner->isVisible()) << "a message hid the warning";
    EXPECT_LE(banner->fontMetrics().horizontalAdvance(banner->text()), BusyBanner::kMaxTextWidth);
    EXPECT_TRUE(banner->toolTip().contains(QStringLiteral("stress"))); // the whole warning
    // Beside the host line, in the status bar's permanent area on the right; a message is drawn
    // left of that area only.
    const auto* host = w.statusBar()->findChild<QLabel*>(QStringLiteral("hostStatus"));
    ASSERT_NE(host, nullptr);
    EXPECT_LE(banner->geometry().right(), host->geometry().left());
    EXPECT_GE(banner->geometry().left(), w.statusBar()->width() / 4);
}

// The window's own work must not disturb what a sweep measures, so points arriving
// every few milliseconds redraw the charts at most every 250 ms (kRefreshMs), not once per point.
TEST_F(ChartWindowTest, PointsArrivingFastRedrawTheChartsAtMostFourTimesASecond) {
    MainWindow w(options());
    w.resize(1200, 800);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    SweepResult running = test::fakeSweep();
    running.plan.batches.clear();
    for (int b = 1; b <= 60; ++b)
        running.plan.batches.push_back(b);
    running.plan.seqLens = {10};
    running.plan.backends = {"slow-cpu"};
    running.points.clear();
    running.complete = false;
    w.store().add(running);
    w.refreshChartsNow();
    const auto shownSamples = [&w] {
        const ChartData& d = timeView(w)->chartData();
        return d.series.empty() ? std::size_t(0) : d.series.front().samples.size();
    };
    QElapsedTimer clock;
    clock.start();
    int redraws = 0;
    std::size_t seen = shownSamples();
    for (int b = 1; b <= 60; ++b) {
        w.store().appendPoint(0, test::okPoint("slow-cpu", Mode::Inference, b, 10, 1.0 * b));
        QTest::qWait(10); // the event loop runs between points, as during a sweep
        if (const std::size_t now = shownSamples(); now != seen) {
            ++redraws;
            seen = now;
        }
    }
    const double seconds = double(clock.elapsed()) / 1000.0;
    EXPECT_GE(redraws, 1) << "the chart never showed the points";
    // Every redraw waits for the 250 ms timer: at most one per started quarter second, plus one.
    EXPECT_LE(redraws, int(seconds / 0.25) + 2) << redraws << " redraws in " << seconds << " s for 60 points";
    QTest::qWait(400);
    EXPECT_EQ(shownSamples(), 60u) << "the last points are drawn once the timer fires";
}

TEST(SweepProgressCpu, TheWindowsCpuShareIsInTheProgressTooltip) {
    SweepProgressView view;
    view.begin();
    SweepProgress p;
    p.total = 4;
    view.update(p);
    EXPECT_GE(view.guiCpuShare(), 0.0);
    EXPECT_TRUE(view.bar()->toolTip().contains(QStringLiteral("of one core")));
}

} // namespace
} // namespace rnnprof::gui
