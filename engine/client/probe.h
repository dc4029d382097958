#pragma once

#include "client/requestbuilder.h"
#include "client/transport.h"
#include "metrics/requestrecord.h"

#include <QList>
#include <QObject>
#include <QStringList>

#include <memory>
#include <optional>

class QNetworkAccessManager;
class QNetworkReply;

namespace kp {

struct ProbeTarget
{
    Target target;
    HeaderList headers; // resolved: Authorization and the extra headers
    TransportOptions transport;
};

struct ProbeCheck
{
    QString name; // "health", "models", "completion"
    QString url;
    bool ok = false;
    bool skipped = false;
    double latencyMs = 0;
    QString detail; // what came back
    QString hint; // what to do about it (failures only)
};

struct ProbeReport
{
    QList<ProbeCheck> checks;
    QStringList models; // ids from /v1/models
    std::optional<int> maxModelLen; // /v1/models "max_model_len" of the configured (else the first) model
    QStringList notes; // proxy variables, key presence, ...
    bool ok() const; // models and completion passed (health may be absent on gateways)
    bool reachable() const; // the server answered at all
};

// What a hint may draw on besides the record: the headers sent (only whether an Authorization header
// was among them is used), the models the server lists, where the request went and how.
struct FailureContext
{
    HeaderList sentHeaders;
    QStringList serverModels;
    std::optional<int> maxModelLen; // /v1/models "max_model_len", when the server gave one
    QUrl url; // the request URL: host and port for "refused", proxy choice
    TransportOptions transport; // timeouts, proxy mode
    bool transportKnown = false; // transport holds the options the request ran with
};

// The advice for a failed request, in words the user can act on. Never contains the key.
QString failureHint(const RequestRecord& record, const FailureContext& context);
QString failureHint(const RequestRecord& record, const HeaderList& sentHeaders, const QStringList& serverModels);

// The proxy a request to url goes through under mode ("" when it connects directly), credentials removed.
QString proxyInUse(const QUrl& url, const TransportOptions& transport);

// Notes about proxy variables in the environment and what they would change for url.
QStringList proxyEnvironmentNotes(const QUrl& url, ProxyMode mode);

// Checks /health, /v1/models and one tiny completion, one after another, in the calling thread.
class Probe : public QObject
{
    Q_OBJECT
public:
    explicit Probe(QObject* parent = nullptr);
    ~Probe() override;

    void start(const ProbeTarget& target);

Q_SIGNALS:
    void finished(const kp::ProbeReport& report);

private:
    void getHealth();
    void getModels();
    void postCompletion();
    QNetworkReply* get(const QString& path);
    FailureContext hintContext() const;

    ProbeTarget m_target;
    ProbeReport m_report;
    QNetworkAccessManager* m_nam = nullptr;
};

} // namespace kp

Q_DECLARE_METATYPE(kp::ProbeReport)
