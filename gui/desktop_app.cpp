#include "gui/desktop_app.h"

#include "gui/main_window.h"

#include <QApplication>
#include <QTimer>

namespace rnnprof::gui {

const char* usageText() {
    return "Usage: rnnprof [RESULTS.json ...]      the desktop application (opens the files, overlaid)\n"
           "       rnnprof sweep [options]         a sweep without a display (see rnnprof sweep --help)\n"
           "       rnnprof plot RESULTS.json ... --out DIR   every chart as PNG/SVG/PDF, no display needed\n"
           "       rnnprof eval [options]          one forward/backward pass on .npy inputs\n"
           "       rnnprof --version               host, CPU, GPU status and library versions\n"
           "Without a display, `rnnprof` alone runs the default preset headless and names the folder of its\n"
           "results and charts.\n";
}

int runDesktopApp(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("rnnprof"));
    QApplication::setOrganizationName(QStringLiteral("rnnprof"));
    // Matches share/applications/rnnprof.desktop, so desktops show its name and icon for the window.
    QGuiApplication::setDesktopFileName(QStringLiteral("rnnprof"));
    MainWindow window;
    window.show();
    QStringList files = QApplication::arguments();
    files.removeFirst();
    if (!files.isEmpty()) QTimer::singleShot(0, &window, [&window, files] { window.openFiles(files, true); });
    return QApplication::exec();
}

} // namespace rnnprof::gui
