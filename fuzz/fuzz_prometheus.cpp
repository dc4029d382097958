// libFuzzer: a /metrics body as a server or a GPU exporter sends it, parsed whole and cut short at a
// size cap, reduced to a scrape's sample and, over a few scrapes, to a step's statistics. Whatever the
// text says (NaN, infinities, negative counts, counters that go backwards), no figure that reaches the
// output is NaN or infinite, and none is negative.
#include "telemetry/prometheustext.h"
#include "telemetry/servermetrics.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace {

void check(const std::optional<double>& v)
{
    if (v && (!std::isfinite(*v) || *v < 0))
        __builtin_trap();
}

void check(const kp::ServerSample& s)
{
    for (const auto& v : { s.running, s.waiting, s.kvUsage, s.preemptionsTotal, s.promptTokensTotal,
             s.generationTokensTotal, s.prefixCacheQueriesTotal, s.prefixCacheHitsTotal, s.prefixCacheHitRate,
             s.gpuCount, s.gpuUtilisation, s.gpuPowerW, s.gpuFbUsedMiB, s.gpuEnergyTotalJ })
        check(v);
    if ((s.kvUsage && *s.kvUsage > 1) || (s.gpuUtilisation && *s.gpuUtilisation > 100))
        __builtin_trap();
    for (const kp::PromHistogram* h : { &s.ttft, &s.queueTime }) {
        if (h->isEmpty())
            continue;
        if (!std::isfinite(h->sum) || !std::isfinite(h->count) || h->count < 0)
            __builtin_trap();
        for (const auto& [le, n] : h->buckets) {
            if (std::isnan(le) || !std::isfinite(n) || n < 0)
                __builtin_trap();
        }
    }
}

kp::ServerSample sampleOf(const kp::PromText& text, double atS)
{
    kp::ServerSample s;
    const kp::ServerMetricNames* names = kp::detectServerMetrics(text);
    if (!names)
        names = &kp::knownServerMetricNames().front();
    s = kp::ServerSample::extract(text, *names, atS);
    const kp::GpuMetricNames* gpu = kp::detectGpuMetrics(text);
    s.extractGpu(text, gpu ? *gpu : kp::knownGpuMetricNames().front());
    check(s);
    return s;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArrayView bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    const kp::PromText whole = kp::PromText::parse(bytes);
    if (whole.cut || whole.skippedLines < 0 || whole.problems.size() > 5)
        __builtin_trap();
    // Cut where the first byte says: what is kept is a subset of the whole text's samples.
    const qsizetype cutAt = size > 0 ? qsizetype(data[0]) * qsizetype(size) / 256 : 0;
    const kp::PromText cut = kp::PromText::parseCut(bytes.first(cutAt));
    if (!cut.cut || cut.samples.size() > whole.samples.size())
        __builtin_trap();

    for (const kp::PromText* text : { &whole, &cut }) {
        for (const kp::PromSample& s : text->samples) {
            // A raw value may be negative (a gauge); never NaN or infinite once reduced.
            if (const auto m = text->sum(s.name); m && !std::isfinite(*m))
                __builtin_trap();
            if (const auto m = text->max(s.name); m && !std::isfinite(*m))
                __builtin_trap();
            if (const auto m = text->mean(s.name); m && !std::isfinite(*m))
                __builtin_trap();
            const kp::PromHistogram h = text->histogram(s.name);
            if (!h.isEmpty()) {
                for (const double q : { 0.0, 0.5, 0.99, 1.0 }) {
                    if (const auto v = h.quantile(q); v && std::isnan(*v))
                        __builtin_trap();
                }
            }
        }
    }

    // Three scrapes of a step: the whole text, the cut one, the whole one again (a counter that went
    // down and back up); the step's figures are finite and not negative.
    std::vector<kp::ServerSample> samples = { sampleOf(whole, 0.0), sampleOf(cut, 1.0), sampleOf(whole, 2.0) };
    samples.push_back(kp::ServerSample::combine(samples, 3.0));
    check(samples.back());
    const std::optional<kp::ServerStepStats> st = kp::ServerStepStats::derive(samples, QStringLiteral("vllm"), {});
    if (!st)
        __builtin_trap();
    for (const auto& v : { st->runningMean, st->runningMax, st->waitingMean, st->waitingMax, st->kvUsageMean,
             st->kvUsageMax, st->preemptions, st->promptTokens, st->generationTokens, st->prefixCacheQueries,
             st->prefixCacheHits, st->prefixCacheHitRate, st->ttftCount, st->ttftMeanMs, st->queueTimeMeanMs,
             st->gpuUtilisationMean, st->gpuUtilisationMax, st->gpuFbUsedMeanMiB, st->gpuFbUsedMaxMiB,
             st->gpuPowerMeanW, st->energyJ, st->joulesPerOutputToken(10) })
        check(v);
    const QString summary = st->summary();
    if (summary.contains(QLatin1String("nan")) || summary.contains(QLatin1String("inf")))
        __builtin_trap();
    const kp::ServerSample again
        = kp::ServerSample::fromJsonLine(samples.front().toJsonLine()).value_or(kp::ServerSample {});
    check(again);
    return 0;
}
