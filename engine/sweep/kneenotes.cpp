#include "sweep/kneeanalysis_p.h"

#include "metrics/stepmetrics.h"

// What the sweep's workload means for the findings: a percentile the steps do not report, answers shorter
// than asked for, a prefix cache that served much of the input.

namespace kp::analysis {

std::optional<double> reportedPercentileInstead(const std::vector<SweepPoint>& points, const AnalysisOptions& options)
{
    std::vector<const StepMetrics*> steps;
    steps.reserve(points.size());
    for (const SweepPoint& p : points)
        steps.push_back(&p.metrics);
    const std::optional<double> reported = reportedPercentile(steps, options.metric, options.percentile);
    return reported && *reported != options.percentile ? reported : std::nullopt;
}

std::optional<Sentence> shortOutputNote(const std::vector<SweepPoint>& points)
{
    constexpr double noteShare = 0.05;
    qint64 shortOutputs = 0;
    qint64 known = 0;
    std::optional<bool> ignoreEos;
    for (const SweepPoint& p : points) {
        const StepMetrics& m = p.metrics;
        if (!isKnown(m.shortOutputs) || m.outputLimitsKnown <= 0)
            continue;
        shortOutputs += m.shortOutputs;
        known += m.outputLimitsKnown;
        if (m.ignoreEos)
            ignoreEos = ignoreEos.value_or(false) || *m.ignoreEos;
    }
    if (known <= 0 || double(shortOutputs) / double(known) < noteShare)
        return std::nullopt;
    const QString share = words::percent(double(shortOutputs) / double(known));
    if (!ignoreEos)
        return sentence("KneeAnalysis",
            "%1 of requests came back shorter than max_tokens, so output throughput is lower than the requested "
            "lengths suggest.")
            .arg(share);
    if (*ignoreEos)
        return sentence("KneeAnalysis",
            "%1 of requests came back shorter than max_tokens though ignore_eos was set: the server ignored it.")
            .arg(share);
    return sentence("KneeAnalysis",
        "%1 of requests came back shorter than max_tokens: the model stopped early, so output throughput is "
        "lower than the requested lengths suggest.")
        .arg(share);
}

std::optional<Sentence> cacheNote(const std::vector<SweepPoint>& points, const AnalysisResult& result)
{
    constexpr double noteHitRate = 0.20;
    constexpr double noteRepeats = 0.05;
    double hitSum = 0.0;
    int hitSteps = 0;
    bool serverSide = false;
    qint64 repeated = 0, requests = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (i < result.steps.size() && !result.steps[i].usedForThroughput)
            continue;
        const SweepPoint& p = points[i];
        const std::optional<double> server = serverHitRate(p.server);
        if (const std::optional<double> rate = server ? server : clientHitRate(p.metrics)) {
            hitSum += *rate;
            ++hitSteps;
            serverSide = serverSide || server.has_value();
        }
        if (isKnown(p.metrics.repeatedPrompts)) {
            repeated += p.metrics.repeatedPrompts;
            requests += endedRequests(p.metrics);
        }
    }
    // Plain values with a flag each: what is unknown is never worded.
    const bool hitKnown = hitSteps > 0;
    const double hitRate = hitKnown ? hitSum / hitSteps : 0.0;
    const bool repeatsKnown = requests > 0;
    const double repeats = repeatsKnown ? double(repeated) / double(requests) : 0.0;
    const bool reused = repeatsKnown && repeats >= noteRepeats;
    const bool cached = hitKnown && hitRate >= noteHitRate;
    if (!reused && !cached)
        return std::nullopt;
    const Sentence measured = result.knee.found || result.saturation.found
        ? sentence("KneeAnalysis", "The knee and saturation were measured on a cache-friendly workload: ")
        : sentence("KneeAnalysis", "This sweep ran a cache-friendly workload: ");
    const Sentence fix = sentence("KneeAnalysis",
        " Send fresh prompts (workload.prompt_pool 0, or a dataset as large as the run) or reset the cache between "
        "steps (load.reset_cache_between_steps).");
    if (reused && cached)
        return measured
            + sentence("KneeAnalysis",
                "%1 of input tokens came from the prefix cache because prompts repeat (%2 of requests re-sent a prompt "
                "already sent in this run); a server without that reuse would saturate earlier.")
                  .arg(words::wholePercent(hitRate), words::wholePercent(repeats))
            + fix;
    if (reused)
        return measured
            + sentence("KneeAnalysis",
                "%1 of requests re-sent a prompt already sent in this run; a server with prefix caching answers them "
                "with little prefill, so a server without that reuse would saturate earlier.")
                  .arg(words::wholePercent(repeats))
            + fix;
    const Sentence side = serverSide ? sentence("KneeAnalysis", "the server's figures")
                                     : sentence("KneeAnalysis", "the client's figures");
    if (!repeatsKnown)
        return sentence("KneeAnalysis",
            "%1 of input tokens came from the prefix cache (%2). Where that comes from prompts repeating rather than "
            "prefixes the traffic really shares, a server without that reuse would saturate earlier.")
            .arg(words::wholePercent(hitRate), side);
    // The cache served much of the input without prompts repeating: the workload shares prefixes by design.
    return sentence("KneeAnalysis",
        "%1 of input tokens came from the prefix cache (%2) though no prompt repeated: the workload shares prefixes "
        "(a system prompt, conversation history), so the findings hold for traffic that shares as much.")
        .arg(words::wholePercent(hitRate), side);
}

} // namespace kp::analysis
