#include "kit/sweepworker.h"

#include "kit/uiformat.h"
#include "serve/serversweepdriver.h"
#include "sweep/analysistext.h"
#include "twin/twin.h"

#include <QDir>
#include <QFileInfo>
#include <QLocale>

#include <cmath>

namespace kp::ui {

namespace {

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

void SweepWorker::start(const Profile& profile, const QString& runsDirectory, bool allowHighLoad,
    const std::optional<PeakDemand>& peak, const Redundancy& redundancy)
{
    if ((m_pipeline && m_pipeline->isActive()) || (m_serve && m_serve->isActive()))
        return;
    m_runsDirectory = runsDirectory;
    m_allowHighLoad = allowHighLoad;
    m_peak = peak;
    m_redundancy = redundancy;
    m_stopRequested = false;
    if (hasServerSweep(profile))
        startServerSweep(profile);
    else
        startPipeline(profile, QString());
}

void SweepWorker::startPipeline(const Profile& profile, const QString& runDir)
{
    m_heldSnapshot.reset();
    // A new pipeline per sweep: the last one may still be unwinding its signal.
    if (m_pipeline)
        m_pipeline.release()->deleteLater();
    m_pipeline = std::make_unique<SweepPipeline>();
    connectPipeline();
    m_targetWords = displayUrl(profile.target.baseUrl);

    SweepPipelineOptions options;
    options.profile = profile;
    options.runDir = runDir; // a server sweep's combination: its folder in the group
    options.runsRoot = m_runsDirectory; // result files: the run folder's results/ unless the profile says
    options.analysis = analysisOptionsFor(profile.slo);
    options.peak = m_peak;
    options.redundancy = m_redundancy;
    // The start dialog asked about each of these; a load past the limits only when the user went ahead.
    options.consent.highLoad = m_allowHighLoad;
    options.consent.remoteLoad = true;
    options.consent.insecureKey = true;
    options.consent.fileLimit = true;
    m_pipeline->start(std::move(options));
    if (m_pipeline->isActive())
        Q_EMIT message(tr("Preflight: checking %1").arg(displayUrl(profile.target.baseUrl)));
}

void SweepWorker::startServerSweep(const Profile& profile)
{
    if (m_serve)
        m_serve.release()->deleteLater();
    m_serve = std::make_unique<ServerSweepDriver>();
    connectDriver();
    ServerSweepOptions options;
    options.profile = profile;
    options.runsRoot = m_runsDirectory;
    m_serve->start(std::move(options));
}

void SweepWorker::connectDriver()
{
    ServerSweepDriver* d = m_serve.get();
    auto status = [this](ServerSweepStatus::Phase phase, const ServerSweepStep& step, const QString& detail = {},
                      double readyS = 0) {
        ServerSweepStatus s;
        s.phase = phase;
        s.index = step.index;
        s.count = step.count;
        s.label = step.label;
        s.detail = detail;
        s.readyS = readyS;
        s.groupDir = QFileInfo(step.runDir).absolutePath();
        Q_EMIT serverSweepChanged(s);
    };
    connect(d, &ServerSweepDriver::failed, this, [this](const ServerSweepFailure& failure) {
        Q_EMIT failed(tr("The server sweep cannot run: %1").arg(failure.message));
    });
    connect(d, &ServerSweepDriver::groupStarted, this, [this](const ServerGroupStart& start) {
        Q_EMIT message(tr("Server sweep: %n configuration(s), one after another, into %1", nullptr, start.count)
                           .arg(start.groupDir));
    });
    connect(d, &ServerSweepDriver::combinationSkipped, this, [this](const ServerSweepStep& step) {
        Q_EMIT message(tr("Server sweep %1 of %2: %3 finished before, skipped")
                           .arg(step.index + 1)
                           .arg(step.count)
                           .arg(step.label));
    });
    connect(d, &ServerSweepDriver::combinationStarted, this, [this, status](const ServerSweepStep& step) {
        Q_EMIT message(tr("Server sweep %1 of %2: %3").arg(step.index + 1).arg(step.count).arg(step.label));
        status(ServerSweepStatus::Phase::Starting, step);
    });
    connect(d, &ServerSweepDriver::serverStarting, this, [this](const ServerSweepStep&, const QString& command) {
        Q_EMIT message(tr("Server: %1").arg(redactCommandSecrets(command)));
    });
    connect(d, &ServerSweepDriver::serverReady, this,
        [this, status](const ServerSweepStep& step, double seconds, const QString& baseUrl) {
            Q_EMIT message(tr("Server ready after %1 s at %2").arg(seconds, 0, 'f', 1).arg(displayUrl(baseUrl)));
            status(ServerSweepStatus::Phase::Ready, step, displayUrl(baseUrl), seconds);
        });
    connect(d, &ServerSweepDriver::combinationFailed, this,
        [this, status](const ServerSweepStep& step, const QString& error) {
            Q_EMIT message(tr("Error: %1").arg(error));
            status(ServerSweepStatus::Phase::Failed, step, error);
        });
    connect(d, &ServerSweepDriver::sweepRequested, this, [this](const ServerSweepStep& step, const Profile& profile) {
        Q_EMIT nextRun();
        startPipeline(profile, step.runDir);
        // A sweep that failed at once (its folder, its profile) has told pipelineEnded already.
    });
    connect(d, &ServerSweepDriver::serverExited, this, [this](const ServerSweepStep&, const QString& description) {
        Q_EMIT message(tr("Error: %1; stopping the sweep").arg(description));
        if (m_pipeline)
            m_pipeline->stop(QStringLiteral("cancelled: %1").arg(description));
    });
    connect(d, &ServerSweepDriver::serverStopping, this, [this, status](const ServerSweepStep& step) {
        Q_EMIT message(tr("Stopping the server (%1)").arg(step.label));
        status(ServerSweepStatus::Phase::Stopping, step);
    });
    connect(d, &ServerSweepDriver::serverStopped, this, [this](const ServerSweepStep&, const QString& problem) {
        if (!problem.isEmpty())
            Q_EMIT message(tr("Warning: %1").arg(problem));
    });
    connect(d, &ServerSweepDriver::groupWriteFailed, this,
        [this](const QString& error) { Q_EMIT message(tr("Error: %1").arg(error)); });
    connect(d, &ServerSweepDriver::finished, this, [this](const ServerSweepEnd& end) {
        m_heldSnapshot.reset();
        ServerSweepResult result;
        result.groupDir = end.groupDir;
        result.comparison = end.comparison;
        result.interrupted = end.interrupted;
        for (const ServerRunFigures& r : end.comparison.runs) {
            if (r.measured)
                result.runDirs << QDir(end.groupDir).filePath(r.outcome.dir);
        }
        if (!end.comparison.bestSentence.isEmpty())
            Q_EMIT message(end.comparison.bestSentence);
        Q_EMIT message(tr("Server sweep: %1").arg(end.groupFile));
        Q_EMIT serverSweepFinished(result);
        Q_EMIT finished(end.interrupted, QString());
    });
}

void SweepWorker::pipelineEnded(const QString& failure)
{
    ServerSweepRun run;
    run.stopped = m_stopRequested;
    run.failure = failure;
    m_serve->sweepDone(run);
}

void SweepWorker::connectPipeline()
{
    SweepPipeline* p = m_pipeline.get();
    connect(p, &SweepPipeline::simulatorStarted, this, [this](const QString& description) {
        m_targetWords = tr("built-in simulator (%1)").arg(description);
        Q_EMIT message(tr("Built-in simulator: %1").arg(description));
    });
    connect(p, &SweepPipeline::probeProgress, this, &SweepWorker::onProbeProgress);
    connect(p, &SweepPipeline::probeFinished, this, &SweepWorker::onProbeFinished);
    connect(p, &SweepPipeline::modelChosen, this,
        [this](const QString& model) { Q_EMIT message(tr("Model: %1 (the first the server lists)").arg(model)); });
    connect(p, &SweepPipeline::note, this, [this](const QString& text) { Q_EMIT message(text); });
    connect(p, &SweepPipeline::prepared, this, [this](const QStringList& warnings, const PromptReuse& reuse) {
        for (const QString& w : warnings)
            Q_EMIT message(tr("Warning: %1").arg(w));
        if (reuse.repeated() > 0) {
            const QLocale locale;
            Q_EMIT message(
                (reuse.atLeast ? tr("Warning: the dataset has %1 prompts for at least %2 requests: %3 % of "
                                    "requests will re-send a prompt (a prefix-caching server will look faster "
                                    "than under real traffic)")
                               : tr("Warning: the dataset has %1 prompts for %2 requests: %3 % of requests will "
                                    "re-send a prompt (a prefix-caching server will look faster than under real "
                                    "traffic)"))
                    .arg(locale.toString(reuse.distinctPrompts), locale.toString(reuse.requests))
                    .arg(std::max(1.0, std::round(reuse.share() * 100.0)), 0, 'f', 0));
        }
    });
    connect(p, &SweepPipeline::tokensCounted, this,
        [this](const TokenizeOutcome& tokens) { Q_EMIT message(tr("Input tokens: %1").arg(tokens.message)); });
    connect(p, &SweepPipeline::failed, this, &SweepWorker::onFailed);
    connect(p, &SweepPipeline::started, this, &SweepWorker::onStarted);
    connect(p, &SweepPipeline::stepStarted, this, [this](int index, const StepConfig& config) {
        m_windows.clear();
        StepConfig light = config;
        light.prompts.clear();
        Q_EMIT stepStarted(index, light);
    });
    connect(p, &SweepPipeline::snapshot, this, &SweepWorker::onSnapshot);
    // After the pipeline appended its line to windows.jsonl; a few hundred bytes per window cross.
    connect(p, &SweepPipeline::windowFinished, this, [this](const SoakWindow& window) {
        m_windows.push_back(SoakWindowFigures::from(window));
        Q_EMIT windowFinished(m_windows.back());
    });
    connect(p, &SweepPipeline::serverSample, this, &SweepWorker::serverSample);
    connect(p, &SweepPipeline::serverReported, this,
        [this](const ServerFacts& facts) { Q_EMIT serverReported(facts.toJson()); });
    connect(p, &SweepPipeline::pausedChanged, this, &SweepWorker::pausedChanged);
    connect(p, &SweepPipeline::stepFinished, this, &SweepWorker::onStepFinished);
    connect(p, &SweepPipeline::writeFailed, this,
        [this](const QString& error) { Q_EMIT message(tr("Error: %1; stopping").arg(error)); });
    connect(p, &SweepPipeline::finished, this, [this](const SweepEnd& end) {
        m_heldSnapshot.reset();
        if (!end.closeError.isEmpty())
            Q_EMIT message(tr("Error: %1").arg(end.closeError));
        if (m_serve && m_serve->isSweeping()) {
            if (!end.stopReasonText.isEmpty())
                Q_EMIT message(tr("Stopped escalating: %1").arg(end.stopReasonText));
            pipelineEnded(end.closeError);
            return;
        }
        Q_EMIT finished(end.stopped, end.stopReasonText);
    });
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
    QStringList checks;
    for (const ProbeCheck& c : report.checks) {
        checks << (c.skipped
                ? tr("%1 skipped").arg(c.name)
                : tr("%1 %2 (%3 ms)").arg(c.name, c.ok ? tr("ok") : tr("failed")).arg(c.latencyMs, 0, 'f', 1));
    }
    Q_EMIT message(tr("Preflight: %1").arg(UiFormat::joined(checks)));
}

void SweepWorker::onFailed(const SweepFailure& failure)
{
    m_heldSnapshot.reset();
    QString text;
    switch (failure.stage) {
    case SweepFailure::Stage::Profile:
        text = tr("The profile cannot run: %1").arg(failure.message);
        break;
    case SweepFailure::Stage::Folder:
        text = tr("The run cannot be saved: %1").arg(failure.message);
        break;
    case SweepFailure::Stage::Preflight:
        text = preflightFailure(failure.probe);
        break;
    case SweepFailure::Stage::Safety:
        text = tr("The sweep was not started: %1").arg(failure.message);
        break;
    default:
        text = failure.message;
        break;
    }
    if (m_serve && m_serve->isSweeping()) {
        pipelineEnded(text);
        return;
    }
    Q_EMIT failed(text);
}

void SweepWorker::onStarted(const SweepStart& start)
{
    RunInfo info;
    info.profile = start.profile;
    info.target = m_targetWords;
    info.runDirectory = start.runDir;
    info.preview = start.config.planner.preview();
    const Plan& plan = start.profile.load.plan;
    info.fixedPlan = plan.kind != PlanKind::Auto && !plan.refine && plan.repeats == 0;
    info.numPrompts = start.config.stepTemplate.numPrompts;
    info.stepDurationS = start.config.stepDurationS;
    info.cooldownS = start.config.cooldownS;
    info.warmupRequests = start.config.stepTemplate.warmupRequests;
    info.analysisOptions = start.analysis;
    info.warnings = start.warnings;
    Q_EMIT message(tr("Run directory: %1").arg(info.runDirectory));
    Q_EMIT started(info);
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

void SweepWorker::onStepFinished(const StepResult& result, const RunSession::StepRecord& recorded)
{
    m_heldSnapshot.reset();
    if (!recorded.resultError.isEmpty())
        Q_EMIT message(tr("Error: %1").arg(recorded.resultError));
    const Profile& profile = m_pipeline->profile();
    StepReport report
        = makeStepReport(result, profile, m_pipeline->headers(), m_pipeline->serverModels(), m_pipeline->maxModelLen());
    report.windows = std::move(m_windows);
    m_windows.clear();
    if (!report.partial && !report.clientBound && result.config.mode == profile.load.mode)
        report.fit = std::make_shared<const twin::FitStep>(
            twin::fitStepFromRecords(result.config.mode, report.offered(), result.config.burstiness, result.records));
    RunAnalysis analysis;
    // The session analysed the step once; its findings are worded here in the window's language.
    analysis.result = m_pipeline->session()->analysis();
    analysis.sentences = analysisText(analysis.result);
    Q_EMIT stepFinished(report);
    Q_EMIT analysisChanged(analysis);
}

void SweepWorker::stop()
{
    // A server sweep ends after this combination, its server stopped; what was measured stays.
    if (m_serve && m_serve->isActive()) {
        m_stopRequested = true;
        m_serve->stop();
    }
    if (m_pipeline)
        m_pipeline->stop();
}

void SweepWorker::pause()
{
    if (m_pipeline)
        m_pipeline->pause();
}

void SweepWorker::resume()
{
    if (m_pipeline)
        m_pipeline->resume();
}

void SweepWorker::addStep(const PlannedStep& step)
{
    if (!m_pipeline || !m_pipeline->runner())
        return;
    m_pipeline->addStep(step);
    Q_EMIT message(tr("Added a step: %1 (%2)").arg(UiFormat::loadText(step.mode, step.load), step.detail));
}

void SweepWorker::shutdown()
{
    if (m_pipeline) {
        disconnect(m_pipeline.get(), nullptr, this, nullptr);
        m_pipeline->shutdown();
    }
    if (m_serve) {
        disconnect(m_serve.get(), nullptr, this, nullptr);
        m_serve.reset(); // stops its server
    }
    m_heldSnapshot.reset();
}

} // namespace kp::ui
