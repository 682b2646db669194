#include "gui/cli/headless_app.h"

#include <cstdlib>

namespace rnnprof::cli {

std::unique_ptr<QApplication> makeHeadlessApplication(int& argc, char** argv) {
    const char* platform = std::getenv("QT_QPA_PLATFORM");
    if (!platform || !*platform) setenv("QT_QPA_PLATFORM", "offscreen", 1);
    auto app = std::make_unique<QApplication>(argc, argv);
    QApplication::setApplicationName(QStringLiteral("rnnprof"));
    QApplication::setOrganizationName(QStringLiteral("rnnprof"));
    return app;
}

} // namespace rnnprof::cli
