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

namespace {

// splitmix64's finaliser: a cheap, well-mixed 64-bit hash step, the same on every platform.
quint64 mix(quint64 x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

} // namespace

bool SimModel::addRequest(quint64 id, int promptTokens, int outputTokens, double arrivalMs)
{
    Sequence s;
    s.id = id;
    s.promptTokens = promptTokens;
    s.outputTokens = outputTokens;
    s.arrivalMs = arrivalMs;
    return queue(std::move(s));
}

bool SimModel::addRequest(quint64 id, const std::vector<quint64>& promptTokenIds, int outputTokens, double arrivalMs)
{
    Sequence s;
    s.id = id;
    s.promptTokens = int(std::min<std::size_t>(promptTokenIds.size(), std::numeric_limits<int>::max()));
    s.outputTokens = outputTokens;
    s.arrivalMs = arrivalMs;
    if (m_params.prefixCache) {
        // Each full block's hash folds in every token before it, as vLLM chains its block hashes: equal
        // hashes mean equal prefixes, so a block at another position, or after other tokens, never matches.
        const std::size_t size = std::size_t(m_params.blockSize);
        s.blockHashes.reserve(promptTokenIds.size() / size);
        quint64 h = 0;
        for (std::size_t i = 0; i < promptTokenIds.size(); ++i) {
            h = mix(h ^ promptTokenIds[i]);
            if ((i + 1) % size == 0)
                s.blockHashes.push_back(h);
        }
    }
    return queue(std::move(s));
}

bool SimModel::queue(Sequence s)
{
    if (s.promptTokens < 1 || s.outputTokens < 1)
        return false;
    if (qint64(s.promptTokens) + s.outputTokens > m_params.maxModelLen)
        return false;
    // The last token is never written to the cache, so the longest context is prompt + output - 1.
    if (blocksFor(s.promptTokens + s.outputTokens - 1) + m_watermarkBlocks > m_totalBlocks)
        return false;
    if (!m_ids.insert(s.id).second)
        return false;
    m_waiting.push_back(std::move(s));
    return true;
}

void SimModel::release(const Sequence& s)
{
    // From the last block to the first, so that a prefix's tail is evicted before its head (as vLLM
    // frees a request's blocks): a later request then still finds the leading part.
    for (int i = s.sharedBlocks - 1; i >= 0; --i) {
        const quint64 hash = s.blockHashes[std::size_t(i)];
        CacheEntry& e = m_cache[hash];
        Q_ASSERT(e.refs > 0);
        if (--e.refs == 0) {
            e.lru = m_lru.insert(m_lru.end(), hash);
            ++m_freeBlocks;
        }
    }
    m_freeBlocks += s.blocks - s.sharedBlocks;
    m_kvTokens -= s.kvTokens;
}

void SimModel::shareComputedBlocks(Sequence& s)
{
    // A full prompt block enters the prefix cache once it is scheduled for computation (vLLM caches
    // blocks as their tokens are scheduled), so a request admitted after it, even in the same iteration,
    // finds it. A block already there (computed meanwhile by another request) is shared instead, and
    // the sequence's own copy goes back to the pool.
    const int computed = std::min(int(s.blockHashes.size()), s.prefilled / m_params.blockSize);
    while (s.sharedBlocks < computed) {
        const quint64 hash = s.blockHashes[std::size_t(s.sharedBlocks)];
        const auto [it, inserted] = m_cache.try_emplace(hash);
        if (!inserted) {
            if (it->second.refs == 0) {
                m_lru.erase(it->second.lru);
                --m_freeBlocks;
            }
            ++m_freeBlocks;
        }
        ++it->second.refs;
        ++s.sharedBlocks;
    }
}

bool SimModel::resetPrefixCache()
{
    // Evictable entries are exactly those on the LRU list; any other entry is held by a running sequence.
    if (m_lru.size() != m_cache.size())
        return false;
    m_cache.clear();
    m_lru.clear(); // they were counted as free blocks and stay so
    return true;
}

void SimModel::evictToFit()
{
    // Evictable entries count as free; once the empty blocks run out, the least recently used go.
    while (int(m_lru.size()) > m_freeBlocks) {
        m_cache.erase(m_lru.front());
        m_lru.pop_front();
    }
}

void SimModel::abort(quint64 id)
{
    if (m_ids.erase(id) == 0)
        return;
    const auto isId = [id](const Sequence& s) { return s.id == id; };
    if (const auto it = std::find_if(m_running.begin(), m_running.end(), isId); it != m_running.end()) {
        release(*it);
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
    release(s);
    s.blocks = 0;
    s.sharedBlocks = 0;
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
        // A sequence holds blocksFor(kvTokens) blocks: the next token needs a new one only past the last one's end
        // (checked without a division: this loop runs for every running sequence of every iteration).
        const int need = s.kvTokens + 1 > s.blocks * m_params.blockSize ? blocksFor(s.kvTokens + 1) - s.blocks : 0;
        while (need > m_freeBlocks && i < m_running.size())
            preemptNewest(it);
        if (i >= m_running.size())
            break;
        s.blocks += need;
        m_freeBlocks -= need;
        if (int(m_lru.size()) > m_freeBlocks)
            evictToFit();
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
        shareComputedBlocks(s);
    }

    // 3. Admission, FCFS, while a sequence slot, token budget and the blocks for the whole prompt
    //    (plus tokens generated before a preemption) are available, leaving the watermark free so
    //    that running sequences can grow. Not after a preemption in this iteration, as vLLM: the
    //    cache is short, and the freed blocks are for the running set. The leading prompt blocks found
    //    in the prefix cache are shared, not allocated, and not prefilled; the last prompt token is
    //    always computed, so only blocks within the first target - 1 tokens count.
    if (it.preempted.empty()) {
        while (!m_waiting.empty() && int(m_running.size()) < m_params.maxNumSeqs && budget > 0) {
            Sequence& w = m_waiting.front();
            const int target = w.promptTokens + w.generated;
            const int eligible = std::min(int(w.blockHashes.size()), (target - 1) / m_params.blockSize);
            int hits = 0;
            int revived = 0; // evictable entries among the hits: using them takes them from the free blocks
            for (; hits < eligible; ++hits) {
                const auto found = m_cache.find(w.blockHashes[std::size_t(hits)]);
                if (found == m_cache.end())
                    break;
                revived += found->second.refs == 0 ? 1 : 0;
            }
            const int blocks = blocksFor(target);
            const int need = blocks - hits;
            if (need + revived + m_watermarkBlocks > m_freeBlocks)
                break;
            for (int i = 0; i < hits; ++i) {
                CacheEntry& e = m_cache.find(w.blockHashes[std::size_t(i)])->second;
                if (e.refs++ == 0) {
                    m_lru.erase(e.lru);
                    --m_freeBlocks;
                }
            }
            m_freeBlocks -= need;
            evictToFit();
            const int cached = hits * m_params.blockSize;
            if (m_params.prefixCache) {
                m_prefixQueries += quint64(w.promptTokens);
                m_prefixHits += quint64(cached);
            }
            if (w.cachedTokens < 0)
                w.cachedTokens = cached;
            w.prefillTarget = target;
            w.kvTokens = target;
            w.blocks = blocks;
            w.sharedBlocks = hits;
            m_kvTokens += target;
            const int computed = std::min(budget, target - cached);
            w.prefilled = cached + computed;
            budget -= computed;
            it.numPrefillTokens += computed;
            it.numCachedTokens += cached;
            w.emits = w.prefilled == target;
            shareComputedBlocks(w);
            it.admitted.push_back(w.id);
            it.admittedCachedTokens.push_back(cached);
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
    it.tokens.reserve(m_running.size());
    bool finished = false; // a sequence ends with its last token (queue() admits none without one)
    for (Sequence& s : m_running) {
        if (!s.emits)
            continue;
        const bool last = s.generated + 1 == s.outputTokens;
        it.tokens.push_back(TokenEvent { s.id, s.generated, last });
        ++s.generated;
        finished = finished || last;
    }
    if (finished) {
        std::erase_if(m_running, [this](const Sequence& s) {
            if (s.generated < s.outputTokens)
                return false;
            release(s);
            m_ids.erase(s.id);
            ++m_requestsFinished;
            return true;
        });
    }
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
    st.prefixCacheQueriesTotal = m_prefixQueries;
    st.prefixCacheHitsTotal = m_prefixHits;
    st.cachedBlocks = int(m_cache.size());
    return st;
}

double SimModel::preEngineDelayMs(const SimParams& params, quint64 seed, quint64 n)
{
    if (!(params.preEngineSpreadMs > 0))
        return params.preEngineMs;
    // splitmix64 of (seed, n): a uniform in [0, 1) per request, whatever order the requests are drawn in.
    quint64 z = seed + (n + 1) * 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    const double u = double(z >> 11) * 0x1.0p-53;
    return params.preEngineMs - params.preEngineSpreadMs * std::log1p(-u);
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
