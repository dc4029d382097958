#pragma once

#include "kit/runinfo.h"
#include "kit/serversweepstatus.h"
#include "kit/stepreport.h"
#include "load/steprunner.h"
#include "profile/profile.h"
#include "sweep/capacityplan.h"
#include "sweep/sweepplanner.h"

#include <QObject>
#include <QThread>

#include <atomic>
#include <memory>
#include <optional>

namespace kp::ui {

class SweepWorker;

// The GUI's handle on a sweep. It owns the controller thread, where the runner, the transport, the
// built-in simulator and the run directory writer are created and live; its methods return at once
// and its signals arrive queued in the GUI thread: a few snapshots a second, one report per step,
// never one signal per request.
class SweepController : public QObject
{
    Q_OBJECT
public:
    explicit SweepController(QObject* parent = nullptr);
    ~SweepController() override; // stops a run in progress; finished steps stay on disk

    // Where run directories go: kp::defaultRunsDirectory() unless set.
    void setRunsDirectory(const QString& dir) { m_runsDirectory = dir; }
    QString runsDirectory() const { return m_runsDirectory; }

    bool isRunning() const { return m_running; }
    bool isPaused() const { return m_paused; }
    bool isPauseRequested() const { return m_pauseRequested; }

    // The capacity plan the next runs' analysis.json holds (the run page's peak demand and redundancy).
    void setCapacityDemand(const std::optional<kp::PeakDemand>& peak, const kp::Redundancy& redundancy)
    {
        m_peak = peak;
        m_redundancy = redundancy;
    }
    // allowHighLoad: the user went ahead past the load limits (confirmSweepStart); otherwise every
    // step stays within them.
    void start(const kp::Profile& profile, bool allowHighLoad = false);
    void stop(); // the current step ends as partial; finished steps are kept
    void pause(); // after the current step
    void resume();
    void addStep(const kp::PlannedStep& step); // runs next: a load between two done steps, or a repeat

Q_SIGNALS:
    void runningChanged(bool running);
    void message(const QString& line);
    void started(const kp::ui::RunInfo& info);
    void stepStarted(int index, const kp::StepConfig& config);
    void snapshot(const kp::LiveSnapshot& snapshot);
    void stepFinished(const kp::ui::StepReport& report);
    void analysisChanged(const kp::ui::RunAnalysis& analysis);
    void pausedChanged(bool paused);
    void finished(bool stopped, const QString& stopReason);
    void failed(const QString& message); // names what is wrong: the file, URL or field
    void serverSample(int stepIndex, const kp::ServerSample& sample); // each /metrics scrape of the running step
    void serverReported(const QJsonObject& facts); // /version, /v1/models, metric labels, before the first step
    // A profile with a server_sweep section: which combination runs and what its server does; each
    // combination's sweep is a run of its own (nextRun: the run view starts over, then started); the
    // group's end, with its comparison, just before finished.
    void serverSweepChanged(const kp::ui::ServerSweepStatus& status);
    void nextRun();
    void serverSweepFinished(const kp::ui::ServerSweepResult& result);
    void windowFinished(const kp::ui::SoakWindowFigures& window); // a soak step's window, once in windows.jsonl

private:
    void setRunning(bool running);

    QThread m_thread;
    SweepWorker* m_worker = nullptr;
    std::shared_ptr<std::atomic<int>> m_pendingSnapshots;
    QString m_runsDirectory;
    std::optional<kp::PeakDemand> m_peak;
    kp::Redundancy m_redundancy;
    bool m_running = false;
    bool m_paused = false;
    bool m_pauseRequested = false;
};

} // namespace kp::ui
