// The window on start, when a killed or crashed sweep left its autosave journal: it asks, and
// Resume measures only the missing points into the same file, Discard deletes the journal, Keep
// leaves it as it was. A journal another sweep still writes is not offered.
#include "gui/leftover_journal.h"
#include "gui/main_window.h"
#include "gui/sweep_controller.h"
#include "profiling/files/result_files.h"
#include "profiling/measure/runner.h"
#include "support/fake_backend.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace rnnprof::gui {
namespace {

std::string readText(const QString& path) {
    std::ifstream in(path.toStdString(), std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

SweepPlan fakePlan() {
    SweepPlan plan;
    plan.batches = {1, 2, 3, 4, 5, 6};
    plan.seqLens = {1};
    plan.backends = {"fake-ok"};
    plan.modes = {Mode::Inference};
    plan.settings.warmup = 0;
    plan.settings.minRepeats = plan.settings.maxRepeats = 2;
    plan.settings.checkNumerics = false;
    plan.settings.remeasureDisturbed = 0; // counted points: none measured twice on a busy machine
    return plan;
}

// Clicks `button` of the leftover-journal question as soon as it is shown; records what it said.
class AnswerLeftoverBox {
public:
    explicit AnswerLeftoverBox(const char* button) {
        m_timer.setInterval(10);
        QObject::connect(&m_timer, &QTimer::timeout, [this, button] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box || box->objectName() != QStringLiteral("leftoverJournalBox")) return;
            m_text = box->text();
            ++m_asked;
            box->findChild<QPushButton*>(QString::fromLatin1(button))->click();
        });
        m_timer.start();
    }
    [[nodiscard]] int asked() const { return m_asked; }
    [[nodiscard]] QString text() const { return m_text; }

private:
    QTimer m_timer;
    int m_asked = 0;
    QString m_text;
};

class LeftoverJournalTest : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_TRUE(QDir().mkpath(autosave()));
        // What a killed sweep leaves: its header and the first 2 of its 6 points.
        SweepRunner runner(registry, fakePlan());
        StopToken stop;
        full = runner.run(stop);
        ASSERT_EQ(full.points.size(), 6u);
        SweepResult header = full;
        header.points.clear();
        Journal j(journal().toStdString(), header);
        for (std::size_t i = 0; i < 2; ++i)
            j.append(full.points[i]);
    }
    QString autosave() const { return dir.filePath(QStringLiteral("autosave")); }
    QString journal() const {
        return QDir(autosave()).filePath(QStringLiteral("sweep-20260101-000000.json.journal"));
    }
    QString result() const { return QDir(autosave()).filePath(QStringLiteral("sweep-20260101-000000.json")); }
    MainWindowOptions options() {
        MainWindowOptions o;
        o.settingsPath = dir.filePath(QStringLiteral("settings.ini"));
        o.autosaveDir = autosave();
        o.interactive = true; // the question is the point of these tests
        o.backends = &registry;
        return o;
    }

    QTemporaryDir dir;
    BackendRegistry registry = test::fakeRegistry();
    SweepResult full;
};

TEST_F(LeftoverJournalTest, ResumeMeasuresOnlyTheMissingPointsIntoTheSameFile) {
    MainWindow w(options());
    QSignalSpy finished(&w.controller(), &SweepController::finished);
    AnswerLeftoverBox answer("resumeButton");
    w.offerLeftoverJournals();
    EXPECT_EQ(answer.asked(), 1);
    EXPECT_TRUE(answer.text().contains(QStringLiteral("2 of 6 points"))) << answer.text().toStdString();
    ASSERT_TRUE(finished.wait(20000));
    const SweepResult saved = loadResultFile(result().toStdString());
    EXPECT_TRUE(saved.complete);
    ASSERT_EQ(saved.points.size(), 6u);
    EXPECT_EQ(saved.points[0], full.points[0]) << "a kept point was measured again";
    EXPECT_EQ(saved.points[1], full.points[1]) << "a kept point was measured again";
    EXPECT_EQ(saved.createdAt, full.createdAt);
    EXPECT_FALSE(QFile::exists(journal()));
}

TEST_F(LeftoverJournalTest, DiscardDeletesTheJournal) {
    MainWindow w(options());
    AnswerLeftoverBox answer("discardButton");
    w.offerLeftoverJournals();
    EXPECT_EQ(answer.asked(), 1);
    EXPECT_FALSE(QFile::exists(journal()));
    EXPECT_FALSE(w.controller().isRunning());
}

TEST_F(LeftoverJournalTest, KeepLeavesTheJournalAsItWas) {
    const std::string before = readText(journal());
    MainWindow w(options());
    AnswerLeftoverBox answer("keepButton");
    w.offerLeftoverJournals();
    EXPECT_EQ(answer.asked(), 1);
    EXPECT_EQ(readText(journal()), before);
    EXPECT_FALSE(w.controller().isRunning());
}

TEST_F(LeftoverJournalTest, AJournalAnotherSweepHoldsIsNotOffered) {
    const Journal held(journal().toStdString()); // as a second window's running sweep would
    MainWindow w(options());
    AnswerLeftoverBox answer("discardButton");
    w.offerLeftoverJournals();
    EXPECT_EQ(answer.asked(), 0);
    EXPECT_TRUE(QFile::exists(journal()));
}

} // namespace
} // namespace rnnprof::gui
