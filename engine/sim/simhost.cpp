#include "sim/simhost.h"

#include <QThread>

namespace kp::sim {

SimHost::~SimHost()
{
    stop();
}

bool SimHost::start(const SimServerOptions& options, const QHostAddress& address, quint16 port)
{
    stop();
    m_error.clear();
    m_url.clear();
    m_thread = new QThread;
    m_thread->setObjectName(QStringLiteral("kneepoint-sim"));
    auto* server = new SimServer(options);
    server->moveToThread(m_thread);
    QObject::connect(m_thread, &QThread::finished, server, &QObject::deleteLater);
    m_thread->start();

    bool listening = false;
    QMetaObject::invokeMethod(
        server,
        [&] {
            listening = server->listen(address, port);
            m_error = server->errorString();
            m_url = server->baseUrl();
        },
        Qt::BlockingQueuedConnection);
    if (!listening) {
        m_thread->quit();
        m_thread->wait();
        delete m_thread;
        m_thread = nullptr;
        return false;
    }
    m_server = server;
    return true;
}

void SimHost::stop()
{
    if (!m_thread)
        return;
    // The server is deleted in its own thread as the thread finishes (connected in start()).
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
    m_server = nullptr;
    m_url.clear();
}

} // namespace kp::sim
