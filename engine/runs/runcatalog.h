#pragma once

#include "store/runfolder.h"

#include <QDateTime>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace kp {

// One line of the Runs page / `kneepoint-cli runs`.
struct RunEntry
{
    QString dir, id, name, target, model, status, source;
    QDateTime created;
    QStringList tags;
    int stepCount = 0;
    std::optional<double> knee; // offered load at the knee, when the analysis found one
    std::optional<double> sloCapacity; // offered load, when the profile had an SLO and it was found
    bool sloCapacityLowerBound = false; // every step met the SLO: the capacity is at least sloCapacity
    QString notes;
    QString group; // the matrix (kneepoint-cli sweep --target A --target B) the run belongs to, if any
    QString loadUnit; // "req/s" or "users"
    bool predicted = false; // a twin's prediction (run.json "predicted": true), not a measurement
};

struct SavedRun;
// The catalog line of a run; knee and SLO capacity from its analysis.json when present, else from
// SavedRun::analyze().
RunEntry runEntry(const SavedRun& run);

// The run directories under one root.
class RunCatalog
{
public:
    explicit RunCatalog(QString root = defaultRunsDirectory());
    const QString& root() const;

    std::vector<RunEntry> list(QStringList* warnings = nullptr) const; // newest first; skips .trash
    // A run's id (directory name under root), its name (unique match), or a directory path.
    std::optional<QString> resolve(const QString& run, QString* error) const;
    bool rename(const QString& dir, const QString& name, QString* error) const; // atomic run.json edit
    bool setTags(const QString& dir, const QStringList& tags, QString* error) const;
    bool setNotes(const QString& dir, const QString& notes, QString* error) const;
    // root/.trash/<id>; returns the new path.
    std::optional<QString> moveToTrash(const QString& dir, QString* error) const;
    bool restore(const QString& trashedDir, QString* error) const; // undo of moveToTrash

private:
    QString m_root;
};

} // namespace kp
