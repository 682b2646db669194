// What opening a results file costs the application: the main window opens FILE (as File > Open
// does), draws its charts and table, and this prints the wall time until the event loop is idle and
// the peak resident memory above the empty window. Run offscreen (DEVELOPMENT.md "Benchmarks"):
//   build/tests/bench/app_open FILE
// Goal: a 100,000-point file within 10 s and 1 GiB on 2 cores.
#include "gui/main_window.h"
#include "gui/window_options.h" // tests/gui: settings and autosave in a scratch folder
#include "profiling/measure/process_memory.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <cstdio>
#include <cstdlib>
#include <sys/stat.h>

int main(int argc, char** argv) {
    using namespace rnnprof;
    if (!std::getenv("QT_QPA_PLATFORM")) setenv("QT_QPA_PLATFORM", "offscreen", 1);
    QApplication app(argc, argv);
    if (argc != 2) {
        std::fprintf(stderr, "usage: app_open RESULTS.json\n");
        return 2;
    }
    QTemporaryDir scratch;
    gui::MainWindow window(test::scratchWindowOptions(scratch));
    window.show();
    QApplication::processEvents();
    resetPeakRss();
    const std::uint64_t before = readProcessMemory().value_or(ProcessMemory{}).rssBytes;
    QElapsedTimer clock;
    clock.start();
    const int opened = window.openFiles({QString::fromLocal8Bit(argv[1])}, false);
    const double openedSeconds = double(clock.nsecsElapsed()) * 1e-9;
    for (int i = 0; i < 20; ++i) // deferred chart and table work
        QApplication::processEvents(QEventLoop::AllEvents, 50);
    const double seconds = double(clock.nsecsElapsed()) * 1e-9;
    const ProcessMemory after = readProcessMemory().value_or(ProcessMemory{});
    struct stat st {};
    ::stat(argv[1], &st);
    std::printf("{\"file\": \"%s\", \"opened\": %d, \"file_bytes\": %lld, \"seconds\": %.2f, "
                "\"open_files_seconds\": %.2f, "
                "\"peak_growth_bytes\": %llu, \"rss_growth_bytes\": %llu, \"peak_per_file_byte\": %.2f}\n",
                argv[1], opened, (long long)st.st_size, seconds, openedSeconds,
                (unsigned long long)(after.peakBytes - before), (unsigned long long)(after.rssBytes - before),
                double(after.peakBytes - before) / double(st.st_size));
    return opened == 1 ? 0 : 1;
}
