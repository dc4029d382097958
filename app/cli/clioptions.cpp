#include "clioptions.h"

#include "clianalysis.h"
#include "cliverbs.h"

#include "metrics/resultjson.h"
#include "profile/profileoverrides.h"
#include "profile/profileschema.h"
#include "profile/profilestore.h"
#include "profile/targetstore.h"
#include "runs/runcatalog.h"
#include "sim/filelimit.h"
#include "sweep/shard.h"
#include "sweep/slospec.h"
#include "sweep/sweeppipeline.h"

#include <QCommandLineParser>
#include <QDir>
#include <QRegularExpression>

#include <cstdio>
#include <limits>
#include <unistd.h>

namespace kp::cli {

namespace {

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

} // namespace

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

} // namespace kp::cli
