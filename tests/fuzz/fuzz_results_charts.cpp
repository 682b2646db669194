// libFuzzer target: a results file as the GUI and `rnnprof plot` see it. Text that loads as a
// result (resultFromJson, also overlaid with itself as a second file) is reduced by every chart of
// the catalog for the default choices and for each shape, backend and point the result offers, and
// every point's tooltip is built. Hand-edited files reach these functions with any numbers:
// negative or huge sizes, NaN and infinite times, unknown backends. The loader bounds what it
// accepts (recorded_limits.h); the result is also drawn with its times and rates scaled towards
// the largest doubles, as a result that bypassed the loader, so the charts' own defences are
// fuzzed too. Properties: no crash, no undefined behaviour (UBSan: e.g. an infinite double cast
// to int), no chart keeps a sample it cannot draw (isDrawable()), and every axis range the
// renderer would give QtCharts is finite and ordered (a range overflowing to inf made QtCharts'
// log axis recurse until the stack was gone).
#include "fuzz_support.h"
#include "gui/models/chart_catalog.h"
#include "gui/models/chart_data.h"
#include "profiling/files/result_files.h"

#include <cmath>

using namespace rnnprof;
using namespace rnnprof::gui;

namespace {

void checkRange(std::pair<double, double> range, bool log) {
    fuzz::require(std::isfinite(range.first) && std::isfinite(range.second), "an axis range is not finite");
    fuzz::require(range.first < range.second, "an axis range is empty or reversed");
    fuzz::require(!log || range.first > 0, "a log axis range reaches zero or below");
}

void checkDrawable(const ChartData& chart) {
    for (const ChartSeries& s : chart.series)
        for (const ChartSample& p : s.samples) {
            fuzz::require(std::isfinite(p.x) && std::isfinite(p.y), "a chart kept a NaN or infinite sample");
            fuzz::require((!chart.logX || p.x > 0) && (!chart.logY || p.y > 0),
                          "a chart kept a sample <= 0 on a log axis");
            fuzz::require(isDrawable(p.x, chart.logX) && isDrawable(p.y, chart.logY),
                          "a chart kept a sample beyond the drawable range");
        }
    const AxisRanges ranges = lineAxisRanges(chart);
    checkRange(ranges.x, chart.logX);
    checkRange(ranges.y, chart.logY);
    for (const BarSet& set : chart.barSets)
        for (double v : set.values)
            fuzz::require(isDrawable(v, false) && v >= 0, "a bar kept a value it cannot draw");
}

// `result` with its times and rates multiplied by `factor` (inf where they overflow).
SweepResult scaled(SweepResult result, double factor) {
    for (PointResult& p : result.points) {
        for (double* v :
             {&p.iteration.median, &p.iteration.p10, &p.iteration.p90, &p.iteration.min, &p.iteration.max,
              &p.iteration.mean, &p.sequencesPerSecond, &p.tokensPerSecond, &p.gflopsPerSecond})
            *v *= factor;
        for (double& v : p.phaseMedianMs)
            v *= factor;
        for (StepStat& s : p.steps)
            s.medianMs *= factor;
    }
    return result;
}

void drawEverything(const std::vector<SweepResult>& results) {
    const ChartOptions options = chartOptions(results);
    std::vector<ChartSelection> selections(1);
    fitSelection(selections.front(), options);
    const std::size_t kMaxChoices = 4; // enough to reach every code path, bounded for speed
    for (std::size_t i = 0; i < options.seqLens.size() && i < kMaxChoices; ++i) {
        ChartSelection s = selections.front();
        s.seqLen = options.seqLens[i];
        s.batch = options.batches.empty() ? 0 : options.batches[i % options.batches.size()];
        s.mode = options.modes.empty() ? Mode::Inference : options.modes[i % options.modes.size()];
        if (std::size_t(options.backends.size()) > i)
            s.backend = s.challenger = options.backends[qsizetype(i)];
        selections.push_back(s);
    }
    if (results.size() >
        1) { // a pair across files: the fastest CPU of one against the fastest GPU of another
        ChartSelection s = selections.front();
        s.baseline = QStringLiteral("fastest-cpu");
        s.baselineResult = 0;
        s.challenger = QStringLiteral("fastest-gpu");
        s.challengerResult = int(results.size()) - 1;
        selections.push_back(s);
    }
    for (std::size_t r = 0; r < results.size(); ++r)
        for (std::size_t p = 0; p < results[r].points.size() && p < kMaxChoices; ++p) {
            ChartSelection s = selections.front();
            s.selected = PointRef{int(r), int(p)};
            selections.push_back(s);
            (void)pointTooltip(results, s.selected);
        }
    for (const ChartPageSpec& page : chartCatalog())
        for (const ChartSpec& chart : page.charts)
            for (const ChartSelection& s : selections)
                checkDrawable(chart.build(results, s));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    SweepResult result;
    try {
        result = resultFromJson(fuzz::asText(data, size), "fuzz.json");
    } catch (const Error&) {
        return 0; // refusals are the results_json target's business
    }
    result.label = "fuzz.json";
    try {
        drawEverything({result});
        SweepResult second = result;
        second.label = "second.json (other host)";
        drawEverything({result, second});
        drawEverything({scaled(result, 1.1e308)});
        drawEverything({scaled(result, 1e300), scaled(second, 1e-300)});
    } catch (const std::exception& e) {
        fuzz::propertyFailed(std::string("drawing a loaded result threw: ") + e.what());
    }
    return 0;
}
