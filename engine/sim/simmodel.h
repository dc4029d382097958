#pragma once

#include <QString>
#include <QStringList>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <list>
#include <optional>
#include <random>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace kp::sim {

// Parameters of the continuous-batching model. Times are simulated milliseconds; token counts are
// tokens (one word of text is one token).
struct SimParams
{
    QString modelId = QStringLiteral("kneepoint/sim-default");
    // LoRA adapters served beside the base model (vLLM's --lora-modules): requests may name them, and
    // /v1/models lists them with the base model as their parent. They share the base model's batch.
    QStringList loraModules;
    int maxModelLen = 4096; // prompt + output tokens a request may need
    int maxNumSeqs = 256; // running-set cap (vLLM --max-num-seqs)
    int maxNumBatchedTokens = 2048; // per-iteration token budget: decodes first, prefill takes the rest
    int kvCapacityTokens = 60000; // KV cache size, in tokens
    int blockSize = 16; // KV cache allocation unit, in tokens
    double tBaseMs = 8.0; // fixed cost of one iteration
    double perDecodeMs = 0.035; // per decoding sequence in the iteration
    double perPrefillTokenMs = 0.02; // per prompt token prefilled in the iteration
    double perKvTokenMs = 0.00005; // per token held in the KV cache during the iteration
    double eosMeanFraction = 0.6; // without ignore_eos: mean output length as a fraction of max_tokens
    double kvWatermark = 0.01; // fraction of the KV blocks admission leaves free for running sequences to grow
                               // into (vLLM's block manager watermark)
    double perWaitingMs = 0.08; // ms per request in the waiting queue: host-side scheduling, overlapped with the
                                // forward pass (an iteration takes the longer of the two)
    bool prefixCache = true; // automatic prefix caching: full prompt blocks are shared and kept after use (vLLM's
                             // --enable-prefix-caching)
    // Latency outside the engine (the API server, tokenization, the network): a request reaches the scheduler
    // this long after it was sent, preEngineMs plus an exponential part of mean preEngineSpreadMs drawn per
    // request (preEngineDelayMs). 0 and 0: it reaches the scheduler when it is sent.
    double preEngineMs = 0;
    double preEngineSpreadMs = 0;
    // The API server as a queue (vLLM's is one process: it accepts, tokenizes and hands on every request in
    // turn): a request takes apiServerMs of it, first come first served, before its latency before the engine
    // starts (ApiServerQueue). 0: no queue, whatever the load.
    double apiServerMs = 0;
};

// The single API-server process in front of an engine: requests pass one at a time in the order they arrive,
// SimParams::apiServerMs each, so that the wait grows with the load (a queue of deterministic service: at an
// arrival rate λ below 1/apiServerMs its mean is λ·S²/(2·(1 − λ·S)), above it the wait grows without bound).
// Whoever feeds a SimModel passes each request through it in the order of its sends, then adds the latency
// before the engine (SimModel::preEngineDelayMs).
class ApiServerQueue
{
public:
    explicit ApiServerQueue(double serviceMs)
        : m_serviceMs(serviceMs > 0 ? serviceMs : 0)
    { }
    bool active() const { return m_serviceMs > 0; }
    // When a request that arrives at atMs leaves the API server; calls must come in the order of atMs.
    double pass(double atMs)
    {
        if (m_serviceMs <= 0)
            return atMs;
        m_freeMs = std::max(atMs, m_freeMs) + m_serviceMs;
        return m_freeMs;
    }

private:
    double m_serviceMs = 0;
    double m_freeMs = 0;
};

struct SimPreset
{
    QString name;
    QString description; // one paragraph, including the theoretical capacity and how it is derived
    SimParams params;
};

// The presets the simulator ships ("small", "default", "large", ...).
const std::vector<SimPreset>& presets();
std::optional<SimPreset> presetByName(const QString& name);

// The workload the preset descriptions quote their capacity for: ShareGPT-like means, output lengths
// spread like an exponential distribution (coefficient of variation 1).
inline constexpr double referencePromptTokens = 200;
inline constexpr double referenceOutputTokens = 230;
inline constexpr double referenceOutputCv = 1.0;

// Steady-state capacity of the model saturated by requests of the given mean prompt and output
// lengths, while the waiting queue is short enough for the forward pass to hide its host-side cost;
// outputCv is the output length's coefficient of variation (standard deviation / mean: 0 for fixed
// lengths, 1 for exponential ones). See docs/SIMULATOR.md, "Theoretical capacity":
//   L = P + O·(1 + cv²)/2 + blockSize/2    cache tokens a running sequence holds on average
//   B = min(maxNumSeqs, (1 - kvWatermark)·kvCapacityTokens / L)
//   T = tBaseMs + B·(perDecodeMs + perPrefillTokenMs·P/O) + perKvTokenMs·B·L
//   capacity = 1000·B/T output tokens/s = 1000·B/(O·T) requests/s, while fewer than T/perWaitingMs wait
struct SimCapacity
{
    double contextTokens = 0; // L
    double batch = 0; // B, sequences running
    double iterationMs = 0; // T
    double outputTokensPerSec = 0;
    double requestsPerSec = 0;
    double hiddenWaiting = 0; // T/perWaitingMs: beyond this many waiting requests the host sets the pace (inf if 0)
};
SimCapacity theoreticalCapacity(
    const SimParams& params, double meanPromptTokens, double meanOutputTokens, double outputCv = referenceOutputCv);

// One token produced by an iteration: the moment its SSE event is written is the iteration's end.
struct TokenEvent
{
    quint64 id = 0;
    int tokenIndex = 0; // 0-based index of the output token
    bool last = false; // the request produced its final token
};

struct Iteration
{
    double startMs = 0;
    double endMs = 0;
    int numDecode = 0; // running sequences that decoded a token
    int numPrefillTokens = 0; // prompt tokens prefilled in this iteration
    int kvTokensInUse = 0; // at the start of the iteration, after admission
    int numWaiting = 0; // requests left in the waiting queue once the iteration is scheduled
    std::vector<quint64> admitted; // requests admitted (or re-admitted after preemption) this iteration
    std::vector<int> admittedCachedTokens; // parallel to admitted: prompt tokens each found in the prefix cache
    int numCachedTokens = 0; // prompt tokens found in the prefix cache by this iteration's admissions
    std::vector<quint64> preempted; // requests preempted this iteration (back at the head of the queue)
    std::vector<TokenEvent> tokens; // in request-admission order
};

struct SimStats
{
    int running = 0;
    int waiting = 0;
    double kvUsage = 0; // fraction of kvCapacityTokens held, 0..1
    quint64 preemptionsTotal = 0;
    quint64 promptTokensTotal = 0; // prompt tokens prefilled (recomputation included)
    quint64 generationTokensTotal = 0;
    quint64 requestsFinished = 0;
    quint64 prefixCacheQueriesTotal = 0; // prompt tokens looked up in the prefix cache, one lookup per admission
    quint64 prefixCacheHitsTotal = 0; // of those, tokens found cached
    int cachedBlocks = 0; // blocks in the prefix cache, held by running sequences or evictable
};

// A deterministic, socket-free model of a vLLM-like engine. The caller feeds arrivals and runs
// iterations back to back; the model never looks at a clock.
class SimModel
{
public:
    explicit SimModel(SimParams params);

    const SimParams& params() const { return m_params; }

    // Queues a request arriving at arrivalMs, which will produce exactly outputTokens tokens. The
    // caller adds a request when it arrives: the next iteration may admit it whatever arrivalMs says.
    // Returns false (and queues nothing) if promptTokens + outputTokens exceeds maxModelLen, if the
    // request could never fit the KV cache (its longest context, prompt + output - 1 tokens, needs
    // more blocks than the cache less the watermark), if either count is below 1, or if id is already
    // queued or running.
    // A request queued this way has no token content: it never hits the prefix cache nor adds to it.
    bool addRequest(quint64 id, int promptTokens, int outputTokens, double arrivalMs);
    // The same for a prompt given as token ids (one per prompt token), which the prefix cache compares:
    // see docs/SIMULATOR.md, "Prefix caching".
    bool addRequest(quint64 id, const std::vector<quint64>& promptTokenIds, int outputTokens, double arrivalMs);

    // The longest context, prompt + output - 1 tokens, a request may reach: the cache less the watermark,
    // in whole blocks. addRequest rejects requests beyond it.
    int maxContextTokens() const { return (m_totalBlocks - m_watermarkBlocks) * m_params.blockSize; }

    // Removes a request wherever it is (client went away); frees its cache blocks. Unknown ids are ignored.
    void abort(quint64 id);

    // True while any request is waiting or running.
    bool hasWork() const;

    // Empties the prefix cache, as vLLM's reset_prefix_cache does: only when no running request holds a
    // cached block (the evictable entries go; the counters stay). Returns false, changing nothing, while
    // one does.
    bool resetPrefixCache();

    // Runs one iteration starting at max(nowMs, end of the previous iteration): admits from the
    // waiting queue, applies the token budget, computes the iteration time and the tokens it emits.
    // Without work (hasWork() false) it returns an empty iteration with startMs == endMs.
    Iteration runIteration(double nowMs);

    SimStats stats() const;

    // Output length of a request sent without ignore_eos: min(ceil(X), maxTokens) with X exponential,
    // its mean chosen so that the result averages about eosMeanFraction · maxTokens; always in
    // [1, maxTokens]. Uses exactly one draw of rng, so a seeded generator gives the same lengths everywhere.
    static int drawOutputTokens(std::mt19937_64& rng, int maxTokens, double eosMeanFraction);

    // The latency before the engine of the n-th request (from 0, in the order the requests were sent) of a
    // stream seeded with `seed`: preEngineMs + preEngineSpreadMs · X, X exponential of mean 1. A pure function
    // of (seed, n), with no library distribution, so a simulated step and the server give a request the same
    // delay on every platform; exactly preEngineMs when the spread is 0.
    static double preEngineDelayMs(const SimParams& params, quint64 seed, quint64 n);

private:
    struct Sequence
    {
        quint64 id = 0;
        int promptTokens = 0;
        int outputTokens = 0;
        double arrivalMs = 0;
        int generated = 0; // output tokens emitted so far
        int prefillTarget = 0; // tokens to compute before the next token: prompt + generated at admission
        int prefilled = 0; // of prefillTarget
        int kvTokens = 0; // cache slots reserved
        int blocks = 0; // blocks for kvTokens; the first sharedBlocks are prefix-cache entries, the rest its own
        int sharedBlocks = 0;
        std::vector<quint64> blockHashes; // of each full prompt block, chained: it covers every token before it
        int cachedTokens = -1; // found in the prefix cache at the first admission
        bool emits = false; // scratch: emits a token at the end of the current iteration
    };

    struct CacheEntry
    {
        int refs = 0; // running sequences holding the block; 0: evictable, counted as free
        std::list<quint64>::iterator lru; // its place in m_lru while evictable
    };

    int blocksFor(int tokens) const { return (tokens + m_params.blockSize - 1) / m_params.blockSize; }
    void preemptNewest(Iteration& it);
    bool queue(Sequence s);
    void release(const Sequence& s); // gives the sequence's blocks back; its fields stay
    void shareComputedBlocks(Sequence& s);
    void evictToFit();

    SimParams m_params;
    int m_totalBlocks = 0;
    int m_watermarkBlocks = 0;
    int m_freeBlocks = 0; // blocks no running sequence holds: empty ones and evictable prefix-cache entries
    std::unordered_map<quint64, CacheEntry> m_cache; // prefix cache: block hash → entry
    std::list<quint64> m_lru; // evictable entries, least recently used first; never more than m_freeBlocks
    qint64 m_kvTokens = 0; // sum of kvTokens over the running set
    double m_lastEndMs = 0;
    std::vector<Sequence> m_running; // admission order, oldest first
    std::deque<Sequence> m_waiting; // FCFS; preempted sequences go back to the head
    std::unordered_set<quint64> m_ids; // waiting or running
    quint64 m_preemptionsTotal = 0;
    quint64 m_promptTokensTotal = 0;
    quint64 m_generationTokensTotal = 0;
    quint64 m_requestsFinished = 0;
    quint64 m_prefixQueries = 0;
    quint64 m_prefixHits = 0;
};

} // namespace kp::sim
