#include "gui/charts/chart_renderer.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QHorizontalBarSeries>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rnnprof::gui {
namespace {

// QtCharts elides labels that do not fit in time quadratic in their length (20 kB of text took
// 650 MB); names from result files are bounded, and what reaches QtCharts is shortened here.
constexpr int kMaxTitleChars = 160;

// `range` from axisRange(): finite and ordered.
QAbstractAxis* makeAxis(bool log, int base, std::pair<double, double> range, const QString& title,
                        const ChartStyle& style) {
    const auto [a, b] = range;
    QAbstractAxis* axis = nullptr;
    if (log) {
        auto* l = new QLogValueAxis;
        l->setBase(base);
        l->setLabelFormat(QStringLiteral("%g"));
        l->setMinorTickCount(base == 10 ? 8 : 0);
        // Widen a little so markers on the first and last value are not cut in half.
        l->setRange(a / std::pow(base, 0.06), b * std::pow(base, 0.06));
        axis = l;
    } else {
        auto* v = new QValueAxis;
        v->setRange(a, b);
        v->setLabelFormat(QStringLiteral("%.3g"));
        v->applyNiceNumbers();
        axis = v;
    }
    axis->setTitleText(elideMiddle(title, kMaxLabelChars));
    axis->setLabelsColor(style.foreground);
    axis->setTitleBrush(style.foreground);
    axis->setGridLineColor(style.grid);
    axis->setMinorGridLineColor(
        QColor(style.grid.red(), style.grid.green(), style.grid.blue(), style.grid.alpha() / 2));
    return axis;
}

void hideFromLegend(QChart& chart, QAbstractSeries* series) {
    for (QLegendMarker* m : chart.legend()->markers(series))
        m->setVisible(false);
}

// The band of a predicted series: the area between its samples' low and high times, translucent
// in the series' colour, behind the dashed line and out of the legend. A sample whose band is
// open above (no upper bound) is drawn up to its own time there.
void addBand(QChart& chart, const ChartSeries& s, const QColor& color, QAbstractAxis* ax, QAbstractAxis* ay) {
    QList<QPointF> upper, lower;
    for (const auto& p : s.samples) {
        if (!std::isfinite(p.low) || p.low <= 0) continue;
        lower << QPointF(p.x, p.low);
        upper << QPointF(p.x, std::isfinite(p.high) && p.high > 0 ? p.high : p.y);
    }
    if (lower.isEmpty()) return;
    auto* hi = new QLineSeries;
    auto* lo = new QLineSeries;
    hi->replace(upper);
    lo->replace(lower);
    auto* area = new QAreaSeries(hi, lo);
    hi->setParent(area);
    lo->setParent(area);
    area->setName(s.name + QStringLiteral(" (band)"));
    QColor fill = color;
    fill.setAlpha(50);
    area->setBrush(fill);
    area->setPen(QPen(Qt::NoPen));
    chart.addSeries(area);
    area->attachAxis(ax);
    area->attachAxis(ay);
    hideFromLegend(chart, area);
}

// Inference and training crossovers may fall on the same batch: a different dash and weight
// tells them apart where colour cannot (both are drawn in the foreground colour).
QPen markerPen(const ChartMarker& m, const ChartStyle& style) {
    return m.training ? QPen(style.foreground, 2.0, Qt::DotLine)
                      : QPen(style.foreground, 1.5, Qt::DashDotLine);
}

// One short vertical segment per sample from its low to its high time (p10-p90), thin, in the
// series' colour and left out of the legend; QtCharts has no error-bar series.
template <class Attach>
void addErrorBars(QChart& chart, const ChartSeries& s, const QColor& color, const ChartData& d,
                  Attach attach) {
    for (const ChartSample& p : s.samples) {
        if (!isDrawable(p.x, d.logX) || !isDrawable(p.low, d.logY) || !isDrawable(p.high, d.logY)) continue;
        auto* bar = new QLineSeries;
        bar->setObjectName(QStringLiteral("errorBar"));
        bar->setPen(QPen(color, 1.5));
        bar->replace(QList<QPointF>{{p.x, p.low}, {p.x, p.high}});
        attach(bar);
        hideFromLegend(chart, bar);
    }
}

void renderLines(QChart& chart, const ChartData& d, const ChartStyle& style, RenderedChart& out) {
    // Builders drop what cannot be drawn (dropUndrawable()); whatever else comes in is left out
    // here too, so that no value outside isDrawable() reaches an axis or a series.
    auto drawable = [&](double x, double y) { return isDrawable(x, d.logX) && isDrawable(y, d.logY); };
    const AxisRanges ranges = lineAxisRanges(d);
    QAbstractAxis* ax = makeAxis(d.logX, d.logBaseX, ranges.x, d.xTitle, style);
    QAbstractAxis* ay = makeAxis(d.logY, d.logBaseY, ranges.y, d.yTitle, style);
    chart.addAxis(ax, Qt::AlignBottom);
    chart.addAxis(ay, Qt::AlignLeft);
    auto attach = [&](QXYSeries* s) {
        chart.addSeries(s);
        s->attachAxis(ax);
        s->attachAxis(ay);
    };
    bool anyNoisy = false;
    for (std::size_t i = 0; i < d.series.size(); ++i) {
        const ChartSeries& s = d.series[i];
        const QColor color = s.reference ? style.foreground
                                         : seriesColor(s.colorIndex >= 0 ? s.colorIndex : int(i), style.dark);
        QList<QPointF> all, normal, noisy;
        for (const auto& p : s.samples) {
            if (!drawable(p.x, p.y)) continue;
            all << QPointF(p.x, p.y);
            (p.noisy ? noisy : normal) << QPointF(p.x, p.y);
        }
        if (s.predicted) addBand(chart, s, color, ax, ay);
        auto* line = new QLineSeries;
        line->setName(elideMiddle(s.name, kMaxLabelChars));
        QPen pen(color, s.reference ? 1.0 : 2.0);
        if (s.reference || s.dashed || s.predicted) pen.setStyle(s.reference ? Qt::DotLine : Qt::DashLine);
        line->setPen(pen);
        line->replace(all); // one signal instead of one per point
        attach(line);
        out.anchors.push_back(line);
        if (s.reference) continue;
        if (d.errorBars && !s.predicted) addErrorBars(chart, s, color, d, attach);
        auto* filled = new QScatterSeries;
        filled->setMarkerSize(8);
        filled->setColor(color);
        filled->setBorderColor(color);
        filled->replace(normal);
        attach(filled);
        hideFromLegend(chart, filled);
        if (!noisy.isEmpty()) {
            anyNoisy = true;
            auto* hollow = new QScatterSeries;
            hollow->setMarkerSize(11);
            hollow->setBrush(style.background);
            hollow->setPen(QPen(color, 2.0));
            hollow->replace(noisy);
            attach(hollow);
            hideFromLegend(chart, hollow);
        }
    }
    // Vertical markers span far beyond the data (the plot area clips them), but no further than
    // the axis can go.
    const auto [yAxisLo, yAxisHi] = ranges.y;
    const double span = yAxisHi - yAxisLo;
    const double below = d.logY ? yAxisLo / 1e3 : yAxisLo - 1e3 * span;
    const double above = d.logY ? yAxisHi * 1e3 : yAxisHi + 1e3 * span;
    for (const ChartMarker& m : d.markers) {
        if (!isDrawable(m.x, d.logX)) continue;
        auto* v = new QLineSeries;
        v->setName(elideMiddle(m.label, kMaxLabelChars));
        v->setPen(markerPen(m, style));
        v->replace(QList<QPointF>{{m.x, below}, {m.x, above}});
        attach(v);
    }
    if (anyNoisy) {
        // A legend entry explaining the hollow markers; it has no points of its own.
        auto* legend = new QScatterSeries;
        legend->setName(QStringLiteral("hollow marker: noisy (high spread)"));
        legend->setMarkerSize(11);
        legend->setBrush(style.background);
        legend->setPen(QPen(style.foreground, 2.0));
        attach(legend);
    }
}

void renderBars(QChart& chart, const ChartData& d, const ChartStyle& style, RenderedChart& out) {
    const bool horizontal = d.kind == ChartData::Kind::HorizontalBars;
    QAbstractBarSeries* series = horizontal ? static_cast<QAbstractBarSeries*>(new QHorizontalBarSeries)
                                            : static_cast<QAbstractBarSeries*>(new QStackedBarSeries);
    double total = 0.0;
    std::vector<double> stacked(d.categories.size(), 0.0);
    for (std::size_t i = 0; i < d.barSets.size(); ++i) {
        const BarSet& b = d.barSets[i];
        auto* set = new QBarSet(elideMiddle(b.name, kMaxLabelChars));
        QList<qreal> values;
        for (double v : b.values)
            values << (isDrawable(v, false) && v >= 0.0 ? v : 0.0); // as dropUndrawable() does
        set->append(values);
        set->setColor(seriesColor(int(i), style.dark));
        set->setBorderColor(seriesColor(int(i), style.dark));
        series->append(set);
        out.barSets.push_back(set);
        for (std::size_t c = 0; c < std::size_t(values.size()) && c < stacked.size(); ++c) {
            stacked[c] =
                horizontal ? std::max(stacked[c], values[qsizetype(c)]) : stacked[c] + values[qsizetype(c)];
            total = std::max(total, stacked[c]);
        }
    }
    chart.addSeries(series);
    auto* categories = new QBarCategoryAxis;
    QStringList names;
    for (const QString& c : d.categories)
        names << elideMiddle(c, kMaxLabelChars);
    categories->append(names);
    categories->setLabelsColor(style.foreground);
    categories->setGridLineVisible(false);
    QAbstractAxis* values =
        makeAxis(false, 10, axisRange(0.0, total > 0 ? total : 1.0, false, 10), d.yTitle, style);
    chart.addAxis(categories, horizontal ? Qt::AlignLeft : Qt::AlignBottom);
    chart.addAxis(values, horizontal ? Qt::AlignBottom : Qt::AlignLeft);
    series->attachAxis(categories);
    series->attachAxis(values);
    if (horizontal && d.barSets.size() == 1) chart.legend()->setVisible(false);
}

} // namespace

QString elideMiddle(const QString& text, int maxChars) {
    if (text.size() <= maxChars) return text;
    const QString ellipsis(QChar(0x2026));
    const qsizetype keep = std::max<qsizetype>(0, maxChars - ellipsis.size());
    const qsizetype head = (keep + 1) / 2;
    return text.left(head) + ellipsis + text.right(keep - head);
}

RenderedChart renderChart(QChart& chart, const ChartData& d, const ChartStyle& style) {
    RenderedChart out;
    chart.removeAllSeries();
    for (QAbstractAxis* axis : chart.axes()) {
        chart.removeAxis(axis);
        delete axis;
    }
    applyChartStyle(chart, style);
    // Plain text: QtCharts elides a rich-text title as a whole. Notes are shown beside the chart
    // (ChartPage) and below it in exported files (exportChart).
    chart.setTitle(elideMiddle(d.title, kMaxTitleChars));
    chart.legend()->setVisible(true);
    chart.legend()->setAlignment(Qt::AlignBottom);
    // Line samples in the legend show the dash of training series; bars keep their squares.
    chart.legend()->setMarkerShape(d.kind == ChartData::Kind::Lines ? QLegend::MarkerShapeFromSeries
                                                                    : QLegend::MarkerShapeRectangle);
    if (d.kind == ChartData::Kind::Lines)
        renderLines(chart, d, style, out);
    else if (!d.empty())
        renderBars(chart, d, style, out);
    return out;
}

} // namespace rnnprof::gui
