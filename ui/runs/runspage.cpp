#include "runs/runspage.h"

#include "runs/runsmodel.h"

#include <QAction>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QJsonDocument>
#include <QJsonObject>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyle>
#include <QTimer>

#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <utility>

namespace kp::ui {

namespace {

constexpr int kNotesPauseMs = 800; // typing stops this long before the notes are written

QToolButton* toolButton(QAction* action, QWidget* parent)
{
    auto* b = new QToolButton(parent);
    b->setDefaultAction(action);
    b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    b->setAutoRaise(true);
    return b;
}

} // namespace

RunsPage::RunsPage(const QString& root, QWidget* parent)
    : QWidget(parent)
    , m_model(new RunsModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTableView(this))
    , m_filter(new QLineEdit(this))
    , m_placeholder(new QLabel(m_view))
    , m_message(new QLabel(this))
    , m_undoButton(new QToolButton(this))
    , m_notesTitle(new QLabel(this))
    , m_notes(new QPlainTextEdit(this))
    , m_saveNotes(new QPushButton(tr("Save notes"), this))
    , m_notesTimer(new QTimer(this))
{
    QStyle* s = style();
    m_open = new QAction(s->standardIcon(QStyle::SP_DialogOpenButton), tr("Open"), this);
    m_open->setToolTip(tr("Show the run in the results view: charts, steps, analysis, errors (Enter)"));
    m_compare = new QAction(s->standardIcon(QStyle::SP_FileDialogListView), tr("Compare"), this);
    m_compare->setToolTip(tr("Overlay the selected runs' curves, with deltas against a baseline"));
    m_rename = new QAction(tr("Rename…"), this);
    m_rename->setShortcut(QKeySequence(Qt::Key_F2));
    m_tags = new QAction(tr("Tags…"), this);
    m_delete = new QAction(s->standardIcon(QStyle::SP_TrashIcon), tr("Delete"), this);
    m_delete->setShortcut(QKeySequence::Delete);
    m_delete->setToolTip(tr("Move the selected runs to the trash (Undo brings them back)"));
    m_undo = new QAction(tr("Undo delete"), this);
    m_undo->setShortcut(QKeySequence::Undo);
    m_refresh = new QAction(s->standardIcon(QStyle::SP_BrowserReload), tr("Refresh"), this);
    m_refresh->setShortcut(QKeySequence::Refresh);
    for (QAction* a : { m_open, m_rename, m_delete, m_undo, m_refresh }) {
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        addAction(a);
    }

    connect(m_open, &QAction::triggered, this, [this] {
        const QStringList dirs = selectedDirs();
        if (!dirs.isEmpty())
            Q_EMIT openRequested(dirs.constFirst());
    });
    connect(m_compare, &QAction::triggered, this, [this] {
        const QStringList dirs = selectedDirs();
        if (dirs.size() >= 2)
            Q_EMIT compareRequested(dirs);
    });
    connect(m_rename, &QAction::triggered, this, &RunsPage::renameCurrent);
    connect(m_tags, &QAction::triggered, this, &RunsPage::editTagsOfCurrent);
    connect(m_delete, &QAction::triggered, this, &RunsPage::trashSelected);
    connect(m_undo, &QAction::triggered, this, &RunsPage::undoTrash);
    connect(m_refresh, &QAction::triggered, this, &RunsPage::reload);
    connect(m_model, &RunsModel::editFailed, this, [this](const QString& error) { showMessage(error, false); });
    connect(m_model, &RunsModel::reloaded, this, &RunsPage::onReloaded);
    connect(m_model, &RunsModel::notesSaved, this, [this](const QString& dir, bool ok, const QString& error) {
        if (ok) {
            Q_EMIT runEdited(dir);
            return;
        }
        showMessage(error, false);
        if (dir == m_notesDir) { // the text is still there to try again
            m_notesSaved.reset();
            m_saveNotes->setEnabled(true);
        }
    });
    connect(m_model, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex& from) {
        if (from.isValid())
            Q_EMIT runEdited(from.data(RunsModel::DirRole).toString());
    });

    m_filter->setPlaceholderText(tr("Filter by name, target, model, tag or status"));
    m_filter->setClearButtonEnabled(true);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(RunsModel::SortRole);
    m_proxy->setFilterRole(RunsModel::FilterRole);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(0);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text.trimmed());
        updatePlaceholder();
    });

    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(RunsModel::Date, Qt::DescendingOrder);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setEditTriggers(QAbstractItemView::EditKeyPressed | QAbstractItemView::SelectedClicked);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_view->addActions({ m_open, m_compare, m_rename, m_tags, m_delete });
    connect(m_view, &QTableView::activated, this,
        [this](const QModelIndex& index) { Q_EMIT openRequested(index.data(RunsModel::DirRole).toString()); });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &RunsPage::onSelectionChanged);

    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setWordWrap(true);
    m_placeholder->setForegroundRole(QPalette::PlaceholderText);
    m_placeholder->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_view->installEventFilter(this);

    m_message->setWordWrap(true);
    m_message->hide();
    m_undoButton->setDefaultAction(m_undo);
    m_undoButton->hide();

    QFont bold = m_notesTitle->font();
    bold.setBold(true);
    m_notesTitle->setFont(bold);
    m_notes->setPlaceholderText(tr("Notes about the selected run: what changed, what it was for"));
    m_notes->setEnabled(false);
    m_saveNotes->setEnabled(false);
    m_notesTimer->setSingleShot(true);
    m_notesTimer->setInterval(kNotesPauseMs);
    connect(m_notesTimer, &QTimer::timeout, this, &RunsPage::flushNotes);
    connect(m_saveNotes, &QPushButton::clicked, this, &RunsPage::flushNotes);
    connect(m_notes, &QPlainTextEdit::textChanged, this, &RunsPage::onNotesEdited);

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(6, 4, 6, 2);
    bar->addWidget(m_filter, 1);
    for (QAction* a : { m_open, m_compare, m_rename, m_tags, m_delete, m_refresh })
        bar->addWidget(toolButton(a, this));
    auto* messageRow = new QHBoxLayout;
    messageRow->setContentsMargins(8, 0, 8, 0);
    messageRow->addWidget(m_message, 1);
    messageRow->addWidget(m_undoButton);

    auto* side = new QWidget(this);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(6, 0, 6, 6);
    sideLayout->addWidget(m_notesTitle);
    sideLayout->addWidget(m_notes, 1);
    sideLayout->addWidget(m_saveNotes, 0, Qt::AlignRight);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_view);
    split->addWidget(side);
    split->setStretchFactor(0, 5);
    split->setStretchFactor(1, 1);
    split->setSizes({ 1000, 220 });
    split->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    layout->addLayout(messageRow);
    layout->addWidget(split, 1);

    setRoot(root);
}

RunsPage::~RunsPage()
{
    flushNotes(); // the write outlives the page; the application waits for it before it ends
}

QString RunsPage::root() const
{
    return m_model->catalog().root();
}

void RunsPage::setRoot(const QString& root)
{
    flushNotes();
    m_reselect.clear();
    m_trashed.clear();
    m_trashedFrom.clear();
    m_model->setCatalog(RunCatalog(root)); // empty until the new list is read
    updatePlaceholder();
    onSelectionChanged();
}

void RunsPage::reload()
{
    if (!m_model->isLoading())
        m_reselect = selectedDirs();
    m_model->reload();
    updatePlaceholder();
}

void RunsPage::reloadAndSelect(const QStringList& dirs)
{
    reload();
    m_reselect = dirs;
}

void RunsPage::onReloaded(const QStringList& warnings)
{
    const QStringList selected = std::exchange(m_reselect, {});
    m_view->resizeColumnsToContents();
    for (int c = 0; c < RunsModel::ColumnCount; ++c)
        m_view->setColumnWidth(c, std::min(m_view->columnWidth(c), c == RunsModel::Target ? 220 : 260));
    selectDirs(selected);
    if (!warnings.isEmpty())
        showMessage(warnings.join(u'\n'), false);
    if (const auto message = std::exchange(m_afterReload, std::nullopt))
        showMessage(message->first, message->second); // what was done, as before the list was read
    updatePlaceholder();
    onSelectionChanged();
    Q_EMIT reloaded();
}

void RunsPage::hideEvent(QHideEvent* event)
{
    flushNotes(); // another page, or the window closing
    QWidget::hideEvent(event);
}

bool RunsPage::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_view && event->type() == QEvent::Resize)
        m_placeholder->setGeometry(m_view->rect().adjusted(40, 40, -40, -40));
    return QWidget::eventFilter(watched, event);
}

QString RunsPage::message() const
{
    return m_message->isVisibleTo(this) ? m_message->text() : QString();
}

void RunsPage::showMessage(const QString& text, bool undoable)
{
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
    m_undoButton->setVisible(undoable && !m_trashed.isEmpty());
}

void RunsPage::updatePlaceholder()
{
    QString text;
    if (m_model->rowCount() == 0 && m_model->isLoading())
        text = tr("Reading the saved runs in %1…").arg(root());
    else if (m_model->rowCount() == 0)
        text = tr("No saved runs in %1 yet. Run a sweep (Ctrl+R), or drop result files from vLLM, SGLang or "
                  "GuideLLM on the window to import them.")
                   .arg(root());
    else if (m_proxy->rowCount() == 0)
        text = tr("No run matches \"%1\".").arg(m_filter->text());
    m_placeholder->setText(text);
    m_placeholder->setVisible(!text.isEmpty());
    m_placeholder->setGeometry(m_view->rect().adjusted(40, 40, -40, -40));
}

QStringList RunsPage::selectedDirs() const
{
    QModelIndexList rows = m_view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    QStringList dirs;
    for (const QModelIndex& i : rows)
        dirs << i.data(RunsModel::DirRole).toString();
    return dirs;
}

void RunsPage::selectDirs(const QStringList& dirs)
{
    QItemSelection selection;
    for (const QString& dir : dirs) {
        const int row = m_model->rowOf(dir);
        if (row < 0)
            continue;
        const QModelIndex i = m_proxy->mapFromSource(m_model->index(row, 0));
        if (i.isValid())
            selection.select(i, i.siblingAtColumn(RunsModel::ColumnCount - 1));
    }
    m_view->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    if (!selection.isEmpty())
        m_view->selectionModel()->setCurrentIndex(selection.indexes().constFirst(), QItemSelectionModel::NoUpdate);
}

void RunsPage::onSelectionChanged()
{
    const QStringList dirs = selectedDirs();
    const QString dir = dirs.size() == 1 ? dirs.constFirst() : QString();
    if (m_model->isLoading())
        m_reselect = dirs; // the user's choice meanwhile
    if (dir != m_notesDir) {
        flushNotes();
        m_notesDir = dir;
        const RunEntry* e = m_model->entry(m_model->rowOf(dir));
        m_notesTitle->setText(e ? tr("Notes · %1").arg(e->name) : tr("Notes"));
        // The list holds every run's notes (and those written since): no file is read here.
        m_notesSaved = e ? e->notes : QString();
        const QSignalBlocker block(m_notes);
        m_notes->setPlainText(*m_notesSaved);
        m_notes->setEnabled(!dir.isEmpty());
        m_saveNotes->setEnabled(false);
    }
    updateActions();
}

void RunsPage::updateActions()
{
    const int n = int(selectedDirs().size());
    m_open->setEnabled(n == 1);
    m_compare->setEnabled(n >= 2);
    m_rename->setEnabled(n == 1);
    m_tags->setEnabled(n == 1);
    m_delete->setEnabled(n >= 1);
    m_undo->setEnabled(!m_trashed.isEmpty());
}

bool RunsPage::renameRun(const QString& dir, const QString& name)
{
    const int row = m_model->rowOf(dir);
    return row >= 0 && m_model->setData(m_model->index(row, RunsModel::Name), name);
}

bool RunsPage::setRunTags(const QString& dir, const QStringList& tags)
{
    const int row = m_model->rowOf(dir);
    return row >= 0 && m_model->setData(m_model->index(row, RunsModel::Tags), tags.join(QStringLiteral(", ")));
}

void RunsPage::setRunNotes(const QString& dir, const QString& notes)
{
    if (dir == m_notesDir) {
        m_notesTimer->stop();
        m_notesSaved = notes;
        const QSignalBlocker block(m_notes);
        m_notes->setPlainText(notes);
        m_saveNotes->setEnabled(false);
    }
    m_model->saveNotes(dir, notes);
}

void RunsPage::onNotesEdited()
{
    const bool unsaved = !m_notesDir.isEmpty() && m_notes->toPlainText() != m_notesSaved;
    m_saveNotes->setEnabled(unsaved);
    if (unsaved)
        m_notesTimer->start(); // each keystroke moves the write on; none reads or writes a file
    else
        m_notesTimer->stop();
}

void RunsPage::flushNotes()
{
    m_notesTimer->stop();
    if (m_notesDir.isEmpty())
        return;
    const QString notes = m_notes->toPlainText();
    if (notes == m_notesSaved)
        return;
    m_notesSaved = notes;
    m_saveNotes->setEnabled(false);
    m_model->saveNotes(m_notesDir, notes);
}

void RunsPage::renameCurrent()
{
    const QStringList dirs = selectedDirs();
    if (dirs.size() != 1)
        return;
    const QModelIndex i = m_proxy->mapFromSource(m_model->index(m_model->rowOf(dirs.constFirst()), RunsModel::Name));
    m_view->edit(i);
}

void RunsPage::editTagsOfCurrent()
{
    const QStringList dirs = selectedDirs();
    if (dirs.size() != 1)
        return;
    const QModelIndex i = m_proxy->mapFromSource(m_model->index(m_model->rowOf(dirs.constFirst()), RunsModel::Tags));
    m_view->edit(i);
}

bool RunsPage::trashSelected()
{
    const QStringList dirs = selectedDirs();
    if (dirs.isEmpty())
        return false;
    QStringList trashed, from, names, errors;
    for (const QString& dir : dirs) {
        const RunEntry* e = m_model->entry(m_model->rowOf(dir));
        const QString name = e ? e->name : QFileInfo(dir).fileName();
        QString error;
        if (const std::optional<QString> to = m_model->moveToTrash(dir, &error)) {
            trashed << *to;
            from << dir;
            names << name;
        } else {
            errors << error;
        }
    }
    if (!trashed.isEmpty()) {
        m_trashed << trashed;
        m_trashedFrom << from;
    }
    reload();
    QString text = names.size() == 1 ? tr("Moved \"%1\" to the trash.").arg(names.constFirst())
        : names.isEmpty()            ? QString()
                                     : tr("Moved %1 runs to the trash.").arg(names.size());
    if (!errors.isEmpty())
        text += (text.isEmpty() ? QString() : QStringLiteral(" ")) + errors.join(u' ');
    showMessage(text, !trashed.isEmpty());
    m_afterReload = std::pair { text, !trashed.isEmpty() };
    updateActions();
    return errors.isEmpty();
}

bool RunsPage::undoTrash()
{
    if (m_trashed.isEmpty())
        return false;
    const QStringList trashed = m_trashed.takeLast();
    const QStringList restored = m_trashedFrom.takeLast();
    QStringList errors;
    for (const QString& dir : trashed) {
        QString error;
        if (!m_model->restore(dir, &error))
            errors << error;
    }
    reloadAndSelect(restored);
    const QString text = errors.isEmpty()
        ? (trashed.size() == 1 ? tr("Restored 1 run.") : tr("Restored %1 runs.").arg(trashed.size()))
        : errors.join(u' ');
    showMessage(text, !m_trashed.isEmpty());
    m_afterReload = std::pair { text, !m_trashed.isEmpty() };
    updateActions();
    return errors.isEmpty();
}

} // namespace kp::ui
