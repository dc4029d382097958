#include "kit/stepreport.h"

#include "client/probe.h"
#include "metrics/latencystats.h"
#include "metrics/stepsummary.h"
#include "sweep/sweepplan.h"
#include "sweep/sweepplanner.h"

#include <algorithm>
#include <cmath>

namespace kp::ui {

namespace {

// Pooled inter-token gaps can run into tens of millions for a large step; a histogram needs far fewer.
constexpr std::size_t kMaxItlSamples = 1'000'000;

double toMs(qint64 ns)
{
    return double(ns) / 1e6;
}

} // namespace

qint64 Histogram::total() const
{
    qint64 sum = above;
    for (qint64 c : counts)
        sum += c;
    return sum;
}

Histogram Histogram::compute(std::vector<double> valuesMs, int maxBins)
{
    Histogram h;
    if (valuesMs.empty() || maxBins < 1)
        return h;
    std::sort(valuesMs.begin(), valuesMs.end());
    const double lo = valuesMs.front();
    double hi = LatencyStats::numpyPercentile(valuesMs, 99.5);
    if (!(hi > lo))
        hi = lo + 1.0;
    const double raw = (hi - lo) / maxBins;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double width = 10.0 * magnitude;
    for (double m : { 1.0, 2.0, 5.0 }) {
        if (m * magnitude >= raw) {
            width = m * magnitude;
            break;
        }
    }
    h.binMs = width;
    h.fromMs = std::floor(lo / width) * width;
    const auto bins = static_cast<std::size_t>(std::floor((hi - h.fromMs) / width)) + 1;
    h.counts.assign(bins, 0);
    for (double v : valuesMs) {
        const auto bin = static_cast<std::size_t>(std::max(0.0, std::floor((v - h.fromMs) / width)));
        if (bin >= bins)
            ++h.above;
        else
            ++h.counts[bin];
    }
    return h;
}

double StepReport::offered() const
{
    // A multi-turn rate step starts sessions at its rate: it offers that many requests per session.
    return config.mode == LoadMode::Rate ? config.rate * metrics.requestsPerSession() : double(config.concurrency);
}

std::optional<double> percentileValue(const LatencyStats& stats, double percentile)
{
    if (!stats.reported())
        return std::nullopt;
    // An unknown value (NaN: the file did not give it) is no value to show or draw.
    if (auto v = stats.percentile(percentile); v && isKnown(*v))
        return v;
    if (percentile == 50.0 && isKnown(stats.median))
        return stats.median;
    return std::nullopt;
}

std::optional<double> drawablePercentile(const std::vector<StepReport>& steps, LatencyMetric metric, double wanted)
{
    std::vector<const StepMetrics*> metrics;
    metrics.reserve(steps.size());
    for (const StepReport& s : steps)
        metrics.push_back(&s.metrics);
    return reportedPercentile(metrics, metric, wanted);
}

bool everyRequestFailed(const std::vector<StepReport>& steps)
{
    bool failed = false;
    for (const StepReport& s : steps) {
        if (!isKnown(s.metrics.completed) || s.metrics.completed > 0)
            return false;
        failed = failed || (isKnown(s.metrics.failed) && s.metrics.failed > 0);
    }
    return failed;
}

StepReport makeStepReport(const StepResult& result, const Profile& profile, const HeaderList& headers,
    const QStringList& serverModels, std::optional<int> maxModelLen)
{
    StepReport r;
    r.config = result.config;
    r.config.prompts.clear();
    r.load = loadLabel(result.config);
    r.startedAt = result.startedAt;
    r.durationS = result.durationS;
    r.partial = result.partial;
    r.clientBound = result.clientBound;
    r.dispatchLagP99Ms = result.dispatchLagP99Ms;
    r.metrics = result.metrics;
    r.server = result.server;
    r.timeline = StepTimeline::compute(
        result.records, result.server.samples, result.durationS > 0 ? result.durationS : result.metrics.durationS);
    r.summary = QString::fromUtf8(StepSummary::text(stepSetup(profile, result), result.metrics));
    if (!profile.slo.isEmpty()) {
        QString reason;
        r.meetsSlo = SweepPlanner::meetsSlo(profile.slo, result.metrics, &reason);
        r.sloDetail = reason;
    }

    // The same per-request definitions as StepMetrics::fromRecords.
    std::vector<double> ttft, tpot, e2el, itl;
    std::size_t gaps = 0;
    for (const RequestRecord& rec : result.records) {
        if (rec.success() && rec.chunkNs.size() > 1)
            gaps += rec.chunkNs.size() - 1;
    }
    const std::size_t stride = std::max<std::size_t>(1, (gaps + kMaxItlSamples - 1) / kMaxItlSamples);
    std::size_t gapIndex = 0;
    // By class and status: a 500 and a 503 say different things and have different examples.
    std::map<std::pair<FailureClass, int>, FailureGroup> failures;
    FailureContext hintContext;
    hintContext.sentHeaders = headers;
    hintContext.serverModels = serverModels;
    hintContext.maxModelLen = maxModelLen;
    hintContext.url = profile.target.requestUrl();
    hintContext.transport = transportOptions(profile.target);
    hintContext.transportKnown = true;
    hintContext.backend = profile.target.backend;
    for (const RequestRecord& rec : result.records) {
        if (!rec.success()) {
            FailureGroup& g = failures[{ rec.failure, failureGroupStatus(rec) }];
            if (g.count++ == 0) {
                g.failure = rec.failure;
                g.httpStatus = failureGroupStatus(rec);
                g.example = rec.errorMessage;
                g.hint = failureHint(rec, hintContext);
                g.steps = { result.config.index };
            }
            continue;
        }
        if (rec.sentNs < 0)
            continue;
        const bool hasTtft = rec.firstTokenNs >= 0;
        const qint64 ttftNs = hasTtft ? rec.firstTokenNs - rec.sentNs : 0;
        const qint64 lastNs = rec.lastTokenNs >= 0 ? rec.lastTokenNs : rec.endNs;
        const qint64 e2elNs = lastNs >= 0 ? lastNs - rec.sentNs : 0;
        if (hasTtft)
            ttft.push_back(toMs(ttftNs));
        e2el.push_back(toMs(e2elNs));
        if (rec.outputTokens > 1 && hasTtft)
            tpot.push_back(toMs(e2elNs - ttftNs) / double(rec.outputTokens - 1));
        for (std::size_t i = 1; i < rec.chunkNs.size(); ++i) {
            if (gapIndex++ % stride == 0)
                itl.push_back(toMs(rec.chunkNs[i] - rec.chunkNs[i - 1]));
        }
    }
    r.histograms[LatencyMetric::Ttft] = Histogram::compute(std::move(ttft));
    r.histograms[LatencyMetric::Tpot] = Histogram::compute(std::move(tpot));
    r.histograms[LatencyMetric::Itl] = Histogram::compute(std::move(itl));
    r.histograms[LatencyMetric::E2el] = Histogram::compute(std::move(e2el));

    for (auto& [failure, group] : failures)
        r.failures.push_back(std::move(group));
    std::stable_sort(r.failures.begin(), r.failures.end(),
        [](const FailureGroup& a, const FailureGroup& b) { return a.count > b.count; });
    return r;
}

void mergeFailures(std::vector<FailureGroup>& into, const StepReport& step)
{
    for (const FailureGroup& g : step.failures) {
        auto it = std::find_if(into.begin(), into.end(), [&](const FailureGroup& existing) {
            return existing.failure == g.failure && existing.httpStatus == g.httpStatus;
        });
        if (it == into.end()) {
            into.push_back(g);
            continue;
        }
        it->count += g.count;
        for (int s : g.steps) {
            if (std::find(it->steps.begin(), it->steps.end(), s) == it->steps.end())
                it->steps.push_back(s);
        }
        std::sort(it->steps.begin(), it->steps.end());
    }
    std::stable_sort(
        into.begin(), into.end(), [](const FailureGroup& a, const FailureGroup& b) { return a.count > b.count; });
}

} // namespace kp::ui
