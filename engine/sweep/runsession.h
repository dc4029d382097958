#pragma once

#include "load/steprunner.h"
#include "profile/profile.h"
#include "store/rundocument.h"
#include "store/runwriter.h"
#include "sweep/capacityplan.h"
#include "sweep/kneeanalysis.h"
#include "sweep/shard.h"
#include "sweep/sweepplanner.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>
#include <vector>

namespace kp {

class SweepRunner;

// What a run being recorded needs to know beside its steps.
struct RunSessionOptions
{
    Profile profile; // as run: the model resolved, overrides applied (secrets are removed when written)
    std::vector<PlannedStep> planned; // the coarse plan known before the run (SweepPlanner::preview)
    AnalysisOptions analysis; // SLO, knee metric, the sweep's axis
    std::optional<PeakDemand> peak; // the capacity plan in analysis.json, when given
    Redundancy redundancy;
    std::optional<ShardSpec> shard; // run.json "shard", so that merge can pair the shards
    StepAlignment alignment;
    // output.save_result: where the reference-compatible result files go (empty: the current
    // directory), and a fixed file name for them (the CLI's run verb with --result-filename); empty:
    // ResultJson::defaultFileName per step.
    QString resultDir;
    QString resultFilename;
};

// One run being recorded: the one owner of its directory (RunWriter), of run.json with its step
// entries and the step under way, of the steps' files, analysis.json, sweep.csv and the result files
// of output.save_result. The CLI and the window drive it from a SweepRunner's signals and display what
// it holds; so a run reads back the same whichever made it.
//
// Each write is atomic or append-only (RunWriter). A write that fails makes the call return false with
// the error, once: the session then writes nothing more (later calls return true, having done
// nothing), and the caller stops the runner.
class RunSession
{
public:
    explicit RunSession(RunSessionOptions options);

    // Creates dir (and the result directory, for output.save_result) and writes run.json "running".
    bool open(const QString& dir, QString* error);
    const QString& dir() const { return m_writer.dir(); }
    // The runner whose stop reason and server facts run.json records (it must outlive the session's use).
    void setRunner(const SweepRunner* runner) { m_runner = runner; }

    // run.json names the step under way: a kill leaves it marked as the interrupted one.
    bool beginStep(const StepConfig& step, QString* error);
    bool appendRequest(int stepIndex, const RequestRecord& record, QString* error);
    // A soak's window: one line appended to steps/NNN.windows.jsonl at once (a kill keeps every window
    // closed before it).
    bool appendWindow(const SoakWindow& window, QString* error);
    QString windowsPath(int stepIndex) const; // steps/NNN.windows.jsonl
    // What the requests in flight record when a write fails and the front end stops the run
    // (SweepRunner::stop): not the person's cancel.
    static QString writeFailedCancel() { return QStringLiteral("cancelled: the run's files could not be written"); }

    struct StepRecord
    {
        std::optional<bool> meetsSlo; // set when the profile has an SLO
        QString sloReason; // why it is not met
        QString resultFile; // the result file written for output.save_result
        QString resultError; // why it could not be written
    };
    // The step's files, its entry in run.json, the analysis so far, sweep.csv and the result file.
    bool finishStep(const StepResult& result, StepRecord* record, QString* error);

    // The final status: "stopped" or "finished". The session holds the directory until destroyed.
    bool finish(bool stopped, QString* error);

    bool failed() const { return m_failed; }
    const std::vector<SweepPoint>& points() const { return m_points; }
    // The analysis of the steps so far, as analysis.json holds it (English).
    const AnalysisResult& analysis() const { return m_analysis; }
    const std::optional<CapacityPlan>& plan() const { return m_plan; }
    const QJsonObject& analysisJson() const { return m_analysisJson; }
    const std::vector<RunStepEntry>& stepEntries() const { return m_entries; }

private:
    RunDocument runDocument(const QString& status, std::optional<RunCurrentStep> current = std::nullopt) const;
    bool check(bool ok);
    QString resultDir() const;

    RunSessionOptions m_options;
    RunWriter m_writer;
    const SweepRunner* m_runner = nullptr;
    std::vector<RunStepEntry> m_entries;
    struct Trial
    {
        LoadMode mode = LoadMode::Rate;
        double load = 0.0;
        std::optional<StepMetrics> metrics; // unset for a partial step, which no interval counts
    };
    std::vector<Trial> m_trials; // one per entry
    QByteArray m_csv;
    std::vector<SweepPoint> m_points;
    AnalysisResult m_analysis;
    std::optional<CapacityPlan> m_plan;
    QJsonObject m_analysisJson;
    bool m_failed = false;
};

} // namespace kp
