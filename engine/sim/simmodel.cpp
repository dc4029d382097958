#include "sim/simmodel.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kp::sim {

SimModel::SimModel(SimParams params)
    : m_params(std::move(params))
{
    Q_ASSERT(m_params.blockSize >= 1);
    Q_ASSERT(m_params.maxNumSeqs >= 1);
    Q_ASSERT(m_params.maxNumBatchedTokens >= 1);
    m_params.blockSize = std::max(1, m_params.blockSize);
    m_params.maxNumSeqs = std::max(1, m_params.maxNumSeqs);
    m_params.maxNumBatchedTokens = std::max(1, m_params.maxNumBatchedTokens);
    m_totalBlocks = std::max(0, m_params.kvCapacityTokens) / m_params.blockSize;
    m_freeBlocks = m_totalBlocks;
    m_watermarkBlocks = int(std::clamp(m_params.kvWatermark, 0.0, 1.0) * m_totalBlocks);
}

bool SimModel::addRequest(quint64 id, int promptTokens, int outputTokens, double arrivalMs)
{
    if (promptTokens < 1 || outputTokens < 1)
        return false;
    if (qint64(promptTokens) + outputTokens > m_params.maxModelLen)
        return false;
    // The last token is never written to the cache, so the longest context is prompt + output - 1.
    if (blocksFor(promptTokens + outputTokens - 1) + m_watermarkBlocks > m_totalBlocks)
        return false;
    if (!m_ids.insert(id).second)
        return false;
    Sequence s;
    s.id = id;
    s.promptTokens = promptTokens;
    s.outputTokens = outputTokens;
    s.arrivalMs = arrivalMs;
    m_waiting.push_back(s);
    return true;
}

void SimModel::abort(quint64 id)
{
    if (m_ids.erase(id) == 0)
        return;
    const auto isId = [id](const Sequence& s) { return s.id == id; };
    if (const auto it = std::find_if(m_running.begin(), m_running.end(), isId); it != m_running.end()) {
        m_freeBlocks += it->blocks;
        m_kvTokens -= it->kvTokens;
        m_running.erase(it);
        return;
    }
    if (const auto it = std::find_if(m_waiting.begin(), m_waiting.end(), isId); it != m_waiting.end())
        m_waiting.erase(it);
}

bool SimModel::hasWork() const
{
    return !m_running.empty() || !m_waiting.empty();
}

void SimModel::preemptNewest(Iteration& it)
{
    // vLLM's recompute preemption: drop the cache, keep the generated tokens; the prefill of
    // prompt + generated tokens is redone on re-admission.
    Sequence s = std::move(m_running.back());
    m_running.pop_back();
    m_freeBlocks += s.blocks;
    m_kvTokens -= s.kvTokens;
    s.blocks = 0;
    s.kvTokens = 0;
    s.prefillTarget = 0;
    s.prefilled = 0;
    s.emits = false;
    it.preempted.push_back(s.id);
    ++m_preemptionsTotal;
    m_waiting.push_front(std::move(s));
}

Iteration SimModel::runIteration(double nowMs)
{
    Iteration it;
    it.startMs = std::max(nowMs, m_lastEndMs);
    it.endMs = it.startMs;
    m_lastEndMs = it.startMs;
    if (!hasWork())
        return it;

    int budget = m_params.maxNumBatchedTokens;

    // 1. Decodes, oldest first. A sequence whose next token needs a new block takes it from the
    //    free pool, or preempts the newest running sequence (possibly itself) until one is free.
    for (std::size_t i = 0; i < m_running.size(); ++i) {
        Sequence& s = m_running[i];
        s.emits = false;
        if (s.prefilled < s.prefillTarget || budget == 0)
            continue;
        const int need = blocksFor(s.kvTokens + 1) - s.blocks;
        while (need > m_freeBlocks && i < m_running.size())
            preemptNewest(it);
        if (i >= m_running.size())
            break;
        s.blocks += need;
        m_freeBlocks -= need;
        ++s.kvTokens;
        ++m_kvTokens;
        s.emits = true;
        --budget;
        ++it.numDecode;
    }

    // 2. Chunked prefills already under way (their blocks were reserved on admission), oldest first.
    for (Sequence& s : m_running) {
        if (budget == 0)
            break;
        if (s.prefilled >= s.prefillTarget)
            continue;
        const int chunk = std::min(budget, s.prefillTarget - s.prefilled);
        s.prefilled += chunk;
        budget -= chunk;
        it.numPrefillTokens += chunk;
        s.emits = s.prefilled == s.prefillTarget;
    }

    // 3. Admission, FCFS, while a sequence slot, token budget and the blocks for the whole prompt
    //    (plus tokens generated before a preemption) are available, leaving the watermark free so
    //    that running sequences can grow. Not after a preemption in this iteration, as vLLM: the
    //    cache is short, and the freed blocks are for the running set.
    if (it.preempted.empty()) {
        while (!m_waiting.empty() && int(m_running.size()) < m_params.maxNumSeqs && budget > 0) {
            Sequence& w = m_waiting.front();
            const int target = w.promptTokens + w.generated;
            const int need = blocksFor(target);
            if (need + m_watermarkBlocks > m_freeBlocks)
                break;
            w.prefillTarget = target;
            w.kvTokens = target;
            w.blocks = need;
            m_freeBlocks -= need;
            m_kvTokens += target;
            w.prefilled = std::min(budget, target);
            budget -= w.prefilled;
            it.numPrefillTokens += w.prefilled;
            w.emits = w.prefilled == target;
            it.admitted.push_back(w.id);
            m_running.push_back(std::move(w));
            m_waiting.pop_front();
        }
    }

    it.kvTokensInUse = int(m_kvTokens);
    it.numWaiting = int(m_waiting.size());
    // The host schedules the next iteration while the GPU runs this one, so its work on the waiting
    // queue costs nothing until it outlasts the forward pass.
    const double forwardMs = m_params.tBaseMs + m_params.perDecodeMs * it.numDecode
        + m_params.perPrefillTokenMs * it.numPrefillTokens + m_params.perKvTokenMs * it.kvTokensInUse;
    const double ms = std::max(forwardMs, m_params.perWaitingMs * it.numWaiting);
    it.endMs = it.startMs + ms;
    m_lastEndMs = it.endMs;

    // 4. Every sequence that decoded or completed its prefill emits one token at the iteration's end.
    for (Sequence& s : m_running) {
        if (!s.emits)
            continue;
        const bool last = s.generated + 1 == s.outputTokens;
        it.tokens.push_back(TokenEvent { s.id, s.generated, last });
        ++s.generated;
    }
    std::erase_if(m_running, [this](const Sequence& s) {
        if (s.generated < s.outputTokens)
            return false;
        m_freeBlocks += s.blocks;
        m_kvTokens -= s.kvTokens;
        m_ids.erase(s.id);
        ++m_requestsFinished;
        return true;
    });
    m_promptTokensTotal += quint64(it.numPrefillTokens);
    m_generationTokensTotal += it.tokens.size();
    return it;
}

SimStats SimModel::stats() const
{
    SimStats st;
    st.running = int(m_running.size());
    st.waiting = int(m_waiting.size());
    st.kvUsage = m_totalBlocks > 0 ? double(m_totalBlocks - m_freeBlocks) / m_totalBlocks : 0.0;
    st.preemptionsTotal = m_preemptionsTotal;
    st.promptTokensTotal = m_promptTokensTotal;
    st.generationTokensTotal = m_generationTokensTotal;
    st.requestsFinished = m_requestsFinished;
    return st;
}

int SimModel::drawOutputTokens(std::mt19937_64& rng, int maxTokens, double eosMeanFraction)
{
    // Taken before any early return, so that the generator advances the same way for every call.
    const double u = double(rng() >> 11) * 0x1.0p-53; // uniform in [0, 1), portable across libraries
    if (maxTokens <= 1)
        return 1;
    if (eosMeanFraction >= 1.0)
        return maxTokens;
    const double f = std::max(eosMeanFraction, 1.0 / maxTokens);
    // E[min(X, M)] = mu·(1 - exp(-M/mu)) for X exponential with mean mu; with r = M/mu the mean
    // fraction is (1 - exp(-r))/r, decreasing in r. Bisect for r on (0, 1/f].
    double lo = 0.0;
    double hi = 1.0 / f;
    for (int k = 0; k < 60; ++k) {
        const double r = 0.5 * (lo + hi);
        if ((1.0 - std::exp(-r)) / r > f)
            lo = r;
        else
            hi = r;
    }
    const double mu = maxTokens / (0.5 * (lo + hi));
    const double x = -mu * std::log1p(-u);
    if (x >= maxTokens)
        return maxTokens;
    return std::clamp(int(std::ceil(x)), 1, maxTokens);
}

SimCapacity theoreticalCapacity(
    const SimParams& params, double meanPromptTokens, double meanOutputTokens, double outputCv)
{
    SimCapacity c;
    const double p = std::max(0.0, meanPromptTokens);
    const double o = std::max(1.0, meanOutputTokens);
    // A running sequence is sampled in proportion to how long it runs, so its progress through its
    // output averages E[O²]/(2·E[O]) = O·(1 + cv²)/2 (the inspection paradox), not O/2; its last
    // block is half empty on average.
    c.contextTokens = p + o * (1 + outputCv * outputCv) / 2 + params.blockSize / 2.0;
    const double usable = (1.0 - std::clamp(params.kvWatermark, 0.0, 1.0)) * params.kvCapacityTokens;
    c.batch = std::min<double>(params.maxNumSeqs, usable / c.contextTokens);
    c.iterationMs = params.tBaseMs + c.batch * (params.perDecodeMs + params.perPrefillTokenMs * p / o)
        + params.perKvTokenMs * c.batch * c.contextTokens;
    c.outputTokensPerSec = 1000.0 * c.batch / c.iterationMs;
    c.requestsPerSec = c.outputTokensPerSec / o;
    c.hiddenWaiting
        = params.perWaitingMs > 0 ? c.iterationMs / params.perWaitingMs : std::numeric_limits<double>::infinity();
    return c;
}

} // namespace kp::sim
