#pragma once
// The warning that the machine is busy: shown in the status bar while a sweep runs and other
// processes take more cores than it leaves free (sampled every few seconds on the GUI thread, a
// few hundred small /proc reads), and for a loaded result whose host record says so. Times
// measured then can be many times too slow; without this the only sign would be the noisy marker.
#include "profiling/measure/host_load.h"
#include "profiling/result.h"

#include <QLabel>
#include <QTimer>

#include <memory>
#include <vector>

namespace rnnprof::gui {

// "laptop.json (laptop), during the sweep: Busy machine: ..." for a result whose recorded load was
// busy (hostBusyWarning(), profiling/analysis/busy_host.h); empty when it was not or nothing was recorded.
[[nodiscard]] QString busyResultText(const SweepResult& result);

class BusyBanner : public QLabel {
    Q_OBJECT
public:
    explicit BusyBanner(QWidget* parent = nullptr);
    ~BusyBanner() override;

    // While a sweep with `threads` threads (0: all) runs on `cores` cores: samples the load.
    void startWatching(int cores, int threads);
    void stopWatching();
    // Shows the warning of `load`, or hides the banner when it is not busy.
    void showLoad(const HostLoad& load, int cores, int threads);
    // Shows the warning of the first loaded result measured on a busy machine, if any.
    void showResults(const std::vector<SweepResult>& results);

    // The widest the banner's text gets (it shares the status bar with messages and the host).
    static constexpr int kMaxTextWidth = 420;

private:
    void setShortText(const QString& text);
    QTimer m_timer;
    std::unique_ptr<HostLoadMonitor> m_monitor;
    int m_cores = 0;
    int m_threads = 0;
};

} // namespace rnnprof::gui
