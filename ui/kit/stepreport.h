#pragma once

#include "client/requestbuilder.h"
#include "kit/soakwindowfigures.h"
#include "load/steprunner.h"
#include "metrics/stepmetrics.h"
#include "profile/profile.h"
#include "runs/steptimeline.h"

#include <QDateTime>
#include <QMetaType>
#include <QString>

#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace kp::twin {
struct FitStep;
}

namespace kp::ui {

// Counts of latencies in equal bins, in milliseconds. The range ends at a high percentile so that a
// few outliers do not squeeze the rest into one bin; what lies past it is counted in `above`.
struct Histogram
{
    double fromMs = 0.0;
    double binMs = 0.0;
    std::vector<qint64> counts;
    qint64 above = 0;

    qint64 total() const;
    bool isEmpty() const { return counts.empty(); }
    // Bins of a "nice" width (1, 2 or 5 × 10^k ms) covering [min, P99.5] of the values.
    static Histogram compute(std::vector<double> valuesMs, int maxBins = 40);
};

// Failed requests of one class: how many, the first message, and what to do about it.
struct FailureGroup
{
    FailureClass failure = FailureClass::None;
    int httpStatus = 0; // the HTTP status the group's requests got (0: none); each status is its own group
    qint64 count = 0;
    QString example;
    QString hint;
    std::vector<int> steps; // step indexes it happened in, ascending
};

// One finished step as the GUI shows it. Made in the controller thread from the StepResult, so the
// request records (possibly 100,000 of them, with every chunk time) never cross to the GUI thread.
struct StepReport
{
    StepConfig config; // prompts cleared
    QString load; // "40 req/s", "32 users"
    QDateTime startedAt;
    double durationS = 0.0;
    bool partial = false;
    bool clientBound = false;
    double dispatchLagP99Ms = 0.0;
    StepMetrics metrics;
    QString summary; // the reference's printed block
    std::optional<bool> meetsSlo; // unset without an SLO
    QString sloDetail; // the limit it misses, in words
    std::vector<FailureGroup> failures; // by class, most frequent first
    std::map<LatencyMetric, Histogram> histograms;
    StepTelemetry server; // the server's /metrics while the step ran; empty without
    StepTimeline timeline; // second by second, from the records and the scrapes; empty without records
    QString noTimeline; // why records that are there give no timeline (SavedStep::noTimeline); empty otherwise
    // A soak step's windows in time order (live from the engine's windowFinished, or its windows.jsonl);
    // empty for other steps.
    std::vector<SoakWindowFigures> windows;
    // The step as the twin's fit takes it (made from the records in the controller thread); unset for a
    // partial or client-bound step and for steps read from disk.
    std::shared_ptr<const twin::FitStep> fit;

    int index() const { return config.index; }
    // The offered load on the chart's x axis: req/s, or users in concurrency mode.
    double offered() const;
    bool concurrencyMode() const { return config.mode == LoadMode::Concurrency; }
};

// serverModels and maxModelLen: what the preflight's /v1/models said, for the failures' advice.
StepReport makeStepReport(const StepResult& result, const Profile& profile, const HeaderList& headers,
    const QStringList& serverModels, std::optional<int> maxModelLen = std::nullopt);

// Adds one step's failures to run-wide groups (a class keeps its first example and hint).
void mergeFailures(std::vector<FailureGroup>& into, const StepReport& step);

// The value a chart or column shows for a percentile: the requested percentile when the step computed
// it, the median for 50, nothing otherwise.
std::optional<double> percentileValue(const LatencyStats& stats, double percentile);
// The percentile of a metric that these steps can draw: `wanted` when a step has it, else the highest
// percentile a step recorded (an imported file may hold only some, or only the median), else 50 when a
// step has a median; nullopt when no step has a value of the metric at all.
std::optional<double> drawablePercentile(const std::vector<StepReport>& steps, LatencyMetric metric, double wanted);
// Whether requests were sent and every one of them failed (no step completed one).
bool everyRequestFailed(const std::vector<StepReport>& steps);

} // namespace kp::ui

Q_DECLARE_METATYPE(kp::ui::StepReport)
