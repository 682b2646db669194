#include "gui/tools/responsiveness.h"

#include "gui/config/config_panel.h"
#include "gui/main_window.h"
#include "gui/models/result_store.h"
#include "gui/sweep_controller.h"
#include "gui/tools/tool_support.h"
#include "profiling/measure/statistics.h"

#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <cstring>
#include <vector>

namespace rnnprof::tools {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// `points` tiny points on cpu-reference: batch 1..25 x as many sequence lengths as needed.
SweepPlan tinyPlan(int points) {
    SweepPlan plan;
    plan.config.inputSize = 8;
    plan.config.hiddenSize = 8;
    plan.batches.clear();
    for (int b = 1; b <= 25; ++b)
        plan.batches.push_back(b);
    plan.seqLens.clear();
    for (int t = 1; t <= std::max(1, points / 25); ++t)
        plan.seqLens.push_back(t);
    plan.backends = {"cpu-reference"};
    plan.modes = {Mode::Inference};
    plan.settings.warmup = 0;
    // About 5 ms of measuring per point, so the 500 points stream in over a few seconds as in a
    // real sweep instead of arriving in one burst.
    plan.settings.minRepeats = 1;
    plan.settings.maxRepeats = 100000;
    plan.settings.timeBudgetMs = 5;
    plan.settings.checkNumerics = false;
    return plan;
}

} // namespace

int runResponsiveness(int argc, char** argv, Clock::time_point processStart) {
    int points = 500;
    int tab = 0;
    for (int i = 2; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--points") == 0) points = std::max(25, std::atoi(argv[i + 1]));
        if (std::strcmp(argv[i], "--tab") == 0) tab = std::atoi(argv[i + 1]);
    }
    int qtArgc = 1;
    auto app = makeToolApplication(qtArgc, argv);
    const double appMs = msSince(processStart);
    QTemporaryDir scratch;
    gui::MainWindowOptions options;
    options.settingsPath = scratch.filePath(QStringLiteral("settings.ini"));
    options.autosaveDir = scratch.filePath(QStringLiteral("autosave"));
    options.interactive = false;
    gui::MainWindow window(options);
    const double constructedMs = msSince(processStart);
    window.show();
    waitExposed(window);
    const double shownMs = msSince(processStart);
    std::printf("platform: %s\n", QGuiApplication::platformName().toLocal8Bit().constData());
    std::printf("start to first window shown: %.0f ms (QApplication %.0f ms, window built %.0f ms)\n",
                shownMs, appMs, constructedMs);

    window.configPanel()->setPlan(tinyPlan(points));
    window.chartTabs()->setCurrentIndex(tab);
    std::printf("chart tab shown while sweeping: %s\n",
                window.chartTabs()->tabText(tab).toLocal8Bit().constData());
    std::vector<double> gaps;
    gaps.reserve(100000);
    constexpr int kTickMs = 5;
    QTimer ticker;
    ticker.setTimerType(Qt::PreciseTimer);
    ticker.setInterval(kTickMs);
    auto last = Clock::now();
    QObject::connect(&ticker, &QTimer::timeout, [&] {
        const auto now = Clock::now();
        gaps.push_back(std::chrono::duration<double, std::milli>(now - last).count());
        last = now;
    });
    const auto sweepStart = Clock::now();
    if (!window.startSweep()) {
        std::fputs("the sweep did not start\n", stderr);
        return 1;
    }
    last = Clock::now();
    ticker.start();
    const bool finished = waitFor(&window.controller(), &gui::SweepController::finished, 10 * 60 * 1000);
    ticker.stop();
    const double sweepMs = msSince(sweepStart);
    if (!finished) {
        std::fputs("the sweep did not finish in 10 minutes\n", stderr);
        return 1;
    }
    std::vector<double> lateness;
    for (double g : gaps)
        lateness.push_back(std::max(0.0, g - kTickMs));
    const SampleStats s = summarize(lateness);
    int over30 = 0;
    for (double l : lateness)
        over30 += l > 30.0 ? 1 : 0;
    std::printf("sweep: %d points in %.1f s (%.0f points/s), %zu ticks of %d ms\n",
                window.store().pointCount(), sweepMs / 1000.0,
                window.store().pointCount() / (sweepMs / 1000.0), gaps.size(), kTickMs);
    std::printf("event loop lateness while sweeping: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms, "
                "%d ticks later than 30 ms\n",
                s.median, s.p90,
                percentile(
                    [&] {
                        auto v = lateness;
                        std::sort(v.begin(), v.end());
                        return v;
                    }(),
                    0.99),
                s.max, over30);
    window.close();
    return 0;
}

} // namespace rnnprof::tools
