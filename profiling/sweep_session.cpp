#include "profiling/sweep_session.h"

#include "engine/error.h"
#include "profiling/result_files.h"

#include <filesystem>

namespace rnnprof {

SweepSession::SweepSession(const BackendRegistry& backends, SweepPlan plan, std::string resultPath,
                           SweepSessionEvents events, KernelTracer* tracer)
    : m_runner(backends, std::move(plan)), m_resultPath(std::move(resultPath)), m_events(std::move(events)) {
    m_runner.setKernelTracer(tracer);
    m_runner.requireValidPlan(); // before any file is made
}

SweepSession::~SweepSession() = default;

const SweepResult& SweepSession::header() const {
    return m_runner.header();
}

std::string SweepSession::journalPath() const {
    return m_resultPath.empty() ? std::string() : journalPathFor(m_resultPath);
}

void SweepSession::openJournal() {
    if (m_resultPath.empty()) return;
    m_journal.reset();
    m_journal = std::make_unique<Journal>(journalPath(), header());
}

SweepOutcome SweepSession::run(const StopToken& stop) {
    RunnerCallbacks callbacks;
    callbacks.onProgress = m_events.onProgress;
    callbacks.onPoint = [this](const PointResult& point) {
        if (m_journal) {
            try {
                m_journal->append(point);
            } catch (const Error& e) { // keep measuring: the results file still gets every point
                if (m_events.onFileProblem)
                    m_events.onFileProblem("writing the journal failed (" + std::string(e.what()) +
                                           "); it stops here, the points are kept in memory");
                m_journal.reset();
            }
        }
        if (m_events.onPoint) m_events.onPoint(point);
    };
    m_runner.setCallbacks(std::move(callbacks));

    SweepOutcome outcome;
    outcome.result = m_runner.run(stop);
    if (m_resultPath.empty()) return outcome;
    const bool journalOpen = m_journal != nullptr;
    m_journal.reset(); // closed before the results file replaces it as the complete record
    try {
        saveResultJson(m_resultPath, outcome.result);
        outcome.saved = true;
        std::error_code ec;
        std::filesystem::remove(journalPath(), ec); // everything is in the results file now
    } catch (const Error& e) {
        outcome.saveProblem =
            std::string(e.what()) + (journalOpen
                                         ? " (the measured points are in " + journalPath() + ")"
                                         : " (the measured points were not all journaled: " + journalPath() +
                                               " holds those before its own failure)");
        if (m_events.onFileProblem) m_events.onFileProblem(outcome.saveProblem);
    }
    return outcome;
}

} // namespace rnnprof
