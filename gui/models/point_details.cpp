#include "gui/models/point_details.h"

#include "gui/models/chart_selection.h"

#include <cmath>

namespace rnnprof::gui {
namespace {

QString row(const QString& key, const QString& value) {
    return QStringLiteral("<tr><td style=\"padding-right:12px\"><i>") + key.toHtmlEscaped() +
           QStringLiteral("</i></td><td>") + value.toHtmlEscaped() + QStringLiteral("</td></tr>");
}

QString bytes(std::uint64_t b) {
    return formatBytesQ(double(b));
}

// "cuDNN workspace 8.1 MiB, cuDNN reserve space 12.0 MiB": the buffers libraries sized, which the
// workspace and activations above include; empty when there are none (CPU, older files).
QString libraryBuffers(const GpuProfile& g) {
    QStringList parts;
    auto add = [&](std::string_view name, std::uint64_t b) {
        if (b > 0)
            parts << QString::fromUtf8(name.data(), qsizetype(name.size())) + QLatin1Char(' ') + bytes(b);
    };
    add(kBufferCudnnWorkspace, g.cudnnWorkspaceBytes);
    add(kBufferCudnnReserve, g.cudnnReserveBytes);
    add(kBufferCudnnDropoutStates, g.dropoutStateBytes);
    add(kBufferCublasWorkspace, g.cublasWorkspaceBytes);
    return parts.join(QStringLiteral(", "));
}

// "41.6 MiB (cuDNN workspace 9.6 MiB, other 32.0 MiB)": the workspace with the library buffers it
// holds, so that the memory total and the sizes libraries asked for read as one account. Files
// without the buffers (before they were recorded) say so instead of leaving the reader to compare
// the total with the session's notes.
QString workspaceText(const MemoryFootprint& m, const std::optional<GpuProfile>& gpu) {
    if (!gpu || !m.onDevice) return bytes(m.workspace);
    QStringList parts;
    std::uint64_t named = 0;
    auto add = [&](std::string_view name, std::uint64_t b) {
        if (b == 0) return;
        parts << QString::fromUtf8(name.data(), qsizetype(name.size())) + QLatin1Char(' ') + bytes(b);
        named += b;
    };
    add(kBufferCudnnWorkspace, gpu->cudnnWorkspaceBytes);
    add(kBufferCudnnDropoutStates, gpu->dropoutStateBytes);
    add(kBufferCublasWorkspace, gpu->cublasWorkspaceBytes);
    if (parts.isEmpty())
        return m.workspace == 0 ? bytes(0)
                                : bytes(m.workspace) + QStringLiteral(" (its parts are not in this file)");
    if (m.workspace > named) parts << QStringLiteral("other ") + bytes(m.workspace - named);
    return bytes(m.workspace) + QStringLiteral(" (") + parts.join(QStringLiteral(", ")) + QLatin1Char(')');
}

} // namespace

QString pointDetailsHtml(const std::vector<SweepResult>& results, const PointRef& ref) {
    if (ref.result < 0 || ref.result >= static_cast<int>(results.size()))
        return QStringLiteral("<i>Select a point in a chart or the table to see its details.</i>");
    const SweepResult& r = results[std::size_t(ref.result)];
    if (ref.point < 0 || ref.point >= static_cast<int>(r.points.size())) return {};
    const PointResult& p = r.points[std::size_t(ref.point)];
    QString html = QStringLiteral("<b>") + pointTitle(p).toHtmlEscaped() + QStringLiteral("</b> &nbsp; ") +
                   QString::fromStdString(describe(r.plan.config)).toHtmlEscaped() +
                   QStringLiteral("<table>");
    html += row(QStringLiteral("status"),
                QString::fromUtf8(toString(p.status).data()) +
                    (p.reason.empty() ? QString() : QStringLiteral(": ") + QString::fromStdString(p.reason)));
    if (p.measured()) { // ok, or cancelled after some runs: those runs
        const auto& it = p.iteration;
        html += row(
            QStringLiteral("iteration"),
            QStringLiteral("median %1, p10 %2, p90 %3, min %4, max %5, CV %6% over %7 runs (+%8 warm-up)%9")
                .arg(formatMs(it.median), formatMs(it.p10), formatMs(it.p90), formatMs(it.min),
                     formatMs(it.max))
                .arg(formatFixed(it.cv * 100.0, 1))
                .arg(p.measuredRuns)
                .arg(p.warmupRuns)
                .arg(p.noisy ? QStringLiteral(" — noisy") : QString()));
        QStringList phases;
        for (int i = 0; i < kPhaseCount; ++i) {
            const double v = p.phaseMedianMs[std::size_t(i)];
            if (std::isfinite(v))
                phases << QString::fromUtf8(toString(static_cast<Phase>(i)).data()) + QLatin1Char(' ') +
                              formatMs(v);
        }
        if (!phases.isEmpty()) html += row(QStringLiteral("phases"), phases.join(QStringLiteral(", ")));
        html += row(QStringLiteral("throughput"),
                    QStringLiteral("%1 sequences/s, %2 tokens/s, %3 GFLOP/s (%4 FLOP per iteration)")
                        .arg(formatNumber(p.sequencesPerSecond), formatNumber(p.tokensPerSecond),
                             formatNumber(p.gflopsPerSecond), formatNumber(double(p.flopsPerIteration))));
        const auto& m = p.memory;
        html += row(
            m.onDevice ? QStringLiteral("device memory") : QStringLiteral("memory"),
            QStringLiteral(
                "total %1: weights %2, gradients %3, activations/reserve %4, workspace %5, inputs/outputs %6")
                .arg(bytes(m.total()), bytes(m.weights), bytes(m.gradients), bytes(m.activations),
                     workspaceText(m, p.gpu), bytes(m.io)));
        if (p.peakRssGrowthBytes > 0)
            html += row(QStringLiteral("peak RSS growth"), bytes(p.peakRssGrowthBytes));
        if (p.numerics.checked)
            html += row(QStringLiteral("numerics"),
                        QStringLiteral("max abs error %1, max rel error %2 (worst: %3) %4")
                            .arg(p.numerics.maxAbsErr, 0, 'g', 3)
                            .arg(p.numerics.maxRelErr, 0, 'g', 3)
                            .arg(QString::fromStdString(p.numerics.worstTensor),
                                 QString::fromStdString(p.numerics.note)));
        if (p.gpu) {
            const GpuProfile& g = *p.gpu;
            if (g.traced)
                html +=
                    row(QStringLiteral("GPU"),
                        QStringLiteral("%1 kernels, busy %2 of %3 per iteration, tracing overhead: %4 vs %5")
                            .arg(g.kernels.size())
                            .arg(formatMs(g.gpuBusyUs / 1000.0), formatMs(g.wallUs / 1000.0),
                                 formatMs(g.tracedMedianMs), formatMs(g.untracedMedianMs)));
            else
                html += row(QStringLiteral("GPU"), QString::fromStdString(g.unavailableReason));
            for (const std::string& warning : g.warnings)
                html += row(QStringLiteral("GPU trace warning"), QString::fromStdString(warning));
            if (!g.mathType.empty())
                html += row(QStringLiteral("math type"), QString::fromStdString(g.mathType));
            const QString buffers = libraryBuffers(g);
            if (!buffers.isEmpty()) html += row(QStringLiteral("library buffers"), buffers);
        }
    }
    for (const auto& note : p.notes)
        html += row(QStringLiteral("note"), QString::fromStdString(note));
    html += row(QStringLiteral("host"), QString::fromStdString(hostStatusLine(r.host)));
    html += QStringLiteral("</table>");
    return html;
}

} // namespace rnnprof::gui
