#include "profiling/measure/sweep_session.h"

#include "engine/error.h"
#include "profiling/files/plan_json.h"
#include "profiling/files/result_files.h"

#include <filesystem>
#include <optional>

namespace rnnprof {
namespace {

std::string pointsText(std::size_t n) {
    return std::to_string(n) + (n == 1 ? " point" : " points");
}

} // namespace

JournalLeftOver::JournalLeftOver(std::string path, std::size_t points)
    : Error(ErrorKind::InvalidInput, path + " is the journal of an earlier run of this output, holding " +
                                         pointsText(points) +
                                         " it measured; it was left as it is, nothing was overwritten"),
      m_path(std::move(path)), m_points(points) {}

JournalDamaged::JournalDamaged(std::string path, const std::vector<std::string>& damaged, std::size_t points)
    : Error(ErrorKind::InvalidInput, path + " is the journal of an earlier run of this output with " +
                                         std::to_string(damaged.size()) +
                                         (damaged.size() == 1 ? " damaged line" : " damaged lines") + " (" +
                                         damaged.front() + ") and " + pointsText(points) +
                                         " on sound lines; it was left as it is, nothing was overwritten"),
      m_path(std::move(path)), m_points(points) {}

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

void SweepSession::setShard(std::optional<Shard> shard) {
    m_runner.setShard(shard);
    m_runner.requireValidPlan();
}

std::string SweepSession::journalPath() const {
    return m_resultPath.empty() ? std::string() : journalPathFor(m_resultPath);
}

std::size_t SweepSession::openJournal(EarlierJournal earlier) {
    if (m_resultPath.empty()) return 0;
    m_journal.reset();
    m_journalIntact = true;
    m_journaledPoints = 0;
    auto journal = std::make_unique<Journal>(journalPath());
    const std::string& text = journal->earlierText();
    const bool resume = earlier != EarlierJournal::Refuse;
    if (text.empty()) {
        if (resume) resumeSavedResults();
        return writeJournalAnew(std::move(journal)); // a saved run's points, if any, after the header
    }
    // Resuming appends after the last complete line: a torn line of the killed run is cut, and
    // its point measured again.
    const std::size_t complete = text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1;
    const std::string_view kept =
        resume ? std::string_view(text).substr(0, complete) : std::string_view(text);
    const bool skipDamaged = earlier == EarlierJournal::ResumeSkippingDamaged;
    SweepResult previous;
    try {
        previous = journalFromText(kept, journalPath(), skipDamaged ? &m_skippedLines : nullptr);
    } catch (const Error& e) {
        // A sound header with damaged point lines is a journal all the same: say what is in it.
        std::vector<std::string> damaged;
        std::optional<SweepResult> sound;
        try {
            sound = journalFromText(kept, journalPath(), &damaged);
        } catch (const Error&) { // not a journal: neither to resume nor to overwrite
        }
        if (sound && !damaged.empty()) throw JournalDamaged(journalPath(), damaged, sound->points.size());
        throw Error(ErrorKind::InvalidInput, journalPath() +
                                                 " is in the way of this sweep's journal and is not one (" +
                                                 e.what() + "); it was left as it is: move or delete it");
    }
    if (!resume) throw JournalLeftOver(journalPath(), previous.points.size());
    requireResumable(previous, journalPath());
    m_resumedFrom = journalPath();
    if (!m_skippedLines.empty()) { // written anew: its damaged lines must not stop the next resume
        m_runner.resumeFrom(previous);
        return writeJournalAnew(std::move(journal));
    }
    journal->keepOnly(complete);
    m_runner.resumeFrom(previous);
    m_journal = std::move(journal);
    m_journaledPoints = m_runner.keptPoints().size();
    return m_journaledPoints;
}

std::size_t SweepSession::writeJournalAnew(std::unique_ptr<Journal> journal) {
    journal->keepOnly(0);
    journal->begin(header());
    for (const PointResult& p : m_runner.keptPoints())
        journal->append(p);
    m_journal = std::move(journal);
    m_journaledPoints = m_runner.keptPoints().size();
    return m_journaledPoints;
}

void SweepSession::requireResumable(const SweepResult& previous, const std::string& source) const {
    if (const auto differences = jsonio::planDifferences(previous.plan, header().plan);
        !differences.empty()) {
        std::string list;
        for (const auto& d : differences)
            list += (list.empty() ? "" : "; ") + d;
        throw Error(ErrorKind::InvalidInput, source + " was written by a sweep of another plan (" + source +
                                                 " vs this run: " + list +
                                                 "); it cannot be resumed with this plan");
    }
    if (previous.shard != header().shard) {
        auto name = [](const std::optional<Shard>& s) {
            return s ? "shard " + shardText(*s) : "the whole plan";
        };
        throw Error(ErrorKind::InvalidInput, source + " measured " + name(previous.shard) +
                                                 ", this run measures " + name(header().shard) +
                                                 "; it cannot be resumed with this split");
    }
    if (previous.host.hostname != header().host.hostname)
        throw Error(ErrorKind::InvalidInput, source + " was written on host " + previous.host.hostname +
                                                 ", this is " + header().host.hostname +
                                                 "; points of two machines are not resumed into one result");
}

void SweepSession::resumeSavedResults() {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(m_resultPath, ec)) return;
    SweepResult previous;
    try {
        previous = loadResultFile(m_resultPath);
    } catch (const Error& e) {
        throw Error(ErrorKind::InvalidInput, "--resume found no journal and " + m_resultPath +
                                                 " is no results file to continue (" + e.what() +
                                                 "); it was left as it is: move or delete it");
    }
    requireResumable(previous, m_resultPath);
    m_runner.resumeFrom(previous);
    m_resumedFrom = m_resultPath;
}

SweepOutcome SweepSession::run(const StopToken& stop) {
    RunnerCallbacks callbacks;
    callbacks.onProgress = m_events.onProgress;
    callbacks.onPoint = [this](const PointResult& point) {
        if (m_journal && m_journalIntact) {
            try {
                m_journal->append(point);
                ++m_journaledPoints;
            } catch (const Error& e) { // keep measuring: the results file still gets every point
                if (m_events.onFileProblem)
                    m_events.onFileProblem("writing the journal failed (" + std::string(e.what()) +
                                           "); it keeps " + std::to_string(m_journaledPoints) +
                                           " points, and the sweep goes on: every point is saved in " +
                                           m_resultPath + " at the end");
                m_journalIntact = false; // still held: no other run may take it over meanwhile
            }
        }
        if (m_events.onPoint) m_events.onPoint(point);
    };
    m_runner.setCallbacks(std::move(callbacks));
    if (m_events.onPoint) // a resumed journal's points first, as if measured now
        for (const PointResult& p : m_runner.keptPoints())
            m_events.onPoint(p);

    SweepOutcome outcome;
    outcome.result = m_runner.run(stop);
    if (m_resultPath.empty()) return outcome;
    const bool journalOpen = m_journal && m_journalIntact;
    try {
        saveResultJson(m_resultPath, outcome.result);
        outcome.saved = true;
        // Everything is in the results file now. Removed before the lock goes, so that no other
        // run finds it and takes it for an earlier run's.
        if (m_journal) m_journal->remove();
        m_journal.reset();
    } catch (const Error& e) {
        outcome.saveProblem =
            std::string(e.what()) +
            (journalOpen ? " (the measured points are in " + journalPath() + ")"
                         : " (" + journalPath() + " keeps " + std::to_string(m_journaledPoints) + " of the " +
                               std::to_string(outcome.result.points.size()) +
                               " points; the others were measured after the journal failed "
                               "and are lost)");
        if (m_events.onFileProblem) m_events.onFileProblem(outcome.saveProblem);
        m_journal.reset();
    }
    return outcome;
}

} // namespace rnnprof
