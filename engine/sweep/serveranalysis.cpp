#include "sweep/serveranalysis.h"

#include "metrics/phrase.h"
#include "sweep/analysistext.h"
#include "sweep/analysiswords.h"
#include "sweep/kneeanalysis.h"

#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace kp {

namespace {

QString count(double v)
{
    return QString::number(std::llround(v));
}

// A load of the all-at-once step is infinite: JSON has no number for it, the analysis writes "inf".
QJsonValue optional(const std::optional<double>& v)
{
    if (!v)
        return QJsonValue(QJsonValue::Null);
    return std::isinf(*v) ? QJsonValue(QStringLiteral("inf")) : QJsonValue(*v);
}

QJsonValue step(int index)
{
    return index >= 0 ? QJsonValue(index) : QJsonValue(QJsonValue::Null);
}

QString sideKey(const std::optional<HitRateSide>& side)
{
    if (!side)
        return {};
    return *side == HitRateSide::Server ? QStringLiteral("server") : QStringLiteral("client");
}

void analyzeHitRate(const std::vector<SweepPoint>& points, ServerFindings& f)
{
    std::vector<int> order;
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (!points[i].partial && !points[i].clientBound)
            order.push_back(static_cast<int>(i));
    }
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return points[a].offered < points[b].offered; });
    const bool server
        = std::any_of(order.begin(), order.end(), [&](int i) { return serverHitRate(points[i].server).has_value(); });
    auto rateOf = [&](const SweepPoint& p) { return server ? serverHitRate(p.server) : clientHitRate(p.metrics); };
    std::vector<std::pair<int, double>> rates; // step, rate; in load order
    for (int i : order) {
        if (const auto r = rateOf(points[i]))
            rates.emplace_back(i, *r);
    }
    if (rates.empty())
        return;
    f.hitRateSide = server ? HitRateSide::Server : HitRateSide::Client;
    f.hitRateSteps = int(rates.size());
    const auto peak = std::max_element(
        rates.begin(), rates.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    const auto& first = rates.front();
    const auto& last = rates.back();
    if (peak->second - last.second >= ServerFindings::kHitRateChange) {
        // The fall begins at the first step clearly below the peak (the last one is, at least).
        const auto after = std::find_if(std::next(peak), rates.end(),
            [&](const auto& r) { return peak->second - r.second >= ServerFindings::kHitRateChange; });
        f.hitRateTrend = -1;
        f.hitRateFrom = peak->second;
        f.hitRateTo = last.second;
        f.hitRateFromAt = points[after->first].offered;
        f.hitRateToAt = points[last.first].offered;
        f.hitRateStep = after->first;
        for (auto it = peak; it != rates.end(); ++it) {
            const std::optional<ServerStepStats>& s = points[it->first].server;
            if (s && s->kvUsageMax && *s->kvUsageMax >= ServerFindings::kKvFull)
                f.hitRateFellAsKvFilled = true;
        }
    } else if (last.second - first.second >= ServerFindings::kHitRateChange) {
        f.hitRateTrend = 1;
        f.hitRateFrom = first.second;
        f.hitRateTo = last.second;
        f.hitRateFromAt = points[first.first].offered;
        f.hitRateToAt = points[last.first].offered;
        f.hitRateStep = last.first;
    } else {
        double total = 0.0;
        for (const auto& r : rates)
            total += r.second;
        f.hitRateFrom = f.hitRateTo = total / double(rates.size());
        f.hitRateFromAt = points[first.first].offered;
        f.hitRateToAt = points[last.first].offered;
        f.hitRateStep = last.first;
    }
}

} // namespace

std::optional<double> serverHitRate(const std::optional<ServerStepStats>& server)
{
    if (!server || !server->prefixCacheHitRate || !std::isfinite(*server->prefixCacheHitRate))
        return std::nullopt;
    return server->prefixCacheHitRate;
}

std::optional<double> clientHitRate(const StepMetrics& metrics)
{
    const double rate = metrics.prefixCacheHitRate();
    if (!std::isfinite(rate))
        return std::nullopt;
    return rate;
}

ServerFindings analyzeServer(const std::vector<SweepPoint>& points)
{
    ServerFindings f;
    std::vector<int> order;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const SweepPoint& p = points[i];
        if (p.server && !p.partial && !p.clientBound)
            order.push_back(static_cast<int>(i));
    }
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return points[a].offered < points[b].offered; });
    double gapTotal = 0.0;
    int gapSteps = 0;
    for (int i : order) {
        const SweepPoint& p = points[i];
        const ServerStepStats& s = *p.server;
        f.available = true;
        if (f.engine.isEmpty())
            f.engine = s.engine;
        ++f.stepsWithTelemetry;
        if (s.kvUsageMax) {
            if (!f.peakKvUsage || *s.kvUsageMax > *f.peakKvUsage) {
                f.peakKvUsage = s.kvUsageMax;
                f.peakKvAt = p.offered;
                f.peakKvStep = i;
            }
            if (!f.kvFullAt && *s.kvUsageMax >= ServerFindings::kKvFull) {
                f.kvFullAt = p.offered;
                f.kvFullStep = i;
                f.kvFullUsage = *s.kvUsageMax;
            }
        }
        if (!f.preemptionsFrom && s.preemptions && *s.preemptions > 0) {
            f.preemptionsFrom = p.offered;
            f.preemptionStep = i;
            f.preemptionsThere = *s.preemptions;
        }
        if (s.ttftMeanMs && p.metrics.completed > 0) {
            gapTotal += p.metrics.ttft.mean - *s.ttftMeanMs;
            ++gapSteps;
        }
    }
    if (gapSteps > 0)
        f.ttftGapMs = gapTotal / gapSteps;
    // The queue grows from the lowest load after which every step kept requests waiting.
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const std::optional<double>& waiting = points[*it].server->waitingMean;
        if (!waiting)
            continue;
        if (*waiting < ServerFindings::kQueueing)
            break;
        f.queueGrowsAt = points[*it].offered;
        f.queueStep = *it;
    }
    if (f.kvFullAt && f.queueGrowsAt) {
        const auto kv = std::find(order.begin(), order.end(), f.kvFullStep);
        const auto queue = std::find(order.begin(), order.end(), f.queueStep);
        f.queueFollowsKv = queue >= kv && queue - kv <= 1;
    }
    analyzeHitRate(points, f);
    return f;
}

QList<AnalysisSentence> serverSentences(const ServerFindings& f, bool concurrencyMode)
{
    QList<AnalysisSentence> out;
    auto load = [&](double offered) {
        return std::isinf(offered) ? phrase("ServerAnalysis", "the all-at-once step")
                                   : loadWord(offered, concurrencyMode);
    };
    bool queueSaid = false;
    if (f.available && f.kvFullAt) {
        if (f.queueFollowsKv) {
            out.append({ AnalysisTopic::Server,
                phrase("ServerAnalysis", "KV cache reached %1 at %2; the waiting queue grew from there.")
                    .arg(words::wholePercent(f.kvFullUsage), load(*f.kvFullAt)),
                -1, f.kvFullStep });
            queueSaid = true;
        } else {
            out.append({ AnalysisTopic::Server,
                phrase("ServerAnalysis", "KV cache reached %1 at %2.")
                    .arg(words::wholePercent(f.kvFullUsage), load(*f.kvFullAt)),
                -1, f.kvFullStep });
        }
    } else if (f.available && f.peakKvUsage) {
        out.append({ AnalysisTopic::Server,
            phrase("ServerAnalysis", "KV cache usage peaked at %1 (at %2): the cache did not fill.")
                .arg(words::wholePercent(*f.peakKvUsage), load(f.peakKvAt)),
            -1, f.peakKvStep });
    }
    if (f.available && f.queueGrowsAt && !queueSaid) {
        out.append({ AnalysisTopic::Server,
            phrase("ServerAnalysis", "The server's waiting queue grew from %1 on.").arg(load(*f.queueGrowsAt)), -1,
            f.queueStep });
    }
    if (f.available && f.preemptionsFrom) {
        out.append({ AnalysisTopic::Server,
            phrase("ServerAnalysis", "Preemptions began at %1 (%2 in that step).")
                .arg(load(*f.preemptionsFrom), count(f.preemptionsThere)),
            -1, f.preemptionStep });
    }
    if (f.available && f.ttftGapMs) {
        const double gap = *f.ttftGapMs;
        out.append({ AnalysisTopic::Server,
            gap >= 0 ? phrase("ServerAnalysis",
                "The server's own TTFT was %1 ms below the client's on average: network and client overhead.")
                           .arg(QString::number(gap, 'f', gap >= 10 ? 0 : 1))
                     : phrase("ServerAnalysis",
                         "The server's own TTFT was %1 ms above the client's on average: its clock or histogram "
                         "buckets do not match the client's measurement.")
                           .arg(QString::number(-gap, 'f', -gap >= 10 ? 0 : 1)),
            -1, -1 });
    }
    if (f.hitRateSide) {
        const QString side = *f.hitRateSide == HitRateSide::Server
            ? phrase("ServerAnalysis", "the server's figures")
            : phrase("ServerAnalysis", "the client's figures: the cached tokens the responses reported");
        const QString from = words::wholePercent(f.hitRateFrom);
        const QString to = words::wholePercent(f.hitRateTo);
        QString text;
        if (f.hitRateTrend < 0 && f.hitRateFellAsKvFilled)
            text = phrase("ServerAnalysis",
                "The prefix-cache hit rate fell from %1 to %2 from %3 on, as the KV cache filled and evicted "
                "prefixes (%4).")
                       .arg(from, to, load(f.hitRateFromAt), side);
        else if (f.hitRateTrend < 0)
            text = phrase("ServerAnalysis", "The prefix-cache hit rate fell from %1 to %2 from %3 on (%4).")
                       .arg(from, to, load(f.hitRateFromAt), side);
        else if (f.hitRateTrend > 0)
            text = phrase("ServerAnalysis", "The prefix-cache hit rate rose from %1 at %2 to %3 at %4 (%5).")
                       .arg(from, load(f.hitRateFromAt), to, load(f.hitRateToAt), side);
        else if (f.hitRateSteps == 1)
            text = phrase("ServerAnalysis", "The prefix-cache hit rate was %1 at %2 (%3).")
                       .arg(from, load(f.hitRateFromAt), side);
        else
            text = phrase("ServerAnalysis", "The prefix-cache hit rate held steady at about %1 from %2 to %3 (%4).")
                       .arg(from, load(f.hitRateFromAt), load(f.hitRateToAt), side);
        out.append({ AnalysisTopic::Server, text, -1, f.hitRateStep });
    }
    return out;
}

QJsonValue serverFindingsJson(const ServerFindings& f)
{
    if (!f.available && !f.hitRateSide)
        return QJsonValue(QJsonValue::Null);
    QJsonObject o;
    o.insert(QLatin1String("engine"), f.engine.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(f.engine));
    o.insert(QLatin1String("steps"), f.stepsWithTelemetry);
    o.insert(QLatin1String("peak_kv_usage"), optional(f.peakKvUsage));
    o.insert(QLatin1String("peak_kv_step"), step(f.peakKvStep));
    o.insert(QLatin1String("kv_full_at"), optional(f.kvFullAt));
    o.insert(QLatin1String("kv_full_step"), step(f.kvFullStep));
    o.insert(QLatin1String("queue_grows_at"), optional(f.queueGrowsAt));
    o.insert(QLatin1String("queue_step"), step(f.queueStep));
    o.insert(QLatin1String("preemptions_from"), optional(f.preemptionsFrom));
    o.insert(QLatin1String("preemption_step"), step(f.preemptionStep));
    o.insert(QLatin1String("ttft_gap_ms"), optional(f.ttftGapMs));
    if (f.hitRateSide) {
        QJsonObject h;
        h.insert(QLatin1String("side"), sideKey(f.hitRateSide));
        h.insert(QLatin1String("steps"), f.hitRateSteps);
        h.insert(QLatin1String("trend"),
            f.hitRateTrend < 0       ? QStringLiteral("fell")
                : f.hitRateTrend > 0 ? QStringLiteral("rose")
                                     : QStringLiteral("steady"));
        h.insert(QLatin1String("from"), f.hitRateFrom);
        h.insert(QLatin1String("to"), f.hitRateTo);
        h.insert(QLatin1String("from_load"), optional(f.hitRateFromAt));
        h.insert(QLatin1String("to_load"), optional(f.hitRateToAt));
        h.insert(QLatin1String("step"), step(f.hitRateStep));
        h.insert(QLatin1String("kv_cache_filled"), f.hitRateFellAsKvFilled);
        o.insert(QLatin1String("prefix_cache_hit_rate"), h);
    } else {
        o.insert(QLatin1String("prefix_cache_hit_rate"), QJsonValue(QJsonValue::Null));
    }
    return o;
}

} // namespace kp
