#include "client/sockettransport.h"

#include "client/probe.h"
#include "client/qnamtransport.h"
#include "client/socketworker.h"

#include <QLoggingCategory>

namespace kp {

Q_DECLARE_LOGGING_CATEGORY(lcClient)

SocketTransport::SocketTransport(const TransportOptions& options, QObject* parent)
    : Transport(parent)
{
    qRegisterMetaType<kp::RequestRecord>();
    const int count = options.workers > 0 ? options.workers : std::max(1, QThread::idealThreadCount());
    m_workers.reserve(count);
    for (int i = 0; i < count; ++i) {
        Worker w;
        w.thread = std::make_unique<QThread>();
        w.thread->setObjectName(QStringLiteral("kneepoint-socket-%1").arg(i));
        w.worker = new SocketWorker(options, loopLag());
        w.worker->moveToThread(w.thread.get());
        connect(w.thread.get(), &QThread::finished, w.worker, &QObject::deleteLater);
        // Direct: re-emitted from the worker thread; receivers in other threads get it queued.
        connect(w.worker, &SocketWorker::finished, this, &Transport::finished, Qt::DirectConnection);
        w.thread->start();
        m_workers.push_back(std::move(w));
    }
}

SocketTransport::~SocketTransport()
{
    for (auto& w : m_workers) {
        w.thread->quit();
        w.thread->wait();
    }
}

void SocketTransport::send(HttpRequest request)
{
    SocketWorker* worker = m_workers[m_next.fetch_add(1, std::memory_order_relaxed) % m_workers.size()].worker;
    QMetaObject::invokeMethod(
        worker, [worker, request = std::move(request)] { worker->start(request); }, Qt::QueuedConnection);
}

void SocketTransport::cancelAll()
{
    for (auto& w : m_workers) {
        SocketWorker* worker = w.worker;
        QMetaObject::invokeMethod(
            worker, [worker] { worker->cancelAll(); }, Qt::QueuedConnection);
    }
}

std::unique_ptr<Transport> makeTransport(const TransportOptions& options, const QUrl& url, QString* note)
{
    if (options.kind == TransportKind::Qnam)
        return std::make_unique<QnamTransport>(options);
    const QString proxy = url.isValid() ? proxyInUse(url, options) : QString();
    if (!proxy.isEmpty() || options.proxyMode == ProxyMode::Url) {
        const QString why
            = QStringLiteral("transport: the socket client connects directly and %1 goes through the proxy %2; "
                             "using QNetworkAccessManager")
                  .arg(url.toString(QUrl::RemoveUserInfo),
                      proxy.isEmpty() ? options.proxyUrl.toString(QUrl::RemoveUserInfo) : proxy);
        qCInfo(lcClient).noquote() << why;
        if (note)
            *note = why;
        return std::make_unique<QnamTransport>(options);
    }
    return std::make_unique<SocketTransport>(options);
}

} // namespace kp
