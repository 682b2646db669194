#include "gui/main_window.h"

#include "profiling/host_info.h"

#include <QLabel>
#include <QStatusBar>

namespace rnnprof::gui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(QStringLiteral("rnnprof"));
    const HostInfo host = currentHost();
    auto* hostLabel = new QLabel(QString::fromStdString(hostStatusLine(host)), this);
    hostLabel->setObjectName(QStringLiteral("hostStatus"));
    statusBar()->addPermanentWidget(hostLabel);
    resize(1280, 800);
}

MainWindow::~MainWindow() = default;

} // namespace rnnprof::gui
