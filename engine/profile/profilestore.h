#pragma once

#include "profile/profile.h"

#include <QByteArray>
#include <QJsonObject>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>

namespace kp {

enum class ProfileFormat { Auto, Json, Toml };

// Which arrangement of keys a file uses; see docs/PROFILES.md.
enum class ProfileLayout {
    Unknown,
    Kneepoint, // {"schema": "kneepoint.profile/1", "target": {...}, "workload": {...}, ...}
    Nested, // {"api": {...}, "benchmark": {...}, "vllm_server": {...}}
    Flat, // {"base_url": ..., "model_id": ..., "request_rates": [...], ...}
    Tables, // [service], [load], [engine] (as TOML, or the same objects in JSON)
};
QString profileLayoutName(ProfileLayout layout);

struct ProfileLoadResult
{
    std::optional<Profile> profile; // set when errors is empty
    QStringList errors; // "file:line:col: path: message"
    QStringList warnings; // same form: unknown keys, renamed values, duplicates
    ProfileLayout layout = ProfileLayout::Unknown;
    ProfileFormat format = ProfileFormat::Auto; // the format the data was read as
    bool ok() const { return profile.has_value(); }
};

struct ProfileSaveResult
{
    QString error; // names the file
    bool ok() const { return error.isEmpty(); }
};

class TargetStore;

class ProfileStore
{
public:
    // Reads any supported layout, JSON or TOML (by content; .toml decides when content cannot),
    // checks types and ranges. Messages name the path as given here.
    static ProfileLoadResult load(const QString& path, ProfileFormat format = ProfileFormat::Auto);
    static ProfileLoadResult loadFromData(
        const QByteArray& data, const QString& sourceName, ProfileFormat format = ProfileFormat::Auto);
    static ProfileLoadResult fromJsonObject(const QJsonObject& object, const QString& sourceName);
    // A profile about to be run: as load(), except that the saved target it refers to ("target": "NAME",
    // or targetName, which replaces that reference as --target does) is merged into its target
    // (withSavedTarget) before the checks. A profile that leaves its server to a saved target validates
    // as it will run, and an error still names the file and the key. The result refers to no target.
    static ProfileLoadResult loadForRun(
        const QString& path, const TargetStore& targets, const QString& targetName = QString());

    // Writes Kneepoint's schema as pretty JSON in a stable key order. The file is replaced
    // atomically: on any failure the previous file is left as it was. The previous version is kept as
    // PATH.bak; a profile holding a literal secret is written owner-only (0600).
    static ProfileSaveResult save(const Profile& profile, const QString& path);
    static QByteArray toJson(const Profile& profile);
    static QJsonObject toJsonObject(const Profile& profile);
};

} // namespace kp

Q_DECLARE_METATYPE(kp::ProfileLayout)
Q_DECLARE_METATYPE(kp::ProfileFormat)
Q_DECLARE_METATYPE(kp::ProfileLoadResult)
