#pragma once

#include <QMainWindow>

QT_BEGIN_NAMESPACE
class QAction;
class QActionGroup;
class QLabel;
class QStackedWidget;
QT_END_NAMESPACE

namespace kp::ui {

class ProfilePage;
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

    void openProfile(const QString& path);
    void runCurrentProfile();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildActions();
    void buildToolBar();
    void updateActions();
    void updateProfileInfo();
    void readSettings();
    void writeSettings();

    SweepController* m_controller;
    ProfilePage* m_profiles;
    RunPage* m_runPage;
    QStackedWidget* m_pages;
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
