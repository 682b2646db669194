#pragma once
// Owns the engine thread and its worker, on the GUI thread: starts a sweep, stops it (the stop
// token is checked between runs and by CPU sessions inside a run; the runs measured so far are
// kept, the one in progress is abandoned), and on destruction or shutdown()
// stops and joins the thread so closing the window mid-sweep neither hangs nor crashes. Re-emits
// the worker's signals on the GUI thread, dropping those of a job that is no longer current.
#include "engine/backend.h"
#include "gui/metatypes.h"
#include "profiling/measure/runner.h"

#include <QObject>
#include <QString>

#include <memory>

QT_BEGIN_NAMESPACE
class QThread;
QT_END_NAMESPACE

namespace rnnprof::gui {

class EngineWorker;

class SweepController : public QObject {
    Q_OBJECT
public:
    explicit SweepController(const BackendRegistry& backends, QObject* parent = nullptr);
    ~SweepController() override;

    // Queues `plan` on the engine thread; false when a sweep is running or after shutdown().
    // `resultPath` (may be empty) is where the worker writes the journal and the final JSON.
    // `resume`: continue the journal an earlier run left beside `resultPath` (same plan), measuring
    // only its missing points; without it such a journal is never overwritten.
    bool start(const SweepPlan& plan, const QString& resultPath = {}, bool resume = false);
    // Queues a crossover search of `plan` against `reference` (EngineWorker::runCrossoverSearch);
    // false when a sweep is running or after shutdown(). Nothing is written to disk.
    bool startCrossoverSearch(const SweepPlan& plan, const SweepResult& reference);
    void stop();
    // Stops the sweep and joins the engine thread; blocks until the current run returns.
    void shutdown();
    [[nodiscard]] bool isRunning() const { return m_running; }
    [[nodiscard]] bool isShutDown() const { return m_thread == nullptr; }
    [[nodiscard]] QString resultPath() const { return m_resultPath; }

signals:
    void started(const rnnprof::SweepResult& header);
    void pointFinished(const rnnprof::PointResult& point);
    void progressChanged(const rnnprof::SweepProgress& progress);
    // `result.complete` is false when the sweep was stopped.
    void finished(const rnnprof::SweepResult& result);
    void failed(const QString& message);
    void fileProblem(const QString& message);
    void runningChanged(bool running);

private:
    void setRunning(bool running);

    std::shared_ptr<StopToken> m_stop;
    QThread* m_thread = nullptr;      // owned: deleted in shutdown()
    EngineWorker* m_worker = nullptr; // lives on m_thread, deleted when it finishes
    quint64 m_job = 0;
    bool m_running = false;
    QString m_resultPath;
};

} // namespace rnnprof::gui
