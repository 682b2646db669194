#include "gui/charts/chart_view.h"

#include <QAbstractSeries>
#include <QBarSet>
#include <QChart>
#include <QMouseEvent>
#include <QToolTip>
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
    m_rendered = renderChart(*fresh, m_data, currentStyle());
    QChart* old = chart();
    setChart(fresh);
    delete old;
    for (int i = 0; i < static_cast<int>(m_data.series.size()); ++i)
        if (m_hiddenSeries.contains(m_data.series[std::size_t(i)].name)) setSeriesVisible(i, false);
    if (ChartLegend* legend = m_rendered.frame.legend)
        connect(legend, &ChartLegend::toggled, this,
                [this](int series) { setSeriesVisible(series, !isSeriesVisible(series)); });
    fitMinimumHeight();
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
    QString tip;
    (void)sampleAt(event->position(), &tip);
    if (!tip.isEmpty())
        QToolTip::showText(event->globalPosition().toPoint(), tip, this);
    else if (m_data.kind == ChartData::Kind::Lines)
        QToolTip::hideText();
    QChartView::mouseMoveEvent(event);
}

void ChartView::mousePressEvent(QMouseEvent* event) {
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

void ChartView::wheelEvent(QWheelEvent* event) {
    // QChartView 6.4 accepts and drops wheel events; let the surrounding page scroll instead.
    event->ignore();
}

void ChartView::changeEvent(QEvent* event) {
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && !m_fixedStyle) rerender();
}

} // namespace rnnprof::gui
