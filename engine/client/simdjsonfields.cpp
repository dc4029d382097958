#include "client/simdjsonfields.h"

#include <cmath>

namespace kp::sj {

std::optional<Object> parseObject(QByteArrayView trimmed)
{
    if (std::size_t(trimmed.size()) > kMaxBytes)
        return std::nullopt;
    thread_local simdjson::dom::parser parser(kMaxBytes);
    Element document;
    if (parser.parse(trimmed.data(), std::size_t(trimmed.size())).get(document) != simdjson::SUCCESS)
        return std::nullopt;
    Object object;
    if (document.get_object().get(object) != simdjson::SUCCESS)
        return std::nullopt;
    return object;
}

std::optional<Element> lastField(Object object, std::string_view key)
{
    std::optional<Element> found;
    for (const simdjson::dom::key_value_pair field : object) {
        if (field.key == key)
            found = field.value;
    }
    return found;
}

std::optional<Object> objectField(Object object, std::string_view key)
{
    return asObject(lastField(object, key));
}

std::string_view text(std::optional<Element> value)
{
    std::string_view out;
    if (!value || value->get_string().get(out) != simdjson::SUCCESS)
        return {};
    return out;
}

QString string(std::optional<Element> value)
{
    const std::string_view t = text(value);
    return QString::fromUtf8(t.data(), qsizetype(t.size()));
}

bool isObject(std::optional<Element> value)
{
    return value && value->type() == simdjson::dom::element_type::OBJECT;
}

std::optional<qint64> integer(Object object, std::string_view key)
{
    const std::optional<Element> value = lastField(object, key);
    if (!value)
        return std::nullopt;
    double number = 0;
    switch (value->type()) { // as nlohmann's get<double>(), rounded
    case simdjson::dom::element_type::INT64:
        number = static_cast<double>(int64_t(*value));
        break;
    case simdjson::dom::element_type::UINT64:
        number = static_cast<double>(uint64_t(*value));
        break;
    case simdjson::dom::element_type::DOUBLE:
        number = double(*value);
        break;
    default:
        return std::nullopt;
    }
    return static_cast<qint64>(std::llround(number));
}

UsageCounts usageCounts(Object usage, const UsageKeys& keys)
{
    UsageCounts counts;
    counts.prompt = integer(usage, keys.prompt);
    counts.completion = integer(usage, keys.completion);
    if (const auto details = objectField(usage, keys.promptDetails))
        counts.cached = integer(*details, "cached_tokens");
    if (const auto details = objectField(usage, keys.completionDetails))
        counts.reasoning = integer(*details, "reasoning_tokens");
    return counts;
}

} // namespace kp::sj
