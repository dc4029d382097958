#pragma once

#include "kit/soakwindowfigures.h"

#include <QAbstractTableModel>

#include <vector>

namespace kp::ui {

// A soak's windows, one row each in time order: counts, failures (by class in the tooltip),
// throughputs and each latency's P50 and P99. Unknown figures read "—".
class SoakWindowsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns {
        Window,
        Time,
        Sent,
        Completed,
        Failed,
        Rps,
        OutputTokens,
        TtftP50,
        TtftP99,
        ItlP50,
        ItlP99,
        TpotP50,
        TpotP99,
        E2elP50,
        E2elP99,
        ColumnCount
    };
    Q_ENUM(Columns)
    enum Roles {
        SortRole = Qt::UserRole, // the figure, or an invalid value when unknown
    };

    explicit SoakWindowsModel(QObject* parent = nullptr);

    void setWindows(const std::vector<SoakWindowFigures>& windows);
    void append(const SoakWindowFigures& window);
    const std::vector<SoakWindowFigures>& windows() const { return m_windows; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The text a cell shows for a window (the test compares it with the file's figures).
    static QString text(const SoakWindowFigures& window, int column);
    static double value(const SoakWindowFigures& window, int column); // NaN when unknown

private:
    std::vector<SoakWindowFigures> m_windows;
};

} // namespace kp::ui
