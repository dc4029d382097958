#include "profilepage_p.h"

#include "kit/connectiontest.h"
#include "kit/jobtracker.h"
#include "profile/profilestore.h"
#include "profileform.h"
#include "profilejsoneditor.h"
#include "runs/runcatalog.h"
#include "runs/savedrun.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFont>
#include <QGridLayout>
#include <QLabel>
#include <QListWidget>
#include <QListWidgetItem>
#include <QMenu>
#include <QMessageBox>
#include <QStackedWidget>
#include <QStyle>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

// The Profile page's library: the list of the user's profiles and its actions (new, duplicate, rename,
// delete, open, recent files).

namespace kp::ui {

namespace {

// What the newest run against a real server said about it (the profile's "server" section as run),
// to start a new profile from: the accelerators and versions rarely change between profiles.
// Reads the whole catalogue: called from a background job only.
ServerInfo lastRunServer(const std::atomic_bool& cancelled)
{
    for (const RunEntry& entry : RunCatalog().list()) {
        if (cancelled)
            return {};
        const SavedRunRead read = readSavedRun(entry.dir, SavedRunDepth::RunJson); // the profile is enough
        if (!read.ok() || read.run->profile.target.isBuiltinSimulator()
            || read.run->profile.server.engine == QLatin1String("kneepoint-sim"))
            continue;
        ServerInfo server = read.run->profile.server;
        server.notes.clear();
        if (server != ServerInfo {})
            return server;
    }
    return {};
}

} // namespace

void ProfilePage::Private::buildLibraryPanel(QWidget* panel)
{
    auto* v = new QVBoxLayout(panel);
    v->setContentsMargins(8, 0, 2, 8);
    v->setSpacing(4);
    auto* heading = new QLabel(tr("Profiles"));
    QFont f = heading->font();
    f.setBold(true);
    heading->setFont(f);
    heading->setToolTip(QDir::toNativeSeparators(m_library.directory()));
    v->addWidget(heading);

    m_list = new QListWidget;
    m_list->setObjectName(QStringLiteral("library.list"));
    m_list->setEditTriggers(QAbstractItemView::EditKeyPressed);
    m_list->setMinimumWidth(170);
    m_list->setUniformItemSizes(true);
    m_list->setTextElideMode(Qt::ElideRight);
    QObject::connect(
        m_list, &QListWidget::currentItemChanged, q, [this](QListWidgetItem* current, QListWidgetItem* previous) {
            if (m_syncingList || !current)
                return;
            const QString path = current->data(Qt::UserRole).toString();
            if (path == m_path)
                return;
            if (!q->maybeSave()) {
                m_syncingList = true;
                m_list->setCurrentItem(previous);
                m_syncingList = false;
                return;
            }
            loadDocument(path);
        });
    QObject::connect(m_list, &QListWidget::itemChanged, q, [this](QListWidgetItem* item) {
        if (!m_syncingList)
            renameEntry(item);
    });
    v->addWidget(m_list, 1);

    auto button = [](const QString& text, const QString& name, const QString& tip) {
        auto* b = new QToolButton;
        b->setText(text);
        b->setObjectName(name);
        b->setToolTip(tip);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        b->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        return b;
    };
    auto* newButton = button(tr("New"), QStringLiteral("library.new"), tr("A new profile in the library"));
    m_duplicate
        = button(tr("Duplicate"), QStringLiteral("library.duplicate"), tr("A copy of the selected profile, as saved"));
    m_rename = button(tr("Rename"), QStringLiteral("library.rename"), tr("Rename the selected profile (F2)"));
    m_delete = button(tr("Delete"), QStringLiteral("library.delete"), tr("Delete the selected profile's file"));
    auto* openButton = button(tr("Open…"), QStringLiteral("library.open"), tr("Open a profile file (JSON or TOML)"));
    auto* recent = button(tr("Recent"), QStringLiteral("library.recent"), tr("Recently opened profile files"));
    m_recentMenu = new QMenu(recent);
    recent->setMenu(m_recentMenu);
    recent->setPopupMode(QToolButton::InstantPopup);
    QObject::connect(m_recentMenu, &QMenu::aboutToShow, q, [this] { fillRecentMenu(); });
    QObject::connect(newButton, &QToolButton::clicked, q, [this] { newProfile(); });
    QObject::connect(m_duplicate, &QToolButton::clicked, q, [this] { duplicateSelected(); });
    QObject::connect(m_rename, &QToolButton::clicked, q, [this] {
        if (QListWidgetItem* item = m_list->currentItem())
            m_list->editItem(item);
    });
    QObject::connect(m_delete, &QToolButton::clicked, q, [this] { deleteSelected(); });
    QObject::connect(openButton, &QToolButton::clicked, q, [this] { openDialog(); });
    auto* grid = new QGridLayout;
    grid->setSpacing(3);
    grid->addWidget(newButton, 0, 0);
    grid->addWidget(m_duplicate, 0, 1);
    grid->addWidget(m_rename, 1, 0);
    grid->addWidget(m_delete, 1, 1);
    grid->addWidget(openButton, 2, 0);
    grid->addWidget(recent, 2, 1);
    v->addLayout(grid);
}

void ProfilePage::Private::reloadLibrary(const QString& select)
{
    m_syncingList = true;
    m_list->clear();
    const QIcon broken = q->style()->standardIcon(QStyle::SP_MessageBoxWarning);
    for (const ProfileLibrary::Entry& e : m_library.entries()) {
        auto* item = new QListWidgetItem(e.name, m_list);
        item->setData(Qt::UserRole, e.path);
        item->setFlags(item->flags() | Qt::ItemIsEditable);
        QString tip = QDir::toNativeSeparators(e.path);
        if (!e.error.isEmpty()) {
            item->setIcon(broken);
            tip += QLatin1Char('\n') + e.error;
        }
        item->setToolTip(tip);
    }
    m_syncingList = false;
    selectInList(select);
    const bool any = m_list->count() > 0;
    m_stack->setCurrentWidget(any || m_formHoldsProfile || !m_path.isEmpty() ? static_cast<QWidget*>(m_tabs) : m_empty);
}

void ProfilePage::Private::selectInList(const QString& path)
{
    m_syncingList = true;
    m_list->setCurrentItem(nullptr);
    for (int i = 0; i < m_list->count(); ++i) {
        if (!path.isEmpty() && m_list->item(i)->data(Qt::UserRole).toString() == path) {
            m_list->setCurrentRow(i);
            break;
        }
    }
    m_syncingList = false;
    const bool selected = m_list->currentItem() != nullptr;
    m_duplicate->setEnabled(selected);
    m_rename->setEnabled(selected);
    m_delete->setEnabled(selected);
}

void ProfilePage::Private::newProfile()
{
    if (!q->maybeSave())
        return;
    if (!m_newProfileJob)
        m_newProfileJob = new JobTracker(q);
    // The server section is prefilled from the last run: the runs are read in the background.
    m_newProfileJob->start(
        tr("Reading the last run's server"),
        [](const JobTracker::CancelFlag& cancelled) { return lastRunServer(cancelled); },
        [this](const ServerInfo& server) { createNewProfile(server); });
}

void ProfilePage::Private::createNewProfile(const ServerInfo& server)
{
    Profile p;
    p.name = tr("New profile");
    p.target.baseUrl = QStringLiteral("http://127.0.0.1:8000");
    p.load.plan.kind = PlanKind::Auto;
    p.server = server;
    QString error;
    m_library.ensureExists(&error);
    const QString path = m_library.uniquePath(p.name);
    const ProfileSaveResult r = ProfileStore::save(p, path);
    if (!r.ok()) {
        showMessage(Level::Error, r.error);
        m_path.clear();
        m_saveTarget.clear();
        m_saved.reset();
        showDocument(p);
        m_userEdited = true;
        m_stack->setCurrentWidget(m_tabs);
        refresh();
        Q_EMIT q->currentChanged(q->currentName());
        return;
    }
    reloadLibrary(path);
    loadDocument(path);
    if (QListWidgetItem* item = m_list->currentItem())
        m_list->editItem(item);
}

void ProfilePage::Private::duplicateSelected()
{
    QListWidgetItem* item = m_list->currentItem();
    if (!item)
        return;
    const QString source = item->data(Qt::UserRole).toString();
    const ProfileLoadResult r = ProfileStore::load(source);
    if (!r.ok()) {
        showMessage(Level::Error, tr("Cannot duplicate: %1").arg(r.errors.value(0)));
        return;
    }
    if (!q->maybeSave())
        return;
    Profile copy = *r.profile;
    copy.name = tr("%1 (copy)").arg(item->text());
    const QString path = m_library.uniquePath(copy.name);
    const ProfileSaveResult saved = ProfileStore::save(copy, path);
    if (!saved.ok()) {
        showMessage(Level::Error, saved.error);
        return;
    }
    reloadLibrary(path);
    loadDocument(path);
}

void ProfilePage::Private::renameEntry(QListWidgetItem* item)
{
    const QString path = item->data(Qt::UserRole).toString();
    const QString name = item->text().trimmed();
    const bool current = path == m_path;
    auto restore = [this, path] { reloadLibrary(m_path.isEmpty() ? path : m_path); };

    std::optional<Profile> profile;
    if (current && m_saved) {
        profile = *m_saved;
    } else {
        const ProfileLoadResult r = ProfileStore::load(path);
        if (!r.ok()) {
            showMessage(Level::Error, tr("Cannot rename: %1").arg(r.errors.value(0)));
            QTimer::singleShot(0, q, restore);
            return;
        }
        profile = *r.profile;
    }
    if (name.isEmpty() || name == profile->name) {
        QTimer::singleShot(0, q, restore);
        return;
    }
    profile->name = name;
    const bool json = path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive);
    // Only a file Kneepoint wrote is replaced; another layout keeps its original.
    const ProfileLoadResult layout = ProfileStore::load(path);
    const bool ours = json && layout.layout == ProfileLayout::Kneepoint;
    const QString target = m_library.uniquePath(name, ours ? path : QString());
    const ProfileSaveResult saved = ProfileStore::save(*profile, target);
    if (!saved.ok()) {
        showMessage(Level::Error, saved.error);
        QTimer::singleShot(0, q, restore);
        return;
    }
    if (ours && target != path)
        QFile::remove(path);
    else if (!ours)
        showMessage(Level::Info,
            tr("Renamed: saved as %1 in Kneepoint's schema; the original %2 is kept.")
                .arg(QFileInfo(target).fileName(), QFileInfo(path).fileName()));
    ProfileLibrary::replaceRecentFile(path, target);
    if (current) {
        m_path = target;
        m_saveTarget = target;
        m_saved = profile;
        Profile edited = m_form->profile();
        edited.name = name;
        const bool wasEdited = m_userEdited;
        showDocument(edited);
        m_userEdited = wasEdited;
    }
    // The item being edited must not be deleted from inside its own change signal.
    QTimer::singleShot(0, q, [this, target, current] {
        reloadLibrary(current ? m_path : target);
        if (!current)
            selectInList(m_path);
        refresh();
        if (current)
            Q_EMIT q->currentChanged(q->currentName());
    });
}

void ProfilePage::Private::deleteSelected()
{
    QListWidgetItem* item = m_list->currentItem();
    if (!item)
        return;
    const QString path = item->data(Qt::UserRole).toString();
    QMessageBox box(QMessageBox::Question, tr("Delete profile"), tr("Delete the profile “%1”?").arg(item->text()),
        QMessageBox::Yes | QMessageBox::Cancel, q);
    box.setObjectName(QStringLiteral("confirmDelete"));
    box.setInformativeText(tr("The file %1 is removed.").arg(QDir::toNativeSeparators(path)));
    box.button(QMessageBox::Yes)->setText(tr("Delete"));
    box.setDefaultButton(QMessageBox::Cancel);
    if (box.exec() != QMessageBox::Yes)
        return;
    QFile file(path);
    if (!file.remove()) {
        showMessage(Level::Error, tr("Cannot delete %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
        return;
    }
    const bool current = path == m_path;
    showMessage(Level::Info, tr("Deleted %1.").arg(QDir::toNativeSeparators(path)));
    if (!current) {
        reloadLibrary(m_path);
        return;
    }
    m_userEdited = false;
    const QList<ProfileLibrary::Entry> entries = m_library.entries();
    if (entries.isEmpty()) {
        closeDocument();
        reloadLibrary(QString());
        return;
    }
    reloadLibrary(entries.constFirst().path);
    loadDocument(entries.constFirst().path);
}

void ProfilePage::Private::closeDocument()
{
    m_connection->clear();
    m_path.clear();
    m_saveTarget.clear();
    m_saved.reset();
    m_userEdited = false;
    m_jsonInvalid = false;
    m_formHoldsProfile = false;
    m_form->setProfile(Profile {});
    m_json->setText(QString());
    m_json->setDiagnostics({}, {});
    m_stack->setCurrentWidget(m_empty);
    refresh();
    Q_EMIT q->currentChanged(q->currentName());
}

void ProfilePage::Private::fillRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = ProfileLibrary::recentFiles();
    for (const QString& f : files) {
        if (!QFileInfo::exists(f))
            continue;
        QAction* a = m_recentMenu->addAction(QFileInfo(f).fileName());
        a->setToolTip(QDir::toNativeSeparators(f));
        a->setStatusTip(QDir::toNativeSeparators(f));
        QObject::connect(a, &QAction::triggered, q, [this, f] { q->openFile(f); });
    }
    if (m_recentMenu->isEmpty()) {
        m_recentMenu->addAction(tr("No recent files"))->setEnabled(false);
        return;
    }
    m_recentMenu->addSeparator();
    QObject::connect(m_recentMenu->addAction(tr("Clear the list")), &QAction::triggered, q,
        [] { ProfileLibrary::clearRecentFiles(); });
}

void ProfilePage::Private::openDialog()
{
    const QString dir = m_path.isEmpty() ? m_library.directory() : QFileInfo(m_path).absolutePath();
    const QString path = QFileDialog::getOpenFileName(
        q, tr("Open profile"), dir, tr("Profiles (*.json *.toml);;JSON (*.json);;TOML (*.toml);;All files (*)"));
    if (!path.isEmpty())
        q->openFile(path);
}

} // namespace kp::ui
