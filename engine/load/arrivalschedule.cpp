#include "arrivalschedule.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace kp {

namespace {

// Samplers written out so that a seed means the same schedule with every standard library.
class Sampler
{
public:
    explicit Sampler(std::uint64_t seed)
        : m_engine(seed)
    { }

    // Uniform on (0, 1]: safe for log() and pow().
    double uniformOpenClosed() { return static_cast<double>((m_engine() >> 11) + 1) * 0x1.0p-53; }

    // Standard normal, Marsaglia's polar method.
    double normal()
    {
        if (m_hasSpare) {
            m_hasSpare = false;
            return m_spare;
        }
        double u = 0.0;
        double v = 0.0;
        double s = 0.0;
        do {
            u = 2.0 * uniformOpenClosed() - 1.0;
            v = 2.0 * uniformOpenClosed() - 1.0;
            s = u * u + v * v;
        } while (s >= 1.0 || s == 0.0);
        const double factor = std::sqrt(-2.0 * std::log(s) / s);
        m_spare = v * factor;
        m_hasSpare = true;
        return u * factor;
    }

    // Gamma(shape, 1), Marsaglia & Tsang (2000), with the usual boost for shape < 1.
    double gamma(double shape)
    {
        if (shape < 1.0)
            return gamma(shape + 1.0) * std::pow(uniformOpenClosed(), 1.0 / shape);
        const double d = shape - 1.0 / 3.0;
        const double c = 1.0 / std::sqrt(9.0 * d);
        for (;;) {
            const double x = normal();
            double v = 1.0 + c * x;
            if (v <= 0.0)
                continue;
            v = v * v * v;
            const double u = uniformOpenClosed();
            const double x2 = x * x;
            if (u < 1.0 - 0.0331 * x2 * x2)
                return d * v;
            if (std::log(u) < 0.5 * x2 + d * (1.0 - v + std::log(v)))
                return d * v;
        }
    }

private:
    std::mt19937_64 m_engine;
    double m_spare = 0.0;
    bool m_hasSpare = false;
};

// Inverse of L(t) = integral of rate(s) from 0 to t, for the linear ramp (or none).
double inverseCumulativeRate(double u, const ArrivalOptions& o)
{
    if (u <= 0.0)
        return 0.0;
    if (!o.hasRampUp())
        return u / o.rate;
    const double r0 = o.rampStartRate;
    const double r1 = o.rate;
    const double rampEnd = o.rampUpSeconds;
    const double duringRamp = (r0 + r1) * rampEnd / 2.0;
    if (u > duringRamp)
        return rampEnd + (u - duringRamp) / r1;
    // r0 t + a t^2 = u with a = (r1 - r0) / 2T, in the form that stays exact for r0 = 0 and a < 0.
    const double a = (r1 - r0) / (2.0 * rampEnd);
    if (a == 0.0)
        return u / r0;
    return 2.0 * u / (r0 + std::sqrt(std::max(r0 * r0 + 4.0 * a * u, 0.0)));
}

qint64 toNs(double seconds)
{
    return static_cast<qint64>(std::llround(seconds * 1e9));
}

} // namespace

QString ArrivalSchedule::validate(const ArrivalOptions& o)
{
    if (std::isnan(o.rate) || o.rate <= 0.0)
        return QStringLiteral("the request rate must be greater than 0 (or inf), not %1").arg(o.rate);
    if (o.distribution == ArrivalOptions::Distribution::Gamma && (std::isnan(o.burstiness) || o.burstiness <= 0.0))
        return QStringLiteral("the burstiness must be greater than 0, not %1").arg(o.burstiness);
    if (std::isnan(o.rampUpSeconds) || o.rampUpSeconds < 0.0 || std::isinf(o.rampUpSeconds))
        return QStringLiteral("the ramp-up time must be a finite number of seconds >= 0, not %1").arg(o.rampUpSeconds);
    if (o.hasRampUp()) {
        if (std::isinf(o.rate))
            return QStringLiteral("a ramp-up needs a finite target rate");
        if (std::isnan(o.rampStartRate) || o.rampStartRate < 0.0 || std::isinf(o.rampStartRate))
            return QStringLiteral("the ramp-up start rate must be a finite number >= 0, not %1").arg(o.rampStartRate);
    }
    return {};
}

double ArrivalSchedule::rateAt(double seconds, const ArrivalOptions& o)
{
    if (o.hasRampUp() && seconds < o.rampUpSeconds)
        return o.rampStartRate + (o.rate - o.rampStartRate) * std::max(seconds, 0.0) / o.rampUpSeconds;
    return o.rate;
}

std::vector<qint64> ArrivalSchedule::offsetsNs(qint64 count, const ArrivalOptions& o)
{
    if (count <= 0 || !validate(o).isEmpty())
        return {};
    const auto n = static_cast<std::size_t>(count);
    if (std::isinf(o.rate))
        return std::vector<qint64>(n, 0);

    const bool constant = o.distribution == ArrivalOptions::Distribution::Constant || std::isinf(o.burstiness);
    // Cumulative arrival times of a unit-rate process (mean gap 1): gamma(shape b, scale 1/b), which is
    // the reference's gamma(b, 1 / (rate * b)) before dividing by the rate.
    std::vector<double> u(n);
    Sampler sampler(o.seed);
    double sum = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
        sum += constant ? 1.0 : sampler.gamma(o.burstiness) / o.burstiness;
        u[k] = sum;
    }
    if (o.rescaleToTarget && sum > 0.0) {
        const double target = static_cast<double>(count);
        const double factor = target / sum;
        for (double& value : u)
            value = std::min(value * factor, target);
        u.back() = target; // exactly N / rate for the last request, whatever the rounding
    }

    std::vector<qint64> offsets(n);
    for (std::size_t k = 0; k < n; ++k)
        offsets[k] = toNs(inverseCumulativeRate(u[k], o));
    return offsets;
}

namespace {

// One pass of the log and the gap after it: span + span / (n − 1); 0 for fewer than two requests.
double replayPeriodNs(const std::vector<qint64>& logNs)
{
    if (logNs.size() < 2)
        return 0.0;
    const double span = static_cast<double>(logNs.back() - logNs.front());
    return span + span / static_cast<double>(logNs.size() - 1);
}

} // namespace

double ArrivalSchedule::replayRate(const std::vector<qint64>& logNs)
{
    const double period = replayPeriodNs(logNs);
    return period > 0 ? static_cast<double>(logNs.size()) / (period / 1e9) : 0.0;
}

std::vector<qint64> ArrivalSchedule::replayOffsetsNs(
    const std::vector<qint64>& logNs, qint64 count, double rate, double speed)
{
    std::vector<qint64> out;
    if (logNs.empty() || count < 1)
        return out;
    const double native = replayRate(logNs);
    double factor = 1.0 / speed; // log time → step time
    if (std::isfinite(rate) && rate > 0 && native > 0)
        factor = native / rate;
    if (!(factor > 0) || !std::isfinite(factor))
        factor = 1.0;
    const double period = replayPeriodNs(logNs);
    const auto n = static_cast<qint64>(logNs.size());
    out.reserve(static_cast<std::size_t>(count));
    for (qint64 i = 0; i < count; ++i) {
        const double logTime = static_cast<double>(i / n) * period
            + static_cast<double>(logNs[static_cast<std::size_t>(i % n)] - logNs.front());
        out.push_back(std::llround(logTime * factor));
    }
    return out;
}

} // namespace kp
