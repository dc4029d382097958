#pragma once

#include "client/requestbuilder.h"
#include "metrics/requestrecord.h"
#include "profile/profile.h"

#include <QObject>
#include <QUrl>

#include <chrono>

namespace kp {

// Nanoseconds on the steady clock; every timestamp a transport takes uses this.
inline qint64 steadyNowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

struct TransportOptions
{
    int workers = 0; // worker threads; 0 = one per core
    ProxyMode proxyMode = ProxyMode::None;
    QUrl proxyUrl;
    bool tlsVerify = true;
    Timeouts timeouts;
};

TransportOptions transportOptions(const Target& target);

// One request handed to a transport. scheduledNs is absolute steady-clock time (steadyNowNs()).
struct HttpRequest
{
    qint64 index = -1;
    QString requestId;
    QUrl url;
    QByteArray body;
    HeaderList headers;
    bool chat = false;
    bool stream = true;
    int promptTokens = 0;
    qint64 scheduledNs = -1;
};

// Sends requests and reports each as a RequestRecord whose times are absolute steady-clock ns.
// send() and cancelAll() may be called from any thread; finished() is emitted from a worker thread,
// so receivers get it queued.
class Transport : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    virtual void send(HttpRequest request) = 0;
    virtual void cancelAll() = 0;

Q_SIGNALS:
    void finished(const kp::RequestRecord& record);
};

} // namespace kp
