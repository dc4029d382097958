#include "twin/twinfit_p.h"

#include "load/arrivalschedule.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <tuple>

// The model as the fit runs it: the parameters it moves, and one step simulated for the figures it compares.

namespace kp::twin::detail {

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
} // namespace kp::twin::detail
