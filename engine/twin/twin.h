#pragma once

#include "metrics/requestrecord.h"
#include "metrics/stepmetrics.h"
#include "metrics/stepsetup.h"
#include "profile/profile.h"
#include "sim/simmodel.h"
#include "sweep/kneeanalysis.h"
#include "telemetry/servermetrics.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>
#include <vector>

namespace kp {
struct ImportedCurve;
struct SavedRun;
} // namespace kp

namespace kp::twin {

// One request of a workload: its prompt and output lengths, and when it was sent (ms from the step's
// start; negative when unknown, for a load made from a summary).
struct TwinRequest
{
    int promptTokens = 1;
    int outputTokens = 1;
    double sendMs = -1;
};

// One measured step as the fit sees it.
struct FitStep
{
    LoadMode mode = LoadMode::Rate;
    double offered = 0; // req/s or users
    double burstiness = 1;
    std::vector<TwinRequest> requests; // the step's own (from its records), else made from its summary
    bool fromRecords = false;
    StepMetrics metrics; // measured: recomputed from the records with P50/P90/P99, else the file's
    std::optional<ServerStepStats> server;
    std::vector<RequestRecord> records; // completed requests, for the first estimates; empty for imported steps
};

// The steps of a saved run that a fit can use; the others are left out with a reason in `notes`.
std::vector<FitStep> fitSteps(const SavedRun& run, QStringList* notes);
// A step from its records (a test's simulated step, or a saved one).
FitStep fitStepFromRecords(LoadMode mode, double offered, double burstiness, const std::vector<RequestRecord>& records);
// A step from its figures alone: requests of its mean lengths, as many as it sent, at the offered load.
FitStep fitStepFromSummary(LoadMode mode, double offered, double burstiness, const StepMetrics& metrics);
// The steps of other tools' result files (readImport, as `import` and `analyze` read them).
std::vector<FitStep> fitSteps(const ImportedCurve& curve, QStringList* notes);

// A fitted parameter and its uncertainty: the range over which the fit's error stays within 10 % of its
// minimum when this parameter alone moves (lo/hi unset: the error stays that low as far as the scan went,
// so the data do not bound it on that side).
struct ParameterFit
{
    QString key; // the simulator configuration key: "max_num_seqs", "per_decode_ms", ...
    double value = 0;
    std::optional<double> lo, hi;
    bool identified = true; // false: the data say nothing about it; value is an assumption
    QString note; // how it was estimated, or why it is not identified
};

// Predicted against measured figures of one step (unknown: NaN).
struct StepFitQuality
{
    LoadMode mode = LoadMode::Rate;
    double offered = 0;
    double measuredRps = kUnknown, predictedRps = kUnknown;
    double measuredTtftP50 = kUnknown, predictedTtftP50 = kUnknown;
    double measuredTtftP99 = kUnknown, predictedTtftP99 = kUnknown;
    double measuredTpotP50 = kUnknown, predictedTpotP50 = kUnknown;
};

struct Twin
{
    sim::SimParams params; // in the measured server's time: serve it with time_scale 1
    std::vector<ParameterFit> parameters;
    QString uncertaintyMethod;
    QStringList sourceRuns;
    QStringList unidentified; // parameter keys the data could not identify
    std::vector<StepFitQuality> steps;
    double fitError = kUnknown; // the objective at the fitted parameters (0 = exact)
    // Where the twin's figures for the measured steps miss them beyond the bounds its forecasts are read with
    // (throughput 10%, P99 TTFT 25%), and where they put the knee or the saturation elsewhere: said, so that no
    // forecast is trusted further than the fit reproduced the measurement. Empty: it reproduced them.
    QList<Sentence> disagreements;
    int evaluations = 0; // model runs the search used
    // The workload predictions replay: the source's requests (lengths), and its step size and burstiness.
    std::vector<TwinRequest> workload;
    int requestsPerStep = 200;
    double burstiness = 1;
};

struct FitResult
{
    std::optional<Twin> twin;
    QString error; // why the data cannot identify the model, and what would
    QStringList notes;
    bool ok() const { return twin.has_value(); }
};

struct FitOptions
{
    int maxEvaluations = 400; // bounds the search: each evaluation simulates every step once
    AnalysisOptions analysis; // the knee and saturation the twin's figures are compared on
};

FitResult fitTwin(const std::vector<FitStep>& steps, const QStringList& sourceRuns, const FitOptions& options = {});

// What to predict: loads (req/s or users), the workload, replicas behind a round-robin balancer.
struct PredictLoad
{
    LoadMode mode = LoadMode::Rate;
    double load = 0;
};

struct PredictOptions
{
    int replicas = 1;
    int requestsPerStep = 0; // 0: the twin's
    double burstiness = -1; // < 0: the twin's
    quint64 seed = 0;
    std::vector<double> percentiles { 50, 90, 99 };
};

// Runs the model in simulated time: arrivals (rate: the arrival schedule; users: a closed loop) split
// round-robin over `replicas` instances of the model. The duration runs from the first send to the last end.
StepMetrics simulateLoad(const sim::SimParams& params, int replicas, LoadMode mode, double load,
    const std::vector<TwinRequest>& requests, const MetricsOptions& metrics);
// The records simulateLoad aggregates: what a client would have recorded of each request.
std::vector<RequestRecord> simulateRecords(
    const sim::SimParams& params, int replicas, LoadMode mode, double load, const std::vector<TwinRequest>& requests);

// One predicted step per load, ordered by load, as SweepPoints the knee analysis takes.
std::vector<SweepPoint> predict(const Twin& twin, const std::vector<PredictLoad>& loads, const PredictOptions& options);

// When no predicted step completed a request (settings that leave no room for one, such as a KV cache
// smaller than a request): what to say instead of figures of nothing; empty when any request completed.
QString noRequestFits(const Twin& twin, const std::vector<SweepPoint>& points);

// A change to one of the twin's parameters (the adjustable ones of sim::simParameters()): set it to
// `value`, or multiply its current value by `value`. --set and the window's What-if fields make them.
struct Adjustment
{
    QString parameter; // the key: "max_num_seqs", "per_decode_ms", ...
    double value = 0;
    bool multiply = false;
    QString text() const; // the value as --set writes it: "128", "x2"
    bool operator==(const Adjustment&) const = default;
};

// --set NAME=VALUE or NAME=xF parsed; nullopt with *error ("--set ASSIGNMENT: ...", naming the parameter
// and its range) when it is not one. `current` is only quoted in the message.
std::optional<Adjustment> parseAdjustment(const QString& assignment, const sim::SimParams& current, QString* error);
// Applies one adjustment, the result rounded to an integer where the parameter is one. Returns an error
// naming the parameter and its range ("max_num_seqs must be an integer from 1 to 100000, got 0"), empty on
// success; params are unchanged on error.
QString applyAdjustment(sim::SimParams& params, const Adjustment& adjustment);
// All of them in order, or none: the first error.
QString applyAdjustments(sim::SimParams& params, const std::vector<Adjustment>& adjustments);
// parseAdjustment then applyAdjustment; every error starts "--set ASSIGNMENT: ".
QString applyOverride(sim::SimParams& params, const QString& assignment);
QStringList overridableParameters();

// twin.json: a simulator configuration (kneepoint-sim --config reads the parameters) plus a "twin" object.
QByteArray twinToJson(const Twin& twin);
struct TwinRead
{
    std::optional<Twin> twin;
    QString error; // names the file, line and field
};
TwinRead readTwin(const QByteArray& text, const QString& sourceName);
TwinRead readTwinFile(const QString& path);
bool writeTwinFile(const Twin& twin, const QString& path, QString* error); // atomic

// Predicted steps saved as a run: run.json and steps/NNN.json as a measured run has them (no request
// records), with "predicted": true in run.json, in each step entry and in each step file, and run.json
// "prediction": the twin file, its source runs, the overrides and the replicas. Written in a hidden
// folder under runsRoot and renamed into place, so a reader never sees half of it.
struct SavedPredictionSpec
{
    QString twinFile;
    QString label; // the run's name; empty: "prediction of SOURCE"
    std::vector<std::pair<QString, QString>> overrides; // --set NAME=VALUE, in order
    int replicas = 1;
    std::vector<SweepPoint> points; // from predict()
    std::vector<StepSetup> setups; // one per point
};
struct SavedPrediction
{
    QString dir; // the new run directory; empty on failure
    QString error; // names the folder or file that could not be written
};
SavedPrediction savePrediction(const Twin& twin, const SavedPredictionSpec& spec, const QString& runsRoot);

} // namespace kp::twin
