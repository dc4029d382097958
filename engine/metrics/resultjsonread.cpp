// ResultJson::read: the reference tools' result files (vLLM, SGLang; JSON or JSON Lines) and Kneepoint's own,
// into ImportedSteps with a warning for every field that could not be taken.
#include "resultjson.h"

#include "metrics/inerttext.h"
#include "metrics/jsondepth.h"
#include "metrics/resultjsonkeys.h"

#include <nlohmann/json.hpp>

#include <QJsonDocument>
#include <QRegularExpression>

#include <cmath>
#include <initializer_list>
#include <limits>
#include <set>
#include <string>
#include <string_view>
#include <utility>

namespace kp {

namespace {

using Json = nlohmann::ordered_json;
using resultkeys::fromUtf8;
using resultkeys::metricKey;

// Bare Infinity, -Infinity and NaN (Python's json.dump of non-finite floats, e.g. SGLang's request_rate)
// become strings so that a strict parser takes the file.
QByteArray quoteNonFiniteLiterals(QByteArrayView bytes)
{
    static constexpr std::string_view literals[] = { "-Infinity", "Infinity", "NaN" };
    QByteArray out;
    bool inString = false;
    bool escaped = false;
    bool changed = false;
    out.reserve(bytes.size());
    for (qsizetype i = 0; i < bytes.size(); ++i) {
        const char c = bytes[i];
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
            out.append(c);
            continue;
        }
        if (c == '"') {
            inString = true;
            out.append(c);
            continue;
        }
        bool replaced = false;
        for (std::string_view literal : literals) {
            const auto length = static_cast<qsizetype>(literal.size());
            if (bytes.sliced(i).startsWith(QByteArrayView(literal.data(), length))) {
                out.append('"');
                out.append(literal == "-Infinity" ? "-inf" : literal == "Infinity" ? "inf" : "nan");
                out.append('"');
                i += length - 1;
                replaced = changed = true;
                break;
            }
        }
        if (!replaced)
            out.append(c);
    }
    return changed ? out : bytes.toByteArray();
}

QString jsonTypeName(const Json& value)
{
    return QString::fromLatin1(value.type_name());
}

QString parseErrorText(const nlohmann::json::parse_error& error)
{
    // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..." -> "syntax error ..."
    QString text = QString::fromUtf8(error.what());
    static const QRegularExpression prefix(
        QStringLiteral("^\\[json\\.exception\\.[a-z_]+\\.\\d+\\] (parse error( at line \\d+, column \\d+)?: )?"));
    text.remove(prefix);
    return text;
}

// 1-based line and column of byte `offset` (0-based) in `text`.
std::pair<qsizetype, qsizetype> lineAndColumn(QByteArrayView text, qsizetype offset)
{
    qsizetype line = 1;
    qsizetype column = 1;
    for (qsizetype i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return { line, column };
}

// vLLM or SGLang, by the keys only one of them writes (SGLang's bench_serving took vLLM's script as
// its start, so most keys are shared; vLLM 0.6 with --save-detailed also has input_throughput).
QString detectFormat(const Json& object)
{
    static constexpr const char* vllmKeys[]
        = { "endpoint_type", "model_id", "tokenizer_id", "best_of", "use_beam_search", "num_prompts", "burstiness",
              "max_output_tokens_per_s", "max_concurrent_requests", "mean_e2el_ms", "request_inthroughput", "date" };
    static constexpr const char* sglangKeys[] = { "total_output_tokens_retokenized", "mean_e2e_latency_ms",
        "median_e2e_latency_ms", "concurrency", "dataset_name", "random_input_len", "random_output_len",
        "sharegpt_output_len", "accept_length", "total_throughput" };
    int vllm = 0;
    int sglang = 0;
    for (const char* key : vllmKeys)
        vllm += object.contains(key) ? 1 : 0;
    for (const char* key : sglangKeys)
        sglang += object.contains(key) ? 1 : 0;
    return sglang > vllm ? QStringLiteral("sglang") : QStringLiteral("vllm");
}

// A latency figure in the reference's spelling: mean_ttft_ms, median_itl_ms, p99_e2el_ms, ... (the
// latency-only files of vLLM's nightly dashboards have these and no counts or throughputs).
bool hasLatencyFigure(const Json& object)
{
    static const QRegularExpression figure(
        QStringLiteral("^(mean|median|std|p\\d+(\\.\\d+)?)_(ttft|tpot|itl|e2el|e2e_latency)_ms$"));
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (figure.match(fromUtf8(it.key())).hasMatch())
            return true;
    }
    return false;
}

class StepReader
{
public:
    StepReader(const QString& source, QString path, ImportedStep& step)
        : m_source(source)
        , m_path(std::move(path))
        , m_step(step)
    { }

    QString read(const Json& object);

private:
    QString at(const std::string& key) const { return m_path + QLatin1Char('.') + fromUtf8(key); }

    void warn(const QString& path, const QString& message)
    {
        m_step.warnings.append(m_source + QStringLiteral(": ") + path + QStringLiteral(": ") + message);
    }

    std::optional<double> numberValue(const Json& value, const QString& path)
    {
        if (value.is_null())
            return std::nullopt;
        if (value.is_number())
            return value.get<double>();
        if (value.is_string()) {
            const QString text = fromUtf8(value.get<std::string>()).trimmed().toLower();
            if (text == u"inf" || text == u"infinity" || text == u"+inf")
                return std::numeric_limits<double>::infinity();
            if (text == u"-inf" || text == u"-infinity")
                return -std::numeric_limits<double>::infinity();
            if (text == u"nan")
                return std::numeric_limits<double>::quiet_NaN();
            bool ok = false;
            const double parsed = text.toDouble(&ok);
            if (ok)
                return parsed;
        }
        warn(path, QStringLiteral("expected a number, found %1").arg(jsonTypeName(value)));
        return std::nullopt;
    }

    std::optional<double> number(const Json& object, const std::string& key)
    {
        const auto it = object.find(key);
        if (it == object.end())
            return std::nullopt;
        return numberValue(*it, at(key));
    }

    std::optional<qint64> integer(const Json& object, const std::string& key)
    {
        const std::optional<double> value = number(object, key);
        if (!value || !std::isfinite(*value))
            return std::nullopt;
        return static_cast<qint64>(std::llround(*value));
    }

    void readNumber(const Json& object, const std::string& key, double& target)
    {
        if (const auto value = number(object, key))
            target = *value;
    }

    // The counts and throughputs a length bucket and a model's share read alike.
    template <typename Subset> void readSubsetCounts(const Json& object, Subset& s)
    {
        readInteger(object, "completed", s.completed);
        readInteger(object, "failed", s.failed);
        readInteger(object, "total_input_tokens", s.totalInputTokens);
        readInteger(object, "total_output_tokens", s.totalOutputTokens);
        readNumber(object, "request_throughput", s.requestThroughput);
        readNumber(object, "output_throughput", s.outputThroughput);
    }

    // A figure the tools spell several ways: the first spelling that holds a number.
    template <typename Target> // double, or std::optional<double>
    void readFirstNumber(const Json& object, std::initializer_list<const char*> keys, Target& target)
    {
        for (const std::string key : keys) {
            if (const auto value = number(object, key)) {
                target = *value;
                return;
            }
        }
    }

    void readInteger(const Json& object, const std::string& key, qint64& target)
    {
        if (const auto value = integer(object, key))
            target = *value;
    }

    void readString(const Json& object, const std::string& key, QString& target)
    {
        const auto it = object.find(key);
        if (it == object.end() || it->is_null())
            return;
        if (it->is_string())
            target = fromUtf8(it->get<std::string>());
        else if (it->is_number())
            target = fromUtf8(it->dump());
        else
            warn(at(key), QStringLiteral("expected a string, found %1").arg(jsonTypeName(*it)));
    }

    void readStatsObject(const Json& object, const QString& path, LatencyStats& stats);
    void readSettings(const Json& object);
    void derive(const Json& object);
    void readKneepoint(const Json& object, const QString& path);

    const QString& m_source;
    QString m_path;
    ImportedStep& m_step;
};

std::optional<LatencyMetric> metricFromFileName(const std::string& name)
{
    if (name == "e2e_latency" || name == "latency") // SGLang; vLLM 0.6
        return LatencyMetric::E2el;
    return latencyMetricFromKey(fromUtf8(name));
}

// "p99.9_ttft_ms" -> (99.9, "ttft"); "p99_ms" (stats objects) -> (99, "").
std::optional<std::pair<double, std::string>> splitPercentileKey(const std::string& key)
{
    if (key.size() < 5 || key.front() != 'p' || key.compare(key.size() - 3, 3, "_ms") != 0)
        return std::nullopt;
    const std::string body = key.substr(1, key.size() - 4);
    const auto underscore = body.find('_');
    const std::string word = body.substr(0, underscore);
    const auto p = LatencyStats::percentileFromWord(fromUtf8(word));
    if (!p)
        return std::nullopt;
    return std::pair { *p, underscore == std::string::npos ? std::string() : body.substr(underscore + 1) };
}

void StepReader::readStatsObject(const Json& object, const QString& path, LatencyStats& stats)
{
    if (!object.is_object()) {
        if (!object.is_null())
            warn(path, QStringLiteral("expected an object, found %1").arg(jsonTypeName(object)));
        return;
    }
    const QString saved = m_path;
    m_path = path;
    stats = LatencyStats::unknown();
    readInteger(object, "count", stats.count);
    readNumber(object, "mean_ms", stats.mean);
    readNumber(object, "median_ms", stats.median);
    readNumber(object, "std_ms", stats.stddev);
    readNumber(object, "min_ms", stats.min);
    readNumber(object, "max_ms", stats.max);
    for (auto it = object.begin(); it != object.end(); ++it) {
        const auto split = splitPercentileKey(it.key());
        if (!split || !split->second.empty())
            continue;
        if (const auto value = numberValue(*it, at(it.key())))
            stats.percentiles.emplace_back(split->first, *value);
    }
    m_path = saved;
}

void StepReader::readKneepoint(const Json& object, const QString& path)
{
    StepMetrics& m = m_step.metrics;
    const QString saved = m_path;
    m_path = path;
    if (const auto it = object.find("percentiles"); it != object.end() && it->is_array()) {
        m.options.percentiles.clear();
        for (const Json& p : *it) {
            if (const auto value = numberValue(p, at("percentiles")))
                m.options.percentiles.push_back(*value);
        }
    }
    if (const auto it = object.find("percentile_metrics"); it != object.end() && it->is_array()) {
        m.options.selectedMetrics.clear();
        for (const Json& name : *it) {
            const auto metric = name.is_string() ? metricFromFileName(name.get<std::string>()) : std::nullopt;
            if (metric)
                m.options.selectedMetrics.push_back(*metric);
            else
                warn(at("percentile_metrics"), QStringLiteral("unknown metric %1").arg(fromUtf8(name.dump())));
        }
    }
    if (const auto it = object.find("goodput_slo_ms"); it != object.end() && it->is_object()) {
        m.options.ttftSloMs = number(*it, std::string("ttft"));
        m.options.tpotSloMs = number(*it, std::string("tpot"));
        m.options.e2elSloMs = number(*it, std::string("e2el"));
    }
    if (const auto it = object.find("derived"); it != object.end() && it->is_array()) {
        m.derived.clear();
        for (const Json& key : *it) {
            if (key.is_string())
                m.derived.push_back(fromUtf8(key.get<std::string>()));
        }
    }
    if (const auto it = object.find("intervals"); it != object.end() && it->is_object()) {
        QString problem;
        m.intervals
            = intervalsFromJson(QJsonDocument::fromJson(QByteArray::fromStdString(it->dump())).object(), &problem);
        if (!problem.isEmpty())
            warn(at("intervals"), problem);
    }
    // null: a figure the step's source did not have (another tool's file).
    const auto readCount = [&](const char* key, qint64& target) {
        if (const auto it = object.find(key); it != object.end() && it->is_null())
            target = kUnknownCount;
        else
            readInteger(object, key, target);
    };
    readCount("good_completed", m.goodCompleted);
    if (const auto it = object.find("failures"); it != object.end() && it->is_object()) {
        m.failuresByClass.clear();
        for (auto f = it->begin(); f != it->end(); ++f) {
            const auto failure = failureClassFromKey(fromUtf8(f.key()));
            const auto count = numberValue(f.value(), at("failures." + f.key()));
            if (failure && count)
                m.failuresByClass[*failure] = static_cast<qint64>(std::llround(*count));
            else if (!failure)
                warn(at("failures"), QStringLiteral("unknown failure class %1").arg(fromUtf8(f.key())));
        }
    }
    readNumber(object, "mean_concurrency", m.meanConcurrency);
    readCount("server_prompt_tokens_reported", m.serverPromptTokensReported);
    readCount("total_server_input_tokens", m.totalServerInputTokens);
    readCount("prompt_token_mismatches", m.promptTokenMismatches);
    readCount("output_tokens_from_text", m.outputTokensFromText);
    readCount("dataset_input_tokens_reported", m.datasetInputTokensReported);
    readInteger(object, "cached_tokens_reported", m.cachedTokensReported);
    readInteger(object, "repeated_prompts", m.repeatedPrompts);
    readInteger(object, "incomplete_requests", m.incompleteRequests);
    readInteger(object, "reasoning_tokens_reported", m.reasoningTokensReported);
    if (const auto it = object.find("images_per_request"); it != object.end() && it->is_number_integer())
        m.options.imagesPerRequest = it->get<int>();
    if (const auto tokens = number(object, "mean_image_tokens"))
        m.meanImageTokens = *tokens;
    readInteger(object, "output_limits_known", m.outputLimitsKnown);
    readInteger(object, "short_outputs", m.shortOutputs);
    if (const auto it = object.find("ignore_eos"); it != object.end() && it->is_boolean())
        m.ignoreEos = it->get<bool>();
    readNumber(object, "mean_session_duration_s", m.meanSessionS);
    if (const auto it = object.find("turns"); it != object.end() && it->is_object()) {
        for (const auto& [name, g] : { std::pair { "first", &m.firstTurns }, std::pair { "later", &m.laterTurns } }) {
            const auto group = it->find(name);
            if (group == it->end() || !group->is_object())
                continue;
            const QString outer = m_path;
            m_path = at(std::string("turns.") + name);
            readInteger(*group, "completed", g->completed);
            readInteger(*group, "total_input_tokens", g->totalInputTokens);
            readInteger(*group, "total_cached_tokens", g->totalCachedTokens);
            if (const auto s = group->find("ttft"); s != group->end())
                readStatsObject(*s, at("ttft"), g->ttft);
            if (const auto s = group->find("e2el"); s != group->end())
                readStatsObject(*s, at("e2el"), g->e2el);
            m_path = outer;
        }
    }
    if (const auto it = object.find("input_token_source"); it != object.end() && it->is_null())
        m.options.inputTokenSource = InputTokenSource::Unknown;
    if (const auto it = object.find("input_token_source"); it != object.end() && it->is_string()) {
        if (const auto source = inputTokenSourceFromKey(fromUtf8(it->get<std::string>())))
            m.options.inputTokenSource = *source;
        else
            warn(at("input_token_source"), QStringLiteral("unknown source %1").arg(fromUtf8(it->dump())));
    }
    if (const auto it = object.find("latency"); it != object.end() && it->is_object()) {
        for (LatencyMetric metric : allLatencyMetrics) {
            if (const auto s = it->find(metricKey(metric)); s != it->end())
                readStatsObject(*s, at("latency." + metricKey(metric)), m.stats(metric));
        }
    }
    if (const auto it = object.find("length_buckets"); it != object.end() && it->is_array()) {
        m.lengthBuckets.clear();
        for (std::size_t i = 0; i < it->size(); ++i) {
            const Json& b = (*it)[i];
            const QString bucketPath = at("length_buckets") + QStringLiteral("[%1]").arg(i);
            if (!b.is_object()) {
                warn(bucketPath, QStringLiteral("expected an object, found %1").arg(jsonTypeName(b)));
                continue;
            }
            const QString outer = m_path;
            m_path = bucketPath;
            LengthBucketMetrics bucket;
            readInteger(b, "prompt_tokens_min", bucket.lo);
            if (const auto hi = b.find("prompt_tokens_max"); hi != b.end() && !hi->is_null())
                readInteger(b, "prompt_tokens_max", bucket.hi);
            readSubsetCounts(b, bucket);
            if (const auto lat = b.find("latency"); lat != b.end() && lat->is_object()) {
                for (LatencyMetric metric : allLatencyMetrics) {
                    LatencyStats& stats = metric == LatencyMetric::Ttft ? bucket.ttft
                        : metric == LatencyMetric::Tpot                 ? bucket.tpot
                        : metric == LatencyMetric::Itl                  ? bucket.itl
                                                                        : bucket.e2el;
                    if (const auto s = lat->find(metricKey(metric)); s != lat->end())
                        readStatsObject(*s, at("latency." + metricKey(metric)), stats);
                }
            }
            m_path = outer;
            m.options.lengthBucketEdges.push_back(static_cast<int>(bucket.lo));
            m.lengthBuckets.push_back(std::move(bucket));
        }
    }
    if (const auto it = object.find("per_model"); it != object.end() && it->is_object()) {
        m.perModel.clear();
        for (const auto& [name, value] : it->items()) {
            const QString modelPath = at("per_model") + QStringLiteral("[%1]").arg(fromUtf8(Json(name).dump()));
            if (!value.is_object()) {
                warn(modelPath, QStringLiteral("expected an object, found %1").arg(jsonTypeName(value)));
                continue;
            }
            const QString outer = m_path;
            m_path = modelPath;
            ModelMetrics mm;
            mm.model = inertText(fromUtf8(name));
            readSubsetCounts(value, mm);
            if (const auto lat = value.find("latency"); lat != value.end() && lat->is_object()) {
                for (const auto& [key, stats] : { std::pair { "ttft", &mm.ttft }, std::pair { "tpot", &mm.tpot },
                         std::pair { "e2el", &mm.e2el } }) {
                    if (const auto s = lat->find(key); s != lat->end())
                        readStatsObject(*s, at(std::string("latency.") + key), *stats);
                }
            }
            m_path = outer;
            m.perModel.push_back(std::move(mm));
        }
    }
    if (const auto it = object.find("first_content_ttft"); it != object.end())
        readStatsObject(*it, at("first_content_ttft"), m.firstContentTtft);
    if (const auto it = object.find("dispatch_lag"); it != object.end())
        readStatsObject(*it, at("dispatch_lag"), m.dispatchLag);
    if (const auto it = object.find("connect_time"); it != object.end())
        readStatsObject(*it, at("connect_time"), m.connectTime);
    if (const auto it = object.find("unknown_events"); it != object.end() && it->is_object()) {
        for (const auto& [event, count] : it->items()) {
            if (m.unknownEvents.size() >= RequestRecord::kMaxUnknownEventTypes) {
                m.moreUnknownEvents = true;
                break;
            }
            if (count.is_number_integer() && count.get<qint64>() >= 0)
                m.unknownEvents[inertText(QString::fromStdString(event))] = count.get<qint64>();
        }
    }
    if (const auto it = object.find("more_unknown_events"); it != object.end() && it->is_boolean())
        m.moreUnknownEvents = m.moreUnknownEvents || it->get<bool>();
    if (const auto it = object.find("client_health"); it != object.end() && it->is_object()) {
        ClientHealth& h = m.clientHealth;
        h.recorded = true;
        if (const auto t = it->find("transport"); t != it->end() && t->is_string())
            h.transport = fromUtf8(t->get<std::string>());
        readNumber(*it, "dispatch_lag_p90_ms", h.dispatchLagP90Ms);
        readNumber(*it, "dispatch_lag_p99_ms", h.dispatchLagP99Ms);
        readInteger(*it, "loop_ticks", h.loopTicks);
        readNumber(*it, "loop_lag_p90_ms", h.loopLagP90Ms);
        readNumber(*it, "loop_lag_p99_ms", h.loopLagP99Ms);
        readNumber(*it, "loop_lag_max_ms", h.loopLagMaxMs);
        readNumber(*it, "process_cpu_s", h.processCpuS);
        readNumber(*it, "cpu_cores", h.cpuCores);
        readNumber(*it, "cpu_per_request_us", h.cpuPerRequestUs);
        readNumber(*it, "cpu_per_event_us", h.cpuPerEventUs);
        if (const auto b = it->find("client_bound"); b != it->end() && b->is_boolean())
            h.clientBound = b->get<bool>();
        if (const auto r = it->find("reason"); r != it->end() && r->is_string())
            h.reason = fromUtf8(r->get<std::string>());
    }
    m_path = saved;
}

QString StepReader::read(const Json& object)
{
    if (!object.is_object())
        return m_source + QStringLiteral(": ") + m_path
            + QStringLiteral(": expected an object with benchmark results, found %1").arg(jsonTypeName(object));
    if (!object.contains("completed") && !object.contains("duration") && !object.contains("request_throughput")
        && !hasLatencyFigure(object))
        return m_source + QStringLiteral(": ") + m_path
            + QStringLiteral(": not a benchmark result (no completed, duration, request_throughput or latency "
                             "figure such as mean_ttft_ms)");

    const bool kneepoint = object.contains("kneepoint");
    m_step.format = kneepoint ? QStringLiteral("kneepoint") : detectFormat(object);

    // Whatever the file does not say stays unknown (kUnknown, kUnknownCount): nothing defaults to 0.
    StepSetup& setup = m_step.setup;
    setup.numPrompts = kUnknownCount;
    setup.requestRate = kUnknown;
    setup.burstiness = kUnknown;
    readString(object, "date", setup.date);
    readString(object, "endpoint_type", setup.endpointType);
    readString(object, "backend", setup.backend);
    readString(object, "label", setup.label);
    readString(object, "model_id", setup.modelId);
    if (setup.modelId.isEmpty())
        readString(object, "model", setup.modelId);
    // SGLang's bench_serving names the model only in the server's own report: the name it serves
    // under, else the path it loaded.
    if (const auto info = object.find("server_info");
        setup.modelId.isEmpty() && info != object.end() && info->is_object()) {
        const QString saved = m_path;
        m_path = at("server_info");
        readString(*info, "served_model_name", setup.modelId);
        if (setup.modelId.isEmpty())
            readString(*info, "model_path", setup.modelId);
        m_path = saved;
    }
    readString(object, "tokenizer_id", setup.tokenizerId);
    readInteger(object, "num_prompts", setup.numPrompts);
    readNumber(object, "request_rate", setup.requestRate);
    readNumber(object, "burstiness", setup.burstiness);
    if (const auto value = integer(object, "max_concurrency"))
        setup.maxConcurrency = static_cast<int>(*value);
    // Multi-turn files (`"mode": "multi_turn"`) name their cap on requests in flight so; no rate.
    if (const auto value = integer(object, "multi_turn_concurrency"); value && !setup.maxConcurrency)
        setup.maxConcurrency = static_cast<int>(*value);
    readSettings(object);

    StepMetrics& m = m_step.metrics;
    if (!kneepoint)
        m.markForeign();
    m.options.percentiles.clear();
    m.options.selectedMetrics.clear();
    m.durationS = kUnknown;
    m.completed = m.failed = m.totalInputTokens = m.totalOutputTokens = m.maxConcurrentRequests = kUnknownCount;
    m.requestThroughput = m.outputThroughput = m.totalTokenThroughput = m.maxOutputTokensPerS = kUnknown;
    m.meanConcurrency = kUnknown;
    for (LatencyMetric metric : allLatencyMetrics)
        m.stats(metric) = LatencyStats::unknown();
    m.firstContentTtft = LatencyStats::unknown();
    m.dispatchLag = LatencyStats::unknown();
    m.connectTime = LatencyStats::unknown();
    readNumber(object, "duration", m.durationS);
    readInteger(object, "completed", m.completed);
    readInteger(object, "failed", m.failed);
    readInteger(object, "total_input_tokens", m.totalInputTokens);
    readInteger(object, "total_output_tokens", m.totalOutputTokens);
    readInteger(object, "total_cached_tokens", m.totalCachedTokens);
    readInteger(object, "num_sessions", m.numSessions);
    // Multi-turn files: conversations, not sessions, and their mean length in ms.
    if (!isKnown(m.numSessions)) {
        const auto done = integer(object, "conversations_completed");
        const auto failed = integer(object, "conversations_failed");
        if (done && failed) {
            m.numSessions = *done + *failed;
            m.derived.push_back(QStringLiteral("num_sessions"));
        }
    }
    if (const auto ms = number(object, "avg_conversation_duration_ms"))
        m.meanSessionS = *ms / 1000.0;
    readInteger(object, "total_reasoning_tokens", m.totalReasoningTokens);
    // vLLM 0.4 wrote the request throughput as "request_inthroughput".
    readFirstNumber(object, { "request_throughput", "request_inthroughput" }, m.requestThroughput);
    readFirstNumber(object, { "request_goodput", "request_goodput:" }, m.requestGoodput);
    readFirstNumber(object, { "output_throughput", "output_token_throughput", "mean_tps" }, m.outputThroughput);
    readFirstNumber(object, { "total_token_throughput", "total_throughput" }, m.totalTokenThroughput);
    readNumber(object, "max_output_tokens_per_s", m.maxOutputTokensPerS);
    if (const auto joules = number(object, "joules_per_output_token"); joules && std::isfinite(*joules))
        m.joulesPerOutputToken = *joules;
    readInteger(object, "max_concurrent_requests", m.maxConcurrentRequests);
    readNumber(object, "concurrency", m.meanConcurrency);

    bool present[std::size(allLatencyMetrics)] = {};
    for (LatencyMetric metric : allLatencyMetrics) {
        const auto index = static_cast<std::size_t>(metric);
        LatencyStats& stats = m.stats(metric);
        const bool e2el = metric == LatencyMetric::E2el;
        for (const std::string& name :
            { metricKey(metric), std::string(e2el ? "e2e_latency" : ""), std::string(e2el ? "latency" : "") }) {
            if (name.empty())
                continue;
            const auto mean = number(object, "mean_" + name + "_ms");
            const auto median = number(object, "median_" + name + "_ms");
            const auto stddev = number(object, "std_" + name + "_ms");
            if (mean)
                stats.mean = *mean;
            if (median)
                stats.median = *median;
            if (stddev)
                stats.stddev = *stddev;
            present[index] = present[index] || mean || median || stddev;
        }
    }
    for (auto it = object.begin(); it != object.end(); ++it) {
        const auto split = splitPercentileKey(it.key());
        if (!split || split->second.empty())
            continue;
        const auto metric = metricFromFileName(split->second);
        if (!metric)
            continue;
        const auto value = numberValue(*it, at(it.key()));
        if (!value)
            continue;
        m.stats(*metric).percentiles.emplace_back(split->first, *value);
        present[static_cast<std::size_t>(*metric)] = true;
        if (std::find(m.options.percentiles.begin(), m.options.percentiles.end(), split->first)
            == m.options.percentiles.end())
            m.options.percentiles.push_back(split->first);
    }
    for (LatencyMetric metric : allLatencyMetrics) {
        if (present[static_cast<std::size_t>(metric)])
            m.options.selectedMetrics.push_back(metric);
    }
    // Time to first content token; kneepoint.first_content_ttft, when there, has all of it.
    readNumber(object, "mean_ttfc_ms", m.firstContentTtft.mean);
    readNumber(object, "median_ttfc_ms", m.firstContentTtft.median);
    readNumber(object, "std_ttfc_ms", m.firstContentTtft.stddev);
    for (auto it = object.begin(); it != object.end(); ++it) {
        const auto split = splitPercentileKey(it.key());
        if (!split || split->second != "ttfc")
            continue;
        if (const auto value = numberValue(*it, at(it.key())))
            m.firstContentTtft.percentiles.emplace_back(split->first, *value);
    }

    if (const auto it = object.find("kneepoint"); it != object.end()) {
        if (it->is_object())
            readKneepoint(*it, at("kneepoint"));
        else
            warn(at("kneepoint"), QStringLiteral("expected an object, found %1").arg(jsonTypeName(*it)));
    } else {
        derive(object);
    }
    return {};
}

// The keys the reference tools write themselves (vLLM 0.4 to today, SGLang old and new), which are
// neither figures nor settings of what was measured.
bool isToolKey(const std::string& key)
{
    static const std::set<std::string> keys = { "date", "endpoint_type", "backend", "label", "model_id", "model",
        "tokenizer_id", "num_prompts", "request_rate", "burstiness", "max_concurrency", "duration", "completed",
        "failed", "total_input_tokens", "total_output_tokens", "total_output_tokens_retokenized", "request_throughput",
        "request_goodput", "request_goodput:", "request_inthroughput", "input_throughput", "output_throughput",
        "output_token_throughput", "mean_tps", "total_token_throughput", "total_throughput", "max_output_tokens_per_s",
        "max_concurrent_requests", "concurrency", "best_of", "use_beam_search", "input_lens", "output_lens", "ttfts",
        "itls", "generated_texts", "errors", "latencies", "start_times", "rtfx", "run_number", "dataset_path",
        "output_file", "result_filename", "result_dir", "seed", "ignore_eos", "accept_length", "server_info",
        "tokenizer", "base_url", "host", "port", "endpoint", "pretty_name", "kneepoint", "spec_decode_acceptance_rate",
        "spec_decode_acceptance_length", "spec_decode_num_drafts", "spec_decode_draft_tokens",
        "spec_decode_accepted_tokens", "spec_decode_per_position_acceptance_rates", "median_ttfc_ms", "last_ttft_ms",
        "total_cached_tokens", "prefix_cache_hit_rate", "num_sessions", "multi_turn_concurrency", "num_conversations",
        "conversations_completed", "conversations_failed", "avg_turns_completed", "avg_conversation_duration_ms" };
    if (keys.count(key) || ResultJson::isReferenceKey(QString::fromStdString(key)))
        return true;
    // A figure of a newer version: statistics, throughputs, token counts.
    static const QRegularExpression figure(
        QStringLiteral("^(mean|median|std|min|max|p\\d+(\\.\\d+)?)_\\w+_ms$|_throughput$|_per_s$|^total_\\w*tokens"));
    return figure.match(QString::fromStdString(key)).hasMatch();
}

// Scalar top-level keys the tool itself does not write: --metadata KEY=VALUE (strings) and the
// parameters a sweep adds (`vllm bench sweep`: max_num_seqs, random_input_len, ...).
void StepReader::readSettings(const Json& object)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (isToolKey(it.key()) || it->is_structured() || it->is_null())
            continue;
        QJsonValue value;
        if (it->is_string())
            value = fromUtf8(it->get<std::string>());
        else if (it->is_boolean())
            value = it->get<bool>();
        else if (it->is_number())
            value = it->get<double>();
        else
            continue;
        m_step.setup.metadata.emplace_back(fromUtf8(it.key()), value);
    }
}

// What a foreign file lacks but gives through its own fields, marked in StepMetrics::derived.
void StepReader::derive(const Json& object)
{
    StepSetup& setup = m_step.setup;
    StepMetrics& m = m_step.metrics;
    const auto mark = [&](const char* key) { m.derived.push_back(QString::fromLatin1(key)); };
    const bool duration = isKnown(m.durationS) && m.durationS > 0;
    // vLLM sends every prompt; those that did not complete failed.
    if (!isKnown(m.failed) && isKnown(setup.numPrompts) && isKnown(m.completed) && setup.numPrompts >= m.completed) {
        m.failed = setup.numPrompts - m.completed;
        mark("failed");
    }
    if (!isKnown(m.durationS) && isKnown(m.completed) && isKnown(m.requestThroughput) && m.requestThroughput > 0) {
        m.durationS = double(m.completed) / m.requestThroughput;
        mark("duration");
    }
    if (!isKnown(m.requestThroughput) && isKnown(m.completed) && duration) {
        m.requestThroughput = double(m.completed) / m.durationS;
        mark("request_throughput");
    }
    if (!isKnown(m.outputThroughput) && isKnown(m.totalOutputTokens) && duration) {
        m.outputThroughput = double(m.totalOutputTokens) / m.durationS;
        mark("output_throughput");
    }
    if (!isKnown(m.totalTokenThroughput)) {
        const std::optional<double> input = number(object, "input_throughput");
        if (isKnown(m.totalInputTokens) && isKnown(m.totalOutputTokens) && duration) {
            m.totalTokenThroughput = double(m.totalInputTokens + m.totalOutputTokens) / m.durationS;
            mark("total_token_throughput");
        } else if (input && isKnown(m.outputThroughput)) {
            m.totalTokenThroughput = *input + m.outputThroughput;
            mark("total_token_throughput");
        }
    }
    // Little's law, as SGLang computes its "concurrency": the sum of E2EL over the duration.
    if (!isKnown(m.meanConcurrency) && isKnown(m.e2el.mean) && isKnown(m.completed) && duration) {
        m.meanConcurrency = m.e2el.mean * double(m.completed) / 1000.0 / m.durationS;
        mark("concurrency");
    }
}

QString readDocument(const Json& document, const QString& source, const QString& path, ResultFileContents& out)
{
    if (document.is_array()) {
        for (std::size_t i = 0; i < document.size(); ++i) {
            const QString error = readDocument(document[i], source, path + QStringLiteral("[%1]").arg(i), out);
            if (!error.isEmpty())
                return error;
        }
        return {};
    }
    ImportedStep step;
    const QString error = StepReader(source, path, step).read(document);
    if (error.isEmpty())
        out.steps.push_back(std::move(step));
    return error;
}

} // namespace

ResultFileContents ResultJson::read(QByteArrayView bytes, const QString& sourceName)
{
    ResultFileContents out;
    const QByteArray text = quoteNonFiniteLiterals(bytes);
    if (const auto deep = jsonTooDeepAt(std::string_view(text.constData(), std::size_t(text.size())))) {
        const auto [line, column] = lineAndColumn(text, static_cast<qsizetype>(*deep));
        out.error = QStringLiteral("%1:%2:%3: arrays and objects nest deeper than %4 levels")
                        .arg(sourceName)
                        .arg(line)
                        .arg(column)
                        .arg(kMaxJsonDepth);
        return out;
    }
    try {
        const Json document = Json::parse(text.begin(), text.end());
        out.error = readDocument(document, sourceName, QStringLiteral("$"), out);
    } catch (const nlohmann::json::parse_error& wholeError) {
        // JSON Lines: several objects, one per line (--append-result, SGLang). Only when the first
        // non-empty line is a complete value on its own; otherwise the whole-document error is the useful one.
        const QList<QByteArrayView> lines = [&] {
            QList<QByteArrayView> result;
            qsizetype start = 0;
            for (qsizetype i = 0; i <= text.size(); ++i) {
                if (i == text.size() || text[i] == '\n') {
                    result.append(QByteArrayView(text).sliced(start, i - start));
                    start = i + 1;
                }
            }
            return result;
        }();
        bool jsonLines = false;
        for (QByteArrayView line : lines) {
            if (line.trimmed().isEmpty())
                continue;
            jsonLines = Json::accept(line.begin(), line.end());
            break;
        }
        if (!jsonLines) {
            const auto [line, column] = lineAndColumn(text, static_cast<qsizetype>(wholeError.byte) - 1);
            out.error = QStringLiteral("%1:%2:%3: invalid JSON: %4")
                            .arg(sourceName)
                            .arg(line)
                            .arg(column)
                            .arg(parseErrorText(wholeError));
            return out;
        }
        for (qsizetype number = 0; number < lines.size(); ++number) {
            const QByteArrayView line = lines[number];
            if (line.trimmed().isEmpty())
                continue;
            try {
                const Json document = Json::parse(line.begin(), line.end());
                out.error = readDocument(document, sourceName, QStringLiteral("line %1: $").arg(number + 1), out);
            } catch (const nlohmann::json::parse_error& lineError) {
                const auto [ignored, column] = lineAndColumn(line, static_cast<qsizetype>(lineError.byte) - 1);
                out.error = QStringLiteral("%1:%2:%3: invalid JSON: %4")
                                .arg(sourceName)
                                .arg(number + 1)
                                .arg(column)
                                .arg(parseErrorText(lineError));
            } catch (const nlohmann::json::exception& lineError) {
                out.error = QStringLiteral("%1:%2: unreadable JSON: %3")
                                .arg(sourceName)
                                .arg(number + 1)
                                .arg(QString::fromUtf8(lineError.what()).section(QLatin1String("] "), 1));
            }
            if (!out.error.isEmpty())
                break;
        }
    } catch (const nlohmann::json::exception& error) {
        // Well-formed JSON that cannot be held, e.g. a number beyond double's range.
        out.error = QStringLiteral("%1: unreadable JSON: %2")
                        .arg(sourceName, QString::fromUtf8(error.what()).section(QLatin1String("] "), 1));
    }
    if (!out.error.isEmpty())
        out.steps.clear();
    return out;
}

} // namespace kp
