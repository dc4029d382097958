#pragma once

#include "client/requestbuilder.h"
#include "client/transport.h"
#include "metrics/requestrecord.h"

#include <QDateTime>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QStringList>

#include <memory>
#include <optional>

class QNetworkAccessManager;
class QNetworkReply;
class QTimer;

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
    double latencyMs = 0; // of the last try
    int tries = 1; // a transient failure is tried again (ProbeOptions::maxTries in all)
    QString detail; // what came back
    QString hint; // what to do about it (failures only)
};

// How patient the preflight is. Its own limits, not the load's: a target whose first-token timeout is
// ten minutes must still hear within seconds that its server does not answer.
struct ProbeOptions
{
    static constexpr double kConnectTimeoutS = 10; // to open the connection
    static constexpr double kCheckTimeoutS = 30; // one try of one check, from sending to the last byte
    static constexpr int kMaxTries = 3; // tries of one check in all, when the failures are transient
    static constexpr double kFirstBackoffS = 0.5; // the wait before the second try; doubles for each next
    static constexpr double kMaxRetryAfterS = 30; // the longest Retry-After honoured
    static constexpr double kStillWaitingS = 5; // a try that takes longer is reported, then again each period

    double connectTimeoutS = kConnectTimeoutS;
    double checkTimeoutS = kCheckTimeoutS;
    int maxTries = kMaxTries;
    double firstBackoffS = kFirstBackoffS;
    double maxRetryAfterS = kMaxRetryAfterS;
    double stillWaitingS = kStillWaitingS;
};

// The options for a target: the constants, shortened where the target's own timeouts are shorter
// (connect_s for the connect timeout; first_token_s and total_s for the check timeout).
ProbeOptions probeOptionsFor(const Timeouts& timeouts);

// What the preflight is doing while it waits, for the front ends to word.
struct ProbeProgress
{
    enum class Kind {
        Checking, // a check starts (its first try)
        StillWaiting, // a try has waited `seconds` so far, of at most `limitS`
        Retrying, // a try failed transiently (`reason`); the next, number `tryNumber`, follows in `seconds`
    };
    Kind kind = Kind::Checking;
    QString check; // "health", "models", "completion"
    QString url;
    int tryNumber = 1;
    int maxTries = 1;
    double seconds = 0;
    double limitS = 0;
    QString reason; // Retrying: "HTTP 500", or what cut the answer
    bool retryAfter = false; // Retrying: the wait is the server's Retry-After
};

// Whether a failed request is worth another preflight try: HTTP 500, 502, 503, 504 and 429, and a
// connection that broke after the server took it. Refusals, timeouts, 4xx and answers that are not
// OpenAI-style fail at once: another try would say the same.
bool isTransientFailure(const RequestRecord& record);

// A Retry-After value in seconds from now: delay-seconds ("120") or an HTTP-date ("Wed, 21 Oct 2015
// 07:28:00 GMT"); a date in the past is 0. nullopt when the value is neither.
std::optional<double> retryAfterSeconds(const QString& value, const QDateTime& now);

// Whether a finished QNetworkReply is worth another try, by isTransientFailure: HTTP 500, 502, 503, 504
// or 429, or a connection the server cut after taking it (a refusal, an unknown host, a TLS failure or a
// deadline would repeat); and, when it is, the server's Retry-After in seconds. For the preflight's GETs
// and the /tokenize pre-pass, which read whole answers through QNAM.
struct ReplyRetry
{
    bool transient = false;
    std::optional<double> retryAfterS;
};
ReplyRetry replyRetry(QNetworkReply* reply, const QDateTime& now);

// The wait before try number `tryNumber` (2, 3, ...): the server's Retry-After, capped at
// options.maxRetryAfterS, when it sent one; else firstBackoffS, doubled for each try after the second.
double retryDelayS(int tryNumber, std::optional<double> retryAfterS, const ProbeOptions& options);

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
    // The backend the request was for: its wire format's words ("output", "message_stop") in the
    // hints; unknown reads as OpenAI's ("choices", "[DONE]").
    std::optional<Backend> backend;
};

// The advice for a failed request, in words the user can act on. Never contains the key.
QString failureHint(const RequestRecord& record, const FailureContext& context);
QString failureHint(const RequestRecord& record, const HeaderList& sentHeaders, const QStringList& serverModels);

// The proxy a request to url goes through under mode ("" when it connects directly), credentials removed.
QString proxyInUse(const QUrl& url, const TransportOptions& transport);

// Notes about proxy variables in the environment and what they would change for url.
QStringList proxyEnvironmentNotes(const QUrl& url, ProxyMode mode);

// Checks /health, /v1/models and one tiny completion, one after another, in the calling thread. Each
// check is tried again after a transient failure (isTransientFailure; /health only after a broken
// connection, as its status decides nothing), and each try has its own connect and whole-check timeout.
class Probe : public QObject
{
    Q_OBJECT
public:
    explicit Probe(QObject* parent = nullptr);
    ~Probe() override;

    // With probeOptionsFor(target.transport.timeouts).
    void start(const ProbeTarget& target);
    void start(const ProbeTarget& target, const ProbeOptions& options);

Q_SIGNALS:
    void progress(const kp::ProbeProgress& progress);
    void finished(const kp::ProbeReport& report);

private:
    enum class Step { Health, Models, Completion };
    // What one try came to: the check as it would be reported, and whether another try may help.
    struct Outcome
    {
        ProbeCheck check;
        bool transient = false;
        std::optional<double> retryAfterS;
        QString reason; // for the retry notice
        QString skipRest; // health only: why the other checks are skipped, empty to run them
    };

    void beginCheck(Step step);
    void tryCheck();
    void endTry(Outcome outcome);
    void startWaiting(const QString& url);
    void stopWaiting();
    void getHealth();
    void getModels();
    void postCompletion();
    FailureContext hintContext() const;
    QNetworkReply* get(const QUrl& url, bool withHeaders);
    Outcome healthOutcome(QNetworkReply* reply);
    Outcome modelsOutcome(QNetworkReply* reply);
    Outcome completionOutcome(const RequestRecord& record, const QUrl& url);
    bool deadlineOutcome(QNetworkReply* reply, Outcome& outcome) const;
    static QString checkName(Step step);

    ProbeTarget m_target;
    ProbeOptions m_options;
    ProbeReport m_report;
    QNetworkAccessManager* m_nam = nullptr;
    Step m_step = Step::Health;
    int m_try = 1;
    qint64 m_tryStartNs = 0;
    QString m_tryUrl;
    QTimer* m_stillWaiting = nullptr;
    QTimer* m_retry = nullptr;
    QPointer<QObject> m_inFlight; // the reply or worker of the try in flight
};

} // namespace kp

Q_DECLARE_METATYPE(kp::ProbeReport)
Q_DECLARE_METATYPE(kp::ProbeProgress)
