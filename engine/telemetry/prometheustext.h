#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QStringList>

#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace kp {

enum class PromType { Untyped, Counter, Gauge, Histogram, Summary };

// One sample line: name{labels} value [timestamp].
struct PromSample
{
    QByteArray name;
    std::vector<std::pair<QByteArray, QByteArray>> labels; // in the order written, values unescaped
    double value = 0.0;
    std::optional<qint64> timestampMs;

    // The value of a label, or a null QByteArray when the sample has none of that name.
    QByteArray label(QByteArrayView labelName) const;
    bool operator==(const PromSample&) const = default;
};

// A cumulative histogram as Prometheus writes it: (upper bound, observations <= bound), bounds
// ascending and the last one +Inf; count and sum of the observations.
struct PromHistogram
{
    std::vector<std::pair<double, double>> buckets;
    double count = 0.0;
    double sum = 0.0;

    bool isEmpty() const { return buckets.empty(); }
    // this - earlier, bucket by bucket (bounds matched by value; a bound missing from earlier counts 0).
    // A count or sum that went down (a server restart) gives this histogram unchanged.
    PromHistogram minus(const PromHistogram& earlier) const;
    // The q-quantile (0..1) as Prometheus' histogram_quantile() estimates it: linear within the
    // bucket, the highest finite bound when it falls in +Inf. None without observations.
    std::optional<double> quantile(double q) const;
    bool operator==(const PromHistogram&) const = default;
};

// The Prometheus text exposition format (0.0.4), parsed. Pure.
struct PromText
{
    std::vector<PromSample> samples; // in the order written
    std::map<QByteArray, PromType> types; // # TYPE, by family name
    std::map<QByteArray, QByteArray> help; // # HELP, by family name, unescaped
    int skippedLines = 0; // lines that are neither a comment nor a valid sample
    QStringList problems; // "line N: what is wrong", the first few skipped lines

    bool cut = false; // parsed by parseCut

    static PromText parse(QByteArrayView text);
    // The text of a body cut short at a size cap: the lines up to the last line break, without the
    // last metric family written (the cut may have left it incomplete: a histogram without its
    // +Inf bucket or _count, some label sets of a gauge missing).
    static PromText parseCut(QByteArrayView text);

    bool has(QByteArrayView name) const; // any sample of this exact name
    // The sum, over every sample of this exact name (all label sets), or none when there is none.
    // NaN values are skipped; an infinite value (or total) gives none, in sum, max and mean alike.
    std::optional<double> sum(QByteArrayView name) const;
    std::optional<double> max(QByteArrayView name) const;
    std::optional<double> mean(QByteArrayView name) const; // of the label sets
    // The histogram family `name` (samples name_bucket, name_sum, name_count), every label set but
    // `le` added together; empty when there is no name_bucket sample, or when a count is negative or
    // not finite, or the sum is not finite.
    PromHistogram histogram(QByteArrayView name) const;
    // The first value of a label on any sample of this name; null when none carries it.
    QByteArray labelOf(QByteArrayView name, QByteArrayView labelName) const;
    PromType typeOf(QByteArrayView family) const;
};

} // namespace kp
