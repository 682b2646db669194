// Charts of hostile data: whatever reaches the chart layer, no axis gets a range that
// is not finite and ordered (a log axis range overflowing to inf made QtCharts' axis and domain
// set each other's range until the stack was gone), no legend gets a label long enough to make
// QtCharts' eliding quadratic, no chart file lands outside the folder given, a failed write names
// the system's reason and leaves nothing behind, and one call writes a bounded number of files.
#include "engine/error.h"
#include "gui/charts/chart_export.h"
#include "gui/charts/chart_renderer.h"
#include "gui/charts/render_all.h"
#include "gui/fake_results.h"
#include "gui/models/chart_catalog.h"
#include "profiling/files/recorded_limits.h"

#include <QAbstractAxis>
#include <QChart>
#include <QDir>
#include <QLegend>
#include <QLegendMarker>
#include <QLogValueAxis>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QValueAxis>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rnnprof::gui {
namespace {

using ::testing::HasSubstr;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kMax = std::numeric_limits<double>::max();

const std::vector<double> kHostile{1.1e308, kMax, -kMax, kInf, -kInf, kNaN, 0.0, -1.0, 5e-324, 1e-300, 1.0};

void expectUsable(std::pair<double, double> range, bool log, const std::string& what) {
    EXPECT_TRUE(std::isfinite(range.first) && std::isfinite(range.second)) << what;
    EXPECT_LT(range.first, range.second) << what;
    if (log) {
        EXPECT_GT(range.first, 0.0) << what;
    }
}

ChartSample sample(double x, double y) {
    ChartSample s;
    s.x = x;
    s.y = y;
    return s;
}

// A series named `name` through (1, 1) and (2, 2).
ChartSeries plainSeries(const QString& name) {
    ChartSeries s;
    s.name = name;
    s.samples = {sample(1.0, 1.0), sample(2.0, 2.0)};
    return s;
}

TEST(HostileCharts, EveryAxisRangeIsFiniteAndOrderedWhateverComesIn) {
    for (double lo : kHostile)
        for (double hi : kHostile)
            for (bool log : {false, true})
                for (int base : {2, 10})
                    expectUsable(axisRange(lo, hi, log, base), log,
                                 "lo " + std::to_string(lo) + " hi " + std::to_string(hi) +
                                     (log ? " log" : ""));
}

TEST(HostileCharts, ValuesBeyondTheRecordedRangeAreNotDrawable) {
    EXPECT_TRUE(isDrawable(kMaxRecordedValue, true));
    EXPECT_FALSE(isDrawable(1.1e308, false));
    EXPECT_FALSE(isDrawable(kNaN, false));
    EXPECT_FALSE(isDrawable(0.0, true));
    EXPECT_TRUE(isDrawable(0.0, false));
}

// A line chart holding every hostile value as x and y, a marker at each, and a bar chart of them.
ChartData hostileLines(bool log) {
    ChartData d;
    d.title = QStringLiteral("hostile");
    d.logX = d.logY = log;
    ChartSeries s;
    s.name = QStringLiteral("s");
    for (double x : kHostile)
        for (double y : kHostile)
            s.samples.push_back(sample(x, y));
    d.series.push_back(s);
    for (double x : kHostile)
        d.markers.push_back({x, QStringLiteral("m")});
    return d;
}

void expectAxesUsable(const QChart& chart) {
    for (QAbstractAxis* axis : chart.axes()) {
        if (auto* l = qobject_cast<QLogValueAxis*>(axis)) {
            EXPECT_TRUE(std::isfinite(l->min()) && std::isfinite(l->max()));
            EXPECT_GT(l->min(), 0.0);
            EXPECT_LT(l->min(), l->max());
        } else if (auto* v = qobject_cast<QValueAxis*>(axis)) {
            EXPECT_TRUE(std::isfinite(v->min()) && std::isfinite(v->max()));
            EXPECT_LT(v->min(), v->max());
        }
    }
}

TEST(HostileCharts, AHugeInfiniteOrNaNSampleNeverReachesAnAxis) {
    for (bool log : {false, true}) {
        const ChartData d = hostileLines(log);
        const AxisRanges ranges = lineAxisRanges(d);
        expectUsable(ranges.x, log, "x");
        expectUsable(ranges.y, log, "y");
        QChart chart;
        (void)renderChart(chart, d, lightChartStyle()); // 1.1e308 recursed until the stack was gone
        expectAxesUsable(chart);
    }
    ChartData bars;
    bars.kind = ChartData::Kind::StackedBars;
    bars.categories = {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")};
    bars.barSets = {{QStringLiteral("x"), {1.1e308, kInf, kNaN}, {}, {}},
                    {QStringLiteral("y"), {kMax, 1.0, -kMax}, {}, {}}};
    QChart chart;
    (void)renderChart(chart, bars, lightChartStyle());
    expectAxesUsable(chart);
}

TEST(HostileCharts, AChartOfA1e308ResultIsWrittenToAFile) {
    SweepResult r = test::fakeSweep();
    r.points[0].iteration.median = 1.1e308; // as a result that bypassed the loader
    r.points[1].sequencesPerSecond = 1.1e308;
    QTemporaryDir dir;
    const QStringList files = renderAllCharts({r}, dir.path(), {ImageFormat::Png}, QSize(400, 300));
    EXPECT_FALSE(files.isEmpty());
}

// `result` with its times and rates multiplied by `factor` (inf where they overflow), as a result
// that bypassed the loader.
SweepResult scaled(SweepResult result, double factor) {
    for (PointResult& p : result.points) {
        for (double* v :
             {&p.iteration.median, &p.iteration.p10, &p.iteration.p90, &p.iteration.min, &p.iteration.max,
              &p.iteration.mean, &p.sequencesPerSecond, &p.tokensPerSecond, &p.gflopsPerSecond})
            *v *= factor;
        for (double& v : p.phaseMedianMs)
            v *= factor;
    }
    return result;
}

TEST(HostileCharts, EveryChartOfTheCatalogKeepsOnlyDrawableSamplesAndFiniteRanges) {
    // What the results_charts fuzz target checks, for hostile inputs.
    const std::vector<std::vector<SweepResult>> inputs{
        {scaled(test::fakeSweep(), 1.1e308)},
        {scaled(test::fakeSweep(), 1e300), scaled(test::fakeSweep("other"), 1e-300)}};
    for (const auto& results : inputs) {
        ChartSelection s;
        fitSelection(s, chartOptions(results));
        for (const ChartPageSpec& page : chartCatalog())
            for (const ChartSpec& chart : page.charts) {
                const ChartData d = chart.build(results, s);
                for (const ChartSeries& series : d.series)
                    for (const ChartSample& p : series.samples)
                        EXPECT_TRUE(isDrawable(p.x, d.logX) && isDrawable(p.y, d.logY))
                            << chart.id.toStdString();
                const AxisRanges ranges = lineAxisRanges(d);
                expectUsable(ranges.x, d.logX, chart.id.toStdString());
                expectUsable(ranges.y, d.logY, chart.id.toStdString());
                QChart drawn;
                (void)renderChart(drawn, d, lightChartStyle());
                expectAxesUsable(drawn);
            }
    }
}

// The longest run of digits (decimal points and separators included) in `text`.
qsizetype longestNumber(const QString& text) {
    qsizetype longest = 0;
    auto it = QRegularExpression(QStringLiteral("[0-9][0-9.,]*")).globalMatch(text);
    while (it.hasNext())
        longest = std::max(longest, it.next().capturedLength());
    return longest;
}

TEST(HostileCharts, NumbersInTooltipsNotesAndLabelsStayShortWhateverTheirSize) {
    // The largest legal value (kMaxRecordedValue ms is 1e12 s: 16 digits in fixed point) and 1e300,
    // as results that bypassed the loader (301 digits); bars keep their tooltips when their value
    // cannot be drawn.
    for (const double factor : {kMaxRecordedValue, 1e300}) {
        const std::vector<SweepResult> results{scaled(test::fakeSweep(), factor)};
        ChartSelection s;
        fitSelection(s, chartOptions(results));
        for (const ChartPageSpec& page : chartCatalog())
            for (const ChartSpec& chart : page.charts) {
                const ChartData d = chart.build(results, s);
                QStringList texts = d.notes;
                for (const ChartSeries& series : d.series)
                    for (const ChartSample& p : series.samples)
                        texts << p.tooltip;
                for (const BarSet& set : d.barSets)
                    for (const QString& tip : set.tooltips)
                        texts << tip;
                for (const ChartMarker& m : d.markers)
                    texts << m.label;
                for (const QString& text : texts)
                    EXPECT_LE(longestNumber(text), 10)
                        << chart.id.toStdString() << ": " << text.toStdString();
            }
    }
}

TEST(HostileCharts, LongLabelsAreElidedInTheMiddleBeforeQtChartsSeesThem) {
    EXPECT_EQ(elideMiddle(QStringLiteral("short"), 60), QStringLiteral("short"));
    const QString elided =
        elideMiddle(QStringLiteral("gpu-cudnn[persist_static] on a-very-long-host-name"), 21);
    EXPECT_EQ(elided.size(), 21);
    EXPECT_TRUE(elided.startsWith(QStringLiteral("gpu-cudnn")));
    EXPECT_TRUE(elided.endsWith(QStringLiteral("host-name")));

    ChartData d;
    d.title = QString(100000, QLatin1Char('t'));
    d.series.push_back(
        plainSeries(QString(1 << 20, QLatin1Char('n')))); // 1 MB: 23.7 GB in QtCharts' truncation
    d.markers.push_back({1.5, QString(1 << 20, QLatin1Char('m'))});
    QChart chart;
    (void)renderChart(chart, d, lightChartStyle());
    EXPECT_LE(chart.title().size(), 160);
    for (QLegendMarker* m : chart.legend()->markers())
        EXPECT_LE(m->label().size(), kMaxLabelChars)
            << "legend label of " << m->label().size() << " characters";
}

TEST(HostileCharts, ChartFileNamesFromBackendIdsStayInsideTheFolder) {
    SweepResult r = test::fakeSweep();
    for (PointResult& p : r.points)
        if (p.backend == "slow-cpu") p.backend = "x/../../ESCAPED";
    QTemporaryDir root;
    const QString out = root.filePath(QStringLiteral("a/b/out"));
    ASSERT_TRUE(QDir().mkpath(out));
    const QStringList files =
        renderAllCharts({r}, out, {ImageFormat::Png, ImageFormat::Svg}, QSize(400, 300));
    ASSERT_FALSE(files.isEmpty());
    for (const QString& f : files) {
        EXPECT_EQ(QFileInfo(f).absolutePath(), QDir(out).absolutePath()) << f.toStdString();
        EXPECT_TRUE(QFileInfo::exists(f)) << f.toStdString();
    }
    EXPECT_TRUE(QDir(out).exists(QStringLiteral("memory-x_.._.._ESCAPED-T10-infer.png")));
    EXPECT_FALSE(QFileInfo::exists(root.filePath(QStringLiteral("ESCAPED-T10-infer.png"))));
    EXPECT_EQ(QDir(root.filePath(QStringLiteral("a"))).entryList(QDir::Files), QStringList());
    EXPECT_EQ(QDir(root.path()).entryList(QDir::Files), QStringList());
}

TEST(HostileCharts, AFailedChartWriteNamesTheReasonAndLeavesNothing) {
    QTemporaryDir dir;
    ChartData d;
    d.series.push_back(plainSeries(QStringLiteral("s")));
    auto errorOf = [&](const QString& path) -> std::string {
        try {
            exportChart(d, lightChartStyle(), path, ImageFormat::Svg, QSize(300, 200));
        } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::Io);
            return e.what();
        }
        ADD_FAILURE() << "expected an error for " << path.toStdString();
        return "";
    };
    EXPECT_THAT(errorOf(dir.filePath(QStringLiteral("missing/chart.svg"))),
                HasSubstr("No such file or directory"));
    EXPECT_THAT(errorOf(dir.filePath(QString(300, QLatin1Char('n')) + QStringLiteral(".svg"))),
                HasSubstr("File name too long"));
    EXPECT_EQ(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
              QStringList())
        << "no temporary file is left behind";
}

TEST(HostileCharts, ACallThatWouldWriteTooManyFilesWritesNone) {
    SweepResult r = test::fakeSweep();
    r.plan.seqLens.clear();
    for (int t = 1; t <= 400; ++t) { // 400 sequence lengths x 2 backends: thousands of files
        r.plan.seqLens.push_back(t);
        r.points.push_back(test::okPoint("slow-cpu", Mode::Inference, 1, t, 1.0));
        r.points.push_back(test::okPoint("fast-gpu", Mode::Inference, 1, t, 2.0));
    }
    QTemporaryDir root;
    const QString out = root.filePath(QStringLiteral("charts"));
    try {
        (void)renderAllCharts({r}, out);
        FAIL() << "expected a refusal";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
        EXPECT_THAT(e.what(), HasSubstr("chart files, at most 2000 are written per call"));
    }
    EXPECT_FALSE(QFileInfo::exists(out)) << "nothing is written, not even the folder";
}

} // namespace
} // namespace rnnprof::gui
