#pragma once
// One journaled sweep, the same for the command line and the GUI's engine thread: the header
// (created_at, host, plan) made once, the journal written point by point next to the results file,
// the runner, and the final save. The journal's policy lives here and nowhere else:
//   - the journal is `<resultPath>.journal`, its header is the result's header (same created_at);
//   - a point that cannot be appended to the journal is still measured and kept (reported once);
//   - after the results file was saved the journal is removed: the file holds every point;
//   - when the save fails the journal stays and the problem names it.
#include "engine/backend.h"
#include "profiling/result.h"
#include "profiling/runner.h"

#include <functional>
#include <memory>
#include <string>

namespace rnnprof {

class Journal;

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
    [[nodiscard]] std::string journalPath() const;
    // Creates the journal (truncating an old one) with the header; throws Error(Io). Without a
    // call, run() measures into memory only. The caller decides whether a failure is fatal.
    void openJournal();
    // Runs every point (or until `stop`), then saves the results file.
    [[nodiscard]] SweepOutcome run(const StopToken& stop);

private:
    SweepRunner m_runner;
    std::string m_resultPath;
    SweepSessionEvents m_events;
    std::unique_ptr<Journal> m_journal;
};

} // namespace rnnprof
