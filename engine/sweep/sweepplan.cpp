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

    const Load& load = profile.load;
    for (int i = 0; i < load.stepCount(); ++i) {
        StepConfig step;
        step.index = i;
        step.mode = load.mode;
        step.burstiness = load.burstiness;
        step.maxConcurrency = load.maxConcurrency;
        step.rampUpS = load.rampUpS;
        step.warmupRequests = load.warmupRequests;
        step.seed = static_cast<quint64>(profile.workload.seed) + static_cast<quint64>(i);
        step.request = request;
        step.prompts = dataset.prompts;
        step.numPrompts = profile.workload.numPrompts;
        if (load.mode == LoadMode::Rate) {
            step.rate = load.rates.at(i);
            if (load.stepDurationS && std::isfinite(step.rate))
                step.numPrompts = std::max(1, static_cast<int>(std::ceil(step.rate * *load.stepDurationS)));
        } else {
            step.concurrency = load.concurrencies.at(i);
            if (load.stepDurationS) {
                step.durationS = *load.stepDurationS;
                step.numPrompts = std::numeric_limits<int>::max();
            }
        }
        config.steps.push_back(std::move(step));
    }
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

bool meetsSlo(const Slo& slo, const StepMetrics& metrics, QString* reason)
{
    const double p = slo.percentile;
    auto check = [&](const std::optional<double>& limit, const LatencyStats& stats, const char* name) {
        if (!limit)
            return true;
        const double value = stats.percentile(p).value_or(stats.max);
        if (value <= *limit)
            return true;
        if (reason)
            *reason = QStringLiteral("P%1 %2 %3 ms > %4 ms")
                          .arg(LatencyStats::percentileWord(p), QString::fromLatin1(name))
                          .arg(value, 0, 'f', 1)
                          .arg(*limit, 0, 'f', 1);
        return false;
    };
    if (!check(slo.ttftMs, metrics.ttft, "TTFT") || !check(slo.tpotMs, metrics.tpot, "TPOT")
        || !check(slo.e2elMs, metrics.e2el, "E2EL"))
        return false;
    if (slo.maxErrorRate) {
        const qint64 total = metrics.completed + metrics.failed;
        const double rate = total > 0 ? double(metrics.failed) / double(total) : 0.0;
        if (rate > *slo.maxErrorRate) {
            if (reason)
                *reason = QStringLiteral("error rate %1% > %2%").arg(rate * 100, 0, 'f', 1).arg(*slo.maxErrorRate * 100, 0, 'f', 1);
            return false;
        }
    }
    return true;
}

QString loadLabel(const StepConfig& step)
{
    if (step.mode == LoadMode::Concurrency)
        return QStringLiteral("%1 users").arg(step.concurrency);
    return QStringLiteral("%1 req/s").arg(formatRate(step.rate));
}

QJsonObject runDocument(const Profile& profile, const SweepConfig& config, const QString& status,
    const QList<QJsonObject>& steps)
{
    QJsonObject run;
    run.insert(QLatin1String("format"), QLatin1String("kneepoint.run/1"));
    run.insert(QLatin1String("status"), status);
    run.insert(QLatin1String("updated"), QDateTime::currentDateTime().toString(Qt::ISODateWithMs));
    run.insert(QLatin1String("profile"), ProfileStore::toJsonObject(redactedProfile(profile)));
    QJsonArray plan;
    for (const StepConfig& step : config.steps) {
        QJsonObject s;
        s.insert(QLatin1String("index"), step.index);
        s.insert(QLatin1String("mode"), loadModeName(step.mode));
        if (step.mode == LoadMode::Rate)
            s.insert(QLatin1String("rate"), formatRate(step.rate));
        else
            s.insert(QLatin1String("concurrency"), step.concurrency);
        if (step.numPrompts != std::numeric_limits<int>::max())
            s.insert(QLatin1String("num_prompts"), step.numPrompts);
        plan.append(s);
    }
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
