#include "client/requestbuilder.h"

#include "metrics/jsontext.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>

#include <algorithm>
#include <charconv>
#include <cstring>

namespace kp {

HeaderList requestHeaders(const Target& target, QString* error)
{
    HeaderList headers;
    const ApiKeyResolution key = target.resolvedApiKey();
    if (!key.ok()) {
        *error = key.error;
        return {};
    }
    const bool anthropic = target.backend == Backend::AnthropicMessages;
    if (!key.key.isEmpty() && anthropic)
        headers.append({ QByteArrayLiteral("x-api-key"), key.key.toUtf8() });
    else if (!key.key.isEmpty())
        headers.append({ QByteArrayLiteral("Authorization"), QByteArrayLiteral("Bearer ") + key.key.toUtf8() });
    QString headerError;
    const QList<HttpHeader> extra = target.resolvedHeaders(&headerError);
    if (!headerError.isEmpty()) {
        *error = headerError;
        return {};
    }
    // The version the Messages API requires (https://docs.anthropic.com/en/api/versioning).
    if (anthropic && std::none_of(extra.begin(), extra.end(), [](const HttpHeader& h) {
            return h.name.compare(u"anthropic-version", Qt::CaseInsensitive) == 0;
        }))
        headers.append({ QByteArrayLiteral("anthropic-version"), QByteArrayLiteral("2023-06-01") });
    for (const HttpHeader& h : extra)
        headers.append({ h.name.toUtf8(), h.value.toUtf8() });
    return headers;
}

RequestTemplate requestTemplate(const Profile& profile, QString* error)
{
    RequestTemplate t;
    t.backend = profile.target.backend;
    t.url = profile.target.requestUrl();
    t.model = profile.target.requestModel();
    t.stream = profile.workload.stream && !isEmbeddingsBackend(t.backend);
    t.embeddingBatch = profile.workload.embeddingBatch;
    t.modelMix = parseModelMix(profile.workload.modelMix).shares;
    t.modelMixSeed = static_cast<quint64>(profile.workload.seed);
    t.ignoreEos = profile.workload.ignoreEos;
    const Sampling& s = profile.workload.sampling;
    t.temperature = s.temperature;
    auto put = [&t](const char* key, auto value) {
        if (value)
            t.sampling.insert(QLatin1String(key), *value);
    };
    put("top_p", s.topP);
    put("top_k", s.topK);
    put("min_p", s.minP);
    put("presence_penalty", s.presencePenalty);
    put("frequency_penalty", s.frequencyPenalty);
    put("repetition_penalty", s.repetitionPenalty);
    t.extraBody = profile.workload.extraBody;
    t.headers = requestHeaders(profile.target, error);
    if (error->isEmpty())
        t.images = ImageSource::fromWorkload(profile.workload, error);
    return t;
}

QByteArray buildRequestBody(const RequestTemplate& request, const Prompt& prompt, const QStringList& images)
{
    return buildRequestBody(
        request, { ChatMessage { QStringLiteral("user"), prompt.text, images } }, prompt.outputTokens);
}

namespace {

// A message's content: its text alone, or with images the text part and one part per image in the API's
// shape (chat: https://platform.openai.com/docs/guides/vision, Responses: input_text / input_image,
// Messages: https://docs.anthropic.com/en/docs/build-with-claude/vision, base64 source).
QJsonValue messageContent(const ChatMessage& m, Backend backend)
{
    if (m.images.isEmpty())
        return m.content;
    QJsonArray parts;
    const bool responses = backend == Backend::OpenAiResponses;
    parts.append(
        QJsonObject { { QStringLiteral("type"), responses ? QStringLiteral("input_text") : QStringLiteral("text") },
            { QStringLiteral("text"), m.content } });
    for (const QString& url : m.images) {
        if (backend == Backend::AnthropicMessages) {
            const qsizetype semicolon = url.indexOf(u';');
            const qsizetype comma = url.indexOf(u',');
            parts.append(QJsonObject { { QStringLiteral("type"), QStringLiteral("image") },
                { QStringLiteral("source"),
                    QJsonObject { { QStringLiteral("type"), QStringLiteral("base64") },
                        { QStringLiteral("media_type"), url.mid(5, semicolon - 5) },
                        { QStringLiteral("data"), url.mid(comma + 1) } } } });
        } else if (responses) {
            parts.append(QJsonObject {
                { QStringLiteral("type"), QStringLiteral("input_image") }, { QStringLiteral("image_url"), url } });
        } else {
            parts.append(QJsonObject { { QStringLiteral("type"), QStringLiteral("image_url") },
                { QStringLiteral("image_url"), QJsonObject { { QStringLiteral("url"), url } } } });
        }
    }
    return parts;
}

QJsonArray messageArray(const std::vector<ChatMessage>& messages, bool withSystem, Backend backend)
{
    QJsonArray array;
    for (const ChatMessage& m : messages) {
        if (!withSystem && m.role == u"system")
            continue;
        QJsonObject message;
        message.insert(QLatin1String("role"), m.role);
        message.insert(QLatin1String("content"), messageContent(m, backend));
        array.append(message);
    }
    return array;
}

QString joinedContents(const std::vector<ChatMessage>& messages, const QString& role = {})
{
    QString text;
    for (const ChatMessage& m : messages) {
        if (m.content.isEmpty() || (!role.isEmpty() && m.role != role))
            continue;
        if (!text.isEmpty())
            text += QLatin1String("\n\n");
        text += m.content;
    }
    return text;
}

void addCommon(QJsonObject& body, const RequestTemplate& request)
{
    for (auto it = request.sampling.begin(); it != request.sampling.end(); ++it)
        body.insert(it.key(), it.value());
    for (auto it = request.extraBody.begin(); it != request.extraBody.end(); ++it)
        body.insert(it.key(), it.value());
}

} // namespace

QByteArray buildEmbeddingsBody(const RequestTemplate& request, const QStringList& inputs)
{
    // https://platform.openai.com/docs/api-reference/embeddings/create
    QJsonObject body;
    body.insert(QLatin1String("model"), request.model);
    body.insert(QLatin1String("input"), QJsonArray::fromStringList(inputs));
    body.insert(QLatin1String("encoding_format"), QStringLiteral("float"));
    for (auto it = request.extraBody.begin(); it != request.extraBody.end(); ++it)
        body.insert(it.key(), it.value());
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

namespace {

// The body's per-request values: the model, the conversation (chat messages, Responses input, Messages
// messages, or the completions prompt), the Messages system prompt (undefined: none) and max tokens.
struct BodyValues
{
    QJsonValue model;
    QJsonValue conversation;
    QJsonValue system = QJsonValue::Undefined;
    QJsonValue maxTokens;
};

// A chat, Responses or Messages body's object, or a completions one (not embeddings).
QJsonObject bodyObject(const RequestTemplate& request, const BodyValues& v)
{
    QJsonObject body;
    body.insert(QLatin1String("model"), v.model);
    bool typedEvents = false; // Responses and Messages: usage comes with their own events, no stream_options
    switch (request.backend) {
    case Backend::OpenAiEmbeddings:
        Q_UNREACHABLE();
    case Backend::OpenAiResponses:
        // https://platform.openai.com/docs/api-reference/responses/create: "input" takes the messages
        // (system ones included), "max_output_tokens" bounds the answer; usage comes with response.completed.
        body.insert(QLatin1String("input"), v.conversation);
        body.insert(QLatin1String("max_output_tokens"), v.maxTokens);
        typedEvents = true;
        break;
    case Backend::AnthropicMessages:
        // https://docs.anthropic.com/en/api/messages: max_tokens is required, and the system prompt is a
        // top-level field (there is no "system" role).
        if (!v.system.isUndefined())
            body.insert(QLatin1String("system"), v.system);
        body.insert(QLatin1String("messages"), v.conversation);
        body.insert(QLatin1String("max_tokens"), v.maxTokens);
        typedEvents = true;
        break;
    case Backend::OpenAi:
    case Backend::OpenAiChat:
    case Backend::Vllm:
        if (isChatBackend(request.backend)) {
            body.insert(QLatin1String("messages"), v.conversation);
            body.insert(QLatin1String("max_completion_tokens"), v.maxTokens);
        } else {
            body.insert(QLatin1String("prompt"), v.conversation);
            body.insert(QLatin1String("max_tokens"), v.maxTokens);
        }
        break;
    }
    body.insert(QLatin1String("temperature"), request.temperature);
    body.insert(QLatin1String("stream"), request.stream);
    if (request.stream && !typedEvents) {
        QJsonObject streamOptions;
        streamOptions.insert(QLatin1String("include_usage"), true);
        body.insert(QLatin1String("stream_options"), streamOptions);
    }
    if (request.ignoreEos || request.backend == Backend::Vllm)
        body.insert(QLatin1String("ignore_eos"), request.ignoreEos);
    addCommon(body, request);
    return body;
}

// The messages as the backend's request takes them: every message for chat and Responses, all but the
// system ones for Messages (whose system prompt is a field of its own).
bool keepsSystemMessages(Backend backend)
{
    return backend != Backend::AnthropicMessages;
}

} // namespace

QByteArray buildRequestBody(const RequestTemplate& request, const std::vector<ChatMessage>& messages, int maxTokens)
{
    if (request.backend == Backend::OpenAiEmbeddings)
        return buildEmbeddingsBody(request, { joinedContents(messages) });
    BodyValues v;
    v.model = request.model;
    v.maxTokens = maxTokens;
    if (request.backend == Backend::OpenAi || request.backend == Backend::Vllm) {
        v.conversation = joinedContents(messages);
    } else {
        v.conversation = messageArray(messages, keepsSystemMessages(request.backend), request.backend);
        if (request.backend == Backend::AnthropicMessages) {
            if (const QString system = joinedContents(messages, QStringLiteral("system")); !system.isEmpty())
                v.system = system;
        }
    }
    return QJsonDocument(bodyObject(request, v)).toJson(QJsonDocument::Compact);
}

namespace {

constexpr QByteArrayView kContentKey = "{\"content\":";
constexpr QByteArrayView kRoleKey = ",\"role\":";

char* writeBytes(char* out, QByteArrayView bytes)
{
    std::memcpy(out, bytes.data(), std::size_t(bytes.size()));
    return out + bytes.size();
}

bool keeps(const ChatMessage& m, bool withSystemMessages)
{
    return withSystemMessages || m.role != u"system";
}

// The messages array as messageArray writes it for messages without images: [{"content":…,"role":…},…].
qsizetype messagesSize(const std::vector<ChatMessage>& messages, bool withSystemMessages)
{
    qsizetype n = 2;
    int count = 0;
    for (const ChatMessage& m : messages) {
        if (!keeps(m, withSystemMessages))
            continue;
        n += kContentKey.size() + jsonStringSize(m.content) + kRoleKey.size() + jsonStringSize(m.role) + 1;
        ++count;
    }
    return n + std::max(0, count - 1);
}

char* writeMessages(char* out, const std::vector<ChatMessage>& messages, bool withSystemMessages)
{
    *out++ = '[';
    bool first = true;
    for (const ChatMessage& m : messages) {
        if (!keeps(m, withSystemMessages))
            continue;
        if (!first)
            *out++ = ',';
        first = false;
        out = writeBytes(out, kContentKey);
        out = writeJsonString(out, m.content);
        out = writeBytes(out, kRoleKey);
        out = writeJsonString(out, m.role);
        *out++ = '}';
    }
    *out++ = ']';
    return out;
}

} // namespace

BodyWriter::BodyWriter(const RequestTemplate& request)
    : m_backend(request.backend)
    , m_plain(shapeOf(request, false))
    , m_withSystem(request.backend == Backend::AnthropicMessages ? shapeOf(request, true) : Shape {})
{ }

// The body with a marker string in each per-request field, serialised by Qt and cut at the markers. A
// field that extra_body replaces has no marker left; a marker found twice (extra_body holding one)
// leaves the shape invalid, and every body to buildRequestBody.
BodyWriter::Shape BodyWriter::shapeOf(const RequestTemplate& request, bool withSystem)
{
    Shape shape;
    if (isEmbeddingsBackend(request.backend))
        return shape;
    const auto marker = [](Slot slot) { return QStringLiteral("\u0001kneepoint-slot-%1").arg(int(slot)); };
    BodyValues v;
    v.model = marker(Slot::Model);
    v.conversation = marker(Slot::Conversation);
    if (withSystem)
        v.system = marker(Slot::System);
    v.maxTokens = marker(Slot::MaxTokens);
    const QByteArray json = QJsonDocument(bodyObject(request, v)).toJson(QJsonDocument::Compact);
    struct Found
    {
        qsizetype at;
        qsizetype size;
        Slot slot;
    };
    std::vector<Found> found;
    for (const Slot slot : { Slot::Model, Slot::Conversation, Slot::System, Slot::MaxTokens }) {
        const QByteArray token = "\"\\u0001kneepoint-slot-" + QByteArray::number(int(slot)) + '"';
        const qsizetype at = json.indexOf(token);
        if (at < 0)
            continue;
        if (json.indexOf(token, at + 1) >= 0)
            return shape;
        found.push_back({ at, token.size(), slot });
    }
    std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.at < b.at; });
    qsizetype from = 0;
    for (const Found& f : found) {
        shape.pieces.push_back(json.mid(from, f.at - from));
        shape.slots.push_back(f.slot);
        from = f.at + f.size;
    }
    shape.pieces.push_back(json.mid(from));
    shape.valid = true;
    return shape;
}

QByteArray BodyWriter::build(const RequestTemplate& request, const Prompt& prompt, const QStringList& images) const
{
    return build(request, { ChatMessage { QStringLiteral("user"), prompt.text, images } }, prompt.outputTokens);
}

// The shape these messages' body takes, with the Messages system prompt it holds (system); nullptr
// when buildRequestBody writes it: images, another backend, or no valid shape.
const BodyWriter::Shape* BodyWriter::shapeFor(
    const RequestTemplate& request, const std::vector<ChatMessage>& messages, QString* system) const
{
    const bool anyImages
        = std::any_of(messages.begin(), messages.end(), [](const ChatMessage& m) { return !m.images.isEmpty(); });
    if (anyImages || request.backend != m_backend)
        return nullptr;
    if (m_backend == Backend::AnthropicMessages)
        *system = joinedContents(messages, QStringLiteral("system"));
    const Shape& shape = system->isEmpty() ? m_plain : m_withSystem;
    return shape.valid ? &shape : nullptr;
}

bool BodyWriter::writesItself(const RequestTemplate& request, const std::vector<ChatMessage>& messages) const
{
    QString system;
    return shapeFor(request, messages, &system) != nullptr;
}

QByteArray BodyWriter::build(
    const RequestTemplate& request, const std::vector<ChatMessage>& messages, int maxTokens) const
{
    QString system;
    const Shape* found = shapeFor(request, messages, &system);
    if (!found)
        return buildRequestBody(request, messages, maxTokens);
    const Shape& shape = *found;
    const bool completions = m_backend == Backend::OpenAi || m_backend == Backend::Vllm;
    const bool withSystemMessages = m_backend != Backend::AnthropicMessages;
    const QString prompt = completions ? joinedContents(messages) : QString();
    char number[16];
    const auto [numberEnd, ec] = std::to_chars(number, number + sizeof number, maxTokens);
    Q_ASSERT(ec == std::errc());
    const QByteArrayView tokens(number, numberEnd - number);

    qsizetype size = 0;
    for (const QByteArray& piece : shape.pieces)
        size += piece.size();
    for (const Slot slot : shape.slots) {
        switch (slot) {
        case Slot::Model:
            size += jsonStringSize(request.model);
            break;
        case Slot::Conversation:
            size += completions ? jsonStringSize(prompt) : messagesSize(messages, withSystemMessages);
            break;
        case Slot::System:
            size += jsonStringSize(system);
            break;
        case Slot::MaxTokens:
            size += tokens.size();
            break;
        }
    }
    QByteArray body(size, Qt::Uninitialized);
    char* out = body.data();
    for (std::size_t i = 0; i < shape.slots.size(); ++i) {
        out = writeBytes(out, shape.pieces[i]);
        switch (shape.slots[i]) {
        case Slot::Model:
            out = writeJsonString(out, request.model);
            break;
        case Slot::Conversation:
            out = completions ? writeJsonString(out, prompt) : writeMessages(out, messages, withSystemMessages);
            break;
        case Slot::System:
            out = writeJsonString(out, system);
            break;
        case Slot::MaxTokens:
            out = writeBytes(out, tokens);
            break;
        }
    }
    out = writeBytes(out, shape.pieces.back());
    Q_ASSERT(out == body.constData() + size);
    return body;
}

} // namespace kp
