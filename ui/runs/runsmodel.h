#pragma once

#include "runs/runcatalog.h"

#include <QAbstractTableModel>
#include <QHash>

#include <memory>
#include <vector>

namespace kp::ui {

class JobTracker;

// The saved runs of a RunCatalog, one row each: date, name, target, model, knee, SLO capacity, tags,
// status, steps. Name and tags are editable; edits go to the run's run.json through the catalog.
// The list is read and notes are written in the background (JobTracker): reading a large catalogue or
// writing while someone types never holds the window.
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
    ~RunsModel() override;

    // Empties the list and reads the new catalog's (reloaded follows).
    void setCatalog(const RunCatalog& catalog);
    const RunCatalog& catalog() const { return m_catalog; }
    // Reads the list again in the background; reloaded(warnings) says when it is in place. A newer
    // reload replaces one under way.
    void reload();
    bool isLoading() const;
    // Writes a run's notes in the background, the list shows them at once; notesSaved says how it went.
    // Writes are applied in the order they were asked for, even when the window closes meanwhile.
    void saveNotes(const QString& dir, const QString& notes);
    bool isSavingNotes() const { return !m_notesInFlight.isEmpty(); }
    // The catalog's, after the run's notes not yet written are (RunCatalog::moveToTrash).
    std::optional<QString> moveToTrash(const QString& dir, QString* error);
    bool restore(const QString& trashedDir, QString* error);
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
    void reloaded(const QStringList& warnings); // warnings name the runs that could not be read
    void notesSaved(const QString& dir, bool ok, const QString& error);

private:
    struct Writes;
    void setEntryNotes(const QString& dir, const QString& notes);

    RunCatalog m_catalog;
    std::vector<RunEntry> m_entries;
    JobTracker* m_loader;
    bool m_loading = false; // a list is being read
    std::shared_ptr<Writes> m_writes; // shared with the write jobs, which may outlive the model
    QHash<QString, QString> m_notesInFlight; // dir → notes asked for and not yet written
    QHash<QString, QString> m_notesWrittenWhileLoading; // a list read meanwhile may predate them
};

} // namespace kp::ui
