#include "gui/engine_worker.h"

#include "engine/error.h"
#include "profiling/gpu/cupti_tracer.h"
#include "profiling/result_files.h"

#include <chrono>
#include <optional>

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

void EngineWorker::runSweep(quint64 job, const SweepPlan& plan, const QString& resultPath) {
    SweepResult header;
    header.createdAt = isoTimestampUtc();
    header.host = currentHost();
    header.plan = plan;
    emit sweepStarted(job, header);

    const std::string path = resultPath.toStdString();
    std::optional<Journal> journal;
    if (!path.empty()) {
        try {
            journal.emplace(journalPathFor(path), header);
        } catch (const std::exception& e) {
            emit fileProblem(job,
                             QStringLiteral("The journal could not be created, points are kept in memory "
                                            "only: %1")
                                 .arg(QString::fromStdString(e.what())));
        }
    }

    using Clock = std::chrono::steady_clock;
    auto lastProgress = Clock::now() - kProgressInterval;
    RunnerCallbacks callbacks;
    callbacks.onProgress = [&](const SweepProgress& p) {
        const auto now = Clock::now();
        if (now - lastProgress < kProgressInterval && p.done != 0 && p.done != p.total) return;
        lastProgress = now;
        emit progressChanged(job, p);
    };
    callbacks.onPoint = [&](const PointResult& point) {
        if (journal) {
            try {
                journal->append(point);
            } catch (const std::exception& e) {
                emit fileProblem(job, QStringLiteral("Writing the journal failed (%1); it stops here.")
                                          .arg(QString::fromStdString(e.what())));
                journal.reset();
            }
        }
        emit pointFinished(job, point);
    };

    SweepResult result;
    try {
        prepareTracer();
        SweepRunner runner(m_backends, plan, std::move(callbacks));
        runner.setKernelTracer(m_tracer.get());
        result = runner.run(*m_stop);
    } catch (const std::exception& e) {
        emit sweepFailed(job, QString::fromStdString(e.what()));
        return;
    }
    journal.reset(); // closed before the final file replaces it as the complete record
    if (!path.empty()) {
        try {
            saveResultJson(path, result);
        } catch (const std::exception& e) {
            emit fileProblem(job, QStringLiteral("The result could not be saved to %1: %2")
                                      .arg(resultPath, QString::fromStdString(e.what())));
        }
    }
    emit sweepFinished(job, result);
}

} // namespace rnnprof::gui
