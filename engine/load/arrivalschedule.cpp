#include "arrivalschedule.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace kp {

double detail::ArrivalSampler::uniformOpenClosed()
{
    return static_cast<double>((m_engine() >> 11) + 1) * 0x1.0p-53;
}

double detail::ArrivalSampler::normal()
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

// With the usual boost for shape < 1.
double detail::ArrivalSampler::gamma(double shape)
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

namespace {

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
    std::vector<qint64> offsets;
    ArrivalStream stream(count, o);
    offsets.reserve(static_cast<std::size_t>(stream.size()));
    for (; !stream.atEnd(); stream.next())
        offsets.push_back(stream.peek());
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
    ArrivalStream stream = ArrivalStream::replay(logNs, 0, 1, count, rate, speed);
    out.reserve(static_cast<std::size_t>(stream.size()));
    for (; !stream.atEnd(); stream.next())
        out.push_back(stream.peek());
    return out;
}

ArrivalStream::ArrivalStream(qint64 count, const ArrivalOptions& o)
{
    if (count <= 0 || !ArrivalSchedule::validate(o).isEmpty())
        return;
    m_count = count;
    if (std::isinf(o.rate)) {
        m_kind = Kind::AtOnce; // every request at t = 0
        return;
    }
    m_kind = Kind::Drawn;
    m_options = o;
    m_constant = o.distribution == ArrivalOptions::Distribution::Constant || std::isinf(o.burstiness);
    m_factor = 0.0;
    if (o.rescaleToTarget) {
        // The sum of the unit-rate gaps, drawn from the same seed as the times themselves will be.
        double sum = static_cast<double>(count);
        if (!m_constant) {
            detail::ArrivalSampler sampler(o.seed);
            sum = 0.0;
            for (qint64 k = 0; k < count; ++k)
                sum += sampler.gamma(o.burstiness) / o.burstiness;
        }
        if (sum > 0.0)
            m_factor = static_cast<double>(count) / sum;
    }
    m_sampler = detail::ArrivalSampler(o.seed);
    compute();
}

ArrivalStream ArrivalStream::replay(
    std::vector<qint64> logNs, qint64 first, qint64 stride, qint64 count, double rate, double speed)
{
    ArrivalStream s;
    if (logNs.empty() || count < 1 || first < 0 || stride < 1)
        return s;
    s.m_kind = Kind::Replay;
    s.m_count = count;
    s.m_first = first;
    s.m_stride = stride;
    const double native = ArrivalSchedule::replayRate(logNs);
    double factor = 1.0 / speed; // log time → step time
    if (std::isfinite(rate) && rate > 0 && native > 0)
        factor = native / rate;
    if (!(factor > 0) || !std::isfinite(factor))
        factor = 1.0;
    s.m_replayFactor = factor;
    s.m_period = replayPeriodNs(logNs);
    s.m_log = std::move(logNs);
    s.compute();
    return s;
}

void ArrivalStream::next()
{
    if (atEnd())
        return;
    ++m_index;
    if (!atEnd())
        compute();
}

// The send time of request m_index.
void ArrivalStream::compute()
{
    switch (m_kind) {
    case Kind::AtOnce:
        m_current = 0;
        return;
    case Kind::Drawn: {
        // Cumulative arrival time of a unit-rate process (mean gap 1): gamma(shape b, scale 1/b), which is
        // the reference's gamma(b, 1 / (rate * b)) before dividing by the rate.
        m_sum += m_constant ? 1.0 : m_sampler.gamma(m_options.burstiness) / m_options.burstiness;
        double u = m_sum;
        if (m_factor > 0.0) {
            const double target = static_cast<double>(m_count);
            // Exactly N / rate for the last request, whatever the rounding.
            u = m_index + 1 == m_count ? target : std::min(u * m_factor, target);
        }
        m_current = toNs(inverseCumulativeRate(u, m_options));
        return;
    }
    case Kind::Replay: {
        const qint64 i = m_first + m_index * m_stride;
        const auto n = static_cast<qint64>(m_log.size());
        const double logTime = static_cast<double>(i / n) * m_period
            + static_cast<double>(m_log[static_cast<std::size_t>(i % n)] - m_log.front());
        m_current = std::llround(logTime * m_replayFactor);
        return;
    }
    }
}

} // namespace kp
