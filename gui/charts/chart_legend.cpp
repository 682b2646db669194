#include "gui/charts/chart_legend.h"

#include <QFontMetricsF>
#include <QGraphicsSceneMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QTextLayout>

#include <algorithm>
#include <cmath>

namespace rnnprof::gui {
namespace {

constexpr qreal kSwatchWidth = 36.0; // long enough to show the dash of training series
constexpr qreal kSwatchGap = 6.0;
constexpr qreal kEntryGap = 18.0; // between entries of one row
constexpr qreal kRowGap = 3.0;
constexpr qreal kFadedOpacity = 0.3;

} // namespace

QStringList wrapText(const QString& text, const QFont& font, qreal width) {
    QTextLayout layout(text, font);
    QTextOption option;
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout.setTextOption(option);
    QStringList lines;
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(std::max<qreal>(width, 1.0));
        lines << text.mid(line.textStart(), line.textLength()).trimmed();
    }
    layout.endLayout();
    if (lines.isEmpty()) lines << QString();
    return lines;
}

ChartLegend::ChartLegend(std::vector<LegendEntry> entries, QColor textColor, QGraphicsItem* parent)
    : QGraphicsObject(parent), m_entries(std::move(entries)), m_textColor(std::move(textColor)) {
    m_font.setPointSizeF(9.0);
    setAcceptedMouseButtons(Qt::LeftButton);
    setZValue(10); // above the plot, so that clicks reach it
}

qreal ChartLegend::layoutForWidth(qreal width) {
    prepareGeometryChange();
    m_width = std::max<qreal>(width, kSwatchWidth + kSwatchGap + 20.0);
    const QFontMetricsF metrics(m_font);
    const qreal lineHeight = metrics.lineSpacing();
    const qreal textRoom = m_width - kSwatchWidth - kSwatchGap;
    m_placed.clear();
    qreal x = 0.0, y = 0.0, rowHeight = 0.0;
    for (const LegendEntry& e : m_entries) {
        const qreal natural = metrics.horizontalAdvance(e.text);
        Placed p;
        p.lines = natural <= textRoom ? QStringList{e.text} : wrapText(e.text, m_font, textRoom);
        qreal textWidth = 0.0;
        for (const QString& line : p.lines)
            textWidth = std::max(textWidth, metrics.horizontalAdvance(line));
        const QSizeF size(kSwatchWidth + kSwatchGap + std::ceil(textWidth), lineHeight * p.lines.size());
        if (x > 0.0 && x + size.width() > m_width) { // next row
            x = 0.0;
            y += rowHeight + kRowGap;
            rowHeight = 0.0;
        }
        p.rect = QRectF(QPointF(x, y), size);
        x += size.width() + kEntryGap;
        rowHeight = std::max(rowHeight, size.height());
        m_placed.push_back(std::move(p));
    }
    m_height = m_entries.empty() ? 0.0 : y + rowHeight;
    update();
    return m_height;
}

QRectF ChartLegend::entryRect(std::size_t i) const {
    return i < m_placed.size() ? m_placed[i].rect : QRectF();
}

QStringList ChartLegend::entryLines(std::size_t i) const {
    return i < m_placed.size() ? m_placed[i].lines : QStringList();
}

void ChartLegend::setSeriesHidden(int series, bool hidden) {
    const auto it = std::find(m_hidden.begin(), m_hidden.end(), series);
    if (hidden && it == m_hidden.end()) m_hidden.push_back(series);
    if (!hidden && it != m_hidden.end()) m_hidden.erase(it);
    update();
}

bool ChartLegend::isSeriesHidden(int series) const {
    return std::find(m_hidden.begin(), m_hidden.end(), series) != m_hidden.end();
}

QRectF ChartLegend::boundingRect() const {
    return QRectF(0, 0, m_width, m_height);
}

void ChartLegend::paintSwatch(QPainter& painter, const LegendEntry& e, QRectF box) const {
    const QPointF mid(box.center().x(), box.top() + QFontMetricsF(m_font).lineSpacing() / 2);
    switch (e.swatch) {
    case LegendEntry::Swatch::Box:
        painter.fillRect(QRectF(mid.x() - 6, mid.y() - 6, 12, 12), e.color);
        return;
    case LegendEntry::Swatch::HollowMarker:
        painter.setPen(QPen(e.color, 2.0));
        painter.setBrush(Qt::NoBrush);
        painter.drawEllipse(mid, 5.0, 5.0);
        return;
    case LegendEntry::Swatch::Line:
        break;
    }
    painter.setPen(QPen(e.color, 2.0, e.pen));
    painter.drawLine(QPointF(box.left() + 1, mid.y()), QPointF(box.right() - 1, mid.y()));
    if (e.series < 0 || e.markerShape < 0) return;
    // The marker of the series' points, its shape telling apart series of the same colour.
    painter.setPen(Qt::NoPen);
    painter.setBrush(e.color);
    switch (e.markerShape % 3) {
    case 0:
        painter.drawEllipse(mid, 4.0, 4.0);
        break;
    case 1:
        painter.drawRect(QRectF(mid.x() - 4, mid.y() - 4, 8, 8));
        break;
    default: {
        QPainterPath triangle;
        triangle.moveTo(mid.x(), mid.y() - 5);
        triangle.lineTo(mid.x() + 5, mid.y() + 4);
        triangle.lineTo(mid.x() - 5, mid.y() + 4);
        triangle.closeSubpath();
        painter.drawPath(triangle);
    }
    }
}

void ChartLegend::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setFont(m_font);
    const qreal lineHeight = QFontMetricsF(m_font).lineSpacing();
    for (std::size_t i = 0; i < m_entries.size() && i < m_placed.size(); ++i) {
        const LegendEntry& e = m_entries[i];
        const Placed& p = m_placed[i];
        painter->setOpacity(e.series >= 0 && isSeriesHidden(e.series) ? kFadedOpacity : 1.0);
        paintSwatch(*painter, e, QRectF(p.rect.topLeft(), QSizeF(kSwatchWidth, p.rect.height())));
        painter->setPen(m_textColor);
        const qreal textX = p.rect.left() + kSwatchWidth + kSwatchGap;
        for (int l = 0; l < p.lines.size(); ++l)
            painter->drawText(
                QRectF(textX, p.rect.top() + l * lineHeight, p.rect.right() - textX, lineHeight),
                Qt::AlignLeft | Qt::AlignVCenter | Qt::TextDontClip, p.lines[l]);
    }
    painter->restore();
}

void ChartLegend::mousePressEvent(QGraphicsSceneMouseEvent* event) {
    for (std::size_t i = 0; i < m_placed.size(); ++i)
        if (m_placed[i].rect.contains(event->pos()) && m_entries[i].series >= 0) {
            event->accept();
            emit toggled(m_entries[i].series);
            return;
        }
    event->ignore();
}

} // namespace rnnprof::gui
