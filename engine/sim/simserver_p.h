#pragma once

// SimServer's private parts, shared by simserver.cpp (connections, requests, the model's iterations and
// their delivery) and simserverreports.cpp (what the server reports about itself: /metrics, the GPU
// exporter, the ground truth and stats documents).

#include "sim/faults.h"
#include "sim/httprequest.h"
#include "sim/prometheus.h"
#include "sim/simmodel.h"
#include "sim/simprotocol.h"
#include "sim/simserver.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <atomic>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <unordered_map>
#include <utility>
#include <vector>

namespace kp::sim {

namespace detail {

struct GroundTruth
{
    quint64 seq = 0;
    QByteArray responseId;
    QByteArray requestId; // the client's x-request-id, null when it sent none
    Endpoint endpoint = Endpoint::Completions;
    bool stream = false;
    FaultKind fault = FaultKind::None;
    int status = 200;
    const char* outcome = "in_flight";
    const char* finishReason = nullptr;
    int promptTokens = 0;
    int cachedTokens = -1; // prompt tokens found in the prefix cache at admission; -1 before it
    int maxTokens = 0;
    int targetTokens = 0;
    int reasoningTokens = -1; // of targetTokens, the reasoning ones; -1 without reasoning
    int outputTokens = 0; // tokens written to the client
    int events = 0; // data events written, [DONE] excluded
    int preemptions = 0;
    double acceptedMs = -1;
    double admittedMs = -1;
    double firstTokenMs = -1;
    // When the model produced the first and the last token (iteration ends): vLLM's first_token_ts and
    // last_token_ts. The phases /metrics reports are differences of these and acceptedMs, admittedMs.
    double firstGeneratedMs = -1;
    double lastGeneratedMs = -1;
    double finishedMs = -1;
    std::vector<double> tokenMs;
};

struct Connection;

struct Request
{
    Request(Endpoint endpoint, quint64 requestId, const QString& modelId, qint64 created)
        : format(endpoint, requestId, modelId, created)
    { }

    quint64 id = 0;
    Connection* conn = nullptr;
    CompletionFormat format;
    bool stream = false;
    bool includeUsage = false;
    bool chunked = true; // HTTP/1.0 streams are delimited by closing the connection instead
    bool keepAlive = true;
    bool inModel = false; // queued or running in the model
    int promptTokens = 0;
    int targetTokens = 0;
    int inputs = 1; // embeddings: the texts in "input"
    int reasoningTokens = -1; // the first ones of targetTokens are reasoning; -1: no reasoning
    const char* finishReason = "length";
    FaultKind fault = FaultKind::None;
    int faultToken = -1; // output token at which a mid-stream fault strikes
    const char* outcome = "completed";
    double holdUntilMs = -1; // output is held back until then (stall, slow first byte)
    QByteArray held;
    int heldTokens = 0;
    int heldEvents = 0;
    bool heldFinish = false;
    GroundTruth truth;
};

struct Connection
{
    QTcpSocket* socket = nullptr;
    QByteArray buffer;
    std::unique_ptr<Request> active; // the generation request whose response is being produced
    bool closing = false; // no further request is read
    bool dead = false; // the socket is gone; cleanup is queued
    bool continueSent = false;
};

class Listener final : public QTcpServer
{
public:
    using QTcpServer::QTcpServer;
    std::function<void(qintptr)> onIncoming;

protected:
    void incomingConnection(qintptr handle) override { onIncoming(handle); }
};

} // namespace detail

class SimServer::Private
{
public:
    Private(SimServer* owner, SimServerOptions options);

    // Timing: the simulated clock is the wall clock since listen(), times timeScale.
    double simNowMs() const { return double(m_clock.nsecsElapsed()) * 1e-6 * m_options.timeScale; }
    int wallDelayMs(double simMs) const;

    void onIncoming(qintptr handle);
    void onReadyRead(detail::Connection* c);
    void onDisconnected(detail::Connection* c);
    void reap(QTcpSocket* socket);
    void processBuffer(detail::Connection* c);
    void handleRequest(detail::Connection* c, const HttpRequest& request);
    void handleGeneration(detail::Connection* c, const HttpRequest& http, Endpoint endpoint);

    bool write(detail::Connection* c, const QByteArray& bytes);
    void respond(detail::Connection* c, int status, const QByteArray& body, const QByteArray& contentType,
        bool keepAlive, const QByteArray& extraHeaders = {});
    void respondError(detail::Connection* c, int status, const QString& message, bool keepAlive,
        const QString& param = {}, const QByteArray& extraHeaders = {}, Endpoint shape = Endpoint::Completions);
    void closeConnection(detail::Connection* c);
    bool authorized(const HttpRequest& request) const;

    void scheduleTick();
    void pump();
    void startIteration(double startMs);
    void deliver(const Iteration& iteration);
    void deliverToken(detail::Request& r, int index, bool last, double generatedMs);
    // This chat request's reasoning tokens (SimServerOptions::reasoning), -1 when the server does not reason.
    int drawReasoningTokens();
    void output(detail::Request& r, QByteArray bytes, int tokens, int events, bool finish);
    void writeOut(detail::Request& r, const QByteArray& bytes, int tokens, int events, bool finish);
    void holdOutput(detail::Request& r, double untilMs);
    void flushHeld(quint64 id);
    void cut(detail::Request& r);
    void finishRequest(detail::Request& r, const char* outcome);
    void recordTruth(detail::GroundTruth&& truth);
    void incrementInFlight();

    QByteArray metricsText() const;
    QByteArray gpuMetricsText() const;
    double busyMsUntil(double nowMs) const;
    double busyMsWithin(double fromMs, double toMs) const;
    QByteArray groundTruthJson(quint64 sinceSeq) const;
    QByteArray statsJson() const;
    void dropConnections();

    SimServer* q;
    SimServerOptions m_options;
    SimModel m_model;
    ApiServerQueue m_apiServer; // the API server's queue: requests pass it in the order they came
    FaultInjector m_faults;
    std::mt19937_64 m_lengthRng;
    std::mt19937_64 m_reasoningRng; // its own stream: turning reasoning on changes no other draw
    QByteArray m_apiKey;
    detail::Listener* m_listener;
    QTimer* m_tick;
    QString m_error;
    QElapsedTimer m_clock;

    std::optional<Iteration> m_current; // computed, its tokens due at its end
    double m_lastEndMs = 0;
    bool m_chained = false; // the next iteration follows the last one without a pause
    std::unordered_map<QTcpSocket*, std::unique_ptr<detail::Connection>> m_connections;
    std::unordered_map<quint64, detail::Request*> m_requests; // in flight, by model id
    std::deque<detail::GroundTruth> m_history; // finished, oldest first
    quint64 m_historyDropped = 0;
    quint64 m_nextId = 0;

    std::atomic<int> m_inFlight { 0 };
    std::atomic<int> m_peakInFlight { 0 };
    int m_peakConnections = 0;
    quint64 m_acceptedTotal = 0;
    quint64 m_finishedTotal = 0;
    quint64 m_iterations = 0;
    quint64 m_resyncs = 0;
    double m_maxLagWallMs = 0;
    quint64 m_successStop = 0;
    quint64 m_successLength = 0;
    quint64 m_successAbort = 0;
    Histogram m_ttft { vllmTtftBuckets() };
    Histogram m_e2e { vllmE2eLatencyBuckets() };
    // vLLM's per-request phases, observed when a request completes: queue (accepted to first scheduled),
    // prefill (scheduled to first token), decode (first to last token), inference (scheduled to last token).
    Histogram m_queue { vllmRequestPhaseBuckets() };
    Histogram m_prefill { vllmRequestPhaseBuckets() };
    Histogram m_decode { vllmRequestPhaseBuckets() };
    Histogram m_inference { vllmRequestPhaseBuckets() };
    // Simulated time spent in iterations: all of it, and the recent iterations for the utilisation window.
    double m_busyTotalMs = 0;
    std::deque<std::pair<double, double>> m_busySpans; // (start, end), oldest first
};

} // namespace kp::sim
