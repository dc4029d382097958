#pragma once

#include <QString>
#include <QtGlobal>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace kp {

struct ArrivalOptions
{
    enum class Distribution {
        Gamma, // gamma inter-arrivals, shape = burstiness (1 = Poisson)
        Constant, // equal spacing (the reference's burstiness = inf)
    };

    double rate = std::numeric_limits<double>::infinity(); // requests per second; inf sends all at t = 0
    Distribution distribution = Distribution::Gamma;
    double burstiness = 1.0; // gamma shape; < 1 burstier, > 1 more regular; inf means Constant
    std::uint64_t seed = 0;
    // The reference stretches the cumulative times so that request N is sent at exactly N / rate.
    bool rescaleToTarget = true;
    // Linear ramp-up: the rate grows from rampStartRate to `rate` over rampUpSeconds, then stays at `rate`.
    double rampUpSeconds = 0.0;
    double rampStartRate = 0.0;

    bool hasRampUp() const { return rampUpSeconds > 0.0; }
};

namespace detail {

// Samplers written out so that a seed means the same schedule with every standard library.
class ArrivalSampler
{
public:
    explicit ArrivalSampler(std::uint64_t seed = 0)
        : m_engine(seed)
    { }
    double uniformOpenClosed(); // on (0, 1]: safe for log() and pow()
    double normal(); // standard normal, Marsaglia's polar method
    double gamma(double shape); // Gamma(shape, 1), Marsaglia & Tsang (2000)

private:
    std::mt19937_64 m_engine;
    double m_spare = 0.0;
    bool m_hasSpare = false;
};

} // namespace detail

// One step's send times, made one at a time: the values ArrivalSchedule::offsetsNs and replayOffsetsNs
// give, in the same order, without holding them all (a day-long step at 1,000 req/s is 86.4 million
// times). A rescaled schedule draws its gaps twice, once for their sum and once to send them.
class ArrivalStream
{
public:
    ArrivalStream() = default; // nothing to send
    // An invalid `options` (see ArrivalSchedule::validate) gives an empty stream.
    ArrivalStream(qint64 count, const ArrivalOptions& options);
    // Log replay: this client's request i is request first + i * stride of the whole log's schedule
    // (ArrivalSchedule::replayOffsetsNs).
    static ArrivalStream replay(
        std::vector<qint64> logNs, qint64 first, qint64 stride, qint64 count, double rate, double speed);

    qint64 size() const { return m_count; }
    bool atEnd() const { return m_index >= m_count; }
    qint64 peek() const { return m_current; } // the next send time; only when !atEnd()
    void next();

private:
    enum class Kind { AtOnce, Drawn, Replay };
    void compute();

    Kind m_kind = Kind::AtOnce;
    qint64 m_count = 0;
    qint64 m_index = 0;
    qint64 m_current = 0;
    // Drawn
    ArrivalOptions m_options;
    detail::ArrivalSampler m_sampler;
    bool m_constant = false;
    double m_sum = 0.0; // cumulative unit-rate time of the request at m_index
    double m_factor = 1.0; // rescaling to N / rate; 0 when not rescaled
    // Replay
    std::vector<qint64> m_log;
    qint64 m_first = 0;
    qint64 m_stride = 1;
    double m_period = 0.0;
    double m_replayFactor = 1.0;
};

// Send times for one step (METRICS.md, "Arrivals"). Pure and deterministic: the same options and count
// give the same schedule on every platform (own gamma sampler on std::mt19937_64, which the standard
// defines bit for bit; the std:: distributions are not).
//
// As in vLLM's get_request, every request, the first included, is preceded by a drawn gap: the cumulative
// sums are the send times, then scaled by (N / rate) / sum so that the last request leaves at exactly N / rate.
//
// Ramp-up is defined by a change of time: with L(t) the integral of rate(s) from 0 to t, gaps of a
// unit-rate process are drawn (mean 1, same shape), their cumulative sums u_k are scaled so that u_N = N, and
// request k is sent at the inverse of L at u_k. So Poisson arrivals become exactly the inhomogeneous Poisson
// process of the ramp; without a ramp L(t) = rate * t and this is the reference's schedule.
class ArrivalSchedule
{
public:
    // Empty when the options are usable, else what is wrong with them.
    static QString validate(const ArrivalOptions& options);

    // Offsets from the step start in nanoseconds, non-decreasing, one per request; empty if invalid.
    // All at once: ArrivalStream gives the same values one at a time.
    static std::vector<qint64> offsetsNs(qint64 count, const ArrivalOptions& options);

    // The offered rate at time t (requests per second) under these options.
    static double rateAt(double seconds, const ArrivalOptions& options);

    // Log replay: request i is sent at logNs[i % n] (offsets from the log's first request, non-decreasing),
    // the log repeating after one period (its span plus its mean gap) when count > n; every offset is divided
    // by speed. With a finite rate, speed is instead chosen so that the mean rate over a period equals it.
    static std::vector<qint64> replayOffsetsNs(
        const std::vector<qint64>& logNs, qint64 count, double rate, double speed);
    // Requests per second of a log replayed at speed 1 (n per period); 0 when it cannot be told.
    static double replayRate(const std::vector<qint64>& logNs);
};

} // namespace kp
