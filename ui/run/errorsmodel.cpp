#include "run/errorsmodel.h"

#include "kit/chartstyle.h"

#include <QBrush>

namespace kp::ui {

ErrorsModel::ErrorsModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void ErrorsModel::setGroups(std::vector<FailureGroup> groups)
{
    beginResetModel();
    m_groups = std::move(groups);
    endResetModel();
}

qint64 ErrorsModel::total() const
{
    qint64 n = 0;
    for (const FailureGroup& g : m_groups)
        n += g.count;
    return n;
}

int ErrorsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_groups.size());
}

int ErrorsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ErrorsModel::classTitle(FailureClass failure)
{
    switch (failure) {
    case FailureClass::None:
        return tr("None");
    case FailureClass::ConnectionRefused:
        return tr("Connection refused");
    case FailureClass::HostNotFound:
        return tr("Host not found");
    case FailureClass::Tls:
        return tr("TLS");
    case FailureClass::ConnectTimeout:
        return tr("Connect timeout");
    case FailureClass::FirstByteTimeout:
        return tr("First-token timeout");
    case FailureClass::IdleTimeout:
        return tr("Idle timeout");
    case FailureClass::TotalTimeout:
        return tr("Total timeout");
    case FailureClass::HttpAuth:
        return tr("HTTP 401/403 (auth)");
    case FailureClass::HttpNotFound:
        return tr("HTTP 404 (not found)");
    case FailureClass::HttpRateLimited:
        return tr("HTTP 429 (rate limited)");
    case FailureClass::HttpServerError:
        return tr("HTTP 5xx (server error)");
    case FailureClass::HttpOther:
        return tr("Other HTTP status");
    case FailureClass::ErrorBody:
        return tr("Error in the response body");
    case FailureClass::MalformedStream:
        return tr("Malformed stream");
    case FailureClass::NoChoices:
        return tr("Stream without choices");
    case FailureClass::StreamCut:
        return tr("Stream cut");
    case FailureClass::Network:
        return tr("Network error");
    case FailureClass::ResponseTooLarge:
        return tr("Response too large");
    case FailureClass::Cancelled:
        return tr("Cancelled (stopped)");
    }
    return {};
}

namespace {

// The class, and the status where the class spans several (5xx, 401/403, any other): "HTTP 429 (rate
// limited)" already names its one.
QString groupTitle(const FailureGroup& g)
{
    const QString title = ErrorsModel::classTitle(g.failure);
    if (g.httpStatus <= 0 || title.contains(QString::number(g.httpStatus)))
        return title;
    return ErrorsModel::tr("%1 (HTTP %2)", "a failure class, then the HTTP status of its requests")
        .arg(title)
        .arg(g.httpStatus);
}

} // namespace

QVariant ErrorsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const FailureGroup& g = m_groups[std::size_t(index.row())];
    auto steps = [&g] {
        QStringList words;
        for (int s : g.steps)
            words << QString::number(s + 1);
        return words.join(QStringLiteral(", "));
    };
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Class:
            return groupTitle(g);
        case Count:
            return g.count;
        case Steps:
            return steps();
        case Example:
            return g.example.simplified();
        case Hint:
            return g.hint;
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == Example)
            return g.example;
        if (index.column() == Hint)
            return g.hint;
        return {};
    case Qt::ForegroundRole:
        return index.column() == Class ? QVariant(QBrush(ChartStyle::failure())) : QVariant();
    case Qt::TextAlignmentRole:
        return index.column() == Count ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                       : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case SortRole:
        switch (index.column()) {
        case Count:
            return double(g.count);
        case Steps:
            return g.steps.empty() ? -1.0 : double(g.steps.front());
        case Class:
            return groupTitle(g);
        case Example:
            return g.example;
        case Hint:
            return g.hint;
        }
        return {};
    case FailureClassRole:
        return int(g.failure);
    default:
        return {};
    }
}

QVariant ErrorsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Class:
        return tr("Failure");
    case Count:
        return tr("Requests");
    case Steps:
        return tr("Steps");
    case Example:
        return tr("Example message");
    case Hint:
        return tr("What to do");
    }
    return {};
}

} // namespace kp::ui
