#include "sweep/capacityplan.h"

#include "metrics/phrase.h"
#include "sweep/analysiswords.h"

#include <QRegularExpression>

#include <cmath>

namespace kp {

using namespace Qt::StringLiterals;

namespace {

bool nearInteger(double value)
{
    return std::abs(value - std::round(value)) <= 1e-9 * std::max(1.0, std::abs(value));
}

// Plain numbers for the arithmetic: up to one decimal below 100, none above ("58.3", "1000").
QString amount(double value)
{
    if (nearInteger(value))
        return QString::number(std::llround(value));
    QString text = QString::number(value, 'f', std::abs(value) < 100 ? 1 : 0);
    if (text.contains(u'.')) {
        while (text.endsWith(u'0'))
            text.chop(1);
        if (text.endsWith(u'.'))
            text.chop(1);
    }
    return text;
}

// A quotient next to its rounded-up value: never shown so that it looks like an integer unless it is
// one ("= 20.03 → 21", not "= 20.0 → 21").
QString quotient(double value)
{
    if (nearInteger(value))
        return QString::number(std::llround(value));
    for (int decimals = 1; decimals < 6; ++decimals) {
        const QString text = QString::number(value, 'f', decimals);
        if (!text.endsWith(u'0'))
            return text;
    }
    return QString::number(value, 'f', 6);
}

Sentence serverCount(int n)
{
    return n == 1 ? kp::sentence("CapacityPlan", "1 server") : kp::sentence("CapacityPlan", "%1 servers").arg(n);
}

} // namespace

QString demandUnitWord(DemandUnit unit)
{
    return unit == DemandUnit::OutputTokensPerS ? u"tok/s"_s : u"req/s"_s;
}

QString Redundancy::describe() const
{
    switch (kind) {
    case Kind::None:
        return u"none"_s;
    case Kind::Spares:
        return u"N+%1"_s.arg(spares);
    case Kind::Percent:
        return u"+%1%"_s.arg(amount(fraction * 100));
    }
    return {};
}

int CapacityPlan::roundUp(double value)
{
    if (nearInteger(value))
        return int(std::llround(value));
    return int(std::ceil(value));
}

CapacityPlan CapacityPlan::compute(const PeakDemand& peak, double perServer, const Redundancy& redundancy)
{
    CapacityPlan plan;
    plan.peak = peak;
    plan.redundancy = redundancy;
    plan.perServer = perServer;
    const QString unit = demandUnitWord(peak.unit);
    if (!(peak.value > 0) || !std::isfinite(peak.value)) {
        plan.error = kp::sentence("CapacityPlan", "the peak demand must be a positive number of %1, not %2")
                         .arg(unit, amount(peak.value));
        return plan;
    }
    if (!(perServer > 0) || !std::isfinite(perServer)) {
        plan.error = kp::sentence("CapacityPlan", "the per-server capacity must be a positive number of %1, not %2")
                         .arg(unit, amount(perServer));
        return plan;
    }
    if ((redundancy.kind == Redundancy::Kind::Spares && redundancy.spares < 0)
        || (redundancy.kind == Redundancy::Kind::Percent
            && (!(redundancy.fraction >= 0) || !std::isfinite(redundancy.fraction)))) {
        plan.error
            = kp::sentence("CapacityPlan", "the redundancy must not be negative (%1)").arg(redundancy.describe());
        return plan;
    }
    plan.serversExact = peak.value / perServer;
    if (plan.serversExact > 1e6) {
        plan.error = kp::sentence("CapacityPlan", "%1 %2 at %3 %2 per server needs more than a million servers")
                         .arg(amount(peak.value), unit, amount(perServer));
        return plan;
    }
    plan.servers = roundUp(plan.serversExact);
    plan.arithmetic
        = kp::sentence("CapacityPlan", "%1 %2 ÷ %3 %2 per server = ").arg(amount(peak.value), unit, amount(perServer));
    if (nearInteger(plan.serversExact))
        plan.arithmetic += serverCount(plan.servers);
    else
        plan.arithmetic += Sentence::plain(quotient(plan.serversExact) + u" → "_s) + serverCount(plan.servers);
    const Sentence then = kp::sentence("CapacityPlan", "; ", "between the parts of the arithmetic");
    switch (redundancy.kind) {
    case Redundancy::Kind::None:
        plan.serversWithRedundancy = plan.servers;
        break;
    case Redundancy::Kind::Spares:
        plan.serversWithRedundancy = plan.servers + redundancy.spares;
        plan.arithmetic
            += then + Sentence::plain(u"N+%1 → %2"_s.arg(redundancy.spares).arg(plan.serversWithRedundancy));
        break;
    case Redundancy::Kind::Percent: {
        const double grown = double(plan.servers) * (1.0 + redundancy.fraction);
        plan.serversWithRedundancy = roundUp(grown);
        plan.arithmetic += nearInteger(grown)
            ? then + Sentence::plain(u"%1 → %2"_s.arg(redundancy.describe()).arg(plan.serversWithRedundancy))
            : then
                + Sentence::plain(
                    u"%1 → %2 → %3"_s.arg(redundancy.describe(), quotient(grown)).arg(plan.serversWithRedundancy));
        break;
    }
    }
    return plan;
}

CapacityPlan CapacityPlan::fromAnalysis(
    const AnalysisResult& result, const PeakDemand& peak, const Redundancy& redundancy)
{
    const Finding* basis = nullptr;
    QString key;
    Sentence what;
    if (!result.options.slo.isEmpty()) {
        if (!result.sloCapacity.found) {
            CapacityPlan plan;
            plan.peak = peak;
            plan.redundancy = redundancy;
            plan.error = kp::sentence("CapacityPlan", "there is no per-server capacity under the SLO: %1")
                             .arg(result.sloCapacity.reason);
            return plan;
        }
        basis = &result.sloCapacity;
        key = u"slo_capacity"_s;
        what = kp::sentence("CapacityPlan", "the SLO capacity");
    } else if (result.recommended.found) {
        basis = &result.recommended;
        key = u"recommended"_s;
        what = kp::sentence("CapacityPlan", "the recommended operating point");
    } else if (result.saturation.found) {
        basis = &result.saturation;
        key = u"saturation"_s;
        what = kp::sentence("CapacityPlan", "the saturation point");
    } else {
        CapacityPlan plan;
        plan.peak = peak;
        plan.redundancy = redundancy;
        plan.error = kp::sentence("CapacityPlan",
            "there is no per-server capacity: no SLO was given, and the sweep shows neither a recommended "
            "operating point nor saturation (%1)")
                         .arg(result.recommended.reason);
        return plan;
    }
    const bool tokens = peak.unit == DemandUnit::OutputTokensPerS;
    const double perServer = tokens ? basis->outputThroughput : basis->achieved;
    if (tokens && !(perServer > 0)) {
        CapacityPlan plan;
        plan.peak = peak;
        plan.redundancy = redundancy;
        plan.basis = key;
        plan.error = kp::sentence(
            "CapacityPlan", "the steps report no output token throughput at %1, so a tok/s peak cannot be planned")
                         .arg(what);
        return plan;
    }
    CapacityPlan plan = compute(peak, perServer, redundancy);
    plan.basis = key;
    plan.perServerLowerBound = basis->lowerBound;
    plan.basisReason
        = kp::sentence("CapacityPlan", "%1 %2 per server%3, %4 at %5 offered")
              .arg(amount(perServer), demandUnitWord(peak.unit),
                  basis->lowerBound ? kp::sentence("CapacityPlan", " or more (the sweep never reached the SLO limit)")
                                    : Sentence(),
                  what, words::load(basis->offered, result.concurrencyMode));
    plan.powerPerServerW = result.server.gpuPowerAt(basis->offered);
    if (const std::optional<double> j = result.server.joulesPerOutputTokenAt(basis->offered); j && *j > 0)
        plan.tokensPerJoule = 1.0 / *j;
    return plan;
}

std::optional<double> CapacityPlan::totalPowerW() const
{
    if (!ok() || !powerPerServerW)
        return std::nullopt;
    return *powerPerServerW * servers;
}

Sentence CapacityPlan::words() const
{
    if (!ok())
        return kp::sentence("CapacityPlan", "No capacity plan: %1.").arg(error);
    const QString unit = demandUnitWord(peak.unit);
    const Sentence need = redundancy.kind == Redundancy::Kind::None ? serverCount(servers)
                                                                    : kp::sentence("CapacityPlan", "%1 (%2 with %3)")
                                                                          .arg(serverCount(servers))
                                                                          .arg(serversWithRedundancy)
                                                                          .arg(redundancy.describe());
    Sentence plan = basisReason.isEmpty()
        ? kp::sentence("CapacityPlan", "A %1 %2 peak needs %3: %4.").arg(amount(peak.value), unit, need, arithmetic)
        : kp::sentence("CapacityPlan", "A %1 %2 peak needs %3 at %4: %5.")
              .arg(amount(peak.value), unit, need, basisReason, arithmetic);
    if (const std::optional<double> total = totalPowerW()) {
        const Sentence perJoule = tokensPerJoule
            ? kp::sentence("CapacityPlan", "; %1 output tokens per joule").arg(words::number(*tokensPerJoule))
            : Sentence();
        plan = kp::sentence("CapacityPlan", "%1 They draw about %2 (%3 each at that load, the GPUs' own figures%4).")
                   .arg(plan, words::power(*total), words::power(*powerPerServerW), perJoule);
    }
    return plan;
}

QJsonObject CapacityPlan::toJson() const
{
    QJsonObject o;
    o.insert(u"peak"_s, peak.value);
    o.insert(u"peak_unit"_s, demandUnitWord(peak.unit));
    o.insert(u"per_server"_s, perServer);
    o.insert(u"per_server_unit"_s, demandUnitWord(peak.unit));
    o.insert(u"basis"_s, basis);
    o.insert(u"basis_reason"_s, basisReason.english());
    o.insert(u"per_server_lower_bound"_s, perServerLowerBound);
    o.insert(u"servers_exact"_s, serversExact);
    o.insert(u"servers"_s, servers);
    o.insert(u"redundancy"_s, redundancy.describe());
    o.insert(u"servers_with_redundancy"_s, serversWithRedundancy);
    o.insert(u"arithmetic"_s, arithmetic.english());
    if (powerPerServerW) {
        o.insert(u"power_per_server_w"_s, *powerPerServerW);
        o.insert(u"total_power_w"_s, *totalPowerW());
    }
    if (tokensPerJoule)
        o.insert(u"output_tokens_per_joule"_s, *tokensPerJoule);
    return o;
}

QString parsePeakDemand(QStringView text, PeakDemand& peak)
{
    static const QRegularExpression form(u"^([0-9]*\\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\\s*([kKmM]?)\\s*(.*)$"_s);
    const QString input = text.trimmed().toString();
    const QRegularExpressionMatch match = form.match(input);
    if (!match.hasMatch())
        return u"\"%1\" is not a peak demand; write a number of requests or tokens per second, for example 1000 or "
               u"250000tok/s"_s.arg(input);
    bool ok = false;
    double value = match.captured(1).toDouble(&ok);
    const QString multiplier = match.captured(2).toLower();
    if (multiplier == u"k")
        value *= 1e3;
    else if (multiplier == u"m")
        value *= 1e6;
    if (!ok || !std::isfinite(value) || !(value > 0))
        return u"\"%1\": \"%2\" is not a positive number"_s.arg(input, match.captured(1));
    QString unit = match.captured(3).toLower();
    unit.remove(u' ');
    DemandUnit parsed;
    if (unit.isEmpty() || unit == u"req/s" || unit == u"rps" || unit == u"r/s" || unit == u"requests/s")
        parsed = DemandUnit::RequestsPerS;
    else if (unit == u"tok/s" || unit == u"tps" || unit == u"tokens/s" || unit == u"t/s")
        parsed = DemandUnit::OutputTokensPerS;
    else
        return u"\"%1\": unknown unit \"%2\"; use req/s or tok/s"_s.arg(input, match.captured(3));
    peak = { value, parsed };
    return {};
}

QString parseRedundancy(QStringView text, Redundancy& redundancy)
{
    static const QRegularExpression spares(u"^n?\\+(.*)$"_s);
    static const QRegularExpression percent(u"^(.*)%$"_s);
    const QString input = text.trimmed().toString();
    QString t = input.toLower();
    t.remove(u' ');
    if (t == u"none" || t == u"0" || t == u"n") {
        redundancy = {};
        return {};
    }
    if (const QRegularExpressionMatch m = spares.match(t); m.hasMatch()) {
        bool ok = false;
        const int k = m.captured(1).toInt(&ok);
        if (!ok || k < 0)
            return u"\"%1\": \"%2\" is not a whole number of spare servers"_s.arg(input, m.captured(1));
        redundancy = { Redundancy::Kind::Spares, k, 0.0 };
        return {};
    }
    if (const QRegularExpressionMatch m = percent.match(t); m.hasMatch()) {
        bool ok = false;
        const double p = m.captured(1).toDouble(&ok);
        if (!ok || !std::isfinite(p) || p < 0)
            return u"\"%1\": \"%2\" is not a percentage"_s.arg(input, m.captured(1));
        redundancy = { Redundancy::Kind::Percent, 0, p / 100.0 };
        return {};
    }
    return u"\"%1\" is not a redundancy policy; write N+k (N+2) or a percentage (20%)"_s.arg(input);
}

} // namespace kp
