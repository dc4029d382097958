#include "run/sweepworker.h"

#include "client/tokenizeprepass.h"
#include "client/transport.h"
#include "metrics/phrase.h"
#include "run/uiformat.h"
#include "runs/runcatalog.h"
#include "store/runwriter.h"
#include "sweep/analysistext.h"
#include "sweep/builtinsimulator.h"
#include "sweep/runsession.h"
#include "sweep/sweepplan.h"
#include "twin/twin.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>

namespace kp::ui {

namespace {

Q_LOGGING_CATEGORY(lcRun, "kneepoint.ui.run")

// Snapshots the GUI has not taken yet; past this the worker merges them instead of queueing more.
constexpr int kMaxPendingSnapshots = 2;
// Samples a merged snapshot keeps when the GUI falls behind (the live chart keeps fewer anyway).
constexpr std::size_t kMaxMergedSamples = 20000;

QString preflightFailure(const ProbeReport& report)
{
    QStringList lines { QObject::tr("The target failed the preflight check; no load was sent.") };
    // Skipped checks are the ones after the first failure: the failures say why.
    for (const ProbeCheck& c : report.checks) {
        if (c.ok || c.skipped)
            continue;
        QString line = c.tries > 1
            ? QObject::tr("%1 (%2), after %3 tries: %4").arg(c.name, c.url).arg(c.tries).arg(c.detail)
            : QObject::tr("%1 (%2): %3").arg(c.name, c.url, c.detail);
        if (!c.hint.isEmpty())
            line += QStringLiteral(" — ") + c.hint;
        lines << line;
    }
    return lines.join(u'\n');
}

} // namespace

SweepWorker::SweepWorker(std::shared_ptr<std::atomic<int>> pendingSnapshots, QObject* parent)
    : QObject(parent)
    , m_pendingSnapshots(std::move(pendingSnapshots))
{ }

SweepWorker::~SweepWorker()
{
    shutdown();
}

void SweepWorker::start(const Profile& profile, const QString& runsDirectory, bool allowHighLoad)
{
    if (m_active)
        return;
    release();
    m_active = true;
    m_profile = profile;
    m_runsDirectory = runsDirectory;
    m_allowHighLoad = allowHighLoad;
    m_heldSnapshot.reset();
    m_serverModels.clear();
    m_maxModelLen.reset();

    const QList<ProfileIssue> issues = validateProfile(m_profile);
    if (!issues.isEmpty()) {
        QStringList lines;
        for (const ProfileIssue& issue : issues)
            lines << issue.toString();
        fail(tr("The profile cannot run: %1").arg(lines.join(QStringLiteral("; "))));
        return;
    }
    // Where the run is written is checked before anything is sent: a read-only or misplaced folder
    // would otherwise be found after the preflight and the /tokenize pass.
    QStringList folders { m_runsDirectory };
    if (m_profile.output.saveResult && QDir::isAbsolutePath(m_profile.output.resultDir))
        folders << m_profile.output.resultDir;
    for (const QString& folder : folders) {
        QString error;
        if (!checkWritableDirectory(folder, &error)) {
            fail(tr("The run cannot be saved: %1").arg(error));
            return;
        }
    }
    if (m_profile.target.isBuiltinSimulator()) {
        m_simulator = std::make_unique<BuiltinSimulator>();
        QString error;
        if (!m_simulator->start(m_profile, &error)) {
            fail(error);
            return;
        }
        m_targetWords = tr("built-in simulator (%1)").arg(m_simulator->description());
        Q_EMIT message(tr("Built-in simulator: %1").arg(m_simulator->description()));
    } else {
        m_targetWords = displayUrl(m_profile.target.baseUrl);
    }

    ProbeTarget target;
    target.target = m_profile.target;
    QString error;
    target.headers = requestHeaders(m_profile.target, &error);
    if (!error.isEmpty()) {
        fail(error);
        return;
    }
    target.transport = transportOptions(m_profile.target);
    m_headers = target.headers;
    m_probe = std::make_unique<Probe>();
    connect(m_probe.get(), &Probe::finished, this, &SweepWorker::onProbeFinished);
    connect(m_probe.get(), &Probe::progress, this, &SweepWorker::onProbeProgress);
    Q_EMIT message(tr("Preflight: checking %1").arg(displayUrl(m_profile.target.baseUrl)));
    m_probe->start(target);
}

void SweepWorker::onProbeProgress(const ProbeProgress& progress)
{
    switch (progress.kind) {
    case ProbeProgress::Kind::Checking:
        Q_EMIT message(tr("Preflight: checking %1 (%2)").arg(progress.check, progress.url));
        break;
    case ProbeProgress::Kind::StillWaiting:
        Q_EMIT message(
            tr("Preflight: still waiting for %1 (%2 s of at most %3 s)")
                .arg(progress.url, QString::number(progress.seconds, 'f', 0), QString::number(progress.limitS)));
        break;
    case ProbeProgress::Kind::Retrying:
        Q_EMIT message((progress.retryAfter
                ? tr("Preflight: %1 failed (%2), retrying in %3 s as its Retry-After asks (try %4 of %5)")
                : tr("Preflight: %1 failed (%2), retrying in %3 s (try %4 of %5)"))
                           .arg(progress.check, progress.reason, QString::number(progress.seconds, 'f', 1))
                           .arg(progress.tryNumber)
                           .arg(progress.maxTries));
        break;
    }
}

void SweepWorker::onProbeFinished(const ProbeReport& report)
{
    // Called from the probe's own signal: it goes once control is back in the event loop.
    m_probe.release()->deleteLater();
    QStringList checks;
    for (const ProbeCheck& c : report.checks) {
        checks << (c.skipped
                ? tr("%1 skipped").arg(c.name)
                : tr("%1 %2 (%3 ms)").arg(c.name, c.ok ? tr("ok") : tr("failed")).arg(c.latencyMs, 0, 'f', 1));
    }
    Q_EMIT message(tr("Preflight: %1").arg(UiFormat::joined(checks)));
    if (!report.ok()) {
        fail(preflightFailure(report));
        return;
    }
    m_serverModels = report.models;
    m_maxModelLen = report.maxModelLen;
    if (m_profile.target.model.isEmpty() && !m_serverModels.isEmpty()) {
        m_profile.target.model = m_serverModels.constFirst();
        Q_EMIT message(tr("Model: %1 (the first the server lists)").arg(m_profile.target.model));
    }
    if (m_profile.target.model.isEmpty()) {
        fail(tr("target.model: required, and %1 lists no model").arg(displayUrl(m_profile.target.baseUrl)));
        return;
    }
    beginSweep();
}

void SweepWorker::beginSweep()
{
    m_prepared = std::make_unique<PreparedSweep>(prepareSweep(m_profile));
    for (const QString& w : m_prepared->warnings)
        Q_EMIT message(tr("Warning: %1").arg(w));
    if (!m_prepared->ok()) {
        fail(m_prepared->error);
        return;
    }
    if (m_allowHighLoad)
        m_prepared->config.planner.setLoadLimits(std::nullopt);
    // Input tokens: the server's /tokenize when it has one, counted once before the run as the CLI does,
    // else its usage.prompt_tokens. A stop meanwhile cancels it (release()). Prompts made as each request
    // is sent cannot be counted before: the run goes on from the event loop, as after the pre-pass.
    if (promptsMadePerRequest(m_prepared->config.stepTemplate)) {
        // A stop before then releases this sweep's preparation: nothing is left to go on with.
        const PreparedSweep* prepared = m_prepared.get();
        QMetaObject::invokeMethod(
            this,
            [this, prepared] {
                if (m_prepared && m_prepared.get() == prepared)
                    onTokensCounted(promptsMadePerRequestOutcome());
            },
            Qt::QueuedConnection);
        return;
    }
    m_tokenize = std::make_unique<TokenizePrepass>();
    connect(m_tokenize.get(), &TokenizePrepass::finished, this, &SweepWorker::onTokensCounted);
    m_tokenize->start(m_prepared->config.stepTemplate.request, m_prepared->config.transport,
        &m_prepared->config.stepTemplate.prompts);
}

void SweepWorker::onTokensCounted(const TokenizeOutcome& tokens)
{
    // Called from the pre-pass's own signal: it goes once control is back in the event loop.
    if (m_tokenize)
        m_tokenize.release()->deleteLater();
    std::unique_ptr<PreparedSweep> owned = std::move(m_prepared);
    PreparedSweep& prepared = *owned;
    if (tokens.available)
        prepared.config.metrics.inputTokenSource = InputTokenSource::ServerTokenize;
    Q_EMIT message(tr("Input tokens: %1").arg(tokens.message));
    // Keep the plan for run.json without a second copy of the prompts.
    std::vector<Prompt> prompts = std::move(prepared.config.stepTemplate.prompts);
    m_config = prepared.config;
    prepared.config.stepTemplate.prompts = std::move(prompts);

    m_analysisOptions = kp::analysisOptionsFor(m_profile.slo);
    m_analysisOptions.mode = m_profile.load.mode; // an auto plan's one-user floor stays off a rate sweep's axis
    const QString dir = newRunDirectory(m_runsDirectory, m_profile.name);
    RunSessionOptions options;
    options.profile = m_profile;
    options.planned = m_config.planner.preview();
    options.analysis = m_analysisOptions;
    // Result files go beside the run's own records (results/) unless the profile names a directory.
    options.resultDir = QDir(dir).filePath(
        m_profile.output.resultDir.isEmpty() ? QStringLiteral("results") : m_profile.output.resultDir);
    m_session = std::make_unique<RunSession>(std::move(options));
    QString error;
    if (!QDir().mkpath(m_runsDirectory) || !m_session->open(dir, &error)) {
        fail(error.isEmpty() ? tr("cannot create the run directory %1").arg(dir) : error);
        return;
    }

    RunInfo info;
    info.profile = m_profile;
    info.target = m_targetWords;
    info.runDirectory = m_session->dir();
    info.preview = m_config.planner.preview();
    const Plan& plan = m_profile.load.plan;
    info.fixedPlan = plan.kind != PlanKind::Auto && !plan.refine && plan.repeats == 0;
    info.numPrompts = m_config.stepTemplate.numPrompts;
    info.stepDurationS = m_config.stepDurationS;
    info.cooldownS = m_config.cooldownS;
    info.warmupRequests = m_config.stepTemplate.warmupRequests;
    info.analysisOptions = m_analysisOptions;
    info.warnings = prepared.warnings;

    m_runner = std::make_unique<SweepRunner>();
    m_session->setRunner(m_runner.get());
    connect(m_runner.get(), &SweepRunner::stepStarted, this, [this](int index, const StepConfig& config) {
        QString writeError;
        if (m_session && !m_session->beginStep(config, &writeError))
            writeFailed(writeError);
        StepConfig light = config;
        light.prompts.clear();
        Q_EMIT stepStarted(index, light);
    });
    connect(m_runner.get(), &SweepRunner::snapshot, this, &SweepWorker::onSnapshot);
    connect(m_runner.get(), &SweepRunner::requestFinished, this, &SweepWorker::onRequestFinished);
    connect(m_runner.get(), &SweepRunner::stepFinished, this, &SweepWorker::onStepFinished);
    connect(m_runner.get(), &SweepRunner::finished, this, &SweepWorker::onRunnerFinished);
    connect(m_runner.get(), &SweepRunner::pausedChanged, this, &SweepWorker::pausedChanged);
    connect(m_runner.get(), &SweepRunner::note, this, [this](const QString& text) { Q_EMIT message(text); });
    connect(m_runner.get(), &SweepRunner::serverSample, this, &SweepWorker::serverSample);
    // The server has answered /version, /v1/models and /metrics by the time the first step starts.
    connect(m_runner.get(), &SweepRunner::stepStarted, this, [this](int index) {
        if (index == 0)
            Q_EMIT serverReported(m_runner->serverFacts().toJson());
    });
    Q_EMIT message(tr("Run directory: %1").arg(info.runDirectory));
    Q_EMIT started(info);
    m_runner->start(std::move(prepared.config));
}

void SweepWorker::onSnapshot(const LiveSnapshot& snapshot)
{
    LiveSnapshot s = snapshot;
    if (m_heldSnapshot && m_heldSnapshot->step == s.step) {
        std::vector<LatencySample> merged = std::move(m_heldSnapshot->recent);
        merged.insert(merged.end(), s.recent.begin(), s.recent.end());
        if (merged.size() > kMaxMergedSamples)
            merged.erase(merged.begin(), merged.end() - std::ptrdiff_t(kMaxMergedSamples));
        s.recent = std::move(merged);
    }
    if (m_pendingSnapshots->load() >= kMaxPendingSnapshots) {
        m_heldSnapshot = std::move(s);
        return;
    }
    m_heldSnapshot.reset();
    m_pendingSnapshots->fetch_add(1);
    Q_EMIT this->snapshot(s);
}

void SweepWorker::onRequestFinished(int stepIndex, const RequestRecord& record)
{
    QString error;
    if (m_session && !m_session->appendRequest(stepIndex, record, &error))
        writeFailed(error);
}

void SweepWorker::writeFailed(const QString& error)
{
    Q_EMIT message(tr("Error: %1; stopping").arg(error));
    if (m_runner)
        m_runner->stop(RunSession::writeFailedCancel());
}

void SweepWorker::onStepFinished(const StepResult& result)
{
    m_heldSnapshot.reset();
    RunSession::StepRecord recorded;
    QString error;
    if (!m_session->finishStep(result, &recorded, &error))
        writeFailed(error);
    if (!recorded.resultError.isEmpty())
        Q_EMIT message(tr("Error: %1").arg(recorded.resultError));

    StepReport report = makeStepReport(result, m_profile, m_headers, m_serverModels, m_maxModelLen);
    if (!report.partial && !report.clientBound && result.config.mode == m_profile.load.mode)
        report.fit = std::make_shared<const twin::FitStep>(
            twin::fitStepFromRecords(result.config.mode, report.offered(), result.config.burstiness, result.records));
    RunAnalysis analysis;
    // The session analysed the step once; its findings are worded here in the window's language.
    analysis.result = m_session->analysis();
    analysis.sentences = analysisText(analysis.result);
    Q_EMIT stepFinished(report);
    Q_EMIT analysisChanged(analysis);
}

void SweepWorker::onRunnerFinished(bool stopped)
{
    const QString reason = m_runner->stopReasonText();
    QString error;
    if (m_session && !m_session->finish(stopped, &error))
        Q_EMIT message(tr("Error: %1").arg(error));
    // Called from the runner's own signal: it goes once control is back in the event loop.
    m_runner.release()->deleteLater();
    release();
    m_active = false;
    Q_EMIT finished(stopped, reason);
}

void SweepWorker::stop()
{
    if (!m_active)
        return;
    if (m_runner) {
        m_runner->stop();
        return;
    }
    // Still in the preflight: nothing ran, nothing to keep.
    release();
    m_active = false;
    Q_EMIT finished(true, QString());
}

void SweepWorker::pause()
{
    if (m_runner)
        m_runner->pause();
}

void SweepWorker::resume()
{
    if (m_runner)
        m_runner->resume();
}

void SweepWorker::addStep(const PlannedStep& step)
{
    if (!m_runner)
        return;
    m_runner->addStep(step);
    Q_EMIT message(tr("Added a step: %1 (%2)").arg(UiFormat::loadText(step.mode, step.load), step.detail));
}

void SweepWorker::fail(const QString& text)
{
    release();
    m_active = false;
    Q_EMIT failed(text);
}

void SweepWorker::shutdown()
{
    if (m_runner) {
        disconnect(m_runner.get(), nullptr, this, nullptr);
        QString error;
        if (m_session && !m_session->finish(true, &error))
            qCWarning(lcRun, "%s", qPrintable(error));
        m_session.reset(); // it reads the runner's stop reason: gone before the runner
        m_runner.reset();
    }
    release();
    m_active = false;
}

void SweepWorker::release()
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

} // namespace kp::ui
