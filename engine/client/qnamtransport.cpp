#include "client/qnamtransport.h"

#include "client/httpworker.h"

namespace kp {

TransportOptions transportOptions(const Target& target)
{
    TransportOptions o;
    o.kind = target.transport;
    o.proxyMode = target.proxyMode;
    o.proxyUrl = QUrl(target.proxyUrl);
    o.tlsVerify = target.tlsVerify;
    o.timeouts = target.timeouts;
    return o;
}

QnamTransport::QnamTransport(const TransportOptions& options, QObject* parent)
    : Transport(parent)
{
    qRegisterMetaType<kp::RequestRecord>();
    const int count = options.workers > 0 ? options.workers : std::max(1, QThread::idealThreadCount());
    m_workers.reserve(count);
    for (int i = 0; i < count; ++i) {
        Worker w;
        w.thread = std::make_unique<QThread>();
        w.thread->setObjectName(QStringLiteral("kneepoint-http-%1").arg(i));
        w.worker = new HttpWorker(options, loopLag());
        w.worker->moveToThread(w.thread.get());
        connect(w.thread.get(), &QThread::finished, w.worker, &QObject::deleteLater);
        // Direct: re-emitted from the worker thread; receivers in other threads get it queued.
        connect(w.worker, &HttpWorker::finished, this, &Transport::finished, Qt::DirectConnection);
        w.thread->start();
        m_workers.push_back(std::move(w));
    }
}

QnamTransport::~QnamTransport()
{
    for (auto& w : m_workers) {
        w.thread->quit();
        w.thread->wait();
    }
}

void QnamTransport::send(HttpRequest request)
{
    HttpWorker* worker = m_workers[m_next.fetch_add(1, std::memory_order_relaxed) % m_workers.size()].worker;
    QMetaObject::invokeMethod(
        worker, [worker, request = std::move(request)] { worker->start(request); }, Qt::QueuedConnection);
}

void QnamTransport::cancelAll()
{
    for (auto& w : m_workers) {
        HttpWorker* worker = w.worker;
        QMetaObject::invokeMethod(
            worker, [worker] { worker->cancelAll(); }, Qt::QueuedConnection);
    }
}

} // namespace kp
