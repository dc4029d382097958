#include "clisweep.h"

#include "cli.h"
#include "clianalysis.h"
#include "clisoak.h"
#include "cliverbs.h"

#include "metrics/buckettable.h"
#include "metrics/stepsummary.h"
#include "metrics/sweeptable.h"
#include "sweep/analysisjson.h"
#include "sweep/runsession.h"
#include "sweep/safetyguard.h"
#include "sweep/shard.h"
#include "sweep/sweeppipeline.h"
#include "sweep/sweepplan.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonDocument>
#include <QLocale>
#include <QTimer>

#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <limits>
#include <map>
#include <unistd.h>

namespace kp::cli {

namespace {

std::atomic<int> g_interrupts { 0 };

extern "C" void onInterrupt(int)
{
    if (g_interrupts.fetch_add(1) >= 1)
        ::_exit(ExitInterrupted); // a second Ctrl-C: leave now; finished steps are already on disk
}

// One line on stderr per preflight event: the check that starts and a long wait (not with --quiet), and
// every retry (always: the server is failing).
void sayProbeProgress(const ProbeProgress& p, bool quiet)
{
    switch (p.kind) {
    case ProbeProgress::Kind::Checking:
        if (!quiet)
            say(QStringLiteral("preflight: checking %1 (%2)").arg(p.check, p.url));
        break;
    case ProbeProgress::Kind::StillWaiting:
        if (!quiet)
            say(QStringLiteral("preflight: still waiting for %1 (%2 s of at most %3 s)")
                    .arg(p.url, QString::number(p.seconds, 'f', 0), QString::number(p.limitS)));
        break;
    case ProbeProgress::Kind::Retrying:
        say(QStringLiteral("preflight: %1 failed (%2), retrying in %3 s%4 (try %5 of %6)")
                .arg(p.check, p.reason, QString::number(p.seconds, 'f', 1),
                    p.retryAfter ? QStringLiteral(" as its Retry-After asks") : QString())
                .arg(p.tryNumber)
                .arg(p.maxTries));
        break;
    }
}

void printFailures(const StepResult& result, const Profile& profile, const HeaderList& headers,
    const QStringList& models, std::optional<int> maxModelLen)
{
    if (result.windows > 0) { // a soak keeps no records: its counts by class (examples in requests.jsonl)
        for (const auto& [failure, count] : result.metrics.failuresByClass)
            say(QStringLiteral("  %1 × %2").arg(count).arg(failureClassKey(failure)));
        return;
    }
    // By class and status: a 500 and a 503 say different things and have different examples.
    std::map<std::pair<FailureClass, int>, std::pair<int, const RequestRecord*>> byClass;
    for (const RequestRecord& r : result.records) {
        if (r.success())
            continue;
        auto& entry = byClass[{ r.failure, failureGroupStatus(r) }];
        if (entry.first++ == 0)
            entry.second = &r;
    }
    FailureContext context;
    context.sentHeaders = headers;
    context.serverModels = models;
    context.maxModelLen = maxModelLen;
    context.url = profile.target.requestUrl();
    context.transport = transportOptions(profile.target);
    context.transportKnown = true;
    context.backend = profile.target.backend;
    for (const auto& [failure, entry] : byClass) {
        say(QStringLiteral("  %1 × %2: %3")
                .arg(entry.first)
                .arg(failureClassKey(failure.first), entry.second->errorMessage));
        const QString hint = failureHint(*entry.second, context);
        if (!hint.isEmpty())
            say(QStringLiteral("    hint: %1").arg(hint));
    }
}

// Grouped digits: "11,250".
QString groupedCount(qint64 n)
{
    QLocale locale(QLocale::English);
    return locale.toString(n);
}

// Words for a sweep that did not start, and its exit code.
int sayFailure(const SweepFailure& failure, qint64 confirmAboveRequests)
{
    using Stage = SweepFailure::Stage;
    switch (failure.stage) {
    case Stage::Preflight:
        say(QStringLiteral("The target failed the preflight check; no load was sent:"));
        printProbe(failure.probe);
        return ExitUnreachable;
    case Stage::InsecureKey:
        say(QStringLiteral("error: %1 (--allow-insecure-key)").arg(failure.message));
        return ExitBadInput;
    case Stage::Safety: {
        const SafetyCheck& check = failure.safety;
        if (!check.fileLimitProblem.isEmpty()) {
            say(QStringLiteral("error: %1").arg(check.fileLimitProblem));
        } else if (!check.overLimits.isEmpty()) {
            for (const QString& over : check.overLimits)
                say(QStringLiteral("error: %1").arg(over));
            say(QStringLiteral("Add --allow-high-load to go past these limits on purpose."));
        } else {
            say(QStringLiteral("error: this sweep sends %1, more than %2 requests to a machine other than this one: "
                               "add --yes to go ahead (or raise --confirm-above)")
                    .arg(check.summary)
                    .arg(confirmAboveRequests));
        }
        return ExitBadInput;
    }
    case Stage::Folder:
        say(QStringLiteral("error: %1").arg(failure.message));
        return ExitFailure;
    case Stage::Profile:
    case Stage::Options:
    case Stage::Simulator:
    case Stage::Model:
    case Stage::Dataset:
    case Stage::RunFolder:
        break;
    }
    say(QStringLiteral("error: %1").arg(failure.message));
    return ExitBadInput;
}

// One step's summary on stdout (stderr with --json), its failures and flags on stderr.
void sayStep(const StepResult& result, const RunSession::StepRecord& recorded, const SweepPipeline& pipeline,
    bool quiet, bool jsonOut)
{
    const Profile& profile = pipeline.profile();
    const StepSetup setup = stepSetup(profile, result);
    const StepMetrics& m = result.metrics;
    // With --json, stdout carries the analysis object alone; the human parts go to stderr.
    // The per-length table only when the step spans more than one prompt-length bucket.
    const QString buckets = m.populatedLengthBuckets() > 1 ? lengthBucketTable(m) : QString();
    if (jsonOut) {
        if (!quiet)
            say(QString::fromUtf8(StepSummary::text(setup, m)).chopped(1));
        if (!quiet && !buckets.isEmpty())
            say(buckets.chopped(1));
    } else {
        writeOut(StepSummary::text(setup, m));
        writeOut(buckets.toUtf8());
    }
    if (!quiet) {
        if (m.failed > 0) {
            say(QStringLiteral("  %1 of %2 requests failed:").arg(m.failed).arg(m.failed + m.completed));
            printFailures(result, profile, pipeline.headers(), pipeline.serverModels(), pipeline.maxModelLen());
        }
        if (result.partial)
            say(QStringLiteral("  step stopped early: partial results"));
        if (result.clientBound)
            say(QStringLiteral("  flagged: client-bound (%1): this step measures the client, not the server")
                    .arg(result.metrics.clientHealth.reason));
        if (!recorded.meetsSlo.value_or(true))
            say(QStringLiteral("  SLO not met: %1").arg(recorded.sloReason));
        if (const QString tokens = m.inputTokenWarning(); !tokens.isEmpty())
            say(QStringLiteral("  warning: %1").arg(tokens));
        for (const auto& [event, count] : m.unknownEvents)
            say(QStringLiteral("  warning: %1 of %2 completed requests carried stream events of unknown type "
                               "\"%3\" (ignored)")
                    .arg(count)
                    .arg(m.completed)
                    .arg(event));
        if (m.moreUnknownEvents)
            say(QStringLiteral("  warning: and stream events of more unknown types than these %1 (ignored, not "
                               "listed)")
                    .arg(m.unknownEvents.size()));
        if (result.server.stats)
            say(QStringLiteral("  ")
                + result.server.stats->summary(
                    m.completed > 0 && isKnown(m.ttft.mean) ? std::optional(m.ttft.mean) : std::nullopt));
    }
    if (!recorded.resultError.isEmpty())
        say(QStringLiteral("error: %1").arg(recorded.resultError));
    else if (!recorded.resultFile.isEmpty() && !quiet)
        say(QStringLiteral("  result: %1").arg(recorded.resultFile));
}

} // namespace

ProbeReport probe(const Profile& profile, QString* error, bool quiet)
{
    ProbeTarget target;
    target.target = profile.target;
    target.headers = requestHeaders(profile.target, error);
    target.transport = transportOptions(profile.target);
    ProbeReport report;
    if (!error->isEmpty())
        return report;
    Probe probe;
    QEventLoop loop;
    QObject::connect(&probe, &Probe::progress, &loop, [quiet](const ProbeProgress& p) { sayProbeProgress(p, quiet); });
    QObject::connect(&probe, &Probe::finished, &loop, [&](const ProbeReport& r) {
        report = r;
        loop.quit();
    });
    probe.start(target);
    loop.exec();
    return report;
}

void printProbe(const ProbeReport& report)
{
    for (const ProbeCheck& c : report.checks) {
        const QString mark = c.skipped ? QStringLiteral("skip")
            : c.ok                     ? QStringLiteral(" ok ")
                                       : QStringLiteral("FAIL");
        const QString tries = c.tries > 1 ? QStringLiteral("%1 tries, ").arg(c.tries) : QString();
        say(QStringLiteral("[%1] %2  %3  %4%5")
                .arg(mark, c.name.leftJustified(10), c.url)
                .arg(c.skipped ? QString() : QStringLiteral("(%1%2 ms) ").arg(tries).arg(c.latencyMs, 0, 'f', 1),
                    c.detail));
        if (!c.hint.isEmpty())
            say(QStringLiteral("       hint: %1").arg(c.hint));
    }
    for (const QString& n : report.notes)
        say(QStringLiteral("note: %1").arg(n));
}

void sayPromptReuse(const PromptReuse& reuse)
{
    if (reuse.repeated() <= 0)
        return;
    say(QStringLiteral("note: The dataset has %1 prompts for %2%3 requests: %4 % of requests will re-send a prompt "
                       "(a prefix-caching server will look faster than under real traffic)")
            .arg(groupedCount(reuse.distinctPrompts), reuse.atLeast ? QStringLiteral("at least ") : QString(),
                groupedCount(reuse.requests))
            .arg(std::max(1.0, std::round(reuse.share() * 100.0)), 0, 'f', 0));
}

QString formatLoadList(const Profile& profile)
{
    QStringList loads;
    for (const PlannedStep& step : SweepPlanner(profile.load, profile.slo).preview())
        loads << formatLoad(step.mode, step.load);
    return loads.join(QStringLiteral(", "));
}

int runSweep(const QCommandLineParser& p, const Options& o, Profile profile, bool sweep, const SweepHooks* hooks)
{
    const bool soak = profile.load.soak;
    const bool quiet = p.isSet(o.quiet);
    const bool jsonOut = p.isSet(o.json);
    std::optional<SweepPipelineOptions> options = sweepOptions(p, o, std::move(profile), sweep);
    if (!options)
        return ExitBadInput;
    if (hooks && !hooks->runDir.isEmpty())
        options->runDir = hooks->runDir;
    const qint64 confirmAbove = options->limits.confirmAboveRequests;

    SweepPipeline pipeline;
    QEventLoop loop;
    int exitCode = ExitOk;
    int stepsMeetingSlo = 0;
    bool anyCompleted = false;
    bool stopped = false;
    bool fixedPlan = false;
    int plannedCount = 0;
    QByteArray table;
    const bool tty = ::isatty(STDERR_FILENO) != 0;
    QElapsedTimer sinceProgress;
    sinceProgress.start();

    QObject::connect(&pipeline, &SweepPipeline::simulatorStarted, &loop, [quiet](const QString& description) {
        if (!quiet)
            say(QStringLiteral("built-in simulator: %1").arg(description));
    });
    QObject::connect(&pipeline, &SweepPipeline::probeProgress, &loop,
        [quiet](const ProbeProgress& progress) { sayProbeProgress(progress, quiet); });
    QObject::connect(&pipeline, &SweepPipeline::modelChosen, &loop, [quiet](const QString& model) {
        if (!quiet)
            say(QStringLiteral("model: %1 (the first the server lists)").arg(model));
    });
    QObject::connect(&pipeline, &SweepPipeline::note, &loop, [quiet](const QString& text) {
        if (!quiet)
            say(QStringLiteral("note: %1").arg(text));
    });
    QObject::connect(
        &pipeline, &SweepPipeline::prepared, &loop, [quiet](const QStringList& warnings, const PromptReuse& reuse) {
            for (const QString& w : warnings)
                say(QStringLiteral("warning: %1").arg(w));
            if (!quiet)
                sayPromptReuse(reuse);
        });
    QObject::connect(&pipeline, &SweepPipeline::tokensCounted, &loop, [quiet](const TokenizeOutcome& tokens) {
        if (!quiet)
            say(QStringLiteral("note: %1").arg(tokens.message));
    });
    QObject::connect(&pipeline, &SweepPipeline::safetyChecked, &loop, [quiet](const SafetyCheck& check) {
        if (!check.loopback && !quiet)
            say(QStringLiteral("sending %1").arg(check.summary));
    });
    QObject::connect(&pipeline, &SweepPipeline::failed, &loop, [&](const SweepFailure& failure) {
        exitCode = sayFailure(failure, confirmAbove);
        loop.quit();
    });
    QObject::connect(&pipeline, &SweepPipeline::started, &loop, [&](const SweepStart& start) {
        const Plan& plan = start.profile.load.plan;
        fixedPlan = plan.kind != PlanKind::Auto && !plan.refine && plan.repeats == 0;
        plannedCount = static_cast<int>(start.config.planner.preview().size());
        g_interrupts = 0;
        std::signal(SIGINT, onInterrupt);
        std::signal(SIGTERM, onInterrupt);
        const ShardSpec& shard = start.config.shard;
        const StepAlignment& alignment = start.config.alignment;
        if (!quiet && (shard.active() || alignment.active()))
            say(QStringLiteral("%1%2").arg(shard.active()
                    ? QStringLiteral("shard %1: 1/%2 of each step's load; ").arg(shard.toString()).arg(shard.count)
                    : QString(),
                alignment.active()
                    ? QStringLiteral("step 1 starts at %1%2")
                          .arg(alignment.startAt->toUTC().toString(Qt::ISODateWithMs),
                              alignment.intervalS > 0 ? QStringLiteral(", then one every %1 s").arg(alignment.intervalS)
                                                      : QString())
                    : QStringLiteral("steps start at once")));
        if (alignment.active() && QDateTime::currentDateTimeUtc() > *alignment.startAt)
            say(QStringLiteral("warning: --start-at %1 has passed: step 1 starts now, late for the shared start")
                    .arg(alignment.startAt->toUTC().toString(Qt::ISODateWithMs)));
    });
    // A write of the run directory failed: say so once; the pipeline stops the sweep.
    QObject::connect(&pipeline, &SweepPipeline::writeFailed, &loop, [&](const QString& error) {
        say(QStringLiteral("error: %1; stopping").arg(error));
        exitCode = ExitFailure;
    });
    QObject::connect(&pipeline, &SweepPipeline::stepStarted, &loop, [&](int index, const StepConfig& step) {
        if (!quiet)
            say(QStringLiteral("step %1%2: %3, %4 requests%5")
                    .arg(index + 1)
                    .arg(fixedPlan ? QStringLiteral("/%1").arg(plannedCount)
                                   : QStringLiteral(" (%1%2)").arg(step.purpose,
                                       step.detail.isEmpty() ? QString() : QStringLiteral(": ") + step.detail))
                    .arg(loadLabel(step))
                    .arg(step.numPrompts == std::numeric_limits<int>::max()
                            ? QStringLiteral("%1 s of").arg(step.durationS)
                            : QString::number(step.numPrompts))
                    .arg(step.warmupRequests > 0 ? QStringLiteral(" (after %1 warm-up)").arg(step.warmupRequests)
                                                 : QString()));
    });
    QObject::connect(&pipeline, &SweepPipeline::snapshot, &loop, [&](const LiveSnapshot& s) {
        if (quiet || !tty || sinceProgress.elapsed() < 500)
            return;
        sinceProgress.restart();
        const QString line = s.warmingUp ? QStringLiteral("  warming up…")
                                         : QStringLiteral("  %1/%2 done, %3 in flight, %4 failed, %5 s")
                                               .arg(s.completed + s.failed)
                                               .arg(s.planned == std::numeric_limits<int>::max() ? s.sent : s.planned)
                                               .arg(s.inFlight)
                                               .arg(s.failed)
                                               .arg(s.elapsedS, 0, 'f', 1);
        const QByteArray bytes = "\r" + line.leftJustified(60).toUtf8();
        std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stderr);
        std::fflush(stderr);
    });
    if (soak && !quiet)
        QObject::connect(&pipeline, &SweepPipeline::started, &loop, [quiet](const SweepStart& start) {
            if (!quiet)
                say(QStringLiteral("soak: %1 s at %2 req/s, a line every %3 s window; run directory: %4")
                        .arg(start.profile.load.soakDurationS)
                        .arg(start.profile.load.rates.value(0))
                        .arg(start.profile.load.soakWindowS)
                        .arg(start.runDir));
        });
    // A soak's windows: a line each, as the window closes (its line is in steps/NNN.windows.jsonl by then).
    QObject::connect(&pipeline, &SweepPipeline::windowFinished, &loop, [&](const SoakWindow& window) {
        if (!quiet && tty)
            std::fputs("\r\033[K", stderr);
        if (jsonOut)
            say(soakWindowLine(window));
        else
            writeOut(soakWindowLine(window).toUtf8() + '\n');
    });
    QObject::connect(&pipeline, &SweepPipeline::stepFinished, &loop,
        [&](const StepResult& result, const RunSession::StepRecord& recorded) {
            if (!quiet && tty)
                std::fputs("\r\033[K", stderr);
            const StepMetrics& m = result.metrics;
            anyCompleted = anyCompleted || m.completed > 0;
            table += SweepTable::compactLine(stepSetup(pipeline.profile(), result), m) + '\n';
            if (recorded.meetsSlo.value_or(true) && m.completed > 0)
                ++stepsMeetingSlo;
            sayStep(result, recorded, pipeline, quiet, jsonOut);
            if (!recorded.resultError.isEmpty())
                exitCode = ExitFailure;
        });
    QObject::connect(&pipeline, &SweepPipeline::finished, &loop, [&](const SweepEnd& end) {
        stopped = end.stopped;
        std::signal(SIGINT, SIG_DFL);
        std::signal(SIGTERM, SIG_DFL);
        if (!quiet && !end.stopReason.isEmpty())
            say(QStringLiteral("stopped escalating: %1").arg(end.stopReason));
        const RunSession* session = pipeline.session();
        if (sweep && session && !session->points().empty()) {
            QByteArray words;
            for (const QString& line : analysisWords(session->analysis(), session->plan()))
                words += line.toUtf8() + '\n';
            const QByteArray human
                = StepSummary::centred(" Sweep ", '=') + table + StepSummary::centred(" Analysis ", '-') + words;
            if (jsonOut) {
                writeOut(QJsonDocument(session->analysisJson()).toJson(QJsonDocument::Indented));
                if (!quiet)
                    say(QString::fromUtf8(human).chopped(1));
            } else {
                writeOut(human);
            }
        }
        if (session && !session->failed()) {
            if (!end.closeError.isEmpty()) {
                say(QStringLiteral("error: %1").arg(end.closeError));
                exitCode = ExitFailure;
            } else if (!quiet) {
                say(QStringLiteral("run directory: %1").arg(session->dir()));
            }
        }
        loop.quit();
    });
    QTimer interruptPoll;
    QObject::connect(&interruptPoll, &QTimer::timeout, &loop, [&] {
        if (hooks && hooks->abort && pipeline.isActive()) {
            if (const QString reason = hooks->abort(); !reason.isEmpty()) {
                interruptPoll.stop();
                say(QStringLiteral("stopping the sweep: %1").arg(reason));
                exitCode = ExitFailure;
                pipeline.stop(QStringLiteral("cancelled: %1").arg(reason));
                return;
            }
        }
        if (g_interrupts.load() > 0 && pipeline.isActive()) {
            interruptPoll.stop();
            say(QStringLiteral("\ninterrupted: stopping the current step (Ctrl-C again to quit at once)"));
            pipeline.stop();
        }
    });
    interruptPoll.start(100);
    pipeline.start(std::move(*options));
    if (pipeline.isActive())
        loop.exec();
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    if (stopped && g_interrupts.load() > 0)
        return ExitInterrupted;
    if (exitCode != ExitOk)
        return exitCode;
    if (!anyCompleted)
        return ExitFailure;
    if (!pipeline.profile().slo.isEmpty() && stepsMeetingSlo == 0)
        return ExitSloViolated;
    return ExitOk;
}

} // namespace kp::cli
