#pragma once

// Internal to kneepoint_ui_profile: the Profile page's state and parts, shared by its files:
// profilepage.cpp (the page: its layout, the editor's state, messages), profilepagelibrary.cpp (the
// library list and its actions) and profilepagedocument.cpp (the open file: read, saved, watched).

#include "profilepage.h"

#include "kit/profilelibrary.h"
#include "profile/profile.h"

#include <QByteArray>
#include <QList>
#include <QMessageBox>
#include <QPointer>
#include <QString>

#include <optional>

class QFileSystemWatcher;
class QFrame;
class QLabel;
class QListWidget;
class QListWidgetItem;
class QMenu;
class QPushButton;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QTimer;
class QToolButton;
class QWidget;

namespace kp::ui {

class ConnectionTest;
class JobTracker;
class PlanPreview;
class ProfileForm;
class ProfileJsonEditor;

class ProfilePage::Private
{
public:
    enum class Level { Info, Warning, Error };

    explicit Private(ProfilePage* page)
        : q(page)
    { }

    void buildUi();
    void buildLibraryPanel(QWidget* panel);
    void buildEditor();
    void buildSidePanel(QWidget* panel);

    void reloadLibrary(const QString& select);
    void selectInList(const QString& path);
    bool loadDocument(const QString& path);
    void showDocument(const Profile& profile);
    void onFormEdited();
    void onJsonEdited();
    void discardJsonEdits();
    void revertToSaved();
    void refresh();
    bool canSave(QString* why) const;
    bool saveTo(const QString& path);
    void saveAs();
    void openDialog();
    void newProfile();
    void createNewProfile(const ServerInfo& server);
    void duplicateSelected();
    void renameEntry(QListWidgetItem* item);
    void deleteSelected();
    void closeDocument();
    void showMessage(Level level, const QString& text);
    void hideMessage();
    void fillRecentMenu();

    // The open file is watched: a change made by another program is reloaded, or, over unsaved edits,
    // put to the user.
    void watchFile(bool force = false);
    void onFileChanged(const QString& path);

    QString jsonTextFor(const Profile& profile) const;
    QString jsonSourceName() const;
    QList<ProfileIssue> allIssues() const;

    ProfilePage* q;
    ProfileLibrary m_library;

    // The document
    QString m_path; // empty: not saved yet
    QString m_saveTarget; // where Save writes: m_path, or a .kneepoint.json next to a file of another layout
    std::optional<Profile> m_saved; // as on disk; nullopt when the file could not be read
    bool m_userEdited = false;
    bool m_jsonInvalid = false;
    bool m_formHoldsProfile = false; // the form shows a profile that was read (not a placeholder)
    bool m_lastModified = false;
    QString m_lastName;
    QFileSystemWatcher* m_watcher = nullptr;
    QString m_watchedPath;
    QByteArray m_diskBytes; // the file as last read or written here
    QPointer<QMessageBox> m_changedBox;

    // Widgets
    QListWidget* m_list = nullptr;
    bool m_syncingList = false;
    QToolButton* m_duplicate = nullptr;
    QToolButton* m_rename = nullptr;
    QToolButton* m_delete = nullptr;
    QMenu* m_recentMenu = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_pathLabel = nullptr;
    QLabel* m_state = nullptr;
    QPushButton* m_save = nullptr;
    QPushButton* m_saveAs = nullptr;
    QPushButton* m_run = nullptr;
    QFrame* m_messageBar = nullptr;
    QLabel* m_message = nullptr;
    QTimer* m_messageTimer = nullptr;
    QSplitter* m_splitter = nullptr;
    QStackedWidget* m_stack = nullptr;
    QWidget* m_empty = nullptr;
    QTabWidget* m_tabs = nullptr;
    QWidget* m_formPage = nullptr;
    QFrame* m_jsonBanner = nullptr;
    QPushButton* m_discardJson = nullptr;
    ProfileForm* m_form = nullptr;
    ProfileJsonEditor* m_json = nullptr;
    PlanPreview* m_plan = nullptr;
    ConnectionTest* m_connection = nullptr;
    JobTracker* m_newProfileJob = nullptr; // reads the runs for a new profile's server section
};

} // namespace kp::ui
