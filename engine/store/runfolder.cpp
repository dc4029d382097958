#include "store/runfolder.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>

namespace kp {

namespace {

QString slug(const QString& name)
{
    QString s = name.toLower();
    static const QRegularExpression other(QStringLiteral("[^a-z0-9]+"));
    s.replace(other, QStringLiteral("-"));
    while (s.startsWith(u'-'))
        s.remove(0, 1);
    s.truncate(40);
    while (s.endsWith(u'-'))
        s.chop(1);
    return s.isEmpty() ? QStringLiteral("run") : s;
}

} // namespace

QString uniquePath(const QString& base)
{
    QString path = base;
    for (int n = 2; QFileInfo::exists(path); ++n)
        path = base + QStringLiteral("-%1").arg(n);
    return path;
}

QString defaultRunsDirectory()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
        + QStringLiteral("/Kneepoint/Kneepoint/runs");
}

QString newRunDirectory(const QString& root, const QString& name)
{
    return uniquePath(
        QDir(root).filePath(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss-")) + slug(name)));
}

} // namespace kp
