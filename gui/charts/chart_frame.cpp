#include "gui/charts/chart_frame.h"

#include <QChart>
#include <QFont>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLogValueAxis>
#include <QTextDocument>
#include <QTextOption>
#include <QValueAxis>
#include <QXYSeries>

#include <algorithm>
#include <cmath>

namespace rnnprof::gui {
namespace {

constexpr qreal kMargin = 10.0;

qreal titleHeight(const ChartFrame& frame, qreal inner) {
    if (frame.title->toPlainText().isEmpty()) return 0.0;
    frame.title->setTextWidth(inner);
    return frame.title->boundingRect().height();
}

void layoutFrame(QChart& chart, const ChartFrame& frame) {
    const qreal w = chart.size().width(), h = chart.size().height();
    const qreal inner = std::max<qreal>(w - 2 * kMargin, 40.0);
    const qreal titleH = titleHeight(frame, inner);
    frame.title->setPos(kMargin, kMargin / 2);
    const qreal legendHeight = frame.legend->layoutForWidth(inner);
    frame.legend->setPos(kMargin, h - legendHeight - kMargin / 2);
    const QMargins margins(int(kMargin), int(std::ceil(titleH + kMargin / 2)), int(kMargin),
                           int(std::ceil(legendHeight + kMargin)));
    if (chart.margins() != margins) chart.setMargins(margins);
}

// Each tag just right of its marker line, above its height (the top of the plot for NaN), kept
// inside the plot; hidden while its line is outside the plot. A tag that would overlap one placed
// before it moves below it, so that two crossovers at nearly the same batch stay readable.
void placeTags(QChart& chart, const ChartFrame& frame, const std::vector<ChartMarker>& markers,
               QXYSeries* anchor) {
    const QRectF plot = chart.plotArea();
    std::vector<QRectF> placed;
    std::size_t t = 0;
    for (const ChartMarker& m : markers) {
        if (m.tag.isEmpty()) continue;
        QGraphicsSimpleTextItem* tag = frame.tags[t++];
        const double y = std::isnan(m.y) ? 1.0 : m.y;
        QPointF at = anchor ? chart.mapToPosition(QPointF(m.x, y), anchor) : QPointF();
        if (std::isnan(m.y)) at.setY(plot.top());
        tag->setVisible(anchor && plot.width() > 0 && at.x() >= plot.left() && at.x() <= plot.right());
        const QRectF box = tag->boundingRect();
        qreal x = at.x() + 4, top = at.y() - box.height() - 2;
        if (x + box.width() > plot.right()) x = at.x() - 4 - box.width();
        top = std::clamp(top, plot.top(), std::max(plot.top(), plot.bottom() - box.height()));
        for (bool moved = true; moved;) {
            moved = false;
            for (const QRectF& other : placed)
                if (other.intersects(QRectF(x, top, box.width(), box.height()))) {
                    top = other.bottom() + 1;
                    moved = true;
                }
        }
        tag->setPos(x, top);
        if (tag->isVisible()) placed.push_back(QRectF(x, top, box.width(), box.height()));
    }
}

} // namespace

qreal frameHeightFor(const ChartFrame& frame, qreal width) {
    if (!frame.title || !frame.legend) return 0.0;
    const qreal inner = std::max<qreal>(width - 2 * kMargin, 40.0);
    const qreal title = titleHeight(frame, inner);
    const qreal legend = frame.legend->layoutForWidth(inner);
    // Back to the chart's own width: measuring must not move what is drawn.
    if (const auto* chart = frame.legend->parentItem()) {
        const qreal own = std::max<qreal>(chart->boundingRect().width() - 2 * kMargin, 40.0);
        (void)titleHeight(frame, own);
        frame.legend->layoutForWidth(own);
    }
    return title + legend + 2.5 * kMargin;
}

ChartFrame frameChart(QChart& chart, const QString& title, std::vector<LegendEntry> legend,
                      const std::vector<ChartMarker>& markers, QXYSeries* anchor, const ChartStyle& style) {
    ChartFrame frame;
    frame.title = new QGraphicsTextItem(&chart);
    frame.title->setObjectName(QStringLiteral("chartTitle"));
    QFont titleFont = chart.titleFont();
    titleFont.setPointSizeF(11);
    titleFont.setBold(true);
    frame.title->setFont(titleFont);
    frame.title->setDefaultTextColor(style.foreground);
    frame.title->setPlainText(title);
    QTextOption centred = frame.title->document()->defaultTextOption();
    centred.setAlignment(Qt::AlignHCenter);
    centred.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    frame.title->document()->setDefaultTextOption(centred);
    frame.legend = new ChartLegend(std::move(legend), style.foreground, &chart);
    QFont tagFont;
    tagFont.setPointSizeF(9.5);
    tagFont.setBold(true);
    for (const ChartMarker& m : markers) {
        if (m.tag.isEmpty()) continue;
        auto* tag = new QGraphicsSimpleTextItem(m.tag, &chart);
        tag->setFont(tagFont);
        tag->setBrush(style.foreground);
        tag->setZValue(9);
        frame.tags.push_back(tag);
    }
    QChart* c = &chart;
    QObject::connect(&chart, &QGraphicsWidget::geometryChanged, frame.legend,
                     [c, frame] { layoutFrame(*c, frame); });
    const auto place = [c, frame, markers, anchor] { placeTags(*c, frame, markers, anchor); };
    QObject::connect(&chart, &QChart::plotAreaChanged, frame.legend, place);
    // Zooming and panning change the axes' ranges, not the plot area: the tags follow them too.
    for (QAbstractAxis* axis : chart.axes()) {
        if (auto* v = qobject_cast<QValueAxis*>(axis))
            QObject::connect(v, &QValueAxis::rangeChanged, frame.legend, place);
        if (auto* l = qobject_cast<QLogValueAxis*>(axis))
            QObject::connect(l, &QLogValueAxis::rangeChanged, frame.legend, place);
    }
    // A chart not yet given a size (not in a view) is laid out when it gets one.
    if (!chart.size().isEmpty()) {
        layoutFrame(chart, frame);
        placeTags(chart, frame, markers, anchor);
    }
    return frame;
}

} // namespace rnnprof::gui
