#pragma once
// One journaled sweep, the same for the command line and the GUI's engine thread: the header
// (created_at, host, plan) made once, the journal written point by point next to the results file,
// the runner, and the final save. The journal's policy lives here and nowhere else:
//   - the journal is `<resultPath>.journal`, its header is the result's header (same created_at);
//   - one session per journal: it is locked while the session lives, a second one is refused;
//   - a journal left by an earlier run is never overwritten: it is refused, or resumed when its
//     plan is the session's (its points are kept, only the missing ones are measured);
//   - a point that cannot be appended to the journal is still measured and kept (reported once);
//   - after the results file was saved the journal is removed: the file holds every point;
//   - when the save fails the journal stays and the problem names it.
#include "engine/backend.h"
#include "engine/error.h"
#include "profiling/measure/runner.h"
#include "profiling/result.h"

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rnnprof {

class Journal;

// What openJournal() does with a journal that an earlier run left at the path.
enum class EarlierJournal {
    Refuse, // throw JournalLeftOver; the file stays as it is
    Resume, // keep its points when its plan is the session's; else Error(InvalidInput)
    // Resume, leaving out the lines of points that are damaged (not the header): their points are
    // measured again, and the journal is written anew with the points kept.
    ResumeSkippingDamaged,
};

// An earlier run's journal is in the way; it was left untouched. Front ends add their own remedy
// (the command line's --resume, the window's Resume button).
class JournalLeftOver : public Error {
public:
    JournalLeftOver(std::string path, std::size_t points);
    [[nodiscard]] const std::string& path() const { return m_path; }
    [[nodiscard]] std::size_t points() const { return m_points; }

private:
    std::string m_path;
    std::size_t m_points;
};

// An earlier run's journal whose header is sound but some of whose point lines are damaged (not
// the torn last line of a killed run): it was left untouched. Front ends add their remedy
// (the command line's --resume --skip-damaged).
class JournalDamaged : public Error {
public:
    JournalDamaged(std::string path, const std::vector<std::string>& damaged, std::size_t points);
    [[nodiscard]] const std::string& path() const { return m_path; }
    [[nodiscard]] std::size_t points() const { return m_points; } // the sound lines' points

private:
    std::string m_path;
    std::size_t m_points;
};

struct SweepSessionEvents {
    std::function<void(const SweepProgress&)> onProgress;
    std::function<void(const PointResult&)> onPoint;       // after the point is in the journal
    std::function<void(const std::string&)> onFileProblem; // journal or save problem; measuring goes on
};

struct SweepOutcome {
    SweepResult result;      // its header equals SweepSession::header()
    bool saved = false;      // the results file was written (and the journal removed)
    std::string saveProblem; // why not, naming where the points are; empty when saved or no path
};

class SweepSession {
public:
    // `resultPath` empty: neither journal nor results file, the points stay in memory. Throws
    // Error(InvalidConfig) for an invalid plan, before any file is made.
    SweepSession(const BackendRegistry& backends, SweepPlan plan, std::string resultPath,
                 SweepSessionEvents events, KernelTracer* tracer = nullptr);
    ~SweepSession();
    SweepSession(const SweepSession&) = delete;
    SweepSession& operator=(const SweepSession&) = delete;

    [[nodiscard]] const SweepResult& header() const;
    // Measures only `shard`'s points (SweepRunner::setShard); before openJournal(), whose header
    // records it and which resumes only a journal of the same shard.
    void setShard(std::optional<Shard> shard);
    [[nodiscard]] std::string journalPath() const;
    // Opens and locks the journal: a new one gets the header; an earlier run's is refused or
    // resumed (see EarlierJournal). Without a journal, Resume continues the results file at the
    // output (a stopped run's, or a finished one's: nothing left to measure) of the same plan, shard
    // and host.
    // Returns the number of points kept (0 for a new run); resumedFrom() names their file.
    // Throws Error(Io) when the file cannot be made, Error(InvalidInput) when it is not ours to
    // write (a link, busy with another process, another plan), JournalLeftOver. Without a call,
    // run() measures into memory only. The caller decides whether a failure is fatal.
    std::size_t openJournal(EarlierJournal earlier = EarlierJournal::Refuse);
    // The journal or results file the kept points came from; "" for a new run.
    [[nodiscard]] const std::string& resumedFrom() const { return m_resumedFrom; }
    // With ResumeSkippingDamaged: the damaged lines left out ("r.json.journal line 7: ...").
    [[nodiscard]] const std::vector<std::string>& skippedLines() const { return m_skippedLines; }
    // Runs every point (or until `stop`), then saves the results file.
    [[nodiscard]] SweepOutcome run(const StopToken& stop);

private:
    // Throws Error(InvalidInput), naming `source`, unless `previous` is an earlier run of this plan,
    // shard and host.
    void requireResumable(const SweepResult& previous, const std::string& source) const;
    // Empties `journal`, writes the header and every kept point into it and holds it; returns their count.
    std::size_t writeJournalAnew(std::unique_ptr<Journal> journal);
    // Resume without a journal: keeps the measured points of the results file at the output.
    void resumeSavedResults();

    SweepRunner m_runner;
    std::string m_resultPath;
    SweepSessionEvents m_events;
    std::unique_ptr<Journal> m_journal; // held (locked) from openJournal() to the end of run()
    bool m_journalIntact = true;        // false after an append failed: no more lines go in
    std::size_t m_journaledPoints = 0;  // the points the journal holds, for messages
    std::string m_resumedFrom;
    std::vector<std::string> m_skippedLines;
};

} // namespace rnnprof
