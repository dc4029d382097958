#include "client/probe.h"

#include "client/httpworker.h"
#include "client/networkclient.h"
#include "metrics/inerttext.h"
#include "metrics/phrase.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkProxyFactory>
#include <QNetworkReply>
#include <QProcessEnvironment>
#include <QSslError>

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

} // namespace

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
        return phrase("FailureHint",
                   "The response is not an OpenAI-style stream (no \"choices\"): check the backend "
                   "(target.backend) and endpoint; the message shows the first 300 bytes that came back.")
            + viaProxy;
    case FailureClass::StreamCut:
        return phrase("FailureHint", "The server closed the stream before [DONE]: it may have crashed or restarted.")
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
{
    qRegisterMetaType<kp::ProbeReport>();
}

Probe::~Probe() = default;

void Probe::start(const ProbeTarget& target)
{
    m_target = target;
    m_report = {};
    m_report.notes = proxyEnvironmentNotes(target.target.requestUrl(), target.transport.proxyMode);
    m_report.notes << (sentAuthorization(target.headers)
            ? phrase("Probe", "An API key is configured and sent as Authorization: Bearer.")
            : phrase("Probe", "No API key is configured."));
    // A manager per start: the target's proxy and TLS options may have changed since the last.
    delete m_nam;
    m_nam = NetworkClient(target.transport, target.headers).makeManager(this);
    getHealth();
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
    return context;
}

QNetworkReply* Probe::get(const QString& path)
{
    const double timeout = m_target.transport.timeouts.connectS > 0 ? m_target.transport.timeouts.connectS : 10.0;
    const NetworkClient client(m_target.transport, m_target.headers);
    QNetworkReply* reply = m_nam->get(client.request(m_target.target.urlFor(path), static_cast<int>(timeout * 1000)));
    capBody(reply);
    return reply;
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
    const QNetworkRequest req = NetworkClient(m_target.transport, {}).request(url, 10000, false);
    auto* timer = new QElapsedTimer;
    timer->start();
    QNetworkReply* reply = m_nam->get(req);
    capBody(reply);
    connect(reply, &QNetworkReply::finished, this, [this, reply, timer] {
        ProbeCheck c;
        c.name = QStringLiteral("health");
        c.url = reply->url().toString(QUrl::RemoveUserInfo);
        c.latencyMs = double(timer->nsecsElapsed()) / 1e6;
        delete timer;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        c.ok = status == 200;
        if (status > 0) {
            c.detail = QStringLiteral("HTTP %1").arg(status);
            if (!c.ok)
                c.hint = phrase("Probe", "No /health endpoint (common behind gateways); the other checks decide.");
        } else {
            c.detail = reply->errorString();
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
        }
        reply->deleteLater();
        m_report.checks << c;
        if (status <= 0) { // unreachable: the other checks would say the same
            for (const char* name : { "models", "completion" }) {
                ProbeCheck skipped;
                skipped.name = QString::fromLatin1(name);
                skipped.skipped = true;
                skipped.detail = phrase("Probe", "skipped: server unreachable");
                m_report.checks << skipped;
            }
            Q_EMIT finished(m_report);
            return;
        }
        getModels();
    });
}

void Probe::getModels()
{
    auto* timer = new QElapsedTimer;
    timer->start();
    QNetworkReply* reply = get(QStringLiteral("/v1/models"));
    connect(reply, &QNetworkReply::finished, this, [this, reply, timer] {
        ProbeCheck c;
        c.name = QStringLiteral("models");
        c.url = reply->url().toString(QUrl::RemoveUserInfo);
        c.latencyMs = double(timer->nsecsElapsed()) / 1e6;
        delete timer;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray body = reply->readAll();
        if (reply->property("kneepoint_too_large").toBool()) {
            c.detail = phrase("Probe", "HTTP %1 but the body passed %2 MiB: %3")
                           .arg(status)
                           .arg(kMaxProbeBodyBytes / (1024 * 1024))
                           .arg(firstBytes(body));
            c.hint = phrase("Probe", "This is not an OpenAI-compatible /v1/models answer: check target.base_url.");
        } else if (status == 200) {
            const QJsonArray data = QJsonDocument::fromJson(body).object().value(QLatin1String("data")).toArray();
            const QString wantedModel = m_target.target.requestModel();
            for (const auto& m : data) {
                const QJsonObject model = m.toObject();
                m_report.models << model.value(QLatin1String("id")).toString();
                const QJsonValue length = model.value(QLatin1String("max_model_len"));
                if (length.isDouble() && length.toDouble() >= 1 && length.toDouble() <= 1e9
                    && (!m_report.maxModelLen || m_report.models.constLast() == wantedModel))
                    m_report.maxModelLen = length.toInt();
            }
            c.ok = !m_report.models.isEmpty();
            c.detail = c.ok ? phrase("Probe", "models: %1").arg(m_report.models.join(QStringLiteral(", ")))
                            : phrase("Probe", "HTTP 200 but no model list: %1").arg(firstBytes(body));
            const QString wanted = m_target.target.requestModel();
            if (c.ok && !wanted.isEmpty() && !m_report.models.contains(wanted)) {
                c.ok = false;
                c.hint = phrase("Probe",
                    "The configured model \"%1\" is not among them: set target.model to one of "
                    "these.")
                             .arg(wanted);
            }
        } else {
            c.detail
                = status > 0 ? QStringLiteral("HTTP %1: %2").arg(status).arg(firstBytes(body)) : reply->errorString();
            RequestRecord r;
            r.httpStatus = status;
            r.failure = status == 401 || status == 403 ? FailureClass::HttpAuth
                : status == 404                        ? FailureClass::HttpNotFound
                : status == 429                        ? FailureClass::HttpRateLimited
                : status >= 500                        ? FailureClass::HttpServerError
                                                       : FailureClass::HttpOther;
            if (status >= 300 && status < 400)
                r.response.location = inertExcerpt(reply->rawHeader("Location"), ResponseHeaders::maxValueBytes);
            c.hint = failureHint(r, hintContext());
        }
        reply->deleteLater();
        m_report.checks << c;
        postCompletion();
    });
}

void Probe::postCompletion()
{
    RequestTemplate t;
    t.backend = m_target.target.backend;
    t.url = m_target.target.requestUrl();
    t.model = !m_target.target.model.isEmpty() ? m_target.target.requestModel() : m_report.models.value(0);
    t.headers = m_target.headers;
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
    req.promptTokens = p.promptTokens;
    req.scheduledNs = steadyNowNs();

    TransportOptions options = m_target.transport;
    if (options.timeouts.totalS <= 0)
        options.timeouts.totalS = 60;
    auto* worker = new HttpWorker(options);
    worker->setParent(this);
    connect(worker, &HttpWorker::finished, this, [this, worker, url = t.url](const RequestRecord& r) {
        ProbeCheck c;
        c.name = QStringLiteral("completion");
        c.url = url.toString(QUrl::RemoveUserInfo);
        c.ok = r.success();
        c.latencyMs = double(r.endNs - r.sentNs) / 1e6;
        if (c.ok) {
            const QString ttft = QString::number(double(r.firstTokenNs - r.sentNs) / 1e6, 'f', 1);
            c.detail = r.outputTokens == 1
                ? phrase("Probe", "streamed 1 token, TTFT %1 ms").arg(ttft)
                : phrase("Probe", "streamed %1 tokens, TTFT %2 ms").arg(r.outputTokens).arg(ttft);
        } else {
            c.detail = r.errorMessage;
            c.hint = failureHint(r, hintContext());
        }
        m_report.checks << c;
        worker->deleteLater();
        Q_EMIT finished(m_report);
    });
    worker->start(req);
}

} // namespace kp
