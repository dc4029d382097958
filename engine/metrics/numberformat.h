#pragma once

#include <QByteArray>

#include <charconv>
#include <cmath>
#include <cstdint>

// Locale-independent number text for the printed summary, the sweep table and the CSV: std::to_chars
// never looks at LC_NUMERIC, which QCoreApplication sets from the environment.
namespace kp::numberformat {

// Like Python's "{:.Nf}": correctly rounded, "-0.00" for negative zero, "inf"/"nan" for the rest.
inline QByteArray fixed(double value, int decimals)
{
    if (std::isnan(value))
        return QByteArrayLiteral("nan");
    if (std::isinf(value))
        return value > 0 ? QByteArrayLiteral("inf") : QByteArrayLiteral("-inf");
    char buffer[400];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, decimals);
    return QByteArray(buffer, result.ptr - buffer);
}

// Shortest text that reads back to the same double; integral values without a fraction ("10", "2.5").
inline QByteArray shortest(double value)
{
    if (std::isnan(value))
        return QByteArrayLiteral("nan");
    if (std::isinf(value))
        return value > 0 ? QByteArrayLiteral("inf") : QByteArrayLiteral("-inf");
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return QByteArray(buffer, result.ptr - buffer);
}

inline QByteArray integer(std::int64_t value)
{
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return QByteArray(buffer, result.ptr - buffer);
}

} // namespace kp::numberformat
