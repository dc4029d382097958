#pragma once

#include "kit/runinfo.h"
#include "kit/serversweepstatus.h"
#include "kit/stepreport.h"
#include "load/steprunner.h"
#include "profile/profile.h"
#include "sweep/capacityplan.h"
#include "sweep/kneeanalysis.h"
#include "sweep/sweeppipeline.h"

#include <QJsonObject>
#include <QObject>

#include <atomic>
#include <memory>
#include <optional>

namespace kp {
class ServerSweepDriver;
struct ServerSweepStep;
} // namespace kp

namespace kp::ui {

// The controller thread's half of a sweep: adapts the engine's SweepPipeline (simulator, preflight,
// preparation, tokenize pass, safety, recording) to the window: words its events in the window's
// language, turns each finished step into a StepReport and a fresh analysis, and merges live snapshots
// when the GUI falls behind. A profile with a server_sweep section runs as a server sweep (the engine's
// ServerSweepDriver): per combination the server is started, one sweep runs as above (each a run of its
// own: nextRun, then started), the server is stopped; finished follows the group's end. Everything it
// creates lives in its thread; it talks to the GUI only through its signals, which SweepController
// forwards queued.
class SweepWorker : public QObject
{
    Q_OBJECT
public:
    // pendingSnapshots counts snapshots sent but not yet taken by the GUI thread.
    explicit SweepWorker(std::shared_ptr<std::atomic<int>> pendingSnapshots, QObject* parent = nullptr);
    ~SweepWorker() override;

    // allowHighLoad: the user went ahead past the load limits in the start dialog (confirmSweepStart,
    // which also asked about remote load, a key in clear and the open-file limit). peak and redundancy:
    // the capacity plan the run's analysis.json holds.
    void start(const kp::Profile& profile, const QString& runsDirectory, bool allowHighLoad = false,
        const std::optional<kp::PeakDemand>& peak = std::nullopt, const kp::Redundancy& redundancy = {});
    void stop();
    void pause();
    void resume();
    void addStep(const kp::PlannedStep& step);
    // Ends the run at once (the application quits): what finished is on disk, the rest is cut.
    void shutdown();

Q_SIGNALS:
    void message(const QString& line);
    void started(const kp::ui::RunInfo& info);
    void stepStarted(int index, const kp::StepConfig& config);
    void snapshot(const kp::LiveSnapshot& snapshot);
    void stepFinished(const kp::ui::StepReport& report);
    void analysisChanged(const kp::ui::RunAnalysis& analysis);
    void pausedChanged(bool paused);
    void finished(bool stopped, const QString& stopReason);
    void failed(const QString& message);
    void serverSample(int stepIndex, const kp::ServerSample& sample); // each /metrics scrape of the running step
    void serverReported(const QJsonObject& facts); // what the server said about itself (ServerFacts::toJson)
    // A server sweep: where it stands; a combination's sweep is about to start (the run view starts over);
    // the group ended (just before finished).
    void serverSweepChanged(const kp::ui::ServerSweepStatus& status);
    void nextRun();
    void serverSweepFinished(const kp::ui::ServerSweepResult& result);
    void windowFinished(const kp::ui::SoakWindowFigures& window); // a soak step's window, as it closes

private:
    void startPipeline(const kp::Profile& profile, const QString& runDir);
    void startServerSweep(const kp::Profile& profile);
    void connectDriver();
    void pipelineEnded(const QString& failure);
    void connectPipeline();
    void onProbeProgress(const kp::ProbeProgress& progress);
    void onProbeFinished(const kp::ProbeReport& report);
    void onFailed(const kp::SweepFailure& failure);
    void onStarted(const kp::SweepStart& start);
    void onSnapshot(const kp::LiveSnapshot& snapshot);
    void onStepFinished(const kp::StepResult& result, const kp::RunSession::StepRecord& recorded);

    std::shared_ptr<std::atomic<int>> m_pendingSnapshots;
    std::optional<LiveSnapshot> m_heldSnapshot;
    std::vector<SoakWindowFigures> m_windows; // the running soak step's, for its report
    std::unique_ptr<SweepPipeline> m_pipeline;
    QString m_targetWords;
    // What start() was given, for each sweep of a server sweep.
    QString m_runsDirectory;
    bool m_allowHighLoad = false;
    std::optional<PeakDemand> m_peak;
    Redundancy m_redundancy;
    std::unique_ptr<ServerSweepDriver> m_serve;
    bool m_stopRequested = false;
};

} // namespace kp::ui
