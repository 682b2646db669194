#include "gui/charts/chart_renderer.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QHorizontalBarSeries>
#include <QHorizontalStackedBarSeries>
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

std::pair<double, double> rangeOf(const QAbstractAxis* axis) {
    if (const auto* l = qobject_cast<const QLogValueAxis*>(axis)) return {l->min(), l->max()};
    if (const auto* v = qobject_cast<const QValueAxis*>(axis)) return {v->min(), v->max()};
    return {0.0, 0.0};
}

void restoreRange(QAbstractAxis* axis, std::pair<double, double> range) {
    if (range.first < range.second) axis->setRange(range.first, range.second);
}

// QtCharts 6.4 lays out a bar series on a log axis through a point at value 0 (the bars' own
// base) and warns "Logarithms of zero and negative values are undefined" on every layout, though
// it draws the bars from the axis minimum. This filter, put in front of whatever handler is
// installed, drops that one message; every other goes on.
class LogZeroWarningFilter {
public:
    static void install() {
        const QtMessageHandler previous = qInstallMessageHandler(&filter);
        if (previous != &filter) s_previous = previous;
    }

private:
    static void filter(QtMsgType type, const QMessageLogContext& context, const QString& message) {
        if (message.startsWith(QStringLiteral("Logarithms of zero"))) return;
        if (s_previous)
            s_previous(type, context, message);
        else
            qt_message_output(type, context, message);
    }
    static inline QtMessageHandler s_previous = nullptr;
};

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

QScatterSeries::MarkerShape markerShapeOf(int round) {
    switch (round % 3) {
    case 1:
        return QScatterSeries::MarkerShapeRectangle;
    case 2:
        return QScatterSeries::MarkerShapeTriangle;
    default:
        return QScatterSeries::MarkerShapeCircle;
    }
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

std::vector<LegendEntry> renderLines(QChart& chart, const ChartData& d, const ChartStyle& style,
                                     RenderedChart& out) {
    // Builders drop what cannot be drawn (dropUndrawable()); whatever else comes in is left out
    // here too, so that no value outside isDrawable() reaches an axis or a series.
    auto drawable = [&](double x, double y) { return isDrawable(x, d.logX) && isDrawable(y, d.logY); };
    const AxisRanges ranges = lineAxisRanges(d);
    QAbstractAxis* ax = makeAxis(d.logX, d.logBaseX, ranges.x, d.xTitle, style);
    QAbstractAxis* ay = makeAxis(d.logY, d.logBaseY, ranges.y, d.yTitle, style);
    chart.addAxis(ax, Qt::AlignBottom);
    chart.addAxis(ay, Qt::AlignLeft);
    const auto xRange = rangeOf(ax), yRange = rangeOf(ay);
    auto attach = [&](QXYSeries* s) {
        chart.addSeries(s);
        s->attachAxis(ax);
        s->attachAxis(ay);
    };
    bool anyNoisy = false;
    std::vector<int> keys;
    for (std::size_t i = 0; i < d.series.size(); ++i)
        keys.push_back(d.series[i].colorIndex >= 0 ? d.series[i].colorIndex : int(i));
    const std::vector<int> colorSlots = distinctColorSlots(keys);
    std::vector<LegendEntry> legend;
    for (std::size_t i = 0; i < d.series.size(); ++i) {
        const ChartSeries& s = d.series[i];
        const QColor color = s.reference ? style.foreground : seriesColor(colorSlots[i], style.dark);
        const int round = paletteRound(colorSlots[i]);
        out.colors.push_back(color);
        out.parts.emplace_back();
        auto& parts = out.parts.back();
        const std::size_t before = std::size_t(chart.series().size());
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
        legend.push_back({elideMiddle(s.name, kMaxLabelChars), color, LegendEntry::Swatch::Line, pen.style(),
                          s.reference ? -1 : round, int(i)});
        if (s.reference) {
            parts.push_back(line);
            continue;
        }
        if (d.errorBars && !s.predicted) addErrorBars(chart, s, color, d, attach);
        auto* filled = new QScatterSeries;
        filled->setMarkerShape(markerShapeOf(round));
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
        const QList<QAbstractSeries*> drawn = chart.series();
        for (qsizetype k = qsizetype(before); k < drawn.size(); ++k)
            parts.push_back(drawn[k]);
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
        legend.push_back({elideMiddle(m.label, kMaxLabelChars), style.foreground, LegendEntry::Swatch::Line,
                          markerPen(m, style).style(), 0, -1});
    }
    // Attaching series lets QtCharts recompute its domain, which collapses a tiny log range
    // (1e-297) to a single value; the axes get back the ranges set above.
    restoreRange(ax, xRange);
    restoreRange(ay, yRange);
    if (anyNoisy)
        // An entry explaining the hollow markers.
        legend.push_back({QStringLiteral("hollow marker: noisy (high spread)"), style.foreground,
                          LegendEntry::Swatch::HollowMarker, Qt::SolidLine, 0, -1});
    return legend;
}

std::vector<LegendEntry> renderBars(QChart& chart, const ChartData& d, const ChartStyle& style,
                                    RenderedChart& out) {
    std::vector<LegendEntry> legend;
    const bool horizontal =
        d.kind == ChartData::Kind::HorizontalBars || d.kind == ChartData::Kind::HorizontalStackedBars;
    const bool stackedSeries = d.kind != ChartData::Kind::HorizontalBars;
    QAbstractBarSeries* series = nullptr;
    if (d.kind == ChartData::Kind::HorizontalBars)
        series = new QHorizontalBarSeries;
    else if (d.kind == ChartData::Kind::HorizontalStackedBars)
        series = new QHorizontalStackedBarSeries;
    else
        series = new QStackedBarSeries;
    double total = 0.0;
    double smallest = std::numeric_limits<double>::infinity(); // the smallest bar, for a log axis
    std::vector<double> stacked(d.categories.size(), 0.0);
    for (std::size_t i = 0; i < d.barSets.size(); ++i) {
        const BarSet& b = d.barSets[i];
        auto* set = new QBarSet(elideMiddle(b.name, kMaxLabelChars));
        QList<qreal> values;
        for (double v : b.values)
            values << (isDrawable(v, false) && v >= 0.0 ? v : 0.0); // as dropUndrawable() does
        set->append(values);
        const QColor color = seriesColor(int(i), style.dark);
        set->setColor(color);
        set->setBorderColor(color);
        out.colors.push_back(color);
        legend.push_back(
            {elideMiddle(b.name, kMaxLabelChars), color, LegendEntry::Swatch::Box, Qt::SolidLine, 0, int(i)});
        series->append(set);
        out.barSets.push_back(set);
        for (std::size_t c = 0; c < std::size_t(values.size()) && c < stacked.size(); ++c) {
            const double v = values[qsizetype(c)];
            stacked[c] = stackedSeries ? stacked[c] + v : std::max(stacked[c], v);
            total = std::max(total, stacked[c]);
            if (v > 0.0) smallest = std::min(smallest, v);
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
    // Builders bound their labels (kMaxLabelChars, the breakdown's shorter elision in the middle);
    // QtCharts' own truncation would cut them to "..." wherever the axis is squeezed.
    categories->setTruncateLabels(false);
    const bool log = d.logY && std::isfinite(smallest);
    QAbstractAxis* values =
        log ? makeAxis(true, d.logBaseY, axisRange(smallest, total, true, d.logBaseY), d.yTitle, style)
            : makeAxis(false, 10, axisRange(0.0, total > 0 ? total : 1.0, false, 10), d.yTitle, style);
    chart.addAxis(categories, horizontal ? Qt::AlignLeft : Qt::AlignBottom);
    chart.addAxis(values, horizontal ? Qt::AlignBottom : Qt::AlignLeft);
    series->attachAxis(categories);
    if (log) LogZeroWarningFilter::install();
    series->attachAxis(values);
    if (horizontal && d.barSets.size() == 1) legend.clear(); // the axis says what the bars are
    return legend;
}

} // namespace

RenderedChart renderChart(QChart& chart, const ChartData& d, const ChartStyle& style) {
    RenderedChart out;
    chart.removeAllSeries();
    for (QAbstractAxis* axis : chart.axes()) {
        chart.removeAxis(axis);
        delete axis;
    }
    applyChartStyle(chart, style);
    // The title and the legend are drawn by frameChart(), wrapped instead of elided; QLegend only
    // keeps the series' names.
    chart.setTitle(QString());
    chart.legend()->setVisible(false);
    std::vector<LegendEntry> legend;
    if (d.kind == ChartData::Kind::Lines)
        legend = renderLines(chart, d, style, out);
    else if (!d.empty())
        legend = renderBars(chart, d, style, out);
    // Any series on both axes maps the marker tags (a chart of markers only has just those).
    QXYSeries* anchor = out.anchors.empty() ? nullptr : out.anchors.front();
    for (QAbstractSeries* s : chart.series())
        if (!anchor) anchor = qobject_cast<QXYSeries*>(s);
    out.frame =
        frameChart(chart, elideMiddle(d.title, kMaxTitleChars), std::move(legend),
                   d.kind == ChartData::Kind::Lines ? d.markers : std::vector<ChartMarker>{}, anchor, style);
    return out;
}

} // namespace rnnprof::gui
