#pragma once
// What a chart shows, as plain values: the series, bars and markers of one chart, built from sweep
// results by the chart_* functions and drawn by ChartRenderer. Keeping the reduction here (no
// widgets) lets tests check exactly which points a chart receives; the renderer must not compute
// numbers of its own.
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <limits>
#include <utility>
#include <vector>

namespace rnnprof::gui {

// Which point of which loaded result a chart sample stands for (-1: none, e.g. a reference line).
struct PointRef {
    int result = -1;
    int point = -1;
    [[nodiscard]] bool valid() const { return result >= 0 && point >= 0; }
    bool operator==(const PointRef&) const = default;
};

struct ChartSample {
    double x = 0.0;
    double y = 0.0;
    bool noisy = false; // drawn hollow
    PointRef ref;
    QString tooltip; // exact values, shown on hover
    // A predicted sample's band (Prediction::lowMs/highMs), drawn as an area; for a measured time
    // the p10 and p90 of its runs, drawn as an error bar when the view shows them; NaN otherwise.
    double low = std::numeric_limits<double>::quiet_NaN();
    double high = std::numeric_limits<double>::quiet_NaN();
};

struct ChartSeries {
    QString name;
    std::vector<ChartSample> samples; // sorted by x
    bool reference = false;           // a guide such as the 1x line: dashed, no markers
    int colorIndex = -1;              // stable colour across charts (backend rank); -1: by order
    bool dashed = false;              // training mode
    bool predicted = false;           // predicted, not measured: dashed, with the band of its samples
};

// A vertical line across the plot, e.g. the crossover batch size.
struct ChartMarker {
    double x = 0.0;
    QString label; // the legend's entry: "crossover infer B≈4.9"
    QString tag{}; // written on the plot beside the line at height y: "B≈4.9" (empty: none)
    double y = std::numeric_limits<double>::quiet_NaN(); // NaN: at the top of the plot
    bool training = false; // drawn with another dash than an inference marker at the same place
    QString series{};      // the series whose crossing it marks; empty: none (it stays with any)
};

struct BarSet {
    QString name;
    std::vector<double> values; // one per category
    std::vector<QString> tooltips;
    std::vector<PointRef> refs; // the point each bar stands for
};

struct ChartData {
    // Bars: logY puts their value axis on a log scale (stacked bars then start at its minimum).
    enum class Kind { Lines, StackedBars, HorizontalBars, HorizontalStackedBars };
    Kind kind = Kind::Lines;
    QString title;
    QString xTitle;
    QString yTitle;
    QString yTitleShort; // what the y axis says when the plot is too short for yTitle (empty: cut it)
    bool logX = false;
    bool logY = false;
    int logBaseX = 2;
    int logBaseY = 10;
    std::vector<ChartSeries> series;
    std::vector<ChartMarker> markers;
    std::vector<QString> categories; // bar charts
    std::vector<BarSet> barSets;     // bar charts
    int droppedNonPositive = 0;      // samples not drawable on a log axis (<= 0, NaN or inf)
    bool errorBars = false;          // draw measured samples' low-high (p10-p90) as bars; set by the view
    QStringList notes;               // shown below the chart: dropped points, crossovers, why empty

    [[nodiscard]] bool empty() const;
    [[nodiscard]] int sampleCount() const;
};

// Whether a value can be placed on an axis: finite, within the recorded range
// (isWithinRecordedRange(), profiling/files/recorded_limits.h; QtCharts' log axis recurses until the
// stack is gone near 1.8e308) and, on a logarithmic axis, above zero. The one rule for chart
// builders and the renderer.
[[nodiscard]] bool isDrawable(double v, bool logAxis);

// The axis range for values in [lo, hi], finite and ordered (lo < hi) whatever comes in: values
// beyond the recorded range (kMaxRecordedValue) are clamped to it, NaN gives a default range. The
// range is on a log axis widened to whole powers of `base` so the axis
// always shows at least two labelled ticks; on a linear axis from 0 (or below) with 10 % headroom.
[[nodiscard]] std::pair<double, double> axisRange(double lo, double hi, bool log, int base);

// The axis ranges of a line chart, as the renderer gives them to QtCharts: axisRange() over its
// drawable samples and markers (isDrawable()), a default range where there are none.
struct AxisRanges {
    std::pair<double, double> x;
    std::pair<double, double> y;
};
[[nodiscard]] AxisRanges lineAxisRanges(const ChartData& data);

// Removes samples that cannot be drawn (isDrawable(): NaN, inf, absurdly large, and <= 0 on a log
// axis, where QLogValueAxis drops a whole series when one value is <= 0), counts them and adds a note saying
// so. Removes series left empty. Every chart builder ends with it.
void dropUndrawable(ChartData& data);

// `text` cut in the middle to at most `maxChars` characters ("gpu-cud…_static"), so that both
// ends of a long name stay readable.
[[nodiscard]] QString elideMiddle(const QString& text, int maxChars);

// Numbers in tooltips, labels and notes stay short whatever a file holds (1e300 has 301 digits in
// fixed point): beyond a bound, each of these writes an exponent.
// `v` with `decimals` decimals below 1e6 ("12.3"), else "1.23e+07".
[[nodiscard]] QString formatFixed(double v, int decimals);
// "3.21 ms", "850 µs", "1.20 s", "1.00e+12 s"
[[nodiscard]] QString formatMs(double ms);
// "12.4 GiB"
[[nodiscard]] QString formatBytesQ(double bytes);
// "1.23k", "45.6", "0.123", "1.00e+300": a compact number for tooltips
[[nodiscard]] QString formatNumber(double v);

} // namespace rnnprof::gui

Q_DECLARE_METATYPE(rnnprof::gui::PointRef)
