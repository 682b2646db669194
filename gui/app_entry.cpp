#include "gui/app_entry.h"

#include "gui/cli/eval_command.h"
#include "gui/cli/headless_default.h"
#include "gui/cli/plot_command.h"
#include "gui/cli/sweep_command.h"
#include "gui/desktop_app.h"
#include "profiling/host_info.h"

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

int printVersion() {
    std::fputs(describeHost(currentHost()).c_str(), stdout);
    return 0;
}

} // namespace

int runRnnprof(int argc, char** argv) {
    if (argc >= 2 && (std::strcmp(argv[1], "--version") == 0 || std::strcmp(argv[1], "-v") == 0))
        return printVersion();
    if (argc >= 2 && std::strcmp(argv[1], "eval") == 0) return cli::runEvalCommand(argc, argv);
    if (argc >= 2 && std::strcmp(argv[1], "plot") == 0) return cli::runPlotCommand(argc, argv);
    if (argc >= 2 && std::strcmp(argv[1], "sweep") == 0) return cli::runSweepCommand(argc, argv);
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
