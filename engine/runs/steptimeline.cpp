#include "runs/steptimeline.h"

#include "metrics/numberformat.h"
#include "profile/profile.h"

#include <algorithm>
#include <cmath>

namespace kp {

namespace {

constexpr qint64 kNsPerS = 1000000000;

int secondOf(qint64 ns)
{
    return ns <= 0 ? 0 : int(ns / kNsPerS);
}

// The first second whose end (the boundary at which in-flight requests are counted) is at or after ns.
int boundaryAfter(qint64 ns)
{
    return ns <= 0 ? 0 : int((ns - 1) / kNsPerS);
}

double toMs(qint64 ns)
{
    return double(ns) / 1e6;
}

bool sameValue(double a, double b)
{
    return (std::isnan(a) && std::isnan(b)) || a == b;
}

bool sameValue(const std::optional<double>& a, const std::optional<double>& b)
{
    return a.has_value() == b.has_value() && (!a || sameValue(*a, *b));
}

// p50 and p99 of the values, numpy's way; unknown for none.
std::pair<double, double> p50p99(std::vector<double>& values)
{
    if (values.empty())
        return { kUnknown, kUnknown };
    std::sort(values.begin(), values.end());
    return { LatencyStats::numpyPercentile(values, 50), LatencyStats::numpyPercentile(values, 99) };
}

std::optional<double> mean(const std::vector<double>& values)
{
    if (values.empty())
        return std::nullopt;
    return LatencyStats::numpySum(values.data(), values.size()) / double(values.size());
}

// Where a request ended: its end, else its last token, else when it was sent; -1 when it never was.
qint64 endOf(const RequestRecord& r)
{
    if (r.endNs >= 0)
        return r.endNs;
    if (r.lastTokenNs >= 0)
        return r.lastTokenNs;
    return r.sentNs;
}

} // namespace

bool TimelineSecond::operator==(const TimelineSecond& o) const
{
    return second == o.second && offered == o.offered && sent == o.sent && completed == o.completed
        && failed == o.failed && outputTokens == o.outputTokens && inFlight == o.inFlight
        && sameValue(ttftP50Ms, o.ttftP50Ms) && sameValue(ttftP99Ms, o.ttftP99Ms) && sameValue(itlP50Ms, o.itlP50Ms)
        && sameValue(itlP99Ms, o.itlP99Ms) && sameValue(running, o.running) && sameValue(waiting, o.waiting)
        && sameValue(kvUsage, o.kvUsage) && sameValue(prefixCacheHitRate, o.prefixCacheHitRate);
}

std::vector<TimelineRequest> StepTimeline::requestsIn(int second) const
{
    std::vector<TimelineRequest> out;
    for (const TimelineRequest& r : requests) {
        const qint64 at = r.scheduledNs >= 0 ? r.scheduledNs : r.sentNs;
        if (secondOf(at) == second)
            out.push_back(r);
    }
    return out;
}

qint64 StepTimeline::boundNs(double durationS)
{
    const double known = std::isfinite(durationS) && durationS > 0 ? durationS + kDrainMarginS : kMaxSpanS;
    return qint64(std::min(known, kMaxSpanS) * 1e9);
}

bool StepTimeline::within(const RequestRecord& r, qint64 boundNs)
{
    for (qint64 ns : { r.scheduledNs, r.sentNs, r.firstByteNs, r.firstTokenNs, r.lastTokenNs, r.endNs }) {
        if (ns > boundNs)
            return false;
    }
    return std::all_of(r.chunkNs.begin(), r.chunkNs.end(), [boundNs](qint64 ns) { return ns <= boundNs; });
}

StepTimeline StepTimeline::compute(
    const std::vector<RequestRecord>& allRecords, const std::vector<ServerSample>& allSamples, double durationS)
{
    StepTimeline t;
    // Only what falls within the step's bound: a second is allocated for every second up to the last event.
    const qint64 bound = boundNs(durationS);
    std::vector<const RequestRecord*> records;
    records.reserve(allRecords.size());
    for (const RequestRecord& r : allRecords) {
        if (within(r, bound))
            records.push_back(&r);
        else
            ++t.recordsOutside;
    }
    std::vector<ServerSample> samples;
    samples.reserve(allSamples.size());
    for (const ServerSample& s : allSamples) {
        if (std::isfinite(s.atS) && s.atS * 1e9 > double(bound))
            ++t.samplesOutside;
        else
            samples.push_back(s);
    }
    // The step's extent: the last thing that happened, client or server side.
    qint64 lastNs = -1;
    for (const RequestRecord* r : records) {
        for (qint64 ns : { r->scheduledNs, r->sentNs, r->firstTokenNs, r->lastTokenNs, r->endNs })
            lastNs = std::max(lastNs, ns);
        // Every chunk, not only the last: a file's chunks need not be in order.
        for (qint64 ns : r->chunkNs)
            lastNs = std::max(lastNs, ns);
    }
    for (const ServerSample& s : samples) {
        if (std::isfinite(s.atS) && s.atS >= 0)
            lastNs = std::max(lastNs, qint64(std::llround(s.atS * 1e9)));
    }
    if (lastNs < 0)
        return t;
    const int n = secondOf(lastNs) + 1;
    t.seconds.resize(std::size_t(n));
    for (int i = 0; i < n; ++i)
        t.seconds[std::size_t(i)].second = i;
    std::vector<std::vector<double>> ttfts(static_cast<std::size_t>(n)), itls(static_cast<std::size_t>(n));
    std::vector<std::vector<const RequestRecord*>> offeredBy(static_cast<std::size_t>(n));
    // In flight at the end of second i: sent by then and not ended by then, counted as +1 from the
    // first boundary at or after the send and -1 from the first at or after the end.
    std::vector<qint64> inFlightDelta(static_cast<std::size_t>(n) + 1, 0);

    for (const RequestRecord* record : records) {
        const RequestRecord& r = *record;
        const qint64 offeredAt = r.scheduledNs >= 0 ? r.scheduledNs : r.sentNs;
        if (offeredAt >= 0) {
            TimelineSecond& s = t.seconds[std::size_t(secondOf(offeredAt))];
            ++s.offered;
            offeredBy[std::size_t(s.second)].push_back(&r);
        }
        if (r.sentNs < 0)
            continue;
        ++t.seconds[std::size_t(secondOf(r.sentNs))].sent;
        const qint64 endNs = endOf(r);
        const int endSecond = secondOf(endNs);
        TimelineSecond& end = t.seconds[std::size_t(endSecond)];
        ++inFlightDelta[std::size_t(boundaryAfter(r.sentNs))];
        // A successful request whose stream never ended (a run killed mid-step) stays in flight.
        if (r.endNs >= 0 || r.lastTokenNs >= 0 || !r.success())
            --inFlightDelta[std::size_t(boundaryAfter(endNs))];
        if (!r.success()) {
            ++end.failed;
            continue;
        }
        ++end.completed;
        if (r.firstTokenNs >= 0)
            ttfts[std::size_t(endSecond)].push_back(toMs(r.firstTokenNs - r.sentNs));
        for (std::size_t i = 1; i < r.chunkNs.size(); ++i)
            itls[std::size_t(endSecond)].push_back(toMs(r.chunkNs[i] - r.chunkNs[i - 1]));
        if (r.outputTokens <= 0)
            continue;
        if (r.chunkNs.empty()) {
            const qint64 at = r.lastTokenNs >= 0 ? r.lastTokenNs : endNs;
            t.seconds[std::size_t(secondOf(at))].outputTokens += r.outputTokens;
        } else {
            const double perChunk = double(r.outputTokens) / double(r.chunkNs.size());
            for (qint64 ns : r.chunkNs)
                t.seconds[std::size_t(secondOf(ns))].outputTokens += perChunk;
        }
    }
    qint64 inFlight = 0;
    for (int i = 0; i < n; ++i) {
        TimelineSecond& s = t.seconds[std::size_t(i)];
        inFlight += inFlightDelta[std::size_t(i)];
        s.inFlight = inFlight;
        std::tie(s.ttftP50Ms, s.ttftP99Ms) = p50p99(ttfts[std::size_t(i)]);
        std::tie(s.itlP50Ms, s.itlP99Ms) = p50p99(itls[std::size_t(i)]);
        auto& offered = offeredBy[std::size_t(i)];
        std::stable_sort(offered.begin(), offered.end(), [](const RequestRecord* a, const RequestRecord* b) {
            const qint64 at = a->scheduledNs >= 0 ? a->scheduledNs : a->sentNs;
            const qint64 bt = b->scheduledNs >= 0 ? b->scheduledNs : b->sentNs;
            return at < bt || (at == bt && a->index < b->index);
        });
        for (std::size_t k = 0; k < offered.size() && k < std::size_t(kMaxRequestsPerSecond); ++k) {
            const RequestRecord& r = *offered[k];
            t.requests.push_back({ r.index, r.scheduledNs, r.sentNs, r.firstTokenNs, endOf(r), !r.success() });
        }
    }

    // The server's scrapes, in time order.
    std::vector<const ServerSample*> ordered;
    for (const ServerSample& s : samples) {
        if (std::isfinite(s.atS))
            ordered.push_back(&s);
    }
    std::stable_sort(
        ordered.begin(), ordered.end(), [](const ServerSample* a, const ServerSample* b) { return a->atS < b->atS; });
    std::size_t k = 0;
    const ServerSample* before = nullptr; // the last scrape before the second
    for (int i = 0; i < n; ++i) {
        std::vector<double> running, waiting, kv, hitRate;
        const ServerSample* first = nullptr;
        const ServerSample* last = nullptr;
        while (k < ordered.size() && ordered[k]->atS < double(i + 1)) {
            const ServerSample& s = *ordered[k++];
            if (s.running)
                running.push_back(*s.running);
            if (s.waiting)
                waiting.push_back(*s.waiting);
            if (s.kvUsage)
                kv.push_back(*s.kvUsage);
            if (s.prefixCacheHitRate)
                hitRate.push_back(*s.prefixCacheHitRate);
            if (!first)
                first = &s;
            last = &s;
        }
        TimelineSecond& s = t.seconds[std::size_t(i)];
        s.running = mean(running);
        s.waiting = mean(waiting);
        s.kvUsage = mean(kv);
        // The counters' difference from the scrape before the second (for the first second, its own
        // first scrape) to its last one.
        const ServerSample* from = before ? before : first;
        if (last && from && last->prefixCacheQueriesTotal && from->prefixCacheQueriesTotal && last->prefixCacheHitsTotal
            && from->prefixCacheHitsTotal && *last->prefixCacheQueriesTotal > *from->prefixCacheQueriesTotal)
            s.prefixCacheHitRate = (*last->prefixCacheHitsTotal - *from->prefixCacheHitsTotal)
                / (*last->prefixCacheQueriesTotal - *from->prefixCacheQueriesTotal);
        else
            s.prefixCacheHitRate = mean(hitRate);
        if (last)
            before = last;
    }
    return t;
}

QStringList StepTimeline::leftOutNotes(const QString& requestsPath, const QString& metricsPath, double durationS) const
{
    QStringList notes;
    const qint64 boundS = boundNs(durationS) / kNsPerS;
    const auto note = [boundS](const QString& path, qint64 count, const char* what) {
        return QStringLiteral("%1: %2 %3 with a time past %4 s into the step (its duration, %5 s for the drain, at "
                              "most a day) left out of the timeline")
            .arg(path)
            .arg(count)
            .arg(QLatin1String(what))
            .arg(boundS)
            .arg(kDrainMarginS);
    };
    if (recordsOutside > 0)
        notes << note(requestsPath, recordsOutside, recordsOutside == 1 ? "record" : "records");
    if (samplesOutside > 0)
        notes << note(metricsPath, samplesOutside, samplesOutside == 1 ? "scrape" : "scrapes");
    return notes;
}

QByteArray timelineCsvHeader()
{
    return QByteArrayLiteral("step,load,second,offered,sent,completed,failed,output_tokens_per_s,in_flight,"
                             "ttft_p50_ms,ttft_p99_ms,itl_p50_ms,itl_p99_ms,server_running,server_waiting,"
                             "server_kv_usage,server_prefix_cache_hit_rate\n");
}

QByteArray timelineCsvRows(int step, const QString& load, const StepTimeline& timeline)
{
    using namespace numberformat;
    // As the steps table's CSV: ten significant digits, no grouping, the same on every machine.
    auto num = [](double v) { return std::isfinite(v) ? QByteArray::number(v, 'g', 10) : QByteArray(); };
    auto opt = [&num](const std::optional<double>& v) { return v ? num(*v) : QByteArray(); };
    QByteArray loadCell = load.toUtf8();
    if (loadCell.contains(',') || loadCell.contains('"') || loadCell.contains('\n'))
        loadCell = '"' + loadCell.replace("\"", "\"\"") + '"';
    QByteArray out;
    for (const TimelineSecond& s : timeline.seconds) {
        const QList<QByteArray> cells { integer(step), loadCell, integer(s.second), integer(s.offered), integer(s.sent),
            integer(s.completed), integer(s.failed), num(s.outputTokens), integer(s.inFlight), num(s.ttftP50Ms),
            num(s.ttftP99Ms), num(s.itlP50Ms), num(s.itlP99Ms), opt(s.running), opt(s.waiting), opt(s.kvUsage),
            opt(s.prefixCacheHitRate) };
        out += cells.join(',') + '\n';
    }
    return out;
}

QString timelineLoad(const QString& load, const StepSetup& setup, const StepMetrics& metrics)
{
    if (metrics.numSessions <= 0 || !std::isfinite(setup.requestRate) || !(setup.requestRate > 0))
        return load;
    if (metrics.completed < 0 || metrics.failed < 0) // the requests per session are not known
        return QStringLiteral("%1 sessions/s").arg(formatRate(setup.requestRate));
    return QStringLiteral("%1 sessions/s (%2 req/s)")
        .arg(formatRate(setup.requestRate), formatRate(setup.requestRate * metrics.requestsPerSession()));
}

} // namespace kp
