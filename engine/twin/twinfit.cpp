#include "twin/twin.h"

#include "load/arrivalschedule.h"
#include "runs/importers.h"
#include "runs/savedrun.h"
#include "runs/steptimeline.h"
#include "sim/simparameters.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <queue>
#include <tuple>

namespace kp::twin {

namespace {

MetricsOptions fitMetricsOptions()
{
    MetricsOptions m;
    m.percentiles = { 50, 90, 99 };
    return m;
}

double pct(const LatencyStats& s, double p)
{
    if (!s.reported() || s.count == 0)
        return kUnknown;
    if (const std::optional<double> v = s.percentile(p))
        return *v;
    if (p == 50)
        return s.median;
    return kUnknown;
}

double ttft(const StepMetrics& m, double p)
{
    return pct(m.ttft, p);
}
double tpot(const StepMetrics& m)
{
    return pct(m.tpot, 50);
}

// What a summary gives of a distribution's middle: the median, else the mean (vLLM's tables often quote
// the mean TPOT alone).
bool meanOnly(const LatencyStats& s)
{
    return !isKnown(pct(s, 50)) && s.reported() && s.count != 0 && isKnown(s.mean);
}
double middle(const LatencyStats& s)
{
    return meanOnly(s) ? s.mean : pct(s, 50);
}

QString num(double v, int precision = 3)
{
    return QString::number(v, 'g', precision);
}

QString loadWord(LoadMode mode, double load)
{
    return mode == LoadMode::Concurrency ? QStringLiteral("%1 users").arg(num(load))
                                         : QStringLiteral("%1 req/s").arg(num(load));
}

// The parameters the search moves, in the order it moves them: rows of the simulator's parameter table.
enum Param {
    TBase,
    PerDecode,
    PerPrefill,
    PerKv,
    PerWaiting,
    MaxNumSeqs,
    KvCapacity,
    PreEngine,
    PreEngineSpread,
    ApiServer,
    ParamCount
};

const std::array<const sim::SimParameter*, ParamCount>& fittedRows()
{
    static const std::array<const sim::SimParameter*, ParamCount> rows = [] {
        const std::array<const char*, ParamCount> keys
            = { "t_base_ms", "per_decode_ms", "per_prefill_token_ms", "per_kv_token_ms", "per_waiting_ms",
                  "max_num_seqs", "kv_capacity_tokens", "pre_engine_ms", "pre_engine_spread_ms", "api_server_ms" };
        std::array<const sim::SimParameter*, ParamCount> found {};
        for (std::size_t i = 0; i < keys.size(); ++i) {
            found[i] = sim::findSimParameter(QString::fromLatin1(keys[i]));
            Q_ASSERT(found[i] && found[i]->isNumeric());
        }
        return found;
    }();
    return rows;
}

double get(const sim::SimParams& p, int i)
{
    return fittedRows()[std::size_t(i)]->get(p);
}

// Sets parameter i, clamped into its range (a cost that must be above 0 to 1e-6 at least), rounding the
// integer ones (the KV cache to whole blocks, at least one).
void set(sim::SimParams& p, int i, double v)
{
    const sim::SimParameter& parameter = *fittedRows()[std::size_t(i)];
    if (i == KvCapacity) {
        const double blocks = double(std::llround(v / p.blockSize) * p.blockSize);
        parameter.set(p, std::clamp(blocks, double(p.blockSize), parameter.max));
        return;
    }
    parameter.set(p, sim::clampToSimParameter(parameter, v, 1e-6));
}

bool isInteger(int i)
{
    return fittedRows()[std::size_t(i)]->type == sim::SimParameterType::Integer;
}

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

// The figures the fit compares: one step through the model in simulated time, driven as
// simulateRecords drives it (a send reaches the model after its turn at the API server and the latency before the
// engine, as SimTimeDriver delays it; sends due before the next iteration go first; an idle model waits for the next
// send; a closed loop sends when a request ends or is refused), keeping only each request's send, first and last token,
// and computing throughput, TTFT and TPOT as StepMetrics::fromRecords does (RequestLatencies' definitions, numpy's
// percentiles). A fit runs the model hundreds of times: keeping every token's time, and pooling them for the ITL, would
// cost more than the model itself.
StepMetrics simulateFigures(const sim::SimParams& params, const FitStep& step)
{
    const std::vector<TwinRequest>& requests = step.requests;
    const std::size_t n = requests.size();
    sim::SimModel model(params);
    std::vector<qint64> sent(n, -1), first(n, -1), last(n, -1);
    std::vector<int> outputs(n, 0);
    std::vector<bool> refused(n, false);
    using Due = std::tuple<double, std::size_t, bool>; // (ms, index, at the API server)
    std::priority_queue<Due, std::vector<Due>, std::greater<>> due;
    sim::ApiServerQueue apiServer(params.apiServerMs);
    std::size_t next = 0;
    const auto toNs = [](double ms) { return qint64(std::llround(ms * 1e6)); };
    const auto send = [&](double atMs) {
        if (next >= n)
            return;
        sent[next] = toNs(atMs);
        if (apiServer.active())
            due.emplace(atMs, next, true);
        else
            due.emplace(atMs + sim::SimModel::preEngineDelayMs(params, 0, quint64(next)), next, false);
        ++next;
    };
    const bool closedLoop = step.mode == LoadMode::Concurrency;
    if (closedLoop) {
        const int users = int(std::clamp(step.offered, 1.0, 1e6));
        for (int i = 0; i < users; ++i)
            send(0);
    } else if (n > 0
        && std::all_of(requests.begin(), requests.end(), [](const TwinRequest& r) { return r.sendMs >= 0; })) {
        for (const TwinRequest& r : requests)
            send(r.sendMs);
    } else {
        ArrivalOptions arrivals;
        arrivals.rate = step.offered;
        for (qint64 at : ArrivalSchedule::offsetsNs(qint64(n), arrivals))
            send(double(at) / 1e6);
    }
    double now = 0;
    while (model.hasWork() || !due.empty()) {
        if (!due.empty() && (!model.hasWork() || std::get<0>(due.top()) <= now)) {
            const auto [atMs, index, atApiServer] = due.top();
            due.pop();
            if (atApiServer) {
                due.emplace(
                    apiServer.pass(atMs) + sim::SimModel::preEngineDelayMs(params, 0, quint64(index)), index, false);
                continue;
            }
            if (!model.hasWork())
                now = std::max(now, atMs);
            const TwinRequest& r = requests[index];
            if (!model.addRequest(quint64(index), r.promptTokens, r.outputTokens, atMs)) {
                refused[index] = true;
                if (closedLoop)
                    send(atMs);
            }
            continue;
        }
        const sim::Iteration it = model.runIteration(now);
        now = it.endMs;
        const qint64 atNs = toNs(it.endMs);
        for (const sim::TokenEvent& token : it.tokens) {
            if (token.tokenIndex == 0)
                first[token.id] = atNs;
            if (token.last) {
                last[token.id] = atNs;
                outputs[token.id] = token.tokenIndex + 1;
                if (closedLoop)
                    send(it.endMs);
            }
        }
    }
    StepMetrics m;
    std::vector<double> ttfts, tpots;
    qint64 start = std::numeric_limits<qint64>::max(), end = std::numeric_limits<qint64>::min();
    for (std::size_t i = 0; i < next; ++i) {
        start = std::min(start, sent[i]);
        if (refused[i] || last[i] < 0) {
            ++m.failed;
            end = std::max(end, sent[i]);
            continue;
        }
        ++m.completed;
        end = std::max(end, last[i]);
        ttfts.push_back(double(first[i] - sent[i]) / 1e6);
        if (outputs[i] > 1)
            tpots.push_back(double(last[i] - first[i]) / 1e6 / double(outputs[i] - 1));
    }
    m.durationS = end > start ? double(end - start) / 1e9 : 0;
    if (m.durationS > 0)
        m.requestThroughput = double(m.completed) / m.durationS;
    const MetricsOptions options = fitMetricsOptions();
    m.ttft = LatencyStats::compute(std::move(ttfts), options.percentiles);
    m.tpot = LatencyStats::compute(std::move(tpots), options.percentiles);
    return m;
}

// What the steps' summaries say about the server, records or not. Little's law on a step's decode phase
// gives the requests running at once, R = throughput × TPOT × (output − 1) / 1000; on its wait for the
// first token, the requests waiting or in prefill, W = throughput × TTFT / 1000. Below saturation TPOT is
// one iteration: against R, its intercept is the fixed cost and its slope the cost of one more running
// request (its decode and its cache, which summaries of one request length cannot tell apart). The
// lightest step's TTFT is half an iteration's wait and one iteration with its prompt in it. Past the peak,
// an iteration slower than the forward pass at that batch is the host's work on the queue.
struct SummaryEstimate
{
    bool ok = false;
    double tBaseMs = 0, perDecodeMs = 0, perKvTokenMs = 0, perPrefillTokenMs = 0, perWaitingMs = 0;
    double running = 0; // the most requests running at once (derived)
    double runningAt = 0; // at this load
    double peak = 0; // the highest throughput, req/s
    double lightTtft = kUnknown;
    double outsideMs = 0; // of the lightest TTFT, what the server's iterations do not explain (when prefillCapped)
    double preEngineMs = 0, preEngineSpreadMs = 0; // outsideMs as the latency before the engine
    double perWaitingDeepMs = 0; // the host's cost over the deepest queue (the heaviest step's P99 TTFT); 0: none
    bool prefillCapped = false; // the lightest step's TTFT says more prefill than the peak leaves room for
    bool hostBound = false;
};

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

} // namespace

FitStep fitStepFromRecords(LoadMode mode, double offered, double burstiness, const std::vector<RequestRecord>& records)
{
    FitStep s;
    s.mode = mode;
    s.offered = offered;
    s.burstiness = burstiness;
    s.fromRecords = true;
    const double durationS = double(StepMetrics::stepDurationNs(records)) / 1e9;
    s.metrics = StepMetrics::fromRecords(records, durationS, fitMetricsOptions());
    for (const RequestRecord& r : records) {
        if (r.failure != FailureClass::None || r.firstTokenNs < 0 || r.outputTokens < 1 || r.promptTokens < 1)
            continue;
        s.records.push_back(r);
        const qint64 at = r.scheduledNs >= 0 ? r.scheduledNs : r.sentNs;
        s.requests.push_back(TwinRequest { r.promptTokens, r.outputTokens, at >= 0 ? double(at) / 1e6 : -1 });
    }
    std::stable_sort(s.requests.begin(), s.requests.end(),
        [](const TwinRequest& a, const TwinRequest& b) { return a.sendMs < b.sendMs; });
    return s;
}

FitStep fitStepFromSummary(LoadMode mode, double offered, double burstiness, const StepMetrics& m)
{
    // The lengths' means, sent on the arrival schedule of the offered rate.
    FitStep fs;
    fs.mode = mode;
    fs.offered = offered;
    fs.burstiness = burstiness;
    fs.metrics = m;
    if (m.completed < 1)
        return fs;
    const int prompt = int(std::max<qint64>(1, m.totalInputTokens / m.completed));
    const int output = int(std::max<qint64>(1, m.totalOutputTokens / m.completed));
    fs.requests.assign(std::size_t(m.completed + std::max<qint64>(0, m.failed)), TwinRequest { prompt, output, -1 });
    // A table without end-to-end latencies (vLLM's default) gives no concurrency: Little's law gives it from
    // the throughput and a request's time in the system, TTFT + TPOT × (output − 1), marked derived.
    const double e2el = middle(m.ttft) + middle(m.tpot) * (output - 1);
    if (!isKnown(m.meanConcurrency) && isKnown(e2el) && m.requestThroughput > 0) {
        fs.metrics.meanConcurrency = m.requestThroughput * e2el / 1000;
        if (std::find(fs.metrics.derived.begin(), fs.metrics.derived.end(), QStringLiteral("concurrency"))
            == fs.metrics.derived.end())
            fs.metrics.derived.push_back(QStringLiteral("concurrency"));
    }
    return fs;
}

std::vector<FitStep> fitSteps(const ImportedCurve& curve, QStringList* notes)
{
    std::vector<FitStep> steps;
    for (const ImportedFileStep& step : curve.steps) {
        const QString where = QStringLiteral("%1: step at %2").arg(step.sourceFile, loadWord(step.mode, step.offered));
        FitStep fs;
        // Records that keep their send times replay exactly; the others (latencies only) and summaries
        // are sent as the mean lengths at the offered rate.
        if (!step.records.empty() && !step.recordsWithoutSendTimes)
            fs = fitStepFromRecords(step.mode, step.offered, step.setup.burstiness, step.records);
        else
            fs = fitStepFromSummary(step.mode, step.offered, step.setup.burstiness, step.metrics);
        if (fs.metrics.completed < 1) {
            notes->append(QStringLiteral("%1: left out, no request completed").arg(where));
            continue;
        }
        steps.push_back(std::move(fs));
    }
    return steps;
}

std::vector<FitStep> fitSteps(const SavedRun& run, QStringList* notes)
{
    std::vector<FitStep> steps;
    for (const SavedStep& step : run.steps) {
        const QString where = QStringLiteral("%1: step %2 (%3)").arg(run.id).arg(step.index).arg(step.load);
        if (step.partial || step.clientBound) {
            notes->append(QStringLiteral("%1: left out, %2")
                              .arg(where,
                                  step.partial ? QStringLiteral("it was stopped before every request ended")
                                               : QStringLiteral("the client could not keep to the schedule")));
            continue;
        }
        FitStep fs;
        if (!step.requestsPath.isEmpty()) {
            std::vector<RequestRecord> records;
            QString error;
            QStringList skipped;
            const bool read = readRequestRecords(step.requestsPath, &records, &error, &skipped);
            for (const QString& s : skipped)
                notes->append(QStringLiteral("%1: %2").arg(where, s));
            if (!read) {
                notes->append(QStringLiteral("%1: left out, %2").arg(where, error));
                continue;
            }
            // Only the records within the step's time, as on its timeline: the fit replays the sends
            // and simulates every iteration up to the last, so one wrong time (1e9 s) would run on.
            const qint64 bound = StepTimeline::boundNs(step.metrics.durationS);
            const auto outside = std::stable_partition(records.begin(), records.end(),
                [bound](const RequestRecord& r) { return StepTimeline::within(r, bound); });
            if (outside != records.end()) {
                notes->append(QStringLiteral("%1: %2: %3 record%4 with a time past %5 s into the step (its duration, "
                                             "%6 s for the drain) left out")
                                  .arg(where, step.requestsPath)
                                  .arg(records.end() - outside)
                                  .arg(records.end() - outside == 1 ? QString() : QStringLiteral("s"))
                                  .arg(bound / 1000000000)
                                  .arg(StepTimeline::kDrainMarginS));
                records.erase(outside, records.end());
            }
            fs = fitStepFromRecords(step.mode, step.offered, step.setup.burstiness, records);
        } else {
            if (step.metrics.completed < 1) {
                notes->append(QStringLiteral("%1: left out, no request completed").arg(where));
                continue;
            }
            fs = fitStepFromSummary(step.mode, step.offered, step.setup.burstiness, step.metrics);
        }
        fs.server = step.server;
        if (fs.metrics.completed < 1) {
            notes->append(QStringLiteral("%1: left out, no request completed").arg(where));
            continue;
        }
        steps.push_back(std::move(fs));
    }
    return steps;
}

FitResult fitTwin(const std::vector<FitStep>& input, const QStringList& sourceRuns, const FitOptions& options)
{
    FitResult out;
    std::vector<FitStep> steps;
    for (const FitStep& s : input) {
        if (s.metrics.completed >= 1 && !s.requests.empty() && std::isfinite(s.offered) && s.offered > 0)
            steps.push_back(s);
    }
    if (steps.size() < 3) {
        out.error = QStringLiteral("only %1 usable step%2 (completed requests at a finite load); a fit needs at least "
                                   "3, one of them past saturation: sweep more loads")
                        .arg(steps.size())
                        .arg(steps.size() == 1 ? QString() : QStringLiteral("s"));
        return out;
    }
    std::stable_sort(
        steps.begin(), steps.end(), [](const FitStep& a, const FitStep& b) { return a.offered < b.offered; });
    const LoadMode mode = steps.front().mode;
    for (const FitStep& s : steps) {
        if (s.mode != mode) {
            out.error = QStringLiteral("the steps mix request rates and user counts (%1 and %2); fit one kind of sweep")
                            .arg(loadWord(steps.front().mode, steps.front().offered), loadWord(s.mode, s.offered));
            return out;
        }
    }

    // Contradictory steps: a rate step cannot serve more than it was offered, beyond the Poisson
    // spread of its arrivals (three standard deviations of its request count).
    if (mode == LoadMode::Rate) {
        for (const FitStep& s : steps) {
            const double n = double(s.metrics.completed);
            if (s.metrics.requestThroughput > s.offered * (1 + 3 / std::sqrt(n))) {
                out.error = QStringLiteral("the step at %1 measured %2 req/s, above the offered rate by more than "
                                           "its arrivals' spread: the steps contradict each other (check the offered "
                                           "rate the file gives for it, or leave the step out)")
                                .arg(loadWord(mode, s.offered), num(s.metrics.requestThroughput));
                return out;
            }
        }
    }
    // The linear region alone identifies no limit: the share of the offered load served never fell
    // (the first step's share is the reference: a step's tail, its last requests' latency, lowers it a little).
    const double firstShare = steps.front().metrics.requestThroughput / steps.front().offered;
    const bool saturated = std::any_of(steps.begin(), steps.end(),
        [firstShare](const FitStep& s) { return s.metrics.requestThroughput / s.offered < 0.9 * firstShare; });
    if (!saturated) {
        const double top = steps.back().offered;
        const QString unit = mode == LoadMode::Concurrency ? QStringLiteral("users") : QStringLiteral("req/s");
        out.error = QStringLiteral("the sweep never reached saturation (throughput kept rising with load up to %1 "
                                   "%2); add loads above %1 %2")
                        .arg(num(top), unit);
        return out;
    }

    const bool haveRecords = std::all_of(steps.begin(), steps.end(), [](const FitStep& s) { return s.fromRecords; });
    // The first step that served less than 90% of the share of its load the first step served.
    std::size_t saturatedAt = steps.size();
    for (std::size_t i = 0; i < steps.size(); ++i) {
        if (steps[i].metrics.requestThroughput / steps[i].offered < 0.9 * firstShare) {
            saturatedAt = i;
            break;
        }
    }

    // First estimates: the lightest step is nearly alone on the server, so its TPOT is about one decode
    // iteration and its TTFT one prefill; the records say how many ran at once and what they held.
    const FitStep& low = steps.front();
    double promptSum = 0, outputSum = 0, maxLen = 0, maxPrompt = 0;
    std::size_t count = 0;
    for (const FitStep& s : steps) {
        for (const TwinRequest& r : s.requests) {
            promptSum += r.promptTokens;
            outputSum += r.outputTokens;
            maxLen = std::max(maxLen, double(r.promptTokens + r.outputTokens));
            maxPrompt = std::max(maxPrompt, double(r.promptTokens));
            ++count;
        }
    }
    const double meanPrompt = std::max(1.0, promptSum / double(count));
    const double meanOutput = std::max(1.0, outputSum / double(count));
    double t0 = middle(low.metrics.tpot);
    const double f0 = middle(low.metrics.ttft);
    if (!(t0 > 0))
        t0 = isKnown(f0) && f0 > 0 ? f0 / 2 : 10.0;

    sim::SimParams p;
    p.modelId = QStringLiteral("kneepoint/twin");
    p.maxModelLen = std::max(4096, int(maxLen));
    p.maxNumBatchedTokens = std::max(2048, int(maxPrompt));
    p.prefixCache = false;
    p.tBaseMs = 0.8 * t0;
    p.perDecodeMs = 0.2 * t0 / std::max(1.0, isKnown(low.metrics.meanConcurrency) ? low.metrics.meanConcurrency : 1.0);
    p.perPrefillTokenMs = std::max(0.05 * t0, (isKnown(f0) ? f0 : t0) - t0) / meanPrompt;
    p.perKvTokenMs = 0.02 * t0 / (meanPrompt + meanOutput);
    p.perWaitingMs = 0.01 * p.tBaseMs;

    QString seqsNote, kvNote, costNote, waitingNote, preEngineNote;
    // The latency before the engine is searched only where the lightest step's TTFT asks for it: elsewhere it
    // stays 0 and the scan below bounds it.
    bool searchPreEngine = false;
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
        out.notes.append(QStringLiteral("%1 of the steps' token times do not line up into server iterations (the "
                                        "client read them at different moments): the first estimates come from "
                                        "their percentiles")
                             .arg(seen.unaligned));
    // What the summaries say, records or not (see fromSummaries).
    const SummaryEstimate summary = fromSummaries(steps, saturatedAt, meanPrompt, meanOutput);
    // Records that line up into iterations say more (below); a saved run's records that do not are searched
    // from the lightest step as before.
    const bool fromSummary = summary.ok && !haveRecords;
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
            out.notes.append(QStringLiteral("the lightest step's TTFT (%1 ms) is more than the prefill of its "
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
    sim::SimParams heuristic = p;
    const std::optional<std::array<double, 4>> regression = costRegression(seen.samples);
    const bool hasRegression = regression.has_value();
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

    // The objective: relative throughput error (weighted: it is what capacity planning reads) and the
    // log-ratios of P50/P99 TTFT and P50 TPOT (the mean where a summary gives only the mean), averaged
    // over the steps.
    int evaluations = 0;
    // Summaries state their throughput more surely than anything else (a latency of the mean request stands
    // for a spread the twin does not see): it weighs four times as much again there.
    const double throughputWeight = haveRecords ? 4 : 16;
    const auto stepError = [throughputWeight](const StepMetrics& pred, const StepMetrics& meas, double ttftWeight) {
        double e = 0;
        if (meas.requestThroughput > 0) {
            const double r = (pred.requestThroughput - meas.requestThroughput) / meas.requestThroughput;
            e += throughputWeight * r * r;
        }
        const auto logTerm = [&e](double a, double b, double weight = 1) {
            if (isKnown(a) && isKnown(b) && a > 0 && b > 0) {
                const double l = std::log(a / b);
                e += weight * l * l;
            }
        };
        const auto mid = [](const LatencyStats& predicted, const LatencyStats& measured) {
            return meanOnly(measured) ? predicted.mean : pct(predicted, 50);
        };
        logTerm(mid(pred.ttft, meas.ttft), middle(meas.ttft), ttftWeight);
        logTerm(ttft(pred, 99), ttft(meas, 99), ttftWeight);
        logTerm(mid(pred.tpot, meas.tpot), middle(meas.tpot));
        return e;
    };
    // Records: the lightest step's TTFT beyond what the start explains (its median and its P99 beyond the
    // median, as fromSummaries splits them) is latency before the engine.
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
    // The API server's queue: a median TTFT that grows with the load below saturation by more than the start's
    // iterations explain is a wait before the engine that grows with the load. Its start is the service time whose
    // mean wait (a queue of one server, M/D/1) grows that much from the lightest step to that one, at most what lets
    // the measured peak through; the latency before the engine gives up the API server's time and its wait at the
    // lightest step. Elsewhere it stays 0, and the scan below bounds it at fractions of the time at which the API
    // server alone would hold the peak.
    // A summary's rate step may state more throughput than any server whose requests take as long as its latencies
    // say can measure: the last of n Poisson sends goes out (n − 1)/rate seconds in, give or take √(n − 1)/rate,
    // and still takes its later tokens at the TPOT of a request alone (the summaries' intercept); three standard
    // deviations early, no server measures more than n / ((n − 1 − 3√(n − 1))/rate + (output − 1)·TPOT alone).
    // Such a step's figures are not one run of one server: its TTFTs neither start the API server nor weigh more
    // than a quarter, its throughput is fitted as near as the model allows.
    std::vector<bool> impossible(steps.size(), false);
    if (fromSummary && mode == LoadMode::Rate && summary.tBaseMs > 0) {
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const double n = double(steps[i].requests.size());
            const double early = (n - 1 - 3 * std::sqrt(std::max(0.0, n - 1))) / steps[i].offered;
            const double most = early > 0 ? n / (early + (meanOutput - 1) * summary.tBaseMs / 1000) : kUnknown;
            if (isKnown(most) && steps[i].metrics.requestThroughput > most) {
                impossible[i] = true;
                out.notes.append(QStringLiteral("the step at %1 states %2 req/s, more than any server whose request "
                                                "alone takes %3 ms per later token can measure from %4 requests sent "
                                                "at that rate (at most %5 req/s): its TTFTs weigh a quarter")
                                     .arg(loadWord(mode, steps[i].offered), num(steps[i].metrics.requestThroughput),
                                         num(summary.tBaseMs), QString::number(qint64(n)), num(most)));
            }
        }
    }
    bool searchApiServer = false;
    bool apiServerRefused = false; // the TTFT's growth is more than one API server's queue can give
    QString apiServerNote;
    double peakRps = 0;
    for (const FitStep& s : steps)
        peakRps = std::max(peakRps, s.metrics.requestThroughput);
    const double apiScale = peakRps > 0 ? 1000 / peakRps : t0;
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
            out.notes.append(
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
            out.notes.append(QStringLiteral("the %5 TTFT grows by %1 ms from %2 to %3 beyond what the server's "
                                            "iterations explain, below saturation: a queue before the engine (one "
                                            "API server); api_server_ms starts at %4 ms")
                                 .arg(num(growth), loadWord(mode, low.offered), loadWord(mode, steps[at].offered),
                                     num(p.apiServerMs), which));
        }
    }
    // Past the measured peak a summary's TTFTs are those of the step's queue, which its mean request on the offered
    // rate's schedule says little about (the lengths' spread and the real send times decide how deep it gets):
    // there they weigh a quarter, the throughput as before.
    std::vector<double> ttftWeights(steps.size(), 1.0);
    if (fromSummary) {
        std::size_t peakAt = 0;
        for (std::size_t i = 0; i < steps.size(); ++i) {
            if (steps[i].metrics.requestThroughput > steps[peakAt].metrics.requestThroughput)
                peakAt = i;
        }
        for (std::size_t i = peakAt + 1; i < steps.size(); ++i)
            ttftWeights[i] = 0.25;
        for (std::size_t i = 0; i < steps.size(); ++i) {
            if (impossible[i])
                ttftWeights[i] = 0.25;
        }
    }
    // The cache must hold the longest request the steps sent (the server served it).
    const int kvFloor = int(std::ceil((maxLen + 1) / (1 - p.kvWatermark))) + 2 * p.blockSize;
    const auto objective = [&](const sim::SimParams& q) {
        if (q.kvCapacityTokens < kvFloor)
            return std::numeric_limits<double>::infinity();
        ++evaluations;
        double e = 0;
        for (std::size_t i = 0; i < steps.size(); ++i)
            e += stepError(simulateFigures(q, steps[i]), steps[i].metrics, ttftWeights[i]);
        return e / double(steps.size());
    };

    // Coordinate search in log space: each parameter tries a step up and down; a success widens its
    // step, a failure halves it; integers move by at least one. Bounded by `budget` evaluations.
    const auto search = [&](sim::SimParams x, double best, int budget) {
        std::array<double, ParamCount> stepLog;
        stepLog.fill(std::log(1.5));
        const double minStep = std::log(1.003);
        while (evaluations < budget) {
            bool moved = false, active = false;
            for (int i = 0; i < ParamCount && evaluations < budget; ++i) {
                if ((i == PreEngine || i == PreEngineSpread) && !searchPreEngine)
                    continue;
                if (i == ApiServer && !searchApiServer)
                    continue;
                if (stepLog[std::size_t(i)] < minStep && !isInteger(i))
                    continue;
                if (isInteger(i) && stepLog[std::size_t(i)] < minStep / 4)
                    continue;
                active = true;
                bool improved = false;
                for (const int sign : { +1, -1 }) {
                    sim::SimParams q = x;
                    const double v = get(x, i);
                    double target = std::max(1e-9, v) * std::exp(sign * stepLog[std::size_t(i)]);
                    // A latency at 0 tries a tenth of an iteration.
                    if ((i == PreEngine || i == PreEngineSpread) && v <= 0)
                        target = sign > 0 ? 0.1 * t0 : 0.0;
                    if (i == ApiServer && v <= 0)
                        target = sign > 0 ? 0.1 * apiScale : 0.0;
                    set(q, i, target);
                    if (isInteger(i) && get(q, i) == v)
                        set(q, i, v + sign * (i == KvCapacity ? x.blockSize : 1));
                    if (get(q, i) == v)
                        continue;
                    const double e = objective(q);
                    if (e < best) {
                        best = e;
                        x = q;
                        improved = true;
                        break;
                    }
                }
                if (improved) {
                    stepLog[std::size_t(i)] = std::min(std::log(4.0), stepLog[std::size_t(i)] * 1.5);
                    moved = true;
                } else {
                    stepLog[std::size_t(i)] *= 0.5;
                }
            }
            if (!active || (!moved && *std::max_element(stepLog.begin(), stepLog.end()) < minStep / 4))
                break;
        }
        return std::pair(x, best);
    };

    // Records: a local search from the iteration fit and, when that is off, from the percentile guesses.
    // Summaries: a global search before the local one: several starts, each run once, and the local search
    // from the best two. Around the summaries' estimates, the batch limit at 1 to 1.6 times the requests running at
    // the plateau by Little's law (a mean over the step, ramp and drain included: the peak batch is larger),
    // set by max_num_seqs (a cache twice as large) or by the cache (max_num_seqs four times as large), each
    // with the host's cost per waiting request at its estimate, a tenth and a hundredth of it, and at its estimate
    // over the deepest queue (the heaviest step's P99 TTFT) where the heaviest step is host-bound.
    struct Start
    {
        sim::SimParams params;
        double error = 0;
        bool apiServer = false; // a variant with the API server's queue
    };
    std::vector<Start> starts;
    starts.push_back({ p, 0 });
    if (fromSummary && summary.running >= 1) {
        const sim::SimParams base = p;
        const double context = meanPrompt + meanOutput / 2 + p.blockSize / 2.0;
        const double waiting = summary.perWaitingMs;
        for (const double f : { 1.0, 1.25, 1.6 }) {
            const double running = std::max(1.0, f * summary.running);
            for (const bool cacheBound : { false, true }) {
                sim::SimParams q = base;
                set(q, MaxNumSeqs, cacheBound ? 4 * running : running);
                set(q, KvCapacity,
                    std::max<double>(kvFloor,
                        cacheBound ? running * context / (1 - q.kvWatermark)
                                   : 2 * running * (meanPrompt + meanOutput)));
                for (const double w : { 1.0, 0.1, 0.01 }) {
                    set(q, PerWaiting, waiting * w);
                    starts.push_back({ q, 0 });
                }
                if (summary.perWaitingDeepMs > 0) {
                    set(q, PerWaiting, summary.perWaitingDeepMs);
                    starts.push_back({ q, 0 });
                }
            }
        }
        // Each start again with an API server's queue: half the time its growth asks for, else (none asked) half
        // the time at which it alone would hold the peak. The best of these is searched besides the best two.
        if (searchApiServer && !apiServerRefused) {
            for (std::size_t k = 0, screened = starts.size(); k < screened; ++k) {
                sim::SimParams q = starts[k].params;
                set(q, ApiServer, q.apiServerMs > 0 ? q.apiServerMs / 2 : apiScale / 2);
                starts.push_back({ q, 0, true });
            }
        }
    }
    sim::SimParams fitted = p;
    double best = 0;
    bool fromRecordsStart = hasRegression;
    if (!fromSummary) {
        // From the iteration fit and, when that is off, from the percentile guesses too: the better one wins.
        std::tie(fitted, best) = search(p, objective(p), evaluations + options.maxEvaluations);
        if (hasRegression && best > 0.01) {
            heuristic.maxNumSeqs = p.maxNumSeqs;
            heuristic.kvCapacityTokens = p.kvCapacityTokens;
            const auto [other, otherBest]
                = search(heuristic, objective(heuristic), evaluations + options.maxEvaluations);
            if (otherBest < best) {
                fitted = other;
                best = otherBest;
                fromRecordsStart = false;
            }
        }
        starts.clear();
    }
    for (Start& s : starts)
        s.error = objective(s.params);
    std::stable_sort(starts.begin(), starts.end(), [](const Start& a, const Start& b) { return a.error < b.error; });
    std::vector<const Start*> chosen;
    // Starts that score the same (a parameter that did not matter there) are one start.
    for (const Start& s : starts) {
        const bool again = std::any_of(chosen.begin(), chosen.end(),
            [&s](const Start* c) { return std::abs(c->error - s.error) <= 1e-9 * std::max(1.0, s.error); });
        if (!again && chosen.size() < 2 && !s.apiServer)
            chosen.push_back(&s);
    }
    const auto variant = std::find_if(starts.begin(), starts.end(), [](const Start& s) { return s.apiServer; });
    if (variant != starts.end() && !chosen.empty() && chosen.front()->error > variant->error)
        chosen.insert(chosen.begin(), &*variant);
    else if (variant != starts.end())
        chosen.push_back(&*variant);
    if (!chosen.empty()) {
        fitted = chosen.front()->params;
        best = chosen.front()->error;
        const int perStart = std::max(1, options.maxEvaluations / 4);
        for (const Start* s : chosen) {
            const auto [x, e] = search(s->params, s->error, evaluations + perStart);
            if (e < best) {
                fitted = x;
                best = e;
            }
        }
        // The best of them searched on, with the rest of the budget.
        std::tie(fitted, best) = search(fitted, best, evaluations + options.maxEvaluations - perStart);
    }
    if (hasRegression && !fromRecordsStart)
        costNote = QStringLiteral("started from the lightest step's TTFT and TPOT (a better fit than the one "
                                  "from the iteration times)");
    p = fitted;

    Twin twin;
    twin.params = p;
    twin.fitError = best;
    twin.sourceRuns = sourceRuns;
    twin.uncertaintyMethod = QStringLiteral(
        "profile scan: the range over which the fit error stays within 10% of its minimum when the parameter alone "
        "moves (tested at x1.02, x1.05, x1.1, x1.2, x1.5, x2, x4 and their inverses); an open side is not bounded "
        "by the data");

    // The uncertainty scan.
    const double threshold = std::max(best * 1.1, best + 1e-4);
    static constexpr double factors[] = { 1.02, 1.05, 1.1, 1.2, 1.5, 2, 4 };
    for (int i = 0; i < ParamCount; ++i) {
        ParameterFit f;
        f.key = QString::fromLatin1(fittedRows()[std::size_t(i)]->key);
        f.value = get(p, i);
        const bool latency = i == PreEngine || i == PreEngineSpread || i == ApiServer;
        if (latency && f.value <= 0) {
            // A latency at 0 cannot be scaled: tried at fractions of the lightest step's TTFT instead (the API
            // server's time: of the time at which it alone would hold the measured peak). It is bounded above where
            // the error passes the threshold, and by 0 below.
            const double scale = i == ApiServer ? apiScale : isKnown(f0) && f0 > 0 ? f0 : t0;
            double within = 0;
            for (const double fraction : { 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0 }) {
                sim::SimParams q = p;
                set(q, i, fraction * scale);
                if (objective(q) > threshold) {
                    f.hi = within;
                    f.lo = 0.0;
                    break;
                }
                within = get(q, i);
            }
        }
        for (const int sign : { +1, -1 }) {
            if (latency && f.value <= 0)
                break;
            std::optional<double> bound;
            double within = f.value;
            for (const double factor : factors) {
                sim::SimParams q = p;
                set(q, i, f.value * (sign > 0 ? factor : 1 / factor));
                if (isInteger(i) && get(q, i) == f.value)
                    continue;
                if (objective(q) > threshold) {
                    bound = within;
                    break;
                }
                within = get(q, i);
            }
            (sign > 0 ? f.hi : f.lo) = bound;
        }
        f.identified = f.lo || f.hi;
        if (i == MaxNumSeqs)
            f.note = seqsNote;
        else if (i <= PerKv)
            f.note = costNote;
        else if (i == KvCapacity)
            f.note = kvNote;
        else if (i == PerWaiting)
            f.note = waitingNote;
        else if (i == ApiServer)
            f.note = f.value > 0 ? apiServerNote
                                 : QStringLiteral("0: the median TTFT does not grow with the load below saturation "
                                                  "beyond what the server's iterations explain");
        else if (latency)
            f.note = f.value > 0
                ? preEngineNote
                : QStringLiteral("0: the lightest step's TTFT is what the server's iterations explain");
        if (!f.identified) {
            f.note = i == ApiServer && f.value <= 0
                ? QStringLiteral("the fit error does not change up to the time at which the API server alone would "
                                 "hold the measured peak: the data do not identify it")
                : latency && f.value <= 0
                ? QStringLiteral("the fit error does not change up to the lightest step's TTFT: the data do not "
                                 "identify it")
                : QStringLiteral("the fit error does not change over x1/4 to x4: the data do not identify it");
            twin.unidentified.append(f.key);
        } else if (!f.hi && latency) {
            f.note += QStringLiteral("; a lower bound only: more of it changes the fit too little");
        } else if (!f.hi) {
            f.note += (f.note.isEmpty() ? QString() : QStringLiteral("; "))
                + QStringLiteral("a lower bound only: it never limited the measured steps");
        }
        twin.parameters.push_back(f);
    }
    const auto assumed = [&twin, &p](const char* key, const QString& why) {
        ParameterFit f;
        f.key = QString::fromLatin1(key);
        f.value = sim::findSimParameter(f.key)->get(p);
        f.identified = false;
        f.note = why;
        twin.parameters.push_back(f);
        twin.unidentified.append(f.key);
    };
    assumed("max_num_batched_tokens",
        QStringLiteral("assumed: chunked prefill of prompts this short never reaches the budget"));
    assumed("block_size", QStringLiteral("assumed: vLLM's default"));
    assumed("kv_watermark", QStringLiteral("assumed: vLLM's default"));
    if (!haveRecords) {
        out.notes.append(QStringLiteral("some steps have no request records (an imported summary): their requests "
                                        "are taken as equal to the mean prompt and output lengths, sent at the "
                                        "offered rate"));
    }

    const MetricsOptions metrics = fitMetricsOptions();
    for (const FitStep& s : steps) {
        const StepMetrics pred = simulateLoad(p, 1, s.mode, s.offered, s.requests, metrics);
        StepFitQuality q;
        q.mode = s.mode;
        q.offered = s.offered;
        q.measuredRps = s.metrics.requestThroughput;
        q.predictedRps = pred.requestThroughput;
        q.measuredTtftP50 = ttft(s.metrics, 50);
        q.predictedTtftP50 = ttft(pred, 50);
        q.measuredTtftP99 = ttft(s.metrics, 99);
        q.predictedTtftP99 = ttft(pred, 99);
        q.measuredTpotP50 = tpot(s.metrics);
        q.predictedTpotP50 = tpot(pred);
        twin.steps.push_back(q);
    }
    twin.evaluations = evaluations;

    // The workload predictions replay: every step's requests in order (at most 5000), the median step size.
    std::vector<int> sizes;
    for (const FitStep& s : steps) {
        sizes.push_back(int(s.requests.size()));
        for (const TwinRequest& r : s.requests) {
            if (twin.workload.size() < 5000)
                twin.workload.push_back(TwinRequest { r.promptTokens, r.outputTokens, -1 });
        }
    }
    std::nth_element(sizes.begin(), sizes.begin() + std::ptrdiff_t(sizes.size() / 2), sizes.end());
    twin.requestsPerStep = sizes[sizes.size() / 2];
    twin.burstiness = steps.front().burstiness > 0 ? steps.front().burstiness : 1.0;
    out.twin = std::move(twin);
    return out;
}

} // namespace kp::twin
