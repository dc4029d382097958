#include "runs/runsmodel.h"

#include "run/uiformat.h"

#include <QCoreApplication>
#include <QFont>
#include <QLocale>
#include <QRegularExpression>

namespace kp::ui {

RunsModel::RunsModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void RunsModel::setCatalog(const RunCatalog& catalog)
{
    m_catalog = catalog;
    reload();
}

void RunsModel::reload(QStringList* warnings)
{
    beginResetModel();
    m_entries = m_catalog.list(warnings);
    endResetModel();
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
    if (index.column() == Name) {
        const QString name = value.toString().trimmed();
        if (name.isEmpty() || name == e.name)
            return false;
        if (!m_catalog.rename(e.dir, name, &error)) {
            Q_EMIT editFailed(error);
            return false;
        }
        e.name = name;
    } else if (index.column() == Tags) {
        const QStringList tags = parseTags(value.toString());
        if (tags == e.tags)
            return false;
        if (!m_catalog.setTags(e.dir, tags, &error)) {
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
