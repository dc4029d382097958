#include "sweep/sweepplan.h"

#include "client/requestbuilder.h"
#include "dataset/dataset.h"
#include "profile/profilestore.h"

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
    if (!profile.slo.isEmpty()
        && std::find(m.percentiles.begin(), m.percentiles.end(), profile.slo.percentile) == m.percentiles.end())
        m.percentiles.push_back(profile.slo.percentile);
    m.selectedMetrics.clear();
    for (const QString& name : profile.output.percentileMetrics) {
        if (auto metric = latencyMetricFromKey(name))
            m.selectedMetrics.push_back(*metric);
    }
    m.ttftSloMs = profile.slo.ttftMs;
    m.tpotSloMs = profile.slo.tpotMs;
    m.e2elSloMs = profile.slo.e2elMs;
    return m;
}

PreparedSweep prepareSweep(const Profile& profile)
{
    PreparedSweep prepared;
    const DatasetResult dataset = loadWorkload(profile.workload);
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

    StepConfig& step = config.stepTemplate;
    step.burstiness = profile.load.burstiness;
    step.maxConcurrency = profile.load.maxConcurrency;
    step.rampUpS = profile.load.rampUpS;
    step.warmupRequests = profile.load.warmupRequests;
    step.seed = static_cast<quint64>(profile.workload.seed);
    step.request = request;
    step.prompts = dataset.prompts;
    step.numPrompts = profile.workload.numPrompts;
    return prepared;
}

StepSetup stepSetup(const Profile& profile, const StepResult& result)
{
    StepSetup s;
    s.date = StepSetup::dateString(result.startedAt.addMSecs(static_cast<qint64>(result.durationS * 1000)));
    s.backend = backendName(profile.target.backend);
    s.endpointType = s.backend;
    s.label = profile.output.label;
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

QJsonObject runDocument(const Profile& profile, const std::vector<PlannedStep>& planned, const QString& stopReason,
    const QString& status, const QList<QJsonObject>& steps)
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
    QJsonObject env;
    env.insert(QLatin1String("kneepoint_version"), QLatin1String(KNEEPOINT_VERSION));
    env.insert(QLatin1String("qt_version"), QLatin1String(qVersion()));
    env.insert(QLatin1String("os"), QSysInfo::prettyProductName());
    env.insert(QLatin1String("kernel"), QSysInfo::kernelVersion());
    env.insert(QLatin1String("cpu_arch"), QSysInfo::currentCpuArchitecture());
    env.insert(QLatin1String("cpu_cores"), QThread::idealThreadCount());
    run.insert(QLatin1String("environment"), env);
    QJsonArray done;
    for (const QJsonObject& s : steps)
        done.append(s);
    run.insert(QLatin1String("steps"), done);
    return run;
}

} // namespace kp
