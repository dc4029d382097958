#pragma once

#include "kit/stepreport.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <optional>
#include <vector>

namespace kp::ui {

// The finished steps of a run, one row each, in the order they ran.
class StepsTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns {
        Step,
        Load,
        Rps,
        OutputTokens,
        TtftMean,
        TtftUpper,
        TpotMean,
        ItlMean,
        Errors,
        JoulesPerToken, // the GPUs' energy over the output tokens; "—" without a GPU exporter
        Flags,
        ColumnCount
    };
    Q_ENUM(Columns)
    enum Roles {
        SortRole = Qt::UserRole, // a number (or the text for Flags) to sort by
        StepIndexRole, // the step's index in the run
    };

    explicit StepsTableModel(QObject* parent = nullptr);

    void clear();
    void append(const StepReport& step);
    void setSteps(std::vector<StepReport> steps);
    // The percentile of the upper TTFT column (the SLO's, else 99).
    void setPercentile(double percentile);
    double percentile() const { return m_percentile; }
    // The sweep's axis (the profile's load.mode): the Load column's header, and a step of the other
    // mode (an auto plan's one-user floor) shown with its unit.
    void setMode(LoadMode mode);
    const StepReport* step(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QStringList flagWords(const StepReport& step);
    // "1,015" requests, or "—" when the file gave no count; a step's seconds "12.3" or "—".
    static QString requestsWord(const StepMetrics& metrics, double durationS); // "120 requests in 30.0 s"
    static QString durationWord(double seconds);

private:
    // The column's header and every cell of it changed (the mode or the percentile it shows).
    void columnChanged(int column);
    // A column's figure (Rps to JoulesPerToken), as shown and sorted; nullopt when the step has none.
    std::optional<double> figure(const StepReport& s, int column) const;
    QVariant display(const StepReport& s, int column) const;
    QVariant sortValue(const StepReport& s, int column) const;
    QVariant toolTip(const StepReport& s, int column) const;

    std::vector<StepReport> m_steps;
    double m_percentile = 99;
    LoadMode m_mode = LoadMode::Rate;
};

// Sorts by StepsTableModel::SortRole with unknown figures (an invalid value) last in either order.
class StepsSortProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;
};

} // namespace kp::ui
