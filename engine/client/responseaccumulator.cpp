#include "client/responseaccumulator.h"

#include "client/errorwords.h"
#include "dataset/dataset.h"
#include "metrics/inerttext.h"

#include <QDateTime>
#include <QRegularExpression>

#include <cmath>
#include <limits>
#include <optional>

namespace kp {

namespace {

constexpr int kHeadBytes = 300;

QString firstBytes(QByteArrayView bytes)
{
    return inertExcerpt(bytes, kHeadBytes);
}

FailureClass classifyStatus(int status)
{
    if (status == 401 || status == 403)
        return FailureClass::HttpAuth;
    if (status == 404)
        return FailureClass::HttpNotFound;
    if (status == 429)
        return FailureClass::HttpRateLimited;
    if (status >= 500)
        return FailureClass::HttpServerError;
    return FailureClass::HttpOther;
}

// Retry-After: delay-seconds or an HTTP-date (RFC 9110, 10.2.3).
std::optional<double> retryAfterSeconds(const QByteArray& value)
{
    if (value.isEmpty())
        return std::nullopt;
    bool ok = false;
    const qint64 seconds = value.toLongLong(&ok);
    if (ok)
        return seconds >= 0 ? std::optional<double>(double(seconds)) : std::nullopt;
    const QDateTime at = QDateTime::fromString(QString::fromLatin1(value), Qt::RFC2822Date);
    if (!at.isValid())
        return std::nullopt;
    return double(std::max<qint64>(0, QDateTime::currentDateTimeUtc().secsTo(at)));
}

// vLLM, SGLang and OpenAI say "This model's maximum context length is N tokens"; TGI says the inputs
// plus max_new_tokens "must be <= N".
bool saysContextExceeded(const QByteArray& body, std::optional<qint64>* limit)
{
    static const QRegularExpression words(
        QStringLiteral("maximum context length(?: is (\\d+))?|max_model_len|must be <= (\\d+)"),
        QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch m = words.match(QString::fromUtf8(body));
    if (!m.hasMatch() || (m.captured(0).startsWith(QLatin1String("must")) && !body.contains("max_new_tokens")))
        return false;
    const QString number = !m.captured(1).isEmpty() ? m.captured(1) : m.captured(2);
    bool ok = false;
    const qint64 n = number.toLongLong(&ok);
    if (ok && n > 0)
        *limit = n;
    return true;
}

bool isDeadlineOrCancel(FailureClass f)
{
    return f == FailureClass::Cancelled || f == FailureClass::ResponseTooLarge || f == FailureClass::ConnectTimeout
        || f == FailureClass::FirstByteTimeout || f == FailureClass::IdleTimeout || f == FailureClass::TotalTimeout;
}

} // namespace

ResponseAccumulator::ResponseAccumulator(const HttpRequest& request, qint64 sentNs)
    : m_stream(request.stream)
    , m_format(request.format)
    , m_requestUrl(request.url)
{
    m_record.index = request.index;
    m_record.requestId = request.requestId;
    m_record.scheduledNs = request.scheduledNs;
    m_record.sentNs = sentNs;
    m_record.promptTokens = request.promptTokens;
    m_record.requestedOutputTokens = request.maxTokens > 0 ? request.maxTokens : -1;
    m_record.model = request.model;
}

void ResponseAccumulator::onResponseStarted(int httpStatus, qint64 tNs, const ResponseHeaders& headers)
{
    m_record.httpStatus = httpStatus;
    m_headers = headers;
    if (m_record.firstByteNs < 0)
        m_record.firstByteNs = tNs;
    const QByteArray encoding = headers.contentEncoding.trimmed().toLower();
    if (!encoding.isEmpty() && encoding != "identity")
        m_encoding = inertText(QString::fromLatin1(encoding));
    // The request asked for no encoding (Accept-Encoding: identity) and nothing here decodes one: the
    // events would read as noise.
    if (httpStatus == 200 && !m_encoding.isEmpty())
        fail(FailureClass::MalformedStream,
            QStringLiteral("%1: the body is %2-compressed (Content-Encoding: %2), though the request asked for "
                           "none (Accept-Encoding: identity)")
                .arg(url(), m_encoding));
}

void ResponseAccumulator::onData(QByteArrayView bytes, qint64 tNs)
{
    if (bytes.isEmpty())
        return;
    if (m_record.firstByteNs < 0)
        m_record.firstByteNs = tNs;
    m_bytes += bytes.size();
    if (m_bytes > maxResponseBytes) {
        fail(FailureClass::ResponseTooLarge,
            QStringLiteral("%1: the response passed %2 MiB; the client stopped reading it")
                .arg(url())
                .arg(maxResponseBytes / (1024 * 1024)));
        return;
    }
    if (tooLarge())
        return;
    if (m_record.httpStatus != 200 || !m_encoding.isEmpty()) {
        if (m_body.size() < SseParser::maxHeadBytes)
            m_body += bytes.first(std::min<qsizetype>(bytes.size(), SseParser::maxHeadBytes - m_body.size()));
        return;
    }
    // The parser keeps a body that turns out not to be an event stream (a JSON reply or error) whole.
    m_parser.feed(bytes, [this, tNs](QByteArrayView type, QByteArrayView data) {
        ++m_eventCount;
        handleEvent(type, data, tNs);
    });
    if (m_parser.overflowed())
        fail(FailureClass::ResponseTooLarge,
            QStringLiteral("%1: a line or event passed %2 MiB; the client stopped reading it; the body began: %3")
                .arg(url())
                .arg(SseParser::maxEventBytes / (1024 * 1024))
                .arg(firstBytes(m_parser.head())));
}

namespace {

// The length of the white space (as QChar::isSpace: Unicode's separators, tab to carriage return and
// U+0085) that starts at p, in UTF-8 bytes; 0 for anything else.
int spaceLength(const unsigned char* p, qsizetype n)
{
    const unsigned char c = p[0];
    if (c < 0x80)
        return c == ' ' || (c >= 0x09 && c <= 0x0D) ? 1 : 0;
    if (c == 0xC2 && n >= 2 && (p[1] == 0x85 || p[1] == 0xA0)) // U+0085, U+00A0
        return 2;
    if (n < 3)
        return 0;
    if (c == 0xE1 && p[1] == 0x9A && p[2] == 0x80) // U+1680
        return 3;
    if (c == 0xE2 && p[1] == 0x80 && (p[2] <= 0x8A || p[2] == 0xA8 || p[2] == 0xA9 || p[2] == 0xAF))
        return 3; // U+2000 to U+200A, U+2028, U+2029, U+202F
    if ((c == 0xE2 && p[1] == 0x81 && p[2] == 0x9F) || (c == 0xE3 && p[1] == 0x80 && p[2] == 0x80))
        return 3; // U+205F, U+3000
    return 0;
}

// Words (runs of anything but white space) begun in these bytes; inWord carries over between calls.
int countWords(QByteArrayView utf8, bool& inWord)
{
    const auto* p = reinterpret_cast<const unsigned char*>(utf8.data());
    const qsizetype n = utf8.size();
    int words = 0;
    for (qsizetype i = 0; i < n;) {
        const int space = spaceLength(p + i, n - i);
        if (space > 0) {
            inWord = false;
            i += space;
            continue;
        }
        if (!inWord)
            ++words;
        inWord = true;
        ++i;
    }
    return words;
}

} // namespace

// Text stays UTF-8 while the request runs and is decoded once, in finish(): each UTF-16 unit of the
// kept text takes at most 3 bytes, so 3 bytes per character kept is enough.
void ResponseAccumulator::takeText(QByteArrayView utf8)
{
    m_words += countWords(utf8, m_inWord);
    const qsizetype room = 3 * maxRetainedTextChars - m_text.size();
    if (room > 0)
        m_text.append(utf8.first(std::min(room, utf8.size())));
}

void ResponseAccumulator::takeReasoning(QByteArrayView utf8)
{
    m_sawReasoning = true;
    m_reasoningWords += countWords(utf8, m_inReasoningWord);
}

// One event that carries tokens (a choices event, or a whole reply): any token, reasoning included, is
// the first token (TTFT, vLLM's definition) and an ITL gap; only answer text is first content (TTFC).
void ResponseAccumulator::takeTokens(const SseChunk& chunk, qint64 tNs)
{
    if (m_record.firstTokenNs < 0)
        m_record.firstTokenNs = tNs;
    if (m_record.firstContentNs < 0 && chunk.hasText())
        m_record.firstContentNs = tNs;
    m_record.chunkNs.push_back(tNs);
    m_record.lastTokenNs = tNs;
    // OpenAI events come as UTF-8 (TextForm::Utf8); the typed formats' classifiers decode.
    if (!chunk.reasoningUtf8.isEmpty())
        takeReasoning(chunk.reasoningUtf8);
    else if (!chunk.reasoning.isEmpty())
        takeReasoning(chunk.reasoning.toUtf8());
    if (!chunk.textUtf8.isEmpty())
        takeText(chunk.textUtf8);
    else if (!chunk.text.isEmpty())
        takeText(chunk.text.toUtf8());
}

void ResponseAccumulator::fail(FailureClass failure, const QString& message)
{
    if (m_record.failure == FailureClass::None) {
        m_record.failure = failure;
        m_record.errorMessage = message;
    }
}

void ResponseAccumulator::takeUsage(const SseChunk& chunk)
{
    // A count no request can have (negative, or beyond an int: 1e300 in the JSON) is not a count: the
    // request keeps what the stream itself showed (its words) rather than trusting it.
    const auto count = [](const std::optional<qint64>& v) -> std::optional<int> {
        if (!v || *v < 0 || *v > std::numeric_limits<int>::max())
            return std::nullopt;
        return static_cast<int>(*v);
    };
    if (const auto output = count(chunk.completionTokens)) {
        m_record.outputTokens = *output;
        m_record.outputTokensFromUsage = true;
    }
    if (const auto prompt = count(chunk.promptTokens))
        m_record.serverPromptTokens = *prompt;
    if (const auto cached = count(chunk.cachedTokens))
        m_record.cachedTokens = *cached;
    if (const auto reasoning = count(chunk.reasoningTokens))
        m_record.reasoningTokens = *reasoning;
}

void ResponseAccumulator::handleEvent(QByteArrayView type, QByteArrayView data, qint64 tNs)
{
    if (m_sawDone)
        return;
    const SseChunk chunk = classifyEvent(m_format, type, data, SseChunk::TextForm::Utf8);
    if (type == "error" && chunk.kind != SseChunk::Kind::Error) {
        fail(FailureClass::ErrorBody,
            QStringLiteral("%1: the stream carried an error event: %2").arg(url(), firstBytes(data)));
        return;
    }
    switch (chunk.kind) {
    case SseChunk::Kind::Done:
        takeUsage(chunk); // response.completed carries the usage
        m_sawDone = true;
        return;
    case SseChunk::Kind::Malformed:
        fail(FailureClass::MalformedStream, QStringLiteral("%1: a malformed event: %2").arg(url(), chunk.errorMessage));
        return;
    case SseChunk::Kind::Error:
        fail(FailureClass::ErrorBody,
            QStringLiteral("%1: the stream carried an error: %2").arg(url(), chunk.errorMessage));
        return;
    case SseChunk::Kind::Other:
        // Counted, never fatal: a newer server may add event types.
        // The first few types, each once: a stream of endless new types must not grow the record.
        if (!chunk.unknownEvent.isEmpty()
            && std::find(m_record.unknownEvents.begin(), m_record.unknownEvents.end(), chunk.unknownEvent)
                == m_record.unknownEvents.end()) {
            if (m_record.unknownEvents.size() < RequestRecord::kMaxUnknownEventTypes)
                m_record.unknownEvents.push_back(chunk.unknownEvent);
            else
                m_record.moreUnknownEvents = true;
        }
        return;
    case SseChunk::Kind::Empty:
        return;
    case SseChunk::Kind::Usage:
        // A usage-only event carries no token: like current vLLM (chat and completions alike), the request's
        // end for E2EL and TPOT stays at the last choices event. Older vLLM ended chat requests here.
        takeUsage(chunk);
        return;
    case SseChunk::Kind::Choices:
        break;
    }
    takeUsage(chunk);
    takeTokens(chunk, tNs);
}

RequestRecord ResponseAccumulator::finish(qint64 tNs, FailureClass transportFailure, const QString& transportMessage)
{
    m_record.endNs = tNs;
    const int status = m_record.httpStatus;
    if (isDeadlineOrCancel(transportFailure)) {
        if (transportFailure != FailureClass::ResponseTooLarge || !tooLarge()) { // keep the accumulator's words
            m_record.failure = transportFailure;
            m_record.errorMessage = transportMessage;
        }
    } else if (status > 0 && status != 200) {
        m_record.failure = classifyStatus(status);
        m_record.errorMessage = statusMessage();
    } else if (transportFailure != FailureClass::None) {
        if (transportFailure == FailureClass::StreamCut) {
            m_record.failure = FailureClass::StreamCut;
            m_record.errorMessage = QStringLiteral("%1: the stream ended before %4 after %2 events (%3)")
                                        .arg(url())
                                        .arg(m_eventCount)
                                        .arg(transportMessage, endEventName(m_format));
        } else {
            fail(transportFailure, transportMessage);
        }
    } else if (m_record.failure == FailureClass::None) {
        const std::vector<SseEvent> last = m_parser.finish();
        const bool done = std::any_of(last.begin(), last.end(),
            [this](const SseEvent& e) { return classifyEvent(m_format, e.type, e.data).kind == SseChunk::Kind::Done; });
        if (m_stream && !m_sawDone && !done && m_parser.bodyKind() == SseBodyKind::EventStream
            && m_parser.endedWithoutBlankLine()) {
            // The body ended inside an event: the connection went (Qt's client reports a chunked body
            // cut mid-chunk as complete), and the torn event is not the server's malformed JSON. The
            // words are the socket client's for the same cut.
            m_record.failure = FailureClass::StreamCut;
            m_record.errorMessage
                = QStringLiteral("%1: the stream ended before %4 after %2 events (%1: %3)")
                      .arg(url())
                      .arg(m_eventCount)
                      .arg(errorWords(QAbstractSocket::RemoteHostClosedError), endEventName(m_format));
            noteResponseFacts();
            return takeRecord();
        }
        for (const SseEvent& event : last) {
            ++m_eventCount;
            handleEvent(event.type, event.data, tNs);
        }
        const SseBodyKind kind = m_parser.bodyKind();
        if (kind == SseBodyKind::Json || kind == SseBodyKind::Other) {
            const QByteArray body = m_parser.body();
            const SseChunk reply = classifyReply(m_format, body);
            if (reply.kind == SseChunk::Kind::Error) {
                fail(FailureClass::ErrorBody,
                    QStringLiteral("%1: HTTP 200 with an error body: %2").arg(url(), reply.errorMessage));
            } else if (reply.kind == SseChunk::Kind::Malformed) {
                fail(FailureClass::MalformedStream,
                    QStringLiteral("%1: a malformed reply: %2").arg(url(), reply.errorMessage));
            } else if (m_stream) {
                fail(FailureClass::MalformedStream,
                    QStringLiteral("%1: expected an event stream, got: %2").arg(url(), firstBytes(body)));
            } else if (reply.kind != SseChunk::Kind::Choices) {
                fail(FailureClass::NoChoices,
                    QStringLiteral("%1: the response has no %2: %3")
                        .arg(url(), answerField(m_format), firstBytes(body)));
            } else {
                // Not streamed: the whole answer comes at once, so when its first token was made is
                // unknown. E2EL ends here; TTFT, TPOT and ITL are left unknown rather than invented.
                m_record.lastTokenNs = tNs;
                if (!reply.reasoning.isEmpty())
                    takeReasoning(reply.reasoning.toUtf8());
                takeText(reply.text.toUtf8());
                takeUsage(reply);
            }
        } else if (m_record.failure == FailureClass::None) {
            if (m_record.chunkNs.empty())
                fail(FailureClass::NoChoices,
                    QStringLiteral("%1: no event carried %2; the body began: %3")
                        .arg(url(), m_format == ApiFormat::OpenAi ? answerField(m_format) : QStringLiteral("text"),
                            firstBytes(m_parser.head())));
            else if (!m_sawDone)
                fail(FailureClass::StreamCut,
                    QStringLiteral("%1: the stream ended before %3 after %2 events")
                        .arg(url())
                        .arg(m_eventCount)
                        .arg(endEventName(m_format)));
        }
    }
    // Reasoning tokens are output tokens (usage.completion_tokens includes them, as vLLM and OpenAI count);
    // without usage's details they are counted from the reasoning text like answer tokens from the answer.
    if (m_record.success() && !m_record.outputTokensFromUsage)
        m_record.outputTokens = m_words + m_reasoningWords;
    if (m_record.reasoningTokens < 0 && m_sawReasoning)
        m_record.reasoningTokens = m_reasoningWords;
    if (!m_record.success())
        noteResponseFacts();
    return takeRecord();
}

RequestRecord ResponseAccumulator::takeRecord()
{
    QString text = QString::fromUtf8(m_text);
    if (text.size() > maxRetainedTextChars)
        text.truncate(maxRetainedTextChars);
    m_record.generatedText = std::move(text);
    m_text = {};
    return std::move(m_record);
}

QString ResponseAccumulator::statusMessage() const
{
    const int status = m_record.httpStatus;
    QString message = QStringLiteral("HTTP %1 from %2").arg(status).arg(url());
    if (status >= 300 && status < 400)
        message += m_headers.location.isEmpty()
            ? QStringLiteral(", without a Location header")
            : QStringLiteral(" to %1").arg(inertExcerpt(m_headers.location, ResponseHeaders::maxValueBytes));
    if (!m_headers.retryAfter.isEmpty())
        message += QStringLiteral(" (Retry-After: %1)").arg(inertExcerpt(m_headers.retryAfter, 64));
    if (!m_encoding.isEmpty())
        return message + QStringLiteral(": the body is %1-compressed (Content-Encoding: %1)").arg(m_encoding);
    return message + QStringLiteral(": ") + firstBytes(m_body);
}

void ResponseAccumulator::noteResponseFacts()
{
    ResponseFacts& facts = m_record.response;
    const int status = m_record.httpStatus;
    if (status >= 300 && status < 400 && !m_headers.location.isEmpty())
        facts.location = inertExcerpt(m_headers.location, ResponseHeaders::maxValueBytes);
    facts.retryAfterS = retryAfterSeconds(m_headers.retryAfter.trimmed());
    facts.contentEncoding = m_encoding;
    if (status == 400 || status == 413 || status == 422)
        facts.contextExceeded = saysContextExceeded(m_body, &facts.contextLimit);
}

} // namespace kp
