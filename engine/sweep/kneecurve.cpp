#include "sweep/kneeanalysis_p.h"

#include <algorithm>

// The curve the analysis reads: a step's figures as a point, repeats at one load merged, and a point
// judged against the SLO.

namespace kp {

using namespace Qt::StringLiterals;

namespace analysis {

namespace {

void addOptional(std::optional<double>& sum, int& count, const std::optional<double>& value)
{
    if (!value)
        return;
    sum = sum.value_or(0.0) + *value;
    ++count;
}

} // namespace

std::optional<double> latencyAt(const StepMetrics& step, const LatencyStats& stats, double percentile)
{
    if (step.completed == 0)
        return std::nullopt;
    if (const auto value = stats.percentile(percentile); value && isKnown(*value))
        return value;
    if (percentile == 50 && isKnown(stats.median) && (stats.count > 0 || stats.median != 0))
        return stats.median;
    return std::nullopt;
}

std::optional<Interval> latencyInterval(const StepMetrics& step, LatencyMetric metric, double percentile)
{
    const QString suffix = u'_' + latencyMetricKey(metric) + u"_ms"_s;
    if (const auto found = step.intervals.find(u"p"_s + LatencyStats::percentileWord(percentile) + suffix))
        return found;
    if (percentile == 50)
        return step.intervals.find(u"median"_s + suffix);
    return std::nullopt;
}

qint64 endedRequests(const StepMetrics& m)
{
    return std::max<qint64>(m.completed, 0) + std::max<qint64>(m.failed, 0);
}

double errorRateOf(const StepMetrics& m)
{
    const qint64 total = endedRequests(m);
    return total > 0 && isKnown(m.failed) ? double(m.failed) / double(total) : 0.0;
}

std::vector<CurvePoint> mergeByLoad(std::vector<CurvePoint> points)
{
    std::stable_sort(points.begin(), points.end(), [](const CurvePoint& a, const CurvePoint& b) { return a.x < b.x; });
    std::vector<CurvePoint> merged;
    for (std::size_t i = 0; i < points.size();) {
        std::size_t end = i;
        while (end < points.size() && points[end].x == points[i].x)
            ++end;
        CurvePoint m;
        m.x = points[i].x;
        m.rateLimit = points[i].rateLimit;
        m.concurrencyCap = points[i].concurrencyCap;
        const double n = double(end - i);
        int latencies = 0, ttfts = 0, tpots = 0, e2els = 0, ttfcs = 0;
        // Repeats: the envelope of their intervals and values, so the mean is compared by the spread it came from.
        bool allIntervals = true;
        Interval envelope { kInf, -kInf };
        for (std::size_t j = i; j < end; ++j) {
            const CurvePoint& q = points[j];
            if (!q.latencyCi || !q.latency) {
                allIntervals = false;
                continue;
            }
            envelope.low = std::min({ envelope.low, q.latencyCi->low, *q.latency });
            envelope.high = std::max({ envelope.high, q.latencyCi->high, *q.latency });
        }
        if (allIntervals)
            m.latencyCi = envelope;
        for (std::size_t j = i; j < end; ++j) {
            const CurvePoint& p = points[j];
            m.thr += p.thr / n;
            m.requests += p.requests / n;
            m.e2elMeanS += p.e2elMeanS / n;
            m.tok += p.tok / n;
            m.errorRate += p.errorRate / n;
            addOptional(m.latency, latencies, p.latency);
            addOptional(m.ttft, ttfts, p.ttft);
            addOptional(m.tpot, tpots, p.tpot);
            addOptional(m.e2el, e2els, p.e2el);
            addOptional(m.ttfc, ttfcs, p.ttfc);
            m.steps.insert(m.steps.end(), p.steps.begin(), p.steps.end());
        }
        if (m.latency)
            *m.latency /= latencies;
        if (m.ttft)
            *m.ttft /= ttfts;
        if (m.tpot)
            *m.tpot /= tpots;
        if (m.e2el)
            *m.e2el /= e2els;
        if (m.ttfc)
            *m.ttfc /= ttfcs;
        merged.push_back(std::move(m));
        i = end;
    }
    return merged;
}

double lerp(double a, double b, double t)
{
    return a + (b - a) * t;
}

std::vector<SloCheck> sloChecks(const Slo& slo, double implicitMaxErrorRate, const CurvePoint& point)
{
    std::vector<SloCheck> checks;
    if (slo.ttftMs)
        checks.push_back({ SloLimit::Ttft, *slo.ttftMs, point.ttft, slo.ttftP() });
    if (slo.tpotMs)
        checks.push_back({ SloLimit::Tpot, *slo.tpotMs, point.tpot, slo.tpotP() });
    if (slo.e2elMs)
        checks.push_back({ SloLimit::E2el, *slo.e2elMs, point.e2el, slo.e2elP() });
    if (slo.ttfcMs)
        checks.push_back({ SloLimit::Ttfc, *slo.ttfcMs, point.ttfc, slo.ttfcP() });
    // Without an error limit of its own, an SLO still fails a step that loses requests: its latencies
    // describe only the survivors.
    checks.push_back({ SloLimit::ErrorRate, slo.maxErrorRate.value_or(implicitMaxErrorRate), point.errorRate });
    return checks;
}

SloJudgement judgeSlo(const Slo& slo, double implicitMaxErrorRate, const CurvePoint& point)
{
    SloJudgement j;
    for (const SloCheck& check : sloChecks(slo, implicitMaxErrorRate, point)) {
        if (!check.value) {
            j.judged = false;
            j.missing << words::sloName(check.limit, check.percentile);
            continue;
        }
        if (*check.value > check.max && j.pass) {
            j.pass = false;
            j.firstMiss = words::sloName(check.limit, check.percentile)
                + Sentence::plain(u" %1 > %2"_s.arg(
                    words::sloValue(check.limit, *check.value), words::sloValue(check.limit, check.max)));
        }
    }
    if (!j.judged)
        j.pass = false;
    return j;
}

} // namespace analysis

using namespace analysis;

bool meetsSlo(const Slo& slo, const StepMetrics& m, QString* reason)
{
    CurvePoint point;
    point.errorRate = errorRateOf(m);
    point.ttft = latencyAt(m, m.ttft, slo.ttftP());
    point.tpot = latencyAt(m, m.tpot, slo.tpotP());
    point.e2el = latencyAt(m, m.e2el, slo.e2elP());
    point.ttfc = latencyAt(m, m.firstContentTtft, slo.ttfcP());
    SloJudgement j = judgeSlo(slo, AnalysisOptions {}.maxErrorRate, point);
    if (m.completed == 0) {
        j.pass = false;
        j.firstMiss = sentence("KneeAnalysis", "no request completed");
    }
    if (reason && !j.pass)
        *reason = (j.judged || !j.firstMiss.isEmpty() ? j.firstMiss
                                                      : sentence("KneeAnalysis", "does not report %1")
                                                            .arg(Sentence::join(j.missing, Sentence::plain(u", "_s))))
                      .text();
    return j.pass;
}

} // namespace kp
