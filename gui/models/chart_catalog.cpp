#include "gui/models/chart_catalog.h"

#include "gui/models/chart_breakdown.h"
#include "gui/models/chart_memory.h"
#include "gui/models/chart_speedup.h"
#include "gui/models/chart_time.h"
#include "profiling/analysis/busy_host.h"
#include "profiling/analysis/crossover.h"
#include "profiling/analysis/traced_headline.h"

namespace rnnprof::gui {

QStringList machineNotes(const std::vector<SweepResult>& results) {
    QStringList notes;
    for (std::size_t i = 0; i < results.size(); ++i) {
        const SweepResult& r = results[i];
        const QString name =
            r.label.empty() ? QStringLiteral("result %1").arg(i + 1) : QString::fromStdString(r.label);
        const std::string busy = hostBusyBrief(r.host, r.plan.settings.threads);
        if (!busy.empty()) notes << QStringLiteral("%1: %2").arg(name, QString::fromStdString(busy));
        if (const std::string traced = tracedHeadlineBrief(r); !traced.empty())
            notes << QStringLiteral("%1: %2").arg(name, QString::fromStdString(traced));
        if (const int disturbed = disturbedPointCount(r); disturbed > 0)
            notes << QStringLiteral(
                         "%1: %2 disturbed point(s): other processes took their CPU while they ran "
                         "(hollow markers)")
                         .arg(name)
                         .arg(disturbed);
        // A prediction overlaid on measurements of another model (opened after it was made).
        if (isPredictedResult(r))
            for (const SweepResult& other : results)
                if (!isPredictedResult(other) && !other.points.empty())
                    if (const auto d = modelDifferences(other.plan.config, r.plan.config); !d.empty()) {
                        notes << QStringLiteral("%1: predicted for another model than %2 (%3)")
                                     .arg(name, QString::fromStdString(other.label),
                                          QString::fromStdString(describeDifferences(d)));
                        break;
                    }
    }
    return notes;
}

namespace {

// Every chart's notes end with what makes its numbers doubtful: a busy machine, disturbed points.
ChartBuilder withMachineNotes(ChartBuilder build) {
    return [build = std::move(build)](const std::vector<SweepResult>& results, const ChartSelection& s) {
        ChartData d = build(results, s);
        d.notes << machineNotes(results);
        return d;
    };
}

std::vector<ChartPageSpec> withMachineNotes(std::vector<ChartPageSpec> pages) {
    for (ChartPageSpec& page : pages)
        for (ChartSpec& chart : page.charts)
            chart.build = withMachineNotes(std::move(chart.build));
    return pages;
}

} // namespace

const std::vector<ChartPageSpec>& chartCatalog() {
    using S = Selector;
    static const std::vector<ChartPageSpec> catalog = withMachineNotes({
        {QStringLiteral("time-vs-batch"),
         QStringLiteral("Time vs batch"),
         {S::SeqLen},
         {{QStringLiteral("time-vs-batch"), timeVsBatch, {S::SeqLen}}},
         false},
        {QStringLiteral("time-vs-seqlen"),
         QStringLiteral("Time vs sequence"),
         {S::Batch},
         {{QStringLiteral("time-vs-seqlen"), timeVsSeqLen, {S::Batch}}},
         false},
        {QStringLiteral("throughput"),
         QStringLiteral("Throughput"),
         {S::SeqLen},
         {{QStringLiteral("throughput"), throughputVsBatch, {S::SeqLen}}},
         false},
        {QStringLiteral("speedup"),
         QStringLiteral("Speedup && crossover"),
         {S::Baseline, S::Challenger, S::SeqLen},
         {{QStringLiteral("speedup"), speedupVsBatch, {S::SeqLen}},
          {QStringLiteral("crossover"), crossoverVsSeqLen, {}}},
         false,
         true},
        {QStringLiteral("memory"),
         QStringLiteral("Memory"),
         {S::Backend, S::Mode, S::SeqLen},
         {{QStringLiteral("memory"), memoryVsBatch, {S::Backend, S::SeqLen, S::Mode}}},
         false},
        {QStringLiteral("breakdown"),
         QStringLiteral("Breakdown"),
         {S::PhaseScale},
         {{QStringLiteral("phases"), phaseBreakdown, {}},
          {QStringLiteral("top-steps"), [](const auto& r, const auto& s) { return topSubsteps(r, s); }, {}}},
         true},
    });
    return catalog;
}

} // namespace rnnprof::gui
