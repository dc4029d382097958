#include "sim/simtimedriver.h"

#include <algorithm>
#include <cmath>

namespace kp::sim {

SimTimeDriver::SimTimeDriver(const SimParams& params, int replicas, double timeScale)
    : m_timeScale(timeScale)
{
    replicas = std::max(1, replicas);
    m_models.reserve(std::size_t(replicas));
    for (int i = 0; i < replicas; ++i)
        m_models.emplace_back(params);
    m_nowMs.assign(std::size_t(replicas), 0.0);
    m_apiServers.assign(std::size_t(replicas), ApiServerQueue(params.apiServerMs));
}

qint64 SimTimeDriver::toNs(double modelMs) const
{
    return static_cast<qint64>(std::llround(modelMs / m_timeScale * 1e6));
}

double SimTimeDriver::toModelMs(qint64 ns) const
{
    return double(ns) / 1e6 * m_timeScale;
}

qint64 SimTimeDriver::sendAtNs(qint64 atNs, const Request& request)
{
    return queue(toModelMs(atNs), atNs, request);
}

qint64 SimTimeDriver::sendAtModelMs(double atMs, const Request& request)
{
    return queue(atMs, toNs(atMs), request);
}

qint64 SimTimeDriver::queue(double atMs, qint64 atNs, const Request& request)
{
    const qint64 index = qint64(m_records.size());
    RequestRecord r;
    r.index = index;
    r.scheduledNs = r.sentNs = atNs;
    r.promptTokens = request.promptTokens;
    m_records.push_back(r);
    m_requests.push_back(request);
    if (m_apiServers.front().active()) {
        // It queues at its replica's API server first, in the order of the sends (see run()).
        m_due.emplace(atMs, index, true);
        return index;
    }
    // It reaches the scheduler after the latency before the engine (the same for every replica's params).
    m_due.emplace(atMs + SimModel::preEngineDelayMs(m_models.front().params(), 0, quint64(index)), index, false);
    return index;
}

void SimTimeDriver::run()
{
    const std::size_t replicas = m_models.size();
    while (true) {
        // The model with work that is earliest in its own time.
        std::size_t busy = replicas;
        for (std::size_t m = 0; m < replicas; ++m) {
            if (m_models[m].hasWork() && (busy == replicas || m_nowMs[m] < m_nowMs[busy]))
                busy = m;
        }
        if (busy == replicas && m_due.empty())
            break;
        // A send that is due before that model's next iteration goes first.
        if (!m_due.empty() && (busy == replicas || std::get<0>(m_due.top()) <= m_nowMs[busy])) {
            const auto [atMs, index, atApiServer] = m_due.top();
            m_due.pop();
            if (atApiServer) {
                // Events run in time order, so the sends reach the API servers in the order of their times; the
                // balancer deals them out as they come.
                const std::size_t m = m_roundRobin++ % replicas;
                m_replicaOf.resize(std::max(m_replicaOf.size(), std::size_t(index) + 1), 0);
                m_replicaOf[std::size_t(index)] = m;
                const double leftMs = m_apiServers[m].pass(atMs);
                m_due.emplace(
                    leftMs + SimModel::preEngineDelayMs(m_models.front().params(), 0, quint64(index)), index, false);
                continue;
            }
            const std::size_t m
                = m_apiServers.front().active() ? m_replicaOf[std::size_t(index)] : m_roundRobin++ % replicas;
            SimModel& model = m_models[m];
            if (!model.hasWork())
                m_nowMs[m] = std::max(m_nowMs[m], atMs);
            const Request& request = m_requests[std::size_t(index)];
            if (!model.addRequest(quint64(index), request.promptTokens, request.outputTokens, atMs)) {
                RequestRecord& r = m_records[std::size_t(index)];
                r.failure = FailureClass::HttpOther;
                r.httpStatus = 400;
                r.endNs = r.sentNs;
                if (onRejected)
                    onRejected(index, atMs);
            }
            continue;
        }
        const Iteration it = m_models[busy].runIteration(m_nowMs[busy]);
        m_nowMs[busy] = it.endMs;
        const qint64 atNs = toNs(it.endMs);
        for (const TokenEvent& token : it.tokens) {
            RequestRecord& r = m_records[std::size_t(token.id)];
            if (token.tokenIndex == 0)
                r.firstByteNs = r.firstTokenNs = r.firstContentNs = atNs;
            r.chunkNs.push_back(atNs);
            if (token.last) {
                r.lastTokenNs = r.endNs = atNs;
                r.httpStatus = 200;
                r.outputTokens = token.tokenIndex + 1;
                r.outputTokensFromUsage = true;
                r.serverPromptTokens = r.promptTokens;
                if (onFinished)
                    onFinished(qint64(token.id), it.endMs, atNs);
            }
        }
    }
}

} // namespace kp::sim
