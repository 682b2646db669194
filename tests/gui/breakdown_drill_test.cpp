// The Breakdown tab as a drill-down: phase bars on a linear or log axis or as shares of
// each bar, labels QtCharts need not cut (full names on hover), the GPU kernels of a traced point as
// a sortable table, the GPU's busy time as a sentence and a time line with a lane per stream.
#include "gui/breakdown_drill.h"
#include "gui/charts/chart_page.h"
#include "gui/charts/chart_view.h"
#include "gui/fake_results.h"
#include "gui/models/chart_breakdown.h"
#include "gui/models/gpu_timeline.h"
#include "gui/models/kernel_table_model.h"
#include "gui/models/result_store.h"
#include "gui/timeline_view.h"

#include <QBarCategoryAxis>
#include <QChart>
#include <QComboBox>
#include <QLabel>
#include <QLogValueAxis>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QValueAxis>

#include <gtest/gtest.h>

namespace rnnprof::gui {
namespace {

// fakeSweep() plus a training point of slow-cpu at B=16 T=10 with phases 20 / 25 / 5 ms (okPoint
// splits 50 ms as 40 / 50 / 10 %), selected.
std::vector<SweepResult> withSelectedTrainingPoint(ChartSelection& s) {
    SweepResult r = test::fakeSweep();
    r.points.push_back(test::okPoint("slow-cpu", Mode::Training, 16, 10, 50.0));
    s.selected = {0, static_cast<int>(r.points.size()) - 1};
    return {r};
}

// A traced GPU point: three kernels with hand-picked totals (not in total order), two streams.
PointResult tracedGpuPoint() {
    PointResult p = test::okPoint("fast-gpu", Mode::Inference, 16, 10, 0.852);
    p.gpu.emplace();
    GpuProfile& g = *p.gpu;
    g.traced = true;
    g.gpuBusyUs = 91.0;
    g.wallUs = 852.0;
    g.kernels = {{"elemWiseRNNcell<float>", Phase::Forward, 20, 37.5, 1.875, 1.8, 1.9, 0.412},
                 {"gemvx::kernel<int, int, float>", Phase::Forward, 20, 50.0, 2.5, 2.4, 2.6, 0.549},
                 {"sm80_xmma_gemm_f32f32", Phase::Forward, 1, 3.5, 3.5, 3.5, 3.5, 0.038}};
    p.trace = {{"forward", "phase", 0.0, 800.0, 0},
               {"cudnnRNNForward", "step", 10.0, 780.0, 0},
               {"sm80_xmma_gemm_f32f32", "kernel", 40.0, 3.5, 8},
               {"gemvx::kernel<int, int, float>", "kernel", 60.0, 2.5, 8},
               {"elemWiseRNNcell<float>", "kernel", 70.0, 1.9, 16}};
    return p;
}

TEST(PhaseBars, TheLogScaleSwitchPutsTheValueAxisOnALogScale) {
    ResultStore store;
    store.setResults({test::fakeSweep()});
    const ChartPageSpec* spec = nullptr;
    for (const ChartPageSpec& s : chartCatalog())
        if (s.id == QStringLiteral("breakdown")) spec = &s;
    ASSERT_NE(spec, nullptr);
    ChartPage page(*spec, store);
    QComboBox* scale = page.selector(Selector::PhaseScale);
    ASSERT_NE(scale, nullptr);
    const ChartView* phases = page.views().front();
    EXPECT_TRUE(phases->chart()->axes(Qt::Horizontal).front()->inherits("QValueAxis"));
    EXPECT_FALSE(phases->chartData().logY);

    scale->setCurrentText(phaseScaleLabel(PhaseScale::Log));
    EXPECT_EQ(page.selection().phaseScale, PhaseScale::Log);
    ASSERT_FALSE(phases->chart()->axes(Qt::Horizontal).isEmpty());
    EXPECT_TRUE(phases->chart()->axes(Qt::Horizontal).front()->inherits("QLogValueAxis"));
    EXPECT_TRUE(phases->chartData().logY);

    scale->setCurrentText(phaseScaleLabel(PhaseScale::Linear));
    EXPECT_TRUE(phases->chart()->axes(Qt::Horizontal).front()->inherits("QValueAxis"));
}

TEST(PhaseBars, PercentPerBarMakesEveryBarSumTo100AndKeepsThePhaseShares) {
    ChartSelection s;
    s.seqLen = 10;
    s.batch = 16;
    s.phaseScale = PhaseScale::PercentOfBar;
    const auto results = withSelectedTrainingPoint(s);
    const ChartData d = phaseBreakdown(results, s);
    ASSERT_EQ(d.categories.size(), 3u); // slow-cpu infer, slow-cpu train, fast-gpu infer
    for (std::size_t c = 0; c < d.categories.size(); ++c) {
        double sum = 0.0;
        for (const BarSet& set : d.barSets)
            sum += set.values[c];
        EXPECT_NEAR(sum, 100.0, 1e-9) << d.categories[c].toStdString();
    }
    // The selected training bar: 20 / 25 / 5 ms of 50 ms.
    std::size_t train = d.categories.size();
    for (std::size_t c = 0; c < d.categories.size(); ++c)
        if (d.categories[c].contains(QStringLiteral("train"))) train = c;
    ASSERT_LT(train, d.categories.size());
    ASSERT_EQ(d.barSets.size(), 3u);
    EXPECT_NEAR(d.barSets[0].values[train], 40.0, 1e-9);
    EXPECT_NEAR(d.barSets[1].values[train], 50.0, 1e-9);
    EXPECT_NEAR(d.barSets[2].values[train], 10.0, 1e-9);
    EXPECT_TRUE(d.yTitle.contains(QLatin1Char('%')));
}

TEST(PhaseBars, SeveralResultsAreToldApartByAShortTagThatANoteNames) {
    // Two results with long names, as a sweep and a reference file have: the bar labels would be
    // cut to "h…r…n train host" if they carried the names, so they carry "[1]" / "[2]".
    ChartSelection s;
    s.seqLen = 10;
    s.batch = 16;
    SweepResult mine = test::fakeSweep();
    mine.label = "workstation-with-a-long-host-name (this sweep)";
    SweepResult other = test::fakeSweep();
    other.label = "h100-quick-start.json (reference host dgx-h100-node-17)";
    const ChartData d = phaseBreakdown({mine, other}, s);
    ASSERT_EQ(d.categories.size(), 4u); // slow-cpu and fast-gpu infer of each result
    int first = 0, second = 0;
    for (std::size_t c = 0; c < d.categories.size(); ++c) {
        const QString& label = d.categories[c];
        EXPECT_FALSE(label.contains(QChar(0x2026))) << "elided: " << label.toStdString();
        EXPECT_LE(label.size(), kBreakdownLabelChars);
        const QString tip = d.barSets[0].tooltips[c];
        if (label.startsWith(QStringLiteral("[1] "))) {
            ++first;
            EXPECT_TRUE(tip.contains(QString::fromStdString(mine.label))) << tip.toStdString();
        } else if (label.startsWith(QStringLiteral("[2] "))) {
            ++second;
            EXPECT_TRUE(tip.contains(QString::fromStdString(other.label))) << tip.toStdString();
        } else {
            ADD_FAILURE() << "no result tag: " << label.toStdString();
        }
    }
    EXPECT_EQ(first, 2);
    EXPECT_EQ(second, 2);
    EXPECT_TRUE(d.notes.contains(QStringLiteral("[1] = ") + QString::fromStdString(mine.label)));
    EXPECT_TRUE(d.notes.contains(QStringLiteral("[2] = ") + QString::fromStdString(other.label)));
    // One result: no tag, no note.
    const ChartData one = phaseBreakdown({mine}, s);
    for (const QString& label : one.categories)
        EXPECT_FALSE(label.startsWith(QLatin1Char('['))) << label.toStdString();
}

TEST(PhaseBars, LabelsUnderTheCapAreWholeAndEveryTooltipStartsWithTheFullName) {
    ChartSelection s;
    s.seqLen = 10;
    s.batch = 16;
    SweepResult r = test::fakeSweep();
    const std::string longId = "gpu-cudnn-with-a-backend-name-far-longer-than-any-bar-label";
    acceptBackendIds({longId});
    r.points.push_back(test::okPoint(longId, Mode::Inference, 16, 10, 3.0));
    s.selected = {0, static_cast<int>(r.points.size()) - 1};
    const ChartData d = phaseBreakdown({r}, s);
    ASSERT_EQ(d.categories.size(), 3u);
    const QString full = QString::fromStdString(longId) + QStringLiteral(" infer");
    bool sawLong = false;
    for (std::size_t c = 0; c < d.categories.size(); ++c) {
        const QString& label = d.categories[c];
        EXPECT_LE(label.size(), kBreakdownLabelChars);
        const QString tip = d.barSets[0].tooltips[c];
        if (label.contains(QStringLiteral("name-far")))
            ADD_FAILURE() << "not elided: " << label.toStdString();
        if (label.contains(QChar(0x2026))) {
            sawLong = true;
            EXPECT_TRUE(tip.startsWith(full)) << tip.toStdString();
            EXPECT_TRUE(label.startsWith(QStringLiteral("gpu-cudnn"))) << "elided in the middle";
            EXPECT_TRUE(label.endsWith(QStringLiteral("infer ◀"))) << "elided in the middle";
        } else {
            EXPECT_FALSE(label.contains(QStringLiteral("...")));
            EXPECT_TRUE(tip.startsWith(label)) << tip.toStdString();
        }
    }
    EXPECT_TRUE(sawLong);
    // Kernel names too: the top-kernels chart elides in the middle, the tooltip has the whole name.
    SweepResult g = test::fakeSweep();
    PointResult p = tracedGpuPoint();
    p.gpu->kernels[0].name = "void cudnn::detail::elemWiseRNNcell<float, float, float, (cudnnRNNMode_t)2>";
    g.points.push_back(p);
    ChartSelection k;
    k.selected = {0, static_cast<int>(g.points.size()) - 1};
    const ChartData top = topSubsteps({g}, k);
    bool sawKernel = false;
    for (std::size_t c = 0; c < top.categories.size(); ++c) {
        EXPECT_LE(top.categories[c].size(), kBreakdownLabelChars);
        if (top.barSets[0].tooltips[c].contains(QString::fromStdString(p.gpu->kernels[0].name))) {
            sawKernel = true;
            EXPECT_TRUE(top.categories[c].startsWith(QStringLiteral("void cudnn")));
            EXPECT_TRUE(top.categories[c].endsWith(QStringLiteral("2>")));
        }
    }
    EXPECT_TRUE(sawKernel);
}

TEST(KernelTable, HoldsTheTracedKernelsAndSortsByTotalTime) {
    const PointResult p = tracedGpuPoint();
    BreakdownDrill drill;
    SweepResult r = test::fakeSweep();
    r.points.push_back(p);
    drill.setPoint({r}, {0, static_cast<int>(r.points.size()) - 1});
    KernelTableModel* model = drill.kernelModel();
    ASSERT_EQ(model->rowCount(), 3);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(model->index(i, KernelTableModel::Name).data().toString().toStdString(),
                  p.gpu->kernels[std::size_t(i)].name);
        EXPECT_EQ(model->index(i, KernelTableModel::Calls).data().toInt(),
                  p.gpu->kernels[std::size_t(i)].count);
    }
    EXPECT_EQ(model->index(1, KernelTableModel::Total).data().toString(), QStringLiteral("50.0 µs"));
    EXPECT_EQ(model->index(1, KernelTableModel::Share).data().toString(), QStringLiteral("54.9 %"));
    // The mean is the total over the calls: 50.0 us / 20 = 2.5 us; the phase is the kernel's.
    EXPECT_EQ(model->index(1, KernelTableModel::Mean).data().toString(), QStringLiteral("2.5 µs"));
    EXPECT_EQ(model->index(1, KernelTableModel::Phase).data().toString(), QStringLiteral("forward"));

    // Totals 37.5, 50.0, 3.5 us: largest first by default, then ascending on request.
    QTableView* table = drill.kernelTable();
    auto nameAt = [&](int row) {
        return table->model()->index(row, KernelTableModel::Name).data().toString();
    };
    EXPECT_EQ(nameAt(0), QStringLiteral("gemvx::kernel<int, int, float>"));
    EXPECT_EQ(nameAt(1), QStringLiteral("elemWiseRNNcell<float>"));
    EXPECT_EQ(nameAt(2), QStringLiteral("sm80_xmma_gemm_f32f32"));
    table->sortByColumn(KernelTableModel::Total, Qt::AscendingOrder);
    EXPECT_EQ(nameAt(0), QStringLiteral("sm80_xmma_gemm_f32f32"));
    EXPECT_EQ(nameAt(1), QStringLiteral("elemWiseRNNcell<float>"));
    EXPECT_EQ(nameAt(2), QStringLiteral("gemvx::kernel<int, int, float>"));
    // Any column sorts: by calls (1, 20, 20) and by mean time (3.5, 2.5, 1.875 us, largest first).
    table->sortByColumn(KernelTableModel::Calls, Qt::AscendingOrder);
    EXPECT_EQ(nameAt(0), QStringLiteral("sm80_xmma_gemm_f32f32"));
    table->sortByColumn(KernelTableModel::Mean, Qt::DescendingOrder);
    EXPECT_EQ(nameAt(0), QStringLiteral("sm80_xmma_gemm_f32f32"));
    EXPECT_EQ(nameAt(1), QStringLiteral("gemvx::kernel<int, int, float>"));
    EXPECT_EQ(nameAt(2), QStringLiteral("elemWiseRNNcell<float>"));
    table->sortByColumn(KernelTableModel::Total, Qt::AscendingOrder);
    EXPECT_TRUE(table->model()
                    ->index(0, KernelTableModel::Name)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("sm80_xmma_gemm_f32f32")));
}

TEST(GpuBusy, TheFigureSaysBusyOfIterationAndTheIdleShare) {
    GpuProfile g;
    g.traced = true;
    g.gpuBusyUs = 91.0;
    g.wallUs = 852.0;
    // idle = 1 - 91 / 852 = 0.8932 -> 89 %
    EXPECT_NEAR(gpuIdlePercent(g), 89.319, 1e-3);
    EXPECT_EQ(gpuBusyText(g), QStringLiteral("GPU busy 91.0 µs of 852 µs per iteration — idle 89 %"));
    g.traced = false;
    EXPECT_TRUE(gpuBusyText(g).isEmpty());

    SweepResult r = test::fakeSweep();
    r.points.push_back(tracedGpuPoint());
    BreakdownDrill drill;
    drill.setPoint({r}, {0, static_cast<int>(r.points.size()) - 1});
    EXPECT_TRUE(drill.busyLabel()->text().contains(QStringLiteral("idle 89 %")));
    drill.setPoint({r}, {0, 0}); // a CPU point: no figure, no kernels, no time line
    EXPECT_TRUE(drill.busyLabel()->text().isEmpty());
    EXPECT_EQ(drill.kernelModel()->rowCount(), 0);
}

TEST(Timeline, HasTheHostLaneThenOneLanePerStream) {
    const PointResult p = tracedGpuPoint();
    const std::vector<TimelineLane> lanes = timelineLanes(p.trace);
    ASSERT_EQ(lanes.size(), 3u); // host + streams 7 and 15
    EXPECT_EQ(lanes[0].track, 0);
    EXPECT_EQ(lanes[0].name, QStringLiteral("engine thread"));
    EXPECT_EQ(lanes[0].slices.size(), 2u);
    EXPECT_EQ(lanes[1].name, QStringLiteral("GPU stream 7"));
    EXPECT_EQ(lanes[1].slices.size(), 2u);
    EXPECT_EQ(lanes[1].slices[0].name, "sm80_xmma_gemm_f32f32"); // in start order
    EXPECT_EQ(lanes[2].name, QStringLiteral("GPU stream 15"));

    // A slice a file got wrong is left out rather than drawn anywhere.
    std::vector<TraceSlice> hostile = p.trace;
    hostile.push_back({"bad", "kernel", std::nan(""), 1.0, 3});
    hostile.push_back({"bad", "kernel", 1.0, 1.0, -4});
    EXPECT_EQ(timelineLanes(hostile).size(), 3u);

    TimelineView view;
    view.setTrace(p.trace);
    EXPECT_EQ(view.lanes().size(), 3u);
    EXPECT_GE(view.sizeHint().height(), 3 * 20);
}

} // namespace
} // namespace rnnprof::gui
