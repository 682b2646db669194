#pragma once
// The headless commands of `rnnprof`, which need QtCore only: `--version`, `eval`, `sweep`,
// `predict`. The desktop build adds the window, `plot` and chart files (`sweep --charts`) on top:
// it registers its chart support here before running a command, so that this library never needs
// widgets and a build without the GUI (RNNPROF_BUILD_GUI=OFF) still gives a working
// `rnnprof eval|sweep|predict`.
#include "profiling/result.h"

#include <QCoreApplication>

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace rnnprof::cli {

struct ChartSupport {
    // The application object for commands that draw charts (a QApplication on the offscreen
    // platform). `argc` must outlive it.
    std::function<std::unique_ptr<QCoreApplication>(int& argc, char** argv)> makeApplication;
    // Writes every chart of `result` into `dir`; returns how many files; throws Error(Io).
    std::function<std::size_t(const SweepResult& result, const std::string& dir)> writeCharts;
    // The most files writeCharts writes for `result`, and how many it writes at most per call: a
    // grid that would make more is refused before measuring.
    std::function<std::size_t(const SweepResult& result)> countCharts;
    std::size_t maxChartFiles = 0;
};

// Registered once by the desktop build at start; nullptr in a build without the GUI.
void setChartSupport(ChartSupport support);
[[nodiscard]] const ChartSupport* chartSupport();

// Runs the command argv[1] names (--version/-v, eval, sweep, predict, merge) and returns its exit code, or
// nullopt when argv[1] names none of them.
[[nodiscard]] std::optional<int> runHeadlessCommand(int argc, char** argv);

// The usage lines of the headless commands.
[[nodiscard]] const char* headlessUsage();

} // namespace rnnprof::cli
