#pragma once

// Helpers of the tests that drive the client against the simulator: its ground truth over HTTP and a
// step of random prompts.

#include "dataset/dataset.h"
#include "load/steprunner.h"
#include "profile/profile.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QUrl>

#include <map>

namespace kp::testing {

// GET url (waiting up to 30 s) and its body as a JSON object; an empty object on any failure.
inline QJsonObject getJson(const QUrl& url)
{
    QNetworkAccessManager nam;
    nam.setProxy(QNetworkProxy::NoProxy);
    QNetworkReply* reply = nam.get(QNetworkRequest(url));
    QSignalSpy done(reply, &QNetworkReply::finished);
    if (!reply->isFinished())
        done.wait(30000);
    const QJsonObject obj = QJsonDocument::fromJson(reply->readAll()).object();
    reply->deleteLater();
    return obj;
}

// The simulator's record of each request it served (/debug/requests), by request id.
inline std::map<QString, QJsonObject> truthByRequestId(const QUrl& base)
{
    std::map<QString, QJsonObject> byId;
    const QJsonArray requests
        = getJson(base.resolved(QUrl(QStringLiteral("/debug/requests")))).value(u"requests").toArray();
    for (const auto& r : requests)
        byId[r.toObject().value(u"request_id").toString()] = r.toObject();
    return byId;
}

// A step of `prompts` random prompts (lengths ±50 % around the given ones, ignore_eos) for base's server.
inline StepConfig makeStep(
    const QUrl& base, Backend backend, const QString& model, int prompts, int inputLen, int outputLen, quint64 seed)
{
    Target target;
    target.baseUrl = base.toString();
    target.backend = backend;
    StepConfig step;
    step.request.backend = backend;
    step.request.url = target.requestUrl();
    step.request.model = model;
    step.request.ignoreEos = true;
    RandomDatasetOptions data;
    data.numPrompts = prompts;
    data.inputLen = inputLen;
    data.outputLen = outputLen;
    data.rangeRatio = 0.5;
    data.seed = seed;
    step.prompts = randomDataset(data).prompts;
    step.numPrompts = prompts;
    return step;
}

} // namespace kp::testing
