#pragma once

#include "client/apiformats.h"
#include "client/requestbuilder.h"
#include "metrics/requestrecord.h"
#include "profile/profile.h"

#include <QObject>
#include <QUrl>

#include <chrono>
#include <memory>
#include <mutex>
#include <vector>

namespace kp {

// Nanoseconds on the steady clock; every timestamp a transport takes uses this.
inline qint64 steadyNowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

struct TransportOptions
{
    TransportKind kind = TransportKind::Auto; // makeTransport() resolves Auto
    int workers = 0; // worker threads; 0 = one per core; at most kMaxWorkers
    static constexpr int kMaxWorkers = 256; // each holds an event loop and its descriptors
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
    ApiFormat format = ApiFormat::OpenAi; // how the stream and the reply read
    bool stream = true;
    int promptTokens = 0;
    int maxTokens = -1; // the max_tokens the body asks for; -1 when it sets none
    qint64 scheduledNs = -1;
    QString model; // the model name of a mix (workload.model_mix) it went to; empty without a mix
};

// How late the worker threads' event loops run: each worker has a periodic tick while requests are in
// flight and adds how late it fired. Thread-safe; a step takes the samples it saw.
class LoopLagMeter
{
public:
    static constexpr int kTickMs = 20;

    void add(qint64 lateNs)
    {
        std::lock_guard lock(m_mutex);
        m_lateMs.push_back(static_cast<double>(lateNs) / 1e6);
    }
    std::vector<double> takeMs()
    {
        std::lock_guard lock(m_mutex);
        std::vector<double> out;
        out.swap(m_lateMs);
        return out;
    }

private:
    std::mutex m_mutex;
    std::vector<double> m_lateMs;
};

// Sends requests and reports each as a RequestRecord whose times are absolute steady-clock ns.
// send() and cancelAll() may be called from any thread; finished() is emitted in the transport's own
// thread (the one that created it), never from inside send().
class Transport : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    // A request whose scheduledNs lies ahead goes out at that time when holdsUntilScheduled(), at once
    // otherwise. A held request that a cancel ends is reported as never sent (attempts 0).
    virtual void send(HttpRequest request) = 0;
    virtual bool holdsUntilScheduled() const { return false; }
    // Records are emitted as they come (the default) or, pulled, only when the transport's thread calls
    // pullRecords(): a receiver that wakes every few milliseconds anyway saves a wake-up per record.
    // Turning it off emits (queued) whatever is waiting.
    virtual void setRecordsPulled(bool pulled) = 0;
    virtual void pullRecords() = 0;
    // Ends every request in flight as Cancelled, recording `why` as its error.
    virtual void cancelAll(const QString& why) = 0;
    virtual TransportKind kind() const = 0;

    // Shared with the workers, which outlive no transport.
    std::shared_ptr<LoopLagMeter> loopLag() const { return m_loopLag; }

Q_SIGNALS:
    void finished(const kp::RequestRecord& record);

private:
    std::shared_ptr<LoopLagMeter> m_loopLag = std::make_shared<LoopLagMeter>();
};

// The transport the options ask for. Auto and Socket give the socket transport unless a proxy applies
// to `url` (the socket transport speaks to the server directly): then QNAM, and `note` says why.
std::unique_ptr<Transport> makeTransport(const TransportOptions& options, const QUrl& url, QString* note = nullptr);

} // namespace kp
