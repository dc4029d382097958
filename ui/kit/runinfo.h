#pragma once

#include "profile/profile.h"
#include "sweep/analysistext.h"
#include "sweep/kneeanalysis.h"
#include "sweep/sweepplanner.h"

#include <QJsonObject>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace kp::ui {

// What the GUI learns once a sweep has passed its preflight and begun.
struct RunInfo
{
    Profile profile; // as run: the built-in simulator's URL and the model filled in
    QString target; // in words: "built-in simulator (preset default, time scale 1, http://…)" or the URL
    QString runDirectory;
    std::vector<PlannedStep> preview; // the coarse steps known before anything runs
    bool fixedPlan = false; // the preview is the whole plan (no auto range, refinement or repeats)
    int numPrompts = 0; // requests per step, unless stepDurationS is set
    std::optional<double> stepDurationS;
    double cooldownS = 0.0;
    int warmupRequests = 0;
    AnalysisOptions analysisOptions;
    QStringList warnings;
    QJsonObject environment; // a reopened run's run.json "environment"; empty while a sweep runs (this machine's)
};

// The knee analysis of the steps done so far, and its sentences.
struct RunAnalysis
{
    AnalysisResult result;
    QList<AnalysisSentence> sentences;
};

} // namespace kp::ui

Q_DECLARE_METATYPE(kp::ui::RunInfo)
Q_DECLARE_METATYPE(kp::ui::RunAnalysis)
