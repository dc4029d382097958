#include "sweeptable.h"

#include "numberformat.h"

#include <optional>

namespace kp {

namespace {

constexpr double csvPercentiles[] = { 90.0, 99.0 };

// "—" for a figure the step's file did not give.
QByteArray knownFixed(double value, int decimals)
{
    return isKnown(value) ? numberformat::fixed(value, decimals) : QByteArrayLiteral("\xe2\x80\x94");
}

} // namespace

QByteArray SweepTable::compactLine(const StepSetup& setup, const StepMetrics& m)
{
    const auto fixed = knownFixed;

    QByteArray line = "rate= " + numberformat::shortest(setup.requestRate);
    if (setup.maxConcurrency)
        line += " concurrency= " + numberformat::integer(*setup.maxConcurrency);
    line += " RPS= " + fixed(m.requestThroughput, 2);
    line += " Tok/s= " + fixed(m.outputThroughput, 2);
    line += " TTFT_mean= " + fixed(m.ttft.mean, 2) + "ms";

    std::optional<std::pair<double, double>> tail;
    for (const auto& entry : m.ttft.percentiles) {
        if (entry.first == 99.0) {
            tail = entry;
            break;
        }
        if (!tail || entry.first > tail->first)
            tail = entry;
    }
    if (tail)
        line += " TTFT_p" + LatencyStats::percentileWord(tail->first).toLatin1() + "= " + fixed(tail->second, 2) + "ms";
    if (isKnown(m.totalCachedTokens))
        line += " cache_hit= " + fixed(m.prefixCacheHitRate() * 100.0, 1) + '%';
    return line;
}

QByteArray SweepTable::csvHeader()
{
    QByteArray header = "request_rate,burstiness,max_concurrency,num_prompts,duration_s,completed,failed,"
                        "request_throughput,request_goodput,output_throughput,total_token_throughput,"
                        "max_output_tokens_per_s,max_concurrent_requests,mean_concurrency,total_input_tokens,"
                        "total_output_tokens";
    for (LatencyMetric metric : allLatencyMetrics) {
        const QByteArray key = latencyMetricKey(metric).toLatin1();
        header += ",mean_" + key + "_ms,median_" + key + "_ms,std_" + key + "_ms";
        for (double p : csvPercentiles)
            header += ",p" + LatencyStats::percentileWord(p).toLatin1() + '_' + key + "_ms";
    }
    header += ",mean_first_content_ttft_ms,mean_dispatch_lag_ms,max_dispatch_lag_ms,prompt_token_mismatches,"
              "output_tokens_from_text,total_cached_tokens,prefix_cache_hit_rate,num_sessions,mean_ttft_first_turn_ms,"
              "mean_ttft_later_turns_ms,median_ttfc_ms";
    for (double p : csvPercentiles)
        header += ",p" + LatencyStats::percentileWord(p).toLatin1() + "_ttfc_ms";
    header += ",total_reasoning_tokens,short_outputs,short_output_share\n";
    return header;
}

QByteArray SweepTable::csvRow(const StepSetup& setup, const StepMetrics& m)
{
    // A figure the step's file did not give is an empty cell, never 0 (latencystats.h: kUnknown).
    const auto fixed = [](double value, int decimals) {
        return isKnown(value) ? numberformat::fixed(value, decimals) : QByteArray();
    };
    const auto integer = [](qint64 value) { return isKnown(value) ? numberformat::integer(value) : QByteArray(); };
    const auto shortest = [](double value) { return isKnown(value) ? numberformat::shortest(value) : QByteArray(); };
    const auto optional = [&](const std::optional<double>& value, int decimals) {
        return value ? fixed(*value, decimals) : QByteArray();
    };

    QByteArrayList cells;
    cells << shortest(setup.requestRate) << shortest(setup.burstiness)
          << (setup.maxConcurrency ? integer(*setup.maxConcurrency) : QByteArray()) << integer(setup.numPrompts)
          << fixed(m.durationS, 3) << integer(m.completed) << integer(m.failed) << fixed(m.requestThroughput, 3)
          << optional(m.requestGoodput, 3) << fixed(m.outputThroughput, 3) << fixed(m.totalTokenThroughput, 3)
          << fixed(m.maxOutputTokensPerS, 3) << integer(m.maxConcurrentRequests) << fixed(m.meanConcurrency, 3)
          << integer(m.totalInputTokens) << integer(m.totalOutputTokens);
    for (LatencyMetric metric : allLatencyMetrics) {
        const LatencyStats& stats = m.stats(metric);
        cells << fixed(stats.mean, 3) << fixed(stats.median, 3) << fixed(stats.stddev, 3);
        for (double p : csvPercentiles)
            cells << optional(stats.percentile(p), 3);
    }
    cells << fixed(m.firstContentTtft.mean, 3) << fixed(m.dispatchLag.mean, 3) << fixed(m.dispatchLag.max, 3)
          << integer(m.promptTokenMismatches) << integer(m.outputTokensFromText) << integer(m.totalCachedTokens)
          << fixed(m.prefixCacheHitRate(), 4) << integer(m.numSessions)
          << (m.firstTurns.completed > 0 ? fixed(m.firstTurns.ttft.mean, 3) : QByteArray())
          << (m.laterTurns.completed > 0 ? fixed(m.laterTurns.ttft.mean, 3) : QByteArray())
          << fixed(m.firstContentTtft.median, 3);
    for (double p : csvPercentiles)
        cells << optional(m.firstContentTtft.percentile(p), 3);
    cells << integer(m.totalReasoningTokens) << integer(m.shortOutputs) << fixed(m.shortOutputShare(), 4);
    return cells.join(',') + '\n';
}

} // namespace kp
