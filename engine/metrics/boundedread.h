#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace kp {

// The most any input file of its kind may hold: beyond it the file is refused, not read into memory.
inline constexpr qint64 kMaxSettingsFileBytes = 16LL * 1024 * 1024; // profiles, targets, simulator settings
inline constexpr qint64 kMaxResultFileBytes = 1024LL * 1024 * 1024; // result files, request records, imports

// Reads a whole file of at most maxBytes. A larger file is refused, and so is a device or FIFO that
// goes on past maxBytes (/dev/zero): they are read in pieces, never trusted for their size.
// error: "PATH: cannot open: ...", "PATH: cannot read: ...", or "PATH: larger than N MB, the most a FILE may hold".
std::optional<QByteArray> readBoundedFile(const QString& path, qint64 maxBytes, QString* error);

} // namespace kp
