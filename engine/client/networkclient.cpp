#include "client/networkclient.h"

#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkProxyFactory>
#include <QNetworkReply>
#include <QSslError>

namespace kp {

namespace {

// The system (environment) proxy for each request, without changing the application-wide default.
class SystemProxyFactory : public QNetworkProxyFactory
{
public:
    QList<QNetworkProxy> queryProxy(const QNetworkProxyQuery& query) override
    {
        return QNetworkProxyFactory::systemProxyForQuery(query);
    }
};

} // namespace

QNetworkProxy proxyFromUrl(const QUrl& url)
{
    const auto type
        = url.scheme().startsWith(QLatin1String("socks")) ? QNetworkProxy::Socks5Proxy : QNetworkProxy::HttpProxy;
    return QNetworkProxy(type, url.host(), static_cast<quint16>(url.port(1080)), url.userName(), url.password());
}

NetworkClient::NetworkClient(TransportOptions transport, HeaderList headers)
    : m_transport(std::move(transport))
    , m_headers(std::move(headers))
{ }

QNetworkAccessManager* NetworkClient::makeManager(QObject* parent) const
{
    auto* nam = new QNetworkAccessManager(parent);
    switch (m_transport.proxyMode) {
    case ProxyMode::None:
        nam->setProxy(QNetworkProxy::NoProxy);
        break;
    case ProxyMode::System:
        nam->setProxyFactory(new SystemProxyFactory); // the manager owns it
        break;
    case ProxyMode::Url:
        nam->setProxy(proxyFromUrl(m_transport.proxyUrl));
        break;
    }
    nam->setRedirectPolicy(QNetworkRequest::SameOriginRedirectPolicy);
    if (!m_transport.tlsVerify) {
        QObject::connect(nam, &QNetworkAccessManager::sslErrors, nam,
            [](QNetworkReply* reply, const QList<QSslError>&) { reply->ignoreSslErrors(); });
    }
    return nam;
}

QNetworkRequest NetworkClient::request(const QUrl& url, int timeoutMs, bool withHeaders) const
{
    QNetworkRequest req(url);
    req.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    req.setHeader(QNetworkRequest::UserAgentHeader, QByteArrayLiteral("kneepoint/" KNEEPOINT_VERSION));
    if (withHeaders) {
        for (const auto& [name, value] : m_headers)
            req.setRawHeader(name, value);
    }
    if (timeoutMs > 0)
        req.setTransferTimeout(timeoutMs);
    return req;
}

} // namespace kp
