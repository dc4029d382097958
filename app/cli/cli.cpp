#include "cli.h"

#include "clianalysis.h"
#include "climatrix.h"
#include "clisoak.h"
#include "cliverbs.h"
#include "metrics/inerttext.h"

#include "client/probe.h"
#include "client/requestbuilder.h"
#include "client/tokenizeprepass.h"
#include "metrics/buckettable.h"
#include "metrics/resultjson.h"
#include "metrics/stepsummary.h"
#include "metrics/sweeptable.h"
#include "profile/modelmix.h"
#include "profile/profileoverrides.h"
#include "profile/profileschema.h"
#include "profile/profilestore.h"
#include "profile/targetstore.h"
#include "runs/runcatalog.h"
#include "serve/serversweep.h"
#include "sim/filelimit.h"
#include "store/runwriter.h"
#include "sweep/analysisjson.h"
#include "sweep/builtinsimulator.h"
#include "sweep/runsession.h"
#include "sweep/safetyguard.h"
#include "sweep/shard.h"
#include "sweep/slospec.h"
#include "sweep/sweeppipeline.h"
#include "sweep/sweepplan.h"
#include "sweep/sweeprunner.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLocale>
#include <QRegularExpression>
#include <QTimer>

#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <unistd.h>

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

namespace {

std::atomic<int> g_interrupts { 0 };

extern "C" void onInterrupt(int)
{
    if (g_interrupts.fetch_add(1) >= 1)
        ::_exit(ExitInterrupted); // a second Ctrl-C: leave now; finished steps are already on disk
}

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

// A flag for every field of the schema that names one: its names, help line and value name.
QList<std::pair<const ProfileField*, QCommandLineOption>> fieldOptions()
{
    QList<std::pair<const ProfileField*, QCommandLineOption>> options;
    for (const ProfileField& f : profileFields()) {
        if (f.flags.isEmpty())
            continue;
        QStringList names;
        for (const char* name : f.flags)
            names << QString::fromLatin1(name);
        options.append({ &f,
            f.flagValue ? QCommandLineOption(names, QString::fromUtf8(f.help), QString::fromLatin1(f.flagValue))
                        : QCommandLineOption(names, QString::fromUtf8(f.help)) });
    }
    return options;
}

struct Options
{
    QCommandLineOption profile { QStringLiteral("profile"), QStringLiteral("Profile file (JSON or TOML)."),
        QStringLiteral("FILE") };
    QCommandLineOption backend { QStringLiteral("backend"),
        QStringLiteral("openai | openai-chat | vllm | openai-responses | anthropic-messages | openai-embeddings."),
        QStringLiteral("NAME") };
    QCommandLineOption target { QStringLiteral("target"),
        QStringLiteral("A saved target (kneepoint-cli targets) instead of the profile's. sweep: repeat for a matrix "
                       "of targets, run one after another."),
        QStringLiteral("NAME") };
    QCommandLineOption datasetName { QStringLiteral("dataset-name"),
        QStringLiteral("random | sharegpt | jsonl | replay | shared-prefix | mooncake."), QStringLiteral("NAME") };
    QCommandLineOption requestRate { QStringLiteral("request-rate"),
        QStringLiteral("Request rate(s) in req/s, comma-separated or repeated; inf = all at once."),
        QStringLiteral("RATE") };
    QCommandLineOption concurrency { QStringLiteral("concurrency"),
        QStringLiteral("Closed-loop users, comma-separated or repeated (instead of rates)."), QStringLiteral("N") };
    QCommandLineOption percentileMetrics { QStringLiteral("percentile-metrics"),
        QStringLiteral("Metrics to report: ttft,tpot,itl,e2el."), QStringLiteral("LIST") };
    QCommandLineOption metricPercentiles { QStringLiteral("metric-percentiles"),
        QStringLiteral("Percentiles to report, e.g. 50,90,99."), QStringLiteral("LIST") };
    QCommandLineOption goodput { QStringLiteral("goodput"),
        QStringLiteral("SLO for goodput and capacity, KEY:MS with KEY ttft, tpot or e2el; repeatable."),
        QStringLiteral("KEY:MS") };
    QCommandLineOption metadata { QStringLiteral("metadata"),
        QStringLiteral("KEY=VALUE written as a top-level key of every result file; several pairs may follow one "
                       "--metadata, as in vLLM."),
        QStringLiteral("KEY=VALUE") };
    QCommandLineOption out { QStringLiteral("out"),
        QStringLiteral("Run directory: run.json, steps/NNN.json, per-request records, sweep.csv."),
        QStringLiteral("DIR") };
    QCommandLineOption dataDir { QStringLiteral("data-dir"),
        QStringLiteral("Runs directory: without --out, the run is saved in a new directory under it (default "
                       "$XDG_DATA_HOME/Kneepoint/Kneepoint/runs)."),
        QStringLiteral("DIR") };
    QCommandLineOption noPreflight { QStringLiteral("no-preflight"),
        QStringLiteral("Skip the connection check before the run.") };
    QCommandLineOption yes { QStringLiteral("yes"),
        QStringLiteral(
            "Go ahead with a sweep against another machine that sends more requests than --confirm-above.") };
    QCommandLineOption confirmAbove { QStringLiteral("confirm-above"),
        QStringLiteral("Requests a sweep against another machine may send without --yes (default 1000)."),
        QStringLiteral("N") };
    QCommandLineOption allowInsecureKey { QStringLiteral("allow-insecure-key"),
        QStringLiteral("Send the API key over plain http:// to a host that is not this machine.") };
    QCommandLineOption allowHighLoad { QStringLiteral("allow-high-load"),
        QStringLiteral("Lift the limits of 2000 req/s and 2048 concurrent requests.") };
    QCommandLineOption workers { QStringLiteral("workers"),
        QStringLiteral("Client worker threads (default: one per core)."), QStringLiteral("N") };
    QCommandLineOption transport { QStringLiteral("transport"),
        QStringLiteral("HTTP client: auto | socket | qnam (default auto: socket unless a proxy applies)."),
        QStringLiteral("KIND") };
    QCommandLineOption quiet { QStringLiteral("quiet"), QStringLiteral("No progress on stderr.") };
    QCommandLineOption plan { QStringLiteral("plan"), QStringLiteral("Sweep plan: list | linear | geometric | auto."),
        QStringLiteral("KIND") };
    QCommandLineOption range { QStringLiteral("range"),
        QStringLiteral("Load range START:STOP:STEPS for a linear (default) or geometric plan."),
        QStringLiteral("RANGE") };
    QCommandLineOption repeatScope { QStringLiteral("repeat-scope"),
        QStringLiteral("Which loads --repeats runs again: all (the default on the command line) or best."),
        QStringLiteral("all|best") };
    QCommandLineOption slo { QStringLiteral("slo"),
        QStringLiteral("SLO, e.g. ttft:p90:300, tpot:p99:50, errors:1% (each limit at its own percentile); repeatable. "
                       "Overrides the profile's."),
        QStringLiteral("SPEC") };
    QCommandLineOption peak { QStringLiteral("peak"),
        QStringLiteral("Peak demand for a capacity plan: 1000 (req/s) or 250000tok/s."), QStringLiteral("DEMAND") };
    QCommandLineOption redundancy { QStringLiteral("redundancy"),
        QStringLiteral("Spare servers for the capacity plan: N+2 or 20%."), QStringLiteral("POLICY") };
    QCommandLineOption kneeMetric { QStringLiteral("knee-metric"),
        QStringLiteral("Latency the knee is found on: ttft, tpot, itl, e2el (default: the SLO's, else ttft)."),
        QStringLiteral("METRIC") };
    QCommandLineOption json { QStringLiteral("json"),
        QStringLiteral("Print the analysis as one JSON object on stdout (the rest goes to stderr).") };
    QCommandLineOption timeScale { QStringLiteral("time-scale"),
        QStringLiteral("demo: run the simulator's clock this many times faster."), QStringLiteral("F") };
    QCommandLineOption preset { QStringLiteral("preset"), QStringLiteral("demo: simulator preset."),
        QStringLiteral("NAME") };
    QCommandLineOption shard { QStringLiteral("shard"),
        QStringLiteral("Run shard I of K: 1/K of every step's load, requests and users (fixed plans only)."),
        QStringLiteral("I/K") };
    QCommandLineOption startAt { QStringLiteral("start-at"),
        QStringLiteral("Start step 1 at this time (ISO 8601, UTC without an offset, or epoch seconds), so shards "
                       "begin together."),
        QStringLiteral("TIME") };
    QCommandLineOption stepInterval { QStringLiteral("step-interval"),
        QStringLiteral("With --start-at: start step N at TIME + (N-1) * S (replaces the cooldown)."),
        QStringLiteral("S") };
    // sweep: a server configuration sweep (cmd_serve.cpp); --serve and its settings are the schema's.
    QCommandLineOption serveParam { QStringLiteral("serve-param"),
        QStringLiteral("sweep --serve: a parameter of the server command and its values, one run per combination; "
                       "repeatable."),
        QStringLiteral("NAME=V1,V2") };
    QCommandLineOption resume { QStringLiteral("resume"),
        QStringLiteral("sweep --serve --out DIR: finish the server sweep in DIR, skipping the combinations that "
                       "finished.") };
    // The profile's fields that have a flag (profileschema.cpp), in the schema's order.
    QList<std::pair<const ProfileField*, QCommandLineOption>> fields = fieldOptions();
    const QCommandLineOption& field(const char* flag) const
    {
        for (const auto& [f, option] : fields) {
            if (option.names().contains(QLatin1String(flag)))
                return option;
        }
        qFatal("kneepoint-cli: no profile field has the flag --%s", flag);
    }
    bool shardOptions = false; // the three above are options of this verb
    // soak: its length and its windows, with units (1h, 60s); load.soak_duration_s and load.soak_window_s.
    QCommandLineOption soakDuration { QStringLiteral("duration"),
        QStringLiteral("soak: how long to send at the rate (1h, 90m, 60s; default: the profile's, else 1h)."),
        QStringLiteral("DURATION") };
    QCommandLineOption soakWindow { QStringLiteral("window"),
        QStringLiteral("soak: report the figures per window of this long (default: the profile's, else 60s)."),
        QStringLiteral("DURATION") };
};

QStringList listValues(const QCommandLineParser& parser, const QCommandLineOption& option)
{
    QStringList values;
    for (const QString& v : parser.values(option))
        values << v.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (QString& v : values)
        v = v.trimmed();
    return values;
}

template <typename T> bool parseNumber(const QString& text, T* value)
{
    bool ok = false;
    if constexpr (std::is_same_v<T, int>)
        *value = text.toInt(&ok);
    else if constexpr (std::is_same_v<T, qint64>)
        *value = text.toLongLong(&ok);
    else
        *value = text.toDouble(&ok);
    return ok;
}

// The command line on top of the profile (or on top of the defaults without one): the reference's
// flags through ProfileOverrides, then Kneepoint's own (plan, SLO, pacing).
QStringList applyOverrides(const QCommandLineParser& p, const Options& o, Profile& profile)
{
    QStringList errors;
    auto text = [&](const QCommandLineOption& option) {
        return p.isSet(option) ? std::optional<QString>(p.value(option)) : std::nullopt;
    };
    // A whole number, or why not, naming the flag.
    auto whole = [&](const QCommandLineOption& option, auto* value) -> bool {
        using Value = std::remove_pointer_t<decltype(value)>;
        const QString given = p.value(option);
        if (parseNumber(given, value))
            return true;
        // A whole number too large for its field is out of range, not "not a number".
        bool isNumber = false;
        given.trimmed().toDouble(&isNumber);
        static const QRegularExpression digits(QStringLiteral("^[+-]?[0-9]+$"));
        if (isNumber && digits.match(given.trimmed()).hasMatch())
            errors << QStringLiteral("--%1: %2 is out of range: at most %3")
                          .arg(option.names().constFirst(), given)
                          .arg(std::numeric_limits<Value>::max());
        else if (isNumber)
            errors << QStringLiteral("--%1: not a whole number: \"%2\"").arg(option.names().constFirst(), given);
        else
            errors << QStringLiteral("--%1: not a number: \"%2\"").arg(option.names().constFirst(), given);
        return false;
    };
    ProfileOverrides ov;
    // The fields with a flag of their own (profileschema.cpp), parsed by their type.
    for (const auto& [field, option] : o.fields) {
        if (!p.isSet(option))
            continue;
        const QString key = field->path();
        const QString flag = option.names().constFirst();
        if (!field->flagValue) {
            ov.set(key, field->switchSets);
        } else if (std::holds_alternative<TextRef>(field->ref)) {
            QString value = p.value(option);
            const QString error = field->parseFlag ? field->parseFlag(value, &value) : QString();
            if (error.isEmpty())
                ov.set(key, value);
            else
                errors << QStringLiteral("--%1: %2").arg(flag, error);
        } else if (std::holds_alternative<NumberRef>(field->ref)
            || std::holds_alternative<OptionalNumberRef>(field->ref)) {
            double v = 0;
            if (parseNumber(p.value(option), &v))
                ov.set(key, v);
            else
                errors << QStringLiteral("--%1: not a number: \"%2\"").arg(flag, p.value(option));
        } else if (std::holds_alternative<Integer64Ref>(field->ref)) {
            qint64 v = 0;
            if (whole(option, &v))
                ov.set(key, v);
        } else {
            int v = 0;
            if (whole(option, &v))
                ov.set(key, qint64(v));
        }
    }
    if (p.isSet(o.field("image-dir")) && !p.isSet(o.field("image-count")) && profile.workload.imageCount == 0)
        ov.set(profileField(u"workload.image_count")->path(), qint64(1));
    if (p.isSet(o.field("save-detailed")))
        ov.set(profileField(u"output.save_result")->path(), true);
    if (p.isSet(o.field("api-key")))
        say(QStringLiteral("warning: --api-key puts the key in the process list and shell history; prefer ${VAR} in "
                           "the profile or OPENAI_API_KEY."));
    if (p.isSet(o.backend)) {
        ov.backend = backendFromName(p.value(o.backend));
        if (!ov.backend)
            errors << QStringLiteral("--backend: unknown backend \"%1\"; expected %2")
                          .arg(p.value(o.backend), backendNames());
    }
    if (p.isSet(o.transport)) {
        ov.transport = transportKindFromName(p.value(o.transport));
        if (!ov.transport)
            errors << QStringLiteral("--transport: unknown transport \"%1\" (auto, socket, qnam)")
                          .arg(p.value(o.transport));
    }
    ov.datasetName = text(o.datasetName);
    if (p.isSet(o.requestRate) && p.isSet(o.concurrency))
        errors << QStringLiteral("--request-rate and --concurrency: give one or the other");
    if (p.isSet(o.requestRate)) {
        ov.rates.emplace();
        for (const QString& v : listValues(p, o.requestRate)) {
            if (auto r = parseRate(v))
                ov.rates->append(*r);
            else
                errors << QStringLiteral("--request-rate: \"%1\" is not a rate > 0 or inf").arg(v);
        }
    }
    if (p.isSet(o.concurrency)) {
        ov.concurrencies.emplace();
        for (const QString& v : listValues(p, o.concurrency)) {
            int n = 0;
            if (parseNumber(v, &n) && n > 0)
                ov.concurrencies->append(n);
            else
                errors << QStringLiteral("--concurrency: \"%1\" is not a whole number > 0").arg(v);
        }
    }
    if (p.isSet(o.percentileMetrics))
        ov.percentileMetrics = listValues(p, o.percentileMetrics);
    if (p.isSet(o.metricPercentiles)) {
        ov.metricPercentiles.emplace();
        for (const QString& v : listValues(p, o.metricPercentiles)) {
            double x = 0;
            if (parseNumber(v, &x))
                ov.metricPercentiles->append(x);
            else
                errors << QStringLiteral("--metric-percentiles: \"%1\" is not a number").arg(v);
        }
    }
    if (p.isSet(o.metadata)) {
        // vLLM's rule: split at the first '=', both sides trimmed; the value stays a string.
        ov.metadata.emplace();
        for (const QString& item : p.values(o.metadata)) {
            const qsizetype eq = item.indexOf(u'=');
            const QString key = item.left(std::max<qsizetype>(eq, 0)).trimmed();
            if (eq < 0)
                errors << QStringLiteral("--metadata: \"%1\" is not KEY=VALUE").arg(item);
            else if (key.isEmpty())
                errors << QStringLiteral("--metadata: \"%1\" has no key before '='").arg(item);
            else if (ResultJson::isReferenceKey(key))
                errors << QStringLiteral("--metadata: \"%1\": \"%2\" is a key the result file writes itself; "
                                         "choose another name")
                              .arg(item, key);
            else
                ov.metadata->append({ key, item.mid(eq + 1).trimmed() });
        }
    }
    kp::applyOverrides(profile, ov, &errors);

    for (const QString& g : listValues(p, o.goodput)) {
        if (const QString e = applyGoodput(g, profile.slo); !e.isEmpty())
            errors << QStringLiteral("--goodput: %1").arg(e);
    }
    if (p.isSet(o.slo)) {
        if (const QString e = parseSloSpecs(p.values(o.slo), profile.slo); !e.isEmpty())
            errors << QStringLiteral("--slo: %1").arg(e);
    }
    Plan& plan = profile.load.plan;
    if (p.isSet(o.range)) {
        const QStringList parts = p.value(o.range).split(QLatin1Char(':'));
        int steps = 0;
        if (parts.size() != 3 || !parseNumber(parts[0], &plan.start) || !parseNumber(parts[1], &plan.stop)
            || !parseNumber(parts[2], &steps))
            errors << QStringLiteral("--range: \"%1\" is not START:STOP:STEPS (e.g. 5:160:8)").arg(p.value(o.range));
        plan.steps = steps;
        if (plan.kind != PlanKind::Geometric)
            plan.kind = PlanKind::Linear;
    }
    if (p.isSet(o.plan)) {
        if (auto kind = planKindFromName(p.value(o.plan)))
            plan.kind = *kind;
        else
            errors
                << QStringLiteral("--plan: unknown plan \"%1\" (list, linear, geometric, auto)").arg(p.value(o.plan));
    }
    if (ov.isSet(profileField(u"load.plan.repeats")->path()))
        plan.repeatScope = Plan::RepeatScope::All; // the command line's --repeats repeats every load
    if (p.isSet(o.repeatScope)) {
        const QString scope = p.value(o.repeatScope);
        if (scope == QLatin1String("all"))
            plan.repeatScope = Plan::RepeatScope::All;
        else if (scope == QLatin1String("best"))
            plan.repeatScope = Plan::RepeatScope::Best;
        else
            errors << QStringLiteral("--repeat-scope: \"%1\" is neither all nor best").arg(scope);
    }
    return errors;
}

// Loads --profile (if any), applies the command line and validates. Prints the problems.
std::optional<Profile> buildProfile(const QCommandLineParser& p, const Options& o, bool needTarget)
{
    Profile profile;
    const QString targetName = p.isSet(o.target) ? p.value(o.target) : QString();
    // The saved targets are read only when a target is named, by --target or by the profile.
    std::optional<TargetStore> targets;
    const auto loadTargets = [&] {
        targets.emplace();
        QStringList targetErrors;
        targets->load(&targetErrors);
        for (const QString& e : targetErrors)
            say(QStringLiteral("error: %1").arg(e));
        return targetErrors.isEmpty();
    };
    if (!targetName.isEmpty()) {
        if (!loadTargets())
            return std::nullopt;
        profile.targetName = targetName;
        if (const QString error = resolveTargetReference(profile, *targets); !error.isEmpty()) {
            say(QStringLiteral("error: --target: %1").arg(error));
            return std::nullopt;
        }
    }
    if (p.isSet(o.profile)) {
        // The saved target is merged into the profile before its checks, so that a profile which leaves
        // its server (or model, key, headers) to the target is read as it will run.
        const QString path = p.value(o.profile);
        ProfileLoadResult loaded
            = targets ? ProfileStore::loadForRun(path, *targets, targetName) : ProfileStore::load(path);
        if (!targets && loaded.ok() && !loaded.profile->targetName.isEmpty()) {
            if (!loadTargets())
                return std::nullopt;
            loaded = ProfileStore::loadForRun(path, *targets);
        }
        for (const QString& w : loaded.warnings)
            say(QStringLiteral("warning: %1").arg(w));
        for (const QString& e : loaded.errors)
            say(QStringLiteral("error: %1").arg(e));
        if (!loaded.ok())
            return std::nullopt;
        profile = *loaded.profile;
    }
    const QStringList errors = applyOverrides(p, o, profile);
    for (const QString& e : errors)
        say(QStringLiteral("error: %1").arg(e));
    if (!errors.isEmpty())
        return std::nullopt;
    if (needTarget && profile.target.baseUrl.isEmpty()) {
        say(QStringLiteral("error: no target: give --profile FILE or --base-url URL"));
        return std::nullopt;
    }
    bool bad = false;
    for (const ProfileIssue& issue : validateProfile(profile)) {
        if (!needTarget && issue.path.startsWith(QLatin1String("target.base_url")))
            continue;
        say(QStringLiteral("error: %1%2")
                .arg(p.isSet(o.profile) ? p.value(o.profile) + QStringLiteral(": ") : QString(), issue.toString()));
        bad = true;
    }
    if (bad)
        return std::nullopt;
    return profile;
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

// The plan's prompt reuse, when requests will re-send prompts (a small file, or prompt_pool).
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

// --shard, --start-at and --step-interval. Prints the problems.
bool parseShardOptions(
    const QCommandLineParser& p, const Options& o, std::optional<ShardSpec>& shard, StepAlignment& alignment)
{
    bool ok = true;
    QString error;
    if (!o.shardOptions)
        return ok;
    if (p.isSet(o.shard)) {
        shard = parseShard(p.value(o.shard), false, &error);
        if (!shard) {
            say(QStringLiteral("error: --shard: %1").arg(error));
            ok = false;
        }
    }
    if (p.isSet(o.startAt)) {
        alignment.startAt = parseStartTime(p.value(o.startAt), &error);
        if (!alignment.startAt) {
            say(QStringLiteral("error: --start-at: %1").arg(error));
            ok = false;
        }
    }
    if (p.isSet(o.stepInterval)) {
        bool isNumber = false;
        alignment.intervalS = p.value(o.stepInterval).toDouble(&isNumber);
        if (!isNumber || !(alignment.intervalS > 0)) {
            say(QStringLiteral("error: --step-interval: \"%1\" is not a number of seconds > 0")
                    .arg(p.value(o.stepInterval)));
            ok = false;
        } else if (!p.isSet(o.startAt)) {
            say(QStringLiteral("error: --step-interval needs --start-at (the time of step 1)"));
            ok = false;
        }
    }
    return ok;
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

// The sweep's options from the flags; prints the problems. The pipeline checks the rest.
std::optional<SweepPipelineOptions> sweepOptions(
    const QCommandLineParser& p, const Options& o, Profile profile, bool sweep)
{
    SweepPipelineOptions options;
    if (!parseShardOptions(p, o, options.shard, options.alignment))
        return std::nullopt;
    options.limits.openFileLimit = kp::sim::raiseFileLimit(); // raised at start: this reads what is in force
    if (p.isSet(o.confirmAbove)) {
        bool ok = false;
        options.limits.confirmAboveRequests = p.value(o.confirmAbove).toLongLong(&ok);
        if (!ok || options.limits.confirmAboveRequests < 0) {
            say(QStringLiteral("error: --confirm-above: must be a whole number >= 0"));
            return std::nullopt;
        }
    }
    if (p.isSet(o.workers))
        options.workers = p.value(o.workers).toInt(); // not a number: 0, refused with the range by the pipeline
    AnalysisRequest analysisRequest;
    analysisRequest.options.slo = profile.slo;
    const QStringList analysisErrors
        = parseAnalysisFlags({}, p.value(o.peak), p.value(o.redundancy), p.value(o.kneeMetric), analysisRequest);
    for (const QString& e : analysisErrors)
        say(QStringLiteral("error: %1").arg(e));
    if (!analysisErrors.isEmpty())
        return std::nullopt;
    options.analysis = analysisRequest.options;
    options.peak = analysisRequest.peak;
    options.redundancy = analysisRequest.redundancy;
    options.consent.highLoad = p.isSet(o.allowHighLoad);
    options.consent.remoteLoad = p.isSet(o.yes);
    options.consent.insecureKey = p.isSet(o.allowInsecureKey);
    options.preflight = !p.isSet(o.noPreflight);
    options.sweep = sweep;
    // Every run is saved: in --out, else in a new directory under --data-dir or the runs directory.
    options.runDir = p.value(o.out);
    options.runsRoot = p.isSet(o.dataDir) ? p.value(o.dataDir) : defaultRunsDirectory();
    options.resultBase = QDir::currentPath();
    if (!sweep)
        options.resultFilename = profile.output.resultFilename;
    // Reading a large dataset takes seconds: show how far it got (a terminal only).
    const bool progressTty = !p.isSet(o.quiet) && ::isatty(STDERR_FILENO) != 0;
    options.datasetProgress = [progressTty](qint64 done, qint64 total) {
        if (!progressTty || total <= 0)
            return;
        const QByteArray line = QStringLiteral("\rreading dataset: %1%").arg(done * 100 / total).toUtf8();
        std::fwrite(line.constData(), 1, static_cast<std::size_t>(line.size()), stderr);
        if (done >= total)
            std::fputs("\r\033[K", stderr);
        std::fflush(stderr);
    };
    options.profile = std::move(profile);
    return options;
}

// What a server sweep changes in one of its sweeps: the run folder, and a reason to stop it (the server exited).
struct SweepHooks
{
    QString runDir;
    std::function<QString()> abort;
};

int runSweep(
    const QCommandLineParser& p, const Options& o, Profile profile, bool sweep, const SweepHooks* hooks = nullptr)
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
