#pragma once

#include "telemetry/prometheustext.h"

#include <QByteArray>
#include <QJsonArray>
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
    const char* queueTime = nullptr; // histogram (seconds): arrival to first scheduled
    // Histograms (seconds) of a finished request's phases: scheduled to first token (prefill), first to
    // last token (decode), scheduled to last token (inference), arrival to finish (end to end).
    const char* prefillTime = nullptr;
    const char* decodeTime = nullptr;
    const char* inferenceTime = nullptr;
    const char* e2eLatency = nullptr;
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

// The Prometheus names a GPU exporter uses, one label set per GPU, and the factors that turn its units
// into Kneepoint's (%, W, MiB, J).
struct GpuMetricNames
{
    const char* exporter = nullptr; // "dcgm", "amd"
    const char* utilisation = nullptr; // gauge, %
    const char* power = nullptr; // gauge, W
    const char* powerAlt = nullptr; // read when power is absent
    const char* fbUsed = nullptr; // gauge
    const char* energy = nullptr; // counter
    double fbToMiB = 1.0;
    double energyPerJ = 1.0; // the counter's units in one joule
};

// NVIDIA's dcgm-exporter (DCGM_FI_DEV_GPU_UTIL %, DCGM_FI_DEV_POWER_USAGE W, DCGM_FI_DEV_FB_USED MiB,
// DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION mJ) and AMD's device-metrics-exporter (gpu_gfx_activity %,
// gpu_power_usage or gpu_package_power W, gpu_used_vram MB, gpu_energy_consumed µJ), in that order.
const std::vector<GpuMetricNames>& knownGpuMetricNames();
// The exporter whose utilisation or power gauge the text carries; null when none does.
const GpuMetricNames* detectGpuMetrics(const PromText& text);

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
    PromHistogram prefillTime;
    PromHistogram decodeTime;
    PromHistogram inferenceTime;
    PromHistogram e2eLatency;
    // GPUs, from an exporter's metrics: how many label sets, their mean utilisation (%), their summed
    // power (W), the fullest one's memory used (MiB) and their summed energy counters (J).
    std::optional<double> gpuCount;
    std::optional<double> gpuUtilisation;
    std::optional<double> gpuPowerW;
    std::optional<double> gpuFbUsedMiB;
    std::optional<double> gpuEnergyTotalJ;
    QString url; // the metrics URL this sample is of; empty for the figures of all URLs together

    static ServerSample extract(const PromText& text, const ServerMetricNames& names, double atS);
    // Leaves out the counters and histograms (a round that lacks some URL's part: their sums would dip).
    void dropCounters();
    // Keeps of each histogram only its count and sum, what steps/NNN.metrics.jsonl keeps (and reads back).
    void dropBuckets();
    // The GPU figures of an exporter's text, set on this sample.
    void extractGpu(const PromText& text, const GpuMetricNames& names);
    // Several URLs scraped at one time as one sample: counts and counters added up (over the URLs that
    // have them), KV usage and prefix-cache hit rate averaged, GPU utilisation weighted by GPU count,
    // memory the highest. Histograms are added bucket by bucket.
    static ServerSample combine(const std::vector<ServerSample>& parts, double atS);
    // One line of steps/NNN.metrics.jsonl (no newline): t, running, waiting, kv_usage,
    // preemptions_total, prompt_tokens_total, generation_tokens_total, prefix_cache_queries_total,
    // prefix_cache_hits_total, prefix_cache_hit_rate, ttft_count, ttft_sum_s, queue_time_count,
    // queue_time_sum_s, prefill_time_count, prefill_time_sum_s, decode_time_count, decode_time_sum_s,
    // inference_time_count, inference_time_sum_s, e2e_count, e2e_sum_s, gpu_count, gpu_util_pct,
    // gpu_power_w, gpu_fb_used_mib, gpu_energy_total_j, url; absent values are left out.
    QByteArray toJsonLine() const;
    // The inverse of toJsonLine (histograms keep only their count and sum); none when the line is not
    // a JSON object with a number "t".
    static std::optional<ServerSample> fromJsonLine(QByteArrayView line);
    bool operator==(const ServerSample&) const = default;
};

// One of the server's latency histograms over a step (the difference between its first and last scrape):
// how many requests it counted, their mean (exact: the sums' difference over the counts') and percentiles
// 50, 90 and 99 estimated from the buckets (linear within a bucket, as Prometheus' histogram_quantile: a
// bucket estimate, never better than the bucket bounds). Wall milliseconds. Unknown when the server has no
// such histogram or counted nothing during the step.
struct HistogramFigures
{
    std::optional<double> count;
    std::optional<double> meanMs;
    std::map<double, double> percentilesMs; // bucket estimates

    bool isKnown() const { return meanMs.has_value(); }
    std::optional<double> percentile(double p) const;
    bool operator==(const HistogramFigures&) const = default;
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
    std::optional<double> queueTimeMeanMs; // = queueTime.meanMs
    // Where a request's time went on the server (vLLM's request_*_time_seconds and e2e histograms, SGLang's
    // queue and e2e ones): queue (arrival to first scheduled), prefill (scheduled to first token), decode,
    // inference (prefill + decode) and end to end; counted when requests finish.
    HistogramFigures queueTime, prefillTime, decodeTime, inferenceTime, e2eLatency;
    // Prefix caching during the step: the tokens looked up and found (counter differences), and the hit
    // rate 0..1: found / looked up, or the mean of the gauge when the server has no counters. Unknown
    // when the server reports neither (or looked nothing up).
    std::optional<double> prefixCacheQueries, prefixCacheHits;
    std::optional<double> prefixCacheHitRate;
    // GPUs, when an exporter was scraped: the count (the most seen in one sample), mean and highest
    // utilisation (%), the fullest GPU's memory used (MiB), mean power of all GPUs (W) and the energy
    // they drew during the step (J, server clock): the energy counters' difference, else mean power x
    // the step's time, as energySource says ("counter" or "power").
    std::optional<int> gpuCount;
    std::optional<double> gpuUtilisationMean, gpuUtilisationMax;
    std::optional<double> gpuFbUsedMeanMiB, gpuFbUsedMaxMiB;
    std::optional<double> gpuPowerMeanW;
    std::optional<double> energyJ;
    QString energySource;
    QString url; // the metrics URL, for one of several; empty for the figures of all together
    int scrapesCut = 0; // scrapes whose body was longer than the cap and read only up to it
    // Each URL's figures apart, when there are several URLs or an exporter among them (run.json "servers").
    std::vector<ServerStepStats> servers;

    // energyJ / output tokens; none when either is unknown or the tokens are 0.
    std::optional<double> joulesPerOutputToken(double outputTokens) const;

    // Gauges from every sample after the first (the first is taken before the load starts; with two
    // or fewer samples, all of them); differences from first to last. None without samples.
    // ServerStatsAccumulator over the samples in order.
    static std::optional<ServerStepStats> derive(
        const std::vector<ServerSample>& samples, const QString& engine, const QString& model, double timeScale = 1.0);

    QJsonObject toJson() const; // the "server" object of a run.json step entry (servers left out)
    QJsonArray serversJson() const; // its "servers" array; empty without servers
    static std::optional<ServerStepStats> fromJson(const QJsonObject& object);
    // "server: running 12.3 avg / 32 max, waiting 4.1 / 17, KV cache 71% avg / 100% max, 3 preemptions,
    // TTFT mean 120 ms, p99 480 ms (client 135 ms)": what the server reported, for a progress line.
    QString summary(std::optional<double> clientTtftMeanMs = std::nullopt) const;
    bool operator==(const ServerStepStats&) const = default;
};

// ServerStepStats::derive folded one sample at a time, in fixed memory: the first and the latest sample
// (histogram and counter differences, the step's time), each gauge's running sum and highest value, each
// counter's increase so far. stats() equals derive() over every sample added, whatever their number.
class ServerStatsAccumulator
{
public:
    void add(const ServerSample& sample);
    int samples() const { return m_count; }
    std::optional<ServerStepStats> stats(const QString& engine, const QString& model, double timeScale = 1.0) const;

private:
    struct Gauge
    {
        std::optional<double> first; // the first sample's reading
        double restTotal = 0.0; // the later samples' readings added up
        int restN = 0;
        std::optional<double> max;

        void add(const std::optional<double>& v, bool isFirst);
        // The mean over the samples after the first, or over all of them when there are two or fewer.
        std::optional<double> mean(int samples) const;
    };
    struct Counter // Prometheus' increase(), as derive() takes it
    {
        bool firstHas = false;
        bool lastHas = false;
        double total = 0.0;
        std::optional<double> previous;

        void add(const std::optional<double>& v, bool isFirst);
        std::optional<double> increase(int samples) const;
    };

    int m_count = 0;
    std::optional<ServerSample> m_first, m_last;
    Gauge m_running, m_waiting, m_kvUsage, m_gpuUtilisation, m_gpuFbUsed, m_gpuPower, m_gpuCount, m_hitRate;
    Counter m_preemptions, m_promptTokens, m_generationTokens, m_cacheQueries, m_cacheHits, m_energy;
    bool m_cacheCounters = false; // a sample had prefix-cache counters: the hit-rate gauge is not read
};

// A step's scrapes kept for its metrics file in bounded memory: every scrape up to `limit`, then every
// second one (the first kept), then every fourth, and so on, so a step of any length keeps between
// limit / 2 and limit evenly spaced scrapes, with the latest one always at the end. Histograms are kept
// as the file keeps them (ServerSample::dropBuckets); the statistics come from every scrape
// (ServerStatsAccumulator), never from this series.
class ServerSeries
{
public:
    static constexpr std::size_t kDefaultLimit = 2048;

    explicit ServerSeries(std::size_t limit = kDefaultLimit);
    void add(ServerSample sample);
    std::size_t size() const { return m_kept.size() + (m_latest ? 1 : 0); } // samples held
    std::size_t added() const { return m_added; }
    std::size_t stride() const { return m_stride; } // scrapes per kept one
    std::vector<ServerSample> take(); // the series; leaves it empty
    void clear();

private:
    std::size_t m_limit;
    std::vector<ServerSample> m_kept; // the scrapes 0, stride, 2 x stride, ...
    std::optional<ServerSample> m_latest; // the latest scrape, when it is not on the stride
    std::size_t m_added = 0;
    std::size_t m_stride = 1;
};

// A step's server telemetry: the samples (kept with the step; a ServerSeries, thinned past its limit) and
// what every scrape adds up to.
struct StepTelemetry
{
    std::vector<ServerSample> samples;
    std::optional<ServerStepStats> stats;

    bool isEmpty() const { return samples.empty(); }
    // Each URL's samples, in the order of the URLs, when stats->servers is not empty.
    std::vector<std::vector<ServerSample>> serverSamples;
    // steps/NNN.metrics.jsonl: the combined samples, then each URL's with its "url" key.
    QByteArray samplesJsonl() const;
    // Every combined sample (no "url") of a steps/NNN.metrics.jsonl text; lines that do not read are skipped.
    static std::vector<ServerSample> samplesFromJsonl(QByteArrayView text);
    // The samples of one URL.
    static std::vector<ServerSample> samplesFromJsonl(QByteArrayView text, const QString& url);
    bool operator==(const StepTelemetry&) const = default;
};

} // namespace kp

Q_DECLARE_METATYPE(kp::ServerStepStats)
Q_DECLARE_METATYPE(kp::ServerSample)
