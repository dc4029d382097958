#pragma once

#include "client/probe.h"
#include "client/requestbuilder.h"
#include "client/tokenizeprepass.h"
#include "load/steprunner.h"
#include "profile/profile.h"
#include "run/runinfo.h"
#include "run/stepreport.h"
#include "sweep/kneeanalysis.h"
#include "sweep/sweepplan.h"
#include "sweep/sweeprunner.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QObject>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

namespace kp {
class BuiltinSimulator;
class RunSession;
} // namespace kp

namespace kp::ui {

// The controller thread's half of a sweep: starts the built-in simulator when the profile targets
// one, runs the preflight probe, prepares the sweep, drives the SweepRunner, writes the run directory
// and turns each finished step into a StepReport and a fresh analysis. Everything it creates lives in
// its thread; it talks to the GUI only through its signals, which SweepController forwards queued.
class SweepWorker : public QObject
{
    Q_OBJECT
public:
    // pendingSnapshots counts snapshots sent but not yet taken by the GUI thread.
    explicit SweepWorker(std::shared_ptr<std::atomic<int>> pendingSnapshots, QObject* parent = nullptr);
    ~SweepWorker() override;

    void start(const kp::Profile& profile, const QString& runsDirectory, bool allowHighLoad = false);
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

private:
    void onProbeFinished(const kp::ProbeReport& report);
    void onProbeProgress(const kp::ProbeProgress& progress);
    void beginSweep();
    void onTokensCounted(const kp::TokenizeOutcome& tokens);
    void onSnapshot(const kp::LiveSnapshot& snapshot);
    void onRequestFinished(int stepIndex, const kp::RequestRecord& record);
    void onStepFinished(const kp::StepResult& result);
    void onRunnerFinished(bool stopped);
    void fail(const QString& message);
    void writeFailed(const QString& error); // a write of the run directory failed: say so, stop
    void release();

    std::shared_ptr<std::atomic<int>> m_pendingSnapshots;
    std::optional<LiveSnapshot> m_heldSnapshot;
    Profile m_profile;
    QString m_runsDirectory;
    bool m_allowHighLoad = false;
    QString m_targetWords;
    std::unique_ptr<BuiltinSimulator> m_simulator;
    std::unique_ptr<Probe> m_probe;
    std::unique_ptr<PreparedSweep> m_prepared; // from prepareSweep until the runner takes its config
    std::unique_ptr<TokenizePrepass> m_tokenize;
    std::unique_ptr<SweepRunner> m_runner;
    std::unique_ptr<RunSession> m_session; // the run directory: run.json, steps, analysis, sweep.csv
    SweepConfig m_config; // the plan as prepared, prompts cleared, for run.json
    HeaderList m_headers;
    QStringList m_serverModels;
    std::optional<int> m_maxModelLen; // /v1/models max_model_len, for the failures' advice
    AnalysisOptions m_analysisOptions;
    bool m_active = false; // from start() until finished() or failed()
};

} // namespace kp::ui
