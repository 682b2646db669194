#include "gui/sweep_progress.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>

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
    m_bar->setRange(0, 0); // busy until the first report
    m_label->setText(QStringLiteral("starting…"));
    show();
}

void SweepProgressView::update(const SweepProgress& p) {
    m_bar->setRange(0, std::max(1, p.total));
    m_bar->setValue(p.done);
    m_bar->setFormat(QStringLiteral("%v / %m"));
    m_label->setText(progressText(p));
}

void SweepProgressView::end() {
    hide();
}

QString SweepProgressView::text() const {
    return m_label->text();
}

} // namespace rnnprof::gui
