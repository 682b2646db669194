#include "gui/charts/export_footer.h"

#include "gui/charts/chart_renderer.h"
#include "profiling/analysis/busy_host.h"
#include "profiling/analysis/crossover.h"
#include "profiling/analysis/traced_headline.h"

#include <QStringList>

namespace rnnprof::gui {
namespace {

constexpr int kMaxNameChars = 48;

QString shortText(const std::string& text) {
    return elideMiddle(QString::fromStdString(text).simplified(), kMaxNameChars);
}

QString describeResult(const SweepResult& r, int index) {
    QStringList parts;
    if (!r.host.hostname.empty()) parts << shortText(r.host.hostname);
    if (!r.host.cpuModel.empty())
        parts << (r.host.cpuCores > 0
                      ? QStringLiteral("%1 (%2 cores)").arg(shortText(r.host.cpuModel)).arg(r.host.cpuCores)
                      : shortText(r.host.cpuModel));
    if (r.host.gpu.available && !r.host.gpu.devices.empty())
        parts << shortText(r.host.gpu.devices.front().name);
    else
        parts << QStringLiteral("no GPU");
    if (r.createdAt.size() >= 10)
        parts << (isPredictedResult(r) ? QStringLiteral("predicted ") : QStringLiteral("measured ")) +
                     shortText(r.createdAt.substr(0, 10));
    // What makes its times doubtful: another process busy on the machine, starved points.
    if (const std::string busy = hostBusyBrief(r.host, r.plan.settings.threads); !busy.empty())
        parts << QStringLiteral("machine ") + QString::fromStdString(busy);
    if (!tracedHeadlineBrief(r).empty()) parts << QStringLiteral("GPU times traced by CUPTI (inflated)");
    if (const int disturbed = disturbedPointCount(r); disturbed > 0)
        parts << QStringLiteral("%1 disturbed point(s)").arg(disturbed);
    const QString label = r.label.empty() ? QStringLiteral("result %1").arg(index + 1) : shortText(r.label);
    return label + QStringLiteral(": ") + parts.join(QStringLiteral(", "));
}

} // namespace

QString exportFooter(const std::vector<SweepResult>& results, const QDateTime& exportedAt) {
    if (results.empty()) return {};
    QStringList described;
    const int n = static_cast<int>(results.size());
    for (int i = 0; i < n && i < kMaxFooterResults; ++i)
        described << describeResult(results[std::size_t(i)], i);
    if (n > kMaxFooterResults) described << QStringLiteral("and %1 more results").arg(n - kMaxFooterResults);
    return described.join(QStringLiteral(" · ")) + QStringLiteral(" — exported ") +
           exportedAt.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")) +
           QStringLiteral(" by rnnprof");
}

} // namespace rnnprof::gui
