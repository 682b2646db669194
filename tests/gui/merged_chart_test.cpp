// A merged result (rnnprof merge) in the charts: points of another kind of machine are their own
// series, named after that machine; shards measured on identical nodes stay one series.
#include "gui/fake_results.h"
#include "gui/models/chart_time.h"

#include <gtest/gtest.h>

namespace rnnprof::gui {
namespace {

using test::fakeSweep;

// fakeSweep's points twice: as measured on its host and on `other` (hostIndex 1).
SweepResult mergedWith(const HostInfo& other) {
    SweepResult r = fakeSweep("node01");
    r.otherHosts = {other};
    const std::size_t n = r.points.size();
    for (std::size_t i = 0; i < n; ++i) {
        PointResult p = r.points[i];
        p.hostIndex = 1;
        r.points.push_back(p);
    }
    return r;
}

ChartSelection atSeqLen10() {
    ChartSelection s;
    s.seqLen = 10;
    s.batch = 1;
    s.backend = QStringLiteral("slow-cpu");
    return s;
}

QStringList seriesNames(const ChartData& d) {
    QStringList names;
    for (const ChartSeries& s : d.series)
        names << s.name;
    return names;
}

TEST(MergedResultChart, PointsOfAnotherMachineAreASeriesNamedAfterIt) {
    HostInfo other = fakeSweep().host;
    other.hostname = "gpu-box";
    other.cpuModel = "Other CPU";
    const ChartData d = timeVsBatch({mergedWith(other)}, atSeqLen10());
    const QStringList names = seriesNames(d);
    EXPECT_EQ(names.size(), 4) << names.join(QStringLiteral(" | ")).toStdString();
    EXPECT_TRUE(names.contains(QStringLiteral("slow-cpu infer")));
    EXPECT_TRUE(names.contains(QStringLiteral("slow-cpu infer on Other CPU")));
    for (const ChartSeries& s : d.series)
        EXPECT_EQ(s.samples.size(), 4u) << s.name.toStdString(); // B = 1, 4, 16, 64 each
}

TEST(MergedResultChart, ShardsOfIdenticalNodesStayOneSeries) {
    HostInfo node = fakeSweep().host;
    node.hostname = "node02"; // the same CPU: another node of the same cluster
    const ChartData d = timeVsBatch({mergedWith(node)}, atSeqLen10());
    EXPECT_EQ(seriesNames(d),
              (QStringList{QStringLiteral("fast-gpu infer"), QStringLiteral("slow-cpu infer")}));
}

} // namespace
} // namespace rnnprof::gui
