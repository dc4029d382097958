#pragma once

#include "metrics/requestrecord.h"
#include "sim/simmodel.h"

#include <functional>
#include <queue>
#include <tuple>
#include <utility>
#include <vector>

namespace kp::sim {

// Drives SimModel in simulated time, with no sockets and no clock, and writes what a client reading the
// server would record: one RequestRecord per request sent, its first token, every token's time and its
// end at the end of the iteration that emitted it. Requests are dealt round-robin over `replicas` copies
// of the model (a balancer in front of N servers); the copy that is earliest in its own time runs next.
// The twin's predictions and the tests' simulated sweeps (tests/support/simsweep.h) both drive it.
//
// Times: the model runs in model milliseconds; the records are in client nanoseconds from the step's
// start. timeScale is how many times faster model time runs than the client's clock (the server's
// time_scale): record ns = round(model ms / timeScale · 1e6).
//
// A request reaches its model SimModel::preEngineDelayMs(params, 0, index) after it is sent (the latency
// before the engine; 0 unless the params set one), so its record's TTFT and end include that latency. With
// SimParams::apiServerMs it first queues at its replica's API server (ApiServerQueue, one per replica, dealt
// round-robin in the order of the sends' times) and the latency starts when it leaves.
class SimTimeDriver
{
public:
    struct Request
    {
        int promptTokens = 1;
        int outputTokens = 1;
    };

    SimTimeDriver(const SimParams& params, int replicas = 1, double timeScale = 1);

    // Sends a request at a client time (ns from the step's start) or at a model time (ms); returns its
    // index (the order of sending, from 0), which is its record's place in records().
    qint64 sendAtNs(qint64 atNs, const Request& request);
    qint64 sendAtModelMs(double atMs, const Request& request);
    qint64 sent() const { return qint64(m_records.size()); }

    // Called during run(): a request the model refused (longer than max_model_len, or one that could
    // never fit the KV cache), recorded as failed with HTTP 400 at its send time; and a request's last
    // token. A closed loop sends its next request from these.
    std::function<void(qint64 index, double atMs)> onRejected;
    std::function<void(qint64 index, double endMs, qint64 endNs)> onFinished;

    // Runs until no request is due and no model has work.
    void run();

    const std::vector<RequestRecord>& records() const { return m_records; }
    std::vector<RequestRecord> takeRecords() { return std::move(m_records); }

    qint64 toNs(double modelMs) const;
    double toModelMs(qint64 ns) const;

private:
    qint64 queue(double atMs, qint64 atNs, const Request& request);

    double m_timeScale;
    std::vector<SimModel> m_models;
    std::vector<double> m_nowMs;
    std::size_t m_roundRobin = 0;
    std::vector<Request> m_requests;
    std::vector<RequestRecord> m_records;
    std::vector<ApiServerQueue> m_apiServers; // one per replica
    std::vector<std::size_t> m_replicaOf; // by index: the replica whose API server took it
    // Sends not yet handed to a model, by the model time they reach it (or their API server), then index.
    using Due = std::tuple<double, qint64, bool>; // (ms, index, at the API server)
    std::priority_queue<Due, std::vector<Due>, std::greater<>> m_due;
};

} // namespace kp::sim
