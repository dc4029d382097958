#include "sweep/serveranalysis.h"

#include "metrics/inerttext.h"
#include "metrics/jsonvalues.h"
#include "metrics/phrase.h"
#include "sweep/analysistext.h"
#include "sweep/analysiswords.h"
#include "sweep/kneeanalysis.h"

#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace kp {

using namespace jsonvalues;

namespace {

QString count(double v)
{
    return QString::number(std::llround(v));
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

namespace {

void analyzeGpus(const std::vector<SweepPoint>& points, const std::vector<int>& order, ServerFindings& f)
{
    for (int i : order) {
        const SweepPoint& p = points[std::size_t(i)];
        const ServerStepStats& s = *p.server;
        if (!s.gpuPowerMeanW && !s.energyJ && !s.gpuUtilisationMean)
            continue;
        ServerFindings::GpuStep g;
        g.offered = p.offered;
        g.step = i;
        g.gpus = s.gpuCount;
        g.utilisation = s.gpuUtilisationMean;
        g.powerW = s.gpuPowerMeanW;
        g.joulesPerOutputToken = p.metrics.joulesPerOutputToken
            ? p.metrics.joulesPerOutputToken
            : s.joulesPerOutputToken(double(p.metrics.totalOutputTokens));
        f.gpuSteps.push_back(g);
        if (!f.gpuBusyAt && g.utilisation && *g.utilisation >= ServerFindings::kGpuBusy) {
            f.gpuBusyAt = p.offered;
            f.gpuBusyStep = i;
            f.gpuBusyUtilisation = *g.utilisation;
        }
    }
}

void analyzeReplicas(const std::vector<SweepPoint>& points, const std::vector<int>& order, ServerFindings& f)
{
    // Per model server (a URL whose figures name an engine): the lowest load where it saturated.
    struct Replica
    {
        QString url;
        std::optional<double> at;
        int step = -1;
        bool byKv = true;
        double value = 0.0;
    };
    std::vector<Replica> replicas;
    double checkedTo = 0.0;
    for (int i : order) {
        const SweepPoint& p = points[std::size_t(i)];
        for (const ServerStepStats& s : p.server->servers) {
            if (s.engine.isEmpty() || s.url.isEmpty())
                continue; // an exporter: no requests of its own
            auto it = std::find_if(replicas.begin(), replicas.end(), [&](const Replica& r) { return r.url == s.url; });
            if (it == replicas.end()) {
                replicas.push_back({ s.url, std::nullopt, -1, true, 0.0 });
                it = replicas.end() - 1;
            }
            checkedTo = std::max(checkedTo, p.offered);
            if (it->at)
                continue;
            if (s.kvUsageMax && *s.kvUsageMax >= ServerFindings::kKvFull) {
                *it = { s.url, p.offered, i, true, *s.kvUsageMax };
            } else if (s.waitingMean && *s.waitingMean >= ServerFindings::kQueueing) {
                *it = { s.url, p.offered, i, false, *s.waitingMean };
            }
        }
    }
    f.replicas = int(replicas.size());
    if (replicas.size() < 2)
        return;
    std::stable_sort(replicas.begin(), replicas.end(), [](const Replica& a, const Replica& b) {
        if (a.at.has_value() != b.at.has_value())
            return a.at.has_value();
        return a.at && *a.at < *b.at;
    });
    const Replica& first = replicas[0];
    const Replica& second = replicas[1];
    if (!first.at || (second.at && !(*first.at < *second.at)))
        return; // none saturated, or two at the same load: no replica stands out
    f.firstSaturatedUrl = first.url;
    f.firstSaturatedAt = first.at;
    f.firstSaturatedStep = first.step;
    f.firstSaturatedByKv = first.byKv;
    f.firstSaturatedValue = first.value;
    f.othersSaturateAt = second.at;
    f.othersCheckedTo = checkedTo;
}

// Whether a step's mean TTFT lies above the lightest step's beyond the noise the two measured: their 95 %
// intervals do not overlap, or, without intervals, it is 1.25 times as high.
bool ttftAboveNoise(const StepMetrics& base, const StepMetrics& step)
{
    const auto a = base.intervals.find(u"mean_ttft_ms");
    const auto b = step.intervals.find(u"mean_ttft_ms");
    if (a && b)
        return step.ttft.mean > base.ttft.mean && !a->overlaps(*b);
    return step.ttft.mean >= base.ttft.mean * 1.25;
}

void analyzeTtftBreakdown(const std::vector<SweepPoint>& points, const std::vector<int>& order, ServerFindings& f)
{
    struct Parts
    {
        int step = -1;
        double ttft = 0.0; // the client's mean, ms
        double part[3] = { 0.0, 0.0, 0.0 }; // client (the rest), queue, prefill; ms
    };
    std::vector<Parts> steps;
    for (int i : order) {
        const SweepPoint& p = points[std::size_t(i)];
        const ServerStepStats& s = *p.server;
        const double ttft = p.metrics.ttft.mean;
        if (!s.queueTime.meanMs || !s.prefillTime.meanMs || p.metrics.ttft.count <= 0 || !std::isfinite(ttft)
            || ttft <= 0)
            continue;
        const double queue = *s.queueTime.meanMs;
        const double prefill = *s.prefillTime.meanMs;
        steps.push_back({ i, ttft, { std::max(0.0, ttft - queue - prefill), queue, prefill } });
    }
    f.ttftBreakdownSteps = int(steps.size());
    if (steps.size() < 3)
        return; // the lightest step, and two to show a trend
    const Parts& base = steps.front();
    const StepMetrics& baseMetrics = points[std::size_t(base.step)].metrics;
    // The part that grew most over the lightest step, if it carries most of TTFT there; -1 otherwise.
    auto dominant = [&](const Parts& s) {
        if (!ttftAboveNoise(baseMetrics, points[std::size_t(s.step)].metrics))
            return -1;
        int best = 0;
        for (int k = 1; k < 3; ++k) {
            if (s.part[k] - base.part[k] > s.part[best] - base.part[best])
                best = k;
        }
        return s.part[best] >= ServerFindings::kTtftPartShare * s.ttft ? best : -1;
    };
    // The lowest step from which every heavier one names the same part, two steps at least.
    const int last = dominant(steps.back());
    if (last < 0)
        return;
    std::size_t from = steps.size() - 1;
    while (from > 1 && dominant(steps[from - 1]) == last)
        --from;
    if (steps.size() - from < 2)
        return;
    double share = 1.0;
    for (std::size_t k = from; k < steps.size(); ++k)
        share = std::min(share, steps[k].part[last] / steps[k].ttft);
    f.ttftPart = last == 1 ? ServerFindings::TtftPart::Queue
        : last == 2        ? ServerFindings::TtftPart::Prefill
                           : ServerFindings::TtftPart::Client;
    f.ttftPartStep = steps[from].step;
    f.ttftPartFrom = points[std::size_t(f.ttftPartStep)].offered;
    f.ttftPartShare = share;
}

QString ttftPartKey(ServerFindings::TtftPart part)
{
    switch (part) {
    case ServerFindings::TtftPart::Queue:
        return QStringLiteral("queue");
    case ServerFindings::TtftPart::Prefill:
        return QStringLiteral("prefill");
    case ServerFindings::TtftPart::Client:
        return QStringLiteral("client");
    case ServerFindings::TtftPart::None:
        break;
    }
    return {};
}

} // namespace

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
    analyzeGpus(points, order, f);
    analyzeReplicas(points, order, f);
    analyzeTtftBreakdown(points, order, f);
    return f;
}

namespace {

std::optional<double> valueAt(const std::vector<ServerFindings::GpuStep>& steps, double offered,
    std::optional<double> ServerFindings::GpuStep::*field)
{
    std::vector<std::pair<double, double>> known;
    for (const ServerFindings::GpuStep& s : steps) {
        if ((s.*field) && std::isfinite(s.offered))
            known.emplace_back(s.offered, *(s.*field));
    }
    if (known.empty() || !std::isfinite(offered))
        return std::nullopt;
    if (offered <= known.front().first)
        return known.front().second;
    if (offered >= known.back().first)
        return known.back().second;
    for (std::size_t i = 1; i < known.size(); ++i) {
        const auto& [x0, y0] = known[i - 1];
        const auto& [x1, y1] = known[i];
        if (offered <= x1)
            return x1 > x0 ? y0 + (y1 - y0) * (offered - x0) / (x1 - x0) : y1;
    }
    return known.back().second;
}

} // namespace

std::optional<double> ServerFindings::gpuPowerAt(double offered) const
{
    return valueAt(gpuSteps, offered, &GpuStep::powerW);
}

std::optional<double> ServerFindings::joulesPerOutputTokenAt(double offered) const
{
    return valueAt(gpuSteps, offered, &GpuStep::joulesPerOutputToken);
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
    if (f.ttftPartFrom) {
        const QString from = load(*f.ttftPartFrom);
        const QString share = words::wholePercent(f.ttftPartShare);
        QString text;
        if (f.ttftPart == ServerFindings::TtftPart::Queue)
            text = phrase("ServerAnalysis",
                "From %1 on, queue time is %2 of mean TTFT: requests wait for a batch slot; max_num_seqs or more "
                "replicas raise the knee, a faster prefill does not.")
                       .arg(from, share);
        else if (f.ttftPart == ServerFindings::TtftPart::Prefill)
            text = phrase("ServerAnalysis",
                "From %1 on, prefill time is %2 of mean TTFT: prompts take longer to process as the batch fills; a "
                "larger token budget per step (max_num_batched_tokens), prefix caching or a faster GPU raise the "
                "knee, more batch slots do not.")
                       .arg(from, share);
        else
            text = phrase("ServerAnalysis",
                "From %1 on, %2 of mean TTFT is spent outside the server's queue and prefill (network, new "
                "connections, the client): check the client's health and the network before tuning the server.")
                       .arg(from, share);
        out.append({ AnalysisTopic::Server, text, -1, f.ttftPartStep });
    }
    if (f.firstSaturatedAt) {
        const QString url = inertText(f.firstSaturatedUrl);
        const QString what = f.firstSaturatedByKv
            ? phrase("ServerAnalysis", "its KV cache reached %1").arg(words::wholePercent(f.firstSaturatedValue))
            : phrase("ServerAnalysis", "%1 requests waited on average").arg(count(f.firstSaturatedValue));
        const QString others = f.othersSaturateAt
            ? phrase("ServerAnalysis", "the next of the %1 servers only at %2")
                  .arg(f.replicas)
                  .arg(load(*f.othersSaturateAt))
            : phrase("ServerAnalysis", "the other %1 not up to %2").arg(f.replicas - 1).arg(load(f.othersCheckedTo));
        out.append({ AnalysisTopic::Server,
            phrase("ServerAnalysis",
                "One server saturated before the others: %1 at %2 (%3), %4; the load is not "
                "spread evenly, or that server is slower.")
                .arg(url, load(*f.firstSaturatedAt), what, others),
            -1, f.firstSaturatedStep });
    }
    if (!f.gpuSteps.empty()) {
        // The GPUs at the heaviest load they were measured at, and where they became busy.
        const ServerFindings::GpuStep& top = f.gpuSteps.back();
        QStringList parts;
        if (top.utilisation)
            parts << phrase("ServerAnalysis", "%1 busy").arg(words::wholePercent(*top.utilisation / 100.0));
        if (top.powerW)
            parts << phrase("ServerAnalysis", "drawing %1").arg(words::power(*top.powerW));
        if (top.joulesPerOutputToken)
            parts << phrase("ServerAnalysis", "%1 J per output token").arg(words::number(*top.joulesPerOutputToken));
        const QString gpus = top.gpus ? phrase("ServerAnalysis", "The %1 GPUs were").arg(*top.gpus)
                                      : phrase("ServerAnalysis", "The GPUs were");
        QString text
            = phrase("ServerAnalysis", "%1 %2 at %3.").arg(gpus, parts.join(QStringLiteral(", ")), load(top.offered));
        if (f.gpuBusyAt && f.gpuBusyStep == f.gpuSteps.front().step && f.gpuSteps.size() > 1)
            // Busy at the lightest load: the figure is the time any kernel runs, not how full the batch is.
            text += QLatin1Char(' ')
                + phrase("ServerAnalysis",
                    "They were already %1 busy at %2: GPU utilisation counts the time any kernel runs, not how "
                    "full the batch is, so it says little about the headroom left.")
                      .arg(words::wholePercent(f.gpuBusyUtilisation / 100.0), load(*f.gpuBusyAt));
        else if (f.gpuBusyAt && f.gpuBusyStep != top.step)
            text += QLatin1Char(' ')
                + phrase("ServerAnalysis", "They were %1 busy from %2 on.")
                      .arg(words::wholePercent(f.gpuBusyUtilisation / 100.0), load(*f.gpuBusyAt));
        if (!parts.isEmpty())
            out.append({ AnalysisTopic::Server, text, -1, top.step });
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
        else if (f.hitRateTo < 0.005 && f.hitRateSteps > 1)
            // Nothing to explain about the curve: the prompts shared no prefix the cache could reuse.
            text = phrase("ServerAnalysis",
                "The prefix cache found almost nothing to reuse (a hit rate under 0.5% from %1 to %2, %3): "
                "the prompts share no prefix.")
                       .arg(load(f.hitRateFromAt), load(f.hitRateToAt), side);
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
    if (!f.available && !f.hitRateSide && f.gpuSteps.empty())
        return QJsonValue(QJsonValue::Null);
    QJsonObject o;
    o.insert(QLatin1String("engine"), stringOrNull(f.engine));
    o.insert(QLatin1String("steps"), f.stepsWithTelemetry);
    o.insert(QLatin1String("peak_kv_usage"), numberOrText(f.peakKvUsage));
    o.insert(QLatin1String("peak_kv_step"), indexOrNull(f.peakKvStep));
    o.insert(QLatin1String("kv_full_at"), numberOrText(f.kvFullAt));
    o.insert(QLatin1String("kv_full_step"), indexOrNull(f.kvFullStep));
    o.insert(QLatin1String("queue_grows_at"), numberOrText(f.queueGrowsAt));
    o.insert(QLatin1String("queue_step"), indexOrNull(f.queueStep));
    o.insert(QLatin1String("preemptions_from"), numberOrText(f.preemptionsFrom));
    o.insert(QLatin1String("preemption_step"), indexOrNull(f.preemptionStep));
    o.insert(QLatin1String("ttft_gap_ms"), numberOrText(f.ttftGapMs));
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
        h.insert(QLatin1String("from_load"), numberOrText(f.hitRateFromAt));
        h.insert(QLatin1String("to_load"), numberOrText(f.hitRateToAt));
        h.insert(QLatin1String("step"), indexOrNull(f.hitRateStep));
        h.insert(QLatin1String("kv_cache_filled"), f.hitRateFellAsKvFilled);
        o.insert(QLatin1String("prefix_cache_hit_rate"), h);
    } else {
        o.insert(QLatin1String("prefix_cache_hit_rate"), QJsonValue(QJsonValue::Null));
    }
    // GPUs: each step with exporter figures, and where they became busy.
    if (f.gpuSteps.empty()) {
        o.insert(QLatin1String("gpus"), QJsonValue(QJsonValue::Null));
    } else {
        QJsonArray steps;
        for (const ServerFindings::GpuStep& g : f.gpuSteps) {
            QJsonObject e;
            e.insert(QLatin1String("load"), numberOrText(g.offered));
            e.insert(QLatin1String("step"), indexOrNull(g.step));
            e.insert(QLatin1String("gpus"), valueOrNull(g.gpus));
            e.insert(QLatin1String("utilisation_percent"), numberOrText(g.utilisation));
            e.insert(QLatin1String("power_w"), numberOrText(g.powerW));
            e.insert(QLatin1String("joules_per_output_token"), numberOrText(g.joulesPerOutputToken));
            steps.append(e);
        }
        QJsonObject g;
        g.insert(QLatin1String("steps"), steps);
        g.insert(QLatin1String("busy_from"), numberOrText(f.gpuBusyAt));
        g.insert(QLatin1String("busy_step"), indexOrNull(f.gpuBusyStep));
        o.insert(QLatin1String("gpus"), g);
    }
    if (f.ttftPartFrom) {
        QJsonObject t;
        t.insert(QLatin1String("part"), ttftPartKey(f.ttftPart));
        t.insert(QLatin1String("from"), numberOrText(f.ttftPartFrom));
        t.insert(QLatin1String("step"), indexOrNull(f.ttftPartStep));
        t.insert(QLatin1String("share_of_mean_ttft"), f.ttftPartShare);
        t.insert(QLatin1String("steps"), f.ttftBreakdownSteps);
        o.insert(QLatin1String("ttft_growth"), t);
    } else {
        o.insert(QLatin1String("ttft_growth"), QJsonValue(QJsonValue::Null));
    }
    o.insert(QLatin1String("replicas"), f.replicas);
    if (f.firstSaturatedAt) {
        QJsonObject r;
        r.insert(QLatin1String("url"), f.firstSaturatedUrl);
        r.insert(QLatin1String("load"), numberOrText(f.firstSaturatedAt));
        r.insert(QLatin1String("step"), indexOrNull(f.firstSaturatedStep));
        r.insert(QLatin1String("by"), f.firstSaturatedByKv ? QStringLiteral("kv_cache") : QStringLiteral("queue"));
        r.insert(QLatin1String("value"), f.firstSaturatedValue);
        r.insert(QLatin1String("others_from"), numberOrText(f.othersSaturateAt));
        r.insert(QLatin1String("checked_to"), numberOrText(f.othersCheckedTo));
        o.insert(QLatin1String("first_saturated_replica"), r);
    } else {
        o.insert(QLatin1String("first_saturated_replica"), QJsonValue(QJsonValue::Null));
    }
    return o;
}

} // namespace kp
