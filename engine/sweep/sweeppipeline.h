#pragma once

#include "client/probe.h"
#include "client/tokenizeprepass.h"
#include "load/steprunner.h"
#include "profile/profile.h"
#include "sweep/capacityplan.h"
#include "sweep/kneeanalysis.h"
#include "sweep/runsession.h"
#include "sweep/safetyguard.h"
#include "sweep/shard.h"
#include "sweep/sweepplan.h"
#include "sweep/sweeprunner.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace kp {

class BuiltinSimulator;

// What the person agreed to before the sweep starts: the CLI's flags, or the window's start dialog.
struct SweepConsent
{
    bool highLoad = false; // go past the load limits (--allow-high-load); the planner's own limits are lifted too
    bool remoteLoad = false; // send more than confirm_above requests to another machine (--yes)
    bool insecureKey = false; // send the key over plain HTTP to another machine (--allow-insecure-key)
    bool fileLimit = false; // go on although the open-file limit is below the plan's connections
};

// Everything a sweep needs beside its profile; the CLI fills it from flags, the window from its pages.
struct SweepPipelineOptions
{
    Profile profile; // validated, overrides applied
    bool sweep = true; // false: `run`, the first load level of a list plan, no refinement or repeats
    bool preflight = true; // probe the server, then count input tokens with its /tokenize
    // The run folder: runDir when set (the CLI's --out), else a new folder under runsRoot named after
    // the profile (or, without a name, the model).
    QString runDir;
    QString runsRoot;
    // Where output.save_result's files go when output.result_dir is empty or relative: the CLI's current
    // folder; empty: the run folder's results/ (docs/PROFILES.md, output.result_dir).
    QString resultBase;
    QString resultFilename; // a fixed result file name (run --result-filename); empty: one per step
    std::optional<int> workers; // --workers
    std::optional<ShardSpec> shard;
    StepAlignment alignment;
    AnalysisOptions analysis; // SLO, knee metric and the sweep's axis (set from the profile when left default)
    std::optional<PeakDemand> peak; // the capacity plan analysis.json holds
    Redundancy redundancy;
    SafetyLimits limits;
    SweepConsent consent;
    DatasetProgress datasetProgress; // called while the dataset is read (from this thread)
};

// Why a sweep did not start, for the front end to word: each stage's failure has its own exit code in
// the CLI and its own sentence in the window.
struct SweepFailure
{
    enum class Stage {
        Profile, // the profile does not validate
        Options, // an option that cannot run (run with a non-list plan, a bad shard)
        Folder, // the run or result folder cannot be written
        Simulator, // the built-in simulator did not start
        InsecureKey, // the key would travel in clear to another machine
        Preflight, // the server failed the preflight; probe holds the report
        Model, // no model given and none listed
        Dataset, // the dataset cannot be read
        Safety, // past the limits or the confirmation threshold; safety holds the check
        RunFolder, // the run folder could not be opened
    };
    Stage stage = Stage::Options;
    QString message; // English, names the field, file or URL
    ProbeReport probe;
    SafetyCheck safety;
};

// What the sweep knows once its run folder is open and the first step is about to start.
struct SweepStart
{
    QString runDir;
    SweepConfig config; // the plan as prepared; prompts cleared
    QStringList warnings; // the dataset's
    Profile profile; // as run: the model resolved
    AnalysisOptions analysis; // as the run folder's analysis uses them
};

// How a sweep ended.
struct SweepEnd
{
    bool stopped = false; // by stop() or the runner's stop rules, not run to its plan's end
    QString stopReason; // why escalation stopped (English, as files hold it); empty when it did not
    QString stopReasonText; // the same in the interface's language
    QString closeError; // the run folder's last write failed
};

// One sweep from the profile to the closed run folder, the same for the CLI and the window: checks the
// folders it will write, starts the built-in simulator, runs the preflight, prepares the dataset and the
// plan, counts input tokens, checks the safety limits, opens the run folder (RunSession) and drives the
// SweepRunner, recording every step. Each stage reports through the signals below, in this order:
// simulatorStarted, probeProgress/probeFinished, modelChosen, notes, prepared, tokensCounted, safetyChecked,
// started, then per step stepStarted, snapshot…, stepFinished, and finished once; or failed once at any
// stage before started. The front ends only word what it reports.
class SweepPipeline : public QObject
{
    Q_OBJECT
public:
    explicit SweepPipeline(QObject* parent = nullptr);
    ~SweepPipeline() override;

    void start(SweepPipelineOptions options);
    // Stops the sweep: before the first step nothing is written and finished(true) follows; during a
    // step the runner stops it and the run is closed as "stopped". cancelReason as SweepRunner::stop.
    void stop(const QString& cancelReason = {});
    void pause();
    void resume();
    void addStep(const PlannedStep& step);
    // Ends the run at once (the application quits): what finished is on disk, the rest is cut; no signal.
    void shutdown();

    bool isActive() const { return m_active; }
    const RunSession* session() const { return m_session.get(); }
    const SweepRunner* runner() const { return m_runner.get(); }
    const HeaderList& headers() const { return m_headers; }
    const QStringList& serverModels() const { return m_serverModels; }
    std::optional<int> maxModelLen() const { return m_maxModelLen; }
    const Profile& profile() const { return m_options.profile; }

Q_SIGNALS:
    void simulatorStarted(const QString& description);
    void probeProgress(const kp::ProbeProgress& progress);
    void probeFinished(const kp::ProbeReport& report);
    void modelChosen(const QString& model); // the first the server lists, when the profile names none
    void note(const QString& text); // the shard's notes, the runner's notes (English)
    void prepared(const QStringList& warnings, const kp::PromptReuse& reuse);
    void tokensCounted(const kp::TokenizeOutcome& tokens); // not when the preflight is off
    void safetyChecked(const kp::SafetyCheck& check);
    void failed(const kp::SweepFailure& failure);
    void started(const kp::SweepStart& start);
    void stepStarted(int index, const kp::StepConfig& config);
    void snapshot(const kp::LiveSnapshot& snapshot);
    void serverSample(int stepIndex, const kp::ServerSample& sample);
    void serverReported(const kp::ServerFacts& facts); // by the first step's start
    void pausedChanged(bool paused);
    // The step as measured and as recorded (its SLO verdict, result file); writeError when a write of
    // the run folder failed (the sweep is then stopped).
    void stepFinished(const kp::StepResult& result, const kp::RunSession::StepRecord& recorded);
    // A soak step's window, once its line is in steps/NNN.windows.jsonl.
    void windowFinished(const kp::SoakWindow& window);
    void writeFailed(const QString& error);
    // The run folder is closed. session() holds the run's analysis until the slots connected here return.
    void finished(const kp::SweepEnd& end);

private:
    void fail(SweepFailure::Stage stage, const QString& message);
    bool checkOptions();
    bool checkFolders();
    void onProbeFinished(const ProbeReport& report);
    QString checkAgainstServer() const;
    void prepare();
    void onTokensCounted(const TokenizeOutcome& tokens);
    void begin();
    void onStepFinished(const StepResult& result);
    void onRunnerFinished(bool stopped);
    void onWriteFailed(const QString& error);
    void release();

    SweepPipelineOptions m_options;
    bool m_active = false;
    std::unique_ptr<BuiltinSimulator> m_simulator;
    std::unique_ptr<Probe> m_probe;
    std::unique_ptr<PreparedSweep> m_prepared; // from the dataset until the runner takes its config
    std::unique_ptr<TokenizePrepass> m_tokenize;
    std::unique_ptr<SweepRunner> m_runner;
    std::unique_ptr<RunSession> m_session;
    HeaderList m_headers;
    QStringList m_serverModels;
    std::optional<int> m_maxModelLen;
};

// The run folder a sweep of this profile gets under runsRoot: named after the profile, else the model.
QString sweepRunFolderName(const Profile& profile);

} // namespace kp
