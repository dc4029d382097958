#pragma once

#include "profile/profile.h"
#include "sweep/kneeanalysis.h"
#include "sweep/shard.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <vector>

namespace kp {

// Combining the run directories of `kneepoint-cli run|sweep --shard I/K` into one run.
//
// Steps pair by index. Per step the per-request records of every shard are put on one wall-clock
// axis (each step entry's start_unix_s), so the merged step runs from the earliest shard's start to
// the last completion: counts and token totals add, throughputs are over that common window, and
// every percentile is recomputed from the records by StepMetrics::fromRecords (exact, never an
// average of percentiles). The merged run.json lists its shards under "merged" and flags a shard
// that failed or was stopped, a step a shard lacks, a client-bound shard step and shards whose
// step starts lie far apart.

// The "shard" object of a run directory's run.json, when it has one.
std::optional<ShardSpec> shardOfRun(const QString& dir);

// Whether these directories are shards of one run: at least two, each a run directory whose run.json
// names a shard of the same count (what the GUI's import checks before offering to merge).
bool isShardSet(const QStringList& dirs);

struct MergeOptions
{
    QString outDir; // the merged run directory; must not exist yet
    // When set, its result is written as analysis.json (the CLI's and the GUI's analysis).
    std::function<QJsonObject(const std::vector<SweepPoint>& points, const Profile& profile)> analysis;
};

struct MergeReport
{
    QString dir; // the merged run directory (absolute) once written
    QString error; // names the directory and file, or what does not match between the shards
    QStringList flags; // what a reader must know: failed shards, missing steps, client-bound, misaligned
    QStringList warnings; // from reading the shards
    int shards = 0;
    int steps = 0;
    bool ok() const { return error.isEmpty(); }
};

// A new, not yet existing directory under runsRoot for the merge of these shards (named after the
// first shard's run, with " merged"): what the CLI's merge uses without --out, and the GUI's import.
QString mergedRunDirectory(const QStringList& dirs, const QString& runsRoot);

// Reads the shard directories, checks that they are the shards 1..K of one plan, merges them and
// writes the result atomically (a temporary directory beside outDir, renamed into place).
MergeReport mergeShardRuns(const QStringList& dirs, const MergeOptions& options);

} // namespace kp
