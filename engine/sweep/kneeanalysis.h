#pragma once

#include "metrics/phrase.h"
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
    // Concurrency mode: the request rate the client paced the users to as well (vLLM's --request-rate
    // with --max-concurrency); kUnknown when the users ran unpaced.
    double rateLimit = kUnknown;
    // Rate mode: the most requests the client let be in flight (vLLM's --max-concurrency with a rate);
    // 0 when it set no cap.
    int concurrencyCap = 0;
    qint64 planned = 0; // requests the step meant to end; 0 = unknown
    std::optional<ServerStepStats> server; // what the server's /metrics said about the step, when scraped

    static SweepPoint fromResult(const StepResult& result);
    // A step read from a result file. A file with request_rate inf and a max_concurrency is a
    // concurrency-mode step with that many users (what the reference's --max-concurrency sweeps are).
    static SweepPoint fromStep(const StepSetup& setup, const StepMetrics& metrics);
    // rateLimit and concurrencyCap from the step's setup, for the mode already set: the one place a
    // point learns what, besides the server, the client limited.
    void takeClientLimits(const StepSetup& setup);
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
    // Beyond the knee the latency must rise by at least this share of the SLO's limit on it (or reach the
    // limit): a few milliseconds far below the objective do not change capacity.
    double minRiseOfSlo = 0.10;
    // Two steps' latencies differ beyond noise when their 95 % intervals do not overlap; a step without an
    // interval (a file that kept none) must differ by this ratio instead.
    double noiseRatioWithoutIntervals = 1.25;
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
    Sentence reason; // what it is and why, or why there is none: worded when shown

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
    Sentence reason;

    bool operator==(const Region&) const = default;
};

enum class SloLimit { None, Ttft, Tpot, E2el, ErrorRate, Ttfc };
QString sloLimitKey(SloLimit limit); // "", "ttft", "tpot", "e2el", "error_rate", "ttfc"

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
    // One step whose latency rose beyond its neighbours' intervals while the next step undid the rise:
    // left out of the knee, drawn apart and named in the notes.
    bool outlier = false;
    Sentence excluded; // why it is not used for the knee
    std::optional<bool> meetsSlo; // unset without an SLO or when the step lacks a value the SLO needs
    Sentence sloDetail; // the first limit it misses, "P99 TTFT 812 ms > 500 ms"

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
    double peakThroughput = 0.0; // req/s, highest over the usable steps; unknown when peakStep < 0
    int peakStep = -1;
    std::vector<Region> regions; // in load order
    std::vector<StepAssessment> steps; // in input order
    QList<Sentence> notes; // steps left out and why, and other caveats
    ServerFindings server; // from the points' server telemetry (serveranalysis.h)

    bool operator==(const AnalysisResult&) const = default;
};

// Pure and deterministic: re-run it after every step; a partial sweep gets the answers its steps support.
class KneeAnalysis
{
public:
    static AnalysisResult analyze(const std::vector<SweepPoint>& points, const AnalysisOptions& options);
};

} // namespace kp

Q_DECLARE_METATYPE(kp::AnalysisResult)
