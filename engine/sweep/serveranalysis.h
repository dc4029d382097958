#pragma once

#include <QJsonValue>
#include <QList>
#include <QString>

#include <optional>
#include <vector>

namespace kp {

struct SweepPoint;
struct AnalysisSentence;

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

    static constexpr double kKvFull = 0.95; // "full": at or above this usage (vLLM keeps a small watermark free)
    static constexpr double kQueueing = 1.0; // mean waiting requests from which the queue counts as growing

    bool operator==(const ServerFindings&) const = default;
};

// Pure. Points without telemetry, partial or client-bound are not read.
ServerFindings analyzeServer(const std::vector<SweepPoint>& points);

// "KV cache reached 100% at 70 req/s; the waiting queue grew from there.", "Preemptions began at
// 80 req/s (12 in that step).", ...; nothing without telemetry.
QList<AnalysisSentence> serverSentences(const ServerFindings& findings, bool concurrencyMode);

// analysis.json "server": null without telemetry, else the findings (null where absent).
QJsonValue serverFindingsJson(const ServerFindings& findings);

} // namespace kp
