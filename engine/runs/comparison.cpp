#include "runs/comparison.h"

#include "metrics/jsonvalues.h"
#include "metrics/phrase.h"
#include "profile/profile.h"
#include "sweep/analysiswords.h"
#include "sweep/serveranalysis.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>
#include <map>

namespace kp {

using namespace jsonvalues;

namespace {

QJsonValue findingValue(const Finding& f)
{
    if (!f.found)
        return QJsonValue(QJsonValue::Null);
    QJsonObject o;
    o.insert(QLatin1String("offered"), numberOrText(f.offered));
    o.insert(QLatin1String("achieved"), numberOrText(f.achieved));
    o.insert(QLatin1String("lower_bound"), f.lowerBound);
    o.insert(QLatin1String("reason"), f.reason.english());
    return o;
}

bool isSecretKey(const QString& leaf)
{
    static const QStringList secret = { QStringLiteral("api_key"), QStringLiteral("password"),
        QStringLiteral("authorization"), QStringLiteral("secret") };
    return secret.contains(leaf.toLower());
}

// Dotted keys of a JSON object; arrays are one value (compact JSON), headers show their names only.
void flatten(const QJsonObject& o, const QString& prefix, std::map<QString, QString>& out)
{
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString key = prefix + it.key();
        if (isSecretKey(it.key()))
            continue;
        const QJsonValue v = it.value();
        if (v.isObject()) {
            flatten(v.toObject(), key + QLatin1Char('.'), out);
        } else if (v.isArray()) {
            QJsonArray array = v.toArray();
            if (it.key() == QLatin1String("headers")) {
                QJsonArray names;
                for (const QJsonValue& h : array)
                    names.append(h.toObject().value(u"name"));
                array = names;
            }
            out[key] = QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Compact));
        } else if (v.isString()) {
            if (v.toString() == redactedPlaceholder())
                continue;
            out[key] = v.toString();
        } else if (v.isBool()) {
            out[key] = v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        } else if (v.isDouble()) {
            out[key] = QString::number(v.toDouble(), 'g', 15);
        } else if (v.isNull()) {
            out[key] = QStringLiteral("null");
        }
    }
}

CompareCurve curveOf(const SavedRun& run, CompareMetric metric, const CompareStatistic& statistic)
{
    CompareCurve curve;
    curve.id = run.id;
    curve.name = run.name;
    curve.predicted = run.predicted();
    const std::vector<SweepPoint> points = run.sweepPoints();
    curve.concurrencyMode = !points.empty() && points.front().concurrencyMode;
    // One side per run: the server's hit rate where any step has it, so one curve never mixes the two.
    const bool serverRate = metric == CompareMetric::PrefixCacheHitRate
        && std::any_of(
            points.begin(), points.end(), [](const SweepPoint& p) { return serverHitRate(p.server).has_value(); });
    auto valueOf = [&](const SweepPoint& p, QString* why) -> std::optional<double> {
        if (!serverRate)
            return compareValue(p.metrics, metric, statistic, why);
        if (const auto rate = serverHitRate(p.server))
            return *rate * 100.0;
        *why = phrase("Comparison", "the server reported no prefix-cache figures");
        return std::nullopt;
    };
    // Steps at the same load (repeats) become one point: the mean of their values.
    for (std::size_t i = 0; i < points.size();) {
        std::size_t j = i;
        double sum = 0;
        int count = 0;
        QString missing;
        while (j < points.size() && points[j].offered == points[i].offered) {
            QString why;
            if (const auto v = valueOf(points[j], &why)) {
                sum += *v;
                ++count;
            } else if (missing.isEmpty()) {
                missing = why;
            }
            ++j;
        }
        ComparePoint p;
        p.offered = points[i].offered;
        if (count > 0)
            p.value = sum / count;
        else
            p.missing = missing;
        curve.points.push_back(p);
        i = j;
    }
    return curve;
}

QString loadText(double load, bool users)
{
    return loadWord(load, users);
}

} // namespace

QString compareMetricKey(CompareMetric metric)
{
    switch (metric) {
    case CompareMetric::Ttft:
        return QStringLiteral("ttft");
    case CompareMetric::Tpot:
        return QStringLiteral("tpot");
    case CompareMetric::Itl:
        return QStringLiteral("itl");
    case CompareMetric::E2el:
        return QStringLiteral("e2el");
    case CompareMetric::Throughput:
        return QStringLiteral("throughput");
    case CompareMetric::OutputThroughput:
        return QStringLiteral("output_throughput");
    case CompareMetric::PrefixCacheHitRate:
        return QStringLiteral("prefix_cache_hit_rate");
    }
    return {};
}

QString compareMetricUnit(CompareMetric metric)
{
    switch (metric) {
    case CompareMetric::Throughput:
        return QStringLiteral("req/s");
    case CompareMetric::OutputThroughput:
        return QStringLiteral("tok/s");
    case CompareMetric::PrefixCacheHitRate:
        return QStringLiteral("%");
    default:
        return QStringLiteral("ms");
    }
}

std::optional<CompareMetric> compareMetricFromKey(QStringView key)
{
    QString k = key.trimmed().toString().toLower();
    k.replace(QLatin1Char('-'), QLatin1Char('_'));
    k.replace(QLatin1Char(' '), QLatin1Char('_'));
    if (k == QLatin1String("e2e_latency") || k == QLatin1String("e2e"))
        return CompareMetric::E2el;
    if (k == QLatin1String("request_throughput") || k == QLatin1String("rps"))
        return CompareMetric::Throughput;
    if (k == QLatin1String("output_token_throughput") || k == QLatin1String("tok/s"))
        return CompareMetric::OutputThroughput;
    if (k == QLatin1String("hit_rate") || k == QLatin1String("cache_hit_rate"))
        return CompareMetric::PrefixCacheHitRate;
    for (CompareMetric m : { CompareMetric::Ttft, CompareMetric::Tpot, CompareMetric::Itl, CompareMetric::E2el,
             CompareMetric::Throughput, CompareMetric::OutputThroughput, CompareMetric::PrefixCacheHitRate }) {
        if (k == compareMetricKey(m))
            return m;
    }
    return std::nullopt;
}

QString CompareStatistic::label() const
{
    switch (kind) {
    case Kind::Mean:
        return QStringLiteral("mean");
    case Kind::Median:
        return QStringLiteral("median");
    case Kind::Percentile:
        return QStringLiteral("P%1").arg(LatencyStats::percentileWord(percentile));
    }
    return {};
}

std::optional<CompareStatistic> CompareStatistic::parse(QStringView text)
{
    const QString t = text.trimmed().toString().toLower();
    CompareStatistic s;
    if (t == QLatin1String("mean") || t == QLatin1String("avg") || t == QLatin1String("average")) {
        s.kind = Kind::Mean;
        return s;
    }
    if (t == QLatin1String("median") || t == QLatin1String("p50") || t == QLatin1String("50")) {
        s.kind = Kind::Median;
        return s;
    }
    const auto p = LatencyStats::percentileFromWord(t.startsWith(QLatin1Char('p')) ? QStringView(t).mid(1) : t);
    if (!p)
        return std::nullopt;
    s.kind = Kind::Percentile;
    s.percentile = *p;
    return s;
}

std::optional<double> compareValue(
    const StepMetrics& m, CompareMetric metric, const CompareStatistic& statistic, QString* missing)
{
    // A figure the step's file did not give has no value to compare.
    const auto known = [&](double value) -> std::optional<double> {
        if (isKnown(value))
            return value;
        if (missing)
            *missing = phrase("Comparison", "not in the file");
        return std::nullopt;
    };
    if (metric == CompareMetric::Throughput)
        return known(m.requestThroughput);
    if (metric == CompareMetric::OutputThroughput)
        return known(m.outputThroughput);
    if (metric == CompareMetric::PrefixCacheHitRate) {
        if (const auto rate = clientHitRate(m))
            return *rate * 100.0;
        if (missing)
            *missing = phrase("Comparison", "no cached tokens reported");
        return std::nullopt;
    }
    const LatencyMetric latency = metric == CompareMetric::Ttft ? LatencyMetric::Ttft
        : metric == CompareMetric::Tpot                         ? LatencyMetric::Tpot
        : metric == CompareMetric::Itl                          ? LatencyMetric::Itl
                                                                : LatencyMetric::E2el;
    const LatencyStats& stats = m.stats(latency);
    const QString name = latencyMetricKey(latency).toUpper();
    if (!m.options.isSelected(latency) && (stats == LatencyStats {} || stats == LatencyStats::unknown())) {
        if (missing)
            *missing = phrase("Comparison", "%1 not recorded").arg(name);
        return std::nullopt;
    }
    switch (statistic.kind) {
    case CompareStatistic::Kind::Mean:
        return known(stats.mean);
    case CompareStatistic::Kind::Median:
        return known(stats.median);
    case CompareStatistic::Kind::Percentile:
        if (const auto v = stats.percentile(statistic.percentile); v && isKnown(*v))
            return v;
        if (missing) {
            QStringList recorded;
            for (const auto& [p, value] : stats.percentiles)
                recorded << QStringLiteral("P%1").arg(LatencyStats::percentileWord(p));
            *missing = recorded.isEmpty() ? phrase("Comparison", "%1 %2 not recorded").arg(statistic.label(), name)
                                          : phrase("Comparison", "%1 %2 not recorded (recorded: %3)")
                                                .arg(statistic.label(), name, recorded.join(QStringLiteral(", ")));
        }
        return std::nullopt;
    }
    return std::nullopt;
}

std::optional<double> interpolate(const std::vector<double>& x, const std::vector<double>& y, double at)
{
    if (x.empty() || x.size() != y.size() || at < x.front() || at > x.back())
        return std::nullopt;
    const auto upper = std::lower_bound(x.begin(), x.end(), at);
    const std::size_t i = std::size_t(upper - x.begin());
    if (x[i] == at)
        return y[i];
    const double x0 = x[i - 1], x1 = x[i];
    if (std::isinf(x1))
        return std::nullopt;
    return y[i - 1] + (y[i] - y[i - 1]) * (at - x0) / (x1 - x0);
}

Comparison compareRuns(
    const std::vector<SavedRun>& runs, int baseline, CompareMetric metric, const CompareStatistic& statistic)
{
    Comparison c;
    c.metric = metric;
    c.statistic = statistic;
    c.baseline = std::clamp(baseline, 0, std::max(0, int(runs.size()) - 1));
    for (const SavedRun& run : runs) {
        c.curves.push_back(curveOf(run, metric, statistic));
        c.analyses.push_back(run.analyze());
    }
    if (runs.empty())
        return c;

    const CompareCurve& base = c.curves[std::size_t(c.baseline)];
    std::vector<double> bx, by;
    for (const ComparePoint& p : base.points) {
        if (p.value) {
            bx.push_back(p.offered);
            by.push_back(*p.value);
        }
    }
    const QString range = bx.empty()
        ? QString()
        : QStringLiteral("%1 to %2")
              .arg(loadText(bx.front(), base.concurrencyMode), loadText(bx.back(), base.concurrencyMode));
    for (std::size_t r = 0; r < c.curves.size(); ++r) {
        std::vector<CompareDelta> deltas;
        if (int(r) != c.baseline) {
            const CompareCurve& curve = c.curves[r];
            for (const ComparePoint& p : curve.points) {
                CompareDelta d;
                d.offered = p.offered;
                d.value = p.value;
                if (curve.concurrencyMode != base.concurrencyMode) {
                    d.reason = phrase("Comparison", "the baseline is measured in %1, this run in %2")
                                   .arg(base.concurrencyMode ? QStringLiteral("users") : QStringLiteral("req/s"),
                                       curve.concurrencyMode ? QStringLiteral("users") : QStringLiteral("req/s"));
                } else if (bx.empty()) {
                    d.reason = phrase("Comparison", "the baseline has no %1 %2 values")
                                   .arg(statistic.label(), compareMetricKey(metric));
                } else if (const auto b = interpolate(bx, by, p.offered)) {
                    d.baselineValue = b;
                    d.interpolated = std::find(bx.begin(), bx.end(), p.offered) == bx.end();
                    if (!p.value)
                        d.reason = p.missing;
                    else if (*b == 0)
                        d.reason = phrase("Comparison", "the baseline's value is 0");
                    else
                        d.percent = (*p.value - *b) / *b * 100.0;
                } else {
                    d.reason = phrase("Comparison", "outside the baseline's range (%1)").arg(range);
                }
                deltas.push_back(d);
            }
        }
        c.deltas.push_back(std::move(deltas));
    }

    std::vector<std::map<QString, QString>> flat(runs.size());
    std::map<QString, bool> keys;
    for (std::size_t r = 0; r < runs.size(); ++r) {
        flatten(runs[r].document.profile.value_or(QJsonObject()), QStringLiteral("profile."), flat[r]);
        flatten(runs[r].environment, QStringLiteral("environment."), flat[r]);
        for (const auto& [key, value] : flat[r])
            keys[key] = true;
    }
    for (const auto& [key, unused] : keys) {
        SettingDifference d;
        d.key = key;
        bool differs = false;
        for (std::size_t r = 0; r < runs.size(); ++r) {
            const auto it = flat[r].find(key);
            const QString v = it == flat[r].end() ? QString() : it->second;
            if (r > 0 && (v != d.values.constFirst() || (it == flat[r].end()) != (flat[0].find(key) == flat[0].end())))
                differs = true;
            d.values << v;
        }
        if (differs)
            c.differences.push_back(d);
    }
    return c;
}

QJsonObject comparisonJson(const Comparison& c)
{
    QJsonObject out;
    out.insert(QLatin1String("metric"), compareMetricKey(c.metric));
    out.insert(QLatin1String("unit"), compareMetricUnit(c.metric));
    const bool throughput = c.metric == CompareMetric::Throughput || c.metric == CompareMetric::OutputThroughput;
    out.insert(QLatin1String("statistic"), throughput ? QJsonValue(QJsonValue::Null) : QJsonValue(c.statistic.label()));
    out.insert(QLatin1String("baseline"), c.baseline);
    QJsonArray runs;
    for (std::size_t r = 0; r < c.curves.size(); ++r) {
        const CompareCurve& curve = c.curves[r];
        QJsonObject run;
        run.insert(QLatin1String("id"), curve.id);
        run.insert(QLatin1String("name"), curve.name);
        run.insert(QLatin1String("predicted"), curve.predicted);
        run.insert(
            QLatin1String("load_unit"), curve.concurrencyMode ? QStringLiteral("users") : QStringLiteral("req/s"));
        QJsonArray points;
        for (std::size_t i = 0; i < curve.points.size(); ++i) {
            const ComparePoint& p = curve.points[i];
            QJsonObject o;
            o.insert(QLatin1String("offered"), numberOrText(p.offered));
            o.insert(QLatin1String("value"), numberOrText(p.value));
            if (!p.missing.isEmpty())
                o.insert(QLatin1String("missing"), p.missing);
            if (int(r) != c.baseline && i < c.deltas[r].size()) {
                const CompareDelta& d = c.deltas[r][i];
                o.insert(QLatin1String("baseline_value"), numberOrText(d.baselineValue));
                o.insert(QLatin1String("interpolated"), d.interpolated);
                o.insert(QLatin1String("delta_percent"), numberOrText(d.percent));
                if (!d.reason.isEmpty())
                    o.insert(QLatin1String("reason"), d.reason);
            }
            points.append(o);
        }
        run.insert(QLatin1String("points"), points);
        if (r < c.analyses.size()) {
            const AnalysisResult& a = c.analyses[r];
            QJsonObject analysis;
            analysis.insert(QLatin1String("knee"), findingValue(a.knee));
            analysis.insert(QLatin1String("saturation"), findingValue(a.saturation));
            analysis.insert(QLatin1String("slo_capacity"), findingValue(a.sloCapacity));
            analysis.insert(QLatin1String("peak_throughput"),
                a.peakStep >= 0 ? numberOrText(a.peakThroughput) : QJsonValue(QJsonValue::Null));
            QJsonObject reasons;
            for (const auto& [key, f] : { std::pair { "knee", &a.knee }, std::pair { "saturation", &a.saturation },
                     std::pair { "slo_capacity", &a.sloCapacity } }) {
                if (!f->found)
                    reasons.insert(QLatin1String(key), f->reason.english());
            }
            analysis.insert(QLatin1String("reasons"), reasons);
            run.insert(QLatin1String("analysis"), analysis);
        }
        runs.append(run);
    }
    out.insert(QLatin1String("runs"), runs);
    QJsonArray differences;
    for (const SettingDifference& d : c.differences) {
        QJsonObject o;
        o.insert(QLatin1String("key"), d.key);
        QJsonArray values;
        for (const QString& v : d.values)
            values.append(v.isNull() ? QJsonValue(QJsonValue::Null) : QJsonValue(v));
        o.insert(QLatin1String("values"), values);
        differences.append(o);
    }
    out.insert(QLatin1String("differences"), differences);
    return out;
}

QByteArray comparisonCsv(const Comparison& c)
{
    auto field = [](const QString& text) {
        if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')))
            return text;
        QString quoted = text;
        quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
        return QLatin1Char('"') + quoted + QLatin1Char('"');
    };
    auto num = [](const std::optional<double>& v) {
        if (!v)
            return QString();
        if (std::isinf(*v))
            return QStringLiteral("inf");
        return QString::number(*v, 'g', 10);
    };
    QString out = QStringLiteral("run,name,load_unit,offered,%1_%2,baseline,delta_percent,note,predicted\n")
                      .arg(compareMetricKey(c.metric), c.statistic.label().toLower());
    for (std::size_t r = 0; r < c.curves.size(); ++r) {
        const CompareCurve& curve = c.curves[r];
        for (std::size_t i = 0; i < curve.points.size(); ++i) {
            const ComparePoint& p = curve.points[i];
            const CompareDelta* d = int(r) != c.baseline && i < c.deltas[r].size() ? &c.deltas[r][i] : nullptr;
            QString note = p.missing;
            if (d && !d->reason.isEmpty())
                note = d->reason;
            else if (d && d->interpolated)
                note = QStringLiteral("baseline interpolated");
            else if (int(r) == c.baseline)
                note = QStringLiteral("baseline");
            out += QStringList { field(curve.id), field(curve.name),
                curve.concurrencyMode ? QStringLiteral("users") : QStringLiteral("req/s"), num(p.offered), num(p.value),
                d ? num(d->baselineValue) : QString(), d ? num(d->percent) : QString(), field(note),
                curve.predicted ? QStringLiteral("true") : QStringLiteral("false") }
                       .join(QLatin1Char(','))
                + QLatin1Char('\n');
        }
    }
    return out.toUtf8();
}

} // namespace kp
