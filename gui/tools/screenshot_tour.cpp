#include "gui/tools/screenshot_tour.h"

#include "gui/app_palette.h"
#include "gui/charts/chart_page.h"
#include "gui/config/config_panel.h"
#include "gui/main_window.h"
#include "gui/models/chart_breakdown.h"
#include "gui/models/result_store.h"
#include "gui/sweep_controller.h"
#include "gui/tools/tool_support.h"
#include "profiling/files/presets.h"

#include <QComboBox>
#include <QDir>
#include <QTabWidget>
#include <QTemporaryDir>

#include <cstdio>
#include <cstring>
#include <string>

namespace rnnprof::tools {
namespace {

constexpr int kLaptopWidth = 1366;
constexpr int kLaptopHeight = 768;

// A sweep that finishes in about a minute on two cores and fills every chart: every available
// backend except the slow reference, four sequence lengths, inference and training, one CPU thread.
// The quick-start preset's model, so that the built-in NVIDIA H100 results of that model overlay
// it (measured where the H100 did, predicted elsewhere): the README then shows GPU backends beside
// this machine's CPU ones even where the screenshots were taken without a GPU.
SweepPlan tourPlan(const BackendRegistry& registry) {
    SweepPlan plan;
    if (const Preset* quickStart = findPreset("quick-start")) plan.config = quickStart->plan.config;
    plan.batches = {1, 2, 4, 8, 16, 32, 64};
    plan.seqLens = {10, 20, 50, 100}; // 20: where the H100 reference measured quick-start
    plan.modes = {Mode::Inference, Mode::Training};
    plan.backends.clear();
    for (const Backend* b : registry.all())
        if (b->availability().available && b->id() != "cpu-reference") plan.backends.emplace_back(b->id());
    plan.settings.warmup = 1;
    plan.settings.minRepeats = 3;
    plan.settings.maxRepeats = 10;
    plan.settings.timeBudgetMs = 150;
    // One thread: all-core OpenMP runs on a busy shared machine give timings off by 100x.
    plan.settings.threads = 1;
    return plan;
}

bool grab(QWidget& window, const QString& dir, const QString& name) {
    gui::MainWindow* w = qobject_cast<gui::MainWindow*>(&window);
    if (w) w->refreshChartsNow();
    processFor(150);
    const QString path = QDir(dir).filePath(name + QStringLiteral(".png"));
    const bool ok = window.grab().save(path);
    std::printf("%s %s\n", ok ? "wrote" : "FAILED", path.toLocal8Bit().constData());
    return ok;
}

} // namespace

int runScreenshotTour(int argc, char** argv) {
    if (argc < 3) {
        std::fputs("usage: rnnprof_gui_tools screenshots OUTDIR [--preset NAME]\n", stderr);
        return 2;
    }
    const QString outDir = QString::fromLocal8Bit(argv[2]);
    std::string preset;
    for (int i = 3; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], "--preset") == 0) preset = argv[i + 1];
    int qtArgc = 1;
    auto app = makeToolApplication(qtArgc, argv);
    QDir().mkpath(outDir);
    QTemporaryDir scratch;
    gui::MainWindowOptions options;
    options.settingsPath = scratch.filePath(QStringLiteral("settings.ini"));
    options.autosaveDir = scratch.filePath(QStringLiteral("autosave"));
    options.interactive = false;
    gui::MainWindow window(options);
    // A 1366x768 laptop screen: what the window must fit, every chart readable.
    window.resize(kLaptopWidth, kLaptopHeight);
    window.show();
    waitExposed(window);

    if (preset.empty()) {
        window.configPanel()->setPlan(tourPlan(builtinBackends()));
    } else if (!window.configPanel()->applyPreset(QString::fromStdString(preset))) {
        std::fprintf(stderr, "no preset named %s\n", preset.c_str());
        return 2;
    }
    if (!window.startSweep()) {
        std::fprintf(stderr, "the sweep did not start: %s\n",
                     window.configPanel()->issues().empty()
                         ? "already running"
                         : window.configPanel()->issues().front().message.c_str());
        return 1;
    }
    std::puts("sweeping (a minute or so)...");
    if (!waitFor(&window.controller(), &gui::SweepController::finished, 20 * 60 * 1000)) {
        std::fputs("the sweep did not finish in 20 minutes\n", stderr);
        return 1;
    }
    std::printf("%d points measured\n", window.store().pointCount());
    // The second result file of the screenshots: the reference GPU (File > Compare with Reference GPU).
    if (!window.compareWithReference()) std::fputs("no reference GPU results for this model\n", stderr);

    // The breakdown follows a selected point: pick the largest training point, as a user would.
    gui::PointRef pick = gui::defaultBreakdownPoint(window.store().results());
    const auto& points = window.store().results().front().points;
    for (int i = 0; i < static_cast<int>(points.size()); ++i)
        if (points[std::size_t(i)].ok() && points[std::size_t(i)].mode == Mode::Training) pick = {0, i};
    window.selectPoint(pick);

    bool ok = true;
    QTabWidget* tabs = window.chartTabs();
    for (int t = 0; t < tabs->count(); ++t) {
        tabs->setCurrentIndex(t);
        auto* page = qobject_cast<gui::ChartPage*>(tabs->widget(t));
        // Training memory shows every category (gradients, kept activations).
        if (QComboBox* mode = page ? page->selector(gui::Selector::Mode) : nullptr)
            mode->setCurrentIndex(mode->findText(QStringLiteral("train")));
        // The sequence length the reference GPU measured, so that its lines are beside ours.
        if (QComboBox* seq = page ? page->selector(gui::Selector::SeqLen) : nullptr)
            if (const int at = seq->findText(QStringLiteral("20")); at >= 0) seq->setCurrentIndex(at);
        // A middle batch size shows more than batch 1, where overheads dominate.
        if (QComboBox* batch = page ? page->selector(gui::Selector::Batch) : nullptr)
            batch->setCurrentIndex(batch->count() / 2);
        ok = grab(window, outDir, page ? page->spec().id : QStringLiteral("tab%1").arg(t)) && ok;
    }
    tabs->setCurrentIndex(0);
    gui::setDarkPalette(true);
    ok = grab(window, outDir, QStringLiteral("dark")) && ok;
    gui::setDarkPalette(false);
    window.close();
    return ok ? 0 : 1;
}

} // namespace rnnprof::tools
