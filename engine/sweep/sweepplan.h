#pragma once

#include "load/steprunner.h"
#include "metrics/stepmetrics.h"
#include "metrics/stepsetup.h"
#include "profile/profile.h"
#include "sweep/sweeprunner.h"

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

PreparedSweep prepareSweep(const Profile& profile);

MetricsOptions metricsOptions(const Profile& profile);

// What the reference's result file records beside the metrics of one step.
StepSetup stepSetup(const Profile& profile, const StepResult& result);

// The offered load of a step as a word: "10 req/s", "inf req/s", "32 users".
QString loadLabel(const StepConfig& step);

// run.json: the profile with secrets removed, the plan, the client environment and a status.
// planned: the coarse steps known before the run (SweepPlanner::preview); stopReason: why escalation
// stopped early (SweepRunner::stopReason), empty when it did not.
QJsonObject runDocument(const Profile& profile, const std::vector<PlannedStep>& planned, const QString& stopReason,
    const QString& status, const QList<QJsonObject>& steps);

} // namespace kp
