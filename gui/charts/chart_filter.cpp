#include "gui/charts/chart_filter.h"

#include <algorithm>
#include <set>
#include <utility>

namespace rnnprof::gui {

void keepShownPoints(ChartData& data, const std::vector<PointRef>& shown) {
    std::set<std::pair<int, int>> keep;
    for (const PointRef& ref : shown)
        keep.insert({ref.result, ref.point});
    std::erase_if(data.series, [&](ChartSeries& series) {
        if (series.reference || series.samples.empty()) return false;
        std::erase_if(series.samples, [&](const ChartSample& s) {
            return s.ref.valid() && !keep.contains({s.ref.result, s.ref.point});
        });
        return series.samples.empty();
    });
    // A crossing of a series the filter removed goes with it.
    std::erase_if(data.markers, [&](const ChartMarker& m) {
        return !m.series.isEmpty() && std::none_of(data.series.begin(), data.series.end(),
                                                   [&](const ChartSeries& s) { return s.name == m.series; });
    });
}

} // namespace rnnprof::gui
