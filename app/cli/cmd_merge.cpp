// kneepoint-cli merge DIR...: the run directories of `run|sweep --shard I/K` combined into one run.
#include "cli.h"
#include "clianalysis.h"
#include "cliverbs.h"

#include "metrics/sweeptable.h"
#include "runs/runcatalog.h"
#include "runs/runmerge.h"
#include "runs/savedrun.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>

namespace kp::cli {

namespace {

const char* const kMergeUsage = R"(Usage: kneepoint-cli merge DIR... [--out DIR] [--data-dir DIR] [--quiet]

Combines the run directories written by "kneepoint-cli run|sweep --shard I/K --out DIR" (one per
shard, all K of them) into one run. Steps pair by index; counts, tokens and throughputs add over
the common wall-clock window; every percentile is recomputed from the per-request records.
The merged run.json lists its shards and flags a shard that failed or stopped, a step a shard
lacks, a client-bound shard and shards that did not start a step together.

A DIR is a directory, or the id or name of a run under the data directory.
Without --out the merged run is written to a new directory under the data directory
(default: the runs directory the desktop application lists).)";

} // namespace

int runMerge(const QStringList& arguments)
{
    QCommandLineParser p;
    const QCommandLineOption out(
        QStringLiteral("out"), QStringLiteral("The merged run directory (must not exist)."), QStringLiteral("DIR"));
    const QCommandLineOption dataDir(QStringLiteral("data-dir"),
        QStringLiteral("Runs directory for run ids and names, and for the merged run without --out."),
        QStringLiteral("DIR"));
    const QCommandLineOption quiet(QStringLiteral("quiet"), QStringLiteral("Only errors on stderr."));
    p.addOptions({ out, dataDir, quiet });
    p.addPositionalArgument(
        QStringLiteral("DIR"), QStringLiteral("A shard's run directory (all K of them)."), QStringLiteral("DIR..."));
    if (const std::optional<int> exit = parseVerbOptions(p, arguments, kMergeUsage))
        return *exit;
    const QStringList names = p.positionalArguments();
    if (names.size() < 2) {
        say(QStringLiteral("error: merge needs the run directories of at least two shards: kneepoint-cli merge DIR1 "
                           "DIR2 ... [--out DIR]"));
        return ExitBadInput;
    }
    const RunCatalog catalog(p.isSet(dataDir) ? p.value(dataDir) : defaultRunsDirectory());
    QStringList dirs;
    for (const QString& name : names) {
        if (QFileInfo(name).isDir()) {
            dirs << QFileInfo(name).absoluteFilePath();
            continue;
        }
        const auto dir = resolveRun(catalog, name);
        if (!dir)
            return ExitBadInput;
        dirs << *dir;
    }

    MergeOptions options;
    if (p.isSet(out)) {
        options.outDir = p.value(out);
    } else {
        options.outDir = mergedRunDirectory(dirs, catalog.root());
    }
    options.analysis = [](const std::vector<SweepPoint>& points, const Profile& profile) {
        AnalysisRequest request;
        request.options.slo = profile.slo;
        return analyse(points, request).json;
    };
    const MergeReport report = mergeShardRuns(dirs, options);
    for (const QString& w : report.warnings)
        say(QStringLiteral("warning: %1").arg(w));
    if (!report.ok()) {
        say(QStringLiteral("error: %1").arg(report.error));
        return ExitBadInput;
    }
    for (const QString& f : report.flags)
        say(QStringLiteral("flagged: %1").arg(f));

    const SavedRunRead merged = readSavedRun(report.dir);
    if (!merged.ok()) {
        say(QStringLiteral("error: %1").arg(merged.error));
        return ExitFailure;
    }
    QByteArray table;
    for (const SavedStep& step : merged.run->steps)
        table += SweepTable::compactLine(step.setup, step.metrics) + '\n';
    writeOut(table);
    if (!p.isSet(quiet))
        say(QStringLiteral("merged %1 shards, %2 steps: %3").arg(report.shards).arg(report.steps).arg(report.dir));
    return ExitOk;
}

} // namespace kp::cli
