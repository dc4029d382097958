#include "client/httpresponseparser.h"

#include "metrics/inerttext.h"

#include <algorithm>

namespace kp {

namespace {

QByteArrayView trimmed(QByteArrayView v)
{
    while (!v.isEmpty() && (v.front() == ' ' || v.front() == '\t'))
        v = v.sliced(1);
    while (!v.isEmpty() && (v.back() == ' ' || v.back() == '\t'))
        v.chop(1);
    return v;
}

bool equalsIgnoringCase(QByteArrayView a, QByteArrayView b)
{
    return a.compare(b, Qt::CaseInsensitive) == 0;
}

// A comma-separated header value contains `token` (case-insensitive).
bool hasToken(QByteArrayView value, QByteArrayView token)
{
    while (!value.isEmpty()) {
        const qsizetype comma = value.indexOf(',');
        const QByteArrayView item = trimmed(comma < 0 ? value : value.first(comma));
        if (equalsIgnoringCase(item, token))
            return true;
        if (comma < 0)
            break;
        value = value.sliced(comma + 1);
    }
    return false;
}

QString printable(QByteArrayView line)
{
    return inertExcerpt(line, 120);
}

} // namespace

void ResponseHeaders::take(QByteArrayView name, QByteArrayView value)
{
    QByteArray* kept = equalsIgnoringCase(name, "location") ? &location
        : equalsIgnoringCase(name, "retry-after")           ? &retryAfter
        : equalsIgnoringCase(name, "content-encoding")      ? &contentEncoding
                                                            : nullptr;
    if (kept)
        *kept = trimmed(value).first(std::min(trimmed(value).size(), maxValueBytes)).toByteArray();
}

void HttpResponseParser::reset()
{
    *this = HttpResponseParser();
}

bool HttpResponseParser::fail(const QString& message)
{
    m_state = State::Error;
    m_error = message;
    return false;
}

bool HttpResponseParser::takeLine(QByteArrayView bytes, qsizetype& pos, QByteArrayView& line)
{
    const qsizetype lf = bytes.indexOf('\n', pos);
    if (lf < 0) {
        m_line.append(bytes.sliced(pos));
        pos = bytes.size();
        if (m_line.size() > maxLineBytes)
            fail(QStringLiteral("a header or chunk-size line longer than %1 bytes").arg(maxLineBytes));
        return false;
    }
    QByteArrayView part = bytes.sliced(pos, lf - pos);
    pos = lf + 1;
    if (m_line.isEmpty()) {
        line = part;
    } else {
        m_line.append(part);
        m_lineCopy = std::move(m_line);
        m_line = QByteArray();
        line = m_lineCopy;
    }
    if (!line.isEmpty() && line.back() == '\r')
        line.chop(1);
    return true;
}

bool HttpResponseParser::statusLine(QByteArrayView line)
{
    // HTTP/1.1 200 OK
    if (line.size() < 12 || !line.startsWith("HTTP/1.") || line[8] != ' ')
        return fail(QStringLiteral("not an HTTP/1.x status line: \"%1\"").arg(printable(line)));
    m_minorVersion = line[7] - '0';
    bool ok = false;
    const int status = line.sliced(9, 3).toInt(&ok);
    if (!ok || status < 100 || status > 999 || (line.size() > 12 && line[12] != ' '))
        return fail(QStringLiteral("not an HTTP/1.x status line: \"%1\"").arg(printable(line)));
    m_status = status;
    m_keepAlive = m_minorVersion >= 1;
    m_connectionHeaderSeen = false;
    m_chunked = false;
    m_chunkedCodings = 0;
    m_unknownCoding.clear();
    m_transferEncoding.clear();
    m_contentLength = -1;
    m_headerLines = 0;
    m_headers = {};
    m_state = State::Header;
    return true;
}

bool HttpResponseParser::headerLine(QByteArrayView line)
{
    if (++m_headerLines > maxHeaderLines)
        return fail(QStringLiteral("more than %1 header lines").arg(maxHeaderLines));
    const qsizetype colon = line.indexOf(':');
    if (colon <= 0)
        return fail(QStringLiteral("a header line without a name: \"%1\"").arg(printable(line)));
    const QByteArrayView name = line.first(colon);
    const QByteArrayView value = trimmed(line.sliced(colon + 1));
    if (equalsIgnoringCase(name, "content-length")) {
        bool ok = false;
        const qint64 length = value.toLongLong(&ok);
        if (!ok || length < 0 || (m_contentLength >= 0 && length != m_contentLength))
            return fail(QStringLiteral("an invalid Content-Length: \"%1\"").arg(printable(value)));
        m_contentLength = length;
    } else if (equalsIgnoringCase(name, "transfer-encoding")) {
        transferEncodingLine(value);
    } else if (equalsIgnoringCase(name, "connection")) {
        if (hasToken(value, "close")) {
            m_keepAlive = false;
            m_connectionHeaderSeen = true;
        } else if (hasToken(value, "keep-alive") && !m_connectionHeaderSeen) {
            m_keepAlive = true;
        }
    } else {
        m_headers.take(name, value);
    }
    return true;
}

// Each Transfer-Encoding line adds its codings to one list (RFC 9110 5.3: repeated lines are one
// comma-separated value).
void HttpResponseParser::transferEncodingLine(QByteArrayView value)
{
    if (m_transferEncoding.size() < ResponseHeaders::maxValueBytes) {
        if (!m_transferEncoding.isEmpty())
            m_transferEncoding += ", ";
        m_transferEncoding += value.first(std::min(value.size(), ResponseHeaders::maxValueBytes));
    }
    while (!value.isEmpty()) {
        const qsizetype comma = value.indexOf(',');
        QByteArrayView coding = trimmed(comma < 0 ? value : value.first(comma));
        if (const qsizetype semicolon = coding.indexOf(';'); semicolon >= 0) // parameters
            coding = trimmed(coding.first(semicolon));
        if (equalsIgnoringCase(coding, "chunked"))
            ++m_chunkedCodings;
        else if (!coding.isEmpty() && !equalsIgnoringCase(coding, "identity") && m_unknownCoding.isEmpty())
            m_unknownCoding = coding.first(std::min(coding.size(), qsizetype(120))).toByteArray();
        if (comma < 0)
            break;
        value = value.sliced(comma + 1);
    }
}

bool HttpResponseParser::headersEnded()
{
    if (m_status == 101)
        return fail(QStringLiteral("a 101 Switching Protocols response, though the request asked for no protocol "
                                   "upgrade"));
    if (m_status < 200) { // interim (100 Continue, 103 Early Hints): the real response follows
        m_state = State::StatusLine;
        return true;
    }
    const QString codings = printable(m_transferEncoding);
    if (!m_unknownCoding.isEmpty())
        return fail(QStringLiteral("the body has a transfer coding this client does not decode: \"%1\" "
                                   "(Transfer-Encoding: %2)")
                        .arg(printable(m_unknownCoding), codings));
    if (m_chunkedCodings > 1)
        return fail(QStringLiteral("chunked applied more than once (Transfer-Encoding: %1)").arg(codings));
    m_chunked = m_chunkedCodings == 1;
    // Transfer-Encoding wins over Content-Length (RFC 9112 6.3): a response with both may be an attempt
    // at response splitting, so the connection carries nothing more.
    if (m_chunked && m_contentLength >= 0) {
        m_contentLength = -1;
        m_keepAlive = false;
    }
    m_headersDone = true;
    if (m_status == 204 || m_status == 304) {
        m_state = State::Done;
    } else if (m_chunked) {
        m_state = State::ChunkSize;
    } else if (m_contentLength >= 0) {
        m_remaining = m_contentLength;
        m_state = m_remaining > 0 ? State::FixedBody : State::Done;
    } else {
        m_keepAlive = false;
        m_state = State::CloseBody;
    }
    return true;
}

bool HttpResponseParser::feed(QByteArrayView bytes, std::vector<QByteArrayView>& body)
{
    qsizetype pos = 0;
    const qsizetype size = bytes.size();
    while (pos < size) {
        QByteArrayView line;
        switch (m_state) {
        case State::StatusLine:
            if (!takeLine(bytes, pos, line))
                return !hasError();
            if (line.isEmpty() && m_status == 0)
                break; // tolerated: a stray line end before the response
            if (!statusLine(line))
                return false;
            break;
        case State::Header:
            if (!takeLine(bytes, pos, line))
                return !hasError();
            if (line.isEmpty() ? !headersEnded() : !headerLine(line))
                return false;
            break;
        case State::ChunkSize: {
            if (!takeLine(bytes, pos, line))
                return !hasError();
            const qsizetype semicolon = line.indexOf(';');
            const QByteArrayView digits = trimmed(semicolon < 0 ? line : line.first(semicolon));
            bool ok = false;
            const qint64 chunk = digits.toLongLong(&ok, 16);
            if (!ok || chunk < 0 || digits.isEmpty())
                return fail(QStringLiteral("an invalid chunk size: \"%1\"").arg(printable(line)));
            m_remaining = chunk;
            m_state = chunk == 0 ? State::Trailer : State::ChunkData;
            break;
        }
        case State::ChunkData: {
            const qint64 n = std::min<qint64>(m_remaining, size - pos);
            body.push_back(bytes.sliced(pos, n));
            pos += n;
            m_remaining -= n;
            if (m_remaining == 0)
                m_state = State::ChunkDataEnd;
            break;
        }
        case State::ChunkDataEnd:
            if (!takeLine(bytes, pos, line))
                return !hasError();
            if (!line.isEmpty())
                return fail(QStringLiteral("a chunk longer than its declared size"));
            m_state = State::ChunkSize;
            break;
        case State::Trailer:
            if (!takeLine(bytes, pos, line))
                return !hasError();
            if (line.isEmpty())
                m_state = State::Done;
            break;
        case State::FixedBody: {
            const qint64 n = std::min<qint64>(m_remaining, size - pos);
            body.push_back(bytes.sliced(pos, n));
            pos += n;
            m_remaining -= n;
            if (m_remaining == 0)
                m_state = State::Done;
            break;
        }
        case State::CloseBody:
            body.push_back(bytes.sliced(pos));
            pos = size;
            break;
        case State::Done:
            m_trailingBytes += size - pos;
            return true;
        case State::Error:
            return false;
        }
    }
    return true;
}

bool HttpResponseParser::finishOnClose()
{
    if (m_state == State::CloseBody)
        m_state = State::Done;
    return m_state == State::Done;
}

} // namespace kp
