// AIPerf's profile_export_aiperf.json / .csv and GenAI-Perf's profile_export_genai_perf.json.
#include "runs/importformats.h"

#include <QDateTime>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>

#include <cmath>
#include <limits>

namespace kp::importdetail {

namespace {

// A metric object: {"unit": "ms", "avg": .., "p50": .., "min": .., "max": .., "std": .., "count": ..}.
bool isMetric(const QJsonValue& v)
{
    return v.isObject() && v.toObject().contains(u"unit");
}

double field(const QJsonObject& file, const char* metric, const char* name)
{
    return file.value(QLatin1String(metric)).toObject().value(QLatin1String(name)).toDouble(kUnknown);
}

qint64 countOf(double value)
{
    return isKnown(value) && value >= 0 ? qint64(std::llround(value)) : kUnknownCount;
}

// The percentile a key such as "p99" or "p99.9" names; nullopt for other keys.
std::optional<double> percentileOf(const QString& key)
{
    static const QRegularExpression name(QStringLiteral("^p(\\d{1,2}(?:\\.\\d+)?)$"));
    const QRegularExpressionMatch m = name.match(key);
    if (!m.hasMatch())
        return std::nullopt;
    return m.captured(1).toDouble();
}

// One latency distribution in ms: every statistic the file gives, the others unknown.
bool latency(const QString& path, const QJsonObject& file, const char* key, LatencyStats& out, QString* error)
{
    out = LatencyStats::unknown();
    const QJsonValue value = file.value(QLatin1String(key));
    if (!value.isObject())
        return true;
    const QJsonObject m = value.toObject();
    const QString unit = m.value(u"unit").toString();
    double scale = 1.0;
    if (unit == QLatin1String("s") || unit == QLatin1String("sec"))
        scale = 1000.0;
    else if (unit == QLatin1String("us"))
        scale = 1e-3;
    else if (unit == QLatin1String("ns"))
        scale = 1e-6;
    else if (unit != QLatin1String("ms")) {
        *error = QStringLiteral("%1: %2.unit: \"%3\", expected ms, us, ns or sec").arg(path, QLatin1String(key), unit);
        return false;
    }
    const auto get = [&](const char* name) { return m.value(QLatin1String(name)).toDouble(kUnknown) * scale; };
    out.count = countOf(m.value(u"count").toDouble(kUnknown));
    out.mean = get("avg");
    out.median = get("p50");
    out.stddev = get("std");
    out.min = get("min");
    out.max = get("max");
    std::vector<std::pair<double, double>> percentiles;
    for (auto it = m.begin(); it != m.end(); ++it) {
        if (const auto p = percentileOf(it.key()); p && it.value().isDouble())
            percentiles.emplace_back(*p, it.value().toDouble() * scale);
    }
    std::sort(percentiles.begin(), percentiles.end());
    out.percentiles = std::move(percentiles);
    return true;
}

// The first of `keys` that is a non-empty string, or the first string of an array under it.
QString firstString(const QJsonObject& o, std::initializer_list<const char*> keys)
{
    for (const char* key : keys) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isString() && !v.toString().isEmpty())
            return v.toString();
        if (v.isArray() && v.toArray().first().isString())
            return v.toArray().first().toString();
    }
    return {};
}

// The load of the measured phase. AIPerf 0.10 and later: input_config.phases[] (a warm-up phase has
// exclude_from_results); earlier AIPerf: input_config.loadgen; GenAI-Perf: input_config itself
// ("concurrency": 100, "request_rate": null).
bool readLoad(const QString& path, const QJsonObject& config, ImportedFileStep& step, QString* error)
{
    QJsonObject load;
    QString where;
    const QJsonArray phases = config.value(u"phases").toArray();
    for (qsizetype i = 0; i < phases.size(); ++i) {
        const QJsonObject phase = phases[i].toObject();
        if (phase.value(u"exclude_from_results").toBool())
            continue;
        load = phase;
        where = QStringLiteral("input_config.phases[%1]").arg(i);
    }
    if (load.isEmpty() && config.value(u"loadgen").isObject()) {
        load = config.value(u"loadgen").toObject();
        where = QStringLiteral("input_config.loadgen");
    }
    if (load.isEmpty()) {
        load = config;
        where = QStringLiteral("input_config");
    }
    const QJsonValue rate = load.contains(u"request_rate") ? load.value(u"request_rate") : load.value(u"rate");
    const QJsonValue concurrency = load.value(u"concurrency");
    StepSetup& s = step.setup;
    s.burstiness = kUnknown; // the files do not state the arrival pattern as vLLM's burstiness
    if (rate.isDouble() && rate.toDouble() > 0) {
        step.mode = LoadMode::Rate;
        step.offered = s.requestRate = rate.toDouble();
        if (concurrency.isDouble() && concurrency.toInt() >= 1)
            s.maxConcurrency = concurrency.toInt();
    } else if (concurrency.isDouble() && concurrency.toInt() >= 1) {
        step.mode = LoadMode::Concurrency;
        step.offered = concurrency.toInt();
        s.maxConcurrency = concurrency.toInt();
        s.requestRate = kUnknown; // users, each sending when its last request ended: the file states no rate
    } else {
        *error = QStringLiteral("%1: %2.concurrency, %2.request_rate: missing: the load of the step is unknown")
                     .arg(path, where);
        return false;
    }
    const QJsonValue requests = load.contains(u"requests") ? load.value(u"requests") : load.value(u"request_count");
    // GenAI-Perf writes request_count 0 when the run was bound by a measurement interval instead.
    s.numPrompts = requests.isDouble() && requests.toDouble() > 0 ? qint64(requests.toDouble()) : kUnknownCount;
    return true;
}

// The figures of the metric objects. Mapped only where the definition equals Kneepoint's (vLLM's):
// - time_to_first_token (first non-empty response chunk) -> TTFT;
// - inter_token_latency is per request (request_latency - ttft) / (output_sequence_length - 1): vLLM's
//   TPOT of that request, so it goes to TPOT;
// - ITL stays unknown: vLLM's ITL pools the gaps between every chunk with choices, and AIPerf's
//   nearest figure, inter_chunk_latency, pools the gaps between non-empty responses only;
// - request_latency (to the last response) -> E2EL; benchmark_duration (sec) -> duration;
// - request_count (successful requests) -> completed; error_request_count -> failed, else unknown;
// - total_isl / total_osl (output + reasoning tokens, as vLLM's completion tokens) -> token totals.
// - goodput (requests/sec) -> request goodput; good_request_count -> good requests; the SLOs they were
//   judged by are read with the settings (readSlos).
// time_to_second_token, time_to_first_output_token (reasoning left out) and the HTTP timings have no
// equal Kneepoint figure and are not read.
bool readMetrics(const QString& path, const QJsonObject& file, StepMetrics& out, QString* error)
{
    out.markForeign();
    out.durationS = kUnknown;
    const QJsonObject duration = file.value(u"benchmark_duration").toObject();
    if (duration.value(u"avg").isDouble()) {
        const QString unit = duration.value(u"unit").toString();
        const double value = duration.value(u"avg").toDouble();
        if (unit == QLatin1String("sec") || unit == QLatin1String("s"))
            out.durationS = value;
        else if (unit == QLatin1String("ms"))
            out.durationS = value / 1000.0;
        else {
            *error = QStringLiteral("%1: benchmark_duration.unit: \"%2\", expected sec or ms").arg(path, unit);
            return false;
        }
    }
    out.completed = countOf(field(file, "request_count", "avg"));
    out.failed = countOf(field(file, "error_request_count", "avg"));
    out.requestThroughput = field(file, "request_throughput", "avg");
    if (!isKnown(out.requestThroughput) && isKnown(out.completed) && isKnown(out.durationS) && out.durationS > 0) {
        out.requestThroughput = double(out.completed) / out.durationS;
        out.derived.push_back(QStringLiteral("request_throughput"));
    }
    out.outputThroughput = field(file, "output_token_throughput", "avg");
    out.totalInputTokens = countOf(field(file, "total_isl", "avg"));
    if (!isKnown(out.totalInputTokens))
        out.totalInputTokens = countOf(field(file, "input_sequence_length", "sum"));
    out.totalOutputTokens = countOf(field(file, "total_osl", "avg"));
    if (!isKnown(out.totalOutputTokens))
        out.totalOutputTokens = countOf(field(file, "output_sequence_length", "sum"));
    out.totalTokenThroughput = field(file, "total_token_throughput", "avg");
    if (!isKnown(out.totalTokenThroughput) && isKnown(out.totalInputTokens) && isKnown(out.totalOutputTokens)
        && isKnown(out.durationS) && out.durationS > 0) {
        out.totalTokenThroughput = double(out.totalInputTokens + out.totalOutputTokens) / out.durationS;
        out.derived.push_back(QStringLiteral("total_token_throughput"));
    }
    const QJsonObject goodput = file.value(u"goodput").toObject();
    if (goodput.value(u"avg").isDouble()) {
        const QString unit = goodput.value(u"unit").toString();
        if (unit != QLatin1String("requests/sec")) {
            *error = QStringLiteral("%1: goodput.unit: \"%2\", expected requests/sec").arg(path, unit);
            return false;
        }
        out.requestGoodput = goodput.value(u"avg").toDouble();
    }
    if (const qint64 good = countOf(field(file, "good_request_count", "avg")); isKnown(good))
        out.goodCompleted = good;
    out.maxOutputTokensPerS = kUnknown;
    out.maxConcurrentRequests = kUnknownCount;
    out.meanConcurrency = kUnknown;
    if (!latency(path, file, "time_to_first_token", out.ttft, error)
        || !latency(path, file, "inter_token_latency", out.tpot, error)
        || !latency(path, file, "request_latency", out.e2el, error))
        return false;
    out.itl = LatencyStats::unknown();
    out.firstContentTtft = LatencyStats::unknown();
    out.dispatchLag = LatencyStats::unknown();
    std::vector<double> percentiles;
    for (const LatencyStats* s : { &out.ttft, &out.tpot, &out.e2el }) {
        for (const auto& [p, value] : s->percentiles) {
            if (std::find(percentiles.begin(), percentiles.end(), p) == percentiles.end())
                percentiles.push_back(p);
        }
    }
    std::sort(percentiles.begin(), percentiles.end());
    out.options.percentiles = percentiles;
    // ITL is listed though unknown: it is written as null and shown as "—", not left out as unmeasured.
    out.options.selectedMetrics = { LatencyMetric::Ttft, LatencyMetric::Tpot, LatencyMetric::Itl, LatencyMetric::E2el };
    if (!isKnown(out.durationS) && !isKnown(out.completed) && !isKnown(out.requestThroughput)) {
        *error = QStringLiteral("%1: benchmark_duration, request_count, request_throughput: missing: not a benchmark "
                                "result")
                     .arg(path);
        return false;
    }
    return true;
}

// input_config.slos ({"time_to_first_token": 1500.0, ...}): AIPerf's --goodput, each a metric tag with
// its threshold in the metric's display unit (ms for latencies). AIPerf's inter_token_latency of a
// request is (request_latency - ttft) / (output_sequence_length - 1), the reference's TPOT of it, so
// its SLO is the TPOT SLO. An SLO on another metric has no place in the run: a warning names it.
bool readSlos(
    const QString& path, const QJsonObject& config, MetricsOptions& options, QStringList& warnings, QString* error)
{
    const QJsonValue value = config.value(u"slos");
    if (value.isNull() || value.isUndefined())
        return true;
    if (!value.isObject()) {
        *error = QStringLiteral("%1: input_config.slos: expected an object").arg(path);
        return false;
    }
    const QJsonObject slos = value.toObject();
    for (auto it = slos.begin(); it != slos.end(); ++it) {
        const QString where = QStringLiteral("input_config.slos.%1").arg(it.key());
        if (!it.value().isDouble()) {
            *error = QStringLiteral("%1: %2: expected a number").arg(path, where);
            return false;
        }
        const double threshold = it.value().toDouble();
        if (it.key() == QLatin1String("time_to_first_token"))
            options.ttftSloMs = threshold;
        else if (it.key() == QLatin1String("inter_token_latency"))
            options.tpotSloMs = threshold;
        else if (it.key() == QLatin1String("request_latency"))
            options.e2elSloMs = threshold;
        else
            warnings << QStringLiteral("%1: %2: an SLO on a figure Kneepoint's goodput does not judge (only "
                                       "time_to_first_token, inter_token_latency, request_latency), not kept")
                            .arg(path, where);
    }
    return true;
}

QString sourceOf(const QString& path, const QJsonObject& file)
{
    if (file.contains(u"aiperf_version"))
        return QStringLiteral("aiperf");
    if (QFileInfo(path).fileName().contains(QLatin1String("genai_perf")) || file.contains(u"genai_perf_version"))
        return QStringLiteral("genai-perf");
    return QStringLiteral("aiperf");
}

// A CSV line split at commas, with double-quoted fields as Python's csv writer quotes them.
QStringList csvFields(const QString& line)
{
    QStringList out;
    QString current;
    bool quoted = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < line.size() && line[i + 1] == QLatin1Char('"')) {
                current += c;
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                current += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            out << current;
            current.clear();
        } else {
            current += c;
        }
    }
    out << current;
    return out;
}

// "Time to First Token (ms)" -> ("time_to_first_token", "ms"); the scalar table's totals by their JSON keys.
std::pair<QString, QString> csvMetricKey(const QString& label)
{
    static const QRegularExpression unitSuffix(QStringLiteral("^(.*?)\\s*\\(([^()]*)\\)\\s*$"));
    QString name = label.trimmed();
    QString unit;
    if (const QRegularExpressionMatch m = unitSuffix.match(name); m.hasMatch()) {
        name = m.captured(1);
        unit = m.captured(2);
    }
    QString key = name.toLower();
    key.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("_"));
    if (key == QLatin1String("total_input_sequence_length"))
        key = QStringLiteral("total_isl");
    else if (key == QLatin1String("total_output_sequence_length"))
        key = QStringLiteral("total_osl");
    return { key, unit };
}

} // namespace

bool isAiperfExport(const QJsonObject& file)
{
    return isMetric(file.value(u"request_throughput")) || isMetric(file.value(u"time_to_first_token"))
        || isMetric(file.value(u"request_latency")) || isMetric(file.value(u"benchmark_duration"));
}

bool readAiperfJson(const QString& path, const QJsonObject& file, FileContents& out, QString* error)
{
    out.source = sourceOf(path, file);
    ImportedFileStep step;
    const QJsonObject config = file.value(u"input_config").toObject();
    if (config.isEmpty()) {
        *error = QStringLiteral("%1: input_config: missing: the load of the step is unknown").arg(path);
        return false;
    }
    if (!readLoad(path, config, step, error) || !readMetrics(path, file, step.metrics, error)
        || !readSlos(path, config, step.metrics.options, out.warnings, error))
        return false;
    StepSetup& s = step.setup;
    const QJsonObject endpoint = config.value(u"endpoint").toObject();
    // AIPerf 0.10 and later: models.items[].name; earlier: endpoint.model_names; GenAI-Perf: model.
    const QJsonArray models = config.value(u"models").toObject().value(u"items").toArray();
    s.modelId = models.first().toObject().value(u"name").toString();
    if (s.modelId.isEmpty())
        s.modelId = firstString(endpoint, { "model_names", "model" });
    if (s.modelId.isEmpty())
        s.modelId = firstString(config, { "model_names", "model" });
    const QJsonValue tokenizer = config.value(u"tokenizer");
    s.tokenizerId = tokenizer.isObject() ? tokenizer.toObject().value(u"name").toString() : tokenizer.toString();
    s.endpointType = endpoint.value(u"type").toString();
    if (s.endpointType.isEmpty())
        s.endpointType = firstString(config, { "endpoint_type" });
    out.target = firstString(endpoint, { "urls", "url" });
    if (out.target.isEmpty())
        out.target = firstString(config, { "url", "u" }); // GenAI-Perf keeps its -u option as "u"
    // The run's end (ISO 8601, the machine's local time), as the reference dates a step: when it finished.
    if (const QDateTime end = QDateTime::fromString(file.value(u"end_time").toString(), Qt::ISODateWithMs);
        end.isValid()) {
        s.date = StepSetup::dateString(end);
        step.metrics.derived.push_back(QStringLiteral("date"));
    }
    out.model = s.modelId;
    out.toolVersion = firstString(file, { "aiperf_version", "genai_perf_version" });
    out.steps.push_back(std::move(step));
    return true;
}

bool isAiperfCsv(const QByteArray& bytes)
{
    return bytes.startsWith("Metric,") || bytes.startsWith("\xEF\xBB\xBFMetric,");
}

bool readAiperfCsv(const QString& path, const QByteArray& bytes, FileContents& out, QString* error)
{
    // Two tables, each under its own header: per-metric statistics ("Metric,avg,min,...") and scalars
    // ("Metric,Value"); further tables (GPU telemetry) have other first columns and are not read.
    QJsonObject file;
    QStringList header;
    const QStringList lines = QString::fromUtf8(bytes).split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        QString line = lines[i];
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
        if (line.startsWith(QChar(0xFEFF)))
            line.remove(0, 1);
        if (line.trimmed().isEmpty()) {
            header.clear();
            continue;
        }
        const QStringList fields = csvFields(line);
        if (header.isEmpty()) {
            header = fields;
            continue;
        }
        if (header.first() != QLatin1String("Metric"))
            continue;
        if (fields.size() != header.size()) {
            *error = QStringLiteral("%1: line %2: %3 fields, but its header has %4")
                         .arg(path)
                         .arg(i + 1)
                         .arg(fields.size())
                         .arg(header.size());
            return false;
        }
        const auto [key, unit] = csvMetricKey(fields.first());
        QJsonObject metric;
        metric.insert(QStringLiteral("unit"), unit);
        for (qsizetype c = 1; c < fields.size(); ++c) {
            if (fields[c].trimmed().isEmpty())
                continue;
            bool ok = false;
            const double value = fields[c].toDouble(&ok);
            if (!ok) {
                *error = QStringLiteral("%1: line %2: %3: \"%4\" is not a number")
                             .arg(path)
                             .arg(i + 1)
                             .arg(header[c], fields[c]);
                return false;
            }
            const QString name = header[c] == QLatin1String("Value") ? QStringLiteral("avg") : header[c];
            metric.insert(name, value);
        }
        file.insert(key, metric);
    }
    if (!isAiperfExport(file)) {
        *error = QStringLiteral("%1: not an AIPerf CSV export (no Request Throughput, Time to First Token, Request "
                                "Latency or Benchmark Duration row)")
                     .arg(path);
        return false;
    }
    out.source = QFileInfo(path).fileName().contains(QLatin1String("genai_perf")) ? QStringLiteral("genai-perf")
                                                                                  : QStringLiteral("aiperf");
    ImportedFileStep step;
    if (!readMetrics(path, file, step.metrics, error))
        return false;
    // The CSV export states neither the load nor the model: the JSON export of the same run does.
    step.offered = kUnknown;
    step.setup.numPrompts = kUnknownCount;
    step.setup.burstiness = kUnknown;
    step.setup.requestRate = kUnknown;
    out.steps.push_back(std::move(step));
    return true;
}

} // namespace kp::importdetail
