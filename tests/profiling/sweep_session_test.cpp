// The one journaled sweep of the CLI and the GUI (profiling/sweep_session.h): the journal carries
// the result's header, every finished point is journaled before anyone hears of it, the journal is
// removed once the results file holds everything and kept when the save fails.
#include "support/fake_backend.h"
#include "support/temp_dir.h"

#include "engine/error.h"
#include "profiling/result_files.h"
#include "profiling/sweep_session.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace rnnprof {
namespace {

using test::fakePlan;
using test::named;
using test::TempDir;

BackendRegistry oneFake() {
    return test::registryOf({named("a")});
}

TEST(SweepSession, JournalsEveryPointUnderTheResultsHeaderThenSavesAndRemovesTheJournal) {
    const auto registry = oneFake();
    TempDir dir;
    const std::string out = dir.path("r.json");
    std::vector<std::size_t> journaledBeforeReported;
    SweepSessionEvents events;
    SweepSession* current = nullptr;
    events.onPoint = [&](const PointResult&) {
        journaledBeforeReported.push_back(
            journalFromText(test::slurp(current->journalPath()), "j").points.size());
    };
    SweepSession session(registry, fakePlan({"a"}), out, events);
    current = &session;
    session.openJournal();
    EXPECT_EQ(session.journalPath(), out + ".journal");
    const SweepResult journalHeader = loadResultFile(session.journalPath());
    EXPECT_EQ(journalHeader.createdAt, session.header().createdAt);
    EXPECT_TRUE(journalHeader.points.empty());

    StopToken stop;
    const SweepOutcome outcome = session.run(stop);
    EXPECT_TRUE(outcome.saved);
    EXPECT_TRUE(outcome.saveProblem.empty());
    ASSERT_EQ(outcome.result.points.size(), 4u);
    EXPECT_EQ(journaledBeforeReported, (std::vector<std::size_t>{1, 2, 3, 4}));
    EXPECT_EQ(outcome.result.createdAt, session.header().createdAt);
    EXPECT_EQ(outcome.result.host, session.header().host);
    EXPECT_EQ(loadResultFile(out), outcome.result);
    EXPECT_FALSE(std::filesystem::exists(out + ".journal")) << "the results file holds every point";
}

TEST(SweepSession, AFailedSaveKeepsTheJournalAndNamesIt) {
    const auto registry = oneFake();
    TempDir dir;
    const std::string out = dir.path("r.json");
    std::vector<std::string> problems;
    SweepSessionEvents events;
    events.onFileProblem = [&](const std::string& p) { problems.push_back(p); };
    SweepSession session(registry, fakePlan({"a"}), out, events);
    session.openJournal();
    std::filesystem::create_directory(out); // a folder where the results file should go
    StopToken stop;
    const SweepOutcome outcome = session.run(stop);
    EXPECT_FALSE(outcome.saved);
    EXPECT_NE(outcome.saveProblem.find("the measured points are in " + out + ".journal"), std::string::npos)
        << outcome.saveProblem;
    EXPECT_EQ(problems, std::vector<std::string>{outcome.saveProblem});
    EXPECT_EQ(loadResultFile(out + ".journal").points.size(), 4u);
}

TEST(SweepSession, AStoppedSweepIsSavedIncomplete) {
    const auto registry = oneFake();
    TempDir dir;
    const std::string out = dir.path("r.json");
    StopToken stop;
    SweepSessionEvents events;
    events.onPoint = [&](const PointResult&) { stop.requestStop(); };
    SweepSession session(registry, fakePlan({"a"}), out, events);
    session.openJournal();
    const SweepOutcome outcome = session.run(stop);
    EXPECT_TRUE(outcome.saved);
    EXPECT_FALSE(loadResultFile(out).complete);
    EXPECT_EQ(loadResultFile(out).points.size(), 1u);
}

TEST(SweepSession, WithoutAPathNothingIsWrittenAndPointsStayInMemory) {
    const auto registry = oneFake();
    SweepSession session(registry, fakePlan({"a"}), "", {});
    session.openJournal(); // nothing to open
    EXPECT_TRUE(session.journalPath().empty());
    StopToken stop;
    const SweepOutcome outcome = session.run(stop);
    EXPECT_FALSE(outcome.saved);
    EXPECT_TRUE(outcome.saveProblem.empty());
    EXPECT_EQ(outcome.result.points.size(), 4u);
}

TEST(SweepSession, AnInvalidPlanIsRefusedBeforeAnyFileIsMade) {
    const auto registry = oneFake();
    TempDir dir;
    EXPECT_THROW(SweepSession(registry, fakePlan({"no-such-backend"}), dir.path("r.json"), {}), Error);
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

} // namespace
} // namespace rnnprof
