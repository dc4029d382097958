#include "sweep/kneeanalysis_p.h"

#include <algorithm>

// The SLO capacity (where the first step misses the SLO, interpolated) and the recommended operating point.

namespace kp::analysis {

using namespace Qt::StringLiterals;

Sentence Analyzer::sloText() const
{
    QList<Sentence> parts;
    for (const SloCheck& check : sloChecks(m_options.slo, m_options.maxErrorRate, CurvePoint {})) {
        if (check.limit == SloLimit::ErrorRate && !m_options.slo.maxErrorRate)
            continue;
        parts << words::sloName(check.limit, check.percentile)
                + Sentence::plain(u" ≤ "_s + words::sloValue(check.limit, check.max));
    }
    if (parts.isEmpty())
        parts << sentence("KneeAnalysis", "the error rate ≤ %1").arg(words::percent(m_options.maxErrorRate));
    return Sentence::join(parts, Sentence::plain(u", "_s));
}

void Analyzer::findSloCapacity()
{
    const Slo& slo = m_options.slo;
    if (slo.isEmpty()) {
        m_result.sloCapacity = absent(
            sentence("KneeAnalysis", "No SLO capacity: no SLO was given (the profile's slo, or --slo ttft:p99:500)."));
        return;
    }
    for (StepAssessment& a : m_result.steps) {
        if (!a.usedForThroughput)
            continue;
        const SloJudgement j = judge(curvePoint(a.stepIndex));
        if (j.judged) {
            a.meetsSlo = j.pass;
            a.sloDetail = j.firstMiss;
        } else {
            a.sloDetail = sentence("KneeAnalysis", "does not report %1")
                              .arg(Sentence::join(j.missing, Sentence::plain(u", "_s)));
        }
    }
    std::vector<std::pair<const CurvePoint*, SloJudgement>> judged;
    QList<Sentence> missing, unchecked;
    for (const CurvePoint& c : m_usable) {
        SloJudgement j = judge(c);
        if (j.judged) {
            judged.emplace_back(&c, std::move(j));
        } else {
            unchecked << sentence("KneeAnalysis", "%1 does not report %2, so the SLO was not checked there.")
                             .arg(stepName(c.step()).capitalized(),
                                 Sentence::join(j.missing, Sentence::plain(u" or "_s)));
            for (const Sentence& label : j.missing) {
                if (!missing.contains(label))
                    missing << label;
            }
        }
    }
    if (!judged.empty())
        m_result.notes << unchecked;
    if (judged.empty()) {
        m_result.sloCapacity = m_usable.empty()
            ? absent(sentence("KneeAnalysis", "No SLO capacity yet: no usable step.%1").arg(leftOutSentence(false)))
            : absent(sentence("KneeAnalysis", "No SLO capacity: the steps do not report %1, which the SLO needs.")
                         .arg(Sentence::join(missing, Sentence::plain(u" or "_s))));
        return;
    }
    std::size_t firstMiss = judged.size();
    for (std::size_t i = 0; i < judged.size(); ++i) {
        if (!judged[i].second.pass) {
            firstMiss = i;
            break;
        }
    }
    if (m_singleLoad) {
        const CurvePoint& only = *judged.front().first;
        if (judged.front().second.pass) {
            Finding f = finding(only,
                sentence("KneeAnalysis",
                    "The one load tested, %1 (%2 achieved), met the SLO (%3), so the SLO capacity is at least "
                    "that; %4 to find it.")
                    .arg(load(only.x), words::throughput(only.thr), sloText(), higherLoads()));
            f.lowerBound = true;
            m_result.sloCapacity = f;
        } else {
            m_result.sloCapacity = absent(sentence("KneeAnalysis",
                "No SLO capacity: the one load tested, %1, misses the SLO (%2); test lower "
                "loads.")
                                              .arg(load(only.x), judged.front().second.firstMiss));
        }
        return;
    }
    if (firstMiss == 0) {
        m_result.sloCapacity = absent(sentence("KneeAnalysis",
            "No SLO capacity: even the lowest load, %1, misses the SLO (%2); test lower "
            "loads.")
                                          .arg(load(judged[0].first->x), judged[0].second.firstMiss));
        return;
    }
    if (firstMiss == judged.size()) {
        const CurvePoint& top = *judged.back().first;
        Finding f = finding(top,
            sentence("KneeAnalysis",
                "Every step met the SLO (%1) up to %2 (%3 achieved), so the SLO capacity is at least that; %4 to "
                "find "
                "it.")
                .arg(sloText(), load(top.x), words::throughput(top.thr), higherLoads()));
        f.lowerBound = true;
        m_result.sloCapacity = f;
        return;
    }
    for (std::size_t i = firstMiss + 1; i < judged.size(); ++i) {
        if (judged[i].second.pass)
            m_result.notes << sentence(
                "KneeAnalysis", "%1 met the SLO again after %2 missed it; the SLO capacity stops at the first miss.")
                                  .arg(stepName(judged[i].first->step()).capitalized(),
                                      load(judged[firstMiss].first->x));
    }
    const CurvePoint& a = *judged[firstMiss - 1].first;
    const CurvePoint& b = *judged[firstMiss].first;
    const auto checksA = sloChecks(slo, m_options.maxErrorRate, a);
    const auto checksB = sloChecks(slo, m_options.maxErrorRate, b);
    std::optional<std::size_t> binding;
    double bindingT = 1.0;
    QList<Sentence> alsoMissed;
    for (std::size_t i = 0; i < checksB.size(); ++i) {
        const double vb = *checksB[i].value;
        if (vb <= checksB[i].max)
            continue;
        const double va = *checksA[i].value;
        const double t = vb > va ? std::clamp((checksB[i].max - va) / (vb - va), 0.0, 1.0) : 0.0;
        if (!binding || t < bindingT) {
            if (binding)
                alsoMissed << words::sloName(checksB[*binding].limit, checksB[*binding].percentile);
            binding = i;
            bindingT = t;
        } else {
            alsoMissed << words::sloName(checksB[i].limit, checksB[i].percentile);
        }
    }
    Q_ASSERT(binding);
    const SloCheck& ca = checksA[*binding];
    const SloCheck& cb = checksB[*binding];
    Finding f;
    f.found = true;
    f.offered = lerp(a.x, b.x, bindingT);
    f.achieved = lerp(a.thr, b.thr, bindingT);
    f.outputThroughput = lerp(a.tok, b.tok, bindingT);
    f.stepIndex = bindingT == 0.0 ? a.step() : -1;
    const Sentence name = words::sloName(cb.limit, cb.percentile);
    f.reason
        = sentence("KneeAnalysis",
            "SLO capacity is %1 (%2 achieved): %3 reaches its limit of %4 there, interpolated between %5 "
            "(%6) and %7 (%8).")
              .arg(load(f.offered), words::throughput(f.achieved), name, words::sloValue(cb.limit, cb.max), load(a.x),
                  words::sloValue(ca.limit, *ca.value), load(b.x), words::sloValue(cb.limit, *cb.value));
    if (!alsoMissed.isEmpty())
        f.reason
            += sentence("KneeAnalysis", " At %1, %2 also %3 its limit.")
                   .arg(load(b.x), Sentence::join(alsoMissed, Sentence::plain(u" and "_s)),
                       alsoMissed.size() > 1 ? sentence("KneeAnalysis", "miss") : sentence("KneeAnalysis", "misses"));
    m_result.sloCapacity = f;
    m_result.bindingSlo = cb.limit;
}

void Analyzer::findRecommended()
{
    const std::vector<CurvePoint>& c = m_usable;
    if (c.size() < 2) {
        m_result.recommended
            = absent(sentence("KneeAnalysis", "No recommended operating point yet: it takes at least two loads."));
        return;
    }
    const double fraction = m_options.recommendedThroughputFraction;
    const double peak = m_result.peakThroughput;
    if (!(peak > 0)) {
        m_result.recommended = absent(sentence("KneeAnalysis",
            "No recommended operating point: no step completed a request, so there is no throughput to size it "
            "by."));
        return;
    }
    const double target = fraction * peak;
    std::size_t i = 0;
    while (i < c.size() && c[i].thr < target)
        ++i;
    const Sentence caveat = neverSaturated()
        ? sentence(
            "KneeAnalysis", " The sweep never saturated, so the real peak is higher and this point is conservative.")
        : Sentence();
    if (i == 0) {
        m_result.recommended = absent(sentence("KneeAnalysis",
            "No recommended operating point: even the lowest load, %1, uses %2 of the %3 peak "
            "throughput, more than %4; test lower loads.")
                                          .arg(load(c[0].x), words::wholePercent(c[0].thr / peak),
                                              words::throughput(peak), words::wholePercent(fraction)));
        return;
    }
    const double t = (target - c[i - 1].thr) / (c[i].thr - c[i - 1].thr);
    Finding head;
    head.found = true;
    head.offered = lerp(c[i - 1].x, c[i].x, t);
    head.achieved = lerp(c[i - 1].thr, c[i].thr, t);
    head.outputThroughput = lerp(c[i - 1].tok, c[i].tok, t);
    head.stepIndex = t >= 1.0 ? c[i].step() : -1;

    if (m_options.slo.isEmpty()) {
        head.reason = sentence("KneeAnalysis",
            "Recommended operating point: %1 (%2 achieved), where throughput reaches %3 of its %4 peak; "
            "no SLO was given, so latency does not limit it.%5")
                          .arg(load(head.offered), words::throughput(head.achieved), words::wholePercent(fraction),
                              words::throughput(peak), caveat);
        m_result.recommended = head;
        return;
    }
    const Finding& slo = m_result.sloCapacity;
    if (!slo.found) {
        m_result.recommended
            = absent(sentence("KneeAnalysis", "No recommended operating point: no tested load met the SLO."));
        return;
    }
    if (slo.offered <= head.offered) {
        Finding f = slo;
        f.reason
            = sentence("KneeAnalysis",
                "Recommended operating point: %1 (%2 achieved), the SLO capacity; it uses %3 of the %4 peak "
                "throughput, within the %5 limit.%6")
                  .arg(load(slo.offered), words::throughput(slo.achieved), words::wholePercent(slo.achieved / peak),
                      words::throughput(peak), words::wholePercent(fraction), caveat);
        m_result.recommended = f;
        return;
    }
    head.reason = sentence("KneeAnalysis",
        "Recommended operating point: %1 (%2 achieved), where throughput reaches %3 of its %4 peak; the "
        "SLO would allow %5%6, but beyond this point less than %7 headroom remains.%8")
                      .arg(load(head.offered), words::throughput(head.achieved), words::wholePercent(fraction),
                          words::throughput(peak), slo.lowerBound ? sentence("KneeAnalysis", "at least ") : Sentence(),
                          load(slo.offered), words::wholePercent(1.0 - fraction), caveat);
    m_result.recommended = head;
}

} // namespace kp::analysis
