#include "sim/faults.h"
#include "sim/filelimit.h"
#include "sim/httprequest.h"
#include "sim/prometheus.h"
#include "sim/simconfig.h"
#include "sim/simhost.h"
#include "sim/simprotocol.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <vector>

using namespace kp::sim;

namespace {

constexpr int waitMs = 60000;

struct Response
{
    int status = 0;
    std::vector<std::pair<QByteArray, QByteArray>> headers; // names lower-cased
    QByteArray body; // de-chunked
    bool chunked = false;
    bool complete = false; // the whole body arrived (zero chunk, Content-Length, or close-delimited end)

    QByteArray header(const char* name) const
    {
        for (const auto& [key, value] : headers) {
            if (key == name)
                return value;
        }
        return {};
    }
    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
};

// Takes one response from the front of buffer. With eof, a response cut short is returned incomplete.
std::optional<Response> takeResponse(QByteArray& buffer, bool eof)
{
    const qsizetype headEnd = buffer.indexOf("\r\n\r\n");
    if (headEnd < 0)
        return std::nullopt;
    Response r;
    const QList<QByteArray> lines = buffer.left(headEnd).split('\n');
    const QList<QByteArray> statusLine = lines.front().trimmed().split(' ');
    r.status = statusLine.size() >= 2 ? statusLine[1].toInt() : -1;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines[i].indexOf(':');
        r.headers.emplace_back(lines[i].left(colon).trimmed().toLower(), lines[i].mid(colon + 1).trimmed());
    }
    if (r.status == 100) {
        buffer.remove(0, headEnd + 4);
        return takeResponse(buffer, eof);
    }
    qsizetype pos = headEnd + 4;
    r.chunked = r.header("transfer-encoding") == "chunked";
    const QByteArray length = r.header("content-length");
    if (r.chunked) {
        while (true) {
            const qsizetype lineEnd = buffer.indexOf("\r\n", pos);
            if (lineEnd < 0)
                break;
            bool ok = false;
            const qsizetype size = buffer.mid(pos, lineEnd - pos).toLongLong(&ok, 16);
            if (!ok || buffer.size() < lineEnd + 2 + size + 2)
                break;
            pos = lineEnd + 2 + size + 2;
            if (size == 0) {
                r.complete = true;
                break;
            }
            r.body += buffer.mid(lineEnd + 2, size);
        }
        if (!r.complete && !eof)
            return std::nullopt;
        if (!r.complete)
            pos = buffer.size();
    } else if (!length.isNull()) {
        const qsizetype size = length.toLongLong();
        if (buffer.size() - pos < size && !eof)
            return std::nullopt;
        r.body = buffer.mid(pos, size);
        r.complete = r.body.size() == size;
        pos += r.body.size();
    } else if (r.status == 204 || r.status == 304) {
        r.complete = true;
    } else {
        if (!eof)
            return std::nullopt;
        r.body = buffer.mid(pos);
        r.complete = true;
        pos = buffer.size();
    }
    buffer.remove(0, pos);
    return r;
}

// A raw HTTP/1.1 client on one connection: what goes out is written as given, what comes back is kept
// byte for byte and split into responses.
class Client : public QObject
{
public:
    explicit Client(const QUrl& base)
    {
        connect(&socket, &QTcpSocket::readyRead, this, [this] { drain(); });
        connect(&socket, &QTcpSocket::disconnected, this, [this] {
            closed = true;
            drain();
        });
        socket.connectToHost(QHostAddress::LocalHost, quint16(base.port()));
    }

    void send(const QByteArray& raw) { socket.write(raw); }
    bool waitFor(std::size_t count, int timeout = waitMs)
    {
        return QTest::qWaitFor([&] { return responses.size() >= count || closed; }, timeout)
            && responses.size() >= count;
    }
    bool waitClosed(int timeout = waitMs)
    {
        return QTest::qWaitFor([&] { return closed; }, timeout);
    }

    QTcpSocket socket;
    QByteArray received; // everything, as read
    std::vector<Response> responses;
    bool closed = false;

private:
    void drain()
    {
        const QByteArray data = socket.isOpen() ? socket.readAll() : QByteArray();
        received += data;
        m_buffer += data;
        while (!m_buffer.isEmpty()) {
            std::optional<Response> r = takeResponse(m_buffer, closed);
            if (!r)
                break;
            responses.push_back(std::move(*r));
        }
    }

    QByteArray m_buffer;
};

QByteArray post(const QByteArray& path, const QByteArray& body, const QByteArray& extraHeaders = {})
{
    return "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
        + QByteArray::number(body.size()) + "\r\n" + extraHeaders + "\r\n" + body;
}

QByteArray get(const QByteArray& path, const QByteArray& extraHeaders = {})
{
    return "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extraHeaders + "\r\n";
}

QByteArray toJson(const QJsonObject& object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

QByteArray completionBody(int maxTokens, bool stream, bool ignoreEos = true, bool includeUsage = false)
{
    QJsonObject body { { QStringLiteral("model"), SimParams().modelId },
        { QStringLiteral("prompt"), QStringLiteral("one two three four five") },
        { QStringLiteral("max_tokens"), maxTokens }, { QStringLiteral("stream"), stream },
        { QStringLiteral("ignore_eos"), ignoreEos } };
    if (includeUsage)
        body.insert(QStringLiteral("stream_options"), QJsonObject { { QStringLiteral("include_usage"), true } });
    return toJson(body);
}

QByteArray chatBody(int maxTokens, bool stream, bool ignoreEos = true, bool includeUsage = false)
{
    const QJsonArray messages { QJsonObject { { QStringLiteral("role"), QStringLiteral("system") },
                                    { QStringLiteral("content"), QStringLiteral("be brief") } },
        QJsonObject { { QStringLiteral("role"), QStringLiteral("user") },
            { QStringLiteral("content"), QStringLiteral("one  two\tthree") } } };
    QJsonObject body { { QStringLiteral("model"), SimParams().modelId }, { QStringLiteral("messages"), messages },
        { QStringLiteral("max_tokens"), maxTokens }, { QStringLiteral("stream"), stream },
        { QStringLiteral("ignore_eos"), ignoreEos } };
    if (includeUsage)
        body.insert(QStringLiteral("stream_options"), QJsonObject { { QStringLiteral("include_usage"), true } });
    return toJson(body);
}

// Splits an SSE body into its payloads; false unless the body is exactly a run of "data: PAYLOAD\n\n".
bool splitEvents(const QByteArray& body, QList<QByteArray>* events)
{
    qsizetype pos = 0;
    while (pos < body.size()) {
        if (!QByteArrayView(body).sliced(pos).startsWith("data: "))
            return false;
        const qsizetype end = body.indexOf("\n\n", pos);
        if (end < 0)
            return false;
        const QByteArray payload = body.mid(pos + 6, end - pos - 6);
        if (payload.contains('\n') || payload.contains('\r'))
            return false;
        events->append(payload);
        pos = end + 2;
    }
    return true;
}

std::optional<Response> fetch(const QUrl& base, const QByteArray& raw)
{
    Client client(base);
    client.send(raw);
    if (!client.waitFor(1))
        return std::nullopt;
    return client.responses.front();
}

QJsonObject fetchJson(const QUrl& base, const QByteArray& path)
{
    const std::optional<Response> r = fetch(base, get(path));
    return r ? r->json() : QJsonObject {};
}

QJsonObject truthFor(const QUrl& base, const QString& requestId)
{
    const QJsonArray all = fetchJson(base, "/debug/requests").value(QStringLiteral("requests")).toArray();
    for (const QJsonValue& v : all) {
        if (v.toObject().value(QStringLiteral("request_id")).toString() == requestId)
            return v.toObject();
    }
    return {};
}

SimServerOptions fastOptions(double timeScale = 20)
{
    SimServerOptions options;
    options.timeScale = timeScale;
    options.seed = 42;
    return options;
}

// The usage object of a response: the body's, or the usage event's of a stream.
QJsonObject usageOf(const Response& r)
{
    if (!r.header("content-type").startsWith("text/event-stream"))
        return r.json().value(QStringLiteral("usage")).toObject();
    QList<QByteArray> events;
    if (!splitEvents(r.body, &events))
        return {};
    for (const QByteArray& e : events) {
        const QJsonObject o = QJsonDocument::fromJson(e).object();
        if (o.contains(QStringLiteral("usage")))
            return o.value(QStringLiteral("usage")).toObject();
    }
    return {};
}

// The value of an unlabelled-but-for-the-model sample in Prometheus text; -1 when absent.
double sampleValue(const QByteArray& text, const QByteArray& name)
{
    const QByteArray head = name + "{model_name=\"";
    for (const QByteArray& line : text.split('\n')) {
        if (line.startsWith(head))
            return line.mid(line.lastIndexOf(' ') + 1).toDouble();
    }
    return -1;
}

// "w1 w2 ... wN" with the given stem: distinct words per stem.
QString words(const QString& stem, int count)
{
    QStringList l;
    for (int i = 0; i < count; ++i)
        l << QStringLiteral("%1%2").arg(stem).arg(i);
    return l.join(QLatin1Char(' '));
}

QByteArray generationBody(bool chat, const QJsonArray& messagesOrPrompt, bool stream)
{
    QJsonObject body { { QStringLiteral("max_tokens"), 3 }, { QStringLiteral("stream"), stream },
        { QStringLiteral("ignore_eos"), true } };
    if (chat)
        body.insert(QStringLiteral("messages"), messagesOrPrompt);
    else
        body.insert(QStringLiteral("prompt"), messagesOrPrompt.at(0));
    if (stream)
        body.insert(QStringLiteral("stream_options"), QJsonObject { { QStringLiteral("include_usage"), true } });
    return toJson(body);
}

QJsonObject message(const QString& role, const QString& content)
{
    return QJsonObject { { QStringLiteral("role"), role }, { QStringLiteral("content"), content } };
}

} // namespace

class TestSimServer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void parser_data();
    void parser();
    void queryParameters();
    void faultSpec_data();
    void faultSpec();
    void config();
    void infoEndpoints();
    void streaming_data();
    void streaming();
    void nonStreaming_data();
    void nonStreaming();
    void errors_data();
    void errors();
    void apiKey_data();
    void apiKey();
    void keepAliveAndPipelining();
    void expectContinue();
    void http10Stream();
    void badFraming_data();
    void badFraming();
    void metrics();
    void phaseHistograms();
    void preEngineLatency();
    void apiServerQueue();
    void gpuMetrics();
    void inFlightAndAbort();
    void faults_data();
    void faults();
    void faultsSeeded();
    void concurrentStreams();
    void portInUse();
    void prefixCache_data();
    void prefixCache();
    void prefixCacheConversation();
    void prefixCacheResetEndpoints_data();
    void prefixCacheResetEndpoints();
    void imageTokens_data();
    void imageTokens();

private:
    qint64 m_fileLimit = -1;
};

void TestSimServer::initTestCase()
{
    // Client and server sockets of the concurrency test share this process.
    m_fileLimit = raiseFileLimit();
}

void TestSimServer::parser_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("status"); // 0 NeedMore, 1 Complete, 2 Error
    QTest::addColumn<int>("errorStatus");
    QTest::addColumn<int>("consumed");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<bool>("keepAlive");

    const QByteArray simple = "GET /health HTTP/1.1\r\nHost: x\r\n\r\n";
    QTest::addRow("simple GET") << simple << 1 << 0 << int(simple.size()) << QByteArray() << true;
    QTest::addRow("partial headers") << QByteArray("GET /health HTTP/1.1\r\nHo") << 0 << 0 << 0 << QByteArray() << true;
    const QByteArray withBody = "POST /v1/completions HTTP/1.1\r\nContent-Length: 4\r\n\r\nabcd";
    QTest::addRow("body") << withBody << 1 << 0 << int(withBody.size()) << QByteArray("abcd") << true;
    QTest::addRow("partial body") << withBody.left(withBody.size() - 1) << 0 << 0 << 0 << QByteArray() << true;
    QTest::addRow("pipelined: first only")
        << (withBody + simple) << 1 << 0 << int(withBody.size()) << QByteArray("abcd") << true;
    const QByteArray leadingBlank = "\r\n" + simple;
    QTest::addRow("leading empty line") << leadingBlank << 1 << 0 << int(leadingBlank.size()) << QByteArray() << true;
    const QByteArray close = "GET / HTTP/1.1\r\nConnection: close\r\n\r\n";
    QTest::addRow("connection close") << close << 1 << 0 << int(close.size()) << QByteArray() << false;
    const QByteArray http10 = "GET / HTTP/1.0\r\n\r\n";
    QTest::addRow("HTTP/1.0") << http10 << 1 << 0 << int(http10.size()) << QByteArray() << false;
    const QByteArray http10KeepAlive = "GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n";
    QTest::addRow("HTTP/1.0 keep-alive") << http10KeepAlive << 1 << 0 << int(http10KeepAlive.size()) << QByteArray()
                                         << true;
    QTest::addRow("bad request line") << QByteArray("HELLO\r\n\r\n") << 2 << 400 << 0 << QByteArray() << true;
    QTest::addRow("absolute target") << QByteArray("GET http://a/ HTTP/1.1\r\n\r\n") << 2 << 400 << 0 << QByteArray()
                                     << true;
    QTest::addRow("HTTP/2.0") << QByteArray("GET / HTTP/2.0\r\n\r\n") << 2 << 505 << 0 << QByteArray() << true;
    QTest::addRow("chunked body") << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n") << 2 << 411
                                  << 0 << QByteArray() << true;
    QTest::addRow("bad content-length") << QByteArray("POST / HTTP/1.1\r\nContent-Length: 1x\r\n\r\n") << 2 << 400 << 0
                                        << QByteArray() << true;
    QTest::addRow("header without colon")
        << QByteArray("GET / HTTP/1.1\r\nnocolon\r\n\r\n") << 2 << 400 << 0 << QByteArray() << true;
    QTest::addRow("folded header") << QByteArray("GET / HTTP/1.1\r\nA: b\r\n c\r\n\r\n") << 2 << 400 << 0
                                   << QByteArray() << true;
    QTest::addRow("huge header") << ("GET / HTTP/1.1\r\nA: " + QByteArray(70000, 'x')) << 2 << 431 << 0 << QByteArray()
                                 << true;
}

void TestSimServer::parser()
{
    QFETCH(QByteArray, input);
    QFETCH(int, status);
    QFETCH(int, errorStatus);
    QFETCH(int, consumed);
    QFETCH(QByteArray, body);
    QFETCH(bool, keepAlive);

    const HttpParseResult result = parseHttpRequest(input);
    QCOMPARE(int(result.status), status);
    QCOMPARE(result.errorStatus, errorStatus);
    if (result.status == HttpParseResult::Status::Complete) {
        QCOMPARE(int(result.consumed), consumed);
        QCOMPARE(result.request.body, body);
        QCOMPARE(result.request.keepAlive, keepAlive);
    }
}

void TestSimServer::queryParameters()
{
    HttpRequest request;
    request.target = "/debug/requests?since=5&clear&reset=0";
    QCOMPARE(request.path(), QByteArrayView("/debug/requests"));
    QCOMPARE(request.queryValue("since"), QByteArray("5"));
    QVERIFY(request.queryFlag("clear"));
    QVERIFY(!request.queryFlag("reset"));
    QVERIFY(!request.queryFlag("since"));
    QVERIFY(request.queryValue("missing").isNull());
    QVERIFY(!request.queryValue("clear").isNull());
}

void TestSimServer::faultSpec_data()
{
    QTest::addColumn<QStringList>("specs");
    QTest::addColumn<QString>("errorFragment"); // empty: accepted
    QTest::addColumn<double>("cutRate");
    QTest::addColumn<double>("stallSeconds");

    QTest::addRow("one kind") << QStringList { QStringLiteral("cut:0.25") } << QString() << 0.25 << 2.0;
    QTest::addRow("stall seconds") << QStringList { QStringLiteral("stall:0.1:7.5") } << QString() << 0.0 << 7.5;
    QTest::addRow("several") << QStringList { QStringLiteral("500:0.1"), QStringLiteral("cut:0.5") } << QString() << 0.5
                             << 2.0;
    QTest::addRow("unknown kind") << QStringList { QStringLiteral("boom:0.1") } << QStringLiteral("unknown kind 'boom'")
                                  << 0.0 << 2.0;
    QTest::addRow("rate above 1") << QStringList { QStringLiteral("cut:1.5") } << QStringLiteral("rate '1.5'") << 0.0
                                  << 2.0;
    QTest::addRow("rates add above 1") << QStringList { QStringLiteral("cut:0.6"), QStringLiteral("500:0.6") }
                                       << QStringLiteral("add up to more than 1") << 0.6 << 2.0;
    QTest::addRow("seconds on 500") << QStringList { QStringLiteral("500:0.1:3") }
                                    << QStringLiteral("only stall and slow-first-byte") << 0.0 << 2.0;
    QTest::addRow("no rate") << QStringList { QStringLiteral("cut") } << QStringLiteral("expected KIND:RATE") << 0.0
                             << 2.0;
}

void TestSimServer::faultSpec()
{
    QFETCH(QStringList, specs);
    QFETCH(QString, errorFragment);
    QFETCH(double, cutRate);
    QFETCH(double, stallSeconds);

    FaultPlan plan;
    QString error;
    for (const QString& spec : specs) {
        error = applyFaultSpec(spec, plan);
        if (!error.isEmpty())
            break;
    }
    if (errorFragment.isEmpty())
        QVERIFY2(error.isEmpty(), qPrintable(error));
    else
        QVERIFY2(error.contains(errorFragment), qPrintable(error));
    QCOMPARE(plan.rate(FaultKind::Cut), cutRate);
    QCOMPARE(plan.stallSeconds, stallSeconds);
}

void TestSimServer::config()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto writeFile = [&](const QString& name, const QByteArray& text) {
        const QString path = dir.filePath(name);
        QFile file(path);
        if (file.open(QIODevice::WriteOnly))
            file.write(text);
        return path;
    };

    SimServerOptions options;
    const QString good = writeFile(QStringLiteral("good.json"),
        "{\n  \"preset\": \"small\",\n  \"max_num_seqs\": 32,\n  \"time_scale\": 5,\n  \"seed\": 7,\n"
        "  \"faults\": [\"500:0.1\", \"stall:0.2:3\"]\n}\n");
    QString error = applySimConfigFile(good, options);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(options.params.modelId, presetByName(QStringLiteral("small"))->params.modelId);
    QCOMPARE(options.params.maxNumSeqs, 32);
    QCOMPARE(options.timeScale, 5.0);
    QCOMPARE(options.seed, quint64(7));
    QCOMPARE(options.faults.rate(FaultKind::Http500), 0.1);
    QCOMPARE(options.faults.stallSeconds, 3.0);

    const SimServerOptions before = options;
    const QString badField
        = writeFile(QStringLiteral("bad-field.json"), "{\n  \"max_model_len\": 100,\n  \"max_num_seqs\": -3\n}\n");
    error = applySimConfigFile(badField, options);
    QVERIFY2(error.contains(badField + QStringLiteral(":3:")), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("max_num_seqs")), qPrintable(error));
    QCOMPARE(options.params.maxNumSeqs, before.params.maxNumSeqs); // untouched on error

    const QString unknown = writeFile(QStringLiteral("unknown.json"), "{\"max_num_seq\": 3}");
    error = applySimConfigFile(unknown, options);
    QVERIFY2(error.contains(QStringLiteral("max_num_seq")) && error.contains(QStringLiteral("unknown field")),
        qPrintable(error));

    const QString broken = writeFile(QStringLiteral("broken.json"), "{\n  \"seed\": 1,\n  \"time_scale\" 2\n}");
    error = applySimConfigFile(broken, options);
    QVERIFY2(error.startsWith(broken + QStringLiteral(":3:")), qPrintable(error));

    const QString badFault = writeFile(QStringLiteral("fault.json"), "{\"faults\": [\"boom:1\"]}");
    error = applySimConfigFile(badFault, options);
    QVERIFY2(error.contains(QStringLiteral("faults")) && error.contains(QStringLiteral("boom")), qPrintable(error));

    error = applySimConfigFile(dir.filePath(QStringLiteral("missing.json")), options);
    QVERIFY2(error.contains(QStringLiteral("missing.json")), qPrintable(error));

    QVERIFY(!simPresetsHelp().isEmpty());
}

void TestSimServer::infoEndpoints()
{
    SimHost host;
    QVERIFY2(host.start(fastOptions()), qPrintable(host.errorString()));
    QCOMPARE(host.baseUrl().host(), QStringLiteral("127.0.0.1"));

    std::optional<Response> health = fetch(host.baseUrl(), get("/health"));
    QVERIFY(health);
    QCOMPARE(health->status, 200);

    const QJsonObject models = fetchJson(host.baseUrl(), "/v1/models");
    QCOMPARE(models.value(QStringLiteral("object")).toString(), QStringLiteral("list"));
    const QJsonObject model = models.value(QStringLiteral("data")).toArray().at(0).toObject();
    QCOMPARE(model.value(QStringLiteral("id")).toString(), SimParams().modelId);
    QCOMPARE(model.value(QStringLiteral("object")).toString(), QStringLiteral("model"));
    QCOMPARE(model.value(QStringLiteral("max_model_len")).toInt(), SimParams().maxModelLen);

    const QJsonObject version = fetchJson(host.baseUrl(), "/version");
    QVERIFY(!version.value(QStringLiteral("version")).toString().isEmpty());
}

void TestSimServer::streaming_data()
{
    QTest::addColumn<bool>("chat");
    QTest::addColumn<bool>("includeUsage");
    QTest::addColumn<bool>("ignoreEos");

    QTest::addRow("completions") << false << false << true;
    QTest::addRow("completions, usage") << false << true << true;
    QTest::addRow("completions, usage, eos") << false << true << false;
    QTest::addRow("chat") << true << false << true;
    QTest::addRow("chat, usage") << true << true << true;
    QTest::addRow("chat, usage, eos") << true << true << false;
}

void TestSimServer::streaming()
{
    QFETCH(bool, chat);
    QFETCH(bool, includeUsage);
    QFETCH(bool, ignoreEos);
    constexpr int maxTokens = 12;
    constexpr int promptWords = 5;

    SimHost host;
    QVERIFY2(host.start(fastOptions()), qPrintable(host.errorString()));
    const QString requestId = QStringLiteral("stream-%1").arg(QString::fromLatin1(QTest::currentDataTag()));

    Client client(host.baseUrl());
    client.send(post(chat ? "/v1/chat/completions" : "/v1/completions",
        chat ? chatBody(maxTokens, true, ignoreEos, includeUsage)
             : completionBody(maxTokens, true, ignoreEos, includeUsage),
        "X-Request-Id: " + requestId.toLatin1() + "\r\n"));
    QVERIFY(client.waitFor(1));
    const Response& r = client.responses.front();
    QCOMPARE(r.status, 200);
    QVERIFY(r.header("content-type").startsWith("text/event-stream"));
    QCOMPARE(r.header("x-request-id"), requestId.toLatin1());
    QVERIFY(r.chunked);
    QVERIFY(r.complete);

    QList<QByteArray> events;
    QVERIFY2(splitEvents(r.body, &events), r.body.constData());
    QVERIFY(events.size() >= 2);
    QCOMPARE(events.last(), QByteArray("[DONE]"));
    QCOMPARE(events.count(QByteArray("[DONE]")), 1);
    events.removeLast();

    QJsonObject usage;
    if (includeUsage) {
        const QJsonObject last = QJsonDocument::fromJson(events.takeLast()).object();
        QVERIFY(last.value(QStringLiteral("choices")).isArray());
        QVERIFY(last.value(QStringLiteral("choices")).toArray().isEmpty());
        usage = last.value(QStringLiteral("usage")).toObject();
        QVERIFY(!usage.isEmpty());
    }

    QString text;
    int tokens = 0;
    QString id;
    QString finish;
    for (qsizetype i = 0; i < events.size(); ++i) {
        QJsonParseError error {};
        const QJsonObject event = QJsonDocument::fromJson(events[i], &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        if (id.isEmpty())
            id = event.value(QStringLiteral("id")).toString();
        QCOMPARE(event.value(QStringLiteral("id")).toString(), id);
        QCOMPARE(event.value(QStringLiteral("object")).toString(),
            chat ? QStringLiteral("chat.completion.chunk") : QStringLiteral("text_completion"));
        QCOMPARE(event.value(QStringLiteral("model")).toString(), SimParams().modelId);
        QVERIFY(event.value(QStringLiteral("created")).isDouble());
        QVERIFY(!event.contains(QStringLiteral("usage")) || event.value(QStringLiteral("usage")).isNull());
        const QJsonArray choices = event.value(QStringLiteral("choices")).toArray();
        QCOMPARE(choices.size(), 1);
        const QJsonObject choice = choices.at(0).toObject();
        QCOMPARE(choice.value(QStringLiteral("index")).toInt(), 0);
        QVERIFY(finish.isEmpty()); // only the last choices event carries a finish reason
        if (!choice.value(QStringLiteral("finish_reason")).isNull())
            finish = choice.value(QStringLiteral("finish_reason")).toString();
        if (chat) {
            const QJsonObject delta = choice.value(QStringLiteral("delta")).toObject();
            if (i == 0) {
                QCOMPARE(delta.value(QStringLiteral("role")).toString(), QStringLiteral("assistant"));
                QCOMPARE(delta.value(QStringLiteral("content")).toString(), QString());
                continue;
            }
            QVERIFY(!delta.contains(QStringLiteral("role")));
            const QString piece = delta.value(QStringLiteral("content")).toString();
            QCOMPARE(countWords(piece), 1);
            text += piece;
        } else {
            const QString piece = choice.value(QStringLiteral("text")).toString();
            QCOMPARE(countWords(piece), 1);
            text += piece;
        }
        ++tokens;
    }
    QCOMPARE(countWords(text), tokens);
    if (ignoreEos)
        QCOMPARE(tokens, maxTokens);
    QVERIFY(tokens >= 1 && tokens <= maxTokens);
    QCOMPARE(finish, tokens == maxTokens ? QStringLiteral("length") : QStringLiteral("stop"));
    if (includeUsage) {
        QCOMPARE(usage.value(QStringLiteral("prompt_tokens")).toInt(), promptWords);
        QCOMPARE(usage.value(QStringLiteral("completion_tokens")).toInt(), tokens);
        QCOMPARE(usage.value(QStringLiteral("total_tokens")).toInt(), promptWords + tokens);
    }

    // The server's record of the same request.
    const QJsonObject truth = truthFor(host.baseUrl(), requestId);
    QVERIFY(!truth.isEmpty());
    QCOMPARE(truth.value(QStringLiteral("id")).toString(), id);
    QCOMPARE(truth.value(QStringLiteral("outcome")).toString(), QStringLiteral("completed"));
    QCOMPARE(truth.value(QStringLiteral("prompt_tokens")).toInt(), promptWords);
    QCOMPARE(truth.value(QStringLiteral("output_tokens")).toInt(), tokens);
    QCOMPARE(truth.value(QStringLiteral("events")).toInt(), int(events.size() + (includeUsage ? 1 : 0)));
    const QJsonArray tokenMs = truth.value(QStringLiteral("token_ms")).toArray();
    QCOMPARE(tokenMs.size(), tokens);
    const double accepted = truth.value(QStringLiteral("accepted_ms")).toDouble();
    const double admitted = truth.value(QStringLiteral("admitted_ms")).toDouble();
    QVERIFY(admitted >= accepted);
    QCOMPARE(truth.value(QStringLiteral("first_token_ms")).toDouble(), tokenMs.at(0).toDouble());
    QVERIFY(tokenMs.at(0).toDouble() > admitted);
    for (qsizetype i = 1; i < tokenMs.size(); ++i)
        QVERIFY(tokenMs.at(i).toDouble() >= tokenMs.at(i - 1).toDouble());
    QVERIFY(truth.value(QStringLiteral("finished_ms")).toDouble() >= tokenMs.last().toDouble());
}

void TestSimServer::nonStreaming_data()
{
    QTest::addColumn<bool>("chat");
    QTest::addColumn<bool>("ignoreEos");
    QTest::addRow("completions") << false << true;
    QTest::addRow("completions, eos") << false << false;
    QTest::addRow("chat") << true << true;
    QTest::addRow("chat, eos") << true << false;
}

void TestSimServer::nonStreaming()
{
    QFETCH(bool, chat);
    QFETCH(bool, ignoreEos);
    constexpr int maxTokens = 9;

    SimHost host;
    QVERIFY2(host.start(fastOptions()), qPrintable(host.errorString()));
    const std::optional<Response> r = fetch(host.baseUrl(),
        post(chat ? "/v1/chat/completions" : "/v1/completions",
            chat ? chatBody(maxTokens, false, ignoreEos) : completionBody(maxTokens, false, ignoreEos)));
    QVERIFY(r);
    QCOMPARE(r->status, 200);
    QVERIFY(r->complete);
    QVERIFY(!r->chunked);
    QCOMPARE(r->header("content-type"), QByteArray("application/json"));
    const QJsonObject body = r->json();
    QCOMPARE(body.value(QStringLiteral("object")).toString(),
        chat ? QStringLiteral("chat.completion") : QStringLiteral("text_completion"));
    QCOMPARE(body.value(QStringLiteral("model")).toString(), SimParams().modelId);
    const QJsonObject choice = body.value(QStringLiteral("choices")).toArray().at(0).toObject();
    const QString text = chat
        ? choice.value(QStringLiteral("message")).toObject().value(QStringLiteral("content")).toString()
        : choice.value(QStringLiteral("text")).toString();
    if (chat) {
        QCOMPARE(choice.value(QStringLiteral("message")).toObject().value(QStringLiteral("role")).toString(),
            QStringLiteral("assistant"));
    }
    const QJsonObject usage = body.value(QStringLiteral("usage")).toObject();
    const int tokens = usage.value(QStringLiteral("completion_tokens")).toInt();
    QCOMPARE(countWords(text), tokens);
    QCOMPARE(usage.value(QStringLiteral("prompt_tokens")).toInt(), 5);
    QCOMPARE(usage.value(QStringLiteral("total_tokens")).toInt(), 5 + tokens);
    if (ignoreEos)
        QCOMPARE(tokens, maxTokens);
    QVERIFY(tokens >= 1 && tokens <= maxTokens);
    QCOMPARE(choice.value(QStringLiteral("finish_reason")).toString(),
        tokens == maxTokens ? QStringLiteral("length") : QStringLiteral("stop"));
}

void TestSimServer::errors_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("param"); // empty: null
    QTest::addColumn<QString>("fragment");

    const QByteArray completions = "/v1/completions";
    const QByteArray chat = "/v1/chat/completions";
    QTest::addRow("bad JSON") << post(completions, "{\"prompt\": ") << 400 << QString()
                              << QStringLiteral("Invalid JSON");
    QTest::addRow("not an object") << post(completions, "[1, 2]") << 400 << QString() << QStringLiteral("JSON object");
    QTest::addRow("missing prompt") << post(completions, "{\"max_tokens\": 3}") << 400 << QStringLiteral("prompt")
                                    << QStringLiteral("'prompt'");
    QTest::addRow("empty prompt") << post(completions, "{\"prompt\": \"  \"}") << 400 << QStringLiteral("prompt")
                                  << QStringLiteral("'prompt'");
    QTest::addRow("max_tokens not a number") << post(completions, "{\"prompt\": \"a\", \"max_tokens\": \"3\"}") << 400
                                             << QStringLiteral("max_tokens") << QStringLiteral("'max_tokens'");
    QTest::addRow("max_tokens zero") << post(completions, "{\"prompt\": \"a\", \"max_tokens\": 0}") << 400
                                     << QStringLiteral("max_tokens") << QStringLiteral("at least 1");
    QTest::addRow("max_completion_tokens")
        << post(chat, "{\"messages\": [{\"role\": \"user\", \"content\": \"a\"}], \"max_completion_tokens\": 1.5}")
        << 400 << QStringLiteral("max_completion_tokens") << QStringLiteral("'max_completion_tokens'");
    QTest::addRow("stream not a boolean") << post(completions, "{\"prompt\": \"a\", \"stream\": \"yes\"}") << 400
                                          << QStringLiteral("stream") << QStringLiteral("'stream'");
    QTest::addRow("include_usage not a boolean")
        << post(completions, "{\"prompt\": \"a\", \"stream\": true, \"stream_options\": {\"include_usage\": 1}}") << 400
        << QStringLiteral("stream_options.include_usage") << QStringLiteral("include_usage");
    QTest::addRow("n above 1") << post(completions, "{\"prompt\": \"a\", \"n\": 2}") << 400 << QStringLiteral("n")
                               << QStringLiteral("'n'");
    QTest::addRow("missing messages") << post(chat, "{\"max_tokens\": 3}") << 400 << QStringLiteral("messages")
                                      << QStringLiteral("'messages'");
    QTest::addRow("message content a number")
        << post(chat, "{\"messages\": [{\"role\": \"user\", \"content\": 5}]}") << 400
        << QStringLiteral("messages[0].content") << QStringLiteral("messages[0].content");
    QTest::addRow("message without role") << post(chat, "{\"messages\": [{\"content\": \"a\"}]}") << 400
                                          << QStringLiteral("messages[0].role") << QStringLiteral("role");
    QTest::addRow("model a number") << post(completions, "{\"prompt\": \"a\", \"model\": 3}") << 400
                                    << QStringLiteral("model") << QStringLiteral("'model'");
    QTest::addRow("too long") << post(completions, "{\"prompt\": \"a b c\", \"max_tokens\": 5000}") << 400
                              << QStringLiteral("max_tokens") << QStringLiteral("maximum context length");
    QTest::addRow("unknown model") << post(completions, "{\"prompt\": \"a\", \"model\": \"gpt-9\"}") << 404
                                   << QStringLiteral("model") << QStringLiteral("gpt-9");
    QTest::addRow("unknown path") << get("/v1/nothing") << 404 << QString() << QStringLiteral("/v1/nothing");
    QTest::addRow("unknown path outside v1")
        << get("/favicon.ico") << 404 << QString() << QStringLiteral("/favicon.ico");
    QTest::addRow("GET on completions") << get("/v1/completions") << 405 << QString() << QStringLiteral("GET");
    QTest::addRow("messages without max_tokens")
        << post("/v1/messages", "{\"messages\": [{\"role\": \"user\", \"content\": \"a\"}]}") << 400
        << QStringLiteral("max_tokens") << QStringLiteral("'max_tokens' is required");
    QTest::addRow("messages, system a number") << post("/v1/messages",
        "{\"system\": 5, \"max_tokens\": 3, \"messages\": [{\"role\": \"user\", \"content\": "
        "\"a\"}]}") << 400 << QStringLiteral("system")
                                               << QStringLiteral("'system'");
    QTest::addRow("messages, unknown model") << post("/v1/messages",
        "{\"model\": \"claude-9\", \"max_tokens\": 3, \"messages\": [{\"role\": \"user\", "
        "\"content\": \"a\"}]}") << 404 << QStringLiteral("model")
                                             << QStringLiteral("claude-9");
    QTest::addRow("messages, too long") << post(
        "/v1/messages", "{\"max_tokens\": 5000, \"messages\": [{\"role\": \"user\", \"content\": \"a\"}]}")
                                        << 400 << QStringLiteral("max_tokens")
                                        << QStringLiteral("maximum context length");
    QTest::addRow("responses without input") << post("/v1/responses", "{\"max_output_tokens\": 3}") << 400
                                             << QStringLiteral("input") << QStringLiteral("'input' is required");
    QTest::addRow("responses, input item content a number")
        << post("/v1/responses", "{\"input\": [{\"role\": \"user\", \"content\": 5}]}") << 400
        << QStringLiteral("input[0].content") << QStringLiteral("input[0].content");
    QTest::addRow("embeddings, input item a number") << post("/v1/embeddings", "{\"input\": [\"a\", 5]}") << 400
                                                     << QStringLiteral("input[1]") << QStringLiteral("'input[1]'");
    QTest::addRow("embeddings streamed") << post("/v1/embeddings", "{\"input\": \"a\", \"stream\": true}") << 400
                                         << QStringLiteral("stream") << QStringLiteral("not streamed");
}

void TestSimServer::errors()
{
    QFETCH(QByteArray, request);
    QFETCH(int, status);
    QFETCH(QString, param);
    QFETCH(QString, fragment);

    SimHost host;
    QVERIFY2(host.start(fastOptions()), qPrintable(host.errorString()));
    Client client(host.baseUrl());
    client.send(request);
    QVERIFY(client.waitFor(1));
    const Response& r = client.responses.front();
    QCOMPARE(r.status, status);
    QCOMPARE(r.header("content-type"), QByteArray("application/json"));
    const QJsonObject error = r.json().value(QStringLiteral("error")).toObject();
    QVERIFY2(error.value(QStringLiteral("message")).toString().contains(fragment), r.body.constData());
    if (request.contains(" /v1/messages ")) {
        // Anthropic's shape (https://docs.anthropic.com/en/api/errors): the field is named in the message.
        QCOMPARE(r.json().value(QStringLiteral("type")).toString(), QStringLiteral("error"));
        QCOMPARE(error.value(QStringLiteral("type")).toString(),
            status == 404 ? QStringLiteral("not_found_error") : QStringLiteral("invalid_request_error"));
        QVERIFY2(error.value(QStringLiteral("message")).toString().contains(param), r.body.constData());
        QCOMPARE(error.keys(), QStringList({ QStringLiteral("message"), QStringLiteral("type") }));
    } else {
        QVERIFY(!error.value(QStringLiteral("type")).toString().isEmpty());
        QCOMPARE(error.value(QStringLiteral("code")).toInt(), status);
        if (param.isEmpty())
            QVERIFY(error.value(QStringLiteral("param")).isNull());
        else
            QCOMPARE(error.value(QStringLiteral("param")).toString(), param);
    }

    // Errors keep the connection usable.
    client.send(get("/health"));
    QVERIFY(client.waitFor(2));
    QCOMPARE(client.responses[1].status, 200);
}

void TestSimServer::apiKey_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<int>("status");

    const QByteArray body = completionBody(2, false);
    QTest::addRow("missing") << post("/v1/completions", body) << 401;
    QTest::addRow("wrong") << post("/v1/completions", body, "Authorization: Bearer nope\r\n") << 401;
    QTest::addRow("not bearer") << post("/v1/completions", body, "Authorization: Basic s3cret\r\n") << 401;
    QTest::addRow("right") << post("/v1/completions", body, "Authorization: Bearer s3cret\r\n") << 200;
    QTest::addRow("right, lower-case scheme")
        << post("/v1/completions", body, "authorization: bearer s3cret\r\n") << 200;
    QTest::addRow("models without key") << get("/v1/models") << 401;
    QTest::addRow("models with key") << get("/v1/models", "Authorization: Bearer s3cret\r\n") << 200;
    const QByteArray messages = "{\"max_tokens\": 2, \"messages\": [{\"role\": \"user\", \"content\": \"a b\"}]}";
    QTest::addRow("messages, right x-api-key") << post("/v1/messages", messages, "x-api-key: s3cret\r\n") << 200;
    QTest::addRow("messages, wrong x-api-key") << post("/v1/messages", messages, "x-api-key: nope\r\n") << 401;
    QTest::addRow("messages, bearer") << post("/v1/messages", messages, "Authorization: Bearer s3cret\r\n") << 200;
    QTest::addRow("models with x-api-key") << get("/v1/models", "x-api-key: s3cret\r\n") << 200;
    QTest::addRow("health needs none") << get("/health") << 200;
    QTest::addRow("metrics need none") << get("/metrics") << 200;
}

void TestSimServer::apiKey()
{
    QFETCH(QByteArray, request);
    QFETCH(int, status);

    SimServerOptions options = fastOptions();
    options.apiKey = QStringLiteral("s3cret");
    SimHost host;
    QVERIFY2(host.start(options), qPrintable(host.errorString()));
    const std::optional<Response> r = fetch(host.baseUrl(), request);
    QVERIFY(r);
    QCOMPARE(r->status, status);
    if (status == 401) {
        const QJsonObject error = r->json().value(QStringLiteral("error")).toObject();
        if (request.contains(" /v1/messages ")) // Anthropic's shape
            QCOMPARE(error.value(QStringLiteral("type")).toString(), QStringLiteral("authentication_error"));
        else
            QCOMPARE(error.value(QStringLiteral("code")).toInt(), 401);
        QVERIFY(!error.value(QStringLiteral("message")).toString().isEmpty());
    }
}

void TestSimServer::keepAliveAndPipelining()
{
    SimHost host;
    QVERIFY2(host.start(fastOptions()), qPrintable(host.errorString()));
    Client client(host.baseUrl());

    // One after another on the same connection.
    client.send(get("/health"));
    QVERIFY(client.waitFor(1));
    client.send(post("/v1/completions", completionBody(4, true)));
    QVERIFY(client.waitFor(2));
    client.send(post("/v1/chat/completions", chatBody(4, false)));
    QVERIFY(client.waitFor(3));
    QCOMPARE(client.responses[0].status, 200);
    QCOMPARE(client.responses[1].status, 200);
    QVERIFY(client.responses[1].body.endsWith("data: [DONE]\n\n"));
    QCOMPARE(client.responses[2].json().value(QStringLiteral("object")).toString(), QStringLiteral("chat.completion"));

    // Pipelined: all in one write, answered in order, a stream included.
    client.send(get("/version") + post("/v1/completions", completionBody(3, true)) + get("/v1/models")
        + post("/v1/completions", completionBody(2, false)));
    QVERIFY(client.waitFor(7));
    QVERIFY(client.responses[3].json().contains(QStringLiteral("version")));
    QVERIFY(client.responses[4].body.endsWith("data: [DONE]\n\n"));
    QCOMPARE(client.responses[5].json().value(QStringLiteral("object")).toString(), QStringLiteral("list"));
    QCOMPARE(client.responses[6].json().value(QStringLiteral("object")).toString(), QStringLiteral("text_completion"));
    QVERIFY(!client.closed);

    // Connection: close is honoured after the response.
    client.send(get("/health", "Connection: close\r\n"));
    QVERIFY(client.waitFor(8));
    QCOMPARE(client.responses[7].header("connection"), QByteArray("close"));
    QVERIFY(client.waitClosed());
}

void TestSimServer::expectContinue()
{
    SimHost host;
    QVERIFY2(host.start(fastOptions()), qPrintable(host.errorString()));
    Client client(host.baseUrl());
    const QByteArray body = completionBody(2, false);
    client.send("POST /v1/completions HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: "
        + QByteArray::number(body.size()) + "\r\n\r\n");
    QTRY_VERIFY_WITH_TIMEOUT(client.received.startsWith("HTTP/1.1 100 Continue\r\n\r\n"), waitMs);
    client.send(body);
    QVERIFY(client.waitFor(1));
    QCOMPARE(client.responses.front().status, 200);
}

void TestSimServer::http10Stream()
{
    SimHost host;
    QVERIFY2(host.start(fastOptions()), qPrintable(host.errorString()));
    Client client(host.baseUrl());
    const QByteArray body = completionBody(3, true);
    client.send(
        "POST /v1/completions HTTP/1.0\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body);
    QVERIFY(client.waitClosed());
    QVERIFY(client.waitFor(1));
    const Response& r = client.responses.front();
    QCOMPARE(r.status, 200);
    QVERIFY(!r.chunked);
    QList<QByteArray> events;
    QVERIFY(splitEvents(r.body, &events));
    QCOMPARE(events.size(), 4);
    QCOMPARE(events.last(), QByteArray("[DONE]"));
}

void TestSimServer::badFraming_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<int>("status");

    QTest::addRow("garbage") << QByteArray("HELLO\r\n\r\n") << 400;
    QTest::addRow("absolute target") << QByteArray("GET http://127.0.0.1/health HTTP/1.1\r\n\r\n") << 400;
    QTest::addRow("HTTP/2.0") << QByteArray("GET /health HTTP/2.0\r\n\r\n") << 505;
    QTest::addRow("chunked body") << QByteArray("POST /v1/completions HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                                                "5\r\nhello\r\n0\r\n\r\n")
                                  << 411;
    QTest::addRow("bad content-length") << QByteArray("POST /v1/completions HTTP/1.1\r\nContent-Length: -1\r\n\r\n")
                                        << 400;
    QTest::addRow("binary") << QByteArray("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", 15) << 400;
}

void TestSimServer::badFraming()
{
    QFETCH(QByteArray, request);
    QFETCH(int, status);

    SimHost host;
    QVERIFY2(host.start(fastOptions()), qPrintable(host.errorString()));
    Client client(host.baseUrl());
    client.send(request);
    QVERIFY(client.waitClosed());
    QCOMPARE(client.responses.size(), std::size_t(1));
    QCOMPARE(client.responses.front().status, status);
    QCOMPARE(client.responses.front().header("connection"), QByteArray("close"));
}

void TestSimServer::metrics()
{
    SimHost host;
    QVERIFY2(host.start(fastOptions()), qPrintable(host.errorString()));
    std::optional<Response> done = fetch(host.baseUrl(), post("/v1/completions", completionBody(5, true)));
    QVERIFY(done && done->complete);

    const std::optional<Response> r = fetch(host.baseUrl(), get("/metrics"));
    QVERIFY(r);
    QCOMPARE(r->status, 200);
    QVERIFY(r->header("content-type").startsWith("text/plain"));
    const QByteArray label = "model_name=\"" + SimParams().modelId.toUtf8() + '"';
    for (const char* name : { "vllm:num_requests_running", "vllm:num_requests_waiting", "vllm:gpu_cache_usage_perc",
             "vllm:kv_cache_usage_perc", "vllm:num_preemptions_total", "vllm:prompt_tokens_total",
             "vllm:generation_tokens_total", "vllm:request_success_total", "vllm:time_to_first_token_seconds" }) {
        QVERIFY2(r->body.contains("# TYPE " + QByteArray(name) + ' '), name);
        QVERIFY2(r->body.contains(QByteArray(name)), name);
    }
    QVERIFY(r->body.contains("vllm:num_requests_running{" + label + "} 0.0\n"));
    QVERIFY(r->body.contains("vllm:request_success_total{finished_reason=\"length\"," + label + "} 1.0\n"));
    QVERIFY(r->body.contains("vllm:generation_tokens_total{" + label + "} 5.0\n"));
    QVERIFY(r->body.contains("vllm:prompt_tokens_total{" + label + "} 5.0\n"));
    QVERIFY(r->body.contains("vllm:time_to_first_token_seconds_bucket{le=\"0.001\"," + label + "} "));
    QVERIFY(r->body.contains("vllm:time_to_first_token_seconds_bucket{le=\"2560.0\"," + label + "} 1.0\n"));
    QVERIFY(r->body.contains("vllm:time_to_first_token_seconds_bucket{le=\"+Inf\"," + label + "} 1.0\n"));
    QVERIFY(r->body.contains("vllm:time_to_first_token_seconds_count{" + label + "} 1.0\n"));
    QCOMPARE(r->body.count("vllm:time_to_first_token_seconds_bucket{"), 23);
}

// Every value of a histogram family: bucket bound -> cumulative count, and _count, _sum.
struct ScrapedHistogram
{
    std::map<double, double> buckets;
    double count = -1;
    double sum = -1;
};

ScrapedHistogram scrapedHistogram(const QByteArray& text, const QByteArray& name)
{
    ScrapedHistogram h;
    for (const QByteArray& line : text.split('\n')) {
        const double value = line.mid(line.lastIndexOf(' ') + 1).toDouble();
        if (line.startsWith(name + "_bucket{le=\"")) {
            const qsizetype from = name.size() + 12;
            const QByteArray bound = line.mid(from, line.indexOf('"', from) - from);
            h.buckets[bound == "+Inf" ? std::numeric_limits<double>::infinity() : bound.toDouble()] = value;
        } else if (line.startsWith(name + "_count{")) {
            h.count = value;
        } else if (line.startsWith(name + "_sum{")) {
            h.sum = value;
        }
    }
    return h;
}

// The queue, prefill, decode and inference histograms hold exactly the phases of the ground truth: the
// same count, the same sum, every bucket's count; and queue + prefill is the TTFT histogram's sum.
void TestSimServer::preEngineLatency()
{
    // A request reaches the engine pre_engine_ms plus its exponential draw after the server accepted it, in
    // simulated time: the ground truth's admission is at least that late (a late timer only adds), and its
    // first token after that; the draw is SimModel::preEngineDelayMs of the seed and the request's order.
    SimServerOptions options = fastOptions();
    options.params.preEngineMs = 300;
    options.params.preEngineSpreadMs = 100;
    SimHost host;
    QVERIFY2(host.start(options), qPrintable(host.errorString()));
    std::vector<double> delays;
    for (int i = 0; i < 4; ++i) {
        const std::optional<Response> r = fetch(host.baseUrl(), post("/v1/completions", completionBody(3, i % 2 == 0)));
        QVERIFY(r);
        QCOMPARE(r->status, 200);
    }
    const QJsonArray all = fetchJson(host.baseUrl(), "/debug/requests").value(QStringLiteral("requests")).toArray();
    QCOMPARE(all.size(), 4);
    for (const QJsonValue& v : all) {
        const QJsonObject t = v.toObject();
        const quint64 seq = quint64(t.value(QStringLiteral("seq")).toInteger());
        const double delay = SimModel::preEngineDelayMs(options.params, options.seed, seq - 1);
        delays.push_back(delay);
        const double accepted = t.value(QStringLiteral("accepted_ms")).toDouble();
        const QByteArray where = "request " + QByteArray::number(seq) + ", delay " + QByteArray::number(delay);
        QVERIFY2(t.value(QStringLiteral("admitted_ms")).toDouble() >= accepted + delay - 1e-6, where.constData());
        QVERIFY2(t.value(QStringLiteral("first_generated_ms")).toDouble() > accepted + delay, where.constData());
    }
    // Each request its own draw, every one above the fixed part.
    std::sort(delays.begin(), delays.end());
    QVERIFY(delays.front() > 300);
    QVERIFY(std::adjacent_find(delays.begin(), delays.end()) == delays.end());
    // Without a spread the delay is the fixed part alone.
    SimParams fixed;
    fixed.preEngineMs = 300;
    QCOMPARE(SimModel::preEngineDelayMs(fixed, 42, 7), 300.0);
    QCOMPARE(SimModel::preEngineDelayMs(SimParams {}, 42, 7), 0.0);
}

void TestSimServer::apiServerQueue()
{
    // The API server takes api_server_ms of simulated time per request, one at a time in the order they came: six
    // requests sent at once reach the engine one service apart. Each ground truth's admission is at least when the
    // queue lets it go (leaving = max(accepted, the previous one leaving) + api_server_ms; a late timer only adds),
    // and the last one waited for the five before it.
    constexpr double kServiceMs = 500; // 25 ms of the wall clock at time scale 20
    constexpr int kRequests = 6;
    SimServerOptions options = fastOptions();
    options.params.apiServerMs = kServiceMs;
    SimHost host;
    QVERIFY2(host.start(options), qPrintable(host.errorString()));
    std::vector<std::unique_ptr<Client>> clients;
    const QByteArray request = post("/v1/completions", completionBody(3, true));
    for (int i = 0; i < kRequests; ++i) {
        clients.push_back(std::make_unique<Client>(host.baseUrl()));
        clients.back()->send(request);
    }
    const auto finished = [&] {
        return int(std::count_if(
            clients.cbegin(), clients.cend(), [](const auto& c) { return !c->responses.empty() || c->closed; }));
    };
    QTRY_COMPARE_WITH_TIMEOUT(finished(), kRequests, 60000);
    for (const auto& client : clients) {
        QVERIFY(!client->closed);
        QCOMPARE(client->responses.front().status, 200);
    }
    QJsonArray all = fetchJson(host.baseUrl(), "/debug/requests").value(QStringLiteral("requests")).toArray();
    QCOMPARE(all.size(), kRequests);
    std::vector<QJsonObject> truths;
    for (const QJsonValue& v : all)
        truths.push_back(v.toObject());
    std::sort(truths.begin(), truths.end(), [](const QJsonObject& a, const QJsonObject& b) {
        return a.value(QStringLiteral("seq")).toInteger() < b.value(QStringLiteral("seq")).toInteger();
    });
    double leaving = 0;
    for (const QJsonObject& t : truths) {
        const double accepted = t.value(QStringLiteral("accepted_ms")).toDouble();
        leaving = std::max(accepted, leaving) + kServiceMs;
        const QByteArray where = "request " + QByteArray::number(t.value(QStringLiteral("seq")).toInteger())
            + ", leaving the API server at " + QByteArray::number(leaving);
        QVERIFY2(t.value(QStringLiteral("admitted_ms")).toDouble() >= leaving - 1e-6, where.constData());
    }
    const QJsonObject& last = truths.back();
    const double waited
        = last.value(QStringLiteral("admitted_ms")).toDouble() - last.value(QStringLiteral("accepted_ms")).toDouble();
    QVERIFY2(waited >= 3 * kServiceMs, qPrintable(QString::number(waited)));
    // The queue by itself: one service each, in turn.
    ApiServerQueue queue(100);
    QCOMPARE(queue.pass(0), 100.0);
    QCOMPARE(queue.pass(50), 200.0);
    QCOMPARE(queue.pass(1000), 1100.0);
    ApiServerQueue none(0);
    QVERIFY(!none.active());
    QCOMPARE(none.pass(42), 42.0);
}

void TestSimServer::phaseHistograms()
{
    SimServerOptions options = fastOptions();
    options.params.maxNumSeqs = 2; // six requests at once: four of them wait for a slot
    SimHost host;
    QVERIFY2(host.start(options), qPrintable(host.errorString()));
    constexpr int requests = 6;
    std::vector<std::unique_ptr<Client>> clients;
    for (int i = 0; i < requests; ++i) {
        clients.push_back(std::make_unique<Client>(host.baseUrl()));
        clients.back()->send(post("/v1/completions", completionBody(8 + i, true)));
    }
    for (const auto& client : clients)
        QVERIFY(client->waitFor(1));

    const std::optional<Response> r = fetch(host.baseUrl(), get("/metrics"));
    QVERIFY(r);
    const QJsonArray truth = fetchJson(host.baseUrl(), "/debug/requests").value(QStringLiteral("requests")).toArray();
    QCOMPARE(truth.size(), requests);
    std::map<QByteArray, std::vector<double>> phases; // seconds of simulated time
    for (const QJsonValue& v : truth) {
        const QJsonObject t = v.toObject();
        QCOMPARE(t.value(QStringLiteral("outcome")).toString(), QStringLiteral("completed"));
        const auto ms = [&](const char* key) { return t.value(QLatin1String(key)).toDouble(); };
        // vLLM's phases; the simulator orders the times first (a model catching up may run an iteration that
        // began before the request was accepted), as it does for its histograms.
        const double accepted = ms("accepted_ms");
        const double first = std::max(ms("first_generated_ms"), accepted);
        const double last = std::max(ms("last_generated_ms"), first);
        const double scheduled = std::min(std::max(ms("admitted_ms"), accepted), first);
        QVERIFY(ms("admitted_ms") >= 0 && ms("last_generated_ms") >= ms("first_generated_ms"));
        phases["vllm:request_queue_time_seconds"].push_back((scheduled - accepted) / 1000.0);
        phases["vllm:request_prefill_time_seconds"].push_back((first - scheduled) / 1000.0);
        phases["vllm:request_decode_time_seconds"].push_back((last - first) / 1000.0);
        phases["vllm:request_inference_time_seconds"].push_back((last - scheduled) / 1000.0);
        phases["vllm:time_to_first_token_seconds"].push_back((first - accepted) / 1000.0);
    }
    // The ground truth's times are rounded to the microsecond: a difference of two by up to one, a sum of n by n.
    const double rounding = requests * 2e-6;
    for (const auto& [name, values] : phases) {
        QVERIFY2(r->body.contains("# TYPE " + name + " histogram\n"), name.constData());
        const ScrapedHistogram h = scrapedHistogram(r->body, name);
        QCOMPARE(h.count, double(requests));
        QVERIFY2(std::fabs(h.sum - std::accumulate(values.begin(), values.end(), 0.0)) <= rounding, name.constData());
        // vLLM's bounds, and every bucket's count (values within the rounding of a bound aside).
        const std::vector<double> bounds
            = name == "vllm:time_to_first_token_seconds" ? vllmTtftBuckets() : vllmRequestPhaseBuckets();
        QCOMPARE(h.buckets.size(), bounds.size() + 1);
        for (const double bound : bounds) {
            QVERIFY2(h.buckets.count(bound), name.constData());
            if (std::any_of(values.begin(), values.end(), [&](double v) { return std::fabs(v - bound) < 1e-5; }))
                continue;
            QCOMPARE(h.buckets.at(bound),
                double(std::count_if(values.begin(), values.end(), [&](double v) { return v <= bound; })));
        }
    }
    // Requests waited for a batch slot: some queue time is there, and TTFT is queue + prefill.
    const auto sumOf = [&](const char* name) { return scrapedHistogram(r->body, name).sum; };
    QVERIFY(sumOf("vllm:request_queue_time_seconds") > 0.0);
    QVERIFY(std::fabs(sumOf("vllm:time_to_first_token_seconds") - sumOf("vllm:request_queue_time_seconds")
                - sumOf("vllm:request_prefill_time_seconds"))
        <= 1e-9);
}

// The value of a DCGM family's sample for one GPU; -1 when absent.
double gpuValue(const QByteArray& text, const QByteArray& name, int gpu)
{
    const QByteArray head = name + "{gpu=\"" + QByteArray::number(gpu) + "\",";
    for (const QByteArray& line : text.split('\n')) {
        if (line.startsWith(head))
            return line.mid(line.lastIndexOf(' ') + 1).toDouble();
    }
    return -1;
}

void TestSimServer::gpuMetrics()
{
    SimServerOptions options = fastOptions();
    QVERIFY(applySimConfig(R"({"gpus": 2})", QStringLiteral("gpus.json"), options).isEmpty());
    QCOMPARE(options.gpus, 2);
    QCOMPARE(applySimConfig(R"({"gpus": -1})", QStringLiteral("gpus.json"), options).contains(u"gpus"), true);
    SimHost host;
    QVERIFY2(host.start(options), qPrintable(host.errorString()));

    const std::optional<Response> idle = fetch(host.baseUrl(), get("/metrics"));
    QVERIFY(idle);
    // dcgm-exporter's shape: HELP and TYPE, one sample per GPU with its labels, the value last.
    QVERIFY(
        idle->body.contains("# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).\n"
                            "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"
                            "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-00000000-0000-4000-8000-000000000000\","
                            "pci_bus_id=\"00000000:10:00.0\",device=\"nvidia0\",modelName=\"Kneepoint Simulated GPU\","
                            "Hostname=\"kneepoint-sim\"} "));
    QVERIFY(idle->body.contains("# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counter\n"));
    QVERIFY(idle->body.contains("# TYPE DCGM_FI_DEV_POWER_USAGE gauge\n"));
    QCOMPARE(idle->body.count("DCGM_FI_DEV_FB_USED{"), 2);
    QCOMPARE(gpuValue(idle->body, "DCGM_FI_DEV_FB_USED", 0), 30000.0); // the fixed part, the KV cache empty
    QCOMPARE(gpuValue(idle->body, "DCGM_FI_DEV_FB_FREE", 1), 51559.0);
    QCOMPARE(gpuValue(idle->body, "DCGM_FI_DEV_GPU_UTIL", 0), 0.0);
    QCOMPARE(gpuValue(idle->body, "DCGM_FI_DEV_POWER_USAGE", 1), 75.0);

    const int tokens = 40;
    std::optional<Response> done = fetch(host.baseUrl(), post("/v1/completions", completionBody(tokens, true)));
    QVERIFY(done && done->complete);
    const QJsonObject before = fetchJson(host.baseUrl(), "/debug/stats");
    const std::optional<Response> loaded = fetch(host.baseUrl(), get("/metrics"));
    const QJsonObject after = fetchJson(host.baseUrl(), "/debug/stats");
    QVERIFY(loaded);
    // Each token took an iteration of at least t_base_ms; nothing ran between the two stats.
    const double busy = before.value(u"busy_ms").toDouble();
    QVERIFY2(busy >= tokens * SimParams().tBaseMs, qPrintable(QString::number(busy)));
    QCOMPARE(after.value(u"busy_ms").toDouble(), busy);
    // The counter integrates 75 W idle and 700 W busy over the simulated clock, per GPU, in mJ.
    const double energy = gpuValue(loaded->body, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", 0);
    QCOMPARE(gpuValue(loaded->body, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", 1), energy);
    QVERIFY(energy + 1 >= 75.0 * before.value(u"now_ms").toDouble() + 625.0 * busy);
    QVERIFY(energy <= 75.0 * after.value(u"now_ms").toDouble() + 625.0 * busy);
    // Idle again, utilisation falls back to 0 once a simulated second has passed.
    QTRY_COMPARE(gpuValue(fetch(host.baseUrl(), get("/metrics"))->body, "DCGM_FI_DEV_GPU_UTIL", 1), 0.0);
}

void TestSimServer::inFlightAndAbort()
{
    constexpr int streams = 20;
    SimHost host;
    // Real time: the streams outlive the test unless it aborts them.
    QVERIFY2(host.start(fastOptions(1)), qPrintable(host.errorString()));
    std::vector<std::unique_ptr<Client>> clients;
    for (int i = 0; i < streams; ++i) {
        clients.push_back(std::make_unique<Client>(host.baseUrl()));
        clients.back()->send(post(
            "/v1/completions", completionBody(2000, true), "X-Request-Id: abort-" + QByteArray::number(i) + "\r\n"));
    }
    for (const auto& client : clients)
        QTRY_VERIFY_WITH_TIMEOUT(client->received.contains("\r\n\r\n"), waitMs);

    QJsonObject stats = fetchJson(host.baseUrl(), "/debug/stats");
    QCOMPARE(stats.value(QStringLiteral("in_flight")).toInt(), streams);
    QCOMPARE(stats.value(QStringLiteral("peak_in_flight")).toInt(), streams);
    QCOMPARE(host.server()->peakInFlight(), streams);

    for (const auto& client : clients)
        client->socket.abort();
    QTRY_COMPARE_WITH_TIMEOUT(host.server()->inFlight(), 0, waitMs);
    stats = fetchJson(host.baseUrl(), "/debug/stats");
    QCOMPARE(stats.value(QStringLiteral("in_flight")).toInt(), 0);
    QCOMPARE(stats.value(QStringLiteral("peak_in_flight")).toInt(), streams);
    QCOMPARE(stats.value(QStringLiteral("running")).toInt() + stats.value(QStringLiteral("waiting")).toInt(), 0);

    const QJsonArray truth = fetchJson(host.baseUrl(), "/debug/requests").value(QStringLiteral("requests")).toArray();
    QCOMPARE(truth.size(), streams);
    for (const QJsonValue& v : truth) {
        QCOMPARE(v.toObject().value(QStringLiteral("outcome")).toString(), QStringLiteral("aborted"));
        QCOMPARE(v.toObject().value(QStringLiteral("finish_reason")).toString(), QStringLiteral("abort"));
    }

    // Reset: the peak starts again from what is in flight now.
    std::optional<Response> reset = fetch(host.baseUrl(), "DELETE /debug/stats HTTP/1.1\r\n\r\n");
    QVERIFY(reset);
    QCOMPARE(fetchJson(host.baseUrl(), "/debug/stats").value(QStringLiteral("peak_in_flight")).toInt(), 0);

    // Only the newer records, by acceptance order.
    const QJsonArray newer
        = fetchJson(host.baseUrl(), "/debug/requests?since=15").value(QStringLiteral("requests")).toArray();
    QCOMPARE(newer.size(), streams - 15);
    QCOMPARE(newer.at(0).toObject().value(QStringLiteral("seq")).toInt(), 16);

    // Clearing the ground truth.
    const std::optional<Response> cleared = fetch(host.baseUrl(), get("/debug/requests?clear=1"));
    QVERIFY(cleared);
    QCOMPARE(cleared->json().value(QStringLiteral("requests")).toArray().size(), streams);
    QVERIFY(fetchJson(host.baseUrl(), "/debug/requests").value(QStringLiteral("requests")).toArray().isEmpty());
}

void TestSimServer::faults_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<bool>("stream");
    for (const QString& kind : faultKindNames()) {
        QTest::addRow("%s, stream", qPrintable(kind)) << kind << true;
        QTest::addRow("%s, whole body", qPrintable(kind)) << kind << false;
    }
}

void TestSimServer::faults()
{
    QFETCH(QString, kind);
    QFETCH(bool, stream);
    constexpr int maxTokens = 8;
    constexpr double delayMs = 500; // simulated

    SimServerOptions options = fastOptions();
    QVERIFY(applyFaultSpec(kind + QStringLiteral(":1"), options.faults).isEmpty());
    options.faults.stallSeconds = delayMs / 1000;
    options.faults.slowFirstByteSeconds = delayMs / 1000;
    SimHost host;
    QVERIFY2(host.start(options), qPrintable(host.errorString()));

    Client client(host.baseUrl());
    client.send(post("/v1/completions", completionBody(maxTokens, stream, true, true), "X-Request-Id: fault\r\n"));
    QVERIFY(client.waitFor(1));
    const Response& r = client.responses.front();
    const QJsonObject truth = truthFor(host.baseUrl(), QStringLiteral("fault"));
    QCOMPARE(truth.value(QStringLiteral("fault")).toString(), kind);
    const double accepted = truth.value(QStringLiteral("accepted_ms")).toDouble();
    const QJsonArray tokenMs = truth.value(QStringLiteral("token_ms")).toArray();

    QList<QByteArray> events;
    if (stream && r.status == 200)
        QVERIFY2(splitEvents(r.body, &events), r.body.constData());
    const auto parses = [](const QByteArray& payload) {
        QJsonParseError error {};
        QJsonDocument::fromJson(payload, &error);
        return error.error == QJsonParseError::NoError;
    };

    const std::optional<FaultKind> fault = faultKindFromName(kind);
    QVERIFY(fault);
    switch (*fault) {
    case FaultKind::Http500:
    case FaultKind::Http503:
    case FaultKind::Http429: {
        const int status = kind.toInt();
        QCOMPARE(r.status, status);
        QCOMPARE(r.json().value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(), status);
        if (*fault == FaultKind::Http429)
            QCOMPARE(r.header("retry-after"), QByteArray("1"));
        QCOMPARE(truth.value(QStringLiteral("status")).toInt(), status);
        QCOMPARE(truth.value(QStringLiteral("outcome")).toString(), QStringLiteral("rejected"));
        break;
    }
    case FaultKind::ErrorBody:
        QCOMPARE(r.status, 200);
        QCOMPARE(truth.value(QStringLiteral("outcome")).toString(), QStringLiteral("error"));
        if (stream) {
            QCOMPARE(events.last(), QByteArray("[DONE]"));
            const QJsonObject error = QJsonDocument::fromJson(events[events.size() - 2]).object();
            QVERIFY(error.value(QStringLiteral("error")).isObject());
            QCOMPARE(events.size(), maxTokens / 2 + 2);
        } else {
            QVERIFY(r.json().value(QStringLiteral("error")).isObject());
            QVERIFY(!r.json().contains(QStringLiteral("choices")));
        }
        break;
    case FaultKind::Malformed:
        QCOMPARE(r.status, 200);
        QVERIFY(r.complete);
        if (stream) {
            QCOMPARE(events.last(), QByteArray("[DONE]"));
            events.removeLast();
            QCOMPARE(std::count_if(events.cbegin(), events.cend(), parses), events.size() - 1);
        } else {
            QVERIFY(!parses(r.body));
        }
        break;
    case FaultKind::Cut:
        QVERIFY(client.waitClosed());
        QCOMPARE(r.status, 200);
        QVERIFY(!r.complete);
        QVERIFY(!r.body.contains("[DONE]"));
        QCOMPARE(truth.value(QStringLiteral("outcome")).toString(), QStringLiteral("cut"));
        if (stream)
            QCOMPARE(events.size(), maxTokens / 2);
        break;
    case FaultKind::Stall:
        QCOMPARE(r.status, 200);
        QVERIFY(r.complete);
        QCOMPARE(truth.value(QStringLiteral("outcome")).toString(), QStringLiteral("completed"));
        if (stream) {
            QCOMPARE(tokenMs.size(), maxTokens);
            QVERIFY(tokenMs.at(maxTokens / 2).toDouble() - tokenMs.at(maxTokens / 2 - 1).toDouble() >= delayMs);
        } else {
            QVERIFY(truth.value(QStringLiteral("finished_ms")).toDouble() - accepted >= delayMs);
        }
        break;
    case FaultKind::SlowFirstByte:
        QCOMPARE(r.status, 200);
        QVERIFY(r.complete);
        QCOMPARE(truth.value(QStringLiteral("outcome")).toString(), QStringLiteral("completed"));
        if (stream)
            QVERIFY(truth.value(QStringLiteral("first_token_ms")).toDouble() - accepted >= delayMs);
        QVERIFY(truth.value(QStringLiteral("finished_ms")).toDouble() - accepted >= delayMs);
        break;
    case FaultKind::None:
        QFAIL("no fault drawn");
    }
}

void TestSimServer::faultsSeeded()
{
    constexpr int requests = 40;
    const auto statuses = [](quint64 seed) {
        SimServerOptions options = fastOptions();
        options.seed = seed;
        applyFaultSpec(QStringLiteral("429:0.3"), options.faults);
        applyFaultSpec(QStringLiteral("503:0.2"), options.faults);
        SimHost host;
        QList<int> result;
        if (!host.start(options))
            return result;
        Client client(host.baseUrl());
        QByteArray all;
        for (int i = 0; i < requests; ++i)
            all += post("/v1/completions", completionBody(1, false));
        client.send(all);
        client.waitFor(requests);
        for (const Response& r : client.responses)
            result.append(r.status);
        return result;
    };
    const QList<int> first = statuses(7);
    QCOMPARE(first.size(), requests);
    QCOMPARE(statuses(7), first);
    QVERIFY(first.contains(200) && first.contains(429) && first.contains(503));
    QVERIFY(statuses(8) != first);
}

void TestSimServer::concurrentStreams()
{
    constexpr int streams = 500;
    constexpr int maxTokens = 16;
    if (m_fileLimit >= 0 && m_fileLimit < 2 * streams + 100)
        QSKIP("the open-file hard limit is too low for 500 streams with both ends in this process");
    SimHost host;
    QVERIFY2(host.start(fastOptions()), qPrintable(host.errorString()));

    std::vector<std::unique_ptr<Client>> clients;
    clients.reserve(streams);
    const QByteArray request = post("/v1/completions", completionBody(maxTokens, true, true, true));
    for (int i = 0; i < streams; ++i) {
        clients.push_back(std::make_unique<Client>(host.baseUrl()));
        clients.back()->send(request);
    }
    const auto finished = [&] {
        return int(std::count_if(
            clients.cbegin(), clients.cend(), [](const auto& c) { return !c->responses.empty() || c->closed; }));
    };
    QTRY_COMPARE_WITH_TIMEOUT(finished(), streams, 120000);

    for (const auto& client : clients) {
        QVERIFY(!client->closed);
        const Response& r = client->responses.front();
        QCOMPARE(r.status, 200);
        QVERIFY(r.complete);
        QList<QByteArray> events;
        QVERIFY(splitEvents(r.body, &events));
        QCOMPARE(events.size(), maxTokens + 2); // tokens, usage, [DONE]
        QCOMPARE(events.last(), QByteArray("[DONE]"));
    }
    const QJsonObject stats = fetchJson(host.baseUrl(), "/debug/stats");
    QCOMPARE(stats.value(QStringLiteral("accepted_total")).toInt(), streams);
    QCOMPARE(stats.value(QStringLiteral("finished_total")).toInt(), streams);
    QVERIFY(stats.value(QStringLiteral("peak_in_flight")).toInt() <= streams);
    QVERIFY(stats.value(QStringLiteral("peak_connections")).toInt() >= 1);
}

void TestSimServer::portInUse()
{
    SimHost first;
    QVERIFY2(first.start(fastOptions()), qPrintable(first.errorString()));
    SimHost second;
    QVERIFY(!second.start(fastOptions(), QHostAddress(QHostAddress::LocalHost), first.port()));
    QVERIFY2(second.errorString().contains(QString::number(first.port())), qPrintable(second.errorString()));
    QVERIFY(!second.isRunning());
}

void TestSimServer::prefixCache_data()
{
    QTest::addColumn<bool>("chat");
    QTest::addColumn<bool>("stream");
    QTest::addColumn<QByteArray>("config");
    QTest::addColumn<int>("expectedCached");
    // 40 words, or 20 + 20 in two messages: two full blocks, the third holds the last token.
    QTest::addRow("completions, streamed") << false << true << QByteArray() << 32;
    QTest::addRow("completions, not streamed") << false << false << QByteArray() << 32;
    QTest::addRow("chat, streamed") << true << true << QByteArray() << 32;
    QTest::addRow("chat, not streamed") << true << false << QByteArray() << 32;
    QTest::addRow("prefix_cache off, streamed") << false << true << QByteArray(R"({"prefix_cache": false})") << 0;
    QTest::addRow("prefix_cache off, chat") << true << false << QByteArray(R"({"prefix_cache": false})") << 0;
}

void TestSimServer::prefixCache()
{
    QFETCH(bool, chat);
    QFETCH(bool, stream);
    QFETCH(QByteArray, config);
    QFETCH(int, expectedCached);
    SimServerOptions options = fastOptions();
    if (!config.isEmpty()) {
        const QString error = applySimConfig(config, QStringLiteral("test.json"), options);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(!options.params.prefixCache);
    }
    SimHost host;
    QVERIFY2(host.start(options), qPrintable(host.errorString()));
    const QJsonArray input = chat ? QJsonArray { message(QStringLiteral("system"), words(QStringLiteral("s"), 20)),
        message(QStringLiteral("user"), words(QStringLiteral("u"), 20)) }
                                  : QJsonArray { words(QStringLiteral("w"), 40) };
    const QByteArray path = chat ? "/v1/chat/completions" : "/v1/completions";

    for (const int expected : { 0, expectedCached }) {
        const std::optional<Response> r = fetch(host.baseUrl(), post(path, generationBody(chat, input, stream)));
        QVERIFY(r && r->complete);
        QCOMPARE(r->status, 200);
        const QJsonObject usage = usageOf(*r);
        QCOMPARE(usage.value(QStringLiteral("prompt_tokens")).toInt(), 40);
        QCOMPARE(usage.value(QStringLiteral("completion_tokens")).toInt(), 3);
        QVERIFY(usage.value(QStringLiteral("prompt_tokens_details")).isObject());
        QCOMPARE(usage.value(QStringLiteral("prompt_tokens_details"))
                     .toObject()
                     .value(QStringLiteral("cached_tokens"))
                     .toInt(-1),
            expected);
    }

    const QJsonArray truth = fetchJson(host.baseUrl(), "/debug/requests").value(QStringLiteral("requests")).toArray();
    QCOMPARE(truth.size(), 2);
    QCOMPARE(truth.at(0).toObject().value(QStringLiteral("cached_tokens")).toInt(-1), 0);
    QCOMPARE(truth.at(1).toObject().value(QStringLiteral("cached_tokens")).toInt(-1), expectedCached);

    const std::optional<Response> metrics = fetch(host.baseUrl(), get("/metrics"));
    QVERIFY(metrics);
    QVERIFY(metrics->body.contains("# TYPE vllm:prefix_cache_queries_total counter\n"));
    QVERIFY(metrics->body.contains("# TYPE vllm:prefix_cache_hits_total counter\n"));
    // Tokens looked up (every admission's prompt) and found; no lookup at all with the cache off.
    QCOMPARE(sampleValue(metrics->body, "vllm:prefix_cache_queries_total"), expectedCached > 0 ? 80.0 : 0.0);
    QCOMPARE(sampleValue(metrics->body, "vllm:prefix_cache_hits_total"), double(expectedCached));
    // Cached tokens count as processed, as in vLLM: the sum of the prompts sent.
    QCOMPARE(sampleValue(metrics->body, "vllm:prompt_tokens_total"), 80.0);
}

void TestSimServer::prefixCacheResetEndpoints_data()
{
    QTest::addColumn<QByteArray>("path");
    QTest::addColumn<QByteArray>("allowed");
    QTest::addRow("vLLM") << QByteArray("/reset_prefix_cache") << QByteArray("POST");
    QTest::addRow("SGLang") << QByteArray("/flush_cache") << QByteArray("GET, POST");
}

void TestSimServer::prefixCacheResetEndpoints()
{
    QFETCH(QByteArray, path);
    QFETCH(QByteArray, allowed);
    SimHost host;
    QVERIFY2(host.start(fastOptions()), qPrintable(host.errorString()));
    const QByteArray body = generationBody(false, QJsonArray { words(QStringLiteral("w"), 40) }, false);
    const auto cached = [&]() {
        const std::optional<Response> r = fetch(host.baseUrl(), post("/v1/completions", body));
        if (!r || r->status != 200)
            return -2;
        return usageOf(*r).value(QStringLiteral("prompt_tokens_details")).toObject().value(u"cached_tokens").toInt(-1);
    };
    QCOMPARE(cached(), 0);
    QCOMPARE(cached(), 32);
    const std::optional<Response> reset = fetch(host.baseUrl(), post(path, {}));
    QVERIFY(reset);
    QCOMPARE(reset->status, 200);
    QCOMPARE(cached(), 0); // emptied: the same prompt is prefilled again
    QCOMPARE(cached(), 32);
    const std::optional<Response> wrong = fetch(host.baseUrl(), "DELETE " + path + " HTTP/1.1\r\n\r\n");
    QVERIFY(wrong);
    QCOMPARE(wrong->status, 405);
    QCOMPARE(wrong->header("allow"), allowed);
    QCOMPARE(cached(), 32); // a refused call leaves the cache alone
}

void TestSimServer::prefixCacheConversation()
{
    // Sessions as a chat client sends them: each turn resends the history. A 32-word system prompt is two
    // blocks that every session shares; a session's next turn also finds its own earlier turn.
    SimHost host;
    QVERIFY2(host.start(fastOptions()), qPrintable(host.errorString()));
    const QJsonObject system = message(QStringLiteral("system"), words(QStringLiteral("sys"), 32));
    const QJsonObject userA = message(QStringLiteral("user"), words(QStringLiteral("a"), 24));
    const QJsonObject userB = message(QStringLiteral("user"), words(QStringLiteral("b"), 8));
    const QJsonObject answerA = message(QStringLiteral("assistant"), words(QStringLiteral("r"), 8));
    const QJsonObject userA2 = message(QStringLiteral("user"), words(QStringLiteral("c"), 8));
    struct Turn
    {
        QJsonArray messages;
        int promptTokens;
        int cached;
    };
    const Turn turns[] = {
        { { system, userA }, 56, 0 },
        { { system, userB }, 40, 32 }, // another session: the system prompt
        { { system, userA, answerA, userA2 }, 72, 48 }, // session A's first turn, three full blocks
        { { system, userA, answerA, userA2 }, 72, 64 }, // resent: all full blocks before the last token
        // The same words as session A's first user turn, but as the assistant's: a different block.
        { { system, message(QStringLiteral("assistant"), words(QStringLiteral("a"), 24)) }, 56, 32 },
    };
    for (const Turn& turn : turns) {
        const std::optional<Response> r
            = fetch(host.baseUrl(), post("/v1/chat/completions", generationBody(true, turn.messages, true)));
        QVERIFY(r && r->complete);
        const QJsonObject usage = usageOf(*r);
        QCOMPARE(usage.value(QStringLiteral("prompt_tokens")).toInt(), turn.promptTokens);
        QCOMPARE(usage.value(QStringLiteral("prompt_tokens_details"))
                     .toObject()
                     .value(QStringLiteral("cached_tokens"))
                     .toInt(-1),
            turn.cached);
    }
}

namespace {

void appendBigEndian(QByteArray& out, quint32 value, int bytes)
{
    for (int i = bytes - 1; i >= 0; --i)
        out.append(char((value >> (8 * i)) & 0xff));
}

// The headers the simulator reads, built by hand: a PNG's signature and IHDR; a JPEG's SOI, an APP0
// segment to skip, then SOF2 (progressive) with height before width.
QByteArray pngHeader(int width, int height)
{
    QByteArray png("\x89PNG\r\n\x1a\n", 8);
    appendBigEndian(png, 13, 4);
    png += "IHDR";
    appendBigEndian(png, quint32(width), 4);
    appendBigEndian(png, quint32(height), 4);
    png += QByteArray("\x08\x02\x00\x00\x00", 5);
    appendBigEndian(png, 0, 4); // CRC: not checked
    return png;
}

QByteArray jpegHeader(int width, int height)
{
    QByteArray jpeg("\xff\xd8\xff\xe0", 4);
    appendBigEndian(jpeg, 16, 2);
    jpeg += QByteArray("JFIF\0\x01\x01\0\0\x01\0\x01\0\0", 14);
    jpeg += QByteArray("\xff\xc2", 2);
    appendBigEndian(jpeg, 17, 2);
    jpeg.append(char(8));
    appendBigEndian(jpeg, quint32(height), 2);
    appendBigEndian(jpeg, quint32(width), 2);
    jpeg += QByteArray("\x03\x01\x11\0\x02\x11\0\x03\x11\0", 10);
    return jpeg;
}

QJsonObject imagePart(const QString& url)
{
    return QJsonObject { { QStringLiteral("type"), QStringLiteral("image_url") },
        { QStringLiteral("image_url"), QJsonObject { { QStringLiteral("url"), url } } } };
}

} // namespace

void TestSimServer::imageTokens_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<int>("expected"); // image tokens; -1: refused
    const auto png = [](int w, int h) {
        return QStringLiteral("data:image/png;base64,") + QString::fromLatin1(pngHeader(w, h).toBase64());
    };
    const auto jpeg = [](int w, int h) {
        return QStringLiteral("data:image/jpeg;base64,") + QString::fromLatin1(jpegHeader(w, h).toBase64());
    };
    // ceil(W/28)·ceil(H/28) + 2 (vision start and end).
    QTest::addRow("PNG 448x448") << png(448, 448) << 16 * 16 + 2;
    QTest::addRow("PNG 29x28") << png(29, 28) << 2 * 1 + 2;
    QTest::addRow("PNG 1x1") << png(1, 1) << 1 + 2;
    QTest::addRow("JPEG 640x480") << jpeg(640, 480) << 23 * 18 + 2;
    QTest::addRow("JPEG 28x56") << jpeg(28, 56) << 1 * 2 + 2;
    QTest::addRow("not base64") << QStringLiteral("data:image/png;base64,@@@@") << -1;
    QTest::addRow("not a data URL") << QStringLiteral("https://example.com/cat.png") << -1;
    QTest::addRow("not an image") << QStringLiteral("data:image/png;base64,")
            + QString::fromLatin1(QByteArray("GIF89a......").toBase64())
                                  << -1;
    QTest::addRow("PNG of 0 width") << png(0, 5) << -1;
    QTest::addRow("JPEG cut short") << QStringLiteral("data:image/jpeg;base64,")
            + QString::fromLatin1(jpegHeader(8, 8).left(12).toBase64())
                                    << -1;
}

// An image_url part adds what Qwen2-VL served by vLLM counts for it to usage.prompt_tokens; one the
// simulator cannot read is a 400 naming the part.
void TestSimServer::imageTokens()
{
    QFETCH(QString, url);
    QFETCH(int, expected);
    SimHost host;
    QVERIFY2(host.start(fastOptions()), qPrintable(host.errorString()));
    const QJsonArray content { QJsonObject { { QStringLiteral("type"), QStringLiteral("text") },
                                   { QStringLiteral("text"), QStringLiteral("what is this") } },
        imagePart(url) };
    const QJsonArray messages { QJsonObject {
        { QStringLiteral("role"), QStringLiteral("user") }, { QStringLiteral("content"), content } } };
    const std::optional<Response> r
        = fetch(host.baseUrl(), post("/v1/chat/completions", generationBody(true, messages, false)));
    QVERIFY(r);
    if (expected < 0) {
        QCOMPARE(r->status, 400);
        const QJsonObject error = r->json().value(QStringLiteral("error")).toObject();
        QCOMPARE(error.value(QStringLiteral("param")).toString(), QStringLiteral("messages[0].content[1].image_url"));
        QVERIFY2(error.value(QStringLiteral("message")).toString().contains(u"'messages[0].content[1].image_url'"),
            r->body.constData());
        return;
    }
    QCOMPARE(r->status, 200);
    QCOMPARE(usageOf(*r).value(QStringLiteral("prompt_tokens")).toInt(), 3 + expected);
}

QTEST_GUILESS_MAIN(TestSimServer)
#include "tst_simserver.moc"
