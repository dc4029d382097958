#include "sim/simserver_p.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>

namespace kp::sim {

using namespace detail;
// Ordered, so that the debug documents read in the order written here.
using json = nlohmann::ordered_json;

namespace {

json msValue(double ms)
{
    if (ms < 0)
        return nullptr;
    return std::round(ms * 1000.0) / 1000.0;
}

std::string toStd(const QByteArray& bytes)
{
    return std::string(bytes.constData(), std::size_t(bytes.size()));
}

json truthToJson(const GroundTruth& t)
{
    json tokens = json::array();
    for (const double ms : t.tokenMs)
        tokens.push_back(msValue(ms));
    const bool inFlight = std::string_view(t.outcome) == "in_flight";
    return json {
        { "seq", t.seq },
        { "id", toStd(t.responseId) },
        { "request_id", t.requestId.isNull() ? json(nullptr) : json(toStd(t.requestId)) },
        { "endpoint", endpointName(t.endpoint) },
        { "stream", t.stream },
        { "status", t.status },
        { "fault", faultKindName(t.fault).toStdString() },
        { "outcome", t.outcome },
        { "finish_reason", t.finishReason ? json(t.finishReason) : json(nullptr) },
        { "prompt_tokens", t.promptTokens },
        { "cached_tokens", t.cachedTokens < 0 ? json(nullptr) : json(t.cachedTokens) },
        { "max_tokens", t.maxTokens },
        { "target_tokens", t.targetTokens },
        { "reasoning_tokens", t.reasoningTokens < 0 ? json(nullptr) : json(t.reasoningTokens) },
        { "output_tokens", inFlight && t.stream ? int(t.tokenMs.size()) : t.outputTokens },
        { "events", t.events },
        { "preemptions", t.preemptions },
        { "accepted_ms", msValue(t.acceptedMs) },
        { "admitted_ms", msValue(t.admittedMs) },
        { "first_token_ms", msValue(t.firstTokenMs) },
        { "first_generated_ms", msValue(t.firstGeneratedMs) },
        { "last_generated_ms", msValue(t.lastGeneratedMs) },
        { "finished_ms", msValue(t.finishedMs) },
        { "token_ms", std::move(tokens) },
    };
}

QByteArray dumpJson(const json& j)
{
    return QByteArray::fromStdString(j.dump(-1, ' ', false, json::error_handler_t::replace));
}

} // namespace

void SimServer::Private::recordTruth(GroundTruth&& truth)
{
    m_history.push_back(std::move(truth));
    while (m_history.size() > std::size_t(std::max(0, m_options.groundTruthLimit))) {
        m_history.pop_front();
        ++m_historyDropped;
    }
}

QByteArray SimServer::Private::metricsText() const
{
    const SimStats s = m_model.stats();
    PrometheusWriter w(QByteArrayLiteral("model_name"), m_options.params.modelId.toUtf8());
    w.gauge("vllm:num_requests_running", "Number of requests in model execution batches.", s.running);
    w.gauge("vllm:num_requests_waiting", "Number of requests waiting to be processed.", s.waiting);
    w.gauge("vllm:gpu_cache_usage_perc", "GPU KV-cache usage. 1 means 100 percent usage.", s.kvUsage);
    w.gauge("vllm:kv_cache_usage_perc", "KV-cache usage. 1 means 100 percent usage.", s.kvUsage);
    w.counter(
        "vllm:num_preemptions_total", "Cumulative number of preemption from the engine.", double(s.preemptionsTotal));
    // Tokens found in the prefix cache count as processed, as vLLM counts them: the figure stays the sum of
    // the prompts the clients sent (recomputation after preemption aside).
    w.counter("vllm:prompt_tokens_total", "Number of prefill tokens processed.",
        double(s.promptTokensTotal + s.prefixCacheHitsTotal));
    w.counter(
        "vllm:generation_tokens_total", "Number of generation tokens processed.", double(s.generationTokensTotal));
    w.counter("vllm:prefix_cache_queries_total", "Prefix cache queries, in terms of number of queried tokens.",
        double(s.prefixCacheQueriesTotal));
    w.counter("vllm:prefix_cache_hits_total", "Prefix cache hits, in terms of number of cached tokens.",
        double(s.prefixCacheHitsTotal));
    w.labelledCounter("vllm:request_success_total", "Count of successfully processed requests.", "finished_reason",
        { { QByteArrayLiteral("stop"), double(m_successStop) },
            { QByteArrayLiteral("length"), double(m_successLength) },
            { QByteArrayLiteral("abort"), double(m_successAbort) } });
    w.histogram(
        "vllm:time_to_first_token_seconds", "Histogram of time to first token in seconds (simulated time).", m_ttft);
    w.histogram("vllm:e2e_request_latency_seconds",
        "Histogram of end to end request latency in seconds (simulated time).", m_e2e);
    w.histogram("vllm:request_queue_time_seconds",
        "Histogram of time spent in WAITING phase for request (simulated time).", m_queue);
    w.histogram("vllm:request_prefill_time_seconds",
        "Histogram of time spent in PREFILL phase for request (simulated time).", m_prefill);
    w.histogram("vllm:request_decode_time_seconds",
        "Histogram of time spent in DECODE phase for request (simulated time).", m_decode);
    w.histogram("vllm:request_inference_time_seconds",
        "Histogram of time spent in RUNNING phase for request (simulated time).", m_inference);
    return w.text() + gpuMetricsText();
}

double SimServer::Private::busyMsUntil(double nowMs) const
{
    if (m_busySpans.empty())
        return m_busyTotalMs;
    // Only the latest iteration can run past now.
    const auto& [start, end] = m_busySpans.back();
    return m_busyTotalMs - std::clamp(end - std::max(start, nowMs), 0.0, end - start);
}

double SimServer::Private::busyMsWithin(double fromMs, double toMs) const
{
    double busy = 0;
    for (const auto& [start, end] : m_busySpans)
        busy += std::max(0.0, std::min(end, toMs) - std::max(start, fromMs));
    return busy;
}

// dcgm-exporter's text: HELP and TYPE as its default counters file words them, then one sample per GPU
// labelled gpu, UUID, pci_bus_id, device, modelName and Hostname. Every GPU of a tensor-parallel model is
// busy at the same time, so all carry the same figures.
QByteArray SimServer::Private::gpuMetricsText() const
{
    const int gpus = m_options.gpus;
    if (gpus <= 0)
        return {};
    const double now = simNowMs();
    const double window = std::min(SimGpuModel::kWindowMs, now);
    const double utilisation = window > 0 ? std::clamp(busyMsWithin(now - window, now) / window, 0.0, 1.0) : 0.0;
    const double power = SimGpuModel::powerW(utilisation);
    const double energy = std::floor(SimGpuModel::energyMj(now, busyMsUntil(now)));
    const double fbUsed = SimGpuModel::fbUsedMiB(m_model.stats().kvUsage);
    QByteArray text;
    auto family = [&](const char* name, const char* type, const char* help, const QByteArray& value) {
        text += QByteArray("# HELP ") + name + ' ' + help + "\n# TYPE " + name + ' ' + type + '\n';
        for (int i = 0; i < gpus; ++i) {
            text += name;
            text += QByteArray("{gpu=\"") + QByteArray::number(i) + "\",UUID=\"GPU-00000000-0000-4000-8000-"
                + QByteArray::number(i).rightJustified(12, '0')
                + "\",pci_bus_id=\"00000000:" + QByteArray::number(0x10 + i, 16).toUpper().rightJustified(2, '0')
                + ":00.0\",device=\"nvidia" + QByteArray::number(i)
                + "\",modelName=\"Kneepoint Simulated GPU\",Hostname=\"kneepoint-sim\"} " + value + '\n';
        }
    };
    family("DCGM_FI_DEV_GPU_UTIL", "gauge", "GPU utilization (in %).",
        QByteArray::number(qint64(std::lround(utilisation * 100.0))));
    family("DCGM_FI_DEV_FB_USED", "gauge", "Framebuffer memory used (in MiB).", QByteArray::number(qint64(fbUsed)));
    family("DCGM_FI_DEV_FB_FREE", "gauge", "Framebuffer memory free (in MiB).",
        QByteArray::number(qint64(SimGpuModel::kFbTotalMiB - fbUsed)));
    family("DCGM_FI_DEV_POWER_USAGE", "gauge", "Power draw (in W).", QByteArray::number(power, 'f', 3));
    family("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "counter", "Total energy consumption since boot (in mJ).",
        QByteArray::number(qint64(energy)));
    return text;
}

QByteArray SimServer::Private::groundTruthJson(quint64 sinceSeq) const
{
    std::vector<const GroundTruth*> all;
    all.reserve(m_history.size() + m_requests.size());
    for (const GroundTruth& t : m_history) {
        if (t.seq > sinceSeq)
            all.push_back(&t);
    }
    for (const auto& [id, r] : m_requests) {
        if (r->truth.seq > sinceSeq)
            all.push_back(&r->truth);
    }
    std::sort(all.begin(), all.end(), [](const GroundTruth* a, const GroundTruth* b) { return a->seq < b->seq; });
    json requests = json::array();
    for (const GroundTruth* t : all)
        requests.push_back(truthToJson(*t));
    const json doc {
        { "time_unit", "ms" },
        { "clock", "simulated" },
        { "time_scale", m_options.timeScale },
        { "now_ms", msValue(simNowMs()) },
        { "dropped", m_historyDropped },
        { "requests", std::move(requests) },
    };
    return dumpJson(doc);
}

QByteArray SimServer::Private::statsJson() const
{
    const SimStats s = m_model.stats();
    const json doc {
        { "time_unit", "ms" },
        { "clock", "simulated" },
        { "time_scale", m_options.timeScale },
        { "now_ms", msValue(simNowMs()) },
        { "in_flight", m_inFlight.load() },
        { "peak_in_flight", m_peakInFlight.load() },
        { "connections", m_connections.size() },
        { "peak_connections", m_peakConnections },
        { "accepted_total", m_acceptedTotal },
        { "finished_total", m_finishedTotal },
        { "running", s.running },
        { "waiting", s.waiting },
        { "kv_usage", s.kvUsage },
        { "iterations", m_iterations },
        { "max_delivery_lag_wall_ms", std::round(m_maxLagWallMs * 1000.0) / 1000.0 },
        { "resyncs", m_resyncs },
        { "busy_ms", msValue(busyMsUntil(simNowMs())) },
    };
    return dumpJson(doc);
}

} // namespace kp::sim
