#pragma once

#include "client/transport.h"
#include "client/workerpool.h"

#include <QThread>

#include <atomic>
#include <memory>
#include <vector>

namespace kp {

class SocketWorker;

// Kneepoint's own HTTP/1.1 client over QTcpSocket / QSslSocket: one event loop per worker thread, no
// per-host connection cap, no hidden queue, every read timestamped in the thread that reads it. Speaks
// to the server directly: no proxies, no HTTP/2 (QnamTransport does those).
class SocketTransport : public Transport
{
    Q_OBJECT
public:
    explicit SocketTransport(const TransportOptions& options, QObject* parent = nullptr);
    ~SocketTransport() override;

    void send(HttpRequest request) override;
    void cancelAll(const QString& why) override;
    void setRecordsPulled(bool pulled) override { m_pool.setRecordsPulled(this, pulled); }
    void pullRecords() override { m_pool.pullRecords(this); }
    TransportKind kind() const override { return TransportKind::Socket; }
    bool holdsUntilScheduled() const override;

    int workerCount() const { return m_pool.size(); }
    QThread* workerThread(int i) const { return m_pool.thread(i); }

private:
    WorkerPool<SocketWorker> m_pool;
};

} // namespace kp
