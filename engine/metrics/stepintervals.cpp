#include "metrics/stepintervals.h"

#include "metrics/latencystats.h"
#include "metrics/stepmetrics.h"

#include <QJsonArray>
#include <QStringList>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>

namespace kp {

using namespace Qt::StringLiterals;

namespace {

constexpr std::array kLatencyKeys { std::pair { LatencyMetric::Ttft, "ttft" },
    std::pair { LatencyMetric::Tpot, "tpot" }, std::pair { LatencyMetric::Itl, "itl" },
    std::pair { LatencyMetric::E2el, "e2el" } };

// Student's t at 0.975 for 1..30 degrees of freedom; 1.96 beyond.
double tQuantile975(int df)
{
    static constexpr std::array<double, 30> table { 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262,
        2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060,
        2.056, 2.052, 2.048, 2.045, 2.042 };
    return df >= 1 && df <= 30 ? table[std::size_t(df - 1)] : 1.96;
}

} // namespace

std::optional<Interval> StepIntervals::find(QStringView key) const
{
    const auto it = figures.find(key.toString());
    if (it == figures.end())
        return std::nullopt;
    return it->second;
}

QString intervalMethodKey(StepIntervals::Method method)
{
    switch (method) {
    case StepIntervals::Method::Bootstrap:
        return u"bootstrap"_s;
    case StepIntervals::Method::Repeats:
        return u"repeats"_s;
    case StepIntervals::Method::None:
        break;
    }
    return {};
}

std::optional<StepIntervals::Method> intervalMethodFromKey(QStringView key)
{
    if (key == u"bootstrap")
        return StepIntervals::Method::Bootstrap;
    if (key == u"repeats")
        return StepIntervals::Method::Repeats;
    return std::nullopt;
}

QJsonObject intervalsJson(const StepIntervals& intervals)
{
    QJsonObject out;
    if (intervals.method == StepIntervals::Method::None)
        return out;
    out.insert(u"method"_s, intervalMethodKey(intervals.method));
    out.insert(u"level"_s, intervals.level);
    if (intervals.method == StepIntervals::Method::Bootstrap) {
        out.insert(u"resamples"_s, intervals.samples);
        out.insert(u"seed"_s, QString::number(intervals.seed)); // a string: JSON numbers lose 64-bit integers
    } else {
        out.insert(u"trials"_s, intervals.samples);
    }
    QJsonObject figures;
    for (const auto& [key, i] : intervals.figures)
        figures.insert(key, QJsonArray { i.low, i.high });
    out.insert(u"figures"_s, figures);
    return out;
}

StepIntervals intervalsFromJson(const QJsonObject& object, QString* warning)
{
    StepIntervals out;
    if (object.isEmpty())
        return out;
    const auto method = intervalMethodFromKey(object.value(u"method").toString());
    if (!method) {
        if (warning)
            *warning = u"method: expected \"bootstrap\" or \"repeats\""_s;
        return out;
    }
    out.method = *method;
    out.level = object.value(u"level").toDouble(0.95);
    out.samples = object.value(*method == StepIntervals::Method::Bootstrap ? u"resamples" : u"trials").toInt(0);
    out.seed = object.value(u"seed").toString().toULongLong();
    const QJsonObject figures = object.value(u"figures").toObject();
    QStringList bad;
    for (auto it = figures.begin(); it != figures.end(); ++it) {
        const QJsonArray pair = it.value().toArray();
        if (pair.size() != 2 || !pair[0].isDouble() || !pair[1].isDouble() || pair[0].toDouble() > pair[1].toDouble()) {
            bad << it.key();
            continue;
        }
        out.figures[it.key()] = Interval { pair[0].toDouble(), pair[1].toDouble() };
    }
    if (warning && !bad.isEmpty())
        *warning = u"figures: %1: expected [low, high] with low <= high"_s.arg(bad.join(u", "_s));
    return out;
}

std::map<QString, double> intervalFigures(const StepMetrics& m)
{
    std::map<QString, double> out;
    auto put = [&](const QString& key, double v) {
        if (isKnown(v) && std::isfinite(v))
            out[key] = v;
    };
    put(u"request_throughput"_s, m.requestThroughput);
    put(u"output_throughput"_s, m.outputThroughput);
    if (m.requestGoodput)
        put(u"request_goodput"_s, *m.requestGoodput);
    for (const auto& [metric, name] : kLatencyKeys) {
        const LatencyStats& s = m.stats(metric);
        if (s.count == 0)
            continue;
        const QString suffix = u"_%1_ms"_s.arg(QLatin1String(name));
        put(u"mean"_s + suffix, s.mean);
        put(u"median"_s + suffix, s.median);
        for (const auto& [p, v] : s.percentiles)
            put(u"p"_s + LatencyStats::percentileWord(p) + suffix, v);
    }
    return out;
}

StepIntervals bootstrapIntervals(const std::vector<RequestRecord>& records, double durationS,
    const MetricsOptions& options, const StepMetrics& point, quint64 seed)
{
    StepIntervals out;
    if (point.completed < 2 || records.size() < 2)
        return out;
    const std::map<QString, double> estimates = intervalFigures(point);
    const qint64 n = qint64(records.size());
    const int resamples = int(std::clamp<qint64>(kBootstrapBudget / n, kMinResamples, kMaxResamples));
    MetricsOptions lean = options;
    lean.lengthBucketEdges.clear(); // the buckets are not given intervals; they only cost time

    // std::mt19937_64 is specified to the bit; the index is drawn by hand, since the standard's
    // distributions may differ between libraries.
    std::mt19937_64 random(seed);
    std::map<QString, std::vector<double>> draws;
    std::vector<RequestRecord> sample(records.size());
    for (int b = 0; b < resamples; ++b) {
        for (RequestRecord& r : sample)
            r = records[std::size_t(random() % quint64(n))];
        const StepMetrics m = StepMetrics::fromRecords(sample, durationS, lean);
        for (const auto& [key, v] : intervalFigures(m))
            draws[key].push_back(v);
    }
    for (auto& [key, values] : draws) {
        const auto estimate = estimates.find(key);
        // A figure some resamples lack (every drawn request failed) has no interval of this kind.
        if (estimate == estimates.end() || int(values.size()) != resamples)
            continue;
        std::sort(values.begin(), values.end());
        Interval i { LatencyStats::numpyPercentile(values, 2.5), LatencyStats::numpyPercentile(values, 97.5) };
        i.low = std::min(i.low, estimate->second);
        i.high = std::max(i.high, estimate->second);
        out.figures[key] = i;
    }
    out.method = StepIntervals::Method::Bootstrap;
    out.samples = resamples;
    out.seed = seed;
    return out;
}

StepIntervals repeatIntervals(const std::vector<const StepMetrics*>& trials)
{
    StepIntervals out;
    if (trials.size() < 2)
        return out;
    std::map<QString, std::vector<double>> values;
    for (const StepMetrics* m : trials) {
        for (const auto& [key, v] : intervalFigures(*m))
            values[key].push_back(v);
    }
    for (const auto& [key, v] : values) {
        if (v.size() != trials.size())
            continue; // a figure one trial lacks
        const double n = double(v.size());
        double mean = 0;
        for (double x : v)
            mean += x / n;
        double ss = 0;
        for (double x : v)
            ss += (x - mean) * (x - mean);
        const double half = tQuantile975(int(v.size()) - 1) * std::sqrt(ss / (n - 1)) / std::sqrt(n);
        // Every figure is a rate or a latency: two trials far apart must not give a negative bound
        out.figures[key] = Interval { std::max(0.0, mean - half), mean + half };
    }
    out.method = StepIntervals::Method::Repeats;
    out.samples = int(trials.size());
    return out;
}

} // namespace kp
