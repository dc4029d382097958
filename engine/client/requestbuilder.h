#pragma once

#include "client/imageparts.h"
#include "dataset/dataset.h"
#include "profile/modelmix.h"
#include "profile/profile.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>
#include <QUrl>

#include <optional>
#include <utility>
#include <vector>

namespace kp {

using HeaderList = QList<QPair<QByteArray, QByteArray>>;

struct RequestTemplate
{
    Backend backend = Backend::OpenAi;
    QUrl url; // base URL joined with the endpoint path
    QString model;
    QList<ModelShare> modelMix; // workload.model_mix: each request's model is drawn from these (pickModel)
    quint64 modelMixSeed = 0; // workload.seed: the same prompt goes to the same model in every step and shard
    bool stream = true;
    bool ignoreEos = false;
    double temperature = 0.0;
    QJsonObject sampling; // top_p, top_k, ... copied into the body
    QJsonObject extraBody; // merged last, overriding anything above
    HeaderList headers; // the key's header (Authorization, or x-api-key for Messages) and the extra headers
    int embeddingBatch = 1; // openai-embeddings: prompts per request
    std::shared_ptr<const ImageSource> images; // workload images: attached to each prompt's user message; or null
};

// The key's header when a key resolves (Authorization: Bearer; for anthropic-messages x-api-key, with
// anthropic-version unless the target sets it) and the target's extra headers, ${VAR}s expanded. On failure
// error names the variable or header and the list is empty.
HeaderList requestHeaders(const Target& target, QString* error);

// The request template a profile describes (headers resolved).
RequestTemplate requestTemplate(const Profile& profile, QString* error);

// One message of a chat request.
struct ChatMessage
{
    ChatMessage() = default;
    ChatMessage(QString role_, QString content_, QStringList images_ = {})
        : role(std::move(role_))
        , content(std::move(content_))
        , images(std::move(images_))
    { }
    QString role; // "system", "user", "assistant"
    QString content;
    // Data URLs of images after the text: OpenAI chat's image_url parts, the Responses API's input_image
    // parts, Anthropic's base64 image blocks.
    QStringList images;
    bool operator==(const ChatMessage&) const = default;
};

// The JSON body for one prompt (compact, UTF-8): its text as the one user message (chat) or the prompt.
// images: data URLs to attach to that message (request.images->urlsFor(the prompt's index)).
QByteArray buildRequestBody(const RequestTemplate& request, const Prompt& prompt, const QStringList& images = {});

// The JSON body for a turn of a conversation: the messages as they are (chat), or for the completions
// API their contents joined by blank lines into one prompt, which keeps each turn's prompt a prefix of
// the next one's.
QByteArray buildRequestBody(const RequestTemplate& request, const std::vector<ChatMessage>& messages, int maxTokens);

// An embeddings body: the texts as the batch in "input".
QByteArray buildEmbeddingsBody(const RequestTemplate& request, const QStringList& inputs);

// buildRequestBody for the many requests of one template, at a fraction of its cost: the template's own
// fields are serialised once, into the pieces between the per-request values (model, messages or prompt,
// the Messages system prompt, max tokens), which are written straight into one exact-size buffer. Every
// body equals buildRequestBody's byte for byte (tst_transport::bodyWriterMatchesJson); messages with
// images, and embeddings, go through buildRequestBody itself.
class BodyWriter
{
public:
    BodyWriter() = default;
    explicit BodyWriter(const RequestTemplate& request);

    // The body for these messages, with request's model (a mix's model differs per request; every other
    // field is the one the writer was made with).
    QByteArray build(const RequestTemplate& request, const std::vector<ChatMessage>& messages, int maxTokens) const;
    QByteArray build(const RequestTemplate& request, const Prompt& prompt, const QStringList& images = {}) const;
    // Whether build writes this body itself rather than handing it to buildRequestBody.
    bool writesItself(const RequestTemplate& request, const std::vector<ChatMessage>& messages) const;

private:
    enum class Slot { Model, Conversation, System, MaxTokens };
    struct Shape
    {
        bool valid = false;
        std::vector<QByteArray> pieces; // one more than slots
        std::vector<Slot> slots; // in the order they appear in the body
    };
    static Shape shapeOf(const RequestTemplate& request, bool withSystem);
    const Shape* shapeFor(
        const RequestTemplate& request, const std::vector<ChatMessage>& messages, QString* system) const;

    Backend m_backend = Backend::OpenAi;
    Shape m_plain; // no Messages system prompt
    Shape m_withSystem; // anthropic-messages with a system prompt
};

} // namespace kp
