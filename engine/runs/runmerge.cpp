#include "runs/runmerge.h"

#include "metrics/boundedread.h"
#include "metrics/resultjson.h"
#include "metrics/sweeptable.h"
#include "runs/runcatalog.h"
#include "runs/savedrun.h"
#include "store/runwriter.h"
#include "sweep/sweepplan.h"
#include "sweep/sweepplanner.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace kp {

namespace {

// Shards whose starts of one step lie further apart than this fraction of the merged step did not
// load the server together.
constexpr double kMisalignedFraction = 0.1;

std::optional<ShardSpec> shardOf(const RunDocument& run)
{
    const QJsonObject s = run.shard.value_or(QJsonObject());
    const int index = s.value(u"index").toInt(0);
    const int count = s.value(u"count").toInt(0);
    if (count < 1 || index < 1 || index > count)
        return std::nullopt;
    ShardSpec shard;
    shard.index = index;
    shard.count = count;
    return shard;
}

// run.json of a run directory; empty when absent or not a run.
RunDocument readRunJson(const QString& dir)
{
    RunDocumentRead read = readRunDocument(QDir(dir).filePath(QStringLiteral("run.json")));
    return read.ok() ? *std::move(read.document) : RunDocument {};
}

// When the step's records start on the wall clock, as its run.json entry says; nullopt when it does not.
std::optional<double> startOf(const RunDocument& run, int index)
{
    const RunStepEntry* step = run.step(index);
    if (!step || !step->startUnixS || std::isnan(*step->startUnixS))
        return std::nullopt;
    return step->startUnixS;
}

// What must be the same in every shard: the plan and the parts of the profile that shape the load.
bool samePlan(const RunDocument& a, const RunDocument& b)
{
    const auto plan = [](const RunDocument& run) {
        RunPlan p = run.plan.value_or(RunPlan {});
        p.stoppedEarly.reset();
        return p;
    };
    const auto profilePart
        = [](const RunDocument& run, QStringView key) { return run.profile.value_or(QJsonObject()).value(key); };
    return plan(a) == plan(b) && profilePart(a, u"load") == profilePart(b, u"load")
        && profilePart(a, u"workload") == profilePart(b, u"workload");
}

void shift(RequestRecord& r, qint64 offsetNs)
{
    for (qint64* t :
        { &r.scheduledNs, &r.sentNs, &r.firstByteNs, &r.firstTokenNs, &r.firstContentNs, &r.lastTokenNs, &r.endNs }) {
        if (*t >= 0)
            *t += offsetNs;
    }
    r.chunkNs.shift(offsetNs);
}

struct Shard
{
    ShardSpec spec;
    SavedRun run;
};

QString seconds(double s)
{
    return QString::number(s, 'f', s < 10 ? 2 : 1);
}

} // namespace

std::optional<ShardSpec> shardOfRun(const QString& dir)
{
    return shardOf(readRunJson(dir));
}

bool isShardSet(const QStringList& dirs)
{
    if (dirs.size() < 2)
        return false;
    int count = 0;
    for (const QString& dir : dirs) {
        const auto shard = shardOfRun(dir);
        if (!shard || shard->count < 2 || (count != 0 && shard->count != count))
            return false;
        count = shard->count;
    }
    return true;
}

QString mergedRunDirectory(const QStringList& dirs, const QString& runsRoot)
{
    const RunDocument run = dirs.isEmpty() ? RunDocument {} : readRunJson(dirs.constFirst());
    QString name = run.name.value_or(QString());
    if (name.isEmpty())
        name = run.profile.value_or(QJsonObject()).value(u"name").toString();
    if (name.isEmpty() && !dirs.isEmpty())
        name = QFileInfo(dirs.constFirst()).fileName();
    return newRunDirectory(runsRoot, name + QStringLiteral(" merged"));
}

MergeReport mergeShardRuns(const QStringList& dirs, const MergeOptions& options)
{
    MergeReport report;
    if (dirs.size() < 2) {
        report.error = QStringLiteral("merge needs the run directories of at least two shards");
        return report;
    }
    if (options.outDir.isEmpty()) {
        report.error = QStringLiteral("merge needs an output directory");
        return report;
    }
    const QFileInfo outInfo(options.outDir);
    if (outInfo.exists()) {
        report.error
            = QStringLiteral("%1: already exists; give a new directory for the merged run").arg(options.outDir);
        return report;
    }

    // The shards: each a run directory naming its shard, all of one count and one plan.
    std::vector<Shard> shards;
    for (const QString& dir : dirs) {
        SavedRunRead read = readSavedRun(dir);
        if (!read.ok()) {
            report.error = read.error;
            return report;
        }
        const auto spec = shardOf(read.run->document);
        if (!spec) {
            report.error = QStringLiteral("%1: shard: missing; not a shard run (kneepoint-cli run|sweep --shard I/K)")
                               .arg(QDir(read.run->dir).filePath(QStringLiteral("run.json")));
            return report;
        }
        for (const QString& w : read.run->warnings)
            report.warnings << w;
        shards.push_back({ *spec, std::move(*read.run) });
    }
    std::sort(shards.begin(), shards.end(), [](const Shard& a, const Shard& b) { return a.spec.index < b.spec.index; });
    const int k = shards.front().spec.count;
    for (std::size_t i = 0; i < shards.size(); ++i) {
        const Shard& s = shards[i];
        if (s.spec.count != k) {
            report.error
                = QStringLiteral("%1 is shard %2 but %3 is shard %4: the shards of one run share their K")
                      .arg(s.run.dir, s.spec.toString(), shards.front().run.dir, shards.front().spec.toString());
            return report;
        }
        if (i > 0 && shards[i - 1].spec.index == s.spec.index) {
            report.error = QStringLiteral("%1 and %2 are both shard %3")
                               .arg(shards[i - 1].run.dir, s.run.dir, s.spec.toString());
            return report;
        }
        if (!samePlan(s.run.document, shards.front().run.document)) {
            report.error
                = QStringLiteral("%1 and %2 ran different plans or workloads (run.json plan, profile load or workload "
                                 "differ): they are not shards of one run")
                      .arg(shards.front().run.dir, s.run.dir);
            return report;
        }
    }
    if (static_cast<int>(shards.size()) != k) {
        QStringList missing;
        for (int i = 1; i <= k; ++i) {
            if (std::none_of(shards.begin(), shards.end(), [i](const Shard& s) { return s.spec.index == i; }))
                missing << QStringLiteral("%1/%2").arg(i).arg(k);
        }
        report.error = QStringLiteral("shard %1 missing: give the run directories of all %2 shards")
                           .arg(missing.join(QStringLiteral(", ")))
                           .arg(k);
        return report;
    }
    report.shards = k;

    const SavedRun& first = shards.front().run;
    const Profile& profile = first.profile;
    const MetricsOptions metrics = metricsOptions(profile);

    std::vector<RunMergedShard> shardList;
    for (const Shard& s : shards) {
        shardList.push_back(
            { s.spec.index, s.run.dir, s.run.status, static_cast<int>(s.run.steps.size()), s.run.environment });
        if (s.run.status != QLatin1String("finished"))
            report.flags << QStringLiteral("shard %1 %2 (%3)").arg(s.spec.toString(), s.run.status, s.run.dir);
    }

    // Steps pair by index.
    std::map<int, std::vector<std::pair<const Shard*, const SavedStep*>>> byIndex;
    for (const Shard& s : shards) {
        for (const SavedStep& step : s.run.steps)
            byIndex[step.index].push_back({ &s, &step });
    }

    struct MergedStep
    {
        int index = 0;
        StepSetup setup;
        StepMetrics metrics;
        std::vector<RequestRecord> records;
        RunStepEntry entry;
        SweepPoint point;
        LoadMode mode = LoadMode::Rate;
    };
    std::vector<MergedStep> merged;
    for (const auto& [index, parts] : byIndex) {
        MergedStep m;
        m.index = index;
        QStringList stepFlags;
        bool partial = false, clientBound = false;
        double lagP99 = 0;
        if (static_cast<int>(parts.size()) < k) {
            QStringList lacking;
            for (const Shard& s : shards) {
                if (std::none_of(parts.begin(), parts.end(), [&s](const auto& p) { return p.first == &s; }))
                    lacking << s.spec.toString();
            }
            stepFlags << QStringLiteral("no result from shard %1").arg(lacking.join(QStringLiteral(", ")));
            partial = true;
        }
        // The common time axis: each shard's records from its own step start, placed at that start's
        // offset from the earliest one.
        double t0 = std::numeric_limits<double>::infinity();
        bool anyStart = false;
        for (const auto& [shard, step] : parts) {
            const std::optional<double> start = startOf(shard->run.document, index);
            if (start) {
                t0 = std::min(t0, *start);
                anyStart = true;
            }
        }
        double offered = 0;
        bool allGated = true;
        int gate = 0;
        double latestStart = 0;
        std::vector<RunShardPart> shardSteps;
        for (const auto& [shard, step] : parts) {
            if (step->requestsPath.isEmpty()) {
                report.error
                    = QStringLiteral("%1/steps/%2.requests.jsonl: missing; percentiles cannot be merged exactly "
                                     "without the per-request records")
                          .arg(shard->run.dir)
                          .arg(index, 3, 10, QLatin1Char('0'));
                return report;
            }
            std::vector<RequestRecord> records;
            QString error;
            if (!readRequestRecords(step->requestsPath, &records, &error)) {
                report.error = error;
                return report;
            }
            const std::optional<double> start = startOf(shard->run.document, index);
            double offsetS = 0;
            if (start) {
                offsetS = *start - t0;
            } else {
                stepFlags << QStringLiteral("shard %1 has no wall-clock start (start_unix_s): its records are placed "
                                            "at the earliest start")
                                 .arg(shard->spec.toString());
            }
            latestStart = std::max(latestStart, offsetS);
            const qint64 offsetNs = static_cast<qint64>(std::llround(offsetS * 1e9));
            for (RequestRecord& r : records) {
                shift(r, offsetNs);
                // The index the request has in the single client's order (the prompt it used).
                r.index = shard->spec.firstRequest() + r.index * shard->spec.stride();
                m.records.push_back(std::move(r));
            }
            if (step->partial) {
                partial = true;
                stepFlags << QStringLiteral("shard %1 stopped early (partial)").arg(shard->spec.toString());
            }
            if (step->clientBound) {
                clientBound = true;
                stepFlags << QStringLiteral("shard %1 was client-bound (dispatch lag p99 %2 ms): its load was not "
                                            "offered as planned")
                                 .arg(shard->spec.toString())
                                 .arg(step->dispatchLagP99Ms, 0, 'f', 1);
            }
            lagP99 = std::max(lagP99, step->dispatchLagP99Ms);
            offered = std::isinf(step->offered) ? step->offered : offered + step->offered;
            if (step->setup.maxConcurrency)
                gate += *step->setup.maxConcurrency;
            else
                allGated = false;
            m.mode = step->mode;
            shardSteps.push_back({ shard->spec.index, step->load, step->metrics.completed, step->metrics.failed,
                step->partial, step->clientBound, offsetS, step->metrics.durationS });
        }
        std::sort(m.records.begin(), m.records.end(),
            [](const RequestRecord& a, const RequestRecord& b) { return a.index < b.index; });
        // From the earliest shard's start to the last completion, as one client's step is measured.
        qint64 lastEnd = 0;
        for (const RequestRecord& r : m.records)
            lastEnd = std::max(lastEnd, r.endNs);
        const double durationS = static_cast<double>(lastEnd) / 1e9;
        m.metrics = StepMetrics::fromRecords(m.records, durationS, metrics);
        if (latestStart > kMisalignedFraction * durationS && durationS > 0)
            stepFlags << QStringLiteral("shards started %1 s apart, more than a tenth of the step (%2 s): the server "
                                        "did not see their load together")
                             .arg(seconds(latestStart), seconds(durationS));

        const SavedStep& base = *parts.front().second;
        m.setup = base.setup;
        m.setup.numPrompts = m.metrics.completed + m.metrics.failed;
        if (m.mode == LoadMode::Rate) {
            m.setup.requestRate = offered;
            m.setup.maxConcurrency = allGated ? std::optional<int>(gate) : std::nullopt;
        } else {
            m.setup.maxConcurrency = static_cast<int>(offered);
        }
        for (const auto& part : parts)
            m.setup.date = std::max(m.setup.date, part.second->setup.date);

        RunStepEntry& e = m.entry;
        e.index = index;
        e.load = formatLoad(m.mode, offered);
        if (!base.purpose.isEmpty())
            e.purpose = base.purpose;
        e.file = QStringLiteral("%1.json").arg(index, 3, 10, QLatin1Char('0'));
        e.completed = m.metrics.completed;
        e.failed = m.metrics.failed;
        e.partial = partial;
        e.clientBound = clientBound;
        e.dispatchLagP99Ms = lagP99;
        if (anyStart)
            e.startUnixS = t0;
        e.startSpreadS = latestStart;
        if (!profile.slo.isEmpty())
            e.meetsSlo = SweepPlanner::meetsSlo(profile.slo, m.metrics);
        e.shards = std::move(shardSteps);
        if (!stepFlags.isEmpty()) {
            e.flags = stepFlags;
            for (const QString& f : stepFlags)
                report.flags << QStringLiteral("step %1: %2").arg(index + 1).arg(f);
        }
        m.point.offered = offered;
        m.point.concurrencyMode = m.mode == LoadMode::Concurrency;
        m.point.metrics = m.metrics;
        m.point.partial = partial;
        m.point.clientBound = clientBound;
        m.point.planned = m.setup.numPrompts;
        merged.push_back(std::move(m));
    }
    report.steps = static_cast<int>(merged.size());

    // Written beside the target and renamed into place: the merged run appears whole or not at all.
    const QString outDir = outInfo.absoluteFilePath();
    const QDir parent = outInfo.absoluteDir();
    if (!QDir().mkpath(parent.path())) {
        report.error = QStringLiteral("%1: cannot create the directory").arg(parent.path());
        return report;
    }
    const QString tempDir = parent.filePath(
        QStringLiteral(".%1.merging-%2").arg(outInfo.fileName()).arg(QCoreApplication::applicationPid()));
    QDir(tempDir).removeRecursively();
    auto fail = [&](const QString& error) {
        QDir(tempDir).removeRecursively();
        report.error = error;
        return report;
    };
    {
        RunWriter writer;
        QString error;
        if (!writer.open(tempDir, &error))
            return fail(error);
        QByteArray csv = SweepTable::csvHeader();
        std::vector<RunStepEntry> entries;
        std::vector<SweepPoint> points;
        for (const MergedStep& m : merged) {
            for (const RequestRecord& r : m.records) {
                if (!writer.appendRequest(m.index, r, &error))
                    return fail(error);
            }
            if (!writer.writeStep(m.index, ResultJson::write(m.setup, m.metrics, {}, 2), &error))
                return fail(error);
            csv += SweepTable::csvRow(m.setup, m.metrics);
            entries.push_back(m.entry);
            if (m.mode == profile.load.mode)
                points.push_back(m.point);
        }
        std::stable_sort(points.begin(), points.end(),
            [](const SweepPoint& a, const SweepPoint& b) { return a.offered < b.offered; });

        RunDocument run = first.document;
        run.shard.reset();
        QString status = QStringLiteral("finished");
        for (const Shard& s : shards) {
            if (s.run.status == QLatin1String("failed"))
                status = s.run.status;
            else if (s.run.status != QLatin1String("finished") && status == QLatin1String("finished"))
                status = QStringLiteral("stopped");
        }
        run.status = status;
        run.updated = QDateTime::currentDateTime();
        run.steps = std::move(entries);
        RunMergeInfo mergedInfo;
        mergedInfo.count = k;
        mergedInfo.shards = shardList;
        if (!report.flags.isEmpty())
            mergedInfo.flags = report.flags;
        run.merged = std::move(mergedInfo);
        run.environment = shards.front().run.environment;

        if (!writeFileAtomically(QDir(tempDir).filePath(QStringLiteral("sweep.csv")), csv, &error))
            return fail(error);
        if (options.analysis && !points.empty()
            && !writeFileAtomically(QDir(tempDir).filePath(QStringLiteral("analysis.json")),
                QJsonDocument(options.analysis(points, profile)).toJson(QJsonDocument::Indented), &error))
            return fail(error);
        if (!writer.writeRun(run, &error))
            return fail(error);
    } // the writer closes its request files
    if (!QDir().rename(tempDir, outDir))
        return fail(QStringLiteral("%1: cannot rename %2 into place").arg(outDir, tempDir));
    report.dir = outDir;
    return report;
}

} // namespace kp
