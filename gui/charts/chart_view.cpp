#include "gui/charts/chart_view.h"

#include <QAbstractSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QFontMetricsF>
#include <QKeyEvent>
#include <QLegend>
#include <QLegendMarker>
#include <QLogValueAxis>
#include <QMenu>
#include <QMouseEvent>
#include <QScatterSeries>
#include <QSet>
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

// Elided in the middle, keeping up to `headShare` of `room` for the start: a bar's label ends with
// the backend and mode that tell the bars apart, and starts with the result's name, the same for
// many bars.
QString elideKeepingTheEnd(const QString& text, const QFontMetricsF& metrics, qreal room, qreal headShare) {
    if (metrics.horizontalAdvance(text) <= room) return text;
    const QString ellipsis(QChar(0x2026));
    qsizetype head = 0;
    while (head < text.size() && metrics.horizontalAdvance(text.left(head + 1)) <= headShare * room)
        ++head;
    if (head > 0 && text[head - 1].isHighSurrogate()) --head; // never half a character
    const qreal tailRoom = room - metrics.horizontalAdvance(text.left(head) + ellipsis);
    qsizetype tail = 0;
    while (tail < text.size() - head && metrics.horizontalAdvance(text.right(tail + 1)) <= tailRoom)
        ++tail;
    if (tail > 0 && text[text.size() - tail].isLowSurrogate()) --tail;
    return text.left(head) + ellipsis + text.right(tail);
}

// The labels of `names` elided to `room`, with as much of their start as leaves them distinct.
QStringList elideApart(const QStringList& names, const QFontMetricsF& metrics, qreal room) {
    QStringList labels;
    for (const qreal headShare : {0.25, 0.1, 0.0}) {
        labels.clear();
        for (const QString& name : names)
            labels << elideKeepingTheEnd(name, metrics, room, headShare);
        if (QSet<QString>(labels.begin(), labels.end()).size() == labels.size()) return labels;
    }
    // Still alike (names that differ only in the middle): QBarCategoryAxis drops a repeated
    // category and the bars would shift, so they are kept apart invisibly.
    for (qsizetype i = 1; i < labels.size(); ++i)
        while (labels.indexOf(labels[i]) < i)
            labels[i] += QChar(0x200B); // zero-width space
    return labels;
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

// The name of series `series` (lines) or bar set `series` (bars); empty when there is none.
QString ChartView::seriesName(int series) const {
    if (series < 0) return {};
    const auto i = std::size_t(series);
    if (m_data.kind == ChartData::Kind::Lines)
        return i < m_data.series.size() ? m_data.series[i].name : QString();
    return i < m_data.barSets.size() ? m_data.barSets[i].name : QString();
}

ChartData ChartView::shownData() const {
    ChartData shown = m_data;
    if (shown.kind == ChartData::Kind::Lines) {
        shown.errorBars = m_state.errorBars;
        shown.logX = m_state.logX.value_or(shown.logX);
        shown.logY = m_state.logY.value_or(shown.logY);
        return shown;
    }
    // A hidden bar set keeps its place (colour, legend entry) but draws nothing, so that the value
    // axis fits what is left: hiding cpu-reference's 1000 ms phase shows the others' bars.
    for (BarSet& set : shown.barSets)
        if (m_state.hiddenSeries.contains(set.name)) {
            std::fill(set.values.begin(), set.values.end(), 0.0);
            std::fill(set.refs.begin(), set.refs.end(), PointRef{});
        }
    return shown;
}

void ChartView::rerender() {
    // A fresh QChart each time: QtCharts deletes removed axes only later (deleteLater), and their
    // grid and label items would stay visible in grabs and exports made before that.
    auto* fresh = new QChart;
    fresh->setAnimationOptions(QChart::NoAnimation);
    const bool lines = m_data.kind == ChartData::Kind::Lines;
    m_rendered = renderChart(*fresh, shownData(), currentStyle());
    setRubberBand(lines ? QChartView::RectangleRubberBand : QChartView::NoRubberBand);
    QChart* old = chart();
    setChart(fresh);
    delete old;
    const int count = static_cast<int>(lines ? m_data.series.size() : m_data.barSets.size());
    for (int i = 0; i < count; ++i) {
        if (!m_state.hiddenSeries.contains(seriesName(i))) continue;
        if (lines && i < static_cast<int>(m_rendered.parts.size()))
            for (QAbstractSeries* part : m_rendered.parts[std::size_t(i)])
                part->setVisible(false);
        if (m_rendered.frame.legend) m_rendered.frame.legend->setSeriesHidden(i, true);
    }
    if (ChartLegend* legend = m_rendered.frame.legend)
        connect(legend, &ChartLegend::toggled, this, [this, lines](int series) {
            // Hiding a bar set redraws the chart, which deletes the legend whose click this is:
            // later, from the event loop.
            QMetaObject::invokeMethod(
                this, [this, series] { setSeriesVisible(series, !isSeriesVisible(series)); },
                lines ? Qt::DirectConnection : Qt::QueuedConnection);
        });
    fitMinimumHeight();
    fitCategoryLabels();
    connect(fresh, &QGraphicsWidget::geometryChanged, this, &ChartView::fitCategoryLabels);
    connect(fresh, &QChart::plotAreaChanged, this, &ChartView::fitValueAxisTitle);
    if (m_state.zoom && lines) {
        const ChartRanges& zoom = *m_state.zoom;
        if (QAbstractAxis* x = firstAxis(fresh, Qt::Horizontal)) x->setRange(zoom.x.x(), zoom.x.y());
        if (QAbstractAxis* y = firstAxis(fresh, Qt::Vertical)) y->setRange(zoom.y.x(), zoom.y.y());
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

// QtCharts gives the axes beside the plot at most 40 % of the chart's width (golden_ratio in its
// CartesianChartLayout) and, with truncation off, clips longer labels at the chart's left edge
// ("s sweep)...cpu-blas infer"): the category labels of horizontal bars are elided in the middle
// (keeping more of the end, and apart from each other) to what fits there. The bars' tooltips carry the full
// names.
void ChartView::fitCategoryLabels() {
    if (m_data.kind != ChartData::Kind::HorizontalBars &&
        m_data.kind != ChartData::Kind::HorizontalStackedBars)
        return;
    auto* axis = qobject_cast<QBarCategoryAxis*>(firstAxis(chart(), Qt::Vertical));
    if (!axis) return;
    constexpr qreal kAxisShare = 0.4;  // QtCharts' golden_ratio
    constexpr qreal kTickSpace = 16.0; // ticks and the gap between the labels and the plot
    constexpr qreal kNarrowest = 48.0; // a label keeps a few characters at any width
    const QMargins margins = chart()->margins();
    const qreal room = kAxisShare * (chart()->size().width() - margins.left() - margins.right()) - kTickSpace;
    const QFontMetricsF metrics(axis->labelsFont());
    QStringList names;
    for (const QString& category : m_data.categories)
        names << elideMiddle(category, kMaxLabelChars);
    const QStringList labels = elideApart(names, metrics, std::max(room, kNarrowest));
    if (labels != axis->categories()) axis->setCategories(labels);
}

// QtCharts cuts an axis title to the plot's height ("time per it..."): a chart that has a short
// form of its y title says that instead where the whole one does not fit.
void ChartView::fitValueAxisTitle() {
    const bool valueAxisVertical =
        m_data.kind == ChartData::Kind::Lines || m_data.kind == ChartData::Kind::StackedBars;
    if (!valueAxisVertical || m_data.yTitleShort.isEmpty()) return;
    QAbstractAxis* axis = firstAxis(chart(), Qt::Vertical);
    if (!axis) return;
    const QString whole = elideMiddle(m_data.yTitle, kMaxLabelChars);
    const bool fits =
        QFontMetricsF(axis->titleFont()).horizontalAdvance(whole) <= chart()->plotArea().height();
    const QString title = fits ? whole : m_data.yTitleShort;
    if (axis->titleText() != title) axis->setTitleText(title);
}

void ChartView::fitMinimumHeight() {
    const int needed = int(std::ceil(frameHeightFor(m_rendered.frame, width()))) + kMinPlotHeight;
    const int minimum = std::max(kMinHeight, needed);
    if (minimumHeight() != minimum) setMinimumHeight(minimum);
}

void ChartView::setSeriesVisible(int series, bool visible) {
    const QString name = seriesName(series);
    if (name.isEmpty() || isSeriesVisible(series) == visible) return;
    m_state.hiddenSeries.removeAll(name);
    if (!visible) m_state.hiddenSeries << name;
    if (m_data.kind != ChartData::Kind::Lines) {
        rerender(); // the value axis fits the bars left
        return;
    }
    if (series < static_cast<int>(m_rendered.parts.size()))
        for (QAbstractSeries* part : m_rendered.parts[std::size_t(series)])
            part->setVisible(visible);
    if (m_rendered.frame.legend) m_rendered.frame.legend->setSeriesHidden(series, !visible);
}

bool ChartView::isSeriesVisible(int series) const {
    const QString name = seriesName(series);
    return name.isEmpty() || !m_state.hiddenSeries.contains(name);
}

void ChartView::setViewState(ChartViewState state) {
    m_state = std::move(state);
    rerender();
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
    if (chart()->isZoomed() || m_state.zoom) m_state.zoom = shownRanges();
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
    m_state.zoom.reset();
    rerender();
}

void ChartView::setErrorBarsShown(bool shown) {
    if (m_state.errorBars == shown) return;
    m_state.errorBars = shown;
    rerender();
}

void ChartView::setLogAxes(std::optional<bool> logX, std::optional<bool> logY) {
    m_state.logX = logX;
    m_state.logY = logY;
    m_state.zoom.reset(); // ranges of one scale mean nothing on the other
    rerender();
}

bool ChartView::logX() const {
    return m_state.logX.value_or(m_data.logX);
}

bool ChartView::logY() const {
    return m_state.logY.value_or(m_data.logY);
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
