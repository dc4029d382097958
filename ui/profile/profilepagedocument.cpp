#include "profilepage_p.h"

#include "kit/connectiontest.h"
#include "metrics/boundedread.h"
#include "profile/profilestore.h"
#include "profileform.h"
#include "profilejsoneditor.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QFrame>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTimer>

// The Profile page's open document: the file read (any layout, TOML too), the form and the JSON tab kept
// in step, saved, and watched for changes made by other programs.

namespace kp::ui {

namespace {

// Where a profile read from another layout (or TOML) is saved: next to it, never over it.
QString convertedPath(const QString& path)
{
    const QFileInfo info(path);
    return info.absoluteDir().absoluteFilePath(info.completeBaseName() + QStringLiteral(".kneepoint.json"));
}

QString layoutWords(ProfileLayout layout, ProfileFormat format)
{
    const QString fmt = format == ProfileFormat::Toml ? QStringLiteral("TOML") : QStringLiteral("JSON");
    switch (layout) {
    case ProfileLayout::Nested:
        return ProfilePage::tr("the nested layout (%1)").arg(fmt);
    case ProfileLayout::Flat:
        return ProfilePage::tr("the flat layout (%1)").arg(fmt);
    case ProfileLayout::Tables:
        return ProfilePage::tr("the [service]/[load]/[engine] layout (%1)").arg(fmt);
    case ProfileLayout::Kneepoint:
        return ProfilePage::tr("Kneepoint's schema in %1").arg(fmt);
    case ProfileLayout::Unknown:
        break;
    }
    return fmt;
}

} // namespace

bool ProfilePage::Private::loadDocument(const QString& path)
{
    // Bounded like every profile read: a huge file or a device (/dev/zero) is refused, not read.
    QString readError;
    const std::optional<QByteArray> read = readBoundedFile(path, kMaxSettingsFileBytes, &readError);
    if (!read) {
        showMessage(Level::Error, tr("Cannot read the profile: %1").arg(readError));
        selectInList(m_path);
        return false;
    }
    const QByteArray& raw = *read;
    const QString absolute = QFileInfo(path).absoluteFilePath();
    const ProfileLoadResult r = ProfileStore::loadFromData(raw, QFileInfo(path).fileName());

    m_connection->clear();
    m_path = absolute;
    m_userEdited = false;
    hideMessage();
    if (r.ok()) {
        const bool convert = !(r.layout == ProfileLayout::Kneepoint && r.format == ProfileFormat::Json);
        m_saveTarget = convert ? convertedPath(absolute) : absolute;
        m_saved = *r.profile;
        showDocument(*r.profile);
        m_json->setDiagnostics({}, r.warnings);
        if (convert) {
            const QString note = tr("Read from %1. Saving writes Kneepoint's JSON schema to %2 next to it; the "
                                    "original is left as it is (Save As… chooses another place).")
                                     .arg(layoutWords(r.layout, r.format), QFileInfo(m_saveTarget).fileName());
            showMessage(Level::Info, note);
            m_messageTimer->stop();
        } else if (!r.warnings.isEmpty()) {
            showMessage(Level::Warning,
                r.warnings.size() == 1 ? tr("Read with a warning: %1").arg(r.warnings.constFirst())
                                       : tr("Read with %1 warnings; the JSON tab lists them.").arg(r.warnings.size()));
            m_messageTimer->stop();
        }
    } else {
        // Keep the file's text as written and say where it is wrong; the form waits for a readable profile.
        m_saveTarget
            = absolute.endsWith(QLatin1String(".json"), Qt::CaseInsensitive) ? absolute : convertedPath(absolute);
        m_saved.reset();
        m_formHoldsProfile = false;
        m_form->setProfile(Profile {});
        m_json->setText(QString::fromUtf8(raw));
        m_json->setDiagnostics(r.errors, r.warnings);
        m_jsonInvalid = true;
        m_tabs->setCurrentWidget(m_json);
        showMessage(Level::Error,
            r.errors.size() == 1 ? tr("%1 cannot be used: %2").arg(QFileInfo(path).fileName(), r.errors.constFirst())
                                 : tr("%1 cannot be used: %2 errors; the JSON tab lists them.")
                                       .arg(QFileInfo(path).fileName())
                                       .arg(r.errors.size()));
        m_messageTimer->stop();
    }
    ProfileLibrary::addRecentFile(absolute);
    m_stack->setCurrentWidget(m_tabs);
    selectInList(absolute);
    refresh();
    Q_EMIT q->currentChanged(q->currentName());
    return true;
}

void ProfilePage::Private::showDocument(const Profile& profile)
{
    m_form->setProfile(profile);
    m_formHoldsProfile = true;
    m_jsonInvalid = false;
    m_json->setText(jsonTextFor(profile));
    m_json->setDiagnostics({}, {});
    m_stack->setCurrentWidget(m_tabs);
}

QString ProfilePage::Private::jsonTextFor(const Profile& profile) const
{
    // The JSON tab shows a literal key as the placeholder; reading it back keeps the key.
    Profile shown = profile;
    if (!shown.target.apiKey.isEmpty() && shown.target.apiKeySource() == ApiKeyResolution::Source::Literal)
        shown.target.apiKey = redactedPlaceholder();
    return QString::fromUtf8(ProfileStore::toJson(shown));
}

QString ProfilePage::Private::jsonSourceName() const
{
    if (!m_saveTarget.isEmpty())
        return QFileInfo(m_saveTarget).fileName();
    if (!m_path.isEmpty())
        return QFileInfo(m_path).fileName();
    return QStringLiteral("profile.json");
}

void ProfilePage::Private::onFormEdited()
{
    m_userEdited = true;
    m_json->setText(jsonTextFor(m_form->profile()));
    m_json->setDiagnostics({}, {});
    refresh();
}

void ProfilePage::Private::onJsonEdited()
{
    m_userEdited = true;
    const QString source
        = m_saved || m_formHoldsProfile || m_path.isEmpty() ? jsonSourceName() : QFileInfo(m_path).fileName();
    const ProfileLoadResult r = ProfileStore::loadFromData(m_json->text().toUtf8(), source);
    m_json->setDiagnostics(r.errors, r.warnings);
    if (r.ok()) {
        Profile p = *r.profile;
        const QString key = m_form->profile().target.apiKey;
        if (p.target.apiKey == redactedPlaceholder() && m_formHoldsProfile)
            p.target.apiKey = key;
        if (!m_saved && !m_formHoldsProfile && !m_path.isEmpty()) {
            // A file that could not be read has just become readable: now its layout is known.
            const bool convert = !(r.layout == ProfileLayout::Kneepoint && r.format == ProfileFormat::Json);
            m_saveTarget = convert ? convertedPath(m_path) : m_path;
        }
        m_form->setProfile(p);
        m_formHoldsProfile = true;
        m_jsonInvalid = false;
    } else {
        m_jsonInvalid = true;
    }
    refresh();
}

void ProfilePage::Private::discardJsonEdits()
{
    if (!m_formHoldsProfile)
        return;
    m_jsonInvalid = false;
    m_json->setText(jsonTextFor(m_form->profile()));
    m_json->setDiagnostics({}, {});
    refresh();
}

void ProfilePage::Private::revertToSaved()
{
    if (m_saved) {
        showDocument(*m_saved);
    } else if (!m_path.isEmpty()) {
        loadDocument(m_path);
    }
    m_userEdited = false;
    refresh();
}

QList<ProfileIssue> ProfilePage::Private::allIssues() const
{
    QList<ProfileIssue> issues = m_form->inputErrors();
    issues += validateProfile(m_form->profile());
    return issues;
}

bool ProfilePage::Private::canSave(QString* why) const
{
    if (m_jsonInvalid) {
        *why = tr("The JSON tab has errors; fix them, or discard the JSON edits, before saving.");
        return false;
    }
    const QList<ProfileIssue> input = m_form->inputErrors();
    if (!input.isEmpty()) {
        *why = tr("%1 cannot be read; correct it before saving.").arg(input.constFirst().toString());
        return false;
    }
    return true;
}

bool ProfilePage::Private::saveTo(const QString& path)
{
    const Profile profile = m_form->profile();
    const ProfileSaveResult r = ProfileStore::save(profile, path);
    if (!r.ok()) {
        showMessage(Level::Error, r.error);
        m_messageTimer->stop();
        return false;
    }
    const QString absolute = QFileInfo(path).absoluteFilePath();
    const bool moved = absolute != m_path;
    m_path = absolute;
    watchFile(true);
    m_saveTarget = absolute;
    m_saved = profile;
    m_userEdited = false;
    m_json->setText(jsonTextFor(profile));
    m_json->setDiagnostics({}, {});
    ProfileLibrary::addRecentFile(absolute);
    reloadLibrary(absolute);
    // Typed into the form, a literal key is now in the file: the same warning as when such a file is opened.
    const QString keyWarning = profile.target.plainTextKeyWarning(QFileInfo(absolute).fileName());
    const QString keyWarningLine = keyWarning.isEmpty() ? QString() : QStringLiteral("target.api_key: ") + keyWarning;
    const QList<ProfileIssue> issues = validateProfile(profile);
    if (!issues.isEmpty()) {
        QString text = tr("Saved to %1, with problems that stop it from running: %2")
                           .arg(QDir::toNativeSeparators(absolute), issues.constFirst().toString());
        if (!keyWarningLine.isEmpty())
            text += u'\n' + keyWarningLine;
        showMessage(Level::Warning, text);
    } else if (!keyWarningLine.isEmpty()) {
        showMessage(Level::Warning,
            tr("Saved to %1, with a warning: %2").arg(QDir::toNativeSeparators(absolute), keyWarningLine));
    } else {
        showMessage(Level::Info, tr("Saved to %1.").arg(QDir::toNativeSeparators(absolute)));
    }
    if (!keyWarningLine.isEmpty())
        m_json->setDiagnostics({}, { keyWarningLine });
    refresh();
    if (moved)
        Q_EMIT q->currentChanged(q->currentName());
    return true;
}

void ProfilePage::Private::saveAs()
{
    QString why;
    if (!canSave(&why)) {
        showMessage(Level::Error, why);
        return;
    }
    const QString dir = m_path.isEmpty() ? m_library.directory() : QFileInfo(m_path).absolutePath();
    const QString suggested
        = QDir(dir).absoluteFilePath(ProfileLibrary::slug(q->currentName()) + QStringLiteral(".json"));
    QString path = QFileDialog::getSaveFileName(q, tr("Save profile as"), suggested, tr("Kneepoint profiles (*.json)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    saveTo(path);
}

void ProfilePage::Private::watchFile(bool force)
{
    if (!force && m_watchedPath == m_path)
        return;
    if (!m_watcher->files().isEmpty())
        m_watcher->removePaths(m_watcher->files());
    m_watchedPath = m_path;
    m_diskBytes.clear();
    if (m_path.isEmpty() || !QFileInfo::exists(m_path))
        return;
    m_diskBytes = readBoundedFile(m_path, kMaxSettingsFileBytes, nullptr).value_or(QByteArray());
    m_watcher->addPath(m_path);
}

void ProfilePage::Private::onFileChanged(const QString& path)
{
    if (path != m_path)
        return;
    // An atomic save elsewhere replaces the file: watch the new one.
    if (QFileInfo::exists(path) && !m_watcher->files().contains(path))
        m_watcher->addPath(path);
    QString readError;
    const std::optional<QByteArray> read = readBoundedFile(path, kMaxSettingsFileBytes, &readError);
    if (!read) {
        showMessage(Level::Warning,
            QFileInfo::exists(path)
                ? tr("Cannot read the profile: %1").arg(readError)
                : tr("%1 was removed or renamed on disk; Save writes it again.").arg(QDir::toNativeSeparators(path)));
        m_messageTimer->stop();
        return;
    }
    const QByteArray& bytes = *read;
    if (bytes == m_diskBytes)
        return; // our own save, or a touch
    m_diskBytes = bytes;
    if (!q->isModified()) {
        loadDocument(path);
        watchFile(true);
        showMessage(Level::Info, tr("Reloaded %1: it changed on disk.").arg(QDir::toNativeSeparators(path)));
        return;
    }
    if (m_changedBox)
        return; // already asking
    m_changedBox = new QMessageBox(QMessageBox::Warning, tr("Profile changed on disk"),
        tr("“%1” was changed on disk by another program while you were editing it.")
            .arg(QDir::toNativeSeparators(path)),
        QMessageBox::NoButton, q);
    m_changedBox->setObjectName(QStringLiteral("profileChangedOnDisk"));
    m_changedBox->setInformativeText(
        tr("Reload it and lose your unsaved edits, or keep your version (saving it replaces the file; the "
           "previous version is kept as %1.bak).")
            .arg(QFileInfo(path).fileName()));
    QPushButton* reload = m_changedBox->addButton(tr("Reload from Disk"), QMessageBox::DestructiveRole);
    reload->setObjectName(QStringLiteral("reload"));
    QPushButton* keep = m_changedBox->addButton(tr("Keep My Edits"), QMessageBox::RejectRole);
    keep->setObjectName(QStringLiteral("keep"));
    m_changedBox->setDefaultButton(keep);
    m_changedBox->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(m_changedBox, &QMessageBox::buttonClicked, q, [this, path, reload](QAbstractButton* button) {
        if (button != reload || path != m_path)
            return;
        m_userEdited = false;
        loadDocument(path);
        watchFile(true);
    });
    m_changedBox->open();
}

} // namespace kp::ui
