#include "kit/runtimedir.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QString>

#include <unistd.h>

namespace kp::ui {

void ensureRuntimeDirectory()
{
    if (!qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR"))
        return;
    const uint uid = ::getuid();
    const QString path = QDir::tempPath() + QStringLiteral("/kneepoint-runtime-%1").arg(uid);
    QDir().mkpath(path);
    // Qt accepts only a directory this user owns that no one else can enter: one made by someone else
    // in the shared temporary directory is not used.
    const QFileInfo info(path);
    if (!info.isDir() || info.isSymLink() || info.ownerId() != uid)
        return;
    const auto privateOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner;
    if (info.permissions() != (privateOnly | QFileDevice::ReadUser | QFileDevice::WriteUser | QFileDevice::ExeUser)
        && !QFile::setPermissions(path, privateOnly))
        return;
    qputenv("XDG_RUNTIME_DIR", QFile::encodeName(path));
}

} // namespace kp::ui
