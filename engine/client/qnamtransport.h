#pragma once

#include "client/transport.h"
#include "client/workerpool.h"

#include <QThread>

#include <atomic>
#include <memory>
#include <vector>

namespace kp {

class HttpWorker;

// The QNetworkAccessManager transport. Worker threads each own a pool of managers created in that
// thread; Qt 6.4 keeps at most 6 HTTP/1.1 connections per host in one manager and queues the rest
// inside it, so a worker adds managers until no request waits behind another (CLIENT.md).
class QnamTransport : public Transport
{
    Q_OBJECT
public:
    explicit QnamTransport(const TransportOptions& options, QObject* parent = nullptr);
    ~QnamTransport() override;

    void send(HttpRequest request) override;
    void cancelAll(const QString& why) override;
    void setRecordsPulled(bool pulled) override { m_pool.setRecordsPulled(this, pulled); }
    void pullRecords() override { m_pool.pullRecords(this); }
    TransportKind kind() const override { return TransportKind::Qnam; }

    int workerCount() const { return m_pool.size(); }

private:
    WorkerPool<HttpWorker> m_pool;
};

} // namespace kp
