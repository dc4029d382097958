#include "sweep/kneeanalysis_p.h"

#include <algorithm>
#include <cmath>

// The regions of the curve (linear, knee, overload) and the sentence that describes each.

namespace kp::analysis {

using namespace Qt::StringLiterals;

Sentence Analyzer::latencyRange(std::size_t first, std::size_t last) const
{
    std::optional<double> low, high;
    QList<Sentence> outliers;
    for (std::size_t i = first; i <= last; ++i) {
        if (std::find(m_outlierX.begin(), m_outlierX.end(), m_usable[i].x) != m_outlierX.end()) {
            outliers << load(m_usable[i].x);
            continue;
        }
        if (const auto v = m_usable[i].latency) {
            low = std::min(low.value_or(*v), *v);
            high = std::max(high.value_or(*v), *v);
        }
    }
    if (!low)
        return {};
    const Sentence aside = outliers.isEmpty()
        ? Sentence()
        : sentence("KneeAnalysis", ", the outlier at %1 aside").arg(Sentence::join(outliers, Sentence::plain(u", "_s)));
    if (words::latency(*low) == words::latency(*high))
        return sentence("KneeAnalysis", " and %1 stays at %2%3").arg(metric(), words::latency(*low), aside);
    return sentence("KneeAnalysis", " and %1 stays between %2 and %3%4")
        .arg(metric(), words::latency(*low), words::latency(*high), aside);
}

Sentence Analyzer::linearReason(std::size_t first, std::size_t last) const
{
    const std::vector<CurvePoint>& c = m_usable;
    const Sentence where = first == last ? sentence("KneeAnalysis", "at %1").arg(load(c[first].x))
                                         : sentence("KneeAnalysis", "up to %1").arg(load(c[last].x));
    Sentence text;
    if (!concurrency()) {
        double deviation = 0.0;
        for (std::size_t i = first; i <= last; ++i)
            deviation = std::max(deviation, std::abs(1.0 - c[i].thr / c[i].expected));
        const long within = std::max(1L, long(std::ceil(deviation * 100 - 1e-9)));
        text = sentence("KneeAnalysis", "Linear %1: throughput follows the offered rate (within %2%)")
                   .arg(where)
                   .arg(within);
    } else if (first == last) {
        text = sentence("KneeAnalysis", "Linear %1: throughput is %2").arg(where, words::throughput(c[first].thr));
    } else {
        text = sentence("KneeAnalysis", "Linear %1: throughput grows with the users, from %2 at %3 to %4 at %5")
                   .arg(where, words::throughput(c[first].thr), load(c[first].x), words::throughput(c[last].thr),
                       load(c[last].x));
    }
    return text + latencyRange(first, last) + words::fullStop();
}

Sentence Analyzer::kneeReason(std::size_t first, std::size_t last) const
{
    const std::vector<CurvePoint>& c = m_usable;
    // Across the bend: from the last linear step to the first overloaded one, where they exist.
    const std::size_t a = first > 0 ? first - 1 : first;
    const std::size_t b = last + 1 < c.size() ? last + 1 : last;
    const Sentence start = load(c[first].x);
    if (a == b) {
        return c[a].latency ? sentence("KneeAnalysis", "The curve bends at %1: %2 is %3 there.")
                                  .arg(start, metric(), words::latency(*c[a].latency))
                            : sentence("KneeAnalysis", "The curve bends at %1.").arg(start);
    }
    Sentence text;
    const Sentence subject = concurrency() ? sentence("KneeAnalysis", "throughput") : sentence("KneeAnalysis", "RPS");
    double slower;
    if (!concurrency()) {
        slower = 1.0 - (c[b].thr - c[a].thr) / (c[b].x - c[a].x);
    } else {
        const double relative = c[a].thr > 0 ? (c[b].thr / c[a].thr - 1.0) / (c[b].x / c[a].x - 1.0) : 1.0;
        slower = 1.0 - relative;
    }
    const Sentence reference = concurrency() ? sentence("KneeAnalysis", "the number of users")
                                             : sentence("KneeAnalysis", "the offered rate");
    if (slower < 0.005)
        text = sentence("KneeAnalysis", "From %1 %2 still grows with %3").arg(start, subject, reference);
    else
        text = sentence("KneeAnalysis", "From %1 %2 grows %3 slower than %4")
                   .arg(start, subject, words::wholePercent(slower), reference);
    if (c[a].latency && c[b].latency && *c[a].latency > 0) {
        text += sentence("KneeAnalysis", " and %1 rises %2 (%3 at %4 to %5 at %6)")
                    .arg(metric(), words::ratio(*c[b].latency / *c[a].latency), words::latency(*c[a].latency),
                        load(c[a].x), words::latency(*c[b].latency), load(c[b].x));
    }
    return text + words::fullStop();
}

Sentence Analyzer::overloadReason(std::size_t first, std::size_t last) const
{
    const std::vector<CurvePoint>& c = m_usable;
    Sentence text;
    if (!concurrency()) {
        text = sentence("KneeAnalysis", "From %1 the server is overloaded: it completes %2 of the %1 offered (%3)")
                   .arg(load(c[first].x), words::throughput(c[first].thr),
                       words::wholePercent(c[first].thr / c[first].x));
    } else {
        text = sentence("KneeAnalysis",
            "From %1 the server is saturated: more users add little or no throughput (%2 at %1, %3 at %4)")
                   .arg(load(c[first].x), words::throughput(c[first].thr), words::throughput(c[last].thr),
                       load(c[last].x));
    }
    if (c[last].latency)
        text += sentence("KneeAnalysis", ", and %1 reaches %2 at %3")
                    .arg(metric(), words::latency(*c[last].latency), load(c[last].x));
    const Finding& collapse = m_result.collapse;
    if (collapse.found && m_result.peakThroughput > 0) {
        text += sentence("KneeAnalysis", "; from %1 throughput falls, to %2 below its %3 peak")
                    .arg(load(collapse.offered), words::wholePercent(1.0 - collapse.achieved / m_result.peakThroughput),
                        words::throughput(m_result.peakThroughput));
    }
    return text + words::fullStop();
}

void Analyzer::buildRegions()
{
    const std::vector<CurvePoint>& c = m_usable;
    // One load has no regions: they are stretches of a curve.
    if (c.empty() || m_singleLoad)
        return;
    const AnalysisResult& r = m_result;
    const double kneeX = r.knee.found ? r.knee.offered : r.throughputKnee.found ? r.throughputKnee.offered : kInf;
    const double overloadX
        = std::min(r.saturation.found ? r.saturation.offered : kInf, r.collapse.found ? r.collapse.offered : kInf);
    auto kindOf = [&](double x) {
        if (x >= overloadX)
            return RegionKind::Overload;
        return x >= kneeX ? RegionKind::Knee : RegionKind::Linear;
    };
    for (std::size_t first = 0; first < c.size();) {
        const RegionKind kind = kindOf(c[first].x);
        std::size_t last = first;
        while (last + 1 < c.size() && kindOf(c[last + 1].x) == kind)
            ++last;
        Region region;
        region.kind = kind;
        region.fromOffered = c[first].x;
        region.toOffered = c[last].x;
        region.firstStep = c[first].step();
        region.lastStep = c[last].step();
        region.reason = kind == RegionKind::Linear ? linearReason(first, last)
            : kind == RegionKind::Knee             ? kneeReason(first, last)
                                                   : overloadReason(first, last);
        m_result.regions.push_back(std::move(region));
        first = last + 1;
    }
}

} // namespace kp::analysis
