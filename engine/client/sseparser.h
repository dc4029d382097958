#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <functional>
#include <optional>
#include <vector>

namespace kp {

// One server-sent event (WHATWG HTML, "Interpreting an event stream").
struct SseEvent
{
    QByteArray type; // the "event:" field; empty means the default, "message"
    QByteArray data; // the "data:" lines joined with '\n'
    QByteArray id; // the last event ID when the event was dispatched

    bool operator==(const SseEvent&) const = default;
};

// What the body turned out to be, judged from its first bytes.
enum class SseBodyKind {
    Unknown, // nothing significant yet
    EventStream, // the first line is a comment or an SSE field
    Json, // the first non-blank byte is '{' or '[': a non-streamed reply or an error body
    Other, // anything else (an HTML error page, plain text)
};

// Incremental SSE parser: pure, no I/O, no clock. Bytes go in as they are read, split anywhere (inside a
// line end, inside a UTF-8 sequence); complete events come out in order. Lines end with CRLF, LF or CR;
// comments (":") are skipped; "data:" with or without the space; "event:", "id:", "retry:" honoured.
class SseParser
{
public:
    // Hands each event these bytes complete to `sink` as views that are valid during the call only: an
    // event whose one data line lies whole in `bytes` (nearly every event of a token stream) is not
    // copied at all. Returns how many.
    using EventSink = std::function<void(QByteArrayView type, QByteArrayView data)>;
    qsizetype feed(QByteArrayView bytes, const EventSink& sink);
    qsizetype finish(const EventSink& sink);

    // Appends the events these bytes complete to `events`; returns how many.
    qsizetype feed(QByteArrayView bytes, std::vector<SseEvent>& events);
    std::vector<SseEvent> feed(QByteArrayView bytes);

    // End of the body. A last line without a line end still counts, and an event whose blank line never
    // came is dispatched: the reference reads line by line and acts on such a line too.
    qsizetype finish(std::vector<SseEvent>& events);
    std::vector<SseEvent> finish();

    void reset();

    SseBodyKind bodyKind() const { return m_kind; }
    bool endedWithoutBlankLine() const { return m_endedWithoutBlankLine; } // finish() completed a line or event
    bool isFinished() const { return m_finished; }
    qint64 bytesFed() const { return m_bytesFed; }
    QByteArray head() const { return m_head; } // the first bytes of the body, for error messages
    // The whole body while it is not an event stream (up to maxBodyBytes), to read a JSON reply or error.
    QByteArray body() const { return m_body; }
    QByteArray lastEventId() const { return m_lastEventId; }
    std::optional<qint64> retryMs() const { return m_retryMs; }

    // A line or an event (its data lines together) longer than this is not kept: the parser stops
    // reading events and overflowed() says so, so a server that never ends a line cannot exhaust memory.
    bool overflowed() const { return m_overflowed; }

    static constexpr qsizetype maxHeadBytes = 512;
    static constexpr qsizetype maxBodyBytes = 4 * 1024 * 1024;
    static constexpr qsizetype maxEventBytes = 4 * 1024 * 1024;

private:
    void noteBytes(QByteArrayView bytes);
    // inBytes: the line lies in the bytes being fed (not in m_line), so a data view of it stays valid
    // until the feed returns.
    qsizetype processLine(QByteArrayView line, bool inBytes, const EventSink& sink);
    qsizetype dispatch(const EventSink& sink);
    void keepDataView(); // the pending event outlives the bytes: copy its data line into m_data
    void overflow();

    QByteArray m_line; // the current line, while its end has not arrived
    bool m_skipLf = false; // the previous feed ended with CR: a leading LF belongs to it
    QByteArray m_data; // the data lines, each followed by '\n'; unused while m_dataInView
    QByteArrayView m_dataView; // the event's only data line so far, inside the bytes being fed
    bool m_dataInView = false;
    bool m_hasData = false;
    QByteArray m_type;
    QByteArray m_lastEventId;
    std::optional<qint64> m_retryMs;
    SseBodyKind m_kind = SseBodyKind::Unknown;
    bool m_firstLine = true;
    bool m_sawSignificantByte = false;
    bool m_endedWithoutBlankLine = false;
    bool m_finished = false;
    bool m_overflowed = false;
    qint64 m_bytesFed = 0;
    QByteArray m_head;
    QByteArray m_body;
};

// What one event's data means to an OpenAI-compatible client (METRICS.md). Pure; the transport decides
// what to record from it.
struct SseChunk
{
    enum class Kind {
        Done, // "[DONE]"
        Choices, // a non-empty "choices" array: these are the events TTFT and ITL count
        Usage, // "usage" with an empty or absent "choices" array (never counts for TTFT)
        Error, // {"error": ...} or {"object": "error", ...}
        Empty, // no data (a keep-alive)
        Other, // a JSON object that is none of the above
        Malformed, // not JSON, not an object, or "choices" that is not an array of objects
    };

    Kind kind = Kind::Other;
    QString text; // choices[0].text (completions), .delta.content (chat stream), .message.content (chat reply)
    QString reasoning; // choices[0].delta.reasoning_content or .reasoning, for reasoning models
    QString finishReason;
    std::optional<qint64> completionTokens; // usage.completion_tokens, with Choices or Usage
    std::optional<qint64> promptTokens; // usage.prompt_tokens
    std::optional<qint64> cachedTokens; // usage.prompt_tokens_details.cached_tokens (prefix-cache hits)
    std::optional<qint64> reasoningTokens; // usage.completion_tokens_details.reasoning_tokens
    // With TextForm::Utf8: the text and reasoning as the server's UTF-8 bytes, and text and reasoning empty.
    QByteArray textUtf8;
    QByteArray reasoningUtf8;
    QString errorMessage; // Error: the server's message, type and code; Malformed: what is wrong, and the data
    QString unknownEvent; // Other: the type of a Responses or Messages event the client does not know (inert)

    bool hasText() const { return !text.isEmpty() || !textUtf8.isEmpty(); }
    bool hasReasoning() const { return !reasoning.isEmpty() || !reasoningUtf8.isEmpty(); }

    // Decoded: text and reasoning as QString. Utf8: as UTF-8 bytes (textUtf8, reasoningUtf8), for a
    // caller that counts and keeps bytes and decodes once, at the end of a request.
    enum class TextForm { Decoded, Utf8 };
    bool hasUsage() const { return completionTokens.has_value() || promptTokens.has_value(); }

    // Also reads a whole non-streamed reply or error body (SseParser::body()).
    static SseChunk classify(QByteArrayView data, TextForm form = TextForm::Decoded);
    // The same answer from nlohmann's DOM alone: classify() takes it for error objects and for anything
    // its faster parser refuses, so that every message keeps these words. Tests and fuzzing compare the two.
    static SseChunk classifyDom(QByteArrayView data);

    bool operator==(const SseChunk&) const = default;
};

} // namespace kp
