#pragma once

#include "load/steprunner.h"
#include "metrics/stepmetrics.h"
#include "metrics/stepsetup.h"
#include "profile/profile.h"
#include "sweep/sweeprunner.h"
#include "telemetry/environment.h"

#include <QJsonObject>
#include <QStringList>

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

PreparedSweep prepareSweep(const Profile& profile, const DatasetProgress& progress = {});

MetricsOptions metricsOptions(const Profile& profile);

// What the reference's result file records beside the metrics of one step.
StepSetup stepSetup(const Profile& profile, const StepResult& result);

// The offered load of a step as a word: "10 req/s", "inf req/s", "32 users".
QString loadLabel(const StepConfig& step);

// run.json: the profile with secrets removed, the plan, the client environment and a status.
// planned: the coarse steps known before the run (SweepPlanner::preview); stopReason: why escalation
// stopped early (SweepRunner::stopReason), empty when it did not.
// current: the step that has started and not finished (currentStepEntry), written as "current_step"
// so that a run killed mid-step says which step was cut short and at what load.
// The URL of one of the server's own paths (/metrics, /version): base_url's path without a trailing /v1.
QUrl serverUrl(const Target& target, const QString& path);
// What the sweep scrapes: target.metrics_urls or target.metrics_url (default <base_url>/metrics; "off":
// nothing), /version and
// /v1/models once, /metrics every target.metrics_interval_s, with the request headers.
TelemetryOptions telemetryOptions(const Target& target, const HeaderList& headers, const TransportOptions& transport);
// run.json "environment"."server_reported": what the server said about itself; nothing when it said nothing.
void addServerReported(QJsonObject& run, const ServerFacts& facts);

QJsonObject runDocument(const Profile& profile, const std::vector<PlannedStep>& planned, const QString& stopReason,
    const QString& status, const QList<QJsonObject>& steps, const QJsonObject& current = {});

// run.json's "current_step": index, mode, offered load, the load as a word, purpose, start time.
QJsonObject currentStepEntry(const StepConfig& step);

// Why a step's numbers are not a clean measurement, as run.json's step entries and the results list
// them: "partial" (stopped before every request ended), "incomplete" (fewer requests completed than
// were sent: the rest failed), "client-bound" (the client could not keep to the schedule).
QStringList stepValidityFlags(const StepResult& result);
// The step entry's validity keys: "sent", "error_rate" and "flags" (stepValidityFlags).
void insertStepValidity(QJsonObject& entry, const StepResult& result);

} // namespace kp
