// Test main for widget suites: one QApplication for the whole run (offscreen by default, set in
// CTest's environment), Qt warnings turned into test failures, then GoogleTest.
#include <QApplication>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace {

void failOnQtWarning(QtMsgType type, const QMessageLogContext&, const QString& message) {
    const std::string text = message.toStdString();
    // Platform chatter of the offscreen plugin is not a defect of ours.
    if (text.find("propagateSizeHints") != std::string::npos ||
        text.find("XDG_RUNTIME_DIR") != std::string::npos)
        return;
    if (type == QtWarningMsg || type == QtCriticalMsg || type == QtFatalMsg) ADD_FAILURE() << "Qt: " << text;
}

} // namespace

int main(int argc, char** argv) {
    if (!std::getenv("QT_QPA_PLATFORM")) setenv("QT_QPA_PLATFORM", "offscreen", 1);
    ::testing::InitGoogleTest(&argc, argv);
    QApplication app(argc, argv);
    qInstallMessageHandler(failOnQtWarning);
    return RUN_ALL_TESTS();
}
