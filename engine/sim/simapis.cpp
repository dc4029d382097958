// The Responses, Messages and embeddings shapes the simulator serves, each after its provider's reference:
// - OpenAI Responses: https://platform.openai.com/docs/api-reference/responses (the Response object) and
//   https://platform.openai.com/docs/api-reference/responses-streaming (response.created, ...,
//   response.output_text.delta, ..., response.completed, or response.incomplete when max_output_tokens
//   cut the answer short; "error" events).
// - Anthropic Messages: https://docs.anthropic.com/en/api/messages (the Message object) and
//   https://docs.anthropic.com/en/docs/build-with-claude/streaming (message_start, content_block_start,
//   ping, content_block_delta, content_block_stop, message_delta, message_stop; "error" events).
// - OpenAI embeddings: https://platform.openai.com/docs/api-reference/embeddings/object.
// Every event is "event: TYPE\ndata: JSON\n\n", the event name equal to the JSON "type", as both send them.

#include "sim/simprotocol.h"

namespace kp::sim {

namespace {

QByteArray typed(const char* type, const QByteArray& json)
{
    return QByteArray("event: ") + type + "\ndata: {\"type\":\"" + type + "\"" + (json.isEmpty() ? "" : ",") + json
        + "}\n\n";
}

QByteArray number(qint64 n)
{
    return QByteArray::number(n);
}

// A Responses sequence_number: the start events take 0-2, token i takes 3 + i.
QByteArray sequence(int n)
{
    return ",\"sequence_number\":" + number(n);
}

const char* stopReason(const char* finishReason)
{
    return finishReason && std::string_view(finishReason) == "length" ? "max_tokens" : "end_turn";
}

} // namespace

QByteArray CompletionFormat::startEvents(int promptTokens, int cachedTokens) const
{
    switch (m_endpoint) {
    case Endpoint::ChatCompletions:
        return roleEvent();
    case Endpoint::Responses: {
        const QByteArray response = "{\"id\":\"" + m_id
            + "\",\"object\":\"response\",\"created_at\":" + number(m_created)
            + ",\"status\":\"in_progress\",\"model\":" + m_model + ",\"output\":[],\"usage\":null,\"error\":null}";
        const QByteArray item = "\"output_index\":0,\"item\":{\"id\":\"msg_" + m_id
            + "\",\"type\":\"message\",\"status\":\"in_progress\",\"role\":\"assistant\",\"content\":[]}";
        return typed("response.created", "\"response\":" + response + sequence(0))
            + typed("response.output_item.added", item + sequence(1))
            + typed("response.content_part.added",
                "\"item_id\":\"msg_" + m_id
                    + "\",\"output_index\":0,\"content_index\":0,\"part\":{\"type\":\"output_text\",\"text\":\"\","
                      "\"annotations\":[]}"
                    + sequence(2));
    }
    case Endpoint::Messages:
        // Anthropic counts prompt-cache reads apart from input_tokens.
        return typed("message_start",
                   "\"message\":{\"id\":\"" + m_id
                       + "\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":" + m_model
                       + ",\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":"
                       + number(promptTokens - cachedTokens) + ",\"cache_read_input_tokens\":" + number(cachedTokens)
                       + ",\"output_tokens\":1}}")
            + typed("content_block_start", "\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}")
            + typed("ping", {});
    case Endpoint::Completions:
    case Endpoint::Embeddings:
        break;
    }
    return {};
}

QByteArray CompletionFormat::typedTokenEvent(const QByteArray& word, int index) const
{
    if (m_endpoint == Endpoint::Responses)
        return typed("response.output_text.delta",
            "\"item_id\":\"msg_" + m_id + "\",\"output_index\":0,\"content_index\":0,\"delta\":\"" + word + '"'
                + sequence(3 + index));
    return typed("content_block_delta", "\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"" + word + "\"}");
}

QByteArray CompletionFormat::endEvents(
    const QByteArray& text, const char* finishReason, int promptTokens, int completionTokens, int cachedTokens) const
{
    if (m_endpoint == Endpoint::Messages) {
        return typed("content_block_stop", "\"index\":0")
            + typed("message_delta",
                QByteArray("\"delta\":{\"stop_reason\":\"") + stopReason(finishReason)
                    + "\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":" + number(completionTokens) + '}')
            + typed("message_stop", {});
    }
    const int seq = 3 + completionTokens;
    const QByteArray part = "{\"type\":\"output_text\",\"text\":\"" + text + "\",\"annotations\":[]}";
    const bool cut = finishReason && std::string_view(finishReason) == "length";
    return typed("response.output_text.done",
               "\"item_id\":\"msg_" + m_id + "\",\"output_index\":0,\"content_index\":0,\"text\":\"" + text + '"'
                   + sequence(seq))
        + typed("response.content_part.done",
            "\"item_id\":\"msg_" + m_id + "\",\"output_index\":0,\"content_index\":0,\"part\":" + part
                + sequence(seq + 1))
        + typed("response.output_item.done",
            "\"output_index\":0,\"item\":{\"id\":\"msg_" + m_id
                + "\",\"type\":\"message\",\"status\":\"completed\",\"role\":\"assistant\",\"content\":[" + part + "]}"
                + sequence(seq + 2))
        + typed(cut ? "response.incomplete" : "response.completed",
            "\"response\":" + typedFullBody(text, finishReason, promptTokens, completionTokens, cachedTokens)
                + sequence(seq + 3));
}

QByteArray CompletionFormat::streamErrorEvent(int code, const QString& message) const
{
    if (m_endpoint == Endpoint::Responses)
        return typed("error",
            "\"code\":\"server_error\",\"message\":" + jsonString(message)
                + ",\"param\":null,\"status\":" + number(code) + sequence(0));
    if (m_endpoint == Endpoint::Messages)
        return typed("error", "\"error\":{\"type\":\"api_error\",\"message\":" + jsonString(message) + '}');
    return errorEvent(code, message) + doneEvent();
}

QByteArray CompletionFormat::typedFullBody(
    const QByteArray& text, const char* finishReason, int promptTokens, int completionTokens, int cachedTokens) const
{
    const bool cut = finishReason && std::string_view(finishReason) == "length";
    if (m_endpoint == Endpoint::Messages) {
        return "{\"id\":\"" + m_id + "\",\"type\":\"message\",\"role\":\"assistant\",\"model\":" + m_model
            + ",\"content\":[{\"type\":\"text\",\"text\":\"" + text + "\"}],\"stop_reason\":\""
            + stopReason(finishReason) + "\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":"
            + number(promptTokens - cachedTokens) + ",\"cache_read_input_tokens\":" + number(cachedTokens)
            + ",\"output_tokens\":" + number(completionTokens) + "}}";
    }
    return "{\"id\":\"" + m_id + "\",\"object\":\"response\",\"created_at\":" + number(m_created) + ",\"status\":\""
        + (cut ? "incomplete" : "completed") + "\",\"incomplete_details\":"
        + (cut ? QByteArrayLiteral("{\"reason\":\"max_output_tokens\"}") : QByteArrayLiteral("null"))
        + ",\"error\":null,\"model\":" + m_model + ",\"output\":[{\"id\":\"msg_" + m_id
        + "\",\"type\":\"message\",\"status\":\"completed\",\"role\":\"assistant\",\"content\":[{\"type\":"
          "\"output_text\",\"text\":\""
        + text + "\",\"annotations\":[]}]}],\"usage\":{\"input_tokens\":" + number(promptTokens)
        + ",\"input_tokens_details\":{\"cached_tokens\":" + number(cachedTokens) + "},\"output_tokens\":"
        + number(completionTokens) + ",\"output_tokens_details\":{\"reasoning_tokens\":0},\"total_tokens\":"
        + number(promptTokens + completionTokens) + "}}";
}

QByteArray CompletionFormat::embeddingsBody(int inputs, int promptTokens) const
{
    // Four numbers per input, derived from the id: enough to be a vector, small on the wire.
    QByteArray data;
    for (int i = 0; i < inputs; ++i) {
        if (i > 0)
            data += ',';
        data += "{\"object\":\"embedding\",\"index\":" + number(i) + ",\"embedding\":[";
        for (int k = 0; k < 4; ++k)
            data
                += (k ? "," : "") + QByteArray::number(double((m_id.size() + 7 * i + 3 * k) % 17) / 17.0 - 0.5, 'g', 6);
        data += "]}";
    }
    return "{\"object\":\"list\",\"data\":[" + data + "],\"model\":" + m_model
        + ",\"usage\":{\"prompt_tokens\":" + number(promptTokens) + ",\"total_tokens\":" + number(promptTokens) + "}}";
}

} // namespace kp::sim
