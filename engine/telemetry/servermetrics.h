#pragma once

#include "telemetry/prometheustext.h"

#include <QByteArray>
#include <QJsonObject>
#include <QMetaType>
#include <QString>

#include <map>
#include <optional>
#include <vector>

namespace kp {

// The Prometheus names one serving engine uses for what the analysis reads. Null where the engine
// has no such metric.
struct ServerMetricNames
{
    const char* engine = nullptr; // "vllm", "sglang", "tgi"
    const char* running = nullptr; // gauge: requests being decoded/prefilled
    const char* waiting = nullptr; // gauge: requests queued
    const char* kvUsage = nullptr; // gauge: KV-cache usage, a fraction 0..1
    const char* kvUsageAlt = nullptr; // the older name, read when kvUsage is absent
    const char* preemptions = nullptr; // counter
    const char* ttft = nullptr; // histogram (seconds)
    const char* queueTime = nullptr; // histogram (seconds)
    const char* promptTokens = nullptr; // counter (or a histogram's _sum)
    const char* generationTokens = nullptr; // counter (or a histogram's _sum)
    const char* modelLabel = nullptr; // the label that names the model
    // Prefix caching: counters of prompt tokens looked up in the cache and found there (vLLM), or a
    // hit-rate gauge 0..1 (older vLLM's block hit rate, SGLang's), read when the counters are absent.
    const char* prefixCacheQueries = nullptr;
    const char* prefixCacheHits = nullptr;
    const char* prefixCacheHitRate = nullptr;
};

// vLLM (vllm:num_requests_running, vllm:kv_cache_usage_perc / vllm:gpu_cache_usage_perc, ...), SGLang
// (sglang:num_running_reqs, sglang:num_queue_reqs, sglang:token_usage, ...) and TGI
// (tgi_batch_current_size, tgi_queue_size, tgi_request_queue_duration, ...), in that order.
const std::vector<ServerMetricNames>& knownServerMetricNames();
// The engine whose running or waiting gauge the text carries; null when none does.
const ServerMetricNames* detectServerMetrics(const PromText& text);

// One scrape, reduced to what the analysis reads. Several label sets of one metric (data-parallel
// ranks, several models) are added up; KV usage takes the highest.
struct ServerSample
{
    double atS = 0.0; // seconds from the step start (wall clock)
    std::optional<double> running;
    std::optional<double> waiting;
    std::optional<double> kvUsage; // 0..1
    std::optional<double> preemptionsTotal;
    std::optional<double> promptTokensTotal;
    std::optional<double> generationTokensTotal;
    std::optional<double> prefixCacheQueriesTotal; // tokens
    std::optional<double> prefixCacheHitsTotal; // tokens
    std::optional<double> prefixCacheHitRate; // the gauge, 0..1
    PromHistogram ttft; // cumulative since the server started; empty when absent
    PromHistogram queueTime;

    static ServerSample extract(const PromText& text, const ServerMetricNames& names, double atS);
    // One line of steps/NNN.metrics.jsonl (no newline): t, running, waiting, kv_usage,
    // preemptions_total, prompt_tokens_total, generation_tokens_total, prefix_cache_queries_total,
    // prefix_cache_hits_total, prefix_cache_hit_rate, ttft_count, ttft_sum_s;
    // absent values are left out.
    QByteArray toJsonLine() const;
    // The inverse of toJsonLine (histograms keep only their count and sum); none when the line is not
    // a JSON object with a number "t".
    static std::optional<ServerSample> fromJsonLine(QByteArrayView line);
    bool operator==(const ServerSample&) const = default;
};

// What the server said about one step: gauges over the samples taken while it ran, counter and
// histogram differences between the first scrape (at the step start) and the last (at its end).
struct ServerStepStats
{
    QString engine; // "vllm", "sglang", "tgi"
    QString model; // the model label of the metrics, when they carry one
    int samples = 0;
    double timeScale = 1.0; // server seconds per wall second (a simulator running fast); times are divided by it
    std::optional<double> runningMean, runningMax;
    std::optional<double> waitingMean, waitingMax;
    std::optional<double> kvUsageMean, kvUsageMax; // 0..1
    std::optional<double> preemptions; // during the step
    std::optional<double> promptTokens, generationTokens; // during the step
    std::optional<double> ttftCount; // first tokens the server reported during the step
    std::optional<double> ttftMeanMs; // server-side, wall milliseconds
    std::map<double, double> ttftPercentilesMs; // 50, 90, 99 -> ms, estimated from the histogram buckets
    std::optional<double> queueTimeMeanMs;
    // Prefix caching during the step: the tokens looked up and found (counter differences), and the hit
    // rate 0..1: found / looked up, or the mean of the gauge when the server has no counters. Unknown
    // when the server reports neither (or looked nothing up).
    std::optional<double> prefixCacheQueries, prefixCacheHits;
    std::optional<double> prefixCacheHitRate;

    // Gauges from every sample after the first (the first is taken before the load starts; with two
    // or fewer samples, all of them); differences from first to last. None without samples.
    static std::optional<ServerStepStats> derive(
        const std::vector<ServerSample>& samples, const QString& engine, const QString& model, double timeScale = 1.0);

    QJsonObject toJson() const; // the "server" object of a run.json step entry
    static std::optional<ServerStepStats> fromJson(const QJsonObject& object);
    // "server: running 12.3 avg / 32 max, waiting 4.1 / 17, KV cache 71% avg / 100% max, 3 preemptions,
    // TTFT mean 120 ms, p99 480 ms (client 135 ms)": what the server reported, for a progress line.
    QString summary(std::optional<double> clientTtftMeanMs = std::nullopt) const;
    bool operator==(const ServerStepStats&) const = default;
};

// A step's server telemetry: the samples (kept with the step) and what they add up to.
struct StepTelemetry
{
    std::vector<ServerSample> samples;
    std::optional<ServerStepStats> stats;

    bool isEmpty() const { return samples.empty(); }
    QByteArray samplesJsonl() const; // steps/NNN.metrics.jsonl
    // Every sample of a steps/NNN.metrics.jsonl text; lines that do not read are skipped.
    static std::vector<ServerSample> samplesFromJsonl(QByteArrayView text);
    bool operator==(const StepTelemetry&) const = default;
};

} // namespace kp

Q_DECLARE_METATYPE(kp::ServerStepStats)
Q_DECLARE_METATYPE(kp::ServerSample)
