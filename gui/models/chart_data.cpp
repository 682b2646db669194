#include "gui/models/chart_data.h"

#include "engine/host_memory.h"
#include "profiling/files/recorded_limits.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rnnprof::gui {

bool ChartData::empty() const {
    if (kind == Kind::Lines) {
        return std::none_of(series.begin(), series.end(),
                            [](const ChartSeries& s) { return !s.reference && !s.samples.empty(); });
    }
    return categories.empty() || barSets.empty();
}

int ChartData::sampleCount() const {
    int n = 0;
    for (const auto& s : series)
        if (!s.reference) n += static_cast<int>(s.samples.size());
    return n;
}

bool isDrawable(double v, bool logAxis) {
    return isWithinRecordedRange(v) && (!logAxis || v > 0.0);
}

std::pair<double, double> axisRange(double lo, double hi, bool log, int base) {
    if (!std::isfinite(lo) || !std::isfinite(hi) || hi < lo)
        return log ? std::pair{1.0, 10.0} : std::pair{0.0, 1.0};
    if (base < 2) base = 10;
    // Values beyond the recorded range (isDrawable()) are clamped to it: the widened range below
    // must stay finite, or QtCharts' log axis and domain set each other's range until the stack
    // is gone.
    if (log && lo <= 0) lo = hi > 0 ? hi / base : 1.0;
    if (log && hi <= 0) hi = lo * base;
    lo = std::clamp(lo, log ? 1.0 / kMaxRecordedValue : -kMaxRecordedValue, kMaxRecordedValue);
    hi = std::clamp(hi, lo, kMaxRecordedValue);
    if (log) {
        const double b = double(base);
        const double a = std::pow(b, std::floor(std::log(lo) / std::log(b) + 1e-9));
        double c = std::pow(b, std::ceil(std::log(hi) / std::log(b) - 1e-9));
        if (c <= a) c = a * b;
        return {a, c};
    }
    const double a = std::min(0.0, lo);
    const double c = hi > a ? hi + 0.1 * (hi - a) : a + 1.0;
    return {a, c};
}

AxisRanges lineAxisRanges(const ChartData& d) {
    double xlo = std::numeric_limits<double>::infinity(), xhi = -xlo, ylo = xlo, yhi = -xlo;
    for (const auto& s : d.series)
        for (const auto& p : s.samples) {
            if (!isDrawable(p.x, d.logX) || !isDrawable(p.y, d.logY)) continue;
            xlo = std::min(xlo, p.x), xhi = std::max(xhi, p.x);
            ylo = std::min(ylo, p.y), yhi = std::max(yhi, p.y);
        }
    for (const auto& m : d.markers)
        if (isDrawable(m.x, d.logX)) xlo = std::min(xlo, m.x), xhi = std::max(xhi, m.x);
    if (!std::isfinite(xlo)) xlo = 1, xhi = 10;
    if (!std::isfinite(ylo)) ylo = 1, yhi = 10;
    return {axisRange(xlo, xhi, d.logX, d.logBaseX), axisRange(ylo, yhi, d.logY, d.logBaseY)};
}

void dropUndrawable(ChartData& data) {
    int dropped = 0;
    for (auto& s : data.series) {
        auto bad = [&](const ChartSample& p) {
            return !isDrawable(p.x, data.logX) || !isDrawable(p.y, data.logY);
        };
        const auto before = s.samples.size();
        std::erase_if(s.samples, bad);
        if (!s.reference) dropped += static_cast<int>(before - s.samples.size());
    }
    std::erase_if(data.series, [](const ChartSeries& s) { return s.samples.empty(); });
    for (auto& set : data.barSets)
        for (auto& v : set.values)
            if (!isDrawable(v, false) || v < 0.0) {
                v = 0.0;
                ++dropped;
            }
    if (dropped > 0) {
        data.droppedNonPositive += dropped;
        data.notes << QStringLiteral(
                          "%1 value(s) not drawn: zero, negative or undefined values cannot be shown "
                          "on a logarithmic axis, nor values beyond %2")
                          .arg(dropped)
                          .arg(kMaxRecordedValue, 0, 'g');
    }
}

QString elideMiddle(const QString& text, int maxChars) {
    if (text.size() <= maxChars) return text;
    const QString ellipsis(QChar(0x2026));
    const qsizetype keep = std::max<qsizetype>(0, maxChars - ellipsis.size());
    const qsizetype head = (keep + 1) / 2;
    return text.left(head) + ellipsis + text.right(keep - head);
}

QString formatFixed(double v, int decimals) {
    if (std::fabs(v) < 1e6) return QString::number(v, 'f', decimals);
    return QString::number(v, 'e', 2);
}

QString formatMs(double ms) {
    if (!std::isfinite(ms)) return QStringLiteral("n/a");
    const double a = std::fabs(ms);
    if (a >= 1000.0) return formatFixed(ms / 1000.0, 2) + QStringLiteral(" s");
    if (a >= 1.0) return formatFixed(ms, a >= 100 ? 1 : 3) + QStringLiteral(" ms");
    return formatFixed(ms * 1000.0, a * 1000.0 >= 100 ? 0 : 1) + QStringLiteral(" µs");
}

QString formatBytesQ(double bytes) {
    if (!std::isfinite(bytes) || bytes < 0) return QStringLiteral("n/a");
    // Beyond what 64 bits count (16 EiB) the conversion below would be undefined.
    if (bytes >= 0x1p64) return formatFixed(bytes, 0) + QStringLiteral(" B");
    return QString::fromStdString(formatBytes(static_cast<std::uint64_t>(bytes)));
}

QString formatNumber(double v) {
    if (!std::isfinite(v)) return QStringLiteral("n/a");
    const double a = std::fabs(v);
    if (a >= 1e12) return formatFixed(v, 2); // with an exponent
    if (a >= 1e9) return QString::number(v / 1e9, 'f', 2) + QLatin1Char('G');
    if (a >= 1e6) return QString::number(v / 1e6, 'f', 2) + QLatin1Char('M');
    if (a >= 1e4) return QString::number(v / 1e3, 'f', 1) + QLatin1Char('k');
    if (a >= 100) return QString::number(v, 'f', 0);
    if (a >= 1) return QString::number(v, 'f', 2);
    return QString::number(v, 'g', 3);
}

} // namespace rnnprof::gui
