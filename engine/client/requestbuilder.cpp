#include "client/requestbuilder.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace kp {

HeaderList requestHeaders(const Target& target, QString* error)
{
    HeaderList headers;
    const ApiKeyResolution key = target.resolvedApiKey();
    if (!key.ok()) {
        *error = key.error;
        return {};
    }
    if (!key.key.isEmpty())
        headers.append({ QByteArrayLiteral("Authorization"), QByteArrayLiteral("Bearer ") + key.key.toUtf8() });
    QString headerError;
    const QList<HttpHeader> extra = target.resolvedHeaders(&headerError);
    if (!headerError.isEmpty()) {
        *error = headerError;
        return {};
    }
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
    t.stream = true;
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
    return t;
}

QByteArray buildRequestBody(const RequestTemplate& request, const Prompt& prompt)
{
    return buildRequestBody(request, { ChatMessage { QStringLiteral("user"), prompt.text } }, prompt.outputTokens);
}

QByteArray buildRequestBody(const RequestTemplate& request, const std::vector<ChatMessage>& messages, int maxTokens)
{
    QJsonObject body;
    body.insert(QLatin1String("model"), request.model);
    if (isChatBackend(request.backend)) {
        QJsonArray array;
        for (const ChatMessage& m : messages) {
            QJsonObject message;
            message.insert(QLatin1String("role"), m.role);
            message.insert(QLatin1String("content"), m.content);
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
