#include "sim/simparameters.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace kp::sim {

namespace {

using T = SimParameterType;

// clang-format off
const SimParameter kParameters[] = {
    { .key = "model", .flag = "model", .type = T::Text, .help = "the model id the server serves",
        .getText = [](const SimParams& p) { return p.modelId; },
        .setText = [](SimParams& p, const QString& v) { p.modelId = v; } },
    { .key = "max_num_seqs", .flag = "max-num-seqs", .type = T::Integer, .min = 1, .max = 100000, .adjustable = true,
        .help = "most sequences running at once (vLLM --max-num-seqs)",
        .get = [](const SimParams& p) { return double(p.maxNumSeqs); },
        .set = [](SimParams& p, double v) { p.maxNumSeqs = int(v); } },
    { .key = "kv_capacity_tokens", .flag = "kv-capacity-tokens", .type = T::Integer, .min = 1, .max = 1 << 30, .adjustable = true,
        .help = "the KV cache's size, in tokens",
        .get = [](const SimParams& p) { return double(p.kvCapacityTokens); },
        .set = [](SimParams& p, double v) { p.kvCapacityTokens = int(v); } },
    { .key = "max_num_batched_tokens", .flag = "max-num-batched-tokens", .type = T::Integer, .min = 1, .max = 10000000, .adjustable = true,
        .help = "tokens one iteration may compute: decodes first, prefill takes the rest",
        .get = [](const SimParams& p) { return double(p.maxNumBatchedTokens); },
        .set = [](SimParams& p, double v) { p.maxNumBatchedTokens = int(v); } },
    { .key = "max_model_len", .type = T::Integer, .min = 2, .max = 10000000, .adjustable = true,
        .help = "prompt and output tokens one request may need",
        .get = [](const SimParams& p) { return double(p.maxModelLen); },
        .set = [](SimParams& p, double v) { p.maxModelLen = int(v); } },
    { .key = "block_size", .type = T::Integer, .min = 1, .max = 1024, .adjustable = true,
        .help = "the KV cache's allocation unit, in tokens",
        .get = [](const SimParams& p) { return double(p.blockSize); },
        .set = [](SimParams& p, double v) { p.blockSize = int(v); } },
    { .key = "t_base_ms", .type = T::Number, .min = 0, .max = 1e6, .minExclusive = true, .adjustable = true,
        .help = "fixed cost of one iteration, ms",
        .get = [](const SimParams& p) { return p.tBaseMs; },
        .set = [](SimParams& p, double v) { p.tBaseMs = v; } },
    { .key = "per_decode_ms", .type = T::Number, .min = 0, .max = 1e6, .adjustable = true,
        .help = "cost per decoding sequence in an iteration, ms",
        .get = [](const SimParams& p) { return p.perDecodeMs; },
        .set = [](SimParams& p, double v) { p.perDecodeMs = v; } },
    { .key = "per_prefill_token_ms", .type = T::Number, .min = 0, .max = 1e6, .adjustable = true,
        .help = "cost per prompt token prefilled in an iteration, ms",
        .get = [](const SimParams& p) { return p.perPrefillTokenMs; },
        .set = [](SimParams& p, double v) { p.perPrefillTokenMs = v; } },
    { .key = "per_kv_token_ms", .type = T::Number, .min = 0, .max = 1e6, .adjustable = true,
        .help = "cost per token held in the KV cache during an iteration, ms",
        .get = [](const SimParams& p) { return p.perKvTokenMs; },
        .set = [](SimParams& p, double v) { p.perKvTokenMs = v; } },
    { .key = "per_waiting_ms", .type = T::Number, .min = 0, .max = 1e6, .adjustable = true,
        .help = "host-side cost per waiting request, overlapped with the forward pass, ms",
        .get = [](const SimParams& p) { return p.perWaitingMs; },
        .set = [](SimParams& p, double v) { p.perWaitingMs = v; } },
    { .key = "pre_engine_ms", .flag = "pre-engine-ms", .type = T::Number, .min = 0, .max = 1e6, .adjustable = true,
        .help = "latency before the engine (API server, tokenization, network): a request reaches the scheduler this long after it is sent, ms",
        .get = [](const SimParams& p) { return p.preEngineMs; },
        .set = [](SimParams& p, double v) { p.preEngineMs = v; } },
    { .key = "pre_engine_spread_ms", .flag = "pre-engine-spread-ms", .type = T::Number, .min = 0, .max = 1e6, .adjustable = true,
        .help = "mean of an exponential part added to pre_engine_ms, drawn per request, ms",
        .get = [](const SimParams& p) { return p.preEngineSpreadMs; },
        .set = [](SimParams& p, double v) { p.preEngineSpreadMs = v; } },
    { .key = "api_server_ms", .flag = "api-server-ms", .type = T::Number, .min = 0, .max = 1e6, .adjustable = true,
        .help = "time one request takes of the single API-server process, first come first served, before the latency before the engine: a queue that grows with the load, ms",
        .get = [](const SimParams& p) { return p.apiServerMs; },
        .set = [](SimParams& p, double v) { p.apiServerMs = v; } },
    { .key = "kv_watermark", .type = T::Number, .min = 0, .max = 1, .maxExclusive = true, .adjustable = true,
        .help = "fraction of the KV blocks admission leaves free for running sequences to grow into",
        .get = [](const SimParams& p) { return p.kvWatermark; },
        .set = [](SimParams& p, double v) { p.kvWatermark = v; } },
    { .key = "eos_mean_fraction", .type = T::Number, .min = 0, .max = 1, .minExclusive = true,
        .help = "without ignore_eos: mean output length as a fraction of max_tokens",
        .get = [](const SimParams& p) { return p.eosMeanFraction; },
        .set = [](SimParams& p, double v) { p.eosMeanFraction = v; } },
    { .key = "prefix_cache", .flag = "prefix-cache", .type = T::Boolean, .min = 0, .max = 1,
        .help = "automatic prefix caching (vLLM --enable-prefix-caching)",
        .get = [](const SimParams& p) { return p.prefixCache ? 1.0 : 0.0; },
        .set = [](SimParams& p, double v) { p.prefixCache = v != 0; } },
};
// clang-format on

} // namespace

std::span<const SimParameter> simParameters()
{
    return kParameters;
}

const SimParameter* findSimParameter(const QString& key)
{
    const auto it = std::find_if(std::begin(kParameters), std::end(kParameters),
        [&key](const SimParameter& p) { return key == QLatin1String(p.key); });
    return it == std::end(kParameters) ? nullptr : &*it;
}

QStringList adjustableSimParameters()
{
    QStringList keys;
    for (const SimParameter& p : kParameters) {
        if (p.adjustable)
            keys.append(QString::fromLatin1(p.key));
    }
    return keys;
}

QString simNumberText(double value)
{
    QString text = QString::number(value, 'g', 12);
    text.replace(QLatin1String("e+"), QLatin1String("e"));
    return text;
}

QString simParameterRange(const SimParameter& p)
{
    return QStringLiteral("%1 %2 %3 %4 %5")
        .arg(p.type == SimParameterType::Integer ? QStringLiteral("an integer") : QStringLiteral("a number"),
            p.minExclusive ? QStringLiteral("above") : QStringLiteral("from"), simNumberText(p.min),
            p.maxExclusive ? QStringLiteral("to below") : QStringLiteral("to"), simNumberText(p.max));
}

QString simParameterValueError(const SimParameter& p, double v)
{
    if (!std::isfinite(v))
        return QStringLiteral("%1 is not a finite number").arg(simNumberText(v));
    if (v < p.min)
        return QStringLiteral("%1 is below the limit %2").arg(simNumberText(v), simNumberText(p.min));
    if (v > p.max)
        return QStringLiteral("%1 is above the limit %2").arg(simNumberText(v), simNumberText(p.max));
    if (p.minExclusive && v == p.min)
        return QStringLiteral("%1 is not above the limit %1").arg(simNumberText(v));
    if (p.maxExclusive && v == p.max)
        return QStringLiteral("%1 is not below the limit %1").arg(simNumberText(v));
    if (p.type == SimParameterType::Integer && v != std::floor(v))
        return QStringLiteral("%1 is not an integer").arg(simNumberText(v));
    return {};
}

double clampToSimParameter(const SimParameter& p, double v, double margin)
{
    if (p.type == SimParameterType::Integer)
        return double(std::clamp(std::llround(v), std::llround(std::ceil(p.min)), std::llround(std::floor(p.max))));
    const double lo = p.minExclusive ? p.min + margin : p.min;
    const double hi = p.maxExclusive ? p.max - margin : p.max;
    return std::clamp(v, lo, hi);
}

} // namespace kp::sim
