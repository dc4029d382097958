#pragma once

#include <QStringList>

#include <functional>

namespace kp {
struct Profile;
}

namespace kp::cli {

// `sweep` with more than one --target or --model: a matrix of sweeps.
bool isMatrix(const QStringList& arguments);
// Runs each combination (targets × models) in turn into --out DIR/NN-TARGET-MODEL, writes
// DIR/matrix.json and prints the knees and SLO capacities side by side.
int runMatrix(const QStringList& arguments);

// A server configuration sweep (`sweep --serve CMD --serve-param NAME=V1,V2`, or a profile's
// server_sweep): per combination the server is started, the profile swept against it into
// DIR/NN-NAME-VALUE, the server stopped; then DIR/matrix.json (kind "server_sweep") and
// DIR/comparison.txt compare the configurations (cmd_serve.cpp).
struct ServeOptions
{
    QString out; // the group's folder; empty: a new one under dataDir
    QString dataDir;
    bool resume = false; // skip the combinations whose run finished, run the rest again
    bool quiet = false;
};
// One sweep of the group: the profile into runDir; abort() is asked while it runs and, when it returns
// a reason, the sweep is stopped (the server exited). Returns the sweep's exit code.
using SweepOnce
    = std::function<int(const Profile& profile, const QString& runDir, const std::function<QString()>& abort)>;
// Whether the sweep asks for a server sweep: a command (--serve or server_sweep.command), parameters or --resume.
bool isServerSweep(const Profile& profile, bool resume);
int runServerSweep(const Profile& profile, const ServeOptions& options, const SweepOnce& sweepOnce);

} // namespace kp::cli
