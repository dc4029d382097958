#include "telemetry/servermetrics.h"

#include <QJsonDocument>
#include <QJsonValue>

#include <algorithm>
#include <cmath>
#include <limits>

namespace kp {

namespace {

constexpr double kPercentiles[] = { 50.0, 90.0, 99.0 };

std::optional<double> read(const PromText& text, const char* name)
{
    if (!name)
        return std::nullopt;
    return text.sum(name);
}

double round3(double v)
{
    return std::round(v * 1000.0) / 1000.0;
}

void put(QJsonObject& o, const char* key, const std::optional<double>& v)
{
    if (v && std::isfinite(*v))
        o.insert(QLatin1String(key), *v);
}

std::optional<double> get(const QJsonObject& o, const char* key)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (!v.isDouble())
        return std::nullopt;
    return v.toDouble();
}

QString number(double v, int decimals)
{
    return QString::number(v, 'f', decimals);
}

QString count(double v)
{
    return std::fabs(v - std::round(v)) < 1e-9 ? QString::number(qint64(std::llround(v))) : number(v, 1);
}

QString ms(double v)
{
    return v >= 100 ? number(v, 0) : v >= 10 ? number(v, 1) : number(v, 2);
}

} // namespace

const std::vector<ServerMetricNames>& knownServerMetricNames()
{
    static const std::vector<ServerMetricNames> names = {
        {
            .engine = "vllm",
            .running = "vllm:num_requests_running",
            .waiting = "vllm:num_requests_waiting",
            .kvUsage = "vllm:kv_cache_usage_perc",
            .kvUsageAlt = "vllm:gpu_cache_usage_perc",
            .preemptions = "vllm:num_preemptions_total",
            .ttft = "vllm:time_to_first_token_seconds",
            .queueTime = "vllm:request_queue_time_seconds",
            .promptTokens = "vllm:prompt_tokens_total",
            .generationTokens = "vllm:generation_tokens_total",
            .modelLabel = "model_name",
            .prefixCacheQueries = "vllm:prefix_cache_queries_total",
            .prefixCacheHits = "vllm:prefix_cache_hits_total",
            .prefixCacheHitRate = "vllm:gpu_prefix_cache_hit_rate",
        },
        {
            .engine = "sglang",
            .running = "sglang:num_running_reqs",
            .waiting = "sglang:num_queue_reqs",
            .kvUsage = "sglang:token_usage",
            .kvUsageAlt = nullptr,
            .preemptions = "sglang:num_retracted_requests_total",
            .ttft = "sglang:time_to_first_token_seconds",
            .queueTime = "sglang:queue_time_seconds",
            .promptTokens = "sglang:prompt_tokens_total",
            .generationTokens = "sglang:generation_tokens_total",
            .modelLabel = "model_name",
            .prefixCacheQueries = nullptr,
            .prefixCacheHits = nullptr,
            .prefixCacheHitRate = "sglang:cache_hit_rate",
        },
        {
            .engine = "tgi",
            .running = "tgi_batch_current_size",
            .waiting = "tgi_queue_size",
            .kvUsage = nullptr,
            .kvUsageAlt = nullptr,
            .preemptions = nullptr,
            .ttft = nullptr,
            .queueTime = "tgi_request_queue_duration",
            .promptTokens = "tgi_request_input_length_sum",
            .generationTokens = "tgi_request_generated_tokens_sum",
            .modelLabel = nullptr,
            .prefixCacheQueries = nullptr,
            .prefixCacheHits = nullptr,
            .prefixCacheHitRate = nullptr,
        },
    };
    return names;
}

const ServerMetricNames* detectServerMetrics(const PromText& text)
{
    for (const ServerMetricNames& n : knownServerMetricNames()) {
        if (text.has(n.running) || text.has(n.waiting))
            return &n;
    }
    return nullptr;
}

ServerSample ServerSample::extract(const PromText& text, const ServerMetricNames& names, double atS)
{
    ServerSample s;
    s.atS = atS;
    s.running = read(text, names.running);
    s.waiting = read(text, names.waiting);
    if (names.kvUsage)
        s.kvUsage = text.max(names.kvUsage);
    if (!s.kvUsage && names.kvUsageAlt)
        s.kvUsage = text.max(names.kvUsageAlt);
    s.preemptionsTotal = read(text, names.preemptions);
    s.promptTokensTotal = read(text, names.promptTokens);
    s.generationTokensTotal = read(text, names.generationTokens);
    s.prefixCacheQueriesTotal = read(text, names.prefixCacheQueries);
    s.prefixCacheHitsTotal = read(text, names.prefixCacheHits);
    // Several ranks or models each report a rate: their mean is the best a gauge can say.
    if (names.prefixCacheHitRate)
        s.prefixCacheHitRate = text.mean(names.prefixCacheHitRate);
    if (names.ttft)
        s.ttft = text.histogram(names.ttft);
    if (names.queueTime)
        s.queueTime = text.histogram(names.queueTime);
    return s;
}

QByteArray ServerSample::toJsonLine() const
{
    QJsonObject o;
    o.insert(QLatin1String("t"), round3(atS));
    put(o, "running", running);
    put(o, "waiting", waiting);
    put(o, "kv_usage", kvUsage);
    put(o, "preemptions_total", preemptionsTotal);
    put(o, "prompt_tokens_total", promptTokensTotal);
    put(o, "generation_tokens_total", generationTokensTotal);
    put(o, "prefix_cache_queries_total", prefixCacheQueriesTotal);
    put(o, "prefix_cache_hits_total", prefixCacheHitsTotal);
    put(o, "prefix_cache_hit_rate", prefixCacheHitRate);
    if (!ttft.isEmpty()) {
        o.insert(QLatin1String("ttft_count"), ttft.count);
        o.insert(QLatin1String("ttft_sum_s"), ttft.sum);
    }
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

std::optional<ServerSample> ServerSample::fromJsonLine(QByteArrayView line)
{
    const QJsonDocument doc = QJsonDocument::fromJson(line.toByteArray());
    if (!doc.isObject() || !doc.object().value(QLatin1String("t")).isDouble())
        return std::nullopt;
    const QJsonObject o = doc.object();
    ServerSample s;
    s.atS = o.value(QLatin1String("t")).toDouble();
    s.running = get(o, "running");
    s.waiting = get(o, "waiting");
    s.kvUsage = get(o, "kv_usage");
    s.preemptionsTotal = get(o, "preemptions_total");
    s.promptTokensTotal = get(o, "prompt_tokens_total");
    s.generationTokensTotal = get(o, "generation_tokens_total");
    s.prefixCacheQueriesTotal = get(o, "prefix_cache_queries_total");
    s.prefixCacheHitsTotal = get(o, "prefix_cache_hits_total");
    s.prefixCacheHitRate = get(o, "prefix_cache_hit_rate");
    if (const auto n = get(o, "ttft_count")) {
        s.ttft.count = *n;
        s.ttft.sum = get(o, "ttft_sum_s").value_or(0.0);
        s.ttft.buckets = { { std::numeric_limits<double>::infinity(), *n } };
    }
    return s;
}

QByteArray StepTelemetry::samplesJsonl() const
{
    QByteArray out;
    for (const ServerSample& s : samples)
        out += s.toJsonLine() + '\n';
    return out;
}

std::vector<ServerSample> StepTelemetry::samplesFromJsonl(QByteArrayView text)
{
    std::vector<ServerSample> out;
    for (const QByteArrayView line : QByteArray(text.toByteArray()).split('\n')) {
        if (auto s = ServerSample::fromJsonLine(line))
            out.push_back(std::move(*s));
    }
    return out;
}

std::optional<ServerStepStats> ServerStepStats::derive(
    const std::vector<ServerSample>& samples, const QString& engine, const QString& model, double timeScale)
{
    if (samples.empty())
        return std::nullopt;
    ServerStepStats st;
    st.engine = engine;
    st.model = model;
    st.samples = static_cast<int>(samples.size());
    st.timeScale = timeScale > 0 ? timeScale : 1.0;
    const std::size_t from = samples.size() > 2 ? 1 : 0;
    auto gauge = [&](auto member, std::optional<double>& mean, std::optional<double>& max) {
        double total = 0;
        int n = 0;
        for (std::size_t i = 0; i < samples.size(); ++i) {
            const std::optional<double>& v = samples[i].*member;
            if (!v)
                continue;
            if (!max || *v > *max)
                max = *v;
            if (i >= from) {
                total += *v;
                ++n;
            }
        }
        if (n > 0)
            mean = total / n;
    };
    gauge(&ServerSample::running, st.runningMean, st.runningMax);
    gauge(&ServerSample::waiting, st.waitingMean, st.waitingMax);
    gauge(&ServerSample::kvUsage, st.kvUsageMean, st.kvUsageMax);

    if (std::none_of(samples.begin(), samples.end(),
            [](const ServerSample& s) { return s.prefixCacheQueriesTotal || s.prefixCacheHitsTotal; })) {
        std::optional<double> rateMax;
        gauge(&ServerSample::prefixCacheHitRate, st.prefixCacheHitRate, rateMax);
    }

    const ServerSample& first = samples.front();
    const ServerSample& last = samples.back();
    auto delta = [&](auto member) -> std::optional<double> {
        const std::optional<double>& a = first.*member;
        const std::optional<double>& b = last.*member;
        if (!a || !b)
            return std::nullopt;
        return *b >= *a ? *b - *a : *b; // a counter that went down: the server restarted
    };
    if (samples.size() > 1) {
        st.preemptions = delta(&ServerSample::preemptionsTotal);
        st.promptTokens = delta(&ServerSample::promptTokensTotal);
        st.generationTokens = delta(&ServerSample::generationTokensTotal);
        st.prefixCacheQueries = delta(&ServerSample::prefixCacheQueriesTotal);
        st.prefixCacheHits = delta(&ServerSample::prefixCacheHitsTotal);
        if (st.prefixCacheQueries && st.prefixCacheHits && *st.prefixCacheQueries > 0)
            st.prefixCacheHitRate = std::clamp(*st.prefixCacheHits / *st.prefixCacheQueries, 0.0, 1.0);
        if (!last.ttft.isEmpty()) {
            const PromHistogram d = last.ttft.minus(first.ttft);
            st.ttftCount = d.count;
            if (d.count > 0) {
                st.ttftMeanMs = d.sum / d.count * 1000.0 / st.timeScale;
                for (double p : kPercentiles) {
                    if (const auto q = d.quantile(p / 100.0))
                        st.ttftPercentilesMs[p] = *q * 1000.0 / st.timeScale;
                }
            }
        }
        if (!last.queueTime.isEmpty()) {
            const PromHistogram d = last.queueTime.minus(first.queueTime);
            if (d.count > 0)
                st.queueTimeMeanMs = d.sum / d.count * 1000.0 / st.timeScale;
        }
    }
    return st;
}

QJsonObject ServerStepStats::toJson() const
{
    QJsonObject o;
    o.insert(QLatin1String("engine"), engine);
    if (!model.isEmpty())
        o.insert(QLatin1String("model"), model);
    o.insert(QLatin1String("samples"), samples);
    if (timeScale != 1.0)
        o.insert(QLatin1String("time_scale"), timeScale);
    put(o, "running_mean", runningMean);
    put(o, "running_max", runningMax);
    put(o, "waiting_mean", waitingMean);
    put(o, "waiting_max", waitingMax);
    put(o, "kv_usage_mean", kvUsageMean);
    put(o, "kv_usage_max", kvUsageMax);
    put(o, "preemptions", preemptions);
    put(o, "prompt_tokens", promptTokens);
    put(o, "generation_tokens", generationTokens);
    put(o, "prefix_cache_queries", prefixCacheQueries);
    put(o, "prefix_cache_hits", prefixCacheHits);
    put(o, "prefix_cache_hit_rate", prefixCacheHitRate);
    put(o, "ttft_count", ttftCount);
    put(o, "ttft_mean_ms", ttftMeanMs);
    for (const auto& [p, v] : ttftPercentilesMs)
        o.insert(QStringLiteral("ttft_p%1_ms").arg(p), v);
    put(o, "queue_time_mean_ms", queueTimeMeanMs);
    return o;
}

std::optional<ServerStepStats> ServerStepStats::fromJson(const QJsonObject& o)
{
    if (!o.value(QLatin1String("engine")).isString())
        return std::nullopt;
    ServerStepStats st;
    st.engine = o.value(QLatin1String("engine")).toString();
    st.model = o.value(QLatin1String("model")).toString();
    st.samples = o.value(QLatin1String("samples")).toInt();
    st.timeScale = o.value(QLatin1String("time_scale")).toDouble(1.0);
    st.runningMean = get(o, "running_mean");
    st.runningMax = get(o, "running_max");
    st.waitingMean = get(o, "waiting_mean");
    st.waitingMax = get(o, "waiting_max");
    st.kvUsageMean = get(o, "kv_usage_mean");
    st.kvUsageMax = get(o, "kv_usage_max");
    st.preemptions = get(o, "preemptions");
    st.promptTokens = get(o, "prompt_tokens");
    st.generationTokens = get(o, "generation_tokens");
    st.prefixCacheQueries = get(o, "prefix_cache_queries");
    st.prefixCacheHits = get(o, "prefix_cache_hits");
    st.prefixCacheHitRate = get(o, "prefix_cache_hit_rate");
    st.ttftCount = get(o, "ttft_count");
    st.ttftMeanMs = get(o, "ttft_mean_ms");
    for (double p : kPercentiles) {
        if (const auto v = get(o, QStringLiteral("ttft_p%1_ms").arg(p).toLatin1().constData()))
            st.ttftPercentilesMs[p] = *v;
    }
    st.queueTimeMeanMs = get(o, "queue_time_mean_ms");
    return st;
}

QString ServerStepStats::summary(std::optional<double> clientTtftMeanMs) const
{
    QStringList parts;
    if (runningMean && runningMax)
        parts << QStringLiteral("running %1 avg / %2 max").arg(number(*runningMean, 1), count(*runningMax));
    if (waitingMean && waitingMax)
        parts << QStringLiteral("waiting %1 / %2").arg(number(*waitingMean, 1), count(*waitingMax));
    if (kvUsageMean && kvUsageMax)
        parts << QStringLiteral("KV cache %1% avg / %2% max")
                     .arg(number(*kvUsageMean * 100.0, 0), number(*kvUsageMax * 100.0, 0));
    if (preemptions)
        parts << (*preemptions == 1 ? QStringLiteral("1 preemption")
                                    : QStringLiteral("%1 preemptions").arg(count(*preemptions)));
    if (ttftMeanMs) {
        QString t = QStringLiteral("TTFT mean %1 ms").arg(ms(*ttftMeanMs));
        if (const auto it = ttftPercentilesMs.find(99.0); it != ttftPercentilesMs.end())
            t += QStringLiteral(", p99 %1 ms").arg(ms(it->second));
        if (clientTtftMeanMs)
            t += QStringLiteral(" (client %1 ms)").arg(ms(*clientTtftMeanMs));
        parts << t;
    }
    if (queueTimeMeanMs)
        parts << QStringLiteral("queue time mean %1 ms").arg(ms(*queueTimeMeanMs));
    if (prefixCacheHitRate)
        parts << QStringLiteral("prefix-cache hit rate %1%").arg(number(*prefixCacheHitRate * 100.0, 0));
    if (parts.isEmpty())
        return QStringLiteral("server (%1): %2 samples, no values the analysis reads").arg(engine).arg(samples);
    return QStringLiteral("server: ") + parts.join(QStringLiteral(", "));
}

} // namespace kp
