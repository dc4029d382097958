#include "sweep/sweepplan.h"

#include "client/requestbuilder.h"
#include "dataset/dataset.h"
#include "metrics/phrase.h"
#include "profile/profilestore.h"
#include "sweep/safetyguard.h"
#include "telemetry/environment.h"

#include <QDateTime>
#include <QJsonArray>
#include <QSysInfo>
#include <QThread>

#include <cmath>
#include <set>

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
    // A replayed log lasts its span over replay_speed: beyond a step's cap it would wait without end.
    if (!dataset.prompts.empty() && profile.workload.replaySpeed > 0) {
        const auto latest = std::max_element(dataset.prompts.begin(), dataset.prompts.end(),
            [](const Prompt& a, const Prompt& b) { return a.atNs < b.atNs; });
        const double replayS = double(latest->atNs) / 1e9 / profile.workload.replaySpeed;
        if (replayS > kMaxReplayS) {
            prepared.error = phrase("Sweep",
                "workload.replay_speed: %1 spans %2 s; at replay_speed %3 one pass takes %4 s, above the limit of "
                "%5 s (ten days)")
                                 .arg(profile.workload.datasetPath)
                                 .arg(double(latest->atNs) / 1e9, 0, 'g', 6)
                                 .arg(profile.workload.replaySpeed, 0, 'g', 6)
                                 .arg(replayS, 0, 'g', 6)
                                 .arg(kMaxReplayS, 0, 'f', 0);
            return prepared;
        }
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
    if (profile.load.soak) // one step of the soak's length at its rate, measured per window
        config.stepDurationS = profile.load.soakDurationS;
    config.planner = SweepPlanner(profile.load, profile.slo);
    // The built-in simulator runs in scaled time: its rates are not what a server would see.
    if (!profile.target.isBuiltinSimulator())
        config.planner.setLoadLimits(SafetyLimits {}.loadLimits());

    StepConfig& step = config.stepTemplate;
    step.burstiness = profile.load.burstiness;
    step.maxConcurrency = profile.load.maxConcurrency;
    step.rampUpS = profile.load.rampUpS;
    step.warmupRequests = profile.load.warmupRequests;
    step.windowS = profile.load.soak ? profile.load.soakWindowS : 0.0;
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
    // workload.prompt_pool 0: synthetic prompts are made anew for every request of the run.
    step.freshPrompts = profile.workload.promptPool == 0;
    config.telemetry = telemetryOptions(profile.target, request.headers, config.transport);
    if (profile.load.resetCacheBetweenSteps) {
        // vLLM's endpoint first, SGLang's when the profile says the server is SGLang; the other one next.
        config.cacheResetUrls = { serverUrl(profile.target, QStringLiteral("/reset_prefix_cache")),
            serverUrl(profile.target, QStringLiteral("/flush_cache")) };
        if (profile.server.engine.compare(QLatin1String("sglang"), Qt::CaseInsensitive) == 0)
            std::swap(config.cacheResetUrls[0], config.cacheResetUrls[1]);
    }
    return prepared;
}

bool promptsMadePerRequest(const StepConfig& t)
{
    if (t.isReplay() || !t.freshPrompts)
        return false;
    if (t.isMultiTurn())
        return !t.sessions.empty() && t.sessions.front().synthetic;
    return !t.prompts.empty() && t.prompts.front().synthetic;
}

PromptReuse announcedPromptReuse(const SweepConfig& config, const Load& load)
{
    return config.stepTemplate.isMultiTurn() ? PromptReuse {} : plannedPromptReuse(config, load);
}

PromptReuse plannedPromptReuse(const SweepConfig& config, const Load& load)
{
    PromptReuse reuse;
    const StepConfig& t = config.stepTemplate;
    if (t.isReplay())
        return reuse; // a log is replayed as it is, every step
    std::set<int> ids;
    reuse.fresh = promptsMadePerRequest(t);
    if (t.isMultiTurn()) {
        for (std::size_t i = 0; i < t.sessions.size(); ++i)
            ids.insert(t.sessions[i].id >= 0 ? t.sessions[i].id : int(i));
    } else if (!t.prompts.empty()) {
        for (std::size_t i = 0; i < t.prompts.size(); ++i)
            ids.insert(t.prompts[i].id >= 0 ? t.prompts[i].id : int(i));
    }
    reuse.distinctPrompts = qint64(ids.size());
    SweepConfig unsharded = config;
    unsharded.shard = {};
    const std::vector<PlannedStep> planned = config.planner.preview();
    for (std::size_t i = 0; i < planned.size(); ++i) {
        const StepConfig step = SweepRunner::makeStep(unsharded, planned[i], int(i));
        if (step.runPositions > 0)
            reuse.requests += step.runPositions;
        else
            reuse.atLeast = true;
    }
    const Plan& plan = load.plan;
    if (plan.kind == PlanKind::Auto || plan.refine || plan.repeats > 0)
        reuse.atLeast = true;
    return reuse;
}

PromptReuse workloadPromptReuse(const Workload& w, qint64 requests, bool atLeast)
{
    PromptReuse reuse;
    if (w.multiTurn || w.dataset == QLatin1String("replay") || w.dataset == QLatin1String("mooncake"))
        return reuse;
    reuse.requests = requests;
    reuse.atLeast = atLeast;
    const bool synthetic = w.dataset == QLatin1String("random") || w.dataset == QLatin1String("shared-prefix");
    reuse.fresh = synthetic && w.promptPool == 0;
    reuse.distinctPrompts = w.promptPool > 0 ? std::min(w.promptPool, w.numPrompts) : w.numPrompts;
    reuse.distinctAtMost = !synthetic;
    return reuse;
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

void addServerReported(RunDocument& run, const ServerFacts& facts)
{
    const QJsonObject reported = facts.toJson();
    if (reported.isEmpty())
        return;
    QJsonObject env = run.environment.value_or(QJsonObject());
    env.insert(QLatin1String("server_reported"), reported);
    run.environment = env;
}

void addServerReported(QJsonObject& run, const ServerFacts& facts)
{
    RunDocumentRead read = parseRunDocument(run, QStringLiteral("run.json"));
    if (!read.ok())
        return;
    addServerReported(*read.document, facts);
    run = read.document->toJson();
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

RunCurrentStep currentStepEntry(const StepConfig& step)
{
    RunCurrentStep s;
    s.index = step.index;
    s.mode = loadModeName(step.mode);
    s.offered = step.mode == LoadMode::Rate ? QJsonValue(formatRate(step.rate)) : QJsonValue(step.concurrency);
    s.load = loadLabel(step);
    s.purpose = step.purpose;
    s.started = QDateTime::currentDateTime();
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

void setStepValidity(RunStepEntry& entry, const StepResult& result)
{
    const qint64 sent = result.metrics.completed + result.metrics.failed;
    entry.sent = sent;
    entry.errorRate = sent > 0 ? double(result.metrics.failed) / double(sent) : 0.0;
    entry.flags = stepValidityFlags(result);
}

// run.json "server_config": the combination a server configuration sweep started this run's server with.
static QJsonObject serverConfigJson(const ServerSweep& sweep)
{
    if (sweep.applied.isEmpty())
        return {};
    QJsonObject parameters;
    QJsonArray order;
    for (const auto& [name, value] : sweep.applied) {
        parameters.insert(name, value);
        order.append(name);
    }
    return { { QStringLiteral("parameters"), parameters }, { QStringLiteral("order"), order },
        { QStringLiteral("command"), redactCommandSecrets(sweep.appliedCommand) },
        { QStringLiteral("mode"), sweep.mode.isEmpty() ? QStringLiteral("process") : sweep.mode } };
}

RunDocument makeRunDocument(const Profile& profile, const std::vector<PlannedStep>& planned, const QString& stopReason,
    const QString& status, std::vector<RunStepEntry> steps)
{
    RunDocument run;
    run.status = status;
    run.updated = QDateTime::currentDateTime();
    run.profile = ProfileStore::toJsonObject(redactedProfile(profile));
    RunPlan plan;
    plan.kind = planKindName(profile.load.plan.kind);
    std::vector<RunPlannedStep> coarse;
    for (const PlannedStep& step : planned) {
        RunPlannedStep s;
        s.mode = loadModeName(step.mode);
        s.load = step.mode == LoadMode::Rate ? QJsonValue(formatRate(step.load)) : QJsonValue(step.load);
        s.purpose = step.purpose;
        coarse.push_back(std::move(s));
    }
    plan.planned = std::move(coarse);
    if (!stopReason.isEmpty())
        plan.stoppedEarly = stopReason;
    run.plan = std::move(plan);
    run.environment = clientEnvironment();
    if (const QJsonObject server = serverConfigJson(profile.serverSweep); !server.isEmpty()) {
        // A server configuration sweep's run: the combination its server was started with, in run.json and
        // in the environment it was measured in.
        run.serverConfig = server;
        QJsonObject env = run.environment.value_or(QJsonObject());
        env.insert(QLatin1String("server_config"), server);
        run.environment = env;
    }
    run.steps = std::move(steps);
    return run;
}

QJsonObject runDocument(const Profile& profile, const std::vector<PlannedStep>& planned, const QString& stopReason,
    const QString& status, const QList<QJsonObject>& steps)
{
    std::vector<RunStepEntry> entries;
    for (qsizetype i = 0; i < steps.size(); ++i)
        entries.push_back(parseRunStepEntry(steps[i], int(i), QStringLiteral("run.json: steps[%1]").arg(i), nullptr));
    return makeRunDocument(profile, planned, stopReason, status, std::move(entries)).toJson();
}

} // namespace kp
