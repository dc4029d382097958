#include "runs/regressiongate.h"

#include "metrics/phrase.h"
#include "sweep/analysiswords.h"
#include "sweep/sweepplanner.h"

#include <QJsonObject>
#include <QRegularExpression>
#include <QXmlStreamWriter>

#include <algorithm>
#include <cmath>
#include <map>

namespace kp {

using namespace Qt::StringLiterals;

namespace {

const QString kMetricList = u"ttft, tpot, itl or e2el with .mean, .median or .pNN (ttft.p99), throughput, "
                            u"output_throughput, goodput, error_rate, slo_capacity, knee, saturation, "
                            u"peak_throughput"_s;

bool perLoad(GateMetricKind kind)
{
    return kind == GateMetricKind::Latency || kind == GateMetricKind::Throughput
        || kind == GateMetricKind::OutputThroughput || kind == GateMetricKind::Goodput
        || kind == GateMetricKind::ErrorRate;
}

QString unitOf(const GateCondition& c, bool users)
{
    switch (c.kind) {
    case GateMetricKind::Latency:
        return u"ms"_s;
    case GateMetricKind::Throughput:
    case GateMetricKind::Goodput:
    case GateMetricKind::PeakThroughput:
        return u"req/s"_s;
    case GateMetricKind::OutputThroughput:
        return u"tok/s"_s;
    case GateMetricKind::ErrorRate:
        return u"%"_s;
    case GateMetricKind::SloCapacity:
    case GateMetricKind::Knee:
    case GateMetricKind::Saturation:
        return users ? u"users"_s : u"req/s"_s;
    }
    return {};
}

QString figure(double v)
{
    if (v == 0)
        return u"0"_s;
    const double a = std::abs(v);
    return QString::number(v, 'f', a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3);
}

QString withUnit(double v, const QString& unit)
{
    return unit == u"%" ? figure(v) + unit : figure(v) + u' ' + unit;
}

QString signedText(double v, const QString& unit)
{
    const QString sign = v >= 0 ? u"+"_s : QString();
    return unit.isEmpty() ? sign + QString::number(v, 'f', 1) + u'%' : sign + withUnit(v, unit);
}

QString thresholdText(const GateCondition& c, bool users)
{
    const QString sign = c.threshold >= 0 ? u"+"_s : QString();
    if (c.relative)
        return sign + QString::number(c.threshold) + u'%';
    const QString unit = unitOf(c, users);
    return sign
        + (unit == u"%" ? QString::number(c.threshold) + u" points"_s : QString::number(c.threshold) + u' ' + unit);
}

// The figure's key in the steps' intervals (StepIntervals::figures); empty: none is kept.
QString intervalKey(const GateCondition& c)
{
    switch (c.kind) {
    case GateMetricKind::Latency: {
        const QString name = compareMetricKey(c.latency);
        switch (c.statistic.kind) {
        case CompareStatistic::Kind::Mean:
            return u"mean_%1_ms"_s.arg(name);
        case CompareStatistic::Kind::Median:
            return u"median_%1_ms"_s.arg(name);
        case CompareStatistic::Kind::Percentile:
            return u"p%1_%2_ms"_s.arg(LatencyStats::percentileWord(c.statistic.percentile), name);
        }
        return {};
    }
    case GateMetricKind::Throughput:
        return u"request_throughput"_s;
    case GateMetricKind::OutputThroughput:
        return u"output_throughput"_s;
    case GateMetricKind::Goodput:
        return u"request_goodput"_s;
    default:
        return {};
    }
}

std::optional<double> stepValue(const StepMetrics& m, const GateCondition& c, QString* missing)
{
    switch (c.kind) {
    case GateMetricKind::Latency:
        return compareValue(m, c.latency, c.statistic, missing);
    case GateMetricKind::Throughput:
        return compareValue(m, CompareMetric::Throughput, {}, missing);
    case GateMetricKind::OutputThroughput:
        return compareValue(m, CompareMetric::OutputThroughput, {}, missing);
    case GateMetricKind::Goodput:
        if (m.requestGoodput && isKnown(*m.requestGoodput))
            return *m.requestGoodput;
        if (missing)
            *missing = u"no goodput (the run had no goodput SLO)"_s;
        return std::nullopt;
    case GateMetricKind::ErrorRate: {
        if (!isKnown(m.completed) || !isKnown(m.failed) || m.completed + m.failed == 0) {
            if (missing)
                *missing = u"no request counts"_s;
            return std::nullopt;
        }
        return 100.0 * double(m.failed) / double(m.completed + m.failed);
    }
    default:
        return std::nullopt;
    }
}

// One load of a run: its trials' mean and the interval of that mean.
struct LoadValue
{
    double offered = 0.0;
    std::optional<double> value;
    std::optional<Interval> interval;
    QString missing;
};

struct RunCurve
{
    bool users = false;
    std::vector<LoadValue> loads; // by offered load
};

RunCurve curveOf(const SavedRun& run, const GateCondition& c)
{
    RunCurve out;
    LoadMode axis = run.profile.load.mode;
    if (std::none_of(run.steps.begin(), run.steps.end(), [&](const SavedStep& s) { return s.mode == axis; })
        && !run.steps.empty())
        axis = run.steps.front().mode;
    out.users = axis == LoadMode::Concurrency;
    std::map<double, std::vector<const SavedStep*>> byLoad;
    for (const SavedStep& s : run.steps) {
        if (s.mode == axis && !s.partial)
            byLoad[s.offered].push_back(&s);
    }
    const QString key = intervalKey(c);
    for (const auto& [offered, steps] : byLoad) {
        LoadValue lv;
        lv.offered = offered;
        std::vector<double> values;
        std::vector<const StepMetrics*> trials;
        for (const SavedStep* s : steps) {
            QString missing;
            if (const auto v = stepValue(s->metrics, c, &missing)) {
                values.push_back(*v);
                trials.push_back(&s->metrics);
            } else if (lv.missing.isEmpty()) {
                lv.missing = missing;
            }
        }
        if (values.size() == steps.size() && !values.empty()) {
            double sum = 0;
            for (double v : values)
                sum += v;
            lv.value = sum / double(values.size());
            if (!key.isEmpty()) {
                // A repeated load: the interval over its trials (run.json keeps it on each entry, else it is
                // computed here); one trial: its bootstrap over requests.
                if (steps.size() == 1) {
                    lv.interval = steps.front()->intervals.find(key);
                } else if (steps.front()->intervals.method == StepIntervals::Method::Repeats) {
                    lv.interval = steps.front()->intervals.find(key);
                } else {
                    lv.interval = repeatIntervals(trials).find(key);
                }
            }
        }
        out.loads.push_back(lv);
    }
    return out;
}

std::optional<double> findingValue(const AnalysisResult& a, GateMetricKind kind, QString* missing)
{
    const Finding* f = kind == GateMetricKind::SloCapacity ? &a.sloCapacity
        : kind == GateMetricKind::Knee                     ? &a.knee
        : kind == GateMetricKind::Saturation               ? &a.saturation
                                                           : nullptr;
    if (!f) {
        if (a.peakStep >= 0)
            return a.peakThroughput;
        *missing = u"no peak throughput (no step completed a request)"_s;
        return std::nullopt;
    }
    // A bound is not a value: "at least N" (the sweep never reached the limit) cannot be compared.
    if (f->found && f->lowerBound) {
        *missing = u"only a lower bound: at least %1 (the sweep never reached it)"_s.arg(figure(f->offered));
        return std::nullopt;
    }
    if (f->found)
        return f->offered;
    *missing = f->reason.english();
    return std::nullopt;
}

QString metricWords(const GateCondition& c)
{
    switch (c.kind) {
    case GateMetricKind::Latency:
        return u"%1 %2"_s.arg(c.statistic.label(), compareMetricKey(c.latency).toUpper());
    case GateMetricKind::Throughput:
        return u"request throughput"_s;
    case GateMetricKind::OutputThroughput:
        return u"output throughput"_s;
    case GateMetricKind::Goodput:
        return u"goodput"_s;
    case GateMetricKind::ErrorRate:
        return u"error rate"_s;
    case GateMetricKind::SloCapacity:
        return u"SLO capacity"_s;
    case GateMetricKind::Knee:
        return u"knee"_s;
    case GateMetricKind::Saturation:
        return u"saturation point"_s;
    case GateMetricKind::PeakThroughput:
        return u"peak throughput"_s;
    }
    return {};
}

void word(GateVerdict& v, bool users)
{
    const GateCondition& c = v.condition;
    const QString head = gateOutcomeWord(v.outcome) + u' ' + c.metric + u": "_s;
    if (v.outcome == GateOutcome::Unknown) {
        v.line = head + v.reason;
        return;
    }
    const QString unit = unitOf(c, users);
    QString values = u"%1 → %2"_s.arg(figure(*v.base), withUnit(*v.next, unit));
    if (v.offered)
        values += u" at "_s + formatLoad(users ? LoadMode::Concurrency : LoadMode::Rate, *v.offered);
    if (v.interpolated)
        values += u", BASE interpolated"_s;
    const QString change = c.relative ? signedText(*v.change, {})
        : unit == u"%"                ? signedText(*v.change, {}).chopped(1) + u" points"_s
                                      : signedText(*v.change, unit);
    const QString op = c.above ? u">"_s : u"<"_s;
    const QString bound = thresholdText(c, users);
    switch (v.outcome) {
    case GateOutcome::Fail:
        v.line = head + u"%1 (%2) %3 %4"_s.arg(change, values, op, bound);
        break;
    case GateOutcome::Noise:
        v.line = head
            + u"%1 (%2) %3 %4, but inside the runs' 95% intervals (BASE %5–%6, NEW %7–%8 %9)"_s.arg(change, values, op,
                bound, figure(v.baseInterval->low), figure(v.baseInterval->high), figure(v.nextInterval->low),
                figure(v.nextInterval->high), unit);
        break;
    case GateOutcome::Pass:
        v.line = head + u"%1 (%2), not %3 %4"_s.arg(change, values, op, bound);
        break;
    case GateOutcome::Unknown:
        break;
    }
}

GateVerdict judge(const SavedRun& base, const SavedRun& next, const AnalysisResult& baseAnalysis,
    const AnalysisResult& nextAnalysis, const GateCondition& c, bool& users)
{
    GateVerdict v;
    v.condition = c;
    const auto changeOf = [&](double b, double n) -> std::optional<double> {
        if (!c.relative)
            return n - b;
        if (b == 0)
            return std::nullopt;
        return (n - b) / std::abs(b) * 100.0;
    };
    const auto holds = [&](double change) { return c.above ? change > c.threshold : change < c.threshold; };

    if (!perLoad(c.kind)) {
        users = nextAnalysis.concurrencyMode;
        QString missing;
        const auto b = findingValue(baseAnalysis, c.kind, &missing);
        if (!b) {
            v.reason = u"BASE has no %1: %2"_s.arg(metricWords(c), missing);
            return v;
        }
        const auto n = findingValue(nextAnalysis, c.kind, &missing);
        if (!n) {
            v.reason = u"NEW has no %1: %2"_s.arg(metricWords(c), missing);
            return v;
        }
        if (c.kind != GateMetricKind::PeakThroughput && baseAnalysis.concurrencyMode != nextAnalysis.concurrencyMode) {
            v.reason
                = u"BASE's loads are in %1, NEW's in %2"_s.arg(baseAnalysis.concurrencyMode ? u"users"_s : u"req/s"_s,
                    nextAnalysis.concurrencyMode ? u"users"_s : u"req/s"_s);
            return v;
        }
        v.change = changeOf(*b, *n);
        if (!v.change) {
            v.reason = u"BASE's %1 is 0, so a change in percent has no meaning; give an amount (%2%3)"_s.arg(
                metricWords(c), c.metric, c.above ? u">+1"_s : u"<-1"_s);
            return v;
        }
        v.base = b;
        v.next = n;
        v.outcome = holds(*v.change) ? GateOutcome::Fail : GateOutcome::Pass;
        return v;
    }

    const RunCurve bc = curveOf(base, c);
    const RunCurve nc = curveOf(next, c);
    users = nc.users;
    if (bc.users != nc.users) {
        v.reason = u"BASE's loads are in %1, NEW's in %2"_s.arg(
            bc.users ? u"users"_s : u"req/s"_s, nc.users ? u"users"_s : u"req/s"_s);
        return v;
    }
    std::vector<double> bx, by, blo, bhi;
    bool baseIntervals = true;
    QString baseMissing;
    for (const LoadValue& lv : bc.loads) {
        if (!lv.value) {
            if (baseMissing.isEmpty())
                baseMissing = lv.missing;
            continue;
        }
        bx.push_back(lv.offered);
        by.push_back(*lv.value);
        baseIntervals = baseIntervals && lv.interval;
        blo.push_back(lv.interval ? lv.interval->low : 0.0);
        bhi.push_back(lv.interval ? lv.interval->high : 0.0);
    }
    if (bx.empty()) {
        v.reason = bc.loads.empty() ? u"BASE has no complete step"_s
                                    : u"BASE has no %1: %2"_s.arg(metricWords(c), baseMissing);
        return v;
    }
    struct Candidate
    {
        GateVerdict v;
        bool holds = false;
        bool noise = false;
    };
    std::vector<Candidate> candidates;
    QString nextMissing;
    bool zeroBase = false;
    for (const LoadValue& lv : nc.loads) {
        if (!lv.value) {
            if (nextMissing.isEmpty())
                nextMissing = lv.missing;
            continue;
        }
        const auto b = interpolate(bx, by, lv.offered);
        if (!b)
            continue;
        const auto change = changeOf(*b, *lv.value);
        if (!change) {
            zeroBase = true;
            continue;
        }
        Candidate cand;
        cand.v = v;
        cand.v.base = b;
        cand.v.next = lv.value;
        cand.v.change = change;
        cand.v.offered = lv.offered;
        cand.v.interpolated = std::find(bx.begin(), bx.end(), lv.offered) == bx.end();
        if (baseIntervals && lv.interval) {
            cand.v.baseInterval = Interval { *interpolate(bx, blo, lv.offered), *interpolate(bx, bhi, lv.offered) };
            cand.v.nextInterval = lv.interval;
        }
        cand.holds = holds(*change);
        cand.noise = cand.holds && cand.v.baseInterval && cand.v.baseInterval->overlaps(*cand.v.nextInterval);
        candidates.push_back(cand);
    }
    if (candidates.empty()) {
        if (zeroBase)
            v.reason = u"BASE's %1 is 0 at every shared load, so a change in percent has no meaning; give an amount "
                       u"(%2%3)"_s.arg(metricWords(c), c.metric, c.above ? u">+1"_s : u"<-1"_s);
        else if (!nextMissing.isEmpty()
            && std::none_of(nc.loads.begin(), nc.loads.end(), [](const LoadValue& lv) { return lv.value.has_value(); }))
            v.reason = u"NEW has no %1: %2"_s.arg(metricWords(c), nextMissing);
        else
            v.reason = u"no load of NEW lies within BASE's loads (%1 to %2)"_s.arg(
                formatLoad(bc.users ? LoadMode::Concurrency : LoadMode::Rate, bx.front()),
                formatLoad(bc.users ? LoadMode::Concurrency : LoadMode::Rate, bx.back()));
        return v;
    }
    // The deciding load: the most extreme change among the failing loads, else among the noisy ones, else
    // among all (the one nearest to holding).
    const auto extreme = [&](auto&& keep) -> const Candidate* {
        const Candidate* best = nullptr;
        for (const Candidate& cand : candidates) {
            if (!keep(cand))
                continue;
            if (!best || (c.above ? *cand.v.change > *best->v.change : *cand.v.change < *best->v.change))
                best = &cand;
        }
        return best;
    };
    if (const Candidate* f = extreme([](const Candidate& x) { return x.holds && !x.noise; })) {
        v = f->v;
        v.outcome = GateOutcome::Fail;
    } else if (const Candidate* n = extreme([](const Candidate& x) { return x.noise; })) {
        v = n->v;
        v.outcome = GateOutcome::Noise;
    } else {
        v = extreme([](const Candidate&) { return true; })->v;
        v.outcome = GateOutcome::Pass;
    }
    return v;
}

} // namespace

std::optional<GateCondition> parseGateCondition(QStringView text, QString* error)
{
    const QString written = text.trimmed().toString();
    const auto fail = [&](const QString& what) {
        if (error)
            *error = u"\"%1\": %2"_s.arg(written, what);
        return std::nullopt;
    };
    const qsizetype op = written.indexOf(QRegularExpression(u"[<>]"_s));
    if (op <= 0 || written.indexOf(QRegularExpression(u"[<>=]"_s), op + 1) >= 0 || written.contains(u'='))
        return fail(u"write METRIC>CHANGE or METRIC<CHANGE, for example ttft.p99>+10% or slo_capacity<-5%"_s);
    GateCondition c;
    c.text = written;
    c.above = written[op] == u'>';
    c.metric = written.left(op).trimmed().toLower();
    const QString change = written.mid(op + 1).trimmed();

    const qsizetype dot = c.metric.indexOf(u'.');
    const QString name = dot < 0 ? c.metric : c.metric.left(dot);
    const QString statistic = dot < 0 ? QString() : c.metric.mid(dot + 1);
    static const std::map<QString, GateMetricKind> plain { { u"throughput"_s, GateMetricKind::Throughput },
        { u"request_throughput"_s, GateMetricKind::Throughput },
        { u"output_throughput"_s, GateMetricKind::OutputThroughput }, { u"goodput"_s, GateMetricKind::Goodput },
        { u"error_rate"_s, GateMetricKind::ErrorRate }, { u"slo_capacity"_s, GateMetricKind::SloCapacity },
        { u"knee"_s, GateMetricKind::Knee }, { u"saturation"_s, GateMetricKind::Saturation },
        { u"peak_throughput"_s, GateMetricKind::PeakThroughput } };
    if (const auto latency = compareMetricFromKey(name); latency && *latency != CompareMetric::Throughput
        && *latency != CompareMetric::OutputThroughput && *latency != CompareMetric::PrefixCacheHitRate) {
        c.kind = GateMetricKind::Latency;
        c.latency = *latency;
        if (statistic.isEmpty())
            return fail(u"name the statistic of %1: %1.mean, %1.median or a percentile such as %1.p99"_s.arg(name));
        const auto s = CompareStatistic::parse(statistic);
        if (!s)
            return fail(u"\"%1\" is not mean, median or a percentile such as p99 or p99.9"_s.arg(statistic));
        c.statistic = *s;
    } else if (const auto it = plain.find(name); it != plain.end()) {
        c.kind = it->second;
        if (!statistic.isEmpty())
            return fail(u"%1 has no statistic \"%2\"; write %1 alone"_s.arg(name, statistic));
    } else {
        return fail(u"unknown metric \"%1\"; use %2"_s.arg(c.metric, kMetricList));
    }

    static const QRegularExpression number(u"^([+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?)\\s*(.*)$"_s);
    const QRegularExpressionMatch m = number.match(change);
    bool ok = false;
    const double amount = m.hasMatch() ? m.captured(1).toDouble(&ok) : 0.0;
    if (!ok || !std::isfinite(amount))
        return fail(u"\"%1\" is not a change; write a percentage (+10%) or an amount in the metric's unit "
                    u"(+25ms)"_s.arg(change));
    const QString unit = m.captured(2).trimmed().toLower();
    const QString own = unitOf(c, false);
    if (unit == u"%") {
        c.relative = true;
        c.threshold = amount;
    } else {
        c.relative = false;
        c.threshold = amount;
        if (c.kind == GateMetricKind::Latency && unit == u"s")
            c.threshold = amount * 1000.0;
        else if (c.kind == GateMetricKind::ErrorRate && (unit == u"points" || unit == u"pp")) {
            // percentage points, the unit of error_rate
        } else if (!unit.isEmpty() && unit != own
            && !((c.kind == GateMetricKind::SloCapacity || c.kind == GateMetricKind::Knee
                     || c.kind == GateMetricKind::Saturation)
                && unit == u"users"))
            return fail(u"%1 is in %2, not \"%3\"; write a percentage (+10%) or an amount in %2"_s.arg(
                name, own == u"%" ? u"percentage points (+1)"_s : own, unit));
    }
    return c;
}

QString gateOutcomeWord(GateOutcome outcome)
{
    switch (outcome) {
    case GateOutcome::Pass:
        return u"pass"_s;
    case GateOutcome::Fail:
        return u"FAIL"_s;
    case GateOutcome::Noise:
        return u"noise"_s;
    case GateOutcome::Unknown:
        return u"unknown"_s;
    }
    return {};
}

std::vector<GateVerdict> evaluateGate(
    const SavedRun& base, const SavedRun& next, const std::vector<GateCondition>& conditions)
{
    // The findings read in English: the lines go to logs and files.
    const EnglishPhrases english;
    const AnalysisResult baseAnalysis = base.analyze();
    const AnalysisResult nextAnalysis = next.analyze();
    std::vector<GateVerdict> out;
    for (const GateCondition& c : conditions) {
        bool users = false;
        GateVerdict v = judge(base, next, baseAnalysis, nextAnalysis, c, users);
        word(v, users);
        out.push_back(std::move(v));
    }
    return out;
}

bool gateFailed(const std::vector<GateVerdict>& verdicts, bool unknownFails)
{
    return std::any_of(verdicts.begin(), verdicts.end(), [unknownFails](const GateVerdict& v) {
        return v.outcome == GateOutcome::Fail || (unknownFails && v.outcome == GateOutcome::Unknown);
    });
}

QByteArray gateJunitXml(
    const std::vector<GateVerdict>& verdicts, const SavedRun& base, const SavedRun& next, bool unknownFails)
{
    const auto countOf = [&](GateOutcome o) {
        return std::count_if(verdicts.begin(), verdicts.end(), [o](const GateVerdict& v) { return v.outcome == o; });
    };
    const auto count = [&](GateOutcome o) {
        if (unknownFails && o == GateOutcome::Fail)
            return QString::number(countOf(GateOutcome::Fail) + countOf(GateOutcome::Unknown));
        if (unknownFails && o == GateOutcome::Unknown)
            return QStringLiteral("0");
        return QString::number(countOf(o));
    };
    QByteArray bytes;
    QXmlStreamWriter xml(&bytes);
    xml.setAutoFormatting(true);
    xml.writeStartDocument();
    xml.writeStartElement(u"testsuites"_s);
    xml.writeAttribute(u"name"_s, u"kneepoint regression gate"_s);
    xml.writeAttribute(u"tests"_s, QString::number(verdicts.size()));
    xml.writeAttribute(u"failures"_s, count(GateOutcome::Fail));
    xml.writeAttribute(u"errors"_s, u"0"_s);
    xml.writeAttribute(u"skipped"_s, count(GateOutcome::Unknown));
    xml.writeStartElement(u"testsuite"_s);
    xml.writeAttribute(u"name"_s, u"%1 (%2) → %3 (%4)"_s.arg(base.name, base.id, next.name, next.id));
    xml.writeAttribute(u"tests"_s, QString::number(verdicts.size()));
    xml.writeAttribute(u"failures"_s, count(GateOutcome::Fail));
    xml.writeAttribute(u"errors"_s, u"0"_s);
    xml.writeAttribute(u"skipped"_s, count(GateOutcome::Unknown));
    xml.writeStartElement(u"properties"_s);
    for (const auto& [key, value] : { std::pair { u"base"_s, base.id }, std::pair { u"new"_s, next.id } }) {
        xml.writeStartElement(u"property"_s);
        xml.writeAttribute(u"name"_s, key);
        xml.writeAttribute(u"value"_s, value);
        xml.writeEndElement();
    }
    xml.writeEndElement();
    for (const GateVerdict& v : verdicts) {
        xml.writeStartElement(u"testcase"_s);
        xml.writeAttribute(u"classname"_s, u"kneepoint.compare"_s);
        xml.writeAttribute(u"name"_s, v.condition.text);
        if (v.outcome == GateOutcome::Fail) {
            xml.writeStartElement(u"failure"_s);
            xml.writeAttribute(u"message"_s, v.line);
            xml.writeAttribute(u"type"_s, u"regression"_s);
            xml.writeCharacters(v.line);
            xml.writeEndElement();
        } else if (v.outcome == GateOutcome::Unknown && unknownFails) {
            xml.writeStartElement(u"failure"_s);
            xml.writeAttribute(u"message"_s, v.line);
            xml.writeAttribute(u"type"_s, u"unknown"_s);
            xml.writeCharacters(v.line);
            xml.writeEndElement();
        } else if (v.outcome == GateOutcome::Unknown) {
            xml.writeStartElement(u"skipped"_s);
            xml.writeAttribute(u"message"_s, v.line);
            xml.writeEndElement();
        }
        xml.writeTextElement(u"system-out"_s, v.line);
        xml.writeEndElement();
    }
    xml.writeEndElement();
    xml.writeEndElement();
    xml.writeEndDocument();
    return bytes;
}

QJsonArray gateJson(const std::vector<GateVerdict>& verdicts)
{
    QJsonArray out;
    const auto optional = [](const std::optional<double>& v) { return v ? QJsonValue(*v) : QJsonValue(); };
    for (const GateVerdict& v : verdicts) {
        QJsonObject o;
        o.insert(u"condition"_s, v.condition.text);
        o.insert(u"metric"_s, v.condition.metric);
        o.insert(u"outcome"_s, gateOutcomeWord(v.outcome).toLower());
        o.insert(u"base"_s, optional(v.base));
        o.insert(u"new"_s, optional(v.next));
        o.insert(u"change"_s, optional(v.change));
        o.insert(u"relative"_s, v.condition.relative);
        o.insert(u"offered"_s, optional(v.offered));
        if (v.baseInterval && v.nextInterval) {
            o.insert(u"base_interval"_s, QJsonArray { v.baseInterval->low, v.baseInterval->high });
            o.insert(u"new_interval"_s, QJsonArray { v.nextInterval->low, v.nextInterval->high });
        }
        o.insert(u"line"_s, v.line);
        out.append(o);
    }
    return out;
}

} // namespace kp
