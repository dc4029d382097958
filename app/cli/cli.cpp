#include "cli.h"

#include "clianalysis.h"
#include "climatrix.h"
#include "clioptions.h"
#include "clisoak.h"
#include "clisweep.h"
#include "cliverbs.h"
#include "metrics/inerttext.h"
#include "runs/runcatalog.h"

#include "client/probe.h"
#include "serve/serversweep.h"
#include "sweep/safetyguard.h"
#include "sweep/sweepplan.h"

#include <QCommandLineParser>
#include <QJsonDocument>

#include <cstdio>
#include <functional>

namespace kp::cli {

void writeOut(const QByteArray& bytes)
{
    std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stdout);
    std::fflush(stdout);
}

void say(const QString& line)
{
    // Messages quote servers and files: whatever escaped the engine's excerpts stays inert here.
    const QByteArray bytes = inertLines(line).toUtf8() + '\n';
    std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stderr);
    std::fflush(stderr);
}

std::optional<int> parseVerbOptions(
    QCommandLineParser& p, const QStringList& arguments, const char* usage, int verbWords)
{
    p.setApplicationDescription(QString::fromUtf8(usage));
    p.addHelpOption();
    QStringList args = arguments;
    args.remove(1, verbWords);
    if (!p.parse(args)) {
        say(QStringLiteral("error: %1").arg(p.errorText()));
        return ExitBadInput;
    }
    if (p.isSet(QStringLiteral("help"))) {
        writeOut(QByteArray(usage) + '\n');
        return ExitOk;
    }
    return std::nullopt;
}

std::optional<QString> resolveRun(const RunCatalog& catalog, const QString& name, const QString& context)
{
    QString error;
    std::optional<QString> dir = catalog.resolve(name, &error);
    if (!dir)
        say(QStringLiteral("error: %1%2").arg(context, error));
    return dir;
}

namespace {

const char* const kUsage = R"(Usage: kneepoint-cli <command> [options]

Commands:
  run       run one load level (the first rate or concurrency) and print the summary block
  sweep     run every rate or concurrency of the profile, one step each, and print a line per step
  analyze   find the knee, saturation, SLO capacity and a capacity plan in existing result files
  probe     check /health, /v1/models and one tiny completion, and explain what fails
  validate  read a profile and report every problem with its file, line, column and field
  demo      start the built-in simulator and sweep it (no server of your own needed)
  soak      run one rate for a long time (--duration 1h) and report every window (--window 60s)
)";

const char* const kUsageEnd = R"(
Run "kneepoint-cli <command> --help" for the options of a command.
Exit codes: 0 ok, 1 failure (results not written, or every request failed), 2 bad input,
3 target unreachable or failing the preflight, 4 SLO not met, 130 interrupted.)";

QByteArray usage()
{
    QByteArray text(kUsage);
    for (const Verb& verb : extraVerbs())
        text += QByteArray("  ") + QByteArray(verb.name).leftJustified(10, ' ') + verb.summary + '\n';
    return text + kUsageEnd;
}

int runDemo(const QCommandLineParser& p, const Options& o)
{
    const QString preset = p.isSet(o.preset) ? p.value(o.preset) : QStringLiteral("default");
    QString timeScale = QStringLiteral("1");
    if (p.isSet(o.timeScale)) {
        bool ok = false;
        const double f = p.value(o.timeScale).toDouble(&ok);
        if (!ok || f <= 0) {
            say(QStringLiteral("error: --time-scale: must be a number > 0"));
            return ExitBadInput;
        }
        timeScale = p.value(o.timeScale);
    }
    Profile profile = Profile::demo(QUrl(QStringLiteral("sim://%1?time_scale=%2").arg(preset, timeScale)), QString());
    // The simulator's clock runs F times faster: offer F times the rate for F times shorter, so it
    // sees the same load and the curve keeps its shape (the numbers shown are wall-clock ones).
    const double f = timeScale.toDouble();
    for (double& rate : profile.load.rates)
        rate *= f;
    if (profile.load.stepDurationS)
        *profile.load.stepDurationS /= f;
    profile.load.cooldownS /= f;
    const QStringList errors = applyOverrides(p, o, profile);
    for (const QString& e : errors)
        say(QStringLiteral("error: %1").arg(e));
    if (!errors.isEmpty())
        return ExitBadInput;
    if (!p.isSet(o.quiet))
        say(QStringLiteral("Kneepoint demo: sweeping the built-in simulator (preset \"%1\") at %2; each line is one "
                           "step as it lands.")
                .arg(preset, formatLoadList(profile)));
    return runSweep(p, o, profile, true);
}

int runAnalyze(const QCommandLineParser& p, const Options& o)
{
    const QStringList paths = p.positionalArguments();
    if (paths.isEmpty()) {
        say(QStringLiteral("error: analyze needs result files or run directories: kneepoint-cli analyze FILES|DIR "
                           "[--slo ttft:p99:500] [--peak 1000] [--json]"));
        return ExitBadInput;
    }
    const LoadedPoints loaded = readPoints(paths);
    for (const QString& w : loaded.warnings)
        say(QStringLiteral("warning: %1").arg(w));
    for (const QString& e : loaded.errors)
        say(QStringLiteral("error: %1").arg(e));
    if (!loaded.errors.isEmpty())
        return ExitBadInput;
    if (loaded.points.empty()) {
        say(QStringLiteral("error: no steps in %1").arg(paths.join(QStringLiteral(", "))));
        return ExitBadInput;
    }
    AnalysisRequest request;
    if (loaded.runSlo)
        request.options.slo = *loaded.runSlo;
    const QStringList errors
        = parseAnalysisFlags(p.values(o.slo), p.value(o.peak), p.value(o.redundancy), p.value(o.kneeMetric), request);
    for (const QString& e : errors)
        say(QStringLiteral("error: %1").arg(e));
    if (!errors.isEmpty())
        return ExitBadInput;
    const AnalysisOutput out = analyse(loaded.points, request);
    if (p.isSet(o.json)) {
        writeOut(QJsonDocument(out.json).toJson(QJsonDocument::Indented));
    } else {
        QByteArray words = QStringLiteral("%1 steps from %2\n")
                               .arg(loaded.points.size())
                               .arg(paths.join(QStringLiteral(", ")))
                               .toUtf8();
        for (const QString& line : out.lines)
            words += line.toUtf8() + '\n';
        writeOut(words);
    }
    return ExitOk;
}

} // namespace

int run(const QStringList& arguments)
{
    const QString verb = arguments.value(1);
    if (verb.isEmpty() || verb == QLatin1String("--help") || verb == QLatin1String("-h")
        || verb == QLatin1String("help")) {
        writeOut(usage() + '\n');
        return verb.isEmpty() ? ExitBadInput : ExitOk;
    }
    if (verb == QLatin1String("--version") || verb == QLatin1String("-v")) {
        writeOut(QByteArrayLiteral("kneepoint-cli " KNEEPOINT_VERSION "\n"));
        return ExitOk;
    }
    static const QStringList verbs = { QStringLiteral("run"), QStringLiteral("sweep"), QStringLiteral("analyze"),
        QStringLiteral("probe"), QStringLiteral("validate"), QStringLiteral("demo"), QStringLiteral("soak") };
    for (const Verb& extra : extraVerbs()) {
        if (verb == QLatin1String(extra.name))
            return extra.run(arguments);
    }
    if (isMatrix(arguments))
        return runMatrix(arguments);
    if (!verbs.contains(verb)) {
        say(QStringLiteral("error: unknown command \"%1\"\n").arg(verb) + QString::fromUtf8(usage()));
        return ExitBadInput;
    }

    Options o;
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("kneepoint-cli %1: see \"kneepoint-cli --help\" for the commands.").arg(verb));
    parser.addHelpOption();
    parser.addVersionOption();
    // --help lists the options in this order; a field's flag the list leaves out comes last.
    QList<QCommandLineOption> options = { o.profile, o.target, o.field("base-url"), o.field("endpoint"), o.backend,
        o.field("model"), o.field("served-model-name"), o.field("model-mix"), o.field("image-count"),
        o.field("image-size"), o.field("image-format"), o.field("image-dir"), o.field("api-key"), o.datasetName,
        o.field("dataset-path"), o.field("num-prompts"), o.field("random-input-len"), o.field("random-output-len"),
        o.field("random-range-ratio"), o.field("input-len-dist"), o.field("input-len-std"), o.field("output-len-dist"),
        o.field("output-len-std"), o.field("multi-turn"), o.field("multi-turn-history"), o.field("think-time"),
        o.field("turns"), o.field("system-prompt-len"), o.field("max-model-len"), o.field("replay-speed"),
        o.requestRate, o.concurrency, o.field("burstiness"), o.field("max-concurrency"), o.field("seed"),
        o.field("ignore-eos"), o.field("no-stream"), o.field("embedding-batch"), o.field("warmup"), o.field("cooldown"),
        o.field("prompt-pool"), o.field("reset-prefix-cache"), o.field("step-duration"), o.percentileMetrics,
        o.metricPercentiles, o.goodput, o.field("save-result"), o.field("save-detailed"), o.field("result-dir"),
        o.field("result-filename"), o.field("label"), o.metadata, o.out, o.noPreflight, o.yes, o.confirmAbove,
        o.allowInsecureKey, o.allowHighLoad, o.workers, o.transport, o.quiet, o.plan, o.range, o.field("refine"),
        o.field("tolerance"), o.field("repeats"), o.repeatScope, o.field("no-early-stop"), o.field("stop-error-rate"),
        o.slo, o.peak, o.redundancy, o.kneeMetric, o.json };
    for (const auto& [f, option] : o.fields) {
        const auto listed = [&option](const QCommandLineOption& x) { return x.names() == option.names(); };
        if (std::none_of(options.begin(), options.end(), listed))
            options.append(option);
    }
    parser.addOptions(options);
    if (verb == QLatin1String("run") || verb == QLatin1String("sweep")) {
        parser.addOptions({ o.shard, o.startAt, o.stepInterval });
        o.shardOptions = true;
    }
    if (verb == QLatin1String("run") || verb == QLatin1String("sweep") || verb == QLatin1String("demo")
        || verb == QLatin1String("soak"))
        parser.addOption(o.dataDir);
    if (verb == QLatin1String("soak"))
        parser.addOptions({ o.soakDuration, o.soakWindow });
    if (verb == QLatin1String("sweep"))
        parser.addOptions({ o.serveParam, o.resume });
    if (verb == QLatin1String("demo"))
        parser.addOptions({ o.timeScale, o.preset });
    QStringList args = arguments;
    args.removeAt(1);
    // vLLM's "--metadata a=1 b=2": each KEY=VALUE word after --metadata up to the next option is one more pair.
    for (qsizetype i = 1; i < args.size(); ++i) {
        if (args[i] != QLatin1String("--metadata"))
            continue;
        for (qsizetype j = i + 2; j < args.size() && !args[j].startsWith(u'-') && args[j].contains(u'='); j += 2)
            args.insert(j, QStringLiteral("--metadata"));
    }
    if (!parser.parse(args)) {
        say(QStringLiteral("error: %1").arg(parser.errorText()));
        return ExitBadInput;
    }
    // "validate FILE" is "validate --profile FILE".
    if (verb == QLatin1String("validate") && !parser.isSet(o.profile) && parser.positionalArguments().size() == 1) {
        const QString file = parser.positionalArguments().constFirst();
        args.removeAt(args.lastIndexOf(file));
        args << QStringLiteral("--profile") << file;
        if (!parser.parse(args)) {
            say(QStringLiteral("error: %1").arg(parser.errorText()));
            return ExitBadInput;
        }
    }
    if (parser.isSet(QStringLiteral("help"))) {
        writeOut(parser.helpText().toUtf8());
        return ExitOk;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        writeOut(QByteArrayLiteral("kneepoint-cli " KNEEPOINT_VERSION "\n"));
        return ExitOk;
    }
    if (verb == QLatin1String("analyze"))
        return runAnalyze(parser, o);
    if (!parser.positionalArguments().isEmpty()) {
        say(QStringLiteral("error: unexpected argument \"%1\"").arg(parser.positionalArguments().constFirst()));
        return ExitBadInput;
    }

    if (verb == QLatin1String("validate")) {
        if (!parser.isSet(o.profile)) {
            say(QStringLiteral("error: validate needs a profile: validate FILE, or validate --profile FILE"));
            return ExitBadInput;
        }
        const auto profile = buildProfile(parser, o, false);
        if (!profile)
            return ExitBadInput;
        const PreparedSweep prepared = prepareSweep(*profile);
        for (const QString& w : prepared.warnings)
            say(QStringLiteral("warning: %1").arg(w));
        if (!prepared.ok()) {
            say(QStringLiteral("error: %1").arg(prepared.error));
            return ExitBadInput;
        }
        sayPromptReuse(announcedPromptReuse(prepared.config, profile->load));
        // What a run would refuse, validate refuses too: the load limits (lifted as a run lifts them).
        const SafetyCheck check = checkSafety(*profile, prepared.config.planner.preview(), 0, 0);
        if (!check.overLimits.isEmpty() && !parser.isSet(o.allowHighLoad)) {
            for (const QString& over : check.overLimits)
                say(QStringLiteral("error: %1").arg(over));
            say(QStringLiteral("A run needs --allow-high-load to go past these limits."));
            return ExitBadInput;
        }
        QStringList loads;
        const std::vector<PlannedStep> steps = prepared.config.planner.preview();
        for (const PlannedStep& step : steps)
            loads << formatLoad(step.mode, step.load);
        // A list of a million rates is a valid plan, not a line to print whole.
        constexpr qsizetype shownLoads = 12;
        if (loads.size() > shownLoads) {
            const QString last = loads.constLast();
            loads.resize(shownLoads - 1);
            loads << QStringLiteral("… %1 (%2 steps)").arg(last).arg(steps.size());
        }
        // With step_duration_s the duration, not num_prompts, sets each step's requests.
        const QString perStep = profile->load.soak ? QStringLiteral("a soak of %1 s in windows of %2 s")
                                                         .arg(profile->load.soakDurationS)
                                                         .arg(profile->load.soakWindowS)
            : profile->load.stepDurationS ? QStringLiteral("%1 s per step").arg(*profile->load.stepDurationS)
                                          : QStringLiteral("%1 requests per step").arg(profile->workload.numPrompts);
        writeOut(QStringLiteral("%1: ok (%2 plan: %3; %4)\n")
                     .arg(parser.value(o.profile), planKindName(profile->load.plan.kind),
                         loads.join(QStringLiteral(", ")), perStep)
                     .toUtf8());
        return ExitOk;
    }
    if (verb == QLatin1String("demo"))
        return runDemo(parser, o);

    auto profile = buildProfile(parser, o, true);
    if (!profile)
        return ExitBadInput;
    if (verb == QLatin1String("soak")) {
        const QStringList errors
            = applySoakOptions(parser.isSet(o.soakDuration) ? parser.value(o.soakDuration) : QString(),
                parser.isSet(o.soakWindow) ? parser.value(o.soakWindow) : QString(), *profile);
        for (const QString& e : errors)
            say(QStringLiteral("error: %1").arg(e));
        if (!errors.isEmpty())
            return ExitBadInput;
        return runSweep(parser, o, *profile, false);
    }
    if (verb == QLatin1String("probe")) {
        // The probe sends the key as a sweep does: the same refusal over plain HTTP to another host.
        const SafetyCheck keyCheck = checkSafety(*profile, {}, 0, 0);
        if (keyCheck.insecureKey && !parser.isSet(o.allowInsecureKey)) {
            say(QStringLiteral("error: %1 (--allow-insecure-key)").arg(keyCheck.insecureKeyMessage));
            return ExitBadInput;
        }
        QString error;
        const ProbeReport report = probe(*profile, &error, parser.isSet(o.quiet));
        if (!error.isEmpty()) {
            say(QStringLiteral("error: %1").arg(error));
            return ExitBadInput;
        }
        printProbe(report);
        writeOut(report.ok() ? QByteArrayLiteral("ok\n") : QByteArrayLiteral("failed\n"));
        return report.ok() ? ExitOk : ExitUnreachable;
    }
    if (verb == QLatin1String("sweep")) {
        Profile served = *profile;
        for (const QString& spec : parser.values(o.serveParam)) {
            if (const QString error = addServerParameter(spec, served.serverSweep.parameters); !error.isEmpty()) {
                say(QStringLiteral("error: %1").arg(error));
                return ExitBadInput;
            }
        }
        if (isServerSweep(served, parser.isSet(o.resume))) {
            const ServeOptions serve { parser.value(o.out), parser.value(o.dataDir), parser.isSet(o.resume),
                parser.isSet(o.quiet) };
            return runServerSweep(served, serve,
                [&](const Profile& combination, const QString& runDir, const std::function<QString()>& abort) {
                    const SweepHooks hooks { runDir, abort };
                    return runSweep(parser, o, combination, true, &hooks);
                });
        }
    }
    return runSweep(parser, o, *profile, verb == QLatin1String("sweep"));
}

} // namespace kp::cli
