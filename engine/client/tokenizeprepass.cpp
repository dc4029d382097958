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

TokenizeOutcome tokenizePrompts(const RequestTemplate& request, std::vector<Prompt>& prompts, int timeoutMs)
{
    TokenizeOutcome outcome;
    const QUrl url = tokenizeUrl(request.url);
    // Distinct texts, each counted once.
    std::map<QString, int> counts;
    for (const Prompt& p : prompts) {
        counts.emplace(p.text, -1);
        outcome.datasetTokens += p.promptTokens;
    }
    std::vector<const QString*> pending;
    pending.reserve(counts.size());
    for (const auto& entry : counts)
        pending.push_back(&entry.first);

    QNetworkAccessManager nam;
    QEventLoop loop;
    QTimer deadline;
    deadline.setSingleShot(true);
    QObject::connect(&deadline, &QTimer::timeout, &loop, &QEventLoop::quit);
    std::size_t next = 0;
    int inFlight = 0;
    bool answered = false; // one good answer: the endpoint exists
    QString failure;

    std::function<void()> sendMore = [&] {
        while (failure.isEmpty() && inFlight < kInFlight && next < pending.size() && (answered || inFlight == 0)) {
            const QString* text = pending[next++];
            QJsonObject body;
            if (!request.model.isEmpty())
                body.insert(QStringLiteral("model"), request.model);
            body.insert(QStringLiteral("prompt"), *text); // the prompt alone, as the reference counts it
            QNetworkRequest req(url);
            req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
            for (const auto& [name, value] : request.headers)
                req.setRawHeader(name, value);
            QNetworkReply* reply = nam.post(req, QJsonDocument(body).toJson(QJsonDocument::Compact));
            ++inFlight;
            QObject::connect(reply, &QNetworkReply::finished, &loop, [&, reply, text] {
                reply->deleteLater();
                --inFlight;
                const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
                const QJsonValue count
                    = QJsonDocument::fromJson(reply->readAll()).object().value(QStringLiteral("count"));
                if (reply->error() != QNetworkReply::NoError || status != 200 || !count.isDouble()) {
                    if (failure.isEmpty())
                        failure = status > 0 ? QStringLiteral("HTTP %1").arg(status) : reply->errorString();
                } else {
                    answered = true;
                    counts[*text] = count.toInt();
                }
                if (!failure.isEmpty() || (next >= pending.size() && inFlight == 0))
                    loop.quit();
                else
                    sendMore();
            });
        }
    };
    deadline.start(timeoutMs);
    sendMore();
    if (!pending.empty())
        loop.exec();
    if (failure.isEmpty() && (next < pending.size() || inFlight > 0))
        failure = phrase("TokenizePrepass", "no answer within %1 s").arg(timeoutMs / 1000.0);
    if (!failure.isEmpty()) {
        outcome.message = phrase("TokenizePrepass",
            "%1: %2; input tokens are the server's usage.prompt_tokens where it sends them, else the dataset's count")
                              .arg(url.toString(QUrl::RemoveUserInfo), failure);
        return outcome;
    }
    outcome.available = true;
    outcome.counted = int(counts.size());
    for (Prompt& p : prompts) {
        p.promptTokens = counts[p.text];
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
    return outcome;
}

} // namespace kp
