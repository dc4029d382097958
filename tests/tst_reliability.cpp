// A load tester is used when things break: misbehaving servers, kills mid-sweep, broken input files,
// keys that must not leak. Real processes and real sockets on 127.0.0.1.
#include "client/probe.h"
#include "client/qnamtransport.h"
#include "client/responseaccumulator.h"
#include "client/sseparser.h"
#include "client/tokenizeprepass.h"
#include "dataset/dataset.h"
#include "load/steprunner.h"
#include "metrics/inerttext.h"
#include "metrics/resultjson.h"
#include "profile/profilestore.h"
#include "runs/savedrun.h"
#include "sim/faults.h"
#include "sim/filelimit.h"
#include "sim/simhost.h"
#include "support/simclient.h"
#include "sweep/safetyguard.h"
#include "sweep/sweepplanner.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <set>

using namespace kp;
using namespace Qt::Literals::StringLiterals;

namespace {

constexpr int kWaitMs = 180000; // generous: a loaded 2-core machine must never fail on time

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeFile(const QString& path, const QByteArray& data)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(f.write(data), data.size());
}

StepConfig makeStep(const QUrl& requestUrl, int prompts)
{
    StepConfig step;
    step.request.backend = Backend::OpenAi;
    step.request.url = requestUrl;
    step.request.model = QStringLiteral("kneepoint/sim-default");
    step.request.ignoreEos = true;
    RandomDatasetOptions data;
    data.numPrompts = prompts;
    data.inputLen = 8;
    data.outputLen = 24;
    data.seed = 3;
    step.prompts = randomDataset(data).prompts;
    step.numPrompts = prompts;
    return step;
}

StepResult runStep(StepConfig step, TransportOptions transport = {})
{
    const std::unique_ptr<Transport> client = makeTransport(transport, step.request.url);
    StepRunner runner(client.get(), MetricsOptions {});
    QSignalSpy finished(&runner, &StepRunner::finished);
    runner.start(std::move(step));
    if (finished.isEmpty())
        finished.wait(kWaitMs);
    if (finished.isEmpty())
        return {};
    return finished.takeFirst().at(0).value<StepResult>();
}

// A server that misbehaves on purpose: it answers every request the same hostile way.
class HostileServer : public QTcpServer
{
public:
    enum class Mode {
        Flood, // 200, an event stream of valid choices events that never ends
        EndlessLine, // 200, "data: " and then bytes without a line end, forever
        HugeJson, // 200, a non-streamed body declared as 3 GB
        Redirect, // 307 to another host
        Record, // 200 and nothing else; keeps the requests it got
    };
    explicit HostileServer(Mode mode)
        : m_mode(mode)
    {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* s = nextPendingConnection())
                serve(s);
        });
    }
    QUrl redirectTo;
    QList<QByteArray> requests;
    qint64 bytesSent = 0;

private:
    void serve(QTcpSocket* s)
    {
        auto buffer = std::make_shared<QByteArray>();
        connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
        connect(s, &QTcpSocket::readyRead, s, [this, s, buffer] {
            *buffer += s->readAll();
            const qsizetype end = buffer->indexOf("\r\n\r\n");
            if (end < 0 || buffer->isEmpty())
                return;
            requests << *buffer;
            buffer->clear();
            respond(s);
        });
    }
    void respond(QTcpSocket* s)
    {
        switch (m_mode) {
        case Mode::Redirect:
            s->write("HTTP/1.1 307 Temporary Redirect\r\nLocation: " + redirectTo.toEncoded()
                + "\r\nContent-Length: 0\r\n\r\n");
            return;
        case Mode::Record:
            s->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
            return;
        case Mode::Flood:
            s->write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n");
            break;
        case Mode::EndlessLine:
            s->write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\ndata: ");
            break;
        case Mode::HugeJson:
            s->write(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 3000000000\r\n\r\n{\"x\": \"");
            break;
        }
        // Keep writing while the client reads; stop when it goes away (or at a bound, so a broken client
        // fails the test instead of running forever).
        auto pump = [this, s] {
            // Events of about 800 bytes: the 64 MiB cap is still passed after some 80,000 events, with the
            // text past the retained-text cap hundreds of times over, and the client's per-event parsing
            // (the time the test takes) stays small.
            static const QByteArray event
                = "data: {\"choices\": [{\"index\": 0, \"text\": \"" + QByteArray("flood ").repeated(128) + "\"}]}\n\n";
            static const QByteArray filler(64 * 1024, 'a');
            while (s->state() == QAbstractSocket::ConnectedState && s->bytesToWrite() < 1024 * 1024
                && bytesSent < 1024LL * 1024 * 1024) {
                QByteArray chunk;
                if (m_mode == Mode::Flood) {
                    while (chunk.size() < filler.size())
                        chunk += event;
                } else {
                    chunk = filler;
                }
                bytesSent += s->write(chunk);
            }
        };
        connect(s, &QTcpSocket::bytesWritten, s, pump);
        pump();
    }
    Mode m_mode;
};

QString cliPath()
{
    return QStringLiteral(KNEEPOINT_CLI);
}

// A server that takes every connection and never answers it; with answerGets, GET requests get a
// health answer or a one-model list, and only the completion is left hanging.
class SilentServer : public QTcpServer
{
public:
    explicit SilentServer(bool answerGets)
    {
        connect(this, &QTcpServer::newConnection, this, [this, answerGets] {
            while (QTcpSocket* s = nextPendingConnection()) {
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
                connect(s, &QTcpSocket::readyRead, s, [this, s, answerGets] {
                    const QByteArray request = s->readAll();
                    requests << request;
                    if (!answerGets || !request.startsWith("GET "))
                        return; // held: the socket stays open and silent
                    const QByteArray body = request.startsWith("GET /v1/models")
                        ? QByteArrayLiteral(R"({"object":"list","data":[{"id":"m","object":"model"}]})")
                        : QByteArrayLiteral("{}");
                    s->write("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: "
                        + QByteArray::number(body.size()) + "\r\n\r\n" + body);
                });
            }
        });
    }
    QList<QByteArray> requests;
};

// A server that answers its requests from a script, in order, the last answer for every request after
// it, and keeps what it was asked: request lines and bodies.
class ScriptedServer : public QTcpServer
{
public:
    explicit ScriptedServer(QList<QByteArray> answers)
        : m_answers(std::move(answers))
    {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* s = nextPendingConnection())
                serve(s);
        });
    }
    QStringList requestLines;
    QList<QByteArray> bodies;

    // vLLM's answers: /tokenize's, an error object, FastAPI's 404.
    static QByteArray answer(
        int status, const QByteArray& reason, const QByteArray& body, const QByteArray& extraHeaders = QByteArray())
    {
        return "HTTP/1.1 " + QByteArray::number(status) + ' ' + reason
            + "\r\ncontent-type: application/json\r\ncontent-length: " + QByteArray::number(body.size()) + "\r\n"
            + extraHeaders + "\r\n" + body;
    }
    static QByteArray tokens3() { return answer(200, "OK", R"({"count":3,"max_model_len":4096,"tokens":[9,8,7]})"); }
    static QByteArray busy(int status, const QByteArray& reason, const QByteArray& extraHeaders = QByteArray())
    {
        return answer(status, reason,
            R"({"object":"error","message":"busy","type":"ServiceUnavailableError","param":null,"code":)"
                + QByteArray::number(status) + '}',
            extraHeaders);
    }

private:
    void serve(QTcpSocket* s)
    {
        auto buffer = std::make_shared<QByteArray>();
        connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
        connect(s, &QTcpSocket::readyRead, s, [this, s, buffer] {
            *buffer += s->readAll();
            for (;;) {
                const qsizetype end = buffer->indexOf("\r\n\r\n");
                if (end < 0)
                    return;
                const QByteArray head = buffer->left(end).toLower();
                const qsizetype at = head.indexOf("content-length:");
                const qsizetype length
                    = at < 0 ? 0 : head.mid(at + 15, head.indexOf("\r\n", at) - at - 15).trimmed().toLongLong();
                if (buffer->size() < end + 4 + length)
                    return;
                requestLines << QString::fromLatin1(buffer->left(buffer->indexOf("\r\n")));
                bodies << buffer->mid(end + 4, length);
                buffer->remove(0, end + 4 + length);
                s->write(m_answers.at(std::min(m_answers.size(), requestLines.size()) - 1));
            }
        });
    }
    QList<QByteArray> m_answers;
};

// A simulator seed whose fault plan gives `kind` to the first generation request and none to the second:
// the preflight's first completion fails, its retry passes.
std::uint64_t seedFailingOnce(const sim::FaultPlan& plan, sim::FaultKind kind)
{
    for (std::uint64_t seed = 1; seed < 100000; ++seed) {
        sim::FaultInjector faults(plan, seed);
        if (faults.draw() == kind && faults.draw() == sim::FaultKind::None)
            return seed;
    }
    return 0;
}

ProbeReport runProbe(
    Probe& probe, const ProbeTarget& target, const std::optional<ProbeOptions>& options, QList<ProbeProgress>& progress)
{
    QSignalSpy done(&probe, &Probe::finished);
    QObject::connect(&probe, &Probe::progress, &probe, [&progress](const ProbeProgress& p) { progress << p; });
    if (options)
        probe.start(target, *options);
    else
        probe.start(target);
    if (done.isEmpty())
        done.wait(kWaitMs);
    return done.isEmpty() ? ProbeReport {} : done.takeFirst().at(0).value<ProbeReport>();
}

// The retries announced, as "check tryNumber seconds".
QStringList retries(const QList<ProbeProgress>& progress)
{
    QStringList out;
    for (const ProbeProgress& p : progress) {
        if (p.kind == ProbeProgress::Kind::Retrying)
            out << u"%1 %2 %3"_s.arg(p.check).arg(p.tryNumber).arg(p.seconds);
    }
    return out;
}

// The generation requests the simulator served, by fault, in order: "500", "none", ...
QStringList servedFaults(const QUrl& base)
{
    QStringList faults;
    const QJsonArray requests
        = testing::getJson(base.resolved(QUrl(u"/debug/requests"_s))).value(u"requests").toArray();
    for (const auto& r : requests)
        faults << r.toObject().value(u"fault").toString();
    return faults;
}

} // namespace

class TestReliability : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { sim::raiseFileLimit(); }

    // Faults of several kinds in one step: each failure lands in its class with a hint, the other
    // requests complete, and the counts add up.
    void mixedFaultsKeepTheStepGoing()
    {
        sim::SimHost host;
        sim::SimServerOptions options;
        options.timeScale = 20;
        options.seed = 11;
        for (const char* spec : { "500:0.1", "429:0.1", "error-body:0.1", "malformed:0.1", "cut:0.1" })
            QCOMPARE(sim::applyFaultSpec(QString::fromLatin1(spec), options.faults), QString());
        QVERIFY2(host.start(options), qPrintable(host.errorString()));
        Target target;
        target.baseUrl = host.baseUrl().toString();
        target.backend = Backend::OpenAi;
        const StepResult result = runStep(makeStep(target.requestUrl(), 60));
        QCOMPARE(result.records.size(), std::size_t(60));
        QCOMPARE(result.metrics.completed + result.metrics.failed, 60);
        QVERIFY(result.metrics.completed > 0);
        QVERIFY(result.metrics.failed > 0);

        const std::set<FailureClass> expected = { FailureClass::HttpServerError, FailureClass::HttpRateLimited,
            FailureClass::ErrorBody, FailureClass::MalformedStream, FailureClass::StreamCut };
        FailureContext context;
        context.url = target.requestUrl();
        context.transport = transportOptions(target);
        context.transportKnown = true;
        std::set<FailureClass> seen;
        for (const RequestRecord& r : result.records) {
            if (r.success())
                continue;
            QVERIFY2(expected.count(r.failure), qPrintable(failureClassKey(r.failure) + u": "_s + r.errorMessage));
            seen.insert(r.failure);
            QVERIFY2(!failureHint(r, context).isEmpty(), qPrintable(failureClassKey(r.failure)));
        }
        QVERIFY2(seen.size() >= 3, "the faults spread over several classes");
        // The run's validity flags say the step is incomplete rather than averaging the failures away.
        QVERIFY(result.metrics.failed > 0 && !result.partial);
    }

    // The preflight's retry policy: which failures another try may cure, how long it waits.
    void preflightRetryPolicy_data()
    {
        QTest::addColumn<int>("failure");
        QTest::addColumn<int>("status");
        QTest::addColumn<bool>("transient");
        QTest::addRow("500") << int(FailureClass::HttpServerError) << 500 << true;
        QTest::addRow("502") << int(FailureClass::HttpServerError) << 502 << true;
        QTest::addRow("503") << int(FailureClass::HttpServerError) << 503 << true;
        QTest::addRow("504") << int(FailureClass::HttpServerError) << 504 << true;
        QTest::addRow("501 is for good") << int(FailureClass::HttpServerError) << 501 << false;
        QTest::addRow("429") << int(FailureClass::HttpRateLimited) << 429 << true;
        QTest::addRow("cut stream") << int(FailureClass::StreamCut) << 200 << true;
        QTest::addRow("reset") << int(FailureClass::Network) << 0 << true;
        QTest::addRow("401") << int(FailureClass::HttpAuth) << 401 << false;
        QTest::addRow("404") << int(FailureClass::HttpNotFound) << 404 << false;
        QTest::addRow("refused") << int(FailureClass::ConnectionRefused) << 0 << false;
        QTest::addRow("host not found") << int(FailureClass::HostNotFound) << 0 << false;
        QTest::addRow("no answer in time") << int(FailureClass::FirstByteTimeout) << 0 << false;
        QTest::addRow("bad json") << int(FailureClass::MalformedStream) << 200 << false;
        QTest::addRow("no choices") << int(FailureClass::NoChoices) << 200 << false;
        QTest::addRow("error body") << int(FailureClass::ErrorBody) << 200 << false;
    }

    void preflightRetryPolicy()
    {
        QFETCH(int, failure);
        QFETCH(int, status);
        QFETCH(bool, transient);
        RequestRecord r;
        r.failure = static_cast<FailureClass>(failure);
        r.httpStatus = status;
        QCOMPARE(isTransientFailure(r), transient);
    }

    void preflightRetryDelays()
    {
        const QDateTime now(QDate(2015, 10, 21), QTime(7, 28, 0), Qt::UTC);
        QCOMPARE(retryAfterSeconds(u"7"_s, now), std::optional<double>(7));
        QCOMPARE(retryAfterSeconds(u" 0 "_s, now), std::optional<double>(0));
        QCOMPARE(retryAfterSeconds(u"Wed, 21 Oct 2015 07:28:12 GMT"_s, now), std::optional<double>(12));
        QCOMPARE(retryAfterSeconds(u"Wed, 21 Oct 2015 07:27:00 GMT"_s, now), std::optional<double>(0)); // past
        QCOMPARE(retryAfterSeconds(u""_s, now), std::nullopt);
        QCOMPARE(retryAfterSeconds(u"-3"_s, now), std::nullopt);
        QCOMPARE(retryAfterSeconds(u"soon"_s, now), std::nullopt);
        QCOMPARE(retryAfterSeconds(u"Wed, 32 Oct 2015 07:28:12 GMT"_s, now), std::nullopt);

        const ProbeOptions options;
        QCOMPARE(retryDelayS(2, std::nullopt, options), 0.5);
        QCOMPARE(retryDelayS(3, std::nullopt, options), 1.0);
        QCOMPARE(retryDelayS(4, std::nullopt, options), 2.0);
        QCOMPARE(retryDelayS(2, 7.0, options), 7.0);
        QCOMPARE(retryDelayS(2, 3600.0, options), ProbeOptions::kMaxRetryAfterS);

        // The preflight's own limits, shortened by the target's where those are shorter.
        Timeouts load; // 10 s to connect, 600 s to the first token, 3600 s in all
        QCOMPARE(probeOptionsFor(load).connectTimeoutS, ProbeOptions::kConnectTimeoutS);
        QCOMPARE(probeOptionsFor(load).checkTimeoutS, ProbeOptions::kCheckTimeoutS);
        load.connectS = 2;
        load.firstTokenS = 5;
        QCOMPARE(probeOptionsFor(load).connectTimeoutS, 2.0);
        QCOMPARE(probeOptionsFor(load).checkTimeoutS, 5.0);
        load.totalS = 4;
        QCOMPARE(probeOptionsFor(load).checkTimeoutS, 4.0);
    }

    // One transient failure of the preflight's completion no longer stops the sweep: it is tried again,
    // the retry is reported, and a 429's Retry-After sets the wait.
    void preflightRetriesATransientFailure_data()
    {
        QTest::addColumn<QString>("fault");
        QTest::addColumn<QString>("reasonPart");
        QTest::addColumn<double>("wait");
        // The test's backoff is 0.01 s; the simulator's 429 says "Retry-After: 1".
        QTest::addRow("500") << u"500"_s << u"HTTP 500"_s << 0.01;
        QTest::addRow("503") << u"503"_s << u"HTTP 503"_s << 0.01;
        QTest::addRow("429 with Retry-After") << u"429"_s << u"HTTP 429"_s << 1.0;
        QTest::addRow("stream cut") << u"cut"_s << u"ended before [DONE]"_s << 0.01;
    }

    void preflightRetriesATransientFailure()
    {
        QFETCH(QString, fault);
        QFETCH(QString, reasonPart);
        QFETCH(double, wait);
        sim::SimServerOptions options;
        options.timeScale = 20;
        // Every answer runs to max_tokens, so a cut comes after some events (a 200 that closes before
        // its first event reads as "no choices" on one transport's timing and as a cut on another's).
        options.params.eosMeanFraction = 1;
        QCOMPARE(sim::applyFaultSpec(fault + u":0.5"_s, options.faults), QString());
        const std::optional<sim::FaultKind> kind = sim::faultKindFromName(fault);
        QVERIFY(kind);
        options.seed = seedFailingOnce(options.faults, *kind);
        QVERIFY(options.seed != 0);
        sim::SimHost host;
        QVERIFY2(host.start(options), qPrintable(host.errorString()));

        ProbeTarget target;
        target.target.baseUrl = host.baseUrl().toString();
        ProbeOptions quick;
        quick.firstBackoffS = 0.01;
        Probe probe;
        QList<ProbeProgress> progress;
        const ProbeReport report = runProbe(probe, target, quick, progress);
        QCOMPARE(report.checks.size(), 3);
        const ProbeCheck& completion = report.checks.at(2);
        QVERIFY2(report.ok(), qPrintable(completion.detail));
        QCOMPARE(completion.tries, 2);
        QCOMPARE(report.checks.at(0).tries, 1);
        QCOMPARE(report.checks.at(1).tries, 1);
        QCOMPARE(retries(progress), QStringList { u"completion 2 %1"_s.arg(wait) });
        for (const ProbeProgress& p : std::as_const(progress)) {
            if (p.kind != ProbeProgress::Kind::Retrying)
                continue;
            QVERIFY2(p.reason.contains(reasonPart), qPrintable(p.reason));
            QCOMPARE(p.retryAfter, fault == u"429"_s);
            QCOMPARE(p.maxTries, ProbeOptions::kMaxTries);
            QCOMPARE(p.url, target.target.requestUrl().toString());
        }
        QCOMPARE(servedFaults(host.baseUrl()), (QStringList { fault, u"none"_s }));
    }

    // A server that keeps failing is tried kMaxTries times with a growing wait, and the report says so;
    // a failure another try cannot cure (a refused key, an error in a 200) is not tried again.
    void preflightGivesUpAfterItsTries_data()
    {
        QTest::addColumn<QString>("fault");
        QTest::addColumn<QString>("apiKey");
        QTest::addColumn<int>("tries");
        QTest::addColumn<QString>("detailPart");
        QTest::addRow("500 every time") << u"500:1"_s << QString() << 3 << u"HTTP 500"_s;
        QTest::addRow("401 at once") << QString() << u"sk-right"_s << 1 << u"401"_s;
        QTest::addRow("error body at once") << u"error-body:1"_s << QString() << 1 << u"Injected fault"_s;
    }

    void preflightGivesUpAfterItsTries()
    {
        QFETCH(QString, fault);
        QFETCH(QString, apiKey);
        QFETCH(int, tries);
        QFETCH(QString, detailPart);
        sim::SimServerOptions options;
        options.timeScale = 20;
        options.apiKey = apiKey;
        if (!fault.isEmpty())
            QCOMPARE(sim::applyFaultSpec(fault, options.faults), QString());
        sim::SimHost host;
        QVERIFY2(host.start(options), qPrintable(host.errorString()));

        ProbeTarget target;
        target.target.baseUrl = host.baseUrl().toString();
        target.target.model = options.params.modelId;
        if (!apiKey.isEmpty())
            target.headers.append({ QByteArrayLiteral("Authorization"), QByteArrayLiteral("Bearer sk-wrong") });
        ProbeOptions quick;
        quick.firstBackoffS = 0.01;
        Probe probe;
        QList<ProbeProgress> progress;
        const ProbeReport report = runProbe(probe, target, quick, progress);
        QCOMPARE(report.checks.size(), 3);
        QVERIFY(!report.ok());
        const ProbeCheck& completion = report.checks.at(2);
        QVERIFY(!completion.ok);
        QCOMPARE(completion.tries, tries);
        QVERIFY2(completion.detail.contains(detailPart), qPrintable(completion.detail));
        QStringList expected;
        for (int t = 2; t <= tries; ++t)
            expected << u"completion %1 %2"_s.arg(t).arg(0.01 * (1 << (t - 2)));
        QCOMPARE(retries(progress), expected);
        if (apiKey.isEmpty())
            QCOMPARE(servedFaults(host.baseUrl()).size(), tries);
        else
            QCOMPARE(report.checks.at(1).tries, 1); // the models check's 401 was not tried again either
    }

    // A server that accepts and never answers fails the preflight within the preflight's own limit (here
    // made short through the probe's options, or through the target's shorter timeouts), and the
    // message names the URL and the limit; a long wait is reported while it lasts.
    void preflightGivesUpOnASilentServer_data()
    {
        QTest::addColumn<bool>("answerGets");
        QTest::addColumn<bool>("throughTarget");
        QTest::addColumn<QString>("silentPath");
        QTest::addRow("silent everywhere") << false << false << u"/health"_s;
        QTest::addRow("silent completions") << true << false << u"/v1/chat/completions"_s;
        QTest::addRow("limit from target.timeouts") << true << true << u"/v1/chat/completions"_s;
    }

    void preflightGivesUpOnASilentServer()
    {
        QFETCH(bool, answerGets);
        QFETCH(bool, throughTarget);
        QFETCH(QString, silentPath);
        SilentServer server(answerGets);
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        const QString base = u"http://127.0.0.1:%1"_s.arg(server.serverPort());

        ProbeTarget target;
        target.target.baseUrl = base;
        target.target.model = u"m"_s;
        std::optional<ProbeOptions> options;
        if (throughTarget) {
            target.transport.timeouts.totalS = 0.5; // shorter than the preflight's own 30 s
        } else {
            options = ProbeOptions {};
            options->checkTimeoutS = 0.5;
            options->stillWaitingS = 0.1;
        }
        Probe probe;
        QList<ProbeProgress> progress;
        const ProbeReport report = runProbe(probe, target, options, progress);
        QCOMPARE(report.checks.size(), 3);
        QVERIFY(!report.ok());
        const ProbeCheck& silent = report.checks.at(answerGets ? 2 : 0);
        QCOMPARE(silent.detail, u"no answer from %1%2 within 0.5 s"_s.arg(base, silentPath));
        QCOMPARE(silent.tries, 1); // a timeout is not tried again: the bound holds
        QVERIFY2(silent.hint.contains(u"0.5 s"_s), qPrintable(silent.hint));
        if (!answerGets) {
            QVERIFY(report.checks.at(1).skipped);
            QVERIFY(report.checks.at(2).skipped);
        } else {
            QVERIFY(report.checks.at(1).ok);
        }
        QVERIFY(retries(progress).isEmpty());
        QStringList checking;
        bool stillWaiting = false;
        for (const ProbeProgress& p : std::as_const(progress)) {
            if (p.kind == ProbeProgress::Kind::Checking)
                checking << p.check;
            if (p.kind == ProbeProgress::Kind::StillWaiting) {
                stillWaiting = true;
                QCOMPARE(p.url, base + silentPath);
                QCOMPARE(p.limitS, 0.5);
            }
        }
        QCOMPARE(checking,
            answerGets ? (QStringList { u"health"_s, u"models"_s, u"completion"_s }) : QStringList { u"health"_s });
        QCOMPARE(stillWaiting, !throughTarget); // the default period, 5 s, is longer than this limit
    }

    // The /tokenize pre-pass follows the preflight's retry policy: a transient failure (5xx, 429) is sent
    // again and the outcome says so; a failure another try cannot cure falls back at once, and one that
    // outlasts the tries, or asks for a wait past the pre-pass's limit, falls back naming it.
    void tokenizePrepassRetriesATransientFailure_data()
    {
        QTest::addColumn<QList<QByteArray>>("answers");
        QTest::addColumn<bool>("available");
        QTest::addColumn<int>("requests");
        QTest::addColumn<int>("retries");
        QTest::addColumn<QString>("message");
        const QString counted = u"input tokens counted by the server's /tokenize (2 prompts; 9 tokens against the "
                                u"dataset's 10, 11.1% apart; requests sent again after a transient failure: %1, "
                                u"the last after %2)"_s;
        const QString fallback = u"http://127.0.0.1:PORT/tokenize: %1; input tokens are the server's "
                                 u"usage.prompt_tokens where it sends them, else the dataset's count"_s;
        // Two distinct prompts: the first goes alone until it is answered, then the second.
        QTest::addRow("503 once") << QList<QByteArray> { ScriptedServer::busy(503, "Service Unavailable"),
            ScriptedServer::tokens3() }
                                  << true << 3 << 1 << counted.arg(1).arg(u"HTTP 503"_s);
        QTest::addRow("502 twice") << QList<QByteArray> { ScriptedServer::busy(502, "Bad Gateway"),
            ScriptedServer::busy(502, "Bad Gateway"), ScriptedServer::tokens3() }
                                   << true << 4 << 2 << counted.arg(2).arg(u"HTTP 502"_s);
        QTest::addRow("429 with Retry-After 0") << QList<QByteArray> {
            ScriptedServer::busy(429, "Too Many Requests", "retry-after: 0\r\n"), ScriptedServer::tokens3()
        } << true << 3 << 1 << counted.arg(1).arg(u"HTTP 429"_s);
        QTest::addRow("404 at once") << QList<QByteArray> {
            ScriptedServer::answer(404, "Not Found", R"({"detail":"Not Found"})")
        } << false << 1 << 0 << fallback.arg(u"HTTP 404"_s);
        QTest::addRow("503 every time") << QList<QByteArray> { ScriptedServer::busy(503, "Service Unavailable") }
                                        << false << 3 << 2 << fallback.arg(u"HTTP 503 (tried 3 times)"_s);
        // The test's backoff is 0.01 s: only the server's Retry-After makes this wait too long.
        QTest::addRow("Retry-After past the limit") << QList<QByteArray> {
            ScriptedServer::busy(429, "Too Many Requests", "retry-after: 20\r\n"), ScriptedServer::tokens3()
        } << false << 1 << 0 << fallback.arg(u"HTTP 429 with Retry-After 20 s, past the pre-pass's limit of 10 s"_s);
    }

    void tokenizePrepassRetriesATransientFailure()
    {
        QFETCH(QList<QByteArray>, answers);
        QFETCH(bool, available);
        QFETCH(int, requests);
        QFETCH(int, retries);
        QFETCH(QString, message);
        ScriptedServer server(answers);
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        RequestTemplate request;
        request.backend = Backend::OpenAi;
        request.url = QUrl(u"http://127.0.0.1:%1/v1/completions"_s.arg(server.serverPort()));
        request.model = u"m"_s;
        std::vector<Prompt> prompts(3);
        const QStringList texts { u"one two three"_s, u"four five six"_s, u"one two three"_s };
        for (std::size_t i = 0; i < prompts.size(); ++i) {
            prompts[i].text = texts.at(qsizetype(i));
            prompts[i].promptTokens = i == 1 ? 4 : 3;
        }
        ProbeOptions quick;
        quick.firstBackoffS = 0.01;
        const TokenizeOutcome outcome = tokenizePrompts(request, prompts, TransportOptions {}, 10000, quick);
        QCOMPARE(outcome.message, QString(message).replace(u"PORT"_s, QString::number(server.serverPort())));
        QCOMPARE(outcome.available, available);
        QCOMPARE(outcome.retries, retries);
        QCOMPARE(server.requestLines, QStringList(requests, u"POST /tokenize HTTP/1.1"_s));
        // The text answered "busy" was sent again, before any other; each text once when it was answered.
        QStringList sent;
        for (const QByteArray& body : std::as_const(server.bodies)) {
            const QJsonObject o = QJsonDocument::fromJson(body).object();
            QCOMPARE(o.value(u"model"_s).toString(), u"m"_s);
            sent << o.value(u"prompt"_s).toString();
        }
        QStringList expected(retries + 1, u"four five six"_s);
        if (available)
            expected << u"one two three"_s;
        QCOMPARE(sent, expected);
        std::vector<int> counts;
        for (const Prompt& p : prompts)
            counts.push_back(p.promptTokens);
        QCOMPARE(counts, available ? (std::vector<int> { 3, 3, 3 }) : (std::vector<int> { 3, 4, 3 }));
    }

    void hostileServerCannotExhaustTheClient_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<bool>("stream");
        QTest::addColumn<QString>("messagePart");
        QTest::addColumn<int>("transport");
        for (const TransportKind kind : { TransportKind::Qnam, TransportKind::Socket }) {
            const char* name = kind == TransportKind::Qnam ? "qnam" : "socket";
            QTest::addRow("%s: flood of events", name)
                << int(HostileServer::Mode::Flood) << true << QStringLiteral("64 MiB") << int(kind);
            QTest::addRow("%s: a line that never ends", name)
                << int(HostileServer::Mode::EndlessLine) << true << QStringLiteral("a line or event passed 4 MiB")
                << int(kind);
            QTest::addRow("%s: 3 GB JSON body", name)
                << int(HostileServer::Mode::HugeJson) << false << QStringLiteral("MiB") << int(kind);
        }
    }

    void hostileServerCannotExhaustTheClient()
    {
        QFETCH(int, mode);
        QFETCH(bool, stream);
        QFETCH(QString, messagePart);
        QFETCH(int, transport);
        HostileServer server(static_cast<HostileServer::Mode>(mode));
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        StepConfig step
            = makeStep(QUrl(QStringLiteral("http://127.0.0.1:%1/v1/completions").arg(server.serverPort())), 2);
        step.request.stream = stream;
        TransportOptions options;
        options.kind = static_cast<TransportKind>(transport);
        const StepResult result = runStep(step, options);
        QCOMPARE(result.records.size(), std::size_t(2));
        for (const RequestRecord& r : result.records) {
            QCOMPARE(r.failure, FailureClass::ResponseTooLarge);
            QVERIFY2(r.errorMessage.contains(messagePart), qPrintable(r.errorMessage));
            QVERIFY(r.generatedText.size() <= ResponseAccumulator::maxRetainedTextChars);
            QVERIFY(!failureHint(r, {}, {}).isEmpty());
        }
        // The socket client stops reading at its cap and closes the connection. (Qt's client may read on
        // after the reply is aborted; what it reads is dropped, and the request has ended all the same.)
        if (static_cast<TransportKind>(transport) == TransportKind::Socket)
            QVERIFY2(server.bytesSent < 256LL * 1024 * 1024, qPrintable(QString::number(server.bytesSent)));
    }

    void sseParserBoundsItsBuffers()
    {
        SseParser parser;
        const QByteArray chunk(1024 * 1024, 'x');
        parser.feed("data: ");
        for (int i = 0; i < 8; ++i)
            parser.feed(chunk);
        QVERIFY(parser.overflowed());
        QVERIFY(parser.finish().empty());

        SseParser manyLines; // many data lines of one event: the event is bounded too
        QByteArray lines;
        for (int i = 0; i < 1024; ++i)
            lines += "data: " + QByteArray(8 * 1024, 'y') + "\n";
        manyLines.feed(lines);
        QVERIFY(manyLines.overflowed());
    }

    void retainedTextIsCappedButCounted()
    {
        HttpRequest request;
        request.url = QUrl(QStringLiteral("http://127.0.0.1:1/v1/completions"));
        ResponseAccumulator acc(request, 0);
        acc.onResponseStarted(200, 1);
        const QByteArray event
            = "data: {\"choices\": [{\"index\": 0, \"text\": \"" + QByteArray(1000, 'w') + " two\"}]}\n\n";
        const int events = 400; // 400,000+ characters: past the cap
        for (int i = 0; i < events; ++i)
            acc.onData(event, 2 + i);
        acc.onData("data: [DONE]\n\n", 1000);
        const RequestRecord r = acc.finish(1001, FailureClass::None, {});
        QVERIFY(r.success());
        QCOMPARE(r.generatedText.size(), ResponseAccumulator::maxRetainedTextChars);
        // "www…w two" per event, glued across events: "two" and the next "www…" join into one word.
        QCOMPARE(r.outputTokens, events + 1);
    }

    // A server's words reach a terminal and the window inert: its control bytes (here a terminal title
    // and a screen clear) and bidirectional overrides are shown as escapes, whatever carried them — an
    // error body, an error event's message, a malformed event.
    void serverTextIsInert()
    {
        static const char raw[] = "\x1b]0;PWNED\x07\x1b[2J\x00\xc2\x9b\xe2\x80\xae";
        const QByteArray hostile(raw, sizeof(raw) - 1);
        const QString shown = QStringLiteral("\\x1b]0;PWNED\\x07\\x1b[2J\\x00\\x9b\\u202e");
        HttpRequest request;
        request.url = QUrl(QStringLiteral("http://127.0.0.1:1/v1/completions"));
        const auto inert = [](const QString& text) {
            for (const QChar c : text) {
                if (c.unicode() < 0x20 || (c.unicode() >= 0x7F && c.unicode() < 0xA0) || c.unicode() == 0x202E)
                    return false;
            }
            return true;
        };
        {
            ResponseAccumulator acc(request, 0);
            acc.onResponseStarted(500, 1);
            acc.onData(hostile, 2);
            const RequestRecord r = acc.finish(3, FailureClass::None, {});
            QVERIFY2(r.errorMessage.contains(shown), qPrintable(r.errorMessage));
            QVERIFY(inert(r.errorMessage));
        }
        {
            ResponseAccumulator acc(request, 0);
            acc.onResponseStarted(200, 1);
            acc.onData("data: {\"error\": {\"message\": \"" + QByteArray("\\u001b[2J\\u202e") + "\"}}\n\n", 2);
            acc.onData("data: {\"choices\": 5, \"x\": \"" + hostile.left(12) + "\"}\n\n", 3);
            const RequestRecord r = acc.finish(4, FailureClass::None, {});
            QVERIFY(!r.success());
            QVERIFY2(inert(r.errorMessage), qPrintable(r.errorMessage));
            QVERIFY2(r.errorMessage.contains(QLatin1String("\\x1b[")), qPrintable(r.errorMessage));
        }
        QCOMPARE(inertLines(QStringLiteral("a\n\tb\x1b")), QStringLiteral("a\n\tb\\x1b"));
        QCOMPARE(inertExcerpt("abc\ndef", 5), QStringLiteral("abc\\nd…"));
    }

    // Requests never follow a redirect, so the key cannot travel to another host; the probe follows
    // only same-origin redirects.
    void redirectsNeverCarryTheKey()
    {
        HostileServer other(HostileServer::Mode::Record);
        QVERIFY(other.listen(QHostAddress(QStringLiteral("127.0.0.2")), 0) || other.listen(QHostAddress::LocalHost, 0));
        HostileServer redirecting(HostileServer::Mode::Redirect);
        QVERIFY(redirecting.listen(QHostAddress::LocalHost, 0));
        redirecting.redirectTo = QUrl(QStringLiteral("http://%1:%2/v1/completions")
                                          .arg(other.serverAddress().toString())
                                          .arg(other.serverPort()));

        StepConfig step
            = makeStep(QUrl(QStringLiteral("http://127.0.0.1:%1/v1/completions").arg(redirecting.serverPort())), 2);
        step.request.headers.append({ QByteArrayLiteral("Authorization"), QByteArrayLiteral("Bearer sk-redirect") });
        const StepResult result = runStep(step);
        QCOMPARE(result.records.size(), std::size_t(2));
        for (const RequestRecord& r : result.records) {
            QCOMPARE(r.failure, FailureClass::HttpOther);
            QCOMPARE(r.httpStatus, 307);
            QVERIFY(failureHint(r, {}, {}).contains(QStringLiteral("redirect")));
        }

        ProbeTarget target;
        target.target.baseUrl = QStringLiteral("http://127.0.0.1:%1").arg(redirecting.serverPort());
        target.target.model = QStringLiteral("m");
        target.headers.append({ QByteArrayLiteral("Authorization"), QByteArrayLiteral("Bearer sk-redirect") });
        Probe probe;
        QSignalSpy done(&probe, &Probe::finished);
        probe.start(target);
        QVERIFY(done.wait(kWaitMs));
        QVERIFY(!done.takeFirst().at(0).value<ProbeReport>().ok());
        for (const QByteArray& request : std::as_const(other.requests))
            QVERIFY2(!request.contains("sk-redirect"), request.constData());
        QVERIFY(other.requests.isEmpty());
    }

    void hintsSayWhatToDo_data()
    {
        QTest::addColumn<int>("failure");
        QTest::addColumn<int>("status");
        QTest::addColumn<bool>("sentKey");
        QTest::addColumn<QString>("part");
        const int none = 0;
        QTest::addRow("401 with key") << int(FailureClass::HttpAuth) << 401 << true
                                      << QStringLiteral("an Authorization: Bearer header was sent");
        QTest::addRow("401 without key") << int(FailureClass::HttpAuth) << 401 << false
                                         << QStringLiteral("No Authorization header was sent");
        QTest::addRow("404 lists models")
            << int(FailureClass::HttpNotFound) << 404 << false << QStringLiteral("the server lists: model-a, model-b");
        QTest::addRow("refused names host:port") << int(FailureClass::ConnectionRefused) << none << false
                                                 << QStringLiteral("Nothing listens on 10.1.2.3:8123");
        QTest::addRow("connect timeout and value")
            << int(FailureClass::ConnectTimeout) << none << false
            << QStringLiteral("connect timeout (target.timeouts.connect_s = 3 s)");
        QTest::addRow("first token timeout") << int(FailureClass::FirstByteTimeout) << none << false
                                             << QStringLiteral("target.timeouts.first_token_s = 7 s");
        QTest::addRow("idle timeout") << int(FailureClass::IdleTimeout) << none << false
                                      << QStringLiteral("between-chunks timeout (target.timeouts.idle_s = 5 s)");
        QTest::addRow("total timeout") << int(FailureClass::TotalTimeout) << none << false
                                       << QStringLiteral("target.timeouts.total_s = 9 s");
        QTest::addRow("no choices") << int(FailureClass::NoChoices) << 200 << false
                                    << QStringLiteral("first 300 bytes");
        QTest::addRow("proxy named") << int(FailureClass::Network) << none << false
                                     << QStringLiteral("through the proxy http://proxy.example:3128");
    }

    void hintsSayWhatToDo()
    {
        QFETCH(int, failure);
        QFETCH(int, status);
        QFETCH(bool, sentKey);
        QFETCH(QString, part);
        RequestRecord r;
        r.failure = static_cast<FailureClass>(failure);
        r.httpStatus = status;
        FailureContext context;
        if (sentKey)
            context.sentHeaders.append({ QByteArrayLiteral("Authorization"), QByteArrayLiteral("Bearer sk-hidden") });
        context.serverModels = { QStringLiteral("model-a"), QStringLiteral("model-b") };
        context.url = QUrl(QStringLiteral("http://10.1.2.3:8123/v1/completions"));
        context.transport.timeouts = { 3, 7, 5, 9 };
        context.transportKnown = true;
        if (QByteArray(QTest::currentDataTag()) == "proxy named") {
            context.transport.proxyMode = ProxyMode::Url;
            context.transport.proxyUrl = QUrl(QStringLiteral("http://user:pw@proxy.example:3128"));
        }
        const QString hint = failureHint(r, context);
        QVERIFY2(hint.contains(part), qPrintable(hint));
        QVERIFY(!hint.contains(QStringLiteral("sk-hidden")));
        QVERIFY(!hint.contains(QStringLiteral("pw@")));
    }

    // kill -9 in the middle of the second step: the first step is intact, the second is reported
    // as interrupted and partial from the requests it had finished.
    void sigkillMidSweepKeepsFinishedSteps()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString out = dir.filePath(QStringLiteral("run"));
        QProcess cli;
        cli.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        // The first step is short; the second sends 2 requests a second for 40 requests: long enough
        // that the kill lands in it.
        cli.start(cliPath(),
            { QStringLiteral("sweep"), QStringLiteral("--base-url"), QStringLiteral("sim://default?time_scale=10"),
                QStringLiteral("--backend"), QStringLiteral("openai"), QStringLiteral("--num-prompts"),
                QStringLiteral("40"), QStringLiteral("--request-rate"), QStringLiteral("200,2"),
                QStringLiteral("--random-input-len"), QStringLiteral("16"), QStringLiteral("--random-output-len"),
                QStringLiteral("8"), QStringLiteral("--out"), out, QStringLiteral("--quiet") });
        QVERIFY(cli.waitForStarted(kWaitMs));
        const QString second = out + QStringLiteral("/steps/001.requests.jsonl");
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(second).size() > 0 || cli.state() == QProcess::NotRunning, kWaitMs);
        QVERIFY2(cli.state() == QProcess::Running, "the sweep ended before its second step was under way");
        cli.kill(); // SIGKILL
        QVERIFY(cli.waitForFinished(kWaitMs));
        QCOMPARE(cli.exitStatus(), QProcess::CrashExit);

        const QJsonObject run = QJsonDocument::fromJson(readFile(out + QStringLiteral("/run.json"))).object();
        QCOMPARE(run.value(u"status").toString(), QStringLiteral("running"));
        QCOMPARE(run.value(u"current_step").toObject().value(u"index").toInt(), 1);
        QCOMPARE(run.value(u"steps").toArray().size(), 1);
        QVERIFY(!QFile::exists(out + QStringLiteral("/steps/001.json")));
        const ResultFileContents first = ResultJson::read(readFile(out + QStringLiteral("/steps/000.json")), u"000"_s);
        QVERIFY2(first.ok(), qPrintable(first.error));
        // The finished step's request lines are all on disk: its step file is written after them.
        const QList<QByteArray> firstLines = readFile(out + QStringLiteral("/steps/000.requests.jsonl")).split('\n');
        QCOMPARE(firstLines.size(), 41);
        QVERIFY(firstLines.last().isEmpty());
        std::set<qint64> indexes;
        for (qsizetype i = 0; i < 40; ++i) {
            QString error;
            const std::optional<RequestRecord> r = requestRecordFromJson(firstLines.at(i), &error);
            QVERIFY2(r, qPrintable(error));
            indexes.insert(r->index);
        }
        QCOMPARE(indexes.size(), std::size_t(40));

        const SavedRunRead saved = readSavedRun(out);
        QVERIFY2(saved.ok(), qPrintable(saved.error));
        QCOMPARE(saved.run->status, QStringLiteral("interrupted"));
        QCOMPARE(saved.run->steps.size(), std::size_t(2));
        QVERIFY(!saved.run->steps[0].partial);
        QCOMPARE(saved.run->steps[0].completed + saved.run->steps[0].failed, 40);
        QVERIFY(saved.run->steps[1].partial);
        QVERIFY(saved.run->steps[1].metrics.completed >= 1);
    }

    void malformedInputsSayWhatIsWrong_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QTest::addRow("profile: not JSON") << u"profile"_s << QByteArray("{\"target\": ") << u"bad.json:1:"_s;
        QTest::addRow("profile: wrong type")
            << u"profile"_s << QByteArray("{\"base_url\": \"http://h:1\", \"request_rates\": \"fast\"}")
            << u"request_rates"_s;
        QTest::addRow("profile: bad env reference")
            << u"profile"_s << QByteArray("{\"base_url\": \"http://h:1\", \"model_id\": \"m\", \"api_key\": \"${1X}\"}")
            << u"api_key"_s;
        QTest::addRow("profile: binary") << u"profile"_s << QByteArray("\x00\xff\xfe\x01", 4) << u"bad.json"_s;
        QTest::addRow("dataset: bad JSONL line")
            << u"jsonl"_s << QByteArray("{\"prompt\": \"fine\"}\n{\"prompt\": \n") << u"bad.json:2"_s;
        QTest::addRow("dataset: empty") << u"jsonl"_s << QByteArray() << u"bad.json"_s;
        QTest::addRow("dataset: sharegpt not an array")
            << u"sharegpt"_s << QByteArray("{\"conversations\": 3}") << u"bad.json"_s;
        QTest::addRow("result: not JSON") << u"result"_s << QByteArray("{{{") << u"bad.json"_s;
        QTest::addRow("result: not a result")
            << u"result"_s << QByteArray("{\"model\": \"m\"}") << u"bad.json: $: not a benchmark result"_s;
        QTest::addRow("result: array of numbers")
            << u"result"_s << QByteArray("[1, 2]") << u"expected an object with benchmark results"_s;
        QTest::addRow("run: run.json not JSON") << u"run"_s << QByteArray("[1, 2") << u"run.json"_s;
        QTest::addRow("run: step file missing")
            << u"run"_s
            << QByteArray("{\"format\": \"kneepoint.run/1\", \"status\": \"finished\", \"steps\": [{\"index\": 0, "
                          "\"file\": \"000.json\", \"load\": \"5 req/s\"}]}")
            << u"000.json"_s;
    }

    void malformedInputsSayWhatIsWrong()
    {
        QFETCH(QString, kind);
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.json"));
        QString message;
        if (kind == u"profile") {
            writeFile(path, content);
            const ProfileLoadResult r = ProfileStore::load(path);
            message = r.errors.join(u'\n');
            if (r.ok()) // a reference that only fails when resolved
                message = r.profile->target.resolvedApiKey().error
                    + validateProfile(*r.profile).value(0, ProfileIssue {}).toString();
        } else if (kind == u"jsonl" || kind == u"sharegpt") {
            writeFile(path, content);
            Workload w;
            w.dataset = kind;
            w.datasetPath = path;
            w.numPrompts = 4;
            w.badLines = QStringLiteral("fail");
            const DatasetResult r = loadWorkload(w);
            QVERIFY(!r.ok());
            message = r.error;
        } else if (kind == u"result") {
            const ResultFileContents r = ResultJson::read(content, path);
            QVERIFY(!r.ok());
            message = r.error;
        } else {
            writeFile(dir.filePath(QStringLiteral("run.json")), content);
            QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("steps")));
            const SavedRunRead r = readSavedRun(dir.path());
            message = r.ok() ? r.run->warnings.join(u'\n') : r.error;
        }
        QVERIFY2(!message.isEmpty(), "a message");
        QVERIFY2(message.contains(expected), qPrintable(message));
    }

    // Every file of a finished run, whether the key was written in the profile or read from the
    // environment: the key is in none of them.
    void keyNeverLandsInARun_data()
    {
        QTest::addColumn<bool>("literal");
        QTest::addRow("literal key") << true;
        QTest::addRow("${VAR} key") << false;
    }

    void keyNeverLandsInARun()
    {
        QFETCH(bool, literal);
        const QString key = QStringLiteral("sk-reliability-4f1c9e2ab7d05e63");
        sim::SimHost host;
        sim::SimServerOptions options;
        options.timeScale = 20;
        options.apiKey = key;
        QVERIFY2(host.start(options), qPrintable(host.errorString()));

        QTemporaryDir dir;
        Profile profile;
        profile.name = QStringLiteral("key test");
        profile.target.baseUrl = host.baseUrl().toString();
        profile.target.backend = Backend::OpenAi;
        profile.target.apiKey = literal ? key : QStringLiteral("${KP_RELIABILITY_KEY}");
        profile.workload.numPrompts = 6;
        profile.workload.inputLen = 8;
        profile.workload.outputLen = 8;
        profile.load.rates = { 50, 100 };
        profile.output.saveResult = true;
        profile.output.saveDetailed = true;
        profile.output.resultDir = dir.filePath(QStringLiteral("results"));
        const QString profilePath = dir.filePath(QStringLiteral("profile.json"));
        QVERIFY(ProfileStore::save(profile, profilePath).ok());
        // A literal key makes the profile owner-only.
        if (literal)
            QCOMPARE(
                QFileInfo(profilePath).permissions() & (QFile::ReadGroup | QFile::ReadOther), QFile::Permissions());

        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("KP_RELIABILITY_KEY"), key);
        env.remove(QStringLiteral("OPENAI_API_KEY"));
        QProcess cli;
        cli.setProcessEnvironment(env);
        const QString out = dir.filePath(QStringLiteral("run"));
        cli.start(cliPath(),
            { QStringLiteral("sweep"), QStringLiteral("--profile"), profilePath, QStringLiteral("--out"), out,
                QStringLiteral("--save-detailed") });
        QVERIFY(cli.waitForFinished(kWaitMs));
        const QByteArray log = cli.readAllStandardError() + cli.readAllStandardOutput();
        QVERIFY2(cli.exitCode() == 0, log.constData());
        QVERIFY(!log.contains(key.toUtf8()));

        int files = 0;
        for (const QString& root : { out, profile.output.resultDir }) {
            QDirIterator it(root, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString file = it.next();
                ++files;
                QVERIFY2(!readFile(file).contains(key.toUtf8()), qPrintable(file + QStringLiteral(" holds the key")));
            }
        }
        QVERIFY(files >= 7); // run.json, analysis.json, sweep.csv, 2 steps + 2 request logs, results
    }

    void profilesKeepTheirPreviousVersion()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.json"));
        Profile p = Profile::demo(QUrl(QStringLiteral("http://127.0.0.1:8000")));
        p.name = QStringLiteral("first");
        QVERIFY(ProfileStore::save(p, path).ok());
        QVERIFY(!QFile::exists(path + QStringLiteral(".bak")));
        p.name = QStringLiteral("second");
        QVERIFY(ProfileStore::save(p, path).ok());
        QCOMPARE(ProfileStore::load(path + QStringLiteral(".bak")).profile->name, QStringLiteral("first"));
        QCOMPARE(ProfileStore::load(path).profile->name, QStringLiteral("second"));
    }

    void keyFromAFile()
    {
        QTemporaryDir dir;
        const QString keyPath = dir.filePath(QStringLiteral("key"));
        writeFile(keyPath, "sk-from-file\nignored second line\n");
        Target t;
        t.baseUrl = QStringLiteral("https://api.example.com");
        t.apiKey = QStringLiteral("file:") + keyPath;
        const ApiKeyResolution r = t.resolvedApiKey();
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.key, QStringLiteral("sk-from-file"));
        QCOMPARE(r.source, ApiKeyResolution::Source::File);
        QVERIFY(r.describe().contains(keyPath));
        // The reference holds no secret: it stays in snapshots as written.
        Profile p;
        p.target = t;
        QCOMPARE(redactedProfile(p).target.apiKey, t.apiKey);

        t.apiKey = QStringLiteral("file:") + dir.filePath(QStringLiteral("missing"));
        QVERIFY(t.resolvedApiKey().error.contains(QStringLiteral("cannot read the key file")));
    }

    // keychain:ENTRY with no keychain service (no D-Bus session here): a clear error, at once.
    void keychainWithoutAServiceSaysSo()
    {
        // A session bus that does not exist: the same answer whether or not this machine runs one.
        qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/kneepoint-test-bus");
        Target t;
        t.baseUrl = QStringLiteral("https://api.example.com");
        t.apiKey = QStringLiteral("keychain:x");
        QCOMPARE(t.apiKeySource(), ApiKeyResolution::Source::Keychain);
        const ApiKeyResolution r = t.resolvedApiKey();
        QCOMPARE(r.source, ApiKeyResolution::Source::Keychain);
        QCOMPARE(r.variable, QStringLiteral("x"));
        QVERIFY(r.key.isEmpty());
        QCOMPARE(r.describe(), QStringLiteral("keychain entry x"));
        QVERIFY2(r.error.startsWith(QStringLiteral("target.api_key: keychain entry x: no keychain service is running "
                                                   "(the Secret Service / KWallet over D-Bus); use ${VAR} or "
                                                   "file:PATH instead")),
            qPrintable(r.error));
        // From a worker thread (the desktop application's sweeps run in one): the same answer.
        QString fromWorker;
        QThread* worker = QThread::create([&] { fromWorker = t.resolvedApiKey().error; });
        QEventLoop wait;
        connect(worker, &QThread::finished, &wait, &QEventLoop::quit);
        worker->start();
        wait.exec();
        delete worker;
        QCOMPARE(fromWorker, r.error);
        // The reference itself is valid: only resolving it fails.
        Profile p = Profile::demo(QUrl(QStringLiteral("https://api.example.com")));
        p.target.apiKey = QStringLiteral("keychain:x");
        QVERIFY(validateProfile(p).isEmpty());
        p.target.apiKey = QStringLiteral("keychain: ");
        QVERIFY(validateProfile(p).value(0).toString().contains(QStringLiteral("needs an entry name")));

        // The safety check reads no keychain (it may wait for a password): an entry counts as a key, so
        // plain HTTP to another host asks first, whether or not the keychain answers now.
        p.target.baseUrl = QStringLiteral("http://192.0.2.10:8000");
        p.target.apiKey = QStringLiteral("keychain:vllm-prod");
        const SafetyCheck check = checkSafety(p, {}, 0, 0);
        QVERIFY(check.insecureKey);
        QVERIFY2(check.insecureKeyMessage.contains(QStringLiteral("keychain entry vllm-prod")),
            qPrintable(check.insecureKeyMessage));
        const ApiKeyResolution described = p.target.resolvedApiKey(false);
        QCOMPARE(described.source, ApiKeyResolution::Source::Keychain);
        QVERIFY(described.key.isEmpty() && described.error.isEmpty());
    }

    // The reference holds no secret: profiles, targets and run snapshots keep it as written.
    void keychainReferenceRoundTrips()
    {
        QTemporaryDir dir;
        Profile p = Profile::demo(QUrl(QStringLiteral("https://api.example.com")));
        p.target.apiKey = QStringLiteral("keychain:vllm-prod");
        const QString path = dir.filePath(QStringLiteral("p.json"));
        QVERIFY(ProfileStore::save(p, path).ok());
        QVERIFY(readFile(path).contains("\"keychain:vllm-prod\""));
        const ProfileLoadResult r = ProfileStore::load(path);
        QVERIFY2(r.ok(), qPrintable(r.errors.join(u'\n')));
        QCOMPARE(r.profile->target.apiKey, QStringLiteral("keychain:vllm-prod"));
        QCOMPARE(redactedProfile(p).target.apiKey, QStringLiteral("keychain:vllm-prod"));

        // targets add --api-key-keychain stores the reference, never a key.
        const QString targets = dir.filePath(QStringLiteral("targets.json"));
        QProcess cli;
        cli.start(cliPath(),
            { QStringLiteral("targets"), QStringLiteral("add"), QStringLiteral("prod"), QStringLiteral("--base-url"),
                QStringLiteral("https://api.example.com"), QStringLiteral("--api-key-keychain"),
                QStringLiteral("vllm-prod"), QStringLiteral("--targets-file"), targets });
        QVERIFY(cli.waitForFinished(kWaitMs));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        QVERIFY(readFile(targets).contains("\"keychain:vllm-prod\""));
        cli.start(cliPath(),
            { QStringLiteral("targets"), QStringLiteral("list"), QStringLiteral("--targets-file"), targets });
        QVERIFY(cli.waitForFinished(kWaitMs));
        QVERIFY(cli.readAllStandardOutput().contains("keychain:vllm-prod"));
    }

    // A sweep whose key is in an unreachable keychain refuses to start, and says why.
    void sweepRefusesAnUnreadableKeychainKey()
    {
        QTemporaryDir dir;
        Profile p = Profile::demo(QUrl(QStringLiteral("https://api.example.com")));
        p.target.apiKey = QStringLiteral("keychain:x");
        const QString path = dir.filePath(QStringLiteral("p.json"));
        QVERIFY(ProfileStore::save(p, path).ok());
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), QStringLiteral("unix:path=/nonexistent/kneepoint-bus"));
        env.remove(QStringLiteral("OPENAI_API_KEY"));
        const QString out = dir.filePath(QStringLiteral("run"));
        for (const QStringList& args : { QStringList { QStringLiteral("sweep"), QStringLiteral("--profile"), path,
                                             QStringLiteral("--out"), out, QStringLiteral("--no-preflight") },
                 QStringList { QStringLiteral("probe"), QStringLiteral("--profile"), path } }) {
            QProcess cli;
            cli.setProcessEnvironment(env);
            cli.start(cliPath(), args);
            QVERIFY(cli.waitForFinished(kWaitMs));
            const QString err = QString::fromUtf8(cli.readAllStandardError());
            QVERIFY2(cli.exitCode() != 0, qPrintable(args.join(u' ') + u'\n' + err));
            QVERIFY2(err.contains(QStringLiteral("keychain entry x: no keychain service is running")),
                qPrintable(args.join(u' ') + u'\n' + err));
        }
        QVERIFY(!QFileInfo::exists(out + QStringLiteral("/run.json")));
    }

    void safetyGuard()
    {
        Profile p;
        p.target.baseUrl = QStringLiteral("http://192.0.2.10:8000");
        p.target.apiKey = QStringLiteral("sk-x");
        p.workload.numPrompts = 300;
        p.load.rates = { 10, 20, 5000 };
        std::vector<PlannedStep> planned = SweepPlanner(p.load, p.slo).preview();
        SafetyCheck c = checkSafety(p, planned, 100, 50);
        QVERIFY(!c.loopback);
        QVERIFY(c.insecureKey);
        QCOMPARE(c.requests, 900);
        QCOMPARE(c.promptTokens, 90000);
        QCOMPARE(c.outputTokens, 45000);
        QCOMPARE(c.overLimits.size(), 1);
        QVERIFY(c.overLimits.first().contains(QStringLiteral("5000 req/s")));
        QVERIFY(!c.needsConfirmation);
        SafetyLimits strict;
        strict.confirmAboveRequests = 500;
        QVERIFY(checkSafety(p, planned, 100, 50, strict).needsConfirmation);

        p.target.baseUrl = QStringLiteral("https://192.0.2.10");
        QVERIFY(!checkSafety(p, planned, 1, 1).insecureKey);
        p.target.baseUrl = QStringLiteral("http://127.0.0.1:8000");
        c = checkSafety(p, planned, 1, 1, strict);
        QVERIFY(c.loopback && !c.insecureKey && !c.needsConfirmation);
        p.target.baseUrl = QStringLiteral("http://[::1]:8000");
        QVERIFY(checkSafety(p, planned, 1, 1).loopback);

        // A key in a header or in the URL travels as openly as api_key does.
        p.target.apiKey.clear();
        p.target.baseUrl = QStringLiteral("http://192.0.2.10:8000");
        QVERIFY(!checkSafety(p, planned, 1, 1).insecureKey);
        p.target.headers = { { QStringLiteral("X-Trace"), QStringLiteral("1") },
            { QStringLiteral("authorization"), QStringLiteral("Bearer sk-in-a-header") } };
        c = checkSafety(p, planned, 1, 1);
        QVERIFY(c.insecureKey);
        QCOMPARE(c.insecureCarrier, QStringLiteral("the authorization header"));
        QVERIFY2(c.insecureKeyMessage.startsWith(
                     QStringLiteral("the authorization header would be sent over plain HTTP to 192.0.2.10")),
            qPrintable(c.insecureKeyMessage));
        QVERIFY(!c.insecureKeyMessage.contains(QStringLiteral("sk-in-a-header")));
        p.target.baseUrl = QStringLiteral("https://192.0.2.10");
        QVERIFY(!checkSafety(p, planned, 1, 1).insecureKey);
        p.target.headers.clear();
        p.target.baseUrl = QStringLiteral("http://user:hunter2@192.0.2.10:8000");
        c = checkSafety(p, planned, 1, 1);
        QVERIFY(c.insecureKey);
        QCOMPARE(c.insecureCarrier, QStringLiteral("the URL's password"));
        QVERIFY(!c.insecureKeyMessage.contains(QStringLiteral("hunter2")));
        // Sockets: a plan that holds more requests open than the process may open is refused, with both
        // numbers; the built-in simulator holds the other ends in the same process.
        Profile many;
        many.target.baseUrl = QStringLiteral("http://127.0.0.1:8000");
        many.load.mode = LoadMode::Concurrency;
        many.load.concurrencies = { 16, 2000 };
        SafetyLimits files;
        files.openFileLimit = 1024;
        const std::vector<PlannedStep> users = SweepPlanner(many.load, many.slo).preview();
        c = checkSafety(many, users, 1, 1, files);
        QCOMPARE(c.concurrentRequests, 2000);
        QCOMPARE(c.fileLimitProblem,
            QStringLiteral(
                "the plan holds up to 2000 requests open at once, but this process may open only 1024 "
                "files and sockets (ulimit -n): raise the limit to at least 2128, or lower the concurrency"));
        files.openFileLimit = 4096;
        QVERIFY(checkSafety(many, users, 1, 1, files).fileLimitProblem.isEmpty());
        many.target.baseUrl = QStringLiteral("sim://default");
        QVERIFY(checkSafety(many, users, 1, 1, files).fileLimitProblem.contains(QStringLiteral("at least 4128")));
        files.openFileLimit = -1;
        QVERIFY(checkSafety(many, users, 1, 1, files).fileLimitProblem.isEmpty());

        for (const char* name : { "Authorization", "Proxy-Authorization", "Cookie", "X-Api-Key", "api-key",
                 "X-Auth-Token", "x-goog-api-key", "Ocp-Apim-Subscription-Key" })
            QVERIFY2(isCredentialHeader(QLatin1String(name)), name);
        for (const char* name : { "X-Trace", "Content-Type", "User-Agent", "X-Request-Id" })
            QVERIFY2(!isCredentialHeader(QLatin1String(name)), name);
    }

    // Where the run goes is checked before anything is sent: a place that cannot be written ends the
    // command at once with exit 1 and the reason, not after the preflight.
    void cliChecksTheOutputFirst()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("a-file"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        QProcess cli;
        cli.start(cliPath(),
            { QStringLiteral("sweep"), QStringLiteral("--base-url"), QStringLiteral("http://192.0.2.10:8000"),
                QStringLiteral("--model"), QStringLiteral("m"), QStringLiteral("--out"), file + QStringLiteral("/run"),
                QStringLiteral("--quiet") });
        QVERIFY(cli.waitForFinished(kWaitMs));
        const QString err = QString::fromUtf8(cli.readAllStandardError());
        QCOMPARE(cli.exitCode(), 1);
        QCOMPARE(err.trimmed(), QStringLiteral("error: %1/run: cannot be a folder: %1 is a file").arg(file));
        QVERIFY(QDir(dir.path()).entryList(QDir::Hidden | QDir::AllEntries | QDir::NoDotAndDotDot).size() == 1);
    }

    // The probe sends the key too, including one only the environment holds.
    void cliProbeRefusesAPlainKey()
    {
        QProcess cli;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("OPENAI_API_KEY"), QStringLiteral("sk-from-the-environment"));
        cli.setProcessEnvironment(env);
        cli.start(cliPath(),
            { QStringLiteral("probe"), QStringLiteral("--base-url"), QStringLiteral("http://192.0.2.10:8000"),
                QStringLiteral("--model"), QStringLiteral("m") });
        QVERIFY(cli.waitForFinished(kWaitMs));
        const QString err = QString::fromUtf8(cli.readAllStandardError());
        QCOMPARE(cli.exitCode(), 2);
        QVERIFY2(err.contains(QStringLiteral("OPENAI_API_KEY")) && err.contains(QStringLiteral("--allow-insecure-key")),
            qPrintable(err));
        QVERIFY(!err.contains(QStringLiteral("sk-from-the-environment")));
    }

    void cliRefusesUnsafeSweeps_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        const QStringList base = { QStringLiteral("sweep"), QStringLiteral("--base-url"),
            QStringLiteral("http://192.0.2.10:8000"), QStringLiteral("--model"), QStringLiteral("m"),
            QStringLiteral("--no-preflight"), QStringLiteral("--quiet") };
        QTest::addRow("key over plain http")
            << base + QStringList { QStringLiteral("--api-key"), QStringLiteral("sk-x") }
            << QStringLiteral("--allow-insecure-key");
        QTest::addRow("past the rate limit")
            << base + QStringList { QStringLiteral("--request-rate"), QStringLiteral("5000") }
            << QStringLiteral("--allow-high-load");
        QTest::addRow("large sweep to another machine") << base
                + QStringList { QStringLiteral("--num-prompts"), QStringLiteral("5000"),
                      QStringLiteral("--request-rate"), QStringLiteral("10") }
                                                        << QStringLiteral("--yes");
    }

    void cliRefusesUnsafeSweeps()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        QProcess cli;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("OPENAI_API_KEY"));
        cli.setProcessEnvironment(env);
        cli.start(cliPath(), args);
        QVERIFY(cli.waitForFinished(kWaitMs));
        const QString err = QString::fromUtf8(cli.readAllStandardError());
        QCOMPARE(cli.exitCode(), 2);
        QVERIFY2(err.contains(expected), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestReliability)
#include "tst_reliability.moc"
