#pragma once

#include "client/httpresponseparser.h"
#include "client/sseparser.h"
#include "client/transport.h"
#include "metrics/requestrecord.h"

#include <QByteArray>

namespace kp {

// Turns one HTTP response, fed as it arrives, into a RequestRecord: SSE events are timestamped with
// the time of the read that completed them, and the outcome is classified (METRICS.md failure classes).
// Transport-independent: any transport feeds it status, bytes and the end of the exchange.
class ResponseAccumulator
{
public:
    ResponseAccumulator(const HttpRequest& request, qint64 sentNs);

    // The status and the headers that matter for a failure's words (Location, Retry-After,
    // Content-Encoding).
    void onResponseStarted(int httpStatus, qint64 tNs, const ResponseHeaders& headers = {});
    void onData(QByteArrayView bytes, qint64 tNs);

    // Caps that keep a misbehaving server from exhausting the client: past maxResponseBytes the
    // request fails as ResponseTooLarge (the transport aborts it); the generated text kept in the
    // record stops at maxRetainedTextChars (tokens are still counted over all of it).
    static constexpr qint64 maxResponseBytes = 64LL * 1024 * 1024;
    static constexpr qsizetype maxRetainedTextChars = 256 * 1024;

    bool sawDone() const { return m_sawDone; }
    bool tooLarge() const { return m_record.failure == FailureClass::ResponseTooLarge; }
    bool sawFirstToken() const { return m_record.firstTokenNs >= 0; }
    int httpStatus() const { return m_record.httpStatus; }

    // Completes the record. transportFailure is None when the exchange ended normally; otherwise it
    // (with its message) wins over what the bytes alone would say, except that an HTTP error status
    // is reported as such.
    RequestRecord finish(qint64 tNs, FailureClass transportFailure, const QString& transportMessage);

private:
    QString url() const { return m_requestUrl.toString(QUrl::RemoveUserInfo); }
    void handleEvent(QByteArrayView type, QByteArrayView data, qint64 tNs);
    void takeUsage(const SseChunk& chunk);
    void fail(FailureClass failure, const QString& message);
    void takeText(QByteArrayView utf8);
    void takeReasoning(QByteArrayView utf8);
    RequestRecord takeRecord(); // the record, with its text decoded
    void takeTokens(const SseChunk& chunk, qint64 tNs);
    void noteResponseFacts();
    QString statusMessage() const;

    RequestRecord m_record;
    bool m_stream = true;
    ApiFormat m_format = ApiFormat::OpenAi;
    QUrl m_requestUrl; // for messages: url() spells it, without user info
    SseParser m_parser;
    QByteArray m_body; // the body of a non-200 answer (bounded), for the message
    ResponseHeaders m_headers;
    QString m_encoding; // a Content-Encoding the client does not decode, inert; empty for identity
    bool m_sawDone = false;
    int m_eventCount = 0;
    qint64 m_bytes = 0;
    QByteArray m_text; // the generated text kept, as UTF-8; decoded once, when the record is taken
    int m_words = 0; // words in all the generated text, kept or not
    bool m_inWord = false;
    // Reasoning (thinking) text, from whichever backend's events carry it: counted, not kept.
    bool m_sawReasoning = false;
    int m_reasoningWords = 0;
    bool m_inReasoningWord = false;
};

} // namespace kp
