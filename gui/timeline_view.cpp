#include "gui/timeline_view.h"

#include "gui/charts/chart_theme.h"
#include "gui/models/chart_data.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace rnnprof::gui {
namespace {

constexpr int kLaneHeight = 22;
constexpr int kAxisHeight = 18;
constexpr int kNameWidth = 130;
constexpr int kMaxNameChars = 200; // slice names come from files

// Phases are the host lane's background; sub-steps, kernels and copies are drawn over them.
bool isBackground(const TraceSlice& s) {
    return s.category == "phase";
}

int colorIndexOf(const TraceSlice& s) {
    if (s.category == "kernel") return 0;
    if (s.category == "step") return 1;
    if (s.category == "phase") return 2;
    return 3; // memcpy, memset
}

} // namespace

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("traceTimeline"));
    setMouseTracking(true);
}

void TimelineView::setTrace(const std::vector<TraceSlice>& trace) {
    m_lanes = timelineLanes(trace);
    m_endUs = 0.0;
    for (const TimelineLane& lane : m_lanes)
        for (const TraceSlice& s : lane.slices)
            m_endUs = std::max(m_endUs, s.startUs + s.durationUs);
    updateGeometry();
    update();
}

QSize TimelineView::sizeHint() const {
    return {480, kAxisHeight + kLaneHeight * std::max<int>(1, int(m_lanes.size())) + 8};
}

QSize TimelineView::minimumSizeHint() const {
    return {240, kAxisHeight + kLaneHeight + 8};
}

QRectF TimelineView::plotRect() const {
    return QRectF(kNameWidth, 4, std::max(1, width() - kNameWidth - 8),
                  kLaneHeight * std::max<int>(1, int(m_lanes.size())));
}

QRectF TimelineView::boxOf(int lane, const TraceSlice& s) const {
    const QRectF plot = plotRect();
    const double scale = m_endUs > 0.0 ? plot.width() / m_endUs : 0.0;
    const double inset = isBackground(s) ? 1.0 : 4.0;
    return QRectF(plot.left() + s.startUs * scale, plot.top() + lane * kLaneHeight + inset,
                  std::max(1.0, s.durationUs * scale), kLaneHeight - 2 * inset);
}

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const ChartStyle style = chartStyleFor(palette());
    painter.fillRect(rect(), palette().base());
    if (m_lanes.empty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, QStringLiteral("This point recorded no trace."));
        return;
    }
    const QRectF plot = plotRect();
    for (int i = 0; i < int(m_lanes.size()); ++i) {
        const TimelineLane& lane = m_lanes[std::size_t(i)];
        painter.setPen(palette().color(QPalette::Text));
        painter.drawText(QRectF(4, plot.top() + i * kLaneHeight, kNameWidth - 8, kLaneHeight),
                         Qt::AlignVCenter | Qt::AlignLeft, lane.name);
        for (bool background : {true, false})
            for (const TraceSlice& s : lane.slices) {
                if (isBackground(s) != background) continue;
                QColor fill = seriesColor(colorIndexOf(s), style.dark);
                if (background) fill.setAlpha(70);
                painter.fillRect(boxOf(i, s), fill);
            }
    }
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawRect(plot);
    painter.setPen(palette().color(QPalette::Text));
    const QRectF axis(plot.left(), plot.bottom() + 2, plot.width(), kAxisHeight);
    painter.drawText(axis, Qt::AlignLeft | Qt::AlignTop, QStringLiteral("0"));
    painter.drawText(axis, Qt::AlignRight | Qt::AlignTop, formatMs(m_endUs / 1000.0));
}

bool TimelineView::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip) return QWidget::event(event);
    const QPointF pos = static_cast<QHelpEvent*>(event)->pos();
    // Foreground boxes first: a kernel over its phase names the kernel.
    for (bool background : {false, true})
        for (int i = 0; i < int(m_lanes.size()); ++i)
            for (const TraceSlice& s : m_lanes[std::size_t(i)].slices) {
                if (isBackground(s) != background || !boxOf(i, s).contains(pos)) continue;
                QToolTip::showText(static_cast<QHelpEvent*>(event)->globalPos(),
                                   QStringLiteral("%1 (%2)\nstart %3, duration %4")
                                       .arg(elideMiddle(QString::fromStdString(s.name), kMaxNameChars),
                                            QString::fromStdString(s.category), formatMs(s.startUs / 1000.0),
                                            formatMs(s.durationUs / 1000.0)),
                                   this);
                return true;
            }
    QToolTip::hideText();
    event->ignore();
    return true;
}

} // namespace rnnprof::gui
