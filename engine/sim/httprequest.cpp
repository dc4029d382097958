#include "sim/httprequest.h"

namespace kp::sim {

namespace {

HttpParseResult failure(int status, const char* message)
{
    HttpParseResult result;
    result.status = HttpParseResult::Status::Error;
    result.errorStatus = status;
    result.errorMessage = QByteArray(message);
    return result;
}

bool isTokenChar(char c)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
        return true;
    switch (c) {
    case '!':
    case '#':
    case '$':
    case '%':
    case '&':
    case '\'':
    case '*':
    case '+':
    case '-':
    case '.':
    case '^':
    case '_':
    case '`':
    case '|':
    case '~':
        return true;
    default:
        return false;
    }
}

bool isToken(QByteArrayView text)
{
    if (text.isEmpty())
        return false;
    for (const char c : text) {
        if (!isTokenChar(c))
            return false;
    }
    return true;
}

bool parseContentLength(QByteArrayView text, qint64* value)
{
    if (text.isEmpty() || text.size() > 18)
        return false;
    qint64 n = 0;
    for (const char c : text) {
        if (c < '0' || c > '9')
            return false;
        n = n * 10 + (c - '0');
    }
    *value = n;
    return true;
}

bool containsToken(QByteArrayView list, QByteArrayView token)
{
    qsizetype from = 0;
    while (from <= list.size()) {
        qsizetype comma = list.indexOf(',', from);
        if (comma < 0)
            comma = list.size();
        if (list.sliced(from, comma - from).trimmed().compare(token, Qt::CaseInsensitive) == 0)
            return true;
        from = comma + 1;
    }
    return false;
}

} // namespace

QByteArray HttpRequest::header(QByteArrayView lowerName) const
{
    for (const auto& [name, value] : headers) {
        if (name == lowerName)
            return value;
    }
    return {};
}

QByteArrayView HttpRequest::path() const
{
    const qsizetype q = target.indexOf('?');
    return q < 0 ? QByteArrayView(target) : QByteArrayView(target).first(q);
}

QByteArrayView HttpRequest::query() const
{
    const qsizetype q = target.indexOf('?');
    return q < 0 ? QByteArrayView() : QByteArrayView(target).sliced(q + 1);
}

QByteArray HttpRequest::queryValue(QByteArrayView name) const
{
    const QByteArrayView all = query();
    qsizetype from = 0;
    while (from < all.size()) {
        qsizetype amp = all.indexOf('&', from);
        if (amp < 0)
            amp = all.size();
        const QByteArrayView item = all.sliced(from, amp - from);
        const qsizetype eq = item.indexOf('=');
        if ((eq < 0 ? item : item.first(eq)) == name)
            return eq < 0 ? QByteArray("") : item.sliced(eq + 1).toByteArray();
        from = amp + 1;
    }
    return {};
}

bool HttpRequest::queryFlag(QByteArrayView name) const
{
    const QByteArray value = queryValue(name);
    return !value.isNull() && (value.isEmpty() || value == "1" || value == "true" || value == "yes");
}

HttpParseResult parseHttpRequest(QByteArrayView data, const HttpParseLimits& limits)
{
    // Empty lines before a request line are ignored (RFC 9112, section 2.2).
    qsizetype start = 0;
    while (start < data.size() && (data[start] == '\r' || data[start] == '\n'))
        ++start;

    const qsizetype headerEnd = data.indexOf("\r\n\r\n", start);
    if (headerEnd < 0) {
        if (data.size() - start > limits.maxHeaderBytes)
            return failure(431, "request header section too large");
        // A request line that is already visibly wrong need not wait for the rest.
        const qsizetype firstLine = data.indexOf("\r\n", start);
        if (firstLine < 0 && data.size() - start > 8192)
            return failure(400, "request line too long");
        return {};
    }
    if (headerEnd - start > limits.maxHeaderBytes)
        return failure(431, "request header section too large");

    HttpParseResult result;
    HttpRequest& request = result.request;

    const QByteArrayView head = data.sliced(start, headerEnd - start);
    qsizetype lineEnd = head.indexOf("\r\n");
    if (lineEnd < 0)
        lineEnd = head.size();
    const QByteArrayView requestLine = head.first(lineEnd);

    const qsizetype sp1 = requestLine.indexOf(' ');
    const qsizetype sp2 = sp1 < 0 ? -1 : requestLine.indexOf(' ', sp1 + 1);
    if (sp1 <= 0 || sp2 < 0 || requestLine.indexOf(' ', sp2 + 1) >= 0)
        return failure(400, "malformed request line");
    const QByteArrayView method = requestLine.first(sp1);
    const QByteArrayView target = requestLine.sliced(sp1 + 1, sp2 - sp1 - 1);
    const QByteArrayView version = requestLine.sliced(sp2 + 1);
    if (!isToken(method))
        return failure(400, "malformed request method");
    if (target.isEmpty() || target[0] != '/')
        return failure(400, "request target must be an absolute path");
    for (const char c : target) {
        if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f)
            return failure(400, "malformed request target");
    }
    if (version.size() != 8 || !version.startsWith("HTTP/") || version[6] != '.')
        return failure(400, "malformed HTTP version");
    if (version[5] != '1' || version[7] < '0' || version[7] > '9')
        return failure(505, "HTTP version not supported");
    request.method = method.toByteArray();
    request.target = target.toByteArray();
    request.minorVersion = version[7] - '0';

    qint64 contentLength = -1;
    bool chunked = false;
    bool closeRequested = false;
    bool keepAliveRequested = false;
    qsizetype pos = lineEnd + 2;
    while (pos < head.size()) {
        qsizetype end = head.indexOf("\r\n", pos);
        if (end < 0)
            end = head.size();
        const QByteArrayView line = head.sliced(pos, end - pos);
        pos = end + 2;
        if (line.isEmpty())
            continue;
        if (line[0] == ' ' || line[0] == '\t')
            return failure(400, "obsolete header line folding");
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0 || !isToken(line.first(colon)))
            return failure(400, "malformed header line");
        QByteArray name = line.first(colon).toByteArray().toLower();
        const QByteArrayView value = line.sliced(colon + 1).trimmed();
        if (name == "content-length") {
            qint64 length = 0;
            if (!parseContentLength(value, &length))
                return failure(400, "invalid Content-Length");
            if (contentLength >= 0 && contentLength != length)
                return failure(400, "conflicting Content-Length headers");
            contentLength = length;
        } else if (name == "transfer-encoding") {
            chunked = true;
        } else if (name == "connection") {
            closeRequested = closeRequested || containsToken(value, "close");
            keepAliveRequested = keepAliveRequested || containsToken(value, "keep-alive");
        } else if (name == "expect") {
            result.expectContinue = value.compare("100-continue", Qt::CaseInsensitive) == 0;
        }
        request.headers.emplace_back(std::move(name), value.toByteArray());
    }

    if (chunked)
        return failure(411, "chunked request bodies are not supported: send Content-Length");
    if (contentLength > limits.maxBodyBytes)
        return failure(413, "request body too large");

    request.keepAlive = request.minorVersion >= 1 ? !closeRequested : keepAliveRequested && !closeRequested;

    const qsizetype bodyStart = headerEnd + 4;
    const qsizetype bodySize = contentLength < 0 ? 0 : qsizetype(contentLength);
    if (data.size() - bodyStart < bodySize) {
        result.status = HttpParseResult::Status::NeedMore;
        result.request = {};
        return result;
    }
    request.body = data.sliced(bodyStart, bodySize).toByteArray();
    result.status = HttpParseResult::Status::Complete;
    result.consumed = bodyStart + bodySize;
    result.expectContinue = false;
    return result;
}

} // namespace kp::sim
