#include "sweep/analysiswords.h"

#include "sweep/kneeanalysis.h"

#include <cmath>

namespace kp {

using namespace Qt::StringLiterals;

namespace words {

QString number(double value)
{
    if (std::isnan(value))
        return u"nan"_s;
    if (std::isinf(value))
        return value > 0 ? u"inf"_s : u"-inf"_s;
    const double magnitude = std::abs(value);
    const int decimals = magnitude < 10 ? 2 : magnitude < 100 ? 1 : 0;
    QString text = QString::number(value, 'f', decimals);
    if (text.contains(u'.')) {
        while (text.endsWith(u'0'))
            text.chop(1);
        if (text.endsWith(u'.'))
            text.chop(1);
    }
    if (text == u"-0")
        text = u"0"_s;
    return text;
}

QString latency(double ms)
{
    return std::abs(ms) >= 1000 ? number(ms / 1000) + u" s"_s : number(ms) + u" ms"_s;
}

QString ratio(double ratio)
{
    return QString::number(ratio, 'f', ratio < 10 ? 1 : 0) + u"×"_s;
}

QString percent(double fraction)
{
    if (!std::isfinite(fraction))
        return u"—"_s;
    return number(std::round(fraction * 1000) / 10) + u"%"_s;
}

QString wholePercent(double fraction)
{
    if (!std::isfinite(fraction))
        return u"—"_s;
    return QString::number(std::lround(fraction * 100)) + u"%"_s;
}

QString power(double watts)
{
    if (std::abs(watts) >= 1e6)
        return number(watts / 1e6) + QStringLiteral(" MW");
    if (std::abs(watts) >= 1e3)
        return number(watts / 1e3) + QStringLiteral(" kW");
    return number(watts) + QStringLiteral(" W");
}

QString throughput(double rps)
{
    return number(rps) + u" req/s"_s;
}

QString metric(LatencyMetric metric, double percentile)
{
    return u"P%1 %2"_s.arg(LatencyStats::percentileWord(percentile), latencyMetricKey(metric).toUpper());
}

Sentence load(double load, bool concurrencyMode)
{
    if (!concurrencyMode)
        return Sentence::plain(number(load) + u" req/s"_s);
    return load == 1.0 ? sentence("KneeAnalysis", "1 user") : sentence("KneeAnalysis", "%1 users").arg(number(load));
}

Sentence sloName(SloLimit limit, double percentile)
{
    switch (limit) {
    case SloLimit::Ttft:
        return Sentence::plain(metric(LatencyMetric::Ttft, percentile));
    case SloLimit::Tpot:
        return Sentence::plain(metric(LatencyMetric::Tpot, percentile));
    case SloLimit::E2el:
        return Sentence::plain(metric(LatencyMetric::E2el, percentile));
    case SloLimit::Ttfc:
        return Sentence::plain(u"P%1 TTFC"_s.arg(LatencyStats::percentileWord(percentile)));
    case SloLimit::ErrorRate:
        return sentence("KneeAnalysis", "the error rate");
    case SloLimit::None:
        break;
    }
    return {};
}

QString sloValue(SloLimit limit, double value)
{
    return limit == SloLimit::ErrorRate ? percent(value) : latency(value);
}

Sentence fullStop()
{
    return sentence("KneeAnalysis", ".", "end of a sentence");
}

} // namespace words

QString loadWord(double load, bool concurrencyMode)
{
    return words::load(load, concurrencyMode).text();
}

} // namespace kp
