#include "gui/desktop_app.h"

#include "cli/headless_commands.h"
#include "cli/path_arguments.h"
#include "gui/main_window.h"

#include <QApplication>
#include <QTimer>

#include <string>

namespace rnnprof::gui {

const char* usageText() {
    static const std::string text =
        std::string(
            "Usage: rnnprof [RESULTS.json ...]      the desktop application (opens the files, overlaid)\n"
            "       rnnprof plot RESULTS.json ... --out DIR   every chart as PNG/SVG/PDF, no display "
            "needed\n"
            "       rnnprof report RESULTS.json ... --out DIR  one HTML page: machines, crossovers, notes, "
            "charts\n") +
        cli::headlessUsage() +
        "Without a display, `rnnprof` alone runs the default preset headless and names the folder of its\n"
        "results and charts.\n";
    return text.c_str();
}

QStringList fileArguments(int argc, char** argv) {
    QStringList files = cli::rawArguments(argc, argv);
    if (!files.isEmpty()) files.removeFirst();
    return files;
}

int runDesktopApp(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("rnnprof"));
    QApplication::setOrganizationName(QStringLiteral("rnnprof"));
    // Matches share/applications/rnnprof.desktop, so desktops show its name and icon for the window.
    QGuiApplication::setDesktopFileName(QStringLiteral("rnnprof"));
    MainWindow window;
    window.show();
    // After the window is up, so the question has a parent on screen.
    QTimer::singleShot(0, &window, [&window] { window.offerLeftoverJournals(); });
    // QApplication has taken its own options (-style, -platform, ...) out of argc and argv.
    const QStringList files = fileArguments(argc, argv);
    if (!files.isEmpty()) QTimer::singleShot(0, &window, [&window, files] { window.openFiles(files, true); });
    return QApplication::exec();
}

} // namespace rnnprof::gui
