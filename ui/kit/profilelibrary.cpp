#include "profilelibrary.h"

#include "profile/profilestore.h"

#include <QCollator>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>

#include <algorithm>

namespace kp::ui {

namespace {

const QString recentKey()
{
    return QStringLiteral("profiles/recent");
}

constexpr int kMaxRecent = 10;

} // namespace

QString ProfileLibrary::defaultDirectory()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) + QStringLiteral("/profiles");
}

ProfileLibrary::ProfileLibrary(const QString& directory)
    : m_directory(QDir::cleanPath(directory))
{ }

bool ProfileLibrary::ensureExists(QString* error) const
{
    if (QDir().mkpath(m_directory))
        return true;
    if (error)
        *error = QCoreApplication::translate("kp::ui::ProfileLibrary", "cannot create the profile folder %1")
                     .arg(QDir::toNativeSeparators(m_directory));
    return false;
}

QList<ProfileLibrary::Entry> ProfileLibrary::entries() const
{
    QList<Entry> out;
    const QDir dir(m_directory);
    const QFileInfoList files = dir.entryInfoList(
        { QStringLiteral("*.json"), QStringLiteral("*.toml") }, QDir::Files | QDir::Readable, QDir::Name);
    for (const QFileInfo& info : files) {
        Entry e;
        e.path = info.absoluteFilePath();
        const ProfileLoadResult r = ProfileStore::load(e.path);
        if (r.ok()) {
            e.name = r.profile->name;
            e.targetName = r.profile->targetName;
        } else
            e.error = r.errors.value(0);
        if (e.name.trimmed().isEmpty())
            e.name = info.completeBaseName();
        out.append(e);
    }
    QCollator collator;
    collator.setCaseSensitivity(Qt::CaseInsensitive);
    collator.setNumericMode(true);
    std::stable_sort(out.begin(), out.end(),
        [&collator](const Entry& a, const Entry& b) { return collator.compare(a.name, b.name) < 0; });
    return out;
}

bool ProfileLibrary::contains(const QString& path) const
{
    return !path.isEmpty() && QFileInfo(path).absoluteDir() == QDir(m_directory);
}

QString ProfileLibrary::uniquePath(const QString& name, const QString& ignore) const
{
    const QString base = slug(name);
    const QString ignored = ignore.isEmpty() ? QString() : QFileInfo(ignore).absoluteFilePath();
    for (int i = 1;; ++i) {
        const QString file = i == 1 ? base + QStringLiteral(".json") : QStringLiteral("%1-%2.json").arg(base).arg(i);
        const QString path = QDir(m_directory).absoluteFilePath(file);
        if (path == ignored || !QFileInfo::exists(path))
            return path;
    }
}

QString ProfileLibrary::slug(const QString& name)
{
    static const QRegularExpression nonWord(QStringLiteral("[^a-z0-9]+"));
    QString s = name.normalized(QString::NormalizationForm_KD).toLower();
    s.replace(nonWord, QStringLiteral("-"));
    while (s.startsWith(QLatin1Char('-')))
        s.remove(0, 1);
    while (s.endsWith(QLatin1Char('-')))
        s.chop(1);
    s.truncate(60);
    return s.isEmpty() ? QStringLiteral("profile") : s;
}

QStringList ProfileLibrary::recentFiles()
{
    return QSettings().value(recentKey()).toStringList();
}

void ProfileLibrary::addRecentFile(const QString& path)
{
    if (path.isEmpty())
        return;
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList files = recentFiles();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecent)
        files.removeLast();
    QSettings().setValue(recentKey(), files);
}

void ProfileLibrary::replaceRecentFile(const QString& from, const QString& to)
{
    QStringList files = recentFiles();
    const qsizetype i = files.indexOf(QFileInfo(from).absoluteFilePath());
    if (i < 0)
        return;
    files[i] = QFileInfo(to).absoluteFilePath();
    files.removeDuplicates();
    QSettings().setValue(recentKey(), files);
}

void ProfileLibrary::clearRecentFiles()
{
    QSettings().remove(recentKey());
}

} // namespace kp::ui
