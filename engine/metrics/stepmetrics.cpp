#include "stepmetrics.h"

#include "requestlatencies.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>
#include <set>
#include <utility>

namespace kp {

namespace {

constexpr double nsPerMs = 1e6;
constexpr qint64 nsPerSecond = 1'000'000'000;

struct FailureClassName
{
    FailureClass failure;
    const char* key;
};

constexpr FailureClassName failureClassNames[] = {
    { FailureClass::None, "none" },
    { FailureClass::ConnectionRefused, "connection_refused" },
    { FailureClass::HostNotFound, "host_not_found" },
    { FailureClass::Tls, "tls" },
    { FailureClass::ConnectTimeout, "connect_timeout" },
    { FailureClass::FirstByteTimeout, "first_byte_timeout" },
    { FailureClass::IdleTimeout, "idle_timeout" },
    { FailureClass::TotalTimeout, "total_timeout" },
    { FailureClass::HttpAuth, "http_auth" },
    { FailureClass::HttpNotFound, "http_not_found" },
    { FailureClass::HttpRateLimited, "http_rate_limited" },
    { FailureClass::HttpServerError, "http_server_error" },
    { FailureClass::HttpOther, "http_other" },
    { FailureClass::ErrorBody, "error_body" },
    { FailureClass::MalformedStream, "malformed_stream" },
    { FailureClass::NoChoices, "no_choices" },
    { FailureClass::StreamCut, "stream_cut" },
    { FailureClass::Network, "network" },
    { FailureClass::ResponseTooLarge, "response_too_large" },
    { FailureClass::Cancelled, "cancelled" },
};

double toMs(qint64 ns)
{
    return static_cast<double>(ns) / nsPerMs;
}

} // namespace

QString latencyMetricKey(LatencyMetric metric)
{
    switch (metric) {
    case LatencyMetric::Ttft:
        return QStringLiteral("ttft");
    case LatencyMetric::Tpot:
        return QStringLiteral("tpot");
    case LatencyMetric::Itl:
        return QStringLiteral("itl");
    case LatencyMetric::E2el:
        return QStringLiteral("e2el");
    }
    return {};
}

std::optional<LatencyMetric> latencyMetricFromKey(QStringView key)
{
    for (LatencyMetric metric : allLatencyMetrics) {
        if (key == latencyMetricKey(metric))
            return metric;
    }
    return std::nullopt;
}

QString failureClassKey(FailureClass failure)
{
    for (const auto& name : failureClassNames) {
        if (name.failure == failure)
            return QString::fromLatin1(name.key);
    }
    return QStringLiteral("unknown");
}

std::optional<FailureClass> failureClassFromKey(QStringView key)
{
    for (const auto& name : failureClassNames) {
        if (key == QLatin1StringView(name.key))
            return name.failure;
    }
    return std::nullopt;
}

bool MetricsOptions::isSelected(LatencyMetric metric) const
{
    return std::find(selectedMetrics.begin(), selectedMetrics.end(), metric) != selectedMetrics.end();
}

const LatencyStats& StepMetrics::stats(LatencyMetric metric) const
{
    switch (metric) {
    case LatencyMetric::Ttft:
        return ttft;
    case LatencyMetric::Tpot:
        return tpot;
    case LatencyMetric::Itl:
        return itl;
    case LatencyMetric::E2el:
        break;
    }
    return e2el;
}

LatencyStats& StepMetrics::stats(LatencyMetric metric)
{
    return const_cast<LatencyStats&>(std::as_const(*this).stats(metric));
}

RequestLatencies RequestLatencies::of(const RequestRecord& r, const MetricsOptions& options)
{
    RequestLatencies l;
    l.hasTtft = r.firstTokenNs >= 0;
    const qint64 ttftNs = l.hasTtft ? r.firstTokenNs - r.sentNs : 0;
    const qint64 lastNs = r.lastTokenNs >= 0 ? r.lastTokenNs : r.endNs;
    const qint64 e2elNs = lastNs >= 0 ? lastNs - r.sentNs : 0;
    l.ttftMs = toMs(ttftNs);
    l.e2elMs = toMs(e2elNs);
    if (r.outputTokens > 1 && l.hasTtft) {
        l.hasTpot = true;
        l.tpotMs = toMs(e2elNs - ttftNs) / static_cast<double>(r.outputTokens - 1);
    }
    if (options.hasSlos()) {
        // vLLM: `s >= r` for every configured SLO.
        // A whole answer (not streamed) has no TTFT: it cannot be shown to meet a TTFT limit.
        l.good = (!options.ttftSloMs || (l.hasTtft && l.ttftMs <= *options.ttftSloMs))
            && (!options.tpotSloMs || l.tpotMs <= *options.tpotSloMs)
            && (!options.e2elSloMs || l.e2elMs <= *options.e2elSloMs);
    }
    return l;
}

double RequestLatencies::itlMs(const RequestRecord& r, std::size_t i)
{
    return toMs(r.chunkNs[i] - r.chunkNs[i - 1]);
}

namespace {

// The step's figures over the records at `subset` (every record when null), without the groups (turns,
// length buckets, models) that fromRecords adds from index lists of its own.
StepMetrics aggregate(const std::vector<RequestRecord>& records, const std::vector<std::size_t>* subset,
    double durationSeconds, const MetricsOptions& options)
{
    StepMetrics m;
    m.options = options;
    m.durationS = durationSeconds;

    std::vector<double> ttfts;
    std::vector<double> tpots;
    std::vector<double> itls;
    std::vector<double> e2els;
    std::vector<double> firstContents;
    std::vector<double> lags;
    std::vector<double> connects;

    // Peak buckets (vLLM's calculate_metrics): successful requests only, 1-second buckets from the
    // earliest start; a chunk counts in the bucket it arrived in, a request in every bucket from its start
    // to its end, both inclusive.
    struct Span
    {
        qint64 startNs;
        qint64 endNs;
    };
    std::vector<Span> spans;
    std::vector<qint64> tokenTimes;
    qint64 cachedTokens = 0;
    qint64 reasoningTokens = 0;
    qint64 shortOutputs = 0;
    std::set<int> sessions;
    std::map<int, std::pair<qint64, qint64>> sessionSpans; // first send, last end

    const std::size_t count = subset ? subset->size() : records.size();
    for (std::size_t k = 0; k < count; ++k) {
        const RequestRecord& r = records[subset ? (*subset)[k] : k];
        if (r.scheduledNs >= 0 && r.sentNs >= 0)
            lags.push_back(toMs(r.sentNs - r.scheduledNs));
        if (r.connectNs >= 0 && r.success())
            connects.push_back(toMs(r.connectNs));
        if (r.session >= 0) {
            sessions.insert(r.session);
            if (r.sentNs >= 0 && r.endNs >= 0) {
                const auto inserted = sessionSpans.try_emplace(r.session, r.sentNs, r.endNs);
                std::pair<qint64, qint64>& span = inserted.first->second;
                span.first = std::min(span.first, r.sentNs);
                span.second = std::max(span.second, r.endNs);
            }
        }

        if (!r.success()) {
            ++m.failed;
            ++m.failuresByClass[r.failure];
            continue;
        }

        ++m.completed;
        for (const QString& event : r.unknownEvents) {
            if (m.unknownEvents.size() < RequestRecord::kMaxUnknownEventTypes || m.unknownEvents.count(event))
                ++m.unknownEvents[event];
            else
                m.moreUnknownEvents = true;
        }
        m.moreUnknownEvents = m.moreUnknownEvents || r.moreUnknownEvents;
        const bool serverCount
            = options.inputTokenSource == InputTokenSource::ServerUsage || options.imagesPerRequest > 0;
        m.totalInputTokens += serverCount && r.serverPromptTokens >= 0 ? r.serverPromptTokens : r.promptTokens;
        m.totalOutputTokens += r.outputTokens;
        if (!r.outputTokensFromUsage)
            ++m.outputTokensFromText;
        if (r.serverPromptTokens >= 0) {
            ++m.serverPromptTokensReported;
            m.totalServerInputTokens += r.serverPromptTokens;
            m.datasetInputTokensReported += r.promptTokens;
            if (r.serverPromptTokens != r.promptTokens)
                ++m.promptTokenMismatches;
        }
        if (r.cachedTokens >= 0) {
            ++m.cachedTokensReported;
            cachedTokens += r.cachedTokens;
        }
        if (r.reasoningTokens >= 0) {
            ++m.reasoningTokensReported;
            reasoningTokens += r.reasoningTokens;
        }
        if (r.requestedOutputTokens > 0) {
            ++m.outputLimitsKnown;
            if (r.outputTokens < r.requestedOutputTokens)
                ++shortOutputs;
        }

        if (r.sentNs < 0)
            continue; // no `st`: nothing to measure latencies from

        const RequestLatencies l = RequestLatencies::of(r, options);
        const bool hasTtft = l.hasTtft;
        const qint64 lastNs = r.lastTokenNs >= 0 ? r.lastTokenNs : r.endNs;
        const qint64 e2elNs = lastNs >= 0 ? lastNs - r.sentNs : 0;

        // A request that never saw a choices event has no TTFT (and so no TPOT); the reference would
        // count it as 0 s, which only hides the problem.
        if (hasTtft)
            ttfts.push_back(l.ttftMs);
        e2els.push_back(l.e2elMs);
        if (l.hasTpot)
            tpots.push_back(l.tpotMs);
        for (std::size_t i = 1; i < r.chunkNs.size(); ++i)
            itls.push_back(RequestLatencies::itlMs(r, i));
        if (r.firstContentNs >= 0)
            firstContents.push_back(toMs(r.firstContentNs - r.sentNs));
        if (l.good)
            ++m.goodCompleted;

        spans.push_back({ r.sentNs, r.sentNs + e2elNs });
        if (!r.chunkNs.empty())
            tokenTimes.insert(tokenTimes.end(), r.chunkNs.begin(), r.chunkNs.end());
        else if (hasTtft)
            tokenTimes.push_back(r.firstTokenNs);
    }

    if (durationSeconds > 0.0) {
        const auto completed = static_cast<double>(m.completed);
        m.requestThroughput = completed / durationSeconds;
        m.outputThroughput = static_cast<double>(m.totalOutputTokens) / durationSeconds;
        m.totalTokenThroughput = static_cast<double>(m.totalInputTokens + m.totalOutputTokens) / durationSeconds;
        if (!e2els.empty())
            m.meanConcurrency = LatencyStats::numpySum(e2els.data(), e2els.size()) / 1000.0 / durationSeconds;
        if (options.hasSlos())
            m.requestGoodput = static_cast<double>(m.goodCompleted) / durationSeconds;
    } else if (options.hasSlos()) {
        m.requestGoodput = 0.0;
    }

    if (!spans.empty()) {
        qint64 minStart = std::numeric_limits<qint64>::max();
        qint64 maxEnd = std::numeric_limits<qint64>::min();
        for (const Span& s : spans) {
            minStart = std::min(minStart, s.startNs);
            maxEnd = std::max(maxEnd, s.endNs);
        }
        // int(ceil(max_end - min_start)) + 1 buckets.
        const qint64 span = std::max<qint64>(maxEnd - minStart, 0);
        const auto bucketCount = static_cast<std::size_t>((span + nsPerSecond - 1) / nsPerSecond + 1);
        std::vector<qint64> tokensPerBucket(bucketCount, 0);
        std::vector<qint64> aliveDelta(bucketCount + 1, 0);
        for (qint64 t : tokenTimes) {
            if (t < minStart)
                continue;
            const auto bucket = static_cast<std::size_t>((t - minStart) / nsPerSecond);
            if (bucket < bucketCount)
                ++tokensPerBucket[bucket];
        }
        for (const Span& s : spans) {
            const auto first = static_cast<std::size_t>((s.startNs - minStart) / nsPerSecond);
            const auto last
                = std::max(first, static_cast<std::size_t>(std::max<qint64>(s.endNs - minStart, 0) / nsPerSecond));
            ++aliveDelta[std::min(first, bucketCount)];
            --aliveDelta[std::min(last + 1, bucketCount)];
        }
        qint64 alive = 0;
        for (std::size_t b = 0; b < bucketCount; ++b) {
            alive += aliveDelta[b];
            m.maxConcurrentRequests = std::max(m.maxConcurrentRequests, alive);
            m.maxOutputTokensPerS = std::max(m.maxOutputTokensPerS, static_cast<double>(tokensPerBucket[b]));
        }
    }

    m.ttft = LatencyStats::compute(std::move(ttfts), options.percentiles);
    m.tpot = LatencyStats::compute(std::move(tpots), options.percentiles);
    m.itl = LatencyStats::compute(std::move(itls), options.percentiles);
    m.e2el = LatencyStats::compute(std::move(e2els), options.percentiles);
    m.firstContentTtft = LatencyStats::compute(std::move(firstContents), options.percentiles);
    m.dispatchLag = LatencyStats::compute(std::move(lags), options.percentiles);
    m.connectTime = LatencyStats::compute(std::move(connects), options.percentiles);
    if (m.completed > 0 && m.ttft.count == 0) {
        // Requests completed without a first token: whole answers (not streamed) or embeddings. Their TTFT,
        // TPOT and ITL are unknown, not 0.
        for (LatencyStats* stats : { &m.ttft, &m.tpot, &m.itl, &m.firstContentTtft }) {
            *stats = LatencyStats::unknown();
            for (double p : options.percentiles)
                stats->percentiles.emplace_back(p, kUnknown);
        }
    } else if (m.completed > 0 && m.firstContentTtft.count == 0) {
        // Answers without an answer token (a reasoning model whose reasoning used up max_tokens): the time
        // to first content is unknown, not 0, and an SLO on it cannot be met.
        m.firstContentTtft = LatencyStats::unknown();
        for (double p : options.percentiles)
            m.firstContentTtft.percentiles.emplace_back(p, kUnknown);
    }

    if (m.cachedTokensReported > 0)
        m.totalCachedTokens = cachedTokens;
    if (m.reasoningTokensReported > 0)
        m.totalReasoningTokens = reasoningTokens;
    if (options.imagesPerRequest > 0 && m.serverPromptTokensReported > 0)
        m.meanImageTokens
            = double(m.totalServerInputTokens - m.datasetInputTokensReported) / double(m.serverPromptTokensReported);
    if (m.outputLimitsKnown > 0)
        m.shortOutputs = shortOutputs;
    if (!sessions.empty()) {
        m.numSessions = static_cast<qint64>(sessions.size());
        if (!sessionSpans.empty()) {
            double sum = 0;
            for (const auto& entry : sessionSpans)
                sum += double(entry.second.second - entry.second.first) / 1e9;
            m.meanSessionS = sum / double(sessionSpans.size());
        }
    }
    return m;
}

// A length bucket's or a model's figures from the aggregate of its requests (the bucket adds ITL).
template <typename Subset> void takeSubsetFigures(Subset& out, const StepMetrics& sub)
{
    out.completed = sub.completed;
    out.failed = sub.failed;
    out.totalInputTokens = sub.totalInputTokens;
    out.totalOutputTokens = sub.totalOutputTokens;
    out.requestThroughput = sub.requestThroughput;
    out.outputThroughput = sub.outputThroughput;
    out.ttft = sub.ttft;
    out.tpot = sub.tpot;
    out.e2el = sub.e2el;
}

} // namespace

// The groups (turns, length buckets, models) are aggregated over index lists into `records`, never over
// copies of them.
StepMetrics StepMetrics::fromRecords(
    const std::vector<RequestRecord>& records, double durationSeconds, const MetricsOptions& options)
{
    StepMetrics m = aggregate(records, nullptr, durationSeconds, options);
    if (m.numSessions != kUnknownCount) {
        std::vector<std::size_t> first;
        std::vector<std::size_t> later;
        for (std::size_t i = 0; i < records.size(); ++i) {
            if (records[i].turn >= 1)
                (records[i].turn == 1 ? first : later).push_back(i);
        }
        const auto group = [&](const std::vector<std::size_t>& subset) {
            const StepMetrics sub = aggregate(records, &subset, durationSeconds, options);
            TurnGroupMetrics g;
            g.completed = sub.completed;
            g.totalInputTokens = sub.totalInputTokens;
            g.totalCachedTokens = sub.totalCachedTokens;
            g.ttft = sub.ttft;
            g.e2el = sub.e2el;
            return g;
        };
        m.firstTurns = group(first);
        m.laterTurns = group(later);
    }

    const std::vector<int>& edges = options.lengthBucketEdges;
    if (!edges.empty()) {
        std::vector<std::vector<std::size_t>> subsets(edges.size());
        const bool serverCount
            = options.inputTokenSource == InputTokenSource::ServerUsage || options.imagesPerRequest > 0;
        for (std::size_t i = 0; i < records.size(); ++i) {
            const RequestRecord& r = records[i];
            // The last edge at or below the prompt length; shorter than the first edge: the first bucket.
            const int tokens = serverCount && r.serverPromptTokens >= 0 ? r.serverPromptTokens : r.promptTokens;
            const auto above = std::upper_bound(edges.begin(), edges.end(), tokens);
            const std::size_t b = above == edges.begin() ? 0 : static_cast<std::size_t>(above - edges.begin() - 1);
            subsets[b].push_back(i);
        }
        for (std::size_t b = 0; b < edges.size(); ++b) {
            const StepMetrics sub = aggregate(records, &subsets[b], durationSeconds, options);
            LengthBucketMetrics bucket;
            bucket.lo = edges[b];
            bucket.hi = b + 1 < edges.size() ? edges[b + 1] : -1;
            takeSubsetFigures(bucket, sub);
            bucket.itl = sub.itl;
            m.lengthBuckets.push_back(std::move(bucket));
        }
    }

    std::map<QString, std::vector<std::size_t>> byModel;
    for (std::size_t i = 0; i < records.size(); ++i) {
        if (!records[i].model.isEmpty())
            byModel[records[i].model].push_back(i);
    }
    if (!byModel.empty()) {
        MetricsOptions subsetOptions = options;
        if (std::find(subsetOptions.percentiles.begin(), subsetOptions.percentiles.end(), 99.0)
            == subsetOptions.percentiles.end())
            subsetOptions.percentiles.push_back(99.0);
        for (const auto& [model, subset] : byModel) {
            const StepMetrics sub = aggregate(records, &subset, durationSeconds, subsetOptions);
            ModelMetrics mm;
            mm.model = model;
            takeSubsetFigures(mm, sub);
            m.perModel.push_back(std::move(mm));
        }
    }
    return m;
}

void StepMetrics::markForeign()
{
    goodCompleted = kUnknownCount;
    serverPromptTokensReported = totalServerInputTokens = promptTokenMismatches = outputTokensFromText
        = datasetInputTokensReported = kUnknownCount;
    options.inputTokenSource = InputTokenSource::Unknown;
    meanSessionS = kUnknown;
}

QString inputTokenSourceKey(InputTokenSource source)
{
    switch (source) {
    case InputTokenSource::ServerTokenize:
        return QStringLiteral("server_tokenize");
    case InputTokenSource::ServerUsage:
        return QStringLiteral("server_usage");
    case InputTokenSource::Unknown:
        return {};
    case InputTokenSource::Dataset:
        break;
    }
    return QStringLiteral("dataset");
}

std::optional<InputTokenSource> inputTokenSourceFromKey(QStringView key)
{
    for (InputTokenSource s :
        { InputTokenSource::Dataset, InputTokenSource::ServerTokenize, InputTokenSource::ServerUsage }) {
        if (key == inputTokenSourceKey(s))
            return s;
    }
    return std::nullopt;
}

bool StepMetrics::isDerived(QAnyStringView key) const
{
    return std::any_of(
        derived.begin(), derived.end(), [&](const QString& d) { return QAnyStringView::compare(d, key) == 0; });
}

std::optional<double> StepMetrics::inputTokenDisagreement() const
{
    if (serverPromptTokensReported == 0 || totalServerInputTokens <= 0)
        return std::nullopt;
    return std::abs(double(totalServerInputTokens - datasetInputTokensReported)) / double(totalServerInputTokens);
}

QString StepMetrics::inputTokenWarning() const
{
    const std::optional<double> d = inputTokenDisagreement();
    // With images the server's count is meant to exceed the text's: the difference is the images' tokens.
    if (!d || *d <= kInputTokenWarnFraction || options.imagesPerRequest > 0)
        return {};
    return QStringLiteral("input tokens: the client counted %1 and the server %2 over %3 requests (%4% apart); "
                          "the server's count includes any chat template")
        .arg(datasetInputTokensReported)
        .arg(totalServerInputTokens)
        .arg(serverPromptTokensReported)
        .arg(*d * 100, 0, 'f', 1);
}

QString LengthBucketMetrics::label() const
{
    return hi < 0 ? QStringLiteral("%1+").arg(lo) : QStringLiteral("%1-%2").arg(lo).arg(hi);
}

qint64 StepMetrics::populatedLengthBuckets() const
{
    return std::count_if(
        lengthBuckets.begin(), lengthBuckets.end(), [](const LengthBucketMetrics& b) { return b.requests() > 0; });
}

qint64 StepMetrics::stepDurationNs(const std::vector<RequestRecord>& records)
{
    qint64 first = std::numeric_limits<qint64>::max();
    qint64 last = std::numeric_limits<qint64>::min();
    for (const RequestRecord& r : records) {
        const qint64 start = r.scheduledNs >= 0 ? r.scheduledNs : r.sentNs;
        const qint64 end = r.endNs >= 0 ? r.endNs : r.lastTokenNs;
        if (start >= 0)
            first = std::min(first, start);
        if (end >= 0)
            last = std::max(last, end);
    }
    if (first == std::numeric_limits<qint64>::max() || last == std::numeric_limits<qint64>::min() || last < first)
        return 0;
    return last - first;
}

std::optional<double> reportedPercentile(
    const std::vector<const StepMetrics*>& steps, LatencyMetric metric, double wanted)
{
    std::optional<double> highest;
    bool median = false;
    for (const StepMetrics* m : steps) {
        const LatencyStats& stats = m->stats(metric);
        if (m->completed == 0 || !stats.reported())
            continue;
        if (const auto v = stats.percentile(wanted); (v && isKnown(*v)) || (wanted == 50 && isKnown(stats.median)))
            return wanted;
        for (const auto& [p, v] : stats.percentiles) {
            if (isKnown(v))
                highest = std::max(highest.value_or(p), p);
        }
        median = median || isKnown(stats.median);
    }
    if (highest)
        return highest;
    return median ? std::optional<double>(50.0) : std::nullopt;
}

double StepMetrics::requestsPerSession() const
{
    if (!isKnown(numSessions) || numSessions <= 0 || !isKnown(completed) || !isKnown(failed))
        return 1.0;
    return double(completed + failed) / double(numSessions);
}

double StepMetrics::prefixCacheHitRate() const
{
    if (!isKnown(totalCachedTokens) || !isKnown(totalInputTokens) || totalInputTokens <= 0)
        return kUnknown;
    return double(totalCachedTokens) / double(totalInputTokens);
}

double StepMetrics::repeatedPromptShare() const
{
    const qint64 requests = completed + failed;
    if (!isKnown(repeatedPrompts) || requests <= 0)
        return kUnknown;
    return double(repeatedPrompts) / double(requests);
}

double StepMetrics::shortOutputShare() const
{
    if (!isKnown(shortOutputs) || outputLimitsKnown <= 0)
        return kUnknown;
    return double(shortOutputs) / double(outputLimitsKnown);
}

} // namespace kp
