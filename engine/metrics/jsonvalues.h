#pragma once

#include "metrics/latencystats.h"

#include <QJsonValue>
#include <QString>

#include <cmath>
#include <optional>
#include <string>
#include <type_traits>

// How a figure that may be unknown goes into a JSON file, written once for every writer: the run
// document, the analysis, comparisons, exports and the result files. Each helper makes a QJsonValue by
// default, or an nlohmann::json / ordered_json when that type is given (`countOrNull<Json>(n)`), so the
// files written through either library say the same thing the same way.
namespace kp::jsonvalues {

template <class Json> Json null()
{
    if constexpr (std::is_same_v<Json, QJsonValue>)
        return QJsonValue(QJsonValue::Null);
    else
        return Json(nullptr);
}

template <class Json> Json text(const QString& value)
{
    if constexpr (std::is_same_v<Json, QJsonValue>)
        return QJsonValue(value);
    else
        return Json(value.toStdString());
}

// A count; null when it is not known (kUnknownCount).
template <class Json = QJsonValue> Json countOrNull(qint64 count)
{
    return isKnown(count) ? Json(count) : null<Json>();
}

// A step's position; null when there is none (-1).
template <class Json = QJsonValue> Json indexOrNull(int index)
{
    return index >= 0 ? Json(index) : null<Json>();
}

// Text; null when empty.
template <class Json = QJsonValue> Json stringOrNull(const QString& value)
{
    return value.isEmpty() ? null<Json>() : text<Json>(value);
}

// JSON has no number for infinity: the string "inf" (or "-inf") stands for it, as the reference's own
// request_rate does. NaN (unknown) is null.
template <class Json = QJsonValue> Json numberOrText(double value)
{
    if (std::isnan(value))
        return null<Json>();
    if (std::isinf(value))
        return text<Json>(value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf"));
    return Json(value);
}

template <class Json = QJsonValue> Json numberOrText(const std::optional<double>& value)
{
    return value ? numberOrText<Json>(*value) : null<Json>();
}

// A finite number; null for anything else (a figure where infinity means nothing).
template <class Json = QJsonValue> Json finiteOrNull(double value)
{
    return std::isfinite(value) ? Json(value) : null<Json>();
}

template <class Json = QJsonValue> Json finiteOrNull(const std::optional<double>& value)
{
    return value ? finiteOrNull<Json>(*value) : null<Json>();
}

// Any value Json can hold (bool, double, QString for QJsonValue); null when absent.
template <class Json = QJsonValue, class T> Json valueOrNull(const std::optional<T>& value)
{
    return value ? Json(*value) : null<Json>();
}

} // namespace kp::jsonvalues
