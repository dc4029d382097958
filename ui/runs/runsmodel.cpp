#include "runs/runsmodel.h"

#include "kit/jobtracker.h"
#include "kit/uiformat.h"

#include <QCoreApplication>
#include <QFont>
#include <QLocale>
#include <QMutex>
#include <QMutexLocker>
#include <QRegularExpression>

namespace kp::ui {

// Every change of a run.json made here goes under one lock, so that a notes write on the pool and a
// rename in the window never interleave their read-modify-write of the same file. Each notes write
// carries its number; one that finds a newer write of the same run done skips, so the last asked wins
// whatever order the pool runs them in.
struct RunsModel::Writes
{
    QMutex mutex;
    QHash<QString, quint64> written; // dir → number of the last notes write applied
    quint64 next = 0; // only touched in the GUI thread
};

namespace {

struct CatalogRead
{
    std::vector<RunEntry> entries;
    QStringList warnings;
};

struct NotesWrite
{
    bool ok = true;
    QString error;
};

} // namespace

RunsModel::RunsModel(QObject* parent)
    : QAbstractTableModel(parent)
    , m_loader(new JobTracker(this))
    , m_writes(std::make_shared<Writes>())
{ }

RunsModel::~RunsModel() = default;

void RunsModel::setCatalog(const RunCatalog& catalog)
{
    m_loader->cancel();
    m_loading = false;
    beginResetModel();
    m_catalog = catalog;
    m_entries.clear();
    endResetModel();
    reload();
}

void RunsModel::reload()
{
    m_notesWrittenWhileLoading.clear();
    m_loading = true;
    m_loader->start(
        tr("Reading the saved runs"),
        [catalog = m_catalog](const JobTracker::CancelFlag&) {
            CatalogRead read;
            read.entries = catalog.list(&read.warnings);
            return read;
        },
        [this](CatalogRead read) {
            m_loading = false;
            beginResetModel();
            m_entries = std::move(read.entries);
            // The list may have been read before these notes reached the files.
            for (auto it = m_notesWrittenWhileLoading.cbegin(); it != m_notesWrittenWhileLoading.cend(); ++it)
                setEntryNotes(it.key(), it.value());
            for (auto it = m_notesInFlight.cbegin(); it != m_notesInFlight.cend(); ++it)
                setEntryNotes(it.key(), it.value());
            m_notesWrittenWhileLoading.clear();
            endResetModel();
            Q_EMIT reloaded(read.warnings);
        });
}

bool RunsModel::isLoading() const
{
    return m_loading;
}

void RunsModel::setEntryNotes(const QString& dir, const QString& notes)
{
    for (RunEntry& e : m_entries) {
        if (e.dir == dir)
            e.notes = notes;
    }
}

void RunsModel::saveNotes(const QString& dir, const QString& notes)
{
    setEntryNotes(dir, notes);
    m_notesInFlight.insert(dir, notes);
    const quint64 number = ++m_writes->next;
    // A tracker per write: a newer write must not drop an older one's result (its error).
    auto* job = new JobTracker(this);
    job->start(
        tr("Saving notes"),
        [catalog = m_catalog, writes = m_writes, dir, notes, number](const JobTracker::CancelFlag&) {
            NotesWrite w;
            const QMutexLocker lock(&writes->mutex);
            if (writes->written.value(dir) > number)
                return w;
            w.ok = catalog.setNotes(dir, notes, &w.error);
            writes->written.insert(dir, number);
            return w;
        },
        [this, job, dir, notes](NotesWrite w) {
            if (m_notesInFlight.value(dir) == notes)
                m_notesInFlight.remove(dir);
            if (isLoading())
                m_notesWrittenWhileLoading.insert(dir, notes);
            job->deleteLater();
            Q_EMIT notesSaved(dir, w.ok, w.error);
        });
}

std::optional<QString> RunsModel::moveToTrash(const QString& dir, QString* error)
{
    const QMutexLocker lock(&m_writes->mutex);
    if (m_notesInFlight.contains(dir)) {
        // Written here, before the directory moves; the queued write then finds a newer one done.
        QString notesError;
        if (m_catalog.setNotes(dir, m_notesInFlight.value(dir), &notesError))
            m_writes->written.insert(dir, ++m_writes->next);
    }
    return m_catalog.moveToTrash(dir, error);
}

bool RunsModel::restore(const QString& trashedDir, QString* error)
{
    const QMutexLocker lock(&m_writes->mutex);
    return m_catalog.restore(trashedDir, error);
}

const RunEntry* RunsModel::entry(int row) const
{
    return row >= 0 && row < int(m_entries.size()) ? &m_entries[std::size_t(row)] : nullptr;
}

int RunsModel::rowOf(const QString& dir) const
{
    for (std::size_t i = 0; i < m_entries.size(); ++i) {
        if (m_entries[i].dir == dir)
            return int(i);
    }
    return -1;
}

int RunsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int RunsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QStringList RunsModel::parseTags(const QString& text)
{
    static const QRegularExpression separators(QStringLiteral("[,;\\s]+"));
    QStringList tags;
    for (const QString& t : text.split(separators, Qt::SkipEmptyParts)) {
        if (!tags.contains(t))
            tags << t;
    }
    return tags;
}

QVariant RunsModel::data(const QModelIndex& index, int role) const
{
    const RunEntry* e = entry(index.row());
    if (!e)
        return {};
    auto load = [e](const std::optional<double>& v) -> QString {
        return v ? UiFormat::load(*v) + u' ' + e->loadUnit : UiFormat::unknown();
    };
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        switch (index.column()) {
        case Date:
            return e->created.isValid() ? QLocale().toString(e->created, QLocale::ShortFormat) : QString();
        case Name:
            return e->name;
        case Target:
            return e->target;
        case Model:
            return e->model;
        case Knee:
            return load(e->knee);
        case SloCapacity:
            return e->sloCapacity && e->sloCapacityLowerBound ? QStringLiteral("≥ ") + load(e->sloCapacity)
                                                              : load(e->sloCapacity);
        case Tags:
            return e->tags.join(QStringLiteral(", "));
        case Status:
            if (e->predicted)
                return tr("%1 (predicted, not measured)").arg(UiFormat::statusWord(e->status));
            return e->source.isEmpty() || e->source == QLatin1String("kneepoint")
                ? UiFormat::statusWord(e->status)
                : tr("%1 (imported from %2)").arg(UiFormat::statusWord(e->status), e->source);
        case Steps:
            return e->stepCount;
        }
        return {};
    case SortRole:
        switch (index.column()) {
        case Date:
            return e->created;
        case Knee:
            return e->knee ? *e->knee : -1.0;
        case SloCapacity:
            return e->sloCapacity ? *e->sloCapacity : -1.0;
        case Steps:
            return e->stepCount;
        default:
            return data(index, Qt::DisplayRole).toString().toLower();
        }
    case DirRole:
        return e->dir;
    case FilterRole:
        return QStringList { e->id, e->name, e->target, e->model, e->status, UiFormat::statusWord(e->status), e->source,
            e->tags.join(u' '), e->predicted ? QStringLiteral("predicted") : QString() }
            .join(u' ');
    case Qt::ToolTipRole:
        if (e->predicted && (index.column() == Status || index.column() == Name))
            return tr("A twin's prediction, not a measurement: %1").arg(e->dir);
        if (index.column() == Target || index.column() == Name)
            return e->dir;
        return {};
    case Qt::FontRole:
        if (e->predicted) { // set apart from measured runs at a glance
            QFont font;
            font.setItalic(true);
            return font;
        }
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == Knee || index.column() == SloCapacity || index.column() == Steps)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    return {};
}

bool RunsModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::EditRole || !index.isValid() || index.row() >= int(m_entries.size()))
        return false;
    RunEntry& e = m_entries[std::size_t(index.row())];
    QString error;
    // A notes write of the same run.json may be under way on the pool: it is one small file.
    const auto locked = [this](auto edit) {
        const QMutexLocker lock(&m_writes->mutex);
        return edit();
    };
    if (index.column() == Name) {
        const QString name = value.toString().trimmed();
        if (name.isEmpty() || name == e.name)
            return false;
        if (!locked([&] { return m_catalog.rename(e.dir, name, &error); })) {
            Q_EMIT editFailed(error);
            return false;
        }
        e.name = name;
    } else if (index.column() == Tags) {
        const QStringList tags = parseTags(value.toString());
        if (tags == e.tags)
            return false;
        if (!locked([&] { return m_catalog.setTags(e.dir, tags, &error); })) {
            Q_EMIT editFailed(error);
            return false;
        }
        e.tags = tags;
    } else {
        return false;
    }
    Q_EMIT dataChanged(index, index);
    return true;
}

Qt::ItemFlags RunsModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.column() == Name || index.column() == Tags)
        f |= Qt::ItemIsEditable;
    return f;
}

QVariant RunsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Date:
        return tr("Date");
    case Name:
        return tr("Name");
    case Target:
        return tr("Target");
    case Model:
        return tr("Model");
    case Knee:
        return tr("Knee");
    case SloCapacity:
        return tr("SLO capacity");
    case Tags:
        return tr("Tags");
    case Status:
        return tr("Status");
    case Steps:
        return tr("Steps");
    }
    return {};
}

} // namespace kp::ui
