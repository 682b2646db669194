// The page of `rnnprof report`, built in this process: one inline SVG per chart file `plot` writes,
// the machines and GPUs of every file, the crossovers (checked against a hand interpolation), and
// every string from a file shown as text, never as markup.
#include "engine/error.h"
#include "gui/charts/render_all.h"
#include "gui/fake_results.h"
#include "gui/report/report_page.h"

#include <gtest/gtest.h>

#include <cmath>

namespace rnnprof::gui {
namespace {

int occurrences(const QString& text, const QString& what) {
    return static_cast<int>(text.count(what));
}

// fakeSweep with built-in ids: cpu-blas takes 1 ms per sample, cpu-onednn 8 ms + 0.1 ms per sample
// (times scaled by T/10), on a host with a GPU.
SweepResult reportSweep(const std::string& host) {
    SweepResult r = test::fakeSweep(host);
    for (PointResult& p : r.points)
        p.backend = p.backend == "slow-cpu" ? "cpu-blas" : "cpu-onednn";
    r.plan.backends = {"cpu-blas", "cpu-onednn"};
    r.host.gpu.available = true;
    r.host.gpu.builtWithCuda = true;
    r.host.gpu.runtimeVersion = "13.0";
    r.host.gpu.driverVersion = "13.1";
    r.host.gpu.devices = {{0, "NVIDIA Test GPU 80GB", 9, 0, 80ull << 30, 0, 132}};
    return r;
}

QString pageOf(const std::vector<SweepResult>& results, const QStringList& sources) {
    return reportPage(results, sources, reportCharts(results), QStringLiteral("2026-11-23T08:00:00Z"));
}

TEST(ReportPage, HoldsOneInlineSvgPerChartFileOfThePlotCommand) {
    const std::vector<SweepResult> results{reportSweep("gpu-box")};
    const QString page = pageOf(results, {QStringLiteral("gpu-box.json")});
    // By hand: time-vs-batch x2 (T), time-vs-seqlen x4 (B), throughput x2, speedup x2, crossover,
    // memory x4 (2 backends x 2 T x 1 mode), phases, top-steps.
    EXPECT_EQ(occurrences(page, QStringLiteral("<svg ")), 17);
    EXPECT_EQ(std::size_t(occurrences(page, QStringLiteral("<svg "))),
              chartFileCount(results, {ImageFormat::Svg}));
    EXPECT_EQ(occurrences(page, QStringLiteral("</svg>")), 17);
    EXPECT_FALSE(page.contains(QStringLiteral("<?xml"))) << "SVG prologs are not valid inside HTML";
    // In the GUI's tab order.
    const auto at = [&](const char* id) {
        return page.indexOf(QStringLiteral("<figure id=\"%1\"").arg(QLatin1String(id)));
    };
    EXPECT_GE(at("time-vs-batch-T10"), 0);
    EXPECT_LT(at("time-vs-batch-T10"), at("time-vs-seqlen-B1"));
    EXPECT_LT(at("time-vs-seqlen-B1"), at("throughput-T10"));
    EXPECT_LT(at("throughput-T10"), at("speedup-T10"));
    EXPECT_LT(at("speedup-T10"), at("crossover"));
    EXPECT_LT(at("crossover"), at("memory-cpu-blas-T10-infer"));
    EXPECT_LT(at("memory-cpu-blas-T10-infer"), at("phases"));
    EXPECT_LT(at("phases"), at("top-steps"));
    // Self-contained: nothing to fetch, nothing to run.
    EXPECT_FALSE(page.contains(QStringLiteral("<script")));
    EXPECT_FALSE(page.contains(QStringLiteral("src=")));
    EXPECT_FALSE(page.contains(QStringLiteral("<link")));
}

TEST(ReportPage, NamesEveryHostCpuGpuAndDriver) {
    SweepResult laptop = reportSweep("laptop");
    laptop.host.gpu = {};
    laptop.host.gpu.reason = "no NVIDIA driver";
    laptop.host.cpuModel = "Laptop CPU i7";
    const QString page = pageOf({laptop, reportSweep("gpu-box")},
                                {QStringLiteral("laptop.json"), QStringLiteral("gpu-box.json")});
    for (const char* text :
         {"laptop.json", "gpu-box.json", "<td>laptop</td>", "<td>gpu-box</td>", "Laptop CPU i7",
          "Test CPU, 2 cores", "NVIDIA Test GPU 80GB (sm_90, 80.0 GiB, 132 SMs)", "supports CUDA 13.1",
          "unavailable: no NVIDIA driver", "Keras: ", "PyTorch: "})
        EXPECT_TRUE(page.contains(QString::fromUtf8(text))) << text;
}

TEST(ReportPage, StatesTheCrossoverBatchInterpolatedOnALogScale) {
    const QString page = pageOf({reportSweep("gpu-box")}, {QStringLiteral("gpu-box.json")});
    // cpu-onednn / cpu-blas: 8.4/4 at B=4, 9.6/16 at B=16 (the scale T/10 cancels); the log of the
    // ratio changes sign between them, interpolated linearly in log(B).
    const double y0 = std::log(8.4 / 4.0), y1 = std::log(9.6 / 16.0);
    const double batch = std::exp(std::log(4.0) + y0 / (y0 - y1) * (std::log(16.0) - std::log(4.0)));
    EXPECT_NEAR(batch, 9.09, 0.01);
    for (int seqLen : {10, 100})
        EXPECT_TRUE(page.contains(
            QStringLiteral("<td>cpu-onednn over cpu-blas</td><td>infer</td><td>%1</td><td>B≈%2 (")
                .arg(seqLen)
                .arg(batch, 0, 'g', 3)))
            << "T=" << seqLen;
}

// fakeSweep with only `backend`, renamed to `as`: a CPU-only laptop's file, a GPU server's file.
SweepResult onlyOneBackend(const std::string& host, const std::string& backend, const std::string& as) {
    SweepResult r = test::fakeSweep(host);
    std::erase_if(r.points, [&](const PointResult& p) { return p.backend != backend; });
    for (PointResult& p : r.points)
        p.backend = as;
    r.plan.backends = {as};
    return r;
}

TEST(ReportPage, StatesTheCrossoverOfTheFastestCpuHereAgainstTheFastestGpuThere) {
    const QString page = pageOf({onlyOneBackend("laptop", "slow-cpu", "cpu-onednn"),
                                 onlyOneBackend("server", "fast-gpu", "gpu-cudnn")},
                                {QStringLiteral("laptop.json"), QStringLiteral("server.json")});
    // The same times as above, now one backend per file: the same crossover, B = 9.1.
    EXPECT_TRUE(page.contains(QStringLiteral("<td>crossover infer</td><td>10</td><td>≈ 9.1</td>")));
    EXPECT_TRUE(page.contains(QStringLiteral("<td>crossover infer</td><td>100</td><td>≈ 9.1</td>")));
    EXPECT_TRUE(page.contains(QStringLiteral("fastest-gpu")));
    EXPECT_TRUE(page.contains(QStringLiteral("server (Test CPU, 2 cores)")));
}

TEST(ReportPage, ShowsNotesAndReasonsPerBackend) {
    SweepResult r = reportSweep("gpu-box");
    r.points.push_back(test::failedPoint("cpu-blas", Mode::Inference, 256, 10, PointStatus::Refused,
                                         "needs 31.2 GiB of memory, 8.0 GiB free"));
    const QString page = pageOf({r}, {QStringLiteral("gpu-box.json")});
    EXPECT_TRUE(page.contains(QStringLiteral("refused: needs 31.2 GiB of memory, 8.0 GiB free")));
    EXPECT_TRUE(page.contains(QStringLiteral("infer B=256 T=10")));
    EXPECT_TRUE(page.contains(QStringLiteral("GEMM: fake")));
}

TEST(ReportPage, MoreChartsThanAPageHoldsAreRefusedNamingTheCount) {
    SweepResult r = test::fakeSweep();
    r.points.clear();
    r.plan.backends = {"cpu-blas"};
    r.plan.batches = {1};
    r.plan.seqLens.clear();
    for (int t = 1; t <= 200; ++t) {
        r.plan.seqLens.push_back(t);
        r.points.push_back(test::okPoint("cpu-blas", Mode::Inference, 1, t, 1.0));
    }
    // By hand: time-vs-batch, throughput and memory once per T (3 x 200), time-vs-seqlen once (one
    // batch size), phases and top-steps; no speedup with one backend.
    try {
        (void)reportCharts({r});
        FAIL() << "expected a refusal";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
        EXPECT_NE(std::string(e.what()).find("would hold 603 charts, at most 300"), std::string::npos)
            << e.what();
    }
}

TEST(ReportPage, StringsFromFilesAreTextNotMarkup) {
    const std::string hostile = "<script>alert(1)</script>";
    SweepResult r = reportSweep("<img src=x onerror=alert(2)>");
    for (PointResult& p : r.points)
        if (p.backend == "cpu-onednn") {
            p.backend = hostile;
            p.notes = {"</ul><script>alert(3)</script>"};
        }
    r.plan.backends = {"cpu-blas", hostile};
    r.host.cpuModel = "\"><em>cpu</em>";
    const QString page = pageOf({r}, {QStringLiteral("<i>file</i>.json")});
    EXPECT_FALSE(page.contains(QStringLiteral("<script")));
    EXPECT_FALSE(page.contains(QStringLiteral("<img")));
    EXPECT_FALSE(page.contains(QStringLiteral("<em>")));
    EXPECT_FALSE(page.contains(QStringLiteral("<i>file")));
    EXPECT_TRUE(page.contains(QStringLiteral("&lt;script&gt;alert(1)&lt;/script&gt;")));
    EXPECT_TRUE(page.contains(QStringLiteral("&lt;img src=x onerror=alert(2)&gt;")));
    EXPECT_TRUE(page.contains(QStringLiteral("&lt;/ul&gt;&lt;script&gt;alert(3)")));
}

} // namespace
} // namespace rnnprof::gui

namespace rnnprof::gui {
namespace {

TEST(ReportPageAnswer, TheFirstScreenStatesTheCrossoverWithItsIntervalBeforeAnyFileSection) {
    const QString page = pageOf({reportSweep("gpu-box")}, {QStringLiteral("gpu-box.json")});
    const qsizetype answer = page.indexOf(QStringLiteral("Where the challenger overtakes the baseline"));
    ASSERT_GE(answer, 0);
    EXPECT_LT(answer, page.indexOf(QStringLiteral("id=\"file-1\"")));
    const QString section = page.mid(answer, page.indexOf(QStringLiteral("id=\"file-1\"")) - answer);
    EXPECT_TRUE(section.contains(QStringLiteral("infer T=10: faster from B≈"))) << section.toStdString();
    EXPECT_TRUE(section.contains(QStringLiteral("–"))) << "an interval, not one number";
}

TEST(ReportPageAnswer, TheMachineTableSaysWhetherTheMachineWasBusyAndHowManyPointsWereDisturbed) {
    SweepResult r = reportSweep("gpu-box");
    r.points[0].disturbed = true;
    const QString page = pageOf({r}, {QStringLiteral("gpu-box.json")});
    EXPECT_TRUE(page.contains(QStringLiteral("<th>load</th><td>quiet: no other process kept a core busy")));
    EXPECT_TRUE(page.contains(QStringLiteral("<th>disturbed points</th><td>1 of ")));
}

} // namespace
} // namespace rnnprof::gui
