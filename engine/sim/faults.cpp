#include "sim/faults.h"

namespace kp::sim {

namespace {

struct KindName
{
    FaultKind kind;
    const char* name;
};

constexpr std::array<KindName, faultKindCount> kindNames { {
    { FaultKind::Http500, "500" },
    { FaultKind::Http503, "503" },
    { FaultKind::Http429, "429" },
    { FaultKind::ErrorBody, "error-body" },
    { FaultKind::Malformed, "malformed" },
    { FaultKind::Cut, "cut" },
    { FaultKind::Stall, "stall" },
    { FaultKind::SlowFirstByte, "slow-first-byte" },
} };

int indexOf(FaultKind kind)
{
    return static_cast<int>(kind) - 1;
}

} // namespace

QString faultKindName(FaultKind kind)
{
    if (kind == FaultKind::None)
        return QStringLiteral("none");
    return QString::fromLatin1(kindNames[indexOf(kind)].name);
}

std::optional<FaultKind> faultKindFromName(const QString& name)
{
    for (const auto& entry : kindNames) {
        if (name == QLatin1String(entry.name))
            return entry.kind;
    }
    return std::nullopt;
}

QStringList faultKindNames()
{
    QStringList names;
    for (const auto& entry : kindNames)
        names.append(QString::fromLatin1(entry.name));
    return names;
}

double FaultPlan::rate(FaultKind kind) const
{
    return kind == FaultKind::None ? 0.0 : rates[indexOf(kind)];
}

void FaultPlan::setRate(FaultKind kind, double value)
{
    if (kind != FaultKind::None)
        rates[indexOf(kind)] = value;
}

double FaultPlan::totalRate() const
{
    double total = 0;
    for (const double r : rates)
        total += r;
    return total;
}

QStringList FaultPlan::toSpecs() const
{
    QStringList specs;
    for (const auto& entry : kindNames) {
        const double r = rate(entry.kind);
        if (r <= 0)
            continue;
        QString spec = QStringLiteral("%1:%2").arg(QLatin1String(entry.name)).arg(r);
        if (entry.kind == FaultKind::Stall)
            spec += QStringLiteral(":%1").arg(stallSeconds);
        else if (entry.kind == FaultKind::SlowFirstByte)
            spec += QStringLiteral(":%1").arg(slowFirstByteSeconds);
        specs.append(spec);
    }
    return specs;
}

QString applyFaultSpec(const QString& spec, FaultPlan& plan)
{
    const QStringList parts = spec.split(QLatin1Char(':'));
    if (parts.size() < 2 || parts.size() > 3) {
        return QStringLiteral("fault '%1': expected KIND:RATE (or KIND:RATE:SECONDS for stall and slow-first-byte)")
            .arg(spec);
    }
    const std::optional<FaultKind> kind = faultKindFromName(parts[0]);
    if (!kind) {
        return QStringLiteral("fault '%1': unknown kind '%2' (known: %3)")
            .arg(spec, parts[0], faultKindNames().join(QStringLiteral(", ")));
    }
    bool ok = false;
    const double rate = parts[1].toDouble(&ok);
    if (!ok || !(rate >= 0.0 && rate <= 1.0))
        return QStringLiteral("fault '%1': rate '%2' is not a number between 0 and 1").arg(spec, parts[1]);
    double seconds = -1;
    if (parts.size() == 3) {
        if (*kind != FaultKind::Stall && *kind != FaultKind::SlowFirstByte)
            return QStringLiteral("fault '%1': only stall and slow-first-byte take SECONDS").arg(spec);
        seconds = parts[2].toDouble(&ok);
        if (!ok || !(seconds >= 0.0 && seconds <= 86400.0))
            return QStringLiteral("fault '%1': seconds '%2' is not a number between 0 and 86400").arg(spec, parts[2]);
    }
    FaultPlan next = plan;
    next.setRate(*kind, rate);
    if (next.totalRate() > 1.0 + 1e-9)
        return QStringLiteral("fault '%1': the fault rates add up to more than 1").arg(spec);
    if (seconds >= 0) {
        if (*kind == FaultKind::Stall)
            next.stallSeconds = seconds;
        else
            next.slowFirstByteSeconds = seconds;
    }
    plan = next;
    return {};
}

double uniformUnit(std::mt19937_64& rng)
{
    return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

FaultInjector::FaultInjector(const FaultPlan& plan, std::uint64_t simulatorSeed)
    : m_plan(plan)
    , m_rng(simulatorSeed ^ 0x5eedfa17u)
{ }

FaultKind FaultInjector::draw()
{
    if (m_plan.isEmpty())
        return FaultKind::None;
    const double u = uniformUnit(m_rng);
    double cumulative = 0;
    for (const auto& entry : kindNames) {
        const double r = m_plan.rate(entry.kind);
        cumulative += r;
        if (r > 0 && u < cumulative)
            return entry.kind;
    }
    return FaultKind::None;
}

} // namespace kp::sim
