// Every chart says what makes its numbers doubtful: a machine busy with other processes, and
// points that were disturbed while measured.
#include "gui/models/chart_catalog.h"

#include <gtest/gtest.h>

namespace rnnprof::gui {
namespace {

SweepResult quietResult() {
    SweepResult r;
    r.label = "laptop.json (laptop)";
    r.host.cpuCores = 2;
    PointResult p;
    p.backend = "cpu-blas";
    p.shape = {1, 20};
    p.iteration.median = 1.0;
    r.points = {p, p};
    return r;
}

TEST(MachineNotes, AQuietResultAddsNothing) {
    EXPECT_TRUE(machineNotes({quietResult()}).isEmpty());
}

TEST(MachineNotes, ABusyMachineAndDisturbedPointsAreNamedPerResult) {
    SweepResult r = quietResult();
    r.host.loadBefore = HostLoad{2.0, 1.0, 0.1, {{"spin", 7, 1.0}}}; // one of two cores, all threads used
    r.points[1].disturbed = true;
    const QStringList notes = machineNotes({quietResult(), r});
    ASSERT_EQ(notes.size(), 2);
    EXPECT_EQ(notes[0],
              QStringLiteral("laptop.json (laptop): busy before the sweep: others kept 1.0 of 2 cores busy"));
    EXPECT_EQ(notes[1],
              QStringLiteral("laptop.json (laptop): 1 disturbed point(s): other processes took their "
                             "CPU while they ran (hollow markers)"));
}

TEST(MachineNotes, APredictionForAnotherModelThanAMeasuredResultIsLabelled) {
    SweepResult predicted = quietResult();
    predicted.label = "h100 (predicted)";
    predicted.plan.config.hiddenSize = 512;
    for (PointResult& p : predicted.points)
        p.status = PointStatus::Predicted;
    const QStringList notes = machineNotes({quietResult(), predicted});
    ASSERT_EQ(notes.size(), 1);
    EXPECT_EQ(notes[0],
              QStringLiteral("h100 (predicted): predicted for another model than laptop.json (laptop) "
                             "(hidden_size 256 vs 512)"));
    predicted.plan.config.hiddenSize = quietResult().plan.config.hiddenSize;
    EXPECT_TRUE(machineNotes({quietResult(), predicted}).isEmpty()) << "the same model: nothing to say";
}

TEST(MachineNotes, EveryChartOfTheCatalogEndsWithThem) {
    SweepResult r = quietResult();
    r.points[0].disturbed = true;
    for (const ChartPageSpec& page : chartCatalog())
        for (const ChartSpec& chart : page.charts) {
            const ChartData d = chart.build({r}, ChartSelection{});
            ASSERT_FALSE(d.notes.isEmpty()) << chart.id.toStdString();
            EXPECT_TRUE(d.notes.back().contains(QStringLiteral("1 disturbed point(s)")))
                << chart.id.toStdString();
        }
}

} // namespace
} // namespace rnnprof::gui
