#include "gui/sweep_controller.h"

#include "gui/engine_worker.h"

#include <QThread>

namespace rnnprof::gui {

SweepController::SweepController(const BackendRegistry& backends, QObject* parent)
    : QObject(parent), m_stop(std::make_shared<StopToken>()) {
    registerMetaTypes();
    m_thread = new QThread; // not parented: it is joined and deleted explicitly in shutdown()
    m_thread->setObjectName(QStringLiteral("rnnprof engine"));
    m_worker = new EngineWorker(backends, m_stop);
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);

    auto current = [this](quint64 job) { return job == m_job && m_thread; };
    connect(m_worker, &EngineWorker::sweepStarted, this,
            [this, current](quint64 job, const SweepResult& header) {
                if (current(job)) emit started(header);
            });
    connect(m_worker, &EngineWorker::pointFinished, this, [this, current](quint64 job, const PointResult& p) {
        if (current(job)) emit pointFinished(p);
    });
    connect(m_worker, &EngineWorker::progressChanged, this,
            [this, current](quint64 job, const SweepProgress& p) {
                if (current(job)) emit progressChanged(p);
            });
    connect(m_worker, &EngineWorker::sweepFinished, this, [this, current](quint64 job, const SweepResult& r) {
        if (!current(job)) return;
        setRunning(false);
        emit finished(r);
    });
    connect(m_worker, &EngineWorker::sweepFailed, this, [this, current](quint64 job, const QString& message) {
        if (!current(job)) return;
        setRunning(false);
        emit failed(message);
    });
    connect(m_worker, &EngineWorker::fileProblem, this, [this, current](quint64 job, const QString& message) {
        if (current(job)) emit fileProblem(message);
    });
    m_thread->start();
    // CUPTI must subscribe before any CUDA context exists: create the tracer on the engine thread
    // now, before the window probes the GPU.
    EngineWorker* worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker] { worker->prepareTracer(); }, Qt::BlockingQueuedConnection);
}

SweepController::~SweepController() {
    shutdown();
}

bool SweepController::start(const SweepPlan& plan, const QString& resultPath, bool resume) {
    if (m_running || !m_thread) return false;
    m_stop->reset();
    const quint64 job = ++m_job;
    m_resultPath = resultPath;
    setRunning(true);
    EngineWorker* worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker, job, plan, resultPath, resume] { worker->runSweep(job, plan, resultPath, resume); },
        Qt::QueuedConnection);
    return true;
}

bool SweepController::startCrossoverSearch(const SweepPlan& plan, const SweepResult& reference) {
    if (m_running || !m_thread) return false;
    m_stop->reset();
    const quint64 job = ++m_job;
    m_resultPath.clear();
    setRunning(true);
    EngineWorker* worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker, job, plan, reference] { worker->runCrossoverSearch(job, plan, reference); },
        Qt::QueuedConnection);
    return true;
}

void SweepController::stop() {
    m_stop->requestStop("Stop in the window");
}

void SweepController::shutdown() {
    if (!m_thread) return;
    m_stop->requestStop("the window closing");
    m_thread->quit(); // takes effect once the running sweep returns at its next stop check
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
    m_worker = nullptr; // deleted by QThread::finished -> deleteLater on the (now joined) thread
    setRunning(false);
}

void SweepController::setRunning(bool running) {
    if (m_running == running) return;
    m_running = running;
    emit runningChanged(running);
}

} // namespace rnnprof::gui
