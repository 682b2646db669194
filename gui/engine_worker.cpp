#include "gui/engine_worker.h"

#include "engine/error.h"
#include "profiling/gpu/cupti_tracer.h"
#include "profiling/measure/crossover_run.h"
#include "profiling/measure/sweep_session.h"

#include <chrono>

namespace rnnprof::gui {
namespace {

constexpr auto kProgressInterval = std::chrono::milliseconds(50);

} // namespace

EngineWorker::EngineWorker(const BackendRegistry& backends, std::shared_ptr<const StopToken> stop)
    : m_backends(backends), m_stop(std::move(stop)) {}

EngineWorker::~EngineWorker() = default;

void EngineWorker::prepareTracer() {
    if (!m_tracer) m_tracer = makeKernelTracer();
}

void EngineWorker::runSweep(quint64 job, const SweepPlan& plan, const QString& resultPath, bool resume) {
    using Clock = std::chrono::steady_clock;
    auto lastProgress = Clock::now() - kProgressInterval;
    SweepSessionEvents events;
    events.onProgress = [&](const SweepProgress& p) {
        const auto now = Clock::now();
        if (now - lastProgress < kProgressInterval && p.done != 0 && p.done != p.total) return;
        lastProgress = now;
        emit progressChanged(job, p);
    };
    events.onPoint = [&](const PointResult& point) { emit pointFinished(job, point); };
    events.onFileProblem = [&](const std::string& problem) {
        emit fileProblem(job, QString::fromStdString(problem));
    };

    SweepOutcome outcome;
    try {
        prepareTracer();
        SweepSession session(m_backends, plan, resultPath.toStdString(), std::move(events), m_tracer.get());
        try {
            session.openJournal(resume ? EarlierJournal::Resume : EarlierJournal::Refuse);
        } catch (const std::exception& e) {
            if (resume) throw; // resuming without the earlier points would be no resume at all
            // A new sweep measures on; the points stay in memory.
            emit fileProblem(job,
                             QStringLiteral("The journal could not be created, points are kept in memory "
                                            "only: %1")
                                 .arg(QString::fromStdString(e.what())));
        }
        emit sweepStarted(job, session.header()); // after a resume, the earlier run's header
        outcome = session.run(*m_stop);
    } catch (const std::exception& e) {
        emit sweepFailed(job, QString::fromStdString(e.what()));
        return;
    }
    emit sweepFinished(job, outcome.result);
}

void EngineWorker::runCrossoverSearch(quint64 job, const SweepPlan& plan, const SweepResult& reference) {
    using Clock = std::chrono::steady_clock;
    auto lastProgress = Clock::now() - kProgressInterval;
    RunnerCallbacks callbacks;
    callbacks.onProgress = [&](const SweepProgress& p) {
        const auto now = Clock::now();
        if (now - lastProgress < kProgressInterval) return;
        lastProgress = now;
        emit progressChanged(job, p);
    };
    callbacks.onPoint = [&](const PointResult& point) { emit pointFinished(job, point); };
    try {
        prepareTracer();
        SweepResult header = SweepRunner(m_backends, plan).header();
        emit sweepStarted(job, header);
        const SearchRun run = rnnprof::runCrossoverSearch(
            m_backends, plan, {std::string(kFastestCpu), std::string(kFastestCpu), nullptr},
            {reference.label + ":" + std::string(kFastestGpu), std::string(kFastestGpu), &reference}, *m_stop,
            callbacks, m_tracer.get());
        emit sweepFinished(job, run.result);
    } catch (const std::exception& e) {
        emit sweepFailed(job, QString::fromStdString(e.what()));
    }
}

} // namespace rnnprof::gui
