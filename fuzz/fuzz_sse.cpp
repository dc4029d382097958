// libFuzzer: the event-stream parser and what is built on it, with bytes split at arbitrary places.
#include "client/apiformats.h"
#include "client/responseaccumulator.h"
#include "client/sseparser.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArrayView all(reinterpret_cast<const char*>(data), qsizetype(size));
    // The first byte chooses where the body is split in two reads; the rest is the body.
    const qsizetype split = size > 0 ? qsizetype(data[0]) % (all.size() + 1) : 0;
    const QByteArrayView body = all.size() > 0 ? all.sliced(1) : all;
    const qsizetype at = std::min(split, body.size());

    kp::SseParser parser;
    std::vector<kp::SseEvent> events;
    parser.feed(body.first(at), events);
    parser.feed(body.sliced(at), events);
    parser.finish(events);
    // The fast path (simdjson) and the nlohmann DOM must agree on every event and whole body.
    for (const kp::SseEvent& e : events) {
        if (!(kp::SseChunk::classify(e.data) == kp::SseChunk::classifyDom(e.data)))
            __builtin_trap();
        // So must the typed formats' (Responses, Messages) fast path and their nlohmann path.
        for (const kp::ApiFormat format : { kp::ApiFormat::Responses, kp::ApiFormat::Messages }) {
            if (!(kp::classifyEvent(format, e.type, e.data) == kp::classifyEventDom(format, e.type, e.data)))
                __builtin_trap();
        }
    }
    if (!(kp::SseChunk::classify(parser.body()) == kp::SseChunk::classifyDom(parser.body())))
        __builtin_trap();

    for (const bool stream : { true, false }) {
        kp::HttpRequest request;
        request.url = QUrl(QStringLiteral("http://127.0.0.1:8000/v1/chat/completions"));
        request.chat = true;
        request.stream = stream;
        kp::ResponseAccumulator acc(request, 0);
        acc.onResponseStarted(split % 7 == 0 ? 500 : 200, 1);
        acc.onData(body.first(at), 2);
        acc.onData(body.sliced(at), 3);
        const kp::RequestRecord r = acc.finish(4, kp::FailureClass::None, {});
        if (r.generatedText.size() > kp::ResponseAccumulator::maxRetainedTextChars)
            __builtin_trap();
    }
    return 0;
}
