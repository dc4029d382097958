#include "sweep/sweepplan.h"

#include "client/requestbuilder.h"
#include "dataset/dataset.h"
#include "profile/profilestore.h"
#include "sweep/safetyguard.h"
#include "telemetry/environment.h"

#include <QDateTime>
#include <QJsonArray>
#include <QSysInfo>
#include <QThread>

#include <cmath>

namespace kp {

MetricsOptions metricsOptions(const Profile& profile)
{
    MetricsOptions m;
    m.percentiles.clear();
    for (double p : profile.output.metricPercentiles)
        m.percentiles.push_back(p);
    if (!profile.slo.isEmpty()) {
        std::vector<double> wanted = profile.slo.limitPercentiles();
        if (wanted.empty())
            wanted.push_back(profile.slo.percentile);
        for (double p : wanted) {
            if (std::find(m.percentiles.begin(), m.percentiles.end(), p) == m.percentiles.end())
                m.percentiles.push_back(p);
        }
    }
    m.selectedMetrics.clear();
    for (const QString& name : profile.output.percentileMetrics) {
        if (auto metric = latencyMetricFromKey(name))
            m.selectedMetrics.push_back(*metric);
    }
    m.ttftSloMs = profile.slo.ttftMs;
    m.tpotSloMs = profile.slo.tpotMs;
    m.e2elSloMs = profile.slo.e2elMs;
    m.lengthBucketEdges.assign(profile.workload.lengthBuckets.begin(), profile.workload.lengthBuckets.end());
    // Without a /tokenize pre-pass (the CLI runs one), the server's usage.prompt_tokens where it sends them.
    m.inputTokenSource = InputTokenSource::ServerUsage;
    m.imagesPerRequest = profile.workload.imageCount;
    return m;
}

PreparedSweep prepareSweep(const Profile& profile, const DatasetProgress& progress)
{
    PreparedSweep prepared;
    const DatasetResult dataset = loadWorkload(profile.workload, progress);
    prepared.warnings = dataset.warnings;
    if (!dataset.ok()) {
        prepared.error = dataset.error;
        return prepared;
    }
    QString error;
    const RequestTemplate request = requestTemplate(profile, &error);
    if (!error.isEmpty()) {
        prepared.error = error;
        return prepared;
    }
    SweepConfig& config = prepared.config;
    config.cooldownS = profile.load.cooldownS;
    config.transport = transportOptions(profile.target);
    config.metrics = metricsOptions(profile);
    config.stepDurationS = profile.load.stepDurationS;
    config.planner = SweepPlanner(profile.load, profile.slo);
    // The built-in simulator runs in scaled time: its rates are not what a server would see.
    if (!profile.target.isBuiltinSimulator())
        config.planner.setLoadLimits(SafetyLimits {}.loadLimits());

    StepConfig& step = config.stepTemplate;
    step.burstiness = profile.load.burstiness;
    step.maxConcurrency = profile.load.maxConcurrency;
    step.rampUpS = profile.load.rampUpS;
    step.warmupRequests = profile.load.warmupRequests;
    step.seed = static_cast<quint64>(profile.workload.seed);
    step.request = request;
    step.prompts = dataset.prompts;
    step.sessions = dataset.sessions;
    step.datasetSkipped = dataset.badLines;
    step.liveHistory = profile.workload.multiTurnHistory == QLatin1String("live");
    step.thinkTimeS = profile.workload.thinkTimeS;
    step.textSeed = static_cast<quint64>(profile.workload.seed);
    step.replaySpeed = profile.workload.replaySpeed;
    step.numPrompts = profile.workload.numPrompts;
    config.telemetry = telemetryOptions(profile.target, request.headers, config.transport);
    return prepared;
}

QUrl serverUrl(const Target& target, const QString& path)
{
    QUrl url(target.baseUrl);
    QString base = url.path();
    while (base.endsWith(u'/'))
        base.chop(1);
    if (base.endsWith(QLatin1String("/v1"))) // an OpenAI-style base URL: the server's own paths sit above it
        base.chop(3);
    url.setPath(base + path);
    url.setQuery(QString());
    return url;
}

TelemetryOptions telemetryOptions(const Target& target, const HeaderList& headers, const TransportOptions& transport)
{
    TelemetryOptions t;
    const QStringList urls = target.effectiveMetricsUrls();
    if (urls.isEmpty() || target.isBuiltinSimulator())
        return t; // a sim:// target is scraped once the simulator runs and base_url points at it
    for (const QString& url : urls)
        t.metricsUrls << (url.isEmpty() ? serverUrl(target, QStringLiteral("/metrics")) : QUrl(url));
    t.versionUrl = serverUrl(target, QStringLiteral("/version"));
    t.modelsUrl = target.urlFor(QStringLiteral("/v1/models"));
    t.intervalS = target.metricsIntervalS;
    t.headers = headers;
    t.transport = transport;
    return t;
}

void addServerReported(QJsonObject& run, const ServerFacts& facts)
{
    const QJsonObject reported = facts.toJson();
    if (reported.isEmpty())
        return;
    QJsonObject env = run.value(QLatin1String("environment")).toObject();
    env.insert(QLatin1String("server_reported"), reported);
    run.insert(QLatin1String("environment"), env);
}

StepSetup stepSetup(const Profile& profile, const StepResult& result)
{
    StepSetup s;
    s.date = StepSetup::dateString(result.startedAt.addMSecs(static_cast<qint64>(result.durationS * 1000)));
    s.backend = backendName(profile.target.backend);
    s.endpointType = s.backend;
    s.label = profile.output.label;
    for (const auto& [key, value] : profile.output.metadata)
        s.metadata.emplace_back(key, value);
    s.modelId = profile.target.requestModel();
    s.tokenizerId = profile.target.model;
    s.numPrompts = result.metrics.completed + result.metrics.failed;
    if (result.config.mode == LoadMode::Rate) {
        s.requestRate = result.config.rate;
        s.maxConcurrency = result.config.maxConcurrency;
    } else {
        s.maxConcurrency = result.config.concurrency;
    }
    s.burstiness = result.config.burstiness;
    return s;
}

QString loadLabel(const StepConfig& step)
{
    return formatLoad(step.mode, step.mode == LoadMode::Concurrency ? double(step.concurrency) : step.rate);
}

QJsonObject currentStepEntry(const StepConfig& step)
{
    QJsonObject s;
    s.insert(QLatin1String("index"), step.index);
    s.insert(QLatin1String("mode"), loadModeName(step.mode));
    s.insert(QLatin1String("offered"),
        step.mode == LoadMode::Rate ? QJsonValue(formatRate(step.rate)) : QJsonValue(step.concurrency));
    s.insert(QLatin1String("load"), loadLabel(step));
    s.insert(QLatin1String("purpose"), step.purpose);
    s.insert(QLatin1String("started"), QDateTime::currentDateTime().toString(Qt::ISODateWithMs));
    return s;
}

QStringList stepValidityFlags(const StepResult& result)
{
    QStringList flags;
    if (result.partial)
        flags << QStringLiteral("partial");
    if (result.metrics.failed > 0)
        flags << QStringLiteral("incomplete");
    if (result.clientBound)
        flags << QStringLiteral("client-bound");
    return flags;
}

void insertStepValidity(QJsonObject& entry, const StepResult& result)
{
    const qint64 sent = result.metrics.completed + result.metrics.failed;
    entry.insert(QLatin1String("sent"), sent);
    entry.insert(QLatin1String("error_rate"), sent > 0 ? double(result.metrics.failed) / double(sent) : 0.0);
    entry.insert(QLatin1String("flags"), QJsonArray::fromStringList(stepValidityFlags(result)));
}

QJsonObject runDocument(const Profile& profile, const std::vector<PlannedStep>& planned, const QString& stopReason,
    const QString& status, const QList<QJsonObject>& steps, const QJsonObject& current)
{
    QJsonObject run;
    run.insert(QLatin1String("format"), QLatin1String("kneepoint.run/1"));
    run.insert(QLatin1String("status"), status);
    run.insert(QLatin1String("updated"), QDateTime::currentDateTime().toString(Qt::ISODateWithMs));
    run.insert(QLatin1String("profile"), ProfileStore::toJsonObject(redactedProfile(profile)));
    QJsonObject plan;
    plan.insert(QLatin1String("kind"), planKindName(profile.load.plan.kind));
    QJsonArray coarse;
    for (const PlannedStep& step : planned) {
        QJsonObject s;
        s.insert(QLatin1String("mode"), loadModeName(step.mode));
        s.insert(QLatin1String("load"),
            step.mode == LoadMode::Rate ? QJsonValue(formatRate(step.load)) : QJsonValue(step.load));
        s.insert(QLatin1String("purpose"), step.purpose);
        coarse.append(s);
    }
    plan.insert(QLatin1String("planned"), coarse);
    if (!stopReason.isEmpty())
        plan.insert(QLatin1String("stopped_early"), stopReason);
    run.insert(QLatin1String("plan"), plan);
    run.insert(QLatin1String("environment"), clientEnvironment());
    QJsonArray done;
    for (const QJsonObject& s : steps)
        done.append(s);
    run.insert(QLatin1String("steps"), done);
    if (!current.isEmpty())
        run.insert(QLatin1String("current_step"), current);
    return run;
}

} // namespace kp
