#include "profilepage.h"

#include "kit/connectiontest.h"
#include "kit/profilelibrary.h"
#include "planpreview.h"
#include "profileform.h"
#include "profilejsoneditor.h"

#include "kit/jobtracker.h"
#include "metrics/boundedread.h"
#include "profile/profilestore.h"
#include "runs/runcatalog.h"
#include "runs/savedrun.h"

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QFrame>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyle>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace kp::ui {

namespace {

const QString demoUrl()
{
    return QStringLiteral("sim://default?time_scale=1");
}

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

Profile demoProfile()
{
    return Profile::demo(QUrl(demoUrl()), QString());
}

bool isSectionPath(const QString& path, std::initializer_list<QStringView> sections)
{
    for (QStringView s : sections) {
        if (path.startsWith(s) && (path.size() == s.size() || path.at(s.size()) == QLatin1Char('.')))
            return true;
    }
    return false;
}

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

enum class Level { Info, Warning, Error };

} // namespace

class ProfilePage::Private
{
public:
    explicit Private(ProfilePage* page)
        : q(page)
    { }

    void buildUi();
    void buildLibraryPanel(QWidget* panel);
    void buildEditor();
    void buildSidePanel(QWidget* panel);

    void reloadLibrary(const QString& select);
    void selectInList(const QString& path);
    bool loadDocument(const QString& path);
    void showDocument(const Profile& profile);
    void onFormEdited();
    void onJsonEdited();
    void discardJsonEdits();
    void revertToSaved();
    void refresh();
    bool canSave(QString* why) const;
    bool saveTo(const QString& path);
    void saveAs();
    void openDialog();
    void newProfile();
    void createNewProfile(const ServerInfo& server);
    void duplicateSelected();
    void renameEntry(QListWidgetItem* item);
    void deleteSelected();
    void closeDocument();
    void showMessage(Level level, const QString& text);
    void hideMessage();
    void fillRecentMenu();

    // The open file is watched: a change made by another program is reloaded, or, over unsaved edits,
    // put to the user.
    void watchFile(bool force = false);
    void onFileChanged(const QString& path);

    QString jsonTextFor(const Profile& profile) const;
    QString jsonSourceName() const;
    QList<ProfileIssue> allIssues() const;

    ProfilePage* q;
    ProfileLibrary m_library;

    // The document
    QString m_path; // empty: not saved yet
    QString m_saveTarget; // where Save writes: m_path, or a .kneepoint.json next to a file of another layout
    std::optional<Profile> m_saved; // as on disk; nullopt when the file could not be read
    bool m_userEdited = false;
    bool m_jsonInvalid = false;
    bool m_formHoldsProfile = false; // the form shows a profile that was read (not a placeholder)
    bool m_lastModified = false;
    QString m_lastName;
    QFileSystemWatcher* m_watcher = nullptr;
    QString m_watchedPath;
    QByteArray m_diskBytes; // the file as last read or written here
    QPointer<QMessageBox> m_changedBox;

    // Widgets
    QListWidget* m_list = nullptr;
    bool m_syncingList = false;
    QToolButton* m_duplicate = nullptr;
    QToolButton* m_rename = nullptr;
    QToolButton* m_delete = nullptr;
    QMenu* m_recentMenu = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_pathLabel = nullptr;
    QLabel* m_state = nullptr;
    QPushButton* m_save = nullptr;
    QPushButton* m_saveAs = nullptr;
    QPushButton* m_run = nullptr;
    QFrame* m_messageBar = nullptr;
    QLabel* m_message = nullptr;
    QTimer* m_messageTimer = nullptr;
    QSplitter* m_splitter = nullptr;
    QStackedWidget* m_stack = nullptr;
    QWidget* m_empty = nullptr;
    QTabWidget* m_tabs = nullptr;
    QWidget* m_formPage = nullptr;
    QFrame* m_jsonBanner = nullptr;
    QPushButton* m_discardJson = nullptr;
    ProfileForm* m_form = nullptr;
    ProfileJsonEditor* m_json = nullptr;
    PlanPreview* m_plan = nullptr;
    ConnectionTest* m_connection = nullptr;
    JobTracker* m_newProfileJob = nullptr; // reads the runs for a new profile's server section
};

ProfilePage::ProfilePage(QWidget* parent)
    : QWidget(parent)
    , d(std::make_unique<Private>(this))
{
    qRegisterMetaType<kp::Profile>();
    d->buildUi();

    QString error;
    if (!d->m_library.ensureExists(&error))
        d->showMessage(Level::Error, error);
    const QList<ProfileLibrary::Entry> entries = d->m_library.entries();
    if (entries.isEmpty()) {
        selectDemo(); // first run: a profile that works without a server of one's own
    } else {
        QString first = entries.constFirst().path;
        for (const QString& recent : ProfileLibrary::recentFiles()) {
            if (d->m_library.contains(recent) && QFileInfo::exists(recent)) {
                first = recent;
                break;
            }
        }
        d->reloadLibrary(first);
        d->loadDocument(first);
    }
}

ProfilePage::~ProfilePage()
{
    QSettings().setValue(QStringLiteral("profilePage/splitter"), d->m_splitter->saveState());
}

std::optional<Profile> ProfilePage::currentProfile() const
{
    if (!d->m_formHoldsProfile || d->m_jsonInvalid || !d->allIssues().isEmpty())
        return std::nullopt;
    return d->m_form->profile();
}

QString ProfilePage::currentName() const
{
    const QString name = d->m_form->profile().name.trimmed();
    if (!name.isEmpty() && d->m_formHoldsProfile)
        return name;
    if (!d->m_path.isEmpty())
        return QFileInfo(d->m_path).completeBaseName();
    return name.isEmpty() ? tr("Untitled") : name;
}

QString ProfilePage::currentPath() const
{
    return d->m_path;
}

bool ProfilePage::isModified() const
{
    if (!d->m_userEdited)
        return false;
    if (d->m_jsonInvalid || !d->m_form->inputErrors().isEmpty() || !d->m_saved)
        return true;
    return d->m_form->profile() != *d->m_saved;
}

bool ProfilePage::maybeSave()
{
    if (!isModified())
        return true;
    QString why;
    const bool savable = d->canSave(&why);
    QMessageBox box(QMessageBox::Warning, tr("Unsaved changes"),
        tr("The profile “%1” has unsaved changes.").arg(currentName()), QMessageBox::NoButton, this);
    box.setObjectName(QStringLiteral("unsavedChanges"));
    if (savable) {
        box.setInformativeText(tr("Save them?"));
        box.setStandardButtons(QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
        box.setDefaultButton(QMessageBox::Save);
    } else {
        box.setInformativeText(tr("%1 Discard them?").arg(why));
        box.setStandardButtons(QMessageBox::Discard | QMessageBox::Cancel);
        box.setDefaultButton(QMessageBox::Cancel);
    }
    switch (box.exec()) {
    case QMessageBox::Save:
        return save();
    case QMessageBox::Discard:
        d->revertToSaved();
        return true;
    default:
        return false;
    }
}

bool ProfilePage::save()
{
    QString why;
    if (!d->canSave(&why)) {
        d->showMessage(Level::Error, why);
        return false;
    }
    const QString target = d->m_saveTarget.isEmpty() ? d->m_library.uniquePath(currentName()) : d->m_saveTarget;
    return d->saveTo(target);
}

void ProfilePage::openFile(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (absolute == d->m_path && !isModified()) {
        d->selectInList(absolute);
        return;
    }
    if (!maybeSave()) {
        d->selectInList(d->m_path);
        return;
    }
    d->loadDocument(absolute);
}

void ProfilePage::selectDemo()
{
    const Profile demo = demoProfile();
    QString found;
    for (const ProfileLibrary::Entry& e : d->m_library.entries()) {
        if (e.name != demo.name || !e.error.isEmpty())
            continue;
        const ProfileLoadResult r = ProfileStore::load(e.path);
        if (r.ok() && r.profile->target.isBuiltinSimulator()) {
            found = e.path;
            break;
        }
    }
    if (!found.isEmpty()) {
        openFile(found);
        return;
    }
    if (!maybeSave())
        return;
    QString error;
    d->m_library.ensureExists(&error);
    const QString path = d->m_library.uniquePath(demo.name);
    const ProfileSaveResult saved = ProfileStore::save(demo, path);
    if (!saved.ok()) {
        // Still offer it, unsaved: the demo needs no file to run.
        d->showMessage(Level::Error, saved.error);
        d->m_path.clear();
        d->m_saveTarget.clear();
        d->m_saved.reset();
        d->showDocument(demo);
        d->m_userEdited = true;
        d->refresh();
        Q_EMIT currentChanged(currentName());
        return;
    }
    d->reloadLibrary(path);
    d->loadDocument(path);
}

// ---------------------------------------------------------------------------------------------
// Building

void ProfilePage::Private::buildUi()
{
    auto* outer = new QVBoxLayout(q);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(0);

    // Header: what is open, its state, and the page's actions.
    auto* header = new QWidget;
    auto* h = new QHBoxLayout(header);
    h->setContentsMargins(10, 6, 10, 6);
    auto* titles = new QVBoxLayout;
    titles->setSpacing(0);
    m_title = new QLabel;
    m_title->setObjectName(QStringLiteral("page.title"));
    QFont big = m_title->font();
    big.setPointSizeF(big.pointSizeF() * 1.25);
    big.setBold(true);
    m_title->setFont(big);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_pathLabel = new QLabel;
    m_pathLabel->setObjectName(QStringLiteral("page.path"));
    m_pathLabel->setForegroundRole(QPalette::PlaceholderText);
    m_pathLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The name and path give way (and elide through the tooltip) before the state and the buttons do.
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_pathLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    titles->addWidget(m_title);
    titles->addWidget(m_pathLabel);
    h->addLayout(titles, 1);
    m_state = new QLabel;
    m_state->setObjectName(QStringLiteral("page.state"));
    m_state->setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Preferred);
    h->addWidget(m_state);
    h->addSpacing(12);
    m_save = new QPushButton(tr("Save"));
    m_save->setObjectName(QStringLiteral("page.save"));
    m_save->setIcon(q->style()->standardIcon(QStyle::SP_DialogSaveButton));
    m_saveAs = new QPushButton(tr("Save As…"));
    m_saveAs->setObjectName(QStringLiteral("page.saveAs"));
    m_run = new QPushButton(tr("Run sweep"));
    m_run->setObjectName(QStringLiteral("page.run"));
    m_run->setIcon(q->style()->standardIcon(QStyle::SP_MediaPlay));
    m_run->setDefault(true);
    QObject::connect(m_save, &QPushButton::clicked, q, [this] { q->save(); });
    QObject::connect(m_saveAs, &QPushButton::clicked, q, [this] { saveAs(); });
    QObject::connect(m_run, &QPushButton::clicked, q, [this] {
        if (const std::optional<Profile> p = q->currentProfile())
            Q_EMIT q->runRequested(*p);
    });
    h->addWidget(m_save);
    h->addWidget(m_saveAs);
    h->addSpacing(8);
    h->addWidget(m_run);
    outer->addWidget(header);

    // Messages about the document (saved, save failed, read from another layout); never modal.
    m_messageBar = new QFrame;
    m_messageBar->setObjectName(QStringLiteral("page.messageBar"));
    m_messageBar->setFrameShape(QFrame::StyledPanel);
    m_messageBar->setAutoFillBackground(true);
    auto* mb = new QHBoxLayout(m_messageBar);
    mb->setContentsMargins(10, 4, 4, 4);
    m_message = new QLabel;
    m_message->setObjectName(QStringLiteral("page.message"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* close = new QToolButton;
    close->setAutoRaise(true);
    close->setIcon(q->style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    close->setToolTip(tr("Dismiss"));
    QObject::connect(close, &QToolButton::clicked, q, [this] { hideMessage(); });
    mb->addWidget(m_message, 1);
    mb->addWidget(close, 0, Qt::AlignTop);
    m_messageBar->setVisible(false);
    m_watcher = new QFileSystemWatcher(q);
    QObject::connect(
        m_watcher, &QFileSystemWatcher::fileChanged, q, [this](const QString& path) { onFileChanged(path); });
    m_messageTimer = new QTimer(q);
    m_messageTimer->setSingleShot(true);
    QObject::connect(m_messageTimer, &QTimer::timeout, q, [this] { hideMessage(); });
    auto* messageHolder = new QWidget;
    auto* mh = new QVBoxLayout(messageHolder);
    mh->setContentsMargins(8, 0, 8, 4);
    mh->addWidget(m_messageBar);
    outer->addWidget(messageHolder);

    m_splitter = new QSplitter(Qt::Horizontal);
    m_splitter->setObjectName(QStringLiteral("page.splitter"));
    m_splitter->setChildrenCollapsible(false);
    auto* libraryPanel = new QWidget;
    buildLibraryPanel(libraryPanel);
    m_splitter->addWidget(libraryPanel);

    buildEditor();
    m_splitter->addWidget(m_stack);

    auto* side = new QWidget;
    buildSidePanel(side);
    m_splitter->addWidget(side);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setStretchFactor(2, 0);
    m_splitter->setSizes({ 210, 640, 400 });
    const QByteArray state = QSettings().value(QStringLiteral("profilePage/splitter")).toByteArray();
    if (!state.isEmpty())
        m_splitter->restoreState(state);
    outer->addWidget(m_splitter, 1);
}

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

void ProfilePage::Private::buildEditor()
{
    m_stack = new QStackedWidget;

    // With no profile at all (everything deleted): the ways to get one.
    m_empty = new QWidget;
    auto* ev = new QVBoxLayout(m_empty);
    ev->addStretch();
    auto* emptyText = new QLabel(tr("No profiles yet."));
    emptyText->setAlignment(Qt::AlignCenter);
    ev->addWidget(emptyText);
    auto* demo = new QPushButton(tr("Use the demo profile (built-in simulator)"));
    demo->setObjectName(QStringLiteral("empty.demo"));
    auto* fresh = new QPushButton(tr("New profile"));
    auto* open = new QPushButton(tr("Open a profile file…"));
    for (QPushButton* b : { demo, fresh, open }) {
        auto* row = new QHBoxLayout;
        row->addStretch();
        row->addWidget(b);
        row->addStretch();
        ev->addLayout(row);
    }
    ev->addStretch();
    QObject::connect(demo, &QPushButton::clicked, q, [this] { q->selectDemo(); });
    QObject::connect(fresh, &QPushButton::clicked, q, [this] { newProfile(); });
    QObject::connect(open, &QPushButton::clicked, q, [this] { openDialog(); });
    m_stack->addWidget(m_empty);

    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("editor.tabs"));
    m_tabs->setDocumentMode(true);

    m_formPage = new QWidget;
    auto* fv = new QVBoxLayout(m_formPage);
    fv->setContentsMargins(0, 0, 0, 0);
    fv->setSpacing(0);
    m_jsonBanner = new QFrame;
    m_jsonBanner->setObjectName(QStringLiteral("form.jsonBanner"));
    m_jsonBanner->setFrameShape(QFrame::StyledPanel);
    auto* bh = new QHBoxLayout(m_jsonBanner);
    auto* bannerText = new QLabel(tr("The JSON tab has errors. The form shows the last profile that could be read "
                                     "and stays read-only until they are fixed."));
    bannerText->setWordWrap(true);
    m_discardJson = new QPushButton(tr("Discard JSON edits"));
    m_discardJson->setObjectName(QStringLiteral("form.discardJson"));
    QObject::connect(m_discardJson, &QPushButton::clicked, q, [this] { discardJsonEdits(); });
    bh->addWidget(bannerText, 1);
    bh->addWidget(m_discardJson);
    m_jsonBanner->setVisible(false);
    fv->addWidget(m_jsonBanner);
    m_form = new ProfileForm;
    m_form->setObjectName(QStringLiteral("editor.form"));
    fv->addWidget(m_form, 1);
    m_tabs->addTab(m_formPage, tr("Form"));

    m_json = new ProfileJsonEditor;
    m_json->setObjectName(QStringLiteral("editor.json"));
    m_tabs->addTab(m_json, tr("JSON"));

    QObject::connect(m_form, &ProfileForm::edited, q, [this] { onFormEdited(); });
    QObject::connect(m_json, &ProfileJsonEditor::textEdited, q, [this] { onJsonEdited(); });
    m_stack->addWidget(m_tabs);
}

void ProfilePage::Private::buildSidePanel(QWidget* panel)
{
    auto* v = new QVBoxLayout(panel);
    v->setContentsMargins(2, 0, 8, 8);
    v->setSpacing(8);
    auto* planBox = new QGroupBox(tr("Plan preview"));
    auto* pv = new QVBoxLayout(planBox);
    m_plan = new PlanPreview;
    m_plan->setObjectName(QStringLiteral("plan"));
    pv->addWidget(m_plan);
    v->addWidget(planBox, 3);

    auto* connBox = new QGroupBox(tr("Connection"));
    auto* cv = new QVBoxLayout(connBox);
    m_connection = new ConnectionTest;
    m_connection->setObjectName(QStringLiteral("connection"));
    cv->addWidget(m_connection);
    v->addWidget(connBox, 2);
    panel->setMinimumWidth(320);
}

// ---------------------------------------------------------------------------------------------
// The library

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

// ---------------------------------------------------------------------------------------------
// The document

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

void ProfilePage::Private::refresh()
{
    watchFile();
    const Profile& profile = m_form->profile();
    const QList<ProfileIssue> issues = validateProfile(profile);
    const QList<ProfileIssue> input = m_form->inputErrors();
    m_form->showIssues(issues);
    m_form->setEnabled(!m_jsonInvalid);
    m_jsonBanner->setVisible(m_jsonInvalid);
    m_discardJson->setVisible(m_formHoldsProfile);
    m_tabs->setTabIcon(
        m_tabs->indexOf(m_json), m_jsonInvalid ? q->style()->standardIcon(QStyle::SP_MessageBoxCritical) : QIcon());

    const bool hasLiteralKey
        = !profile.target.apiKey.isEmpty() && profile.target.apiKeySource() == ApiKeyResolution::Source::Literal;
    m_json->setNote(hasLiteralKey && m_formHoldsProfile
            ? tr("The API key is shown as %1; leave it so to keep the key, or write a new one.")
                  .arg(redactedPlaceholder())
            : QString());

    const int problems = int(issues.size() + input.size());
    const bool valid = m_formHoldsProfile && !m_jsonInvalid && problems == 0;
    m_run->setEnabled(valid);
    m_run->setToolTip(valid ? tr("Run the sweep with this profile (unsaved edits included)")
                            : tr("The profile has problems; they are shown at their fields."));
    QPalette pal = m_state->palette();
    const bool dark = pal.color(QPalette::Window).lightness() < 128;
    if (!m_formHoldsProfile && m_path.isEmpty() && !m_jsonInvalid) {
        m_state->clear();
    } else if (m_jsonInvalid) {
        m_state->setText(tr("✗ the JSON has errors"));
        pal.setColor(QPalette::WindowText, dark ? QColor(0xef, 0x9a, 0x9a) : QColor(0xc6, 0x28, 0x28));
    } else if (problems > 0) {
        m_state->setText(problems == 1 ? tr("✗ 1 problem") : tr("✗ %1 problems").arg(problems));
        pal.setColor(QPalette::WindowText, dark ? QColor(0xef, 0x9a, 0x9a) : QColor(0xc6, 0x28, 0x28));
    } else {
        m_state->setText(tr("✓ ready to run"));
        pal.setColor(QPalette::WindowText, dark ? QColor(0xa5, 0xd6, 0xa7) : QColor(0x2e, 0x7d, 0x32));
    }
    m_state->setPalette(pal);

    // The plan needs readable load, workload and SLO sections; the target does not matter to it.
    QList<ProfileIssue> planIssues;
    for (const ProfileIssue& i : input + issues) {
        if (isSectionPath(i.path, { u"load", u"workload", u"slo" }))
            planIssues << i;
    }
    if (!m_formHoldsProfile)
        m_plan->setUnavailable(tr("No profile to plan yet."));
    else if (!planIssues.isEmpty())
        m_plan->setUnavailable(tr("The plan appears once this is fixed: %1").arg(planIssues.constFirst().toString()));
    else
        m_plan->setProfile(profile);

    bool targetOk = m_formHoldsProfile && !m_jsonInvalid;
    for (const ProfileIssue& i : input + issues) {
        if (isSectionPath(i.path, { u"target" }))
            targetOk = false;
    }
    m_connection->setProfile(profile, targetOk);

    const bool modified = q->isModified();
    const QString name = q->currentName();
    m_title->setText(modified ? tr("%1 •").arg(name) : name);
    m_title->setToolTip(modified ? tr("Unsaved changes") : QString());
    m_pathLabel->setText(m_path.isEmpty() ? tr("not saved yet")
            : m_saveTarget != m_path
            ? tr("%1 (saves to %2)").arg(QDir::toNativeSeparators(m_path), QFileInfo(m_saveTarget).fileName())
            : QDir::toNativeSeparators(m_path));
    m_pathLabel->setToolTip(m_pathLabel->text());
    m_save->setEnabled(m_formHoldsProfile || m_jsonInvalid);
    m_saveAs->setEnabled(m_formHoldsProfile || m_jsonInvalid);
    if (modified != m_lastModified) {
        m_lastModified = modified;
        Q_EMIT q->modifiedChanged(modified);
    }
    if (name != m_lastName) {
        const bool first = m_lastName.isNull();
        m_lastName = name;
        if (!first && m_userEdited)
            Q_EMIT q->currentChanged(name);
    }
}

void ProfilePage::Private::showMessage(Level level, const QString& text)
{
    QPalette pal = m_messageBar->palette();
    const bool dark = pal.color(QPalette::Window).lightness() < 128;
    QColor background;
    switch (level) {
    case Level::Info:
        background = dark ? QColor(0x1e, 0x3a, 0x5f) : QColor(0xe3, 0xf2, 0xfd);
        break;
    case Level::Warning:
        background = dark ? QColor(0x4e, 0x3b, 0x0a) : QColor(0xff, 0xf4, 0xd6);
        break;
    case Level::Error:
        background = dark ? QColor(0x5c, 0x1f, 0x1f) : QColor(0xfd, 0xe4, 0xe4);
        break;
    }
    pal.setColor(QPalette::Window, background);
    m_messageBar->setPalette(pal);
    m_messageBar->setProperty("kpLevel", int(level));
    m_message->setText(text);
    m_messageBar->setVisible(true);
    if (level == Level::Info)
        m_messageTimer->start(8000);
    else
        m_messageTimer->stop();
}

void ProfilePage::Private::hideMessage()
{
    m_messageTimer->stop();
    m_messageBar->setVisible(false);
    m_message->clear();
}

} // namespace kp::ui
