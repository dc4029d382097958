#include "sweep/sweeppipeline.h"

#include "client/imageparts.h"
#include "client/requestbuilder.h"
#include "client/transport.h"
#include "metrics/phrase.h"
#include "profile/modelmix.h"
#include "store/runfolder.h"
#include "store/runwriter.h"
#include "sweep/builtinsimulator.h"

#include <QDir>
#include <QMetaObject>

#include <algorithm>
#include <cmath>

namespace kp {

QString sweepRunFolderName(const Profile& profile)
{
    return profile.name.isEmpty() ? profile.target.model : profile.name;
}

SweepPipeline::SweepPipeline(QObject* parent)
    : QObject(parent)
{ }

SweepPipeline::~SweepPipeline()
{
    shutdown();
}

void SweepPipeline::fail(SweepFailure::Stage stage, const QString& message)
{
    SweepFailure failure;
    failure.stage = stage;
    failure.message = message;
    release();
    m_active = false;
    Q_EMIT failed(failure);
}

// The checks that need nothing sent: the plan a `run` may measure, the shard, the key.
bool SweepPipeline::checkOptions()
{
    Profile& profile = m_options.profile;
    if (const QList<ProfileIssue> issues = validateProfile(profile); !issues.isEmpty()) {
        QStringList lines;
        for (const ProfileIssue& issue : issues)
            lines << issue.toString();
        fail(SweepFailure::Stage::Profile, lines.join(QStringLiteral("; ")));
        return false;
    }
    if (!m_options.sweep) {
        if (profile.load.plan.kind != PlanKind::List) {
            fail(SweepFailure::Stage::Options,
                QStringLiteral("load.plan.kind: run measures one load level; use \"sweep\" for a %1 plan")
                    .arg(planKindName(profile.load.plan.kind)));
            return false;
        }
        if (profile.load.stepCount() > 1) {
            Q_EMIT note(QStringLiteral("run uses the first of %1 load levels; use \"sweep\" for all of them")
                            .arg(profile.load.stepCount()));
            profile.load.rates = profile.load.rates.mid(0, 1);
            profile.load.concurrencies = profile.load.concurrencies.mid(0, 1);
        }
        profile.load.plan.refine = false;
        profile.load.plan.repeats = 0;
    }
    if (m_options.shard) {
        if (const QString problem = shardProblem(profile, *m_options.shard); !problem.isEmpty()) {
            fail(SweepFailure::Stage::Options,
                QStringLiteral("--shard %1: %2").arg(m_options.shard->toString(), problem));
            return false;
        }
    }
    if (m_options.workers && (*m_options.workers <= 0 || *m_options.workers > TransportOptions::kMaxWorkers)) {
        fail(SweepFailure::Stage::Options,
            QStringLiteral("--workers: must be a whole number from 1 to %1").arg(TransportOptions::kMaxWorkers));
        return false;
    }
    return true;
}

// Where the results go is checked before anything is sent: a read-only or full place would otherwise be
// found only after the preflight and the /tokenize pass.
bool SweepPipeline::checkFolders()
{
    QStringList dirs { m_options.runDir.isEmpty() ? m_options.runsRoot : m_options.runDir };
    const Output& output = m_options.profile.output;
    if (output.saveResult && !output.resultDir.isEmpty()
        && (QDir::isAbsolutePath(output.resultDir) || !m_options.resultBase.isEmpty()))
        dirs << QDir(m_options.resultBase).filePath(output.resultDir);
    for (const QString& dir : dirs) {
        QString error;
        if (!checkWritableDirectory(dir, &error)) {
            fail(SweepFailure::Stage::Folder, error);
            return false;
        }
    }
    return true;
}

void SweepPipeline::start(SweepPipelineOptions options)
{
    if (m_active)
        return;
    release();
    m_active = true;
    m_options = std::move(options);
    m_serverModels.clear();
    m_maxModelLen.reset();
    Profile& profile = m_options.profile;
    // The curve is the sweep's own axis: the auto plan's one-user floor step is left out of a rate sweep.
    m_options.analysis.mode = profile.load.mode;

    if (!checkOptions() || !checkFolders())
        return;
    if (profile.target.isBuiltinSimulator()) {
        m_simulator = std::make_unique<BuiltinSimulator>();
        QString error;
        if (!m_simulator->start(profile, &error)) {
            fail(SweepFailure::Stage::Simulator, error);
            return;
        }
        Q_EMIT simulatorStarted(m_simulator->description());
    }
    // Before anything is sent: the preflight carries the key too.
    if (const SafetyCheck keyCheck = checkSafety(profile, {}, 0, 0);
        keyCheck.insecureKey && !m_options.consent.insecureKey) {
        SweepFailure failure;
        failure.stage = SweepFailure::Stage::InsecureKey;
        failure.message = keyCheck.insecureKeyMessage;
        failure.safety = keyCheck;
        release();
        m_active = false;
        Q_EMIT failed(failure);
        return;
    }
    QString error;
    m_headers = requestHeaders(profile.target, &error);
    if (!error.isEmpty()) {
        fail(SweepFailure::Stage::Options, error);
        return;
    }
    if (!m_options.preflight) {
        prepare();
        return;
    }
    ProbeTarget target;
    target.target = profile.target;
    target.headers = m_headers;
    target.transport = transportOptions(profile.target);
    m_probe = std::make_unique<Probe>();
    connect(m_probe.get(), &Probe::finished, this, &SweepPipeline::onProbeFinished);
    connect(m_probe.get(), &Probe::progress, this, &SweepPipeline::probeProgress);
    m_probe->start(target);
}

void SweepPipeline::onProbeFinished(const ProbeReport& report)
{
    // Called from the probe's own signal: it goes once control is back in the event loop.
    m_probe.release()->deleteLater();
    Q_EMIT probeFinished(report);
    if (!report.ok()) {
        SweepFailure failure;
        failure.stage = SweepFailure::Stage::Preflight;
        failure.message = QStringLiteral("The target failed the preflight check; no load was sent");
        failure.probe = report;
        release();
        m_active = false;
        Q_EMIT failed(failure);
        return;
    }
    m_serverModels = report.models;
    m_maxModelLen = report.maxModelLen;
    Profile& profile = m_options.profile;
    if (profile.target.model.isEmpty() && !m_serverModels.isEmpty()) {
        profile.target.model = m_serverModels.constFirst();
        Q_EMIT modelChosen(profile.target.model);
    }
    if (const QString problem = checkAgainstServer(); !problem.isEmpty()) {
        fail(SweepFailure::Stage::Model, problem);
        return;
    }
    prepare();
}

// What the preflight learnt that the profile contradicts before anything is generated: model mix names
// the server does not list (each of their requests would be a 404), and synthetic lengths past its
// max_model_len (each request would be refused).
QString SweepPipeline::checkAgainstServer() const
{
    const Profile& profile = m_options.profile;
    const Workload& w = profile.workload;
    const QString server = displayUrl(profile.target.baseUrl);
    if (!m_serverModels.isEmpty() && !w.modelMix.isEmpty()) {
        QStringList unknown;
        for (const ModelShare& share : parseModelMix(w.modelMix).shares) {
            if (!m_serverModels.contains(share.model))
                unknown << share.model;
        }
        if (!unknown.isEmpty()) {
            constexpr qsizetype kNamed = 5;
            QStringList named = unknown.mid(0, kNamed);
            if (unknown.size() > kNamed)
                named << phrase("Sweep", "and %1 more").arg(unknown.size() - kNamed);
            return phrase("Sweep", "workload.model_mix: %1 not listed by %2 (it lists %3); their requests would fail")
                .arg(named.join(QStringLiteral(", ")), server, m_serverModels.join(QStringLiteral(", ")));
        }
    }
    const bool synthetic = w.dataset == QLatin1String("random") || w.dataset == QLatin1String("shared-prefix");
    if (m_maxModelLen && synthetic) {
        const qint64 prompt = qint64(w.inputLen) + w.prefixLen + (w.multiTurn ? w.systemPromptLen : 0);
        const qint64 total = prompt + w.fixedOutputLen.value_or(w.outputLen);
        if (total > *m_maxModelLen)
            return phrase("Sweep",
                "workload.input_len + output_len: a request of %1 tokens is over the max_model_len %2 that %3 "
                "reports; it would refuse the requests")
                .arg(total)
                .arg(*m_maxModelLen)
                .arg(server);
    }
    return {};
}

void SweepPipeline::prepare()
{
    Profile& profile = m_options.profile;
    if (profile.target.model.isEmpty()) {
        fail(SweepFailure::Stage::Model,
            m_options.preflight
                ? QStringLiteral("target.model: required, and %1 lists no model")
                      .arg(displayUrl(profile.target.baseUrl))
                : QStringLiteral("target.model: required (give --model, or drop --no-preflight to ask the server)"));
        return;
    }
    if (m_options.shard) {
        for (const QString& text : prepareShardProfile(profile))
            Q_EMIT note(text);
    }
    m_prepared = std::make_unique<PreparedSweep>(prepareSweep(profile, m_options.datasetProgress));
    if (!m_prepared->ok()) {
        const QString error = m_prepared->error;
        if (!m_prepared->warnings.isEmpty())
            Q_EMIT prepared(m_prepared->warnings, {});
        fail(SweepFailure::Stage::Dataset, error);
        return;
    }
    // A file's prompts that cannot fit the server's context: named before the run, not found as 400s.
    if (m_maxModelLen && !m_prepared->config.stepTemplate.prompts.empty()) {
        const auto& prompts = m_prepared->config.stepTemplate.prompts;
        const qint64 over = std::count_if(prompts.begin(), prompts.end(), [this](const Prompt& prompt) {
            return qint64(prompt.promptTokens) + prompt.outputTokens > *m_maxModelLen;
        });
        if (over > 0)
            m_prepared->warnings << phrase("Sweep",
                "%1 of %2 prompts need more tokens (prompt and output, counted in words) than the max_model_len %3 "
                "that %4 reports; the server may refuse them")
                                        .arg(over)
                                        .arg(qint64(prompts.size()))
                                        .arg(*m_maxModelLen)
                                        .arg(displayUrl(profile.target.baseUrl));
    }
    // What images add to each request, from the first prompt's (built here once, kept for its request).
    if (const auto& images = m_prepared->config.stepTemplate.request.images; images && images->perRequest() > 0) {
        qint64 bytes = 0;
        for (const QString& url : images->urlsFor(0))
            bytes += url.size();
        double peakRate = 0;
        for (const PlannedStep& step : m_prepared->config.planner.preview()) {
            if (step.mode == LoadMode::Rate && std::isfinite(step.load))
                peakRate = std::max(peakRate, step.load);
        }
        const auto size = [](double b) {
            return b < 1e6 ? QStringLiteral("%1 kB").arg(b / 1e3, 0, 'f', 1)
                           : QStringLiteral("%1 MB").arg(b / 1e6, 0, 'f', 2);
        };
        QString text = phrase("Sweep", "images: %1 per request, %2 of data URLs in each (the first prompt's)")
                           .arg(images->perRequest())
                           .arg(size(double(bytes)));
        if (peakRate > 0)
            text += phrase("Sweep", "; %1/s to send at the plan's highest rate, %2 req/s")
                        .arg(size(double(bytes) * peakRate))
                        .arg(peakRate, 0, 'g', 6);
        Q_EMIT note(text);
    }
    Q_EMIT prepared(m_prepared->warnings, announcedPromptReuse(m_prepared->config, profile.load));
    // Loads the sweep chooses as it goes (auto, refinement) are held to the same limits as the plan.
    if (m_options.consent.highLoad)
        m_prepared->config.planner.setLoadLimits(std::nullopt);
    if (!m_options.preflight) {
        begin();
        return;
    }
    // Input tokens: the server's /tokenize when it has one (counted once, before the run), else its
    // usage.prompt_tokens per request. Prompts made as each request is sent cannot be counted before:
    // the run goes on from the event loop, as after the pre-pass.
    if (promptsMadePerRequest(m_prepared->config.stepTemplate)) {
        const PreparedSweep* preparedNow = m_prepared.get();
        QMetaObject::invokeMethod(
            this,
            [this, preparedNow] {
                if (m_prepared && m_prepared.get() == preparedNow)
                    onTokensCounted(promptsMadePerRequestOutcome());
            },
            Qt::QueuedConnection);
        return;
    }
    m_tokenize = std::make_unique<TokenizePrepass>();
    connect(m_tokenize.get(), &TokenizePrepass::finished, this, &SweepPipeline::onTokensCounted);
    m_tokenize->start(m_prepared->config.stepTemplate.request, m_prepared->config.transport,
        &m_prepared->config.stepTemplate.prompts);
}

void SweepPipeline::onTokensCounted(const TokenizeOutcome& tokens)
{
    // Called from the pre-pass's own signal: it goes once control is back in the event loop.
    if (m_tokenize)
        m_tokenize.release()->deleteLater();
    if (tokens.available)
        m_prepared->config.metrics.inputTokenSource = InputTokenSource::ServerTokenize;
    Q_EMIT tokensCounted(tokens);
    begin();
}

void SweepPipeline::begin()
{
    std::unique_ptr<PreparedSweep> owned = std::move(m_prepared);
    SweepConfig& config = owned->config;
    const Profile& profile = m_options.profile;
    if (m_options.workers)
        config.transport.workers = *m_options.workers;

    double promptTokens = 0, outputTokens = 0;
    for (const Prompt& prompt : config.stepTemplate.prompts) {
        promptTokens += prompt.promptTokens;
        outputTokens += prompt.outputTokens;
    }
    const double n = config.stepTemplate.prompts.empty() ? 1.0 : double(config.stepTemplate.prompts.size());
    const SafetyCheck check
        = checkSafety(profile, config.planner.preview(), promptTokens / n, outputTokens / n, m_options.limits);
    const bool refused = (!check.fileLimitProblem.isEmpty() && !m_options.consent.fileLimit)
        || (!check.overLimits.isEmpty() && !m_options.consent.highLoad)
        || (check.needsConfirmation && !m_options.consent.remoteLoad);
    if (refused) {
        SweepFailure failure;
        failure.stage = SweepFailure::Stage::Safety;
        failure.message = !check.fileLimitProblem.isEmpty() && !m_options.consent.fileLimit ? check.fileLimitProblem
            : !check.overLimits.isEmpty() ? check.overLimits.join(QStringLiteral("; "))
                                          : check.summary;
        failure.safety = check;
        release();
        m_active = false;
        Q_EMIT failed(failure);
        return;
    }
    Q_EMIT safetyChecked(check);
    if (m_options.shard)
        config.shard = *m_options.shard;
    config.alignment = m_options.alignment;

    const QString dir = !m_options.runDir.isEmpty() ? m_options.runDir
                                                    : newRunDirectory(m_options.runsRoot, sweepRunFolderName(profile));
    RunSessionOptions sessionOptions;
    sessionOptions.profile = profile;
    sessionOptions.planned = config.planner.preview();
    sessionOptions.analysis = m_options.analysis;
    sessionOptions.peak = m_options.peak;
    sessionOptions.redundancy = m_options.redundancy;
    sessionOptions.shard = m_options.shard;
    sessionOptions.alignment = m_options.alignment;
    // Result files: an absolute output.result_dir as it is; an empty or relative one from resultBase (the
    // CLI's current folder), or without one, from the run folder (results/ when empty).
    const QString base = m_options.resultBase.isEmpty() ? dir : m_options.resultBase;
    const QString resultDir = profile.output.resultDir.isEmpty() && m_options.resultBase.isEmpty()
        ? QStringLiteral("results")
        : profile.output.resultDir;
    sessionOptions.resultDir = resultDir.isEmpty() ? base : QDir(base).filePath(resultDir);
    sessionOptions.resultFilename = m_options.resultFilename;
    m_session = std::make_unique<RunSession>(std::move(sessionOptions));
    QString error;
    if (!m_options.runsRoot.isEmpty() && m_options.runDir.isEmpty() && !QDir().mkpath(m_options.runsRoot)) {
        fail(
            SweepFailure::Stage::RunFolder, QStringLiteral("cannot create the runs folder %1").arg(m_options.runsRoot));
        return;
    }
    if (!m_session->open(dir, &error)) {
        fail(SweepFailure::Stage::RunFolder,
            error.isEmpty() ? QStringLiteral("cannot create the run folder %1").arg(dir) : error);
        return;
    }

    SweepStart start;
    start.runDir = m_session->dir();
    start.warnings = owned->warnings;
    start.profile = profile;
    start.analysis = m_options.analysis;
    // The plan for the front end without a second copy of the prompts.
    std::vector<Prompt> prompts = std::move(config.stepTemplate.prompts);
    start.config = config;
    config.stepTemplate.prompts = std::move(prompts);

    m_runner = std::make_unique<SweepRunner>();
    m_session->setRunner(m_runner.get());
    connect(m_runner.get(), &SweepRunner::stepStarted, this, [this](int index, const StepConfig& step) {
        QString writeError;
        if (m_session && !m_session->beginStep(step, &writeError))
            onWriteFailed(writeError);
        // The server has answered /version, /v1/models and /metrics by the time the first step starts.
        if (index == 0)
            Q_EMIT serverReported(m_runner->serverFacts());
        Q_EMIT stepStarted(index, step);
    });
    connect(m_runner.get(), &SweepRunner::snapshot, this, &SweepPipeline::snapshot);
    connect(m_runner.get(), &SweepRunner::requestFinished, this, [this](int stepIndex, const RequestRecord& record) {
        QString writeError;
        if (m_session && !m_session->appendRequest(stepIndex, record, &writeError))
            onWriteFailed(writeError);
    });
    connect(m_runner.get(), &SweepRunner::windowFinished, this, [this](const SoakWindow& window) {
        QString writeError;
        if (m_session && !m_session->appendWindow(window, &writeError))
            onWriteFailed(writeError);
        Q_EMIT windowFinished(window);
    });
    connect(m_runner.get(), &SweepRunner::stepFinished, this, &SweepPipeline::onStepFinished);
    connect(m_runner.get(), &SweepRunner::finished, this, &SweepPipeline::onRunnerFinished);
    connect(m_runner.get(), &SweepRunner::pausedChanged, this, &SweepPipeline::pausedChanged);
    connect(m_runner.get(), &SweepRunner::note, this, &SweepPipeline::note);
    connect(m_runner.get(), &SweepRunner::serverSample, this, &SweepPipeline::serverSample);
    Q_EMIT started(start);
    m_runner->start(std::move(config));
}

void SweepPipeline::onWriteFailed(const QString& error)
{
    Q_EMIT writeFailed(error);
    if (m_runner)
        m_runner->stop(RunSession::writeFailedCancel());
}

void SweepPipeline::onStepFinished(const StepResult& result)
{
    RunSession::StepRecord recorded;
    QString error;
    if (!m_session->finishStep(result, &recorded, &error))
        onWriteFailed(error);
    Q_EMIT stepFinished(result, recorded);
}

void SweepPipeline::onRunnerFinished(bool stopped)
{
    SweepEnd end;
    end.stopped = stopped;
    end.stopReason = m_runner->stopReason();
    end.stopReasonText = m_runner->stopReasonText();
    if (m_session && !m_session->failed())
        m_session->finish(stopped, &end.closeError);
    if (m_simulator)
        m_simulator->stop();
    m_active = false;
    Q_EMIT finished(end);
    // Called from the runner's own signal: it goes once control is back in the event loop.
    disconnect(m_runner.get(), nullptr, this, nullptr);
    m_runner.release()->deleteLater();
    release(); // the run folder's lock with the session
}

void SweepPipeline::stop(const QString& cancelReason)
{
    if (!m_active)
        return;
    if (m_runner) {
        m_runner->stop(cancelReason);
        return;
    }
    // Before the first step: nothing ran, nothing to keep.
    release();
    m_active = false;
    SweepEnd end;
    end.stopped = true;
    Q_EMIT finished(end);
}

void SweepPipeline::pause()
{
    if (m_runner)
        m_runner->pause();
}

void SweepPipeline::resume()
{
    if (m_runner)
        m_runner->resume();
}

void SweepPipeline::addStep(const PlannedStep& step)
{
    if (m_runner)
        m_runner->addStep(step);
}

void SweepPipeline::shutdown()
{
    if (m_runner) {
        disconnect(m_runner.get(), nullptr, this, nullptr);
        QString error;
        if (m_session && !m_session->failed())
            m_session->finish(true, &error);
        m_session.reset(); // it reads the runner's stop reason: gone before the runner
        m_runner.reset();
    }
    release();
    m_active = false;
}

void SweepPipeline::release()
{
    if (m_tokenize) {
        m_tokenize->cancel();
        m_tokenize.release()->deleteLater();
    }
    m_prepared.reset();
    if (m_probe) {
        disconnect(m_probe.get(), nullptr, this, nullptr);
        m_probe.release()->deleteLater();
    }
    if (m_runner) {
        disconnect(m_runner.get(), nullptr, this, nullptr);
        m_runner.release()->deleteLater();
    }
    m_session.reset();
    if (m_simulator)
        m_simulator->stop();
    m_simulator.reset();
}

} // namespace kp
