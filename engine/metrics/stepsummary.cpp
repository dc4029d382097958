#include "stepsummary.h"

#include "numberformat.h"

#include <algorithm>
#include <cmath>

namespace kp {

namespace {

constexpr int blockWidth = 50;
constexpr int labelWidth = 40;
constexpr int valueWidth = 10;

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

QByteArray leftAligned(QByteArrayView text, int width)
{
    QByteArray out = text.toByteArray();
    if (out.size() < width)
        out.append(width - out.size(), ' ');
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

    QByteArray out = centred(" Serving Benchmark Result ", '=', blockWidth);
    out += row("Successful requests:", integer(m.completed));
    out += row("Failed requests:", integer(m.failed));
    if (setup.maxConcurrency)
        out += row("Maximum request concurrency:", integer(*setup.maxConcurrency));
    if (std::isfinite(setup.requestRate))
        out += row("Request rate configured (RPS):", fixed(setup.requestRate, 2));
    out += row("Benchmark duration (s):", fixed(m.durationS, 2));
    out += row("Total input tokens:", integer(m.totalInputTokens));
    out += row("Total generated tokens:", integer(m.totalOutputTokens));
    out += row("Request throughput (req/s):", fixed(m.requestThroughput, 2));
    if (m.requestGoodput)
        out += row("Request goodput (req/s):", fixed(*m.requestGoodput, 2));
    out += row("Output token throughput (tok/s):", fixed(m.outputThroughput, 2));
    out += row("Peak output token throughput (tok/s):", fixed(m.maxOutputTokensPerS, 2));
    out += row("Peak concurrent requests:", fixed(static_cast<double>(m.maxConcurrentRequests), 2));
    out += row("Total token throughput (tok/s):", fixed(m.totalTokenThroughput, 2));

    for (const MetricNames& names : metricNames) {
        if (!m.options.isSelected(names.metric))
            continue;
        const LatencyStats& stats = m.stats(names.metric);
        const QByteArray name(names.shortName);
        out += centred(names.header, '-', blockWidth);
        out += row("Mean " + name + " (ms):", fixed(stats.mean, 2));
        out += row("Median " + name + " (ms):", fixed(stats.median, 2));
        for (const auto& [p, value] : stats.percentiles)
            out += row("P" + LatencyStats::percentileWord(p).toLatin1() + ' ' + name + " (ms):", fixed(value, 2));
    }
    out += QByteArray(blockWidth, '=') + '\n';
    return out;
}

} // namespace kp
