#pragma once

#include "kit/stepreport.h"

#include <QAbstractTableModel>

#include <vector>

namespace kp::ui {

// Failed requests grouped by class: how many, in which steps, one example message and the hint.
class ErrorsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns { Class, Count, Steps, Example, Hint, ColumnCount };
    Q_ENUM(Columns)
    enum Roles {
        SortRole = Qt::UserRole,
        FailureClassRole, // the FailureClass as an int
    };

    explicit ErrorsModel(QObject* parent = nullptr);

    void setGroups(std::vector<FailureGroup> groups);
    qint64 total() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "Connection refused", "HTTP 429 (rate limited)", ...
    static QString classTitle(FailureClass failure);

private:
    std::vector<FailureGroup> m_groups;
};

} // namespace kp::ui
