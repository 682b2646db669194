#include "gui/tools/tool_support.h"

#include <QElapsedTimer>
#include <QWidget>
#include <QWindow>

#include <cstdlib>

namespace rnnprof::tools {

std::unique_ptr<QApplication> makeToolApplication(int& argc, char** argv) {
    const char* platform = std::getenv("QT_QPA_PLATFORM");
    const char* x = std::getenv("DISPLAY");
    const char* wl = std::getenv("WAYLAND_DISPLAY");
    if ((!platform || !*platform) && !(x && *x) && !(wl && *wl)) setenv("QT_QPA_PLATFORM", "offscreen", 1);
    auto app = std::make_unique<QApplication>(argc, argv);
    QApplication::setApplicationName(QStringLiteral("rnnprof"));
    QApplication::setOrganizationName(QStringLiteral("rnnprof"));
    return app;
}

bool waitExposed(QWidget& window, int timeoutMs) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        if (window.windowHandle() && window.windowHandle()->isExposed()) return true;
    }
    return false;
}

void processFor(int ms) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
}

} // namespace rnnprof::tools
