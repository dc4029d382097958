#include "client/apiformats.h"
#include "client/responseaccumulator.h"
#include "client/sseparser.h"
#include "metrics/stepmetrics.h"

#include <QtTest>

#include <nlohmann/json.hpp>

using namespace kp;

using Events = std::vector<SseEvent>;
Q_DECLARE_METATYPE(Events)
Q_DECLARE_METATYPE(kp::SseBodyKind)
Q_DECLARE_METATYPE(kp::SseChunk::Kind)
Q_DECLARE_METATYPE(kp::ApiFormat)

namespace {

SseEvent ev(const char* data, const char* type = "", const char* id = "")
{
    return SseEvent { QByteArray(type), QByteArray(data), QByteArray(id) };
}

struct Result
{
    Events events;
    SseBodyKind kind = SseBodyKind::Unknown;
    bool endedWithoutBlankLine = false;
    QByteArray body;
    qint64 bytesFed = 0;
};

// Feeds `stream` in pieces cut at `cuts` (ascending offsets), then finishes.
Result parse(const QByteArray& stream, const std::vector<qsizetype>& cuts)
{
    SseParser parser;
    Result result;
    qsizetype start = 0;
    for (qsizetype cut : cuts) {
        parser.feed(QByteArrayView(stream).sliced(start, cut - start), result.events);
        start = cut;
    }
    parser.feed(QByteArrayView(stream).sliced(start), result.events);
    parser.finish(result.events);
    result.kind = parser.bodyKind();
    result.endedWithoutBlankLine = parser.endedWithoutBlankLine();
    result.body = parser.body();
    result.bytesFed = parser.bytesFed();
    return result;
}

QByteArray describe(const Events& events)
{
    QByteArray out;
    for (const SseEvent& e : events)
        out += "[type=" + e.type + " id=" + e.id + " data=" + e.data + "]";
    return out;
}

const QByteArray vllmCompletions
    = "data: {\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"choices\":[{\"index\":0,\"text\":\" "
      "Hello\",\"finish_reason\":null}]}\n\n"
      "data: {\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"choices\":[{\"index\":0,\"text\":\" "
      "world\",\"finish_reason\":\"length\"}]}\n\n"
      "data: "
      "{\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"total_"
      "tokens\":7,\"completion_tokens\":2}}\n\n"
      "data: [DONE]\n\n";

const QByteArray vllmChat
    = "data: "
      "{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n"
      "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Bonjour\"},\"finish_reason\":null}]}\n\n"
      "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\" à tous 👋\"},\"finish_reason\":\"stop\"}]}\n\n"
      "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":3}}\n\n"
      "data: [DONE]\n\n";

// OpenAI's Responses stream as https://platform.openai.com/docs/api-reference/responses-streaming shows
// it: a reasoning summary, then the answer; one event of a type the client does not know.
const QByteArray responsesStream
    = "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_1\","
      "\"status\":\"in_progress\",\"usage\":null},\"sequence_number\":0}\n\n"
      "event: response.reasoning_summary_text.delta\ndata: {\"type\":\"response.reasoning_summary_text.delta\","
      "\"delta\":\"Think\",\"sequence_number\":1}\n\n"
      "event: response.future_thing\ndata: {\"type\":\"response.future_thing\",\"sequence_number\":2}\n\n"
      "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"delta\":\"Hé\","
      "\"sequence_number\":3}\n\n"
      "event: response.output_text.delta\r\ndata: {\"type\":\"response.output_text.delta\",\"delta\":\" là 👋\","
      "\"sequence_number\":4}\r\n\r\n"
      "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_1\","
      "\"status\":\"completed\",\"usage\":{\"input_tokens\":11,\"input_tokens_details\":{\"cached_tokens\":4},"
      "\"output_tokens\":7,\"output_tokens_details\":{\"reasoning_tokens\":2},\"total_tokens\":18}},"
      "\"sequence_number\":5}\n\n";

// Anthropic's Messages stream (https://docs.anthropic.com/en/docs/build-with-claude/streaming): thinking,
// then text; a ping; a block type the client does not know. No [DONE].
const QByteArray messagesStream
    = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":"
      "\"message\",\"role\":\"assistant\",\"content\":[],\"usage\":{\"input_tokens\":9,"
      "\"cache_read_input_tokens\":3,\"output_tokens\":1}}}\n\n"
      "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{"
      "\"type\":\"thinking\",\"thinking\":\"\"}}\n\n"
      "event: ping\ndata: {\"type\":\"ping\"}\n\n"
      "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":"
      "\"thinking_delta\",\"thinking\":\"Hmm\"}}\n\n"
      "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":"
      "\"signature_delta\",\"signature\":\"abc\"}}\n\n"
      "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
      "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":"
      "\"text_delta\",\"text\":\"Bonjour\"}}\n\n"
      "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":"
      "\"hologram_delta\"}}\n\n"
      "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":"
      "\"text_delta\",\"text\":\" à tous\"}}\n\n"
      "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\","
      "\"stop_sequence\":null},\"usage\":{\"output_tokens\":6}}\n\n"
      "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";

// What a transport takes from a typed stream: the token-bearing events, text, reasoning, usage, the end.
struct Folded
{
    int choices = 0;
    QString text;
    QString reasoning;
    qint64 promptTokens = -1;
    qint64 completionTokens = -1;
    qint64 cachedTokens = -1;
    qint64 reasoningTokens = -1;
    QStringList unknown;
    bool done = false;
    int eventsAfterDone = 0;
};

Folded fold(ApiFormat format, const QByteArray& stream, qsizetype cut)
{
    SseParser parser;
    Events events;
    parser.feed(QByteArrayView(stream).first(cut), events);
    parser.feed(QByteArrayView(stream).sliced(cut), events);
    parser.finish(events);
    Folded f;
    for (const SseEvent& e : events) {
        const SseChunk chunk = classifyEvent(format, e.type, e.data);
        if (f.done)
            ++f.eventsAfterDone;
        if (chunk.kind == SseChunk::Kind::Choices) {
            ++f.choices;
            f.text += chunk.text;
            f.reasoning += chunk.reasoning;
        }
        if (chunk.promptTokens)
            f.promptTokens = *chunk.promptTokens;
        if (chunk.completionTokens)
            f.completionTokens = *chunk.completionTokens;
        if (chunk.cachedTokens)
            f.cachedTokens = *chunk.cachedTokens;
        if (chunk.reasoningTokens)
            f.reasoningTokens = *chunk.reasoningTokens;
        if (!chunk.unknownEvent.isEmpty())
            f.unknown << chunk.unknownEvent;
        f.done = f.done || chunk.kind == SseChunk::Kind::Done;
    }
    return f;
}

} // namespace

class TestSseParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void whole_data() { addStreams(); }
    void whole();
    void splitAtEveryOffset_data() { addStreams(); }
    void splitAtEveryOffset();
    void byteByByte_data() { addStreams(); }
    void byteByByte();
    void threePieces_data() { addStreams(); }
    void threePieces();

    void retryAndLastEventId();
    void headAndBodyOfNonSse();
    void bodyIsCapped();
    void resetStartsOver();
    void finishIsIdempotent();

    void classify_data();
    void classify();
    void wordsCountedOnUtf8Bytes();
    void fastPathMatchesDom_data();
    void fastPathMatchesDom();
    void typedFastPathMatchesDom_data();
    void typedFastPathMatchesDom();
    void classifyStreamsEndToEnd();
    void responsesStreamAtEveryOffset();
    void messagesStreamAtEveryOffset();
    void classifyReply_data();
    void classifyReply();
    void typedErrorEvents();
    void reasoningIsNotAnswer_data();
    void reasoningIsNotAnswer();
    void unknownEventTypesAreBounded();
    void impossibleUsageIsNotTrusted();

private:
    void addStreams();
    void check(const Result& result);
};

void TestSseParser::addStreams()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<Events>("expected");
    QTest::addColumn<SseBodyKind>("kind");
    QTest::addColumn<bool>("endedWithoutBlankLine");

    const auto sse = SseBodyKind::EventStream;
    QTest::addRow("vLLM completions with usage and [DONE]")
        << vllmCompletions
        << Events { ev("{\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"choices\":[{\"index\":0,\"text\":\" "
                       "Hello\",\"finish_reason\":null}]}"),
               ev("{\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"choices\":[{\"index\":0,\"text\":\" "
                  "world\",\"finish_reason\":\"length\"}]}"),
               ev("{\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"choices\":[],\"usage\":{\"prompt_tokens\":5,"
                  "\"total_tokens\":7,\"completion_tokens\":2}}"),
               ev("[DONE]") }
        << sse << false;
    QTest::addRow("vLLM chat, UTF-8 split anywhere")
        << vllmChat
        << Events { ev("{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_"
                       "reason\":null}]}"),
               ev("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Bonjour\"},\"finish_reason\":null}]}"),
               ev("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\" à tous 👋\"},\"finish_reason\":\"stop\"}]}"),
               ev("{\"choices\":[],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":3}}"), ev("[DONE]") }
        << sse << false;
    QTest::addRow("data: without the space")
        << QByteArray("data:{\"a\":1}\n\ndata:[DONE]\n\n") << Events { ev("{\"a\":1}"), ev("[DONE]") } << sse << false;
    QTest::addRow("only one space is removed") << QByteArray("data:  two\n\n") << Events { ev(" two") } << sse << false;
    QTest::addRow("CRLF") << QByteArray("data: a\r\n\r\ndata: b\r\n\r\n") << Events { ev("a"), ev("b") } << sse
                          << false;
    QTest::addRow("CR only") << QByteArray("data: a\r\rdata: b\r\r") << Events { ev("a"), ev("b") } << sse << false;
    QTest::addRow("mixed line ends") << QByteArray("data: a\r\n\ndata: b\n\r\ndata: c\r\r\n")
                                     << Events { ev("a"), ev("b"), ev("c") } << sse << false;
    QTest::addRow("comments and keep-alives")
        << QByteArray(": ping\n\ndata: x\n: in the middle\ndata: y\n\n:\n\n") << Events { ev("x\ny") } << sse << false;
    QTest::addRow("event, id and retry fields")
        << QByteArray("event: error\nid: 7\nretry: 3000\ndata: {\"error\":\"boom\"}\n\ndata: after\n\n")
        << Events { ev("{\"error\":\"boom\"}", "error", "7"), ev("after", "", "7") } << sse << false;
    QTest::addRow("multi-line data joined with LF")
        << QByteArray("data: line1\ndata: line2\ndata:\n\n") << Events { ev("line1\nline2\n") } << sse << false;
    QTest::addRow("field name alone is an empty value")
        << QByteArray("data\n\ndata\ndata\n\n") << Events { ev(""), ev("\n") } << sse << false;
    QTest::addRow("event without data dispatches nothing")
        << QByteArray("event: ping\n\ndata: y\n\n") << Events { ev("y") } << sse << false;
    QTest::addRow("colon in the value") << QByteArray("data: a:b: c\n\n") << Events { ev("a:b: c") } << sse << false;
    QTest::addRow("unknown fields are ignored")
        << QByteArray("foo: bar\ndata: z\nbaz\n\n") << Events { ev("z") } << SseBodyKind::Other << false;
    QTest::addRow("byte order mark") << QByteArray("\xEF\xBB\xBF"
                                                   "data: bom\n\n")
                                     << Events { ev("bom") } << sse << false;
    QTest::addRow("no blank line before the end")
        << QByteArray("data: a\n\ndata: [DONE]\n") << Events { ev("a"), ev("[DONE]") } << sse << true;
    QTest::addRow("no line end at all before the end")
        << QByteArray("data: a\n\ndata: [DONE]") << Events { ev("a"), ev("[DONE]") } << sse << true;
    QTest::addRow("cut in the middle of a field name")
        << QByteArray("data: a\n\nda") << Events { ev("a") } << sse << true;
    QTest::addRow("id persists, empty id resets")
        << QByteArray("id: 1\ndata: a\n\ndata: b\n\nid\ndata: c\n\n")
        << Events { ev("a", "", "1"), ev("b", "", "1"), ev("c") } << sse << false;
    QTest::addRow("blank lines before the first event")
        << QByteArray("\n\r\n\ndata: late\n\n") << Events { ev("late") } << sse << false;
    QTest::addRow("JSON body") << QByteArray(
        "{\"error\":{\"message\":\"The model `x` does not exist.\",\"type\":\"NotFoundError\",\"code\":404}}")
                               << Events {} << SseBodyKind::Json << true;
    QTest::addRow("JSON body after whitespace")
        << QByteArray("  \n[1, 2]\n") << Events {} << SseBodyKind::Json << false;
    QTest::addRow("HTML error page") << QByteArray("<html><body>502 Bad Gateway</body></html>\n") << Events {}
                                     << SseBodyKind::Other << false;
    QTest::addRow("empty body") << QByteArray() << Events {} << SseBodyKind::Unknown << false;
}

void TestSseParser::check(const Result& result)
{
    QFETCH(Events, expected);
    QFETCH(SseBodyKind, kind);
    QFETCH(bool, endedWithoutBlankLine);
    QCOMPARE(describe(result.events), describe(expected));
    QVERIFY(result.events == expected);
    QCOMPARE(result.kind, kind);
    QCOMPARE(result.endedWithoutBlankLine, endedWithoutBlankLine);
}

void TestSseParser::whole()
{
    QFETCH(QByteArray, stream);
    const Result result = parse(stream, {});
    check(result);
    QCOMPARE(result.bytesFed, qint64(stream.size()));
    if (result.kind == SseBodyKind::EventStream)
        QVERIFY(result.body.isEmpty());
    else
        QCOMPARE(result.body, stream);
}

void TestSseParser::splitAtEveryOffset()
{
    QFETCH(QByteArray, stream);
    for (qsizetype cut = 0; cut <= stream.size(); ++cut) {
        check(parse(stream, { cut }));
        if (QTest::currentTestFailed())
            QFAIL(qPrintable(QStringLiteral("split at byte %1").arg(cut)));
    }
}

void TestSseParser::byteByByte()
{
    QFETCH(QByteArray, stream);
    std::vector<qsizetype> cuts;
    for (qsizetype i = 1; i < stream.size(); ++i)
        cuts.push_back(i);
    check(parse(stream, cuts));
}

void TestSseParser::threePieces()
{
    QFETCH(QByteArray, stream);
    // Every pair of cuts for short streams; a stride keeps the long ones fast.
    const qsizetype step = stream.size() > 200 ? 7 : 1;
    for (qsizetype first = 0; first <= stream.size(); first += step) {
        for (qsizetype second = first; second <= stream.size(); ++second) {
            check(parse(stream, { first, second }));
            if (QTest::currentTestFailed())
                QFAIL(qPrintable(QStringLiteral("cuts at %1 and %2").arg(first).arg(second)));
        }
    }
}

void TestSseParser::retryAndLastEventId()
{
    SseParser parser;
    QVERIFY(!parser.retryMs().has_value());
    const char lines[] = "retry: 1500\nretry: abc\nretry: 12x\nretry:\nid: 42\nid: a\0b\n\n";
    QVERIFY(parser.feed(QByteArrayView(lines, sizeof lines - 1)).empty());
    QCOMPARE(parser.retryMs().value(), qint64(1500));
    QCOMPARE(parser.lastEventId(), QByteArray("42"));
    const Events events = parser.feed("data: x\n\n");
    QCOMPARE(events.size(), std::size_t(1));
    QCOMPARE(events.front().id, QByteArray("42"));
}

void TestSseParser::headAndBodyOfNonSse()
{
    SseParser parser;
    const QByteArray reply
        = "{\"id\":\"chatcmpl-1\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Hi\"}}]}";
    parser.feed(QByteArrayView(reply).first(10));
    QCOMPARE(parser.bodyKind(), SseBodyKind::Json); // known from the first byte
    parser.feed(QByteArrayView(reply).sliced(10));
    QVERIFY(parser.finish().empty());
    QCOMPARE(parser.body(), reply);
    QCOMPARE(parser.head(), reply);

    SseParser stream;
    stream.feed(vllmCompletions);
    QCOMPARE(stream.bodyKind(), SseBodyKind::EventStream);
    QVERIFY(stream.body().isEmpty()); // an event stream is not kept
    QCOMPARE(stream.head(), vllmCompletions.left(SseParser::maxHeadBytes));
}

void TestSseParser::bodyIsCapped()
{
    SseParser parser;
    const QByteArray big(SseParser::maxBodyBytes / 2 + 10, 'x');
    parser.feed("<");
    parser.feed(big);
    parser.feed(big);
    parser.finish();
    QCOMPARE(parser.bodyKind(), SseBodyKind::Other);
    QCOMPARE(parser.body().size(), SseParser::maxBodyBytes);
    QCOMPARE(parser.head().size(), SseParser::maxHeadBytes);
    QCOMPARE(parser.bytesFed(), qint64(1 + 2 * big.size()));
}

void TestSseParser::resetStartsOver()
{
    SseParser parser;
    parser.feed("event: x\nid: 3\ndata: part");
    parser.reset();
    QCOMPARE(parser.bytesFed(), qint64(0));
    QCOMPARE(parser.bodyKind(), SseBodyKind::Unknown);
    const Events events = parser.feed("data: fresh\n\n");
    QCOMPARE(describe(events), describe(Events { ev("fresh") }));
}

void TestSseParser::finishIsIdempotent()
{
    SseParser parser;
    parser.feed("data: a");
    QCOMPARE(parser.finish().size(), std::size_t(1));
    QVERIFY(parser.isFinished());
    QVERIFY(parser.finish().empty());
}

void TestSseParser::classify_data()
{
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<SseChunk::Kind>("kind");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("reasoning");
    QTest::addColumn<QString>("finishReason");
    QTest::addColumn<qint64>("completionTokens"); // -1: absent
    QTest::addColumn<qint64>("promptTokens");
    QTest::addColumn<QString>("error"); // a prefix of errorMessage

    using K = SseChunk::Kind;
    const QString none;
    QTest::addRow("[DONE]") << QByteArray("[DONE]") << K::Done << none << none << none << -1ll << -1ll << none;
    QTest::addRow("[DONE] with spaces") << QByteArray(" [DONE] \n") << K::Done << none << none << none << -1ll << -1ll
                                        << none;
    QTest::addRow("empty") << QByteArray("") << K::Empty << none << none << none << -1ll << -1ll << none;
    // Found by fuzz_sse: well-formed JSON whose number does not fit a double must not end the process.
    QTest::addRow("number beyond double")
        << QByteArray(R"({"choices":[{"text":"x"}],"n":1e99999})") << K::Malformed << none << none << none << -1ll
        << -1ll << QStringLiteral("unreadable JSON (number overflow parsing '1e99999'): ");
    QTest::addRow("completions text") << QByteArray(
        R"({"id":"c","object":"text_completion","choices":[{"index":0,"text":" Hi","logprobs":null,"finish_reason":null}]})")
                                      << K::Choices << QStringLiteral(" Hi") << none << none << -1ll << -1ll << none;
    QTest::addRow("completions empty text still counts")
        << QByteArray(R"({"choices":[{"text":""}]})") << K::Choices << none << none << none << -1ll << -1ll << none;
    QTest::addRow("chat role delta, empty content") << QByteArray(
        R"({"choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]})")
                                                    << K::Choices << none << none << none << -1ll << -1ll << none;
    QTest::addRow("chat content") << QByteArray(R"({"choices":[{"index":0,"delta":{"content":"Bonjour à tous 👋"}}]})")
                                  << K::Choices << QStringLiteral("Bonjour à tous 👋") << none << none << -1ll << -1ll
                                  << none;
    QTest::addRow("chat null content") << QByteArray(R"({"choices":[{"delta":{"content":null}}]})") << K::Choices
                                       << none << none << none << -1ll << -1ll << none;
    QTest::addRow("chat finish, empty delta")
        << QByteArray(R"({"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]})") << K::Choices << none << none
        << QStringLiteral("stop") << -1ll << -1ll << none;
    QTest::addRow("reasoning delta") << QByteArray(R"({"choices":[{"delta":{"reasoning_content":"hmm"}}]})")
                                     << K::Choices << none << QStringLiteral("hmm") << none << -1ll << -1ll << none;
    QTest::addRow("usage with empty choices") << QByteArray(
        R"({"id":"c","choices":[],"usage":{"prompt_tokens":12,"total_tokens":46,"completion_tokens":34}})")
                                              << K::Usage << none << none << none << 34ll << 12ll << none;
    QTest::addRow("usage without choices") << QByteArray(R"({"usage":{"prompt_tokens":1,"completion_tokens":2}})")
                                           << K::Usage << none << none << none << 2ll << 1ll << none;
    QTest::addRow("usage along with choices") << QByteArray(
        R"({"choices":[{"text":"!","finish_reason":"length"}],"usage":{"prompt_tokens":3,"completion_tokens":16}})")
                                              << K::Choices << QStringLiteral("!") << none << QStringLiteral("length")
                                              << 16ll << 3ll << none;
    QTest::addRow("usage null, empty choices")
        << QByteArray(R"({"choices":[],"usage":null})") << K::Other << none << none << none << -1ll << -1ll << none;
    QTest::addRow("choices null") << QByteArray(R"({"choices":null})") << K::Other << none << none << none << -1ll
                                  << -1ll << none;
    QTest::addRow("no choices key") << QByteArray(R"({"id":"x","object":"text_completion"})") << K::Other << none
                                    << none << none << -1ll << -1ll << none;
    QTest::addRow("non-streamed chat reply") << QByteArray(
        R"({"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Hello"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":1}})")
                                             << K::Choices << QStringLiteral("Hello") << none << QStringLiteral("stop")
                                             << 1ll << 5ll << none;
    QTest::addRow("OpenAI error object") << QByteArray(
        R"({"error":{"message":"The model `x` does not exist.","type":"NotFoundError","param":null,"code":404}})")
                                         << K::Error << none << none << none << -1ll << -1ll
                                         << QStringLiteral("The model `x` does not exist. (NotFoundError, code 404)");
    QTest::addRow("error string") << QByteArray(R"({"error":"boom"})") << K::Error << none << none << none << -1ll
                                  << -1ll << QStringLiteral("boom");
    QTest::addRow("vLLM ErrorResponse") << QByteArray(
        R"({"object":"error","message":"max_tokens is too large","type":"BadRequestError","param":null,"code":400})")
                                        << K::Error << none << none << none << -1ll << -1ll
                                        << QStringLiteral("max_tokens is too large (BadRequestError, code 400)");
    QTest::addRow("error wins over choices")
        << QByteArray(R"({"choices":[{"text":"a"}],"error":{"message":"oom"}})") << K::Error << none << none << none
        << -1ll << -1ll << QStringLiteral("oom");
    QTest::addRow("error null is no error") << QByteArray(R"({"choices":[{"text":"a"}],"error":null})") << K::Choices
                                            << QStringLiteral("a") << none << none << -1ll << -1ll << none;
    QTest::addRow("bad JSON") << QByteArray("{\"choices\":[{\"text\":\"a\"}") << K::Malformed << none << none << none
                              << -1ll << -1ll << QStringLiteral("invalid JSON at byte");
    QTest::addRow("not an object") << QByteArray("[1,2]") << K::Malformed << none << none << none << -1ll << -1ll
                                   << QStringLiteral("expected a JSON object, found array");
    QTest::addRow("choices not an array") << QByteArray(R"({"choices":{"text":"a"}})") << K::Malformed << none << none
                                          << none << -1ll << -1ll << QStringLiteral("\"choices\" is not an array");
    QTest::addRow("choices[0] not an object")
        << QByteArray(R"({"choices":[1]})") << K::Malformed << none << none << none << -1ll << -1ll
        << QStringLiteral("\"choices[0]\" is not an object");
    QTest::addRow("invalid UTF-8 in a string")
        << QByteArray("{\"choices\":[{\"text\":\"\xC3\x28\"}]}") << K::Malformed << none << none << none << -1ll << -1ll
        << QStringLiteral("invalid UTF-8 at byte 22: {\"choices\":[{\"text\":\"\uFFFD(\"}]}");
}

void TestSseParser::classify()
{
    QFETCH(QByteArray, data);
    QFETCH(SseChunk::Kind, kind);
    QFETCH(QString, text);
    QFETCH(QString, reasoning);
    QFETCH(QString, finishReason);
    QFETCH(qint64, completionTokens);
    QFETCH(qint64, promptTokens);
    QFETCH(QString, error);

    const SseChunk chunk = SseChunk::classify(data);
    QVERIFY(SseChunk::classifyDom(data) == chunk);
    QCOMPARE(chunk.kind, kind);
    QCOMPARE(chunk.text, text);
    QCOMPARE(chunk.hasText(), !text.isEmpty());
    QCOMPARE(chunk.reasoning, reasoning);
    QCOMPARE(chunk.finishReason, finishReason);
    QCOMPARE(chunk.completionTokens.value_or(-1), completionTokens);
    QCOMPARE(chunk.promptTokens.value_or(-1), promptTokens);
    if (error.isEmpty())
        QVERIFY2(chunk.errorMessage.isEmpty(), qPrintable(chunk.errorMessage));
    else
        QVERIFY2(chunk.errorMessage.startsWith(error), qPrintable(chunk.errorMessage));
}

// The accumulator counts words on the server's UTF-8 bytes and decodes the text once: the count must be
// the one QChar::isSpace gives over the decoded text, for every kind of Unicode white space, with words
// and multi-byte characters running across events.
void TestSseParser::wordsCountedOnUtf8Bytes()
{
    const QString text
        = QStringLiteral("a\u00A0b\u3000c d\u2028e\u200Bf\u2009g\u0085h\u1680i\u205Fj\u202Fk\u2029l\u200Am"
                         "\tn\u00E9\U0001F44B o\u00A0");
    int expected = 0;
    bool inWord = false;
    for (const QChar c : text) {
        if (!c.isSpace() && !inWord)
            ++expected;
        inWord = !c.isSpace();
    }
    QCOMPARE(expected, 14); // "e\u200Bf": a zero-width space is no white space

    HttpRequest request;
    request.url = QUrl(QStringLiteral("http://127.0.0.1:8000/v1/chat/completions"));
    request.chat = true;
    ResponseAccumulator acc(request, 0);
    acc.onResponseStarted(200, 1);
    // One event per character, words split across events; JSON escapes for some of them.
    qint64 t = 2;
    for (qsizetype i = 0; i < text.size(); ++i) {
        QString piece(text[i]);
        if (text[i].isHighSurrogate())
            piece += text[++i];
        const std::string json = nlohmann::json(piece.toStdString()).dump(-1, ' ', i % 2 == 0);
        acc.onData("data: {\"choices\":[{\"delta\":{\"content\":" + QByteArray::fromStdString(json) + "}}]}\n\n", t++);
    }
    acc.onData("data: [DONE]\n\n", t);
    const RequestRecord r = acc.finish(t, FailureClass::None, {});
    QVERIFY2(r.success(), qPrintable(r.errorMessage));
    QCOMPARE(r.generatedText, text);
    QCOMPARE(r.outputTokens, expected);
}

// classify() decides most events with simdjson and hands the rest to the nlohmann DOM: both must give the
// same chunk for every input, including the corners where the two libraries differ.
void TestSseParser::fastPathMatchesDom_data()
{
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<SseChunk::Kind>("kind");
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("completionTokens"); // -1: absent

    using K = SseChunk::Kind;
    const QString none;
    QTest::addRow("duplicate text: the last wins")
        << QByteArray(R"({"choices":[{"text":"a","text":"b"}]})") << K::Choices << QStringLiteral("b") << -1ll;
    QTest::addRow("duplicate choices: the last wins")
        << QByteArray(R"({"choices":[{"text":"a"}],"choices":[]})") << K::Other << none << -1ll;
    QTest::addRow("duplicate usage: the last wins")
        << QByteArray(R"({"usage":{"completion_tokens":1},"usage":{"completion_tokens":7}})") << K::Usage << none
        << 7ll;
    QTest::addRow("duplicate error: null last") << QByteArray(R"({"error":"x","choices":[{"text":"a"}],"error":null})")
                                                << K::Choices << QStringLiteral("a") << -1ll;
    QTest::addRow("fractional count rounds")
        << QByteArray(R"({"usage":{"completion_tokens":2.5}})") << K::Usage << none << 3ll;
    QTest::addRow("negative count") << QByteArray(R"({"usage":{"completion_tokens":-4}})") << K::Usage << none << -4ll;
    QTest::addRow("count as a string is absent")
        << QByteArray(R"({"usage":{"completion_tokens":"4"}})") << K::Other << none << -1ll;
    QTest::addRow("integer beyond 64 bits")
        << QByteArray(R"({"usage":{"completion_tokens":1},"n":123456789012345678901234})") << K::Usage << none << 1ll;
    QTest::addRow("unsigned 64-bit integer")
        << QByteArray(R"({"usage":{"completion_tokens":1},"n":18446744073709551615})") << K::Usage << none << 1ll;
    QTest::addRow("escapes") << QByteArray(R"({"choices":[{"text":"a\n\"\u00e9\ud83d\udc4b\/"}]})") << K::Choices
                             << QStringLiteral("a\n\"é👋/") << -1ll;
    QTest::addRow("lone high surrogate") << QByteArray(R"({"choices":[{"text":"\ud800"}]})") << K::Malformed << none
                                         << -1ll;
    QTest::addRow("lone low surrogate") << QByteArray(R"({"choices":[{"text":"\udc00x"}]})") << K::Malformed << none
                                        << -1ll;
    QTest::addRow("control character in a string")
        << QByteArray("{\"choices\":[{\"text\":\"a\tb\"}]}") << K::Malformed << none << -1ll;
    QTest::addRow("trailing garbage") << QByteArray(R"({"choices":[{"text":"a"}]} x)") << K::Malformed << none << -1ll;
    QTest::addRow("two documents") << QByteArray(R"({} {})") << K::Malformed << none << -1ll;
    QTest::addRow("trailing comma") << QByteArray(R"({"choices":[{"text":"a"},]})") << K::Malformed << none << -1ll;
    QTest::addRow("text not a string") << QByteArray(R"({"choices":[{"text":5}]})") << K::Choices << none << -1ll;
    QTest::addRow("delta not an object") << QByteArray(R"({"choices":[{"delta":"x"}]})") << K::Choices << none << -1ll;
    QTest::addRow("object error with choices")
        << QByteArray(R"({"object":"error","choices":[{"text":"a"}],"message":"m"})") << K::Error << none << -1ll;
    QTest::addRow("object not error") << QByteArray(
        R"({"object":"chat.completion.chunk","choices":[{"delta":{"content":"z"}}]})")
                                      << K::Choices << QStringLiteral("z") << -1ll;
    QTest::addRow("a string") << QByteArray(R"("text")") << K::Malformed << none << -1ll;
    QTest::addRow("null") << QByteArray("null") << K::Malformed << none << -1ll;
    QTest::addRow("deep nesting") << QByteArray(R"({"choices":[{"text":"a"}],"x":)") + QByteArray(3000, '[')
            + QByteArray(3000, ']') + "}"
                                  << K::Choices << QStringLiteral("a") << -1ll;
    QTest::addRow("large event, DOM path")
        << QByteArray(R"({"choices":[{"text":")") + QByteArray(70 * 1024, 'w') + R"("}]})" << K::Choices
        << QString(70 * 1024, u'w') << -1ll;
    QTest::addRow("whitespace around") << QByteArray(" \t{\"choices\":[{\"text\":\"a\"}]}\r\n ") << K::Choices
                                       << QStringLiteral("a") << -1ll;
}

void TestSseParser::fastPathMatchesDom()
{
    QFETCH(QByteArray, data);
    QFETCH(SseChunk::Kind, kind);
    QFETCH(QString, text);
    QFETCH(qint64, completionTokens);
    const SseChunk dom = SseChunk::classifyDom(data);
    const SseChunk chunk = SseChunk::classify(data);
    QCOMPARE(chunk.kind, kind);
    QCOMPARE(chunk.text, text);
    QCOMPARE(chunk.completionTokens.value_or(-1), completionTokens);
    QCOMPARE(chunk.errorMessage, dom.errorMessage);
    QVERIFY(chunk == dom);
}

// The Responses and Messages fast path gives what the nlohmann path gives, for the events it decides
// (the frequent ones) and leaves the rest to it: errors, unknown types, refused documents.
void TestSseParser::typedFastPathMatchesDom_data()
{
    QTest::addColumn<int>("format");
    QTest::addColumn<QByteArray>("type");
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<bool>("fast"); // decided by the fast path
    QTest::addColumn<SseChunk::Kind>("kind");

    using K = SseChunk::Kind;
    const int r = int(ApiFormat::Responses);
    const int m = int(ApiFormat::Messages);
    const auto row = [](const char* name, int format, const char* type, QByteArray data, bool fast, K kind) {
        QTest::addRow("%s", name) << format << QByteArray(type) << data << fast << kind;
    };
    row("responses text", r, "", R"({"type":"response.output_text.delta","delta":"Hi \u00e9\ud83d\udc4b"})", true,
        K::Choices);
    row("responses text, type from the SSE field", r, "response.output_text.delta", R"({"delta":"x"})", true,
        K::Choices);
    row("responses JSON type wins", r, "response.completed", R"({"type":"response.output_text.delta","delta":"y"})",
        true, K::Choices);
    row("responses type not a string", r, "response.refusal.delta", R"({"type":5,"delta":"no"})", true, K::Choices);
    row("responses delta not a string", r, "", R"({"type":"response.output_text.delta","delta":7})", true, K::Choices);
    row("responses duplicate delta", r, "", R"({"type":"response.output_text.delta","delta":"a","delta":"b"})", true,
        K::Choices);
    row("responses reasoning summary", r, "", R"({"type":"response.reasoning_summary_text.delta","delta":"think"})",
        true, K::Choices);
    row("responses reasoning text", r, "", R"({"type":"response.reasoning_text.delta","delta":"t"})", true, K::Choices);
    row("responses completed with usage", r, "",
        R"({"type":"response.completed","response":{"status":"completed","usage":{"input_tokens":12,)"
        R"("input_tokens_details":{"cached_tokens":8},"output_tokens":30.5,"output_tokens_details":)"
        R"({"reasoning_tokens":4}}}})",
        true, K::Done);
    row("responses completed, usage not an object", r, "",
        R"({"type":"response.completed","response":{"status":"completed","usage":[1]}})", true, K::Done);
    row("responses completed, no response", r, "", R"({"type":"response.completed"})", true, K::Done);
    row("responses completed, response a string", r, "", R"({"type":"response.completed","response":"x"})", true,
        K::Done);
    row("responses completed, details not objects", r, "",
        R"({"type":"response.completed","response":{"usage":{"input_tokens":1,"input_tokens_details":3,)"
        R"("output_tokens":"2"}}})",
        true, K::Done);
    row("responses incomplete", r, "",
        R"({"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":)"
        R"({"reason":"max_output_tokens"},"usage":{"input_tokens":3,"output_tokens":9}}})",
        true, K::Done);
    row("responses incomplete, empty reason", r, "",
        R"({"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"reason":""}}})", true,
        K::Done);
    row("responses quiet event", r, "", R"({"type":"response.created","response":{"id":"r"}})", true, K::Other);
    row("responses quiet event with usage", r, "", R"({"type":"response.in_progress","usage":{"prompt_tokens":1}})",
        true, K::Other);
    row("responses unknown type", r, "", R"({"type":"response.new_thing"})", false, K::Other);
    row("responses error event", r, "", R"({"type":"error","code":"x","message":"overloaded"})", false, K::Error);
    row("responses failed", r, "", R"({"type":"response.failed","response":{"error":{"message":"m"}}})", false,
        K::Error);
    row("responses error key", r, "", R"({"type":"response.output_text.delta","delta":"a","error":null})", false,
        K::Choices);
    row("responses choices key", r, "", R"({"type":"response.output_text.delta","delta":"a","choices":3})", false,
        K::Malformed);
    row("responses object error", r, "", R"({"object":"error","message":"m"})", false, K::Error);
    row("responses not JSON", r, "", "{nope", false, K::Malformed);
    row("responses an array", r, "", "[1]", false, K::Malformed);
    row("responses lone surrogate", r, "", R"({"type":"response.output_text.delta","delta":"\ud800"})", false,
        K::Malformed);
    row("responses empty", r, "", "", false, K::Empty);
    row("responses [DONE]", r, "", "[DONE]", false, K::Done);

    row("messages text", m, "",
        R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta",)"
        R"("text":"Hello \u4e16"}})",
        true, K::Choices);
    row("messages thinking", m, "",
        R"({"type":"content_block_delta","delta":{"type":"thinking_delta",)"
        R"("thinking":"hmm"}})",
        true, K::Choices);
    row("messages signature", m, "",
        R"({"type":"content_block_delta","delta":{"type":"signature_delta",)"
        R"("signature":"s"}})",
        true, K::Other);
    row("messages tool input", m, "", R"({"type":"content_block_delta","delta":{"type":"input_json_delta"}})", true,
        K::Other);
    row("messages unknown delta", m, "", R"({"type":"content_block_delta","delta":{"type":"new_delta"}})", false,
        K::Other);
    row("messages delta not an object", m, "", R"({"type":"content_block_delta","delta":"x"})", false, K::Other);
    row("messages duplicate text", m, "",
        R"({"type":"content_block_delta","delta":{"type":"text_delta",)"
        R"("text":"a","text":"b"}})",
        true, K::Choices);
    row("messages start", m, "",
        R"({"type":"message_start","message":{"usage":{"input_tokens":25,)"
        R"("cache_read_input_tokens":100,"output_tokens":1}}})",
        true, K::Usage);
    row("messages start without input", m, "", R"({"type":"message_start","message":{"usage":{"output_tokens":1}}})",
        true, K::Other);
    row("messages start, message not an object", m, "", R"({"type":"message_start","message":[]})", true, K::Other);
    row("messages delta", m, "",
        R"({"type":"message_delta","delta":{"stop_reason":"end_turn"},)"
        R"("usage":{"output_tokens":15}})",
        true, K::Usage);
    row("messages delta, no usage", m, "", R"({"type":"message_delta","delta":{"stop_reason":"max_tokens"}})", true,
        K::Other);
    row("messages delta, cache reads only", m, "", R"({"type":"message_delta","usage":{"cache_read_input_tokens":4}})",
        true, K::Other);
    row("messages delta, input as a double", m, "",
        R"({"type":"message_delta","usage":{"input_tokens":1e3,)"
        R"("output_tokens":-2.5}})",
        true, K::Usage);
    row("messages stop", m, "", R"({"type":"message_stop"})", true, K::Done);
    row("messages stop from the SSE field", m, "message_stop", "{}", true, K::Done);
    row("messages ping", m, "", R"({"type":"ping"})", true, K::Empty);
    row("messages block start", m, "", R"({"type":"content_block_start","index":0,"content_block":{}})", true,
        K::Other);
    row("messages block stop", m, "", R"({"type":"content_block_stop","index":0})", true, K::Other);
    row("messages error", m, "", R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})",
        false, K::Error);
    row("messages unknown type", m, "", R"({"type":"brand_new"})", false, K::Other);
    // simdjson refuses an integer beyond 64 bits that nlohmann reads as a double: the DOM path takes it.
    row("messages huge integer", m, "",
        R"({"type":"message_delta","usage":{"output_tokens":1,)"
        R"("n":123456789012345678901234}})",
        false, K::Usage);
    row("messages number beyond double", m, "", R"({"type":"message_delta","usage":{"output_tokens":1e400}})", false,
        K::Malformed);
}

void TestSseParser::typedFastPathMatchesDom()
{
    QFETCH(int, format);
    QFETCH(QByteArray, type);
    QFETCH(QByteArray, data);
    QFETCH(bool, fast);
    QFETCH(SseChunk::Kind, kind);
    const auto f = ApiFormat(format);
    const SseChunk dom = classifyEventDom(f, type, data);
    const std::optional<SseChunk> quick = classifyEventFast(f, type, data);
    QCOMPARE(quick.has_value(), fast);
    const SseChunk chunk = classifyEvent(f, type, data);
    QCOMPARE(chunk.kind, kind);
    QCOMPARE(chunk.text, dom.text);
    QCOMPARE(chunk.reasoning, dom.reasoning);
    QCOMPARE(chunk.finishReason, dom.finishReason);
    QCOMPARE(chunk.promptTokens, dom.promptTokens);
    QCOMPARE(chunk.completionTokens, dom.completionTokens);
    QCOMPARE(chunk.cachedTokens, dom.cachedTokens);
    QCOMPARE(chunk.reasoningTokens, dom.reasoningTokens);
    QCOMPARE(chunk.errorMessage, dom.errorMessage);
    QCOMPARE(chunk.unknownEvent, dom.unknownEvent);
    QVERIFY(chunk == dom);
    if (quick)
        QVERIFY(*quick == dom);
}

void TestSseParser::classifyStreamsEndToEnd()
{
    // What a transport does: first choices event = TTFT, first non-empty text = first content, usage last.
    SseParser parser;
    Events events;
    for (qsizetype i = 0; i < vllmChat.size(); i += 5)
        parser.feed(QByteArrayView(vllmChat).sliced(i, std::min<qsizetype>(5, vllmChat.size() - i)), events);
    parser.finish(events);
    QVERIFY(!parser.endedWithoutBlankLine());

    int choices = 0;
    int firstContent = -1;
    QString text;
    std::optional<qint64> tokens;
    bool done = false;
    for (std::size_t i = 0; i < events.size(); ++i) {
        const SseChunk chunk = SseChunk::classify(events[i].data);
        if (chunk.kind == SseChunk::Kind::Choices) {
            ++choices;
            if (chunk.hasText() && firstContent < 0)
                firstContent = static_cast<int>(i);
            text += chunk.text;
        }
        if (chunk.completionTokens)
            tokens = chunk.completionTokens;
        done = done || chunk.kind == SseChunk::Kind::Done;
    }
    QCOMPARE(choices, 3); // the role delta counts; the usage event does not
    QCOMPARE(firstContent, 1);
    QCOMPARE(text, QStringLiteral("Bonjour à tous 👋"));
    QCOMPARE(tokens.value_or(-1), qint64(3));
    QVERIFY(done);
}

void TestSseParser::responsesStreamAtEveryOffset()
{
    for (qsizetype cut = 0; cut <= responsesStream.size(); ++cut) {
        const Folded f = fold(ApiFormat::Responses, responsesStream, cut);
        const QString at = QStringLiteral("split at byte %1").arg(cut);
        QVERIFY2(f.choices == 3, qPrintable(at));
        QVERIFY2(f.text == QStringLiteral("Hé là 👋"), qPrintable(at + QStringLiteral(": ") + f.text));
        QVERIFY2(f.reasoning == QStringLiteral("Think"), qPrintable(at));
        QVERIFY2(f.promptTokens == 11 && f.completionTokens == 7, qPrintable(at));
        QVERIFY2(f.cachedTokens == 4 && f.reasoningTokens == 2, qPrintable(at));
        QVERIFY2(f.unknown == QStringList { QStringLiteral("response.future_thing") }, qPrintable(at));
        QVERIFY2(f.done && f.eventsAfterDone == 0, qPrintable(at));
    }
}

void TestSseParser::messagesStreamAtEveryOffset()
{
    for (qsizetype cut = 0; cut <= messagesStream.size(); ++cut) {
        const Folded f = fold(ApiFormat::Messages, messagesStream, cut);
        const QString at = QStringLiteral("split at byte %1").arg(cut);
        QVERIFY2(f.choices == 3, qPrintable(at));
        QVERIFY2(f.text == QStringLiteral("Bonjour à tous"), qPrintable(at + QStringLiteral(": ") + f.text));
        QVERIFY2(f.reasoning == QStringLiteral("Hmm"), qPrintable(at));
        // input_tokens (9) does not hold the cache reads (3): the prompt is both.
        QVERIFY2(f.promptTokens == 12 && f.cachedTokens == 3, qPrintable(at));
        QVERIFY2(f.completionTokens == 6, qPrintable(at)); // message_delta's, not message_start's placeholder
        QVERIFY2(f.unknown == QStringList { QStringLiteral("content_block_delta/hologram_delta") }, qPrintable(at));
        QVERIFY2(f.done && f.eventsAfterDone == 0, qPrintable(at));
    }
}

void TestSseParser::classifyReply_data()
{
    QTest::addColumn<ApiFormat>("format");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<SseChunk::Kind>("kind");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("reasoning");
    QTest::addColumn<qint64>("promptTokens");
    QTest::addColumn<qint64>("completionTokens");
    QTest::addColumn<QString>("error");
    using K = SseChunk::Kind;
    QTest::addRow("Responses: a Response with reasoning and a message")
        << ApiFormat::Responses
        << QByteArray("{\"id\":\"resp_1\",\"object\":\"response\",\"status\":\"completed\",\"error\":null,"
                      "\"output\":[{\"type\":\"reasoning\",\"summary\":[{\"type\":\"summary_text\",\"text\":"
                      "\"Why\"}]},{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":"
                      "\"output_text\",\"text\":\"Hi\"},{\"type\":\"output_text\",\"text\":\" there\"}]}],"
                      "\"usage\":{\"input_tokens\":5,\"output_tokens\":3}}")
        << K::Choices << QStringLiteral("Hi there") << QStringLiteral("Why") << 5ll << 3ll << QString();
    QTest::addRow("Responses: no output")
        << ApiFormat::Responses << QByteArray("{\"object\":\"response\",\"output\":[]}") << K::Other << QString()
        << QString() << -1ll << -1ll << QString();
    QTest::addRow("Messages: text and thinking blocks")
        << ApiFormat::Messages
        << QByteArray("{\"id\":\"msg_1\",\"type\":\"message\",\"content\":[{\"type\":\"thinking\","
                      "\"thinking\":\"Hmm\"},{\"type\":\"text\",\"text\":\"Yes\"}],\"stop_reason\":\"end_turn\","
                      "\"usage\":{\"input_tokens\":7,\"output_tokens\":4}}")
        << K::Choices << QStringLiteral("Yes") << QStringLiteral("Hmm") << 7ll << 4ll << QString();
    QTest::addRow("Messages: an Anthropic error")
        << ApiFormat::Messages
        << QByteArray("{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}")
        << K::Error << QString() << QString() << -1ll << -1ll << QStringLiteral("Overloaded (overloaded_error)");
    QTest::addRow("Embeddings: two vectors")
        << ApiFormat::Embeddings
        << QByteArray("{\"object\":\"list\",\"data\":[{\"object\":\"embedding\",\"index\":0,\"embedding\":[0.1]},"
                      "{\"object\":\"embedding\",\"index\":1,\"embedding\":[0.2]}],\"usage\":{\"prompt_tokens\":8,"
                      "\"total_tokens\":8}}")
        << K::Choices << QString() << QString() << 8ll << 0ll << QString();
    QTest::addRow("Embeddings: no data") << ApiFormat::Embeddings << QByteArray("{\"object\":\"list\",\"data\":[]}")
                                         << K::Other << QString() << QString() << -1ll << -1ll << QString();
    QTest::addRow("Embeddings: an OpenAI error")
        << ApiFormat::Embeddings << QByteArray("{\"error\":{\"message\":\"too long\",\"type\":\"BadRequestError\"}}")
        << K::Error << QString() << QString() << -1ll << -1ll << QStringLiteral("too long (BadRequestError)");
}

void TestSseParser::classifyReply()
{
    QFETCH(ApiFormat, format);
    QFETCH(QByteArray, body);
    QFETCH(SseChunk::Kind, kind);
    QFETCH(QString, text);
    QFETCH(QString, reasoning);
    QFETCH(qint64, promptTokens);
    QFETCH(qint64, completionTokens);
    QFETCH(QString, error);
    const SseChunk chunk = kp::classifyReply(format, body);
    QCOMPARE(chunk.kind, kind);
    QCOMPARE(chunk.text, text);
    QCOMPARE(chunk.reasoning, reasoning);
    QCOMPARE(chunk.promptTokens.value_or(-1), promptTokens);
    QCOMPARE(chunk.completionTokens.value_or(-1), completionTokens);
    QCOMPARE(chunk.errorMessage, error);
}

void TestSseParser::typedErrorEvents()
{
    const SseChunk responses = classifyEvent(ApiFormat::Responses, "error",
        "{\"type\":\"error\",\"code\":\"server_error\",\"message\":\"boom\\u001b[31m\",\"param\":null}");
    QCOMPARE(responses.kind, SseChunk::Kind::Error);
    QCOMPARE(responses.errorMessage, QStringLiteral("boom\\x1b[31m (code server_error)")); // inert
    const SseChunk failed = classifyEvent(ApiFormat::Responses, "response.failed",
        "{\"type\":\"response.failed\",\"response\":{\"error\":{\"code\":\"server_error\",\"message\":\"gone\"}}}");
    QCOMPARE(failed.kind, SseChunk::Kind::Error);
    QCOMPARE(failed.errorMessage, QStringLiteral("gone (code server_error)"));
    const SseChunk messages = classifyEvent(ApiFormat::Messages, "error",
        "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}");
    QCOMPARE(messages.kind, SseChunk::Kind::Error);
    QCOMPARE(messages.errorMessage, QStringLiteral("Overloaded (overloaded_error)"));
    // The SSE event name stands in for a missing JSON type.
    const SseChunk stop = classifyEvent(ApiFormat::Messages, "message_stop", "{}");
    QCOMPARE(stop.kind, SseChunk::Kind::Done);
    const SseChunk bad = classifyEvent(ApiFormat::Messages, "content_block_delta", "{\"type\":");
    QCOMPARE(bad.kind, SseChunk::Kind::Malformed);
}

void TestSseParser::reasoningIsNotAnswer_data()
{
    QTest::addColumn<QByteArray>("reasoningKey");
    QTest::addColumn<QByteArray>("usage");
    QTest::addColumn<int>("outputTokens");
    QTest::addColumn<int>("reasoningTokens");
    // Without usage the tokens are counted as words: "Hi there friend" (3) and "let me think more" (4).
    QTest::addRow("reasoning_content, counted") << QByteArray("reasoning_content") << QByteArray() << 7 << 4;
    QTest::addRow("reasoning, counted") << QByteArray("reasoning") << QByteArray() << 7 << 4;
    QTest::addRow("usage's details") << QByteArray("reasoning_content")
                                     << QByteArray(R"({"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":20,)"
                                                   R"("completion_tokens_details":{"reasoning_tokens":12}}})")
                                     << 20 << 12;
    QTest::addRow("usage without details: reasoning counted")
        << QByteArray("reasoning_content")
        << QByteArray(R"({"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":20}})") << 20 << 4;
}

void TestSseParser::reasoningIsNotAnswer()
{
    QFETCH(QByteArray, reasoningKey);
    QFETCH(QByteArray, usage);
    QFETCH(int, outputTokens);
    QFETCH(int, reasoningTokens);

    HttpRequest request;
    request.url = QUrl(QStringLiteral("http://127.0.0.1:1/v1/chat/completions"));
    request.chat = true;
    request.maxTokens = 32;
    ResponseAccumulator acc(request, 0);
    acc.onResponseStarted(200, 5);
    const auto delta = [](const QByteArray& key, const QByteArray& text) {
        return "data: {\"choices\":[{\"index\":0,\"delta\":{\"" + key + "\":\"" + text + "\"}}]}\n\n";
    };
    acc.onData("data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n", 10);
    acc.onData(delta(reasoningKey, "let me think"), 20);
    acc.onData(delta(reasoningKey, " more"), 30);
    acc.onData(delta("content", "Hi there"), 45);
    acc.onData(delta("content", " friend"), 50);
    if (!usage.isEmpty())
        acc.onData("data: " + usage + "\n\n", 55);
    acc.onData("data: [DONE]\n\n", 60);
    const RequestRecord r = acc.finish(61, FailureClass::None, {});

    QVERIFY2(r.success(), qPrintable(r.errorMessage));
    QCOMPARE(r.firstTokenNs, qint64(10)); // TTFT: the first token of any kind (the role delta)
    QCOMPARE(r.firstContentNs, qint64(45)); // TTFC: the first answer text, after the reasoning
    QCOMPARE(r.chunkNs, (std::vector<qint64> { 10, 20, 30, 45, 50 })); // reasoning events are ITL gaps too
    QCOMPARE(r.lastTokenNs, qint64(50));
    QCOMPARE(r.generatedText, QStringLiteral("Hi there friend"));
    QCOMPARE(r.outputTokens, outputTokens);
    QCOMPARE(r.reasoningTokens, reasoningTokens);
    QCOMPARE(r.requestedOutputTokens, 32);
}

// A stream of endless new event types: the record keeps the first few, each once, and says there were
// more; the step counts those types only, so neither the file nor the warnings grow with them.
void TestSseParser::unknownEventTypesAreBounded()
{
    HttpRequest request;
    request.url = QUrl(QStringLiteral("http://127.0.0.1:1/v1/responses"));
    request.format = ApiFormat::Responses;
    ResponseAccumulator acc(request, 0);
    acc.onResponseStarted(200, 5);
    qint64 t = 10;
    for (int i = 0; i < 30000; ++i) {
        const QByteArray type = "response.thing_" + QByteArray::number(i);
        acc.onData("event: " + type + "\ndata: {\"type\":\"" + type + "\"}\n\n", t++);
    }
    acc.onData("event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"delta\":\"Hi\"}"
               "\n\n",
        t++);
    acc.onData("event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"usage\":{"
               "\"input_tokens\":3,\"output_tokens\":1}}}\n\n",
        t++);
    const RequestRecord r = acc.finish(t, FailureClass::None, {});
    QVERIFY2(r.success(), qPrintable(r.errorMessage));
    QCOMPARE(r.unknownEvents.size(), RequestRecord::kMaxUnknownEventTypes);
    QCOMPARE(r.unknownEvents.front(), QStringLiteral("response.thing_0"));
    QVERIFY(r.moreUnknownEvents);

    RequestRecord other = r;
    other.unknownEvents = { QStringLiteral("response.other") };
    other.moreUnknownEvents = false;
    const StepMetrics m = StepMetrics::fromRecords({ r, other }, 1.0, MetricsOptions {});
    QCOMPARE(m.unknownEvents.size(), RequestRecord::kMaxUnknownEventTypes);
    QCOMPARE(m.unknownEvents.at(QStringLiteral("response.thing_0")), qint64(1));
    QVERIFY(m.moreUnknownEvents);
}

// A usage count no request can have (1e300, or negative) is not taken: the request keeps the words it
// streamed, instead of 0 output tokens and a "short output".
void TestSseParser::impossibleUsageIsNotTrusted()
{
    for (const QByteArray& bad : { QByteArray("1e300"), QByteArray("-5"), QByteArray("3000000000") }) {
        HttpRequest request;
        request.url = QUrl(QStringLiteral("http://127.0.0.1:1/v1/chat/completions"));
        request.chat = true;
        request.maxTokens = 16;
        ResponseAccumulator acc(request, 0);
        acc.onResponseStarted(200, 1);
        acc.onData("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hello\"}}]}\n\n", 2);
        acc.onData("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\" world\"}}]}\n\n", 3);
        acc.onData("data: {\"choices\":[],\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":" + bad + "}}\n\n", 4);
        acc.onData("data: [DONE]\n\n", 5);
        const RequestRecord r = acc.finish(6, FailureClass::None, {});
        QVERIFY2(r.success(), qPrintable(r.errorMessage));
        QCOMPARE(r.outputTokens, 2);
        QVERIFY2(!r.outputTokensFromUsage, bad.constData());
        QCOMPARE(r.serverPromptTokens, 4);
    }
}

QTEST_GUILESS_MAIN(TestSseParser)
#include "tst_sseparser.moc"
