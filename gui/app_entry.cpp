#include "gui/app_entry.h"

#include "cli/cli_common.h"
#include "cli/headless_commands.h"
#include "gui/charts/render_all.h"
#include "gui/commands/headless_app.h"
#include "gui/commands/headless_default.h"
#include "gui/commands/plot_command.h"
#include "gui/commands/report_command.h"
#include "gui/desktop_app.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace rnnprof::gui {
namespace {

bool hasDisplay() {
    const char* platform = std::getenv("QT_QPA_PLATFORM");
    if (platform && *platform) return true; // the user chose a platform (offscreen, xcb, ...)
    const char* x = std::getenv("DISPLAY");
    const char* wl = std::getenv("WAYLAND_DISPLAY");
    return (x && *x) || (wl && *wl);
}

// What the desktop build adds to the headless commands: `sweep --charts`.
void registerChartSupport() {
    cli::ChartSupport support;
    support.makeApplication = [](int& argc, char** argv) -> std::unique_ptr<QCoreApplication> {
        return cli::makeHeadlessApplication(argc, argv);
    };
    support.writeCharts = [](const SweepResult& result, const std::string& dir) {
        return std::size_t(renderAllCharts({result}, QString::fromStdString(dir)).size());
    };
    support.countCharts = [](const SweepResult& result) { return chartFileCount({result}); };
    support.maxChartFiles = kMaxChartFiles;
    cli::setChartSupport(std::move(support));
}

} // namespace

int runRnnprof(int argc, char** argv) {
    registerChartSupport();
    if (auto code = cli::runHeadlessCommand(argc, argv)) return *code;
    if (argc >= 2 && std::strcmp(argv[1], "plot") == 0)
        return cli::runGuarded("plot", [&] { return cli::runPlotCommand(argc, argv); });
    if (argc >= 2 && std::strcmp(argv[1], "report") == 0)
        return cli::runGuarded("report", [&] { return cli::runReportCommand(argc, argv); });
    if (argc >= 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
        std::fputs(usageText(), stdout);
        return 0;
    }
    if (!hasDisplay()) {
        if (argc == 1) return cli::runDefaultSweepWithoutDisplay(argc, argv);
        std::fputs(
            "rnnprof: no display found (neither DISPLAY nor WAYLAND_DISPLAY is set); to draw the charts of "
            "result files without one use `rnnprof plot FILES --out DIR`.\n",
            stderr);
        return 2;
    }
    return runDesktopApp(argc, argv);
}

} // namespace rnnprof::gui
