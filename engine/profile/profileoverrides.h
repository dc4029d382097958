#pragma once

#include "profile/profile.h"
#include "profile/profileschema.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>

namespace kp {

// Values given on the command line (the reference tool's flag names), applied on top of a profile.
// Fields not given leave the profile as it is.
struct ProfileOverrides
{
    // Plain fields of the schema (profileschema.h) by key, in the order given; the last value of a key wins.
    QList<std::pair<QString, FieldValue>> values;
    void set(const QString& key, const FieldValue& value) { values.append({ key, value }); }
    bool isSet(QStringView key) const;

    // The fields the schema leaves to code of their own.
    std::optional<Backend> backend; // --backend
    std::optional<TransportKind> transport; // --transport
    std::optional<QString> datasetName; // --dataset-name ("custom" is read as "jsonl")
    std::optional<QList<double>> rates; // --request-rate (one or more); switches to rate mode
    std::optional<QList<int>> concurrencies; // --concurrency; switches to concurrency mode
    // --metadata KEY=VALUE: added to output.metadata, a key given again replacing its value there
    std::optional<QList<std::pair<QString, QString>>> metadata;
    std::optional<QStringList> percentileMetrics; // --percentile-metrics
    std::optional<QList<double>> metricPercentiles; // --metric-percentiles
};

// Applies overrides and returns the profile paths it changed ("load.rates", ...), in the schema's order,
// for logs and the run snapshot. A value of the wrong type for its field (or an unknown key) is left out
// and named in errors. The result is not validated: call validateProfile() afterwards.
QStringList applyOverrides(Profile& profile, const ProfileOverrides& overrides, QStringList* errors = nullptr);

} // namespace kp
