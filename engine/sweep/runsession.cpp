#include "sweep/runsession.h"

#include "metrics/phrase.h"
#include "metrics/resultjson.h"
#include "metrics/sweeptable.h"
#include "sweep/analysisjson.h"
#include "sweep/sweepplan.h"
#include "sweep/sweeprunner.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>

#include <algorithm>

namespace kp {

RunSession::RunSession(RunSessionOptions options)
    : m_options(std::move(options))
    , m_csv(SweepTable::csvHeader())
{ }

bool RunSession::check(bool ok)
{
    if (!ok)
        m_failed = true;
    return ok;
}

QString RunSession::resultDir() const
{
    return m_options.resultDir.isEmpty() ? QDir::currentPath() : m_options.resultDir;
}

bool RunSession::open(const QString& dir, QString* error)
{
    if (m_options.profile.output.saveResult && !QDir().mkpath(resultDir())) {
        *error = QStringLiteral("output.result_dir: cannot create %1").arg(resultDir());
        return check(false);
    }
    return check(m_writer.open(dir, error) && m_writer.writeRun(runDocument(QStringLiteral("running")), error));
}

RunDocument RunSession::runDocument(const QString& status, std::optional<RunCurrentStep> current) const
{
    RunDocument doc = makeRunDocument(
        m_options.profile, m_options.planned, m_runner ? m_runner->stopReason() : QString(), status, m_entries);
    doc.currentStep = std::move(current);
    if (m_runner)
        addServerReported(doc, m_runner->serverFacts());
    if (m_options.shard || m_options.alignment.active())
        doc.shard = shardJson(m_options.shard.value_or(ShardSpec {}), m_options.alignment);
    return doc;
}

bool RunSession::beginStep(const StepConfig& step, QString* error)
{
    if (m_failed)
        return true;
    return check(m_writer.writeRun(runDocument(QStringLiteral("running"), currentStepEntry(step)), error));
}

bool RunSession::appendRequest(int stepIndex, const RequestRecord& record, QString* error)
{
    if (m_failed)
        return true;
    return check(m_writer.appendRequest(stepIndex, record, error));
}

QString RunSession::windowsPath(int stepIndex) const
{
    QString path = m_writer.stepPath(stepIndex);
    path.chop(5); // ".json"
    return path + QStringLiteral(".windows.jsonl");
}

bool RunSession::appendWindow(const SoakWindow& window, QString* error)
{
    if (m_failed)
        return true;
    QFile file(windowsPath(window.step));
    const QByteArray line = QJsonDocument(window.toJson()).toJson(QJsonDocument::Compact) + '\n';
    // Unbuffered and appended in one write, as the request log writes its lines.
    if (!file.open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Unbuffered)
        || file.write(line) != line.size()) {
        *error = QStringLiteral("%1: cannot append: %2").arg(file.fileName(), file.errorString());
        return check(false);
    }
    return true;
}

bool RunSession::finishStep(const StepResult& result, StepRecord* record, QString* error)
{
    const Profile& profile = m_options.profile;
    const StepSetup setup = stepSetup(profile, result);
    const StepMetrics& m = result.metrics;
    StepRecord out;
    if (!profile.slo.isEmpty())
        out.meetsSlo = SweepPlanner::meetsSlo(profile.slo, m, &out.sloReason);

    m_points.push_back(SweepPoint::fromResult(result));
    // The analysis holds its findings as data; analysisJson words them in English for the file, and
    // a front end words the same result in its own language.
    m_analysis = KneeAnalysis::analyze(m_points, m_options.analysis);
    if (m_options.peak)
        m_plan = CapacityPlan::fromAnalysis(m_analysis, *m_options.peak, m_options.redundancy);
    m_analysisJson = kp::analysisJson(m_analysis, m_plan ? &*m_plan : nullptr);
    m_csv += SweepTable::csvRow(setup, m);

    const int index = result.config.index;
    RunStepEntry entry;
    entry.index = index;
    entry.load = loadLabel(result.config);
    if (!result.config.purpose.isEmpty())
        entry.purpose = result.config.purpose;
    entry.file = QFileInfo(m_writer.stepPath(index)).fileName();
    entry.completed = m.completed;
    entry.failed = m.failed;
    entry.partial = result.partial;
    entry.clientBound = result.clientBound;
    if (result.config.datasetSkipped > 0) // what the step's prompts left out, so that a reader knows
        entry.datasetSkipped = result.config.datasetSkipped;
    entry.dispatchLagP99Ms = result.dispatchLagP99Ms;
    setStepValidity(entry, result);
    // The records' zero on the wall clock: merge puts the shards' requests on one time axis.
    entry.startUnixS = result.startedUnixS;
    if (const auto at = m_options.alignment.startOf(index))
        entry.startLateS = result.startedUnixS - static_cast<double>(at->toMSecsSinceEpoch()) / 1000.0;
    entry.meetsSlo = out.meetsSlo;
    if (result.server.stats) {
        entry.server = result.server.stats->toJson();
        if (!result.server.stats->servers.empty())
            entry.servers = result.server.stats->serversJson();
    }
    entry.joulesPerOutputToken = m.joulesPerOutputToken;
    if (!result.server.isEmpty())
        entry.metricsFile = QFileInfo(m_writer.metricsPath(index)).fileName();
    if (result.config.windowS > 0) { // a soak: its figures per window, next to its requests
        entry.extra.insert(QStringLiteral("windows_file"), QFileInfo(windowsPath(index)).fileName());
        entry.extra.insert(QStringLiteral("window_s"), result.config.windowS);
        entry.extra.insert(QStringLiteral("windows"), result.windows);
    }
    // The step's own intervals (bootstrap over its requests); a repeated load's entries all get the
    // intervals over its trials instead, the interval its averaged point has.
    if (!m.intervals.isEmpty())
        entry.intervals = intervalsJson(m.intervals);
    m_entries.push_back(std::move(entry));
    const double load
        = result.config.mode == LoadMode::Concurrency ? double(result.config.concurrency) : result.config.rate;
    m_trials.push_back({ result.config.mode, load, result.partial ? std::nullopt : std::optional(m) });
    std::vector<const StepMetrics*> trials;
    std::vector<qsizetype> sameLoad;
    for (std::size_t i = 0; i < m_trials.size(); ++i) {
        if (m_trials[i].mode != result.config.mode || m_trials[i].load != load || !m_trials[i].metrics)
            continue;
        trials.push_back(&*m_trials[i].metrics);
        sameLoad.push_back(qsizetype(i));
    }
    if (trials.size() >= 2) {
        const QJsonObject repeated = intervalsJson(repeatIntervals(trials));
        for (qsizetype i : sameLoad)
            m_entries[std::size_t(i)].intervals = repeated;
    }

    // A result file that cannot be written is reported; the run directory goes on being written.
    if (!m_failed && profile.output.saveResult) {
        std::vector<RequestRecord> details;
        if (profile.output.saveDetailed) {
            details = result.records;
            std::sort(details.begin(), details.end(),
                [](const RequestRecord& a, const RequestRecord& b) { return a.index < b.index; });
        }
        const QString name
            = m_options.resultFilename.isEmpty() ? ResultJson::defaultFileName(setup) : m_options.resultFilename;
        out.resultFile = QDir(resultDir()).filePath(name);
        if (!writeFileAtomically(out.resultFile, ResultJson::write(setup, m, details, 2), &out.resultError))
            out.resultFile.clear();
    }
    if (record)
        *record = std::move(out);
    if (m_failed)
        return true;
    return check((result.server.isEmpty() || m_writer.writeMetrics(index, result.server.samplesJsonl(), error))
        && m_writer.writeStep(index, ResultJson::write(setup, m, {}, 2), error)
        && writeFileAtomically(m_writer.dir() + QStringLiteral("/analysis.json"),
            QJsonDocument(m_analysisJson).toJson(QJsonDocument::Indented), error)
        && m_writer.writeRun(runDocument(QStringLiteral("running")), error)
        && writeFileAtomically(m_writer.dir() + QStringLiteral("/sweep.csv"), m_csv, error));
}

bool RunSession::finish(bool stopped, QString* error)
{
    if (m_failed)
        return true;
    const QString status = stopped ? QStringLiteral("stopped") : QStringLiteral("finished");
    return check(m_writer.writeRun(runDocument(status), error));
}

} // namespace kp
