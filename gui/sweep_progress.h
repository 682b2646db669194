#pragma once
// The progress of the running sweep in the status bar: a bar with done/total (busy until the first
// report), the ETA and the point being measured.
#include "profiling/measure/runner.h"

#include <QElapsedTimer>
#include <QString>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QProgressBar;
QT_END_NAMESPACE

namespace rnnprof::gui {

// "12 / 40 · ETA 1:05 · cpu-blas train B=64 T=100"
[[nodiscard]] QString progressText(const SweepProgress& progress);
// "0:42", "1:05:09", "?" for unknown (< 0)
[[nodiscard]] QString formatDuration(double seconds);
// "Run takes about 1:05 here (estimate from the plan's FLOPs)": shown before Run; on a busy machine
// (`slowdown` > 1, host_load.h's busySlowdown) the longer time, saying why and by how much.
[[nodiscard]] QString estimateText(double seconds, double slowdown = 1.0);

class SweepProgressView : public QWidget {
    Q_OBJECT
public:
    explicit SweepProgressView(QWidget* parent = nullptr);
    ~SweepProgressView() override;

    void begin();
    void update(const SweepProgress& progress);
    void end();
    // While no sweep runs: what Run would take (profiling/measure/eta.h); < 0 hides it.
    void showEstimate(double seconds, double slowdown = 1.0);
    // While the status bar shows a message over it (QStatusBar::messageChanged): hidden, and shown
    // again after, if it has something to say. QStatusBar's own hiding is undone by a later show().
    void setCovered(bool covered);
    // The share of one core the GUI thread used since begin() (redraws, table, status): a sweep's
    // measurements share the machine with it, so it must stay small. In the bar's tooltip.
    [[nodiscard]] double guiCpuShare() const;
    [[nodiscard]] QProgressBar* bar() const { return m_bar; }
    [[nodiscard]] QString text() const;

private:
    QProgressBar* m_bar = nullptr;
    QLabel* m_label = nullptr;
    bool m_running = false;
    bool m_wanted = false;  // progress or an estimate to show
    bool m_covered = false; // a status-bar message is shown
    void setWanted(bool wanted);
    double m_cpuAtBegin = 0.0;
    QElapsedTimer m_wall;
};

} // namespace rnnprof::gui
