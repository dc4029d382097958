#include "twin/twinfit_p.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

// The start values of the fit: what the request records say about the server's iterations, what the steps'
// summaries say by Little's law, and the queue before the engine the TTFT's growth asks for.

namespace kp::twin::detail {

namespace {

// What the request records say about the server's iterations. Every running sequence emits one token
// at the end of each iteration, so the distinct token times are the iterations' ends: the gap between
// two is an iteration's time while the server was busy, and the requests emitting at its end say what
// it computed (a first token: the prompt's prefill; a later one: a decode over the tokens so far).
struct IterationSample
{
    double ms = 0;
    double decode = 0, prefill = 0, kv = 0;
    int waiting = 0;
};

struct Observed
{
    std::vector<IterationSample> samples;
    int maxRunning = 0; // most sequences emitting in one iteration
    double maxCacheTokens = 0; // most cache held by them, in whole blocks
    int preempted = 0; // requests missing from an iteration between their first and last token
    int unaligned = 0; // steps whose token times do not line up into iterations
};

void observe(const std::vector<RequestRecord>& records, int blockSize, bool concurrent, Observed& o)
{
    std::vector<qint64> times;
    for (const RequestRecord& r : records)
        times.insert(times.end(), r.chunkNs.begin(), r.chunkNs.end());
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    const std::size_t n = times.size();
    if (n < 2)
        return;
    // Only token times read as the server wrote them line up across requests (a simulated step, or a
    // server on the wall clock read without lag); times that each request's reads smeared apart say
    // nothing about iterations, and the first estimates then come from the percentiles alone.
    std::size_t events = 0, shared = 0;
    {
        std::vector<std::pair<qint64, qint64>> byTime; // (time, request)
        for (const RequestRecord& r : records) {
            qint64 last = -1;
            for (qint64 t : r.chunkNs) {
                if (t != last)
                    byTime.emplace_back(t, r.index);
                last = t;
            }
        }
        std::sort(byTime.begin(), byTime.end());
        for (std::size_t i = 0; i < byTime.size(); ++i) {
            ++events;
            const bool before = i > 0 && byTime[i - 1].first == byTime[i].first;
            const bool after = i + 1 < byTime.size() && byTime[i + 1].first == byTime[i].first;
            shared += before || after ? 1 : 0;
        }
    }
    if (concurrent && (events == 0 || double(shared) < 0.5 * double(events))) {
        ++o.unaligned;
        return;
    }
    std::vector<IterationSample> it(n);
    std::vector<int> emitting(n, 0);
    std::vector<double> blocks(n, 0);
    std::vector<qint64> sends, firsts, lasts;
    for (const RequestRecord& r : records) {
        if (r.chunkNs.empty())
            continue;
        std::vector<std::size_t> at;
        for (qint64 t : r.chunkNs)
            at.push_back(std::size_t(std::lower_bound(times.begin(), times.end(), t) - times.begin()));
        at.erase(std::unique(at.begin(), at.end()), at.end());
        if (concurrent && at.back() - at.front() + 1 > at.size())
            ++o.preempted;
        // A preempted request waits through the iterations it misses and is prefilled again (prompt and
        // output so far) in the one it comes back in: those iterations are not plain decodes.
        for (std::size_t j = 1; j < at.size(); ++j) {
            for (std::size_t k = at[j - 1] + 1; k <= at[j] && at[j] > at[j - 1] + 1; ++k)
                ++it[k].waiting;
        }
        const double perChunk = double(r.outputTokens) / double(at.size());
        for (std::size_t j = 0; j < at.size(); ++j) {
            const double generated = std::floor(double(j) * perChunk);
            IterationSample& s = it[at[j]];
            if (j == 0) {
                s.prefill += r.promptTokens;
                s.kv += r.promptTokens;
            } else {
                s.decode += 1;
                s.kv += r.promptTokens + generated;
            }
            ++emitting[at[j]];
            blocks[at[j]] += std::ceil((r.promptTokens + generated) / blockSize);
        }
        sends.push_back(r.scheduledNs >= 0 ? r.scheduledNs : r.sentNs);
        firsts.push_back(r.firstTokenNs);
        lasts.push_back(r.lastTokenNs);
    }
    std::sort(sends.begin(), sends.end());
    std::sort(firsts.begin(), firsts.end());
    std::sort(lasts.begin(), lasts.end());
    const auto countUpTo = [](const std::vector<qint64>& v, qint64 t) {
        return qint64(std::upper_bound(v.begin(), v.end(), t) - v.begin());
    };
    for (std::size_t k = 0; k < n; ++k) {
        if (concurrent) {
            o.maxRunning = std::max(o.maxRunning, emitting[k]);
            o.maxCacheTokens = std::max(o.maxCacheTokens, blocks[k] * blockSize);
        }
        if (k == 0)
            continue;
        const qint64 start = times[k - 1];
        // Busy through the gap: a request sent by then had not ended.
        if (countUpTo(sends, start) - countUpTo(lasts, start) <= 0)
            continue;
        IterationSample s = it[k];
        s.ms = double(times[k] - start) / 1e6;
        s.waiting += int(std::max<qint64>(0, countUpTo(sends, start) - countUpTo(firsts, times[k])));
        o.samples.push_back(s);
    }
}

// Least squares of ms = t_base + a·decode + b·prefill + c·kv over the iterations without a queue (the
// host's cost per waiting request hides behind them); a coefficient that comes out negative is dropped
// and the rest solved again. Empty when there are too few iterations.
std::optional<std::array<double, 4>> costRegression(const std::vector<IterationSample>& samples)
{
    std::vector<const IterationSample*> use;
    for (const IterationSample& s : samples) {
        if (s.waiting == 0)
            use.push_back(&s);
    }
    if (use.size() < 8)
        return std::nullopt;
    std::array<bool, 4> on = { true, true, true, true };
    for (int round = 0; round < 4; ++round) {
        std::array<std::array<double, 5>, 4> m {};
        for (const IterationSample* s : use) {
            const std::array<double, 4> x = { 1.0, s->decode, s->prefill, s->kv };
            for (int i = 0; i < 4; ++i) {
                for (int j = 0; j < 4; ++j)
                    m[std::size_t(i)][std::size_t(j)] += x[std::size_t(i)] * x[std::size_t(j)];
                m[std::size_t(i)][4] += x[std::size_t(i)] * s->ms;
            }
        }
        for (int i = 0; i < 4; ++i) {
            if (on[std::size_t(i)])
                continue;
            m[std::size_t(i)].fill(0);
            for (int j = 0; j < 4; ++j)
                m[std::size_t(j)][std::size_t(i)] = 0;
            m[std::size_t(i)][std::size_t(i)] = 1;
        }
        // Gaussian elimination with partial pivoting.
        bool singular = false;
        for (int c = 0; c < 4 && !singular; ++c) {
            int pivot = c;
            for (int r = c + 1; r < 4; ++r) {
                if (std::abs(m[std::size_t(r)][std::size_t(c)]) > std::abs(m[std::size_t(pivot)][std::size_t(c)]))
                    pivot = r;
            }
            std::swap(m[std::size_t(c)], m[std::size_t(pivot)]);
            const double d = m[std::size_t(c)][std::size_t(c)];
            if (std::abs(d) < 1e-12) {
                singular = true;
                break;
            }
            for (int r = 0; r < 4; ++r) {
                if (r == c)
                    continue;
                const double f = m[std::size_t(r)][std::size_t(c)] / d;
                for (int k = c; k < 5; ++k)
                    m[std::size_t(r)][std::size_t(k)] -= f * m[std::size_t(c)][std::size_t(k)];
            }
        }
        std::array<double, 4> beta {};
        for (int i = 0; i < 4; ++i) {
            const double d = m[std::size_t(i)][std::size_t(i)];
            beta[std::size_t(i)] = !singular && std::abs(d) > 1e-12 ? m[std::size_t(i)][4] / d : 0.0;
            if (!on[std::size_t(i)])
                beta[std::size_t(i)] = 0;
        }
        if (singular) {
            // A regressor that never varies (every prompt the same length): drop the last one still on.
            for (int i = 3; i >= 1; --i) {
                if (on[std::size_t(i)]) {
                    on[std::size_t(i)] = false;
                    break;
                }
            }
            continue;
        }
        bool negative = false;
        for (int i = 0; i < 4; ++i) {
            if (on[std::size_t(i)] && beta[std::size_t(i)] < 0) {
                on[std::size_t(i)] = false;
                negative = true;
            }
        }
        if (!negative)
            return beta[0] > 0 ? std::optional(beta) : std::nullopt;
    }
    return std::nullopt;
}

// What the steps' summaries say about the server, records or not. Little's law on a step's decode phase
// gives the requests running at once, R = throughput × TPOT × (output − 1) / 1000; on its wait for the
// first token, the requests waiting or in prefill, W = throughput × TTFT / 1000. Below saturation TPOT is
// one iteration: against R, its intercept is the fixed cost and its slope the cost of one more running
// request (its decode and its cache, which summaries of one request length cannot tell apart). The
// lightest step's TTFT is half an iteration's wait and one iteration with its prompt in it. Past the peak,
// an iteration slower than the forward pass at that batch is the host's work on the queue.
SummaryEstimate fromSummaries(const std::vector<FitStep>& steps, std::size_t saturatedAt, double prompt, double output)
{
    SummaryEstimate e;
    struct Point
    {
        double x, r, t, f;
        bool light;
        std::size_t step;
    };
    std::vector<Point> points;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const StepMetrics& m = steps[i].metrics;
        const double x = m.requestThroughput, t = middle(m.tpot), f = middle(m.ttft);
        if (!(x > 0) || !(t > 0))
            continue;
        points.push_back({ x, x * t * std::max(1.0, output - 1) / 1000, t, f, i < saturatedAt, i });
        if (points.back().r > e.running) {
            e.running = points.back().r;
            e.runningAt = steps[i].offered;
        }
        e.peak = std::max(e.peak, x);
    }
    if (points.size() < 2)
        return e;
    std::vector<const Point*> light;
    for (const Point& pt : points) {
        if (pt.light)
            light.push_back(&pt);
    }
    if (light.size() < 2)
        light = { &points[0], &points[1] };
    double mr = 0, mt = 0;
    for (const Point* pt : light) {
        mr += pt->r / double(light.size());
        mt += pt->t / double(light.size());
    }
    double sxy = 0, sxx = 0;
    for (const Point* pt : light) {
        sxy += (pt->r - mr) * (pt->t - mt);
        sxx += (pt->r - mr) * (pt->r - mr);
    }
    double slope = sxx > 0 ? sxy / sxx : kUnknown;
    double intercept = isKnown(slope) ? mt - slope * mr : kUnknown;
    const Point& first = points.front();
    if (!(slope > 0) || !(intercept > 0)) {
        intercept = 0.9 * first.t;
        slope = 0.1 * first.t / std::max(1.0, first.r);
    }
    e.tBaseMs = intercept;
    e.perDecodeMs = slope / 2;
    e.perKvTokenMs = slope / 2 / (prompt + output / 2);
    // The prefill of the peak's arrivals leaves the decodes at least three quarters of the time.
    const double room = 0.25 * 1000 / (e.peak * prompt);
    e.lightTtft = first.f;
    double prefill = isKnown(first.f) ? (first.f - 1.5 * first.t) / prompt : kUnknown;
    if (!(prefill > 0))
        prefill = 0.05 * first.t / prompt;
    if (prefill > room) {
        prefill = room;
        e.prefillCapped = true;
        e.outsideMs = first.f - 1.5 * first.t - prefill * prompt;
        // The rest is latency before the engine: a fixed part and an exponential spread, the spread from how far
        // the lightest P99 lies above its median beyond the iteration a request may wait for (an exponential's
        // P99 lies its mean × ln 50 above its median), the fixed part what is left of the median's excess.
        const double p99 = ttft(steps[first.step].metrics, 99);
        const double p50 = pct(steps[first.step].metrics.ttft, 50);
        if (isKnown(p99) && isKnown(p50))
            e.preEngineSpreadMs = std::clamp((p99 - p50 - first.t) / std::log(50.0), 0.0, e.outsideMs);
        e.preEngineMs = std::max(0.0, e.outsideMs - e.preEngineSpreadMs * std::log(2.0));
    }
    e.perPrefillTokenMs = prefill;
    const Point& last = points.back();
    const double waiting = isKnown(last.f) ? last.x * last.f / 1000 : 0;
    if (!last.light && last.t > 1.05 * (intercept + slope * last.r) && waiting >= 1) {
        e.perWaitingMs = last.t / waiting;
        e.hostBound = true;
        // The queue is deepest for the slowest requests: their P99 TTFT by Little's law is the queue the
        // iteration stretches over at its worst, a smaller cost per waiting request.
        const double p99 = ttft(steps[last.step].metrics, 99);
        if (isKnown(p99) && last.x * p99 / 1000 > waiting)
            e.perWaitingDeepMs = last.t / (last.x * p99 / 1000);
    } else {
        e.perWaitingMs = 0.01 * intercept;
    }
    e.ok = true;
    return e;
}

// The mean wait in a queue of one server with a fixed service time serviceMs and Poisson arrivals at ratePerS
// (M/D/1, Pollaczek–Khinchine): λ·S²/(2·(1 − λ·S)); infinite at or past the server's rate.
double apiServerWaitMs(double serviceMs, double ratePerS)
{
    const double rho = ratePerS * serviceMs / 1000;
    if (rho >= 1)
        return std::numeric_limits<double>::infinity();
    return rho * serviceMs / (2 * (1 - rho));
}

// The API server's time per request for which the mean wait grows by `growthMs` from the rate `fromPerS` to
// `toPerS`, at most `mostMs`: bisection, the growth rising with the service time.
double apiServerFromGrowth(double growthMs, double fromPerS, double toPerS, double mostMs)
{
    double lo = 0, hi = std::min(mostMs, 1000 / toPerS);
    const auto growth = [&](double s) { return apiServerWaitMs(s, toPerS) - apiServerWaitMs(s, fromPerS); };
    if (!(hi > 0) || growth(hi) <= growthMs)
        return std::max(0.0, hi);
    for (int k = 0; k < 60; ++k) {
        const double mid = 0.5 * (lo + hi);
        (growth(mid) < growthMs ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

// First estimates: the lightest step is nearly alone on the server, so its TPOT is about one decode
// iteration and its TTFT one prefill; the records say how many ran at once and what they held.
void firstEstimates(const MeasuredSteps& measured, StartValues& start, QStringList* notes)
{
    const std::vector<FitStep>& steps = measured.steps;
    const LoadMode mode = measured.mode;
    const bool haveRecords = measured.haveRecords;
    const double meanPrompt = measured.meanPrompt;
    const double meanOutput = measured.meanOutput;
    const double maxLen = measured.maxLen;
    const double maxPrompt = measured.maxPrompt;
    const double t0 = measured.t0;
    const double f0 = measured.f0;
    sim::SimParams& p = start.params;
    QString& seqsNote = start.seqsNote;
    QString& kvNote = start.kvNote;
    QString& costNote = start.costNote;
    QString& waitingNote = start.waitingNote;
    QString& preEngineNote = start.preEngineNote;
    bool& searchPreEngine = start.searchPreEngine;

    const FitStep& low = steps.front();
    p.modelId = QStringLiteral("kneepoint/twin");
    p.maxModelLen = std::max(4096, int(maxLen));
    p.maxNumBatchedTokens = std::max(2048, int(maxPrompt));
    p.prefixCache = false;
    p.tBaseMs = 0.8 * t0;
    p.perDecodeMs = 0.2 * t0 / std::max(1.0, isKnown(low.metrics.meanConcurrency) ? low.metrics.meanConcurrency : 1.0);
    p.perPrefillTokenMs = std::max(0.05 * t0, (isKnown(f0) ? f0 : t0) - t0) / meanPrompt;
    p.perKvTokenMs = 0.02 * t0 / (meanPrompt + meanOutput);
    p.perWaitingMs = 0.01 * p.tBaseMs;

    double serverRunning = 0, serverKv = 0;
    for (const FitStep& s : steps) {
        if (s.server && s.server->runningMax)
            serverRunning = std::max(serverRunning, *s.server->runningMax);
        if (s.server && s.server->kvUsageMax)
            serverKv = std::max(serverKv, *s.server->kvUsageMax);
    }
    Observed seen;
    for (const FitStep& s : steps)
        observe(s.records, p.blockSize, s.metrics.meanConcurrency >= 1.5, seen);
    if (seen.unaligned > 0)
        notes->append(QStringLiteral("%1 of the steps' token times do not line up into server iterations (the "
                                     "client read them at different moments): the first estimates come from "
                                     "their percentiles")
                          .arg(seen.unaligned));
    // What the summaries say, records or not (see fromSummaries).
    start.summary = fromSummaries(steps, measured.saturatedAt, meanPrompt, meanOutput);
    const SummaryEstimate& summary = start.summary;
    // Records that line up into iterations say more (below); a saved run's records that do not are searched
    // from the lightest step as before.
    start.fromSummary = summary.ok && !haveRecords;
    const bool fromSummary = start.fromSummary;
    if (fromSummary) {
        p.tBaseMs = summary.tBaseMs;
        p.perDecodeMs = summary.perDecodeMs;
        p.perKvTokenMs = summary.perKvTokenMs;
        p.perPrefillTokenMs = summary.perPrefillTokenMs;
        p.perWaitingMs = summary.perWaitingMs;
        costNote = QStringLiteral("started from the summaries: the fixed cost and the cost per running request "
                                  "from TPOT against the requests running (Little's law) below saturation, "
                                  "prefill from the lightest step's TTFT");
        if (summary.hostBound)
            waitingNote = QStringLiteral("started from the heaviest step's TPOT over the requests waiting (its "
                                         "throughput × TTFT, Little's law)");
        if (summary.prefillCapped) {
            p.preEngineMs = summary.preEngineMs;
            p.preEngineSpreadMs = summary.preEngineSpreadMs;
            searchPreEngine = true;
            notes->append(QStringLiteral("the lightest step's TTFT (%1 ms) is more than the prefill of its "
                                         "%2-token prompts can take at the measured peak of %3 req/s: at most "
                                         "%4 ms of it is the server's (the wait for an iteration, and the "
                                         "iteration that prefills it), the rest is latency before the engine "
                                         "(the API server, tokenization, the network): pre_engine_ms and "
                                         "pre_engine_spread_ms start from it")
                              .arg(num(summary.lightTtft), num(meanPrompt), num(summary.peak),
                                  num(summary.perPrefillTokenMs * meanPrompt + 1.5 * t0)));
            preEngineNote = QStringLiteral("started from the lightest step's TTFT less what the server's iterations "
                                           "explain (%1 ms), its spread from how far its P99 lies above its median")
                                .arg(num(summary.outsideMs));
        }
    }
    start.heuristic = p;
    const std::optional<std::array<double, 4>> regression = costRegression(seen.samples);
    start.hasRegression = regression.has_value();
    if (const std::optional<std::array<double, 4>>& beta = regression) {
        p.tBaseMs = (*beta)[0];
        p.perDecodeMs = (*beta)[1];
        p.perPrefillTokenMs = (*beta)[2];
        p.perKvTokenMs = (*beta)[3];
        // Iterations that took longer than their forward pass had a queue: the host's cost per waiting request.
        std::vector<double> perWaiting;
        for (const IterationSample& s : seen.samples) {
            const double forward
                = p.tBaseMs + p.perDecodeMs * s.decode + p.perPrefillTokenMs * s.prefill + p.perKvTokenMs * s.kv;
            if (s.waiting > 0 && s.ms > 1.2 * forward)
                perWaiting.push_back(s.ms / s.waiting);
        }
        if (!perWaiting.empty()) {
            std::nth_element(
                perWaiting.begin(), perWaiting.begin() + std::ptrdiff_t(perWaiting.size() / 2), perWaiting.end());
            p.perWaitingMs = perWaiting[perWaiting.size() / 2];
            waitingNote.clear();
        }
        costNote = QStringLiteral("started from a least-squares fit of %1 iteration times in the request records")
                       .arg(seen.samples.size());
    }
    if (serverRunning >= 1) {
        p.maxNumSeqs = int(std::lround(serverRunning));
        seqsNote = QStringLiteral("started from the most requests the server's /metrics reported running");
    } else if (seen.maxRunning >= 1 && seen.preempted > 0) {
        // The cache, not the sequence cap, limited the batch: the cap is at least what ran.
        p.maxNumSeqs = 2 * seen.maxRunning;
        seqsNote = QStringLiteral("at least %1, the most requests running in one iteration of the request records: "
                                  "the KV cache limited the batch before max_num_seqs did")
                       .arg(seen.maxRunning);
    } else if (seen.maxRunning >= 1) {
        p.maxNumSeqs = seen.maxRunning;
        seqsNote = QStringLiteral("started from the most requests running in one iteration of the request records");
    } else if (fromSummary) {
        p.maxNumSeqs = std::max(1, int(std::ceil(summary.running)));
        seqsNote = QStringLiteral("started from the most requests running at once by Little's law (derived: "
                                  "throughput × TPOT × (output − 1), %1 at %2), and several starts around it")
                       .arg(num(summary.running), loadWord(mode, summary.runningAt));
    } else {
        double concurrency = 1;
        for (const FitStep& s : steps) {
            if (isKnown(s.metrics.meanConcurrency))
                concurrency = std::max(concurrency, s.metrics.meanConcurrency);
        }
        p.maxNumSeqs = int(std::ceil(concurrency));
        seqsNote = QStringLiteral(
            "started from the highest mean concurrency (no request records whose token times line up into iterations)");
    }
    if (seen.maxCacheTokens > 0 && seen.preempted > 0) {
        // Preemption: a sequence needed a block and none was free, so the cache was full.
        set(p, KvCapacity, seen.maxCacheTokens);
        kvNote = QStringLiteral("started from the most cache held in one iteration (%1 requests were preempted)")
                     .arg(seen.preempted);
    } else if (serverKv >= 0.05 && seen.maxCacheTokens > 0) {
        set(p, KvCapacity, seen.maxCacheTokens / serverKv);
        kvNote = QStringLiteral("started from the cache in use over the server's highest KV-cache usage");
    } else if (seen.maxCacheTokens > 0) {
        set(p, KvCapacity, 2 * seen.maxCacheTokens);
        kvNote = QStringLiteral("no preemption seen: started from twice the most cache in use");
    } else {
        set(p, KvCapacity, 2 * p.maxNumSeqs * (meanPrompt + meanOutput));
        kvNote = QStringLiteral("no request records show the cache: started both from a cache that limits the batch "
                                "to the requests running at the plateau and from one twice as large");
    }
    set(p, KvCapacity, std::max<double>(p.kvCapacityTokens, (maxLen + 1) / (1 - p.kvWatermark) + 2 * p.blockSize));
}

// Records: the lightest step's TTFT beyond what the start explains (its median and its P99 beyond the
// median, as fromSummaries splits them) is latency before the engine.
void preEngineFromRecords(const MeasuredSteps& measured, StartValues& start)
{
    const FitStep& low = measured.steps.front();
    sim::SimParams& p = start.params;
    QString& preEngineNote = start.preEngineNote;
    bool& searchPreEngine = start.searchPreEngine;
    const bool fromSummary = start.fromSummary;

    if (!fromSummary) {
        const StepMetrics light = simulateFigures(p, low);
        const double d50 = ttft(low.metrics, 50) - ttft(light, 50);
        const double d99 = ttft(low.metrics, 99) - ttft(light, 99);
        if (isKnown(d50) && d50 > std::max(1.0, 0.25 * ttft(low.metrics, 50))) {
            p.preEngineSpreadMs = isKnown(d99) ? std::clamp((d99 - d50) / std::log(50.0), 0.0, d50) : 0.0;
            p.preEngineMs = std::max(0.0, d50 - p.preEngineSpreadMs * std::log(2.0));
            searchPreEngine = true;
            preEngineNote = QStringLiteral("started from the lightest step's TTFT less what the server's iterations "
                                           "explain (%1 ms), its spread from how far its P99 lies above its median")
                                .arg(num(d50));
        }
    }
}

// A summary's rate step may state more throughput than any server whose requests take as long as its latencies
// say can measure: the last of n Poisson sends goes out (n − 1)/rate seconds in, give or take √(n − 1)/rate,
// and still takes its later tokens at the TPOT of a request alone (the summaries' intercept); three standard
// deviations early, no server measures more than n / ((n − 1 − 3√(n − 1))/rate + (output − 1)·TPOT alone).
// Such a step's figures are not one run of one server: its TTFTs neither start the API server nor weigh more
// than a quarter, its throughput is fitted as near as the model allows.
void impossibleSteps(const MeasuredSteps& measured, StartValues& start, QStringList* notes)
{
    const std::vector<FitStep>& steps = measured.steps;
    const LoadMode mode = measured.mode;
    const double meanOutput = measured.meanOutput;
    const SummaryEstimate& summary = start.summary;
    const bool fromSummary = start.fromSummary;

    std::vector<bool>& impossible = start.impossible;
    impossible.assign(steps.size(), false);
    if (fromSummary && mode == LoadMode::Rate && summary.tBaseMs > 0) {
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const double n = double(steps[i].requests.size());
            const double early = (n - 1 - 3 * std::sqrt(std::max(0.0, n - 1))) / steps[i].offered;
            const double most = early > 0 ? n / (early + (meanOutput - 1) * summary.tBaseMs / 1000) : kUnknown;
            if (isKnown(most) && steps[i].metrics.requestThroughput > most) {
                impossible[i] = true;
                notes->append(QStringLiteral("the step at %1 states %2 req/s, more than any server whose request "
                                             "alone takes %3 ms per later token can measure from %4 requests sent "
                                             "at that rate (at most %5 req/s): its TTFTs weigh a quarter")
                                  .arg(loadWord(mode, steps[i].offered), num(steps[i].metrics.requestThroughput),
                                      num(summary.tBaseMs), QString::number(qint64(n)), num(most)));
            }
        }
    }
}

// The API server's queue: a median TTFT that grows with the load below saturation by more than the start's
// iterations explain is a wait before the engine that grows with the load. Its start is the service time whose
// mean wait (a queue of one server, M/D/1) grows that much from the lightest step to that one, at most what lets
// the measured peak through; the latency before the engine gives up the API server's time and its wait at the
// lightest step. Elsewhere it stays 0, and the uncertainty scan bounds it at fractions of the time at which the API
// server alone would hold the peak.
void apiServerQueue(const MeasuredSteps& measured, StartValues& start, QStringList* notes)
{
    const std::vector<FitStep>& steps = measured.steps;
    const LoadMode mode = measured.mode;
    const double t0 = measured.t0;
    const FitStep& low = measured.steps.front();
    sim::SimParams& p = start.params;
    QString& apiServerNote = start.apiServerNote;
    const std::vector<bool>& impossible = start.impossible;
    bool& searchApiServer = start.searchApiServer;
    bool& apiServerRefused = start.apiServerRefused;

    double peakRps = 0;
    for (const FitStep& s : steps)
        peakRps = std::max(peakRps, s.metrics.requestThroughput);
    start.apiScale = peakRps > 0 ? 1000 / peakRps : t0;
    const double apiScale = start.apiScale;
    // The mean TTFT where the steps give it (the queue's formula is the mean wait's), else the median.
    const bool meanTtfts = std::all_of(steps.begin(), steps.end(), [](const FitStep& s) {
        return s.metrics.ttft.reported() && s.metrics.ttft.count > 0 && isKnown(s.metrics.ttft.mean);
    });
    const auto typicalTtft = [meanTtfts](const StepMetrics& m) { return meanTtfts ? m.ttft.mean : ttft(m, 50); };
    std::size_t peakStep = 0;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        if (steps[i].metrics.requestThroughput > steps[peakStep].metrics.requestThroughput)
            peakStep = i;
    }
    if (mode == LoadMode::Rate && peakStep >= 2 && isKnown(typicalTtft(low.metrics))) {
        const double lightModel = typicalTtft(simulateFigures(p, low));
        double growth = 0;
        std::size_t at = 0;
        for (std::size_t i = 1; i < peakStep; ++i) {
            if (impossible[i])
                continue;
            const double g = (typicalTtft(steps[i].metrics) - typicalTtft(low.metrics))
                - (typicalTtft(simulateFigures(p, steps[i])) - lightModel);
            if (isKnown(g) && g > growth) {
                growth = g;
                at = i;
            }
        }
        // A growth that only an API server too slow to let the peak through gives is not its queue.
        const double most = 0.95 * apiScale;
        const double service = at > 0 ? apiServerFromGrowth(growth, low.offered, steps[at].offered, most) : 0.0;
        if (at > 0 && growth > std::max(2.0, 0.1 * typicalTtft(low.metrics)) && service >= most) {
            apiServerRefused = true;
            notes->append(
                QStringLiteral("the %6 TTFT grows by %1 ms from %2 to %3 beyond what the server's "
                               "iterations explain, more than the queue of one API server that lets the "
                               "measured peak of %4 req/s through can give (%5 ms at most): "
                               "api_server_ms starts at 0")
                    .arg(num(growth), loadWord(mode, low.offered), loadWord(mode, steps[at].offered), num(peakRps),
                        num(apiServerWaitMs(most, steps[at].offered) - apiServerWaitMs(most, low.offered)),
                        meanTtfts ? QStringLiteral("mean") : QStringLiteral("median")));
        } else if (at > 0 && growth > std::max(2.0, 0.1 * typicalTtft(low.metrics))) {
            p.apiServerMs = service;
            searchApiServer = service > 0;
            p.preEngineMs = std::max(0.0, p.preEngineMs - p.apiServerMs - apiServerWaitMs(p.apiServerMs, low.offered));
            const QString which = meanTtfts ? QStringLiteral("mean") : QStringLiteral("median");
            apiServerNote
                = QStringLiteral("started from the %4 TTFT's growth from %1 to %2 beyond what the "
                                 "server's iterations explain (%3 ms): the time per request of one API "
                                 "server whose queue's mean wait grows that much")
                      .arg(loadWord(mode, low.offered), loadWord(mode, steps[at].offered), num(growth), which);
            notes->append(QStringLiteral("the %5 TTFT grows by %1 ms from %2 to %3 beyond what the server's "
                                         "iterations explain, below saturation: a queue before the engine (one "
                                         "API server); api_server_ms starts at %4 ms")
                              .arg(num(growth), loadWord(mode, low.offered), loadWord(mode, steps[at].offered),
                                  num(p.apiServerMs), which));
        }
    }
}

} // namespace

StartValues startValues(const MeasuredSteps& measured, QStringList* notes)
{
    StartValues start;
    firstEstimates(measured, start, notes);
    preEngineFromRecords(measured, start);
    impossibleSteps(measured, start, notes);
    apiServerQueue(measured, start, notes);
    return start;
}

} // namespace kp::twin::detail
