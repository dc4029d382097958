#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace kp {

// The machine the client runs on, for run.json "environment": kneepoint_version, qt_version (run
// time), qt_build_version, os, kernel, cpu_arch, cpu_model, cpu_cores, memory_mib (the last two
// where the system tells them).
QJsonObject clientEnvironment();

// What the server said about itself: GET /version, GET /v1/models and the labels of its metrics.
struct ServerFacts
{
    QString version; // /version "version"
    QString serverName; // /version "server", when it names itself (the simulator does)
    QStringList models; // /v1/models ids
    std::optional<int> maxModelLen; // of the first model, /v1/models "max_model_len"
    QString ownedBy; // of the first model
    QString metricsUrl; // the first of metricsUrls
    QStringList metricsUrls; // every metrics URL scraped (without user info)
    QString metricsEngine; // "vllm", "sglang", "tgi" from the metric names; empty when none were read
    QString metricsModel; // the model label of the metrics
    QString metricsUnavailable; // why there are no server metrics; empty when there are
    double timeScale = 1.0; // /version "time_scale": server seconds per wall second (a fast simulator)

    // Reads the body of GET /version; false when it is not a JSON object.
    bool readVersion(const QByteArray& body);
    // Reads the body of GET /v1/models; false when it is not a model list.
    bool readModels(const QByteArray& body);
    // run.json "environment"."server_reported": what was learnt, absent values left out.
    QJsonObject toJson() const;
    bool operator==(const ServerFacts&) const = default;
};

} // namespace kp
