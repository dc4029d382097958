#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

#include <optional>
#include <utility>

QT_BEGIN_NAMESPACE
class QAction;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QTimer;
class QToolButton;
QT_END_NAMESPACE

namespace kp::ui {

class RunsModel;

// The saved runs: a sortable, filterable list (date, name, target, model, knee, SLO capacity, tags,
// status); rename and tag in place, notes beside the list, delete to the catalog's trash with undo;
// open one in the run view, compare two or more. The list is read in the background; notes are saved
// a moment after typing stops, when another run is selected, when the page is left and when it closes.
class RunsPage : public QWidget
{
    Q_OBJECT
public:
    explicit RunsPage(const QString& root, QWidget* parent = nullptr);
    ~RunsPage() override;

    QString root() const;
    void setRoot(const QString& root);
    void reload(); // in the background; reloaded() when the list is in place, the selection kept
    void reloadAndSelect(const QStringList& dirs); // dirs selected once the list is in place

    RunsModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QTableView* view() const { return m_view; }
    QLineEdit* filterBox() const { return m_filter; }
    QPlainTextEdit* notesEditor() const { return m_notes; }
    QAction* openAction() const { return m_open; }
    QAction* compareAction() const { return m_compare; }
    QAction* deleteAction() const { return m_delete; }
    QAction* undoAction() const { return m_undo; }
    QString message() const; // the line over the list: what was deleted, what failed

    QStringList selectedDirs() const; // in the order shown
    void selectDirs(const QStringList& dirs);
    bool renameRun(const QString& dir, const QString& name);
    bool setRunTags(const QString& dir, const QStringList& tags);
    // Shown at once, written in the background (RunsModel::notesSaved).
    void setRunNotes(const QString& dir, const QString& notes);
    // Writes the notes being typed now rather than when typing stops.
    void flushNotes();
    bool trashSelected(); // moves the selected runs to the trash; undo brings them back
    bool undoTrash();

Q_SIGNALS:
    void openRequested(const QString& dir);
    void compareRequested(const QStringList& dirs);
    void reloaded();
    void runEdited(const QString& dir); // its name, tags or notes changed in its run.json

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void onSelectionChanged();
    void showMessage(const QString& text, bool undoable);
    void updateActions();
    void updatePlaceholder();
    void renameCurrent();
    void editTagsOfCurrent();
    void onReloaded(const QStringList& warnings);
    void onNotesEdited();

    RunsModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QLineEdit* m_filter;
    QLabel* m_placeholder;
    QLabel* m_message;
    QToolButton* m_undoButton;
    QLabel* m_notesTitle;
    QPlainTextEdit* m_notes;
    QPushButton* m_saveNotes;
    QAction* m_open;
    QAction* m_compare;
    QAction* m_rename;
    QAction* m_tags;
    QAction* m_delete;
    QAction* m_undo;
    QAction* m_refresh;
    QTimer* m_notesTimer; // typing pauses before the notes are written
    QString m_notesDir;
    std::optional<QString> m_notesSaved; // m_notesDir's notes as written (or asked to be); none: unknown
    QStringList m_reselect; // selected again once the list is read
    std::optional<std::pair<QString, bool>> m_afterReload; // a message shown again over the list's warnings
    QList<QStringList> m_trashed; // per delete: the trashed directories, for undo
    QList<QStringList> m_trashedFrom; // and where they were
};

} // namespace kp::ui
