#include "kit/stepstablemodel.h"

#include "kit/chartstyle.h"
#include "kit/uiformat.h"

#include <QBrush>
#include <QGuiApplication>
#include <QLocale>
#include <QPalette>

#include <cmath>
#include <utility>

namespace kp::ui {

StepsTableModel::StepsTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void StepsTableModel::clear()
{
    setSteps({});
}

void StepsTableModel::append(const StepReport& step)
{
    const int row = int(m_steps.size());
    beginInsertRows({}, row, row);
    m_steps.push_back(step);
    endInsertRows();
}

void StepsTableModel::setMode(LoadMode mode)
{
    if (std::exchange(m_mode, mode) != mode)
        columnChanged(Load);
}

void StepsTableModel::setSteps(std::vector<StepReport> steps)
{
    beginResetModel();
    m_steps = std::move(steps);
    endResetModel();
}

void StepsTableModel::setPercentile(double percentile)
{
    if (std::exchange(m_percentile, percentile) != percentile)
        columnChanged(TtftUpper);
}

void StepsTableModel::columnChanged(int column)
{
    Q_EMIT headerDataChanged(Qt::Horizontal, column, column);
    if (!m_steps.empty())
        Q_EMIT dataChanged(index(0, column), index(rowCount() - 1, column));
}

const StepReport* StepsTableModel::step(int row) const
{
    return row >= 0 && row < int(m_steps.size()) ? &m_steps[std::size_t(row)] : nullptr;
}

int StepsTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_steps.size());
}

int StepsTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QStringList StepsTableModel::flagWords(const StepReport& step)
{
    QStringList flags;
    if (step.partial)
        flags << tr("partial");
    if (const qint64 sent = step.metrics.completed + step.metrics.failed;
        step.metrics.failed > 0 && isKnown(step.metrics.completed) && sent > 0)
        flags << tr("incomplete: %1% failed").arg(100.0 * double(step.metrics.failed) / double(sent), 0, 'f', 1);
    // An imported step's requests still running when its tool ended it: in no figure of the step.
    if (isKnown(step.metrics.incompleteRequests) && step.metrics.incompleteRequests > 0)
        flags << tr("%1 still running at the end").arg(UiFormat::count(step.metrics.incompleteRequests));
    if (step.clientBound)
        flags << tr("client-bound");
    if (step.meetsSlo)
        flags << (*step.meetsSlo ? tr("SLO ✓") : tr("SLO ✗"));
    if (step.config.purpose == QLatin1String("repeat") || step.config.purpose == QLatin1String("manual")
        || step.config.purpose == QLatin1String("refine"))
        flags << UiFormat::purposeWord(step.config.purpose);
    return flags;
}

QString StepsTableModel::requestsWord(const StepMetrics& m, double durationS)
{
    if (isKnown(m.completed) && !isKnown(m.failed)) {
        // A file that gives the completed requests but not the failed ones: say what it gives.
        return tr("%1 completed in %2 s, failures unknown").arg(UiFormat::count(m.completed), durationWord(durationS));
    }
    return tr("%1 requests in %2 s")
        .arg(isKnown(m.completed) ? UiFormat::count(m.completed + m.failed) : UiFormat::unknown(),
            durationWord(durationS));
}

QString StepsTableModel::durationWord(double seconds)
{
    return isKnown(seconds) ? QLocale().toString(seconds, 'f', 1) : UiFormat::unknown();
}

std::optional<double> StepsTableModel::figure(const StepReport& s, int column) const
{
    const StepMetrics& m = s.metrics;
    auto latency
        = [](const LatencyStats& stats, std::optional<double> v) { return stats.reported() ? v : std::nullopt; };
    auto known = [](double v) { return isKnown(v) ? std::optional<double>(v) : std::nullopt; };
    switch (column) {
    case Rps:
        return known(m.requestThroughput);
    case OutputTokens:
        return known(m.outputThroughput);
    case TtftMean:
        return latency(m.ttft, m.ttft.mean);
    case TtftUpper:
        return latency(m.ttft, percentileValue(m.ttft, m_percentile));
    case TpotMean:
        return latency(m.tpot, m.tpot.mean);
    case ItlMean:
        return latency(m.itl, m.itl.mean);
    case Errors:
        return isKnown(m.failed) ? std::optional<double>(double(m.failed)) : std::nullopt;
    case JoulesPerToken:
        return m.joulesPerOutputToken && std::isfinite(*m.joulesPerOutputToken) ? m.joulesPerOutputToken : std::nullopt;
    default:
        return std::nullopt;
    }
}

QVariant StepsTableModel::display(const StepReport& s, int column) const
{
    const StepMetrics& m = s.metrics;
    switch (column) {
    case Step:
        return s.index() + 1;
    case Load: // a step off the sweep's axis (the auto plan's floor) says its unit
        return s.config.mode == m_mode ? UiFormat::load(s.offered()) : UiFormat::loadText(s.config);
    case Rps:
        return UiFormat::marked(UiFormat::throughput(m.requestThroughput), m, "request_throughput");
    case OutputTokens:
        return UiFormat::marked(UiFormat::tokens(m.outputThroughput), m, "output_throughput");
    case TtftMean:
    case TtftUpper:
    case TpotMean:
    case ItlMean: {
        const std::optional<double> v = figure(s, column);
        return v ? UiFormat::ms(*v) : UiFormat::unknown();
    }
    case Errors:
        return UiFormat::marked(UiFormat::failed(m), m, "failed");
    case JoulesPerToken: {
        const std::optional<double> v = figure(s, column);
        return v ? QLocale().toString(*v, 'f', *v < 10 ? 3 : 1) : UiFormat::unknown();
    }
    case Flags:
        return UiFormat::joined(flagWords(s));
    }
    return {};
}

QVariant StepsTableModel::sortValue(const StepReport& s, int column) const
{
    switch (column) {
    case Step:
        return double(s.index());
    case Load:
        return s.offered();
    case Flags:
        return UiFormat::joined(flagWords(s));
    default: {
        // Unknown figures sort as an invalid QVariant, which the proxy (StepsSortProxy) puts last.
        const std::optional<double> v = figure(s, column);
        return v ? QVariant(*v) : QVariant();
    }
    }
}

QVariant StepsTableModel::toolTip(const StepReport& s, int column) const
{
    switch (column) {
    case Step:
    case Load:
        return tr("%1 (%2), %3")
            .arg(UiFormat::loadText(s.config),
                s.config.detail.isEmpty() ? UiFormat::purposeWord(s.config.purpose)
                                          : tr("%1: %2", "why a step ran: its purpose, then in detail")
                                                .arg(UiFormat::purposeWord(s.config.purpose), s.config.detail),
                requestsWord(s.metrics, s.durationS));
    case Rps:
    case OutputTokens:
        return UiFormat::anyDerived(s.metrics) ? QVariant(UiFormat::derivedNote()) : QVariant();
    case Errors: {
        QStringList lines;
        if (!isKnown(s.metrics.failed))
            lines << tr("The file does not say how many requests failed.");
        else if (s.metrics.isDerived(QLatin1String("failed")))
            lines << UiFormat::derivedNote();
        for (const FailureGroup& g : s.failures)
            lines << QStringLiteral("%1 × %2").arg(g.count).arg(g.example);
        return lines.isEmpty() ? QVariant() : QVariant(lines.join(u'\n'));
    }
    case Flags: {
        QStringList lines;
        if (s.partial)
            lines << tr("Partial: stopped before every request ended; the analysis leaves it out.");
        if (s.clientBound)
            lines << tr("Client-bound: dispatch lag P99 %1 ms; this step measures the client, not the server.")
                         .arg(UiFormat::ms(s.dispatchLagP99Ms));
        if (s.meetsSlo)
            lines << (*s.meetsSlo ? tr("Meets the SLO.") : tr("SLO not met: %1").arg(s.sloDetail));
        return lines.isEmpty() ? QVariant() : QVariant(lines.join(u'\n'));
    }
    default:
        return {};
    }
}

QVariant StepsTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const StepReport& s = m_steps[std::size_t(index.row())];
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return display(s, column);
    case Qt::ToolTipRole:
        return toolTip(s, column);
    case Qt::TextAlignmentRole:
        return column == Flags ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                               : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (column == Errors && isKnown(s.metrics.failed) && s.metrics.failed > 0)
            return QBrush(ChartStyle::failure());
        if (column == Flags && s.meetsSlo && !*s.meetsSlo)
            return QBrush(ChartStyle::slo());
        return {};
    case SortRole:
        return sortValue(s, column);
    case StepIndexRole:
        return s.index();
    default:
        return {};
    }
}

QVariant StepsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::TextAlignmentRole)
        return section == Flags ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Rps:
            return tr("Completed requests per second of the step's duration");
        case OutputTokens:
            return tr("Output tokens per second");
        case TtftMean:
        case TtftUpper:
            return tr("Time to first token, from sending the request");
        case TpotMean:
            return tr("Time per output token after the first, per request");
        case ItlMean:
            return tr("Inter-token latency: the gap between two streamed chunks");
        case Errors:
            return tr("Failed requests (share of all that ended)");
        case JoulesPerToken:
            return tr("Joules per output token: the GPUs' energy during the step (from a GPU exporter's metrics) "
                      "over the step's output tokens");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    // Units on a second line keep the columns narrow enough for 1280 pixels.
    switch (section) {
    case Step:
        return tr("#");
    case Load:
        return m_mode == LoadMode::Rate ? tr("Load\n(req/s)") : tr("Users\n");
    case Rps:
        return tr("RPS\n(req/s)");
    case OutputTokens:
        return tr("Output\n(tok/s)");
    case TtftMean:
        return tr("TTFT mean\n(ms)");
    case TtftUpper:
        return tr("TTFT %1\n(ms)").arg(UiFormat::percentileWord(m_percentile));
    case TpotMean:
        return tr("TPOT mean\n(ms)");
    case ItlMean:
        return tr("ITL mean\n(ms)");
    case Errors:
        return tr("Errors\n");
    case JoulesPerToken:
        return tr("Energy\n(J/tok)");
    case Flags:
        return tr("Flags");
    }
    return {};
}

bool StepsSortProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    const QVariant l = left.data(sortRole());
    const QVariant r = right.data(sortRole());
    // Unknown last in either order: the proxy reverses lessThan for a descending sort.
    const bool descending = sortOrder() == Qt::DescendingOrder;
    if (!l.isValid() || !r.isValid()) {
        if (l.isValid() == r.isValid())
            return false;
        return descending ? !l.isValid() : !r.isValid();
    }
    return QSortFilterProxyModel::lessThan(left, right);
}

} // namespace kp::ui
