#include "client/probe.h"

#include "client/httpworker.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QProcessEnvironment>

namespace kp {

namespace {

QString firstBytes(const QByteArray& body, int n = 300)
{
    QString s = QString::fromUtf8(body.left(n)).simplified();
    if (body.size() > n)
        s += QStringLiteral("…");
    return s;
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

QString failureHint(const RequestRecord& record, const HeaderList& sentHeaders, const QStringList& serverModels)
{
    switch (record.failure) {
    case FailureClass::None:
        return {};
    case FailureClass::HttpAuth:
        return sentAuthorization(sentHeaders)
            ? QStringLiteral("The server refused the key that was sent (an Authorization: Bearer header was sent). "
                             "Check that the key is valid for this server.")
            : QStringLiteral("No Authorization header was sent. Set target.api_key (a literal or ${ENV_VAR}) or "
                             "OPENAI_API_KEY.");
    case FailureClass::HttpNotFound:
        return serverModels.isEmpty()
            ? QStringLiteral("Check the endpoint path (target.endpoint) and the model id (target.model).")
            : QStringLiteral("Check the endpoint path and the model id; the server lists: %1.")
                  .arg(serverModels.join(QStringLiteral(", ")));
    case FailureClass::HttpRateLimited:
        return QStringLiteral("The server rate-limits this client: lower the rate or raise the quota.");
    case FailureClass::HttpServerError:
        return QStringLiteral("The server failed internally: see its log; at high load this is often an out-of-memory "
                              "or a crashed worker.");
    case FailureClass::HttpOther:
        return QStringLiteral("Unexpected HTTP status; the message shows the start of the body.");
    case FailureClass::ConnectionRefused:
        return QStringLiteral("Nothing listens there: the server is down or the port is wrong.");
    case FailureClass::HostNotFound:
        return QStringLiteral("The host name does not resolve: check target.base_url.");
    case FailureClass::Tls:
        return QStringLiteral("TLS failed: check the scheme (http vs https) or set target.tls_verify false for a "
                              "self-signed certificate.");
    case FailureClass::ConnectTimeout:
    case FailureClass::FirstByteTimeout:
    case FailureClass::IdleTimeout:
    case FailureClass::TotalTimeout:
        return QStringLiteral("A deadline fired (the message says which, and its value): the server is overloaded or "
                              "the timeout (target.timeouts) is too short for this load.");
    case FailureClass::ErrorBody:
        return QStringLiteral("HTTP 200 but the body was an error object: the message shows it.");
    case FailureClass::MalformedStream:
    case FailureClass::NoChoices:
        return QStringLiteral("The response is not an OpenAI-style stream (no \"choices\"): check the backend "
                              "(target.backend) and endpoint; the message shows what came back.");
    case FailureClass::StreamCut:
        return QStringLiteral("The server closed the stream before [DONE]: it may have crashed or restarted.");
    case FailureClass::Network:
        return QStringLiteral("A network error: the message has the details.");
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
        notes << QStringLiteral("Proxy variables are set (%1) and target.proxy is \"system\": requests to %2 go "
                                "through that proxy unless no_proxy (%3) matches. Set target.proxy to \"none\" to "
                                "bypass it.")
                     .arg(set.join(QStringLiteral(", ")), url.host(),
                         noProxy.isEmpty() ? QStringLiteral("unset") : noProxy);
    } else if (mode == ProxyMode::None) {
        notes << QStringLiteral("Proxy variables are set (%1) but ignored (target.proxy is \"none\"); set it to "
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
    m_report.notes << (sentAuthorization(target.headers) ? QStringLiteral("An API key is configured and sent as "
                                                                          "Authorization: Bearer.")
                                                         : QStringLiteral("No API key is configured."));
    if (!m_nam) {
        m_nam = new QNetworkAccessManager(this);
        if (target.transport.proxyMode == ProxyMode::None)
            m_nam->setProxy(QNetworkProxy::NoProxy);
        else if (target.transport.proxyMode == ProxyMode::Url)
            m_nam->setProxy(proxyFromUrl(target.transport.proxyUrl));
    }
    getHealth();
}

QNetworkReply* Probe::get(const QString& path)
{
    QNetworkRequest req(m_target.target.urlFor(path));
    req.setHeader(QNetworkRequest::UserAgentHeader, QByteArrayLiteral("kneepoint/" KNEEPOINT_VERSION));
    for (const auto& [name, value] : m_target.headers)
        req.setRawHeader(name, value);
    const double timeout = m_target.transport.timeouts.connectS > 0 ? m_target.transport.timeouts.connectS : 10.0;
    req.setTransferTimeout(static_cast<int>(timeout * 1000));
    return m_nam->get(req);
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
    QNetworkRequest req(url);
    req.setTransferTimeout(10000);
    auto* timer = new QElapsedTimer;
    timer->start();
    QNetworkReply* reply = m_nam->get(req);
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
                c.hint = QStringLiteral("No /health endpoint (common behind gateways); the other checks decide.");
        } else {
            c.detail = reply->errorString();
            c.hint = reply->error() == QNetworkReply::ConnectionRefusedError
                ? QStringLiteral("Nothing listens on %1: the server is down or the port is wrong.")
                      .arg(hostPort(reply->url()))
                : QStringLiteral("The server could not be reached: check target.base_url and the network.");
        }
        reply->deleteLater();
        m_report.checks << c;
        if (status <= 0) { // unreachable: the other checks would say the same
            for (const char* name : { "models", "completion" }) {
                ProbeCheck skipped;
                skipped.name = QString::fromLatin1(name);
                skipped.skipped = true;
                skipped.detail = QStringLiteral("skipped: server unreachable");
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
        if (status == 200) {
            const QJsonArray data = QJsonDocument::fromJson(body).object().value(QLatin1String("data")).toArray();
            for (const auto& m : data)
                m_report.models << m.toObject().value(QLatin1String("id")).toString();
            c.ok = !m_report.models.isEmpty();
            c.detail = c.ok ? QStringLiteral("models: %1").arg(m_report.models.join(QStringLiteral(", ")))
                            : QStringLiteral("HTTP 200 but no model list: %1").arg(firstBytes(body));
            const QString wanted = m_target.target.requestModel();
            if (c.ok && !wanted.isEmpty() && !m_report.models.contains(wanted)) {
                c.ok = false;
                c.hint = QStringLiteral("The configured model \"%1\" is not among them: set target.model to one of "
                                        "these.")
                             .arg(wanted);
            }
        } else {
            c.detail
                = status > 0 ? QStringLiteral("HTTP %1: %2").arg(status).arg(firstBytes(body)) : reply->errorString();
            RequestRecord r;
            r.failure = status == 401 || status == 403 ? FailureClass::HttpAuth
                : status == 404                        ? FailureClass::HttpNotFound
                                                       : FailureClass::HttpOther;
            c.hint = failureHint(r, m_target.headers, {});
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
            c.detail = QStringLiteral("streamed %1 token%2, TTFT %3 ms")
                           .arg(r.outputTokens)
                           .arg(r.outputTokens == 1 ? QString() : QStringLiteral("s"))
                           .arg(double(r.firstTokenNs - r.sentNs) / 1e6, 0, 'f', 1);
        } else {
            c.detail = r.errorMessage;
            c.hint = failureHint(r, m_target.headers, m_report.models);
        }
        m_report.checks << c;
        worker->deleteLater();
        Q_EMIT finished(m_report);
    });
    worker->start(req);
}

} // namespace kp
