// The window's exports and start: Export CSV with two files open writes
// both in one file with a source column; Export Current Chart on the Speedup tab writes both of its
// charts; the empty state says what to do at start and after Close Results; the files open at the
// last close are reopened on start while that setting is on; a result's alias reaches the legend
// and is remembered for the next time the result is opened, from any path; Export Current Chart
// draws what the page shows (a series hidden there is not in the file).
#include "gui/charts/chart_page.h"
#include "gui/charts/chart_view.h"
#include "gui/fake_results.h"
#include "gui/main_window.h"
#include "gui/models/result_store.h"
#include "gui/window_options.h"
#include "profiling/files/result_files.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

namespace rnnprof::gui {
namespace {

class WindowExportsTest : public ::testing::Test {
protected:
    MainWindowOptions options() { return test::scratchWindowOptions(dir); }
    QString saved(const QString& name, const SweepResult& r) {
        const QString path = dir.filePath(name);
        saveResultJson(path.toStdString(), r);
        return path;
    }
    QTemporaryDir dir;
};

QString readText(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

QAction* actionNamed(const MainWindow& w, const QString& text) {
    for (QMenu* menu : w.findChildren<QMenu*>())
        for (QAction* a : menu->actions())
            if (a->text() == text) return a;
    return nullptr;
}

TEST_F(WindowExportsTest, CsvOfTwoOpenFilesHasASourceColumnAndTheRowsOfBoth) {
    MainWindow w(options());
    const QString a = saved(QStringLiteral("laptop.json"), test::fakeSweep("laptop"));
    const QString b = saved(QStringLiteral("server.json"), test::fakeSweep("server"));
    ASSERT_EQ(w.openFiles({a, b}, false), 2);
    const QString csv = dir.filePath(QStringLiteral("both.csv"));
    ASSERT_TRUE(w.exportCsv(csv)) << w.lastMessage().toStdString();
    const QStringList lines = readText(csv).split(QLatin1Char('\n'), Qt::SkipEmptyParts);

    // The oracle: each file's own CSV (the format of `sweep --csv`, unchanged), its rows prefixed.
    const QStringList single =
        QString::fromStdString(toCsv(w.store().results()[0])).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_FALSE(lines.isEmpty());
    EXPECT_EQ(lines[0], QStringLiteral("source,") + single[0]);
    const int perFile = int(test::fakeSweep().points.size());
    ASSERT_EQ(lines.size(), 1 + 2 * perFile);
    // Labelled as the window labels them ("laptop.json (laptop)"), quoted where CSV needs it.
    const QString first = QString::fromStdString(w.store().results()[0].label);
    const QString second = QString::fromStdString(w.store().results()[1].label);
    ASSERT_TRUE(first.startsWith(QStringLiteral("laptop.json")));
    ASSERT_TRUE(second.startsWith(QStringLiteral("server.json")));
    for (int i = 0; i < perFile; ++i) {
        EXPECT_EQ(lines[1 + i], first + QLatin1Char(',') + single[1 + i]);
        EXPECT_TRUE(lines[1 + perFile + i].startsWith(second + QLatin1Char(',')));
    }
    // One file named: that file alone, in the single-file format.
    ASSERT_TRUE(w.exportCsv(csv, 1));
    EXPECT_EQ(readText(csv).toStdString(), toCsv(w.store().results()[1]));
}

TEST_F(WindowExportsTest, ExportCurrentChartOnTheSpeedupTabWritesBothCharts) {
    MainWindow w(options());
    ASSERT_EQ(w.openFiles({saved(QStringLiteral("r.json"), test::fakeSweep())}, false), 1);
    for (ChartPage* page : w.chartPages())
        if (page->spec().id == QStringLiteral("speedup")) w.chartTabs()->setCurrentWidget(page);
    const QString svg = dir.filePath(QStringLiteral("speedup.svg"));
    ASSERT_TRUE(w.exportCurrentChart(svg)) << w.lastMessage().toStdString();
    const QString text = readText(svg);
    EXPECT_TRUE(text.contains(QStringLiteral("Speedup of")));
    EXPECT_TRUE(text.contains(QStringLiteral("Crossover batch vs sequence length")));
    EXPECT_TRUE(text.contains(QStringLiteral("r.json"))); // the footer names the file
    EXPECT_FALSE(w.exportCurrentChart(dir.filePath(QStringLiteral("speedup.bmp"))));
}

TEST_F(WindowExportsTest, TheEmptyStateSaysWhatToDoAtStartAndAfterCloseResults) {
    MainWindow w(options());
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    auto* text = w.emptyState()->findChild<QLabel*>(QStringLiteral("emptyStateText"));
    ASSERT_NE(text, nullptr);
    EXPECT_TRUE(w.emptyState()->isVisible());
    EXPECT_TRUE(text->text().contains(QStringLiteral("Run Sweep (F5)")));
    EXPECT_TRUE(text->text().contains(QStringLiteral("Open Results")));

    ASSERT_EQ(w.openFiles({saved(QStringLiteral("r.json"), test::fakeSweep())}, false), 1);
    EXPECT_FALSE(w.emptyState()->isVisible());

    QAction* close = actionNamed(w, QStringLiteral("C&lose Results"));
    ASSERT_NE(close, nullptr);
    close->trigger();
    EXPECT_TRUE(w.store().empty());
    EXPECT_TRUE(w.emptyState()->isVisible());
}

TEST_F(WindowExportsTest, TheLastResultsAreReopenedOnStartWhileTheSettingIsOn) {
    const QString a = saved(QStringLiteral("laptop.json"), test::fakeSweep("laptop"));
    const QString b = saved(QStringLiteral("server.json"), test::fakeSweep("server"));
    {
        MainWindow w(options());
        ASSERT_EQ(w.openFiles({a}, false), 1);
        ASSERT_EQ(w.openFiles({b}, true), 1);
        w.close();
    }
    {
        MainWindow again(options());
        ASSERT_EQ(again.store().count(), 2);
        EXPECT_EQ(again.store().results()[0].label, "laptop.json (laptop)");
        EXPECT_EQ(again.store().results()[1].label, "server.json (server)");
        ASSERT_NE(again.reopenLastAction(), nullptr);
        EXPECT_TRUE(again.reopenLastAction()->isChecked());
        again.reopenLastAction()->setChecked(false);
        again.close();
    }
    {
        MainWindow off(options());
        EXPECT_TRUE(off.store().empty());
        off.reopenLastAction()->setChecked(true);
        // Closing the results forgets them: nothing to reopen.
        ASSERT_EQ(off.openFiles({a}, false), 1);
        actionNamed(off, QStringLiteral("C&lose Results"))->trigger();
        off.close();
    }
    MainWindow closed(options());
    EXPECT_TRUE(closed.store().empty());
}

TEST_F(WindowExportsTest, AnAliasRenamesAResultInTheLegend) {
    MainWindow w(options());
    const QString a = saved(QStringLiteral("laptop-with-a-long-name.json"), test::fakeSweep("laptop"));
    const QString b = saved(QStringLiteral("server.json"), test::fakeSweep("server"));
    ASSERT_EQ(w.openFiles({a, b}, false), 2);
    ASSERT_TRUE(w.renameResult(0, QStringLiteral("A")));
    EXPECT_EQ(w.store().results()[0].label, "A");
    const ChartView* time = w.chartPages().front()->views().front();
    bool aliased = false;
    for (const ChartSeries& s : time->chartData().series)
        aliased = aliased || s.name.startsWith(QStringLiteral("A: "));
    EXPECT_TRUE(aliased);
    EXPECT_FALSE(w.renameResult(0, QStringLiteral("   ")));
    EXPECT_TRUE(w.lastMessage().contains(QStringLiteral("1 to 40 characters")));
    EXPECT_FALSE(w.renameResult(0, QString(41, QLatin1Char('x'))));
    EXPECT_FALSE(w.renameResult(7, QStringLiteral("B")));
}

TEST_F(WindowExportsTest, AnAliasIsRememberedWhenTheSameResultIsOpenedAgainFromAnotherPath) {
    const QString a = saved(QStringLiteral("laptop.json"), test::fakeSweep("laptop"));
    {
        MainWindow w(options());
        ASSERT_EQ(w.openFiles({a}, false), 1);
        ASSERT_TRUE(w.renameResult(0, QStringLiteral("my laptop")));
        w.close();
    }
    ASSERT_TRUE(QDir().mkpath(dir.filePath(QStringLiteral("moved"))));
    const QString moved = dir.filePath(QStringLiteral("moved/copy.json"));
    ASSERT_TRUE(QFile::copy(a, moved));
    MainWindow again(options());
    ASSERT_EQ(again.openFiles({moved}, false), 1);
    EXPECT_EQ(again.store().results()[0].label, "my laptop");
    // Another result (another host, another time) keeps its own name.
    SweepResult other = test::fakeSweep("laptop");
    other.createdAt = "2026-02-02T00:00:00Z";
    ASSERT_EQ(again.openFiles({saved(QStringLiteral("other.json"), other)}, true), 1);
    EXPECT_EQ(again.store().results()[1].label, "other.json (laptop)");
}

TEST_F(WindowExportsTest, ExportCurrentChartLeavesOutASeriesHiddenInTheWindow) {
    MainWindow w(options());
    w.resize(1366, 768);
    ASSERT_EQ(w.openFiles({saved(QStringLiteral("laptop.json"), test::fakeSweep("laptop"))}, false), 1);
    ChartView* time = w.chartPages().front()->views().front();
    ASSERT_GE(time->chartData().series.size(), 2u);
    const QColor hiddenColour = time->rendered().colors[0];
    const auto pixelsOf = [&](const QString& path) {
        const QImage image(path);
        int n = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                n += image.pixelColor(x, y).rgb() == hiddenColour.rgb() ? 1 : 0;
        return n;
    };
    const QString shown = dir.filePath(QStringLiteral("shown.png"));
    ASSERT_TRUE(w.exportCurrentChart(shown));
    time->setSeriesVisible(0, false);
    const QString hidden = dir.filePath(QStringLiteral("hidden.png"));
    ASSERT_TRUE(w.exportCurrentChart(hidden));
    // The line and markers of the series are hundreds of pixels of its colour; hidden, only its
    // faded legend swatch remains, in a blend of that colour.
    EXPECT_GT(pixelsOf(shown), 300);
    EXPECT_LT(pixelsOf(hidden), pixelsOf(shown) / 10);
}

} // namespace
} // namespace rnnprof::gui
