#include "gui/charts/chart_time.h"

#include "gui/charts/chart_lines.h"

namespace rnnprof::gui {

ChartData timeVsBatch(const std::vector<SweepResult>& results, const ChartSelection& s) {
    ChartData d;
    d.title = QStringLiteral("Time per iteration vs batch size (sequence length %1)").arg(s.seqLen);
    d.xTitle = QStringLiteral("batch size");
    d.yTitle = QStringLiteral("time per iteration [ms], median");
    d.yTitleShort = QStringLiteral("ms, median");
    d.logX = d.logY = true;
    const LineSpec spec{[&](const PointResult& p) { return p.shape.seqLen == s.seqLen; },
                        [](const PointResult& p) { return double(p.shape.batch); },
                        [](const PointResult& p) { return p.iteration.median; }};
    d.series = linesPerBackendAndMode(results, spec);
    addPredictedLines(results, spec, d);
    dropUndrawable(d);
    noteWhenEmpty(d, QStringLiteral("at sequence length %1").arg(s.seqLen));
    return d;
}

ChartData timeVsSeqLen(const std::vector<SweepResult>& results, const ChartSelection& s) {
    ChartData d;
    d.title = QStringLiteral("Time per iteration vs sequence length (batch size %1)").arg(s.batch);
    d.xTitle = QStringLiteral("sequence length");
    d.yTitle = QStringLiteral("time per iteration [ms], median");
    d.yTitleShort = QStringLiteral("ms, median");
    d.logX = d.logY = true;
    const LineSpec spec{[&](const PointResult& p) { return p.shape.batch == s.batch; },
                        [](const PointResult& p) { return double(p.shape.seqLen); },
                        [](const PointResult& p) { return p.iteration.median; }};
    d.series = linesPerBackendAndMode(results, spec);
    addPredictedLines(results, spec, d);
    dropUndrawable(d);
    noteWhenEmpty(d, QStringLiteral("at batch size %1").arg(s.batch));
    return d;
}

ChartData throughputVsBatch(const std::vector<SweepResult>& results, const ChartSelection& s) {
    ChartData d;
    d.title = QStringLiteral("Throughput vs batch size (sequence length %1)").arg(s.seqLen);
    d.xTitle = QStringLiteral("batch size");
    d.yTitle = QStringLiteral("sequences per second");
    d.yTitleShort = QStringLiteral("seq/s");
    d.logX = d.logY = true;
    d.series =
        linesPerBackendAndMode(results, {[&](const PointResult& p) { return p.shape.seqLen == s.seqLen; },
                                         [](const PointResult& p) { return double(p.shape.batch); },
                                         [](const PointResult& p) { return p.sequencesPerSecond; }});
    dropUndrawable(d);
    noteWhenEmpty(d, QStringLiteral("at sequence length %1").arg(s.seqLen));
    return d;
}

} // namespace rnnprof::gui
