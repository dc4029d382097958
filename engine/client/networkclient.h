#pragma once

#include "client/transport.h"

#include <QNetworkRequest>
#include <QUrl>

class QNetworkAccessManager;
class QNetworkProxy;
class QObject;

namespace kp {

QNetworkProxy proxyFromUrl(const QUrl& url);

// Every Qt network client of a run is made here from the target's options, so that none forgets one:
// the load's QNAM transport, the preflight probe, the /metrics scraper and the /tokenize pre-pass.
// (The socket transport opens its own connections with the same TLS rule and speaks to the server
// directly; makeTransport() hands targets behind a proxy to the QNAM transport.)
class NetworkClient
{
public:
    NetworkClient(TransportOptions transport, HeaderList headers);

    // A manager in the calling thread: the proxy the options name (none, the environment's per request,
    // or a URL), TLS errors ignored when tls_verify is off, redirects followed only within the same
    // scheme, host and port (the key stays with the target).
    QNetworkAccessManager* makeManager(QObject* parent) const;

    // A request as every client sends it: HTTP/1.1 as the load speaks it (no HTTP/2 by ALPN), the user
    // agent, the profile's headers (the key among them) unless withHeaders is false, and a transfer
    // timeout when timeoutMs > 0.
    QNetworkRequest request(const QUrl& url, int timeoutMs, bool withHeaders = true) const;

    const TransportOptions& transport() const { return m_transport; }
    const HeaderList& headers() const { return m_headers; }

private:
    TransportOptions m_transport;
    HeaderList m_headers;
};

} // namespace kp
