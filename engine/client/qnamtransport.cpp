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
    m_pool.start(this, options, QStringLiteral("kneepoint-http"), [&] { return new HttpWorker(options, loopLag()); });
}

QnamTransport::~QnamTransport() = default;

void QnamTransport::send(HttpRequest request)
{
    m_pool.send(std::move(request));
}

void QnamTransport::cancelAll(const QString& why)
{
    m_pool.cancelAll(why);
}

} // namespace kp
