#pragma once

#include "sim/faults.h"
#include "sim/simmodel.h"

#include <QHostAddress>
#include <QObject>
#include <QString>
#include <QUrl>

#include <cmath>
#include <memory>

namespace kp::sim {

// Reasoning-model answers on /v1/chat/completions: each begins with a number of reasoning tokens,
// streamed as delta.reasoning_content (message.reasoning_content when not streamed), drawn per request
// uniformly from [min, max] with the server's seed, and counted in usage.completion_tokens (they cost
// decode time like any token, and max_tokens caps them with the answer) and in
// usage.completion_tokens_details.reasoning_tokens. /v1/completions stays plain. max 0: no reasoning.
struct SimReasoning
{
    int min = 0;
    int max = 0;
    bool isEnabled() const { return max > 0; }
    bool operator==(const SimReasoning&) const = default;
};

struct SimServerOptions
{
    SimParams params;
    QString apiKey; // empty: no authentication
    double timeScale = 1.0; // the simulated clock runs this many times faster than the wall clock
    quint64 seed = 0; // output lengths (without ignore_eos) and fault draws
    FaultPlan faults;
    // With include_usage, the usage event (and [DONE]) follow the last token's event after this many
    // simulated seconds instead of with it: a client must end the request at the last token.
    double usageDelaySeconds = 0;
    int groundTruthLimit = 20000; // finished requests kept for /debug/requests; the oldest go first
    int listenBacklog = 4096;
    // GPUs the model runs on; above 0, /metrics also carries NVIDIA dcgm-exporter's DCGM_FI_DEV_* metrics,
    // one label set per GPU, following the batch (see docs/SIMULATOR.md, "GPU metrics").
    int gpus = 0;
    SimReasoning reasoning;
};

// The simulated GPUs' figures: utilisation is the busy fraction of the last kGpuWindowMs of simulated
// time, power idle + (max - idle) x utilisation, energy the integral of the instantaneous power (idle,
// or max while an iteration runs) since the start, memory used a fixed part plus the KV cache's share.
struct SimGpuModel
{
    static constexpr double kWindowMs = 1000.0;
    static constexpr double kIdleW = 75.0;
    static constexpr double kMaxW = 700.0;
    static constexpr double kFbTotalMiB = 81559.0; // an 80 GB card
    static constexpr double kFbFixedMiB = 30000.0; // weights, activations, the runtime
    static constexpr double kFbKvMiB = 45000.0; // the KV cache when full
    static double powerW(double utilisation) { return kIdleW + (kMaxW - kIdleW) * utilisation; }
    static double energyMj(double elapsedMs, double busyMs) { return kIdleW * elapsedMs + (kMaxW - kIdleW) * busyMs; }
    static double fbUsedMiB(double kvUsage) { return std::round(kFbFixedMiB + kFbKvMiB * kvUsage); }
};

// The simulated OpenAI-compatible server: HTTP/1.1 with keep-alive, SSE streaming, vLLM's metric
// names, injected faults and per-request ground truth, driving a SimModel in real time. Everything it
// reports (ground truth, metrics) is in simulated time. Lives in one thread and serves every
// connection from that thread's event loop; see SimHost to run it on a thread of its own.
class SimServer : public QObject
{
    Q_OBJECT

public:
    explicit SimServer(SimServerOptions options, QObject* parent = nullptr);
    ~SimServer() override;

    // Port 0 picks a free port. On failure errorString() says why, naming the address and port.
    bool listen(const QHostAddress& address = QHostAddress(QHostAddress::LocalHost), quint16 port = 0);
    // Stops listening and drops every connection; requests in flight are aborted.
    void close();

    bool isListening() const;
    QHostAddress serverAddress() const;
    quint16 serverPort() const;
    QUrl baseUrl() const; // http://HOST:PORT, a loopback host when listening on any address
    QString errorString() const;
    const SimServerOptions& options() const;

    // Generation requests accepted and not yet finished, and the most seen at once since the start or
    // the last reset. Safe to call from any thread.
    int inFlight() const;
    int peakInFlight() const;
    void resetPeakInFlight();

private:
    class Private;
    std::unique_ptr<Private> d;
};

} // namespace kp::sim
