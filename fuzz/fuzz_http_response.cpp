// libFuzzer: the socket client's HTTP/1.1 response parser, and the accumulator its body feeds, with the
// bytes split at an arbitrary place. The body it gives must not depend on where the reads were split,
// and what it reports must hold together (a final status, one framing, a length that is kept).
#include "client/httpresponseparser.h"
#include "client/responseaccumulator.h"

#include <cstddef>
#include <cstdint>

namespace {

struct Parsed
{
    QByteArray body;
    bool ok = true;
    bool done = false;
};

Parsed parse(QByteArrayView bytes, qsizetype step, kp::HttpResponseParser& parser)
{
    Parsed out;
    std::vector<QByteArrayView> parts;
    for (qsizetype pos = 0; pos < bytes.size() && out.ok; pos += step) {
        parts.clear();
        out.ok = parser.feed(bytes.sliced(pos, std::min(step, bytes.size() - pos)), parts);
        for (const QByteArrayView& p : parts)
            out.body += p;
    }
    out.done = out.ok && parser.finishOnClose();
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArrayView all(reinterpret_cast<const char*>(data), qsizetype(size));
    // The first byte chooses where the response is split in two reads; the rest is the response.
    const QByteArrayView bytes = all.isEmpty() ? all : all.sliced(1);
    const qsizetype at = all.isEmpty() ? 0 : qsizetype(data[0]) % (bytes.size() + 1);

    kp::HttpResponseParser parser;
    std::vector<QByteArrayView> first;
    std::vector<QByteArrayView> second;
    bool ok = parser.feed(bytes.first(at), first);
    if (ok)
        ok = parser.feed(bytes.sliced(at), second);
    if (!ok && parser.error().isEmpty())
        __builtin_trap(); // a refusal always says why
    qsizetype bodyBytes = 0;
    for (const auto* parts : { &first, &second }) {
        for (const QByteArrayView& p : *parts)
            bodyBytes += p.size();
    }
    if (bodyBytes > bytes.size())
        __builtin_trap();
    const bool done = ok && parser.finishOnClose();
    // The response whose body is read is a final one (1xx are interim; an unasked 101 is refused), and its
    // body is framed one way: Transfer-Encoding wins over Content-Length and leaves the connection
    // unfit for another request; a finished body with a length has exactly that length.
    if (parser.headersDone() && (parser.status() < 200 || parser.status() > 999))
        __builtin_trap();
    if (parser.chunked() && parser.contentLength() >= 0)
        __builtin_trap();
    if (done && !parser.chunked() && parser.contentLength() >= 0 && parser.status() != 204 && parser.status() != 304
        && bodyBytes != parser.contentLength())
        __builtin_trap();

    // Read a byte at a time, the same response gives the same body and the same end.
    if (bytes.size() <= 4096) {
        kp::HttpResponseParser bytewise;
        const Parsed one = parse(bytes, 1, bytewise);
        kp::HttpResponseParser whole;
        const Parsed atOnce = parse(bytes, bytes.size() > 0 ? bytes.size() : 1, whole);
        if (one.ok != atOnce.ok || one.done != atOnce.done || (one.ok && one.body != atOnce.body)
            || bytewise.status() != whole.status() || !(bytewise.headers() == whole.headers()))
            __builtin_trap();
    }

    // What the transport does with it: the status and headers, then the body, then the end.
    kp::HttpRequest request;
    request.url = QUrl(QStringLiteral("http://127.0.0.1:8000/v1/completions"));
    kp::ResponseAccumulator acc(request, 0);
    if (parser.headersDone())
        acc.onResponseStarted(parser.status(), 1, parser.headers());
    for (const auto* parts : { &first, &second }) {
        for (const QByteArrayView& p : *parts)
            acc.onData(p, 2);
    }
    const kp::RequestRecord r = acc.finish(
        3, done ? kp::FailureClass::None : kp::FailureClass::StreamCut, done ? QString() : QStringLiteral("cut"));
    if (r.generatedText.size() > kp::ResponseAccumulator::maxRetainedTextChars)
        __builtin_trap();
    return 0;
}
