#pragma once

#include "latencystats.h"
#include "requestrecord.h"
#include "stepintervals.h"

#include <QAnyStringView>
#include <QMetaType>
#include <QString>
#include <QStringView>

#include <map>
#include <optional>
#include <vector>

namespace kp {

// The latency distributions the reference reports, in its fixed print order.
enum class LatencyMetric { Ttft, Tpot, Itl, E2el };

inline constexpr LatencyMetric allLatencyMetrics[]
    = { LatencyMetric::Ttft, LatencyMetric::Tpot, LatencyMetric::Itl, LatencyMetric::E2el };

QString latencyMetricKey(LatencyMetric metric); // "ttft", "tpot", "itl", "e2el"
std::optional<LatencyMetric> latencyMetricFromKey(QStringView key);

// Stable machine names for failure classes ("connection_refused", "http_rate_limited", ...), used in files.
QString failureClassKey(FailureClass failure);
std::optional<FailureClass> failureClassFromKey(QStringView key);

enum class InputTokenSource {
    Dataset, // the dataset's count (built-in sources: words, an estimate against a real server)
    ServerTokenize, // the prompts were counted by the server's /tokenize before the run
    ServerUsage, // usage.prompt_tokens of each request, the dataset's count where the server sent none
    Unknown, // another tool's file, which does not say how it counted prompt tokens
};
// "dataset", "server_tokenize", "server_usage"; empty for Unknown (written as null)
QString inputTokenSourceKey(InputTokenSource source);
std::optional<InputTokenSource> inputTokenSourceFromKey(QStringView key);

struct MetricsOptions
{
    std::vector<double> percentiles { 99.0 }; // --metric-percentiles
    std::vector<LatencyMetric> selectedMetrics { LatencyMetric::Ttft, LatencyMetric::Tpot,
        LatencyMetric::Itl }; // --percentile-metrics: what the summary and the result file show
    // --goodput: a completed request is good when each configured value is at most its threshold.
    std::optional<double> ttftSloMs;
    std::optional<double> tpotSloMs;
    std::optional<double> e2elSloMs;

    // Kneepoint's addition: split the step by prompt length (RequestRecord::promptTokens) at these
    // increasing edges, the last bucket open-ended; empty: no split.
    std::vector<int> lengthBucketEdges;
    // Where input token counts come from (METRICS.md, "Input tokens"): the dataset's own count (the
    // prompts may carry the server's /tokenize count, see InputTokenSource), or usage.prompt_tokens per
    // request where the server sent it.
    InputTokenSource inputTokenSource = InputTokenSource::Dataset;
    // Images attached to each request (workload.image_count). With images the dataset counts only the
    // text, so input tokens are the server's usage.prompt_tokens wherever it sent them, whatever the source.
    int imagesPerRequest = 0;

    bool hasSlos() const { return ttftSloMs || tpotSloMs || e2elSloMs; }
    bool isSelected(LatencyMetric metric) const;

    bool operator==(const MetricsOptions&) const = default;
};

// The requests of one prompt-length bucket, aggregated by StepMetrics::fromRecords over that subset and
// the whole step's duration (so the buckets' throughputs add up to the step's).
struct LengthBucketMetrics
{
    qint64 lo = 0; // prompt tokens, inclusive
    qint64 hi = -1; // exclusive; -1: no upper bound
    qint64 completed = 0;
    qint64 failed = 0;
    qint64 totalInputTokens = 0;
    qint64 totalOutputTokens = 0;
    double requestThroughput = 0.0;
    double outputThroughput = 0.0;
    LatencyStats ttft;
    LatencyStats tpot;
    LatencyStats itl;
    LatencyStats e2el;

    qint64 requests() const { return completed + failed; }
    QString label() const; // "0-256", "2048+"
    bool operator==(const LengthBucketMetrics&) const = default;
};

// The requests of one model of a mix (RequestRecord::model), aggregated like a length bucket: over that
// subset and the whole step's duration, so the models' counts and throughputs add up to the step's.
struct ModelMetrics
{
    QString model;
    qint64 completed = 0;
    qint64 failed = 0;
    qint64 totalInputTokens = 0;
    qint64 totalOutputTokens = 0;
    double requestThroughput = 0.0;
    double outputThroughput = 0.0;
    LatencyStats ttft; // percentiles: the step's, and always 99
    LatencyStats tpot;
    LatencyStats e2el;

    qint64 requests() const { return completed + failed; }
    bool operator==(const ModelMetrics&) const = default;
};

// The completed requests of some turns of a multi-turn step (turn 1, or turns 2 and later).
struct TurnGroupMetrics
{
    qint64 completed = 0;
    qint64 totalInputTokens = 0;
    qint64 totalCachedTokens = kUnknownCount; // as StepMetrics::totalCachedTokens, over these requests
    LatencyStats ttft;
    LatencyStats e2el;
    bool operator==(const TurnGroupMetrics&) const = default;
};

// How the client itself fared during a step (Kneepoint's self-check): when it lags, the step measures
// the client rather than the server. The StepRunner fills it; `recorded` is false in foreign files.
struct ClientHealth
{
    bool recorded = false;
    QString transport; // "socket" or "qnam"
    double dispatchLagP90Ms = 0.0; // sent - scheduled, requests that did not wait at the concurrency gate
    double dispatchLagP99Ms = 0.0;
    qint64 loopTicks = 0; // worker event-loop probes (every 20 ms per worker while requests are in flight)
    double loopLagP90Ms = 0.0; // how late those probes fired: how late the workers read their sockets
    double loopLagP99Ms = 0.0;
    double loopLagMaxMs = 0.0;
    double processCpuS = 0.0; // user + system CPU of the whole process over the step (getrusage)
    double cpuCores = 0.0; // processCpuS / the step's wall time
    double cpuPerRequestUs = 0.0;
    double cpuPerEventUs = 0.0; // per choices event received
    bool clientBound = false;
    QString reason; // why it is client-bound; empty otherwise
    bool operator==(const ClientHealth&) const = default;
};

// One load level's aggregate, vLLM-compatible (METRICS.md). Throughputs are per second of `durationS`,
// latencies in milliseconds.
struct StepMetrics
{
    MetricsOptions options; // what these numbers were computed with

    double durationS = 0.0;
    qint64 completed = 0;
    qint64 failed = 0;
    std::map<FailureClass, qint64> failuresByClass;
    qint64 totalInputTokens = 0;
    qint64 totalOutputTokens = 0;
    double requestThroughput = 0.0;
    std::optional<double> requestGoodput; // set only when SLOs were configured
    qint64 goodCompleted = 0;
    double outputThroughput = 0.0;
    double totalTokenThroughput = 0.0;
    double maxOutputTokensPerS = 0.0; // most choices events (chunks) in one 1-second bucket
    qint64 maxConcurrentRequests = 0; // most requests alive in one 1-second bucket
    double meanConcurrency = 0.0; // sum of E2EL / duration (Little's law; SGLang's "concurrency")

    LatencyStats ttft;
    LatencyStats tpot; // requests with more than one output token only
    LatencyStats itl; // pooled over requests, one gap per chunk after the first
    LatencyStats e2el;

    // Kneepoint's additions.
    // Time to first content token (TTFC): to the first event with answer text, reasoning aside; for a
    // reasoning model it follows the thinking, for others it is about TTFT (SGLang's TTFT).
    LatencyStats firstContentTtft;
    // Reasoning models: the completed requests' reasoning tokens (usage's details, else counted from the
    // reasoning text); kUnknownCount when no request reported or streamed any.
    qint64 totalReasoningTokens = kUnknownCount;
    qint64 reasoningTokensReported = 0; // completed requests that reported or streamed reasoning
    // Output-length accounting: of the completed requests that asked for a max_tokens, how many produced
    // fewer output tokens than they asked for; kUnknownCount when no request said what it asked for.
    qint64 shortOutputs = kUnknownCount;
    qint64 outputLimitsKnown = 0; // completed requests whose max_tokens is known
    double shortOutputShare() const; // shortOutputs / outputLimitsKnown; kUnknown when unknown
    // Whether the requests asked the server to ignore end-of-sequence (then a short output means the server
    // ignored that); set by the StepRunner, not by fromRecords; unset when not known (a foreign file).
    std::optional<bool> ignoreEos;
    LatencyStats dispatchLag; // sent - scheduled, every request that has both (includes the concurrency gate)
    // Connect (+ TLS) time of the completed requests that opened a new connection (RequestRecord::connectNs),
    // part of their TTFT; count 0 when every request went out on a kept-alive connection.
    LatencyStats connectTime;
    // The client's own counts of its requests; kUnknownCount for a step of another tool's file
    // (markForeign), which keeps none of them.
    qint64 serverPromptTokensReported = 0; // completed requests whose server sent usage.prompt_tokens
    qint64 totalServerInputTokens = 0; // their sum of usage.prompt_tokens
    qint64 promptTokenMismatches = 0; // requests where usage.prompt_tokens differs from the dataset's count
    qint64 outputTokensFromText = 0; // completed requests without usage, whose tokens were counted from text
    qint64 datasetInputTokensReported = 0; // the dataset's count over the requests with usage.prompt_tokens
    // With images (options.imagesPerRequest): what the server counted for them per request, (server prompt
    // tokens − the dataset's text tokens) / requests over the requests with usage.prompt_tokens;
    // unknown without images or without usage.
    std::optional<double> meanImageTokens;
    // |server − dataset| / server over the requests whose server reported prompt tokens; nullopt without any.
    std::optional<double> inputTokenDisagreement() const;
    // A step read from another tool's file: what only Kneepoint's own client counts (good requests, the
    // usage counters above, how prompt tokens were counted) is unknown, unless the file's reader sets it.
    void markForeign();
    // Set when that passes kInputTokenWarnFraction: the two counts do not describe the same prompts.
    QString inputTokenWarning() const;
    static constexpr double kInputTokenWarnFraction = 0.05;
    // Prefix caching, from the client's side: usage.prompt_tokens_details.cached_tokens summed over the
    // completed requests that reported it; kUnknownCount when none did.
    qint64 totalCachedTokens = kUnknownCount;
    // The GPUs' energy during the step over its output tokens (J), when a GPU exporter was scraped.
    std::optional<double> joulesPerOutputToken;
    qint64 cachedTokensReported = 0; // completed requests whose usage carried cached_tokens
    // total_cached_tokens / total_input_tokens; kUnknown when the cached tokens are unknown.
    double prefixCacheHitRate() const;
    // Requests of this step (completed or failed) that re-sent a prompt an earlier request of the run had
    // sent, in this step or an earlier one (warm-ups count as senders, not as requests); set by the
    // StepRunner, not by fromRecords; kUnknownCount for a file that does not record it.
    qint64 repeatedPrompts = kUnknownCount;
    // Requests still running when an imported tool's step ended (GuideLLM's "incomplete"), counted
    // neither completed nor failed; kUnknownCount where no file said.
    qint64 incompleteRequests = kUnknownCount;
    // repeatedPrompts / (completed + failed); kUnknown when unknown or without requests.
    double repeatedPromptShare() const;
    // Multi-turn sessions: sessions that sent a measured request (kUnknownCount for single-turn steps),
    // and the requests of first turns and of later turns apart.
    qint64 numSessions = kUnknownCount;
    TurnGroupMetrics firstTurns;
    TurnGroupMetrics laterTurns;
    // Requests per session of a multi-turn step ((completed + failed) / numSessions), else 1: a rate step of
    // sessions offers this many times its session rate in requests, the load axis of the analysis.
    double requestsPerSession() const;
    // Mean time from a session's first send to its last request's end, seconds (think times included): how
    // long the last session to start keeps a multi-turn step running. 0 for single-turn steps.
    double meanSessionS = 0.0;
    std::vector<LengthBucketMetrics> lengthBuckets; // one per bucket of options.lengthBucketEdges, empty ones too
    // Types of Responses or Messages stream events the client did not know → completed requests that carried
    // them; counted, never fatal, shown once per type.
    // At most RequestRecord::kMaxUnknownEventTypes types; moreUnknownEvents: there were others, not listed.
    std::map<QString, qint64> unknownEvents;
    bool moreUnknownEvents = false;
    // A model mix: one entry per model name the requests carry, by name; empty when none carries one.
    std::vector<ModelMetrics> perModel;
    ClientHealth clientHealth; // set by the StepRunner, not by fromRecords
    // 95 % confidence intervals of the figures (bootstrap over this step's requests); set by the
    // StepRunner, not by fromRecords; empty for a file that gave none.
    StepIntervals intervals;
    // The reference keys of figures that a foreign result file did not give but its own fields did
    // (request_throughput = completed / duration, ...); empty for measured steps.
    std::vector<QString> derived;
    bool isDerived(QAnyStringView key) const;
    qint64 populatedLengthBuckets() const;

    const LatencyStats& stats(LatencyMetric metric) const;
    LatencyStats& stats(LatencyMetric metric);

    // The single place where the formulas of METRICS.md live. Failed requests count only in `failed` and
    // `failuresByClass`; a duration <= 0 gives zero throughputs.
    static StepMetrics fromRecords(
        const std::vector<RequestRecord>& records, double durationSeconds, const MetricsOptions& options);

    // Wall time of a step: from the first scheduled send (or the first send, for unscheduled requests) to
    // the last end of a request, in ns; 0 when no request has both.
    static qint64 stepDurationNs(const std::vector<RequestRecord>& records);

    bool operator==(const StepMetrics&) const = default;
};

// The percentile of `metric` to show or analyse over these steps: `wanted` when a step reports it, else
// the highest percentile a step reports (a foreign file may keep P90 only), else 50 when a step reports
// its median; nullopt when none reports the metric. Steps without a completed request count for nothing.
std::optional<double> reportedPercentile(
    const std::vector<const StepMetrics*>& steps, LatencyMetric metric, double wanted);

} // namespace kp

Q_DECLARE_METATYPE(kp::StepMetrics)
