#pragma once

#include "runs/savedrun.h"
#include "serve/serversweep.h"
#include "sweep/kneeanalysis.h"
#include "sweep/pareto.h"

#include <QJsonObject>
#include <QString>

#include <optional>
#include <vector>

namespace kp {

// One combination of a server sweep as the group records it: where its run is and how it ended.
struct ServerRunOutcome
{
    ServerCombination combination;
    QString dir; // the run folder, relative to the group folder
    QString command; // as run (secrets removed when written)
    // finished: the sweep ran; failed: it did not (error says why); skipped: --resume found it finished;
    // not run: the group was interrupted before it.
    QString state;
    QString error; // names the combination and why
    std::optional<int> exitCode; // the sweep's exit code (the CLI's), when it ran
    std::optional<double> readyS; // how long the server took to answer
};

// A configuration's figures in the comparison: read back from its run folder.
struct ServerRunFigures
{
    ServerRunOutcome outcome;
    bool measured = false; // its run folder holds at least one step
    bool concurrencyMode = false;
    std::optional<double> knee, saturation, sloCapacity, peakThroughput; // offered load; peak in req/s
    bool sloCapacityLowerBound = false;
    std::optional<int> gpus; // the GPUs its throughput is divided by, when known
    QString gpusSource;
    std::optional<double> sloCapacityPerGpu;
    std::optional<double> bestPerUnit; // the highest output tok/s per GPU (or per server) of its front
    std::vector<ParetoPoint> front; // this configuration's Pareto-optimal steps
    int onGroupFront = 0; // of those, how many no step of another configuration beats
    // The twin fitted on another configuration, set to this one's parameters and run at its loads
    // (addTwinCheck): its SLO capacity (or knee, without an SLO), and the error against the measurement.
    std::optional<double> twinPredicted;
    std::optional<double> twinError; // (predicted - measured) / measured
    QString twinNote; // why there is no prediction
    // The twin's predicted steps at this configuration's loads, for drawing beside the measured ones (not
    // in matrix.json); empty without a prediction.
    std::vector<SweepPoint> twinPoints;
};

struct ServerComparison
{
    std::vector<ServerRunFigures> runs; // in the group's order
    bool hasSlo = false;
    ParetoUnit unit = ParetoUnit::Server; // per GPU when every measured configuration knows its GPUs
    int best = -1; // index into runs; -1 when none can be named
    QString bestSentence; // English: the best configuration for the SLO and why
    int twinSource = -1; // index into runs: the configuration the twin was fitted on; -1: none
    QString twinNote; // why no twin was fitted
};

// The twin's check: fitted on the first finished configuration, set to each other one's parameters that
// the simulator models (max_num_seqs, max_num_batched_tokens, kv_capacity_tokens, ...), run at that
// configuration's loads and compared with what was measured there (servertwincheck.cpp).
void addTwinCheck(const QString& groupDir, ServerComparison& comparison);

// Reads each outcome's run folder under groupDir and compares them: knee, SLO capacity, capacity per
// GPU, each one's Pareto front and the group's, and the best configuration for the SLO (the most SLO
// capacity per GPU when every configuration knows its GPUs, else the most SLO capacity; without an SLO
// the highest knee).
ServerComparison compareServerRuns(const QString& groupDir, const std::vector<ServerRunOutcome>& outcomes);

// The group's record (matrix.json: the runs catalogue groups the folder's runs by it): format, kind
// "server_sweep", status, each configuration's outcome and figures, the best one and its sentence.
QJsonObject serverGroupJson(const ServerComparison& comparison, const QString& status);
// The outcomes a group's record holds (for --resume); empty when it holds none.
std::vector<ServerRunOutcome> serverOutcomesFromJson(const QJsonObject& group);

// When every one of runDirs is a run of one server sweep (their folder's matrix.json has kind
// "server_sweep" and lists them): that folder; empty otherwise.
QString serverGroupOf(const QStringList& runDirs);
// The comparison of those runs of a server sweep's group, read back: matrix.json's outcomes of runDirs
// (all of the group's when empty), compareServerRuns, and the twin's check when two or more were measured.
// nullopt and error (naming the file) when the group's record cannot be read.
std::optional<ServerComparison> readServerComparison(
    const QString& groupDir, const QStringList& runDirs, QString* error);

// The configuration whose run folder is runDir (by its name in the group), or -1.
int configurationOf(const ServerComparison& comparison, const QString& runDir);
// Runs read back from a group are named after their profile, the same for all: named after their
// configuration instead ("max_num_seqs=8"), for lists and legends.
void nameRunsByConfiguration(std::vector<SavedRun>& runs, const ServerComparison& comparison);

// The comparison as printed: a table, one line per configuration, then the sentence.
QString serverComparisonText(const ServerComparison& comparison);

} // namespace kp
