#include "client/sockettransport.h"

#include "client/probe.h"
#include "client/qnamtransport.h"
#include "client/socketworker.h"

#include <QLoggingCategory>

#ifdef Q_OS_LINUX
#include "client/epolldispatcher.h"
#endif

namespace kp {

Q_DECLARE_LOGGING_CATEGORY(lcClient)

SocketTransport::SocketTransport(const TransportOptions& options, QObject* parent)
    : Transport(parent)
{
    qRegisterMetaType<kp::RequestRecord>();
    m_pool.start(
        this, options, QStringLiteral("kneepoint-socket"), [&] { return new SocketWorker(options, loopLag()); },
        []() -> QAbstractEventDispatcher* {
#ifdef Q_OS_LINUX
            return makeSocketDispatcher();
#else
            return nullptr;
#endif
        });
}

SocketTransport::~SocketTransport() = default;

void SocketTransport::send(HttpRequest request)
{
    m_pool.send(std::move(request));
}

bool SocketTransport::holdsUntilScheduled() const
{
    return SocketWorker::holdsUntilScheduled(m_pool.thread(0));
}

void SocketTransport::cancelAll(const QString& why)
{
    m_pool.cancelAll(why);
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
