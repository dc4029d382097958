#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <utility>
#include <vector>

namespace kp::sim {

// One HTTP/1.x request as read from a connection.
struct HttpRequest
{
    QByteArray method;
    QByteArray target; // origin-form as sent: path, then an optional ?query
    int minorVersion = 1; // HTTP/1.<minorVersion>
    std::vector<std::pair<QByteArray, QByteArray>> headers; // names lower-cased, values trimmed
    QByteArray body;
    bool keepAlive = true; // the connection stays open after the response

    // The first header with this (lower-case) name; a null QByteArray when absent.
    QByteArray header(QByteArrayView lowerName) const;
    QByteArrayView path() const;
    QByteArrayView query() const;
    // True for "?name", "?name=1", "?name=true" (among other parameters).
    bool queryFlag(QByteArrayView name) const;
    // The value of "?name=value"; null when the parameter is absent, empty for a bare "?name".
    QByteArray queryValue(QByteArrayView name) const;
};

struct HttpParseLimits
{
    qsizetype maxHeaderBytes = 64 * 1024;
    qsizetype maxBodyBytes = 32 * 1024 * 1024;
};

struct HttpParseResult
{
    enum class Status { NeedMore, Complete, Error };
    Status status = Status::NeedMore;
    qsizetype consumed = 0; // bytes of the input taken by the request (Complete only)
    HttpRequest request; // Complete only
    bool expectContinue = false; // NeedMore after complete headers that carry "Expect: 100-continue"
    int errorStatus = 0; // Error only: 400, 411, 413, 431 or 505; the connection cannot be reused
    QByteArray errorMessage;
};

// Parses one request from the start of data. Pure: call it again with more data after NeedMore, or
// with the rest of the data after Complete (pipelining). Request bodies need Content-Length; a chunked
// body is answered with 411.
HttpParseResult parseHttpRequest(QByteArrayView data, const HttpParseLimits& limits = {});

} // namespace kp::sim
