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
    return f;
}

QList<AnalysisSentence> serverSentences(const ServerFindings& f, bool concurrencyMode)
{
    QList<AnalysisSentence> out;
    if (!f.available)
        return out;
    auto load = [&](double offered) {
        return std::isinf(offered) ? phrase("ServerAnalysis", "the all-at-once step")
                                   : loadWord(offered, concurrencyMode);
    };
    bool queueSaid = false;
    if (f.kvFullAt) {
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
    } else if (f.peakKvUsage) {
        out.append({ AnalysisTopic::Server,
            phrase("ServerAnalysis", "KV cache usage peaked at %1 (at %2): the cache did not fill.")
                .arg(words::wholePercent(*f.peakKvUsage), load(f.peakKvAt)),
            -1, f.peakKvStep });
    }
    if (f.queueGrowsAt && !queueSaid) {
        out.append({ AnalysisTopic::Server,
            phrase("ServerAnalysis", "The server's waiting queue grew from %1 on.").arg(load(*f.queueGrowsAt)), -1,
            f.queueStep });
    }
    if (f.preemptionsFrom) {
        out.append({ AnalysisTopic::Server,
            phrase("ServerAnalysis", "Preemptions began at %1 (%2 in that step).")
                .arg(load(*f.preemptionsFrom), count(f.preemptionsThere)),
            -1, f.preemptionStep });
    }
    if (f.ttftGapMs) {
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
    return out;
}

QJsonValue serverFindingsJson(const ServerFindings& f)
{
    if (!f.available)
        return QJsonValue(QJsonValue::Null);
    QJsonObject o;
    o.insert(QLatin1String("engine"), f.engine);
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
    return o;
}

} // namespace kp
