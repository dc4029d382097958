#include "metrics/filewrite.h"

#include <QFile>
#include <QSaveFile>

#include <sys/stat.h>

namespace kp {

namespace {

enum class Existing { None, Regular, Folder, Special };

// What path is now, links followed: a rename would replace a special file by a regular one.
Existing existing(const QString& path)
{
    struct stat st
    {
    };
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return Existing::None;
    if (S_ISREG(st.st_mode))
        return Existing::Regular;
    if (S_ISDIR(st.st_mode))
        return Existing::Folder;
    return Existing::Special;
}

QString cannotWrite(const QString& path, const QString& reason)
{
    return QStringLiteral("%1: cannot write: %2").arg(path, reason);
}

bool writeDirectly(const QString& path, const QByteArray& data, QString* error)
{
    // Opened without truncation or creation flags that matter to a device or a FIFO; a FIFO's open
    // waits for its reader, as a shell's redirection does.
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered)) {
        *error = cannotWrite(path, file.errorString());
        return false;
    }
    if (!writeFully(file, data)) {
        *error = cannotWrite(path, file.errorString());
        return false;
    }
    file.close();
    return true;
}

} // namespace

bool writeFully(QFileDevice& file, const QByteArray& data)
{
    qint64 done = 0;
    while (done < data.size()) {
        const qint64 n = file.write(data.constData() + done, data.size() - done);
        if (n <= 0)
            return false;
        done += n;
    }
    return true;
}

bool writeFileAtomically(const QString& path, const QByteArray& data, QString* error, bool ownerOnly)
{
    switch (existing(path)) {
    case Existing::Folder:
        *error = QStringLiteral("%1: is a folder, not a file").arg(path);
        return false;
    case Existing::Special:
        return writeDirectly(path, data, error);
    case Existing::None:
    case Existing::Regular:
        break;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered)) {
        *error = cannotWrite(path, file.errorString());
        return false;
    }
    // Before any byte is written: the file may hold a literal secret.
    if (ownerOnly && !file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner)) {
        *error = cannotWrite(path, file.errorString());
        file.cancelWriting();
        return false;
    }
    // Qt 6.4's commit() reports success even when its final flush wrote only part of the file (disk
    // full, file-size limit): write it all first and cancel on failure, so the old file stays.
    if (!writeFully(file, data)) {
        *error = cannotWrite(path, file.errorString());
        file.cancelWriting();
        return false;
    }
    if (!file.commit()) {
        *error = cannotWrite(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace kp
