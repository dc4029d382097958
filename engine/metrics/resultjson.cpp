// ResultJson::write: a step as the reference tools' result file (vLLM's keys, in its order) with Kneepoint's own
// figures under "kneepoint"; the reader is resultjsonread.cpp.
#include "resultjson.h"

#include "metrics/jsonvalues.h"
#include "metrics/resultjsonkeys.h"

#include <nlohmann/json.hpp>

#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

namespace kp {

namespace {

using Json = nlohmann::ordered_json;

constexpr double nsPerSecond = 1e9;

using resultkeys::fromUtf8;
using resultkeys::utf8;

// The shared helpers (metrics/jsonvalues.h), for ordered_json.
constexpr auto stringOrNull = &jsonvalues::stringOrNull<Json>;
constexpr auto countOrNull = &jsonvalues::countOrNull<Json>;
constexpr Json (*numberOrText)(double) = &jsonvalues::numberOrText<Json>;

using resultkeys::metricKey;

std::string percentileKey(double p)
{
    // Appending (rather than "p" + std::string&&) avoids GCC 12's false -Wrestrict at -O3.
    std::string key = "p";
    key += utf8(LatencyStats::percentileWord(p));
    return key;
}

Json statsObject(const LatencyStats& stats)
{
    Json out = Json::object();
    out["count"] = countOrNull(stats.count);
    out["mean_ms"] = numberOrText(stats.mean);
    out["median_ms"] = numberOrText(stats.median);
    out["std_ms"] = numberOrText(stats.stddev);
    out["min_ms"] = numberOrText(stats.min);
    out["max_ms"] = numberOrText(stats.max);
    for (const auto& [p, value] : stats.percentiles)
        out[percentileKey(p) + "_ms"] = numberOrText(value);
    return out;
}

// The counts and throughputs a length bucket and a model's share write alike.
template <typename Subset> void writeSubsetCounts(Json& out, const Subset& s)
{
    out["completed"] = s.completed;
    out["failed"] = s.failed;
    out["total_input_tokens"] = s.totalInputTokens;
    out["total_output_tokens"] = s.totalOutputTokens;
    out["request_throughput"] = numberOrText(s.requestThroughput);
    out["output_throughput"] = numberOrText(s.outputThroughput);
}

Json kneepointObject(const StepMetrics& m)
{
    Json out = Json::object();
    out["version"] = KNEEPOINT_VERSION;
    if (!m.derived.empty()) {
        Json derived = Json::array();
        for (const QString& key : m.derived)
            derived.push_back(utf8(key));
        out["derived"] = derived;
    }
    out["percentiles"] = m.options.percentiles;
    Json selected = Json::array();
    for (LatencyMetric metric : m.options.selectedMetrics)
        selected.push_back(metricKey(metric));
    out["percentile_metrics"] = selected;
    if (m.options.hasSlos()) {
        Json slos = Json::object();
        if (m.options.ttftSloMs)
            slos["ttft"] = *m.options.ttftSloMs;
        if (m.options.tpotSloMs)
            slos["tpot"] = *m.options.tpotSloMs;
        if (m.options.e2elSloMs)
            slos["e2el"] = *m.options.e2elSloMs;
        out["goodput_slo_ms"] = slos;
    } else {
        out["goodput_slo_ms"] = nullptr;
    }
    out["good_completed"] = countOrNull(m.goodCompleted);
    Json failures = Json::object();
    for (const auto& [failure, count] : m.failuresByClass)
        failures[utf8(failureClassKey(failure))] = count;
    out["failures"] = failures;
    out["mean_concurrency"] = numberOrText(m.meanConcurrency);
    out["server_prompt_tokens_reported"] = countOrNull(m.serverPromptTokensReported);
    out["total_server_input_tokens"] = countOrNull(m.totalServerInputTokens);
    out["prompt_token_mismatches"] = countOrNull(m.promptTokenMismatches);
    out["output_tokens_from_text"] = countOrNull(m.outputTokensFromText);
    out["input_token_source"] = stringOrNull(inputTokenSourceKey(m.options.inputTokenSource));
    out["dataset_input_tokens_reported"] = countOrNull(m.datasetInputTokensReported);
    if (isKnown(m.totalCachedTokens))
        out["cached_tokens_reported"] = m.cachedTokensReported;
    if (isKnown(m.incompleteRequests))
        out["incomplete_requests"] = m.incompleteRequests;
    if (isKnown(m.repeatedPrompts)) {
        out["repeated_prompts"] = m.repeatedPrompts;
        out["repeated_prompt_share"] = numberOrText(m.repeatedPromptShare());
    }
    if (isKnown(m.totalReasoningTokens))
        out["reasoning_tokens_reported"] = m.reasoningTokensReported;
    if (m.options.imagesPerRequest > 0) {
        out["images_per_request"] = m.options.imagesPerRequest;
        out["mean_image_tokens"] = numberOrText(m.meanImageTokens.value_or(kUnknown));
    }
    if (isKnown(m.shortOutputs)) {
        out["output_limits_known"] = m.outputLimitsKnown;
        out["short_outputs"] = m.shortOutputs;
        out["short_output_share"] = numberOrText(m.shortOutputShare());
    }
    if (m.ignoreEos)
        out["ignore_eos"] = *m.ignoreEos;
    // Per-turn groups only where the client counted them (another tool's file gives none).
    if (isKnown(m.numSessions) && m.firstTurns.completed + m.laterTurns.completed > 0) {
        Json turns = Json::object();
        for (const auto& [name, g] : { std::pair { "first", &m.firstTurns }, std::pair { "later", &m.laterTurns } }) {
            Json group = Json::object();
            group["completed"] = g->completed;
            group["total_input_tokens"] = g->totalInputTokens;
            group["total_cached_tokens"] = countOrNull(g->totalCachedTokens);
            group["ttft"] = statsObject(g->ttft);
            group["e2el"] = statsObject(g->e2el);
            turns[name] = std::move(group);
        }
        out["turns"] = std::move(turns);
    }
    if (isKnown(m.numSessions))
        out["mean_session_duration_s"] = numberOrText(m.meanSessionS);
    const QString inputWarning = m.inputTokenWarning();
    out["input_token_warning"] = stringOrNull(inputWarning);
    Json latency = Json::object();
    for (LatencyMetric metric : allLatencyMetrics)
        latency[metricKey(metric)] = statsObject(m.stats(metric));
    out["latency"] = latency;
    out["first_content_ttft"] = statsObject(m.firstContentTtft);
    if (!m.unknownEvents.empty()) {
        Json events = Json::object();
        for (const auto& [event, count] : m.unknownEvents)
            events[utf8(event)] = count;
        out["unknown_events"] = std::move(events);
        if (m.moreUnknownEvents)
            out["more_unknown_events"] = true;
    }
    out["dispatch_lag"] = statsObject(m.dispatchLag);
    out["connect_time"] = statsObject(m.connectTime);
    if (const ClientHealth& h = m.clientHealth; h.recorded) {
        out["client_health"] = Json { { "transport", utf8(h.transport) }, { "dispatch_lag_p90_ms", h.dispatchLagP90Ms },
            { "dispatch_lag_p99_ms", h.dispatchLagP99Ms }, { "loop_ticks", h.loopTicks },
            { "loop_lag_p90_ms", h.loopLagP90Ms }, { "loop_lag_p99_ms", h.loopLagP99Ms },
            { "loop_lag_max_ms", h.loopLagMaxMs }, { "process_cpu_s", h.processCpuS }, { "cpu_cores", h.cpuCores },
            { "cpu_per_request_us", h.cpuPerRequestUs }, { "cpu_per_event_us", h.cpuPerEventUs },
            { "client_bound", h.clientBound }, { "reason", utf8(h.reason) } };
    }
    if (!m.intervals.isEmpty())
        out["intervals"]
            = Json::parse(QJsonDocument(intervalsJson(m.intervals)).toJson(QJsonDocument::Compact).toStdString());
    if (!m.lengthBuckets.empty()) {
        Json buckets = Json::array();
        for (const LengthBucketMetrics& b : m.lengthBuckets) {
            Json bucket = Json::object();
            bucket["prompt_tokens_min"] = b.lo;
            bucket["prompt_tokens_max"] = b.hi < 0 ? Json(nullptr) : Json(b.hi); // exclusive
            writeSubsetCounts(bucket, b);
            Json bucketLatency = Json::object();
            for (LatencyMetric metric : allLatencyMetrics) {
                const LatencyStats& stats = metric == LatencyMetric::Ttft ? b.ttft
                    : metric == LatencyMetric::Tpot                       ? b.tpot
                    : metric == LatencyMetric::Itl                        ? b.itl
                                                                          : b.e2el;
                bucketLatency[metricKey(metric)] = statsObject(stats);
            }
            bucket["latency"] = bucketLatency;
            buckets.push_back(std::move(bucket));
        }
        out["length_buckets"] = std::move(buckets);
    }
    if (!m.perModel.empty()) {
        Json models = Json::object();
        for (const ModelMetrics& mm : m.perModel) {
            Json model = Json::object();
            model["requests"] = mm.requests();
            writeSubsetCounts(model, mm);
            Json modelLatency = Json::object();
            modelLatency["ttft"] = statsObject(mm.ttft);
            modelLatency["tpot"] = statsObject(mm.tpot);
            modelLatency["e2el"] = statsObject(mm.e2el);
            model["latency"] = std::move(modelLatency);
            models[utf8(mm.model)] = std::move(model);
        }
        out["per_model"] = std::move(models);
    }
    return out;
}

// Python's str() of a float, as the reference's file names hold it: 10.0, inf, 12.5.
QString pythonFloat(double v)
{
    if (std::isinf(v))
        return QStringLiteral("inf");
    if (v == std::floor(v) && std::abs(v) < 1e15)
        return QString::number(v, 'f', 1);
    return QString::number(v, 'g', 17);
}

} // namespace

bool ResultJson::isReferenceKey(const QString& key)
{
    // What Kneepoint writes, and what current vLLM writes besides (ramp-up, probes, speculative decoding,
    // diffusion, client queueing, audio).
    static const QStringList fixed = [] {
        QStringList keys;
        for (const char* k :
            { "date", "endpoint_type", "backend", "label", "model_id", "tokenizer_id", "num_prompts", "request_rate",
                "burstiness", "max_concurrency", "ramp_up_strategy", "ramp_up_start_rps", "ramp_up_end_rps", "duration",
                "completed", "failed", "total_input_tokens", "total_output_tokens", "request_throughput",
                "request_goodput", "request_goodput:", "output_throughput", "total_token_throughput", "input_lens",
                "output_lens", "ttfts", "itls", "latencies", "start_times", "queue_times", "generated_texts", "errors",
                "max_output_tokens_per_s", "max_concurrent_requests", "rtfx", "rps_change_events",
                "total_input_sequences", "input_sequence_throughput", "total_cached_tokens", "prefix_cache_hit_rate",
                "num_sessions", "joules_per_output_token", "kneepoint" })
            keys << QString::fromLatin1(k);
        return keys;
    }();
    static const QRegularExpression generated(QStringLiteral(
        "^((mean|median|std|p[0-9.]+)_[a-z0-9_]+_ms|probe_[a-z0-9_]+|spec_decode_[a-z0-9_]+|diffusion_[a-z0-9_]+)$"));
    return fixed.contains(key) || generated.match(key).hasMatch();
}

QString ResultJson::defaultFileName(const StepSetup& s)
{
    const QString model = s.modelId.section(QLatin1Char('/'), -1);
    const QString conc = s.maxConcurrency ? QStringLiteral("-concurrency%1").arg(*s.maxConcurrency) : QString();
    // vLLM's compute_result_filename: `label or backend` leads the name.
    const QString label = s.label.isEmpty() ? s.backend : s.label;
    return QStringLiteral("%1-%2qps%3-%4-%5.json").arg(label, pythonFloat(s.requestRate), conc, model, s.date);
}

QByteArray ResultJson::write(
    const StepSetup& setup, const StepMetrics& m, std::span<const RequestRecord> details, int indent)
{
    Json out = Json::object();
    // A run of ours always knows these; an imported file may not, and then they are unknown (null).
    out["date"] = stringOrNull(setup.date);
    out["endpoint_type"] = stringOrNull(setup.endpointType);
    out["backend"] = stringOrNull(setup.backend);
    out["label"] = stringOrNull(setup.label);
    out["model_id"] = stringOrNull(setup.modelId);
    out["tokenizer_id"] = stringOrNull(setup.tokenizerId);
    out["num_prompts"] = countOrNull(setup.numPrompts);
    // Where vLLM puts --metadata; never a reference key. A sweep parameter keeps its JSON type.
    for (const auto& [key, value] : setup.metadata) {
        const std::string name = utf8(key);
        if (out.contains(name))
            continue;
        if (value.isString())
            out[name] = utf8(value.toString());
        else if (value.isBool())
            out[name] = value.toBool();
        else if (const double v = value.toDouble(); value.isDouble() && v == std::trunc(v) && std::abs(v) < 9e15)
            out[name] = static_cast<qint64>(v);
        else if (value.isDouble())
            out[name] = numberOrText(v);
    }
    out["request_rate"] = numberOrText(setup.requestRate);
    out["burstiness"] = numberOrText(setup.burstiness);
    out["max_concurrency"] = setup.maxConcurrency ? Json(*setup.maxConcurrency) : Json(nullptr);

    out["duration"] = numberOrText(m.durationS);
    out["completed"] = countOrNull(m.completed);
    out["failed"] = countOrNull(m.failed);
    out["total_input_tokens"] = countOrNull(m.totalInputTokens);
    out["total_output_tokens"] = countOrNull(m.totalOutputTokens);
    out["request_throughput"] = numberOrText(m.requestThroughput);
    out["request_goodput"] = m.requestGoodput ? numberOrText(*m.requestGoodput) : Json(nullptr);
    out["output_throughput"] = numberOrText(m.outputThroughput);
    out["total_token_throughput"] = numberOrText(m.totalTokenThroughput);
    // Energy: only when a GPU exporter's figures gave it, never a made-up 0.
    if (m.joulesPerOutputToken && std::isfinite(*m.joulesPerOutputToken))
        out["joules_per_output_token"] = *m.joulesPerOutputToken;
    // Prefix caching and sessions: written when the server reported cached tokens, or for multi-turn steps.
    if (isKnown(m.totalCachedTokens)) {
        out["total_cached_tokens"] = m.totalCachedTokens;
        out["prefix_cache_hit_rate"] = numberOrText(m.prefixCacheHitRate());
    }
    if (isKnown(m.numSessions))
        out["num_sessions"] = m.numSessions;
    // Reasoning models: only when a request reported or streamed reasoning, never a made-up 0.
    if (isKnown(m.totalReasoningTokens))
        out["total_reasoning_tokens"] = m.totalReasoningTokens;
    // Current vLLM (vllm/benchmarks/serve.py) puts the per-request lists here, between the totals and the
    // peaks. `latencies` is E2EL in s and `start_times` the sends in s; vLLM's are time.perf_counter()
    // values, whose zero is arbitrary, ours are from the step's start: differences mean the same.
    // `queue_times` is the wait between the planned send and the send. A request without a figure (it
    // failed, or was never sent) has null there, where vLLM writes 0.0.
    if (!details.empty()) {
        Json inputLens = Json::array();
        Json outputLens = Json::array();
        Json ttfts = Json::array();
        Json itls = Json::array();
        Json latencies = Json::array();
        Json startTimes = Json::array();
        Json queueTimes = Json::array();
        Json texts = Json::array();
        Json errors = Json::array();
        const auto seconds = [](qint64 ns) { return static_cast<double>(ns) / nsPerSecond; };
        for (const RequestRecord& r : details) {
            inputLens.push_back(r.promptTokens);
            outputLens.push_back(r.success() ? r.outputTokens : 0);
            const bool hasTtft = r.firstTokenNs >= 0 && r.sentNs >= 0;
            ttfts.push_back(hasTtft ? seconds(r.firstTokenNs - r.sentNs) : 0.0);
            Json gaps = Json::array();
            for (std::size_t i = 1; i < r.chunkNs.size(); ++i)
                gaps.push_back(seconds(r.chunkNs[i] - r.chunkNs[i - 1]));
            itls.push_back(std::move(gaps));
            const bool hasLatency = r.success() && r.sentNs >= 0 && r.lastTokenNs >= r.sentNs;
            latencies.push_back(hasLatency ? Json(seconds(r.lastTokenNs - r.sentNs)) : Json(nullptr));
            startTimes.push_back(r.sentNs >= 0 ? Json(seconds(r.sentNs)) : Json(nullptr));
            const bool hasQueue = r.sentNs >= 0 && r.scheduledNs >= 0;
            queueTimes.push_back(
                hasQueue ? Json(seconds(std::max<qint64>(r.sentNs - r.scheduledNs, 0))) : Json(nullptr));
            texts.push_back(utf8(r.generatedText));
            errors.push_back(utf8(r.errorMessage));
        }
        out["input_lens"] = std::move(inputLens);
        out["output_lens"] = std::move(outputLens);
        out["ttfts"] = std::move(ttfts);
        out["itls"] = std::move(itls);
        out["latencies"] = std::move(latencies);
        out["start_times"] = std::move(startTimes);
        out["queue_times"] = std::move(queueTimes);
        out["generated_texts"] = std::move(texts);
        out["errors"] = std::move(errors);
    }

    out["max_output_tokens_per_s"] = numberOrText(m.maxOutputTokensPerS);
    out["max_concurrent_requests"] = countOrNull(m.maxConcurrentRequests);
    // vLLM's `rtfx` (inverse real-time factor) is seconds of input audio per second of benchmark: for the
    // text endpoints Kneepoint drives it has no meaning (vLLM writes 0.0), so it is left out.

    // The reference writes the selected metrics in its fixed order, whatever order they were asked in.
    for (LatencyMetric metric : allLatencyMetrics) {
        if (!m.options.isSelected(metric))
            continue;
        const LatencyStats& stats = m.stats(metric);
        const std::string key = metricKey(metric);
        out["mean_" + key + "_ms"] = numberOrText(stats.mean);
        out["median_" + key + "_ms"] = numberOrText(stats.median);
        out["std_" + key + "_ms"] = numberOrText(stats.stddev);
        for (const auto& [p, value] : stats.percentiles)
            out[percentileKey(p) + "_" + key + "_ms"] = numberOrText(value);
    }
    // Time to first content token, after the reference's metrics, for steps of a reasoning model (for
    // others it is about TTFT, and kneepoint.first_content_ttft keeps it).
    if (isKnown(m.totalReasoningTokens)) {
        const LatencyStats& ttfc = m.firstContentTtft;
        out["mean_ttfc_ms"] = numberOrText(ttfc.mean);
        out["median_ttfc_ms"] = numberOrText(ttfc.median);
        out["std_ttfc_ms"] = numberOrText(ttfc.stddev);
        for (const auto& [p, value] : ttfc.percentiles)
            out[percentileKey(p) + "_ttfc_ms"] = numberOrText(value);
    }

    out["kneepoint"] = kneepointObject(m);

    // Invalid UTF-8 cannot come from a QString; replace rather than throw all the same.
    const std::string text = out.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
    return QByteArray(text.data(), static_cast<qsizetype>(text.size()));
}

} // namespace kp
