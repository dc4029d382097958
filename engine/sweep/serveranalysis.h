#pragma once

#include <QJsonValue>
#include <QList>
#include <QString>

#include <optional>
#include <vector>

namespace kp {

struct SweepPoint;
struct AnalysisSentence;
struct ServerStepStats;
struct StepMetrics;

// Which side a prefix-cache hit rate comes from: the server's /metrics (its counters or gauge), or the
// client's sum of usage.prompt_tokens_details.cached_tokens over the step's input tokens.
enum class HitRateSide { Server, Client };

// A step's prefix-cache hit rate (0..1) as each side saw it; none when that side has no figure.
std::optional<double> serverHitRate(const std::optional<ServerStepStats>& server);
std::optional<double> clientHitRate(const StepMetrics& metrics);

// What the server's own metrics say about the sweep: where the KV cache filled, where the waiting
// queue began to grow, where preemptions began, and how far the server's TTFT lies below the
// client's. Loads are on the analysis' axis; step indexes are into the analysed points.
struct ServerFindings
{
    bool available = false; // at least one point carries server telemetry
    QString engine; // "vllm", "sglang", "tgi"
    int stepsWithTelemetry = 0;

    std::optional<double> peakKvUsage; // highest KV-cache usage seen (0..1)
    double peakKvAt = 0.0;
    int peakKvStep = -1;
    std::optional<double> kvFullAt; // the lowest load whose KV-cache usage reached kKvFull
    int kvFullStep = -1;
    double kvFullUsage = 0.0; // the usage there
    std::optional<double> queueGrowsAt; // the lowest load from which requests waited on average (and kept waiting)
    int queueStep = -1;
    bool queueFollowsKv = false; // the queue began to grow where the cache filled, or at the next load
    std::optional<double> preemptionsFrom; // the lowest load with preemptions
    int preemptionStep = -1;
    double preemptionsThere = 0.0;
    std::optional<double> ttftGapMs; // mean over steps of client TTFT mean − server TTFT mean
    // How the prefix-cache hit rate moved along the sweep, from the server's figures when any step has
    // one, else from the client's. Unset side: no step has a hit rate.
    std::optional<HitRateSide> hitRateSide;
    int hitRateSteps = 0; // steps with a hit rate on that side
    int hitRateTrend = 0; // -1 fell, 0 held steady, +1 rose (by at least kHitRateChange)
    double hitRateFrom = 0.0,
           hitRateTo = 0.0; // fell: the peak and the last; rose: the first and the last; steady: the mean twice
    double hitRateFromAt = 0.0, hitRateToAt = 0.0; // their loads; fell: from the first load after the peak
    int hitRateStep = -1; // the step the sentence points at
    bool hitRateFellAsKvFilled = false; // the KV cache was full somewhere along the fall

    // GPUs and energy, from an exporter's figures: each step that has a GPU power or energy figure, in
    // load order, and the lowest load at which the GPUs were busy (mean utilisation at kGpuBusy or more).
    struct GpuStep
    {
        double offered = 0.0;
        int step = -1;
        std::optional<int> gpus;
        std::optional<double> utilisation; // mean, percent
        std::optional<double> powerW; // all GPUs together, mean over the step
        std::optional<double> joulesPerOutputToken;
        bool operator==(const GpuStep&) const = default;
    };
    std::vector<GpuStep> gpuSteps;
    std::optional<double> gpuBusyAt;
    int gpuBusyStep = -1;
    double gpuBusyUtilisation = 0.0;
    // The GPU power at a load (linear between the two steps around it, the nearest step's outside them);
    // none without power figures.
    std::optional<double> gpuPowerAt(double offered) const;
    std::optional<double> joulesPerOutputTokenAt(double offered) const;

    // Several model servers behind the target (target.metrics_urls): the one that saturated first (its
    // KV cache full, or requests kept waiting) at a lower load than every other, and where the next one
    // did (unset: no other saturated up to othersCheckedTo).
    int replicas = 0; // model servers with their own figures in some step
    QString firstSaturatedUrl;
    std::optional<double> firstSaturatedAt;
    int firstSaturatedStep = -1;
    bool firstSaturatedByKv = true; // else by its waiting queue
    double firstSaturatedValue = 0.0; // KV usage 0..1, or mean waiting requests
    std::optional<double> othersSaturateAt;
    double othersCheckedTo = 0.0;

    // Where TTFT went as the load grew, from the server's queue and prefill histograms against the client's
    // TTFT (the rest: network, connections, the client): the part that carried most of TTFT's growth over
    // the lightest step and made up at least kTtftPartShare of the mean TTFT at every step from ttftPartFrom
    // on (two steps at least, each with a mean TTFT beyond the run's noise above the lightest step's).
    enum class TtftPart { None, Client, Queue, Prefill };
    TtftPart ttftPart = TtftPart::None;
    std::optional<double> ttftPartFrom;
    int ttftPartStep = -1;
    double ttftPartShare = 0.0; // the smallest share of mean TTFT from there on, 0..1
    int ttftBreakdownSteps = 0; // steps whose queue and prefill times the server reported

    static constexpr double kTtftPartShare = 0.5;
    static constexpr double kKvFull = 0.95; // "full": at or above this usage (vLLM keeps a small watermark free)
    static constexpr double kQueueing = 1.0; // mean waiting requests from which the queue counts as growing
    static constexpr double kHitRateChange = 0.05; // a hit rate that moved less held steady
    static constexpr double kGpuBusy = 90.0; // mean GPU utilisation (percent) from which the GPUs count as busy

    bool operator==(const ServerFindings&) const = default;
};

// Pure. Points without telemetry, partial or client-bound are not read.
ServerFindings analyzeServer(const std::vector<SweepPoint>& points);

// "KV cache reached 100% at 70 req/s; the waiting queue grew from there.", "Preemptions began at
// 80 req/s (12 in that step).", "The prefix-cache hit rate fell from 78% to 31% from 40 req/s on, as the
// KV cache filled and evicted prefixes (the server's figures).", ...; nothing without telemetry.
QList<AnalysisSentence> serverSentences(const ServerFindings& findings, bool concurrencyMode);

// analysis.json "server": null without telemetry and hit rates, else the findings (null where absent).
QJsonValue serverFindingsJson(const ServerFindings& findings);

} // namespace kp
