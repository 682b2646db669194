// The reference GPU results built into the application and "Compare with Reference GPU": the
// embedded files are the shipped ones and load; the action overlays the reference of the configured
// model labelled as reference data, pairs the fastest CPU backend against the reference's fastest GPU
// backend, and for a model no reference ran adds predicted GPU times, labelled as not measured.
#include "gui/charts/chart_page.h"
#include "gui/config/config_panel.h"
#include "gui/fake_results.h"
#include "gui/main_window.h"
#include "gui/models/result_store.h"
#include "gui/reference_results.h"
#include "gui/sweep_controller.h"
#include "gui/window_options.h"
#include "profiling/analysis/crossover.h"
#include "profiling/files/presets.h"

#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>

#include <gtest/gtest.h>

namespace rnnprof::gui {
namespace {

TEST(ReferenceResults, EveryEmbeddedFileLoadsAndIsLabelledAsReferenceData) {
    const QStringList files = referenceResultFiles();
    EXPECT_EQ(files.size(), 7);
    EXPECT_TRUE(files.contains(QStringLiteral(":/reference/h100-quick-start.json")));
    for (const QString& f : files) {
        const SweepResult r = loadReferenceResult(f);
        EXPECT_EQ(r.label, "h100 (reference)") << f.toStdString();
        EXPECT_FALSE(r.points.empty()) << f.toStdString();
    }
}

TEST(ReferenceResults, TheReferenceOfAPresetIsItsOwnFileAndAnEditedModelFindsNone) {
    SweepPlan plan;
    plan.preset = "gru-train-vs-infer";
    plan.config.cell = CellType::Gru;
    plan.config.inputSize = 64;
    plan.config.hiddenSize = 64;
    QString why;
    const auto gru = referenceFor(plan, why);
    ASSERT_TRUE(gru.has_value()) << why.toStdString();
    EXPECT_EQ(gru->plan.config.cell, CellType::Gru);
    EXPECT_EQ(gru->plan.batches.back(), 1024); // the preset's grid, batch 1..1024
    plan.config.hiddenSize = 999;
    EXPECT_FALSE(referenceFor(plan, why).has_value());
    EXPECT_TRUE(why.contains(QStringLiteral("this vs the reference: hidden_size 999 vs 64")))
        << why.toStdString();
}

class CompareWithReference : public ::testing::Test {
protected:
    MainWindowOptions options() { return test::scratchWindowOptions(dir); }
    static ChartPage* speedupPage(const MainWindow& w) {
        for (ChartPage* p : w.chartPages())
            if (p->spec().id == QStringLiteral("speedup")) return p;
        return nullptr;
    }
    QTemporaryDir dir;
};

// A CPU sweep of the quick-start model (LSTM 128->256) on a "laptop": the open result's model is
// the one compared.
SweepResult quickStartLaptop() {
    SweepResult laptop = test::fakeSweep("laptop");
    laptop.label = "laptop.json (laptop)";
    laptop.plan = findPreset("quick-start")->plan;
    for (auto& p : laptop.points)
        p.backend = p.backend == "slow-cpu" ? "cpu-blas" : "cpu-onednn";
    return laptop;
}

TEST_F(CompareWithReference, SetsTheLaptopsFastestCpuAgainstTheH100sFastestGpu) {
    MainWindow w(options());
    ASSERT_TRUE(w.configPanel()->applyPreset(QStringLiteral("quick-start")));
    // A CPU sweep of the quick-start model (LSTM 128->256) on this "laptop".
    const SweepResult laptop = quickStartLaptop();
    w.store().add(laptop);
    ASSERT_TRUE(w.compareWithReference());
    ASSERT_EQ(w.store().count(), 2);
    EXPECT_EQ(w.store().results()[1].label, "h100 (reference)");
    ChartPage* page = speedupPage(w);
    ASSERT_NE(page, nullptr);
    EXPECT_EQ(w.chartTabs()->currentWidget(), page);
    w.refreshChartsNow();
    const ChartSelection& s = page->selection();
    EXPECT_EQ(s.baseline, QStringLiteral("fastest-cpu"));
    EXPECT_EQ(s.baselineResult, 0);
    EXPECT_EQ(s.challenger, QStringLiteral("fastest-gpu"));
    EXPECT_EQ(s.challengerResult, 1);
    // The notes name both machines.
    const QString notes = page->notesText(0);
    EXPECT_TRUE(notes.contains(QStringLiteral("fastest-cpu on laptop (Test CPU, 2 cores)")))
        << notes.toStdString();
    EXPECT_TRUE(notes.contains(QStringLiteral("fastest-gpu on vm (NVIDIA H100 80GB HBM3)")))
        << notes.toStdString();
    // A second time reuses the open reference.
    ASSERT_TRUE(w.compareWithReference());
    EXPECT_EQ(w.store().count(), 2);
}

TEST_F(CompareWithReference, AloneItComparesTheReferencesOwnCpuAndGpu) {
    MainWindow w(options());
    ASSERT_TRUE(w.configPanel()->applyPreset(QStringLiteral("cpu-gpu-crossover")));
    ASSERT_TRUE(w.compareWithReference());
    ASSERT_EQ(w.store().count(), 1);
    w.refreshChartsNow();
    const ChartSelection& s = speedupPage(w)->selection();
    EXPECT_EQ(s.baseline, QStringLiteral("fastest-cpu"));
    EXPECT_EQ(s.challenger, QStringLiteral("fastest-gpu"));
    EXPECT_FALSE(speedupPage(w)->views().empty());
}

// A model no reference ran: GPU times predicted from the references for the
// configured model and grid are added instead, every point predicted and labelled, and paired with
// the laptop's fastest CPU backend; the speedup chart's note says what the prediction rests on.
TEST_F(CompareWithReference, AModelNoReferenceRanGetsPredictedGpuTimesLabelledNotMeasured) {
    MainWindow w(options());
    ASSERT_TRUE(w.configPanel()->applyPreset(QStringLiteral("quick-start")));
    SweepPlan plan = w.configPanel()->plan();
    plan.config.layers = 3;
    plan.seqLens = {10, 100};
    plan.modes = {Mode::Inference};
    w.configPanel()->setPlan(plan);
    SweepResult laptop = test::fakeSweep("laptop");
    laptop.label = "laptop.json (laptop)";
    laptop.plan.config = plan.config;
    for (auto& p : laptop.points)
        p.backend = p.backend == "slow-cpu" ? "cpu-blas" : "cpu-onednn";
    w.store().add(laptop);
    ASSERT_TRUE(w.compareWithReference()) << w.lastMessage().toStdString();
    ASSERT_EQ(w.store().count(), 2);
    const SweepResult& predicted = w.store().results()[1];
    EXPECT_EQ(predicted.label, "h100 (predicted)");
    EXPECT_TRUE(isPredictedResult(predicted));
    EXPECT_EQ(predicted.plan.config.layers, 3);
    EXPECT_EQ(predicted.points.size(), 4u * 2 * 2) << "B x T x {gpu-cudnn, gpu-generic}";
    for (const PointResult& p : predicted.points) {
        EXPECT_EQ(toString(p.status), "predicted");
        EXPECT_NE(p.reason.find("(NVIDIA H100 80GB HBM3) \u2014 not measured"), std::string::npos)
            << p.reason;
    }
    ChartPage* page = speedupPage(w);
    ASSERT_NE(page, nullptr);
    EXPECT_EQ(w.chartTabs()->currentWidget(), page);
    w.refreshChartsNow();
    const ChartSelection& s = page->selection();
    EXPECT_EQ(s.baseline, QStringLiteral("fastest-cpu"));
    EXPECT_EQ(s.baselineResult, 0);
    EXPECT_EQ(s.challenger, QStringLiteral("fastest-gpu"));
    EXPECT_EQ(s.challengerResult, 1);
    const QString notes = page->notesText(0);
    EXPECT_TRUE(notes.contains(QStringLiteral("predicted from"))) << notes.toStdString();
    EXPECT_TRUE(notes.contains(QStringLiteral("(leave-one-model-out)"))) << notes.toStdString();
    EXPECT_TRUE(notes.contains(QStringLiteral("UNRELIABLE")))
        << "docs/user-guide.md's leave-one-model-out numbers: " << notes.toStdString();
    // A second time adds nothing.
    ASSERT_TRUE(w.compareWithReference());
    EXPECT_EQ(w.store().count(), 2);
}

// The model a reference ran on a grid it did not cover: the measured reference is overlaid and paired
// as before, and the predicted times of the whole grid are added beside it, labelled.
TEST_F(CompareWithReference, AGridTheReferenceDidNotCoverAddsPredictedTimesBesideTheMeasuredOnes) {
    MainWindow w(options());
    ASSERT_TRUE(w.configPanel()->applyPreset(QStringLiteral("quick-start")));
    SweepPlan plan = w.configPanel()->plan();
    plan.batches = {1, 2, 4, 8, 16, 32, 64, 128}; // the reference measured 1, 4, 16, 64
    w.configPanel()->setPlan(plan);
    ASSERT_TRUE(w.compareWithReference()) << w.lastMessage().toStdString();
    ASSERT_EQ(w.store().count(), 2);
    EXPECT_EQ(w.store().results()[0].label, "h100 (predicted)");
    EXPECT_EQ(w.store().results()[1].label, "h100 (reference)");
    const SweepResult& predicted = w.store().results()[0];
    EXPECT_TRUE(isPredictedResult(predicted));
    EXPECT_EQ(predicted.plan.batches, plan.batches);
    EXPECT_EQ(predicted.points.size(), 8u * 2 * 2) << "B x {infer, train} x {gpu-cudnn, gpu-generic}";
    EXPECT_FALSE(isPredictedResult(w.store().results()[1]));
    ASSERT_TRUE(w.compareWithReference());
    EXPECT_EQ(w.store().count(), 2) << "neither is added twice";
}

TEST_F(CompareWithReference, TakesTheOpenResultsModelNotTheConfigurationPanels) {
    MainWindow w(options());
    // The panel shows another model than the open result: the result's decides.
    ASSERT_TRUE(w.configPanel()->applyPreset(QStringLiteral("gru-train-vs-infer")));
    const SweepResult laptop = quickStartLaptop();
    w.store().add(laptop);
    ASSERT_TRUE(w.compareWithReference());
    ASSERT_EQ(w.store().count(), 2);
    EXPECT_TRUE(modelDifferences(w.store().results()[1].plan.config, laptop.plan.config).empty())
        << "the reference of the open result's model (LSTM 128->256), not the panel's GRU";
}

TEST_F(CompareWithReference, WithNothingOfYoursOpenItSaysItComparesTheReferenceHostsOwnCpu) {
    MainWindow w(options());
    ASSERT_TRUE(w.configPanel()->applyPreset(QStringLiteral("quick-start")));
    ASSERT_TRUE(w.compareWithReference());
    const QString message = w.statusBar()->currentMessage();
    EXPECT_TRUE(message.contains(QStringLiteral("for the configuration panel's model")))
        << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("the reference host's own CPU against its GPU")))
        << message.toStdString();
}

} // namespace
} // namespace rnnprof::gui

namespace rnnprof::gui {
namespace {

TEST_F(CompareWithReference, FindCrossoverMeasuresOnlyWhatTheBisectionNeedsAgainstTheReference) {
    MainWindow w(options());
    ASSERT_TRUE(w.configPanel()->applyPreset(QStringLiteral("quick-start")));
    SweepPlan plan = w.configPanel()->plan();
    plan.backends = {"cpu-reference"}; // the search's CPU side; quick on any machine
    plan.settings.warmup = 0;
    plan.settings.minRepeats = plan.settings.maxRepeats = 1;
    plan.settings.checkNumerics = false;
    w.configPanel()->setPlan(plan);
    QSignalSpy finished(&w.controller(), &SweepController::finished);
    ASSERT_TRUE(w.findCrossoverWithReference());
    ASSERT_TRUE(finished.wait(120000));
    ASSERT_EQ(w.store().count(), 2);
    EXPECT_EQ(w.store().results()[0].label, "h100 (reference)");
    const SweepResult& here = w.store().results()[1];
    ASSERT_EQ(here.crossovers.size(), 1u);
    const CrossoverRecord& c = here.crossovers.front();
    EXPECT_EQ(c.gridBatches, 4) << "the reference's quick-start grid: B=1, 4, 16, 64";
    EXPECT_GE(c.measuredBatches, 1);
    EXPECT_LE(c.measuredBatches, 4);
    std::set<int> batches;
    for (const PointResult& p : here.points) {
        EXPECT_EQ(p.backend, "cpu-reference");
        batches.insert(p.shape.batch);
    }
    EXPECT_EQ(int(batches.size()), c.measuredBatches);
    const QString message = w.statusBar()->currentMessage();
    EXPECT_TRUE(message.contains(QStringLiteral("of the reference's 4 batch sizes")))
        << message.toStdString();
    ChartPage* page = nullptr;
    for (ChartPage* p : w.chartPages())
        if (p->spec().id == QStringLiteral("speedup")) page = p;
    ASSERT_NE(page, nullptr);
    EXPECT_EQ(page->selection().baselineResult, 1);
    EXPECT_EQ(page->selection().challengerResult, 0);
}

TEST(ReferenceKernels, TheQuickStartReferenceKeepsItsUntracedTimesAndGainsTheTracedRunsKernels) {
    QString why;
    SweepPlan plan = findPreset("quick-start")->plan;
    const auto reference = referenceFor(plan, why);
    ASSERT_TRUE(reference.has_value()) << why.toStdString();
    const SweepResult untraced = loadReferenceResult(QStringLiteral(":/reference/h100-quick-start.json"));
    int withKernels = 0;
    for (std::size_t i = 0; i < reference->points.size(); ++i) {
        const PointResult& p = reference->points[i];
        EXPECT_EQ(p.iteration, untraced.points[i].iteration) << "the headline stays untraced";
        if (!p.gpu || !p.gpu->traced) continue;
        ++withKernels;
        EXPECT_FALSE(p.gpu->kernels.empty()) << p.backend;
        ASSERT_FALSE(p.gpu->warnings.empty());
        EXPECT_NE(p.gpu->warnings.back().find("h100-quick-start-traced.json"), std::string::npos);
    }
    EXPECT_GE(withKernels, 8) << "gpu-cudnn and gpu-generic at four batch sizes in both modes";
}

} // namespace
} // namespace rnnprof::gui
