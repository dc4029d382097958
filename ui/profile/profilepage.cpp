#include "profilepage.h"
#include "profilepage_p.h"

#include "kit/connectiontest.h"
#include "planpreview.h"
#include "profile/profilestore.h"
#include "profileform.h"
#include "profilejsoneditor.h"

#include <QDir>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QFrame>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
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

} // namespace

ProfilePage::ProfilePage(QWidget* parent)
    : QWidget(parent)
    , d(std::make_unique<Private>(this))
{
    qRegisterMetaType<kp::Profile>();
    d->buildUi();

    QString error;
    if (!d->m_library.ensureExists(&error))
        d->showMessage(Private::Level::Error, error);
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
        d->showMessage(Private::Level::Error, why);
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
        d->showMessage(Private::Level::Error, saved.error);
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
