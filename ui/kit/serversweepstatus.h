#pragma once

#include "serve/servercomparison.h"

#include <QMetaType>
#include <QString>
#include <QStringList>

namespace kp::ui {

// Where a server sweep stands, for the run page: which combination, and what its server does.
struct ServerSweepStatus
{
    enum class Phase {
        Starting, // the server command runs; waiting for it to answer
        Ready, // it answered: the sweep runs against it
        Failed, // this combination failed (detail says why); the next one follows
        Stopping, // the sweep ended: the server is being stopped
    };
    Phase phase = Phase::Starting;
    int index = 0; // 0-based
    int count = 0;
    QString label; // "max_num_seqs=8"
    QString detail; // Ready: the base URL; Failed: why
    double readyS = 0; // Ready: how long the server took to answer
    QString groupDir;
};

// How a server sweep ended, for the comparison the window opens.
struct ServerSweepResult
{
    QString groupDir;
    QStringList runDirs; // the runs that measured a step, in the group's order
    kp::ServerComparison comparison;
    bool interrupted = false;
};

} // namespace kp::ui

Q_DECLARE_METATYPE(kp::ui::ServerSweepStatus)
Q_DECLARE_METATYPE(kp::ui::ServerSweepResult)
