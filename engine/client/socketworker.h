#pragma once

#include "client/httpresponseparser.h"
#include "client/responseaccumulator.h"
#include "client/transport.h"

#include <QAbstractSocket>
#include <QHash>
#include <QObject>
#include <QTimer>

#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

class QTcpSocket;

namespace kp {

// What every request to one URL with one header list shares on the wire, worked out once: the request
// line and headers around the request's own x-request-id, and the key of the connections it may use.
struct RequestHead
{
    QUrl url;
    HeaderList headers;
    bool stream = true;
    QString connectionKey; // scheme://host:port
    QByteArray beforeId; // the request line and the headers before x-request-id
    bool ownsId = true; // whether x-request-id is the client's (the request's headers may set their own)
    QByteArray afterId; // the request's own headers; Content-Length and the body follow
    bool fits(const HttpRequest& request) const
    {
        return request.stream == stream && request.headers == headers && request.url == url;
    }
};
RequestHead requestHead(const HttpRequest& request);

// The request as it goes on the wire: request line, headers and body in one buffer.
QByteArray http11Request(const RequestHead& head, const HttpRequest& request);
QByteArray http11Request(const HttpRequest& request);

// Runs requests over its own sockets in its own thread (one event loop): Kneepoint's HTTP/1.1 client.
// Each request holds one connection; connections are kept alive and reused per host. Every read is
// timestamped before anything else is done with it: with the kernel's receive time on a plain
// connection, with the time of the read on a TLS one. Everything here is used only from the worker's
// thread.
class SocketWorker : public QObject
{
    Q_OBJECT
public:
    SocketWorker(const TransportOptions& options, std::shared_ptr<LoopLagMeter> loopLag);
    ~SocketWorker() override;

    // Sends the request, at its scheduledNs when that lies ahead and this thread runs the epoll
    // dispatcher (holdsUntilScheduled()); at once otherwise.
    void start(const HttpRequest& request);
    // Ends every request in flight as Cancelled with `why`; one still held for its time is reported
    // as never sent (attempts 0, no sentNs).
    void cancelAll(const QString& why);
    static bool holdsUntilScheduled(QThread* thread);

Q_SIGNALS:
    void finished(const kp::RequestRecord& record);

private:
    struct Exchange
    {
        HttpRequest request;
        std::unique_ptr<ResponseAccumulator> accumulator;
        qint64 sentNs = 0;
        qint64 connectStartNs = -1; // while the connection is being made; -1 once it is up
        qint64 connectTookNs = -1; // how long the new connection took to be ready; -1 on a kept-alive one
        qint64 lastReadNs = -1;
        qint64 lastStampNs = 0; // the last event time a kernel receive time gave (from sentNs on)
        bool gotBytes = false;
        bool retried = false; // resent once on a fresh connection after a reused one closed unread
    };
    struct Connection
    {
        QTcpSocket* socket = nullptr;
        QString key; // scheme://host:port
        bool ready = false; // connected (and encrypted, for TLS)
        bool reused = false;
        QByteArray pending; // the request, until the connection is ready
        // A second descriptor of a plain socket while a large request is being written (see
        // watchLargeUpload): the server's early answer stays readable after Qt closes its own.
        int uploadFd = -1;
        HttpResponseParser parser;
        QString tlsErrors; // why the server's certificate was refused (tlsErrorWords), for the failure's message
        // A plain connection's descriptor once the dispatcher hands its reads here (readDirect): Qt's
        // socket then sees no read, so the close or error a read meets is kept in readError.
        int directFd = -1;
        QAbstractSocket::SocketError readError = QAbstractSocket::UnknownSocketError;
        bool kernelTime = false; // its reads carry the kernel's receive time (SO_TIMESTAMPNS)
        std::optional<Exchange> exchange;
    };

    Connection* takeIdle(const QString& key);
    Connection* open(const QUrl& url, const QString& key);
    void dispatch(Connection* c, Exchange exchange);
    void onReady(Connection* c);
    void onReadyRead(Connection* c);
    void readDirect(Connection* c);

    void consume(Connection* c, qint64 now, QByteArrayView data);
    void onClosed(Connection* c);
    void writeRequest(Connection* c, const QByteArray& wire);
    void endUploadWatch(Connection* c);
    void drainEarlyAnswer(Connection* c, qint64 now);
    // Ends the exchange on c and reports it; the connection is kept for reuse only when keep is true.
    void complete(Connection* c, qint64 now, FailureClass failure, const QString& message, bool keep);
    void close(Connection* c);
    void tick();
    void startTicking();
    void send(const HttpRequest& request);
    void sendDue(); // the held requests whose time has come; arms the dispatcher for the next

    TransportOptions m_options;
    std::shared_ptr<LoopLagMeter> m_loopLag;
    std::unordered_map<Connection*, std::unique_ptr<Connection>> m_connections;
    QHash<QString, std::vector<Connection*>> m_idle;
    int m_active = 0;

    std::vector<QByteArrayView> m_body; // reused between reads
    std::optional<RequestHead> m_head; // the last request's: a step's requests all share one
    const RequestHead& headFor(const HttpRequest& request);
    // Every read of every connection lands here and is parsed before the next read.
    static constexpr qsizetype kReadBufferBytes = 64 * 1024;
    QByteArray m_readBuffer;
    QTimer m_tick;
    qint64 m_lastTickNs = 0;
    // Requests handed over before their time, earliest first (a min-heap on scheduledNs, then index).
    std::vector<HttpRequest> m_held;
};

} // namespace kp
