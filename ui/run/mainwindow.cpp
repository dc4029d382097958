#include "run/mainwindow.h"

#include "profile/profilepage.h"
#include "run/chartstyle.h"
#include "run/liverun.h"
#include "run/runpage.h"
#include "run/sweepcontroller.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QFileInfo>
#include <QFontMetrics>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>
#include <QUrl>

namespace kp::ui {

namespace {

const QString kGeometry = QStringLiteral("mainWindow/geometry");
const QString kState = QStringLiteral("mainWindow/state");
const QString kView = QStringLiteral("mainWindow/view");
const QString kRunPage = QStringLiteral("mainWindow/runPage");
const QString kLastProfile = QStringLiteral("profiles/last");

QString targetWords(const Profile& profile)
{
    if (profile.target.isBuiltinSimulator()) {
        const QString preset = QUrl(profile.target.baseUrl).host();
        return preset.isEmpty() || preset == QLatin1String("default")
            ? MainWindow::tr("built-in simulator")
            : MainWindow::tr("built-in simulator (%1)").arg(preset);
    }
    return profile.target.baseUrl;
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_controller(new SweepController(this))
    , m_profiles(new ProfilePage(this))
    , m_runPage(new RunPage(m_controller, this))
    , m_pages(new QStackedWidget(this))
{
    setObjectName(QStringLiteral("MainWindow"));
    m_pages->addWidget(m_profiles);
    m_pages->addWidget(m_runPage);
    setCentralWidget(m_pages);

    buildActions();
    buildToolBar();

    LiveRun* run = m_runPage->run();
    connect(run, &LiveRun::stateChanged, this, [this](LiveRun::State state) {
        if (state == LiveRun::State::Preparing)
            showRunView();
        updateActions();
        updateProfileInfo();
    });
    connect(run, &LiveRun::runStarted, this, &MainWindow::updateProfileInfo);
    connect(m_controller, &SweepController::failed, this,
        [this](const QString& message) { statusBar()->showMessage(message.section(u'\n', 0, 0), 15000); });
    connect(m_profiles, &ProfilePage::runRequested, this, [this](const Profile& profile) {
        if (!m_controller->isRunning())
            m_controller->start(profile);
    });
    connect(m_profiles, &ProfilePage::currentChanged, this, &MainWindow::updateProfileInfo);
    connect(m_profiles, &ProfilePage::modifiedChanged, this, &MainWindow::updateProfileInfo);

    resize(1280, 800);
    readSettings();
    updateActions();
    updateProfileInfo();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildActions()
{
    QStyle* s = style();
    m_run = new QAction(s->standardIcon(QStyle::SP_MediaPlay), tr("&Run sweep"), this);
    m_run->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_run->setToolTip(tr("Sweep the profile's loads against its target (Ctrl+R)"));
    connect(m_run, &QAction::triggered, this, &MainWindow::runCurrentProfile);

    m_stop = new QAction(s->standardIcon(QStyle::SP_MediaStop), tr("&Stop"), this);
    m_stop->setShortcuts({ QKeySequence(Qt::Key_Escape), QKeySequence(Qt::CTRL | Qt::Key_Period) });
    m_stop->setToolTip(tr("End the sweep now; finished steps are kept (Esc)"));
    connect(m_stop, &QAction::triggered, this, [this] { m_runPage->run()->requestStop(); });

    m_pause = new QAction(s->standardIcon(QStyle::SP_MediaPause), tr("&Pause"), this);
    connect(m_pause, &QAction::triggered, this, [this] {
        LiveRun* run = m_runPage->run();
        if (run->state() == LiveRun::State::Running)
            run->requestPause();
        else
            run->requestResume();
    });

    m_save = new QAction(s->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save profile"), this);
    m_save->setShortcut(QKeySequence::Save);
    connect(m_save, &QAction::triggered, this, [this] { m_profiles->save(); });

    m_views = new QActionGroup(this);
    m_profileView = new QAction(s->standardIcon(QStyle::SP_FileDialogDetailedView), tr("Profile"), m_views);
    m_profileView->setCheckable(true);
    m_profileView->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    m_profileView->setToolTip(tr("Edit the profile, test the connection, preview the plan (Ctrl+1)"));
    m_runView = new QAction(s->standardIcon(QStyle::SP_FileDialogContentsView), tr("Results"), m_views);
    m_runView->setCheckable(true);
    m_runView->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_2));
    m_runView->setToolTip(tr("The sweep: charts, steps, analysis, errors and log (Ctrl+2)"));
    connect(m_profileView, &QAction::triggered, this, &MainWindow::showProfileView);
    connect(m_runView, &QAction::triggered, this, &MainWindow::showRunView);

    auto* quit = new QAction(tr("&Quit"), this);
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_save);
    file->addSeparator();
    file->addAction(quit);
    QMenu* sweep = menuBar()->addMenu(tr("&Sweep"));
    sweep->addAction(m_run);
    sweep->addAction(m_stop);
    sweep->addAction(m_pause);
    sweep->addSeparator();
    sweep->addAction(m_runPage->repeatAction());
    sweep->addAction(m_runPage->addBetweenAction());
    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_profileView);
    view->addAction(m_runView);
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Kneepoint"), this, [this] {
        QMessageBox::about(this, tr("About Kneepoint"),
            tr("<p><b>Kneepoint %1</b></p><p>Interactive load testing of LLM inference servers: sweep the "
               "offered load, watch the latency curve form and find the knee.</p>")
                .arg(QApplication::applicationVersion()));
    });
}

void MainWindow::buildToolBar()
{
    QToolBar* bar = addToolBar(tr("Sweep"));
    bar->setObjectName(QStringLiteral("sweepToolBar"));
    bar->setMovable(false);
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(m_run);
    bar->addAction(m_stop);
    bar->addAction(m_pause);
    bar->addSeparator();
    bar->addAction(m_profileView);
    bar->addAction(m_runView);
    bar->addSeparator();
    m_profileLabel = new QLabel(this);
    m_targetLabel = new QLabel(this);
    m_stateLabel = new QLabel(this);
    for (QLabel* l : { m_profileLabel, m_targetLabel, m_stateLabel }) {
        l->setTextFormat(Qt::RichText);
        l->setContentsMargins(8, 0, 8, 0);
    }
    auto* spacer = new QWidget(this);
    spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    bar->addWidget(m_profileLabel);
    bar->addWidget(m_targetLabel);
    bar->addWidget(spacer);
    bar->addWidget(m_stateLabel);
}

bool MainWindow::isShowingRun() const
{
    return m_pages->currentWidget() == m_runPage;
}

void MainWindow::showProfileView()
{
    m_pages->setCurrentWidget(m_profiles);
    m_profileView->setChecked(true);
    if (m_stateLabel)
        updateProfileInfo();
}

void MainWindow::showRunView()
{
    m_pages->setCurrentWidget(m_runPage);
    m_runView->setChecked(true);
    if (m_stateLabel)
        updateProfileInfo();
}

void MainWindow::runCurrentProfile()
{
    if (m_controller->isRunning())
        return;
    const std::optional<Profile> profile = m_profiles->currentProfile();
    if (!profile) {
        showProfileView();
        statusBar()->showMessage(tr("The profile has errors: the editor shows them at their fields."), 10000);
        return;
    }
    statusBar()->clearMessage();
    m_controller->start(*profile);
}

void MainWindow::openProfile(const QString& path)
{
    m_profiles->openFile(path);
    showProfileView();
}

void MainWindow::updateActions()
{
    const LiveRun* run = m_runPage->run();
    const LiveRun::State state = run->state();
    const bool active = run->isActive();
    m_run->setEnabled(!active);
    m_stop->setEnabled(active && state != LiveRun::State::Stopping);
    const bool paused = state == LiveRun::State::Paused || state == LiveRun::State::Pausing;
    m_pause->setEnabled(active && state != LiveRun::State::Preparing && state != LiveRun::State::Stopping);
    m_pause->setText(paused ? tr("Resume") : tr("Pause"));
    m_pause->setIcon(style()->standardIcon(paused ? QStyle::SP_MediaPlay : QStyle::SP_MediaPause));
    m_pause->setToolTip(paused ? tr("Go on with the sweep") : tr("Hold the sweep after the current step"));
}

QString MainWindow::statusText() const
{
    return m_stateLabel->text();
}

void MainWindow::updateProfileInfo()
{
    const LiveRun* run = m_runPage->run();
    // While a sweep runs, or its results are on screen, the toolbar names what ran.
    const bool showRun = run->hasInfo() && (run->isActive() || isShowingRun());
    const QString name = showRun ? run->info().profile.name : m_profiles->currentName();
    QString target;
    if (showRun)
        target = targetWords(run->info().profile);
    else if (const std::optional<Profile> profile = m_profiles->currentProfile())
        target = targetWords(*profile);
    const QFontMetrics metrics(m_targetLabel->font());
    m_profileLabel->setText(
        tr("Profile: <b>%1</b>").arg(metrics.elidedText(name, Qt::ElideRight, 260).toHtmlEscaped()));
    m_targetLabel->setText(target.isEmpty()
            ? QString()
            : tr("Target: %1").arg(metrics.elidedText(target, Qt::ElideMiddle, 280).toHtmlEscaped()));
    m_targetLabel->setToolTip(showRun ? run->info().target : target);

    QColor dot;
    switch (run->state()) {
    case LiveRun::State::Idle:
    case LiveRun::State::Finished:
        dot = ChartStyle::sloCapacity();
        break;
    case LiveRun::State::Preparing:
    case LiveRun::State::Running:
    case LiveRun::State::Stopping:
        dot = ChartStyle::p50();
        break;
    case LiveRun::State::Pausing:
    case LiveRun::State::Paused:
    case LiveRun::State::Stopped:
        dot = ChartStyle::p99();
        break;
    case LiveRun::State::Failed:
        dot = ChartStyle::failure();
        break;
    }
    m_stateLabel->setText(QStringLiteral("<span style=\"color:%1\">●</span> %2")
                              .arg(dot.name(), run->stateText().toLower().toHtmlEscaped()));

    const QString path = m_profiles->currentPath();
    const QString file = path.isEmpty() ? m_profiles->currentName() : QFileInfo(path).fileName();
    setWindowTitle(file.isEmpty() ? tr("Kneepoint") : tr("Kneepoint — %1[*]").arg(file));
    setWindowModified(m_profiles->isModified());
}

void MainWindow::readSettings()
{
    QSettings settings;
    if (settings.contains(kGeometry))
        restoreGeometry(settings.value(kGeometry).toByteArray());
    restoreState(settings.value(kState).toByteArray());
    if (settings.contains(kRunPage))
        m_runPage->restoreState(settings.value(kRunPage).toByteArray());
    if (settings.value(kView).toString() == QLatin1String("run"))
        showRunView();
    else
        showProfileView();

    // The first start (or a last profile that is gone) opens the demo: Run then sweeps the simulator.
    const QString last = settings.value(kLastProfile).toString();
    if (!last.isEmpty() && QFileInfo::exists(last))
        m_profiles->openFile(last);
    else
        m_profiles->selectDemo();
}

void MainWindow::writeSettings()
{
    QSettings settings;
    settings.setValue(kGeometry, saveGeometry());
    settings.setValue(kState, saveState());
    settings.setValue(kRunPage, m_runPage->saveState());
    settings.setValue(kView, isShowingRun() ? QStringLiteral("run") : QStringLiteral("profile"));
    if (!m_profiles->currentPath().isEmpty())
        settings.setValue(kLastProfile, m_profiles->currentPath());
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!m_profiles->maybeSave()) {
        event->ignore();
        return;
    }
    writeSettings();
    // A sweep in progress ends with the controller: its finished steps are already on disk.
    m_runPage->run()->requestStop();
    event->accept();
}

} // namespace kp::ui
