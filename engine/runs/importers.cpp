#include "runs/importers.h"

#include "metrics/boundedread.h"
#include "metrics/resultjson.h"
#include "profile/profile.h"
#include "runs/runcatalog.h"
#include "store/runwriter.h"
#include "sweep/kneeanalysis.h"
#include "sweep/sweepplanner.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace kp {

namespace {

struct Step
{
    StepSetup setup;
    StepMetrics metrics;
    LoadMode mode = LoadMode::Rate;
    double offered = 0.0;
    QString sourceFile; // file name the step came from
    std::vector<RequestRecord> records;
};

struct FileContents
{
    QString source; // vllm | sglang | guidellm
    std::vector<Step> steps;
    QString model, target, label, toolVersion;
};

QString lineColumn(const QByteArray& bytes, int offset)
{
    int line = 1;
    int column = 1;
    for (int i = 0; i < offset && i < bytes.size(); ++i) {
        if (bytes[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return QStringLiteral("%1:%2").arg(line).arg(column);
}

// Python's json writes bare Infinity and NaN; QJsonDocument takes neither.
QByteArray quoteNonFinite(const QByteArray& bytes)
{
    if (!bytes.contains("Infinity") && !bytes.contains("NaN"))
        return bytes;
    static const QRegularExpression literal(QStringLiteral("([:\\[,]\\s*)(-?Infinity|NaN)(?=\\s*[,}\\]])"));
    QString text = QString::fromUtf8(bytes);
    text.replace(literal, QStringLiteral("\\1\"\\2\""));
    return text.toUtf8();
}

// The objects of a file in the order ResultJson::read sees them: one object, an array, or JSON Lines.
QList<QJsonObject> stepObjects(const QByteArray& bytes)
{
    QList<QJsonObject> out;
    const QByteArray text = quoteNonFinite(bytes);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &error);
    if (error.error == QJsonParseError::NoError) {
        if (doc.isObject())
            out << doc.object();
        for (const QJsonValue& v : doc.array())
            out << v.toObject();
        return out;
    }
    for (const QByteArray& line : text.split('\n')) {
        if (line.trimmed().isEmpty())
            continue;
        out << QJsonDocument::fromJson(line).object();
    }
    return out;
}

qint64 nanoseconds(double seconds)
{
    return static_cast<qint64>(std::llround(seconds * 1e9));
}

// The per-request lists the reference writes with --save-detailed (and SGLang with --output-details).
// Times are relative to each request's send: the files keep no common time base.
bool detailRecords(const QJsonObject& o, const QString& where, std::vector<RequestRecord>& records, QString* error)
{
    const QJsonValue ttfts = o.value(u"ttfts");
    if (!ttfts.isArray())
        return true;
    const QJsonArray t = ttfts.toArray();
    const QJsonArray itls = o.value(u"itls").toArray();
    const QJsonArray inputs = o.value(u"input_lens").toArray();
    const QJsonArray outputs = o.value(u"output_lens").toArray();
    const QJsonArray errors = o.value(u"errors").toArray();
    auto checkLength = [&](const QJsonArray& a, const char* key) {
        if (!a.isEmpty() && a.size() != t.size()) {
            *error = QStringLiteral("%1.%2: %3 entries, but ttfts has %4")
                         .arg(where, QLatin1String(key))
                         .arg(a.size())
                         .arg(t.size());
            return false;
        }
        return true;
    };
    if (!checkLength(itls, "itls") || !checkLength(inputs, "input_lens") || !checkLength(outputs, "output_lens")
        || !checkLength(errors, "errors"))
        return false;
    records.reserve(std::size_t(t.size()));
    for (qsizetype i = 0; i < t.size(); ++i) {
        if (!t[i].isDouble()) {
            *error = QStringLiteral("%1.ttfts[%2]: expected seconds").arg(where).arg(i);
            return false;
        }
        RequestRecord r;
        r.index = i;
        r.promptTokens = inputs.isEmpty() ? 0 : inputs[i].toInt();
        r.outputTokens = outputs.isEmpty() ? 0 : outputs[i].toInt();
        const QString message = errors.isEmpty() ? QString() : errors[i].toString();
        r.sentNs = 0;
        if (!message.isEmpty()) {
            // The files keep the message, not a class.
            r.failure = FailureClass::Network;
            r.errorMessage = message;
            records.push_back(std::move(r));
            continue;
        }
        r.httpStatus = 200;
        r.firstTokenNs = r.firstContentNs = nanoseconds(t[i].toDouble());
        r.chunkNs.push_back(r.firstTokenNs);
        const QJsonArray gaps = itls.isEmpty() ? QJsonArray() : itls[i].toArray();
        double at = t[i].toDouble();
        for (qsizetype g = 0; g < gaps.size(); ++g) {
            if (!gaps[g].isDouble()) {
                *error = QStringLiteral("%1.itls[%2][%3]: expected seconds").arg(where).arg(i).arg(g);
                return false;
            }
            at += gaps[g].toDouble();
            r.chunkNs.push_back(nanoseconds(at));
        }
        r.lastTokenNs = r.endNs = r.chunkNs.back();
        records.push_back(std::move(r));
    }
    return true;
}

// ---- GuideLLM -------------------------------------------------------------------------------------------

class GuidellmReader
{
public:
    GuidellmReader(const QString& path, QString* error)
        : m_path(path)
        , m_error(error)
    { }

    bool read(const QJsonObject& report, FileContents& out);

private:
    bool fail(const QString& where, const QString& message)
    {
        *m_error = QStringLiteral("%1: %2: %3").arg(m_path, where, message);
        return false;
    }
    bool readBenchmark(const QJsonObject& b, const QString& where, Step& step);
    // A StatusDistributionSummary's "successful" part as LatencyStats (values times scale).
    static LatencyStats stats(const QJsonObject& metrics, const char* key, double scale);
    static double successful(const QJsonObject& metrics, const char* key, const char* field, double otherwise);

    QString m_path;
    QString* m_error;
};

QJsonObject successfulPart(const QJsonObject& metrics, const char* key)
{
    return metrics.value(QLatin1String(key)).toObject().value(u"successful").toObject();
}

LatencyStats GuidellmReader::stats(const QJsonObject& metrics, const char* key, double scale)
{
    const QJsonObject d = successfulPart(metrics, key);
    LatencyStats s;
    if (d.isEmpty())
        return s;
    s.count = qint64(d.value(u"count").toDouble());
    s.mean = d.value(u"mean").toDouble() * scale;
    s.median = d.value(u"median").toDouble() * scale;
    s.stddev = d.value(u"std_dev").toDouble() * scale;
    s.min = d.value(u"min").toDouble() * scale;
    s.max = d.value(u"max").toDouble() * scale;
    static const std::pair<const char*, double> names[] = { { "p001", 0.1 }, { "p01", 1 }, { "p05", 5 }, { "p10", 10 },
        { "p25", 25 }, { "p50", 50 }, { "p75", 75 }, { "p90", 90 }, { "p95", 95 }, { "p99", 99 }, { "p999", 99.9 } };
    const QJsonObject p = d.value(u"percentiles").toObject();
    for (const auto& [name, percentile] : names) {
        const QJsonValue v = p.value(QLatin1String(name));
        if (v.isDouble())
            s.percentiles.emplace_back(percentile, v.toDouble() * scale);
    }
    return s;
}

double GuidellmReader::successful(const QJsonObject& metrics, const char* key, const char* field, double otherwise)
{
    const QJsonValue v = successfulPart(metrics, key).value(QLatin1String(field));
    return v.isDouble() ? v.toDouble() : otherwise;
}

QJsonObject firstObject(const QJsonObject& o, std::initializer_list<const char*> keys)
{
    for (const char* key : keys) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isObject())
            return v.toObject();
    }
    return {};
}

// The first string under one of `keys`, searched depth-first through nested objects.
QString findString(const QJsonObject& o, std::initializer_list<const char*> keys, int depth = 0)
{
    for (const char* key : keys) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isString() && !v.toString().isEmpty())
            return v.toString();
    }
    if (depth >= 3)
        return {};
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (it.value().isObject()) {
            const QString found = findString(it.value().toObject(), keys, depth + 1);
            if (!found.isEmpty())
                return found;
        }
    }
    return {};
}

bool GuidellmReader::readBenchmark(const QJsonObject& b, const QString& where, Step& step)
{
    // The strategy: config.strategy (current reports), args.strategy (older ones) or strategy.
    QJsonObject strategy = firstObject(b.value(u"config").toObject(), { "strategy" });
    QString strategyWhere = where + QStringLiteral(".config.strategy");
    if (strategy.isEmpty()) {
        strategy = firstObject(b.value(u"args").toObject(), { "strategy" });
        strategyWhere = where + QStringLiteral(".args.strategy");
    }
    if (strategy.isEmpty()) {
        strategy = b.value(u"strategy").toObject();
        strategyWhere = where + QStringLiteral(".strategy");
    }
    if (strategy.isEmpty())
        return fail(where, QStringLiteral("no strategy (config.strategy, args.strategy): the load is unknown"));
    QString type = strategy.value(u"type_").toString();
    if (type.isEmpty())
        type = strategy.value(u"type").toString();
    StepSetup& s = step.setup;
    if (type == QLatin1String("constant") || type == QLatin1String("poisson")) {
        const QJsonValue rate = strategy.value(u"rate");
        if (!rate.isDouble() || rate.toDouble() <= 0)
            return fail(strategyWhere + QStringLiteral(".rate"), QStringLiteral("expected a rate > 0"));
        step.mode = LoadMode::Rate;
        step.offered = s.requestRate = rate.toDouble();
        s.burstiness = type == QLatin1String("poisson") ? 1.0 : std::numeric_limits<double>::infinity();
        if (strategy.value(u"max_concurrency").isDouble())
            s.maxConcurrency = strategy.value(u"max_concurrency").toInt();
    } else if (type == QLatin1String("synchronous") || type == QLatin1String("concurrent")) {
        int streams = 1;
        if (type == QLatin1String("concurrent")) {
            const QJsonValue v = strategy.value(u"streams");
            if (!v.isDouble() || v.toInt() < 1)
                return fail(strategyWhere + QStringLiteral(".streams"), QStringLiteral("expected a whole number >= 1"));
            streams = v.toInt();
        }
        step.mode = LoadMode::Concurrency;
        step.offered = streams;
        s.maxConcurrency = streams;
    } else if (type == QLatin1String("throughput")) {
        step.mode = LoadMode::Rate;
        step.offered = s.requestRate = std::numeric_limits<double>::infinity();
        if (strategy.value(u"max_concurrency").isDouble())
            s.maxConcurrency = strategy.value(u"max_concurrency").toInt();
    } else {
        return fail(strategyWhere + QStringLiteral(".type_"),
            QStringLiteral("unknown strategy \"%1\" (synchronous, concurrent, throughput, constant, poisson)")
                .arg(type));
    }

    const QJsonValue metricsValue = b.value(u"metrics");
    if (!metricsValue.isObject())
        return fail(where + QStringLiteral(".metrics"), QStringLiteral("missing or not an object"));
    const QJsonObject m = metricsValue.toObject();
    if (!m.value(u"time_to_first_token_ms").isObject())
        return fail(where + QStringLiteral(".metrics.time_to_first_token_ms"), QStringLiteral("missing"));

    StepMetrics& out = step.metrics;
    double duration = b.value(u"duration").toDouble(-1);
    if (duration <= 0 && b.value(u"end_time").isDouble() && b.value(u"start_time").isDouble())
        duration = b.value(u"end_time").toDouble() - b.value(u"start_time").toDouble();
    if (duration <= 0) {
        const QJsonObject sm = b.value(u"scheduler_metrics").toObject();
        if (sm.value(u"measure_end_time").isDouble() && sm.value(u"measure_start_time").isDouble())
            duration = sm.value(u"measure_end_time").toDouble() - sm.value(u"measure_start_time").toDouble();
    }
    if (duration <= 0) {
        const QJsonObject rs = b.value(u"run_stats").toObject();
        if (rs.value(u"end_time").isDouble() && rs.value(u"start_time").isDouble())
            duration = rs.value(u"end_time").toDouble() - rs.value(u"start_time").toDouble();
    }
    if (duration <= 0)
        return fail(where + QStringLiteral(".duration"),
            QStringLiteral("missing (and no start_time/end_time or scheduler_metrics to compute it)"));
    out.durationS = duration;

    QJsonObject totals = m.value(u"request_totals").toObject();
    if (totals.isEmpty())
        totals = b.value(u"request_totals").toObject();
    if (totals.isEmpty())
        totals = b.value(u"run_stats").toObject().value(u"requests_made").toObject();
    out.completed = totals.contains(u"successful") ? qint64(totals.value(u"successful").toDouble())
                                                   : qint64(successful(m, "time_to_first_token_ms", "count", 0));
    out.failed = qint64(totals.value(u"errored").toDouble());
    out.options.percentiles = { 0.1, 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9 };
    out.options.selectedMetrics = { LatencyMetric::Ttft, LatencyMetric::Tpot, LatencyMetric::Itl, LatencyMetric::E2el };
    out.requestThroughput = successful(m, "requests_per_second", "mean", double(out.completed) / duration);
    out.outputThroughput = successful(m, "output_tokens_per_second", "mean", 0);
    out.totalTokenThroughput = successful(m, "tokens_per_second", "mean", 0);
    out.totalInputTokens = qint64(std::llround(successful(m, "prompt_token_count", "total_sum", 0)));
    out.totalOutputTokens = qint64(std::llround(successful(m, "output_token_count", "total_sum", 0)));
    out.meanConcurrency = successful(m, "request_concurrency", "mean", 0);
    out.maxConcurrentRequests = qint64(std::llround(successful(m, "request_concurrency", "max", 0)));
    out.ttft = stats(m, "time_to_first_token_ms", 1);
    out.firstContentTtft
        = m.contains(u"time_to_first_output_token_ms") ? stats(m, "time_to_first_output_token_ms", 1) : out.ttft;
    // GuideLLM's inter-token latency of a request is (last token - first token) / (output tokens - 1): the
    // reference's TPOT of that request; weighted by the request's gaps, its mean is the pooled ITL mean.
    out.tpot = stats(m, "inter_token_latency_ms", 1);
    out.itl = out.tpot;
    out.e2el = stats(m, "request_latency", 1000); // seconds
    s.numPrompts = out.completed + out.failed;
    s.backend = QStringLiteral("openai");
    return true;
}

bool GuidellmReader::read(const QJsonObject& report, FileContents& out)
{
    const QJsonArray benchmarks = report.value(u"benchmarks").toArray();
    if (benchmarks.isEmpty())
        return fail(QStringLiteral("benchmarks"), QStringLiteral("empty: the report holds no benchmark"));
    out.source = QStringLiteral("guidellm");
    for (qsizetype i = 0; i < benchmarks.size(); ++i) {
        const QString where = QStringLiteral("benchmarks[%1]").arg(i);
        if (!benchmarks[i].isObject())
            return fail(where, QStringLiteral("expected an object"));
        const QJsonObject b = benchmarks[i].toObject();
        Step step;
        if (!readBenchmark(b, where, step))
            return false;
        if (out.model.isEmpty())
            out.model = findString(b, { "backend_model", "model" });
        if (out.target.isEmpty())
            out.target = findString(b, { "backend_target", "target" });
        step.setup.modelId = out.model;
        out.steps.push_back(std::move(step));
    }
    if (out.model.isEmpty())
        out.model = findString(report.value(u"args").toObject(), { "model" });
    if (out.target.isEmpty())
        out.target = findString(report.value(u"args").toObject(), { "target" });
    out.toolVersion = findString(report.value(u"metadata").toObject(), { "guidellm_version", "version" });
    for (Step& s : out.steps)
        s.setup.modelId = out.model;
    return true;
}

// ---- reading one file -----------------------------------------------------------------------------------

bool readFile(const QString& path, ImportFormat format, FileContents& out, QStringList& warnings, QString* error)
{
    const std::optional<QByteArray> read = readBoundedFile(path, kMaxResultFileBytes, error);
    if (!read)
        return false;
    const QByteArray& bytes = *read;
    if (bytes.trimmed().isEmpty()) {
        *error = QStringLiteral("%1: empty file").arg(path);
        return false;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(quoteNonFinite(bytes), &parseError);
    const bool guidellm
        = parseError.error == QJsonParseError::NoError && doc.isObject() && doc.object().contains(u"benchmarks");
    if (format == ImportFormat::Guidellm || (format == ImportFormat::Auto && guidellm)) {
        if (parseError.error != QJsonParseError::NoError) {
            *error = QStringLiteral("%1:%2: invalid JSON: %3")
                         .arg(path, lineColumn(bytes, parseError.offset), parseError.errorString());
            return false;
        }
        if (!guidellm) {
            *error = QStringLiteral("%1: benchmarks: missing: not a GuideLLM report").arg(path);
            return false;
        }
        if (!doc.object().value(u"benchmarks").isArray()) {
            *error = QStringLiteral("%1: benchmarks: expected an array").arg(path);
            return false;
        }
        return GuidellmReader(path, error).read(doc.object(), out);
    }
    if (guidellm) {
        *error = QStringLiteral("%1: a GuideLLM report (it has \"benchmarks\"), not a %2 result file")
                     .arg(path, importFormatName(format));
        return false;
    }
    const ResultFileContents contents = ResultJson::read(bytes, path);
    if (!contents.ok()) {
        *error = contents.error;
        return false;
    }
    if (contents.steps.empty()) {
        *error = QStringLiteral("%1: no benchmark result in the file").arg(path);
        return false;
    }
    const QString detected
        = contents.steps.front().format == QLatin1String("sglang") ? QStringLiteral("sglang") : QStringLiteral("vllm");
    out.source = format == ImportFormat::Auto ? detected : importFormatName(format);
    const QList<QJsonObject> objects = stepObjects(bytes);
    const bool pair = objects.size() == qsizetype(contents.steps.size());
    const bool jsonLines = parseError.error != QJsonParseError::NoError;
    for (std::size_t i = 0; i < contents.steps.size(); ++i) {
        const ImportedStep& imported = contents.steps[i];
        warnings << imported.warnings;
        Step step;
        step.setup = imported.setup;
        step.metrics = imported.metrics;
        const SweepPoint p = SweepPoint::fromStep(imported.setup, imported.metrics);
        step.mode = p.concurrencyMode ? LoadMode::Concurrency : LoadMode::Rate;
        step.offered = p.offered;
        if (pair) {
            const QString where = jsonLines ? QStringLiteral("%1: line %2").arg(path).arg(i + 1)
                : objects.size() > 1        ? QStringLiteral("%1: $[%2]").arg(path).arg(i)
                                            : QStringLiteral("%1: $").arg(path);
            if (!detailRecords(objects[qsizetype(i)], where, step.records, error))
                return false;
        }
        if (out.model.isEmpty())
            out.model = imported.setup.modelId;
        if (out.label.isEmpty())
            out.label = imported.setup.label;
        out.steps.push_back(std::move(step));
    }
    return true;
}

} // namespace

QString importFormatName(ImportFormat format)
{
    switch (format) {
    case ImportFormat::Auto:
        return QStringLiteral("auto");
    case ImportFormat::Vllm:
        return QStringLiteral("vllm");
    case ImportFormat::Sglang:
        return QStringLiteral("sglang");
    case ImportFormat::Guidellm:
        return QStringLiteral("guidellm");
    }
    return {};
}

std::optional<ImportFormat> importFormatFromName(QStringView name)
{
    for (ImportFormat f : { ImportFormat::Auto, ImportFormat::Vllm, ImportFormat::Sglang, ImportFormat::Guidellm }) {
        if (name.compare(importFormatName(f), Qt::CaseInsensitive) == 0)
            return f;
    }
    return std::nullopt;
}

ImportResult importRun(const QStringList& paths, const QString& runsRoot, const ImportOptions& options)
{
    ImportResult result;
    if (paths.isEmpty()) {
        result.error = QStringLiteral("nothing to import: give result files or folders");
        return result;
    }
    QStringList files;
    for (const QString& path : paths) {
        const QFileInfo info(path);
        if (!info.exists()) {
            result.error = QStringLiteral("%1: no such file or folder").arg(path);
            return result;
        }
        if (!info.isDir()) {
            files << info.absoluteFilePath();
            continue;
        }
        const QDir dir(info.absoluteFilePath());
        const QStringList names
            = dir.entryList({ QStringLiteral("*.json"), QStringLiteral("*.jsonl") }, QDir::Files, QDir::Name);
        if (names.isEmpty()) {
            result.error = QStringLiteral("%1: no result files (*.json, *.jsonl) in the folder").arg(path);
            return result;
        }
        for (const QString& name : names)
            files << dir.filePath(name);
    }

    std::vector<Step> steps;
    FileContents first;
    QString firstFile;
    for (const QString& file : files) {
        FileContents contents;
        if (!readFile(file, options.format, contents, result.warnings, &result.error))
            return result;
        if (firstFile.isEmpty()) {
            firstFile = file;
            first = contents;
        } else if (contents.source != first.source) {
            // vLLM and SGLang files differ only in some keys, which the reader takes either way; a
            // GuideLLM report is a sweep of its own.
            if (contents.source == QLatin1String("guidellm") || first.source == QLatin1String("guidellm")) {
                result.error = QStringLiteral("%1: %2 results among %3 results from %4: import them as separate runs")
                                   .arg(file, contents.source, first.source, firstFile);
                return result;
            }
            result.warnings << QStringLiteral("%1: reads as %2 results among %3 results; imported as %3")
                                   .arg(file, contents.source, first.source);
        }
        for (Step& s : contents.steps) {
            s.sourceFile = QFileInfo(file).fileName();
            steps.push_back(std::move(s));
        }
    }
    result.source = first.source;

    // The load axis: the mode most steps use; the others (GuideLLM's synchronous step in a rate sweep)
    // come first, then the axis in load order.
    const auto onRate
        = std::count_if(steps.begin(), steps.end(), [](const Step& s) { return s.mode == LoadMode::Rate; });
    const LoadMode axis = onRate * 2 >= qsizetype(steps.size()) ? LoadMode::Rate : LoadMode::Concurrency;
    std::stable_sort(steps.begin(), steps.end(), [axis](const Step& a, const Step& b) {
        if ((a.mode == axis) != (b.mode == axis))
            return a.mode != axis;
        return a.offered < b.offered;
    });

    QString name = options.name.trimmed();
    if (name.isEmpty())
        name = first.label;
    if (name.isEmpty()) {
        const QFileInfo info(paths.constFirst());
        name = info.isDir() ? QDir(info.absoluteFilePath()).dirName() : info.completeBaseName();
    }

    // The profile as far as the files tell: target, model and the loads; nothing else is known.
    QJsonObject target;
    target.insert(QLatin1String("base_url"), first.target);
    if (!first.model.isEmpty())
        target.insert(QLatin1String("model"), first.model);
    const QString backend = steps.empty() ? QString() : steps.front().setup.backend;
    if (const auto b = backendFromName(backend))
        target.insert(QLatin1String("backend"), backendName(*b));
    QJsonObject load;
    load.insert(QLatin1String("mode"), loadModeName(axis));
    QJsonArray loads;
    for (const Step& s : steps) {
        if (s.mode != axis)
            continue;
        if (axis == LoadMode::Rate)
            loads.append(formatRate(s.offered));
        else
            loads.append(qint64(s.offered));
    }
    load.insert(axis == LoadMode::Rate ? QLatin1String("rates") : QLatin1String("concurrencies"), loads);
    QJsonObject profile;
    profile.insert(QLatin1String("schema"), profileSchemaId());
    profile.insert(QLatin1String("name"), name);
    profile.insert(QLatin1String("target"), target);
    profile.insert(QLatin1String("load"), load);

    if (!QDir().mkpath(runsRoot)) {
        result.error = QStringLiteral("%1: cannot create the runs folder").arg(runsRoot);
        return result;
    }
    QTemporaryDir temporary(QDir(runsRoot).filePath(QStringLiteral(".import-XXXXXX")));
    if (!temporary.isValid()) {
        result.error
            = QStringLiteral("%1: cannot create a temporary folder: %2").arg(runsRoot, temporary.errorString());
        return result;
    }
    RunWriter writer;
    if (!writer.open(temporary.path(), &result.error))
        return result;
    QJsonArray entries;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const Step& s = steps[i];
        const int index = int(i);
        QJsonObject entry;
        entry.insert(QLatin1String("index"), index);
        entry.insert(QLatin1String("load"), formatLoad(s.mode, s.offered));
        entry.insert(QLatin1String("file"), QFileInfo(writer.stepPath(index)).fileName());
        entry.insert(QLatin1String("completed"), s.metrics.completed);
        entry.insert(QLatin1String("failed"), s.metrics.failed);
        entry.insert(QLatin1String("partial"), false);
        entry.insert(QLatin1String("client_bound"), false);
        entry.insert(QLatin1String("source_file"), s.sourceFile);
        entries.append(entry);
        if (!writer.writeStep(index, ResultJson::write(s.setup, s.metrics, {}, 2), &result.error))
            return result;
        if (!s.records.empty()) {
            QByteArray lines;
            for (const RequestRecord& r : s.records)
                lines += requestRecordToJson(r) + '\n';
            if (!writeFileAtomically(writer.requestsPath(index), lines, &result.error))
                return result;
            result.requestCount += int(s.records.size());
        }
    }
    const QString now = QDateTime::currentDateTime().toString(Qt::ISODateWithMs);
    QJsonObject run;
    run.insert(QLatin1String("format"), QLatin1String("kneepoint.run/1"));
    run.insert(QLatin1String("status"), QLatin1String("finished"));
    run.insert(QLatin1String("source"), first.source);
    run.insert(QLatin1String("name"), name);
    run.insert(QLatin1String("created"), now);
    run.insert(QLatin1String("updated"), now);
    run.insert(QLatin1String("imported_from"), QJsonArray::fromStringList(files));
    run.insert(QLatin1String("profile"), profile);
    QJsonObject environment;
    environment.insert(QLatin1String("kneepoint_version"), QLatin1String(KNEEPOINT_VERSION));
    environment.insert(QLatin1String("source_tool"), first.source);
    if (!first.toolVersion.isEmpty())
        environment.insert(QLatin1String("source_tool_version"), first.toolVersion);
    run.insert(QLatin1String("environment"), environment);
    QJsonObject plan;
    plan.insert(QLatin1String("kind"), QLatin1String("list"));
    run.insert(QLatin1String("plan"), plan);
    run.insert(QLatin1String("steps"), entries);
    if (!writer.writeRun(run, &result.error))
        return result;
    writer.close();

    const QString dir = newRunDirectory(runsRoot, name);
    if (!QDir().rename(temporary.path(), dir)) {
        result.error = QStringLiteral("%1: cannot move the imported run into place").arg(dir);
        return result;
    }
    temporary.setAutoRemove(false);
    result.dir = dir;
    result.id = QFileInfo(dir).fileName();
    result.stepCount = int(steps.size());
    return result;
}

} // namespace kp
