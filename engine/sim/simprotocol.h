#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>
#include <variant>
#include <vector>

// The OpenAI-compatible wire format as vLLM speaks it: request fields the simulator honours, response
// bodies, stream events and error bodies. Pure functions; no sockets.
namespace kp::sim {

enum class Endpoint {
    Completions, // /v1/completions
    ChatCompletions, // /v1/chat/completions
    Responses, // /v1/responses (OpenAI's Responses API)
    Messages, // /v1/messages (Anthropic's Messages API)
    Embeddings, // /v1/embeddings: prefill only, never streamed
};
const char* endpointName(Endpoint endpoint); // "completions", "chat", "responses", "messages", "embeddings"
// The request field that holds the prompt: "prompt", "messages" or "input".
QString promptFieldName(Endpoint endpoint);
// Whether the stream is typed events (Responses, Messages) that end with their own event, not [DONE].
bool hasTypedEvents(Endpoint endpoint);

struct GenerationRequest
{
    Endpoint endpoint = Endpoint::Completions;
    std::optional<QString> model; // absent: the served model
    int promptTokens = 0; // whitespace-separated words of the prompt (chat: of every message's text)
    // One id per prompt token, what the prefix cache compares: a hash of the word (the id itself for
    // token-id prompts); in chat, the first word of each message also hashes its role.
    std::vector<quint64> promptTokenIds;
    std::optional<int> maxTokens; // max_completion_tokens, else max_tokens
    bool ignoreEos = false;
    bool stream = false;
    bool includeUsage = false; // stream_options.include_usage
    int inputs = 1; // embeddings: the texts in "input"
};

struct ProtocolError
{
    int status = 400;
    QString message;
    QString param; // the offending field, empty when none
};

// Reads a /v1/completions or /v1/chat/completions body. Unknown fields are ignored, as vLLM does.
std::variant<GenerationRequest, ProtocolError> parseGenerationRequest(Endpoint endpoint, const QByteArray& body);

// An image's size in pixels, read from its header (PNG IHDR, JPEG SOFn), with no image library.
struct ImageSize
{
    qint64 width = 0;
    qint64 height = 0;
};
std::variant<ImageSize, QString> imageSize(const QByteArray& bytes);
// The same from base64 text: a data URL ("data:image/png;base64,...") or, dataUrl false, bare base64.
// The error says what is wrong with it.
std::variant<ImageSize, QString> imageSizeFromBase64(const QByteArray& text, bool dataUrl);
// The prompt tokens of an image as Qwen2-VL served by vLLM counts them: one per 28x28 patch after its
// merger, ceil(W/28)·ceil(H/28), plus the vision start and end tokens.
int imageTokens(ImageSize size);

// Whitespace-separated words: the simulator's token count.
int countWords(QStringView text);

// Appends the id of each whitespace-separated word of text (a hash of its characters, the same in every
// process); a non-zero salt (a chat role's) is folded into the first word's id only.
void appendWordIds(QStringView text, quint64 salt, std::vector<quint64>& ids);

// The word emitted as output token tokenIndex of a request, with its leading space (" word").
QByteArray outputWord(quint64 requestId, int tokenIndex);

// {"error": {"message", "type", "param", "code"}} with an OpenAI error type derived from status.
QByteArray errorBody(int status, const QString& message, const QString& param = {});
QByteArray errorTypeForStatus(int status);
// Anthropic's error shape (https://docs.anthropic.com/en/api/errors): {"type": "error", "error": {"type",
// "message"}} with Anthropic's error type for status; a field at fault is named in the message.
QByteArray anthropicErrorBody(int status, const QString& message, const QString& param = {});
// The error body the endpoint's own API gives: Anthropic's for Messages, OpenAI's for the others.
QByteArray errorBodyFor(Endpoint endpoint, int status, const QString& message, const QString& param = {});
QByteArray reasonPhrase(int status);

// A JSON string literal, quotes included.
QByteArray jsonString(const QString& text);

// adapters: LoRA modules listed after the base model, each with it as root and parent (as vLLM lists them).
QByteArray modelsBody(const QString& modelId, int maxModelLen, qint64 created, const QStringList& adapters = {});

// POST /tokenize as vLLM answers it: {"model", "prompt"} or {"model", "messages"} →
// {"count", "max_model_len", "tokens"}. A token is a whitespace-separated word (ids: a hash of the word).
std::variant<QByteArray, ProtocolError> tokenizeResponse(const QByteArray& body, int maxModelLen);

// Builds the events and bodies of one response; every event is a complete "data: ...\n\n".
class CompletionFormat
{
public:
    CompletionFormat(Endpoint endpoint, quint64 requestId, const QString& modelId, qint64 created);

    Endpoint endpoint() const { return m_endpoint; }
    const QByteArray& id() const { return m_id; }

    // A choices event carrying one token's text; finishReason is "stop", "length" or null.
    QByteArray tokenEvent(const QByteArray& word, const char* finishReason) const;
    // Chat only: the first event, the assistant role with empty content.
    QByteArray roleEvent() const;
    // A reasoning model's thinking token (chat only): delta.reasoning_content, as vLLM and DeepSeek send it.
    QByteArray reasoningEvent(const QByteArray& word, const char* finishReason) const;
    // usage carries prompt_tokens_details.cached_tokens, as vLLM's does.
    // reasoningTokens >= 0 adds completion_tokens_details.reasoning_tokens (completionTokens includes them).
    QByteArray usageEvent(int promptTokens, int completionTokens, int cachedTokens, int reasoningTokens = -1) const;
    // A token event cut off in the middle of its JSON.
    QByteArray malformedEvent(const QByteArray& word) const;
    static QByteArray errorEvent(int code, const QString& message);
    static QByteArray doneEvent();

    // The typed formats (simapis.cpp). The events before the first token (chat: roleEvent(); completions:
    // none), a typed format's token event (index numbers Responses' sequence_number), the events after
    // the last token (usage included) and an error event in the format's own shape.
    QByteArray startEvents(int promptTokens, int cachedTokens) const;
    QByteArray typedTokenEvent(const QByteArray& word, int index) const;
    QByteArray endEvents(const QByteArray& text, const char* finishReason, int promptTokens, int completionTokens,
        int cachedTokens) const;
    QByteArray streamErrorEvent(int code, const QString& message) const;
    // The non-streamed Response, Message or embeddings list.
    QByteArray typedFullBody(const QByteArray& text, const char* finishReason, int promptTokens, int completionTokens,
        int cachedTokens) const;
    QByteArray embeddingsBody(int inputs, int promptTokens) const;

    // The non-streamed response.
    // A chat reply with reasoning carries it in message.reasoning_content.
    QByteArray fullBody(const QByteArray& text, const char* finishReason, int promptTokens, int completionTokens,
        int cachedTokens, const QByteArray& reasoning = {}, int reasoningTokens = -1) const;

private:
    QByteArray usageObject(int promptTokens, int completionTokens, int cachedTokens, int reasoningTokens) const;

    Endpoint m_endpoint;
    QByteArray m_id;
    QByteArray m_model; // a JSON string
    qint64 m_created = 0;
    QByteArray m_head; // {"id":...,"object":...,"created":...,"model":...,
};

} // namespace kp::sim
