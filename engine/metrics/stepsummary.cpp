#include "stepsummary.h"

#include "numberformat.h"

#include <algorithm>
#include <cmath>

namespace kp {

namespace {

constexpr int blockWidth = 50;
constexpr int labelWidth = 40;
constexpr int valueWidth = 10;
const QByteArray unknownText = QByteArrayLiteral("\xe2\x80\x94"); // "—"

struct MetricNames
{
    LatencyMetric metric;
    const char* shortName;
    const char* header;
};

constexpr MetricNames metricNames[] = {
    { LatencyMetric::Ttft, "TTFT", "Time to First Token" },
    { LatencyMetric::Tpot, "TPOT", "Time per Output Token (excl. 1st token)" },
    { LatencyMetric::Itl, "ITL", "Inter-token Latency" },
    { LatencyMetric::E2el, "E2EL", "End-to-end Latency" },
};

// Pads to `width` characters (UTF-8: continuation bytes take no column).
QByteArray leftAligned(QByteArrayView text, int width)
{
    QByteArray out = text.toByteArray();
    const auto columns = std::count_if(out.begin(), out.end(), [](char c) { return (c & 0xC0) != 0x80; });
    if (columns < width)
        out.append(width - columns, ' ');
    return out;
}

} // namespace

QByteArray StepSummary::row(QByteArrayView label, QByteArrayView value)
{
    return leftAligned(label, labelWidth) + ' ' + leftAligned(value, valueWidth) + '\n';
}

QByteArray StepSummary::centred(QByteArrayView title, char fill, int width)
{
    const qsizetype padding = std::max<qsizetype>(width - title.size(), 0);
    const qsizetype left = padding / 2;
    return QByteArray(left, fill) + title.toByteArray() + QByteArray(padding - left, fill) + '\n';
}

QByteArray StepSummary::text(const StepSetup& setup, const StepMetrics& m)
{
    using numberformat::fixed;
    using numberformat::integer;

    // A figure a foreign file did not give is "—" (the row keeps its place); one its other fields gave
    // is marked "(derived)".
    const auto count = [&](qint64 value) { return isKnown(value) ? integer(value) : unknownText; };
    const auto number = [&](double value) { return isKnown(value) ? fixed(value, 2) : unknownText; };
    const auto mark = [&](QByteArray value, const char* key) {
        return m.isDerived(QLatin1String(key)) ? value + " (derived)" : value;
    };
    QByteArray out = centred(" Serving Benchmark Result ", '=', blockWidth);
    out += row("Successful requests:", count(m.completed));
    out += row("Failed requests:", mark(count(m.failed), "failed"));
    if (setup.maxConcurrency)
        out += row("Maximum request concurrency:", integer(*setup.maxConcurrency));
    if (std::isfinite(setup.requestRate))
        out += row("Request rate configured (RPS):", fixed(setup.requestRate, 2));
    out += row("Benchmark duration (s):", mark(number(m.durationS), "duration"));
    out += row("Total input tokens:", count(m.totalInputTokens));
    out += row("Total generated tokens:", count(m.totalOutputTokens));
    out += row("Request throughput (req/s):", mark(number(m.requestThroughput), "request_throughput"));
    if (m.requestGoodput)
        out += row("Request goodput (req/s):", number(*m.requestGoodput));
    out += row("Output token throughput (tok/s):", mark(number(m.outputThroughput), "output_throughput"));
    out += row("Peak output token throughput (tok/s):", number(m.maxOutputTokensPerS));
    out += row("Peak concurrent requests:",
        isKnown(m.maxConcurrentRequests) ? fixed(static_cast<double>(m.maxConcurrentRequests), 2) : unknownText);
    out += row("Total token throughput (tok/s):", mark(number(m.totalTokenThroughput), "total_token_throughput"));

    for (const MetricNames& names : metricNames) {
        if (!m.options.isSelected(names.metric))
            continue;
        const LatencyStats& stats = m.stats(names.metric);
        const QByteArray name(names.shortName);
        out += centred(names.header, '-', blockWidth);
        out += row("Mean " + name + " (ms):", number(stats.mean));
        out += row("Median " + name + " (ms):", number(stats.median));
        for (const auto& [p, value] : stats.percentiles)
            out += row("P" + LatencyStats::percentileWord(p).toLatin1() + ' ' + name + " (ms):", number(value));
    }
    // Kneepoint's additions, after the reference's lines and only where the step has them.
    if (isKnown(m.numSessions)) {
        out += centred("Sessions", '-', blockWidth);
        out += row("Sessions:", integer(m.numSessions));
        const auto turnRows = [&](const TurnGroupMetrics& g, const QByteArray& which) {
            out += row("Completed " + which + " turns:", integer(g.completed));
            out += row("Mean TTFT, " + which + " turns (ms):", number(g.ttft.mean));
            for (const auto& [p, value] : g.ttft.percentiles)
                out += row("P" + LatencyStats::percentileWord(p).toLatin1() + " TTFT, " + which + " turns (ms):",
                    number(value));
            out += row("Mean E2EL, " + which + " turns (ms):", number(g.e2el.mean));
        };
        turnRows(m.firstTurns, "first");
        turnRows(m.laterTurns, "later");
    }
    // Prompts the run had sent before are what a prefix cache feeds on: their count goes with the cache's.
    const bool repeated = isKnown(m.repeatedPrompts) && m.repeatedPrompts > 0;
    if (isKnown(m.totalCachedTokens) || repeated) {
        out += centred("Prefix Cache", '-', blockWidth);
        if (isKnown(m.totalCachedTokens)) {
            out += row("Cached input tokens:", integer(m.totalCachedTokens));
            out += row("Prefix cache hit rate (%):", number(m.prefixCacheHitRate() * 100.0));
        }
        if (isKnown(m.repeatedPrompts)) {
            out += row("Repeated prompts:", integer(m.repeatedPrompts));
            out += row("Repeated prompt share (%):", number(m.repeatedPromptShare() * 100.0));
        }
    }
    if (isKnown(m.totalReasoningTokens)) {
        out += centred("Reasoning", '-', blockWidth);
        out += row("Total reasoning tokens:", integer(m.totalReasoningTokens));
        out += row("Mean TTFC (ms):", number(m.firstContentTtft.mean));
        out += row("Median TTFC (ms):", number(m.firstContentTtft.median));
        for (const auto& [p, value] : m.firstContentTtft.percentiles)
            out += row("P" + LatencyStats::percentileWord(p).toLatin1() + " TTFC (ms):", number(value));
    }
    if (m.options.imagesPerRequest > 0) {
        out += centred("Images", '-', blockWidth);
        out += row("Images per request:", integer(m.options.imagesPerRequest));
        out += row("Mean image tokens per request:", number(m.meanImageTokens.value_or(kUnknown)));
    }
    // Only when some came back short: a step whose answers ran to max_tokens keeps the reference's block.
    if (isKnown(m.shortOutputs) && m.shortOutputs > 0) {
        out += centred("Output Length", '-', blockWidth);
        out += row("Shorter than max_tokens:", integer(m.shortOutputs));
        out += row("Short output share (%):", number(m.shortOutputShare() * 100.0));
    }
    // Requests another tool's step left running when it ended (GuideLLM's "incomplete"): neither completed nor
    // failed, and not in the figures above.
    if (isKnown(m.incompleteRequests) && m.incompleteRequests > 0) {
        out += centred("Incomplete Requests", '-', blockWidth);
        out += row("Still running at the end:", integer(m.incompleteRequests));
    }
    for (const ModelMetrics& mm : m.perModel) {
        out += centred(" Model " + mm.model.toUtf8() + ' ', '-', blockWidth);
        out += row("Requests:", integer(mm.requests()));
        out += row("Successful requests:", integer(mm.completed));
        out += row("Failed requests:", integer(mm.failed));
        out += row("Request throughput (req/s):", number(mm.requestThroughput));
        out += row("Output token throughput (tok/s):", number(mm.outputThroughput));
        for (const auto& [stats, name] : { std::pair<const LatencyStats*, QByteArray> { &mm.ttft, "TTFT" },
                 std::pair<const LatencyStats*, QByteArray> { &mm.tpot, "TPOT" },
                 std::pair<const LatencyStats*, QByteArray> { &mm.e2el, "E2EL" } }) {
            // A model without a measured request has no latency: "—", not 0.
            const bool measured = stats->count != 0;
            out += row("Median " + name + " (ms):", measured ? number(stats->median) : unknownText);
            const std::optional<double> p99 = stats->percentile(99);
            out += row("P99 " + name + " (ms):", measured && p99 ? number(*p99) : unknownText);
        }
    }
    out += QByteArray(blockWidth, '=') + '\n';
    return out;
}

} // namespace kp
