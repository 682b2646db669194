// Predicted series in the charts: a measured CPU result against predicted GPU times
// of the same model. The predicted series exist, are dashed, carry their band and the label
// "predicted from <file> (<GPU>) — not measured"; the crossover marker says "predicted"; an
// unreliable fit says so in the notes; the renderer draws the band and a dashed line.
#include "gui/charts/chart_renderer.h"
#include "gui/charts/chart_theme.h"
#include "gui/fake_results.h"
#include "gui/models/chart_speedup.h"
#include "gui/models/chart_time.h"
#include "gui/models/result_store.h"
#include "gui/results_model.h"

#include <QAreaSeries>
#include <QChart>
#include <QLineSeries>

#include <gtest/gtest.h>

namespace rnnprof::gui {
namespace {

const QString kLabel =
    QStringLiteral("predicted from h100-quick-start.json (NVIDIA H100 80GB HBM3) \u2014 not measured");

// The CPU: 1 ms per sequence. Batch {1, 4, 16, 64} at T=10.
SweepResult cpuResult() {
    SweepResult r;
    r.host.hostname = "laptop";
    r.plan.batches = {1, 4, 16, 64};
    r.plan.seqLens = {10};
    r.plan.backends = {"cpu-blas"};
    for (int b : r.plan.batches)
        r.points.push_back(test::okPoint("cpu-blas", Mode::Inference, b, 10, 1.0 * b));
    return r;
}

// Predicted GPU times of the same model and grid, 8 ms + 0.1 ms per sequence, band -10 % / +20 %:
// equal to the CPU at B = 8 / 0.9 = 8.9, so the crossover lies between the measured 4 and 16.
SweepResult predictedResult(bool unreliable) {
    SweepResult r = cpuResult();
    r.host.hostname = "gpu-box";
    r.plan.backends = {"gpu-cudnn"};
    r.points.clear();
    for (int b : r.plan.batches) {
        PointResult p;
        p.backend = "gpu-cudnn";
        p.shape = {b, 10};
        p.status = PointStatus::Predicted;
        p.iteration.median = 8.0 + 0.1 * b;
        Prediction pr;
        pr.lowMs = p.iteration.median * 0.9;
        pr.highMs = p.iteration.median * 1.2;
        pr.from = "h100-quick-start.json";
        pr.gpu = "NVIDIA H100 80GB HBM3";
        pr.fittedPoints = 8;
        pr.looMedianError = 0.15;
        pr.looWithin30 = unreliable ? 0.6 : 0.9;
        pr.unreliable = unreliable;
        pr.band = "10-90 % of the left-out-model errors, widened x1.50 for the distance to the nearest "
                  "measured model";
        p.prediction = pr;
        p.reason = predictedFromText(pr);
        r.points.push_back(p);
    }
    return r;
}

// The same, fitted on three files.
SweepResult predictedFromThreeFiles() {
    SweepResult r = predictedResult(false);
    for (PointResult& p : r.points) {
        p.prediction->from = "h100-bilstm-relu.json, h100-cpu-gpu-crossover.json, h100-quick-start.json";
        p.reason = predictedFromText(*p.prediction);
    }
    return r;
}

ChartSelection cpuAgainstPredicted() {
    ChartSelection s;
    s.seqLen = 10;
    s.batch = 1;
    s.baseline = QStringLiteral("cpu-blas");
    s.baselineResult = 0;
    s.challenger = QStringLiteral("gpu-cudnn");
    s.challengerResult = 1;
    s.backend = QStringLiteral("cpu-blas");
    return s;
}

TEST(PredictedCharts, TimeVsBatchHasADashedLabelledPredictedSeriesWithItsBand) {
    const ChartData d = timeVsBatch({cpuResult(), predictedResult(false)}, cpuAgainstPredicted());
    const ChartSeries* predicted = nullptr;
    int measured = 0;
    for (const auto& s : d.series) {
        if (s.predicted)
            predicted = &s;
        else
            ++measured;
    }
    EXPECT_EQ(measured, 1) << "the CPU's measured series";
    ASSERT_NE(predicted, nullptr);
    EXPECT_TRUE(predicted->dashed);
    EXPECT_TRUE(predicted->name.contains(kLabel)) << predicted->name.toStdString();
    ASSERT_EQ(predicted->samples.size(), 4u);
    for (const ChartSample& s : predicted->samples) {
        EXPECT_DOUBLE_EQ(s.y, 8.0 + 0.1 * s.x);
        EXPECT_DOUBLE_EQ(s.low, s.y * 0.9);
        EXPECT_DOUBLE_EQ(s.high, s.y * 1.2);
        EXPECT_TRUE(s.tooltip.contains(QStringLiteral("not measured"))) << s.tooltip.toStdString();
        EXPECT_TRUE(
            s.tooltip.contains(QStringLiteral("band: 10-90 % of the left-out-model errors, widened x1.50")))
            << "where the band comes from: " << s.tooltip.toStdString();
    }
    const QString notes = d.notes.join(QLatin1Char('\n'));
    EXPECT_TRUE(notes.contains(QStringLiteral("fitted on 8 points")));
    EXPECT_TRUE(notes.contains(QStringLiteral("; band: 10-90 % of the left-out-model errors")))
        << notes.toStdString();
    EXPECT_FALSE(notes.contains(QStringLiteral("UNRELIABLE")));
}

TEST(PredictedCharts, SpeedupAgainstPredictedTimesIsDashedLabelledAndItsCrossoverSaysPredicted) {
    const ChartData d = speedupVsBatch({cpuResult(), predictedResult(true)}, cpuAgainstPredicted());
    ASSERT_FALSE(d.series.empty());
    const ChartSeries& speedup = d.series.front();
    EXPECT_TRUE(speedup.predicted);
    EXPECT_TRUE(speedup.dashed);
    EXPECT_TRUE(speedup.name.contains(kLabel)) << speedup.name.toStdString();
    ASSERT_EQ(speedup.samples.size(), 4u);
    // B=1: 1 ms on the CPU over 8.1 ms predicted; the band divides by the band's ends.
    EXPECT_NEAR(speedup.samples[0].y, 1.0 / 8.1, 1e-12);
    EXPECT_NEAR(speedup.samples[0].low, 1.0 / (8.1 * 1.2), 1e-12);
    EXPECT_NEAR(speedup.samples[0].high, 1.0 / (8.1 * 0.9), 1e-12);
    ASSERT_EQ(d.markers.size(), 1u);
    EXPECT_TRUE(d.markers[0].label.startsWith(QStringLiteral("predicted crossover")))
        << d.markers[0].label.toStdString();
    EXPECT_GT(d.markers[0].x, 4.0);
    EXPECT_LT(d.markers[0].x, 16.0);
    EXPECT_TRUE(d.notes.join(QLatin1Char('\n')).contains(QStringLiteral("UNRELIABLE")))
        << d.notes.join(QLatin1Char('\n')).toStdString();
    const ChartData crossover =
        crossoverVsSeqLen({cpuResult(), predictedResult(true)}, cpuAgainstPredicted());
    ASSERT_FALSE(crossover.series.empty());
    EXPECT_TRUE(crossover.series.front().predicted);
    EXPECT_TRUE(crossover.series.front().name.startsWith(QStringLiteral("predicted crossover")));
}

TEST(PredictedCharts, TheRendererDrawsTheBandAndADashedLabelledLine) {
    const ChartData d = timeVsBatch({cpuResult(), predictedResult(false)}, cpuAgainstPredicted());
    QChart chart;
    (void)renderChart(chart, d, lightChartStyle());
    int areas = 0;
    const QLineSeries* line = nullptr;
    for (QAbstractSeries* s : chart.series()) {
        if (qobject_cast<QAreaSeries*>(s)) ++areas;
        if (auto* l = qobject_cast<QLineSeries*>(s); l && l->name().contains(kLabel)) line = l;
    }
    EXPECT_EQ(areas, 1) << "one band, for the one predicted series";
    ASSERT_NE(line, nullptr);
    EXPECT_EQ(line->pen().style(), Qt::DashLine);
    EXPECT_EQ(line->count(), 4);
}

// The results table shows a predicted row as such: status "predicted", the time, the band and the
// label, greyed like every row that is not a measurement, and its tooltip says "not measured".
TEST(PredictedCharts, TheResultsTableShowsPredictedRowsWithTheirBandAndLabel) {
    ResultStore store;
    ResultsModel model(store);
    store.setResults({predictedResult(false)});
    ASSERT_EQ(model.rowCount(), 4);
    auto cell = [&](int row, const char* column) {
        for (int c = 0; c < model.columnCount(); ++c)
            if (model.headerData(c, Qt::Horizontal).toString() == QLatin1String(column))
                return model.index(row, c).data().toString();
        return QStringLiteral("<no column>");
    };
    EXPECT_EQ(cell(0, "status"), QStringLiteral("predicted"));
    EXPECT_EQ(cell(0, "median_ms"), QStringLiteral("8.1"));
    EXPECT_EQ(cell(0, "predicted_from"), kLabel);
    EXPECT_FALSE(cell(0, "predicted_low_ms").isEmpty());
    EXPECT_TRUE(cell(0, "p10_ms").isEmpty()) << "nothing a measurement gives";
    EXPECT_TRUE(model.index(0, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("not measured")));
    EXPECT_TRUE(model.index(0, 1).data(Qt::ForegroundRole).isValid()) << "greyed as not measured";
}

TEST(PredictedCharts, ALegendNamesTheFirstOfSeveralFittedFilesAndCountsTheRestTheNoteNamesAll) {
    for (const ChartData& d :
         {timeVsBatch({cpuResult(), predictedFromThreeFiles()}, cpuAgainstPredicted()),
          speedupVsBatch({cpuResult(), predictedFromThreeFiles()}, cpuAgainstPredicted())}) {
        bool sawPredicted = false;
        for (const ChartSeries& s : d.series) {
            if (!s.predicted) continue;
            sawPredicted = true;
            EXPECT_TRUE(
                s.name.contains(QStringLiteral("predicted from h100-bilstm-relu.json and 2 more (NVIDIA H100 "
                                               "80GB HBM3) \u2014 not measured")))
                << s.name.toStdString();
            EXPECT_FALSE(s.name.contains(QStringLiteral("crossover.json"))) << s.name.toStdString();
        }
        EXPECT_TRUE(sawPredicted) << d.title.toStdString();
        const QString notes = d.notes.join(QLatin1Char('\n'));
        for (const char* file :
             {"h100-bilstm-relu.json", "h100-cpu-gpu-crossover.json", "h100-quick-start.json"})
            EXPECT_TRUE(notes.contains(QLatin1String(file)))
                << file << " not in the notes of " << d.title.toStdString();
    }
}

} // namespace
} // namespace rnnprof::gui
