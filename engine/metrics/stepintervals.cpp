#include "metrics/stepintervals.h"

#include "metrics/latencystats.h"
#include "metrics/requestlatencies.h"
#include "metrics/stepmetrics.h"

#include <QJsonArray>
#include <QStringList>

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <limits>
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

namespace {

// One latency distribution of the step prepared for resampling by counts: its values sorted once, each with
// the request it came from, and each request's sum and number of values. A resample is a count per request
// (how often it was drawn); its k-th smallest value is found by walking the sorted values and adding up
// their requests' counts, and for a pooled distribution (ITL: many values per request) the walk starts at
// an anchor below the rank, whose weight is the sum over requests of count × values below the anchor.
class ResampledDistribution
{
public:
    struct Entry
    {
        double value;
        quint32 request;
    };

    ResampledDistribution(std::vector<Entry> entries, std::vector<double> sums, std::vector<quint32> counts,
        const std::vector<double>& percentiles)
        : m_sorted(std::move(entries))
        , m_sums(std::move(sums))
        , m_counts(std::move(counts))
    {
        std::sort(m_sorted.begin(), m_sorted.end(), [](const Entry& a, const Entry& b) { return a.value < b.value; });
        placeAnchors(percentiles);
    }

    // The resample's number of values and their sum.
    std::pair<quint64, double> total(const std::vector<quint32>& drawn) const
    {
        quint64 count = 0;
        double sum = 0.0;
        for (std::size_t i = 0; i < drawn.size(); ++i) {
            if (drawn[i] == 0 || m_counts[i] == 0)
                continue;
            count += quint64(drawn[i]) * m_counts[i];
            sum += double(drawn[i]) * m_sums[i];
        }
        return { count, sum };
    }

    // The values at `ranks` (increasing, each below the resample's count) of the resample's sorted values.
    void select(const std::vector<quint32>& drawn, const std::vector<std::size_t>& ranks, std::vector<double>& out)
    {
        out.resize(ranks.size());
        std::fill(m_anchorWeight.begin(), m_anchorWeight.end(), kNotWeighed);
        std::size_t at = 0;
        quint64 below = 0; // the resample's values before m_sorted[at]
        for (std::size_t k = 0; k < ranks.size(); ++k) {
            const quint64 rank = ranks[k];
            for (std::size_t a = 0; a < m_anchors.size(); ++a) {
                if (m_anchors[a].position <= at)
                    continue;
                if (m_anchorWeight[a] == kNotWeighed)
                    m_anchorWeight[a] = weigh(m_anchors[a], drawn);
                if (m_anchorWeight[a] > rank)
                    break;
                at = m_anchors[a].position;
                below = m_anchorWeight[a];
            }
            for (;;) {
                const quint64 next = below + drawn[m_sorted[at].request];
                if (rank < next)
                    break;
                below = next;
                ++at;
            }
            out[k] = m_sorted[at].value;
        }
    }

private:
    struct Anchor
    {
        std::size_t position;
        std::vector<quint32> below; // per request: its values before `position`
    };
    static constexpr quint64 kNotWeighed = std::numeric_limits<quint64>::max();
    // Anchors pay off only where the values outnumber the requests (weighing one costs a pass over them).
    static constexpr std::size_t kValuesPerRequestForAnchors = 8;
    static constexpr double kAnchorMarginSigmas = 6.0;

    quint64 weigh(const Anchor& anchor, const std::vector<quint32>& drawn) const
    {
        quint64 weight = 0;
        for (std::size_t i = 0; i < drawn.size(); ++i)
            weight += quint64(drawn[i]) * anchor.below[i];
        return weight;
    }

    // One anchor per percentile, below its rank in the step by six standard deviations of where a resample
    // moves it (the spread of sum(count × (values below − q × values)) over requests drawn about once each),
    // so that a resample's walk rarely starts further back; when it would, an earlier anchor or the start serves.
    void placeAnchors(const std::vector<double>& percentiles)
    {
        const std::size_t n = m_counts.size();
        if (m_sorted.empty() || m_sorted.size() < kValuesPerRequestForAnchors * n)
            return;
        std::vector<std::pair<std::size_t, double>> targets; // (rank in the step, q)
        for (double p : percentiles)
            targets.emplace_back(numpyPercentileRank(m_sorted.size(), p).lower, std::clamp(p, 0.0, 100.0) / 100);
        std::sort(targets.begin(), targets.end());
        std::vector<std::size_t> positions;
        std::vector<quint32> below(n, 0);
        std::size_t at = 0;
        for (const auto& [rank, q] : targets) {
            for (; at < rank; ++at)
                ++below[m_sorted[at].request];
            double variance = 0.0;
            for (std::size_t i = 0; i < n; ++i) {
                const double d = double(below[i]) - q * double(m_counts[i]);
                variance += d * d;
            }
            const double margin = std::ceil(kAnchorMarginSigmas * std::sqrt(variance)) + 1.0;
            if (margin < double(rank))
                positions.push_back(rank - std::size_t(margin));
        }
        std::sort(positions.begin(), positions.end());
        positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
        std::fill(below.begin(), below.end(), 0);
        at = 0;
        for (std::size_t position : positions) {
            for (; at < position; ++at)
                ++below[m_sorted[at].request];
            m_anchors.push_back(Anchor { position, below });
        }
        m_anchorWeight.assign(m_anchors.size(), kNotWeighed);
    }

    std::vector<Entry> m_sorted;
    std::vector<double> m_sums;
    std::vector<quint32> m_counts;
    std::vector<Anchor> m_anchors;
    std::vector<quint64> m_anchorWeight; // per resample
};

} // namespace

// The percentile bootstrap of stepintervals.h, computed from how often each request was drawn rather than
// from copies of the drawn records: throughputs and means are sums of count × the request's share, ranks
// are read from each distribution's values sorted once (ResampledDistribution). The draws are those of
// resampling the records one by one, and the figures those of StepMetrics::fromRecords over the drawn
// records (tst_metrics compares the two), at O(requests + a window of values) per resample after one sort
// instead of a copy of the records and a sort of every token gap per resample.
StepIntervals bootstrapIntervals(const std::vector<RequestRecord>& records, double durationS,
    const MetricsOptions& options, const StepMetrics& point, quint64 seed)
{
    StepIntervals out;
    if (point.completed < 2 || records.size() < 2)
        return out;
    const std::map<QString, double> estimates = intervalFigures(point);
    const std::size_t n = records.size();
    const int resamples = int(std::clamp<qint64>(kBootstrapBudget / qint64(n), kMinResamples, kMaxResamples));

    // What each request contributes, by the formulas of StepMetrics::fromRecords (RequestLatencies).
    std::vector<quint8> completed(n, 0);
    std::vector<quint8> good(n, 0);
    std::vector<qint64> outputTokens(n, 0);
    constexpr std::size_t kMetrics = std::size(kLatencyKeys);
    std::array<std::vector<ResampledDistribution::Entry>, kMetrics> entries;
    std::array<std::vector<double>, kMetrics> sums;
    std::array<std::vector<quint32>, kMetrics> counts;
    for (std::size_t m = 0; m < kMetrics; ++m) {
        sums[m].assign(n, 0.0);
        counts[m].assign(n, 0);
    }
    const auto add = [&](std::size_t m, std::size_t i, double v) {
        entries[m].push_back({ v, quint32(i) });
        sums[m][i] += v;
        ++counts[m][i];
    };
    for (std::size_t i = 0; i < n; ++i) {
        const RequestRecord& r = records[i];
        if (!r.success())
            continue;
        completed[i] = 1;
        outputTokens[i] = r.outputTokens;
        if (r.sentNs < 0)
            continue;
        const RequestLatencies l = RequestLatencies::of(r, options);
        good[i] = l.good ? 1 : 0;
        if (l.hasTtft)
            add(0, i, l.ttftMs);
        if (l.hasTpot)
            add(1, i, l.tpotMs);
        for (std::size_t c = 1; c < r.chunkNs.size(); ++c)
            add(2, i, RequestLatencies::itlMs(r, c));
        add(3, i, l.e2elMs);
    }
    static_assert(kLatencyKeys[0].first == LatencyMetric::Ttft && kLatencyKeys[1].first == LatencyMetric::Tpot
        && kLatencyKeys[2].first == LatencyMetric::Itl && kLatencyKeys[3].first == LatencyMetric::E2el);

    // The figures as intervalFigures names them; a figure gets an interval when the step has it and every
    // resample has it too (one whose drawn requests all failed has no latency).
    std::vector<double> percentiles;
    std::vector<QString> percentileWords;
    for (double p : options.percentiles) {
        const QString word = LatencyStats::percentileWord(p);
        if (std::find(percentileWords.begin(), percentileWords.end(), word) == percentileWords.end()) {
            percentiles.push_back(p);
            percentileWords.push_back(word);
        }
    }
    std::vector<ResampledDistribution> distributions;
    std::vector<double> anchorPercentiles = percentiles;
    anchorPercentiles.push_back(50.0);
    for (std::size_t m = 0; m < kMetrics; ++m)
        distributions.emplace_back(std::move(entries[m]), std::move(sums[m]), std::move(counts[m]), anchorPercentiles);

    std::map<QString, std::vector<double>> draws;
    const auto draw = [&](const QString& key, double v) {
        if (isKnown(v) && std::isfinite(v))
            draws[key].push_back(v);
    };
    std::vector<quint32> drawn(n);
    std::vector<std::size_t> ranks;
    std::vector<double> selected;
    // std::mt19937_64 is specified to the bit; the index is drawn by hand, since the standard's
    // distributions may differ between libraries. The draws are those of resampling the records one by one.
    std::mt19937_64 random(seed);
    for (int b = 0; b < resamples; ++b) {
        std::fill(drawn.begin(), drawn.end(), 0);
        for (std::size_t k = 0; k < n; ++k)
            ++drawn[std::size_t(random() % quint64(n))];
        qint64 completedCount = 0;
        qint64 goodCount = 0;
        qint64 tokens = 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (drawn[i] == 0 || !completed[i])
                continue;
            completedCount += drawn[i];
            goodCount += good[i] ? drawn[i] : 0;
            tokens += qint64(drawn[i]) * outputTokens[i];
        }
        draw(u"request_throughput"_s, durationS > 0.0 ? double(completedCount) / durationS : 0.0);
        draw(u"output_throughput"_s, durationS > 0.0 ? double(tokens) / durationS : 0.0);
        if (options.hasSlos())
            draw(u"request_goodput"_s, durationS > 0.0 ? double(goodCount) / durationS : 0.0);
        quint64 ttftCount = 0;
        for (std::size_t m = 0; m < kMetrics; ++m) {
            ResampledDistribution& d = distributions[m];
            const auto [count, sum] = d.total(drawn);
            if (m == 0)
                ttftCount = count;
            // As fromRecords: no value, no statistics; without a first token, TPOT and ITL are unknown.
            if (count == 0 || ((m == 1 || m == 2) && ttftCount == 0))
                continue;
            statisticRanks(std::size_t(count), percentiles, ranks);
            d.select(drawn, ranks, selected);
            const auto at = [&](quint64 rank) {
                return selected[std::size_t(std::lower_bound(ranks.begin(), ranks.end(), rank) - ranks.begin())];
            };
            const QString suffix = u"_%1_ms"_s.arg(QLatin1String(kLatencyKeys[m].second));
            draw(u"mean"_s + suffix, sum / double(count));
            double median = at(count / 2);
            if (count % 2 == 0) {
                const double pair[2] = { at(count / 2 - 1), median };
                median = LatencyStats::numpySum(pair, 2) / 2.0;
            }
            draw(u"median"_s + suffix, median);
            for (std::size_t p = 0; p < percentiles.size(); ++p) {
                const PercentileRank rank = numpyPercentileRank(count, percentiles[p]);
                draw(u"p"_s + percentileWords[p] + suffix, numpyLerp(at(rank.lower), at(rank.upper), rank.fraction));
            }
        }
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
