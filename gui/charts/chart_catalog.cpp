#include "gui/charts/chart_catalog.h"

#include "gui/charts/chart_breakdown.h"
#include "gui/charts/chart_memory.h"
#include "gui/charts/chart_speedup.h"
#include "gui/charts/chart_time.h"

namespace rnnprof::gui {

const std::vector<ChartPageSpec>& chartCatalog() {
    using S = Selector;
    static const std::vector<ChartPageSpec> catalog{
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
    };
    return catalog;
}

} // namespace rnnprof::gui
