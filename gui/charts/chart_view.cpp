#include "gui/charts/chart_view.h"

#include <QAbstractSeries>
#include <QBarSet>
#include <QChart>
#include <QKeyEvent>
#include <QLegend>
#include <QLegendMarker>
#include <QLogValueAxis>
#include <QMenu>
#include <QMouseEvent>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>
#include <QWheelEvent>
#include <QXYSeries>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rnnprof::gui {
namespace {

constexpr int kMinWidth = 320;
constexpr int kMinHeight = 240;
constexpr int kMinPlotHeight = 140; // axes, labels and some curve

// The shown range of a value or log axis; (0, 0) for any other (bar categories).
QPointF rangeOf(const QAbstractAxis* axis) {
    if (const auto* v = qobject_cast<const QValueAxis*>(axis)) return {v->min(), v->max()};
    if (const auto* l = qobject_cast<const QLogValueAxis*>(axis)) return {l->min(), l->max()};
    return {};
}

QAbstractAxis* firstAxis(const QChart* chart, Qt::Orientation orientation) {
    const auto axes = chart->axes(orientation);
    return axes.isEmpty() ? nullptr : axes.first();
}

} // namespace

ChartView::ChartView(QWidget* parent) : QChartView(new QChart, parent) {
    setRenderHint(QPainter::Antialiasing);
    setMouseTracking(true);
    setMinimumSize(kMinWidth, kMinHeight);
    rerender();
}

ChartView::~ChartView() = default;

void ChartView::setChartData(ChartData data) {
    m_data = std::move(data);
    rerender();
}

void ChartView::setFixedStyle(std::optional<ChartStyle> style) {
    m_fixedStyle = std::move(style);
    rerender();
}

ChartStyle ChartView::currentStyle() const {
    return m_fixedStyle ? *m_fixedStyle : chartStyleFor(palette());
}

void ChartView::rerender() {
    // A fresh QChart each time: QtCharts deletes removed axes only later (deleteLater), and their
    // grid and label items would stay visible in grabs and exports made before that.
    auto* fresh = new QChart;
    fresh->setAnimationOptions(QChart::NoAnimation);
    const bool lines = m_data.kind == ChartData::Kind::Lines;
    if (lines && (m_errorBars || m_logX || m_logY)) {
        ChartData shown = m_data;
        shown.errorBars = m_errorBars;
        shown.logX = m_logX.value_or(shown.logX);
        shown.logY = m_logY.value_or(shown.logY);
        m_rendered = renderChart(*fresh, shown, currentStyle());
    } else {
        m_rendered = renderChart(*fresh, m_data, currentStyle());
    }
    setRubberBand(lines ? QChartView::RectangleRubberBand : QChartView::NoRubberBand);
    QChart* old = chart();
    setChart(fresh);
    delete old;
    for (int i = 0; i < static_cast<int>(m_data.series.size()); ++i)
        if (m_hiddenSeries.contains(m_data.series[std::size_t(i)].name)) setSeriesVisible(i, false);
    if (ChartLegend* legend = m_rendered.frame.legend)
        connect(legend, &ChartLegend::toggled, this,
                [this](int series) { setSeriesVisible(series, !isSeriesVisible(series)); });
    fitMinimumHeight();
    if (m_zoom && lines) {
        if (QAbstractAxis* x = firstAxis(fresh, Qt::Horizontal)) x->setRange(m_zoom->x.x(), m_zoom->x.y());
        if (QAbstractAxis* y = firstAxis(fresh, Qt::Vertical)) y->setRange(m_zoom->y.x(), m_zoom->y.y());
    }
    addHighlight();
    for (std::size_t i = 0; i < m_rendered.barSets.size() && i < m_data.barSets.size(); ++i) {
        QBarSet* set = m_rendered.barSets[i];
        connect(set, &QBarSet::hovered, this, [this, i](bool status, int index) {
            const auto& tips = m_data.barSets[i].tooltips;
            if (status && index >= 0 && index < static_cast<int>(tips.size()))
                QToolTip::showText(QCursor::pos(), tips[std::size_t(index)], this);
            else
                QToolTip::hideText();
        });
        connect(set, &QBarSet::clicked, this, [this, i](int index) {
            const auto& refs = m_data.barSets[i].refs;
            if (index < 0 || index >= static_cast<int>(refs.size()) || !refs[std::size_t(index)].valid())
                return;
            // Queued: a receiver may redraw this view, which deletes the bar emitting this signal.
            const PointRef ref = refs[std::size_t(index)];
            QMetaObject::invokeMethod(
                this, [this, ref] { emit pointClicked(ref); }, Qt::QueuedConnection);
        });
    }
}

void ChartView::resizeEvent(QResizeEvent* event) {
    QChartView::resizeEvent(event);
    fitMinimumHeight();
}

void ChartView::fitMinimumHeight() {
    const int needed = int(std::ceil(frameHeightFor(m_rendered.frame, width()))) + kMinPlotHeight;
    const int minimum = std::max(kMinHeight, needed);
    if (minimumHeight() != minimum) setMinimumHeight(minimum);
}

void ChartView::setSeriesVisible(int series, bool visible) {
    if (series < 0 || series >= static_cast<int>(m_rendered.parts.size()) ||
        series >= static_cast<int>(m_data.series.size()))
        return;
    for (QAbstractSeries* part : m_rendered.parts[std::size_t(series)])
        part->setVisible(visible);
    if (m_rendered.frame.legend) m_rendered.frame.legend->setSeriesHidden(series, !visible);
    const QString& name = m_data.series[std::size_t(series)].name;
    m_hiddenSeries.removeAll(name);
    if (!visible) m_hiddenSeries << name;
}

bool ChartView::isSeriesVisible(int series) const {
    return series < 0 || series >= static_cast<int>(m_data.series.size()) ||
           !m_hiddenSeries.contains(m_data.series[std::size_t(series)].name);
}

QPointF ChartView::positionOf(int series, int sample) const {
    if (series < 0 || series >= static_cast<int>(m_data.series.size()) ||
        series >= static_cast<int>(m_rendered.anchors.size()))
        return {};
    const auto& samples = m_data.series[std::size_t(series)].samples;
    if (sample < 0 || sample >= static_cast<int>(samples.size())) return {};
    const ChartSample& s = samples[std::size_t(sample)];
    const QPointF scenePos = chart()->mapToScene(
        chart()->mapToPosition(QPointF(s.x, s.y), m_rendered.anchors[std::size_t(series)]));
    return mapFromScene(scenePos);
}

PointRef ChartView::sampleAt(QPointF viewPos, QString* tooltip, double radius) const {
    double best = radius * radius;
    const ChartSample* hit = nullptr;
    for (int i = 0; i < static_cast<int>(m_data.series.size()); ++i) {
        const auto& series = m_data.series[std::size_t(i)];
        if (series.reference || !isSeriesVisible(i)) continue;
        for (int j = 0; j < static_cast<int>(series.samples.size()); ++j) {
            const QPointF d = positionOf(i, j) - viewPos;
            const double dist = d.x() * d.x() + d.y() * d.y();
            if (dist <= best) {
                best = dist;
                hit = &series.samples[std::size_t(j)];
            }
        }
    }
    if (!hit) return {};
    if (tooltip) *tooltip = hit->tooltip;
    return hit->ref;
}

void ChartView::mouseMoveEvent(QMouseEvent* event) {
    if (m_panFrom) {
        const QPointF delta = event->position() - *m_panFrom;
        m_panFrom = event->position();
        panBy({-delta.x(), delta.y()});
        event->accept();
        return;
    }
    QString tip;
    (void)sampleAt(event->position(), &tip);
    if (!tip.isEmpty())
        QToolTip::showText(event->globalPosition().toPoint(), tip, this);
    else if (m_data.kind == ChartData::Kind::Lines)
        QToolTip::hideText();
    QChartView::mouseMoveEvent(event);
}

void ChartView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::MiddleButton && m_data.kind == ChartData::Kind::Lines) {
        m_panFrom = event->position();
        event->accept();
        return;
    }
    if (event->button() == Qt::LeftButton) {
        const PointRef ref = sampleAt(event->position());
        if (ref.valid()) {
            emit pointClicked(ref);
            event->accept();
            return;
        }
    }
    QChartView::mousePressEvent(event);
}

void ChartView::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() == Qt::MiddleButton && m_panFrom) {
        m_panFrom.reset();
        event->accept();
        return;
    }
    // QChartView zooms out on a right click; here the right button opens the context menu.
    if (event->button() == Qt::RightButton) {
        event->accept();
        return;
    }
    QChartView::mouseReleaseEvent(event); // a finished rubber band zooms in
    keepZoom();
}

void ChartView::wheelEvent(QWheelEvent* event) {
    if (event->modifiers() & Qt::ControlModifier && m_data.kind == ChartData::Kind::Lines) {
        chart()->zoom(event->angleDelta().y() > 0 ? 1.25 : 0.8);
        keepZoom();
        event->accept();
        return;
    }
    // QChartView 6.4 accepts and drops wheel events; let the surrounding page scroll instead.
    event->ignore();
}

void ChartView::keyPressEvent(QKeyEvent* event) {
    if (m_data.kind != ChartData::Kind::Lines) return QChartView::keyPressEvent(event);
    constexpr double kStep = 30.0; // pixels per arrow key
    switch (event->key()) {
    case Qt::Key_Plus:
        chart()->zoomIn();
        break;
    case Qt::Key_Minus:
        chart()->zoomOut();
        break;
    case Qt::Key_Left:
        chart()->scroll(-kStep, 0);
        break;
    case Qt::Key_Right:
        chart()->scroll(kStep, 0);
        break;
    case Qt::Key_Up:
        chart()->scroll(0, kStep);
        break;
    case Qt::Key_Down:
        chart()->scroll(0, -kStep);
        break;
    case Qt::Key_0:
        resetZoom();
        return;
    default:
        return QChartView::keyPressEvent(event);
    }
    keepZoom();
}

ChartView::Ranges ChartView::shownRanges() const {
    return {rangeOf(firstAxis(chart(), Qt::Horizontal)), rangeOf(firstAxis(chart(), Qt::Vertical))};
}

void ChartView::keepZoom() {
    if (chart()->isZoomed() || m_zoom) m_zoom = shownRanges();
}

void ChartView::zoomTo(QRectF viewRect) {
    if (m_data.kind != ChartData::Kind::Lines) return;
    const QRectF inChart = chart()->mapFromScene(mapToScene(viewRect.toRect())).boundingRect();
    chart()->zoomIn(inChart.intersected(chart()->plotArea()));
    keepZoom();
}

void ChartView::panBy(QPointF pixels) {
    if (m_data.kind != ChartData::Kind::Lines) return;
    chart()->scroll(pixels.x(), pixels.y());
    keepZoom();
}

void ChartView::resetZoom() {
    m_zoom.reset();
    rerender();
}

void ChartView::setErrorBarsShown(bool shown) {
    if (m_errorBars == shown) return;
    m_errorBars = shown;
    rerender();
}

void ChartView::setLogAxes(std::optional<bool> logX, std::optional<bool> logY) {
    m_logX = logX;
    m_logY = logY;
    m_zoom.reset(); // ranges of one scale mean nothing on the other
    rerender();
}

bool ChartView::logX() const {
    return m_logX.value_or(m_data.logX);
}

bool ChartView::logY() const {
    return m_logY.value_or(m_data.logY);
}

void ChartView::setHighlightedPoint(const PointRef& ref) {
    if (m_highlight == ref) return;
    m_highlight = ref;
    rerender();
}

void ChartView::addHighlight() {
    if (!m_highlight.valid() || m_data.kind != ChartData::Kind::Lines) return;
    for (std::size_t i = 0; i < m_data.series.size() && i < m_rendered.anchors.size(); ++i)
        for (const ChartSample& sample : m_data.series[i].samples) {
            if (sample.ref != m_highlight) continue;
            auto* ring = new QScatterSeries;
            ring->setObjectName(QStringLiteral("selectedPoint"));
            ring->setName(QStringLiteral("selected point"));
            ring->setMarkerSize(18);
            ring->setBrush(Qt::NoBrush);
            ring->setPen(QPen(currentStyle().foreground, 2.5));
            ring->append(sample.x, sample.y);
            chart()->addSeries(ring);
            for (QAbstractAxis* axis : m_rendered.anchors[i]->attachedAxes())
                ring->attachAxis(axis);
            for (QLegendMarker* marker : chart()->legend()->markers(ring))
                marker->setVisible(false);
            return;
        }
}

void ChartView::changeEvent(QEvent* event) {
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && !m_fixedStyle) rerender();
}

} // namespace rnnprof::gui
