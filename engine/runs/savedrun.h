#pragma once

#include "metrics/requestrecord.h"
#include "metrics/stepmetrics.h"
#include "metrics/stepsetup.h"
#include "profile/profile.h"
#include "store/rundocument.h"
#include "sweep/kneeanalysis.h"
#include "telemetry/servermetrics.h"

#include <QByteArrayView>
#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace kp {

class Sentence;

// What made a predicted run (run.json "predicted": true, written by `kneepoint-cli twin predict --save`):
// no request was sent, its steps are the twin's model run in simulated time and have no request records.
struct Prediction
{
    QStringList sourceRuns; // the runs the twin was fitted to
    QStringList overrides; // "max_num_seqs=128", "kv_capacity_tokens=x2", in the order given
    int replicas = 1;
    QString twinFile; // the twin.json it was predicted from, as given
};

// "Predicted by a twin fitted to RUN, with overrides A, B; not a measurement" (or "without overrides"),
// plus ", 3 replicas" before the semicolon when there were several.
Sentence predictionSentence(const Prediction& prediction);
// "no per-request records: predicted": what a view that needs records shows for a predicted step.
Sentence noRecordsPredicted();

// One step of a saved run: its entry in run.json and its result file steps/NNN.json.
struct SavedStep
{
    int index = 0;
    QString load; // "40 req/s", "32 users" (run.json step entry)
    QString purpose; // coarse, refine, repeat, ... when known
    LoadMode mode = LoadMode::Rate;
    double offered = 0.0; // chart x: req/s (inf allowed for "all at once") or users
    bool partial = false; // interrupted step, or run.json says partial
    bool clientBound = false;
    double dispatchLagP99Ms = 0.0;
    std::optional<bool> meetsSlo;
    qint64 completed = 0, failed = 0;
    StepSetup setup; // from steps/NNN.json (ResultJson::read)
    StepMetrics metrics; // from steps/NNN.json
    // 95 % confidence intervals of its figures: run.json's entry "intervals" (over the trials, for a
    // repeated load), else the step file's (bootstrap over its requests); empty when neither has them.
    StepIntervals intervals;
    QString resultPath; // absolute path of steps/NNN.json
    QString requestsPath; // absolute path of steps/NNN.requests.jsonl; empty when absent
    // Why the records, though there, give no timeline: an imported file that times each request from
    // its own send and never says when it was sent (run.json entry "no_timeline"); empty otherwise.
    QString noTimeline;
    std::optional<ServerStepStats> server; // run.json step entry "server": what the server's /metrics said
    QString
        metricsPath; // absolute path of the samples (entry "metrics_file", steps/NNN.metrics.jsonl); empty when absent
};

// A run directory as read back: run.json (RunDocument) and its steps.
struct SavedRun
{
    QString dir; // absolute
    QString id; // the directory name
    QString name; // run.json "name", else the profile's name, else id
    QStringList tags; // run.json "tags"
    QString notes; // run.json "notes"
    // finished | stopped | failed | running (a run.json "running" whose writer holds run.lock) |
    // interrupted (a run.json left "running" by a writer that is gone)
    QString status;
    QString source; // kneepoint | vllm | sglang | guidellm (imported runs) | twin (predicted runs)
    std::optional<Prediction> prediction; // set when run.json says "predicted": true
    bool predicted() const { return prediction.has_value(); }
    QDateTime created, updated;
    RunDocument document; // run.json as read (parseRunDocument)
    QJsonObject json; // the same as JSON (document.toJson()), for a reader that looks a key up by name
    Profile profile; // from the snapshot (secrets were never written)
    QJsonObject environment; // run.json "environment"
    std::vector<SavedStep> steps; // by index; unreadable steps are left out with a warning
    QStringList warnings; // each names the file (and line/key) that was wrong

    // base URL or "built-in simulator (...)": runTarget(profile, source); "twin of RUN (predicted)" for a
    // predicted run
    QString target() const;
    QString model() const;
    // Input for KneeAnalysis::analyze: the steps on the run's load axis, ordered by offered load.
    std::vector<SweepPoint> sweepPoints() const;
    // KneeAnalysis::analyze(sweepPoints(), analysisOptionsFor(profile.slo)).
    AnalysisResult analyze() const;
    AnalysisOptions analysisOptions() const; // for its profile: SLO, and the axis its load.mode names
};

struct SavedRunRead
{
    std::optional<SavedRun> run;
    QString error; // names the file and key
    bool ok() const { return run.has_value(); }
};

// How much of a run directory to read: everything (the steps' result files, and for a run left
// "running" the step under way from its request records), or run.json alone (the steps as its entries
// list them, without setup or metrics: enough for a catalogue line or the profile the run used).
enum class SavedRunDepth { Full, RunJson };

SavedRunRead readSavedRun(const QString& dir, SavedRunDepth depth = SavedRunDepth::Full); // error names file and key

// Inverse of requestRecordToJson (engine/store/runwriter.h). error names what is wrong in the line.
std::optional<RequestRecord> requestRecordFromJson(QByteArrayView line, QString* error);
// Every record of a steps/NNN.requests.jsonl file; error names path:line. A last line cut short by a
// kill is skipped, not an error. With skipped, any other bad line is skipped too and named there
// ("PATH:LINE: problem; the line is skipped", the first ten, then a count), so that one line does not
// cost a view the whole step; without, the first one is the error (a merge must not lose a request).
bool readRequestRecords(
    const QString& path, std::vector<RequestRecord>* records, QString* error, QStringList* skipped = nullptr);

// What a run was aimed at, in English for files and lists: the base URL, "built-in simulator (preset
// default, time scale 1)" (from the profile the simulator filled in), or "imported vllm results".
QString runTarget(const Profile& profile, const QString& source = {});

} // namespace kp
