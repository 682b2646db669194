// `rnnprof report` end to end: the real binary writes one self-contained page without a display,
// refuses what it cannot write, and the page opens in a real browser (Chromium, headless).
#include "cli/cli_process.h"
#include "gui/fake_results.h"
#include "profiling/files/result_files.h"

#include <QImage>
#include <QSet>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace rnnprof {
namespace {

namespace fs = std::filesystem;
using test::Args;
using test::ProcessResult;
using test::TempDir;

ProcessResult runReport(Args args) {
    return test::runWithoutDisplay("report", std::move(args));
}

// fakeSweep with built-in ids (another process refuses made-up ones): cpu-blas 1 ms per sample,
// cpu-onednn 8 ms + 0.1 ms per sample.
SweepResult reportFileSweep(const std::string& host) {
    SweepResult r = test::fakeSweep(host);
    for (PointResult& p : r.points)
        p.backend = p.backend == "slow-cpu" ? "cpu-blas" : "cpu-onednn";
    r.plan.backends = {"cpu-blas", "cpu-onednn"};
    return r;
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
        ++n;
    return n;
}

TEST(ReportCommand, WritesOnePageWithAnSvgPerChartFileOfPlot) {
    TempDir dir;
    saveResultJson(dir.path("laptop.json"), reportFileSweep("laptop"));
    saveResultJson(dir.path("server.json"), reportFileSweep("server"));
    const ProcessResult run =
        runReport({dir.path("laptop.json"), dir.path("server.json"), "--out", dir.path("r")});
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_EQ(test::filesIn(dir.path("r")), std::set<std::string>{"index.html"})
        << "one file, nothing beside it";
    EXPECT_NE(run.out.find("index.html"), std::string::npos) << "names what it wrote";
    // The oracle: the SVG files `rnnprof plot` writes for the same files.
    const ProcessResult plot = test::runRnnprof({"plot", dir.path("laptop.json"), dir.path("server.json"),
                                                 "--out", dir.path("p"), "--format", "svg"});
    ASSERT_EQ(plot.status, 0) << plot.err;
    const std::string page = test::slurp(dir.path("r/index.html"));
    EXPECT_EQ(count(page, "<svg "), test::filesIn(dir.path("p")).size());
    EXPECT_GE(count(page, "<svg "), 17u);
    for (const char* text : {"<td>laptop</td>", "<td>server</td>", "laptop.json", "server.json",
                             "<td>cpu-onednn over cpu-blas</td>"})
        EXPECT_NE(page.find(text), std::string::npos) << text;
    EXPECT_EQ(page.find("<?xml"), std::string::npos);
}

// File and folder names are bytes: a result file and an output folder named with bytes that are
// not UTF-8 are read and written by those bytes (Qt would turn \xff into U+FFFD).
TEST(ReportCommand, NamesWithBytesThatAreNotUtf8AreKept) {
    TempDir dir;
    saveResultJson(dir.path("r\xff.json"), reportFileSweep("laptop"));
    const ProcessResult run = runReport({dir.path("r\xff.json"), "--out", dir.path("rep\xff")});
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_TRUE(fs::is_regular_file(dir.path("rep\xff/index.html")));
    EXPECT_EQ(run.out, dir.path("rep\xff/index.html") + "\n") << "the path printed as written";
}

TEST(ReportCommand, BadCommandLinesNameWhatIsMissing) {
    TempDir dir;
    saveResultJson(dir.path("a.json"), reportFileSweep("a"));
    const ProcessResult noOut = runReport({dir.path("a.json")});
    EXPECT_EQ(noOut.status, 2);
    EXPECT_NE(noOut.err.find("--out DIR is required"), std::string::npos) << noOut.err;
    const ProcessResult noFiles = runReport({"--out", dir.path("r")});
    EXPECT_EQ(noFiles.status, 2);
    EXPECT_NE(noFiles.err.find("give at least one result file"), std::string::npos) << noFiles.err;
    const ProcessResult unknown = runReport({dir.path("a.json"), "--out", dir.path("r"), "--colour", "x"});
    EXPECT_EQ(unknown.status, 2);
    EXPECT_NE(unknown.err.find("colour"), std::string::npos) << unknown.err;
    EXPECT_FALSE(fs::exists(dir.path("r")));
}

TEST(ReportCommand, RefusesAnOutputThatCannotHoldThePage) {
    TempDir dir;
    saveResultJson(dir.path("a.json"), reportFileSweep("a"));
    std::ofstream(dir.path("taken")) << "a file";
    const ProcessResult file = runReport({dir.path("a.json"), "--out", dir.path("taken")});
    EXPECT_EQ(file.status, 1);
    EXPECT_NE(file.err.find("exists and is not a folder"), std::string::npos) << file.err;
    EXPECT_EQ(test::slurp(dir.path("taken")), "a file");
    const ProcessResult orphan = runReport({dir.path("a.json"), "--out", dir.path("no/such/dir")});
    EXPECT_EQ(orphan.status, 1);
    EXPECT_NE(orphan.err.find("does not exist"), std::string::npos) << orphan.err;
    // A folder no file can be created in, even by root.
    const ProcessResult unwritable = runReport({dir.path("a.json"), "--out", "/proc"});
    EXPECT_EQ(unwritable.status, 1);
    EXPECT_NE(unwritable.err.find("cannot write into --out /proc"), std::string::npos) << unwritable.err;
}

TEST(ReportCommand, AMalformedFileFailsWithItsNameAndWritesNothing) {
    TempDir dir;
    std::ofstream(dir.path("bad.json")) << "{\"schema_version\": 1, \"points\": [";
    const ProcessResult run = runReport({dir.path("bad.json"), "--out", dir.path("r")});
    EXPECT_EQ(run.status, 1);
    EXPECT_NE(run.err.find("bad.json"), std::string::npos) << run.err;
    EXPECT_FALSE(fs::exists(dir.path("r")));
}

std::string browserOnPath() {
    for (const char* name : {"chromium", "chromium-browser"}) {
        const char* path = std::getenv("PATH");
        for (const auto& part : QString::fromLocal8Bit(path ? path : "").split(QLatin1Char(':'))) {
            const fs::path candidate = fs::path(part.toStdString()) / name;
            if (!part.isEmpty() && fs::exists(candidate)) return candidate.string();
        }
    }
    return {};
}

// Opened in a real browser: the page renders, charts included, as a picture that is not blank.
// RNNPROF_REPORT_SCREENSHOT=PATH keeps the screenshot for a person to look at.
TEST(ReportInBrowser, ChromiumRendersThePageWithItsCharts) {
    const std::string browser = browserOnPath();
    if (browser.empty())
        GTEST_SKIP() << "no chromium or chromium-browser on PATH (scripts/install-deps.sh installs it)";
    TempDir dir;
    saveResultJson(dir.path("a.json"), reportFileSweep("browserhost"));
    ASSERT_EQ(runReport({dir.path("a.json"), "--out", dir.path("r")}).status, 0);
    const std::string shot = dir.path("shot.png");
    // timeout(1) is the guard against a browser that hangs; its own profile keeps parallel runs apart.
    const ProcessResult run =
        test::runToEnd({"timeout", "120", browser, "--headless", "--no-sandbox", "--disable-gpu",
                        "--user-data-dir=" + dir.path("profile"), "--screenshot=" + shot,
                        "--window-size=1280,2000", "file://" + dir.path("r/index.html")});
    ASSERT_TRUE(fs::exists(shot)) << "status " << run.status << ": " << run.err;
    if (const char* keep = std::getenv("RNNPROF_REPORT_SCREENSHOT"))
        fs::copy_file(shot, keep, fs::copy_options::overwrite_existing);
    const QImage image(QString::fromStdString(shot));
    ASSERT_FALSE(image.isNull());
    EXPECT_EQ(image.width(), 1280);
    EXPECT_EQ(image.height(), 2000);
    QSet<QRgb> colours;
    qint64 ink = 0;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2) {
            const QRgb c = image.pixel(x, y);
            colours.insert(c);
            ink += qGray(c) < 200 ? 1 : 0;
        }
    // Text, table borders and anti-aliased chart lines give hundreds of colours; a blank or
    // failed page gives one or two.
    EXPECT_GT(colours.size(), 50) << "distinct colours";
    EXPECT_GT(double(ink) / (image.width() / 2 * image.height() / 2), 0.01) << "share of dark pixels";
}

} // namespace
} // namespace rnnprof
