#include "sim/prometheus.h"

#include <QLocale>

#include <algorithm>
#include <cmath>

namespace kp::sim {

Histogram::Histogram(std::vector<double> upperBounds)
    : m_bounds(std::move(upperBounds))
    , m_counts(m_bounds.size() + 1, 0)
{
    std::sort(m_bounds.begin(), m_bounds.end());
}

void Histogram::observe(double value)
{
    const auto it = std::lower_bound(m_bounds.begin(), m_bounds.end(), value);
    ++m_counts[std::size_t(it - m_bounds.begin())];
    ++m_count;
    m_sum += value;
}

std::vector<quint64> Histogram::cumulativeCounts() const
{
    std::vector<quint64> cumulative(m_bounds.size());
    quint64 running = 0;
    for (std::size_t i = 0; i < m_bounds.size(); ++i) {
        running += m_counts[i];
        cumulative[i] = running;
    }
    return cumulative;
}

std::vector<double> vllmTtftBuckets()
{
    return { 0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0,
        80.0, 160.0, 640.0, 2560.0 };
}

std::vector<double> vllmE2eLatencyBuckets()
{
    return { 0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0, 50.0, 60.0, 120.0, 240.0, 480.0,
        960.0, 1920.0, 7680.0 };
}

std::vector<double> vllmRequestPhaseBuckets()
{
    return vllmE2eLatencyBuckets();
}

PrometheusWriter::PrometheusWriter(const QByteArray& labelName, const QByteArray& labelValue)
    : m_commonLabel(labelName + "=\"" + escapeLabelValue(labelValue) + '"')
{
    m_text.reserve(8192);
}

QByteArray PrometheusWriter::escapeLabelValue(const QByteArray& value)
{
    QByteArray out;
    out.reserve(value.size());
    for (const char c : value) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

QByteArray PrometheusWriter::formatValue(double value)
{
    if (std::isnan(value))
        return QByteArrayLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QByteArrayLiteral("+Inf") : QByteArrayLiteral("-Inf");
    // Integral values keep a ".0" the way prometheus_client writes them.
    if (value == std::floor(value) && std::fabs(value) < 1e15)
        return QByteArray::number(value, 'f', 1);
    return QByteArray::number(value, 'g', QLocale::FloatingPointShortest);
}

void PrometheusWriter::header(const char* name, const char* help, const char* type)
{
    m_text += "# HELP ";
    m_text += name;
    m_text += ' ';
    m_text += help;
    m_text += "\n# TYPE ";
    m_text += name;
    m_text += ' ';
    m_text += type;
    m_text += '\n';
}

void PrometheusWriter::gauge(const char* name, const char* help, double value)
{
    header(name, help, "gauge");
    m_text += name;
    m_text += '{' + m_commonLabel + "} " + formatValue(value) + '\n';
}

void PrometheusWriter::counter(const char* name, const char* help, double value)
{
    header(name, help, "counter");
    m_text += name;
    m_text += '{' + m_commonLabel + "} " + formatValue(value) + '\n';
}

void PrometheusWriter::labelledCounter(
    const char* name, const char* help, const char* label, const std::vector<std::pair<QByteArray, double>>& values)
{
    header(name, help, "counter");
    for (const auto& [labelValue, value] : values) {
        m_text += name;
        m_text += '{';
        m_text += label;
        m_text += "=\"" + escapeLabelValue(labelValue) + "\"," + m_commonLabel + "} " + formatValue(value) + '\n';
    }
}

void PrometheusWriter::histogram(const char* name, const char* help, const Histogram& histogram)
{
    header(name, help, "histogram");
    const std::vector<quint64> cumulative = histogram.cumulativeCounts();
    const QByteArray base(name);
    for (std::size_t i = 0; i < cumulative.size(); ++i) {
        m_text += base + "_bucket{le=\"" + formatValue(histogram.upperBounds()[i]) + "\"," + m_commonLabel + "} "
            + formatValue(double(cumulative[i])) + '\n';
    }
    m_text += base + "_bucket{le=\"+Inf\"," + m_commonLabel + "} " + formatValue(double(histogram.count())) + '\n';
    m_text += base + "_count{" + m_commonLabel + "} " + formatValue(double(histogram.count())) + '\n';
    m_text += base + "_sum{" + m_commonLabel + "} " + formatValue(histogram.sum()) + '\n';
}

} // namespace kp::sim
