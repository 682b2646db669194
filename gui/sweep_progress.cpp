#include "gui/sweep_progress.h"

#include "profiling/measure/host_load.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>

#include <cmath>

namespace rnnprof::gui {

QString formatDuration(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0) return QStringLiteral("?");
    const long long s = std::llround(seconds);
    if (s >= 3600)
        return QStringLiteral("%1:%2:%3")
            .arg(s / 3600)
            .arg((s / 60) % 60, 2, 10, QLatin1Char('0'))
            .arg(s % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

QString estimateText(double seconds, double slowdown) {
    if (slowdown > 1.05)
        return QStringLiteral("Run takes about %1 here: the machine is busy, about %2x the %3 of a quiet one "
                              "(estimate from the plan's FLOPs)")
            .arg(formatDuration(seconds * slowdown))
            .arg(slowdown, 0, 'f', 1)
            .arg(formatDuration(seconds));
    return QStringLiteral("Run takes about %1 here (estimate from the plan's FLOPs)")
        .arg(formatDuration(seconds));
}

QString progressText(const SweepProgress& p) {
    QString text = QStringLiteral("%1 / %2").arg(p.done).arg(p.total);
    text += QStringLiteral(" · ETA ") +
            (p.etaSeconds < 0 ? QStringLiteral("estimating…") : formatDuration(p.etaSeconds));
    if (!p.current.empty()) text += QStringLiteral(" · ") + QString::fromStdString(p.current);
    return text;
}

SweepProgressView::SweepProgressView(QWidget* parent) : QWidget(parent) {
    m_bar = new QProgressBar(this);
    m_bar->setObjectName(QStringLiteral("sweepProgress"));
    m_bar->setMaximumWidth(220);
    m_bar->setTextVisible(true);
    m_label = new QLabel(this);
    m_label->setObjectName(QStringLiteral("sweepProgressText"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_bar);
    layout->addWidget(m_label, 1);
    hide();
}

SweepProgressView::~SweepProgressView() = default;

void SweepProgressView::begin() {
    m_running = true;
    m_cpuAtBegin = threadCpuSeconds();
    m_wall.start();
    m_bar->setRange(0, 0); // busy until the first report
    m_bar->show();
    m_label->setText(QStringLiteral("starting…"));
    setWanted(true);
}

void SweepProgressView::update(const SweepProgress& p) {
    m_bar->setRange(0, std::max(1, p.total));
    m_bar->setValue(p.done);
    m_bar->setFormat(QStringLiteral("%v / %m"));
    m_label->setText(progressText(p));
    const QString cpu = QStringLiteral("The window used %1 % of one core since the sweep started")
                            .arg(100.0 * guiCpuShare(), 0, 'f', 1);
    m_bar->setToolTip(cpu);
    m_label->setToolTip(cpu);
}

void SweepProgressView::end() {
    m_running = false;
    setWanted(false);
}

void SweepProgressView::showEstimate(double seconds, double slowdown) {
    if (m_running) return;
    if (seconds < 0) {
        setWanted(false);
        return;
    }
    m_bar->hide();
    m_label->setText(estimateText(seconds, slowdown));
    m_label->setToolTip(
        QStringLiteral("The plan's FLOPs at a rough rate per backend for this machine; while the "
                       "sweep runs, the ETA uses the rates its points achieve"));
    setWanted(true);
}

void SweepProgressView::setCovered(bool covered) {
    m_covered = covered;
    setVisible(m_wanted && !m_covered);
}

void SweepProgressView::setWanted(bool wanted) {
    m_wanted = wanted;
    setVisible(m_wanted && !m_covered);
}

double SweepProgressView::guiCpuShare() const {
    const double wall = m_wall.isValid() ? double(m_wall.elapsed()) / 1000.0 : 0.0;
    return wall > 0.0 ? (threadCpuSeconds() - m_cpuAtBegin) / wall : 0.0;
}

QString SweepProgressView::text() const {
    return m_label->text();
}

} // namespace rnnprof::gui
