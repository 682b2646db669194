#pragma once
// The main window: configuration panel, charts, results table, status bar with host and GPU.
#include <QMainWindow>

namespace rnnprof::gui {

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;
};

} // namespace rnnprof::gui
