// File names that are not UTF-8 (decoded as UTF-8, their bytes would become U+FFFD, naming no
// file): a results file named with the byte \xff opens when named on the command line and through
// File > Open, a problem names such a file readably, the recent files and the files reopened on
// start keep the name's exact bytes, and Save and every Export write into a folder so named.
#include "cli/path_arguments.h"
#include "gui/app_settings.h"
#include "gui/desktop_app.h"
#include "gui/fake_results.h"
#include "gui/main_window.h"
#include "gui/models/result_store.h"
#include "gui/window_options.h"
#include "profiling/files/result_files.h"
#include "support/temp_dir.h"

#include <QAction>
#include <QMenu>
#include <QSettings>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

namespace rnnprof::gui {
namespace {

class NonUtf8Names : public ::testing::Test {
protected:
    // The bytes of the path of `name` in the folder of result files.
    [[nodiscard]] std::string pathBytes(const std::string& name) const { return files.path(name); }
    // A results file named `name` (any bytes), as the window holds its path.
    QString writeResult(const std::string& name) const {
        saveResultJson(pathBytes(name), test::fakeSweep());
        return cli::argumentFromBytes(pathBytes(name));
    }
    // The action of the File > Open Recent menu whose text is `text`, or nullptr.
    static QAction* recentAction(const MainWindow& w, const QString& text) {
        for (QMenu* menu : w.findChildren<QMenu*>())
            for (QAction* a : menu->actions())
                if (a->text() == text) return a;
        return nullptr;
    }
    QTemporaryDir dir; // the window's settings and autosave
    // Result files: removed by their bytes (QTemporaryDir cannot remove a name that is not UTF-8).
    test::TempDir files;
};

// Text a person can read: no replacement character and no surrogate standing for a byte.
bool isReadable(const QString& text) {
    return std::none_of(text.begin(), text.end(),
                        [](QChar c) { return c.unicode() == 0xFFFD || c.isSurrogate(); });
}

TEST_F(NonUtf8Names, CommandLineFileArgumentsKeepEveryByteOfTheName) {
    std::string program = "rnnprof";
    std::string latin1 = pathBytes("r\xff.json");
    std::string utf8 = "caf\xc3\xa9.json";
    char* argv[] = {program.data(), latin1.data(), utf8.data(), nullptr};

    const QStringList files = fileArguments(3, argv);

    ASSERT_EQ(files.size(), 2);
    EXPECT_EQ(cli::pathFromArgument(files[0]), latin1);
    EXPECT_EQ(files[1], QStringLiteral("caf\u00e9.json")) << "UTF-8 names are their characters";
    EXPECT_TRUE(fileArguments(1, argv).isEmpty()) << "the program's name is no file";
}

TEST_F(NonUtf8Names, AResultFileWhoseNameIsNotUtf8OpensFromTheCommandLine) {
    writeResult("r\xff.json");
    std::string program = "rnnprof";
    std::string file = pathBytes("r\xff.json");
    char* argv[] = {program.data(), file.data(), nullptr};
    MainWindow w(test::scratchWindowOptions(dir));

    EXPECT_EQ(w.openFiles(fileArguments(2, argv), true), 1) << w.lastMessage().toStdString();

    ASSERT_EQ(w.store().count(), 1);
    EXPECT_EQ(w.store().results().front().label, "r\\xff.json (testhost)")
        << "legends, the table and exports show the byte readably";
}

TEST_F(NonUtf8Names, AFileThatCannotBeOpenedIsNamedReadably) {
    {
        std::ofstream garbage(pathBytes("bad\xfe.json"), std::ios::binary);
        garbage << "not json at all";
    }
    MainWindow w(test::scratchWindowOptions(dir));

    EXPECT_EQ(w.openFiles({cli::argumentFromBytes(pathBytes("bad\xfe.json"))}, false), 0);
    EXPECT_TRUE(w.lastMessage().contains(QStringLiteral("bad\\xfe.json: "))) << w.lastMessage().toStdString();
    EXPECT_TRUE(isReadable(w.lastMessage())) << w.lastMessage().toStdString();

    EXPECT_EQ(w.openFiles({cli::argumentFromBytes(pathBytes("gone\xff.json"))}, false), 0);
    EXPECT_TRUE(w.lastMessage().contains(QStringLiteral("gone\\xff.json"))) << w.lastMessage().toStdString();
    EXPECT_TRUE(isReadable(w.lastMessage())) << w.lastMessage().toStdString();
}

TEST_F(NonUtf8Names, RecentFilesAndTheFilesReopenedOnStartKeepTheExactBytes) {
    const QString path = writeResult("r\xff.json");
    const QString shown = cli::readableArgument(path);
    {
        MainWindow w(test::scratchWindowOptions(dir));
        ASSERT_EQ(w.openFiles({path}, false), 1) << w.lastMessage().toStdString();
        w.close();
    }
    EXPECT_EQ(AppSettings(test::scratchWindowOptions(dir).settingsPath).recentFiles(), QStringList{path});
    {
        MainWindow again(test::scratchWindowOptions(dir));
        EXPECT_EQ(again.store().count(), 1) << "reopened on start: " << again.lastMessage().toStdString();
        again.reopenLastAction()->setChecked(false);
        again.close();
    }
    MainWindow third(test::scratchWindowOptions(dir));
    ASSERT_EQ(third.store().count(), 0);
    QAction* recent = recentAction(third, shown);
    ASSERT_NE(recent, nullptr) << "File > Open Recent lists " << shown.toStdString();

    recent->trigger();

    EXPECT_EQ(third.store().count(), 1) << third.lastMessage().toStdString();
    EXPECT_TRUE(third.lastMessage().isEmpty()) << third.lastMessage().toStdString();
}

TEST_F(NonUtf8Names, FileListsOfOlderSettingsStillOpen) {
    // Settings written before the lists were stored as bytes hold strings: a list, or one string.
    const QString settingsPath = test::scratchWindowOptions(dir).settingsPath;
    const QString a = writeResult("a.json");
    const QString b = writeResult("b.json");
    {
        QSettings old(settingsPath, QSettings::IniFormat);
        old.setValue(QStringLiteral("files/recent"), QStringList{a, b});
        old.setValue(QStringLiteral("files/lastResults"), a);
    }
    EXPECT_EQ(AppSettings(settingsPath).recentFiles(), (QStringList{a, b}));
    MainWindow w(test::scratchWindowOptions(dir));
    EXPECT_EQ(w.store().count(), 1) << w.lastMessage().toStdString();
}

TEST_F(NonUtf8Names, SaveAndEveryExportWriteIntoAFolderWhoseNameIsNotUtf8) {
    const QString result = writeResult("r.json");
    std::filesystem::create_directories(pathBytes("out\xff"));
    const QString folder = cli::argumentFromBytes(pathBytes("out\xff"));
    MainWindow w(test::scratchWindowOptions(dir));
    ASSERT_EQ(w.openFiles({result}, false), 1) << w.lastMessage().toStdString();

    EXPECT_TRUE(w.saveResult(folder + QStringLiteral("/saved.json"))) << w.lastMessage().toStdString();
    EXPECT_TRUE(w.exportCsv(folder + QStringLiteral("/points.csv"))) << w.lastMessage().toStdString();
    EXPECT_TRUE(w.exportTrace(folder + QStringLiteral("/trace.json"))) << w.lastMessage().toStdString();
    const QStringList charts =
        w.exportAllCharts(folder + QStringLiteral("/charts\u00e9"), QStringLiteral("svg"));

    for (const char* name : {"out\xff/saved.json", "out\xff/points.csv", "out\xff/trace.json"})
        EXPECT_GT(std::filesystem::file_size(pathBytes(name)), 0u) << name;
    EXPECT_EQ(loadResultFile(pathBytes("out\xff/saved.json")).points.size(), test::fakeSweep().points.size());
    ASSERT_FALSE(charts.isEmpty()) << w.lastMessage().toStdString();
    for (const QString& chart : charts)
        EXPECT_TRUE(std::filesystem::exists(cli::pathFromArgument(chart)))
            << cli::readableArgument(chart).toStdString();
    EXPECT_TRUE(std::filesystem::is_directory(pathBytes("out\xff/charts\xc3\xa9")));
}

} // namespace
} // namespace rnnprof::gui
