#pragma once

#include "metrics/stepmetrics.h"
#include "metrics/stepsetup.h"
#include "profile/profile.h"
#include "sweep/serveranalysis.h"
#include "telemetry/servermetrics.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QStringView>

#include <cstddef>
#include <optional>
#include <vector>

namespace kp {

struct StepResult;
struct CapacityPlan;

// One finished (or stopped) step as the analysis sees it. The load axis is the offered request rate in
// rate mode and the number of users in concurrency mode; there, throughput has no offered rate to fall
// behind, so saturation means that more users stop adding throughput.
struct SweepPoint
{
    double offered = 0.0; // req/s (rate mode; inf = all at once) or users (concurrency mode)
    bool concurrencyMode = false;
    StepMetrics metrics;
    bool partial = false; // stopped before every request ended
    bool clientBound = false; // the client, not the server, could not keep to the schedule
    qint64 planned = 0; // requests the step meant to end; 0 = unknown
    std::optional<ServerStepStats> server; // what the server's /metrics said about the step, when scraped

    static SweepPoint fromResult(const StepResult& result);
    // A step read from a result file. A file with request_rate inf and a max_concurrency is a
    // concurrency-mode step with that many users (what the reference's --max-concurrency sweeps are).
    static SweepPoint fromStep(const StepSetup& setup, const StepMetrics& metrics);
};

struct AnalysisOptions
{
    LatencyMetric metric = LatencyMetric::Ttft; // the latency curve the knee is found on
    double percentile = 99;
    double saturationFraction = 0.95; // saturated below this fraction of the offered rate
    Slo slo;
    double recommendedThroughputFraction = 0.9; // the recommended point uses at most this much of peak throughput
    double maxErrorRate = 0.05; // more failures make a step unreliable (and fail an SLO that sets no error limit)
    double collapseDrop = 0.10; // throughput must fall this far below its peak, and stay there, to collapse
    double kneeSensitivity = 1.0; // Kneedle's S
    double minLatencyRise = 1.5; // a latency knee needs the curve to rise at least this much over the sweep
    int minKneeSteps = 4; // reliable steps a knee needs
    // The sweep's axis (the profile's load.mode); steps of the other mode, such as an auto plan's
    // one-user floor in a rate sweep, are left out. Unset: the mode most steps at a finite load ran in.
    std::optional<LoadMode> mode;

    bool operator==(const AnalysisOptions&) const = default;
};

// Whether one step meets the SLO, judged as the analysis judges it (the SLO's percentile of each
// limited latency, its error limit or else AnalysisOptions::maxErrorRate); reason names the first
// limit missed, its value and the limit, or the value the step does not report.
bool meetsSlo(const Slo& slo, const StepMetrics& metrics, QString* reason = nullptr);

// The options a sweep with this SLO is analysed with: the knee is found on the latency the SLO limits
// (TTFT first, then TPOT, then E2EL), at the SLO's percentile.
AnalysisOptions analysisOptionsFor(const Slo& slo);

// One result of the analysis. When `found` is false, `reason` says why there is none.
struct Finding
{
    bool found = false;
    double offered = 0.0; // req/s or users
    double achieved = 0.0; // req/s
    double outputThroughput = 0.0; // output tok/s at this point
    int stepIndex = -1; // index into the analysed points; -1 when interpolated between steps
    bool lowerBound = false; // the real value is higher: the sweep did not reach it
    QString reason;

    explicit operator bool() const { return found; }
    bool operator==(const Finding&) const = default;
};

enum class RegionKind { Linear, Knee, Overload };
QString regionKindKey(RegionKind kind); // "linear", "knee", "overload"

struct Region
{
    RegionKind kind = RegionKind::Linear;
    double fromOffered = 0.0;
    double toOffered = 0.0;
    int firstStep = -1;
    int lastStep = -1;
    QString reason;

    bool operator==(const Region&) const = default;
};

enum class SloLimit { None, Ttft, Tpot, E2el, ErrorRate };
QString sloLimitKey(SloLimit limit); // "", "ttft", "tpot", "e2el", "error_rate"

// What the analysis made of one input step.
struct StepAssessment
{
    int stepIndex = -1;
    double offered = 0.0;
    double achieved = 0.0;
    std::optional<double> latencyMs; // the analysed metric at the analysed percentile
    double errorRate = 0.0; // failed / (completed + failed)
    bool usedForThroughput = false; // saturation, collapse, regions, SLO
    bool usedForKnee = false;
    QString excluded; // why it is not used for the knee, in words
    std::optional<bool> meetsSlo; // unset without an SLO or when the step lacks a value the SLO needs
    QString sloDetail; // the first limit it misses, "P99 TTFT 812 ms > 500 ms"

    bool operator==(const StepAssessment&) const = default;
};

struct AnalysisResult
{
    AnalysisOptions options;
    bool concurrencyMode = false;
    Finding saturation;
    Finding knee; // of the latency metric
    Finding throughputKnee;
    Finding collapse;
    Finding sloCapacity;
    SloLimit bindingSlo = SloLimit::None; // the limit reached first at the SLO capacity
    Finding recommended;
    double peakThroughput = 0.0; // req/s, highest over the usable steps
    int peakStep = -1;
    std::vector<Region> regions; // in load order
    std::vector<StepAssessment> steps; // in input order
    QStringList notes; // steps left out and why, and other caveats
    ServerFindings server; // from the points' server telemetry (serveranalysis.h)

    bool operator==(const AnalysisResult&) const = default;
};

// Pure and deterministic: re-run it after every step; a partial sweep gets the answers its steps support.
class KneeAnalysis
{
public:
    static AnalysisResult analyze(const std::vector<SweepPoint>& points, const AnalysisOptions& options);

    // Building blocks, exposed so that they can be tested on their own.
    // Least-squares non-decreasing fit (pool adjacent violators).
    static std::vector<double> isotonicFit(const std::vector<double>& values);
    // Kneedle (Satopää, Albrecht, Irwin, Raghavan: "Finding a 'Kneedle' in a Haystack", ICDCS
    // workshops 2011) on an increasing curve, x ascending: the index of the knee, or none when no point
    // stands out by the method's threshold. Convex curves (latency) bend upwards, concave ones
    // (throughput) flatten.
    static std::optional<std::size_t> kneedle(
        const std::vector<double>& x, const std::vector<double>& y, bool convex, double sensitivity);
};

enum class AnalysisTopic {
    Region,
    Knee,
    ThroughputKnee,
    Saturation,
    Collapse,
    SloCapacity,
    Recommended,
    CapacityPlan,
    Note,
    Server // the server's own metrics: KV cache, waiting queue, preemptions (serveranalysis.h)
};
QString analysisTopicKey(AnalysisTopic topic); // "region", "knee", ... as in the JSON

// One sentence of the written analysis and the chart element it is about.
struct AnalysisSentence
{
    AnalysisTopic topic = AnalysisTopic::Note;
    QString text;
    int regionIndex = -1; // into AnalysisResult::regions, for Region sentences
    int stepIndex = -1; // the step it points at, when there is one

    bool operator==(const AnalysisSentence&) const = default;
};

// English sentences a capacity review can quote: regions, knee, throughput knee, saturation, collapse,
// SLO capacity, recommended point, the capacity plan when given, then notes.
QList<AnalysisSentence> analysisText(const AnalysisResult& result, const CapacityPlan* plan = nullptr);
QStringList analysisLines(const AnalysisResult& result, const CapacityPlan* plan = nullptr);

// knee, throughput_knee, saturation, collapse, slo_capacity, recommended: {"offered", "achieved",
// "reason", ...} or null with the reason under "reasons"; regions, steps, notes, text; capacity_plan
// (null unless a plan is given).
// For files: always in English (translation of phrases is switched off while it runs).
QJsonObject analysisJson(const AnalysisResult& result, const CapacityPlan* plan = nullptr);

// The CLI's --slo: items "metric:percentile:limit" or "metric:limit", separated by spaces or commas,
// with metric ttft, tpot or e2el, percentile "p99" (or "99"), limit in ms ("500", "500ms", "0.5s");
// and "errors:1%" (or a fraction, "errors:0.01"). A Slo has one percentile: items without one use the
// percentile the others give, else slo's own (99 unless set). Sets what the items name and leaves slo
// unchanged on error; the message names the bad item and part.
QString parseSloSpec(QStringView spec, Slo& slo);
// Every --slo of a command line at once, so that conflicting percentiles are caught.
QString parseSloSpecs(const QStringList& specs, Slo& slo);

// "60 req/s", "46.3 req/s", "32 users": a load as the text writes it.
QString loadWord(double load, bool concurrencyMode);

} // namespace kp

Q_DECLARE_METATYPE(kp::AnalysisResult)
