#pragma once

// Internal to kneepoint_profile: a parsed profile file plus where each value came from.

#include "profile/profile_p.h"

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

namespace kp::detail {

using Json = nlohmann::ordered_json;

struct SourcePos
{
    int line = 0; // 1-based; 0 when unknown
    int column = 0; // 1-based, in characters
    bool isValid() const { return line > 0; }
};

// NOLINTNEXTLINE(bugprone-exception-escape): nlohmann's json may allocate while copied; nothing here is noexcept
struct SourceDocument
{
    Json root;
    QHash<QString, SourcePos> values; // where each value starts
    QHash<QString, SourcePos> keys; // where each object key starts
    QStringList errors; // already formatted as "file:line:col: message"
    QStringList warnings;
    bool isValid() const { return errors.isEmpty(); }
};

// JSON as nlohmann reads it, plus // and /* */ comments and the bare Infinity that Python's json
// module writes. Syntax errors name the line, column and the innermost path being read.
SourceDocument parseJsonSource(const QByteArray& data, const QString& fileName);
SourceDocument parseTomlSource(const QByteArray& data, const QString& fileName);

QString formatLocation(const QString& fileName, SourcePos pos);

} // namespace kp::detail
