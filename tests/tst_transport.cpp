// Both transports (QNetworkAccessManager and Kneepoint's socket client) against the real simulator on
// 127.0.0.1: the same requests give the same records, counts and failure classes. Also the HTTP/1.1
// response parser the socket client uses, fed split at every byte.
#include "client/httpresponseparser.h"
#include "client/probe.h"
#include "client/qnamtransport.h"
#include "client/requestbuilder.h"
#include "client/responseaccumulator.h"
#include "client/sockettransport.h"
#include "client/socketworker.h"
#include "dataset/dataset.h"
#include "load/deadlinetimer.h"
#include "load/steprunner.h"
#include "metrics/resultjson.h"
#include "metrics/stepmetrics.h"
#include "sim/faults.h"
#include "sim/filelimit.h"
#include "sim/simhost.h"
#include "sim/simprotocol.h"
#include "support/simclient.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QSocketNotifier>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QSslServer>
#include <QSslSocket>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <QScopeGuard>
#include <QSemaphore>
#include <QTimer>

#include <map>
#include <numeric>

#include <sys/socket.h>
#include <unistd.h>

#ifdef Q_OS_LINUX
#include "client/epolldispatcher.h"
#endif

using namespace kp;
using namespace Qt::StringLiterals;
using kp::testing::getJson;
using kp::testing::truthByRequestId;

Q_DECLARE_METATYPE(kp::TransportKind)

namespace {

constexpr int kStepTimeoutMs = 120000; // generous: a loaded 2-core machine must never fail on time

StepConfig makeStep(const QUrl& base, Backend backend, const QString& model, int prompts, int inputLen, int outputLen)
{
    return testing::makeStep(base, backend, model, prompts, inputLen, outputLen, 11);
}

std::unique_ptr<Transport> transportOf(TransportKind kind, TransportOptions options, int workers = 2)
{
    options.kind = kind;
    options.workers = workers;
    if (kind == TransportKind::Qnam)
        return std::make_unique<QnamTransport>(options);
    return std::make_unique<SocketTransport>(options);
}

StepResult runStep(TransportKind kind, StepConfig step, TransportOptions options = {},
    const std::function<void(StepRunner&, const LiveSnapshot&)>& onSnapshot = {})
{
    const auto transport = transportOf(kind, options);
    StepRunner runner(transport.get(), MetricsOptions {});
    QSignalSpy finished(&runner, &StepRunner::finished);
    if (onSnapshot)
        QObject::connect(&runner, &StepRunner::snapshot, &runner,
            [&runner, &onSnapshot](const LiveSnapshot& s) { onSnapshot(runner, s); });
    runner.start(std::move(step));
    if (!finished.wait(kStepTimeoutMs))
        return {};
    return finished.takeFirst().at(0).value<StepResult>();
}

void addTransportRows()
{
    QTest::addColumn<TransportKind>("kind");
    QTest::addRow("qnam") << TransportKind::Qnam;
    QTest::addRow("socket") << TransportKind::Socket;
}

// Feeds `bytes` to a parser in pieces of `step` bytes; returns the body, or "ERROR: ..." on failure.
QByteArray parseInPieces(const QByteArray& bytes, qsizetype step, HttpResponseParser& parser, bool closeAtEnd = false)
{
    QByteArray body;
    std::vector<QByteArrayView> parts;
    for (qsizetype pos = 0; pos < bytes.size(); pos += step) {
        parts.clear();
        const QByteArray piece = bytes.mid(pos, step);
        const bool ok = parser.feed(piece, parts);
        for (const QByteArrayView& p : parts)
            body += p;
        if (!ok)
            return "ERROR: " + parser.error().toUtf8();
    }
    if (closeAtEnd && !parser.finishOnClose())
        return "ERROR: incomplete";
    return body;
}

// A server that answers every request with the same bytes, for the answers the simulator does not give.
// It answers once the whole request is in; then it closes, resets the connection (an RST, not a FIN),
// or stays open. With
// dripMs it sends the answer's body a byte per tick after the headers, and then stays open.
class CannedServer : public QTcpServer
{
public:
    enum class End { Close, Reset, StayOpen };
    QByteArray answer;
    End end = End::Close;
    int dripMs = 0;

    CannedServer()
    {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* s = nextPendingConnection())
                serve(s);
        });
    }

private:
    void serve(QTcpSocket* s)
    {
        auto buffer = std::make_shared<QByteArray>();
        auto answered = std::make_shared<bool>(false);
        connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
        connect(s, &QTcpSocket::readyRead, s, [this, s, buffer, answered] {
            *buffer += s->readAll();
            const qsizetype headerEnd = buffer->indexOf("\r\n\r\n");
            if (*answered || headerEnd < 0)
                return;
            const qsizetype at = buffer->toLower().indexOf("content-length:");
            const qsizetype length
                = at < 0 ? 0 : buffer->mid(at + 15, buffer->indexOf('\r', at) - at - 15).trimmed().toLongLong();
            if (buffer->size() < headerEnd + 4 + length)
                return;
            *answered = true;
            respond(s);
        });
    }
    void respond(QTcpSocket* s)
    {
        if (dripMs <= 0) {
            s->write(answer);
            finish(s);
            return;
        }
        const qsizetype bodyAt = answer.indexOf("\r\n\r\n") + 4;
        s->write(answer.first(bodyAt));
        auto* timer = new QTimer(s);
        auto next = std::make_shared<qsizetype>(bodyAt);
        connect(timer, &QTimer::timeout, s, [this, s, timer, next] {
            if (*next >= answer.size())
                return timer->stop();
            s->write(answer.mid((*next)++, 1));
        });
        timer->start(dripMs);
    }
    void finish(QTcpSocket* s)
    {
        if (end == End::StayOpen)
            return;
        auto close = [this, s] {
            if (s->bytesToWrite() > 0)
                return;
            if (end == End::Reset) {
                const linger reset { 1, 0 }; // close with an RST
                ::setsockopt(int(s->socketDescriptor()), SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
                s->abort();
            } else {
                s->disconnectFromHost();
            }
        };
        connect(s, &QTcpSocket::bytesWritten, s, close);
        s->flush();
        close();
    }
};

// A complete streamed completion: one token "a", then [DONE]; chunked, so the connection stays open.
const QByteArray kStreamReply
    = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
      "2c\r\ndata: {\"choices\":[{\"index\":0,\"text\":\"a\"}]}\n\n\r\n"
      "e\r\ndata: [DONE]\n\n\r\n0\r\n\r\n";

// Calls `onRequest(socket, connection, request)` for each whole request (headers and Content-Length
// body) the server receives; connections and requests on a connection count from 1. Works for a
// QSslServer too (its sockets read decrypted bytes).
void serveRequests(QTcpServer& server, int& connections,
    const std::function<void(QTcpSocket* s, int connection, int request)>& onRequest)
{
    // A QSslServer offers a connection once its handshake is done (pendingConnectionAvailable), after
    // its newConnection.
    const auto take = [&server, &connections, onRequest] {
        while (QTcpSocket* s = server.nextPendingConnection()) {
            const int connection = ++connections;
            auto buffer = std::make_shared<QByteArray>();
            auto requests = std::make_shared<int>(0);
            QObject::connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            QObject::connect(s, &QTcpSocket::readyRead, s, [s, buffer, requests, connection, onRequest] {
                *buffer += s->readAll();
                while (true) {
                    const qsizetype headerEnd = buffer->indexOf("\r\n\r\n");
                    if (headerEnd < 0)
                        return;
                    const QByteArray head = buffer->first(headerEnd).toLower();
                    const qsizetype at = head.indexOf("content-length:");
                    const qsizetype length
                        = at < 0 ? 0 : head.mid(at + 15, head.indexOf('\r', at) - at - 15).trimmed().toLongLong();
                    if (buffer->size() < headerEnd + 4 + length)
                        return;
                    buffer->remove(0, headerEnd + 4 + length);
                    onRequest(s, connection, ++*requests);
                    if (s->state() != QAbstractSocket::ConnectedState)
                        return;
                }
            });
        }
    };
    QObject::connect(&server, &QTcpServer::newConnection, &server, take);
    QObject::connect(&server, &QTcpServer::pendingConnectionAvailable, &server, take);
}

// Listens on loopback and answers every request with kStreamReply; returns the completions URL, or an
// invalid one if it cannot listen.
QUrl answerEveryRequest(QTcpServer& server)
{
    if (!server.listen(QHostAddress::LocalHost, 0))
        return {};
    auto connections = std::make_shared<int>(0);
    serveRequests(server, *connections, [connections](QTcpSocket* s, int, int) { s->write(kStreamReply); });
    return QUrl(QStringLiteral("http://127.0.0.1:%1/v1/completions").arg(server.serverPort()));
}

HttpRequest plainRequest(const QUrl& url, qint64 index)
{
    HttpRequest request;
    request.index = index;
    request.url = url;
    request.body = "{}";
    request.scheduledNs = steadyNowNs();
    return request;
}

// Sends the requests one after another, each once the one before has finished; returns the records.
std::vector<RequestRecord> sendInTurn(Transport& transport, const std::vector<HttpRequest>& requests)
{
    std::vector<RequestRecord> records;
    QObject context;
    QObject::connect(
        &transport, &Transport::finished, &context, [&records](const RequestRecord& r) { records.push_back(r); });
    for (const HttpRequest& request : requests) {
        const std::size_t before = records.size();
        transport.send(request);
        if (!QTest::qWaitFor([&] { return records.size() > before; }, kStepTimeoutMs))
            break;
    }
    return records;
}

} // namespace

#ifdef Q_OS_LINUX
// Records timer events by id, in the order they come.
class TimerLog : public QObject
{
public:
    std::vector<int> ids;

protected:
    void timerEvent(QTimerEvent* event) override { ids.push_back(event->timerId()); }
};

// A thread running an EpollDispatcher, and an object living in it that reports back to the test's
// thread what happened there, by queued signal.
class DispatcherThread
{
public:
    DispatcherThread()
    {
        thread.setEventDispatcher(new EpollDispatcher);
        context.moveToThread(&thread);
        thread.start();
    }
    ~DispatcherThread()
    {
        thread.quit(); // the dispatcher's interrupt(): wait() below returns only if it works
        thread.wait();
    }
    // Runs f in the dispatcher's thread (a posted event).
    template <typename F> void run(F f) { QMetaObject::invokeMethod(&context, std::move(f), Qt::QueuedConnection); }
    // Appends to log in the test's thread.
    void report(const QString& what)
    {
        QMetaObject::invokeMethod(
            qApp, [this, what] { log.append(what); }, Qt::QueuedConnection);
    }

    QThread thread;
    QObject context;
    QStringList log;
};
#endif

class TestTransport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { sim::raiseFileLimit(); }

    // ---- the socket workers' epoll dispatcher ---------------------------------------------------------

#ifdef Q_OS_LINUX
    // The socket transport's worker threads run the epoll dispatcher, and a request gets its answer there.
    void socketWorkersRunTheEpollDispatcher()
    {
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        connect(&server, &QTcpServer::newConnection, this, [&] {
            while (QTcpSocket* s = server.nextPendingConnection()) {
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
                connect(s, &QTcpSocket::readyRead, s, [s] {
                    if (s->readAll().contains("\r\n\r\n"))
                        s->write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}");
                });
            }
        });
        const auto transport = transportOf(TransportKind::Socket, {});
        const auto* sockets = qobject_cast<SocketTransport*>(transport.get());
        QVERIFY(sockets);
        QCOMPARE(sockets->workerCount(), 2);
        for (int i = 0; i < sockets->workerCount(); ++i)
            QVERIFY(qobject_cast<EpollDispatcher*>(sockets->workerThread(i)->eventDispatcher()));
        HttpRequest request;
        request.url = QUrl(u"http://127.0.0.1:%1/v1/completions"_s.arg(server.serverPort()));
        request.body = "{}";
        request.stream = false;
        request.scheduledNs = steadyNowNs();
        const std::vector<RequestRecord> records = sendInTurn(*transport, { request, request });
        QCOMPARE(records.size(), std::size_t(2));
        for (const RequestRecord& r : records)
            QCOMPARE(r.httpStatus, 200);
        // A plain connection's answer is read by the worker from the descriptor, through the dispatcher's
        // reader, not through the socket's notifier and readyRead.
        qint64 readerCalls = 0;
        for (int i = 0; i < sockets->workerCount(); ++i)
            readerCalls += qobject_cast<EpollDispatcher*>(sockets->workerThread(i)->eventDispatcher())->readerCalls();
        QVERIFY2(readerCalls >= 2, qPrintable(u"reader calls: %1"_s.arg(readerCalls)));
    }

    // QSslSocket (its handshake's notifiers and timers) on the epoll dispatcher: an https request to a
    // local TLS server with a self-signed certificate for localhost (tls_verify off) gets its answer.
    void socketTransportSpeaksTlsOnEpoll()
    {
        if (!QSslSocket::supportsSsl())
            QSKIP("no TLS backend");
        QFile cert(QFINDTESTDATA("data/tls/cert.pem"));
        QFile key(QFINDTESTDATA("data/tls/key.pem"));
        QVERIFY(cert.open(QIODevice::ReadOnly));
        QVERIFY(key.open(QIODevice::ReadOnly));
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.setLocalCertificate(QSslCertificate(&cert, QSsl::Pem));
        tls.setPrivateKey(QSslKey(&key, QSsl::Rsa, QSsl::Pem));
        QSslServer server;
        server.setSslConfiguration(tls);
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        connect(&server, &QSslServer::pendingConnectionAvailable, this, [&] {
            while (QTcpSocket* s = server.nextPendingConnection()) {
                auto head = std::make_shared<QByteArray>();
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
                const auto answer = [s, head] {
                    *head += s->readAll();
                    if (head->contains("\r\n\r\n{}"))
                        s->write(
                            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: 86\r\n\r\n"
                            "data: {\"choices\":[{\"index\":0,\"text\":\"secure\",\"finish_reason\":\"stop\"}]}\n\n"
                            "data: [DONE]\n\n");
                };
                connect(s, &QTcpSocket::readyRead, s, answer);
                answer(); // the request may have come with the handshake
            }
        });
        TransportOptions options;
        options.tlsVerify = false;
        const auto transport = transportOf(TransportKind::Socket, options, 1);
        QVERIFY(qobject_cast<EpollDispatcher*>(
            qobject_cast<SocketTransport*>(transport.get())->workerThread(0)->eventDispatcher()));
        std::vector<RequestRecord> records;
        connect(transport.get(), &Transport::finished, this, [&](const RequestRecord& r) { records.push_back(r); });
        HttpRequest request;
        request.url = QUrl(u"https://localhost:%1/v1/completions"_s.arg(server.serverPort()));
        request.body = "{}";
        request.stream = true;
        request.scheduledNs = steadyNowNs();
        transport->send(request);
        QTRY_COMPARE_WITH_TIMEOUT(records.size(), std::size_t(1), kStepTimeoutMs);
        const RequestRecord& r = records.front();
        QVERIFY2(r.failure == FailureClass::None, qPrintable(r.errorMessage));
        QCOMPARE(r.httpStatus, 200);
        QCOMPARE(r.generatedText, u"secure"_s);
    }

    // The dispatch timer fires once per arming, at the absolute time it was given. Re-arming or stopping
    // it clears an expiry the event loop has not seen yet, and that readiness fires nothing (its
    // descriptor stays watched throughout, with no registration per arrival).
    void deadlineTimerFiresOncePerArming()
    {
        DeadlineTimer timer;
        int fired = 0;
        connect(&timer, &DeadlineTimer::timeout, this, [&] { ++fired; });
        const auto passes = [] {
            for (int i = 0; i < 5; ++i)
                QCoreApplication::processEvents();
        };
        timer.startAt(steadyNowNs() - 1000); // already due: the next pass
        QTRY_COMPARE(fired, 1);
        passes();
        QCOMPARE(fired, 1);
        QVERIFY(!timer.isActive());

        timer.startAt(steadyNowNs() - 1000);
        timer.startAt(steadyNowNs() + 3'600'000'000'000); // moved an hour on before the loop saw it
        passes();
        QCOMPARE(fired, 1);
        QVERIFY(timer.isActive());
        timer.stop();

        timer.startAt(steadyNowNs() - 1000);
        timer.stop(); // expired, then stopped before the loop saw it
        passes();
        QCOMPARE(fired, 1);

        timer.startAt(steadyNowNs() + 2'000'000); // 2 ms from now
        QTRY_COMPARE(fired, 2);

        // Both ready in one pass: a socket whose handler re-arms the timer an hour on, and the timer's
        // expiry. Whichever the loop takes first, the hour-long arming stands afterwards: an expiry
        // already seen by the loop but cleared before its turn fires nothing.
        int pipeFds[2];
        QCOMPARE(::pipe(pipeFds), 0);
        const auto closePipe = qScopeGuard([&] {
            ::close(pipeFds[0]);
            ::close(pipeFds[1]);
        });
        QSocketNotifier readable { qintptr(pipeFds[0]), QSocketNotifier::Read };
        DeadlineTimer second;
        int secondFired = 0;
        connect(&second, &DeadlineTimer::timeout, this, [&] { ++secondFired; });
        connect(&readable, &QSocketNotifier::activated, this, [&] {
            char byte;
            QCOMPARE(::read(pipeFds[0], &byte, 1), ssize_t(1));
            second.startAt(steadyNowNs() + 3'600'000'000'000);
        });
        second.startAt(steadyNowNs() - 1000);
        QCOMPARE(::write(pipeFds[1], "x", 1), ssize_t(1));
        passes();
        QVERIFY(second.isActive());
        QVERIFY(secondFired <= 1);
    }

    void epollTimersFireInDeadlineOrderAndRepeat()
    {
        EpollDispatcher dispatcher;
        TimerLog log;
        // Registered out of deadline order: 200 ms, 25 ms, 100 ms.
        dispatcher.registerTimer(101, 200, Qt::PreciseTimer, &log);
        dispatcher.registerTimer(102, 25, Qt::CoarseTimer, &log);
        dispatcher.registerTimer(103, 100, Qt::PreciseTimer, &log);
        QList<int> intervals;
        for (const auto& info : dispatcher.registeredTimers(&log))
            intervals.append(info.timerId * 1000 + info.interval);
        std::sort(intervals.begin(), intervals.end());
        QCOMPARE(intervals, QList<int>({ 101200, 102025, 103100 }));
        QCOMPARE(dispatcher.remainingTime(999), -1);
        QVERIFY(dispatcher.remainingTime(101) >= 0 && dispatcher.remainingTime(101) <= 200);
        while (std::count(log.ids.begin(), log.ids.end(), 101) < 2)
            dispatcher.processEvents(QEventLoop::WaitForMoreEvents);
        QCOMPARE(log.ids.front(), 102);
        const auto first = [&](int id) { return std::find(log.ids.begin(), log.ids.end(), id) - log.ids.begin(); };
        QVERIFY(first(103) < first(101));
        QVERIFY(std::count(log.ids.begin(), log.ids.end(), 102) >= 2); // repeats
        QVERIFY(std::count(log.ids.begin(), log.ids.end(), 103) >= 1);

        QVERIFY(dispatcher.unregisterTimer(102));
        QVERIFY(!dispatcher.unregisterTimer(102));
        const auto fast = std::count(log.ids.begin(), log.ids.end(), 102);
        while (std::count(log.ids.begin(), log.ids.end(), 101) < 3)
            dispatcher.processEvents(QEventLoop::WaitForMoreEvents);
        QCOMPARE(std::count(log.ids.begin(), log.ids.end(), 102), fast); // stopped
        QVERIFY(dispatcher.unregisterTimers(&log));
        QVERIFY(dispatcher.registeredTimers(&log).isEmpty());
        QVERIFY(!dispatcher.processEvents(QEventLoop::AllEvents)); // nothing left: returns at once
    }

    void epollDispatcherDeliversPostedEventsAndWakesUp()
    {
        DispatcherThread t;
        QVERIFY(qobject_cast<EpollDispatcher*>(t.thread.eventDispatcher()));
        // The thread is blocked waiting (no timers, no sockets): each post must wake it.
        for (int i = 0; i < 3; ++i) {
            t.run([&t, i] { t.report(u"posted %1 in %2"_s.arg(i).arg(QThread::currentThread() == &t.thread)); });
            QTRY_COMPARE(t.log.size(), i + 1);
        }
        QCOMPARE(t.log, QStringList({ u"posted 0 in 1"_s, u"posted 1 in 1"_s, u"posted 2 in 1"_s }));
        t.run([&t] { QTimer::singleShot(30, &t.context, [&t] { t.report(u"timer"_s); }); });
        QTRY_COMPARE(t.log.size(), 4);
        QCOMPARE(t.log.last(), u"timer"_s);
    }

    void epollNotifierFiresWhileDataIsReadable()
    {
        int fds[2];
        QCOMPARE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
        {
            DispatcherThread t;
            QSocketNotifier* notifier = nullptr;
            t.run([&] {
                notifier = new QSocketNotifier(fds[0], QSocketNotifier::Read, &t.context);
                QObject::connect(notifier, &QSocketNotifier::activated, &t.context, [&t, fd = fds[0]] {
                    char c = 0; // one byte per activation: the rest must fire it again (level-triggered)
                    if (::read(fd, &c, 1) == 1)
                        t.report(QString(QLatin1Char(c)));
                });
                t.report(u"ready"_s);
            });
            QTRY_COMPARE(t.log.size(), 1);
            QCOMPARE(::write(fds[1], "abc", 3), ssize_t(3));
            QTRY_COMPARE(t.log.size(), 4);
            QCOMPARE(t.log, QStringList({ u"ready"_s, u"a"_s, u"b"_s, u"c"_s }));
            // Disabled: data waits; enabled again: it is read.
            t.run([&] {
                notifier->setEnabled(false);
                t.report(u"off"_s);
            });
            QTRY_COMPARE(t.log.size(), 5);
            QCOMPARE(::write(fds[1], "d", 1), ssize_t(1));
            t.run([&] {
                char c = 0;
                t.report(::recv(fds[0], &c, 1, MSG_PEEK | MSG_DONTWAIT) == 1 ? u"waiting"_s : u"lost"_s);
                notifier->setEnabled(true);
            });
            QTRY_COMPARE(t.log.size(), 7);
            QCOMPARE(t.log.mid(5), QStringList({ u"waiting"_s, u"d"_s }));
        }
        ::close(fds[0]);
        ::close(fds[1]);
    }

    // A descriptor's reader takes its read notifier's activations, level-triggered as the notifier's,
    // while the notifier stays registered; the notifier's own signal is then silent. Disabling the
    // notifier ends the reader, and a descriptor without a notifier takes none.
    void epollReaderTakesTheNotifiersReads()
    {
        int fds[2];
        QCOMPARE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
        {
            DispatcherThread t;
            QSocketNotifier* notifier = nullptr;
            const auto readOne = [&t, fd = fds[0]](const QString& who) {
                char c = 0;
                if (::read(fd, &c, 1) == 1)
                    t.report(who + QLatin1Char(c));
            };
            t.run([&] {
                auto* dispatcher = qobject_cast<EpollDispatcher*>(t.thread.eventDispatcher());
                t.report(dispatcher->setReader(fds[0], [] {}) ? u"set without a notifier"_s : u"refused"_s);
                notifier = new QSocketNotifier(fds[0], QSocketNotifier::Read, &t.context);
                QObject::connect(notifier, &QSocketNotifier::activated, &t.context, [=] { readOne(u"notifier "_s); });
                t.report(dispatcher->setReader(fds[0], [=] { readOne(u"reader "_s); }) ? u"set"_s : u"not set"_s);
            });
            QTRY_COMPARE(t.log.size(), 2);
            QCOMPARE(t.log, QStringList({ u"refused"_s, u"set"_s }));
            QCOMPARE(::write(fds[1], "ab", 2), ssize_t(2));
            QTRY_COMPARE(t.log.size(), 4);
            QCOMPARE(t.log.mid(2), QStringList({ u"reader a"_s, u"reader b"_s }));
            // Off and on again: the reader is gone, the notifier's signal comes back.
            t.run([&] {
                notifier->setEnabled(false);
                notifier->setEnabled(true);
                t.report(u"again"_s);
            });
            QTRY_COMPARE(t.log.size(), 5);
            QCOMPARE(::write(fds[1], "c", 1), ssize_t(1));
            QTRY_COMPARE(t.log.size(), 6);
            QCOMPARE(t.log.mid(4), QStringList({ u"again"_s, u"notifier c"_s }));
            // A reader that deletes the notifier while it runs ends there; the dispatcher goes on.
            t.run([&] {
                auto* dispatcher = qobject_cast<EpollDispatcher*>(t.thread.eventDispatcher());
                dispatcher->setReader(fds[0], [&, readOne] {
                    readOne(u"last "_s);
                    delete notifier;
                    notifier = nullptr;
                });
                t.report(u"set again"_s);
            });
            QTRY_COMPARE(t.log.size(), 7);
            QCOMPARE(::write(fds[1], "de", 2), ssize_t(2));
            QTRY_COMPARE(t.log.size(), 8);
            t.run([&] { t.report(notifier ? u"alive"_s : u"deleted"_s); });
            QTRY_COMPARE(t.log.size(), 9);
            QCOMPARE(t.log.mid(6), QStringList({ u"set again"_s, u"last d"_s, u"deleted"_s }));
        }
        ::close(fds[0]);
        ::close(fds[1]);
    }
#endif

    // ---- the response parser ----------------------------------------------------------------------

    void parserReadsChunkedSplitAnywhere()
    {
        const QByteArray response = "HTTP/1.1 100 Continue\r\n\r\n"
                                    "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
                                    "Transfer-Encoding: chunked\r\n\r\n"
                                    "d\r\ndata: {\"a\":1}\r\n19;ext=1\r\n\ndata: [DONE]\n\ndata: xyz\n\r\n"
                                    "0\r\nx-trailer: 1\r\n\r\n";
        const QByteArray expected = "data: {\"a\":1}\ndata: [DONE]\n\ndata: xyz\n";
        for (qsizetype step = 1; step <= response.size(); ++step) {
            HttpResponseParser parser;
            QCOMPARE(parseInPieces(response, step, parser), expected);
            QVERIFY(parser.isDone());
            QCOMPARE(parser.status(), 200);
            QVERIFY(parser.chunked());
            QVERIFY(parser.keepAlive());
        }
    }

    void parserReadsContentLengthAndClose()
    {
        const QByteArray response = "HTTP/1.1 404 Not Found\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello";
        for (qsizetype step = 1; step <= response.size(); ++step) {
            HttpResponseParser parser;
            QCOMPARE(parseInPieces(response, step, parser), QByteArray("hello"));
            QVERIFY(parser.isDone());
            QCOMPARE(parser.status(), 404);
            QVERIFY(!parser.keepAlive());
            QCOMPARE(parser.contentLength(), 5);
        }
        HttpResponseParser untilClose;
        QCOMPARE(parseInPieces("HTTP/1.0 200 OK\r\n\r\nall of it", 4, untilClose, true), QByteArray("all of it"));
        QVERIFY(!untilClose.keepAlive());
        HttpResponseParser empty;
        QCOMPARE(parseInPieces("HTTP/1.1 204 No Content\r\n\r\n", 3, empty), QByteArray());
        QVERIFY(empty.isDone());
        HttpResponseParser cut;
        QCOMPARE(parseInPieces("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf", 3, cut), QByteArray("half"));
        QVERIFY(!cut.finishOnClose());
    }

    void parserRejectsBadFraming_data()
    {
        QTest::addColumn<QByteArray>("response");
        QTest::addColumn<QString>("error");
        QTest::addRow("not http") << QByteArray("SSH-2.0-OpenSSH\r\n") << QStringLiteral("not an HTTP/1.x status line");
        QTest::addRow("bad length") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n")
                                    << QStringLiteral("invalid Content-Length");
        QTest::addRow("bad chunk size") << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
                                        << QStringLiteral("invalid chunk size");
        QTest::addRow("chunk overrun") << QByteArray(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n")
                                       << QStringLiteral("longer than its declared size");
    }

    void parserRejectsBadFraming()
    {
        QFETCH(QByteArray, response);
        QFETCH(QString, error);
        HttpResponseParser parser;
        const QByteArray out = parseInPieces(response, response.size(), parser);
        QVERIFY2(out.startsWith("ERROR: ") && out.contains(error.toUtf8()), out.constData());
        QVERIFY(parser.hasError());
    }

    // RFC 9112 6.1 and 6.3 on the parts of a response the simulator never sends: Transfer-Encoding over
    // several lines, codings the client does not decode, Transfer-Encoding with Content-Length, and
    // interim 1xx responses. Every response is read split at every position, so a status line or a
    // header of an interim response split across reads is read the same.
    void parserFollowsRfc9112_data()
    {
        QTest::addColumn<QByteArray>("response");
        QTest::addColumn<QByteArray>("expected"); // the body, or "ERROR: " and the parser's words
        QTest::addColumn<int>("status");
        QTest::addColumn<bool>("keepAlive");
        QTest::addColumn<bool>("chunked");
        QTest::addColumn<qint64>("contentLength");
        QTest::addColumn<QByteArray>("retryAfter"); // the kept header of the final response
        const QByteArray chunkedHello = "5\r\nhello\r\n0\r\n\r\n";
        QTest::addRow("gzip and chunked on two lines are one list")
            << QByteArray(
                   "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n" + chunkedHello)
            << QByteArray("ERROR: the body has a transfer coding this client does not decode: \"gzip\" "
                          "(Transfer-Encoding: gzip, chunked)")
            << 200 << false << false << qint64(-1) << QByteArray();
        QTest::addRow("chunked on two lines")
            << QByteArray(
                   "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\ntransfer-encoding: chunked\r\n\r\n" + chunkedHello)
            << QByteArray("ERROR: chunked applied more than once (Transfer-Encoding: chunked, chunked)") << 200 << false
            << false << qint64(-1) << QByteArray();
        QTest::addRow("chunked twice in one line")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, CHUNKED\r\n\r\n" + chunkedHello)
            << QByteArray("ERROR: chunked applied more than once (Transfer-Encoding: chunked, CHUNKED)") << 200 << false
            << false << qint64(-1) << QByteArray();
        // Chunked not last: the body would be read until the close, but it is still gzip-coded.
        QTest::addRow("chunked not the last coding")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n" + chunkedHello)
            << QByteArray("ERROR: the body has a transfer coding this client does not decode: \"gzip\" "
                          "(Transfer-Encoding: chunked, gzip)")
            << 200 << false << false << qint64(-1) << QByteArray();
        QTest::addRow("an unknown coding before chunked")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: foo;q=1 , chunked\r\n\r\n" + chunkedHello)
            << QByteArray("ERROR: the body has a transfer coding this client does not decode: \"foo\" "
                          "(Transfer-Encoding: foo;q=1 , chunked)")
            << 200 << false << false << qint64(-1) << QByteArray();
        QTest::addRow("an unknown coding alone")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: foo\r\nConnection: close\r\n\r\nbytes of foo")
            << QByteArray("ERROR: the body has a transfer coding this client does not decode: \"foo\" "
                          "(Transfer-Encoding: foo)")
            << 200 << false << false << qint64(-1) << QByteArray();
        QTest::addRow("chunked in another case")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: Chunked\r\n\r\n" + chunkedHello) << QByteArray("hello")
            << 200 << true << true << qint64(-1) << QByteArray();
        QTest::addRow("identity, the obsolete no-op, and a length")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: identity\r\nContent-Length: 5\r\n\r\nhello")
            << QByteArray("hello") << 200 << true << false << qint64(5) << QByteArray();
        QTest::addRow("chunked wins over a length before it")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n" + chunkedHello)
            << QByteArray("hello") << 200 << false << true << qint64(-1) << QByteArray();
        QTest::addRow("chunked wins over a length after it")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n" + chunkedHello)
            << QByteArray("hello") << 200 << false << true << qint64(-1) << QByteArray();
        QTest::addRow("100 Continue") << QByteArray(
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc")
                                      << QByteArray("abc") << 200 << true << false << qint64(3) << QByteArray();
        // An interim response's headers are not the final one's: neither its length, its close nor
        // its Retry-After carry over.
        QTest::addRow("103 Early Hints with headers")
            << QByteArray("HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\nRetry-After: 9\r\n"
                          "Content-Length: 7\r\nConnection: close\r\n\r\n"
                          "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 4\r\n\r\nbusy")
            << QByteArray("busy") << 503 << true << false << qint64(4) << QByteArray();
        QTest::addRow("several 1xx in a row")
            << QByteArray("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\n"
                          "HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
                          "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 3\r\nTransfer-Encoding: chunked\r\n\r\n"
                   + chunkedHello)
            << QByteArray("hello") << 429 << true << true << qint64(-1) << QByteArray("3");
        QTest::addRow("a 1xx with a Transfer-Encoding it does not use")
            << QByteArray("HTTP/1.1 103 Early Hints\r\nTransfer-Encoding: foo\r\n\r\n"
                          "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc")
            << QByteArray("abc") << 200 << true << false << qint64(3) << QByteArray();
        QTest::addRow("101 Switching Protocols unasked")
            << QByteArray("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"
                          "\x81\x05hello")
            << QByteArray("ERROR: a 101 Switching Protocols response, though the request asked for no protocol "
                          "upgrade")
            << 101 << false << false << qint64(-1) << QByteArray();
        QTest::addRow("a close after a 1xx only")
            << QByteArray("HTTP/1.1 100 Continue\r\n\r\n") << QByteArray("ERROR: incomplete") << 100 << false << false
            << qint64(-1) << QByteArray();
    }

    void parserFollowsRfc9112()
    {
        QFETCH(QByteArray, response);
        QFETCH(QByteArray, expected);
        QFETCH(int, status);
        QFETCH(bool, keepAlive);
        QFETCH(bool, chunked);
        QFETCH(qint64, contentLength);
        QFETCH(QByteArray, retryAfter);
        const bool fails = expected.startsWith("ERROR: ");
        const bool closes = expected == "ERROR: incomplete";
        for (qsizetype step = 1; step <= response.size(); ++step) {
            HttpResponseParser parser;
            QCOMPARE(parseInPieces(response, step, parser, closes), expected);
            QCOMPARE(parser.status(), status);
            QCOMPARE(parser.hasError(), fails && !closes);
            if (fails) {
                QVERIFY(!parser.headersDone());
                continue;
            }
            QVERIFY(parser.isDone());
            QCOMPARE(parser.keepAlive(), keepAlive);
            QCOMPARE(parser.chunked(), chunked);
            QCOMPARE(parser.contentLength(), contentLength);
            QCOMPARE(parser.headers().retryAfter, retryAfter);
        }
    }

    void requestWriterSendsOneHttp11Request()
    {
        HttpRequest r;
        r.url = QUrl(QStringLiteral("http://127.0.0.1:8123/v1/completions?x=1"));
        r.body = "{}";
        r.requestId = QStringLiteral("id-1");
        r.headers.append({ QByteArrayLiteral("Authorization"), QByteArrayLiteral("Bearer k") });
        r.headers.append({ QByteArrayLiteral("content-type"), QByteArrayLiteral("application/json; charset=utf-8") });
        const QByteArray wire = http11Request(r);
        QVERIFY(wire.startsWith("POST /v1/completions?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8123\r\n"));
        QVERIFY(wire.endsWith("Content-Length: 2\r\n\r\n{}"));
        QVERIFY(wire.contains("\r\nAuthorization: Bearer k\r\n"));
        QVERIFY(wire.contains("\r\nAccept-Encoding: identity\r\n"));
        QVERIFY(wire.contains("\r\nx-request-id: id-1\r\n"));
        QCOMPARE(wire.toLower().count("content-type"), 1); // the request's replaces the default
        QVERIFY(wire.contains("\r\ncontent-type: application/json; charset=utf-8\r\n"));
    }

    // ---- both transports against the simulator ----------------------------------------------------

    // vLLM (endpoint_request_func.py) ends a streamed request at its last choices event, chat and
    // completions alike: the trailing usage-only event and [DONE] count for neither E2EL nor TPOT.
    void requestEndsAtTheLastChoicesEvent_data()
    {
        QTest::addColumn<bool>("chat");
        QTest::addRow("chat") << true;
        QTest::addRow("completions") << false;
    }
    void requestEndsAtTheLastChoicesEvent()
    {
        QFETCH(bool, chat);
        HttpRequest request;
        request.chat = chat;
        request.url = QUrl(chat ? u"http://127.0.0.1:1/v1/chat/completions"_s : u"http://127.0.0.1:1/v1/completions"_s);
        ResponseAccumulator acc(request, 1'000'000);
        acc.onResponseStarted(200, 2'000'000);
        const QByteArray token = chat ? R"(data: {"choices":[{"index":0,"delta":{"content":" w"}}]})"
                                        "\n\n"
                                      : R"(data: {"choices":[{"index":0,"text":" w"}]})"
                                        "\n\n";
        acc.onData(token, 5'000'000);
        acc.onData(token, 9'000'000);
        acc.onData(token, 13'000'000);
        acc.onData(R"(data: {"choices":[],"usage":{"prompt_tokens":4,"completion_tokens":3}})"
                   "\n\n",
            50'000'000);
        acc.onData("data: [DONE]\n\n", 60'000'000);
        const RequestRecord r = acc.finish(61'000'000, FailureClass::None, {});
        QVERIFY2(r.success(), qPrintable(r.errorMessage));
        QCOMPARE(r.outputTokens, 3);
        QCOMPARE(r.lastTokenNs, 13'000'000);
        QCOMPARE(r.endNs, 61'000'000);
        const StepMetrics m = StepMetrics::fromRecords({ r }, 1.0, MetricsOptions {});
        QCOMPARE(m.ttft.mean, 4.0); // ms: 5 - 1
        QCOMPARE(m.e2el.mean, 12.0); // ms: 13 - 1, not 49 (usage) or 59 ([DONE])
        QCOMPARE(m.tpot.mean, 4.0); // (12 - 4) / (3 - 1)
    }

    // The same against the simulator, over real HTTP: it holds the usage event and [DONE] back for a
    // while after the last token, and the requests still end at their last token event.
    void requestEndsAtTheLastTokenNotTheLaterUsage_data()
    {
        QTest::addColumn<TransportKind>("kind");
        QTest::addColumn<Backend>("backend");
        QTest::addRow("qnam chat") << TransportKind::Qnam << Backend::OpenAiChat;
        QTest::addRow("socket chat") << TransportKind::Socket << Backend::OpenAiChat;
        QTest::addRow("socket completions") << TransportKind::Socket << Backend::OpenAi;
    }
    void requestEndsAtTheLastTokenNotTheLaterUsage()
    {
        QFETCH(TransportKind, kind);
        QFETCH(Backend, backend);
        sim::SimHost host;
        sim::SimServerOptions options;
        options.timeScale = 10;
        options.usageDelaySeconds = 5; // 0.5 s of wall time after the last token
        QVERIFY2(host.start(options), qPrintable(host.errorString()));
        const QUrl base = host.baseUrl();
        StepConfig step = makeStep(base, backend, options.params.modelId, 6, 16, 8);
        const StepResult result = runStep(kind, step);
        QCOMPARE(result.records.size(), std::size_t(6));
        QCOMPARE(result.metrics.completed, 6);
        const auto truth = truthByRequestId(base);
        std::vector<double> e2elMs;
        int usageSeenLater = 0;
        for (const RequestRecord& r : result.records) {
            const auto it = truth.find(r.requestId);
            QVERIFY2(it != truth.end(), qPrintable(r.requestId));
            QVERIFY(r.outputTokensFromUsage); // the usage event did come, after the tokens
            QCOMPARE(r.outputTokens, it->second.value(u"output_tokens").toInt());
            QVERIFY(!r.chunkNs.empty());
            QCOMPARE(r.lastTokenNs, r.chunkNs.back());
            e2elMs.push_back(double(r.lastTokenNs - r.sentNs) / 1e6);
            // The server wrote the usage event at least 0.5 s after the last token; a client stalled that
            // long reads both at once, so only some request needs to show the gap.
            if (r.endNs - r.lastTokenNs >= 500'000'000)
                ++usageSeenLater;
        }
        QVERIFY(usageSeenLater > 0);
        double sum = 0;
        for (double v : e2elMs)
            sum += v;
        QCOMPARE(result.metrics.e2el.count, qint64(6));
        QCOMPARE(result.metrics.e2el.mean, sum / 6);
        QCOMPARE(result.metrics.e2el.max, *std::max_element(e2elMs.begin(), e2elMs.end()));
    }

    // Each API's body and key header: Anthropic's key goes in x-api-key with the version it requires
    // (unless the target sets one), never as a bearer token.
    // Images in a request: each API's shape, the same bytes from the same seed and prompt, another prompt
    // another image; the simulator reads the size of both formats back from the bytes.
    void imagesInRequests()
    {
        Workload w;
        w.imageCount = 2;
        w.imageSize = QStringLiteral("60x30");
        w.seed = 7;
        QString error;
        const std::shared_ptr<const ImageSource> source = ImageSource::fromWorkload(w, &error);
        QVERIFY2(source && error.isEmpty(), qPrintable(error));
        QCOMPARE(source->perRequest(), 2);
        const QStringList first = source->urlsFor(3);
        QCOMPARE(first.size(), 2);
        QVERIFY(first[0].startsWith(u"data:image/png;base64,"));
        QVERIFY(first[0] != first[1]);
        const std::shared_ptr<const ImageSource> again = ImageSource::fromWorkload(w, &error);
        QCOMPARE(again->urlsFor(3), first); // a fresh source: built again, the same bytes
        QVERIFY(again->urlsFor(4)[0] != first[0]);
        QVERIFY(again->urlsFor(4)[1] != first[1]);
        w.seed = 8;
        QVERIFY(ImageSource::fromWorkload(w, &error)->urlsFor(3)[0] != first[0]);

        for (const bool jpeg : { false, true }) {
            const QByteArray bytes = jpeg ? syntheticJpeg(451, 13, 1, 2) : syntheticPng(451, 13, 1, 2);
            const auto size = sim::imageSize(bytes);
            QVERIFY(std::holds_alternative<sim::ImageSize>(size));
            QCOMPARE(std::get<sim::ImageSize>(size).width, qint64(451));
            QCOMPARE(std::get<sim::ImageSize>(size).height, qint64(13));
            QCOMPARE(imageMediaType(bytes.left(16)), jpeg ? u"image/jpeg"_s : u"image/png"_s);
        }

        RequestTemplate t;
        t.model = QStringLiteral("m");
        t.stream = false;
        const QString url = QStringLiteral("data:image/png;base64,AAAA");
        const std::vector<ChatMessage> messages { { QStringLiteral("user"), QStringLiteral("Hi"), { url } } };
        t.backend = Backend::OpenAiChat;
        QCOMPARE(buildRequestBody(t, messages, 7),
            QByteArray("{\"max_completion_tokens\":7,\"messages\":[{\"content\":[{\"text\":\"Hi\",\"type\":\"text\"},"
                       "{\"image_url\":{\"url\":\"data:image/png;base64,AAAA\"},\"type\":\"image_url\"}],\"role\":"
                       "\"user\"}],\"model\":\"m\",\"stream\":false,\"temperature\":0}"));
        t.backend = Backend::OpenAiResponses;
        QCOMPARE(buildRequestBody(t, messages, 7),
            QByteArray("{\"input\":[{\"content\":[{\"text\":\"Hi\",\"type\":\"input_text\"},{\"image_url\":"
                       "\"data:image/png;base64,AAAA\",\"type\":\"input_image\"}],\"role\":\"user\"}],"
                       "\"max_output_tokens\":7,\"model\":\"m\",\"stream\":false,\"temperature\":0}"));
        t.backend = Backend::AnthropicMessages;
        QCOMPARE(buildRequestBody(t, messages, 7),
            QByteArray("{\"max_tokens\":7,\"messages\":[{\"content\":[{\"text\":\"Hi\",\"type\":\"text\"},{\"source\":"
                       "{\"data\":\"AAAA\",\"media_type\":\"image/png\",\"type\":\"base64\"},\"type\":\"image\"}],"
                       "\"role\":\"user\"}],\"model\":\"m\",\"stream\":false,\"temperature\":0}"));
    }

    // A folder of images: sorted by name, cycled by prompt; a non-image is refused by name, and so is a
    // folder without images.
    void imageFolder()
    {
        QTemporaryDir dir;
        const auto write = [&](const QString& name, const QByteArray& bytes) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        };
        Workload w;
        w.imageCount = 1;
        w.imageDir = dir.path();
        QString error;
        QVERIFY(!ImageSource::fromWorkload(w, &error));
        QCOMPARE(error, u"image folder %1 holds no images"_s.arg(QDir::toNativeSeparators(dir.path())));
        write(u"b.jpg"_s, syntheticJpeg(8, 8, 1, 1));
        write(u"a.png"_s, syntheticPng(8, 8, 1, 1));
        write(u"c.webp"_s, QByteArray("RIFF\x10\0\0\0WEBPVP8 ", 16));
        error.clear();
        const std::shared_ptr<const ImageSource> source = ImageSource::fromWorkload(w, &error);
        QVERIFY2(source, qPrintable(error));
        QVERIFY(source->urlsFor(0)[0].startsWith(u"data:image/png;base64,"));
        QVERIFY(source->urlsFor(1)[0].startsWith(u"data:image/jpeg;base64,"));
        QVERIFY(source->urlsFor(2)[0].startsWith(u"data:image/webp;base64,"));
        QCOMPARE(source->urlsFor(3), source->urlsFor(0));
        write(u"notes.txt"_s, "not an image");
        QVERIFY(!ImageSource::fromWorkload(w, &error));
        QCOMPARE(error,
            u"image %1: not a PNG, JPEG, WebP or GIF image (by its first bytes)"_s.arg(
                QDir::toNativeSeparators(dir.filePath(u"notes.txt"_s))));
    }

    // Images need a chat backend; the others are refused by name.
    void imagesNeedAChatBackend()
    {
        const auto imageIssues = [](const Profile& profile) {
            QList<ProfileIssue> issues;
            for (const ProfileIssue& i : validateProfile(profile)) {
                if (i.path.startsWith(u"workload.image"))
                    issues << i;
            }
            return issues;
        };
        Profile p;
        p.target.baseUrl = QStringLiteral("http://127.0.0.1:8000");
        p.workload.imageCount = 1;
        p.workload.imageSize = QStringLiteral("448x448");
        for (const Backend b : { Backend::OpenAiChat, Backend::OpenAiResponses, Backend::AnthropicMessages }) {
            p.target.backend = b;
            const QList<ProfileIssue> issues = imageIssues(p);
            QVERIFY2(issues.isEmpty(), qPrintable(issues.isEmpty() ? QString() : issues.first().message));
        }
        for (const Backend b : { Backend::OpenAi, Backend::Vllm, Backend::OpenAiEmbeddings }) {
            p.target.backend = b;
            const QList<ProfileIssue> issues = imageIssues(p);
            QCOMPARE(issues.size(), 1);
            QCOMPARE(issues.first().path, u"workload.image_count"_s);
            QCOMPARE(issues.first().message,
                u"images need a chat backend (openai-chat, openai-responses or anthropic-messages); %1 takes none"_s
                    .arg(backendName(b)));
        }
        p.target.backend = Backend::OpenAiChat;
        p.workload.imageSize = QStringLiteral("448");
        QCOMPARE(imageIssues(p).size(), 1);
        QCOMPARE(imageIssues(p).first().path, u"workload.image_size"_s);
    }

    // The body writer a step uses equals buildRequestBody (Qt's JSON writer) to the byte: every backend,
    // with and without streaming, sampling and extra_body (replacing per-request fields too), strings
    // that need escaping, non-BMP and lone surrogates, conversations with a system prompt, and a mix's
    // model. It writes those bodies itself; images, embeddings and a marker in extra_body go to
    // buildRequestBody.
    void bodyWriterMatchesJson()
    {
        const QString hard = u"q\"b\\s/\b\f\n\r\t\x01\x1f\x7f é ü 中文 😀"_s;
        const QString loneHigh = u"a"_s + QChar(0xd800) + u"x"_s;
        const QString loneLow = QString(QChar(0xdc00)) + u"y"_s;
        const QString highAtEnd = u"ab"_s + QChar(0xd83d);
        const std::vector<std::vector<ChatMessage>> conversations {
            { { u"user"_s, u"Hello"_s } },
            { { u"user"_s, QString() } },
            { { u"user"_s, hard } },
            { { u"user"_s, loneHigh }, { u"assistant"_s, loneLow }, { u"user"_s, highAtEnd } },
            { { u"system"_s, u"Be brief."_s }, { u"user"_s, u"Hi"_s }, { u"assistant"_s, QString() },
                { u"user"_s, hard } },
            { { u"system"_s, QString() }, { u"user"_s, u"x"_s } },
            { { u"system"_s, u"a"_s }, { u"system"_s, u"b\n"_s }, { u"user"_s, u"x"_s } },
            {},
        };
        QJsonObject sampling { { u"top_p"_s, 0.9 }, { u"top_k"_s, 40 }, { u"min_p"_s, 0.05 } };
        const QList<QJsonObject> extras {
            {},
            { { u"max_tokens"_s, 5 }, { u"messages"_s, u"fixed"_s }, { u"model"_s, u"other"_s },
                { u"prompt"_s, QJsonArray { 1, 2 } }, { u"zz"_s, QJsonObject { { u"a"_s, true } } } },
            { { u"input"_s, QJsonValue::Null }, { u"system"_s, u"s"_s }, { u"max_output_tokens"_s, 1 },
                { u"max_completion_tokens"_s, 2.5 } },
            { { u"\u00e9t\u00e9"_s, u"\u2028"_s }, { u"aaa"_s, -1 } },
        };
        int written = 0;
        for (const Backend backend : allBackends()) {
            for (const bool stream : { true, false }) {
                for (const bool ignoreEos : { false, true }) {
                    for (int e = 0; e < extras.size(); ++e) {
                        RequestTemplate t;
                        t.backend = backend;
                        t.model = u"m\"odel"_s;
                        t.stream = stream;
                        t.ignoreEos = ignoreEos;
                        t.temperature = ignoreEos ? 0.7 : 0.0;
                        if (e % 2 == 1)
                            t.sampling = sampling;
                        t.extraBody = extras[e];
                        const BodyWriter writer(t);
                        for (const auto& messages : conversations) {
                            for (const int maxTokens : { 7, -1, 0, 2147483647 }) {
                                RequestTemplate mixed = t;
                                mixed.model = (maxTokens == 0) ? u"mixé\t😀"_s : t.model;
                                const QByteArray expected = buildRequestBody(mixed, messages, maxTokens);
                                QCOMPARE(writer.build(mixed, messages, maxTokens), expected);
                                if (backend == Backend::OpenAiEmbeddings)
                                    QVERIFY(!writer.writesItself(mixed, messages));
                                else if (writer.writesItself(mixed, messages))
                                    ++written;
                                else
                                    QFAIL(qPrintable(
                                        u"not written by the writer: %1"_s.arg(QString::fromUtf8(expected))));
                            }
                        }
                        Prompt prompt;
                        prompt.text = hard;
                        prompt.outputTokens = 12;
                        QCOMPARE(writer.build(t, prompt), buildRequestBody(t, prompt));
                    }
                }
            }
        }
        QCOMPARE(written, 5 * 2 * 2 * 4 * 8 * 4);

        // Images go through buildRequestBody, and equal it.
        RequestTemplate t;
        t.backend = Backend::OpenAiChat;
        t.model = u"m"_s;
        const BodyWriter writer(t);
        const std::vector<ChatMessage> withImage { { u"user"_s, u"Hi"_s, { u"data:image/png;base64,AAAA"_s } } };
        QVERIFY(!writer.writesItself(t, withImage));
        QCOMPARE(writer.build(t, withImage, 3), buildRequestBody(t, withImage, 3));
        // A marker string in extra_body cannot be told from the writer's own: buildRequestBody writes it.
        t.extraBody = { { u"x"_s, u"\u0001kneepoint-slot-0"_s } };
        const BodyWriter marked(t);
        QVERIFY(!marked.writesItself(t, conversations[0]));
        QCOMPARE(marked.build(t, conversations[0], 3), buildRequestBody(t, conversations[0], 3));
        QCOMPARE(marked.build(t, conversations[0], 3),
            QByteArray("{\"max_completion_tokens\":3,\"messages\":[{\"content\":\"Hello\",\"role\":\"user\"}],"
                       "\"model\":\"m\",\"stream\":true,\"stream_options\":{\"include_usage\":true},"
                       "\"temperature\":0,\"x\":\"\\u0001kneepoint-slot-0\"}"));
    }

    void requestsPerApi()
    {
        Target target;
        target.baseUrl = QStringLiteral("http://127.0.0.1:1");
        target.apiKey = QStringLiteral("k3y");
        target.backend = Backend::AnthropicMessages;
        QString error;
        HeaderList headers = requestHeaders(target, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(headers == (HeaderList { { "x-api-key", "k3y" }, { "anthropic-version", "2023-06-01" } }));
        target.headers = { { QStringLiteral("Anthropic-Version"), QStringLiteral("2024-01-01") } };
        headers = requestHeaders(target, &error);
        QVERIFY(headers == (HeaderList { { "x-api-key", "k3y" }, { "Anthropic-Version", "2024-01-01" } }));
        target.headers.clear();
        target.backend = Backend::OpenAiResponses;
        QVERIFY(requestHeaders(target, &error) == (HeaderList { { "Authorization", "Bearer k3y" } }));

        RequestTemplate t;
        t.model = QStringLiteral("m");
        t.stream = false;
        const std::vector<ChatMessage> messages { { QStringLiteral("system"), QStringLiteral("Be brief.") },
            { QStringLiteral("user"), QStringLiteral("Hi") } };
        t.backend = Backend::AnthropicMessages;
        QCOMPARE(buildRequestBody(t, messages, 7),
            QByteArray("{\"max_tokens\":7,\"messages\":[{\"content\":\"Hi\",\"role\":\"user\"}],\"model\":\"m\","
                       "\"stream\":false,\"system\":\"Be brief.\",\"temperature\":0}"));
        t.backend = Backend::OpenAiResponses;
        QCOMPARE(buildRequestBody(t, messages, 7),
            QByteArray("{\"input\":[{\"content\":\"Be brief.\",\"role\":\"system\"},{\"content\":\"Hi\",\"role\":"
                       "\"user\"}],\"max_output_tokens\":7,\"model\":\"m\",\"stream\":false,\"temperature\":0}"));
        t.backend = Backend::OpenAiEmbeddings;
        QCOMPARE(buildEmbeddingsBody(t, { QStringLiteral("a"), QStringLiteral("b c") }),
            QByteArray("{\"encoding_format\":\"float\",\"input\":[\"a\",\"b c\"],\"model\":\"m\"}"));
    }

    void countsMatchGroundTruth_data()
    {
        QTest::addColumn<TransportKind>("kind");
        QTest::addColumn<Backend>("backend");
        QTest::addColumn<bool>("stream");
        for (const auto& [name, kind] :
            { std::pair { "qnam", TransportKind::Qnam }, std::pair { "socket", TransportKind::Socket } }) {
            QTest::addRow("%s completions streamed (chunked)", name) << kind << Backend::OpenAi << true;
            QTest::addRow("%s chat streamed (chunked)", name) << kind << Backend::OpenAiChat << true;
            QTest::addRow("%s completions whole (content-length)", name) << kind << Backend::OpenAi << false;
            QTest::addRow("%s chat whole (content-length)", name) << kind << Backend::OpenAiChat << false;
            QTest::addRow("%s responses streamed", name) << kind << Backend::OpenAiResponses << true;
            QTest::addRow("%s responses whole", name) << kind << Backend::OpenAiResponses << false;
            QTest::addRow("%s messages streamed", name) << kind << Backend::AnthropicMessages << true;
            QTest::addRow("%s messages whole", name) << kind << Backend::AnthropicMessages << false;
            QTest::addRow("%s embeddings (never streamed)", name) << kind << Backend::OpenAiEmbeddings << false;
        }
    }

    // Every request completes; tokens and events equal the server's ground truth; the client's TTFT is
    // bounded below by the server's (no token is seen before it is written).
    void countsMatchGroundTruth()
    {
        QFETCH(TransportKind, kind);
        QFETCH(Backend, backend);
        QFETCH(bool, stream);
        sim::SimHost host;
        sim::SimServerOptions options;
        options.timeScale = 20;
        QVERIFY2(host.start(options), qPrintable(host.errorString()));
        const QUrl base = host.baseUrl();
        StepConfig step = makeStep(base, backend, options.params.modelId, 40, 16, 20);
        step.request.stream = stream;
        step.request.embeddingBatch = 3;
        step.rate = 400; // 20 req/s of simulated load
        const StepResult result = runStep(kind, step);
        QCOMPARE(result.records.size(), std::size_t(40));
        QCOMPARE(result.metrics.completed, 40);
        QCOMPARE(result.metrics.e2el.count, 40);
        if (!stream) {
            // Whole answers: when the first token was made is unknown, never the whole answer's time.
            QCOMPARE(result.metrics.ttft.count, kUnknownCount);
            QVERIFY(!isKnown(result.metrics.ttft.mean));
            QVERIFY(!isKnown(result.metrics.tpot.mean));
            QVERIFY(!isKnown(result.metrics.itl.mean));
        } else {
            QCOMPARE(result.metrics.ttft.count, 40);
        }
        const auto truth = truthByRequestId(base);
        qint64 serverOutput = 0;
        for (const RequestRecord& r : result.records) {
            const auto it = truth.find(r.requestId);
            QVERIFY2(it != truth.end(), qPrintable(r.requestId));
            const QJsonObject& t = it->second;
            QCOMPARE(r.outputTokens, t.value(u"output_tokens").toInt());
            QVERIFY(r.outputTokensFromUsage);
            QCOMPARE(r.serverPromptTokens, t.value(u"prompt_tokens").toInt());
            QCOMPARE(t.value(u"endpoint").toString(),
                QString::fromLatin1(sim::endpointName(backend == Backend::OpenAiResponses ? sim::Endpoint::Responses
                        : backend == Backend::AnthropicMessages                           ? sim::Endpoint::Messages
                        : backend == Backend::OpenAiEmbeddings                            ? sim::Endpoint::Embeddings
                        : backend == Backend::OpenAiChat ? sim::Endpoint::ChatCompletions
                                                         : sim::Endpoint::Completions)));
            if (backend == Backend::OpenAiEmbeddings) {
                QCOMPARE(r.outputTokens, 0);
                // One request carries three prompts: this one and the two after it.
                int words = 0;
                for (int i = 0; i < 3; ++i)
                    words += sim::countWords(step.prompts[std::size_t(r.index + i) % step.prompts.size()].text);
                QCOMPARE(t.value(u"prompt_tokens").toInt(), words);
            }
            serverOutput += t.value(u"output_tokens").toInt();
            const qsizetype roleEvent = backend == Backend::OpenAiChat ? 1 : 0;
            const qsizetype events = stream ? t.value(u"token_ms").toArray().size() + roleEvent : 0;
            QCOMPARE(qsizetype(r.chunkNs.size()), events);
            QVERIFY(r.firstByteNs >= r.sentNs);
            QVERIFY(stream ? r.firstTokenNs >= r.firstByteNs : r.firstTokenNs == -1);
            QVERIFY(r.lastTokenNs >= r.firstByteNs);
            QVERIFY(r.endNs >= r.lastTokenNs);
            QVERIFY(std::is_sorted(r.chunkNs.begin(), r.chunkNs.end()));
            const double accepted = t.value(u"accepted_ms").toDouble();
            const double serverTtftWallMs = (t.value(u"first_token_ms").toDouble() - accepted) / options.timeScale;
            const double clientTtftMs = double(r.firstTokenNs - r.sentNs) / 1e6;
            if (stream)
                QVERIFY2(clientTtftMs + 0.05 >= serverTtftWallMs,
                    qPrintable(
                        QStringLiteral("client TTFT %1 ms < server %2 ms").arg(clientTtftMs).arg(serverTtftWallMs)));
        }
        QCOMPARE(result.metrics.totalOutputTokens, serverOutput);

        // The client's own health is recorded with the step and survives the result file.
        const ClientHealth& health = result.metrics.clientHealth;
        QVERIFY(health.recorded);
        QCOMPARE(health.transport, transportKindName(kind));
        QVERIFY(health.processCpuS > 0);
        QCOMPARE(health.clientBound, result.clientBound);
        const ResultFileContents back
            = ResultJson::read(ResultJson::write(StepSetup {}, result.metrics), QStringLiteral("step"));
        QVERIFY2(back.ok(), qPrintable(back.error));
        QCOMPARE(back.steps.at(0).metrics.clientHealth, health);
    }

    // Each failure the simulator can give, on both transports. On /v1/messages its errors take
    // Anthropic's shape: a status's body is quoted in the failure's words, and an error in a 200 reply is
    // read for its message and type.
    void failuresAreClassified_data()
    {
        QTest::addColumn<TransportKind>("kind");
        QTest::addColumn<Backend>("backend");
        QTest::addColumn<QString>("fault");
        QTest::addColumn<QString>("serverKey");
        QTest::addColumn<QString>("endpoint");
        QTest::addColumn<bool>("stream");
        QTest::addColumn<FailureClass>("expected");
        QTest::addColumn<QString>("messagePart");
        const QString none;
        for (const auto& [name, kind] :
            { std::pair { "qnam", TransportKind::Qnam }, std::pair { "socket", TransportKind::Socket } }) {
            const auto row
                = [name, kind](const char* what, const QString& fault, const QString& key, const QString& endpoint,
                      bool stream, FailureClass expected, const QString& part, Backend backend = Backend::OpenAi) {
                      QTest::addRow("%s %s", name, what)
                          << kind << backend << fault << key << endpoint << stream << expected << part;
                  };
            row("401", none, QStringLiteral("secret"), none, true, FailureClass::HttpAuth, QStringLiteral("HTTP 401"));
            row("404", none, none, QStringLiteral("/v1/nothing"), true, FailureClass::HttpNotFound,
                QStringLiteral("HTTP 404"));
            row("500", QStringLiteral("500:1"), none, none, true, FailureClass::HttpServerError,
                QStringLiteral("HTTP 500"));
            row("malformed stream", QStringLiteral("malformed:1"), none, none, true, FailureClass::MalformedStream,
                QStringLiteral("malformed"));
            row("malformed whole", QStringLiteral("malformed:1"), none, none, false, FailureClass::MalformedStream,
                QStringLiteral("a malformed reply: invalid JSON at byte"));
            row("stream cut", QStringLiteral("cut:1"), none, none, true, FailureClass::StreamCut,
                QStringLiteral("before [DONE]"));
            row("error event", QStringLiteral("error-body:1"), none, none, true, FailureClass::ErrorBody,
                QStringLiteral("error"));
            row("messages 401", none, QStringLiteral("secret"), none, true, FailureClass::HttpAuth,
                QStringLiteral(R"({"type":"error","error":{"type":"authentication_error","message":"Missing API )"
                               R"(key: send the header 'x-api-key: <key>'"}})"),
                Backend::AnthropicMessages);
            row("messages 503", QStringLiteral("503:1"), none, none, true, FailureClass::HttpServerError,
                QStringLiteral(R"({"type":"error","error":{"type":"overloaded_error","message":"Injected fault: )"
                               R"(service unavailable"}})"),
                Backend::AnthropicMessages);
            row("messages error in a 200 reply", QStringLiteral("error-body:1"), none, none, false,
                FailureClass::ErrorBody, QStringLiteral("Injected fault: error in a 200 response (api_error)"),
                Backend::AnthropicMessages);
        }
    }

    void failuresAreClassified()
    {
        QFETCH(TransportKind, kind);
        QFETCH(Backend, backend);
        QFETCH(QString, fault);
        QFETCH(QString, serverKey);
        QFETCH(QString, endpoint);
        QFETCH(bool, stream);
        QFETCH(FailureClass, expected);
        QFETCH(QString, messagePart);
        sim::SimHost host;
        sim::SimServerOptions options;
        options.timeScale = 10;
        options.apiKey = serverKey;
        if (!fault.isEmpty())
            QCOMPARE(sim::applyFaultSpec(fault, options.faults), QString());
        QVERIFY2(host.start(options), qPrintable(host.errorString()));
        StepConfig step = makeStep(host.baseUrl(), backend, options.params.modelId, 6, 8, 30);
        step.request.stream = stream;
        if (!endpoint.isEmpty())
            step.request.url = host.baseUrl().resolved(QUrl(endpoint));
        const StepResult result = runStep(kind, step);
        QCOMPARE(result.records.size(), std::size_t(6));
        for (const RequestRecord& r : result.records) {
            QCOMPARE(r.failure, expected);
            QVERIFY2(r.errorMessage.contains(messagePart, Qt::CaseInsensitive), qPrintable(r.errorMessage));
        }
        QCOMPARE(result.metrics.failuresByClass.at(expected), 6);
    }

    // Answers the simulator does not give, from a server that writes the exact bytes: both transports
    // classify each the same way, with the same words, and the words and advice name what is wrong.
    // The hints of a Responses or Messages request use that API's words, not chat completions'.
    void hintsSpeakTheBackendsApi_data()
    {
        QTest::addColumn<Backend>("backend");
        QTest::addColumn<FailureClass>("failure");
        QTest::addColumn<QString>("hint");
        const QString cut = QStringLiteral("The server closed the stream before %1: it may have crashed or restarted.");
        const QString missing = QStringLiteral(
            "The response is not %1 (no \"%2\"%3): check the backend (target.backend) and endpoint; the message "
            "shows the first 300 bytes that came back.");
        QTest::addRow("chat, cut") << Backend::OpenAiChat << FailureClass::StreamCut << cut.arg(u"[DONE]"_s);
        QTest::addRow("responses, cut") << Backend::OpenAiResponses << FailureClass::StreamCut
                                        << cut.arg(u"response.completed"_s);
        QTest::addRow("messages, cut") << Backend::AnthropicMessages << FailureClass::StreamCut
                                       << cut.arg(u"message_stop"_s);
        QTest::addRow("chat, no answer") << Backend::OpenAiChat << FailureClass::NoChoices
                                         << missing.arg(u"an OpenAI-style stream"_s, u"choices"_s, QString());
        QTest::addRow("responses, no answer") << Backend::OpenAiResponses << FailureClass::NoChoices
                                              << missing.arg(u"a Responses API stream"_s, u"output"_s, u" text"_s);
        QTest::addRow("messages, no answer") << Backend::AnthropicMessages << FailureClass::NoChoices
                                             << missing.arg(u"a Messages API stream"_s, u"content"_s, u" text"_s);
        QTest::addRow("embeddings, no answer") << Backend::OpenAiEmbeddings << FailureClass::NoChoices
                                               << missing.arg(u"an embeddings reply"_s, u"data"_s, QString());
    }

    void hintsSpeakTheBackendsApi()
    {
        QFETCH(Backend, backend);
        QFETCH(FailureClass, failure);
        QFETCH(QString, hint);
        RequestRecord r;
        r.failure = failure;
        r.httpStatus = 200;
        FailureContext context;
        context.backend = backend;
        QCOMPARE(failureHint(r, context), hint);
    }

    void hostileAnswersReadTheSameOnBothTransports_data()
    {
        QTest::addColumn<QByteArray>("answer");
        QTest::addColumn<int>("end");
        QTest::addColumn<int>("dripMs");
        QTest::addColumn<FailureClass>("expected");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("messagePart");
        QTest::addColumn<QString>("hintPart");
        const int close = int(CannedServer::End::Close);
        // A head and a body with the body's Content-Length.
        const auto sized = [](const QByteArray& head, const QByteArray& body) {
            return head + "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
        };
        const QByteArray event = "data: {\"choices\":[{\"index\":0,\"text\":\"a\"}]}\n\n";
        QTest::addRow("413") << QByteArray(
            "HTTP/1.1 413 Payload Too Large\r\nContent-Length: 18\r\nConnection: close\r\n\r\n"
            "request too large.")
                             << close << 0 << FailureClass::HttpOther << 413 << QStringLiteral(": request too large.")
                             << QStringLiteral("HTTP 413 Payload Too Large: the request body (the prompt) is larger");
        QTest::addRow("503 with Retry-After")
            << QByteArray("HTTP/1.1 503 Service Unavailable\r\nRetry-After: 7\r\nContent-Length: 4\r\n\r\nbusy")
            << close << 0 << FailureClass::HttpServerError << 503 << QStringLiteral(" (Retry-After: 7): busy")
            << QStringLiteral("The server is shedding load: HTTP 503 with Retry-After 7 s");
        QTest::addRow("redirect names its Location")
            << QByteArray("HTTP/1.1 301 Moved Permanently\r\nLocation: https://llm.example/v1/completions\x1b[2J\r\n"
                          "Content-Length: 0\r\n\r\n")
            << close << 0 << FailureClass::HttpOther << 301
            << QStringLiteral(" to https://llm.example/v1/completions\\x1b[2J: ")
            << QStringLiteral("(HTTP 301) to https://llm.example/v1/completions\\x1b[2J. Requests are not "
                              "redirected, so the key never goes to another address: if that is the right server, "
                              "set target.base_url");
        QTest::addRow("gzip body")
            << sized("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Encoding: gzip\r\n",
                   QByteArray("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10))
            << close << 0 << FailureClass::MalformedStream << 200
            << QStringLiteral(
                   ": the body is gzip-compressed (Content-Encoding: gzip), though the request asked for none")
            << QStringLiteral("The server compressed the body (Content-Encoding: gzip)");
        QTest::addRow("context length exceeded")
            << sized("HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\n",
                   "{\"object\":\"error\",\"message\":\"This model's maximum context length is 2048 tokens. "
                   "However, you requested 4100 tokens.\",\"code\":400}\n")
            << close << 0 << FailureClass::HttpOther << 400 << QStringLiteral("maximum context length")
            << QStringLiteral("The prompt and max_tokens together exceed the model's context (max_model_len 2048, "
                              "from /v1/models): lower the input and output lengths.");
        QTest::addRow("invalid UTF-8 in an event")
            << sized("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n",
                   "data: {\"choices\":[{\"text\":\"\xC3\x28\"}]}\n\n")
            << close << 0 << FailureClass::MalformedStream << 200
            << QStringLiteral(": a malformed event: invalid UTF-8 at byte 22: {\"choices\":[{\"text\":\"\uFFFD(\"}]}")
            << QStringLiteral("not a valid OpenAI-style event stream: the message says what is wrong");
        QTest::addRow("an event that is not JSON")
            << sized("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n",
                   "data: {\"choices\":[{\"text\":\x1b]0;x}]}\n\n")
            << close << 0 << FailureClass::MalformedStream << 200
            << QStringLiteral(": a malformed event: invalid JSON at byte 21 (syntax error while parsing value - "
                              "invalid literal; last read: '\"text\":<U+001B>'): {\"choices\":[{\"text\":\\x1b]0;x}]}")
            << QStringLiteral("not a valid OpenAI-style event stream");
        QTest::addRow("reset in the middle of an event")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                   + QByteArray::number(event.size(), 16) + "\r\n" + event + "\r\n10\r\ndata: {\"choices")
            << int(CannedServer::End::Reset) << 0 << FailureClass::StreamCut << 200
            << QStringLiteral(": the stream ended before [DONE] after 1 events (http://127.0.0.1:")
            << QStringLiteral("The server closed the stream before [DONE]");
        // Chunk framing is not body: a server that trickles a chunk's size line (here with a 400-byte
        // extension, 2 s at least) sends nothing between chunks for that long, on either transport.
        QTest::addRow("a chunked body a byte at a time")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                   + QByteArray::number(event.size(), 16) + ";pad=" + QByteArray(400, 'x') + "\r\n" + event + "\r\n")
            << int(CannedServer::End::StayOpen) << 5 << FailureClass::IdleTimeout << 200
            << QStringLiteral("nothing received for 0.5 s between chunks: ")
            << QStringLiteral("between-chunks timeout");
    }

    void hostileAnswersReadTheSameOnBothTransports()
    {
        QFETCH(QByteArray, answer);
        QFETCH(int, end);
        QFETCH(int, dripMs);
        QFETCH(FailureClass, expected);
        QFETCH(int, status);
        QFETCH(QString, messagePart);
        QFETCH(QString, hintPart);
        CannedServer server;
        server.answer = answer;
        server.end = static_cast<CannedServer::End>(end);
        server.dripMs = dripMs;
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        const QUrl base(QStringLiteral("http://127.0.0.1:%1").arg(server.serverPort()));
        StepConfig step = makeStep(base, Backend::OpenAi, QStringLiteral("m"), 2, 8, 8);
        TransportOptions transport;
        if (dripMs > 0) // the total timeout only ends a client that waits on framing bytes
            transport.timeouts = Timeouts { 10, 0, 0.5, 60 };
        FailureContext context;
        context.maxModelLen = 2048;
        context.url = step.request.url;
        context.transport = transport;
        context.transportKnown = true;
        const QString url = step.request.url.toString();
        std::map<TransportKind, RequestRecord> seen;
        for (const TransportKind kind : { TransportKind::Socket, TransportKind::Qnam }) {
            const StepResult result = runStep(kind, step, transport);
            QCOMPARE(result.records.size(), std::size_t(2));
            const QString transportName = kind == TransportKind::Qnam ? u"qnam: "_s : u"socket: "_s;
            for (const RequestRecord& r : result.records) {
                QVERIFY2(r.failure == expected,
                    qPrintable(transportName + failureClassKey(r.failure) + u": "_s + r.errorMessage));
                QCOMPARE(r.httpStatus, status);
                QVERIFY2(r.errorMessage.contains(url), qPrintable(r.errorMessage));
                QVERIFY2(r.errorMessage.contains(messagePart), qPrintable(r.errorMessage));
                const QString hint = failureHint(r, context);
                QVERIFY2(hint.contains(hintPart), qPrintable(hint));
                QVERIFY2(!hint.contains(QStringLiteral("out-of-memory")), qPrintable(hint));
            }
            seen[kind] = result.records.front();
        }
        const RequestRecord& qnam = seen[TransportKind::Qnam];
        const RequestRecord& socket = seen[TransportKind::Socket];
        QCOMPARE(socket.errorMessage, qnam.errorMessage);
        QCOMPARE(socket.response, qnam.response);
    }

    // A server or proxy with a body limit (nginx client_max_body_size) answers 413 from the headers alone
    // and closes without reading the body: the client is still writing 16 MiB when the answer comes.
    // The socket client reads the answer; Qt 6.4's client reads none while it writes, so its broken
    // connection says what a large body may have met.
    void earlyRefusalOfALargeBody_data()
    {
        addTransportRows();
    }
    void earlyRefusalOfALargeBody()
    {
        QFETCH(TransportKind, kind);
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        connect(&server, &QTcpServer::newConnection, this, [&] {
            while (QTcpSocket* s = server.nextPendingConnection()) {
                auto head = std::make_shared<QByteArray>();
                auto answered = std::make_shared<bool>(false);
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
                connect(s, &QTcpSocket::readyRead, s, [s, head, answered] {
                    if (*answered)
                        return;
                    *head += s->readAll();
                    if (head->indexOf("\r\n\r\n") < 0)
                        return;
                    *answered = true;
                    s->write("HTTP/1.1 413 Payload Too Large\r\nContent-Length: 18\r\nConnection: close\r\n\r\n"
                             "request too large.");
                    s->disconnectFromHost();
                });
            }
        });
        const QUrl url(QStringLiteral("http://127.0.0.1:%1/v1/completions").arg(server.serverPort()));
        const auto transport = transportOf(kind, {});
        std::vector<RequestRecord> records;
        connect(transport.get(), &Transport::finished, this, [&](const RequestRecord& r) { records.push_back(r); });
        HttpRequest request;
        request.index = 0;
        request.url = url;
        request.body = QByteArray(16 * 1024 * 1024, 'x');
        request.scheduledNs = steadyNowNs();
        transport->send(request);
        QTRY_COMPARE_WITH_TIMEOUT(records.size(), std::size_t(1), kStepTimeoutMs);
        const RequestRecord& r = records.front();
        const QString where = url.toString();
        FailureContext context;
        context.url = url;
        if (kind == TransportKind::Socket) {
            QCOMPARE(r.failure, FailureClass::HttpOther);
            QCOMPARE(r.httpStatus, 413);
            QCOMPARE(r.errorMessage, u"HTTP 413 from "_s + where + u": request too large."_s);
            QVERIFY(failureHint(r, context).startsWith(u"HTTP 413 Payload Too Large: the request body"_s));
        } else {
            QVERIFY2(r.failure == FailureClass::Network, qPrintable(r.errorMessage));
            QCOMPARE(r.httpStatus, 0);
            QVERIFY2(r.errorMessage.startsWith(where + u": "_s), qPrintable(r.errorMessage));
            QVERIFY2(r.errorMessage.endsWith(
                         u" while a 16.0 MiB request body was being sent; a server or proxy body limit (HTTP 413 "
                         "Payload Too Large, e.g. nginx client_max_body_size) closes a large request this way"_s),
                qPrintable(r.errorMessage));
        }
    }

    void connectionRefused_data()
    {
        addTransportRows();
    }
    void connectionRefused()
    {
        QFETCH(TransportKind, kind);
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        const quint16 port = probe.serverPort();
        probe.close();
        const QUrl base(QStringLiteral("http://127.0.0.1:%1").arg(port));
        const StepResult result = runStep(kind, makeStep(base, Backend::OpenAi, QStringLiteral("m"), 3, 8, 8));
        QCOMPARE(result.records.size(), std::size_t(3));
        for (const RequestRecord& r : result.records) {
            QCOMPARE(r.failure, FailureClass::ConnectionRefused);
            QVERIFY2(r.errorMessage.contains(QStringLiteral("refused by 127.0.0.1:%1").arg(port)),
                qPrintable(r.errorMessage));
        }
    }

    void timeoutsEndRequests_data()
    {
        QTest::addColumn<TransportKind>("kind");
        QTest::addColumn<QString>("fault");
        QTest::addColumn<int>("which"); // 0 idle, 1 first token, 2 total
        QTest::addColumn<FailureClass>("expected");
        QTest::addColumn<QString>("messagePart");
        for (const auto& [name, kind] :
            { std::pair { "qnam", TransportKind::Qnam }, std::pair { "socket", TransportKind::Socket } }) {
            QTest::addRow("%s idle", name) << kind << QStringLiteral("stall:1:30") << 0 << FailureClass::IdleTimeout
                                           << QStringLiteral("0.2 s between chunks");
            QTest::addRow("%s first token", name)
                << kind << QStringLiteral("slow-first-byte:1:30") << 1 << FailureClass::FirstByteTimeout
                << QStringLiteral("no first token within 0.2 s");
            QTest::addRow("%s total", name) << kind << QStringLiteral("stall:1:30") << 2 << FailureClass::TotalTimeout
                                            << QStringLiteral("total timeout (0.2 s)");
        }
    }

    // The simulator holds the output for 30 simulated seconds (3 s of wall time at time scale 10): the
    // 0.2 s deadline ends every request first.
    void timeoutsEndRequests()
    {
        QFETCH(TransportKind, kind);
        QFETCH(QString, fault);
        QFETCH(int, which);
        QFETCH(FailureClass, expected);
        QFETCH(QString, messagePart);
        sim::SimHost host;
        sim::SimServerOptions options;
        options.timeScale = 10;
        QCOMPARE(sim::applyFaultSpec(fault, options.faults), QString());
        QVERIFY2(host.start(options), qPrintable(host.errorString()));
        TransportOptions transport;
        transport.timeouts = Timeouts { 10, 0, 0, 0 };
        (which == 0          ? transport.timeouts.idleS
                : which == 1 ? transport.timeouts.firstTokenS
                             : transport.timeouts.totalS)
            = 0.2;
        const StepResult result
            = runStep(kind, makeStep(host.baseUrl(), Backend::OpenAi, options.params.modelId, 4, 8, 40), transport);
        QCOMPARE(result.records.size(), std::size_t(4));
        for (const RequestRecord& r : result.records) {
            QCOMPARE(r.failure, expected);
            QVERIFY2(r.errorMessage.contains(messagePart), qPrintable(r.errorMessage));
        }
    }

    void stopCancelsWhatIsInFlight_data()
    {
        addTransportRows();
    }
    void stopCancelsWhatIsInFlight()
    {
        QFETCH(TransportKind, kind);
        sim::SimHost host;
        sim::SimServerOptions options;
        options.timeScale = 1; // 2,000 tokens take tens of seconds: the stop comes first
        QVERIFY2(host.start(options), qPrintable(host.errorString()));
        // A stop by the person, and one for a reason of the program's own (the results cannot be
        // written): each request in flight records why it ended.
        const QString reasons[] = { QString(), QStringLiteral("cancelled: the run's files could not be written") };
        for (const QString& why : reasons) {
            StepConfig step = makeStep(host.baseUrl(), Backend::OpenAiChat, options.params.modelId, 8, 8, 2000);
            step.rate = std::numeric_limits<double>::infinity();
            bool stopped = false;
            const StepResult result = runStep(kind, step, {}, [&](StepRunner& runner, const LiveSnapshot& s) {
                if (!stopped && s.sent == 8 && s.outputTokens == 0 && s.inFlight == 8) {
                    stopped = true;
                    runner.stop(why);
                }
            });
            QVERIFY(stopped);
            QVERIFY(result.partial);
            QCOMPARE(result.records.size(), std::size_t(8));
            for (const RequestRecord& r : result.records) {
                QCOMPARE(r.failure, FailureClass::Cancelled);
                QCOMPARE(r.errorMessage, why.isEmpty() ? QStringLiteral("cancelled by the user") : why);
            }
        }
    }

    // Records reach receivers in the transport's own thread, each exactly once, and never from inside
    // send(): a receiver may send the next request without re-entering itself.
    void recordsArriveInTheTransportsThread_data()
    {
        addTransportRows();
    }
    void recordsArriveInTheTransportsThread()
    {
        QFETCH(TransportKind, kind);
        QTcpServer server;
        const QUrl url = answerEveryRequest(server);
        QVERIFY(url.isValid());
        const auto transport = transportOf(kind, {});
        constexpr int kRequests = 60;
        std::vector<int> seen(kRequests, 0);
        int elsewhere = 0;
        int insideSend = 0;
        bool sending = false;
        connect(
            transport.get(), &Transport::finished, this,
            [&](const RequestRecord& r) {
                elsewhere += QThread::currentThread() != transport->thread();
                insideSend += sending;
                if (r.index >= 0 && r.index < kRequests && r.success())
                    ++seen[static_cast<std::size_t>(r.index)];
            },
            Qt::DirectConnection);
        sending = true;
        for (int i = 0; i < kRequests; ++i)
            transport->send(plainRequest(url, i));
        sending = false;
        QTRY_VERIFY_WITH_TIMEOUT(std::accumulate(seen.begin(), seen.end(), 0) == kRequests, kStepTimeoutMs);
        QCOMPARE(std::count(seen.begin(), seen.end(), 1), kRequests);
        QCOMPARE(elsewhere, 0);
        QCOMPARE(insideSend, 0);
    }

    // Pulled, records come only out of pullRecords(), in the transport's thread; turned back, they come
    // by themselves again.
    void recordsWaitToBePulled_data()
    {
        addTransportRows();
    }
    void recordsWaitToBePulled()
    {
        QFETCH(TransportKind, kind);
        QTcpServer server;
        const QUrl url = answerEveryRequest(server);
        QVERIFY(url.isValid());
        const auto transport = transportOf(kind, {});
        int pulledOnes = 0;
        int unpulled = 0;
        bool pulling = false;
        connect(
            transport.get(), &Transport::finished, this,
            [&](const RequestRecord& r) {
                QVERIFY(r.success());
                ++(pulling ? pulledOnes : unpulled);
            },
            Qt::DirectConnection);
        const auto pull = [&] {
            pulling = true;
            transport->pullRecords();
            pulling = false;
            return pulledOnes;
        };
        transport->setRecordsPulled(true);
        for (int i = 0; i < 6; ++i)
            transport->send(plainRequest(url, i));
        QTRY_COMPARE_WITH_TIMEOUT(pull(), 6, kStepTimeoutMs);
        QCOMPARE(unpulled, 0);
        transport->setRecordsPulled(false);
        for (int i = 6; i < 10; ++i)
            transport->send(plainRequest(url, i));
        QTRY_COMPARE_WITH_TIMEOUT(unpulled, 4, kStepTimeoutMs);
        QCOMPARE(pulledOnes, 6);
    }

    // A cancel ends exactly the requests sent before it: one sent after it in the same breath (before the
    // worker has woken) goes out and gets its answer.
    void cancelEndsWhatWasSentBeforeIt_data()
    {
        addTransportRows();
    }
    void cancelEndsWhatWasSentBeforeIt()
    {
        QFETCH(TransportKind, kind);
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        // Answers the requests whose id says "fast"; holds the others.
        connect(&server, &QTcpServer::newConnection, this, [&] {
            while (QTcpSocket* s = server.nextPendingConnection()) {
                auto buffer = std::make_shared<QByteArray>();
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
                connect(s, &QTcpSocket::readyRead, s, [s, buffer] {
                    *buffer += s->readAll();
                    if (!buffer->contains("\r\n\r\n{}"))
                        return;
                    if (buffer->toLower().contains("x-request-id: fast"))
                        s->write(kStreamReply);
                    buffer->clear();
                });
            }
        });
        const QUrl url(QStringLiteral("http://127.0.0.1:%1/v1/completions").arg(server.serverPort()));
        const auto transport = transportOf(kind, {}, 1);
        std::vector<RequestRecord> records;
        connect(transport.get(), &Transport::finished, this, [&](const RequestRecord& r) { records.push_back(r); });
        for (int i = 0; i < 6; ++i) {
            HttpRequest request = plainRequest(url, i);
            request.requestId = i < 4 ? u"held-%1"_s.arg(i) : u"fast-%1"_s.arg(i);
            transport->send(request);
            if (i == 3)
                transport->cancelAll(u"the step was stopped"_s);
        }
        QTRY_COMPARE_WITH_TIMEOUT(records.size(), std::size_t(6), kStepTimeoutMs);
        std::sort(records.begin(), records.end(), [](const auto& a, const auto& b) { return a.index < b.index; });
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(records[std::size_t(i)].failure, FailureClass::Cancelled);
            QCOMPARE(records[std::size_t(i)].errorMessage, u"the step was stopped"_s);
        }
        for (int i = 4; i < 6; ++i)
            QVERIFY2(records[std::size_t(i)].success(), qPrintable(records[std::size_t(i)].errorMessage));
    }

#ifdef Q_OS_LINUX
    // A request handed to the socket transport before its time goes out at its time, never before, in
    // the order of the times (not of the hand-over); a cancel ends those still held as never sent
    // (attempts 0, no send time), and the server never sees them.
    void socketTransportSendsOnSchedule()
    {
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        int connections = 0;
        int requests = 0;
        serveRequests(server, connections, [&requests](QTcpSocket* s, int, int) {
            ++requests;
            s->write(kStreamReply);
        });
        const QUrl url(QStringLiteral("http://127.0.0.1:%1/v1/completions").arg(server.serverPort()));
        const auto transport = transportOf(TransportKind::Socket, {}, 1);
        QVERIFY(transport->holdsUntilScheduled());
        QVERIFY(!transportOf(TransportKind::Qnam, {}, 1)->holdsUntilScheduled());
        std::vector<RequestRecord> records;
        connect(transport.get(), &Transport::finished, this, [&](const RequestRecord& r) { records.push_back(r); });
        const qint64 now = steadyNowNs();
        constexpr qint64 kMs = 1'000'000;
        // Handed over latest first; the last two are far enough ahead for the cancel to find them held.
        const qint64 offsets[] = { 60 * kMs, 40 * kMs, 20 * kMs, 3'600'000 * kMs, 7'200'000 * kMs };
        for (int i = 0; i < 5; ++i) {
            HttpRequest request = plainRequest(url, i);
            request.requestId = u"r%1"_s.arg(i);
            request.promptTokens = 7;
            request.scheduledNs = now + offsets[i];
            transport->send(request);
        }
        QTRY_COMPARE_WITH_TIMEOUT(records.size(), std::size_t(3), kStepTimeoutMs);
        for (const RequestRecord& r : records) {
            QVERIFY2(r.success(), qPrintable(r.errorMessage));
            QVERIFY(r.sentNs >= r.scheduledNs);
            QCOMPARE(r.attempts, 1);
        }
        QCOMPARE(records[0].index, 2); // the earliest time first
        QCOMPARE(records[1].index, 1);
        QCOMPARE(records[2].index, 0);
        QVERIFY(records[0].sentNs < records[1].sentNs && records[1].sentNs < records[2].sentNs);
        transport->cancelAll(u"the step was stopped"_s);
        QTRY_COMPARE_WITH_TIMEOUT(records.size(), std::size_t(5), kStepTimeoutMs);
        for (std::size_t i = 3; i < 5; ++i) {
            const RequestRecord& r = records[i];
            QCOMPARE(r.index, qint64(i)); // earliest first
            QCOMPARE(r.requestId, u"r%1"_s.arg(i));
            QCOMPARE(r.failure, FailureClass::Cancelled);
            QCOMPARE(r.errorMessage, u"the step was stopped"_s);
            QCOMPARE(r.attempts, 0);
            QCOMPARE(r.sentNs, qint64(-1));
            QCOMPARE(r.scheduledNs, now + offsets[i]);
            QCOMPARE(r.promptTokens, 7);
        }
        QCOMPARE(requests, 3);
    }

    // A plain connection's events carry the kernel's receive time, not the time the worker came to read
    // them: here the worker is held in a call of its own while the answer arrives, and is let go only
    // after the server's write returned (by then the answer is in the client's socket). The record's
    // times are still those of the arrival, before the write returned.
    void eventsCarryTheKernelsReceiveTime()
    {
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        const auto transport = transportOf(TransportKind::Socket, {}, 1);
        auto* inWorker = new QObject; // a context in the worker's thread, to hold it
        inWorker->moveToThread(qobject_cast<SocketTransport*>(transport.get())->workerThread(0));
        const auto gone = qScopeGuard([inWorker] { inWorker->deleteLater(); });
        QSemaphore held;
        QSemaphore letGo;
        qint64 writtenNs = -1;
        int connections = 0;
        serveRequests(server, connections, [&](QTcpSocket* s, int, int) {
            QMetaObject::invokeMethod(
                inWorker,
                [&] {
                    held.release();
                    letGo.acquire();
                },
                Qt::QueuedConnection);
            held.acquire(); // the worker waits in that call from here on
            s->write(kStreamReply);
            QVERIFY(s->flush());
            writtenNs = steadyNowNs();
            letGo.release();
        });
        const QUrl url(QStringLiteral("http://127.0.0.1:%1/v1/completions").arg(server.serverPort()));
        std::vector<RequestRecord> records;
        connect(transport.get(), &Transport::finished, this, [&](const RequestRecord& r) { records.push_back(r); });
        transport->send(plainRequest(url, 0));
        QTRY_COMPARE_WITH_TIMEOUT(records.size(), std::size_t(1), kStepTimeoutMs);
        const RequestRecord& r = records[0];
        QVERIFY2(r.success(), qPrintable(r.errorMessage));
        QVERIFY(writtenNs > 0);
        QVERIFY2(r.endNs <= writtenNs, "the answer's time is when the worker read it, not when it came");
        QVERIFY(r.firstByteNs >= r.sentNs && r.firstTokenNs >= r.firstByteNs && r.firstTokenNs <= r.endNs);
        QVERIFY(!r.chunkNs.empty());
        for (const qint64 t : r.chunkNs)
            QVERIFY(t >= r.firstTokenNs && t <= r.endNs);
        // The retry and the reuse paths read the same way: a second request on the kept-alive connection.
        writtenNs = -1;
        transport->send(plainRequest(url, 1));
        QTRY_COMPARE_WITH_TIMEOUT(records.size(), std::size_t(2), kStepTimeoutMs);
        QVERIFY2(records[1].success(), qPrintable(records[1].errorMessage));
        QVERIFY(records[1].endNs <= writtenNs);
        QCOMPARE(connections, 1);
    }

    // An open-loop step on the socket transport hands requests over ahead of their time; a stop then
    // finds some still held. They were never sent: the result leaves them out, and the last snapshot's
    // count of sent requests is the number of records, each request once.
    void stopLeavesOutRequestsNeverSent()
    {
        sim::SimHost host;
        sim::SimServerOptions options;
        options.timeScale = 1; // 2,000 tokens take tens of seconds: the stop comes first
        QVERIFY2(host.start(options), qPrintable(host.errorString()));
        StepConfig step = makeStep(host.baseUrl(), Backend::OpenAi, options.params.modelId, 4000, 8, 2000);
        step.rate = 1000; // about ten requests in the hand-over window at any time
        step.burstiness = std::numeric_limits<double>::infinity();
        bool stopped = false;
        LiveSnapshot last;
        const StepResult result
            = runStep(TransportKind::Socket, step, {}, [&](StepRunner& runner, const LiveSnapshot& s) {
                  last = s;
                  if (!stopped && s.sent >= 20) {
                      stopped = true;
                      runner.stop();
                  }
              });
        QVERIFY(stopped);
        QVERIFY(result.partial);
        QVERIFY(result.records.size() >= 20);
        QCOMPARE(int(result.records.size()), last.sent);
        QCOMPARE(last.inFlight, 0);
        std::vector<qint64> indices;
        for (const RequestRecord& r : result.records) {
            QCOMPARE(r.attempts, 1);
            QVERIFY(r.sentNs >= 0);
            QCOMPARE(r.failure, FailureClass::Cancelled);
            indices.push_back(r.index);
        }
        // Each once. (Not necessarily the first ones: a worker may reach a time before it hears of the
        // stop while another has already heard.)
        std::sort(indices.begin(), indices.end());
        QVERIFY(std::adjacent_find(indices.begin(), indices.end()) == indices.end());
    }
#endif

    // Sequential requests share one kept-alive connection.
    void keepsConnectionsAlive()
    {
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        int connections = 0;
        int requests = 0;
        serveRequests(server, connections, [&requests](QTcpSocket* s, int, int) {
            ++requests;
            s->write(kStreamReply);
        });
        const QUrl url(QStringLiteral("http://127.0.0.1:%1/v1/completions").arg(server.serverPort()));
        const std::unique_ptr<Transport> transport = transportOf(TransportKind::Socket, TransportOptions {}, 1);
        std::vector<HttpRequest> sent;
        for (int i = 0; i < 5; ++i)
            sent.push_back(plainRequest(url, i));
        const std::vector<RequestRecord> records = sendInTurn(*transport, sent);
        QCOMPARE(records.size(), std::size_t(5));
        const auto ok
            = std::count_if(records.begin(), records.end(), [](const RequestRecord& r) { return r.success(); });
        QCOMPARE(ok, 5);
        QCOMPARE(requests, 5);
        QCOMPARE(connections, 1);
    }

    // The server closes a kept-alive connection just as the next request arrives on it, without an
    // answer: the socket client sends that request once more on a fresh connection, and its record says
    // it was sent twice. Qt's client resends such a request inside Qt, unseen, so its record says 1.
    void retriesOnAKeptAliveConnectionTheServerClosed_data()
    {
        addTransportRows();
    }
    void retriesOnAKeptAliveConnectionTheServerClosed()
    {
        QFETCH(TransportKind, kind);
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        int connections = 0;
        std::vector<std::pair<int, int>> seen; // (connection, request on it)
        serveRequests(server, connections, [&seen](QTcpSocket* s, int connection, int request) {
            seen.emplace_back(connection, request);
            if (connection == 1 && request == 2)
                s->disconnectFromHost();
            else
                s->write(kStreamReply);
        });
        const QUrl url(QStringLiteral("http://127.0.0.1:%1/v1/completions").arg(server.serverPort()));
        // One worker: both requests go through it, so the second finds the idle connection.
        const std::unique_ptr<Transport> transport = transportOf(kind, TransportOptions {}, 1);
        const std::vector<RequestRecord> records
            = sendInTurn(*transport, { plainRequest(url, 0), plainRequest(url, 1) });
        QCOMPARE(records.size(), std::size_t(2));
        for (const RequestRecord& r : records) {
            QVERIFY2(r.success(), qPrintable(r.errorMessage));
            QCOMPARE(r.httpStatus, 200);
            QCOMPARE(r.generatedText, QStringLiteral("a"));
        }
        QCOMPARE(records[0].index, 0);
        QCOMPARE(records[0].attempts, 1);
        QCOMPARE(records[1].index, 1);
        QCOMPARE(records[1].attempts, kind == TransportKind::Socket ? 2 : 1);
        QCOMPARE(connections, 2);
        const std::vector<std::pair<int, int>> expected { { 1, 1 }, { 1, 2 }, { 2, 1 } };
        QCOMPARE(seen, expected);
    }

    // A response with both Transfer-Encoding and Content-Length is read by its chunks (RFC 9112 6.3),
    // and its connection carries no other request: the next one opens a new connection.
    void transferEncodingWithALengthEndsTheConnection()
    {
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        int connections = 0;
        int requests = 0;
        QByteArray reply = kStreamReply;
        reply.replace("Transfer-Encoding: chunked\r\n", "Content-Length: 4096\r\nTransfer-Encoding: chunked\r\n");
        serveRequests(server, connections, [&requests, reply](QTcpSocket* s, int, int) {
            ++requests;
            s->write(reply);
        });
        const QUrl url(QStringLiteral("http://127.0.0.1:%1/v1/completions").arg(server.serverPort()));
        TransportOptions options;
        options.workers = 1;
        SocketTransport transport(options);
        const std::vector<RequestRecord> records
            = sendInTurn(transport, { plainRequest(url, 0), plainRequest(url, 1), plainRequest(url, 2) });
        QCOMPARE(records.size(), std::size_t(3));
        for (const RequestRecord& r : records) {
            QVERIFY2(r.success(), qPrintable(r.errorMessage));
            QCOMPARE(r.generatedText, QStringLiteral("a"));
            QCOMPARE(r.attempts, 1);
        }
        QCOMPARE(requests, 3);
        QCOMPARE(connections, 3);
    }

    // What the socket client makes of interim responses and transfer codings, end to end: the final
    // response's status is the one recorded, and a body it cannot decode fails with words that name
    // the coding and the URL.
    void socketClientReadsInterimResponsesAndCodings_data()
    {
        QTest::addColumn<QByteArray>("answer");
        QTest::addColumn<FailureClass>("expected");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("messageEnd"); // after "URL: "; empty for a success
        const QByteArray stream = kStreamReply.sliced(kStreamReply.indexOf("\r\n") + 2);
        QTest::addRow("100, 102 and 103 then the stream") << QByteArray(
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\n"
            "HTTP/1.1 103 Early Hints\r\nLink: </a>; rel=preload\r\n\r\nHTTP/1.1 200 OK\r\n"
            + stream) << FailureClass::None << 200 << QString();
        QTest::addRow("103 then a 503") << QByteArray(
            "HTTP/1.1 103 Early Hints\r\nRetry-After: 9\r\n\r\n"
            "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 2\r\nContent-Length: 4\r\n\r\nbusy")
                                        << FailureClass::HttpServerError << 503 << QString();
        QTest::addRow("an unknown coding")
            << QByteArray(
                   "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: foo, chunked\r\n\r\n"
                   "5\r\nhello\r\n0\r\n\r\n")
            << FailureClass::Network << 0
            << QStringLiteral("not a valid HTTP/1.1 response: the body has a transfer coding this client does not "
                              "decode: \"foo\" (Transfer-Encoding: foo, chunked)");
        QTest::addRow("101 Switching Protocols")
            << QByteArray("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
            << FailureClass::Network << 0
            << QStringLiteral("not a valid HTTP/1.1 response: a 101 Switching Protocols response, though the "
                              "request asked for no protocol upgrade");
    }

    void socketClientReadsInterimResponsesAndCodings()
    {
        QFETCH(QByteArray, answer);
        QFETCH(FailureClass, expected);
        QFETCH(int, status);
        QFETCH(QString, messageEnd);
        CannedServer server;
        server.answer = answer;
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        const QUrl base(QStringLiteral("http://127.0.0.1:%1").arg(server.serverPort()));
        const StepConfig step = makeStep(base, Backend::OpenAi, QStringLiteral("m"), 2, 8, 8);
        const StepResult result = runStep(TransportKind::Socket, step);
        QCOMPARE(result.records.size(), std::size_t(2));
        for (const RequestRecord& r : result.records) {
            QVERIFY2(r.failure == expected, qPrintable(failureClassKey(r.failure) + u": "_s + r.errorMessage));
            QCOMPARE(r.httpStatus, status);
            if (expected == FailureClass::None)
                QCOMPARE(r.generatedText, QStringLiteral("a"));
            else if (status == 503)
                QCOMPARE(r.response.retryAfterS, std::optional<double>(2));
            else
                QCOMPARE(r.errorMessage, step.request.url.toString() + u": "_s + messageEnd);
        }
    }

    // The socket client over TLS, against a QSslServer with the self-signed certificate in
    // tests/data/tls: with verification off the stream is read; with it on the certificate is refused
    // and the message names host:port; trusted as a CA (through the process's default configuration,
    // as a system store would: the target has no CA option), it is accepted for 127.0.0.1.
    void tlsThroughTheSocketClient_data()
    {
        QTest::addColumn<TransportKind>("kind");
        QTest::addColumn<bool>("verify");
        QTest::addColumn<bool>("trusted");
        QTest::addRow("verification off") << TransportKind::Socket << false << false;
        QTest::addRow("self-signed refused") << TransportKind::Socket << true << false;
        QTest::addRow("trusted as a CA") << TransportKind::Socket << true << true;
        QTest::addRow("qnam: self-signed refused") << TransportKind::Qnam << true << false;
    }

    void tlsThroughTheSocketClient()
    {
        QFETCH(TransportKind, kind);
        QFETCH(bool, verify);
        QFETCH(bool, trusted);
        // The TLS backend comes with libqt6network6 (packaging/deps.sh): a machine without it fails here.
        QVERIFY2(QSslSocket::supportsSsl(), "no TLS backend: Qt's OpenSSL plugin (libqt6network6, libssl3) is missing");
        QFile certFile(QFINDTESTDATA("data/tls/cert.pem"));
        QFile keyFile(QFINDTESTDATA("data/tls/key.pem"));
        QVERIFY(certFile.open(QIODevice::ReadOnly));
        QVERIFY(keyFile.open(QIODevice::ReadOnly));
        const QSslCertificate cert(&certFile, QSsl::Pem);
        const QSslKey key(&keyFile, QSsl::Rsa, QSsl::Pem);
        QVERIFY(!cert.isNull());
        QVERIFY(!key.isNull());
        QSslServer server;
        QSslConfiguration serverTls = QSslConfiguration::defaultConfiguration();
        serverTls.setLocalCertificate(cert);
        serverTls.setPrivateKey(key);
        serverTls.setPeerVerifyMode(QSslSocket::VerifyNone);
        server.setSslConfiguration(serverTls);
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        int connections = 0;
        int requests = 0;
        serveRequests(server, connections, [&requests](QTcpSocket* s, int, int) {
            ++requests;
            s->write(kStreamReply);
        });

        const QSslConfiguration defaults = QSslConfiguration::defaultConfiguration();
        const auto restore = qScopeGuard([&defaults] { QSslConfiguration::setDefaultConfiguration(defaults); });
        if (trusted) {
            QSslConfiguration withCa = defaults;
            withCa.addCaCertificate(cert);
            QSslConfiguration::setDefaultConfiguration(withCa);
        }
        const QUrl url(QStringLiteral("https://127.0.0.1:%1/v1/completions").arg(server.serverPort()));
        TransportOptions options;
        options.tlsVerify = verify;
        const std::unique_ptr<Transport> transport = transportOf(kind, options, 1);
        const std::vector<RequestRecord> records
            = sendInTurn(*transport, { plainRequest(url, 0), plainRequest(url, 1) });
        QCOMPARE(records.size(), std::size_t(2));
        if (!verify || trusted) {
            for (const RequestRecord& r : records) {
                QVERIFY2(r.success(), qPrintable(r.errorMessage));
                QCOMPARE(r.httpStatus, 200);
                QCOMPARE(r.generatedText, QStringLiteral("a"));
                QCOMPARE(r.chunkNs.size(), std::size_t(1));
            }
            QCOMPARE(requests, 2);
            QCOMPARE(connections, 1); // kept alive over TLS too
            return;
        }
        for (const RequestRecord& r : records) {
            QCOMPARE(r.failure, FailureClass::Tls);
            QCOMPARE(r.httpStatus, 0);
            QVERIFY2(
                r.errorMessage.startsWith(QStringLiteral("TLS failed with 127.0.0.1:%1: ").arg(server.serverPort())),
                qPrintable(r.errorMessage));
            // Why, in the same words under any language: the certificate signs itself.
            QVERIFY2(r.errorMessage.endsWith(QStringLiteral(" (self signed certificate)")), qPrintable(r.errorMessage));
        }
        QCOMPARE(requests, 0);
    }
};

QTEST_GUILESS_MAIN(TestTransport)
#include "tst_transport.moc"
