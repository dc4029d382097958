#pragma once

#include "sim/simserver.h"

#include <QHostAddress>
#include <QString>
#include <QUrl>

class QThread;

namespace kp::sim {

// Runs a SimServer on a thread of its own, for the GUI's built-in target and for tests.
class SimHost
{
public:
    SimHost() = default;
    ~SimHost();
    Q_DISABLE_COPY_MOVE(SimHost)

    // Starts the thread, moves a new server there and listens; blocks until it listens or fails.
    bool start(const SimServerOptions& options, const QHostAddress& address = QHostAddress(QHostAddress::LocalHost),
        quint16 port = 0);
    // Stops the server (requests in flight are cut) and joins the thread. Safe to call twice.
    void stop();

    bool isRunning() const { return m_server != nullptr; }
    QUrl baseUrl() const { return m_url; }
    quint16 port() const { return quint16(m_url.port()); }
    QString errorString() const { return m_error; }
    // Lives in the host's thread: connect to it, call its thread-safe members only.
    SimServer* server() const { return m_server; }

private:
    QThread* m_thread = nullptr;
    SimServer* m_server = nullptr;
    QUrl m_url;
    QString m_error;
};

} // namespace kp::sim
