#pragma once

#include "profile/targetstore.h"

#include <QObject>
#include <QStringList>

#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace kp::ui {

class LiveRun;
class SweepController;

// What the "Run against targets" dialog chose.
struct MatrixChoice
{
    QList<NamedTarget> targets;
    QStringList models; // empty: each target's own model
};

// Asks which saved targets (and, optionally, which models) to sweep; nullopt when cancelled.
std::optional<MatrixChoice> askMatrix(QWidget* parent, const TargetStore& store);

// One profile for each target × model, named after them.
std::vector<Profile> matrixProfiles(const Profile& base, const MatrixChoice& choice);

// Runs a list of profiles one after another through the controller (never two at once), tags each
// finished run with the matrix's group tag, and reports the run directories when the last has ended.
// Stopping a sweep by hand ends the matrix after it.
class MatrixRun : public QObject
{
    Q_OBJECT
public:
    MatrixRun(SweepController* controller, LiveRun* run, QObject* parent = nullptr);

    bool isActive() const { return m_active; }
    const QString& tag() const { return m_tag; }
    // false when a sweep is already running or the list is empty.
    bool start(std::vector<Profile> profiles);

Q_SIGNALS:
    void progress(const QString& message);
    // The runs that ended, in order; complete is false when the matrix was stopped or a sweep failed.
    void finished(const QStringList& runDirectories, bool complete);

private:
    void startNext();
    void startWhenIdle();
    void onRunEnded(bool stopped);

    SweepController* m_controller;
    LiveRun* m_run;
    std::vector<Profile> m_queue;
    std::size_t m_next = 0;
    QStringList m_dirs;
    QString m_tag;
    bool m_active = false;
    bool m_failed = false;
};

} // namespace kp::ui
