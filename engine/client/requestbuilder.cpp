#include "client/requestbuilder.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>

#include <algorithm>

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

QByteArray buildRequestBody(const RequestTemplate& request, const std::vector<ChatMessage>& messages, int maxTokens)
{
    QJsonObject body;
    body.insert(QLatin1String("model"), request.model);
    switch (request.backend) {
    case Backend::OpenAiEmbeddings:
        return buildEmbeddingsBody(request, { joinedContents(messages) });
    case Backend::OpenAiResponses:
        // https://platform.openai.com/docs/api-reference/responses/create: "input" takes the messages
        // (system ones included), "max_output_tokens" bounds the answer; usage comes with response.completed.
        body.insert(QLatin1String("input"), messageArray(messages, true, request.backend));
        body.insert(QLatin1String("max_output_tokens"), maxTokens);
        body.insert(QLatin1String("temperature"), request.temperature);
        body.insert(QLatin1String("stream"), request.stream);
        if (request.ignoreEos)
            body.insert(QLatin1String("ignore_eos"), true);
        addCommon(body, request);
        return QJsonDocument(body).toJson(QJsonDocument::Compact);
    case Backend::AnthropicMessages: {
        // https://docs.anthropic.com/en/api/messages: max_tokens is required, and the system prompt is a
        // top-level field (there is no "system" role).
        if (const QString system = joinedContents(messages, QStringLiteral("system")); !system.isEmpty())
            body.insert(QLatin1String("system"), system);
        body.insert(QLatin1String("messages"), messageArray(messages, false, request.backend));
        body.insert(QLatin1String("max_tokens"), maxTokens);
        body.insert(QLatin1String("temperature"), request.temperature);
        body.insert(QLatin1String("stream"), request.stream);
        if (request.ignoreEos)
            body.insert(QLatin1String("ignore_eos"), true);
        addCommon(body, request);
        return QJsonDocument(body).toJson(QJsonDocument::Compact);
    }
    case Backend::OpenAi:
    case Backend::OpenAiChat:
    case Backend::Vllm:
        break;
    }
    if (isChatBackend(request.backend)) {
        QJsonArray array;
        for (const ChatMessage& m : messages) {
            QJsonObject message;
            message.insert(QLatin1String("role"), m.role);
            message.insert(QLatin1String("content"), messageContent(m, request.backend));
            array.append(message);
        }
        body.insert(QLatin1String("messages"), array);
        body.insert(QLatin1String("max_completion_tokens"), maxTokens);
    } else {
        QString prompt;
        for (const ChatMessage& m : messages) {
            if (m.content.isEmpty())
                continue;
            if (!prompt.isEmpty())
                prompt += QLatin1String("\n\n");
            prompt += m.content;
        }
        body.insert(QLatin1String("prompt"), prompt);
        body.insert(QLatin1String("max_tokens"), maxTokens);
    }
    body.insert(QLatin1String("temperature"), request.temperature);
    body.insert(QLatin1String("stream"), request.stream);
    if (request.stream) {
        QJsonObject streamOptions;
        streamOptions.insert(QLatin1String("include_usage"), true);
        body.insert(QLatin1String("stream_options"), streamOptions);
    }
    if (request.ignoreEos || request.backend == Backend::Vllm)
        body.insert(QLatin1String("ignore_eos"), request.ignoreEos);
    for (auto it = request.sampling.begin(); it != request.sampling.end(); ++it)
        body.insert(it.key(), it.value());
    for (auto it = request.extraBody.begin(); it != request.extraBody.end(); ++it)
        body.insert(it.key(), it.value());
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

} // namespace kp
