#include "run/soakwindowsmodel.h"

#include "kit/uiformat.h"
#include "run/errorsmodel.h"

#include <QLocale>

#include <cmath>

namespace kp::ui {

SoakWindowsModel::SoakWindowsModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void SoakWindowsModel::setWindows(const std::vector<SoakWindowFigures>& windows)
{
    beginResetModel();
    m_windows = windows;
    endResetModel();
}

void SoakWindowsModel::append(const SoakWindowFigures& window)
{
    const int row = int(m_windows.size());
    beginInsertRows({}, row, row);
    m_windows.push_back(window);
    endInsertRows();
}

int SoakWindowsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_windows.size());
}

int SoakWindowsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

double SoakWindowsModel::value(const SoakWindowFigures& w, int column)
{
    switch (column) {
    case Window:
        return w.index + 1;
    case Time:
        return w.startS;
    case Sent:
        return double(w.sent);
    case Completed:
        return double(w.completed);
    case Failed:
        return double(w.failed);
    case Rps:
        return w.requestThroughput;
    case OutputTokens:
        return w.outputThroughput;
    case TtftP50:
        return w.ttftP50;
    case TtftP99:
        return w.ttftP99;
    case ItlP50:
        return w.itlP50;
    case ItlP99:
        return w.itlP99;
    case TpotP50:
        return w.tpotP50;
    case TpotP99:
        return w.tpotP99;
    case E2elP50:
        return w.e2elP50;
    case E2elP99:
        return w.e2elP99;
    }
    return kUnknown;
}

QString SoakWindowsModel::text(const SoakWindowFigures& w, int column)
{
    const QLocale locale;
    switch (column) {
    case Window:
        return w.partial ? tr("%1 (partial)").arg(w.index + 1) : QString::number(w.index + 1);
    case Time:
        return tr("%1–%2 s").arg(locale.toString(w.startS, 'f', 1), locale.toString(w.endS, 'f', 1));
    case Sent:
    case Completed:
    case Failed:
        return UiFormat::count(qint64(value(w, column)));
    case Rps:
        return UiFormat::throughput(w.requestThroughput);
    case OutputTokens:
        return UiFormat::tokens(w.outputThroughput);
    default:
        return UiFormat::ms(value(w, column));
    }
}

QVariant SoakWindowsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_windows.size()))
        return {};
    const SoakWindowFigures& w = m_windows[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return text(w, index.column());
    case SortRole: {
        const double v = value(w, index.column());
        return std::isfinite(v) ? QVariant(v) : QVariant();
    }
    case Qt::TextAlignmentRole:
        return index.column() == Window || index.column() == Time ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                                  : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (index.column() == Failed && !w.failures.empty()) {
            QStringList lines;
            for (const auto& [failure, count] : w.failures)
                lines << tr("%1: %2").arg(ErrorsModel::classTitle(failure), UiFormat::count(count));
            return lines.join(u'\n');
        }
        if (index.column() == Window && w.partial)
            return tr("The soak ended inside this window: it is shorter than the others");
        return {};
    default:
        return {};
    }
}

QVariant SoakWindowsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Window:
        return tr("Window");
    case Time:
        return tr("Time");
    case Sent:
        return tr("Sent");
    case Completed:
        return tr("Completed");
    case Failed:
        return tr("Failed");
    case Rps:
        return tr("req/s");
    case OutputTokens:
        return tr("Output tok/s");
    case TtftP50:
        return tr("TTFT P50 (ms)");
    case TtftP99:
        return tr("TTFT P99 (ms)");
    case ItlP50:
        return tr("ITL P50 (ms)");
    case ItlP99:
        return tr("ITL P99 (ms)");
    case TpotP50:
        return tr("TPOT P50 (ms)");
    case TpotP99:
        return tr("TPOT P99 (ms)");
    case E2elP50:
        return tr("E2EL P50 (ms)");
    case E2elP99:
        return tr("E2EL P99 (ms)");
    }
    return {};
}

} // namespace kp::ui
