#include "client/httpworker.h"

#include "client/errorwords.h"

#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSslError>
#include <QThread>

#include <algorithm>

namespace kp {

Q_LOGGING_CATEGORY(lcClient, "kneepoint.engine.client", QtInfoMsg)

namespace {

// Qt 6.4's per-host connection limit for HTTP/1.1 in one manager (qhttpnetworkconnection.cpp).
constexpr int kConnectionsPerManager = 6;
// Each manager holds up to 6 sockets plus its own thread; past this many per worker, requests share
// the least busy manager and wait inside Qt, which bounds threads and file descriptors when a
// server falls so far behind that thousands of requests are in flight.
constexpr std::size_t kMaxManagersPerWorker = 128;
constexpr qint64 kReadBufferBytes = 4 * 1024 * 1024;

qint64 secondsToNs(double s)
{
    return static_cast<qint64>(s * 1e9);
}

QString hostPort(const QUrl& url)
{
    return QStringLiteral("%1:%2").arg(url.host()).arg(url.port(url.scheme() == QLatin1String("https") ? 443 : 80));
}

ResponseHeaders headersOf(const QNetworkReply* reply)
{
    ResponseHeaders headers;
    for (const QNetworkReply::RawHeaderPair& header : reply->rawHeaderPairs())
        headers.take(header.first, header.second);
    return headers;
}

} // namespace

HttpWorker::HttpWorker(const TransportOptions& options, std::shared_ptr<LoopLagMeter> loopLag)
    : m_client(options, {})
    , m_loopLag(std::move(loopLag))
    , m_deadlineTimer(this)
{
    // The deadline tick doubles as the event-loop lag probe: how late it fires is how late this
    // thread reads its sockets. It runs from the first request on, idle too, so that the lag is
    // sampled evenly whatever the requests' lengths.
    m_deadlineTimer.setInterval(LoopLagMeter::kTickMs);
    m_deadlineTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_deadlineTimer, &QTimer::timeout, this, &HttpWorker::checkDeadlines);
}

HttpWorker::~HttpWorker()
{
    for (auto& [reply, active] : m_active) {
        reply->disconnect(this);
        reply->abort();
        reply->deleteLater();
    }
}

HttpWorker::Manager* HttpWorker::pickManager()
{
    for (auto& m : m_managers) {
        if (m->active < kConnectionsPerManager)
            return m.get();
    }
    if (m_managers.size() >= kMaxManagersPerWorker) {
        return std::min_element(m_managers.begin(), m_managers.end(), [](const auto& a, const auto& b) {
            return a->active < b->active;
        })->get();
    }
    auto manager = std::make_unique<Manager>();
    manager->nam = m_client.makeManager(this);
    manager->nam->setAutoDeleteReplies(false);
    m_managers.push_back(std::move(manager));
    qCDebug(lcClient) << "worker" << QThread::currentThread() << "now has" << m_managers.size() << "managers";
    return m_managers.back().get();
}

void HttpWorker::start(const HttpRequest& request)
{
    QNetworkRequest req = m_client.request(request.url, 0, false); // the headers come with the request
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    // A compressing hop would buffer the stream; ask for it as it is.
    req.setRawHeader(QByteArrayLiteral("Accept-Encoding"), QByteArrayLiteral("identity"));
    req.setRawHeader(QByteArrayLiteral("Accept"),
        request.stream ? QByteArrayLiteral("text/event-stream") : QByteArrayLiteral("application/json"));
    req.setRawHeader(QByteArrayLiteral("x-request-id"), request.requestId.toUtf8());
    for (const auto& [name, value] : request.headers)
        req.setRawHeader(name, value);
    // Never follow a redirect: it could carry the Authorization header to another host.
    req.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);

    Manager* manager = pickManager();
    ++manager->active;
    const qint64 sentNs = steadyNowNs();
    QNetworkReply* reply = manager->nam->post(req, request.body);
    // Qt reads ahead of us without bound unless told: a flooding server would fill memory faster than
    // the accumulator can look at it.
    reply->setReadBufferSize(kReadBufferBytes);

    Active& active = m_active[reply];
    active.accumulator = std::make_unique<ResponseAccumulator>(request, sentNs);
    active.manager = manager;
    active.sentNs = sentNs;
    active.bodyBytes = request.body.size();

    connect(reply, &QNetworkReply::socketStartedConnecting, this, [this, reply] {
        if (auto it = m_active.find(reply); it != m_active.end())
            it->second.connectStartNs = steadyNowNs();
    });
    connect(reply, &QNetworkReply::requestSent, this, [this, reply] {
        if (auto it = m_active.find(reply); it != m_active.end())
            it->second.connectStartNs = -1;
    });
    connect(reply, &QNetworkReply::metaDataChanged, this, [this, reply] {
        auto it = m_active.find(reply);
        if (it == m_active.end())
            return;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (status > 0 && it->second.accumulator->httpStatus() == 0) {
            const qint64 now = steadyNowNs();
            it->second.lastReadNs = now;
            it->second.accumulator->onResponseStarted(status, now, headersOf(reply));
        }
    });
    connect(reply, &QNetworkReply::sslErrors, this, [this, reply](const QList<QSslError>& errors) {
        if (auto it = m_active.find(reply); it != m_active.end())
            it->second.tlsErrors = tlsErrorWords(errors);
    });
    connect(reply, &QNetworkReply::readyRead, this, [this, reply] { onReadyRead(reply); });
    connect(reply, &QNetworkReply::finished, this, [this, reply] { onFinished(reply); });

    if (!m_deadlineTimer.isActive()) {
        m_lastTickNs = steadyNowNs();
        m_deadlineTimer.start();
    }
}

void HttpWorker::onReadyRead(QNetworkReply* reply)
{
    auto it = m_active.find(reply);
    if (it == m_active.end())
        return;
    // The read time is the event time: take it before anything else.
    const qint64 now = steadyNowNs();
    Active& active = it->second;
    if (active.accumulator->httpStatus() == 0)
        active.accumulator->onResponseStarted(
            reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), now, headersOf(reply));
    active.connectStartNs = -1;
    const QByteArray bytes = reply->readAll();
    if (!bytes.isEmpty())
        active.lastReadNs = now;
    active.accumulator->onData(bytes, now);
    if (active.accumulator->tooLarge())
        abortWith(reply, active, FailureClass::ResponseTooLarge, QStringLiteral("response too large"));
}

void HttpWorker::onFinished(QNetworkReply* reply)
{
    auto it = m_active.find(reply);
    if (it == m_active.end())
        return;
    const qint64 now = steadyNowNs();
    Active& active = it->second;
    if (reply->bytesAvailable() > 0)
        active.accumulator->onData(reply->readAll(), now);
    if (active.accumulator->httpStatus() == 0) {
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (status > 0)
            active.accumulator->onResponseStarted(status, now, headersOf(reply));
    }

    FailureClass failure = active.abortReason;
    QString message = active.abortMessage;
    const auto error = reply->error();
    const QString where = reply->request().url().toString(QUrl::RemoveUserInfo);
    if (failure == FailureClass::None && error != QNetworkReply::NoError) {
        switch (error) {
        case QNetworkReply::ConnectionRefusedError:
            failure = FailureClass::ConnectionRefused;
            message = QStringLiteral("connection refused by %1 (%2)").arg(hostPort(reply->url()), where);
            break;
        case QNetworkReply::HostNotFoundError:
            failure = FailureClass::HostNotFound;
            message = QStringLiteral("host not found: %1 (%2)").arg(reply->url().host(), where);
            break;
        case QNetworkReply::SslHandshakeFailedError:
        case QNetworkReply::InsecureRedirectError:
            failure = FailureClass::Tls;
            message = QStringLiteral("TLS failed with %1: %2").arg(hostPort(reply->url()), errorWords(error));
            if (!active.tlsErrors.isEmpty())
                message += QStringLiteral(" (%1)").arg(active.tlsErrors);
            break;
        case QNetworkReply::TimeoutError:
            failure = FailureClass::ConnectTimeout;
            message = QStringLiteral("connection to %1 timed out").arg(hostPort(reply->url()));
            break;
        case QNetworkReply::OperationCanceledError:
            failure = FailureClass::Cancelled;
            message = QStringLiteral("cancelled");
            break;
        case QNetworkReply::RemoteHostClosedError:
        case QNetworkReply::ProtocolFailure:
        case QNetworkReply::UnknownNetworkError:
            // Qt 6.4 reads no answer while it is still writing the body: a server or proxy that refuses
            // a large request from its headers (413) and closes reads here as a broken connection.
            failure = active.accumulator->httpStatus() == 200 ? FailureClass::StreamCut : FailureClass::Network;
            message = QStringLiteral("%1: %2%3")
                          .arg(where, errorWords(error),
                              active.accumulator->httpStatus() == 0 ? largeRequestNote(active.bodyBytes) : QString());
            break;
        default:
            // HTTP error statuses arrive here too; the accumulator classifies those by status.
            if (active.accumulator->httpStatus() <= 0) {
                failure = FailureClass::Network;
                message = QStringLiteral("%1: %2").arg(where, errorWords(error));
            }
            break;
        }
    }
    RequestRecord record = active.accumulator->finish(now, failure, message);
    --active.manager->active;
    m_active.erase(it);
    reply->disconnect(this);
    reply->deleteLater();
    Q_EMIT finished(record);
}

void HttpWorker::abortWith(QNetworkReply* reply, Active& active, FailureClass reason, const QString& message)
{
    if (active.abortReason != FailureClass::None)
        return;
    active.abortReason = reason;
    active.abortMessage = message;
    reply->abort(); // emits finished synchronously or soon; onFinished reports the reason set here
}

void HttpWorker::checkDeadlines()
{
    const qint64 now = steadyNowNs();
    if (m_loopLag && m_lastTickNs > 0)
        m_loopLag->add(std::max<qint64>(0, now - m_lastTickNs - qint64(LoopLagMeter::kTickMs) * 1'000'000));
    m_lastTickNs = now;
    const Timeouts& t = m_client.transport().timeouts;
    // Which deadline fired, if any: the message is built only for the requests that expire.
    enum class Expired { None, Connect, Total, FirstToken, Idle };
    std::vector<std::pair<QNetworkReply*, Expired>> expired;
    for (auto& [reply, active] : m_active) {
        Expired e = Expired::None;
        if (t.connectS > 0 && active.connectStartNs >= 0 && now - active.connectStartNs > secondsToNs(t.connectS))
            e = Expired::Connect;
        else if (t.totalS > 0 && now - active.sentNs > secondsToNs(t.totalS))
            e = Expired::Total;
        else if (t.firstTokenS > 0 && !active.accumulator->sawFirstToken()
            && now - active.sentNs > secondsToNs(t.firstTokenS))
            e = Expired::FirstToken;
        else if (t.idleS > 0 && active.lastReadNs >= 0 && now - active.lastReadNs > secondsToNs(t.idleS))
            e = Expired::Idle;
        if (e != Expired::None)
            expired.push_back({ reply, e });
    }
    for (const auto& [reply, e] : expired) {
        const auto it = m_active.find(reply);
        if (it == m_active.end())
            continue;
        const QString url = reply->request().url().toString(QUrl::RemoveUserInfo);
        switch (e) {
        case Expired::Connect:
            abortWith(reply, it->second, FailureClass::ConnectTimeout,
                QStringLiteral("connect timeout (%1 s) to %2").arg(t.connectS).arg(hostPort(reply->url())));
            break;
        case Expired::Total:
            abortWith(reply, it->second, FailureClass::TotalTimeout,
                QStringLiteral("total timeout (%1 s): %2").arg(t.totalS).arg(url));
            break;
        case Expired::FirstToken:
            abortWith(reply, it->second, FailureClass::FirstByteTimeout,
                QStringLiteral("no first token within %1 s: %2").arg(t.firstTokenS).arg(url));
            break;
        case Expired::Idle:
            abortWith(reply, it->second, FailureClass::IdleTimeout,
                QStringLiteral("nothing received for %1 s between chunks: %2").arg(t.idleS).arg(url));
            break;
        case Expired::None:
            break;
        }
    }
}

void HttpWorker::cancelAll(const QString& why)
{
    std::vector<QNetworkReply*> replies;
    replies.reserve(m_active.size());
    for (auto& [reply, active] : m_active)
        replies.push_back(reply);
    for (QNetworkReply* reply : replies) {
        if (auto it = m_active.find(reply); it != m_active.end())
            abortWith(reply, it->second, FailureClass::Cancelled, why);
    }
}

} // namespace kp
