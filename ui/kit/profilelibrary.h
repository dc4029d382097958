#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace kp::ui {

// The profile files in one directory (by default the user's config location): what is there and
// where a new one goes. Reading and writing profiles is ProfileStore's job.
class ProfileLibrary
{
public:
    struct Entry
    {
        QString path;
        QString name; // the profile's name, or the file's base name when it has none or cannot be read
        QString error; // the first load error, if the file cannot be read as a profile
        QString targetName; // the saved target it refers to by name, if any
    };

    // QStandardPaths::AppConfigLocation + "/profiles" (XDG_CONFIG_HOME is honoured there).
    static QString defaultDirectory();

    explicit ProfileLibrary(const QString& directory = defaultDirectory());

    QString directory() const { return m_directory; }
    // Creates the directory if needed; the error names it.
    bool ensureExists(QString* error) const;
    // *.json and *.toml files, by name (case-insensitive).
    QList<Entry> entries() const;
    bool contains(const QString& path) const;
    // directory/slug.json, or slug-2.json, ... when that exists; ignore is a path that may be reused.
    QString uniquePath(const QString& name, const QString& ignore = QString()) const;

    // "Demo — built-in simulator" → "demo-built-in-simulator"; "profile" for a name without letters.
    static QString slug(const QString& name);

    // Recent files, newest first, kept in QSettings.
    static QStringList recentFiles();
    static void addRecentFile(const QString& path);
    static void replaceRecentFile(const QString& from, const QString& to);
    static void clearRecentFiles();

private:
    QString m_directory;
};

} // namespace kp::ui
