#pragma once

#include "runs/savedrun.h"
#include "sweep/kneeanalysis.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QStringView>

#include <optional>
#include <vector>

namespace kp {

// What the curves of a comparison show.
// PrefixCacheHitRate: in percent; the server's figure (its /metrics) where the run has one, else the
// client's (cached tokens the responses reported, over input tokens).
enum class CompareMetric { Ttft, Tpot, Itl, E2el, Throughput, OutputThroughput, PrefixCacheHitRate };
// "ttft", "tpot", "itl", "e2el", "throughput", "output_throughput", "prefix_cache_hit_rate"
QString compareMetricKey(CompareMetric metric);
QString compareMetricUnit(CompareMetric metric); // "ms", "req/s", "tok/s", "%"
// Also "output-throughput", "e2e_latency", "request_throughput", "hit_rate", "cache_hit_rate".
std::optional<CompareMetric> compareMetricFromKey(QStringView key);

// Which statistic of a latency distribution: the mean, the median or a percentile. Throughputs have one value.
struct CompareStatistic
{
    enum class Kind { Mean, Median, Percentile };
    Kind kind = Kind::Percentile;
    double percentile = 99;

    QString label() const; // "mean", "median", "P99", "P99.9"
    // "mean", "median", "p99", "99", "99.9", "P95"; nullopt otherwise.
    static std::optional<CompareStatistic> parse(QStringView text);
    bool operator==(const CompareStatistic&) const = default;
};

struct ComparePoint
{
    double offered = 0.0; // req/s or users; steps at the same load are averaged into one point
    std::optional<double> value;
    QString missing; // why there is no value ("P95 TTFT not recorded")
};

struct CompareCurve
{
    QString id, name;
    bool concurrencyMode = false;
    bool predicted = false; // a twin's prediction (SavedRun::predicted), not a measurement
    std::vector<ComparePoint> points; // by offered load
};

// One point of a run against the baseline at the same offered load.
struct CompareDelta
{
    double offered = 0.0;
    std::optional<double> value;
    std::optional<double> baselineValue; // the baseline's value at this load, interpolated where needed
    bool interpolated = false; // the baseline has no step at exactly this load
    std::optional<double> percent; // (value - baseline) / baseline × 100
    QString reason; // why there is no delta
};

// A setting or environment value that differs between the runs.
struct SettingDifference
{
    QString key; // "profile.load.max_concurrency", "environment.os"
    QStringList values; // one per run, in run order; empty when the run does not have it
};

struct Comparison
{
    CompareMetric metric = CompareMetric::Ttft;
    CompareStatistic statistic;
    int baseline = 0;
    std::vector<CompareCurve> curves; // one per run, in run order
    std::vector<std::vector<CompareDelta>> deltas; // one list per run, in its load order; empty for the baseline
    std::vector<AnalysisResult> analyses; // SavedRun::analyze() of each run
    std::vector<SettingDifference> differences;
};

// Pure: the curves, the deltas against runs[baseline] (linear interpolation between the baseline's two
// neighbouring loads, never extrapolated), each run's analysis and the differences of their profile
// snapshots and environments (secrets are never shown).
Comparison compareRuns(
    const std::vector<SavedRun>& runs, int baseline, CompareMetric metric, const CompareStatistic& statistic);

// The value of a metric in one step; nullopt with `missing` set when the step does not record it. The
// prefix-cache hit rate from the step's metrics alone is the client's figure.
std::optional<double> compareValue(
    const StepMetrics& metrics, CompareMetric metric, const CompareStatistic& statistic, QString* missing = nullptr);

// Linear interpolation on (x ascending, y) at x; nullopt outside [x.front(), x.back()].
std::optional<double> interpolate(const std::vector<double>& x, const std::vector<double>& y, double at);

// The comparison as one JSON object (what `kneepoint-cli compare --json` prints) and as CSV (one row per
// run and load: run, offered, value, baseline, delta %). Its reasons are phrases: for these files, build
// the comparison inside an EnglishPhrases scope.
QJsonObject comparisonJson(const Comparison& comparison);
QByteArray comparisonCsv(const Comparison& comparison);

} // namespace kp
