#pragma once

#include "load/steprunner.h"
#include "metrics/stepmetrics.h"
#include "metrics/stepsetup.h"
#include "profile/profile.h"
#include "store/rundocument.h"
#include "sweep/sweeprunner.h"
#include "telemetry/environment.h"

#include <QJsonObject>
#include <QStringList>

#include <algorithm>

namespace kp {

// A profile turned into runnable steps: the dataset loaded, the request template and headers
// resolved, the planner that chooses each step.
struct PreparedSweep
{
    SweepConfig config;
    QStringList warnings;
    QString error; // names the file, field or variable
    bool ok() const { return error.isEmpty(); }
};

// One pass of a replayed log (replay, mooncake) at the profile's replay_speed lasts at most this long: a
// step's cap (load.step_duration_s); a longer one is refused before anything is sent.
inline constexpr double kMaxReplayS = 864'000;

PreparedSweep prepareSweep(const Profile& profile, const DatasetProgress& progress = {});

// Whether the step's prompt texts are made as each request is sent (synthetic prompts or sessions with
// workload.prompt_pool 0): then no count taken before the run, such as /tokenize's, is of the texts sent.
bool promptsMadePerRequest(const StepConfig& step);

// How many of a sweep's requests will re-send a prompt, known before it runs.
struct PromptReuse
{
    qint64 distinctPrompts = 0; // prompts (sessions, for multi-turn) the requests draw from
    qint64 requests = 0; // run positions of the planned steps: requests (sessions) and warm-ups
    bool atLeast = false; // some steps' counts depend on the server (duration, auto): more may follow
    bool fresh = false; // every position gets a prompt of its own (synthetic prompts, prompt_pool 0)
    bool distinctAtMost = false; // distinctPrompts is a bound (a file not read yet may hold fewer)
    qint64 repeated() const { return fresh ? 0 : std::max<qint64>(0, requests - distinctPrompts); }
    double share() const { return requests > 0 ? double(repeated()) / double(requests) : 0.0; }
};
// From the planned steps (SweepPlanner::preview, sized as SweepRunner::makeStep sizes them): positions
// continue across steps, so a request repeats a prompt once the run has used every distinct one. A
// replayed log gives requests 0. load: the profile's, for steps the plan may add (auto, refine, repeats).
PromptReuse plannedPromptReuse(const SweepConfig& config, const Load& load);
// What is said of it before the run (the CLI's note, the pipeline's event): the same, but none for
// multi-turn sessions, which take positions by conversation, not by request, so no exact figure exists.
PromptReuse announcedPromptReuse(const SweepConfig& config, const Load& load);
// The same before the dataset is read (the profile page), for `requests` run positions (warm-ups included):
// synthetic prompts are fresh unless prompt_pool is set; a file gives at most num_prompts (or prompt_pool)
// distinct prompts. Replayed logs and multi-turn sessions give requests 0.
PromptReuse workloadPromptReuse(const Workload& workload, qint64 requests, bool atLeast);

MetricsOptions metricsOptions(const Profile& profile);

// What the reference's result file records beside the metrics of one step.
StepSetup stepSetup(const Profile& profile, const StepResult& result);

// The offered load of a step as a word: "10 req/s", "inf req/s", "32 users".
QString loadLabel(const StepConfig& step);

// The URL of one of the server's own paths (/metrics, /version): base_url's path without a trailing /v1.
QUrl serverUrl(const Target& target, const QString& path);
// What the sweep scrapes: target.metrics_urls or target.metrics_url (default <base_url>/metrics; "off":
// nothing), /version and
// /v1/models once, /metrics every target.metrics_interval_s, with the request headers.
TelemetryOptions telemetryOptions(const Target& target, const HeaderList& headers, const TransportOptions& transport);
// run.json "environment"."server_reported": what the server said about itself; nothing when it said nothing.
void addServerReported(RunDocument& run, const ServerFacts& facts);
// The same for run.json held as a JSON object (a RunDocument's toJson).
void addServerReported(QJsonObject& run, const ServerFacts& facts);

// run.json: the profile with secrets removed, the plan, the client environment and a status.
// planned: the coarse steps known before the run (SweepPlanner::preview); stopReason: why escalation
// stopped early (SweepRunner::stopReason), empty when it did not.
RunDocument makeRunDocument(const Profile& profile, const std::vector<PlannedStep>& planned, const QString& stopReason,
    const QString& status, std::vector<RunStepEntry> steps = {});
// The same as a JSON object, with step entries held as JSON objects (each read as a RunStepEntry).
QJsonObject runDocument(const Profile& profile, const std::vector<PlannedStep>& planned, const QString& stopReason,
    const QString& status, const QList<QJsonObject>& steps);

// run.json's "current_step", the step that has started and not finished: index, mode, offered load,
// the load as a word, purpose, start time; a run killed mid-step says which step was cut short.
RunCurrentStep currentStepEntry(const StepConfig& step);

// Why a step's numbers are not a clean measurement, as run.json's step entries and the results list
// them: "partial" (stopped before every request ended), "incomplete" (fewer requests completed than
// were sent: the rest failed), "client-bound" (the client could not keep to the schedule).
QStringList stepValidityFlags(const StepResult& result);
// The step entry's validity: requests sent, the share that failed, and stepValidityFlags.
void setStepValidity(RunStepEntry& entry, const StepResult& result);

} // namespace kp
