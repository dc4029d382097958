#include "kit/openrun.h"

#include "client/requestbuilder.h"
#include "metrics/stepsummary.h"
#include "runs/savedrun.h"
#include "sweep/analysistext.h"
#include "sweep/kneeanalysis.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cmath>

namespace kp::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("kp::ui::OpenedRun", text);
}

StepReport reportFor(
    const SavedStep& saved, int position, const Profile& profile, bool readRecords, QStringList* warnings)
{
    StepConfig config;
    config.index = position;
    config.purpose = saved.purpose;
    config.mode = saved.mode;
    if (saved.mode == LoadMode::Concurrency) {
        config.concurrency = int(std::lround(saved.offered));
        config.rate = std::numeric_limits<double>::infinity();
    } else {
        config.rate = saved.offered;
        config.maxConcurrency = saved.setup.maxConcurrency;
    }
    config.burstiness = saved.setup.burstiness;
    config.numPrompts = int(std::min<qint64>(saved.setup.numPrompts, std::numeric_limits<int>::max()));

    StepResult result;
    result.config = config;
    result.startedAt = QDateTime::fromString(saved.setup.date, QStringLiteral("yyyyMMdd-HHmmss"));
    result.durationS = saved.metrics.durationS;
    result.partial = saved.partial;
    result.clientBound = saved.clientBound;
    result.dispatchLagP99Ms = saved.dispatchLagP99Ms;
    result.metrics = saved.metrics;
    result.server.stats = saved.server;
    if (!saved.metricsPath.isEmpty()) {
        // The samples over the step's time, for the Server tab's time chart (small: one line a scrape).
        QFile samples(saved.metricsPath);
        if (samples.open(QIODevice::ReadOnly))
            result.server.samples = StepTelemetry::samplesFromJsonl(samples.readAll());
        else
            warnings->append(QCoreApplication::translate("kp::ui::OpenedRun", "%1: cannot read: %2")
                                 .arg(saved.metricsPath, samples.errorString()));
    }
    // A soak step: a windows file beside its step file.
    const QString stepFile = saved.resultPath.isEmpty() ? saved.requestsPath : saved.resultPath;
    const QString windows = stepFile.isEmpty() ? QString() : soakWindowsPath(stepFile);
    const bool soak = !windows.isEmpty() && QFileInfo::exists(windows);
    QString recordsLeftInFile;
    if (const qint64 bytes = saved.requestsPath.isEmpty() ? 0 : QFileInfo(saved.requestsPath).size();
        readRecords && soak && bytes > kSoakRecordsReadBytes) {
        recordsLeftInFile = QCoreApplication::translate("kp::ui::OpenedRun",
            "the soak's request records (%1 MB) are not read into the window: its windows "
            "show it; kneepoint-cli export --timeline reads them from %2")
                                .arg(bytes / 1000000)
                                .arg(saved.requestsPath);
        readRecords = false;
    }
    if (readRecords && !saved.requestsPath.isEmpty()) {
        QString error;
        if (!readRequestRecords(saved.requestsPath, &result.records, &error, warnings)) {
            warnings->append(error);
            result.records.clear();
        }
    }

    StepReport r = makeStepReport(result, profile, HeaderList {}, QStringList {});
    // A soak step's windows, as they closed (a killed soak's too: each line was appended whole).
    if (soak) {
        QString error;
        if (!readSoakWindows(windows, &r.windows, &error, warnings))
            warnings->append(error);
    }
    if (saved.noTimeline.isEmpty())
        warnings->append(r.timeline.leftOutNotes(saved.requestsPath, saved.metricsPath, result.durationS));
    r.load = saved.load.isEmpty() ? r.load : saved.load;
    if (!saved.noTimeline.isEmpty()) {
        // The records' times count from each request's own send: no common clock to draw seconds on.
        r.timeline = {};
        r.noTimeline = saved.noTimeline;
    } else if (!recordsLeftInFile.isEmpty()) {
        // Seconds made of the scrapes alone would count no request in any of them: a false 0 req/s.
        r.timeline = {};
        r.noTimeline = recordsLeftInFile;
    }
    // The summary as the result file records the step (model, date, backend as they were).
    r.summary = QString::fromUtf8(StepSummary::text(saved.setup, saved.metrics));
    if (saved.meetsSlo)
        r.meetsSlo = saved.meetsSlo;
    if (result.records.empty()) {
        // Without the records: failure counts by class from the result file, no examples.
        for (const auto& [failure, count] : saved.metrics.failuresByClass) {
            if (count <= 0)
                continue;
            FailureGroup g;
            g.failure = failure;
            g.count = count;
            g.steps = { position };
            r.failures.push_back(g);
        }
        std::stable_sort(r.failures.begin(), r.failures.end(),
            [](const FailureGroup& a, const FailureGroup& b) { return a.count > b.count; });
    }
    return r;
}

} // namespace

RunMeta runMeta(const SavedRun& run)
{
    RunMeta m;
    m.id = run.id;
    m.name = run.name;
    m.created = run.created;
    m.target = run.target();
    m.model = run.model();
    m.status = run.status;
    m.source = run.source;
    m.tags = run.tags;
    m.notes = run.notes;
    m.environment = run.environment;
    m.fileSettings = run.document.fileSettings.value_or(QJsonObject());
    m.prediction = run.prediction;
    return m;
}

OpenedRun openedRun(
    const SavedRun& run, bool readRecords, const std::atomic_bool* cancelled, const StepProgress& progress)
{
    OpenedRun o;
    o.meta = runMeta(run);
    o.warnings = run.warnings;
    o.info.profile = run.profile;
    o.info.target = run.target();
    o.info.runDirectory = run.dir;
    o.info.fixedPlan = true;
    o.info.numPrompts = run.profile.workload.numPrompts;
    o.info.analysisOptions = run.analysisOptions();
    o.info.environment = run.environment;

    std::vector<const SavedStep*> steps;
    for (const SavedStep& s : run.steps)
        steps.push_back(&s);
    std::stable_sort(
        steps.begin(), steps.end(), [](const SavedStep* a, const SavedStep* b) { return a->index < b->index; });
    std::vector<SweepPoint> points;
    const int total = int(steps.size());
    if (progress)
        progress(0, total);
    for (const SavedStep* s : steps) {
        if (cancelled && *cancelled)
            return o;
        const int position = int(o.steps.size());
        o.steps.push_back(reportFor(*s, position, run.profile, readRecords, &o.warnings));
        const StepReport& r = o.steps.back();
        SweepPoint p;
        p.concurrencyMode = r.concurrencyMode();
        p.offered = r.offered();
        p.metrics = r.metrics;
        p.partial = r.partial;
        p.clientBound = r.clientBound;
        p.server = r.server.stats;
        p.takeClientLimits(s->setup);
        points.push_back(std::move(p));
        if (progress)
            progress(int(points.size()), total);
    }
    // In run order, as the live run analyses it, so that the analysis names steps by their position.
    o.analysis.result = KneeAnalysis::analyze(points, o.info.analysisOptions);
    o.analysis.sentences = analysisText(o.analysis.result);

    if (run.status == QLatin1String("stopped") || run.status == QLatin1String("interrupted"))
        o.state = LiveRun::State::Stopped;
    else if (run.status == QLatin1String("failed"))
        o.state = LiveRun::State::Failed;
    else
        o.state = LiveRun::State::Finished;
    return o;
}

std::optional<OpenedRun> openRunDirectory(const QString& dir, QString* error, bool readRecords,
    const std::atomic_bool* cancelled, const StepProgress& progress)
{
    const SavedRunRead read = readSavedRun(dir);
    if (!read.ok()) {
        if (error)
            *error = read.error;
        return std::nullopt;
    }
    return openedRun(*read.run, readRecords, cancelled, progress);
}

bool OpenedRun::showIn(LiveRun* run) const
{
    QStringList lines;
    if (meta.predicted())
        lines << meta.predictionLine();
    else if (meta.source != QLatin1String("kneepoint") && !meta.source.isEmpty())
        lines << tr("Imported from %1").arg(meta.source);
    for (const QString& w : warnings)
        lines << tr("Warning: %1").arg(w);
    return run->showSaved(info, steps, analysis, state, lines);
}

} // namespace kp::ui
