#pragma once

#include "client/transport.h"

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
    void cancelAll() override;
    TransportKind kind() const override { return TransportKind::Socket; }

    int workerCount() const { return static_cast<int>(m_workers.size()); }

private:
    struct Worker
    {
        std::unique_ptr<QThread> thread;
        SocketWorker* worker = nullptr; // lives in thread, deleted when it finishes
    };
    std::vector<Worker> m_workers;
    std::atomic<unsigned> m_next { 0 };
};

} // namespace kp
