#pragma once

#include "client/sseparser.h"
#include "profile/profile.h"

#include <QByteArrayView>
#include <QString>

#include <optional>

namespace kp {

// The wire format a backend speaks: how its stream events and whole replies read. Each format's
// classifier turns them into the same SseChunk the metrics are taken from.
enum class ApiFormat {
    OpenAi, // completions and chat completions: "choices", "data: [DONE]"
    Responses, // OpenAI's Responses API: typed events, "response.completed" ends the stream
    Messages, // Anthropic's Messages API: typed events, "message_stop" ends the stream
    Embeddings, // OpenAI's embeddings: one JSON reply, never streamed
};

ApiFormat apiFormat(Backend backend);

// What a whole reply lists its answer under, for messages: "\"choices\"", "\"output\"", ...
QString answerField(ApiFormat format);

// The event that ends a stream of this format: "[DONE]", "response.completed", "message_stop".
QString endEventName(ApiFormat format);

// One stream event. `type` is the SSE "event:" field; a JSON "type" in the data wins over it. For the
// typed formats an event type the client does not know is Kind::Other with unknownEvent set.
// The typed formats' frequent events are read with simdjson; the rest, and every error, as
// classifyEventDom reads them (nlohmann), which gives the same chunk for every event (tst_sseparser,
// fuzz_sse).
SseChunk classifyEvent(
    ApiFormat format, QByteArrayView type, QByteArrayView data, SseChunk::TextForm form = SseChunk::TextForm::Decoded);
SseChunk classifyEventDom(
    ApiFormat format, QByteArrayView type, QByteArrayView data, SseChunk::TextForm form = SseChunk::TextForm::Decoded);
// The fast path alone: nullopt for what it leaves to classifyEventDom (other formats, errors, unknown
// event types, documents simdjson refuses).
std::optional<SseChunk> classifyEventFast(ApiFormat format, QByteArrayView type, QByteArrayView data);

// A whole non-streamed reply (or an error body). Kind::Choices when it carries an answer (for
// embeddings: the vectors, with completionTokens 0).
SseChunk classifyReply(ApiFormat format, QByteArrayView body);

} // namespace kp
