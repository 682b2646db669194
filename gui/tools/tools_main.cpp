// rnnprof_gui_tools: developer tools for the desktop application (screenshots for the README and
// the responsiveness measurement). Not installed, not part of the product's command line.
#include "gui/tools/responsiveness.h"
#include "gui/tools/screenshot_tour.h"

#include <chrono>
#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
    const auto start = std::chrono::steady_clock::now();
    if (argc >= 2 && std::strcmp(argv[1], "screenshots") == 0)
        return rnnprof::tools::runScreenshotTour(argc, argv);
    if (argc >= 2 && std::strcmp(argv[1], "responsiveness") == 0)
        return rnnprof::tools::runResponsiveness(argc, argv, start);
    std::fputs("usage: rnnprof_gui_tools screenshots OUTDIR [--preset NAME] [--dark]\n"
               "       rnnprof_gui_tools responsiveness [--points N] [--tab INDEX]\n",
               stderr);
    return 2;
}
