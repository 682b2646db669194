#include "gui/commands/headless_default.h"

#include "cli/cli_common.h"
#include "cli/sweep_command.h"
#include "gui/commands/headless_app.h"
#include "profiling/files/presets.h"

#include <QDateTime>
#include <QDir>

#include <cstdio>
#include <string>

namespace rnnprof::cli {

int runDefaultSweepWithoutDisplay(int argc, char** argv) {
    auto app = makeHeadlessApplication(argc, argv);
    const QString stamp = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    const QString dir = QDir::current().absoluteFilePath(QStringLiteral("rnnprof-results-") + stamp);
    const std::string preset = defaultPresetName();
    std::fprintf(
        stderr,
        "rnnprof: no display found (neither DISPLAY nor WAYLAND_DISPLAY is set), so the desktop application "
        "cannot open.\n"
        "rnnprof: running the default preset '%s' headless instead; results and charts go to\n"
        "rnnprof:   %s\n"
        "rnnprof: (other sweeps: rnnprof sweep --help; charts of any result file: rnnprof plot --help)\n",
        preset.c_str(), dir.toLocal8Bit().constData());
    if (!QDir().mkpath(dir)) {
        printError("rnnprof", "cannot create " + dir.toStdString() + " (is the current folder writable?)");
        return kExitFailure;
    }
    const auto at = [&](const char* name) {
        return QDir(dir).filePath(QString::fromLatin1(name)).toStdString();
    };
    const int code = runSweep({"--preset", preset, "--out", at("results.json"), "--csv", at("results.csv"),
                               "--trace", at("trace.json"), "--charts", at("charts")});
    if (code == kExitOk)
        std::fprintf(stderr, "rnnprof: done. Results: %s; charts: %s\n", at("results.json").c_str(),
                     at("charts").c_str());
    else
        std::fprintf(stderr, "rnnprof: the sweep ended with exit code %d; whatever it measured is in %s\n",
                     code, dir.toLocal8Bit().constData());
    return code;
}

} // namespace rnnprof::cli
