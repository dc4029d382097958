#include "client/tokenizeprepass.h"

#include "metrics/phrase.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

#include <cmath>
#include <functional>
#include <map>

namespace kp {

namespace {

constexpr int kInFlight = 8;

} // namespace

QUrl tokenizeUrl(const QUrl& requestUrl)
{
    QUrl url = requestUrl;
    QString path = url.path();
    for (const QString& endpoint : { QStringLiteral("/chat/completions"), QStringLiteral("/completions") }) {
        if (path.endsWith(endpoint)) {
            path.chop(endpoint.size());
            break;
        }
    }
    while (path.endsWith(u'/'))
        path.chop(1);
    if (path.endsWith(QLatin1String("/v1")))
        path.chop(3);
    url.setPath(path + QStringLiteral("/tokenize"));
    url.setQuery(QString());
    return url;
}

TokenizePrepass::TokenizePrepass(QObject* parent)
    : QObject(parent)
{
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        m_failure = phrase("TokenizePrepass", "no answer within %1 s").arg(m_timeoutMs / 1000.0);
        finish();
    });
}

TokenizePrepass::~TokenizePrepass()
{
    cancel();
}

void TokenizePrepass::start(
    const RequestTemplate& request, const TransportOptions& transport, std::vector<Prompt>* prompts, int timeoutMs)
{
    cancel();
    m_request = request;
    m_client.emplace(transport, request.headers);
    m_url = tokenizeUrl(request.url);
    m_prompts = prompts;
    m_timeoutMs = timeoutMs;
    m_counts.clear();
    for (const Prompt& p : *prompts)
        m_counts.emplace(p.text, -1);
    m_pending.clear();
    m_pending.reserve(m_counts.size());
    for (const auto& entry : m_counts)
        m_pending.push_back(&entry.first);
    m_next = 0;
    m_inFlight = 0;
    m_answered = false;
    m_failure.clear();
    if (m_pending.empty()) {
        // Nothing to count: answered at once, but from the event loop, as every other outcome.
        QTimer::singleShot(0, this, [this] {
            if (m_prompts)
                finish();
        });
        return;
    }
    m_nam = m_client->makeManager(this);
    m_deadline.start(timeoutMs);
    sendMore();
}

void TokenizePrepass::cancel()
{
    m_deadline.stop();
    m_prompts = nullptr;
    if (m_nam) {
        // Aborting emits finished on each reply: they find no pre-pass running and do nothing.
        const QList<QNetworkReply*> replies = m_nam->findChildren<QNetworkReply*>();
        for (QNetworkReply* reply : replies)
            reply->abort();
        m_nam->deleteLater();
        m_nam = nullptr;
    }
}

void TokenizePrepass::sendMore()
{
    while (
        m_failure.isEmpty() && m_inFlight < kInFlight && m_next < m_pending.size() && (m_answered || m_inFlight == 0)) {
        const QString* text = m_pending[m_next++];
        QJsonObject body;
        if (!m_request.model.isEmpty())
            body.insert(QStringLiteral("model"), m_request.model);
        body.insert(QStringLiteral("prompt"), *text); // the prompt alone, as the reference counts it
        QNetworkRequest req = m_client->request(m_url, m_timeoutMs);
        req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        QNetworkReply* reply = m_nam->post(req, QJsonDocument(body).toJson(QJsonDocument::Compact));
        ++m_inFlight;
        connect(reply, &QNetworkReply::finished, this, [this, reply, text] { onReply(reply, text); });
    }
}

void TokenizePrepass::onReply(QNetworkReply* reply, const QString* text)
{
    reply->deleteLater();
    if (!m_prompts)
        return; // cancelled, or already finished
    --m_inFlight;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QJsonValue count = QJsonDocument::fromJson(reply->readAll()).object().value(QStringLiteral("count"));
    if (reply->error() != QNetworkReply::NoError || status != 200 || !count.isDouble()) {
        if (m_failure.isEmpty())
            m_failure = status > 0 ? QStringLiteral("HTTP %1").arg(status) : reply->errorString();
    } else {
        m_answered = true;
        m_counts[*text] = count.toInt();
    }
    if (!m_failure.isEmpty() || (m_next >= m_pending.size() && m_inFlight == 0))
        finish();
    else
        sendMore();
}

void TokenizePrepass::finish()
{
    std::vector<Prompt>& prompts = *m_prompts;
    TokenizeOutcome outcome;
    for (const Prompt& p : prompts)
        outcome.datasetTokens += p.promptTokens;
    const QString failure = m_failure;
    cancel();
    if (!failure.isEmpty()) {
        outcome.message = phrase("TokenizePrepass",
            "%1: %2; input tokens are the server's usage.prompt_tokens where it sends them, else the dataset's count")
                              .arg(m_url.toString(QUrl::RemoveUserInfo), failure);
        Q_EMIT finished(outcome);
        return;
    }
    outcome.available = true;
    outcome.counted = int(m_counts.size());
    for (Prompt& p : prompts) {
        p.promptTokens = m_counts[p.text];
        outcome.serverTokens += p.promptTokens;
    }
    const double apart = outcome.serverTokens > 0
        ? std::abs(double(outcome.serverTokens - outcome.datasetTokens)) / double(outcome.serverTokens)
        : 0.0;
    outcome.message = phrase("TokenizePrepass",
        "input tokens counted by the server's /tokenize (%1 prompts; %2 tokens against the dataset's %3, %4% apart)")
                          .arg(outcome.counted)
                          .arg(outcome.serverTokens)
                          .arg(outcome.datasetTokens)
                          .arg(apart * 100, 0, 'f', 1);
    Q_EMIT finished(outcome);
}

TokenizeOutcome tokenizePrompts(
    const RequestTemplate& request, std::vector<Prompt>& prompts, const TransportOptions& transport, int timeoutMs)
{
    TokenizePrepass prepass;
    QEventLoop loop;
    TokenizeOutcome outcome;
    QObject::connect(&prepass, &TokenizePrepass::finished, &loop, [&](const TokenizeOutcome& o) {
        outcome = o;
        loop.quit();
    });
    prepass.start(request, transport, &prompts, timeoutMs);
    if (prepass.isRunning())
        loop.exec();
    return outcome;
}

} // namespace kp
