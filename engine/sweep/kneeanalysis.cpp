#include "sweep/kneeanalysis_p.h"

#include "load/steprunner.h"
#include "metrics/phrase.h"
#include "sweep/analysiswords.h"
#include "sweep/kneenumerics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

// The steps assessed and the curve's findings: saturation, the latency and throughput knees, collapse; the
// public entry points of kneeanalysis.h.

namespace kp {

using namespace Qt::StringLiterals;

namespace analysis {

namespace {

// The axis of a sweep whose profile is not known: the mode most steps at a finite load ran in (an
// auto plan's one-user floor then stays off a rate sweep's axis); on a tie, the first step's.
bool mostlyUsers(const std::vector<SweepPoint>& points)
{
    std::ptrdiff_t users = 0;
    std::ptrdiff_t rates = 0;
    for (const SweepPoint& p : points) {
        if (std::isfinite(p.offered))
            ++(p.concurrencyMode ? users : rates);
    }
    if (users != rates)
        return users > rates;
    return !points.empty() && points.front().concurrencyMode;
}

} // namespace

Analyzer::Analyzer(const std::vector<SweepPoint>& points, const AnalysisOptions& options)
    : m_points(points)
    , m_options(options)
{
    m_result.options = options;
    m_result.concurrencyMode = options.mode ? *options.mode == LoadMode::Concurrency : mostlyUsers(points);
}

AnalysisResult Analyzer::run()
{
    assess();
    findPeak();
    findSaturation();
    findKnee();
    findThroughputKnee();
    findCollapse();
    findSloCapacity();
    findRecommended();
    buildRegions();
    return m_result;
}

Sentence Analyzer::stepName(int index) const
{
    const SweepPoint& p = m_points[std::size_t(index)];
    const Sentence where
        = std::isinf(p.offered) ? sentence("KneeAnalysis", "all at once") : words::load(p.offered, p.concurrencyMode);
    return sentence("KneeAnalysis", "step %1 (%2)").arg(index + 1).arg(where);
}

Sentence Analyzer::higherLoads() const
{
    return concurrency() ? sentence("KneeAnalysis", "add more users") : sentence("KneeAnalysis", "add higher rates");
}

CurvePoint Analyzer::curvePoint(int index) const
{
    const SweepPoint& p = m_points[std::size_t(index)];
    const StepMetrics& m = p.metrics;
    CurvePoint c;
    c.x = p.offered;
    c.rateLimit = p.rateLimit;
    c.concurrencyCap = p.concurrencyCap;
    c.thr = m.requestThroughput;
    c.tok = m.outputThroughput;
    c.requests = double(endedRequests(m));
    // Without the file's E2EL the drain is not known: the expected throughput is the offered rate.
    c.e2elMeanS = isKnown(m.e2el.mean) ? m.e2el.mean / 1000.0 : 0.0;
    // Conversations: the last session to start runs all its turns (and think times) after the schedule.
    if (isKnown(m.numSessions) && isKnown(m.meanSessionS) && m.meanSessionS > 0)
        c.e2elMeanS = m.meanSessionS;
    c.errorRate = errorRateOf(m);
    c.latency = latencyAt(m, m.stats(m_options.metric), m_options.percentile);
    if (c.latency)
        c.latencyCi = latencyInterval(m, m_options.metric, m_options.percentile);
    c.ttft = latencyAt(m, m.ttft, m_options.slo.ttftP());
    c.tpot = latencyAt(m, m.tpot, m_options.slo.tpotP());
    c.e2el = latencyAt(m, m.e2el, m_options.slo.e2elP());
    c.ttfc = latencyAt(m, m.firstContentTtft, m_options.slo.ttfcP());
    c.steps = { index };
    return c;
}

Finding Analyzer::finding(const CurvePoint& c, Sentence reason) const
{
    Finding f;
    f.found = true;
    f.offered = c.x;
    f.achieved = c.thr;
    f.outputThroughput = c.tok;
    f.stepIndex = c.step();
    f.reason = std::move(reason);
    return f;
}

Finding Analyzer::absent(Sentence reason)
{
    Finding f;
    f.reason = std::move(reason);
    return f;
}

void Analyzer::assess()
{
    std::vector<CurvePoint> usable, reliable, latency;
    QList<Sentence> exclusionNotes, latencyNotes;
    int reliableWithoutLatency = 0;
    for (std::size_t i = 0; i < m_points.size(); ++i) {
        const int index = int(i);
        const SweepPoint& p = m_points[i];
        StepAssessment a;
        a.stepIndex = index;
        a.offered = p.offered;
        a.achieved = p.metrics.requestThroughput;
        a.latencyMs = latencyAt(p.metrics, p.metrics.stats(m_options.metric), m_options.percentile);
        const qint64 total = endedRequests(p.metrics);
        // What the step reports; a file without its failures has no error rate to report.
        a.errorRate = isKnown(p.metrics.failed) ? errorRateOf(p.metrics) : kUnknown;

        Use use = Use::Reliable;
        Sentence brief;
        bool allAtOnce = false;
        if (p.concurrencyMode != concurrency()) {
            use = Use::Unusable;
            a.excluded = concurrency()
                ? sentence("KneeAnalysis", "it ran at a request rate, while the sweep varies users")
                : sentence("KneeAnalysis", "it ran with a number of users, while the sweep varies the rate");
            brief = sentence("KneeAnalysis", "other load mode");
        } else if (std::isinf(p.offered) && p.offered > 0) {
            use = Use::Unusable;
            a.excluded = sentence(
                "KneeAnalysis", "it sent every request at once, so it has no offered rate to place on the load axis");
            brief = sentence("KneeAnalysis", "all at once");
            allAtOnce = true;
        } else if (!(p.offered > 0) || !std::isfinite(p.offered)) {
            use = Use::Unusable;
            a.excluded = sentence("KneeAnalysis", "it has no offered load");
            brief = sentence("KneeAnalysis", "no load");
        } else if (p.partial) {
            use = Use::Unusable;
            a.excluded = sentence("KneeAnalysis", "it was stopped before every request ended (partial)");
            brief = sentence("KneeAnalysis", "partial");
        } else if (p.clientBound) {
            use = Use::Unusable;
            a.excluded = sentence("KneeAnalysis",
                "it was client-bound: the client could not keep to the schedule, so it measured the "
                "client rather than the server");
            brief = sentence("KneeAnalysis", "client-bound");
        } else if (p.planned > 0 && isKnown(p.metrics.completed) && total < p.planned) {
            use = Use::Unusable;
            a.excluded = sentence("KneeAnalysis", "only %1 of its %2 requests ended").arg(total).arg(p.planned);
            brief = sentence("KneeAnalysis", "%1 of %2 requests ended").arg(total).arg(p.planned);
        } else if (total == 0 && isKnown(p.metrics.completed)) {
            use = Use::Unusable;
            a.excluded = sentence("KneeAnalysis", "no request ended");
            brief = sentence("KneeAnalysis", "no requests");
        } else if (!isKnown(p.metrics.requestThroughput)) {
            use = Use::Unusable;
            a.excluded = sentence("KneeAnalysis",
                "its file gives no request throughput, nor the completed requests and duration it follows from");
            brief = sentence("KneeAnalysis", "no throughput");
        } else if (a.errorRate > m_options.maxErrorRate) {
            use = Use::Erroneous;
            a.excluded
                = sentence("KneeAnalysis", "%1 of its requests failed, more than the %2 a reliable step may lose")
                      .arg(words::percent(a.errorRate), words::percent(m_options.maxErrorRate));
            brief = sentence("KneeAnalysis", "%1 errors").arg(words::percent(a.errorRate));
        }

        const CurvePoint c = curvePoint(index);
        a.usedForThroughput = use != Use::Unusable;
        if (use != Use::Unusable)
            usable.push_back(c);
        if (use == Use::Reliable) {
            reliable.push_back(c);
            if (c.latency) {
                latency.push_back(c);
                a.usedForKnee = true;
            } else {
                ++reliableWithoutLatency;
                a.excluded = sentence("KneeAnalysis", "it does not report %1").arg(metric());
                m_leftOutLatency << sentence("KneeAnalysis", "%1: no %2").arg(stepName(index), metric());
                latencyNotes << sentence(
                    "KneeAnalysis", "%1 does not report %2, so it is left out of the latency knee.")
                                    .arg(stepName(index).capitalized(), metric());
            }
        } else {
            // An all-at-once step is not unreliable, only off the load axis: its note says so.
            if (!allAtOnce)
                m_leftOut << sentence("KneeAnalysis", "%1: %2", "a step left out: its name, then why in brief")
                                 .arg(stepName(index), brief);
            if (allAtOnce && !isKnown(a.achieved)) {
                exclusionNotes << sentence("KneeAnalysis",
                    "%1 sent every request at once and its file gives no throughput: it is not a point on the "
                    "load axis.")
                                      .arg(sentence("KneeAnalysis", "step %1").arg(index + 1).capitalized());
            } else if (allAtOnce) {
                exclusionNotes << sentence("KneeAnalysis",
                    "%1 sent every request at once: its %2 is the server's throughput ceiling, "
                    "not a point on the load axis.")
                                      .arg(sentence("KneeAnalysis", "step %1").arg(index + 1).capitalized(),
                                          words::throughput(a.achieved));
            } else if (use == Use::Erroneous) {
                exclusionNotes << sentence(
                    "KneeAnalysis", "%1 is left out of the knee: %2; it still counts for throughput and the SLO.")
                                      .arg(stepName(index).capitalized(), a.excluded);
            } else {
                exclusionNotes << sentence("KneeAnalysis", "%1 is left out of the analysis: %2.")
                                      .arg(stepName(index).capitalized(), a.excluded);
            }
        }
        m_result.steps.push_back(std::move(a));
    }
    if (latency.empty() && reliableWithoutLatency > 0) {
        latencyNotes
            = { sentence("KneeAnalysis", "The steps do not report %1, so there is no latency knee.").arg(metric()) };
        m_leftOutLatency.clear();
        m_noLatency = true;
    }
    m_result.notes << exclusionNotes << latencyNotes;
    m_usable = mergeByLoad(std::move(usable));
    m_reliable = mergeByLoad(std::move(reliable));
    setExpected(m_usable);
    setExpected(m_reliable);
    m_latency = mergeByLoad(std::move(latency));
    m_singleLoad = m_usable.size() == 1;
    for (const CurvePoint& c : m_usable) {
        if (c.steps.size() < 2)
            continue;
        QStringList names;
        for (int step : c.steps)
            names << QString::number(step + 1);
        const QString last = names.takeLast();
        // The spread of the repeats: how far one measurement of this load can be trusted.
        double thrLo = kInf, thrHi = 0, latLo = kInf, latHi = 0;
        for (int step : c.steps) {
            const StepMetrics& m = m_points[std::size_t(step)].metrics;
            thrLo = std::min(thrLo, m.requestThroughput);
            thrHi = std::max(thrHi, m.requestThroughput);
            if (const auto v = latencyAt(m, m.stats(m_options.metric), m_options.percentile)) {
                latLo = std::min(latLo, *v);
                latHi = std::max(latHi, *v);
            }
        }
        Sentence spread
            = sentence("KneeAnalysis", "throughput %1 to %2").arg(words::throughput(thrLo), words::throughput(thrHi));
        if (latHi > 0)
            spread += sentence("KneeAnalysis", ", %1 %2 to %3")
                          .arg(metric(), words::latency(latLo), words::latency(latHi));
        m_result.notes << sentence(
            "KneeAnalysis", "Steps %1 and %2 ran at %3; the analysis uses their mean. Their spread: %4.")
                              .arg(names.join(u", "_s), last, load(c.x), spread);
    }
}

Sentence Analyzer::leftOutSentence(bool includeLatency) const
{
    QList<Sentence> all = m_leftOut;
    if (includeLatency)
        all << m_leftOutLatency;
    return all.isEmpty() ? Sentence()
                         : sentence("KneeAnalysis", " Left out: %1.")
                               .arg(Sentence::join(all, sentence("KneeAnalysis", "; ", "between the steps left out")));
}

void Analyzer::findPeak()
{
    for (const CurvePoint& c : m_usable) {
        if (m_result.peakStep < 0 || c.thr > m_result.peakThroughput) {
            m_result.peakThroughput = c.thr;
            m_result.peakStep = c.step();
        }
    }
}

// The drain is the unloaded request time: the mean E2EL at the lowest usable load.
void Analyzer::setExpected(std::vector<CurvePoint>& c) const
{
    const double drainS = m_usable.empty() ? 0.0 : m_usable.front().e2elMeanS;
    for (CurvePoint& p : c) {
        p.expected = p.x;
        if (!concurrency() && std::isfinite(p.x) && p.x > 0 && p.requests > 0) {
            const double window = p.requests / p.x;
            p.expected = p.requests / (window + drainS);
        }
    }
}

void Analyzer::findSaturation()
{
    const std::vector<CurvePoint>& c = m_usable;
    if (c.empty()) {
        m_result.saturation
            = absent(sentence("KneeAnalysis", "Saturation is unknown: no step with a usable load yet.%1")
                         .arg(leftOutSentence(false)));
        return;
    }
    const double fraction = m_options.saturationFraction;
    if (m_singleLoad) {
        m_result.saturation = absent(oneLoadSaturation(c.front()));
        return;
    }
    if (!concurrency()) {
        // Saturated from the first step after which every step falls short, so that one noisy step
        // inside the linear range does not end it.
        std::optional<std::size_t> first;
        for (std::size_t i = c.size(); i-- > 0;) {
            if (c[i].thr < fraction * c[i].expected)
                first = i;
            else
                break;
        }
        if (first) {
            const CurvePoint& s = c[*first];
            const Sentence cap = s.concurrencyCap > 0 ? sentence("KneeAnalysis",
                                     " The client let at most %1 requests be in flight, which may be "
                                     "what held it back rather than the server.")
                                                            .arg(s.concurrencyCap)
                                                      : Sentence();
            m_result.saturation = finding(s,
                sentence(
                    "KneeAnalysis", "Saturation at %1: the server completed %2, %3 of the offered rate (below %4%5).%6")
                    .arg(load(s.x), words::throughput(s.thr), words::wholePercent(s.thr / s.x),
                        words::percent(fraction), drainNote(s), cap));
        } else {
            m_result.saturation = absent(sentence("KneeAnalysis",
                "The sweep never saturated: throughput followed the offered rate up to %1 (%2 achieved); %3.")
                                             .arg(load(c.back().x), words::throughput(c.back().thr), higherLoads()));
        }
        return;
    }
    // Concurrency mode has no offered rate: saturated from the first step beyond which throughput
    // never grows by more than 1/fraction − 1 (5%) while users grow by at least twice that.
    const double growth = 1.0 / fraction - 1.0;
    for (std::size_t i = 0; i + 1 < c.size(); ++i) {
        double maxAfter = 0.0;
        for (std::size_t j = i + 1; j < c.size(); ++j)
            maxAfter = std::max(maxAfter, c[j].thr);
        if (maxAfter <= c[i].thr * (1.0 + growth) && c.back().x >= c[i].x * (1.0 + 2.0 * growth)) {
            const CurvePoint& s = c[i];
            // Users capped by a paced rate: where throughput reaches that rate, the rate stops it
            // growing, not the server.
            if (isKnown(s.rateLimit) && s.thr >= fraction * s.rateLimit) {
                m_result.saturation
                    = absent(sentence("KneeAnalysis",
                        "Saturation is unknown: from %1 on, throughput (%2) is the rate the requests were paced "
                        "to (%3), so the rate, not the server, stops it growing; pace faster to find saturation.")
                                 .arg(load(s.x), words::throughput(s.thr), words::throughput(s.rateLimit)));
                return;
            }
            const double added = s.thr > 0 ? maxAfter / s.thr - 1.0 : 0.0;
            const Sentence more = added > 0.0005
                ? sentence("KneeAnalysis", "more users add at most %1 throughput (%2 here, at most %3 up to %4)")
                      .arg(words::percent(added), words::throughput(s.thr), words::throughput(maxAfter),
                          load(c.back().x))
                : sentence("KneeAnalysis", "more users add no throughput (%1 here, at most %2 up to %3)")
                      .arg(words::throughput(s.thr), words::throughput(maxAfter), load(c.back().x));
            m_result.saturation = finding(s, sentence("KneeAnalysis", "Saturation at %1: %2.").arg(load(s.x), more));
            return;
        }
    }
    m_result.saturation = absent(sentence("KneeAnalysis",
        "The sweep never saturated: throughput still grows with the users up to %1 "
        "(%2); %3.")
                                     .arg(load(c.back().x), words::throughput(c.back().thr), higherLoads()));
}

// What one load can tell: whether the server kept up there, not where it stops keeping up.
Sentence Analyzer::oneLoadSaturation(const CurvePoint& p) const
{
    if (concurrency())
        return sentence("KneeAnalysis",
            "One load: with %1 the server completed %2. One load cannot show whether more users add "
            "throughput; add steps with fewer and more users.")
            .arg(load(p.x), words::throughput(p.thr));
    if (p.thr < m_options.saturationFraction * p.expected && p.concurrencyCap > 0)
        return sentence("KneeAnalysis",
            "One load: at %1 with at most %2 requests in flight the server completed %3, %4 of the offered "
            "rate; the cap on requests in flight or the server held it back, and one load cannot tell which: "
            "add steps at other rates and caps.")
            .arg(load(p.x))
            .arg(p.concurrencyCap)
            .arg(words::throughput(p.thr), words::wholePercent(p.thr / p.x));
    if (p.thr < m_options.saturationFraction * p.expected)
        return sentence("KneeAnalysis",
            "One load: at %1 the server completed %2, %3 of the offered rate, so it was saturated there; one "
            "load cannot show where saturation begins: add lower rates.")
            .arg(load(p.x), words::throughput(p.thr), words::wholePercent(p.thr / p.x));
    return sentence("KneeAnalysis",
        "One load: at %1 the server completed %2, %3 of the offered rate, so it kept up there; one load "
        "cannot show where it stops keeping up: add higher rates.")
        .arg(load(p.x), words::throughput(p.thr), words::wholePercent(p.thr / p.x));
}

// Said when the drain moved the bar noticeably, so the numbers in the sentence add up.
Sentence Analyzer::drainNote(const CurvePoint& p) const
{
    if (p.expected >= 0.99 * p.x)
        return {};
    return sentence(
        "KneeAnalysis", " of the %1 a step this long reads without saturation, its last requests' drain included")
        .arg(words::throughput(p.expected));
}

Sentence Analyzer::neverSaturatedSuffix() const
{
    return neverSaturated() ? sentence("KneeAnalysis", " The sweep never saturated; %1.").arg(higherLoads())
                            : Sentence();
}

// The lowest to the highest load of the latency curve: "25–350 req/s", "1–64 users".
Sentence Analyzer::loadRange(double from, double to) const
{
    return sentence("KneeAnalysis", "%1–%2", "a range of loads: the lowest number, then the highest load with its unit")
        .arg(words::number(from), load(to));
}

// Whether b's latency is above a's beyond the noise the two steps measured: their 95 % intervals do
// not overlap; without an interval at either, b must be noiseRatioWithoutIntervals times a.
bool Analyzer::above(const CurvePoint& b, const CurvePoint& a) const
{
    if (a.latencyCi && b.latencyCi)
        return b.latencyCi->low > a.latencyCi->high;
    return *b.latency > *a.latency * m_options.noiseRatioWithoutIntervals;
}

// "24 ms (95% interval 21–27 ms)", or the value alone where the step measured no interval.
Sentence Analyzer::latencyWithInterval(const CurvePoint& p) const
{
    if (!p.latencyCi)
        return Sentence::plain(words::latency(*p.latency));
    return sentence("KneeAnalysis", "%1 (95% interval %2–%3)")
        .arg(words::latency(*p.latency), words::number(p.latencyCi->low), words::latency(p.latencyCi->high));
}

// The SLO's limit on the analysed latency, where it limits that metric at the analysed percentile.
std::optional<double> Analyzer::sloLimitOnMetric() const
{
    const Slo& slo = m_options.slo;
    const double p = m_options.percentile;
    switch (m_options.metric) {
    case LatencyMetric::Ttft:
        return slo.ttftMs && slo.ttftP() == p ? slo.ttftMs : std::nullopt;
    case LatencyMetric::Tpot:
        return slo.tpotMs && slo.tpotP() == p ? slo.tpotMs : std::nullopt;
    case LatencyMetric::E2el:
        return slo.e2elMs && slo.e2elP() == p ? slo.e2elMs : std::nullopt;
    case LatencyMetric::Itl:
        return std::nullopt;
    }
    return std::nullopt;
}

// One step whose latency jumped beyond both neighbours' intervals (by the knee's minimum rise) while
// the next step fell back more than half way: noise of that step, not a bend of the curve. The rest
// of the curve goes to the knee; the outliers are named.
void Analyzer::setKneeCurve()
{
    const std::vector<CurvePoint>& c = m_latency;
    std::vector<bool> outlier(c.size(), false);
    for (std::size_t i = 1; i + 1 < c.size(); ++i) {
        const double before = *c[i - 1].latency, here = *c[i].latency, after = *c[i + 1].latency;
        const bool jump = above(c[i], c[i - 1]) && above(c[i], c[i + 1])
            && here >= m_options.minLatencyRise * std::max(before, after);
        const bool undone = after - before < here - after;
        if (jump && undone && !outlier[i - 1])
            outlier[i] = true;
    }
    for (std::size_t i = 0; i < c.size(); ++i) {
        if (!outlier[i]) {
            m_kneeCurve.push_back(c[i]);
            continue;
        }
        m_outlierX.push_back(c[i].x);
        const Sentence name = stepName(c[i].step());
        for (int step : c[i].steps) {
            StepAssessment& a = m_result.steps[std::size_t(step)];
            a.outlier = true;
            a.usedForKnee = false;
            a.excluded = sentence("KneeAnalysis", "an outlier: the next step undid its rise");
        }
        m_leftOutLatency << sentence("KneeAnalysis", "%1: outlier").arg(name);
        m_result.notes << sentence("KneeAnalysis",
            "%1 is an outlier: %2 is %3 there, against %4 at %5 and %6 at %7; the next step undoes the rise, "
            "so the knee leaves it out.")
                              .arg(name.capitalized(), metric(), latencyWithInterval(c[i]),
                                  latencyWithInterval(c[i - 1]), load(c[i - 1].x), latencyWithInterval(c[i + 1]),
                                  load(c[i + 1].x));
    }
}

// Why Kneedle's candidate at k is not a knee, if it is not: the steps above it must stay up beyond
// their intervals, at least two steps must show the rise, and the rise must matter (a minimum ratio,
// and a share of the SLO's limit where the SLO limits this latency).
std::optional<Sentence> Analyzer::unconfirmed(
    const std::vector<CurvePoint>& c, std::size_t k, const Sentence& noKneeIn) const
{
    const std::size_t last = c.size() - 1;
    // Size first: a rise too small to matter is no knee however it is measured.
    double top = 0.0;
    std::size_t topIndex = k + 1;
    for (std::size_t j = k + 1; j <= last; ++j) {
        if (*c[j].latency > top) {
            top = *c[j].latency;
            topIndex = j;
        }
    }
    const double base = *c[k].latency;
    if (top < m_options.minLatencyRise * base) {
        return noKneeIn
            + sentence("KneeAnalysis", "beyond %1, %2 rises only from %3 to %4 at %5, less than a %6 rise.%7")
                  .arg(load(c[k].x), metric(), words::latency(base), words::latency(top), load(c[topIndex].x),
                      words::ratio(m_options.minLatencyRise), neverSaturatedSuffix());
    }
    if (const std::optional<double> limit = sloLimitOnMetric();
        limit && top < *limit && top - base < m_options.minRiseOfSlo * *limit) {
        return noKneeIn
            + sentence("KneeAnalysis",
                "%1 rises from %2 at %3 to %4 at %5, %6 more, which is under %7 of the SLO's %8 limit: far "
                "below the objective, the rise does not limit capacity.%9")
                  .arg(metric(), words::latency(base), load(c[k].x), words::latency(top), load(c[topIndex].x),
                      words::latency(top - base), words::wholePercent(m_options.minRiseOfSlo), words::latency(*limit),
                      neverSaturatedSuffix());
    }
    for (std::size_t j = k + 1; j <= last; ++j) {
        if (above(c[j], c[k]))
            continue;
        const Sentence noise = c[j].latencyCi && c[k].latencyCi
            ? sentence("KneeAnalysis", "within the noise the steps measured")
            : sentence("KneeAnalysis", "less than %1 above it, which the steps' noise may explain")
                  .arg(words::wholePercent(m_options.noiseRatioWithoutIntervals - 1.0));
        return noKneeIn
            + sentence("KneeAnalysis",
                "%1 bends at %2 (%3) but is %4 at %5, %6: the rise is not sustained. Repeat the steps "
                "(load.plan.repeats) to narrow their intervals.")
                  .arg(metric(), load(c[k].x), latencyWithInterval(c[k]), latencyWithInterval(c[j]), load(c[j].x),
                      noise);
    }
    const std::size_t rising = last - k + (k > 0 && above(c[k], c[k - 1]) ? 1 : 0);
    if (rising < 2) {
        return noKneeIn
            + sentence("KneeAnalysis",
                "%1 rises only at the highest load, %2 (%3 against %4 at %5); one step does not make a knee: %6 "
                "to confirm it.")
                  .arg(metric(), load(c[last].x), words::latency(*c[last].latency), words::latency(*c[k].latency),
                      load(c[k].x), higherLoads());
    }
    return std::nullopt;
}

void Analyzer::findKnee()
{
    if (m_noLatency) {
        m_result.knee = absent(sentence("KneeAnalysis", "No knee: the steps do not report %1.").arg(metric()));
        return;
    }
    if (m_singleLoad) {
        m_result.knee = absent(sentence("KneeAnalysis",
            "No knee: every usable step ran at %1, and one load shows no curve; add steps at lower and higher "
            "loads.")
                                   .arg(load(m_usable.front().x)));
        return;
    }
    setKneeCurve();
    const std::vector<CurvePoint>& c = m_kneeCurve;
    const Sentence leftOut = leftOutSentence(true);
    if (int(c.size()) < m_options.minKneeSteps) {
        m_result.knee = absent(sentence("KneeAnalysis",
            "No knee yet: finding one needs at least %1 reliable steps that report %2, and the sweep has %3.%4")
                                   .arg(m_options.minKneeSteps)
                                   .arg(metric())
                                   .arg(c.size())
                                   .arg(leftOut));
        return;
    }
    std::vector<double> x, y;
    curveColumns(c, x, y, [](const CurvePoint& p) { return *p.latency; });
    const Sentence noKneeIn = sentence("KneeAnalysis", "No knee in %1: ").arg(loadRange(x.front(), x.back()));
    // Latency does not fall as load rises except by noise: fit a non-decreasing curve first (where
    // Kneedle smooths with a spline).
    const std::vector<double> fit = knee::isotonicFit(y);
    const double rise = fit.front() > 0 ? fit.back() / fit.front() : (fit.back() > 0 ? kInf : 1.0);
    const auto [lowest, highest] = std::minmax_element(y.begin(), y.end());
    if (rise < m_options.minLatencyRise) {
        m_result.knee = absent(noKneeIn
            + sentence("KneeAnalysis", "%1 stayed between %2 and %3, less than a %4 rise.%5%6")
                  .arg(metric(), words::latency(*lowest), words::latency(*highest),
                      words::ratio(m_options.minLatencyRise), neverSaturatedSuffix(), leftOut));
        return;
    }
    // Latency explodes multiplicatively past the knee: on a linear scale a tail of seconds flattens
    // everything before it and Kneedle lands on the step where latency has already exploded. On the
    // logarithm, the bend is where the climb starts. The curve bends when Kneedle accepts it on either
    // scale; the knee is then placed on the logarithm.
    std::vector<double> logFit(fit.size());
    const double floor = std::max(fit.front(), 1e-3);
    std::transform(fit.begin(), fit.end(), logFit.begin(), [floor](double v) { return std::log(std::max(v, floor)); });
    std::optional<std::size_t> index = knee::kneedle(x, logFit, true, m_options.kneeSensitivity);
    if (!index) {
        // A curve that climbs early and keeps climbing is concave on the logarithm: the linear bend.
        if (const auto linear = knee::kneedle(x, fit, true, m_options.kneeSensitivity))
            index = knee::furthestFromChord(x, logFit, true).value_or(*linear);
    }
    if (!index) {
        m_result.knee = absent(noKneeIn
            + sentence("KneeAnalysis", "%1 rises %2 without a bend that stands out.%3%4")
                  .arg(metric(), words::ratio(rise), neverSaturatedSuffix(), leftOut));
        return;
    }
    // Kneedle's bend, or the first step above it from which the rise is sustained: a noisy jump at the
    // bend (a P99 of few requests) must not hide the climb that follows it.
    const std::optional<Sentence> why = unconfirmed(c, *index, noKneeIn);
    std::optional<std::size_t> confirmed;
    if (!why)
        confirmed = *index;
    for (std::size_t later = *index + 1; !confirmed && later + 1 < c.size(); ++later) {
        if (!unconfirmed(c, later, noKneeIn))
            confirmed = later;
    }
    if (!confirmed) {
        m_result.knee = absent(*why + leftOut);
        return;
    }
    const std::size_t k = *confirmed;
    Sentence rises;
    const std::size_t last = c.size() - 1;
    if (k + 1 == last) {
        rises = sentence("KneeAnalysis", "and %1 (%2) at %3")
                    .arg(words::latency(y[last]), words::ratio(y[last] / y[k]), load(x[last]));
    } else {
        rises = sentence("KneeAnalysis", "%1 at %2, and %3 (%4) at %5")
                    .arg(words::latency(y[k + 1]), load(x[k + 1]), words::latency(y[last]),
                        words::ratio(y[last] / y[k]), load(x[last]));
    }
    m_result.knee = finding(c[k],
        sentence("KneeAnalysis", "The knee is at %1 (%2 achieved): %3 is %4 there, %5.%6")
            .arg(load(x[k]), words::throughput(c[k].thr), metric(), words::latency(y[k]), rises, leftOut));
}

void Analyzer::findThroughputKnee()
{
    const std::vector<CurvePoint>& c = m_reliable;
    const Sentence leftOut = leftOutSentence(false);
    const Sentence grows = concurrency() ? sentence("KneeAnalysis", "the number of users")
                                         : sentence("KneeAnalysis", "the offered rate");
    if (m_singleLoad) {
        m_result.throughputKnee = absent(
            sentence("KneeAnalysis", "No throughput knee: every usable step ran at %1; a bend takes several loads.")
                .arg(load(m_usable.front().x)));
        return;
    }
    if (int(c.size()) < m_options.minKneeSteps) {
        m_result.throughputKnee = absent(sentence("KneeAnalysis",
            "No throughput knee yet: finding one needs at least %1 reliable steps, and the sweep has %2.%3")
                                             .arg(m_options.minKneeSteps)
                                             .arg(c.size())
                                             .arg(leftOut));
        return;
    }
    std::vector<double> x, y;
    curveColumns(c, x, y, [](const CurvePoint& p) { return p.thr; });
    // The envelope of the best throughput so far: a collapse (reported on its own) shows as a plateau
    // and leaves the knee where growth stopped.
    std::vector<double> fit(y.size());
    std::partial_sum(y.begin(), y.end(), fit.begin(), [](double a, double b) { return std::max(a, b); });
    const auto index
        = fit.back() > fit.front() ? knee::kneedle(x, fit, false, m_options.kneeSensitivity) : std::nullopt;
    if (!index) {
        // A latency knee below saturation is queueing the server still keeps up with: say so, so that
        // the two findings read as one story.
        const Sentence queueing = m_result.knee.found && neverSaturated()
            ? sentence("KneeAnalysis",
                " Latency rises from the knee at %1 while throughput still keeps up: requests queue, but the "
                "server is not yet saturated.")
                  .arg(load(m_result.knee.offered))
            : Sentence();
        m_result.throughputKnee = absent(
            sentence("KneeAnalysis", "No throughput knee: throughput grows in step with %1 from %2 to %3.%4%5%6")
                .arg(grows, load(x.front()), load(x.back()), queueing, neverSaturatedSuffix(), leftOut));
        return;
    }
    const std::size_t k = *index;
    const double before = (fit[k] - fit.front()) / (x[k] - x.front());
    const double after = (fit.back() - fit[k]) / (x.back() - x[k]);
    const Sentence beyond = after <= 0 || before <= 0
        ? sentence("KneeAnalysis", "beyond it, throughput no longer grows")
        : sentence("KneeAnalysis", "beyond it, throughput grows %1 slower than below it")
              .arg(words::wholePercent(1.0 - after / before));
    m_result.throughputKnee = finding(c[k],
        sentence("KneeAnalysis", "Throughput bends at %1 (%2 achieved): %3.%4")
            .arg(load(x[k]), words::throughput(c[k].thr), beyond, leftOut));
}

void Analyzer::findCollapse()
{
    const std::vector<CurvePoint>& c = m_usable;
    if (c.size() < 2) {
        m_result.collapse = absent(
            sentence("KneeAnalysis", "Collapse is unknown: it takes at least two loads to see throughput fall."));
        return;
    }
    std::size_t peak = 0;
    for (std::size_t i = 1; i < c.size(); ++i) {
        if (c[i].thr > c[peak].thr)
            peak = i;
    }
    const double limit = (1.0 - m_options.collapseDrop) * c[peak].thr;
    // A real decrease: beyond the drop allowed for noise, and no later step recovering from it.
    std::optional<std::size_t> first;
    for (std::size_t j = c.size(); j-- > peak + 1;) {
        if (c[j].thr < limit)
            first = j;
        else
            break;
    }
    if (first) {
        const CurvePoint& f = c[*first];
        Sentence text = sentence(
            "KneeAnalysis", "Throughput collapses from %1: it peaked at %2 at %3 and falls to %4 (%5 below the peak)")
                            .arg(load(f.x), words::throughput(c[peak].thr), load(c[peak].x), words::throughput(f.thr),
                                words::wholePercent(1.0 - f.thr / c[peak].thr));
        if (*first + 1 < c.size())
            text
                += sentence("KneeAnalysis", ", and to %1 at %2").arg(words::throughput(c.back().thr), load(c.back().x));
        m_result.collapse = finding(f, text + words::fullStop());
        return;
    }
    if (peak + 1 == c.size()) {
        m_result.collapse = absent(m_result.saturation.found
                ? sentence("KneeAnalysis",
                    "No collapse: throughput did not fall as the load rose; its peak, %1, is at the highest load, %2.")
                      .arg(words::throughput(c[peak].thr), load(c[peak].x))
                : sentence("KneeAnalysis", "No collapse: throughput rose with the load up to %1.")
                      .arg(load(c.back().x)));
        return;
    }
    m_result.collapse
        = absent(sentence("KneeAnalysis", "No collapse: throughput held within %1 of its %2 peak from %3 to %4.")
                     .arg(words::wholePercent(m_options.collapseDrop), words::throughput(c[peak].thr), load(c[peak].x),
                         load(c.back().x)));
}

} // namespace analysis

using namespace analysis;

AnalysisOptions analysisOptionsFor(const Slo& slo)
{
    AnalysisOptions options;
    options.slo = slo;
    if (!slo.ttftMs && slo.tpotMs)
        options.metric = LatencyMetric::Tpot;
    else if (!slo.ttftMs && slo.e2elMs)
        options.metric = LatencyMetric::E2el;
    // The knee is found on the metric the SLO limits first, at that limit's percentile.
    if (!slo.isEmpty())
        options.percentile = options.metric == LatencyMetric::Tpot ? slo.tpotP()
            : options.metric == LatencyMetric::E2el                ? slo.e2elP()
                                                                   : slo.ttftP();
    return options;
}

SweepPoint SweepPoint::fromResult(const StepResult& result)
{
    SweepPoint p;
    p.concurrencyMode = result.config.mode == LoadMode::Concurrency;
    // A multi-turn rate step starts sessions at its rate: its offered load is that many requests per session.
    p.offered = p.concurrencyMode ? double(result.config.concurrency)
                                  : result.config.rate * result.metrics.requestsPerSession();
    p.metrics = result.metrics;
    p.partial = result.partial;
    p.clientBound = result.clientBound;
    p.server = result.server.stats;
    if (!p.concurrencyMode && result.config.maxConcurrency)
        p.concurrencyCap = *result.config.maxConcurrency;
    return p;
}

void SweepPoint::takeClientLimits(const StepSetup& setup)
{
    rateLimit = concurrencyMode && std::isfinite(setup.requestRate) ? setup.requestRate : kUnknown;
    concurrencyCap = !concurrencyMode && setup.maxConcurrency ? *setup.maxConcurrency : 0;
}

SweepPoint SweepPoint::fromStep(const StepSetup& setup, const StepMetrics& metrics)
{
    SweepPoint p;
    // A file without request_rate but with max_concurrency ran users, not a rate.
    p.concurrencyMode = !std::isfinite(setup.requestRate) && setup.maxConcurrency.has_value();
    p.offered = p.concurrencyMode ? double(*setup.maxConcurrency) : setup.requestRate * metrics.requestsPerSession();
    p.takeClientLimits(setup);
    p.metrics = metrics;
    p.planned = std::max<qint64>(0, setup.numPrompts);
    return p;
}

QString regionKindKey(RegionKind kind)
{
    switch (kind) {
    case RegionKind::Linear:
        return u"linear"_s;
    case RegionKind::Knee:
        return u"knee"_s;
    case RegionKind::Overload:
        return u"overload"_s;
    }
    return {};
}

QString sloLimitKey(SloLimit limit)
{
    switch (limit) {
    case SloLimit::None:
        return {};
    case SloLimit::Ttft:
        return u"ttft"_s;
    case SloLimit::Tpot:
        return u"tpot"_s;
    case SloLimit::E2el:
        return u"e2el"_s;
    case SloLimit::ErrorRate:
        return u"error_rate"_s;
    case SloLimit::Ttfc:
        return u"ttfc"_s;
    }
    return {};
}

AnalysisResult KneeAnalysis::analyze(const std::vector<SweepPoint>& points, const AnalysisOptions& options)
{
    AnalysisOptions used = options;
    // Whole answers (not streamed) and embeddings have no TTFT, TPOT or ITL: the curve is E2EL then.
    // A file may keep only some figures (a median without a mean): any of them is a measurement.
    const auto unmeasured = [&](const SweepPoint& p) { return !p.metrics.stats(options.metric).reported(); };
    const auto measuredSomething
        = [](const SweepPoint& p) { return isKnown(p.metrics.completed) && p.metrics.completed > 0; };
    const bool toE2el = options.metric != LatencyMetric::E2el
        && std::any_of(points.begin(), points.end(), measuredSomething)
        && std::all_of(
            points.begin(), points.end(), [&](const SweepPoint& p) { return !measuredSomething(p) || unmeasured(p); });
    if (toE2el)
        used.metric = LatencyMetric::E2el;
    const std::optional<double> instead = reportedPercentileInstead(points, used);
    if (instead)
        used.percentile = *instead;
    AnalysisResult result = Analyzer(points, used).run();
    if (instead) {
        result.notes.prepend(sentence("KneeAnalysis",
            "No step reports %1; the latency curve is %2, the highest "
            "percentile they report.")
                                 .arg(words::metric(used.metric, options.percentile))
                                 .arg(words::metric(used.metric, *instead)));
    }
    if (toE2el)
        result.notes.prepend(sentence("KneeAnalysis",
            "No step measured %1 (whole answers, not streamed, or embeddings); the latency curve is %2.")
                                 .arg(words::metric(options.metric, options.percentile))
                                 .arg(words::metric(used.metric, used.percentile)));
    result.server = analyzeServer(points);
    if (const std::optional<Sentence> note = shortOutputNote(points))
        result.notes << *note;
    if (const std::optional<Sentence> note = cacheNote(points, result))
        result.notes << *note;
    return result;
}

} // namespace kp
