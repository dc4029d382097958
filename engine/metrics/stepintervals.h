#pragma once

#include "metrics/requestrecord.h"

#include <QJsonObject>
#include <QString>
#include <QStringView>

#include <map>
#include <optional>
#include <vector>

namespace kp {

struct StepMetrics;
struct MetricsOptions;

// A 95 % confidence interval of one figure.
struct Interval
{
    double low = 0.0;
    double high = 0.0;
    bool contains(double v) const { return low <= v && v <= high; }
    bool overlaps(const Interval& o) const { return low <= o.high && o.low <= high; }
    bool operator==(const Interval&) const = default;
};

// The confidence intervals of a step's figures, keyed as the result file keys the figure itself:
// "request_throughput", "output_throughput", "request_goodput", "mean_ttft_ms", "median_tpot_ms",
// "p99_itl_ms", "p99.9_e2el_ms", ... (the percentiles the step reports).
struct StepIntervals
{
    enum class Method {
        None,
        Bootstrap, // one trial: its requests resampled with replacement
        Repeats, // a repeated load: Student's t over the trials' values
    };
    Method method = Method::None;
    int samples = 0; // bootstrap: resamples; repeats: trials
    quint64 seed = 0; // bootstrap: the seed of its random draws
    double level = 0.95;
    std::map<QString, Interval> figures;

    bool isEmpty() const { return figures.empty(); }
    std::optional<Interval> find(QStringView key) const;
    bool operator==(const StepIntervals&) const = default;
};

QString intervalMethodKey(StepIntervals::Method method); // "", "bootstrap", "repeats"
std::optional<StepIntervals::Method> intervalMethodFromKey(QStringView key);

// {"method": "bootstrap", "level": 0.95, "resamples": 200, "seed": 20261202, "figures": {"p99_ttft_ms":
// [low, high], ...}}; a repeated load says "method": "repeats", "trials": N instead. Empty: {}.
QJsonObject intervalsJson(const StepIntervals& intervals);
// Inverse of intervalsJson; a part it does not understand is left out and named in *warning.
StepIntervals intervalsFromJson(const QJsonObject& object, QString* warning = nullptr);

// The figures an interval is given for, with their values in m (unknown figures are left out).
std::map<QString, double> intervalFigures(const StepMetrics& m);

// Seeded percentile bootstrap over the step's requests: resamples the records with replacement and
// recomputes the figures with StepMetrics::fromRecords, the same formulas as the point estimate.
// Cost is bounded: resamples = clamp(kBootstrapBudget / records, kMinResamples, kMaxResamples), so a
// step of many requests gets fewer (but never under kMinResamples) resamples. Each interval is widened,
// where resampling skews it (a P99 of few requests), to contain the point estimate. Empty for a step
// with fewer than 2 completed requests.
inline constexpr qint64 kBootstrapBudget = 200000; // records recomputed over all resamples
inline constexpr int kMinResamples = 50;
inline constexpr int kMaxResamples = 500;
inline constexpr quint64 kBootstrapSeed = 20261202;
StepIntervals bootstrapIntervals(const std::vector<RequestRecord>& records, double durationS,
    const MetricsOptions& options, const StepMetrics& point, quint64 seed = kBootstrapSeed);

// Over repeated trials of one load: mean ± t(0.975, n−1) × s / √n of each figure every trial reports.
// Empty for fewer than 2 trials.
StepIntervals repeatIntervals(const std::vector<const StepMetrics*>& trials);

} // namespace kp
