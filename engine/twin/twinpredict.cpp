#include "twin/twin.h"

#include "load/arrivalschedule.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <random>

namespace kp::twin {

StepMetrics simulateLoad(const sim::SimParams& params, int replicas, LoadMode mode, double load,
    const std::vector<TwinRequest>& requests, const MetricsOptions& metrics)
{
    replicas = std::max(1, replicas);
    std::vector<sim::SimModel> models;
    models.reserve(std::size_t(replicas));
    for (int i = 0; i < replicas; ++i)
        models.emplace_back(params);
    std::vector<double> nowMs(std::size_t(replicas), 0.0);

    const auto toNs = [](double ms) { return static_cast<qint64>(std::llround(ms * 1e6)); };
    std::vector<RequestRecord> records;
    records.reserve(requests.size());
    // Sends not yet handed to a model, by time (ms), then index.
    using Due = std::pair<double, std::size_t>;
    std::priority_queue<Due, std::vector<Due>, std::greater<>> due;
    std::size_t next = 0;
    const auto send = [&](double atMs) {
        if (next >= requests.size())
            return;
        RequestRecord r;
        r.index = qint64(next);
        r.scheduledNs = r.sentNs = toNs(atMs);
        r.promptTokens = requests[next].promptTokens;
        records.push_back(r);
        due.emplace(atMs, next);
        ++next;
    };

    const bool closedLoop = mode == LoadMode::Concurrency;
    if (closedLoop) {
        const int users = int(std::clamp(load, 1.0, 1e6));
        for (int i = 0; i < users; ++i)
            send(0);
    } else {
        const bool replay = !requests.empty()
            && std::all_of(requests.begin(), requests.end(), [](const TwinRequest& r) { return r.sendMs >= 0; });
        if (replay) {
            for (std::size_t i = 0; i < requests.size(); ++i)
                send(requests[i].sendMs);
        } else {
            ArrivalOptions arrivals;
            arrivals.rate = load;
            for (qint64 at : ArrivalSchedule::offsetsNs(qint64(requests.size()), arrivals))
                send(double(at) / 1e6);
        }
    }

    std::size_t roundRobin = 0;
    while (true) {
        int busy = -1;
        for (int m = 0; m < replicas; ++m) {
            if (models[std::size_t(m)].hasWork() && (busy < 0 || nowMs[std::size_t(m)] < nowMs[std::size_t(busy)]))
                busy = m;
        }
        if (busy < 0 && due.empty())
            break;
        if (!due.empty() && (busy < 0 || due.top().first <= nowMs[std::size_t(busy)])) {
            const auto [atMs, index] = due.top();
            due.pop();
            const int m = int(roundRobin++ % std::size_t(replicas));
            sim::SimModel& model = models[std::size_t(m)];
            if (!model.hasWork())
                nowMs[std::size_t(m)] = std::max(nowMs[std::size_t(m)], atMs);
            if (!model.addRequest(quint64(index), requests[index].promptTokens, requests[index].outputTokens, atMs)) {
                RequestRecord& r = records[index];
                r.failure = FailureClass::HttpOther;
                r.httpStatus = 400;
                r.endNs = r.sentNs;
                if (closedLoop)
                    send(atMs);
            }
            continue;
        }
        const sim::Iteration it = models[std::size_t(busy)].runIteration(nowMs[std::size_t(busy)]);
        nowMs[std::size_t(busy)] = it.endMs;
        const qint64 atNs = toNs(it.endMs);
        for (const sim::TokenEvent& token : it.tokens) {
            RequestRecord& r = records[std::size_t(token.id)];
            if (token.tokenIndex == 0)
                r.firstByteNs = r.firstTokenNs = r.firstContentNs = atNs;
            r.chunkNs.push_back(atNs);
            if (token.last) {
                r.lastTokenNs = r.endNs = atNs;
                r.httpStatus = 200;
                r.outputTokens = token.tokenIndex + 1;
                r.outputTokensFromUsage = true;
                r.serverPromptTokens = r.promptTokens;
                if (closedLoop)
                    send(it.endMs);
            }
        }
    }
    const double durationS = double(StepMetrics::stepDurationNs(records)) / 1e9;
    return StepMetrics::fromRecords(records, durationS, metrics);
}

namespace {

struct Overridable
{
    const char* key;
    bool integer;
    double min; // inclusive
    double max; // inclusive unless maxExclusive
    bool minExclusive;
    bool maxExclusive;
    double* (*field)(sim::SimParams&);
    int* (*intField)(sim::SimParams&);
};

const Overridable overridables[] = {
    { "max_num_seqs", true, 1, 100000, false, false, nullptr, [](sim::SimParams& p) { return &p.maxNumSeqs; } },
    { "kv_capacity_tokens", true, 1, 1 << 30, false, false, nullptr,
        [](sim::SimParams& p) { return &p.kvCapacityTokens; } },
    { "max_num_batched_tokens", true, 1, 10000000, false, false, nullptr,
        [](sim::SimParams& p) { return &p.maxNumBatchedTokens; } },
    { "max_model_len", true, 2, 10000000, false, false, nullptr, [](sim::SimParams& p) { return &p.maxModelLen; } },
    { "block_size", true, 1, 1024, false, false, nullptr, [](sim::SimParams& p) { return &p.blockSize; } },
    { "t_base_ms", false, 0, 1e6, true, false, [](sim::SimParams& p) { return &p.tBaseMs; }, nullptr },
    { "per_decode_ms", false, 0, 1e6, false, false, [](sim::SimParams& p) { return &p.perDecodeMs; }, nullptr },
    { "per_prefill_token_ms", false, 0, 1e6, false, false, [](sim::SimParams& p) { return &p.perPrefillTokenMs; },
        nullptr },
    { "per_kv_token_ms", false, 0, 1e6, false, false, [](sim::SimParams& p) { return &p.perKvTokenMs; }, nullptr },
    { "per_waiting_ms", false, 0, 1e6, false, false, [](sim::SimParams& p) { return &p.perWaitingMs; }, nullptr },
    { "kv_watermark", false, 0, 1, false, true, [](sim::SimParams& p) { return &p.kvWatermark; }, nullptr },
};

QString rangeWord(const Overridable& o)
{
    const QString lo = QString::number(o.min, 'g', 12), hi = QString::number(o.max, 'g', 12);
    return QStringLiteral("%1 %2 %3 %4 %5%6")
        .arg(o.integer ? QStringLiteral("an integer") : QStringLiteral("a number"),
            o.minExclusive ? QStringLiteral("above") : QStringLiteral("from"), lo,
            o.maxExclusive ? QStringLiteral("to below") : QStringLiteral("to"), hi, QString());
}

} // namespace

QStringList overridableParameters()
{
    QStringList keys;
    for (const Overridable& o : overridables)
        keys.append(QString::fromLatin1(o.key));
    return keys;
}

QString applyOverride(sim::SimParams& params, const QString& assignment)
{
    const qsizetype eq = assignment.indexOf(QLatin1Char('='));
    if (eq <= 0)
        return QStringLiteral("--set %1: expected NAME=VALUE or NAME=xFACTOR (names: %2)")
            .arg(assignment, overridableParameters().join(QStringLiteral(", ")));
    const QString name = assignment.left(eq).trimmed();
    QString value = assignment.mid(eq + 1).trimmed();
    const Overridable* o = nullptr;
    for (const Overridable& candidate : overridables) {
        if (name == QLatin1String(candidate.key))
            o = &candidate;
    }
    if (!o)
        return QStringLiteral("--set %1: '%2' is not a parameter of the twin (parameters: %3)")
            .arg(assignment, name, overridableParameters().join(QStringLiteral(", ")));
    const double current = o->integer ? double(*o->intField(params)) : *o->field(params);
    const bool multiplier = value.startsWith(QLatin1Char('x')) || value.startsWith(QLatin1Char('X'));
    if (multiplier)
        value.remove(0, 1);
    bool ok = false;
    const double number = value.toDouble(&ok);
    if (!ok || !std::isfinite(number))
        return QStringLiteral("--set %1: '%2' is not a number; %3 must be %4, or xFACTOR for a multiple of its value "
                              "(%5)")
            .arg(assignment, value, name, rangeWord(*o), QString::number(current, 'g', 12));
    if (multiplier && !(number > 0))
        return QStringLiteral("--set %1: the factor must be above 0").arg(assignment);
    double v = multiplier ? current * number : number;
    if (o->integer) {
        if (!multiplier && v != std::floor(v))
            return QStringLiteral("--set %1: %2 must be %3").arg(assignment, name, rangeWord(*o));
        v = std::round(v);
    }
    const bool below = o->minExclusive ? v <= o->min : v < o->min;
    const bool above = o->maxExclusive ? v >= o->max : v > o->max;
    if (below || above)
        return QStringLiteral("--set %1: %2 must be %3, got %4")
            .arg(assignment, name, rangeWord(*o), QString::number(v, 'g', 12));
    if (o->integer)
        *o->intField(params) = int(v);
    else
        *o->field(params) = v;
    return {};
}

std::vector<SweepPoint> predict(const Twin& twin, const std::vector<PredictLoad>& loads, const PredictOptions& options)
{
    MetricsOptions metrics;
    metrics.percentiles = options.percentiles;
    std::vector<PredictLoad> sorted = loads;
    std::stable_sort(sorted.begin(), sorted.end(), [](const PredictLoad& a, const PredictLoad& b) {
        return a.mode != b.mode ? a.mode < b.mode : a.load < b.load;
    });
    const int count = options.requestsPerStep > 0 ? options.requestsPerStep : std::max(1, twin.requestsPerStep);
    const double burstiness = options.burstiness > 0 ? options.burstiness : twin.burstiness;
    std::vector<SweepPoint> points;
    for (const PredictLoad& load : sorted) {
        // The source's lengths in order, repeated; send times from the arrival schedule (rate) or none (users).
        std::vector<TwinRequest> requests;
        requests.reserve(std::size_t(count));
        for (int i = 0; i < count; ++i) {
            TwinRequest r = twin.workload.empty() ? TwinRequest { 200, 230, -1 }
                                                  : twin.workload[std::size_t(i) % twin.workload.size()];
            r.sendMs = -1;
            requests.push_back(r);
        }
        if (load.mode == LoadMode::Rate) {
            ArrivalOptions arrivals;
            arrivals.rate = load.load;
            arrivals.burstiness = burstiness;
            arrivals.seed = options.seed;
            const std::vector<qint64> at = ArrivalSchedule::offsetsNs(count, arrivals);
            for (std::size_t i = 0; i < at.size() && i < requests.size(); ++i)
                requests[i].sendMs = double(at[i]) / 1e6;
        }
        SweepPoint p;
        p.concurrencyMode = load.mode == LoadMode::Concurrency;
        p.offered = load.load;
        p.planned = count;
        p.metrics = simulateLoad(twin.params, options.replicas, load.mode, load.load, requests, metrics);
        points.push_back(std::move(p));
    }
    return points;
}

QString noRequestFits(const Twin& twin, const std::vector<SweepPoint>& points)
{
    qint64 failed = 0;
    for (const SweepPoint& p : points) {
        if (p.metrics.completed > 0)
            return {};
        failed += std::max<qint64>(0, p.metrics.failed);
    }
    if (points.empty() || failed == 0)
        return {};
    int largest = 0;
    for (const TwinRequest& r : twin.workload)
        largest = std::max(largest, r.promptTokens + r.outputTokens);
    QString text = QStringLiteral("no request completes at any load: all %1 predicted requests failed").arg(failed);
    if (largest > twin.params.kvCapacityTokens)
        text += QStringLiteral("; the KV cache holds %1 tokens (kv_capacity_tokens) and the largest request needs %2")
                    .arg(twin.params.kvCapacityTokens)
                    .arg(largest);
    return text;
}

} // namespace kp::twin
