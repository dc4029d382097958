#pragma once

// Internal to kneepoint_profile.

#include "profile/profile.h"

#include <QLoggingCategory>

#include <functional>

Q_DECLARE_LOGGING_CATEGORY(lcProfile)

namespace kp::detail {

// Turns a profile field path ("load.rates") into the name the user knows it by; the loader maps it
// to the key in the file ("benchmark.request_rate"), elsewhere it is the identity.
using PathNamer = std::function<QString(const QString& profilePath)>;

QList<ProfileIssue> validateProfile(const Profile& profile, const PathNamer& namer);

struct EnvExpansion
{
    QString value;
    QStringList variables; // names referenced, in order
    QString error; // syntax error, or the first variable that is not set
};
// Expands every ${NAME} in text; with checkOnly, only the syntax is checked.
EnvExpansion expandEnvironment(const QString& text, bool checkOnly = false);

// api_key "file:PATH": the key lives in a file. PATH may start with ~/ and hold ${VAR} references.
bool isKeyFileReference(const QString& apiKey);
// The key: the file's first line, trimmed. path receives the expanded path; error names it.
QString readKeyFile(const QString& reference, QString* path, QString* error);

// Paths as messages write them: "load.rates[2]", "target.headers.Authorization"; keys that are not
// plain identifiers are quoted: target.headers["X Weird"].
QString childPath(const QString& parent, const QString& key);
QString indexPath(const QString& parent, qsizetype index);
QString parentPath(const QString& path); // "" for a top-level key or the root

} // namespace kp::detail
