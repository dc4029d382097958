#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace kp {

// run.json, the record of one run directory, as typed values: the one place its keys and its format
// name are spelled (rundocument.cpp). RunSession, import, merge and a saved prediction build a RunDocument
// and write it with writeRunDocument (RunWriter::writeRun while the run is written); readers take
// readRunDocument's. A member that is unset (nullopt, an invalid time) is left out of the file, and a
// key the file leaves out reads back unset, so that a document read and written again keeps its keys.
// The parts other layers own are kept as they wrote them: the profile snapshot (ProfileStore's
// schema), the environment, a step's server statistics and intervals, the shard.
// Keys this version does not know are kept in `extra` and written back as read.

// One shard's part of a merged step ("shards" of a step entry).
struct RunShardPart
{
    int shard = 0; // the shard's index, 1-based
    QString load; // the load the shard offered, as a word
    qint64 completed = 0, failed = 0;
    bool partial = false;
    bool clientBound = false;
    double startOffsetS = 0.0; // its start after the earliest shard's
    double durationS = 0.0;

    bool operator==(const RunShardPart&) const = default;
};

// One entry of "steps": a step that finished (or stopped), and where its files are.
struct RunStepEntry
{
    int index = 0; // the step's number; steps/NNN.json by default
    std::optional<QString> load; // "40 req/s", "32 users"
    // An older layout of the load: the mode's name and the offered load (a rate's text or a number).
    std::optional<QString> mode;
    std::optional<QJsonValue> offered;
    std::optional<QString> purpose; // coarse, refine, repeat, ...
    std::optional<QString> file; // the result file's name in steps/
    // Requests that completed and failed; kUnknownCount (null in the file) when an imported file did not
    // count them.
    std::optional<qint64> completed, failed;
    std::optional<bool> partial; // stopped before every request ended
    std::optional<bool> clientBound; // the client could not keep to the schedule
    std::optional<bool> predicted; // a step of a saved prediction: no request was sent
    std::optional<qint64> datasetSkipped; // dataset lines the step's prompts left out
    std::optional<double> dispatchLagP99Ms;
    // Validity: requests sent, the share that failed, and why the numbers are not a clean measurement
    // ("partial", "incomplete", "client-bound"; a merged step's sentences).
    std::optional<qint64> sent;
    std::optional<double> errorRate;
    std::optional<QStringList> flags;
    std::optional<double> startUnixS; // the records' zero on the wall clock
    std::optional<double> startLateS; // after the aligned start it was due at
    std::optional<double> startSpreadS; // a merged step: the latest shard's start after the earliest's
    std::optional<bool> meetsSlo;
    std::optional<QJsonObject> server; // ServerStepStats::toJson; {} when the file's was not an object
    std::optional<QJsonArray> servers; // one per server, ServerStepStats::serversJson
    std::optional<double> joulesPerOutputToken;
    std::optional<QString> metricsFile; // steps/NNN.metrics.jsonl's name
    std::optional<QJsonObject> intervals; // intervalsJson: over the step's requests, or a repeated load's trials
    // An imported step: the file it came from (its name and its path as given), which repeat of its load.
    std::optional<QString> sourceFile, sourcePath;
    std::optional<int> repeat;
    // Why the records give no timeline (an imported file that never says when a request was sent).
    std::optional<QString> noTimeline;
    std::optional<std::vector<RunShardPart>> shards; // a merged step: each shard's part
    QJsonObject extra; // keys this version does not know

    bool operator==(const RunStepEntry&) const = default;
};

// One step of the coarse plan known before the run ("plan"."planned").
struct RunPlannedStep
{
    std::optional<QString> mode; // "rate" or "concurrency"
    std::optional<QJsonValue> load; // a rate's text ("10", "inf") or a number of users
    std::optional<QString> purpose;

    bool operator==(const RunPlannedStep&) const = default;
};

struct RunPlan
{
    std::optional<QString> kind; // the plan's kind: "list", "auto", ...
    std::optional<std::vector<RunPlannedStep>> planned;
    std::optional<QString> stoppedEarly; // why escalation stopped early
    QJsonObject extra;

    bool operator==(const RunPlan&) const = default;
};

// "current_step": the step that started and has not finished, so that a run killed mid-step says which
// step was cut short and at what load.
struct RunCurrentStep
{
    std::optional<int> index;
    std::optional<QString> mode;
    std::optional<QJsonValue> offered; // a rate's text, or a number of users
    std::optional<QString> load; // the load as a word
    std::optional<QString> purpose;
    QDateTime started;
    QJsonObject extra;

    bool operator==(const RunCurrentStep&) const = default;
};

// What a saved prediction was made from ("predicted": true, "prediction").
struct RunPrediction
{
    QString twinFile; // the twin.json, as given
    QStringList sourceRuns; // the runs the twin was fitted to
    QJsonObject overrides; // parameter name -> the value given
    int replicas = 1;

    bool operator==(const RunPrediction&) const = default;
};

// One shard a merged run was made of.
struct RunMergedShard
{
    int index = 0; // 1-based
    QString dir; // its run directory
    QString status; // as read (finished, stopped, interrupted, ...)
    int steps = 0;
    QJsonObject environment; // its run.json "environment"

    bool operator==(const RunMergedShard&) const = default;
};

// A merged run: how many shards, which, and what their merge flagged ("merged").
struct RunMergeInfo
{
    int count = 0;
    std::vector<RunMergedShard> shards;
    std::optional<QStringList> flags;

    bool operator==(const RunMergeInfo&) const = default;
};

struct RunDocument
{
    std::optional<QString> status; // running | finished | stopped | failed
    std::optional<QString> source; // who made it: absent for Kneepoint's own runs; vllm, guidellm, twin, ...
    std::optional<bool> predicted;
    std::optional<RunPrediction> prediction;
    // What a person edits in the runs library.
    std::optional<QString> name;
    std::optional<QStringList> tags;
    std::optional<QString> notes;
    QDateTime created, updated; // invalid: absent
    // An imported run: its files, the group of runs one import made, what sets this run apart in the
    // group, and the settings the files state.
    std::optional<QStringList> importedFrom;
    std::optional<QString> importGroup;
    std::optional<QJsonObject> importIdentity;
    std::optional<QJsonObject> fileSettings;
    std::optional<QJsonObject> profile; // the profile snapshot, secrets removed (ProfileStore's schema)
    std::optional<QJsonObject> environment; // the client's environment and what the server reported
    std::optional<RunPlan> plan;
    std::vector<RunStepEntry> steps; // always written, [] when none
    std::optional<RunCurrentStep> currentStep;
    std::optional<QJsonObject> shard; // this run's shard of a sharded sweep (shardJson)
    std::optional<RunMergeInfo> merged;
    // A run of a server configuration sweep: the server's parameters for this run ("parameters": name ->
    // value, in order as "order"), the command it was started by, the mode ("process" or "commands").
    std::optional<QJsonObject> serverConfig;
    QJsonObject extra; // keys this version does not know

    bool operator==(const RunDocument&) const = default;

    // The step entry with this index; null when there is none.
    const RunStepEntry* step(int index) const;

    // run.json as a JSON object: every set member under its key, and `extra`.
    QJsonObject toJson() const;
    // The file's bytes: toJson, indented.
    QByteArray toBytes() const;
};

struct RunDocumentRead
{
    std::optional<RunDocument> document;
    // Why the file is not a run: names the file and the key ("PATH: format: missing ...",
    // "PATH: steps: expected an array", "PATH: invalid JSON at offset N: ...").
    QString error;
    // Keys whose value has the wrong type, each naming the file and the key ("PATH: steps[2].partial:
    // expected true or false"); the member is left unset, and an entry of "steps" that is not an object
    // is left out.
    QStringList warnings;
    bool ok() const { return document.has_value(); }
};

// The one reader: run.json's object into a RunDocument. path names the file in messages.
RunDocumentRead parseRunDocument(const QJsonObject& json, const QString& path);
// The same from the file's bytes: invalid JSON and a value that is not an object are errors too.
RunDocumentRead parseRunDocument(const QByteArray& bytes, const QString& path);
// One entry of "steps" alone (position: its place in the array, the index of an entry without one).
// where names it in warnings ("PATH: steps[2]").
RunStepEntry parseRunStepEntry(const QJsonObject& entry, int position, const QString& where, QStringList* warnings);
// The same from the file (read up to kMaxResultFileBytes).
RunDocumentRead readRunDocument(const QString& path);

// The one writer: replaces path with document.toBytes(), atomically (writeFileAtomically).
bool writeRunDocument(const QString& path, const RunDocument& document, QString* error);

} // namespace kp
