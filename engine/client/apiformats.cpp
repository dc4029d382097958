#include "client/apiformats.h"

#include "client/simdjsonfields.h"
#include "metrics/inerttext.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>
#include <string_view>

namespace kp {

namespace {

using Json = nlohmann::json;

QString toQString(const Json& value)
{
    return value.is_string() ? QString::fromStdString(value.get<std::string>()) : QString();
}

std::optional<qint64> integer(const Json& object, const char* key)
{
    if (!object.is_object())
        return std::nullopt;
    const auto it = object.find(key);
    if (it == object.end() || !it->is_number())
        return std::nullopt;
    return static_cast<qint64>(std::llround(it->get<double>()));
}

const Json& member(const Json& object, const char* key)
{
    static const Json none;
    if (!object.is_object())
        return none;
    const auto it = object.find(key);
    return it == object.end() ? none : *it;
}

// The message of an error object as the server wrote it, with its type and code, inert.
QString errorWords(const Json& error)
{
    QString message = toQString(member(error, "message"));
    if (message.isEmpty())
        message = QString::fromStdString(error.dump());
    QStringList extras;
    if (const QString type = toQString(member(error, "type")); !type.isEmpty() && type != u"error")
        extras << type;
    if (const Json& code = member(error, "code"); !code.is_null())
        extras << QStringLiteral("code ") + (code.is_string() ? toQString(code) : QString::fromStdString(code.dump()));
    if (!extras.isEmpty())
        message += QStringLiteral(" (") + extras.join(QStringLiteral(", ")) + QLatin1Char(')');
    return inertText(message);
}

// The Responses API's usage (https://platform.openai.com/docs/api-reference/responses/object#responses/object-usage):
// input_tokens, input_tokens_details.cached_tokens, output_tokens, output_tokens_details.reasoning_tokens.
void takeResponsesUsage(const Json& usage, SseChunk& chunk)
{
    if (!usage.is_object())
        return;
    chunk.promptTokens = integer(usage, "input_tokens");
    chunk.completionTokens = integer(usage, "output_tokens");
    chunk.cachedTokens = integer(member(usage, "input_tokens_details"), "cached_tokens");
    chunk.reasoningTokens = integer(member(usage, "output_tokens_details"), "reasoning_tokens");
}

// Anthropic's usage (https://docs.anthropic.com/en/api/messages): input_tokens, output_tokens,
// cache_read_input_tokens (the prompt tokens read from the prompt cache).
void takeMessagesUsage(const Json& usage, SseChunk& chunk, bool output)
{
    if (!usage.is_object())
        return;
    if (const auto input = integer(usage, "input_tokens")) {
        // Anthropic counts cache reads apart from input_tokens; the prompt is both.
        chunk.promptTokens = *input + integer(usage, "cache_read_input_tokens").value_or(0);
    }
    chunk.cachedTokens = integer(usage, "cache_read_input_tokens");
    if (output) // message_start's output_tokens is a placeholder, not a count
        chunk.completionTokens = integer(usage, "output_tokens");
}

void unknown(SseChunk& chunk, const QString& type)
{
    chunk.kind = SseChunk::Kind::Other;
    chunk.unknownEvent = inertExcerpt(type.toUtf8(), 80);
}

// Event types of https://platform.openai.com/docs/api-reference/responses-streaming that carry nothing
// the metrics use.
bool isQuietResponsesEvent(std::string_view type)
{
    static const char* const quiet[] = { "response.created", "response.in_progress", "response.queued",
        "response.output_item.added", "response.output_item.done", "response.content_part.added",
        "response.content_part.done", "response.output_text.done", "response.output_text.annotation.added",
        "response.reasoning_summary_part.added", "response.reasoning_summary_part.done",
        "response.reasoning_summary_text.done", "response.reasoning_text.done", "response.refusal.done",
        "response.function_call_arguments.delta", "response.function_call_arguments.done" };
    for (const char* name : quiet) {
        if (type == name)
            return true;
    }
    return false;
}

SseChunk responsesEvent(const std::string& type, const Json& event, SseChunk chunk)
{
    if (type == "response.output_text.delta" || type == "response.refusal.delta") {
        chunk.kind = SseChunk::Kind::Choices;
        chunk.text = toQString(member(event, "delta"));
    } else if (type == "response.reasoning_summary_text.delta" || type == "response.reasoning_text.delta"
        || type == "response.reasoning.delta") {
        chunk.kind = SseChunk::Kind::Choices;
        chunk.reasoning = toQString(member(event, "delta"));
    } else if (type == "response.completed" || type == "response.incomplete") {
        // response.incomplete ends a response cut short by max_output_tokens: a normal end for a benchmark.
        chunk.kind = SseChunk::Kind::Done;
        const Json& response = member(event, "response");
        takeResponsesUsage(member(response, "usage"), chunk);
        chunk.finishReason = toQString(member(member(response, "incomplete_details"), "reason"));
        if (chunk.finishReason.isEmpty())
            chunk.finishReason = toQString(member(response, "status"));
    } else if (type == "response.failed") {
        chunk.kind = SseChunk::Kind::Error;
        const Json& error = member(member(event, "response"), "error");
        chunk.errorMessage = error.is_object() ? errorWords(error) : QStringLiteral("response.failed");
    } else if (type == "error") {
        chunk.kind = SseChunk::Kind::Error;
        chunk.errorMessage = errorWords(event.contains("error") ? member(event, "error") : event);
    } else if (isQuietResponsesEvent(type)) {
        chunk.kind = SseChunk::Kind::Other;
    } else {
        unknown(chunk, QString::fromStdString(type));
    }
    return chunk;
}

// https://docs.anthropic.com/en/docs/build-with-claude/streaming: message_start, content_block_start,
// content_block_delta (text_delta, thinking_delta, signature_delta, input_json_delta, citations_delta),
// content_block_stop, message_delta, message_stop, ping, error.
SseChunk messagesEvent(const std::string& type, const Json& event, SseChunk chunk)
{
    chunk.kind = SseChunk::Kind::Other;
    if (type == "content_block_delta") {
        const Json& delta = member(event, "delta");
        const std::string deltaType = toQString(member(delta, "type")).toStdString();
        if (deltaType == "text_delta") {
            chunk.kind = SseChunk::Kind::Choices;
            chunk.text = toQString(member(delta, "text"));
        } else if (deltaType == "thinking_delta") {
            chunk.kind = SseChunk::Kind::Choices;
            chunk.reasoning = toQString(member(delta, "thinking"));
        } else if (deltaType != "signature_delta" && deltaType != "input_json_delta"
            && deltaType != "citations_delta") {
            unknown(chunk, QStringLiteral("content_block_delta/") + QString::fromStdString(deltaType));
        }
    } else if (type == "message_start") {
        takeMessagesUsage(member(member(event, "message"), "usage"), chunk, false);
        if (chunk.promptTokens)
            chunk.kind = SseChunk::Kind::Usage;
    } else if (type == "message_delta") {
        takeMessagesUsage(member(event, "usage"), chunk, true);
        chunk.finishReason = toQString(member(member(event, "delta"), "stop_reason"));
        if (chunk.hasUsage())
            chunk.kind = SseChunk::Kind::Usage;
    } else if (type == "message_stop") {
        chunk.kind = SseChunk::Kind::Done;
    } else if (type == "error") {
        chunk.kind = SseChunk::Kind::Error;
        chunk.errorMessage = errorWords(member(event, "error"));
    } else if (type == "ping") {
        chunk.kind = SseChunk::Kind::Empty;
    } else if (type != "content_block_start" && type != "content_block_stop") {
        unknown(chunk, QString::fromStdString(type));
    }
    return chunk;
}

// Parses what classify() found to be a well-formed JSON object.
Json parsed(QByteArrayView data)
{
    const QByteArrayView trimmed = data.trimmed();
    return Json::parse(trimmed.begin(), trimmed.end(), nullptr, false);
}

// The fast path for the typed formats' frequent events (client/simdjsonfields.h): text and reasoning
// deltas, the usage and end events, and the events that carry nothing. It leaves to the nlohmann path
// (classifyEventDom) whatever it does not decide alone: documents simdjson refuses or that are no
// object, anything with "error" or "choices" (which classify() reads its own way), error and failure
// events, and event types it does not know, so that every message keeps the same words.
bool classifyTypedFast(ApiFormat format, QByteArrayView sseType, QByteArrayView trimmed, SseChunk& chunk)
{
    const std::optional<sj::Object> parsed = sj::parseObject(trimmed);
    if (!parsed)
        return false;
    const sj::Object event = *parsed;
    if (sj::lastField(event, "error") || sj::lastField(event, "choices"))
        return false;
    if (const auto object = sj::lastField(event, "object"); object && sj::text(object) == "error")
        return false;
    std::string_view type = sj::text(sj::lastField(event, "type"));
    if (type.empty())
        type = std::string_view(sseType.data(), std::size_t(sseType.size()));

    if (format == ApiFormat::Responses) {
        if (type == "response.output_text.delta" || type == "response.refusal.delta") {
            chunk.kind = SseChunk::Kind::Choices;
            chunk.text = sj::string(sj::lastField(event, "delta"));
        } else if (type == "response.reasoning_summary_text.delta" || type == "response.reasoning_text.delta"
            || type == "response.reasoning.delta") {
            chunk.kind = SseChunk::Kind::Choices;
            chunk.reasoning = sj::string(sj::lastField(event, "delta"));
        } else if (type == "response.completed" || type == "response.incomplete") {
            chunk.kind = SseChunk::Kind::Done;
            const std::optional<sj::Object> response = sj::objectField(event, "response");
            if (!response)
                return true;
            if (const auto usage = sj::objectField(*response, "usage")) {
                const sj::UsageCounts counts = sj::usageCounts(
                    *usage, { "input_tokens", "output_tokens", "input_tokens_details", "output_tokens_details" });
                chunk.promptTokens = counts.prompt;
                chunk.completionTokens = counts.completion;
                chunk.cachedTokens = counts.cached;
                chunk.reasoningTokens = counts.reasoning;
            }
            if (const auto details = sj::objectField(*response, "incomplete_details"))
                chunk.finishReason = sj::string(sj::lastField(*details, "reason"));
            if (chunk.finishReason.isEmpty())
                chunk.finishReason = sj::string(sj::lastField(*response, "status"));
        } else if (isQuietResponsesEvent(type)) {
            chunk.kind = SseChunk::Kind::Other;
        } else {
            return false;
        }
        return true;
    }

    chunk.kind = SseChunk::Kind::Other;
    if (type == "content_block_delta") {
        const std::optional<sj::Object> delta = sj::objectField(event, "delta");
        const std::string_view deltaType = delta ? sj::text(sj::lastField(*delta, "type")) : std::string_view();
        if (deltaType == "text_delta") {
            chunk.kind = SseChunk::Kind::Choices;
            chunk.text = sj::string(sj::lastField(*delta, "text"));
        } else if (deltaType == "thinking_delta") {
            chunk.kind = SseChunk::Kind::Choices;
            chunk.reasoning = sj::string(sj::lastField(*delta, "thinking"));
        } else if (deltaType != "signature_delta" && deltaType != "input_json_delta"
            && deltaType != "citations_delta") {
            return false;
        }
    } else if (type == "message_start" || type == "message_delta") {
        const bool start = type == "message_start";
        std::optional<sj::Object> usage;
        if (start) {
            if (const auto message = sj::objectField(event, "message"))
                usage = sj::objectField(*message, "usage");
        } else {
            usage = sj::objectField(event, "usage");
        }
        if (usage) {
            if (const auto input = sj::integer(*usage, "input_tokens"))
                chunk.promptTokens = *input + sj::integer(*usage, "cache_read_input_tokens").value_or(0);
            chunk.cachedTokens = sj::integer(*usage, "cache_read_input_tokens");
            if (!start)
                chunk.completionTokens = sj::integer(*usage, "output_tokens");
        }
        if (start) {
            if (chunk.promptTokens)
                chunk.kind = SseChunk::Kind::Usage;
        } else {
            if (const auto delta = sj::objectField(event, "delta"))
                chunk.finishReason = sj::string(sj::lastField(*delta, "stop_reason"));
            if (chunk.hasUsage())
                chunk.kind = SseChunk::Kind::Usage;
        }
    } else if (type == "message_stop") {
        chunk.kind = SseChunk::Kind::Done;
    } else if (type == "ping") {
        chunk.kind = SseChunk::Kind::Empty;
    } else if (type != "content_block_start" && type != "content_block_stop") {
        return false;
    }
    return true;
}

} // namespace

ApiFormat apiFormat(Backend backend)
{
    switch (backend) {
    case Backend::OpenAi:
    case Backend::OpenAiChat:
    case Backend::Vllm:
        return ApiFormat::OpenAi;
    case Backend::OpenAiResponses:
        return ApiFormat::Responses;
    case Backend::AnthropicMessages:
        return ApiFormat::Messages;
    case Backend::OpenAiEmbeddings:
        return ApiFormat::Embeddings;
    }
    Q_UNREACHABLE();
}

QString answerField(ApiFormat format)
{
    switch (format) {
    case ApiFormat::OpenAi:
        return QStringLiteral("\"choices\"");
    case ApiFormat::Responses:
        return QStringLiteral("\"output\"");
    case ApiFormat::Messages:
        return QStringLiteral("\"content\"");
    case ApiFormat::Embeddings:
        return QStringLiteral("\"data\"");
    }
    Q_UNREACHABLE();
}

QString endEventName(ApiFormat format)
{
    switch (format) {
    case ApiFormat::Responses:
        return QStringLiteral("response.completed");
    case ApiFormat::Messages:
        return QStringLiteral("message_stop");
    case ApiFormat::OpenAi:
    case ApiFormat::Embeddings:
        break;
    }
    return QStringLiteral("[DONE]");
}

SseChunk classifyEvent(ApiFormat format, QByteArrayView type, QByteArrayView data, SseChunk::TextForm form)
{
    if (std::optional<SseChunk> chunk = classifyEventFast(format, type, data))
        return std::move(*chunk);
    return classifyEventDom(format, type, data, form);
}

std::optional<SseChunk> classifyEventFast(ApiFormat format, QByteArrayView type, QByteArrayView data)
{
    if (format != ApiFormat::Responses && format != ApiFormat::Messages)
        return std::nullopt;
    const QByteArrayView trimmed = data.trimmed();
    if (trimmed.isEmpty() || trimmed == "[DONE]")
        return std::nullopt;
    SseChunk chunk;
    if (!classifyTypedFast(format, type, trimmed, chunk))
        return std::nullopt;
    return chunk;
}

SseChunk classifyEventDom(ApiFormat format, QByteArrayView type, QByteArrayView data, SseChunk::TextForm form)
{
    SseChunk chunk = SseChunk::classify(data, format == ApiFormat::OpenAi ? form : SseChunk::TextForm::Decoded);
    if (format == ApiFormat::OpenAi || format == ApiFormat::Embeddings)
        return chunk;
    if (chunk.kind == SseChunk::Kind::Malformed || chunk.kind == SseChunk::Kind::Empty
        || chunk.kind == SseChunk::Kind::Done)
        return chunk;
    const Json event = parsed(data);
    if (chunk.kind == SseChunk::Kind::Error && !event.contains("type"))
        return chunk; // an OpenAI-style error body: classify's words
    std::string name = toQString(member(event, "type")).toStdString();
    if (name.empty())
        name = type.toByteArray().toStdString();
    SseChunk out;
    return format == ApiFormat::Responses ? responsesEvent(name, event, out) : messagesEvent(name, event, out);
}

SseChunk classifyReply(ApiFormat format, QByteArrayView body)
{
    SseChunk chunk = SseChunk::classify(body);
    if (format == ApiFormat::OpenAi || chunk.kind == SseChunk::Kind::Malformed || chunk.kind == SseChunk::Kind::Empty)
        return chunk;
    const Json reply = parsed(body);
    if (chunk.kind == SseChunk::Kind::Error) {
        // Anthropic: {"type": "error", "error": {"type", "message"}}; classify's words say it all.
        return chunk;
    }
    if (format == ApiFormat::Messages && member(reply, "type") == "error") {
        chunk.kind = SseChunk::Kind::Error;
        chunk.errorMessage = errorWords(member(reply, "error"));
        return chunk;
    }
    SseChunk out;
    out.kind = SseChunk::Kind::Other;
    switch (format) {
    case ApiFormat::OpenAi:
        break;
    case ApiFormat::Responses: {
        // The Response object: output[] holds "reasoning" items (summary[].text, content[].text) and
        // "message" items (content[] of "output_text").
        const Json& output = member(reply, "output");
        if (!output.is_array())
            return out;
        for (const Json& item : output) {
            const std::string type = toQString(member(item, "type")).toStdString();
            if (type == "message") {
                out.kind = SseChunk::Kind::Choices;
                for (const Json& part : member(item, "content").is_array() ? member(item, "content") : Json::array())
                    out.text += toQString(member(part, "text"));
            } else if (type == "reasoning") {
                out.kind = SseChunk::Kind::Choices;
                for (const char* key : { "summary", "content" }) {
                    const Json& parts = member(item, key);
                    for (const Json& part : parts.is_array() ? parts : Json::array())
                        out.reasoning += toQString(member(part, "text"));
                }
            }
        }
        takeResponsesUsage(member(reply, "usage"), out);
        out.finishReason = toQString(member(reply, "status"));
        break;
    }
    case ApiFormat::Messages: {
        // The Message object: content[] of "text" and "thinking" blocks, usage, stop_reason.
        const Json& content = member(reply, "content");
        if (!content.is_array())
            return out;
        out.kind = SseChunk::Kind::Choices;
        for (const Json& block : content) {
            const std::string type = toQString(member(block, "type")).toStdString();
            if (type == "text")
                out.text += toQString(member(block, "text"));
            else if (type == "thinking")
                out.reasoning += toQString(member(block, "thinking"));
        }
        takeMessagesUsage(member(reply, "usage"), out, true);
        out.finishReason = toQString(member(reply, "stop_reason"));
        break;
    }
    case ApiFormat::Embeddings: {
        // https://platform.openai.com/docs/api-reference/embeddings/object: {"object": "list", "data": [...],
        // "usage": {"prompt_tokens", "total_tokens"}}. No output tokens, by definition.
        const Json& data = member(reply, "data");
        if (!data.is_array() || data.empty())
            return out;
        out.kind = SseChunk::Kind::Choices;
        out.completionTokens = 0;
        out.promptTokens = integer(member(reply, "usage"), "prompt_tokens");
        break;
    }
    }
    return out;
}

} // namespace kp
