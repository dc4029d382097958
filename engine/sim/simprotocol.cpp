#include "sim/simprotocol.h"

#include <QHash>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>

namespace kp::sim {

using nlohmann::json;

namespace {

QString fromStd(const std::string& text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

ProtocolError fieldError(const QString& param, const QString& message)
{
    return ProtocolError { 400, message, param };
}

// An integer field that may be absent or null (out: empty). Integral floats (16.0) pass, as pydantic lets them.
std::optional<ProtocolError> readOptionalInt(const json& object, const char* name, int minimum, std::optional<int>& out)
{
    const auto it = object.find(name);
    if (it == object.end() || it->is_null()) {
        out.reset();
        return std::nullopt;
    }
    const QString field = QString::fromLatin1(name);
    double value = 0;
    if (it->is_number_integer()) {
        value = double(it->get<long long>());
    } else if (it->is_number_float() && it->get<double>() == double(static_cast<long long>(it->get<double>()))) {
        value = it->get<double>();
    } else {
        return fieldError(field, QStringLiteral("'%1' must be an integer").arg(field));
    }
    if (value < minimum)
        return fieldError(field, QStringLiteral("'%1' must be at least %2, got %3").arg(field).arg(minimum).arg(value));
    if (value > 1e9)
        return fieldError(field, QStringLiteral("'%1' is too large: %2").arg(field).arg(value));
    out = int(value);
    return std::nullopt;
}

// A boolean field that may be absent or null (out: false).
std::optional<ProtocolError> readOptionalBool(const json& object, const char* name, const QString& path, bool& out)
{
    const auto it = object.find(name);
    if (it == object.end() || it->is_null()) {
        out = false;
        return std::nullopt;
    }
    if (!it->is_boolean())
        return fieldError(path, QStringLiteral("'%1' must be a boolean").arg(path));
    out = it->get<bool>();
    return std::nullopt;
}

std::optional<ProtocolError> readModel(const json& doc, std::optional<QString>& model)
{
    if (const auto it = doc.find("model"); it != doc.end() && !it->is_null()) {
        if (!it->is_string())
            return fieldError(QStringLiteral("model"), QStringLiteral("'model' must be a string"));
        model = fromStd(it->get<std::string>());
    }
    return std::nullopt;
}

// Token ids of a prompt given as ids: the id itself, moved off the range of word hashes' low values.
void appendTokenIds(const json& array, std::vector<quint64>& ids)
{
    for (const json& item : array)
        ids.push_back(quint64(item.get<long long>()) ^ 0x7e57ed1d5ULL);
}

std::optional<ProtocolError> completionPromptTokens(const json& body, std::vector<quint64>& ids)
{
    const auto it = body.find("prompt");
    const QString field = QStringLiteral("prompt");
    if (it == body.end() || it->is_null())
        return fieldError(field, QStringLiteral("'prompt' is required"));
    const json& prompt = *it;
    if (prompt.is_string()) {
        appendWordIds(fromStd(prompt.get<std::string>()), 0, ids);
        return std::nullopt;
    }
    if (!prompt.is_array() || prompt.empty()) {
        return fieldError(field,
            QStringLiteral("'prompt' must be a string, an array of token ids, or an array holding one of these"));
    }
    const auto allIntegers = [](const json& array) {
        for (const json& item : array) {
            if (!item.is_number_integer())
                return false;
        }
        return true;
    };
    if (allIntegers(prompt)) {
        appendTokenIds(prompt, ids);
        return std::nullopt;
    }
    if (prompt.size() > 1)
        return fieldError(
            field, QStringLiteral("'prompt' holds several prompts; the simulator serves one per request"));
    const json& only = prompt.front();
    if (only.is_string()) {
        appendWordIds(fromStd(only.get<std::string>()), 0, ids);
        return std::nullopt;
    }
    if (only.is_array() && !only.empty() && allIntegers(only)) {
        appendTokenIds(only, ids);
        return std::nullopt;
    }
    return fieldError(
        field, QStringLiteral("'prompt' must be a string, an array of token ids, or an array holding one of these"));
}

// The image of a content part, if it is one: OpenAI chat's {"type":"image_url","image_url":{"url"}}, the
// Responses API's {"type":"input_image","image_url":"data:..."} and Anthropic's {"type":"image","source":
// {"type":"base64","data"}}. Its tokens are what Qwen2-VL served by vLLM counts for it (simprotocol.h,
// imageTokens), each id a hash of the image and the token's index so that the prefix cache sees the same
// image as the same tokens.
std::optional<ProtocolError> appendImageIds(const json& part, const QString& partPath, std::vector<quint64>& ids)
{
    const std::string type = part.value("type", "");
    QByteArray payload;
    QString field;
    bool dataUrl = true;
    if (type == "image_url" || type == "input_image") {
        field = partPath + QStringLiteral(".image_url");
        const auto it = part.find("image_url");
        const json* url = it == part.end() ? nullptr : &*it;
        if (url && url->is_object() && type == "image_url") {
            const auto inner = url->find("url");
            url = inner == url->end() ? nullptr : &*inner;
        }
        if (!url || !url->is_string())
            return fieldError(field, QStringLiteral("'%1' must hold the image's URL").arg(field));
        payload = QByteArray::fromStdString(url->get<std::string>());
    } else if (type == "image") {
        field = partPath + QStringLiteral(".source");
        const auto source = part.find("source");
        if (source == part.end() || !source->is_object() || source->value("type", "") != "base64"
            || !source->contains("data") || !(*source)["data"].is_string())
            return fieldError(field, QStringLiteral("'%1' must be a base64 source with data").arg(field));
        payload = QByteArray::fromStdString((*source)["data"].get<std::string>());
        dataUrl = false;
    } else {
        return std::nullopt;
    }
    const auto size = imageSizeFromBase64(payload, dataUrl);
    if (const auto* error = std::get_if<QString>(&size))
        return fieldError(field, QStringLiteral("'%1': %2").arg(field, *error));
    const int tokens = imageTokens(std::get<ImageSize>(size));
    quint64 hash = 0xcbf29ce484222325ULL;
    for (const char ch : payload)
        hash = (hash ^ quint64(static_cast<unsigned char>(ch))) * 0x100000001b3ULL;
    for (int i = 0; i < tokens; ++i)
        ids.push_back((hash + quint64(i) * 0x9e3779b97f4a7c15ULL) | (1ULL << 63));
    return std::nullopt;
}

std::optional<ProtocolError> chatPromptTokens(const json& body, std::vector<quint64>& ids)
{
    const auto it = body.find("messages");
    if (it == body.end() || !it->is_array() || it->empty())
        return fieldError(QStringLiteral("messages"), QStringLiteral("'messages' must be a non-empty array"));
    for (std::size_t i = 0; i < it->size(); ++i) {
        const json& message = (*it)[i];
        const QString path = QStringLiteral("messages[%1]").arg(i);
        if (!message.is_object())
            return fieldError(path, QStringLiteral("'%1' must be an object").arg(path));
        const auto role = message.find("role");
        if (role == message.end() || !role->is_string())
            return fieldError(path + QStringLiteral(".role"), QStringLiteral("'%1.role' must be a string").arg(path));
        // The role marks the message's first word, so that a turn's tokens are the previous turn's plus
        // more (the prefix cache sees a conversation grow) without a token the client does not count.
        const std::string& roleName = role->get_ref<const std::string&>();
        quint64 salt = 0xcbf29ce484222325ULL;
        for (const char ch : roleName)
            salt = (salt ^ quint64(static_cast<unsigned char>(ch))) * 0x100000001b3ULL;
        const auto content = message.find("content");
        if (content == message.end() || content->is_null())
            continue;
        if (content->is_string()) {
            appendWordIds(fromStd(content->get<std::string>()), salt, ids);
            continue;
        }
        const QString contentPath = path + QStringLiteral(".content");
        if (!content->is_array()) {
            return fieldError(
                contentPath, QStringLiteral("'%1' must be a string or an array of content parts").arg(contentPath));
        }
        for (std::size_t k = 0; k < content->size(); ++k) {
            const json& part = (*content)[k];
            if (!part.is_object())
                return fieldError(
                    contentPath, QStringLiteral("'%1' holds a part that is not an object").arg(contentPath));
            const auto type = part.find("type");
            if (type == part.end() || !type->is_string())
                return fieldError(contentPath, QStringLiteral("'%1' holds a part without a type").arg(contentPath));
            if (auto error = appendImageIds(part, QStringLiteral("%1[%2]").arg(contentPath).arg(k), ids))
                return error;
            if (type->get<std::string>() != "text")
                continue;
            const auto text = part.find("text");
            if (text == part.end() || !text->is_string())
                return fieldError(contentPath, QStringLiteral("'%1' holds a text part without text").arg(contentPath));
            const std::size_t before = ids.size();
            appendWordIds(fromStd(text->get<std::string>()), salt, ids);
            if (ids.size() > before)
                salt = 0; // only the message's first word carries its role
        }
    }
    return std::nullopt;
}

constexpr std::array<const char*, 64> words { "the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "tokens",
    "stream", "batch", "cache", "queue", "prefill", "decode", "knee", "latency", "load", "server", "model", "answer",
    "context", "window", "signal", "metric", "curve", "plateau", "harvest", "sample", "rate", "time", "peak", "river",
    "stone", "cloud", "light", "north", "south", "green", "amber", "silver", "market", "garden", "bridge", "harbor",
    "valley", "forest", "meadow", "engine", "vector", "kernel", "thread", "socket", "packet", "buffer", "record",
    "letter", "number", "simple", "steady", "moment", "little", "second", "minute" };

std::optional<ProtocolError> readModelAndStream(const json& doc, GenerationRequest& request)
{
    if (auto error = readModel(doc, request.model))
        return error;
    if (auto error = readOptionalBool(doc, "stream", QStringLiteral("stream"), request.stream))
        return error;
    return readOptionalBool(doc, "ignore_eos", QStringLiteral("ignore_eos"), request.ignoreEos);
}

// The Responses API's input (https://platform.openai.com/docs/api-reference/responses/create): a string,
// or message items whose content is a string or parts of type input_text / output_text.
std::optional<ProtocolError> responsesPromptTokens(const json& body, std::vector<quint64>& ids)
{
    const auto it = body.find("input");
    const QString field = QStringLiteral("input");
    if (it == body.end() || it->is_null())
        return fieldError(field, QStringLiteral("'input' is required"));
    if (it->is_string()) {
        appendWordIds(fromStd(it->get<std::string>()), 0, ids);
        return std::nullopt;
    }
    if (!it->is_array())
        return fieldError(field, QStringLiteral("'input' must be a string or an array of input items"));
    json messages = json::array();
    for (json item : *it) {
        if (item.is_object() && item.contains("content") && item["content"].is_array()) {
            for (json& part : item["content"]) {
                if (part.is_object()
                    && (part.value("type", "") == "input_text" || part.value("type", "") == "output_text"))
                    part["type"] = "text";
            }
        }
        messages.push_back(std::move(item));
    }
    if (auto error = chatPromptTokens(json { { "messages", messages } }, ids)) {
        error->param.replace(QLatin1String("messages"), field);
        error->message.replace(QLatin1String("messages"), field);
        return error;
    }
    return std::nullopt;
}

// Anthropic's Messages API (https://docs.anthropic.com/en/api/messages): "system" (a string or text
// blocks), "messages", and "max_tokens", which is required.
std::optional<ProtocolError> messagesPromptTokens(const json& body, std::vector<quint64>& ids)
{
    if (const auto system = body.find("system"); system != body.end() && !system->is_null()) {
        json wrapped = json::array({ json { { "role", "system" }, { "content", *system } } });
        if (auto error = chatPromptTokens(json { { "messages", wrapped } }, ids)) {
            error->param = QStringLiteral("system");
            error->message = QStringLiteral("'system' must be a string or an array of text blocks");
            return error;
        }
    }
    return chatPromptTokens(body, ids);
}

// Embeddings' input (https://platform.openai.com/docs/api-reference/embeddings/create): a string, an array
// of strings, an array of token ids, or an array of such arrays. Returns how many inputs.
std::variant<int, ProtocolError> embeddingsPromptTokens(const json& body, std::vector<quint64>& ids)
{
    const auto it = body.find("input");
    const QString field = QStringLiteral("input");
    if (it == body.end() || it->is_null())
        return fieldError(field, QStringLiteral("'input' is required"));
    if (it->is_string()) {
        appendWordIds(fromStd(it->get<std::string>()), 0, ids);
        return 1;
    }
    if (!it->is_array() || it->empty())
        return fieldError(field, QStringLiteral("'input' must be a string or a non-empty array"));
    if (std::all_of(it->begin(), it->end(), [](const json& v) { return v.is_number_integer(); })) {
        appendTokenIds(*it, ids);
        return 1;
    }
    for (std::size_t i = 0; i < it->size(); ++i) {
        const json& item = (*it)[i];
        if (item.is_string()) {
            appendWordIds(fromStd(item.get<std::string>()), 0, ids);
        } else if (item.is_array() && !item.empty()
            && std::all_of(item.begin(), item.end(), [](const json& v) { return v.is_number_integer(); })) {
            appendTokenIds(item, ids);
        } else {
            return fieldError(QStringLiteral("input[%1]").arg(i),
                QStringLiteral("'input[%1]' must be a string or an array of token ids").arg(i));
        }
    }
    return int(it->size());
}

std::variant<GenerationRequest, ProtocolError> parseApiRequest(
    Endpoint endpoint, const json& doc, GenerationRequest request)
{
    if (auto error = readModelAndStream(doc, request))
        return *error;
    const QString promptField = promptFieldName(endpoint);
    std::optional<ProtocolError> promptError;
    if (endpoint == Endpoint::Responses) {
        promptError = responsesPromptTokens(doc, request.promptTokenIds);
    } else if (endpoint == Endpoint::Messages) {
        promptError = messagesPromptTokens(doc, request.promptTokenIds);
    } else {
        auto inputs = embeddingsPromptTokens(doc, request.promptTokenIds);
        if (auto* error = std::get_if<ProtocolError>(&inputs))
            return *error;
        request.inputs = std::get<int>(inputs);
    }
    if (promptError)
        return *promptError;
    request.promptTokens = int(request.promptTokenIds.size());
    if (request.promptTokens == 0)
        return fieldError(promptField, QStringLiteral("'%1' holds no text").arg(promptField));

    if (endpoint == Endpoint::Embeddings) {
        // Prefill only: the one "token" the model makes is the end of the prefill, never sent.
        if (request.stream)
            return fieldError(QStringLiteral("stream"), QStringLiteral("embeddings are not streamed"));
        request.maxTokens = 1;
        request.ignoreEos = true;
        return request;
    }
    const char* maxField = endpoint == Endpoint::Responses ? "max_output_tokens" : "max_tokens";
    if (auto error = readOptionalInt(doc, maxField, 1, request.maxTokens))
        return *error;
    if (endpoint == Endpoint::Messages && !request.maxTokens)
        return fieldError(QStringLiteral("max_tokens"), QStringLiteral("'max_tokens' is required"));
    return request;
}

} // namespace

const char* endpointName(Endpoint endpoint)
{
    switch (endpoint) {
    case Endpoint::Completions:
        return "completions";
    case Endpoint::ChatCompletions:
        return "chat";
    case Endpoint::Responses:
        return "responses";
    case Endpoint::Messages:
        return "messages";
    case Endpoint::Embeddings:
        return "embeddings";
    }
    return "completions";
}

QString promptFieldName(Endpoint endpoint)
{
    switch (endpoint) {
    case Endpoint::Completions:
        return QStringLiteral("prompt");
    case Endpoint::ChatCompletions:
    case Endpoint::Messages:
        return QStringLiteral("messages");
    case Endpoint::Responses:
    case Endpoint::Embeddings:
        return QStringLiteral("input");
    }
    return QStringLiteral("prompt");
}

bool hasTypedEvents(Endpoint endpoint)
{
    return endpoint == Endpoint::Responses || endpoint == Endpoint::Messages;
}

std::variant<GenerationRequest, ProtocolError> parseGenerationRequest(Endpoint endpoint, const QByteArray& body)
{
    json doc;
    try {
        doc = json::parse(body.constBegin(), body.constEnd());
    } catch (const json::parse_error& e) {
        QString what = fromStd(e.what());
        const qsizetype bracket = what.indexOf(QLatin1String("] "));
        if (what.startsWith(QLatin1Char('[')) && bracket > 0)
            what = what.mid(bracket + 2);
        return ProtocolError { 400, QStringLiteral("Invalid JSON in the request body: %1").arg(what), {} };
    } catch (const json::exception& e) {
        return ProtocolError { 400,
            QStringLiteral("Unreadable JSON in the request body: %1")
                .arg(fromStd(e.what()).section(QLatin1String("] "), 1)),
            {} };
    }
    if (!doc.is_object())
        return ProtocolError { 400, QStringLiteral("The request body must be a JSON object"), {} };

    GenerationRequest request;
    request.endpoint = endpoint;
    if (endpoint == Endpoint::Responses || endpoint == Endpoint::Messages || endpoint == Endpoint::Embeddings)
        return parseApiRequest(endpoint, doc, request);

    if (auto error = readModel(doc, request.model))
        return *error;

    const std::optional<ProtocolError> promptError = endpoint == Endpoint::Completions
        ? completionPromptTokens(doc, request.promptTokenIds)
        : chatPromptTokens(doc, request.promptTokenIds);
    if (promptError)
        return *promptError;
    request.promptTokens = int(request.promptTokenIds.size());
    if (request.promptTokens == 0) {
        return endpoint == Endpoint::Completions
            ? fieldError(QStringLiteral("prompt"), QStringLiteral("'prompt' must not be empty"))
            : fieldError(QStringLiteral("messages"), QStringLiteral("'messages' hold no text"));
    }

    std::optional<int> maxTokens;
    if (auto error = readOptionalInt(doc, "max_tokens", 1, maxTokens))
        return *error;
    if (auto error = readOptionalInt(doc, "max_completion_tokens", 1, request.maxTokens))
        return *error;
    if (!request.maxTokens)
        request.maxTokens = maxTokens;

    std::optional<int> n;
    if (auto error = readOptionalInt(doc, "n", 1, n))
        return *error;
    if (n && *n != 1)
        return fieldError(QStringLiteral("n"), QStringLiteral("'n' must be 1: the simulator returns one choice"));

    if (auto error = readOptionalBool(doc, "ignore_eos", QStringLiteral("ignore_eos"), request.ignoreEos))
        return *error;
    if (auto error = readOptionalBool(doc, "stream", QStringLiteral("stream"), request.stream))
        return *error;

    if (const auto it = doc.find("stream_options"); it != doc.end() && !it->is_null()) {
        if (!it->is_object())
            return fieldError(QStringLiteral("stream_options"), QStringLiteral("'stream_options' must be an object"));
        if (auto error = readOptionalBool(
                *it, "include_usage", QStringLiteral("stream_options.include_usage"), request.includeUsage))
            return *error;
    }
    return request;
}

int countWords(QStringView text)
{
    int count = 0;
    bool inWord = false;
    for (const QChar c : text) {
        const bool space = c.isSpace();
        if (!space && !inWord)
            ++count;
        inWord = !space;
    }
    return count;
}

void appendWordIds(QStringView text, quint64 salt, std::vector<quint64>& ids)
{
    // FNV-1a over the word's UTF-16 code units: fixed, unlike qHash's per-process seed.
    quint64 h = 0;
    bool inWord = false;
    const auto flush = [&] {
        ids.push_back(h ^ salt);
        salt = 0;
    };
    for (const QChar c : text) {
        if (c.isSpace()) {
            if (inWord)
                flush();
            inWord = false;
            continue;
        }
        if (!inWord)
            h = 0xcbf29ce484222325ULL;
        inWord = true;
        h = (h ^ c.unicode()) * 0x100000001b3ULL;
    }
    if (inWord)
        flush();
}

QByteArray outputWord(quint64 requestId, int tokenIndex)
{
    const std::size_t index = std::size_t((requestId * 7 + quint64(tokenIndex)) % words.size());
    return QByteArray(" ") + words[index];
}

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 100:
        return QByteArrayLiteral("Continue");
    case 200:
        return QByteArrayLiteral("OK");
    case 204:
        return QByteArrayLiteral("No Content");
    case 400:
        return QByteArrayLiteral("Bad Request");
    case 401:
        return QByteArrayLiteral("Unauthorized");
    case 404:
        return QByteArrayLiteral("Not Found");
    case 405:
        return QByteArrayLiteral("Method Not Allowed");
    case 411:
        return QByteArrayLiteral("Length Required");
    case 413:
        return QByteArrayLiteral("Content Too Large");
    case 429:
        return QByteArrayLiteral("Too Many Requests");
    case 431:
        return QByteArrayLiteral("Request Header Fields Too Large");
    case 500:
        return QByteArrayLiteral("Internal Server Error");
    case 503:
        return QByteArrayLiteral("Service Unavailable");
    case 505:
        return QByteArrayLiteral("HTTP Version Not Supported");
    default:
        return QByteArrayLiteral("Unknown");
    }
}

QByteArray errorTypeForStatus(int status)
{
    switch (status) {
    case 400:
    case 411:
    case 413:
    case 431:
    case 505:
        return QByteArrayLiteral("BadRequestError");
    case 401:
        return QByteArrayLiteral("AuthenticationError");
    case 404:
        return QByteArrayLiteral("NotFoundError");
    case 405:
        return QByteArrayLiteral("MethodNotAllowedError");
    case 429:
        return QByteArrayLiteral("RateLimitError");
    case 503:
        return QByteArrayLiteral("ServiceUnavailableError");
    default:
        return QByteArrayLiteral("InternalServerError");
    }
}

QByteArray jsonString(const QString& text)
{
    return QByteArray::fromStdString(json(text.toStdString()).dump());
}

QByteArray errorBody(int status, const QString& message, const QString& param)
{
    return "{\"error\":{\"message\":" + jsonString(message) + ",\"type\":\"" + errorTypeForStatus(status)
        + "\",\"param\":" + (param.isEmpty() ? QByteArrayLiteral("null") : jsonString(param))
        + ",\"code\":" + QByteArray::number(status) + "}}";
}

QByteArray anthropicErrorBody(int status, const QString& message, const QString& param)
{
    QByteArray type;
    switch (status) {
    case 401:
        type = "authentication_error";
        break;
    case 403:
        type = "permission_error";
        break;
    case 404:
        type = "not_found_error";
        break;
    case 413:
        type = "request_too_large";
        break;
    case 429:
        type = "rate_limit_error";
        break;
    case 503:
    case 529:
        type = "overloaded_error";
        break;
    default:
        type = status >= 500 ? "api_error" : "invalid_request_error";
        break;
    }
    const QString text = param.isEmpty() || message.contains(param) ? message : param + QStringLiteral(": ") + message;
    return "{\"type\":\"error\",\"error\":{\"type\":\"" + type + "\",\"message\":" + jsonString(text) + "}}";
}

QByteArray errorBodyFor(Endpoint endpoint, int status, const QString& message, const QString& param)
{
    return endpoint == Endpoint::Messages ? anthropicErrorBody(status, message, param)
                                          : errorBody(status, message, param);
}

QByteArray modelsBody(const QString& modelId, int maxModelLen, qint64 created, const QStringList& adapters)
{
    const QByteArray id = jsonString(modelId);
    const QByteArray tail = ",\"object\":\"model\",\"created\":" + QByteArray::number(created)
        + ",\"owned_by\":\"kneepoint\",\"root\":" + id;
    const QByteArray length = ",\"max_model_len\":" + QByteArray::number(maxModelLen) + "}";
    QByteArray body = "{\"object\":\"list\",\"data\":[{\"id\":" + id + tail + ",\"parent\":null" + length;
    for (const QString& adapter : adapters)
        body += ",{\"id\":" + jsonString(adapter) + tail + ",\"parent\":" + id + length;
    return body + "]}";
}

std::variant<QByteArray, ProtocolError> tokenizeResponse(const QByteArray& body, int maxModelLen)
{
    json doc;
    try {
        doc = json::parse(body.constBegin(), body.constEnd());
    } catch (const json::exception&) {
        return ProtocolError { 400, QStringLiteral("Invalid JSON in the request body"), {} };
    }
    if (!doc.is_object())
        return ProtocolError { 400, QStringLiteral("The request body must be a JSON object"), {} };
    QStringList texts;
    if (const auto prompt = doc.find("prompt"); prompt != doc.end()) {
        if (!prompt->is_string())
            return fieldError(QStringLiteral("prompt"), QStringLiteral("'prompt' must be a string"));
        texts << fromStd(prompt->get<std::string>());
    } else if (const auto messages = doc.find("messages"); messages != doc.end() && messages->is_array()) {
        for (const json& message : *messages) {
            const auto content = message.is_object() ? message.find("content") : message.end();
            if (message.is_object() && content != message.end() && content->is_string())
                texts << fromStd(content->get<std::string>());
        }
    } else {
        return fieldError(QStringLiteral("prompt"), QStringLiteral("either 'prompt' or 'messages' is required"));
    }
    QByteArray tokens = "[";
    int count = 0;
    for (const QString& text : texts) { // the words countWords counts, each one token
        qsizetype start = -1;
        for (qsizetype i = 0; i <= text.size(); ++i) {
            const bool space = i == text.size() || text.at(i).isSpace();
            if (!space && start < 0)
                start = i;
            if (space && start >= 0) {
                tokens += (count++ ? "," : "")
                    + QByteArray::number(qHash(QStringView(text).mid(start, i - start)) % 50000u);
                start = -1;
            }
        }
    }
    tokens += ']';
    return "{\"count\":" + QByteArray::number(count) + ",\"max_model_len\":" + QByteArray::number(maxModelLen)
        + ",\"tokens\":" + tokens + '}';
}

CompletionFormat::CompletionFormat(Endpoint endpoint, quint64 requestId, const QString& modelId, qint64 created)
    : m_endpoint(endpoint)
    , m_id((endpoint == Endpoint::Completions              ? QByteArrayLiteral("cmpl-")
                   : endpoint == Endpoint::ChatCompletions ? QByteArrayLiteral("chatcmpl-")
                   : endpoint == Endpoint::Responses       ? QByteArrayLiteral("resp_")
                   : endpoint == Endpoint::Messages        ? QByteArrayLiteral("msg_")
                                                           : QByteArrayLiteral("embd-"))
          + QByteArray::number(requestId))
    , m_model(jsonString(modelId))
    , m_created(created)
{
    const char* object = endpoint == Endpoint::Completions ? "text_completion" : "chat.completion.chunk";
    m_head = "{\"id\":\"" + m_id + "\",\"object\":\"" + object + "\",\"created\":" + QByteArray::number(created)
        + ",\"model\":" + jsonString(modelId) + ',';
}

QByteArray CompletionFormat::tokenEvent(const QByteArray& word, const char* finishReason) const
{
    const QByteArray finish = finishReason ? '"' + QByteArray(finishReason) + '"' : QByteArrayLiteral("null");
    QByteArray event;
    event.reserve(m_head.size() + word.size() + 128);
    event += "data: ";
    event += m_head;
    if (m_endpoint == Endpoint::Completions) {
        event += "\"choices\":[{\"index\":0,\"text\":\"";
        event += word;
        event += "\",\"logprobs\":null,\"finish_reason\":";
        event += finish;
        event += ",\"stop_reason\":null}]}\n\n";
    } else {
        event += "\"choices\":[{\"index\":0,\"delta\":{\"content\":\"";
        event += word;
        event += "\"},\"logprobs\":null,\"finish_reason\":";
        event += finish;
        event += "}]}\n\n";
    }
    return event;
}

QByteArray CompletionFormat::roleEvent() const
{
    return "data: " + m_head
        + "\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,"
          "\"finish_reason\":null}]}\n\n";
}

QByteArray CompletionFormat::reasoningEvent(const QByteArray& word, const char* finishReason) const
{
    const QByteArray finish = finishReason ? '"' + QByteArray(finishReason) + '"' : QByteArrayLiteral("null");
    return "data: " + m_head + "\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"" + word
        + "\"},\"logprobs\":null,\"finish_reason\":" + finish + "}]}\n\n";
}

QByteArray CompletionFormat::usageObject(
    int promptTokens, int completionTokens, int cachedTokens, int reasoningTokens) const
{
    QByteArray usage = "{\"prompt_tokens\":" + QByteArray::number(promptTokens)
        + ",\"total_tokens\":" + QByteArray::number(promptTokens + completionTokens)
        + ",\"completion_tokens\":" + QByteArray::number(completionTokens)
        + ",\"prompt_tokens_details\":{\"cached_tokens\":" + QByteArray::number(cachedTokens) + '}';
    if (reasoningTokens >= 0)
        usage += ",\"completion_tokens_details\":{\"reasoning_tokens\":" + QByteArray::number(reasoningTokens) + '}';
    return usage + '}';
}

QByteArray CompletionFormat::usageEvent(
    int promptTokens, int completionTokens, int cachedTokens, int reasoningTokens) const
{
    return "data: " + m_head + "\"choices\":[],\"usage\":"
        + usageObject(promptTokens, completionTokens, cachedTokens, reasoningTokens) + "}\n\n";
}

QByteArray CompletionFormat::malformedEvent(const QByteArray& word) const
{
    const QByteArray field = m_endpoint == Endpoint::Completions ? QByteArrayLiteral("\"text\":\"")
                                                                 : QByteArrayLiteral("\"delta\":{\"content\":\"");
    return "data: " + m_head + "\"choices\":[{\"index\":0," + field + word + "\n\n";
}

QByteArray CompletionFormat::errorEvent(int code, const QString& message)
{
    return "data: " + errorBody(code, message) + "\n\n";
}

QByteArray CompletionFormat::doneEvent()
{
    return QByteArrayLiteral("data: [DONE]\n\n");
}

QByteArray CompletionFormat::fullBody(const QByteArray& text, const char* finishReason, int promptTokens,
    int completionTokens, int cachedTokens, const QByteArray& reasoning, int reasoningTokens) const
{
    QByteArray head = m_head;
    if (m_endpoint == Endpoint::ChatCompletions)
        head.replace("\"chat.completion.chunk\"", "\"chat.completion\"");
    const QByteArray finish = finishReason ? '"' + QByteArray(finishReason) + '"' : QByteArrayLiteral("null");
    QByteArray choice;
    if (m_endpoint == Endpoint::Completions) {
        choice = "{\"index\":0,\"text\":\"" + text + "\",\"logprobs\":null,\"finish_reason\":" + finish
            + ",\"stop_reason\":null}";
    } else {
        const QByteArray thinking = reasoning.isEmpty() ? QByteArray() : ",\"reasoning_content\":\"" + reasoning + '"';
        choice = "{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"" + text + '"' + thinking
            + "},\"logprobs\":null,\"finish_reason\":" + finish + ",\"stop_reason\":null}";
    }
    return head + "\"choices\":[" + choice
        + "],\"usage\":" + usageObject(promptTokens, completionTokens, cachedTokens, reasoningTokens) + '}';
}

namespace {

quint32 bigEndian(const QByteArray& bytes, qsizetype at, int width)
{
    quint32 value = 0;
    for (int i = 0; i < width; ++i)
        value = (value << 8) | quint32(static_cast<unsigned char>(bytes[at + i]));
    return value;
}

} // namespace

std::variant<ImageSize, QString> imageSize(const QByteArray& bytes)
{
    // PNG: the signature, then IHDR with width and height as big-endian 32-bit numbers.
    if (bytes.startsWith("\x89PNG\r\n\x1a\n")) {
        if (bytes.size() < 24 || bytes.mid(12, 4) != "IHDR")
            return QStringLiteral("a PNG without its IHDR header");
        const ImageSize size { qint64(bigEndian(bytes, 16, 4)), qint64(bigEndian(bytes, 20, 4)) };
        if (size.width <= 0 || size.height <= 0)
            return QStringLiteral("a PNG of %1x%2 pixels").arg(size.width).arg(size.height);
        return size;
    }
    // JPEG: SOI, then segments up to a start-of-frame (SOF0..SOF15 but DHT, JPG and DAC) holding the size.
    if (bytes.startsWith("\xff\xd8")) {
        qsizetype at = 2;
        while (at + 4 <= bytes.size()) {
            if (static_cast<unsigned char>(bytes[at]) != 0xff)
                return QStringLiteral("a JPEG with a broken segment at byte %1").arg(at);
            const int marker = static_cast<unsigned char>(bytes[at + 1]);
            if (marker == 0xff) {
                ++at; // fill byte
                continue;
            }
            const qsizetype length = bigEndian(bytes, at + 2, 2);
            const bool frame = marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc;
            if (frame) {
                if (at + 9 > bytes.size())
                    break;
                const ImageSize size { qint64(bigEndian(bytes, at + 7, 2)), qint64(bigEndian(bytes, at + 5, 2)) };
                if (size.width <= 0 || size.height <= 0)
                    return QStringLiteral("a JPEG of %1x%2 pixels").arg(size.width).arg(size.height);
                return size;
            }
            if (marker == 0xd9 || marker == 0xda || length < 2)
                break;
            at += 2 + length;
        }
        return QStringLiteral("a JPEG without a frame header");
    }
    return QStringLiteral("not a PNG or JPEG image");
}

std::variant<ImageSize, QString> imageSizeFromBase64(const QByteArray& text, bool dataUrl)
{
    QByteArray encoded = text;
    if (dataUrl) {
        static const QByteArray prefix("data:image/");
        const qsizetype comma = text.indexOf(',');
        if (!text.startsWith(prefix) || comma < 0 || !text.left(comma).endsWith(";base64"))
            return QStringLiteral("not a base64 data URL of an image (data:image/...;base64,...)");
        encoded = text.mid(comma + 1);
    }
    const auto decoded = QByteArray::fromBase64Encoding(encoded, QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return QStringLiteral("its base64 does not decode");
    return imageSize(*decoded);
}

int imageTokens(ImageSize size)
{
    const qint64 patches = ((size.width + 27) / 28) * ((size.height + 27) / 28);
    return int(std::min<qint64>(patches, 1 << 24)) + 2;
}

} // namespace kp::sim
