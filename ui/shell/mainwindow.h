#pragma once

#include "profile/profile.h"

#include <QMainWindow>

#include <functional>

#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QAction;
class QActionGroup;
class QLabel;
class QMenu;
class QStackedWidget;
QT_END_NAMESPACE

namespace kp::ui {

class CompareView;
class JobTracker;
class ProfilePage;
class RunExportActions;
class MatrixRun;
class RunsPage;
class TargetsPage;
class RunPage;
class SweepController;

// Builds the window and wires its pages: the toolbar (Run, Stop, Pause, the two views, the profile, the
// target, the run's state) over the profile page or the run page. Each page needs the whole width of
// a 1280-pixel screen, so they take turns: Run switches to the run view. State lives in the pages and
// the controller; this class only connects them and remembers the layout.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    SweepController* controller() const { return m_controller; }
    ProfilePage* profilePage() const { return m_profiles; }
    RunPage* runPage() const { return m_runPage; }
    QAction* runAction() const { return m_run; }
    QAction* stopAction() const { return m_stop; }
    QAction* pauseAction() const { return m_pause; }
    QString statusText() const;
    bool isShowingRun() const;
    void showProfileView();
    void showRunView();
    RunsPage* runsPage() const { return m_runsPage; }
    CompareView* compareView() const { return m_compareView; }
    RunExportActions* exportActions() const { return m_exportActions; }
    void showRunsView();
    void showCompareView();
    void showTargetsView();
    TargetsPage* targetsPage() const { return m_targetsPage; }
    MatrixRun* matrixRun() const { return m_matrix; }
    // The current profile against several saved targets and/or models, one after another, then compared.
    bool runMatrix(const std::vector<kp::Profile>& profiles);
    // A saved run in the results view, as if it had just run. It is read in the background (the status
    // bar shows it, with Cancel); savedRunOpened says how it went. False (and a status message) while a
    // sweep runs.
    bool openSavedRun(const QString& dir);
    // The runs read in the background, then the Compare view; comparisonOpened says how it went.
    bool compareSavedRuns(const QStringList& dirs);
    JobTracker* jobs() const { return m_jobs; }
    // Result files or folders of vLLM, SGLang or GuideLLM become a run (a run directory is opened);
    // the Runs page then shows it selected. Read and written in the background: pathsImported gives
    // the new run's directory, or an empty one on error (the status bar says why).
    void importPaths(const QStringList& paths);

    void openProfile(const QString& path);
    void runCurrentProfile();

Q_SIGNALS:
    void savedRunOpened(const QString& dir, bool ok);
    void comparisonOpened(const QStringList& dirs, bool ok);
    void pathsImported(const QString& dir);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildActions();
    void buildLanguageMenu(QMenu* menu);
    void buildToolBar();
    void buildJobIndicator();
    // One of the pages, with its view action checked.
    void showPage(QWidget* page, QAction* viewAction);
    void updateActions();
    void updateProfileInfo();
    void readSettings();
    void writeSettings();
    // A profile that names a saved target, with the target filled in, to then(profile): at once when it
    // names none, else once targets.json is read in the background; a message instead when the name is
    // not among the saved targets.
    void withSavedTarget(const kp::Profile& profile, std::function<void(const kp::Profile&)> then);
    // The profile being edited; nullopt when it has errors, the profile view then shown with a status message.
    std::optional<kp::Profile> runnableProfile();
    void startSweep(const kp::Profile& profile); // asks when the load is high, then starts
    void askAndRunMatrix();

    SweepController* m_controller;
    JobTracker* m_jobs; // opening and comparing saved runs, one at a time: a new one replaces the last
    JobTracker* m_targetJobs; // reading targets.json for Run and Run against targets
    ProfilePage* m_profiles;
    RunPage* m_runPage;
    QStackedWidget* m_pages;
    RunsPage* m_runsPage = nullptr;
    CompareView* m_compareView = nullptr;
    TargetsPage* m_targetsPage = nullptr;
    MatrixRun* m_matrix = nullptr;
    QAction* m_targetsView = nullptr;
    QAction* m_matrixAction = nullptr;
    RunExportActions* m_exportActions = nullptr;
    QAction* m_runsView = nullptr;
    QAction* m_compareViewAction = nullptr;
    QAction* m_run = nullptr;
    QAction* m_stop = nullptr;
    QAction* m_pause = nullptr;
    QAction* m_save = nullptr;
    QAction* m_profileView = nullptr;
    QAction* m_runView = nullptr;
    QActionGroup* m_views = nullptr;
    QLabel* m_profileLabel = nullptr;
    QLabel* m_targetLabel = nullptr;
    QLabel* m_stateLabel = nullptr;
};

} // namespace kp::ui
