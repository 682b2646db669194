// The chart reductions: which points each chart receives, in which series, and how values that a
// log axis cannot show are handled. No widgets involved.
#include "gui/charts/chart_renderer.h"
#include "gui/fake_results.h"
#include "gui/models/chart_breakdown.h"
#include "gui/models/chart_memory.h"
#include "gui/models/chart_speedup.h"
#include "gui/models/chart_time.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>

namespace rnnprof::gui {
namespace {

using test::failedPoint;
using test::fakeSweep;
using test::okPoint;

const ChartSeries* findSeries(const ChartData& d, const QString& name) {
    for (const auto& s : d.series)
        if (s.name == name) return &s;
    return nullptr;
}

ChartSelection selectionAt(int seqLen, int batch = 1) {
    ChartSelection s;
    s.seqLen = seqLen;
    s.batch = batch;
    s.baseline = QStringLiteral("slow-cpu");
    s.challenger = QStringLiteral("fast-gpu");
    s.backend = QStringLiteral("slow-cpu");
    return s;
}

TEST(ChartOptions, OfferEveryShapeAndBackendOfTheResults) {
    const ChartOptions o = chartOptions({fakeSweep()});
    EXPECT_EQ(o.seqLens, (std::vector<int>{10, 100}));
    EXPECT_EQ(o.batches, (std::vector<int>{1, 4, 16, 64}));
    EXPECT_EQ(o.backends, (QStringList{QStringLiteral("fast-gpu"), QStringLiteral("slow-cpu")}));
    ChartSelection s;
    fitSelection(s, o);
    EXPECT_EQ(s.seqLen, 10);
    EXPECT_EQ(s.batch, 1);
    EXPECT_NE(s.baseline, s.challenger);
}

TEST(TimeVsBatch, OneSeriesPerBackendAndModeWithTheOkPointsOfTheSequenceLength) {
    SweepResult r = fakeSweep();
    r.points.push_back(failedPoint("slow-cpu", Mode::Inference, 256, 100, PointStatus::Failed, "boom"));
    r.points.push_back(okPoint("slow-cpu", Mode::Training, 4, 100, 12.0));
    const ChartData d = timeVsBatch({r}, selectionAt(100));
    ASSERT_EQ(d.series.size(), 3u);
    const ChartSeries* slow = findSeries(d, QStringLiteral("slow-cpu infer"));
    ASSERT_NE(slow, nullptr);
    ASSERT_EQ(slow->samples.size(), 4u); // the failed B=256 point is not drawn
    EXPECT_DOUBLE_EQ(slow->samples[0].x, 1.0);
    EXPECT_DOUBLE_EQ(slow->samples[3].x, 64.0);
    EXPECT_DOUBLE_EQ(slow->samples[3].y, 640.0);
    EXPECT_TRUE(slow->samples[3].tooltip.contains(QStringLiteral("B=64 T=100")));
    const ChartSeries* train = findSeries(d, QStringLiteral("slow-cpu train"));
    ASSERT_NE(train, nullptr);
    EXPECT_TRUE(train->dashed);
    EXPECT_TRUE(d.logX && d.logY);
    EXPECT_EQ(d.droppedNonPositive, 0);
}

TEST(TimeVsBatch, MarksNoisyPointsAndKeepsTheirReference) {
    const std::vector<SweepResult> results{fakeSweep()};
    const ChartData d = timeVsBatch(results, selectionAt(10));
    const ChartSeries* fast = findSeries(d, QStringLiteral("fast-gpu infer"));
    ASSERT_NE(fast, nullptr);
    int noisy = 0;
    for (const auto& s : fast->samples) {
        noisy += s.noisy ? 1 : 0;
        const PointResult& p = results[0].points[std::size_t(s.ref.point)];
        EXPECT_EQ(p.backend, "fast-gpu");
        EXPECT_EQ(double(p.shape.batch), s.x);
        EXPECT_EQ(p.noisy, s.noisy);
    }
    EXPECT_EQ(noisy, 1);
}

TEST(TimeVsBatch, DropsValuesALogAxisCannotShowAndSaysSo) {
    SweepResult r = fakeSweep();
    r.points.push_back(okPoint("zero", Mode::Inference, 2, 10, 0.0));
    r.points.push_back(okPoint("zero", Mode::Inference, 8, 10, std::nan("")));
    r.points.push_back(okPoint("zero", Mode::Inference, 32, 10, 3.0));
    const ChartData d = timeVsBatch({r}, selectionAt(10));
    EXPECT_EQ(d.droppedNonPositive, 2);
    ASSERT_FALSE(d.notes.isEmpty());
    EXPECT_TRUE(d.notes.join(QString()).contains(QStringLiteral("not drawn")));
    const ChartSeries* zero = findSeries(d, QStringLiteral("zero infer"));
    ASSERT_NE(zero, nullptr);
    ASSERT_EQ(zero->samples.size(), 1u);
    EXPECT_DOUBLE_EQ(zero->samples[0].y, 3.0);
    for (const auto& s : d.series)
        for (const auto& p : s.samples)
            EXPECT_GT(p.y, 0.0);
}

TEST(TimeVsBatch, SaysWhyItIsEmpty) {
    const ChartData d = timeVsBatch({}, selectionAt(10));
    EXPECT_TRUE(d.empty());
    EXPECT_TRUE(d.notes.join(QString()).contains(QStringLiteral("Nothing to show")));
}

TEST(TimeVsSeqLen, PlotsSequenceLengthsAtTheChosenBatch) {
    const ChartData d = timeVsSeqLen({fakeSweep()}, selectionAt(10, 4));
    const ChartSeries* slow = findSeries(d, QStringLiteral("slow-cpu infer"));
    ASSERT_NE(slow, nullptr);
    ASSERT_EQ(slow->samples.size(), 2u);
    EXPECT_DOUBLE_EQ(slow->samples[0].x, 10.0);
    EXPECT_DOUBLE_EQ(slow->samples[1].x, 100.0);
    EXPECT_DOUBLE_EQ(slow->samples[1].y, 40.0);
}

TEST(Throughput, PlotsSequencesPerSecond) {
    const ChartData d = throughputVsBatch({fakeSweep()}, selectionAt(10));
    const ChartSeries* slow = findSeries(d, QStringLiteral("slow-cpu infer"));
    ASSERT_NE(slow, nullptr);
    EXPECT_DOUBLE_EQ(slow->samples[1].y, 4 * 1000.0 / 4.0);
}

TEST(Overlay, LabelsSeriesByResult) {
    SweepResult a = fakeSweep("laptop"), b = fakeSweep("server");
    a.label = "laptop.json (laptop)";
    b.label = "server.json (server)";
    const ChartData d = timeVsBatch({a, b}, selectionAt(10));
    EXPECT_EQ(d.series.size(), 4u);
    EXPECT_NE(findSeries(d, QStringLiteral("laptop.json (laptop): slow-cpu infer")), nullptr);
    EXPECT_NE(findSeries(d, QStringLiteral("server.json (server): slow-cpu infer")), nullptr);
}

TEST(Speedup, PlotsBaselineOverChallengerWithTheOneXLineAndTheCrossover) {
    const ChartData d = speedupVsBatch({fakeSweep()}, selectionAt(10));
    ASSERT_EQ(d.series.size(), 2u);
    const ChartSeries& speedup = d.series[0];
    ASSERT_EQ(speedup.samples.size(), 4u);
    EXPECT_NEAR(speedup.samples[0].y, 1.0 / 8.1, 1e-9); // B=1: 1 ms vs 8.1 ms
    EXPECT_NEAR(speedup.samples[3].y, 64.0 / 14.4, 1e-9);
    EXPECT_TRUE(d.series[1].reference);
    EXPECT_DOUBLE_EQ(d.series[1].samples.front().y, 1.0);
    ASSERT_EQ(d.markers.size(), 1u);
    EXPECT_GT(d.markers[0].x, 4.0);
    EXPECT_LT(d.markers[0].x, 16.0);
}

TEST(Speedup, NeedsTwoDifferentBackends) {
    ChartSelection s = selectionAt(10);
    s.challenger = s.baseline;
    const ChartData d = speedupVsBatch({fakeSweep()}, s);
    EXPECT_TRUE(d.empty());
    EXPECT_FALSE(d.notes.isEmpty());
}

TEST(Crossover, OnePointPerSequenceLength) {
    const ChartData d = crossoverVsSeqLen({fakeSweep()}, selectionAt(10));
    ASSERT_EQ(d.series.size(), 1u);
    ASSERT_EQ(d.series[0].samples.size(), 2u);
    EXPECT_DOUBLE_EQ(d.series[0].samples[0].x, 10.0);
    EXPECT_DOUBLE_EQ(d.series[0].samples[1].x, 100.0);
    for (const auto& s : d.series[0].samples) {
        EXPECT_GT(s.y, 4.0);
        EXPECT_LT(s.y, 16.0);
    }
}

// ---- Pairs across result files ----

// fakeSweep's backends renamed, and only `keep` of them kept: a laptop with CPU points only, a
// server with GPU points (and its own CPU points).
SweepResult renamedSweep(const std::string& host, const std::map<std::string, std::string>& keep) {
    SweepResult r = fakeSweep(host);
    r.label = host + ".json (" + host + ")";
    std::vector<PointResult> points;
    for (PointResult p : r.points)
        if (auto it = keep.find(p.backend); it != keep.end()) {
            p.backend = it->second;
            points.push_back(p);
        }
    r.points = points;
    r.plan.backends.clear();
    for (const auto& [from, to] : keep)
        r.plan.backends.push_back(to);
    return r;
}

ChartSelection crossPair(const QString& baseline, int baselineResult, const QString& challenger,
                         int challengerResult) {
    ChartSelection s = selectionAt(10);
    s.baseline = baseline;
    s.baselineResult = baselineResult;
    s.challenger = challenger;
    s.challengerResult = challengerResult;
    return s;
}

TEST(CrossFileSpeedup, PairsTheBaselineOfOneFileWithTheChallengerOfAnother) {
    const std::vector<SweepResult> results{renamedSweep("laptop", {{"slow-cpu", "cpu-onednn"}}),
                                           renamedSweep("server", {{"fast-gpu", "gpu-cudnn"}})};
    const ChartData d =
        speedupVsBatch(results, crossPair(QStringLiteral("cpu-onednn"), 0, QStringLiteral("gpu-cudnn"), 1));
    EXPECT_EQ(d.title, QStringLiteral("Speedup of gpu-cudnn @ server.json (server) over cpu-onednn @ "
                                      "laptop.json (laptop) (T=10)"));
    ASSERT_EQ(d.series.size(), 2u); // inference and the 1x line
    const ChartSeries& speedup = d.series[0];
    EXPECT_EQ(speedup.name, QStringLiteral("infer"));
    ASSERT_EQ(speedup.samples.size(), 4u);
    EXPECT_NEAR(speedup.samples[0].y, 1.0 / 8.1, 1e-9); // B=1: 1 ms on the laptop vs 8.1 ms on the server
    EXPECT_NEAR(speedup.samples[3].y, 64.0 / 14.4, 1e-9);
    // The sample stands for the challenger's point, in the server's file.
    EXPECT_EQ(speedup.samples[0].ref.result, 1);
    EXPECT_EQ(results[1].points[std::size_t(speedup.samples[0].ref.point)].shape, (Shape{1, 10}));
    ASSERT_EQ(d.markers.size(), 1u);
    EXPECT_GT(d.markers[0].x, 4.0);
    EXPECT_LT(d.markers[0].x, 16.0);
    // Both hosts are named.
    EXPECT_TRUE(d.notes.contains(QStringLiteral("baseline: cpu-onednn on laptop (Test CPU, 2 cores); "
                                                "challenger: gpu-cudnn on server (Test CPU, 2 cores)")))
        << d.notes.join(QLatin1Char('\n')).toStdString();
    const ChartData c = crossoverVsSeqLen(
        results, crossPair(QStringLiteral("cpu-onednn"), 0, QStringLiteral("gpu-cudnn"), 1));
    EXPECT_TRUE(
        c.title.contains(QStringLiteral("gpu-cudnn @ server.json (server) over cpu-onednn @ laptop.json")));
    ASSERT_EQ(c.series.size(), 1u);
    EXPECT_EQ(c.series[0].samples.size(), 2u); // T=10 and T=100
    EXPECT_TRUE(c.notes.join(QLatin1Char('\n')).contains(QStringLiteral("gpu-cudnn on server")));
}

TEST(CrossFileSpeedup, DifferentModelsAreNotComparedAndTheNoteSaysWhichFieldsDiffer) {
    std::vector<SweepResult> results{renamedSweep("laptop", {{"slow-cpu", "cpu-onednn"}}),
                                     renamedSweep("server", {{"fast-gpu", "gpu-cudnn"}})};
    results[1].plan.config.hiddenSize = 512;
    results[1].plan.config.layers = 2;
    const ChartData d =
        speedupVsBatch(results, crossPair(QStringLiteral("cpu-onednn"), 0, QStringLiteral("gpu-cudnn"), 1));
    EXPECT_TRUE(d.series.empty());
    EXPECT_TRUE(d.notes.contains(QStringLiteral(
        "not compared: the two results ran different models (hidden_size 256 vs 512, layers 1 vs 2)")))
        << d.notes.join(QLatin1Char('\n')).toStdString();
}

TEST(CrossFileSpeedup, TheDefaultPairIsTheFastestCpuAgainstTheFastestGpuNamingTheWinners) {
    // The laptop measured two CPU backends; the server a CPU and a GPU backend.
    SweepResult laptop = renamedSweep("laptop", {{"slow-cpu", "cpu-blas"}, {"fast-gpu", "cpu-onednn"}});
    const SweepResult server = renamedSweep("server", {{"slow-cpu", "cpu-blas"}, {"fast-gpu", "gpu-cudnn"}});
    const std::vector<SweepResult> results{laptop, server};
    const ChartOptions o = chartOptions(results);
    ChartSelection s;
    fitSelection(s, o);
    EXPECT_EQ(s.baseline, QStringLiteral("fastest-cpu"));
    EXPECT_EQ(s.baselineResult, 0);
    EXPECT_EQ(s.challenger, QStringLiteral("fastest-gpu"));
    EXPECT_EQ(s.challengerResult, 1);
    // What the combo boxes list: inside each file, then each file's own sides.
    QStringList labels;
    for (const PairSideChoice& c : o.sides)
        labels << c.label;
    EXPECT_TRUE(labels.contains(QStringLiteral("fastest-cpu @ laptop.json (laptop)")));
    EXPECT_TRUE(labels.contains(QStringLiteral("gpu-cudnn @ server.json (server)")));
    EXPECT_TRUE(labels.contains(QStringLiteral("cpu-blas @ each file")));
    EXPECT_FALSE(labels.contains(QStringLiteral("fastest-gpu @ laptop.json (laptop)")));
    EXPECT_EQ(o.sides[std::size_t(sideIndex(s, o, true))].label,
              QStringLiteral("fastest-gpu @ server.json (server)"));

    s.seqLen = 10;
    const ChartData d = speedupVsBatch(results, s);
    ASSERT_FALSE(d.series.empty());
    const ChartSeries& speedup = d.series[0];
    ASSERT_EQ(speedup.samples.size(), 4u);
    // Laptop at B=1: cpu-blas 1 ms beats cpu-onednn 8.1 ms; at B=64: cpu-onednn 14.4 ms beats 64 ms.
    EXPECT_NEAR(speedup.samples[0].y, 1.0 / 8.1, 1e-9);
    EXPECT_NEAR(speedup.samples[3].y, 14.4 / 14.4, 1e-9);
    EXPECT_TRUE(speedup.samples[0].tooltip.contains(QStringLiteral("(cpu-blas won)")))
        << speedup.samples[0].tooltip.toStdString();
    EXPECT_TRUE(speedup.samples[3].tooltip.contains(QStringLiteral("(cpu-onednn won)")));
    EXPECT_TRUE(speedup.samples[3].tooltip.contains(QStringLiteral("(gpu-cudnn won)")));
}

TEST(CrossFileSpeedup, OneFileWithCpuAndGpuBackendsDefaultsToItsFastestOfEachKind) {
    const SweepResult server = renamedSweep("server", {{"slow-cpu", "cpu-blas"}, {"fast-gpu", "gpu-cudnn"}});
    const ChartOptions o = chartOptions({server});
    ChartSelection s;
    fitSelection(s, o);
    EXPECT_EQ(s.baseline, QStringLiteral("fastest-cpu"));
    EXPECT_EQ(s.challenger, QStringLiteral("fastest-gpu"));
    EXPECT_EQ(s.baselineResult, -1);
    EXPECT_EQ(s.challengerResult, -1);
    ASSERT_EQ(o.sides.size(), 4u);
    EXPECT_EQ(o.sides[0].label, QStringLiteral("cpu-blas"));
    EXPECT_EQ(o.sides[3].label, QStringLiteral("fastest-gpu"));
}

TEST(Memory, OneSeriesPerNonZeroCategory) {
    const ChartData d = memoryVsBatch({fakeSweep()}, selectionAt(10));
    // total, weights, workspace, inputs/outputs; gradients and activations are zero in inference.
    EXPECT_EQ(d.series.size(), 4u);
    EXPECT_TRUE(d.notes.join(QString()).contains(QStringLiteral("gradients")));
    for (const auto& s : d.series)
        EXPECT_EQ(s.samples.size(), 4u);
}

TEST(PhaseBreakdown, ShowsEveryBackendAtTheSelectedShape) {
    SweepResult r = fakeSweep();
    r.points.push_back(okPoint("slow-cpu", Mode::Training, 16, 10, 50.0));
    const int trainIndex = static_cast<int>(r.points.size()) - 1;
    ChartSelection s = selectionAt(10);
    s.selected = {0, trainIndex};
    const ChartData d = phaseBreakdown({r}, s);
    EXPECT_EQ(d.kind, ChartData::Kind::HorizontalStackedBars);
    // Bottom to top: slow-cpu train, slow-cpu infer, fast-gpu infer at B=16 T=10 (the first on top).
    EXPECT_EQ(d.categories.size(), 3u);
    ASSERT_EQ(d.barSets.size(), 3u); // forward, backward, update
    EXPECT_EQ(d.barSets[1].name, QStringLiteral("backward"));
    double total = 0;
    for (const auto& set : d.barSets)
        total += set.values.front();
    EXPECT_NEAR(total, 50.0, 1e-9);
    EXPECT_TRUE(d.categories.front().contains(QStringLiteral("◀")));
}

TEST(PhaseBreakdown, AGpuPointShowsHostWallTimeAndDeviceTimeSideBySide) {
    SweepResult r = fakeSweep();
    PointResult p = okPoint("fast-gpu", Mode::Training, 2, 10, 1.3);
    p.phaseMedianMs = {0.50, 0.70, 0.10}; // host wall time per phase
    p.gpu.emplace();
    p.gpu->eventMs = {0.20, 0.45, 0.02}; // GPU time per phase (CUDA events)
    r.points.push_back(p);
    ChartSelection s = selectionAt(10);
    s.selected = {0, static_cast<int>(r.points.size()) - 1};
    const ChartData d = phaseBreakdown({r}, s);
    ASSERT_EQ(d.categories.size(), 2u); // horizontal bars, bottom to top: device, then host on top
    EXPECT_FALSE(d.categories[1].contains(QStringLiteral("GPU"))) << d.categories[1].toStdString();
    EXPECT_TRUE(d.categories[0].endsWith(QStringLiteral(" GPU"))) << d.categories[0].toStdString();
    EXPECT_TRUE(d.notes.join(QLatin1Char(' ')).contains(QStringLiteral("CUDA events")));
    ASSERT_EQ(d.barSets.size(), 3u);
    for (int ph = 0; ph < 3; ++ph) {
        EXPECT_DOUBLE_EQ(d.barSets[std::size_t(ph)].values[1], p.phaseMedianMs[std::size_t(ph)]);
        EXPECT_DOUBLE_EQ(d.barSets[std::size_t(ph)].values[0], p.gpu->eventMs[std::size_t(ph)]);
    }
    EXPECT_TRUE(d.barSets[0].tooltips[0].contains(QStringLiteral("CUDA events")));
}

TEST(TopSubsteps, KeepsTheLargestAndSumsTheRestIntoOther) {
    SweepResult r = fakeSweep();
    PointResult p = okPoint("slow-cpu", Mode::Inference, 4, 10, 10.0);
    p.steps.clear();
    for (int i = 0; i < 12; ++i)
        p.steps.push_back({"step " + std::to_string(i), Phase::Forward, double(i + 1), 1});
    r.points.push_back(p);
    ChartSelection s;
    s.selected = {0, static_cast<int>(r.points.size()) - 1};
    const ChartData d = topSubsteps({r}, s, 5);
    ASSERT_EQ(d.categories.size(), 6u);
    EXPECT_TRUE(d.categories.front().startsWith(QStringLiteral("other")));
    EXPECT_DOUBLE_EQ(d.barSets[0].values.front(), 1 + 2 + 3 + 4 + 5 + 6 + 7);
    EXPECT_DOUBLE_EQ(d.barSets[0].values.back(), 12.0); // largest on top
}

TEST(TopSubsteps, LabelsAreStepNamesWithThePhaseOnlyWhereTwoPhasesShareAName) {
    SweepResult r = fakeSweep();
    PointResult p = okPoint("slow-cpu", Mode::Training, 4, 10, 10.0);
    p.steps = {{"layer 0", Phase::Forward, 3.0, 1},
               {"layer 0", Phase::Backward, 4.0, 1},
               {"SGD", Phase::Update, 1.0, 1}};
    r.points.push_back(p);
    ChartSelection s;
    s.selected = {0, static_cast<int>(r.points.size()) - 1};
    const ChartData d = topSubsteps({r}, s);
    // Bottom to top: the smallest first.
    EXPECT_EQ(d.categories, (std::vector<QString>{QStringLiteral("SGD"), QStringLiteral("layer 0 (forward)"),
                                                  QStringLiteral("layer 0 (backward)")}));
    EXPECT_TRUE(d.barSets[0].tooltips[0].startsWith(QStringLiteral("update: SGD")));
}

TEST(TopSubsteps, PrefersGpuKernelsWhenTraced) {
    SweepResult r = fakeSweep();
    PointResult p = okPoint("fast-gpu", Mode::Inference, 4, 10, 10.0);
    p.gpu.emplace();
    p.gpu->traced = true;
    p.gpu->kernels = {{"elementwise_kernel", Phase::Forward, 10, 50.0, 5.0, 4.0, 6.0, 0.25},
                      {"sgemm_128x64", Phase::Forward, 2, 150.0, 75.0, 70.0, 80.0, 0.75}};
    r.points.push_back(p);
    ChartSelection s;
    s.selected = {0, static_cast<int>(r.points.size()) - 1};
    const ChartData d = topSubsteps({r}, s);
    ASSERT_EQ(d.categories.size(), 2u);
    EXPECT_TRUE(d.title.contains(QStringLiteral("GPU kernels")));
    EXPECT_TRUE(d.categories.back().contains(QStringLiteral("sgemm")));
    EXPECT_DOUBLE_EQ(d.barSets[0].values.back(), 0.15); // 2 launches x 75 us
}

TEST(AxisRange, LogAxesSpanWholePowersSoTicksAreLabelled) {
    EXPECT_EQ(axisRange(0.3, 7.0, true, 10), (std::pair{0.1, 10.0}));
    EXPECT_EQ(axisRange(20, 100, true, 2), (std::pair{16.0, 128.0}));
    EXPECT_EQ(axisRange(4, 4, true, 2), (std::pair{4.0, 8.0}));
    const auto [lo, hi] = axisRange(0, 10, false, 10);
    EXPECT_EQ(lo, 0.0);
    EXPECT_GT(hi, 10.0);
}

TEST(Formatting, PicksReadableUnits) {
    EXPECT_EQ(formatMs(0.25), QStringLiteral("250 µs"));
    EXPECT_EQ(formatMs(3.21), QStringLiteral("3.210 ms"));
    EXPECT_EQ(formatMs(1500), QStringLiteral("1.50 s"));
    EXPECT_EQ(formatMs(std::nan("")), QStringLiteral("n/a"));
    EXPECT_EQ(formatNumber(12345), QStringLiteral("12.3k"));
}

TEST(Formatting, HugeValuesAreWrittenWithAnExponentAndStayShort) {
    // Legal in a file up to kMaxRecordedValue, and anything in results that bypassed the loader.
    EXPECT_EQ(formatMs(kMaxRecordedValue), QStringLiteral("1.00e+12 s"));
    EXPECT_EQ(formatMs(1e300), QStringLiteral("1.00e+297 s"));
    EXPECT_EQ(formatMs(-1e300), QStringLiteral("-1.00e+297 s"));
    EXPECT_EQ(formatMs(999999.0 * 1000.0), QStringLiteral("999999.00 s")) << "fixed point up to a million";
    EXPECT_EQ(formatNumber(1e300), QStringLiteral("1.00e+300"));
    EXPECT_EQ(formatNumber(-std::numeric_limits<double>::max()), QStringLiteral("-1.80e+308"));
    EXPECT_EQ(formatNumber(5e11), QStringLiteral("500.00G"));
    EXPECT_EQ(formatBytesQ(1e300), QStringLiteral("1.00e+300 B"))
        << "beyond 64 bits, no overflowing conversion";
    EXPECT_EQ(formatFixed(123.456, 1), QStringLiteral("123.5"));
    EXPECT_EQ(formatFixed(1e17, 1), QStringLiteral("1.00e+17"));
    for (double v : {1e6, 1e15, 1e100, 1e300, std::numeric_limits<double>::max()})
        for (const QString& text : {formatMs(v), formatNumber(v), formatBytesQ(v), formatFixed(v, 3)})
            EXPECT_LE(text.size(), 12) << text.toStdString();
}

} // namespace
} // namespace rnnprof::gui
