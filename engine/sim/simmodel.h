#pragma once

#include <QString>

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

namespace kp::sim {

// Parameters of the continuous-batching model. Times are simulated milliseconds; token counts are
// tokens (one word of text is one token).
struct SimParams {
    QString modelId = QStringLiteral("kneepoint/sim-default");
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
};

struct SimPreset {
    QString name;
    QString description; // one paragraph, including the theoretical capacity and how it is derived
    SimParams params;
};

// The presets the simulator ships ("small", "default", "large", ...).
const std::vector<SimPreset>& presets();
std::optional<SimPreset> presetByName(const QString& name);

// One token produced by an iteration: the moment its SSE event is written is the iteration's end.
struct TokenEvent {
    quint64 id = 0;
    int tokenIndex = 0; // 0-based index of the output token
    bool last = false; // the request produced its final token
};

struct Iteration {
    double startMs = 0;
    double endMs = 0;
    int numDecode = 0; // running sequences that decoded a token
    int numPrefillTokens = 0; // prompt tokens prefilled in this iteration
    int kvTokensInUse = 0; // at the start of the iteration, after admission
    std::vector<quint64> admitted; // requests admitted (or re-admitted after preemption) this iteration
    std::vector<quint64> preempted; // requests preempted this iteration (back at the head of the queue)
    std::vector<TokenEvent> tokens; // in request-admission order
};

struct SimStats {
    int running = 0;
    int waiting = 0;
    double kvUsage = 0; // fraction of kvCapacityTokens held, 0..1
    quint64 preemptionsTotal = 0;
    quint64 promptTokensTotal = 0; // prompt tokens prefilled (recomputation included)
    quint64 generationTokensTotal = 0;
    quint64 requestsFinished = 0;
};

// A deterministic, socket-free model of a vLLM-like engine. The caller feeds arrivals and runs
// iterations back to back; the model never looks at a clock.
class SimModel
{
public:
    explicit SimModel(SimParams params);

    const SimParams& params() const { return m_params; }

    // Queues a request arriving at arrivalMs, which will produce exactly outputTokens tokens.
    // Returns false (and queues nothing) if promptTokens + outputTokens exceeds maxModelLen, or if the
    // prompt alone cannot fit the KV cache.
    bool addRequest(quint64 id, int promptTokens, int outputTokens, double arrivalMs);

    // Removes a request wherever it is (client went away); frees its cache blocks.
    void abort(quint64 id);

    // True while any request is waiting or running.
    bool hasWork() const;

    // Runs one iteration starting at max(nowMs, end of the previous iteration): admits from the
    // waiting queue, applies the token budget, computes the iteration time and the tokens it emits.
    Iteration runIteration(double nowMs);

    SimStats stats() const;

private:
    SimParams m_params;
    // Implementation state lives here.
};

} // namespace kp::sim
