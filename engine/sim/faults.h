#pragma once

#include <QString>
#include <QStringList>

#include <array>
#include <cstdint>
#include <optional>
#include <random>

namespace kp::sim {

// A fault the simulator can inject into a generation request. Each request draws at most one.
enum class FaultKind {
    None,
    Http500, // "500": HTTP 500 with an error body, at once
    Http503, // "503": HTTP 503 with an error body, at once
    Http429, // "429": HTTP 429 with Retry-After, at once
    ErrorBody, // "error-body": HTTP 200 whose body (or a stream event, then [DONE]) is an error object
    Malformed, // "malformed": one stream event (or the whole body) is invalid JSON
    Cut, // "cut": the connection closes mid-response, before [DONE]
    Stall, // "stall": the output halts mid-stream for the fault's seconds, then resumes
    SlowFirstByte, // "slow-first-byte": the response headers are held back for the fault's seconds
};
inline constexpr int faultKindCount = 8; // kinds other than None

QString faultKindName(FaultKind kind);
std::optional<FaultKind> faultKindFromName(const QString& name);
QStringList faultKindNames();

// Per-kind rates (fractions of generation requests) and the delays of the timed kinds.
struct FaultPlan
{
    std::array<double, faultKindCount> rates {};
    double stallSeconds = 2.0; // simulated seconds
    double slowFirstByteSeconds = 2.0; // simulated seconds

    double rate(FaultKind kind) const;
    void setRate(FaultKind kind, double rate);
    double totalRate() const;
    bool isEmpty() const { return totalRate() <= 0; }
    // The plan in the command line's own syntax, e.g. "500:0.01 stall:0.1:2".
    QStringList toSpecs() const;
};

// Applies "KIND:RATE" or, for stall and slow-first-byte, "KIND:RATE:SECONDS" to the plan. Returns an
// empty string on success, else a message naming the bad part. Rates of all kinds must add up to at
// most 1.
QString applyFaultSpec(const QString& spec, FaultPlan& plan);

// Draws each request's fault from the plan with its own seeded generator. The generator's seed is
// derived from the simulator's seed, so that the faults do not follow the output lengths, and a test
// that makes an injector with the simulator's seed sees the faults the simulator will draw.
class FaultInjector
{
public:
    FaultInjector(const FaultPlan& plan, std::uint64_t simulatorSeed);

    const FaultPlan& plan() const { return m_plan; }
    FaultKind draw();

private:
    FaultPlan m_plan;
    std::mt19937_64 m_rng;
};

// A uniform double in [0, 1) from the generator's bits (the same on every standard library).
double uniformUnit(std::mt19937_64& rng);

} // namespace kp::sim
