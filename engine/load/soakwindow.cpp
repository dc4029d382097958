#include "load/soakwindow.h"

#include <QJsonValue>

#include <algorithm>
#include <cmath>

namespace kp {

namespace {

QJsonValue number(double v)
{
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null);
}

// A latency's figures in a window; null where no request of the window gave one (unknown, never 0).
QJsonObject latencyJson(const LatencyStats& s, const std::vector<double>& percentiles)
{
    const bool known = s.count > 0;
    QJsonObject o;
    o.insert(QStringLiteral("count"), s.count);
    o.insert(QStringLiteral("mean"), known ? number(s.mean) : QJsonValue());
    o.insert(QStringLiteral("p50"), known ? number(s.median) : QJsonValue());
    for (double p : percentiles) {
        const std::optional<double> v = s.percentile(p);
        o.insert(QStringLiteral("p") + LatencyStats::percentileWord(p), known && v ? number(*v) : QJsonValue());
    }
    return o;
}

double numberOr(const QJsonValue& v)
{
    return v.isDouble() ? v.toDouble() : kUnknown;
}

LatencyStats latencyFromJson(const QJsonObject& o)
{
    LatencyStats s;
    s.count = o.value(QStringLiteral("count")).toInteger();
    s.mean = numberOr(o.value(QStringLiteral("mean")));
    s.median = numberOr(o.value(QStringLiteral("p50")));
    s.stddev = s.min = s.max = kUnknown;
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!it.key().startsWith(u'p') || it.key() == QLatin1String("p50"))
            continue;
        if (const auto p = LatencyStats::percentileFromWord(QStringView(it.key()).mid(1)))
            s.percentiles.emplace_back(*p, numberOr(it.value()));
    }
    return s;
}

} // namespace

QJsonObject SoakWindow::toJson() const
{
    const StepMetrics& m = metrics;
    QJsonObject o;
    o.insert(QStringLiteral("window"), index);
    o.insert(QStringLiteral("start_s"), startS);
    o.insert(QStringLiteral("end_s"), endS);
    if (partial)
        o.insert(QStringLiteral("partial"), true);
    o.insert(QStringLiteral("sent"), sent);
    o.insert(QStringLiteral("completed"), m.completed);
    o.insert(QStringLiteral("failed"), m.failed);
    QJsonObject failures;
    for (const auto& [failure, count] : m.failuresByClass)
        failures.insert(failureClassKey(failure), count);
    o.insert(QStringLiteral("failures"), failures);
    o.insert(QStringLiteral("request_throughput"), number(m.requestThroughput));
    o.insert(QStringLiteral("output_throughput"), number(m.outputThroughput));
    o.insert(QStringLiteral("total_input_tokens"), m.totalInputTokens);
    o.insert(QStringLiteral("total_output_tokens"), m.totalOutputTokens);
    if (m.requestGoodput)
        o.insert(QStringLiteral("request_goodput"), number(*m.requestGoodput));
    const std::vector<double>& ps = m.options.percentiles;
    o.insert(QStringLiteral("ttft_ms"), latencyJson(m.ttft, ps));
    o.insert(QStringLiteral("tpot_ms"), latencyJson(m.tpot, ps));
    o.insert(QStringLiteral("itl_ms"), latencyJson(m.itl, ps));
    o.insert(QStringLiteral("e2el_ms"), latencyJson(m.e2el, ps));
    return o;
}

SoakWindow SoakWindow::fromJson(const QJsonObject& o)
{
    SoakWindow w;
    w.index = o.value(QStringLiteral("window")).toInt();
    w.startS = o.value(QStringLiteral("start_s")).toDouble();
    w.endS = o.value(QStringLiteral("end_s")).toDouble();
    w.partial = o.value(QStringLiteral("partial")).toBool();
    w.sent = o.value(QStringLiteral("sent")).toInteger();
    StepMetrics& m = w.metrics;
    m.durationS = w.endS - w.startS;
    m.completed = o.value(QStringLiteral("completed")).toInteger();
    m.failed = o.value(QStringLiteral("failed")).toInteger();
    const QJsonObject failures = o.value(QStringLiteral("failures")).toObject();
    for (auto it = failures.begin(); it != failures.end(); ++it) {
        if (const auto failure = failureClassFromKey(it.key()))
            m.failuresByClass[*failure] = it.value().toInteger();
    }
    m.requestThroughput = numberOr(o.value(QStringLiteral("request_throughput")));
    m.outputThroughput = numberOr(o.value(QStringLiteral("output_throughput")));
    m.totalInputTokens = o.value(QStringLiteral("total_input_tokens")).toInteger();
    m.totalOutputTokens = o.value(QStringLiteral("total_output_tokens")).toInteger();
    m.ttft = latencyFromJson(o.value(QStringLiteral("ttft_ms")).toObject());
    m.tpot = latencyFromJson(o.value(QStringLiteral("tpot_ms")).toObject());
    m.itl = latencyFromJson(o.value(QStringLiteral("itl_ms")).toObject());
    m.e2el = latencyFromJson(o.value(QStringLiteral("e2el_ms")).toObject());
    return w;
}

MetricsOptions soakWindowOptions(MetricsOptions options)
{
    if (std::find(options.percentiles.begin(), options.percentiles.end(), 99.0) == options.percentiles.end())
        options.percentiles.push_back(99.0);
    options.lengthBucketEdges.clear();
    return options;
}

void SoakTotals::Moments::add(const LatencyStats& s)
{
    if (s.count <= 0)
        return;
    const double n = double(s.count);
    min = count == 0 ? s.min : std::min(min, s.min);
    max = count == 0 ? s.max : std::max(max, s.max);
    count += s.count;
    sum += s.mean * n;
    sumSquares += n * (s.stddev * s.stddev + s.mean * s.mean);
}

LatencyStats SoakTotals::Moments::stats(const std::vector<double>& percentiles) const
{
    LatencyStats s;
    s.count = count;
    for (double p : percentiles)
        s.percentiles.emplace_back(p, count > 0 ? kUnknown : 0.0);
    if (count == 0)
        return s; // as a step that measured nothing: zeros
    s.mean = sum / double(count);
    s.stddev = std::sqrt(std::max(0.0, sumSquares / double(count) - s.mean * s.mean));
    s.min = min;
    s.max = max;
    s.median = kUnknown;
    return s;
}

void SoakTotals::add(const StepMetrics& w)
{
    ++m_windows;
    m_completed += w.completed;
    m_failed += w.failed;
    for (const auto& [failure, count] : w.failuresByClass)
        m_failures[failure] += count;
    m_inputTokens += w.totalInputTokens;
    m_outputTokens += w.totalOutputTokens;
    m_goodCompleted += w.goodCompleted;
    m_goodput = m_goodput || w.requestGoodput.has_value();
    if (w.e2el.count > 0)
        m_e2elSumS += w.e2el.mean * double(w.e2el.count) / 1000.0;
    m_maxOutputTokensPerS = std::max(m_maxOutputTokensPerS, w.maxOutputTokensPerS);
    m_maxConcurrent = std::max(m_maxConcurrent, w.maxConcurrentRequests);
    const auto sumKnown = [](qint64& total, qint64 v) {
        if (isKnown(v))
            total = (isKnown(total) ? total : 0) + v;
    };
    StepMetrics& c = m_counts;
    if (m_windows == 1) {
        c.totalReasoningTokens = c.shortOutputs = c.totalCachedTokens = kUnknownCount;
        c.reasoningTokensReported = c.outputLimitsKnown = c.cachedTokensReported = 0;
    }
    sumKnown(c.totalReasoningTokens, w.totalReasoningTokens);
    sumKnown(c.shortOutputs, w.shortOutputs);
    sumKnown(c.totalCachedTokens, w.totalCachedTokens);
    c.reasoningTokensReported += w.reasoningTokensReported;
    c.outputLimitsKnown += w.outputLimitsKnown;
    c.cachedTokensReported += w.cachedTokensReported;
    c.serverPromptTokensReported += w.serverPromptTokensReported;
    c.totalServerInputTokens += w.totalServerInputTokens;
    c.promptTokenMismatches += w.promptTokenMismatches;
    c.outputTokensFromText += w.outputTokensFromText;
    c.datasetInputTokensReported += w.datasetInputTokensReported;
    for (const auto& [event, count] : w.unknownEvents)
        c.unknownEvents[event] += count;
    c.moreUnknownEvents = c.moreUnknownEvents || w.moreUnknownEvents;
    m_ttft.add(w.ttft);
    m_tpot.add(w.tpot);
    m_itl.add(w.itl);
    m_e2el.add(w.e2el);
}

StepMetrics SoakTotals::total(double durationS, const MetricsOptions& options) const
{
    StepMetrics m = m_counts;
    m.options = options;
    m.durationS = durationS;
    m.completed = m_completed;
    m.failed = m_failed;
    m.failuresByClass = m_failures;
    m.totalInputTokens = m_inputTokens;
    m.totalOutputTokens = m_outputTokens;
    m.goodCompleted = m_goodCompleted;
    m.maxOutputTokensPerS = m_maxOutputTokensPerS;
    m.maxConcurrentRequests = m_maxConcurrent;
    if (durationS > 0.0) {
        m.requestThroughput = double(m_completed) / durationS;
        m.outputThroughput = double(m_outputTokens) / durationS;
        m.totalTokenThroughput = double(m_inputTokens + m_outputTokens) / durationS;
        m.meanConcurrency = m_e2elSumS / durationS;
        if (m_goodput)
            m.requestGoodput = double(m_goodCompleted) / durationS;
    }
    m.ttft = m_ttft.stats(options.percentiles);
    m.tpot = m_tpot.stats(options.percentiles);
    m.itl = m_itl.stats(options.percentiles);
    m.e2el = m_e2el.stats(options.percentiles);
    m.firstContentTtft = LatencyStats::unknown();
    m.dispatchLag = LatencyStats::unknown();
    return m;
}

} // namespace kp
