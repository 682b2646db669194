#pragma once
// The engine thread's worker: lives on that thread (moveToThread) and runs one sweep at a time with
// a SweepSession (profiling/measure/sweep_session.h: journal, runner, results file), so every backend
// session, CUDA context and CUPTI subscription is created, used and destroyed there. It reports
// finished points, throttled progress (at most every ~50 ms) and the final result as queued signals
// carrying plain values. Never call its slots from the GUI thread directly; SweepController queues.
#include "engine/backend.h"
#include "gui/metatypes.h"
#include "profiling/measure/runner.h"

#include <QObject>
#include <QString>

#include <memory>

namespace rnnprof::gui {

class EngineWorker : public QObject {
    Q_OBJECT
public:
    EngineWorker(const BackendRegistry& backends, std::shared_ptr<const StopToken> stop);
    ~EngineWorker() override;

    // Creates the GPU kernel tracer. Must run on the engine thread before any CUDA context exists;
    // the controller calls it (blocking) right after the thread starts.
    void prepareTracer();
    // Runs `plan` to the end or until the stop token is set. `resultPath` (may be empty) receives the
    // JSON result at the end, its journal every point as it finishes (SweepSession's policy).
    // `resume`: continue the journal an earlier run left there; the sweep fails when it cannot.
    void runSweep(quint64 job, const rnnprof::SweepPlan& plan, const QString& resultPath,
                  bool resume = false);

    // Searches where `reference`'s fastest GPU backend overtakes the fastest of plan.backends here
    // (profiling/measure/crossover_run.h): `plan` holds one mode, one sequence length and the grid. Reports
    // like a sweep (started, each point, progress, finished with the crossover record); no file.
    void runCrossoverSearch(quint64 job, const rnnprof::SweepPlan& plan,
                            const rnnprof::SweepResult& reference);

signals:
    void sweepStarted(quint64 job, const rnnprof::SweepResult& header);
    void pointFinished(quint64 job, const rnnprof::PointResult& point);
    void progressChanged(quint64 job, const rnnprof::SweepProgress& progress);
    void sweepFinished(quint64 job, const rnnprof::SweepResult& result);
    void sweepFailed(quint64 job, const QString& message);
    void fileProblem(quint64 job, const QString& message);

private:
    const BackendRegistry& m_backends;
    std::shared_ptr<const StopToken> m_stop;
    std::unique_ptr<KernelTracer> m_tracer; // lives and dies on the engine thread
};

} // namespace rnnprof::gui
