#pragma once

#include <QByteArrayView>
#include <QString>
#include <QtGlobal>

#include <simdjson.h>

#include <array>
#include <optional>
#include <string_view>

// simdjson DOM accessors for the event classifiers' fast paths. Each reads a field as nlohmann's DOM
// reads it (a duplicate key: the last one wins; a number as a double, rounded), so that a fast path
// gives what the nlohmann path it stands in for gives. simdjson validates the whole document (UTF-8
// included) and refuses numbers beyond double's range, as nlohmann does.
namespace kp::sj {

using Element = simdjson::dom::element;
using Object = simdjson::dom::object;

// Events are small; a larger document (a whole reply) is left to nlohmann.
constexpr std::size_t kMaxBytes = 64 * 1024;

// The document as an object, parsed by this thread's parser: nullopt when it is larger than kMaxBytes,
// not valid JSON, or not an object. The next parse on this thread invalidates what this one returned.
std::optional<Object> parseObject(QByteArrayView trimmed);

std::optional<Element> lastField(Object object, std::string_view key);
std::optional<Object> objectField(Object object, std::string_view key); // nullopt unless an object
// lastField for each of `keys`, in one walk of the object: an event's fields are looked up together.
template <std::size_t N>
std::array<std::optional<Element>, N> lastFields(Object object, const std::array<std::string_view, N>& keys)
{
    std::array<std::optional<Element>, N> found;
    for (const simdjson::dom::key_value_pair field : object) {
        for (std::size_t i = 0; i < N; ++i) {
            if (field.key == keys[i]) {
                found[i] = field.value;
                break;
            }
        }
    }
    return found;
}
// The value as an object, or nullopt.
inline std::optional<Object> asObject(std::optional<Element> value)
{
    if (!value || value->type() != simdjson::dom::element_type::OBJECT)
        return std::nullopt;
    return Object(*value);
}
std::string_view text(std::optional<Element> value); // empty unless a string
QString string(std::optional<Element> value); // empty unless a string
bool isObject(std::optional<Element> value);
std::optional<qint64> integer(Object object, std::string_view key); // nullopt unless a number

// A usage object's counts: prompt and completion under the API's own names, and cached_tokens and
// reasoning_tokens from the prompt's and the completion's details objects (chat completions:
// prompt_tokens, completion_tokens, *_tokens_details; Responses: input_tokens, output_tokens, ...).
struct UsageKeys
{
    std::string_view prompt;
    std::string_view completion;
    std::string_view promptDetails;
    std::string_view completionDetails;
};
struct UsageCounts
{
    std::optional<qint64> prompt;
    std::optional<qint64> completion;
    std::optional<qint64> cached;
    std::optional<qint64> reasoning;
};
UsageCounts usageCounts(Object usage, const UsageKeys& keys);

} // namespace kp::sj
