#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <vector>

namespace kp {

// The few response headers that the words for a failure draw on (the others are not kept): where a
// redirect points, when an overloaded server asks to be retried, and a compression the client did not
// ask for. Values as they came, each cut at maxValueBytes.
struct ResponseHeaders
{
    QByteArray location;
    QByteArray retryAfter;
    QByteArray contentEncoding;

    static constexpr qsizetype maxValueBytes = 2048;

    // Keeps the value if the header is one of those above (the name in any case).
    void take(QByteArrayView name, QByteArrayView value);
    bool operator==(const ResponseHeaders&) const = default;
};

// Incremental HTTP/1.1 response parser: pure, no I/O, no clock. Bytes go in as they are read, split
// anywhere; the body comes out as views into the bytes fed (chunked framing removed). Bodies are
// delimited by Content-Length, by chunked transfer coding, or by the connection closing. Interim 1xx
// responses are skipped (an unrequested 101 Switching Protocols is an error).
// Transfer-Encoding (RFC 9112 6.1, 6.3): the lines of the header make one list; chunked is the only
// coding decoded ("identity", the obsolete no-op, is skipped), so any other coding, or chunked applied
// twice, is an error that names it rather than a body of unknown bytes. Transfer-Encoding wins over
// Content-Length, and such a response leaves the connection unfit for another request.
class HttpResponseParser
{
public:
    // Appends the body bytes these bytes carry to `body` (views into `bytes`). Returns false on a
    // protocol error (error() says what); bytes after the end of the response are ignored and counted
    // in trailingBytes().
    bool feed(QByteArrayView bytes, std::vector<QByteArrayView>& body);

    // The connection closed. True when that ends the response (a body delimited by the close).
    bool finishOnClose();

    void reset();

    bool headersDone() const { return m_headersDone; }
    bool isDone() const { return m_state == State::Done; }
    bool hasError() const { return m_state == State::Error; }
    QString error() const { return m_error; }
    int status() const { return m_status; }
    // The connection may carry another request once this response is done.
    bool keepAlive() const { return m_keepAlive; }
    bool chunked() const { return m_chunked; }
    qint64 contentLength() const { return m_contentLength; } // -1 when absent
    qint64 trailingBytes() const { return m_trailingBytes; }
    const ResponseHeaders& headers() const { return m_headers; }

    static constexpr qsizetype maxLineBytes = 64 * 1024;
    static constexpr int maxHeaderLines = 256;

private:
    enum class State {
        StatusLine,
        Header,
        ChunkSize,
        ChunkData,
        ChunkDataEnd,
        Trailer,
        FixedBody,
        CloseBody,
        Done,
        Error
    };

    // Takes one line (without its CRLF or LF) from bytes at pos; false while the line is incomplete.
    bool takeLine(QByteArrayView bytes, qsizetype& pos, QByteArrayView& line);
    bool fail(const QString& message);
    bool statusLine(QByteArrayView line);
    bool headerLine(QByteArrayView line);
    bool headersEnded();
    void transferEncodingLine(QByteArrayView value);

    State m_state = State::StatusLine;
    QByteArray m_line;
    QByteArray m_lineCopy; // a line that spanned two feeds
    int m_status = 0;
    int m_minorVersion = 1;
    int m_headerLines = 0;
    bool m_headersDone = false;
    bool m_keepAlive = true;
    bool m_connectionHeaderSeen = false;
    bool m_chunked = false;
    int m_chunkedCodings = 0; // chunked in the Transfer-Encoding list, which must hold it once
    QByteArray m_unknownCoding; // the first coding other than chunked (and identity)
    QByteArray m_transferEncoding; // the list as received, for the message (bounded)
    qint64 m_contentLength = -1;
    qint64 m_remaining = 0;
    qint64 m_trailingBytes = 0;
    ResponseHeaders m_headers;
    QString m_error;
};

} // namespace kp
