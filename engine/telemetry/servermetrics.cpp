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

// A count, a counter, power or memory below zero is no reading: unknown, not a figure to print.
std::optional<double> notNegative(std::optional<double> v)
{
    return v && *v >= 0 ? v : std::nullopt;
}

// A fraction 0..1 (KV usage, hit rates) or a percentage 0..100 outside its range is no reading either.
std::optional<double> within(std::optional<double> v, double high)
{
    return v && *v >= 0 && *v <= high ? v : std::nullopt;
}

// The histograms a samples file keeps (count and sum), with their keys' stem.
const std::vector<std::pair<PromHistogram ServerSample::*, const char*>>& phaseHistograms()
{
    static const std::vector<std::pair<PromHistogram ServerSample::*, const char*>> list = {
        { &ServerSample::ttft, "ttft" },
        { &ServerSample::queueTime, "queue_time" },
        { &ServerSample::prefillTime, "prefill_time" },
        { &ServerSample::decodeTime, "decode_time" },
        { &ServerSample::inferenceTime, "inference_time" },
        { &ServerSample::e2eLatency, "e2e" },
    };
    return list;
}

// The figures of one histogram between two scrapes; unknown when the later one lacks it or counted nothing.
HistogramFigures figuresOf(const PromHistogram& first, const PromHistogram& last, double timeScale)
{
    HistogramFigures f;
    if (last.isEmpty())
        return f;
    const PromHistogram d = last.minus(first);
    f.count = d.count;
    if (d.count > 0 && d.sum >= 0) { // times: a negative sum is no reading
        f.meanMs = d.sum / d.count * 1000.0 / timeScale;
        for (double p : kPercentiles) {
            if (const auto q = d.quantile(p / 100.0); q && std::isfinite(*q))
                f.percentilesMs[p] = *q * 1000.0 / timeScale;
        }
    }
    if (f.count && !std::isfinite(*f.count))
        f.count.reset();
    if (f.meanMs && !std::isfinite(*f.meanMs)) {
        f.meanMs.reset();
        f.percentilesMs.clear();
    }
    return f;
}

// The step figures of each phase histogram, with their keys' stem in run.json.
const std::vector<std::pair<HistogramFigures ServerStepStats::*, const char*>>& phaseFigures()
{
    static const std::vector<std::pair<HistogramFigures ServerStepStats::*, const char*>> list = {
        { &ServerStepStats::queueTime, "queue_time" },
        { &ServerStepStats::prefillTime, "prefill_time" },
        { &ServerStepStats::decodeTime, "decode_time" },
        { &ServerStepStats::inferenceTime, "inference_time" },
        { &ServerStepStats::e2eLatency, "e2e" },
    };
    return list;
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
            .prefillTime = "vllm:request_prefill_time_seconds",
            .decodeTime = "vllm:request_decode_time_seconds",
            .inferenceTime = "vllm:request_inference_time_seconds",
            .e2eLatency = "vllm:e2e_request_latency_seconds",
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
            .prefillTime = nullptr, // SGLang has no per-request prefill or decode histogram
            .decodeTime = nullptr,
            .inferenceTime = nullptr,
            .e2eLatency = "sglang:e2e_request_latency_seconds",
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
            .prefillTime = nullptr,
            .decodeTime = nullptr,
            .inferenceTime = "tgi_request_inference_duration",
            .e2eLatency = "tgi_request_duration",
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

const std::vector<GpuMetricNames>& knownGpuMetricNames()
{
    static const std::vector<GpuMetricNames> names = {
        {
            .exporter = "dcgm",
            .utilisation = "DCGM_FI_DEV_GPU_UTIL",
            .power = "DCGM_FI_DEV_POWER_USAGE",
            .powerAlt = nullptr,
            .fbUsed = "DCGM_FI_DEV_FB_USED",
            .energy = "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
            .fbToMiB = 1.0,
            .energyPerJ = 1e3, // mJ
        },
        {
            .exporter = "amd",
            .utilisation = "gpu_gfx_activity",
            .power = "gpu_power_usage",
            .powerAlt = "gpu_package_power",
            .fbUsed = "gpu_used_vram",
            .energy = "gpu_energy_consumed",
            .fbToMiB = 1.0, // MB as the exporter words it, read as MiB
            .energyPerJ = 1e6, // µJ
        },
    };
    return names;
}

const GpuMetricNames* detectGpuMetrics(const PromText& text)
{
    for (const GpuMetricNames& n : knownGpuMetricNames()) {
        if (text.has(n.utilisation) || text.has(n.power) || (n.powerAlt && text.has(n.powerAlt)))
            return &n;
    }
    return nullptr;
}

void ServerSample::extractGpu(const PromText& text, const GpuMetricNames& names)
{
    const char* power = text.has(names.power) || !names.powerAlt ? names.power : names.powerAlt;
    const char* counted = text.has(names.utilisation) ? names.utilisation : power;
    const auto gpus = std::count_if(
        text.samples.begin(), text.samples.end(), [&](const PromSample& s) { return s.name == counted; });
    if (gpus == 0)
        return;
    gpuCount = double(gpus);
    gpuUtilisation = within(text.mean(names.utilisation), 100.0);
    gpuPowerW = notNegative(text.sum(power));
    if (const auto fb = notNegative(text.max(names.fbUsed)))
        gpuFbUsedMiB = *fb * names.fbToMiB;
    if (const auto e = notNegative(text.sum(names.energy)))
        gpuEnergyTotalJ = *e / names.energyPerJ;
}

namespace {

void addTo(std::optional<double>& total, const std::optional<double>& v)
{
    if (v)
        total = total.value_or(0.0) + *v;
}

PromHistogram plus(const PromHistogram& a, const PromHistogram& b)
{
    if (a.isEmpty())
        return b;
    if (b.isEmpty())
        return a;
    std::map<double, double> buckets;
    for (const auto& [bound, n] : a.buckets)
        buckets[bound] += n;
    for (const auto& [bound, n] : b.buckets)
        buckets[bound] += n;
    PromHistogram out;
    out.buckets.assign(buckets.begin(), buckets.end());
    out.count = a.count + b.count;
    out.sum = a.sum + b.sum;
    return out;
}

} // namespace

ServerSample ServerSample::combine(const std::vector<ServerSample>& parts, double atS)
{
    ServerSample c;
    c.atS = atS;
    double kvTotal = 0, rateTotal = 0, utilWeighted = 0, utilGpus = 0;
    int kvN = 0, rateN = 0;
    for (const ServerSample& p : parts) {
        addTo(c.running, p.running);
        addTo(c.waiting, p.waiting);
        addTo(c.preemptionsTotal, p.preemptionsTotal);
        addTo(c.promptTokensTotal, p.promptTokensTotal);
        addTo(c.generationTokensTotal, p.generationTokensTotal);
        addTo(c.prefixCacheQueriesTotal, p.prefixCacheQueriesTotal);
        addTo(c.prefixCacheHitsTotal, p.prefixCacheHitsTotal);
        addTo(c.gpuCount, p.gpuCount);
        addTo(c.gpuPowerW, p.gpuPowerW);
        addTo(c.gpuEnergyTotalJ, p.gpuEnergyTotalJ);
        if (p.kvUsage) {
            kvTotal += *p.kvUsage;
            ++kvN;
        }
        if (p.prefixCacheHitRate) {
            rateTotal += *p.prefixCacheHitRate;
            ++rateN;
        }
        if (p.gpuUtilisation && p.gpuCount) {
            utilWeighted += *p.gpuUtilisation * *p.gpuCount;
            utilGpus += *p.gpuCount;
        }
        if (p.gpuFbUsedMiB && (!c.gpuFbUsedMiB || *p.gpuFbUsedMiB > *c.gpuFbUsedMiB))
            c.gpuFbUsedMiB = p.gpuFbUsedMiB;
        c.ttft = plus(c.ttft, p.ttft);
        c.queueTime = plus(c.queueTime, p.queueTime);
        c.prefillTime = plus(c.prefillTime, p.prefillTime);
        c.decodeTime = plus(c.decodeTime, p.decodeTime);
        c.inferenceTime = plus(c.inferenceTime, p.inferenceTime);
        c.e2eLatency = plus(c.e2eLatency, p.e2eLatency);
    }
    // Several huge readings can add up past a double: unknown, not infinite.
    for (std::optional<double>* v :
        { &c.running, &c.waiting, &c.preemptionsTotal, &c.promptTokensTotal, &c.generationTokensTotal,
            &c.prefixCacheQueriesTotal, &c.prefixCacheHitsTotal, &c.gpuCount, &c.gpuPowerW, &c.gpuEnergyTotalJ }) {
        if (*v && !std::isfinite(**v))
            v->reset();
    }
    if (!std::isfinite(utilWeighted))
        utilGpus = 0;
    if (kvN > 0)
        c.kvUsage = kvTotal / kvN;
    if (rateN > 0)
        c.prefixCacheHitRate = rateTotal / rateN;
    if (utilGpus > 0)
        c.gpuUtilisation = utilWeighted / utilGpus;
    return c;
}

ServerSample ServerSample::extract(const PromText& text, const ServerMetricNames& names, double atS)
{
    ServerSample s;
    s.atS = atS;
    s.running = notNegative(read(text, names.running));
    s.waiting = notNegative(read(text, names.waiting));
    if (names.kvUsage)
        s.kvUsage = within(text.max(names.kvUsage), 1.0);
    if (!s.kvUsage && names.kvUsageAlt)
        s.kvUsage = within(text.max(names.kvUsageAlt), 1.0);
    s.preemptionsTotal = notNegative(read(text, names.preemptions));
    s.promptTokensTotal = notNegative(read(text, names.promptTokens));
    s.generationTokensTotal = notNegative(read(text, names.generationTokens));
    s.prefixCacheQueriesTotal = notNegative(read(text, names.prefixCacheQueries));
    s.prefixCacheHitsTotal = notNegative(read(text, names.prefixCacheHits));
    // Several ranks or models each report a rate: their mean is the best a gauge can say.
    if (names.prefixCacheHitRate)
        s.prefixCacheHitRate = within(text.mean(names.prefixCacheHitRate), 1.0);
    if (names.ttft)
        s.ttft = text.histogram(names.ttft);
    const std::pair<const char*, PromHistogram*> phases[] = { { names.queueTime, &s.queueTime },
        { names.prefillTime, &s.prefillTime }, { names.decodeTime, &s.decodeTime },
        { names.inferenceTime, &s.inferenceTime }, { names.e2eLatency, &s.e2eLatency } };
    for (const auto& [name, histogram] : phases) {
        if (name)
            *histogram = text.histogram(name);
    }
    return s;
}

void ServerSample::dropBuckets()
{
    for (PromHistogram* h : { &ttft, &queueTime, &prefillTime, &decodeTime, &inferenceTime, &e2eLatency }) {
        if (!h->isEmpty())
            h->buckets = { { std::numeric_limits<double>::infinity(), h->count } };
    }
}

void ServerSample::dropCounters()
{
    preemptionsTotal.reset();
    promptTokensTotal.reset();
    generationTokensTotal.reset();
    prefixCacheQueriesTotal.reset();
    prefixCacheHitsTotal.reset();
    gpuEnergyTotalJ.reset();
    ttft = {};
    queueTime = {};
    prefillTime = {};
    decodeTime = {};
    inferenceTime = {};
    e2eLatency = {};
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
    for (const auto& [histogram, key] : phaseHistograms()) {
        if (!(this->*histogram).isEmpty()) {
            o.insert(QString::fromLatin1(key) + QLatin1String("_count"), (this->*histogram).count);
            o.insert(QString::fromLatin1(key) + QLatin1String("_sum_s"), (this->*histogram).sum);
        }
    }
    put(o, "gpu_count", gpuCount);
    put(o, "gpu_util_pct", gpuUtilisation);
    put(o, "gpu_power_w", gpuPowerW);
    put(o, "gpu_fb_used_mib", gpuFbUsedMiB);
    put(o, "gpu_energy_total_j", gpuEnergyTotalJ);
    if (!url.isEmpty())
        o.insert(QLatin1String("url"), url);
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
    for (const auto& [histogram, key] : phaseHistograms()) {
        const QString prefix = QString::fromLatin1(key);
        const QJsonValue n = o.value(prefix + QLatin1String("_count"));
        if (!n.isDouble())
            continue;
        PromHistogram& h = s.*histogram;
        h.count = n.toDouble();
        h.sum = o.value(prefix + QLatin1String("_sum_s")).toDouble(0.0);
        h.buckets = { { std::numeric_limits<double>::infinity(), h.count } };
    }
    s.gpuCount = get(o, "gpu_count");
    s.gpuUtilisation = get(o, "gpu_util_pct");
    s.gpuPowerW = get(o, "gpu_power_w");
    s.gpuFbUsedMiB = get(o, "gpu_fb_used_mib");
    s.gpuEnergyTotalJ = get(o, "gpu_energy_total_j");
    s.url = o.value(QLatin1String("url")).toString();
    return s;
}

QByteArray StepTelemetry::samplesJsonl() const
{
    QByteArray out;
    for (const ServerSample& s : samples)
        out += s.toJsonLine() + '\n';
    for (const std::vector<ServerSample>& server : serverSamples) {
        for (const ServerSample& s : server)
            out += s.toJsonLine() + '\n';
    }
    return out;
}

std::vector<ServerSample> StepTelemetry::samplesFromJsonl(QByteArrayView text)
{
    return samplesFromJsonl(text, QString());
}

std::vector<ServerSample> StepTelemetry::samplesFromJsonl(QByteArrayView text, const QString& url)
{
    std::vector<ServerSample> out;
    for (const QByteArrayView line : QByteArray(text.toByteArray()).split('\n')) {
        if (auto s = ServerSample::fromJsonLine(line); s && s->url == url)
            out.push_back(std::move(*s));
    }
    return out;
}

void ServerStatsAccumulator::Gauge::add(const std::optional<double>& v, bool isFirst)
{
    if (!v || !std::isfinite(*v))
        return;
    if (!max || *v > *max)
        max = *v;
    if (isFirst) {
        first = v;
    } else {
        restTotal += *v;
        ++restN;
    }
}

std::optional<double> ServerStatsAccumulator::Gauge::mean(int samples) const
{
    // The first sample is taken before the load starts: left out, unless there are two samples or fewer.
    // Added in the samples' order, as one loop over them would.
    const bool withFirst = samples <= 2 && first;
    const double total = withFirst ? *first + restTotal : restTotal;
    const int n = restN + (withFirst ? 1 : 0);
    if (n > 0 && std::isfinite(total))
        return total / n;
    return std::nullopt;
}

void ServerStatsAccumulator::Counter::add(const std::optional<double>& v, bool isFirst)
{
    if (isFirst)
        firstHas = v.has_value();
    lastHas = v.has_value();
    if (!v || !std::isfinite(*v) || *v < 0)
        return;
    if (previous)
        total += *v >= *previous ? *v - *previous : *v;
    previous = v;
}

// The increase of a counter over the samples, as Prometheus' increase() takes it: the rises between
// neighbouring samples added up, a decrease being a reset (the counter restarted from zero, so the
// later value is what it counted since). Samples without the counter are passed over; none unless the
// first and the last sample both have it.
std::optional<double> ServerStatsAccumulator::Counter::increase(int samples) const
{
    if (samples < 2 || !firstHas || !lastHas)
        return std::nullopt;
    return std::isfinite(total) ? std::optional<double>(total) : std::nullopt;
}

void ServerStatsAccumulator::add(const ServerSample& s)
{
    const bool isFirst = m_count == 0;
    m_running.add(s.running, isFirst);
    m_waiting.add(s.waiting, isFirst);
    m_kvUsage.add(s.kvUsage, isFirst);
    m_gpuUtilisation.add(s.gpuUtilisation, isFirst);
    m_gpuFbUsed.add(s.gpuFbUsedMiB, isFirst);
    m_gpuPower.add(s.gpuPowerW, isFirst);
    m_gpuCount.add(s.gpuCount, isFirst);
    m_hitRate.add(s.prefixCacheHitRate, isFirst);
    m_preemptions.add(s.preemptionsTotal, isFirst);
    m_promptTokens.add(s.promptTokensTotal, isFirst);
    m_generationTokens.add(s.generationTokensTotal, isFirst);
    m_cacheQueries.add(s.prefixCacheQueriesTotal, isFirst);
    m_cacheHits.add(s.prefixCacheHitsTotal, isFirst);
    m_energy.add(s.gpuEnergyTotalJ, isFirst);
    m_cacheCounters = m_cacheCounters || s.prefixCacheQueriesTotal || s.prefixCacheHitsTotal;
    if (isFirst)
        m_first = s;
    else
        m_last = s;
    ++m_count;
}

std::optional<ServerStepStats> ServerStatsAccumulator::stats(
    const QString& engine, const QString& model, double timeScale) const
{
    if (m_count == 0)
        return std::nullopt;
    ServerStepStats st;
    st.engine = engine;
    st.model = model;
    st.samples = m_count;
    st.timeScale = timeScale > 0 ? timeScale : 1.0;
    const auto gauge = [&](const Gauge& g, std::optional<double>& mean, std::optional<double>& max) {
        mean = g.mean(m_count);
        max = g.max;
    };
    gauge(m_running, st.runningMean, st.runningMax);
    gauge(m_waiting, st.waitingMean, st.waitingMax);
    gauge(m_kvUsage, st.kvUsageMean, st.kvUsageMax);
    gauge(m_gpuUtilisation, st.gpuUtilisationMean, st.gpuUtilisationMax);
    gauge(m_gpuFbUsed, st.gpuFbUsedMeanMiB, st.gpuFbUsedMaxMiB);
    st.gpuPowerMeanW = m_gpuPower.mean(m_count);
    if (m_gpuCount.max)
        st.gpuCount = int(std::lround(*m_gpuCount.max));
    if (!m_cacheCounters)
        st.prefixCacheHitRate = m_hitRate.mean(m_count);

    const ServerSample& first = *m_first;
    const ServerSample& last = m_last ? *m_last : *m_first;
    if (m_count > 1) {
        st.preemptions = m_preemptions.increase(m_count);
        st.promptTokens = m_promptTokens.increase(m_count);
        st.generationTokens = m_generationTokens.increase(m_count);
        st.prefixCacheQueries = m_cacheQueries.increase(m_count);
        st.prefixCacheHits = m_cacheHits.increase(m_count);
        if (st.prefixCacheQueries && st.prefixCacheHits && *st.prefixCacheQueries > 0)
            st.prefixCacheHitRate = std::clamp(*st.prefixCacheHits / *st.prefixCacheQueries, 0.0, 1.0);
        if (!last.ttft.isEmpty()) {
            const PromHistogram d = last.ttft.minus(first.ttft);
            st.ttftCount = d.count;
            if (d.count > 0 && d.sum >= 0) { // times: a negative sum is no reading
                st.ttftMeanMs = d.sum / d.count * 1000.0 / st.timeScale;
                for (double p : kPercentiles) {
                    if (const auto q = d.quantile(p / 100.0))
                        st.ttftPercentilesMs[p] = *q * 1000.0 / st.timeScale;
                }
            }
        }
        st.queueTime = figuresOf(first.queueTime, last.queueTime, st.timeScale);
        st.prefillTime = figuresOf(first.prefillTime, last.prefillTime, st.timeScale);
        st.decodeTime = figuresOf(first.decodeTime, last.decodeTime, st.timeScale);
        st.inferenceTime = figuresOf(first.inferenceTime, last.inferenceTime, st.timeScale);
        st.e2eLatency = figuresOf(first.e2eLatency, last.e2eLatency, st.timeScale);
        st.queueTimeMeanMs = st.queueTime.meanMs;
        if (const auto energy = m_energy.increase(m_count)) {
            st.energyJ = *energy;
            st.energySource = QStringLiteral("counter");
        } else if (st.gpuPowerMeanW && last.atS > first.atS) {
            // The exporter's power over the step's time on the server's clock, as its counters count.
            st.energyJ = *st.gpuPowerMeanW * (last.atS - first.atS) * st.timeScale;
            st.energySource = QStringLiteral("power");
        }
    }
    // Figures made of huge (finite) readings can still overflow: unknown, never printed as "inf".
    for (std::optional<double>* v :
        { &st.runningMean, &st.runningMax, &st.waitingMean, &st.waitingMax, &st.kvUsageMean, &st.kvUsageMax,
            &st.preemptions, &st.promptTokens, &st.generationTokens, &st.prefixCacheQueries, &st.prefixCacheHits,
            &st.prefixCacheHitRate, &st.ttftCount, &st.ttftMeanMs, &st.queueTimeMeanMs, &st.gpuUtilisationMean,
            &st.gpuUtilisationMax, &st.gpuFbUsedMeanMiB, &st.gpuFbUsedMaxMiB, &st.gpuPowerMeanW, &st.energyJ }) {
        if (*v && !std::isfinite(**v))
            v->reset();
    }
    std::erase_if(st.ttftPercentilesMs, [](const auto& p) { return !std::isfinite(p.second); });
    if (!st.energyJ)
        st.energySource.clear();
    return st;
}

std::optional<ServerStepStats> ServerStepStats::derive(
    const std::vector<ServerSample>& samples, const QString& engine, const QString& model, double timeScale)
{
    ServerStatsAccumulator fold;
    for (const ServerSample& s : samples)
        fold.add(s);
    return fold.stats(engine, model, timeScale);
}

ServerSeries::ServerSeries(std::size_t limit)
    : m_limit(std::max<std::size_t>(limit, 2))
{ }

void ServerSeries::add(ServerSample sample)
{
    sample.dropBuckets();
    if (m_added++ % m_stride != 0) {
        m_latest = std::move(sample);
        return;
    }
    m_latest.reset();
    m_kept.push_back(std::move(sample));
    if (m_kept.size() < m_limit)
        return;
    // Full: keep every second one (0, 2 x stride, ...); the newest, dropped, stays as the latest.
    if (m_kept.size() % 2 == 0)
        m_latest = std::move(m_kept.back());
    std::size_t to = 1; // the first stays where it is (a vector moved onto itself would be left empty)
    for (std::size_t from = 2; from < m_kept.size(); from += 2)
        m_kept[to++] = std::move(m_kept[from]);
    m_kept.resize(to);
    m_stride *= 2;
}

std::vector<ServerSample> ServerSeries::take()
{
    std::vector<ServerSample> out = std::move(m_kept);
    if (m_latest)
        out.push_back(std::move(*m_latest));
    clear();
    return out;
}

void ServerSeries::clear()
{
    m_kept = {};
    m_latest.reset();
    m_added = 0;
    m_stride = 1;
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
    // Percentiles of a histogram are estimates from its buckets: "_est" in their keys says so.
    for (const auto& [member, stem] : phaseFigures()) {
        const HistogramFigures& f = this->*member;
        const QString key = QString::fromLatin1(stem);
        if (f.count && std::isfinite(*f.count))
            o.insert(key + QLatin1String("_count"), *f.count);
        if (member != &ServerStepStats::queueTime && f.meanMs)
            o.insert(key + QLatin1String("_mean_ms"), *f.meanMs);
        for (const auto& [p, v] : f.percentilesMs)
            o.insert(key + QStringLiteral("_p%1_est_ms").arg(p), v);
    }
    if (gpuCount)
        o.insert(QLatin1String("gpu_count"), *gpuCount);
    put(o, "gpu_util_mean_pct", gpuUtilisationMean);
    put(o, "gpu_util_max_pct", gpuUtilisationMax);
    put(o, "gpu_fb_used_mean_mib", gpuFbUsedMeanMiB);
    put(o, "gpu_fb_used_max_mib", gpuFbUsedMaxMiB);
    put(o, "gpu_power_mean_w", gpuPowerMeanW);
    put(o, "energy_j", energyJ);
    if (energyJ && !energySource.isEmpty())
        o.insert(QLatin1String("energy_source"), energySource);
    if (scrapesCut > 0)
        o.insert(QLatin1String("scrapes_cut"), scrapesCut);
    if (!url.isEmpty())
        o.insert(QLatin1String("url"), url);
    return o;
}

QJsonArray ServerStepStats::serversJson() const
{
    QJsonArray out;
    for (const ServerStepStats& s : servers)
        out.append(s.toJson());
    return out;
}

std::optional<double> HistogramFigures::percentile(double p) const
{
    const auto it = percentilesMs.find(p);
    if (it == percentilesMs.end())
        return std::nullopt;
    return it->second;
}

std::optional<double> ServerStepStats::joulesPerOutputToken(double outputTokens) const
{
    if (!energyJ || !(outputTokens > 0) || !std::isfinite(*energyJ))
        return std::nullopt;
    return *energyJ / outputTokens;
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
    for (const auto& [member, stem] : phaseFigures()) {
        HistogramFigures& f = st.*member;
        const QString key = QString::fromLatin1(stem);
        const auto number = [&](const QString& k) -> std::optional<double> {
            const QJsonValue v = o.value(k);
            return v.isDouble() ? std::optional<double>(v.toDouble()) : std::nullopt;
        };
        f.count = number(key + QLatin1String("_count"));
        f.meanMs = number(key + QLatin1String("_mean_ms"));
        for (double p : kPercentiles) {
            if (const auto v = number(key + QStringLiteral("_p%1_est_ms").arg(p)))
                f.percentilesMs[p] = *v;
        }
    }
    st.queueTime.meanMs = st.queueTimeMeanMs;
    if (const auto n = get(o, "gpu_count"))
        st.gpuCount = int(std::lround(*n));
    st.gpuUtilisationMean = get(o, "gpu_util_mean_pct");
    st.gpuUtilisationMax = get(o, "gpu_util_max_pct");
    st.gpuFbUsedMeanMiB = get(o, "gpu_fb_used_mean_mib");
    st.gpuFbUsedMaxMiB = get(o, "gpu_fb_used_max_mib");
    st.gpuPowerMeanW = get(o, "gpu_power_mean_w");
    st.energyJ = get(o, "energy_j");
    if (st.energyJ)
        st.energySource = o.value(QLatin1String("energy_source")).toString();
    st.scrapesCut = o.value(QLatin1String("scrapes_cut")).toInt();
    st.url = o.value(QLatin1String("url")).toString();
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
    if (prefillTime.meanMs)
        parts << QStringLiteral("prefill mean %1 ms").arg(ms(*prefillTime.meanMs));
    if (decodeTime.meanMs)
        parts << QStringLiteral("decode mean %1 ms").arg(ms(*decodeTime.meanMs));
    if (prefixCacheHitRate)
        parts << QStringLiteral("prefix-cache hit rate %1%").arg(number(*prefixCacheHitRate * 100.0, 0));
    if (gpuCount && gpuUtilisationMean)
        parts << (*gpuCount == 1
                ? QStringLiteral("1 GPU %1% busy").arg(number(*gpuUtilisationMean, 0))
                : QStringLiteral("%1 GPUs %2% busy").arg(*gpuCount).arg(number(*gpuUtilisationMean, 0)));
    if (gpuPowerMeanW)
        parts << QStringLiteral("%1 W").arg(number(*gpuPowerMeanW, 0));
    if (energyJ)
        parts << QStringLiteral("%1 J").arg(number(*energyJ, *energyJ >= 100 ? 0 : 1));
    if (parts.isEmpty())
        return QStringLiteral("server (%1): %2 samples, no values the analysis reads").arg(engine).arg(samples);
    return QStringLiteral("server: ") + parts.join(QStringLiteral(", "));
}

} // namespace kp
