#include "gui/models/chart_time.h"

#include "gui/models/chart_lines.h"

namespace rnnprof::gui {
namespace {

// What a line chart puts on its axes: the swept dimension on x (the other one held at the
// selection's value), time per iteration or sequences per second on y.
enum class XAxis { Batch, SeqLen };
enum class YAxis { Time, Throughput };

ChartData lineChart(const std::vector<SweepResult>& results, const ChartSelection& s, XAxis x, YAxis y) {
    const bool batch = x == XAxis::Batch;
    const bool time = y == YAxis::Time;
    const QString held = batch ? QStringLiteral("sequence length %1").arg(s.seqLen)
                               : QStringLiteral("batch size %1").arg(s.batch);
    ChartData d;
    d.title = QStringLiteral("%1 vs %2 (%3)")
                  .arg(time ? QStringLiteral("Time per iteration") : QStringLiteral("Throughput"),
                       batch ? QStringLiteral("batch size") : QStringLiteral("sequence length"), held);
    d.xTitle = batch ? QStringLiteral("batch size") : QStringLiteral("sequence length");
    d.yTitle =
        time ? QStringLiteral("time per iteration [ms], median") : QStringLiteral("sequences per second");
    d.yTitleShort = time ? QStringLiteral("ms, median") : QStringLiteral("seq/s");
    d.logX = d.logY = true;
    const LineSpec spec{
        [&](const PointResult& p) { return batch ? p.shape.seqLen == s.seqLen : p.shape.batch == s.batch; },
        [batch](const PointResult& p) { return double(batch ? p.shape.batch : p.shape.seqLen); },
        [time](const PointResult& p) { return time ? p.iteration.median : p.sequencesPerSecond; }};
    d.series = linesPerBackendAndMode(results, spec);
    // Predicted times have a band; a prediction's throughput is not drawn.
    if (time) addPredictedLines(results, spec, d);
    dropUndrawable(d);
    noteWhenEmpty(d, QStringLiteral("at ") + held);
    return d;
}

} // namespace

ChartData timeVsBatch(const std::vector<SweepResult>& results, const ChartSelection& s) {
    return lineChart(results, s, XAxis::Batch, YAxis::Time);
}

ChartData timeVsSeqLen(const std::vector<SweepResult>& results, const ChartSelection& s) {
    return lineChart(results, s, XAxis::SeqLen, YAxis::Time);
}

ChartData throughputVsBatch(const std::vector<SweepResult>& results, const ChartSelection& s) {
    return lineChart(results, s, XAxis::Batch, YAxis::Throughput);
}

} // namespace rnnprof::gui
