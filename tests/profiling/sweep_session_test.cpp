// The one journaled sweep of the CLI and the GUI (profiling/measure/sweep_session.h): the journal carries
// the result's header, every finished point is journaled before anyone hears of it, the journal is
// removed once the results file holds everything and kept when the save fails.
#include "support/fake_backend.h"
#include "support/temp_dir.h"

#include "engine/error.h"
#include "profiling/files/result_files.h"
#include "profiling/measure/sweep_session.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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
    // The header's host, with the load samples the run took before and during it (host_load.h).
    HostInfo host = outcome.result.host;
    host.loadBefore.reset();
    host.loadDuring.reset();
    EXPECT_EQ(host, session.header().host);
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

// What a killed session leaves: the journal of `plan` with its first `kept` points.
SweepResult leaveKilledJournal(const BackendRegistry& registry, const SweepPlan& plan, const std::string& out,
                               std::size_t kept) {
    SweepSession first(registry, plan, "", {});
    StopToken stop;
    SweepResult full = first.run(stop).result;
    SweepResult header = full;
    header.points.clear();
    Journal journal(journalPathFor(out), header);
    for (std::size_t i = 0; i < kept; ++i)
        journal.append(full.points[i]);
    return full;
}

TEST(SweepSession, AnEarlierRunsJournalIsRefusedUntouched) {
    const auto registry = oneFake();
    TempDir dir;
    const std::string out = dir.path("r.json");
    (void)leaveKilledJournal(registry, fakePlan({"a"}), out, 2);
    const std::string before = test::slurp(journalPathFor(out));
    SweepSession session(registry, fakePlan({"a"}), out, {});
    try {
        (void)session.openJournal();
        FAIL() << "an earlier run's journal was taken over";
    } catch (const JournalLeftOver& e) {
        EXPECT_EQ(e.path(), journalPathFor(out));
        EXPECT_EQ(e.points(), 2u);
    }
    EXPECT_EQ(test::slurp(journalPathFor(out)), before);
}

TEST(SweepSession, AFileAtTheJournalsNameThatIsNoJournalIsLeftAsItIsEvenWhenResuming) {
    const auto registry = oneFake();
    TempDir dir;
    const std::string out = dir.path("r.json");
    std::ofstream(journalPathFor(out), std::ios::binary) << "notes without a newline";
    for (const EarlierJournal earlier : {EarlierJournal::Refuse, EarlierJournal::Resume}) {
        SweepSession session(registry, fakePlan({"a"}), out, {});
        try {
            (void)session.openJournal(earlier);
            FAIL() << "a file that is no journal was taken over";
        } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
            EXPECT_NE(std::string(e.what()).find("is not one"), std::string::npos) << e.what();
        }
        EXPECT_EQ(test::slurp(journalPathFor(out)), "notes without a newline");
    }
}

TEST(SweepSession, AResumedJournalsPointsAreReportedFirstAndOnlyTheRestIsMeasured) {
    const auto registry = oneFake();
    TempDir dir;
    const std::string out = dir.path("r.json");
    const SweepResult earlier = leaveKilledJournal(registry, fakePlan({"a"}), out, 3);
    std::vector<PointResult> reported;
    SweepSessionEvents events;
    events.onPoint = [&](const PointResult& p) { reported.push_back(p); };
    SweepSession session(registry, fakePlan({"a"}), out, events);
    EXPECT_EQ(session.openJournal(EarlierJournal::Resume), 3u);
    EXPECT_EQ(session.header().createdAt, earlier.createdAt);
    StopToken stop;
    const SweepOutcome outcome = session.run(stop);
    ASSERT_TRUE(outcome.saved) << outcome.saveProblem;
    ASSERT_EQ(outcome.result.points.size(), 4u);
    ASSERT_EQ(reported.size(), 4u);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(outcome.result.points[i], earlier.points[i]);
        EXPECT_EQ(reported[i], earlier.points[i]);
    }
    EXPECT_EQ(loadResultFile(out).points, outcome.result.points);
    EXPECT_FALSE(std::filesystem::exists(journalPathFor(out)));
}

TEST(SweepSession, ResumingAJournalOfAnotherPlanIsRefusedNamingTheDifference) {
    const auto registry = oneFake();
    TempDir dir;
    const std::string out = dir.path("r.json");
    SweepPlan other = fakePlan({"a"});
    other.settings.warmup += 1;
    (void)leaveKilledJournal(registry, other, out, 1);
    SweepSession session(registry, fakePlan({"a"}), out, {});
    try {
        (void)session.openJournal(EarlierJournal::Resume);
        FAIL() << "a journal of another plan was resumed";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
        EXPECT_NE(std::string(e.what()).find("measure.warmup"), std::string::npos) << e.what();
    }
}

} // namespace
} // namespace rnnprof
