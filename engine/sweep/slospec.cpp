#include "sweep/slospec.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

namespace kp {

using namespace Qt::StringLiterals;

QString parseSloSpec(QStringView spec, Slo& slo)
{
    static const QRegularExpression separators(u"[\\s,]+"_s);
    const QStringList items = spec.toString().split(separators, Qt::SkipEmptyParts);
    if (items.isEmpty())
        return u"empty SLO: write metric:percentile:ms, for example ttft:p99:500"_s;
    Slo out = slo;
    std::vector<std::pair<QString, double>> given; // the items that name a percentile: metric, percentile
    for (const QString& item : items) {
        const QStringList parts = item.split(u':');
        const QString name = parts.front().trimmed().toLower();
        if (name == u"errors" || name == u"error" || name == u"error_rate") {
            if (parts.size() != 2)
                return u"\"%1\": write the error limit as errors:PERCENT, for example errors:1%"_s.arg(item);
            QString text = parts[1].trimmed();
            const bool percent = text.endsWith(u'%');
            if (percent)
                text.chop(1);
            bool ok = false;
            const double value = text.toDouble(&ok);
            const double rate = percent ? value / 100.0 : value;
            if (!ok || !std::isfinite(rate) || rate < 0.0 || rate > 1.0)
                return u"\"%1\": \"%2\" is not an error rate; write a percentage such as 1% (or a fraction from 0 "
                       u"to 1)"_s.arg(item, parts[1]);
            out.maxErrorRate = rate;
            continue;
        }
        std::optional<double>* limit = name == u"ttft" ? &out.ttftMs
            : name == u"tpot"                          ? &out.tpotMs
            : name == u"e2el"                          ? &out.e2elMs
            : name == u"ttfc"                          ? &out.ttfcMs
                                                       : nullptr;
        if (!limit) {
            if (name == u"itl")
                return u"\"%1\": ITL has no SLO; use ttft, ttfc, tpot, e2el or errors"_s.arg(item);
            return u"\"%1\": unknown metric \"%2\"; use ttft, ttfc, tpot, e2el or errors"_s.arg(item, parts.front());
        }
        if (parts.size() != 2 && parts.size() != 3)
            return u"\"%1\": write metric:percentile:ms (ttft:p99:500) or metric:ms (ttft:500)"_s.arg(item);
        if (parts.size() == 3) {
            QString word = parts[1].trimmed();
            if (word.startsWith(u'p') || word.startsWith(u'P'))
                word.remove(0, 1);
            bool ok = false;
            const double p = word.toDouble(&ok);
            if (!ok || !(p > 0.0) || p > 100.0)
                return u"\"%1\": \"%2\" is not a percentile; write p50, p99 or p99.9"_s.arg(item, parts[1]);
            given.push_back({ name, p });
        }
        QString text = parts.back().trimmed().toLower();
        double scale = 1.0;
        if (text.endsWith(u"ms")) {
            text.chop(2);
        } else if (text.endsWith(u's')) {
            text.chop(1);
            scale = 1000.0;
        }
        bool ok = false;
        const double ms = text.toDouble(&ok) * scale;
        if (!ok || !std::isfinite(ms) || !(ms > 0.0))
            return u"\"%1\": \"%2\" is not a time; write milliseconds (500 or 500ms) or seconds (0.5s)"_s.arg(
                item, parts.back());
        *limit = ms;
    }
    // One percentile named by every item that names one is the SLO's percentile, as before each limit
    // could have its own; different ones stay with their limits.
    const bool shared
        = std::all_of(given.begin(), given.end(), [&](const auto& g) { return g.second == given.front().second; });
    for (const auto& [name, p] : given) {
        std::optional<double>& own = name == u"ttft" ? out.ttftPercentile
            : name == u"tpot"                        ? out.tpotPercentile
            : name == u"ttfc"                        ? out.ttfcPercentile
                                                     : out.e2elPercentile;
        if (shared) {
            out.percentile = p;
            own.reset();
        } else {
            own = p;
        }
    }
    if (shared && !given.empty()) {
        out.ttftPercentile.reset();
        out.tpotPercentile.reset();
        out.e2elPercentile.reset();
        out.ttfcPercentile.reset();
    }
    slo = out;
    return {};
}

QString parseSloSpecs(const QStringList& specs, Slo& slo)
{
    return parseSloSpec(specs.join(u' '), slo);
}

} // namespace kp
