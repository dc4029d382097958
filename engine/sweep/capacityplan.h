#pragma once

#include "metrics/phrase.h"
#include "sweep/kneeanalysis.h"

#include <QJsonObject>
#include <QString>
#include <QStringView>

#include <optional>

namespace kp {

enum class DemandUnit { RequestsPerS, OutputTokensPerS };
QString demandUnitWord(DemandUnit unit); // "req/s", "tok/s"

struct PeakDemand
{
    double value = 0.0;
    DemandUnit unit = DemandUnit::RequestsPerS;

    bool operator==(const PeakDemand&) const = default;
};

struct Redundancy
{
    enum class Kind { None, Spares, Percent };
    Kind kind = Kind::None;
    int spares = 0; // N+k
    double fraction = 0.0; // 0.2 for 20%

    QString describe() const; // "N+2", "+20%", "none"
    bool operator==(const Redundancy&) const = default;
};

// How many servers a peak demand needs, from the per-server capacity one sweep measured.
struct CapacityPlan
{
    PeakDemand peak;
    Redundancy redundancy;
    double perServer = 0.0; // in the peak's unit
    QString basis; // "slo_capacity", "recommended" or "saturation"
    Sentence basisReason; // "51 req/s per server, the SLO capacity at 53.3 req/s offered"
    bool perServerLowerBound = false; // the sweep never reached the SLO limit: the plan errs high
    double serversExact = 0.0; // peak / perServer
    int servers = 0;
    int serversWithRedundancy = 0;
    Sentence arithmetic; // "1000 req/s ÷ 58.3 req/s per server = 17.2 → 18 servers; N+2 → 20"
    Sentence error; // why there is no plan; the other fields are then meaningless
    // What the GPUs drew at the per-server load (their exporter's figures, between the steps around it),
    // and the output tokens they gave per joule there; unknown without GPU figures.
    std::optional<double> powerPerServerW;
    std::optional<double> tokensPerJoule;
    std::optional<double> totalPowerW() const; // servers × powerPerServerW

    bool ok() const { return error.isEmpty(); }
    Sentence words() const; // for the written analysis
    QString sentence() const { return words().text(); } // worded now (metrics/phrase.h)
    QJsonObject toJson() const; // worded in English // per_server, servers, servers_with_redundancy, arithmetic, ...

    // The arithmetic alone: servers = ⌈peak / perServer⌉, then +k or ⌈servers × (1 + p)⌉.
    static CapacityPlan compute(const PeakDemand& peak, double perServer, const Redundancy& redundancy);
    // Per-server capacity from the SLO capacity when an SLO was given; without one from the recommended
    // point, else the saturation point. Tokens per second come from the output throughput there.
    static CapacityPlan fromAnalysis(
        const AnalysisResult& result, const PeakDemand& peak, const Redundancy& redundancy);
    // ⌈value⌉, except that a quotient within rounding error of an integer is that integer (1.1 / 0.1).
    static int roundUp(double value);
};

// --peak: "1000", "1000 req/s", "1000rps", "250000tok/s", "250k tok/s", "1.5M tok/s". Returns an error
// naming the bad part and leaves peak unchanged on error.
QString parsePeakDemand(QStringView text, PeakDemand& peak);
// --redundancy: "N+2" (also "n+2", "+2"), "20%", "none" or "0".
QString parseRedundancy(QStringView text, Redundancy& redundancy);

} // namespace kp
