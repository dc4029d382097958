#include "client/socketworker.h"

#include "client/errorwords.h"

#ifdef Q_OS_LINUX
#include "client/epolldispatcher.h"
#endif

#include <QLoggingCategory>
#include <QNetworkProxy>
#include <QSslConfiguration>
#include <QSslError>
#include <QSslSocket>
#include <QTcpSocket>
#include <QThread>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <ctime>

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace kp {

Q_DECLARE_LOGGING_CATEGORY(lcClient)

namespace {

qint64 secondsToNs(double s)
{
    return static_cast<qint64>(s * 1e9);
}

bool isTls(const QUrl& url)
{
    return url.scheme() == QLatin1String("https");
}

int defaultPort(const QUrl& url)
{
    return isTls(url) ? 443 : 80;
}

QString hostPort(const QUrl& url)
{
    return QStringLiteral("%1:%2").arg(url.host()).arg(url.port(defaultPort(url)));
}

QString connectionKey(const QUrl& url)
{
    return QStringLiteral("%1://%2").arg(url.scheme(), hostPort(url));
}

bool hasHeader(const HeaderList& headers, QByteArrayView name)
{
    return std::any_of(headers.begin(), headers.end(),
        [name](const auto& h) { return QByteArrayView(h.first).compare(name, Qt::CaseInsensitive) == 0; });
}

// A later request sorts first, so that std::push_heap keeps the earliest at the front.
bool later(const HttpRequest& a, const HttpRequest& b)
{
    return a.scheduledNs != b.scheduledNs ? a.scheduledNs > b.scheduledNs : a.index > b.index;
}

// A read's receive time from the kernel (SCM_TIMESTAMPNS: the wall clock when its last segment arrived),
// on the steady clock: its age on the wall clock, taken beside the steady clock after the read, so that
// no wait of the thread's (before the read, or in it) moves it. Kept between the exchange's previous
// event time and now (a wall clock stepped meanwhile cannot put events out of order or in the future).
// Now when the kernel gave none.
qint64 kernelTimeOf(msghdr& msg, qint64& lastNs)
{
    const cmsghdr* stamp = nullptr;
    for (cmsghdr* cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
        if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_TIMESTAMPNS)
            stamp = cm;
    }
    qint64 nowNs = steadyNowNs();
    qint64 out = nowNs;
    if (stamp) {
        timespec arrived {};
        std::memcpy(&arrived, CMSG_DATA(stamp), sizeof arrived);
        // The two clocks read together: a pair the thread was preempted between is read again.
        timespec wall {};
        qint64 before = nowNs;
        for (int attempt = 0; attempt < 4; ++attempt) {
            ::clock_gettime(CLOCK_REALTIME, &wall);
            nowNs = steadyNowNs();
            if (nowNs - before < 20'000)
                break;
            before = nowNs;
        }
        const qint64 ageNs = (qint64(wall.tv_sec) - qint64(arrived.tv_sec)) * 1'000'000'000
            + (qint64(wall.tv_nsec) - qint64(arrived.tv_nsec));
        out = before + (nowNs - before) / 2 - std::max<qint64>(0, ageNs);
    }
    out = std::clamp(out, std::min(lastNs, nowNs), nowNs);
    lastNs = out;
    return out;
}

#ifdef Q_OS_LINUX
EpollDispatcher* epollOf(QThread* thread)
{
    return qobject_cast<EpollDispatcher*>(thread ? thread->eventDispatcher() : nullptr);
}
#endif

} // namespace

RequestHead requestHead(const HttpRequest& request)
{
    RequestHead head;
    head.url = request.url;
    head.headers = request.headers;
    head.stream = request.stream;
    head.connectionKey = connectionKey(request.url);

    const QUrl& url = request.url;
    QByteArray target = url.path(QUrl::FullyEncoded).toLatin1();
    if (target.isEmpty())
        target = "/";
    if (url.hasQuery())
        target += '?' + url.query(QUrl::FullyEncoded).toLatin1();
    QByteArray host = url.host(QUrl::FullyEncoded).toLatin1();
    if (host.contains(':'))
        host = '[' + host + ']';
    if (url.port() > 0 && url.port() != defaultPort(url))
        host += ':' + QByteArray::number(url.port());

    QByteArray* out = &head.beforeId;
    *out += "POST " + target + " HTTP/1.1\r\n";
    const auto put = [&out](QByteArrayView name, QByteArrayView value) {
        *out += name;
        *out += ": ";
        *out += value;
        *out += "\r\n";
    };
    // Defaults first; a header of the request with the same name replaces its default.
    const auto putDefault = [&](QByteArrayView name, QByteArrayView value) {
        if (!hasHeader(request.headers, name))
            put(name, value);
    };
    put("Host", host);
    putDefault("User-Agent", "kneepoint/" KNEEPOINT_VERSION);
    putDefault("Content-Type", "application/json");
    putDefault("Accept", request.stream ? QByteArrayView("text/event-stream") : QByteArrayView("application/json"));
    // A compressing hop would buffer the stream; ask for it as it is.
    putDefault("Accept-Encoding", "identity");
    head.ownsId = !hasHeader(request.headers, "x-request-id");
    out = &head.afterId;
    for (const auto& [name, value] : request.headers) {
        if (QByteArrayView(name).compare("Host", Qt::CaseInsensitive) == 0
            || QByteArrayView(name).compare("Content-Length", Qt::CaseInsensitive) == 0)
            continue;
        put(name, value);
    }
    return head;
}

QByteArray http11Request(const RequestHead& head, const HttpRequest& request)
{
    Q_ASSERT(head.fits(request));
    const QByteArray id = head.ownsId ? request.requestId.toUtf8() : QByteArray();
    char length[24];
    const auto [lengthEnd, ec] = std::to_chars(length, length + sizeof length, request.body.size());
    Q_ASSERT(ec == std::errc());
    QByteArray out;
    out.reserve(head.beforeId.size() + (head.ownsId ? 16 + id.size() : 0) + head.afterId.size() + 20
        + (lengthEnd - length) + 4 + request.body.size());
    out += head.beforeId;
    if (head.ownsId) {
        out += "x-request-id: ";
        out += id;
        out += "\r\n";
    }
    out += head.afterId;
    out += "Content-Length: ";
    out += QByteArrayView(length, lengthEnd - length);
    out += "\r\n\r\n";
    out += request.body;
    return out;
}

QByteArray http11Request(const HttpRequest& request)
{
    return http11Request(requestHead(request), request);
}

SocketWorker::SocketWorker(const TransportOptions& options, std::shared_ptr<LoopLagMeter> loopLag)
    : m_options(options)
    , m_loopLag(std::move(loopLag))
    , m_readBuffer(kReadBufferBytes, Qt::Uninitialized)
    , m_tick(this)
{
    m_tick.setInterval(LoopLagMeter::kTickMs);
    m_tick.setTimerType(Qt::PreciseTimer);
    connect(&m_tick, &QTimer::timeout, this, &SocketWorker::tick);
}

SocketWorker::~SocketWorker()
{
#ifdef Q_OS_LINUX
    if (EpollDispatcher* dispatcher = epollOf(thread()))
        dispatcher->callAt(-1, nullptr); // its call would reach a worker that is gone
#endif
    for (auto& [key, c] : m_connections) {
        endUploadWatch(c.get());
        c->socket->disconnect(this);
        c->socket->abort();
    }
}

SocketWorker::Connection* SocketWorker::takeIdle(const QString& key)
{
    const auto it = m_idle.find(key);
    if (it == m_idle.end())
        return nullptr;
    std::vector<Connection*>& idle = it.value();
    while (!idle.empty()) {
        Connection* c = idle.back();
        idle.pop_back();
        if (c->socket->state() == QAbstractSocket::ConnectedState && c->socket->bytesAvailable() == 0)
            return c;
        close(c);
    }
    return nullptr;
}

bool SocketWorker::holdsUntilScheduled(QThread* thread)
{
#ifdef Q_OS_LINUX
    return epollOf(thread) != nullptr;
#else
    Q_UNUSED(thread);
    return false;
#endif
}

void SocketWorker::start(const HttpRequest& request)
{
#ifdef Q_OS_LINUX
    // A send this close to its time goes now: holding it would cost more than the wait.
    constexpr qint64 kHoldFromNs = 20'000;
    if (request.scheduledNs - steadyNowNs() > kHoldFromNs) {
        if (EpollDispatcher* dispatcher = epollOf(thread())) {
            m_held.push_back(request);
            std::push_heap(m_held.begin(), m_held.end(), later);
            if (m_held.front().index == request.index && m_held.front().scheduledNs == request.scheduledNs)
                dispatcher->callAt(request.scheduledNs, [this] { sendDue(); });
            return;
        }
    }
#endif
    send(request);
}

void SocketWorker::sendDue()
{
#ifdef Q_OS_LINUX
    while (!m_held.empty() && m_held.front().scheduledNs <= steadyNowNs()) {
        std::pop_heap(m_held.begin(), m_held.end(), later);
        const HttpRequest request = std::move(m_held.back());
        m_held.pop_back();
        send(request);
    }
    if (!m_held.empty())
        epollOf(thread())->callAt(m_held.front().scheduledNs, [this] { sendDue(); });
#endif
}

void SocketWorker::send(const HttpRequest& request)
{
    const qint64 sentNs = steadyNowNs();
    Exchange exchange;
    exchange.request = request;
    exchange.accumulator = std::make_unique<ResponseAccumulator>(request, sentNs);
    exchange.sentNs = sentNs;
    exchange.lastStampNs = sentNs;
    dispatch(takeIdle(headFor(request).connectionKey), std::move(exchange));
}

const RequestHead& SocketWorker::headFor(const HttpRequest& request)
{
    if (!m_head || !m_head->fits(request))
        m_head = requestHead(request);
    return *m_head;
}

void SocketWorker::dispatch(Connection* c, Exchange exchange)
{
    const QUrl url = exchange.request.url;
    const RequestHead& head = headFor(exchange.request);
    const bool fresh = c == nullptr;
    if (fresh) {
        auto owned = std::make_unique<Connection>();
        c = owned.get();
        c->key = head.connectionKey;
        if (isTls(url)) {
            auto* ssl = new QSslSocket(this);
            QSslConfiguration tls = ssl->sslConfiguration();
            tls.setAllowedNextProtocols({ QByteArrayLiteral("http/1.1") });
            if (!m_options.tlsVerify)
                tls.setPeerVerifyMode(QSslSocket::VerifyNone);
            ssl->setSslConfiguration(tls);
            connect(ssl, &QSslSocket::encrypted, this, [this, c] { onReady(c); });
            if (!m_options.tlsVerify)
                connect(ssl, &QSslSocket::sslErrors, ssl, [ssl](const QList<QSslError>&) { ssl->ignoreSslErrors(); });
            else
                connect(ssl, &QSslSocket::sslErrors, this,
                    [c](const QList<QSslError>& errors) { c->tlsErrors = tlsErrorWords(errors); });
            c->socket = ssl;
        } else {
            c->socket = new QTcpSocket(this);
            connect(c->socket, &QTcpSocket::connected, this, [this, c] { onReady(c); });
        }
        c->socket->setProxy(QNetworkProxy::NoProxy);
        connect(c->socket, &QTcpSocket::readyRead, this, [this, c] { onReadyRead(c); });
        connect(c->socket, &QTcpSocket::bytesWritten, this, [this, c] {
            if (c->socket->bytesToWrite() == 0)
                endUploadWatch(c);
        });
        connect(c->socket, &QTcpSocket::errorOccurred, this, [this, c] { onClosed(c); });
        connect(c->socket, &QTcpSocket::disconnected, this, [this, c] { onClosed(c); });
        m_connections.emplace(c, std::move(owned));
        exchange.connectStartNs = steadyNowNs();
    } else {
        c->reused = true;
    }
    exchange.gotBytes = false;
    c->exchange = std::move(exchange);
    ++m_active;
    startTicking();
    const QByteArray wire = http11Request(head, c->exchange->request);
    if (!fresh) {
        writeRequest(c, wire);
        return;
    }
    c->pending = wire;
    const quint16 port = static_cast<quint16>(url.port(defaultPort(url)));
    if (auto* ssl = qobject_cast<QSslSocket*>(c->socket))
        ssl->connectToHostEncrypted(url.host(), port);
    else // unbuffered: reads and writes go straight to the descriptor (see onReadyRead)
        c->socket->connectToHost(url.host(), port, QIODevice::ReadWrite | QIODevice::Unbuffered);
}

void SocketWorker::onReady(Connection* c)
{
    c->ready = true;
    c->socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
#ifdef Q_OS_LINUX
    // A plain connection is read straight from its descriptor: the dispatcher calls readDirect, with no
    // notifier event, no readyRead and no QIODevice between the kernel and the parser.
    if (!qobject_cast<QSslSocket*>(c->socket) && c->socket->openMode().testFlag(QIODevice::Unbuffered)) {
        if (EpollDispatcher* dispatcher = epollOf(thread())) {
            const int fd = int(c->socket->socketDescriptor());
            if (fd >= 0 && dispatcher->setReader(fd, [this, c] { readDirect(c); })) {
                c->directFd = fd;
                // The kernel's receive time of each read: the event time, whenever the read comes.
                const int on = 1;
                c->kernelTime = ::setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on) == 0;
            }
        }
    }
#endif
    if (c->exchange) {
        if (c->exchange->connectStartNs >= 0)
            c->exchange->connectTookNs = steadyNowNs() - c->exchange->connectStartNs;
        c->exchange->connectStartNs = -1;
    }
    if (!c->pending.isEmpty()) {
        writeRequest(c, c->pending);
        c->pending.clear();
    }
}

void SocketWorker::onReadyRead(Connection* c)
{
    // The read time is the event time: take it before anything else.
    const qint64 now = steadyNowNs();
    if (!c->exchange) { // bytes nobody asked for on an idle connection: it cannot be trusted again
        close(c);
        return;
    }
    // Into the worker's one buffer, parsed in place: no allocation per read. A plain connection is
    // unbuffered: each read is one recv() from the descriptor, with no copy through Qt's buffer and no
    // FIONREAD first; a read short of the buffer took what the kernel had, and the level-triggered
    // notifier reports what comes after it. There the peer's close reads as -1 with the socket left
    // unconnected and nothing emitted, so it is taken as a close here.
    const bool unbuffered = c->socket->openMode().testFlag(QIODevice::Unbuffered);
    while (m_connections.count(c) && c->exchange) {
        const qint64 n = c->socket->read(m_readBuffer.data(), m_readBuffer.size());
        if (n < 0 && unbuffered && c->socket->state() != QAbstractSocket::ConnectedState) {
            onClosed(c);
            return;
        }
        if (n <= 0)
            break;
        consume(c, now, QByteArrayView(m_readBuffer.constData(), n));
        if (unbuffered && n < m_readBuffer.size())
            break;
    }
    // The response ended and more bytes follow it: the connection cannot be trusted again. (Bytes in
    // the same read count as the parser's trailing bytes; on an unbuffered socket later ones are news
    // for the next pass, which closes an idle connection that hears anything.)
    if (!unbuffered && m_connections.count(c) && !c->exchange && c->socket->bytesAvailable() > 0)
        close(c);
}

// One recv() per read, as the unbuffered path above, but from the descriptor itself. The end of the
// stream (0) and an error are the connection's close, with the words Qt gives them: a reset and an
// orderly close are both RemoteHostClosedError to Qt.
void SocketWorker::readDirect(Connection* c)
{
    const qint64 now = steadyNowNs();
    if (!c->exchange) { // bytes (or a close) nobody asked for on an idle connection
        close(c);
        return;
    }
    while (m_connections.count(c) && c->exchange) {
        iovec iov { m_readBuffer.data(), std::size_t(m_readBuffer.size()) };
        alignas(cmsghdr) char control[CMSG_SPACE(sizeof(timespec))];
        msghdr msg {};
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        if (c->kernelTime) {
            msg.msg_control = control;
            msg.msg_controllen = sizeof control;
        }
        const ssize_t n = ::recvmsg(c->directFd, &msg, MSG_DONTWAIT);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n <= 0) {
            c->readError = n == 0 || errno == ECONNRESET || errno == EPIPE ? QAbstractSocket::RemoteHostClosedError
                                                                           : QAbstractSocket::NetworkError;
            onClosed(c);
            return;
        }
        consume(c, c->kernelTime ? kernelTimeOf(msg, c->exchange->lastStampNs) : now,
            QByteArrayView(m_readBuffer.constData(), n));
        if (n < m_readBuffer.size())
            return;
    }
}

void SocketWorker::consume(Connection* c, qint64 now, QByteArrayView data)
{
    if (data.isEmpty())
        return;
    Exchange& ex = *c->exchange;
    ex.gotBytes = true;
    ex.connectStartNs = -1;
    m_body.clear();
    const bool ok = c->parser.feed(data, m_body);
    // The idle clock runs from the headers and restarts with body bytes only, as QNAM's does: chunk
    // framing trickled byte by byte is silence between chunks on both transports.
    if (!m_body.empty())
        ex.lastReadNs = now;
    if (c->parser.headersDone() && ex.accumulator->httpStatus() == 0) {
        ex.lastReadNs = now;
        ex.accumulator->onResponseStarted(c->parser.status(), now, c->parser.headers());
    }
    for (const QByteArrayView& part : m_body)
        ex.accumulator->onData(part, now);
    if (ex.accumulator->tooLarge()) { // the accumulator's message says which cap; stop reading here
        complete(c, now, FailureClass::ResponseTooLarge, QStringLiteral("response too large"), false);
        return;
    }
    if (!ok) {
        complete(c, now, FailureClass::Network,
            QStringLiteral("%1: not a valid HTTP/1.1 response: %2")
                .arg(ex.request.url.toString(QUrl::RemoveUserInfo), c->parser.error()),
            false);
        return;
    }
    if (c->parser.isDone())
        complete(c, now, FailureClass::None, {}, true);
}

void SocketWorker::onClosed(Connection* c)
{
    if (!m_connections.count(c))
        return;
    if (!c->exchange) {
        close(c);
        return;
    }
    const qint64 now = steadyNowNs();
    // What the kernel still holds is read first (a direct reader that met the close has read it all).
    if (c->directFd >= 0) {
        if (c->readError == QAbstractSocket::UnknownSocketError
            && c->socket->state() == QAbstractSocket::ConnectedState)
            readDirect(c);
    } else if (c->socket->bytesAvailable() > 0) {
        onReadyRead(c);
    }
    if (!m_connections.count(c) || !c->exchange)
        return;
    drainEarlyAnswer(c, now);
    if (!m_connections.count(c) || !c->exchange)
        return;
    Exchange& ex = *c->exchange;
    // A kept-alive connection the server closed before it read the request: send it again on a fresh
    // one, as browsers and QNetworkAccessManager do.
    if (c->reused && !ex.gotBytes && !ex.retried) {
        Exchange again = std::move(ex);
        again.retried = true;
        c->exchange.reset();
        --m_active;
        close(c);
        dispatch(nullptr, std::move(again));
        return;
    }
    if (c->parser.finishOnClose()) {
        complete(c, now, FailureClass::None, {}, false);
        return;
    }
    const QUrl& url = ex.request.url;
    const QString where = url.toString(QUrl::RemoveUserInfo);
    FailureClass failure = FailureClass::Network;
    QString message;
    const QAbstractSocket::SocketError error
        = c->readError != QAbstractSocket::UnknownSocketError ? c->readError : c->socket->error();
    switch (error) {
    case QAbstractSocket::ConnectionRefusedError:
        failure = FailureClass::ConnectionRefused;
        message = QStringLiteral("connection refused by %1 (%2)").arg(hostPort(url), where);
        break;
    case QAbstractSocket::HostNotFoundError:
        failure = FailureClass::HostNotFound;
        message = QStringLiteral("host not found: %1 (%2)").arg(url.host(), where);
        break;
    case QAbstractSocket::SslHandshakeFailedError:
    case QAbstractSocket::SslInternalError:
    case QAbstractSocket::SslInvalidUserDataError:
        failure = FailureClass::Tls;
        message = QStringLiteral("TLS failed with %1: %2").arg(hostPort(url), errorWords(error));
        if (!c->tlsErrors.isEmpty())
            message += QStringLiteral(" (%1)").arg(c->tlsErrors);
        break;
    case QAbstractSocket::SocketTimeoutError:
        failure = FailureClass::ConnectTimeout;
        message = QStringLiteral("connection to %1 timed out").arg(hostPort(url));
        break;
    default:
        failure = ex.accumulator->httpStatus() == 200 ? FailureClass::StreamCut : FailureClass::Network;
        message = QStringLiteral("%1: %2%3")
                      .arg(where, errorWords(c->ready ? error : QAbstractSocket::RemoteHostClosedError),
                          ex.accumulator->httpStatus() == 0 ? largeRequestNote(ex.request.body.size()) : QString());
        break;
    }
    complete(c, now, failure, message, false);
}

// A server or proxy that refuses a request from its headers alone (413 Payload Too Large from a body
// limit) answers and closes while a large body is still being written. The next write fails, and Qt
// closes the socket's descriptor before its read notifier has taken the answer from the kernel. So
// while a large request is written, a duplicate descriptor keeps the socket open: when the connection
// breaks, the answer is read through it, and the request fails with the server's status rather than
// as a broken connection. Plain HTTP only: a TLS answer would need the TLS layer to decrypt it. The
// duplicate costs a descriptor for the upload's duration only; without one the request is sent anyway.
void SocketWorker::writeRequest(Connection* c, const QByteArray& wire)
{
    if (wire.size() > kLargeRequestBytes && !qobject_cast<QSslSocket*>(c->socket) && c->uploadFd < 0) {
        const qintptr fd = c->socket->socketDescriptor();
        if (fd >= 0)
            c->uploadFd = ::fcntl(int(fd), F_DUPFD_CLOEXEC, 0);
    }
    c->socket->write(wire);
    // An unbuffered socket sends at once and emits bytesWritten only for what it had to buffer.
    if (c->socket->bytesToWrite() == 0)
        endUploadWatch(c);
}

void SocketWorker::endUploadWatch(Connection* c)
{
    if (c->uploadFd >= 0) {
        ::close(c->uploadFd);
        c->uploadFd = -1;
    }
}

void SocketWorker::drainEarlyAnswer(Connection* c, qint64 now)
{
    if (c->uploadFd < 0)
        return;
    constexpr qsizetype kMaxDrainBytes = 1024 * 1024; // the status, headers and the start of the body
    qsizetype drained = 0;
    while (drained < kMaxDrainBytes && m_connections.count(c) && c->exchange) {
        const ssize_t n = ::recv(c->uploadFd, m_readBuffer.data(), std::size_t(m_readBuffer.size()), MSG_DONTWAIT);
        if (n <= 0)
            break;
        drained += n;
        consume(c, now, QByteArrayView(m_readBuffer.constData(), n));
    }
    if (m_connections.count(c))
        endUploadWatch(c);
}

void SocketWorker::complete(Connection* c, qint64 now, FailureClass failure, const QString& message, bool keep)
{
    RequestRecord record = c->exchange->accumulator->finish(now, failure, message);
    record.attempts = c->exchange->retried ? 2 : 1;
    record.connectNs = c->exchange->connectTookNs;
    c->exchange.reset();
    endUploadWatch(c);
    --m_active;
    if (keep && c->parser.keepAlive() && c->parser.trailingBytes() == 0
        && c->socket->state() == QAbstractSocket::ConnectedState) {
        c->parser.reset();
        m_idle[c->key].push_back(c);
    } else {
        close(c);
    }
    Q_EMIT finished(record);
}

void SocketWorker::close(Connection* c)
{
    const auto it = m_connections.find(c);
    if (it == m_connections.end())
        return;
    if (const auto idle = m_idle.find(c->key); idle != m_idle.end()) {
        auto& list = idle.value();
        list.erase(std::remove(list.begin(), list.end(), c), list.end());
    }
    endUploadWatch(c);
    c->directFd = -1; // its reader ends with the read notifier, which abort() unregisters
    c->socket->disconnect(this);
    c->socket->abort();
    c->socket->deleteLater();
    m_connections.erase(it);
}

// The tick runs from the first request on (also while idle: 50 wake-ups a second), so that the
// event-loop lag is sampled evenly whatever the requests' lengths.
void SocketWorker::startTicking()
{
    if (m_tick.isActive())
        return;
    m_lastTickNs = steadyNowNs();
    m_tick.start();
}

void SocketWorker::tick()
{
    const qint64 now = steadyNowNs();
    if (m_lastTickNs > 0)
        m_loopLag->add(std::max<qint64>(0, now - m_lastTickNs - qint64(LoopLagMeter::kTickMs) * 1'000'000));
    m_lastTickNs = now;

    const Timeouts& t = m_options.timeouts;
    enum class Expired { None, Connect, Total, FirstToken, Idle };
    std::vector<std::pair<Connection*, Expired>> expired;
    for (auto& [key, c] : m_connections) {
        if (!c->exchange)
            continue;
        const Exchange& ex = *c->exchange;
        Expired e = Expired::None;
        if (t.connectS > 0 && ex.connectStartNs >= 0 && now - ex.connectStartNs > secondsToNs(t.connectS))
            e = Expired::Connect;
        else if (t.totalS > 0 && now - ex.sentNs > secondsToNs(t.totalS))
            e = Expired::Total;
        else if (t.firstTokenS > 0 && !ex.accumulator->sawFirstToken() && now - ex.sentNs > secondsToNs(t.firstTokenS))
            e = Expired::FirstToken;
        else if (t.idleS > 0 && ex.lastReadNs >= 0 && now - ex.lastReadNs > secondsToNs(t.idleS))
            e = Expired::Idle;
        if (e != Expired::None)
            expired.push_back({ c.get(), e });
    }
    for (const auto& [c, e] : expired) {
        if (!m_connections.count(c) || !c->exchange)
            continue;
        const QUrl& u = c->exchange->request.url;
        const QString url = u.toString(QUrl::RemoveUserInfo);
        switch (e) {
        case Expired::Connect:
            complete(c, now, FailureClass::ConnectTimeout,
                QStringLiteral("connect timeout (%1 s) to %2").arg(t.connectS).arg(hostPort(u)), false);
            break;
        case Expired::Total:
            complete(c, now, FailureClass::TotalTimeout,
                QStringLiteral("total timeout (%1 s): %2").arg(t.totalS).arg(url), false);
            break;
        case Expired::FirstToken:
            complete(c, now, FailureClass::FirstByteTimeout,
                QStringLiteral("no first token within %1 s: %2").arg(t.firstTokenS).arg(url), false);
            break;
        case Expired::Idle:
            complete(c, now, FailureClass::IdleTimeout,
                QStringLiteral("nothing received for %1 s between chunks: %2").arg(t.idleS).arg(url), false);
            break;
        case Expired::None:
            break;
        }
    }
}

void SocketWorker::cancelAll(const QString& why)
{
    // Those held for their time never went out: reported so, earliest first.
    std::sort(m_held.begin(), m_held.end(), [](const HttpRequest& a, const HttpRequest& b) { return later(b, a); });
    std::vector<HttpRequest> held;
    held.swap(m_held);
#ifdef Q_OS_LINUX
    if (EpollDispatcher* dispatcher = epollOf(thread()))
        dispatcher->callAt(-1, nullptr);
#endif
    for (const HttpRequest& request : held) {
        RequestRecord record;
        record.index = request.index;
        record.requestId = request.requestId;
        record.scheduledNs = request.scheduledNs;
        record.promptTokens = request.promptTokens;
        record.failure = FailureClass::Cancelled;
        record.errorMessage = why;
        record.attempts = 0;
        Q_EMIT finished(record);
    }
    std::vector<Connection*> busy;
    for (auto& [key, c] : m_connections) {
        if (c->exchange)
            busy.push_back(c.get());
    }
    const qint64 now = steadyNowNs();
    for (Connection* c : busy) {
        if (m_connections.count(c) && c->exchange)
            complete(c, now, FailureClass::Cancelled, why, false);
    }
}

} // namespace kp
