#pragma once

#include <QByteArray>

#include <vector>

namespace kp::sim {

// A cumulative histogram in Prometheus' sense: counts per upper bound, plus +Inf, count and sum.
class Histogram
{
public:
    explicit Histogram(std::vector<double> upperBounds);

    void observe(double value);
    const std::vector<double>& upperBounds() const { return m_bounds; }
    // Observations <= upperBounds()[i], cumulative as Prometheus writes them.
    std::vector<quint64> cumulativeCounts() const;
    quint64 count() const { return m_count; }
    double sum() const { return m_sum; }

private:
    std::vector<double> m_bounds;
    std::vector<quint64> m_counts; // per bucket, not cumulative; the last one is +Inf
    quint64 m_count = 0;
    double m_sum = 0;
};

// vLLM's buckets for vllm:time_to_first_token_seconds and vllm:e2e_request_latency_seconds.
std::vector<double> vllmTtftBuckets();
std::vector<double> vllmE2eLatencyBuckets();
// vLLM's request_latency_buckets, which its queue, prefill, decode and inference time histograms share
// (the same bounds as the end-to-end latency's).
std::vector<double> vllmRequestPhaseBuckets();

// Writes the Prometheus text exposition format (version 0.0.4).
class PrometheusWriter
{
public:
    // Every sample gets this label (e.g. model_name="..."), after any sample-specific labels.
    PrometheusWriter(const QByteArray& labelName, const QByteArray& labelValue);

    void gauge(const char* name, const char* help, double value);
    void counter(const char* name, const char* help, double value);
    // A counter split by one extra label, e.g. finished_reason.
    void labelledCounter(const char* name, const char* help, const char* label,
        const std::vector<std::pair<QByteArray, double>>& values);
    void histogram(const char* name, const char* help, const Histogram& histogram);

    const QByteArray& text() const { return m_text; }

    static QByteArray escapeLabelValue(const QByteArray& value);
    static QByteArray formatValue(double value);

private:
    void header(const char* name, const char* help, const char* type);

    QByteArray m_text;
    QByteArray m_commonLabel; // name="value"
};

} // namespace kp::sim
