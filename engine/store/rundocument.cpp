#include "store/rundocument.h"

#include "metrics/boundedread.h"
#include "metrics/filewrite.h"
#include "metrics/jsonvalues.h"
#include "metrics/latencystats.h"

#include <QJsonDocument>

#include <cmath>
#include <limits>

namespace kp {

namespace {

constexpr QLatin1String kFormat("kneepoint.run/1");

// Every key of run.json, spelled once. The members are named after them (RunDocument, RunStepEntry).
namespace key {
constexpr QLatin1String format("format"), status("status"), source("source"), predicted("predicted"),
    prediction("prediction"), name("name"), tags("tags"), notes("notes"), created("created"), updated("updated"),
    importedFrom("imported_from"), importGroup("import_group"), importIdentity("import_identity"),
    fileSettings("file_settings"), profile("profile"), environment("environment"), plan("plan"), steps("steps"),
    currentStep("current_step"), shard("shard"), merged("merged"), serverConfig("server_config");
// prediction
constexpr QLatin1String twinFile("twin_file"), sourceRuns("source_runs"), overrides("overrides"), replicas("replicas");
// plan
constexpr QLatin1String kind("kind"), planned("planned"), stoppedEarly("stopped_early");
// step entries, planned steps, the current step
constexpr QLatin1String index("index"), load("load"), mode("mode"), offered("offered"), purpose("purpose"),
    file("file"), completed("completed"), failed("failed"), partial("partial"), clientBound("client_bound"),
    datasetSkipped("dataset_skipped"), dispatchLagP99Ms("dispatch_lag_p99_ms"), sent("sent"), errorRate("error_rate"),
    flags("flags"), startUnixS("start_unix_s"), startLateS("start_late_s"), startSpreadS("start_spread_s"),
    meetsSlo("meets_slo"), server("server"), servers("servers"), joulesPerOutputToken("joules_per_output_token"),
    metricsFile("metrics_file"), intervals("intervals"), sourceFile("source_file"), sourcePath("source_path"),
    repeat("repeat"), noTimeline("no_timeline"), shards("shards"), started("started");
// a merged step's shard parts, a merged run's shards
constexpr QLatin1String shardIndex("shard"), startOffsetS("start_offset_s"), durationS("duration_s"), count("count"),
    dir("dir"), stepCount("steps");
} // namespace key

QString timeText(const QDateTime& t)
{
    return t.toString(Qt::ISODateWithMs);
}

// Writing: a member that is unset is left out.
template <typename T> void put(QJsonObject& o, QLatin1String k, const std::optional<T>& value)
{
    if (value)
        o.insert(k, QJsonValue(*value));
}

void put(QJsonObject& o, QLatin1String k, const std::optional<QStringList>& value)
{
    if (value)
        o.insert(k, QJsonArray::fromStringList(*value));
}

void put(QJsonObject& o, QLatin1String k, const QDateTime& value)
{
    if (value.isValid())
        o.insert(k, timeText(value));
}

// A count, or null when it is not known.
void putCount(QJsonObject& o, QLatin1String k, const std::optional<qint64>& value)
{
    if (value)
        o.insert(k, jsonvalues::countOrNull(*value));
}

// Kept with their keys, under the known ones.
QJsonObject withExtra(QJsonObject o, const QJsonObject& extra)
{
    for (auto it = extra.begin(); it != extra.end(); ++it) {
        if (!o.contains(it.key()))
            o.insert(it.key(), it.value());
    }
    return o;
}

QJsonObject planJson(const RunPlan& plan)
{
    QJsonObject o;
    put(o, key::kind, plan.kind);
    if (plan.planned) {
        QJsonArray steps;
        for (const RunPlannedStep& s : *plan.planned) {
            QJsonObject p;
            put(p, key::mode, s.mode);
            put(p, key::load, s.load);
            put(p, key::purpose, s.purpose);
            steps.append(p);
        }
        o.insert(key::planned, steps);
    }
    put(o, key::stoppedEarly, plan.stoppedEarly);
    return withExtra(o, plan.extra);
}

QJsonObject currentStepJson(const RunCurrentStep& s)
{
    QJsonObject o;
    put(o, key::index, s.index);
    put(o, key::mode, s.mode);
    put(o, key::offered, s.offered);
    put(o, key::load, s.load);
    put(o, key::purpose, s.purpose);
    put(o, key::started, s.started);
    return withExtra(o, s.extra);
}

QJsonObject stepJson(const RunStepEntry& s)
{
    QJsonObject o;
    o.insert(key::index, s.index);
    put(o, key::load, s.load);
    put(o, key::mode, s.mode);
    put(o, key::offered, s.offered);
    put(o, key::purpose, s.purpose);
    put(o, key::file, s.file);
    putCount(o, key::completed, s.completed);
    putCount(o, key::failed, s.failed);
    put(o, key::partial, s.partial);
    put(o, key::clientBound, s.clientBound);
    put(o, key::predicted, s.predicted);
    put(o, key::datasetSkipped, s.datasetSkipped);
    put(o, key::dispatchLagP99Ms, s.dispatchLagP99Ms);
    put(o, key::sent, s.sent);
    put(o, key::errorRate, s.errorRate);
    put(o, key::flags, s.flags);
    put(o, key::startUnixS, s.startUnixS);
    put(o, key::startLateS, s.startLateS);
    put(o, key::startSpreadS, s.startSpreadS);
    put(o, key::meetsSlo, s.meetsSlo);
    put(o, key::server, s.server);
    put(o, key::servers, s.servers);
    put(o, key::joulesPerOutputToken, s.joulesPerOutputToken);
    put(o, key::metricsFile, s.metricsFile);
    put(o, key::intervals, s.intervals);
    put(o, key::sourceFile, s.sourceFile);
    put(o, key::sourcePath, s.sourcePath);
    put(o, key::repeat, s.repeat);
    put(o, key::noTimeline, s.noTimeline);
    if (s.shards) {
        QJsonArray parts;
        for (const RunShardPart& p : *s.shards) {
            QJsonObject part;
            part.insert(key::shardIndex, p.shard);
            part.insert(key::load, p.load);
            part.insert(key::completed, p.completed);
            part.insert(key::failed, p.failed);
            part.insert(key::partial, p.partial);
            part.insert(key::clientBound, p.clientBound);
            part.insert(key::startOffsetS, p.startOffsetS);
            part.insert(key::durationS, p.durationS);
            parts.append(part);
        }
        o.insert(key::shards, parts);
    }
    return withExtra(o, s.extra);
}

QJsonObject mergedJson(const RunMergeInfo& m)
{
    QJsonObject o;
    o.insert(key::count, m.count);
    QJsonArray shards;
    for (const RunMergedShard& s : m.shards) {
        QJsonObject shard;
        shard.insert(key::index, s.index);
        shard.insert(key::dir, s.dir);
        shard.insert(key::status, s.status);
        shard.insert(key::stepCount, s.steps);
        shard.insert(key::environment, s.environment);
        shards.append(shard);
    }
    o.insert(key::shards, shards);
    put(o, key::flags, m.flags);
    return o;
}

// Reading: each value of the wrong type is named in a warning and left unset.
class Reader
{
public:
    // prefix: what a key's name follows in messages, "PATH: " or "PATH: steps[2]."
    Reader(const QJsonObject& object, QString prefix, QStringList& warnings)
        : m_object(object)
        , m_prefix(std::move(prefix))
        , m_warnings(warnings)
    { }

    QString at(QLatin1String k) const { return m_prefix + k; }

    void warn(QLatin1String k, const QString& problem) const
    {
        m_warnings << QStringLiteral("%1: %2").arg(at(k), problem);
    }

    // The object's keys that no read asked for.
    QJsonObject rest() const
    {
        QJsonObject extra;
        for (auto it = m_object.begin(); it != m_object.end(); ++it) {
            if (!m_known.contains(it.key()))
                extra.insert(it.key(), it.value());
        }
        return extra;
    }

    // The value under k, undefined when absent; the key counts as known.
    QJsonValue value(QLatin1String k)
    {
        m_known << k;
        return m_object.value(k);
    }

    std::optional<QString> string(QLatin1String k)
    {
        const QJsonValue v = value(k);
        if (v.isUndefined())
            return std::nullopt;
        if (!v.isString()) {
            warn(k, QStringLiteral("expected a string"));
            return std::nullopt;
        }
        return v.toString();
    }

    std::optional<bool> boolean(QLatin1String k)
    {
        const QJsonValue v = value(k);
        if (v.isUndefined())
            return std::nullopt;
        if (!v.isBool()) {
            warn(k, QStringLiteral("expected true or false"));
            return std::nullopt;
        }
        return v.toBool();
    }

    // A number; null reads as NaN (what the writer wrote for one), and is written back as null.
    std::optional<double> number(QLatin1String k)
    {
        const QJsonValue v = value(k);
        if (v.isUndefined())
            return std::nullopt;
        if (v.isNull())
            return std::numeric_limits<double>::quiet_NaN();
        if (!v.isDouble()) {
            warn(k, QStringLiteral("expected a number"));
            return std::nullopt;
        }
        return v.toDouble();
    }

    std::optional<qint64> whole(QLatin1String k)
    {
        const QJsonValue v = value(k);
        if (v.isUndefined())
            return std::nullopt;
        if (!v.isDouble() || v.toDouble() != std::floor(v.toDouble()) || std::abs(v.toDouble()) > 9.0e15) {
            warn(k, QStringLiteral("expected a whole number"));
            return std::nullopt;
        }
        return qint64(v.toDouble());
    }

    std::optional<int> integer(QLatin1String k)
    {
        const std::optional<qint64> v = whole(k);
        if (v && (*v < std::numeric_limits<int>::min() || *v > std::numeric_limits<int>::max())) {
            warn(k, QStringLiteral("%1 is out of range").arg(*v));
            return std::nullopt;
        }
        return v ? std::optional<int>(int(*v)) : std::nullopt;
    }

    // A count, or null: kUnknownCount.
    std::optional<qint64> count(QLatin1String k)
    {
        const QJsonValue v = value(k);
        if (v.isUndefined())
            return std::nullopt;
        if (v.isNull())
            return kUnknownCount;
        if (!v.isDouble()) {
            warn(k, QStringLiteral("expected a count or null"));
            return std::nullopt;
        }
        return qint64(v.toDouble());
    }

    // A rate's text or a number.
    std::optional<QJsonValue> load(QLatin1String k)
    {
        const QJsonValue v = value(k);
        if (v.isUndefined())
            return std::nullopt;
        if (!v.isString() && !v.isDouble()) {
            warn(k, QStringLiteral("expected a load (a rate's text or a number)"));
            return std::nullopt;
        }
        return v;
    }

    std::optional<QJsonObject> object(QLatin1String k)
    {
        const QJsonValue v = value(k);
        if (v.isUndefined())
            return std::nullopt;
        if (!v.isObject()) {
            warn(k, QStringLiteral("expected an object"));
            return std::nullopt;
        }
        return v.toObject();
    }

    std::optional<QJsonArray> array(QLatin1String k)
    {
        const QJsonValue v = value(k);
        if (v.isUndefined())
            return std::nullopt;
        if (!v.isArray()) {
            warn(k, QStringLiteral("expected an array"));
            return std::nullopt;
        }
        return v.toArray();
    }

    // Strings; an item that is not one is named and left out.
    std::optional<QStringList> strings(QLatin1String k)
    {
        const std::optional<QJsonArray> a = array(k);
        if (!a)
            return std::nullopt;
        QStringList out;
        for (qsizetype i = 0; i < a->size(); ++i) {
            if (a->at(i).isString())
                out << a->at(i).toString();
            else
                m_warnings << QStringLiteral("%1[%2]: expected a string; left out").arg(at(k)).arg(i);
        }
        return out;
    }

    // A time as the writer writes it (ISO 8601, with milliseconds or without); invalid when absent.
    QDateTime time(QLatin1String k)
    {
        const std::optional<QString> text = string(k);
        if (!text)
            return {};
        QDateTime t = QDateTime::fromString(*text, Qt::ISODateWithMs);
        if (!t.isValid())
            t = QDateTime::fromString(*text, Qt::ISODate);
        if (!t.isValid())
            warn(k, QStringLiteral("\"%1\" is not a time such as 2026-01-30T14:15:02.000").arg(*text));
        return t;
    }

    // Objects of an array, each read by read(Reader&); one that is not an object is named and left out.
    template <typename T, typename F> std::optional<std::vector<T>> objects(QLatin1String k, F read)
    {
        const std::optional<QJsonArray> a = array(k);
        if (!a)
            return std::nullopt;
        std::vector<T> out;
        for (qsizetype i = 0; i < a->size(); ++i) {
            const QString where = QStringLiteral("%1[%2]").arg(at(k)).arg(i);
            if (!a->at(i).isObject()) {
                m_warnings << QStringLiteral("%1: expected an object").arg(where);
                continue;
            }
            const QJsonObject object = a->at(i).toObject();
            Reader item(object, where + QLatin1Char('.'), m_warnings);
            out.push_back(read(item, i));
        }
        return out;
    }

private:
    const QJsonObject& m_object;
    QString m_prefix;
    QStringList& m_warnings;
    QStringList m_known;
};

RunPlannedStep readPlannedStep(Reader& r, qsizetype)
{
    RunPlannedStep s;
    s.mode = r.string(key::mode);
    s.load = r.load(key::load);
    s.purpose = r.string(key::purpose);
    return s;
}

RunShardPart readShardPart(Reader& r, qsizetype)
{
    RunShardPart p;
    p.shard = r.integer(key::shardIndex).value_or(0);
    p.load = r.string(key::load).value_or(QString());
    p.completed = r.count(key::completed).value_or(0);
    p.failed = r.count(key::failed).value_or(0);
    p.partial = r.boolean(key::partial).value_or(false);
    p.clientBound = r.boolean(key::clientBound).value_or(false);
    p.startOffsetS = r.number(key::startOffsetS).value_or(0.0);
    p.durationS = r.number(key::durationS).value_or(0.0);
    return p;
}

RunMergedShard readMergedShard(Reader& r, qsizetype)
{
    RunMergedShard s;
    s.index = r.integer(key::index).value_or(0);
    s.dir = r.string(key::dir).value_or(QString());
    s.status = r.string(key::status).value_or(QString());
    s.steps = r.integer(key::stepCount).value_or(0);
    s.environment = r.object(key::environment).value_or(QJsonObject());
    return s;
}

RunStepEntry readStep(Reader& r, qsizetype position)
{
    RunStepEntry s;
    s.index = r.integer(key::index).value_or(int(position)); // an entry without one: its place
    s.load = r.string(key::load);
    s.mode = r.string(key::mode);
    s.offered = r.load(key::offered);
    s.purpose = r.string(key::purpose);
    s.file = r.string(key::file);
    s.completed = r.count(key::completed);
    s.failed = r.count(key::failed);
    s.partial = r.boolean(key::partial);
    s.clientBound = r.boolean(key::clientBound);
    s.predicted = r.boolean(key::predicted);
    s.datasetSkipped = r.whole(key::datasetSkipped);
    s.dispatchLagP99Ms = r.number(key::dispatchLagP99Ms);
    s.sent = r.whole(key::sent);
    s.errorRate = r.number(key::errorRate);
    s.flags = r.strings(key::flags);
    s.startUnixS = r.number(key::startUnixS);
    s.startLateS = r.number(key::startLateS);
    s.startSpreadS = r.number(key::startSpreadS);
    s.meetsSlo = r.boolean(key::meetsSlo);
    // A server that is not an object is kept as {}: the step's reader says its statistics are left out.
    if (const QJsonValue server = r.value(key::server); !server.isUndefined())
        s.server = server.toObject();
    s.servers = r.array(key::servers);
    s.joulesPerOutputToken = r.number(key::joulesPerOutputToken);
    s.metricsFile = r.string(key::metricsFile);
    s.intervals = r.object(key::intervals);
    s.sourceFile = r.string(key::sourceFile);
    s.sourcePath = r.string(key::sourcePath);
    s.repeat = r.integer(key::repeat);
    s.noTimeline = r.string(key::noTimeline);
    s.shards = r.objects<RunShardPart>(key::shards, readShardPart);
    s.extra = r.rest();
    return s;
}

} // namespace

const RunStepEntry* RunDocument::step(int index) const
{
    for (const RunStepEntry& s : steps) {
        if (s.index == index)
            return &s;
    }
    return nullptr;
}

QJsonObject RunDocument::toJson() const
{
    QJsonObject o;
    o.insert(key::format, kFormat);
    put(o, key::status, status);
    put(o, key::source, source);
    put(o, key::predicted, predicted);
    if (prediction) {
        QJsonObject p;
        p.insert(key::twinFile, prediction->twinFile);
        p.insert(key::sourceRuns, QJsonArray::fromStringList(prediction->sourceRuns));
        p.insert(key::overrides, prediction->overrides);
        p.insert(key::replicas, prediction->replicas);
        o.insert(key::prediction, p);
    }
    put(o, key::name, name);
    put(o, key::tags, tags);
    put(o, key::notes, notes);
    put(o, key::created, created);
    put(o, key::updated, updated);
    put(o, key::importedFrom, importedFrom);
    put(o, key::importGroup, importGroup);
    put(o, key::importIdentity, importIdentity);
    put(o, key::fileSettings, fileSettings);
    put(o, key::profile, profile);
    put(o, key::environment, environment);
    if (plan)
        o.insert(key::plan, planJson(*plan));
    QJsonArray entries;
    for (const RunStepEntry& s : steps)
        entries.append(stepJson(s));
    o.insert(key::steps, entries);
    if (currentStep)
        o.insert(key::currentStep, currentStepJson(*currentStep));
    put(o, key::shard, shard);
    if (merged)
        o.insert(key::merged, mergedJson(*merged));
    put(o, key::serverConfig, serverConfig);
    return withExtra(o, extra);
}

QByteArray RunDocument::toBytes() const
{
    return QJsonDocument(toJson()).toJson(QJsonDocument::Indented);
}

RunDocumentRead parseRunDocument(const QJsonObject& json, const QString& path)
{
    RunDocumentRead out;
    const QJsonValue format = json.value(key::format);
    if (format.toString() != kFormat) {
        out.error = format.isUndefined() ? QStringLiteral("%1: format: missing (expected \"%2\")").arg(path, kFormat)
                                         : QStringLiteral("%1: format: \"%2\" is not a run this version reads (%3)")
                                               .arg(path, format.toString(), kFormat);
        return out;
    }
    if (json.contains(key::steps) && !json.value(key::steps).isArray()) {
        out.error = QStringLiteral("%1: steps: expected an array").arg(path);
        return out;
    }
    RunDocument d;
    Reader run(json, path + QStringLiteral(": "), out.warnings);
    run.value(key::format);
    d.status = run.string(key::status);
    d.source = run.string(key::source);
    d.predicted = run.boolean(key::predicted);
    if (const std::optional<QJsonObject> p = run.object(key::prediction)) {
        Reader pr(*p, run.at(key::prediction) + QLatin1Char('.'), out.warnings);
        RunPrediction prediction;
        prediction.twinFile = pr.string(key::twinFile).value_or(QString());
        prediction.sourceRuns = pr.strings(key::sourceRuns).value_or(QStringList());
        prediction.overrides = pr.object(key::overrides).value_or(QJsonObject());
        prediction.replicas = pr.integer(key::replicas).value_or(1);
        d.prediction = prediction;
    }
    d.name = run.string(key::name);
    d.tags = run.strings(key::tags);
    d.notes = run.string(key::notes);
    d.created = run.time(key::created);
    d.updated = run.time(key::updated);
    d.importedFrom = run.strings(key::importedFrom);
    d.importGroup = run.string(key::importGroup);
    d.importIdentity = run.object(key::importIdentity);
    d.fileSettings = run.object(key::fileSettings);
    d.profile = run.object(key::profile);
    d.environment = run.object(key::environment);
    if (const std::optional<QJsonObject> p = run.object(key::plan)) {
        Reader pr(*p, run.at(key::plan) + QLatin1Char('.'), out.warnings);
        RunPlan plan;
        plan.kind = pr.string(key::kind);
        plan.planned = pr.objects<RunPlannedStep>(key::planned, readPlannedStep);
        plan.stoppedEarly = pr.string(key::stoppedEarly);
        plan.extra = pr.rest();
        d.plan = plan;
    }
    d.steps = run.objects<RunStepEntry>(key::steps, readStep).value_or(std::vector<RunStepEntry> {});
    if (const std::optional<QJsonObject> c = run.object(key::currentStep)) {
        Reader cr(*c, run.at(key::currentStep) + QLatin1Char('.'), out.warnings);
        RunCurrentStep current;
        current.index = cr.integer(key::index);
        current.mode = cr.string(key::mode);
        current.offered = cr.load(key::offered);
        current.load = cr.string(key::load);
        current.purpose = cr.string(key::purpose);
        current.started = cr.time(key::started);
        current.extra = cr.rest();
        d.currentStep = current;
    }
    d.shard = run.object(key::shard);
    if (const std::optional<QJsonObject> m = run.object(key::merged)) {
        Reader mr(*m, run.at(key::merged) + QLatin1Char('.'), out.warnings);
        RunMergeInfo merged;
        merged.count = mr.integer(key::count).value_or(0);
        merged.shards
            = mr.objects<RunMergedShard>(key::shards, readMergedShard).value_or(std::vector<RunMergedShard> {});
        merged.flags = mr.strings(key::flags);
        d.merged = merged;
    }
    d.serverConfig = run.object(key::serverConfig);
    d.extra = run.rest();
    out.document = std::move(d);
    return out;
}

RunStepEntry parseRunStepEntry(const QJsonObject& entry, int position, const QString& where, QStringList* warnings)
{
    QStringList ignored;
    Reader r(entry, where + QLatin1Char('.'), warnings ? *warnings : ignored);
    return readStep(r, position);
}

RunDocumentRead parseRunDocument(const QByteArray& bytes, const QString& path)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
    RunDocumentRead out;
    if (parseError.error != QJsonParseError::NoError) {
        out.error = QStringLiteral("%1: invalid JSON at offset %2: %3")
                        .arg(path)
                        .arg(parseError.offset)
                        .arg(parseError.errorString());
        return out;
    }
    if (!doc.isObject()) {
        out.error = QStringLiteral("%1: $: expected an object").arg(path);
        return out;
    }
    return parseRunDocument(doc.object(), path);
}

RunDocumentRead readRunDocument(const QString& path)
{
    RunDocumentRead out;
    std::optional<QByteArray> bytes = readBoundedFile(path, kMaxResultFileBytes, &out.error);
    if (!bytes)
        return out;
    return parseRunDocument(bytes->isNull() ? QByteArray("") : *bytes, path);
}

bool writeRunDocument(const QString& path, const RunDocument& document, QString* error)
{
    return writeFileAtomically(path, document.toBytes(), error);
}

} // namespace kp
