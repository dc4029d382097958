#include "kit/sweepcontroller.h"

#include "kit/sweepworker.h"
#include "runs/runcatalog.h"

namespace kp::ui {

SweepController::SweepController(QObject* parent)
    : QObject(parent)
    , m_pendingSnapshots(std::make_shared<std::atomic<int>>(0))
    , m_runsDirectory(kp::defaultRunsDirectory())
{
    qRegisterMetaType<kp::ui::RunInfo>();
    qRegisterMetaType<kp::ui::StepReport>();
    qRegisterMetaType<kp::ui::RunAnalysis>();
    qRegisterMetaType<kp::LiveSnapshot>();
    qRegisterMetaType<kp::StepConfig>();
    qRegisterMetaType<kp::ui::ServerSweepStatus>();
    qRegisterMetaType<kp::ui::ServerSweepResult>();
    qRegisterMetaType<kp::ui::SoakWindowFigures>();

    m_thread.setObjectName(QStringLiteral("kneepoint sweep controller"));
    m_worker = new SweepWorker(m_pendingSnapshots);
    m_worker->moveToThread(&m_thread);

    // The worker lives in the controller thread: these connections are queued.
    connect(m_worker, &SweepWorker::message, this, &SweepController::message);
    connect(m_worker, &SweepWorker::started, this, &SweepController::started);
    connect(m_worker, &SweepWorker::stepStarted, this, &SweepController::stepStarted);
    connect(m_worker, &SweepWorker::snapshot, this, [this](const LiveSnapshot& s) {
        m_pendingSnapshots->fetch_sub(1);
        Q_EMIT snapshot(s);
    });
    connect(m_worker, &SweepWorker::stepFinished, this, &SweepController::stepFinished);
    connect(m_worker, &SweepWorker::analysisChanged, this, &SweepController::analysisChanged);
    connect(m_worker, &SweepWorker::serverSample, this, &SweepController::serverSample);
    connect(m_worker, &SweepWorker::serverReported, this, &SweepController::serverReported);
    connect(m_worker, &SweepWorker::serverSweepChanged, this, &SweepController::serverSweepChanged);
    connect(m_worker, &SweepWorker::nextRun, this, &SweepController::nextRun);
    connect(m_worker, &SweepWorker::serverSweepFinished, this, &SweepController::serverSweepFinished);
    connect(m_worker, &SweepWorker::windowFinished, this, &SweepController::windowFinished);
    connect(m_worker, &SweepWorker::pausedChanged, this, [this](bool paused) {
        m_paused = paused;
        if (!paused)
            m_pauseRequested = false;
        Q_EMIT pausedChanged(paused);
    });
    connect(m_worker, &SweepWorker::finished, this, [this](bool stopped, const QString& reason) {
        m_paused = m_pauseRequested = false;
        setRunning(false);
        Q_EMIT finished(stopped, reason);
    });
    connect(m_worker, &SweepWorker::failed, this, [this](const QString& text) {
        m_paused = m_pauseRequested = false;
        setRunning(false);
        Q_EMIT failed(text);
    });
    m_thread.start();
}

SweepController::~SweepController()
{
    QMetaObject::invokeMethod(m_worker, &SweepWorker::shutdown, Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
    delete m_worker; // its thread has ended: nothing else can touch it
}

void SweepController::setRunning(bool running)
{
    if (m_running == running)
        return;
    m_running = running;
    Q_EMIT runningChanged(running);
}

void SweepController::start(const Profile& profile, bool allowHighLoad)
{
    if (m_running)
        return;
    m_paused = m_pauseRequested = false;
    m_pendingSnapshots->store(0);
    setRunning(true);
    QMetaObject::invokeMethod(
        m_worker,
        [worker = m_worker, profile, dir = m_runsDirectory, allowHighLoad, peak = m_peak, redundancy = m_redundancy] {
            worker->start(profile, dir, allowHighLoad, peak, redundancy);
        },
        Qt::QueuedConnection);
}

void SweepController::stop()
{
    if (m_running)
        QMetaObject::invokeMethod(m_worker, &SweepWorker::stop, Qt::QueuedConnection);
}

void SweepController::pause()
{
    if (!m_running || m_pauseRequested)
        return;
    m_pauseRequested = true;
    QMetaObject::invokeMethod(m_worker, &SweepWorker::pause, Qt::QueuedConnection);
}

void SweepController::resume()
{
    if (!m_running)
        return;
    m_pauseRequested = false;
    QMetaObject::invokeMethod(m_worker, &SweepWorker::resume, Qt::QueuedConnection);
}

void SweepController::addStep(const PlannedStep& step)
{
    if (m_running)
        QMetaObject::invokeMethod(
            m_worker, [worker = m_worker, step] { worker->addStep(step); }, Qt::QueuedConnection);
}

} // namespace kp::ui
