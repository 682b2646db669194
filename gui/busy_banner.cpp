#include "gui/busy_banner.h"

#include "profiling/analysis/busy_host.h"

namespace rnnprof::gui {
namespace {

constexpr int kSampleMs = 3000; // long enough for a steady share, short enough to warn in time

} // namespace

QString busyResultText(const SweepResult& result) {
    const std::string warning = hostBusyWarning(result.host, result.plan.settings.threads);
    if (warning.empty()) return {};
    return QString::fromStdString(result.label.empty() ? result.host.hostname : result.label) +
           QStringLiteral(", ") + QString::fromStdString(warning);
}

BusyBanner::BusyBanner(QWidget* parent) : QLabel(parent) {
    setObjectName(QStringLiteral("busyWarning"));
    setWordWrap(false);
    setStyleSheet(QStringLiteral("QLabel { background: #fff3cd; color: #664d03; padding: 1px 6px; }"));
    m_timer.setInterval(kSampleMs);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (!m_monitor) return;
        if (const auto load = m_monitor->sample()) showLoad(*load, m_cores, m_threads);
    });
    hide();
}

BusyBanner::~BusyBanner() = default;

// A result's name can be long; the whole warning is in the tooltip.
void BusyBanner::setShortText(const QString& text) {
    setText(fontMetrics().elidedText(text, Qt::ElideMiddle, kMaxTextWidth));
}

void BusyBanner::startWatching(int cores, int threads) {
    m_cores = cores;
    m_threads = threads;
    m_monitor = std::make_unique<HostLoadMonitor>();
    m_timer.start();
}

void BusyBanner::stopWatching() {
    m_timer.stop();
    m_monitor.reset();
}

void BusyBanner::showLoad(const HostLoad& load, int cores, int threads) {
    const QString text = QString::fromStdString(busyWarning(load, cores, threads));
    setShortText(QStringLiteral("⚠ ") + text.section(QStringLiteral(". "), 0, 0));
    setToolTip(text);
    setVisible(!text.isEmpty());
}

void BusyBanner::showResults(const std::vector<SweepResult>& results) {
    for (const SweepResult& result : results)
        if (const QString text = busyResultText(result); !text.isEmpty()) {
            setShortText(QStringLiteral("⚠ Measured on a busy machine: ") +
                         text.section(QStringLiteral(": "), 0, 0));
            setToolTip(text);
            show();
            return;
        }
    if (!m_timer.isActive()) hide();
}

} // namespace rnnprof::gui
