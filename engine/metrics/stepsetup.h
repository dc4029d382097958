#pragma once

#include <QDateTime>
#include <QJsonValue>
#include <QMetaType>
#include <QString>

#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace kp {

// How a step was run, as the reference's result file records it next to the metrics.
struct StepSetup
{
    QString date; // YYYYmmdd-HHMMSS, local time, when the step finished
    QString endpointType; // the reference writes the backend twice, "endpoint_type" for older readers
    QString backend; // "openai", "openai-chat", "vllm", ...
    QString label; // empty: null in the file
    QString modelId;
    QString tokenizerId; // empty: null in the file
    qint64 numPrompts = 0;
    double requestRate = std::numeric_limits<double>::infinity(); // requests per second; inf = all at once
    double burstiness = 1.0;
    std::optional<int> maxConcurrency;
    // Top-level keys beyond the reference's own, in file order: --metadata KEY=VALUE (strings, none of
    // them a key the file has anyway: ResultJson::isReferenceKey), the server and benchmark parameters
    // `vllm bench sweep` adds. Steps that differ in one measured different things.
    std::vector<std::pair<QString, QJsonValue>> metadata;

    static QString dateString(const QDateTime& time) { return time.toString(QStringLiteral("yyyyMMdd-HHmmss")); }

    bool operator==(const StepSetup&) const = default;
};

} // namespace kp

Q_DECLARE_METATYPE(kp::StepSetup)
