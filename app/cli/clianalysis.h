#pragma once

#include "sweep/capacityplan.h"
#include "sweep/kneeanalysis.h"

#include <QJsonObject>
#include <QStringList>

#include <optional>
#include <vector>

namespace kp::cli {

// What --slo, --peak, --redundancy and --knee-metric ask of the analysis.
struct AnalysisRequest
{
    AnalysisOptions options;
    std::optional<PeakDemand> peak;
    Redundancy redundancy;
};

// Parses the analysis flags on top of request (whose options.slo may come from a profile). Errors
// name the flag and the bad part.
QStringList parseAnalysisFlags(const QStringList& slo, const QString& peak, const QString& redundancy,
    const QString& kneeMetric, AnalysisRequest& request);

struct AnalysisOutput
{
    AnalysisResult result;
    std::optional<CapacityPlan> plan;
    QJsonObject json; // what analysis.json and --json hold
    QStringList lines; // the analysis in words
};

AnalysisOutput analyse(const std::vector<SweepPoint>& points, const AnalysisRequest& request);
// The analysis in words, with the capacity plan's (or why there is none).
QStringList analysisWords(const AnalysisResult& result, const std::optional<CapacityPlan>& plan);

// Steps from result files (Kneepoint's, vLLM's JSON, SGLang's JSONL) and run directories (run.json
// says which steps were partial or client-bound, and carries the profile's SLO). Files in a plain
// directory are read in name order; points come back ordered by load.
struct LoadedPoints
{
    std::vector<SweepPoint> points;
    std::optional<Slo> runSlo; // the SLO of the run directory's profile, when there is one
    QStringList errors; // name the file (and line, column or JSON path)
    QStringList warnings;
};
LoadedPoints readPoints(const QStringList& paths);

} // namespace kp::cli
