#include "sim/simmodel.h"

namespace kp::sim {

namespace {

// Plain decimal notation (0.00005, not 5e-05), without trailing zeros.
QString number(double v)
{
    QString s = QString::number(v, 'f', 6);
    while (s.endsWith(u'0'))
        s.chop(1);
    if (s.endsWith(u'.'))
        s.chop(1);
    return s;
}

SimPreset makePreset(QString name, const QString& summary, SimParams params)
{
    const SimCapacity c = theoreticalCapacity(params, referencePromptTokens, referenceOutputTokens);
    SimPreset p;
    p.name = std::move(name);
    p.params = std::move(params);
    const SimParams& q = p.params;
    const QString engine = QStringLiteral("max_num_seqs %1, max_num_batched_tokens %2, KV cache %3 tokens in blocks "
                                          "of %4 (%5% kept free on admission), max_model_len %6.")
                               .arg(q.maxNumSeqs)
                               .arg(q.maxNumBatchedTokens)
                               .arg(q.kvCapacityTokens)
                               .arg(q.blockSize)
                               .arg(number(100 * q.kvWatermark))
                               .arg(q.maxModelLen);
    const QString time = QStringLiteral("Iteration time: the longer of the forward pass, %1 ms + %2 ms per decoding "
                                        "sequence + %3 ms per prefill token + %4 ms per cached token, and the "
                                        "host-side scheduling that overlaps it, %5 ms per waiting request.")
                             .arg(number(q.tBaseMs), number(q.perDecodeMs), number(q.perPrefillTokenMs),
                                 number(q.perKvTokenMs), number(q.perWaitingMs));
    const QString queue = q.perWaitingMs > 0
        ? QStringLiteral(", while fewer than about %1 requests wait (T / %2 ms); with a deeper queue the host-side "
                         "scheduling outlasts the forward pass, iterations stretch and throughput falls.")
              .arg(qRound(c.hiddenWaiting))
              .arg(number(q.perWaitingMs))
        : QStringLiteral(".");
    const QString capacity
        = QStringLiteral("Theoretical capacity for %1-token prompts and %2-token outputs of exponential spread: a "
                         "running sequence holds L = P + O(1+cv²)/2 + block/2 = %3 cache tokens, the batch is "
                         "B = min(max_num_seqs, usable KV/L) = %4 (%5), an iteration takes "
                         "T = t_base + B(a + b·P/O) + c·B·L = %6 ms: about %7 output tokens/s, %8 requests/s")
              .arg(number(referencePromptTokens), number(referenceOutputTokens))
              .arg(qRound(c.contextTokens))
              .arg(qRound(c.batch))
              .arg(c.batch < q.maxNumSeqs ? QStringLiteral("KV-bound") : QStringLiteral("max_num_seqs-bound"))
              .arg(c.iterationMs, 0, 'f', 1)
              .arg(qRound(c.outputTokensPerSec))
              .arg(c.requestsPerSec, 0, 'f', 1)
        + queue;
    p.description = summary + u' ' + engine + u' ' + time + u' ' + capacity;
    return p;
}

std::vector<SimPreset> buildPresets()
{
    std::vector<SimPreset> list;

    SimParams small;
    small.modelId = QStringLiteral("kneepoint/sim-small");
    small.maxModelLen = 2048;
    small.maxNumSeqs = 64;
    small.maxNumBatchedTokens = 1024;
    small.kvCapacityTokens = 16384;
    small.tBaseMs = 10.0;
    small.perDecodeMs = 0.06;
    small.perPrefillTokenMs = 0.03;
    small.perKvTokenMs = 0.0001;
    // The host's cost per waiting request is the serving software's, whatever the GPU: every preset has
    // the same; a preset with longer forward passes hides a longer queue behind them.
    small.perWaitingMs = 0.08;
    list.push_back(makePreset(QStringLiteral("small"),
        QStringLiteral("A small model on a small GPU: the knee comes early, at about 11 requests/s."), small));

    list.push_back(makePreset(QStringLiteral("default"),
        QStringLiteral("A mid-size model on one data-centre GPU, KV-cache bound: beyond about 33 requests/s "
                       "the cache is full, sequences are preempted and recomputed, and the queue grows; far "
                       "beyond, the deep queue slows every iteration and throughput falls."),
        SimParams {}));

    SimParams large;
    large.modelId = QStringLiteral("kneepoint/sim-large");
    large.maxModelLen = 8192;
    large.maxNumSeqs = 512;
    large.maxNumBatchedTokens = 8192;
    large.kvCapacityTokens = 200000;
    large.tBaseMs = 12.0;
    large.perDecodeMs = 0.02;
    large.perPrefillTokenMs = 0.008;
    large.perKvTokenMs = 0.00002;
    large.perWaitingMs = 0.08;
    list.push_back(makePreset(QStringLiteral("large"),
        QStringLiteral("A multi-GPU deployment with a large cache: the knee is at about 70 requests/s."), large));

    SimParams longContext;
    longContext.modelId = QStringLiteral("kneepoint/sim-long-context");
    longContext.maxModelLen = 32768;
    longContext.maxNumSeqs = 128;
    longContext.maxNumBatchedTokens = 2048;
    longContext.kvCapacityTokens = 262144;
    longContext.tBaseMs = 10.0;
    longContext.perDecodeMs = 0.04;
    longContext.perPrefillTokenMs = 0.025;
    longContext.perKvTokenMs = 0.00004;
    longContext.perWaitingMs = 0.08;
    list.push_back(makePreset(QStringLiteral("long-context"),
        QStringLiteral("A long-context deployment: prompts up to 32k tokens are prefilled in chunks over many "
                       "iterations; with short requests max_num_seqs, not the cache, is the limit, so the "
                       "plateau comes without preemptions."),
        longContext));

    return list;
}

} // namespace

const std::vector<SimPreset>& presets()
{
    static const std::vector<SimPreset> list = buildPresets();
    return list;
}

std::optional<SimPreset> presetByName(const QString& name)
{
    for (const SimPreset& p : presets()) {
        if (p.name == name)
            return p;
    }
    return std::nullopt;
}

} // namespace kp::sim
