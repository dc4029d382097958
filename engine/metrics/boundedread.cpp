#include "metrics/boundedread.h"

#include <QFile>

#include <algorithm>

namespace kp {

namespace {

QString tooLarge(const QString& path, qint64 maxBytes)
{
    return QStringLiteral("%1: larger than %2 MB, the most Kneepoint reads from one file of this kind")
        .arg(path)
        .arg(maxBytes / (1024 * 1024));
}

} // namespace

std::optional<QByteArray> readBoundedFile(const QString& path, qint64 maxBytes, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("%1: cannot open: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    if (!file.isSequential() && file.size() > maxBytes) {
        if (error)
            *error = tooLarge(path, maxBytes);
        return std::nullopt;
    }
    QByteArray data;
    if (!file.isSequential())
        data.reserve(file.size());
    constexpr qint64 piece = 1024 * 1024;
    while (true) {
        const qint64 want = std::min<qint64>(piece, maxBytes + 1 - data.size());
        const qsizetype before = data.size();
        data.resize(before + want);
        const qint64 got = file.read(data.data() + before, want);
        if (got < 0) {
            if (error)
                *error = QStringLiteral("%1: cannot read: %2").arg(path, file.errorString());
            return std::nullopt;
        }
        data.resize(before + got);
        if (data.size() > maxBytes) {
            if (error)
                *error = tooLarge(path, maxBytes);
            return std::nullopt;
        }
        if (got == 0) // the end: a FIFO's read waits for data or for its writer to close
            break;
    }
    return data;
}

} // namespace kp
