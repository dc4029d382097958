#include "client/tokenizeprepass.h"

#include "metrics/phrase.h"

#include <QDateTime>
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

void TokenizePrepass::start(const RequestTemplate& request, const TransportOptions& transport,
    std::vector<Prompt>* prompts, int timeoutMs, const ProbeOptions& retry)
{
    cancel();
    m_request = request;
    m_client.emplace(transport, request.headers);
    m_url = tokenizeUrl(request.url);
    m_prompts = prompts;
    m_timeoutMs = timeoutMs;
    m_retry = retry;
    m_counts.clear();
    for (const Prompt& p : *prompts)
        m_counts.emplace(p.text, -1);
    m_pending.clear();
    m_pending.reserve(m_counts.size());
    for (const auto& entry : m_counts)
        m_pending.push_back(&entry.first);
    m_tries.assign(m_pending.size(), 0);
    m_next = 0;
    m_inFlight = 0;
    m_retries = 0;
    m_lastRetryReason.clear();
    m_answered = false;
    m_failure.clear();
    m_notCounted.clear();
    // Conversations are made as the sessions go (each turn's history differs), trace prompts when sent:
    // neither is a list of texts to count beforehand.
    if (prompts->empty())
        m_notCounted = phrase("TokenizePrepass",
            "the prompts are conversations whose turns carry their history as it grows, so they are not counted "
            "before the run; input tokens are the server's usage.prompt_tokens where it sends them, else the "
            "dataset's count");
    else if (!prompts->front().hashIds.empty())
        m_notCounted = phrase("TokenizePrepass",
            "the trace's prompts are made from their hash ids as they are sent, so they are not counted before the "
            "run; input tokens are the server's usage.prompt_tokens where it sends them, else the trace's "
            "input_length");
    if (!m_notCounted.isEmpty())
        m_pending.clear();
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
    ++m_generation; // a retry waiting to be sent is dropped
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
        ++m_inFlight;
        send(m_next++);
    }
}

void TokenizePrepass::send(std::size_t index)
{
    QJsonObject body;
    if (!m_request.model.isEmpty())
        body.insert(QStringLiteral("model"), m_request.model);
    body.insert(QStringLiteral("prompt"), *m_pending[index]); // the prompt alone, as the reference counts it
    QNetworkRequest req = m_client->request(m_url, m_timeoutMs);
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    QNetworkReply* reply = m_nam->post(req, QJsonDocument(body).toJson(QJsonDocument::Compact));
    ++m_tries[index];
    connect(reply, &QNetworkReply::finished, this, [this, reply, index] { onReply(reply, index); });
}

void TokenizePrepass::onReply(QNetworkReply* reply, std::size_t index)
{
    reply->deleteLater();
    if (!m_prompts)
        return; // cancelled, or already finished
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QJsonValue count = QJsonDocument::fromJson(reply->readAll()).object().value(QStringLiteral("count"));
    if (reply->error() == QNetworkReply::NoError && status == 200 && count.isDouble()) {
        --m_inFlight;
        m_answered = true;
        m_counts[*m_pending[index]] = count.toInt();
    } else {
        const QString reason = status > 0 ? QStringLiteral("HTTP %1").arg(status) : reply->errorString();
        const int tries = m_tries[index];
        // The preflight's policy: a transient failure is tried again, after its backoff or the server's
        // Retry-After, unless the wait would outlast the pre-pass.
        const ReplyRetry retry = replyRetry(reply, QDateTime::currentDateTimeUtc());
        if (m_failure.isEmpty() && retry.transient && tries < m_retry.maxTries) {
            const double delayS = retryDelayS(tries + 1, retry.retryAfterS, m_retry);
            const int delayMs = int(std::lround(delayS * 1000.0));
            if (delayMs < m_deadline.remainingTime()) {
                ++m_retries;
                m_lastRetryReason = reason;
                const quint64 generation = m_generation;
                // Still counted in flight: nothing finishes, and no other text goes out first.
                QTimer::singleShot(delayMs, Qt::PreciseTimer, this, [this, index, generation] {
                    if (generation == m_generation && m_prompts)
                        send(index);
                });
                return;
            }
            if (retry.retryAfterS)
                m_failure = phrase("TokenizePrepass", "%1 with Retry-After %2 s, past the pre-pass's limit of %3 s")
                                .arg(reason, QString::number(delayS), QString::number(m_timeoutMs / 1000.0));
        }
        --m_inFlight;
        if (m_failure.isEmpty())
            m_failure = tries > 1 ? phrase("TokenizePrepass", "%1 (tried %2 times)").arg(reason).arg(tries) : reason;
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
    outcome.retries = m_retries;
    for (const Prompt& p : prompts)
        outcome.datasetTokens += p.promptTokens;
    const QString failure = m_failure;
    const QString notCounted = m_notCounted;
    cancel();
    if (!notCounted.isEmpty()) {
        outcome.message = notCounted;
        Q_EMIT finished(outcome);
        return;
    }
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
    const QString percent = QString::number(apart * 100, 'f', 1);
    // The English text is printed as written (phrase() translates only in the window): one prompt is singular.
    const bool one = outcome.counted == 1;
    if (m_retries == 0) {
        outcome.message = (one ? phrase("TokenizePrepass",
                               "input tokens counted by the server's /tokenize (%1 prompt; %2 tokens against the "
                               "dataset's %3, %4% apart)")
                               : phrase("TokenizePrepass",
                                   "input tokens counted by the server's /tokenize (%1 prompts; %2 tokens against "
                                   "the dataset's %3, %4% apart)"))
                              .arg(outcome.counted)
                              .arg(outcome.serverTokens)
                              .arg(outcome.datasetTokens)
                              .arg(percent);
    } else {
        outcome.message
            = (one ? phrase("TokenizePrepass",
                   "input tokens counted by the server's /tokenize (%1 prompt; %2 tokens against the dataset's "
                   "%3, %4% apart; requests sent again after a transient failure: %5, the last after %6)")
                   : phrase("TokenizePrepass",
                       "input tokens counted by the server's /tokenize (%1 prompts; %2 tokens against the dataset's "
                       "%3, %4% apart; requests sent again after a transient failure: %5, the last after %6)"))
                  .arg(QString::number(outcome.counted), QString::number(outcome.serverTokens),
                      QString::number(outcome.datasetTokens), percent, QString::number(m_retries), m_lastRetryReason);
    }
    Q_EMIT finished(outcome);
}

TokenizeOutcome promptsMadePerRequestOutcome()
{
    TokenizeOutcome outcome;
    outcome.message = phrase("TokenizePrepass",
        "the prompts are made as each request is sent, so /tokenize cannot count them before the run; input tokens "
        "are the server's usage.prompt_tokens where it sends them, else the dataset's count");
    return outcome;
}

TokenizeOutcome tokenizePrompts(const RequestTemplate& request, std::vector<Prompt>& prompts,
    const TransportOptions& transport, int timeoutMs, const ProbeOptions& retry)
{
    TokenizePrepass prepass;
    QEventLoop loop;
    TokenizeOutcome outcome;
    QObject::connect(&prepass, &TokenizePrepass::finished, &loop, [&](const TokenizeOutcome& o) {
        outcome = o;
        loop.quit();
    });
    prepass.start(request, transport, &prompts, timeoutMs, retry);
    if (prepass.isRunning())
        loop.exec();
    return outcome;
}

} // namespace kp
