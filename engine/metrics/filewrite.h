#pragma once

#include <QByteArray>
#include <QFileDevice>
#include <QString>

namespace kp {

// Writes all of data to a file opened unbuffered. A disk that fills up takes part of a write and then
// refuses the rest: the retry for the rest is what fails with the system's reason ("No space left on
// device"), where a buffered flush reports the partial write as Qt's "Unknown error".
bool writeFully(QFileDevice& file, const QByteArray& data);

// Replaces path with data, the one writer of every file Kneepoint writes whole. A regular file (or a
// path that does not exist yet) is replaced atomically: a temporary file beside it is renamed over it
// once all is written, so on failure the old file is untouched. A special file (a FIFO, a character
// device such as /dev/null or /dev/stdout, a socket) is written directly, never replaced by a regular
// file; its write errors (ENOSPC from /dev/full) are reported. A folder is refused.
// ownerOnly: the file is readable and writable by its owner alone (it may hold a secret); a special
// file keeps its permissions. error: "PATH: cannot write: ...", "PATH: is a folder, not a file".
bool writeFileAtomically(const QString& path, const QByteArray& data, QString* error, bool ownerOnly = false);

} // namespace kp
