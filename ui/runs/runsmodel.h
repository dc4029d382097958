#pragma once

#include "runs/runcatalog.h"

#include <QAbstractTableModel>

#include <vector>

namespace kp::ui {

// The saved runs of a RunCatalog, one row each: date, name, target, model, knee, SLO capacity, tags,
// status, steps. Name and tags are editable; edits go to the run's run.json through the catalog.
class RunsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns { Date, Name, Target, Model, Knee, SloCapacity, Tags, Status, Steps, ColumnCount };
    Q_ENUM(Columns)
    enum Roles {
        SortRole = Qt::UserRole, // numbers and dates sort as such
        DirRole, // the run's directory
        FilterRole, // everything the filter box matches: name, target, model, tags, status, id
    };

    explicit RunsModel(QObject* parent = nullptr);

    void setCatalog(const RunCatalog& catalog);
    const RunCatalog& catalog() const { return m_catalog; }
    // Reads the list again; warnings name the runs that could not be read.
    void reload(QStringList* warnings = nullptr);
    const RunEntry* entry(int row) const;
    int rowOf(const QString& dir) const;
    const std::vector<RunEntry>& entries() const { return m_entries; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QStringList parseTags(const QString& text); // "a, b  c" → {a, b, c}

Q_SIGNALS:
    void editFailed(const QString& message);

private:
    RunCatalog m_catalog;
    std::vector<RunEntry> m_entries;
};

} // namespace kp::ui
