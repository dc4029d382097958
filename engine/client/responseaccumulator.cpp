#include "client/responseaccumulator.h"

#include "dataset/dataset.h"
#include "metrics/inerttext.h"

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

bool isDeadlineOrCancel(FailureClass f)
{
    return f == FailureClass::Cancelled || f == FailureClass::ResponseTooLarge || f == FailureClass::ConnectTimeout
        || f == FailureClass::FirstByteTimeout || f == FailureClass::IdleTimeout || f == FailureClass::TotalTimeout;
}

} // namespace

ResponseAccumulator::ResponseAccumulator(const HttpRequest& request, qint64 sentNs)
    : m_chat(request.chat)
    , m_stream(request.stream)
    , m_url(request.url.toString(QUrl::RemoveUserInfo))
{
    m_record.index = request.index;
    m_record.requestId = request.requestId;
    m_record.scheduledNs = request.scheduledNs;
    m_record.sentNs = sentNs;
    m_record.promptTokens = request.promptTokens;
}

void ResponseAccumulator::onResponseStarted(int httpStatus, qint64 tNs)
{
    m_record.httpStatus = httpStatus;
    if (m_record.firstByteNs < 0)
        m_record.firstByteNs = tNs;
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
                .arg(m_url)
                .arg(maxResponseBytes / (1024 * 1024)));
        return;
    }
    if (tooLarge())
        return;
    if (m_record.httpStatus != 200) {
        if (m_body.size() < SseParser::maxHeadBytes)
            m_body += bytes.first(std::min<qsizetype>(bytes.size(), SseParser::maxHeadBytes - m_body.size()));
        return;
    }
    // The parser keeps a body that turns out not to be an event stream (a JSON reply or error) whole.
    for (const SseEvent& event : m_parser.feed(bytes)) {
        ++m_eventCount;
        handleEvent(event, tNs);
    }
    if (m_parser.overflowed())
        fail(FailureClass::ResponseTooLarge,
            QStringLiteral("%1: a line or event passed %2 MiB; the client stopped reading it; the body began: %3")
                .arg(m_url)
                .arg(SseParser::maxEventBytes / (1024 * 1024))
                .arg(firstBytes(m_parser.head())));
}

void ResponseAccumulator::takeText(const QString& text)
{
    for (const QChar c : text) {
        const bool space = c.isSpace();
        if (!space && !m_inWord)
            ++m_words;
        m_inWord = !space;
    }
    const qsizetype room = maxRetainedTextChars - m_record.generatedText.size();
    if (room > 0)
        m_record.generatedText += QStringView(text).first(std::min(room, text.size()));
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
    if (chunk.completionTokens) {
        m_record.outputTokens = static_cast<int>(*chunk.completionTokens);
        m_record.outputTokensFromUsage = true;
    }
    if (chunk.promptTokens)
        m_record.serverPromptTokens = static_cast<int>(*chunk.promptTokens);
}

void ResponseAccumulator::handleEvent(const SseEvent& event, qint64 tNs)
{
    if (m_sawDone)
        return;
    const SseChunk chunk = SseChunk::classify(event.data);
    if (event.type == "error" && chunk.kind != SseChunk::Kind::Error) {
        fail(FailureClass::ErrorBody,
            QStringLiteral("%1: the stream carried an error event: %2").arg(m_url, firstBytes(event.data)));
        return;
    }
    switch (chunk.kind) {
    case SseChunk::Kind::Done:
        m_sawDone = true;
        return;
    case SseChunk::Kind::Malformed:
        fail(FailureClass::MalformedStream, QStringLiteral("%1: a malformed event: %2").arg(m_url, chunk.errorMessage));
        return;
    case SseChunk::Kind::Error:
        fail(FailureClass::ErrorBody,
            QStringLiteral("%1: the stream carried an error: %2").arg(m_url, chunk.errorMessage));
        return;
    case SseChunk::Kind::Empty:
    case SseChunk::Kind::Other:
        return;
    case SseChunk::Kind::Usage:
        takeUsage(chunk);
        if (m_chat) // chat E2EL ends at the last event before [DONE], usage included (METRICS.md)
            m_record.lastTokenNs = tNs;
        return;
    case SseChunk::Kind::Choices:
        break;
    }
    takeUsage(chunk);
    if (m_record.firstTokenNs < 0)
        m_record.firstTokenNs = tNs;
    if (m_record.firstContentNs < 0 && chunk.hasText())
        m_record.firstContentNs = tNs;
    m_record.chunkNs.push_back(tNs);
    m_record.lastTokenNs = tNs;
    takeText(chunk.text);
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
        m_record.errorMessage = QStringLiteral("HTTP %1 from %2: %3").arg(status).arg(m_url, firstBytes(m_body));
    } else if (transportFailure != FailureClass::None) {
        if (transportFailure == FailureClass::StreamCut) {
            m_record.failure = FailureClass::StreamCut;
            m_record.errorMessage = QStringLiteral("%1: the stream ended before [DONE] after %2 events (%3)")
                                        .arg(m_url)
                                        .arg(m_eventCount)
                                        .arg(transportMessage);
        } else {
            fail(transportFailure, transportMessage);
        }
    } else if (m_record.failure == FailureClass::None) {
        for (const SseEvent& event : m_parser.finish()) {
            ++m_eventCount;
            handleEvent(event, tNs);
        }
        const SseBodyKind kind = m_parser.bodyKind();
        if (kind == SseBodyKind::Json || kind == SseBodyKind::Other) {
            const QByteArray body = m_parser.body();
            const SseChunk reply = SseChunk::classify(body);
            if (reply.kind == SseChunk::Kind::Error) {
                fail(FailureClass::ErrorBody,
                    QStringLiteral("%1: HTTP 200 with an error body: %2").arg(m_url, reply.errorMessage));
            } else if (m_stream) {
                fail(FailureClass::MalformedStream,
                    QStringLiteral("%1: expected an event stream, got: %2").arg(m_url, firstBytes(body)));
            } else if (reply.kind != SseChunk::Kind::Choices) {
                fail(FailureClass::NoChoices,
                    QStringLiteral("%1: the response has no \"choices\": %2").arg(m_url, firstBytes(body)));
            } else {
                // Not streamed: the first token is only seen with the whole answer.
                m_record.firstTokenNs = m_record.lastTokenNs = tNs;
                if (reply.hasText())
                    m_record.firstContentNs = tNs;
                m_record.chunkNs.push_back(tNs);
                takeText(reply.text);
                takeUsage(reply);
            }
        } else if (m_record.failure == FailureClass::None) {
            if (m_record.chunkNs.empty())
                fail(FailureClass::NoChoices,
                    QStringLiteral("%1: no event carried \"choices\"; the body began: %2")
                        .arg(m_url, firstBytes(m_parser.head())));
            else if (!m_sawDone)
                fail(FailureClass::StreamCut,
                    QStringLiteral("%1: the stream ended before [DONE] after %2 events").arg(m_url).arg(m_eventCount));
        }
    }
    if (m_record.success() && !m_record.outputTokensFromUsage)
        m_record.outputTokens = m_words;
    return std::move(m_record);
}

} // namespace kp
