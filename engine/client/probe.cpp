#include "client/probe.h"

#include "client/apiformats.h"
#include "client/httpworker.h"
#include "client/networkclient.h"
#include "metrics/inerttext.h"
#include "metrics/phrase.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkProxyFactory>
#include <QNetworkReply>
#include <QProcessEnvironment>
#include <QSslError>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace kp {

namespace {

QString firstBytes(const QByteArray& body, int n = 300)
{
    return inertExcerpt(body, n);
}

// The probe reads whole bodies: a server that sends more than this is cut off.
constexpr qint64 kMaxProbeBodyBytes = 4 * 1024 * 1024;

void capBody(QNetworkReply* reply)
{
    QObject::connect(reply, &QNetworkReply::downloadProgress, reply, [reply](qint64 received, qint64) {
        if (received > kMaxProbeBodyBytes && !reply->property("kneepoint_too_large").toBool()) {
            reply->setProperty("kneepoint_too_large", true);
            reply->abort();
        }
    });
}

bool sentAuthorization(const HeaderList& headers)
{
    for (const auto& [name, value] : headers) {
        if (name.compare("authorization", Qt::CaseInsensitive) == 0 && value.size() > 7)
            return true;
    }
    return false;
}

QString hostPort(const QUrl& url)
{
    return QStringLiteral("%1:%2").arg(url.host()).arg(url.port(url.scheme() == QLatin1String("https") ? 443 : 80));
}

int toMs(double seconds)
{
    return static_cast<int>(std::clamp(seconds * 1000.0, 0.0, 24.0 * 3600 * 1000));
}

// Set on a reply that the probe aborted for taking too long: "connect" or "check".
constexpr const char* kDeadlineProperty = "kneepoint_deadline";

QString connectTimeoutDetail(const QUrl& url, double limitS)
{
    return phrase("Probe", "could not connect to %1 within %2 s").arg(hostPort(url), QString::number(limitS));
}

QString noAnswerDetail(const QUrl& url, double limitS)
{
    return phrase("Probe", "no answer from %1 within %2 s")
        .arg(url.toString(QUrl::RemoveUserInfo), QString::number(limitS));
}

QString connectTimeoutHint(double limitS)
{
    return phrase("Probe",
        "The connection did not open within the preflight's %1 s (target.timeouts.connect_s when shorter): "
        "the host is down, or a firewall drops the packets.")
        .arg(QString::number(limitS));
}

QString noAnswerHint(double limitS)
{
    return phrase("Probe",
        "The server took the connection but did not answer within the preflight's %1 s per check "
        "(target.timeouts when shorter): it may be stuck, overloaded or still loading its model.")
        .arg(QString::number(limitS));
}

// Hands a GET's reply to judge when it has finished, on context's thread.
template <typename Judge> void whenFinished(QObject* context, QNetworkReply* reply, Judge judge)
{
    QObject::connect(reply, &QNetworkReply::finished, context, [reply, judge] {
        reply->deleteLater();
        judge(reply);
    });
}

// The check of a GET's reply begins alike: its name, the URL without credentials and the time since the
// try began. Returns the HTTP status (0: no answer).
int beginReplyCheck(ProbeCheck& c, const QString& name, QNetworkReply* reply, qint64 tryStartNs)
{
    c.name = name;
    c.url = reply->url().toString(QUrl::RemoveUserInfo);
    c.latencyMs = double(steadyNowNs() - tryStartNs) / 1e6;
    return reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
}

} // namespace

ProbeOptions probeOptionsFor(const Timeouts& timeouts)
{
    ProbeOptions options;
    if (timeouts.connectS > 0)
        options.connectTimeoutS = std::min(options.connectTimeoutS, timeouts.connectS);
    for (const double limit : { timeouts.firstTokenS, timeouts.totalS }) {
        if (limit > 0)
            options.checkTimeoutS = std::min(options.checkTimeoutS, limit);
    }
    return options;
}

bool isTransientFailure(const RequestRecord& record)
{
    switch (record.failure) {
    case FailureClass::HttpServerError:
        return record.httpStatus == 500 || record.httpStatus == 502 || record.httpStatus == 503
            || record.httpStatus == 504;
    case FailureClass::HttpRateLimited:
    case FailureClass::StreamCut:
    case FailureClass::Network:
        return true;
    default:
        return false;
    }
}

std::optional<double> retryAfterSeconds(const QString& value, const QDateTime& now)
{
    const QString v = value.trimmed();
    if (v.isEmpty())
        return std::nullopt;
    // delay-seconds: 1*DIGIT.
    if (std::all_of(v.begin(), v.end(), [](QChar c) { return c.isDigit() && c.unicode() < 128; })) {
        bool ok = false;
        const qlonglong n = v.toLongLong(&ok);
        return ok ? std::optional<double>(double(n)) : std::nullopt;
    }
    // HTTP-date as IMF-fixdate, the form servers send: "Sun, 06 Nov 1994 08:49:37 GMT".
    if (v.size() != 29 || v.at(3) != QLatin1Char(',') || !v.endsWith(QLatin1String(" GMT")))
        return std::nullopt;
    const QDate date = QLocale::c().toDate(v.mid(5, 11), QStringLiteral("dd MMM yyyy"));
    const QTime time = QTime::fromString(v.mid(17, 8), QStringLiteral("HH:mm:ss"));
    if (!date.isValid() || !time.isValid())
        return std::nullopt;
    const QDateTime when(date, time, Qt::UTC);
    return std::max(0.0, double(now.msecsTo(when)) / 1000.0);
}

ReplyRetry replyRetry(QNetworkReply* reply, const QDateTime& now)
{
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    RequestRecord r;
    r.httpStatus = status;
    if (status == 429)
        r.failure = FailureClass::HttpRateLimited;
    else if (status >= 500)
        r.failure = FailureClass::HttpServerError;
    else if (status == 200)
        r.failure
            = reply->error() == QNetworkReply::RemoteHostClosedError ? FailureClass::StreamCut : FailureClass::None;
    else if (status > 0)
        r.failure = FailureClass::HttpOther;
    else if (reply->error() == QNetworkReply::RemoteHostClosedError)
        r.failure = FailureClass::Network; // cut after the server took the connection
    else
        return {}; // refused, unknown host, TLS, a deadline: another try would say the same
    ReplyRetry retry;
    retry.transient = isTransientFailure(r);
    if (retry.transient)
        retry.retryAfterS
            = retryAfterSeconds(QString::fromLatin1(reply->rawHeader(QByteArrayLiteral("Retry-After")).left(64)), now);
    return retry;
}

double retryDelayS(int tryNumber, std::optional<double> retryAfterS, const ProbeOptions& options)
{
    if (retryAfterS)
        return std::clamp(*retryAfterS, 0.0, options.maxRetryAfterS);
    return options.firstBackoffS * std::pow(2.0, std::max(0, tryNumber - 2));
}

bool ProbeReport::ok() const
{
    for (const ProbeCheck& c : checks) {
        if (!c.ok && c.name != QLatin1String("health"))
            return false; // a skipped check did not pass either
    }
    return !checks.isEmpty();
}

bool ProbeReport::reachable() const
{
    for (const ProbeCheck& c : checks) {
        if (c.ok || c.detail.startsWith(QLatin1String("HTTP ")))
            return true;
    }
    return false;
}

QString proxyInUse(const QUrl& url, const TransportOptions& transport)
{
    switch (transport.proxyMode) {
    case ProxyMode::None:
        return {};
    case ProxyMode::Url:
        return transport.proxyUrl.toString(QUrl::RemoveUserInfo);
    case ProxyMode::System:
        break;
    }
    const QList<QNetworkProxy> proxies = QNetworkProxyFactory::systemProxyForQuery(QNetworkProxyQuery(url));
    for (const QNetworkProxy& proxy : proxies) {
        if (proxy.type() == QNetworkProxy::HttpProxy || proxy.type() == QNetworkProxy::Socks5Proxy)
            return QStringLiteral("%1://%2:%3")
                .arg(proxy.type() == QNetworkProxy::Socks5Proxy ? QStringLiteral("socks5") : QStringLiteral("http"),
                    proxy.hostName())
                .arg(proxy.port());
    }
    return {};
}

QString failureHint(const RequestRecord& record, const HeaderList& sentHeaders, const QStringList& serverModels)
{
    FailureContext context;
    context.sentHeaders = sentHeaders;
    context.serverModels = serverModels;
    return failureHint(record, context);
}

QString failureHint(const RequestRecord& record, const FailureContext& context)
{
    const ApiFormat format = context.backend ? apiFormat(*context.backend) : ApiFormat::OpenAi;
    const QString target = context.url.isEmpty() ? phrase("FailureHint", "the server") : hostPort(context.url);
    const QString proxy
        = context.url.isEmpty() || !context.transportKnown ? QString() : proxyInUse(context.url, context.transport);
    // Connection-level failures may be the proxy's, not the server's: say which proxy was used.
    const QString viaProxy = proxy.isEmpty()
        ? QString()
        : phrase("FailureHint",
            " The request went through the proxy %1 (target.proxy is \"%2\"); set target.proxy to "
            "\"none\" to bypass it, or add %3 to no_proxy.")
              .arg(proxy,
                  context.transport.proxyMode == ProxyMode::System ? QStringLiteral("system")
                                                                   : phrase("FailureHint", "a URL"),
                  context.url.host());
    const Timeouts& t = context.transport.timeouts;
    // One sentence per timeout, so that each language names it its own way.
    auto timeoutHint = [&](const QString& sentence, const char* key, double seconds) {
        const QString setting = context.transportKnown
            ? QStringLiteral("target.timeouts.%1 = %2 s").arg(QLatin1String(key)).arg(seconds)
            : QStringLiteral("target.timeouts.%1").arg(QLatin1String(key));
        return sentence.arg(setting) + viaProxy;
    };
    switch (record.failure) {
    case FailureClass::None:
        return {};
    case FailureClass::HttpAuth:
        return sentAuthorization(context.sentHeaders)
            ? phrase("FailureHint",
                "The server refused the key that was sent (an Authorization: Bearer header was sent). "
                "Check that the key is valid for this server.")
            : phrase("FailureHint",
                "No Authorization header was sent. Set target.api_key (${ENV_VAR}, file:PATH or a "
                "literal) or OPENAI_API_KEY.");
    case FailureClass::HttpNotFound:
        return context.serverModels.isEmpty()
            ? phrase("FailureHint", "Check the endpoint path (target.endpoint) and the model id (target.model).")
            : phrase("FailureHint", "Check the endpoint path and the model id; the server lists: %1.")
                  .arg(context.serverModels.join(QStringLiteral(", ")));
    case FailureClass::HttpRateLimited:
        if (const auto& after = record.response.retryAfterS)
            return phrase("FailureHint",
                "The server rate-limits this client and asks it to wait %1 s (Retry-After): lower the rate or "
                "raise the quota.")
                .arg(*after);
        return phrase("FailureHint", "The server rate-limits this client: lower the rate or raise the quota.");
    case FailureClass::HttpServerError:
        if (record.httpStatus == 503 && record.response.retryAfterS)
            return phrase("FailureHint",
                       "The server is shedding load: HTTP 503 with Retry-After %1 s asks clients to come back "
                       "later instead of queueing them. This load is past what it accepts; lower it.")
                       .arg(*record.response.retryAfterS)
                + viaProxy;
        if (record.httpStatus == 503)
            return phrase("FailureHint",
                       "The server is unavailable (HTTP 503): it is overloaded, still starting, or has no "
                       "healthy worker; see its log.")
                + viaProxy;
        if (record.httpStatus == 502 || record.httpStatus == 504)
            return phrase("FailureHint",
                       "A gateway in front of the model server answered HTTP %1: the server behind it did not "
                       "answer in time or at all (overloaded, restarting or down); see both logs.")
                       .arg(record.httpStatus)
                + viaProxy;
        return phrase("FailureHint",
                   "The server failed internally: see its log; at high load this is often an out-of-memory "
                   "or a crashed worker.")
            + viaProxy;
    case FailureClass::HttpOther:
        if (record.response.contextExceeded) {
            if (context.maxModelLen)
                return phrase("FailureHint",
                    "The prompt and max_tokens together exceed the model's context (max_model_len %1, from "
                    "/v1/models): lower the input and output lengths.")
                    .arg(*context.maxModelLen);
            if (record.response.contextLimit)
                return phrase("FailureHint",
                    "The prompt and max_tokens together exceed the model's maximum context length (%1 tokens, "
                    "as the server says): lower the input and output lengths.")
                    .arg(*record.response.contextLimit);
            return phrase("FailureHint",
                "The prompt and max_tokens together exceed the model's maximum context length: lower the "
                "input and output lengths.");
        }
        if (record.httpStatus == 413)
            return phrase("FailureHint",
                       "HTTP 413 Payload Too Large: the request body (the prompt) is larger than the server, or a "
                       "proxy in front of it, accepts. Use shorter prompts or raise that body limit.")
                + viaProxy;
        if (record.httpStatus >= 300 && record.httpStatus < 400) {
            if (!record.response.location.isEmpty())
                return phrase("FailureHint",
                    "The server answered with a redirect (HTTP %1) to %2. Requests are not redirected, so the "
                    "key never goes to another address: if that is the right server, set target.base_url to "
                    "its address.")
                    .arg(record.httpStatus)
                    .arg(record.response.location);
            return phrase("FailureHint",
                "The server answered with a redirect (HTTP %1). Requests are not redirected, so the "
                "key never goes to another address: set target.base_url to the final address.")
                .arg(record.httpStatus);
        }
        return phrase("FailureHint", "Unexpected HTTP status; the message shows the start of the body.") + viaProxy;
    case FailureClass::ConnectionRefused:
        return phrase("FailureHint", "Nothing listens on %1: the server is down or the port is wrong.").arg(target)
            + viaProxy;
    case FailureClass::HostNotFound:
        return phrase("FailureHint", "The host name does not resolve: check target.base_url.") + viaProxy;
    case FailureClass::Tls:
        if (context.transportKnown && !context.transport.tlsVerify)
            return phrase("FailureHint",
                       "TLS failed although certificates are not checked (target.tls_verify is false): the "
                       "server may not speak TLS on this port; check the scheme (http vs https).")
                + viaProxy;
        return phrase("FailureHint",
                   "TLS failed: the server's certificate was not accepted (target.tls_verify is true), or it "
                   "does not speak TLS on this port. Check the scheme (http vs https); for a self-signed "
                   "certificate set target.tls_verify to false.")
            + viaProxy;
    case FailureClass::ConnectTimeout:
        return timeoutHint(
            phrase("FailureHint",
                "The connect timeout (%1) fired: the server is overloaded or the timeout is too short for this load."),
            "connect_s", t.connectS);
    case FailureClass::FirstByteTimeout:
        return timeoutHint(phrase("FailureHint",
                               "The first-token timeout (%1) fired: the server is overloaded or the timeout is too "
                               "short for this load."),
            "first_token_s", t.firstTokenS);
    case FailureClass::IdleTimeout:
        return timeoutHint(phrase("FailureHint",
                               "The between-chunks timeout (%1) fired: the server is overloaded or the timeout is too "
                               "short for this load."),
            "idle_s", t.idleS);
    case FailureClass::TotalTimeout:
        return timeoutHint(
            phrase("FailureHint",
                "The total timeout (%1) fired: the server is overloaded or the timeout is too short for this load."),
            "total_s", t.totalS);
    case FailureClass::ErrorBody:
        return phrase("FailureHint", "HTTP 200 but the body was an error object: the message shows it.");
    case FailureClass::MalformedStream:
        if (!record.response.contentEncoding.isEmpty())
            return phrase("FailureHint",
                       "The server compressed the body (Content-Encoding: %1) although the request asked for "
                       "none: turn compression off for this route in the server or the proxy in front of it.")
                       .arg(record.response.contentEncoding)
                + viaProxy;
        return phrase("FailureHint",
                   "The response is not a valid OpenAI-style event stream: the message says what is wrong "
                   "(invalid UTF-8 or JSON, and where) and shows the bytes; check the backend "
                   "(target.backend) and endpoint.")
            + viaProxy;
    case FailureClass::NoChoices:
        switch (format) {
        case ApiFormat::Responses:
            return phrase("FailureHint",
                       "The response is not a Responses API stream (no \"output\" text): check the backend "
                       "(target.backend) and endpoint; the message shows the first 300 bytes that came back.")
                + viaProxy;
        case ApiFormat::Messages:
            return phrase("FailureHint",
                       "The response is not a Messages API stream (no \"content\" text): check the backend "
                       "(target.backend) and endpoint; the message shows the first 300 bytes that came back.")
                + viaProxy;
        case ApiFormat::Embeddings:
            return phrase("FailureHint",
                       "The response is not an embeddings reply (no \"data\"): check the backend "
                       "(target.backend) and endpoint; the message shows the first 300 bytes that came back.")
                + viaProxy;
        case ApiFormat::OpenAi:
            break;
        }
        return phrase("FailureHint",
                   "The response is not an OpenAI-style stream (no \"choices\"): check the backend "
                   "(target.backend) and endpoint; the message shows the first 300 bytes that came back.")
            + viaProxy;
    case FailureClass::StreamCut:
        return phrase("FailureHint", "The server closed the stream before %1: it may have crashed or restarted.")
                   .arg(endEventName(format))
            + viaProxy;
    case FailureClass::Network:
        return phrase("FailureHint", "A network error: the message has the details.") + viaProxy;
    case FailureClass::ResponseTooLarge:
        return phrase("FailureHint",
                   "The server sent more than the client keeps for one request (%1 MiB per response, "
                   "%2 MiB per event): it is flooding or not ending its lines; check the backend and "
                   "endpoint.")
                   .arg(ResponseAccumulator::maxResponseBytes / (1024 * 1024))
                   .arg(SseParser::maxEventBytes / (1024 * 1024))
            + viaProxy;
    case FailureClass::Cancelled:
        return {};
    }
    return {};
}

QStringList proxyEnvironmentNotes(const QUrl& url, ProxyMode mode)
{
    QStringList notes;
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QStringList names
        = { QStringLiteral("http_proxy"), QStringLiteral("HTTP_PROXY"), QStringLiteral("https_proxy"),
              QStringLiteral("HTTPS_PROXY"), QStringLiteral("all_proxy"), QStringLiteral("ALL_PROXY") };
    QStringList set;
    for (const QString& n : names) {
        if (env.contains(n) && !env.value(n).isEmpty())
            set << QStringLiteral("%1=%2").arg(n, QUrl(env.value(n)).toString(QUrl::RemoveUserInfo));
    }
    if (set.isEmpty())
        return notes;
    const QString noProxy = env.value(QStringLiteral("no_proxy"), env.value(QStringLiteral("NO_PROXY")));
    if (mode == ProxyMode::System) {
        notes << phrase("FailureHint",
            "Proxy variables are set (%1) and target.proxy is \"system\": requests to %2 go "
            "through that proxy unless no_proxy (%3) matches. Set target.proxy to \"none\" to "
            "bypass it.")
                     .arg(set.join(QStringLiteral(", ")), url.host(),
                         noProxy.isEmpty() ? phrase("FailureHint", "unset") : noProxy);
    } else if (mode == ProxyMode::None) {
        notes << phrase("FailureHint",
            "Proxy variables are set (%1) but ignored (target.proxy is \"none\"); set it to "
            "\"system\" if %2 is only reachable through the proxy.")
                     .arg(set.join(QStringLiteral(", ")), url.host());
    }
    return notes;
}

Probe::Probe(QObject* parent)
    : QObject(parent)
    , m_stillWaiting(new QTimer(this))
    , m_retry(new QTimer(this))
{
    qRegisterMetaType<kp::ProbeReport>();
    qRegisterMetaType<kp::ProbeProgress>();
    connect(m_stillWaiting, &QTimer::timeout, this, [this] {
        ProbeProgress p;
        p.kind = ProbeProgress::Kind::StillWaiting;
        p.check = checkName(m_step);
        p.url = m_tryUrl;
        p.tryNumber = m_try;
        p.maxTries = m_options.maxTries;
        p.seconds = double(steadyNowNs() - m_tryStartNs) / 1e9;
        p.limitS = m_options.checkTimeoutS;
        Q_EMIT progress(p);
    });
    m_retry->setSingleShot(true);
    connect(m_retry, &QTimer::timeout, this, &Probe::tryCheck);
}

Probe::~Probe() = default;

void Probe::start(const ProbeTarget& target)
{
    start(target, probeOptionsFor(target.transport.timeouts));
}

void Probe::start(const ProbeTarget& target, const ProbeOptions& options)
{
    stopWaiting();
    m_retry->stop();
    delete m_inFlight.data();
    m_target = target;
    m_options = options;
    m_options.maxTries = std::max(1, m_options.maxTries);
    m_report = {};
    m_report.notes = proxyEnvironmentNotes(target.target.requestUrl(), target.transport.proxyMode);
    m_report.notes << (sentAuthorization(target.headers)
            ? phrase("Probe", "An API key is configured and sent as Authorization: Bearer.")
            : phrase("Probe", "No API key is configured."));
    // A manager per start: the target's proxy and TLS options may have changed since the last.
    delete m_nam;
    m_nam = NetworkClient(target.transport, target.headers).makeManager(this);
    beginCheck(Step::Health);
}

FailureContext Probe::hintContext() const
{
    FailureContext context;
    context.sentHeaders = m_target.headers;
    context.serverModels = m_report.models;
    context.maxModelLen = m_report.maxModelLen;
    context.url = m_target.target.requestUrl();
    context.transport = m_target.transport;
    context.transportKnown = true;
    context.backend = m_target.target.backend;
    return context;
}

QString Probe::checkName(Step step)
{
    switch (step) {
    case Step::Health:
        return QStringLiteral("health");
    case Step::Models:
        return QStringLiteral("models");
    case Step::Completion:
        break;
    }
    return QStringLiteral("completion");
}

void Probe::beginCheck(Step step)
{
    m_step = step;
    m_try = 1;
    tryCheck();
}

void Probe::tryCheck()
{
    switch (m_step) {
    case Step::Health:
        getHealth();
        break;
    case Step::Models:
        getModels();
        break;
    case Step::Completion:
        postCompletion();
        break;
    }
}

void Probe::startWaiting(const QString& url)
{
    m_tryUrl = url;
    m_tryStartNs = steadyNowNs();
    if (m_try == 1) {
        ProbeProgress p;
        p.check = checkName(m_step);
        p.url = url;
        p.maxTries = m_options.maxTries;
        p.limitS = m_options.checkTimeoutS;
        Q_EMIT progress(p);
    }
    if (m_options.stillWaitingS > 0)
        m_stillWaiting->start(toMs(m_options.stillWaitingS));
}

void Probe::stopWaiting()
{
    m_stillWaiting->stop();
}

void Probe::endTry(Outcome outcome)
{
    stopWaiting();
    m_inFlight = nullptr;
    outcome.check.tries = m_try;
    if (!outcome.check.ok && outcome.transient && m_try < m_options.maxTries) {
        ProbeProgress p;
        p.kind = ProbeProgress::Kind::Retrying;
        p.check = outcome.check.name;
        p.url = outcome.check.url;
        p.tryNumber = ++m_try;
        p.maxTries = m_options.maxTries;
        p.seconds = retryDelayS(m_try, outcome.retryAfterS, m_options);
        p.limitS = m_options.checkTimeoutS;
        p.reason = outcome.reason;
        p.retryAfter = outcome.retryAfterS.has_value();
        Q_EMIT progress(p);
        m_retry->start(toMs(p.seconds));
        return;
    }
    m_report.checks << outcome.check;
    switch (m_step) {
    case Step::Health:
        if (!outcome.skipRest.isEmpty()) { // unreachable: the other checks would say the same
            for (const char* name : { "models", "completion" }) {
                ProbeCheck skipped;
                skipped.name = QString::fromLatin1(name);
                skipped.skipped = true;
                skipped.detail = outcome.skipRest;
                m_report.checks << skipped;
            }
            Q_EMIT finished(m_report);
            return;
        }
        beginCheck(Step::Models);
        return;
    case Step::Models:
        beginCheck(Step::Completion);
        return;
    case Step::Completion:
        break;
    }
    Q_EMIT finished(m_report);
}

QNetworkReply* Probe::get(const QUrl& url, bool withHeaders)
{
    const NetworkClient client(m_target.transport, withHeaders ? m_target.headers : HeaderList {});
    QNetworkReply* reply = m_nam->get(client.request(url, 0, withHeaders));
    capBody(reply);
    // The probe's own limits, not the load's: to open the connection, and for the whole answer.
    // Precise: a coarse timer may fire 5 % early, and the message says "within N s".
    auto* connecting = new QTimer(reply);
    connecting->setSingleShot(true);
    connecting->setTimerType(Qt::PreciseTimer);
    connect(connecting, &QTimer::timeout, reply, [reply] {
        reply->setProperty(kDeadlineProperty, QStringLiteral("connect"));
        reply->abort();
    });
    connect(reply, &QNetworkReply::requestSent, connecting, &QTimer::stop);
    connect(reply, &QNetworkReply::metaDataChanged, connecting, &QTimer::stop);
    connecting->start(toMs(m_options.connectTimeoutS));
    auto* answering = new QTimer(reply);
    answering->setSingleShot(true);
    answering->setTimerType(Qt::PreciseTimer);
    connect(answering, &QTimer::timeout, reply, [reply] {
        if (reply->property(kDeadlineProperty).isNull())
            reply->setProperty(kDeadlineProperty, QStringLiteral("check"));
        reply->abort();
    });
    answering->start(toMs(m_options.checkTimeoutS));
    m_inFlight = reply;
    startWaiting(url.toString(QUrl::RemoveUserInfo));
    return reply;
}

// A try that ran out of the probe's time: the detail and hint say which limit, else nothing.
bool Probe::deadlineOutcome(QNetworkReply* reply, Outcome& outcome) const
{
    const QString deadline = reply->property(kDeadlineProperty).toString();
    if (deadline.isEmpty())
        return false;
    outcome.check.detail = deadline == QLatin1String("connect")
        ? connectTimeoutDetail(reply->url(), m_options.connectTimeoutS)
        : noAnswerDetail(reply->url(), m_options.checkTimeoutS);
    outcome.check.hint = deadline == QLatin1String("connect") ? connectTimeoutHint(m_options.connectTimeoutS)
                                                              : noAnswerHint(m_options.checkTimeoutS);
    return true;
}

void Probe::getHealth()
{
    // /health sits at the server root, not under /v1.
    QUrl url(m_target.target.baseUrl);
    QString path = url.path();
    while (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    if (path.endsWith(QLatin1String("/v1")))
        path.chop(3);
    url.setPath(path + QStringLiteral("/health"));
    // The server's root, not the API: no key goes there.
    whenFinished(this, get(url, false), [this](QNetworkReply* reply) { endTry(healthOutcome(reply)); });
}

Probe::Outcome Probe::healthOutcome(QNetworkReply* reply)
{
    Outcome o;
    ProbeCheck& c = o.check;
    const int status = beginReplyCheck(c, QStringLiteral("health"), reply, m_tryStartNs);
    c.ok = status == 200;
    if (status > 0) {
        // The status of /health decides nothing (gateways often lack it): not worth another try.
        c.detail = QStringLiteral("HTTP %1").arg(status);
        if (!c.ok)
            c.hint = phrase("Probe", "No /health endpoint (common behind gateways); the other checks decide.");
        return o;
    }
    if (deadlineOutcome(reply, o)) {
        o.skipRest = reply->property(kDeadlineProperty).toString() == QLatin1String("connect")
            ? phrase("Probe", "skipped: server unreachable")
            : phrase("Probe", "skipped: the server did not answer /health");
        return o;
    }
    c.detail = reply->errorString();
    o.transient = reply->error() == QNetworkReply::RemoteHostClosedError;
    o.reason = c.detail;
    if (reply->error() == QNetworkReply::SslHandshakeFailedError) {
        c.detail = QStringLiteral("TLS failed with %1: %2").arg(hostPort(reply->url()), c.detail);
        RequestRecord tls;
        tls.failure = FailureClass::Tls;
        c.hint = failureHint(tls, hintContext());
    } else {
        c.hint = reply->error() == QNetworkReply::ConnectionRefusedError
            ? phrase("Probe", "Nothing listens on %1: the server is down or the port is wrong.")
                  .arg(hostPort(reply->url()))
            : phrase("Probe", "The server could not be reached: check target.base_url and the network.");
    }
    if (const QString proxy = proxyInUse(reply->url(), m_target.transport); !proxy.isEmpty())
        c.hint += QLatin1Char(' ')
            + phrase("Probe",
                "The request went through the proxy %1; set target.proxy to \"none\" to bypass it, or add %2 "
                "to no_proxy.")
                  .arg(proxy, reply->url().host());
    o.skipRest = phrase("Probe", "skipped: server unreachable");
    return o;
}

void Probe::getModels()
{
    whenFinished(this, get(m_target.target.urlFor(QStringLiteral("/v1/models")), true),
        [this](QNetworkReply* reply) { endTry(modelsOutcome(reply)); });
}

Probe::Outcome Probe::modelsOutcome(QNetworkReply* reply)
{
    Outcome o;
    ProbeCheck& c = o.check;
    const int status = beginReplyCheck(c, QStringLiteral("models"), reply, m_tryStartNs);
    const QByteArray body = reply->readAll();
    if (reply->property("kneepoint_too_large").toBool()) {
        c.detail = phrase("Probe", "HTTP %1 but the body passed %2 MiB: %3")
                       .arg(status)
                       .arg(kMaxProbeBodyBytes / (1024 * 1024))
                       .arg(firstBytes(body));
        c.hint = phrase("Probe", "This is not an OpenAI-compatible /v1/models answer: check target.base_url.");
    } else if (status <= 0 && deadlineOutcome(reply, o)) {
        return o;
    } else if (status == 200) {
        QStringList models;
        const QJsonArray data = QJsonDocument::fromJson(body).object().value(QLatin1String("data")).toArray();
        const QString wantedModel = m_target.target.requestModel();
        m_report.maxModelLen.reset();
        for (const auto& m : data) {
            const QJsonObject model = m.toObject();
            models << model.value(QLatin1String("id")).toString();
            const QJsonValue length = model.value(QLatin1String("max_model_len"));
            if (length.isDouble() && length.toDouble() >= 1 && length.toDouble() <= 1e9
                && (!m_report.maxModelLen || models.constLast() == wantedModel))
                m_report.maxModelLen = length.toInt();
        }
        m_report.models = models;
        c.ok = !models.isEmpty();
        c.detail = c.ok ? phrase("Probe", "models: %1").arg(models.join(QStringLiteral(", ")))
                        : phrase("Probe", "HTTP 200 but no model list: %1").arg(firstBytes(body));
        const QString wanted = m_target.target.requestModel();
        if (c.ok && !wanted.isEmpty() && !models.contains(wanted)) {
            c.ok = false;
            c.hint = phrase("Probe",
                "The configured model \"%1\" is not among them: set target.model to one of "
                "these.")
                         .arg(wanted);
        }
    } else {
        c.detail = status > 0 ? QStringLiteral("HTTP %1: %2").arg(status).arg(firstBytes(body)) : reply->errorString();
        RequestRecord r;
        r.httpStatus = status;
        r.failure = status == 401 || status == 403 ? FailureClass::HttpAuth
            : status == 404                        ? FailureClass::HttpNotFound
            : status == 429                        ? FailureClass::HttpRateLimited
            : status >= 500                        ? FailureClass::HttpServerError
            : status > 0                           ? FailureClass::HttpOther
                                                   : FailureClass::Network;
        if (status >= 300 && status < 400)
            r.response.location = inertExcerpt(reply->rawHeader("Location"), ResponseHeaders::maxValueBytes);
        c.hint = failureHint(r, hintContext());
        const ReplyRetry retry = replyRetry(reply, QDateTime::currentDateTimeUtc());
        o.transient = retry.transient;
        o.retryAfterS = retry.retryAfterS;
        o.reason = status > 0 ? QStringLiteral("HTTP %1").arg(status) : c.detail;
    }
    return o;
}

void Probe::postCompletion()
{
    RequestTemplate t;
    t.backend = m_target.target.backend;
    t.url = m_target.target.requestUrl();
    t.model = !m_target.target.model.isEmpty() ? m_target.target.requestModel() : m_report.models.value(0);
    t.headers = m_target.headers;
    t.stream = !isEmbeddingsBackend(t.backend); // embeddings are never streamed
    Prompt p;
    p.text = QStringLiteral("Say hello");
    p.promptTokens = 2;
    p.outputTokens = 4;
    HttpRequest req;
    req.index = 0;
    req.requestId = QStringLiteral("kneepoint-probe");
    req.url = t.url;
    req.body = buildRequestBody(t, p);
    req.headers = t.headers;
    req.chat = isChatBackend(t.backend);
    req.format = apiFormat(t.backend);
    req.stream = t.stream;
    req.promptTokens = p.promptTokens;
    req.scheduledNs = steadyNowNs();

    // The probe's own limits: no try waits longer than the check timeout, whatever the load allows.
    TransportOptions options = m_target.transport;
    options.timeouts.connectS = m_options.connectTimeoutS;
    options.timeouts.firstTokenS = m_options.checkTimeoutS;
    options.timeouts.totalS = m_options.checkTimeoutS;
    if (!(options.timeouts.idleS > 0) || options.timeouts.idleS > m_options.checkTimeoutS)
        options.timeouts.idleS = m_options.checkTimeoutS;
    auto* worker = new HttpWorker(options);
    worker->setParent(this);
    m_inFlight = worker;
    connect(worker, &HttpWorker::finished, this, [this, worker, url = t.url](const RequestRecord& r) {
        worker->deleteLater();
        endTry(completionOutcome(r, url));
    });
    startWaiting(t.url.toString(QUrl::RemoveUserInfo));
    worker->start(req);
}

Probe::Outcome Probe::completionOutcome(const RequestRecord& r, const QUrl& url)
{
    Outcome o;
    ProbeCheck& c = o.check;
    c.name = QStringLiteral("completion");
    c.url = url.toString(QUrl::RemoveUserInfo);
    c.ok = r.success();
    c.latencyMs = double(r.endNs - r.sentNs) / 1e6;
    if (c.ok && r.firstTokenNs < 0) {
        c.detail = phrase("Probe", "answered in %1 ms, not streamed").arg(c.latencyMs, 0, 'f', 1);
        return o;
    }
    if (c.ok) {
        const QString ttft = QString::number(double(r.firstTokenNs - r.sentNs) / 1e6, 'f', 1);
        c.detail = r.outputTokens == 1
            ? phrase("Probe", "streamed 1 token, TTFT %1 ms").arg(ttft)
            : phrase("Probe", "streamed %1 tokens, TTFT %2 ms").arg(r.outputTokens).arg(ttft);
        return o;
    }
    switch (r.failure) {
    case FailureClass::ConnectTimeout:
        c.detail = connectTimeoutDetail(url, m_options.connectTimeoutS);
        c.hint = connectTimeoutHint(m_options.connectTimeoutS);
        break;
    case FailureClass::FirstByteTimeout:
    case FailureClass::TotalTimeout:
        c.detail = r.httpStatus > 0 && r.failure == FailureClass::TotalTimeout
            ? phrase("Probe", "the answer from %1 did not end within %2 s")
                  .arg(c.url, QString::number(m_options.checkTimeoutS))
            : r.httpStatus > 0
            ? phrase("Probe", "no first token from %1 within %2 s").arg(c.url, QString::number(m_options.checkTimeoutS))
            : noAnswerDetail(url, m_options.checkTimeoutS);
        c.hint = noAnswerHint(m_options.checkTimeoutS);
        break;
    default:
        c.detail = r.errorMessage;
        c.hint = failureHint(r, hintContext());
        break;
    }
    o.transient = isTransientFailure(r);
    o.reason = r.httpStatus > 0 && r.failure >= FailureClass::HttpAuth && r.failure <= FailureClass::HttpOther
        ? QStringLiteral("HTTP %1").arg(r.httpStatus)
        : inertText(r.errorMessage);
    if (o.transient)
        o.retryAfterS = r.response.retryAfterS;
    return o;
}

} // namespace kp
