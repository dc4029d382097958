#pragma once

#include "runs/savedrun.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace kp::ui {

struct RunInfo;

// What a report or an exported chart says about the run besides its numbers: its name, when it ran,
// against what, and what the user noted about it.
struct RunMeta
{
    QString id; // the run directory's name
    QString name;
    QDateTime created;
    QString target; // the base URL, or "built-in simulator (...)"
    QString model;
    QString
        status; // run.json's keyword: finished, stopped, failed, running, interrupted (UiFormat::statusWord shows it)
    QString source; // kneepoint, or the tool a run was imported from
    QStringList tags;
    QString notes;
    QJsonObject environment; // run.json "environment": the client (and what the probe found)
    // An imported run's run.json "file_settings": what the result files say about their settings
    // (backend, model_id, num_prompts, ...: one value or an array of the values the files hold).
    QJsonObject fileSettings;
    std::optional<Prediction> prediction; // a twin's prediction, not a measurement
    // Whether the run was measured by another tool and imported (its profile holds only the loads).
    bool imported() const { return !prediction && !source.isEmpty() && source != QLatin1String("kneepoint"); }
    bool predicted() const { return prediction.has_value(); }
    // "Predicted by a twin fitted to RUN, without overrides; not a measurement", in the window's language;
    // empty for a measured run.
    QString predictionLine() const;

    // A run that has just been made in this window.
    static RunMeta fromInfo(const RunInfo& info, const QString& status);
    // "demo-sim · 2026-11-30 14:02 · built-in simulator (default)"
    QString captionLine() const;
    QString dateText() const; // "2026-11-30 14:02", or empty
};

} // namespace kp::ui
