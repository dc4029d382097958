#include "shell/mainwindow.h"

#include "compare/compareview.h"
#include "i18n/language.h"
#include "kit/chartstyle.h"
#include "kit/jobtracker.h"
#include "kit/liverun.h"
#include "kit/openrun.h"
#include "kit/sweepcontroller.h"
#include "metrics/inerttext.h"
#include "profile/profilepage.h"
#include "run/exportactions.h"
#include "run/runpage.h"
#include "runs/importers.h"
#include "runs/runspage.h"
#include "shell/runguard.h"
#include "targets/matrixrun.h"
#include "targets/targetspage.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>
#include <QToolButton>
#include <QUrl>

#include <algorithm>

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
    return displayUrl(profile.target.baseUrl);
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_controller(new SweepController(this))
    , m_jobs(new JobTracker(this))
    , m_targetJobs(new JobTracker(this))
    , m_profiles(new ProfilePage(this))
    , m_runPage(new RunPage(m_controller, this))
    , m_pages(new QStackedWidget(this))
{
    setObjectName(QStringLiteral("MainWindow"));
    m_pages->addWidget(m_profiles);
    m_pages->addWidget(m_runPage);
    m_runsPage = new RunsPage(m_controller->runsDirectory(), this);
    m_compareView = new CompareView(this);
    m_pages->addWidget(m_runsPage);
    m_pages->addWidget(m_compareView);
    m_targetsPage = new TargetsPage(defaultTargetsPath(), this);
    m_pages->addWidget(m_targetsPage);
    m_matrix = new MatrixRun(m_controller, m_runPage->run(), this);
    m_exportActions = new RunExportActions(m_runPage, this);
    setCentralWidget(m_pages);
    setAcceptDrops(true); // result files and run folders dropped on the window

    buildActions();
    buildToolBar();
    buildJobIndicator();

    LiveRun* run = m_runPage->run();
    connect(run, &LiveRun::stateChanged, this, [this](LiveRun::State state) {
        if (state == LiveRun::State::Preparing)
            showRunView();
        updateActions();
        updateProfileInfo();
    });
    connect(run, &LiveRun::runStarted, this, &MainWindow::updateProfileInfo);
    connect(run, &LiveRun::stateChanged, this, [this](LiveRun::State state) {
        if (state == LiveRun::State::Finished || state == LiveRun::State::Stopped || state == LiveRun::State::Failed)
            m_runsPage->reload(); // the run that just ended is on the list
    });
    connect(m_matrix, &MatrixRun::progress, this, [this](const QString& text) { statusBar()->showMessage(text); });
    connect(m_matrix, &MatrixRun::finished, this, [this](const QStringList& dirs, bool complete) {
        m_runsPage->reload();
        if (dirs.size() >= 2)
            compareSavedRuns(dirs);
        statusBar()->showMessage(complete
                ? tr("Matrix finished: %n run(s), tagged %1.", nullptr, int(dirs.size())).arg(m_matrix->tag())
                : tr("Matrix ended early: %n run(s) finished, tagged %1.", nullptr, int(dirs.size()))
                      .arg(m_matrix->tag()),
            15000);
    });
    // A server sweep's group, when it ends: its comparison opens on the runs that measured something.
    connect(m_controller, &SweepController::serverSweepFinished, this, [this](const ServerSweepResult& result) {
        m_runsPage->reload();
        if (result.runDirs.size() >= 2)
            compareSavedRuns(result.runDirs);
        statusBar()->showMessage(result.comparison.bestSentence, 30000);
    });
    connect(m_runsPage, &RunsPage::openRequested, this, &MainWindow::openSavedRun);
    connect(m_runsPage, &RunsPage::compareRequested, this, &MainWindow::compareSavedRuns);
    connect(m_runsPage, &RunsPage::runEdited, m_exportActions, &RunExportActions::forgetSavedMeta);
    connect(m_controller, &SweepController::failed, this,
        [this](const QString& message) { statusBar()->showMessage(message.section(u'\n', 0, 0), 15000); });
    connect(m_profiles, &ProfilePage::runRequested, this, [this](const Profile& profile) {
        if (m_controller->isRunning())
            return;
        withSavedTarget(profile, [this](const Profile& resolved) { startSweep(resolved); });
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
    // One checkable action per view, Ctrl+1 … Ctrl+5 in order.
    auto viewAction = [this, s](QStyle::StandardPixmap icon, const QString& text, int key, const QString& tip,
                          void (MainWindow::*showView)()) {
        auto* action = new QAction(s->standardIcon(icon), text, m_views);
        action->setCheckable(true);
        action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(key)));
        action->setToolTip(tip);
        connect(action, &QAction::triggered, this, showView);
        return action;
    };
    m_profileView = viewAction(QStyle::SP_FileDialogDetailedView, tr("Profile"), Qt::Key_1,
        tr("Edit the profile, test the connection, preview the plan (Ctrl+1)"), &MainWindow::showProfileView);
    m_runView = viewAction(QStyle::SP_FileDialogContentsView, tr("Results"), Qt::Key_2,
        tr("The sweep: charts, steps, analysis, errors and log (Ctrl+2)"), &MainWindow::showRunView);
    m_runsView = viewAction(QStyle::SP_DirOpenIcon, tr("Runs"), Qt::Key_3,
        tr("Saved runs: open, rename, tag, annotate, delete, compare (Ctrl+3)"), &MainWindow::showRunsView);
    m_compareViewAction = viewAction(QStyle::SP_FileDialogListView, tr("Compare"), Qt::Key_4,
        tr("The runs chosen on the Runs page, overlaid, with deltas (Ctrl+4)"), &MainWindow::showCompareView);
    m_targetsView = viewAction(QStyle::SP_DriveNetIcon, tr("Targets"), Qt::Key_5,
        tr("Saved targets: endpoints that profiles refer to by name (Ctrl+5)"), &MainWindow::showTargetsView);
    m_matrixAction = new QAction(tr("Run against &targets…"), this);
    m_matrixAction->setToolTip(tr("Sweep the profile against several saved targets or models, one after another, "
                                  "then compare them"));
    connect(m_matrixAction, &QAction::triggered, this, &MainWindow::askAndRunMatrix);

    auto* quit = new QAction(tr("&Quit"), this);
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_save);
    file->addSeparator();
    file->addAction(m_exportActions->exportChartAction());
    file->addAction(m_exportActions->exportThroughputAction());
    file->addAction(m_exportActions->exportPrefixCacheAction());
    file->addAction(m_exportActions->exportGpuAction());
    file->addAction(m_exportActions->exportParetoAction());
    file->addAction(m_exportActions->copyChartAction());
    file->addAction(m_exportActions->exportReportAction());
    file->addSeparator();
    file->addAction(quit);
    QMenu* sweep = menuBar()->addMenu(tr("&Sweep"));
    sweep->addAction(m_run);
    sweep->addAction(m_stop);
    sweep->addAction(m_pause);
    sweep->addAction(m_matrixAction);
    sweep->addSeparator();
    sweep->addAction(m_runPage->repeatAction());
    sweep->addAction(m_runPage->addBetweenAction());
    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_profileView);
    view->addAction(m_runView);
    view->addAction(m_runsView);
    view->addAction(m_compareViewAction);
    view->addAction(m_targetsView);
    view->addSeparator();
    buildLanguageMenu(view->addMenu(tr("&Language")));
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Kneepoint"), this, [this] {
        QMessageBox::about(this, tr("About Kneepoint"),
            tr("<p><b>Kneepoint %1</b></p><p>Interactive load testing of LLM inference servers: sweep the "
               "offered load, watch the latency curve form and find the knee.</p>")
                .arg(QApplication::applicationVersion()));
    });
}

void MainWindow::buildLanguageMenu(QMenu* menu)
{
    // The choice is stored and applies at the next start: the pages build their texts once.
    auto* group = new QActionGroup(menu);
    const QString chosen = Language::chosen();
    auto add = [&](const QString& code, const QString& text) {
        QAction* action = menu->addAction(text);
        action->setCheckable(true);
        action->setChecked(code == chosen);
        action->setData(code);
        group->addAction(action);
        connect(action, &QAction::triggered, this, [this, code] {
            if (code == Language::chosen())
                return;
            Language::setChosen(code);
            QMessageBox::information(
                this, tr("Language"), tr("The language changes when Kneepoint starts the next time."));
        });
    };
    const QString system = QLocale::system().nativeLanguageName();
    add(QString(), system.isEmpty() ? tr("System language") : tr("System language (%1)").arg(system));
    for (const Language::Entry& entry : Language::available())
        add(entry.code, entry.nativeName);
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
    bar->addAction(m_runsView);
    bar->addAction(m_compareViewAction);
    bar->addAction(m_targetsView);
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

void MainWindow::showPage(QWidget* page, QAction* viewAction)
{
    m_pages->setCurrentWidget(page);
    viewAction->setChecked(true);
    if (m_stateLabel)
        updateProfileInfo();
}

void MainWindow::showProfileView()
{
    showPage(m_profiles, m_profileView);
}

void MainWindow::showRunView()
{
    showPage(m_runPage, m_runView);
}

void MainWindow::showRunsView()
{
    showPage(m_runsPage, m_runsView);
}

void MainWindow::showCompareView()
{
    showPage(m_compareView, m_compareViewAction);
}

bool MainWindow::openSavedRun(const QString& dir)
{
    if (m_runPage->run()->isActive()) {
        statusBar()->showMessage(tr("A sweep is running: stop it to open a saved run in the results view."), 10000);
        return false;
    }
    struct Opened
    {
        std::optional<OpenedRun> run;
        QString error;
    };
    m_jobs->start(
        tr("Opening %1").arg(QDir(dir).dirName()),
        [dir](const JobTracker::CancelFlag& cancelled) {
            Opened o;
            o.run = openRunDirectory(dir, &o.error, true, &cancelled, cancelled.progressFunction());
            return o;
        },
        [this, dir](Opened opened) {
            if (!opened.run) {
                statusBar()->showMessage(opened.error, 15000);
                Q_EMIT savedRunOpened(dir, false);
                return;
            }
            // A sweep may have started while the run was read: the run view is its now.
            if (!opened.run->showIn(m_runPage->run())) {
                statusBar()->showMessage(
                    tr("A sweep is running: stop it to open a saved run in the results view."), 10000);
                Q_EMIT savedRunOpened(dir, false);
                return;
            }
            m_exportActions->setSavedMeta(
                opened.run->info.runDirectory, opened.run->meta); // exports need not read it again
            showRunView();
            statusBar()->showMessage(opened.run->warnings.isEmpty()
                    ? tr("Opened %1").arg(opened.run->meta.name)
                    : tr("Opened %1 with warnings: %2").arg(opened.run->meta.name, opened.run->warnings.constFirst()),
                10000);
            Q_EMIT savedRunOpened(dir, true);
        });
    return true;
}

bool MainWindow::compareSavedRuns(const QStringList& dirs)
{
    m_jobs->start(
        tr("Reading %n run(s) to compare", nullptr, int(dirs.size())),
        [dirs](const JobTracker::CancelFlag& cancelled) {
            return CompareView::readRuns(dirs, &cancelled, cancelled.progressFunction());
        },
        [this, dirs](CompareView::ReadRuns read) {
            if (!read.error.isEmpty()) {
                statusBar()->showMessage(read.error, 15000);
                Q_EMIT comparisonOpened(dirs, false);
                return;
            }
            m_compareView->setRuns(std::move(read.runs));
            if (read.group)
                m_compareView->setServerComparison(std::move(read.group));
            showCompareView();
            Q_EMIT comparisonOpened(dirs, true);
        });
    return true;
}

void MainWindow::buildJobIndicator()
{
    // While saved runs are read: what, a busy bar, and Cancel.
    auto* box = new QWidget(this);
    auto* layout = new QHBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* label = new QLabel(box);
    auto* bar = new QProgressBar(box);
    bar->setObjectName(QStringLiteral("jobProgress"));
    bar->setTextVisible(false);
    bar->setRange(0, 0);
    bar->setMaximumWidth(120);
    bar->setMaximumHeight(14);
    auto* cancel = new QToolButton(box);
    cancel->setText(tr("Cancel"));
    cancel->setToolTip(tr("Stop reading the run"));
    layout->addWidget(label);
    layout->addWidget(bar);
    layout->addWidget(cancel);
    statusBar()->addPermanentWidget(box);
    box->hide();
    connect(cancel, &QToolButton::clicked, this, [this] {
        m_jobs->cancel();
        statusBar()->showMessage(tr("Cancelled"), 5000);
    });
    connect(m_jobs, &JobTracker::busyChanged, box, [this, box, label, bar](bool busy) {
        label->setText(m_jobs->what() + QStringLiteral("…"));
        if (busy)
            bar->setRange(0, 0); // busy until the job says how far it is
        box->setVisible(busy);
    });
    connect(m_jobs, &JobTracker::progressChanged, bar, [this, bar, label](int done, int total) {
        if (total <= 0)
            return;
        bar->setRange(0, total);
        bar->setValue(std::clamp(done, 0, total));
        // The bar is too thin for its own text: the percentage goes with the job's words.
        label->setText(tr("%1… %2%").arg(m_jobs->what()).arg(100 * bar->value() / total));
    });
}

void MainWindow::importPaths(const QStringList& paths)
{
    // A run folder is opened, not imported again.
    if (paths.size() == 1 && QFileInfo::exists(paths.constFirst() + QStringLiteral("/run.json"))) {
        openSavedRun(paths.constFirst());
        return;
    }
    m_jobs->start(
        tr("Importing %n file(s)", nullptr, int(paths.size())),
        [paths, root = m_runsPage->root()](const JobTracker::CancelFlag&) { return importRun(paths, root); },
        [this](const ImportResult& result) {
            if (!result.ok()) {
                statusBar()->showMessage(tr("Import failed: %1").arg(result.error), 20000);
                Q_EMIT pathsImported(QString());
                return;
            }
            const QStringList dirs = result.dirs.isEmpty() ? QStringList { result.dir } : result.dirs;
            m_runsPage->reloadAndSelect(dirs);
            showRunsView();
            QString warnings
                = result.warnings.isEmpty() ? QString() : tr(" (%1)").arg(result.warnings.join(QStringLiteral("; ")));
            if (!result.refused.isEmpty())
                warnings += tr("; refused %n file(s): %1", nullptr, int(result.refused.size()))
                                .arg(kp::inertText(result.refused.join(QStringLiteral("; "))));
            const QString tools = result.sources.join(QStringLiteral(", "));
            if (dirs.size() > 1) {
                // The files measured different things: separate runs, opened side by side at once.
                statusBar()->showMessage(tr("Imported %1 steps from %2 result files as %3 runs that differ in "
                                            "what they measured (%4): comparing them%5")
                                             .arg(result.stepCount)
                                             .arg(tools)
                                             .arg(dirs.size())
                                             .arg(kp::inertText(result.difference), warnings),
                    15000);
                // Queued: a job started from inside another's result would be marked idle when that returns.
                QMetaObject::invokeMethod(
                    this, [this, dirs] { compareSavedRuns(dirs); }, Qt::QueuedConnection);
            } else {
                statusBar()->showMessage(tr("Imported %1 steps from %2 result files as %3%4")
                                             .arg(result.stepCount)
                                             .arg(tools, result.id, warnings),
                    15000);
            }
            Q_EMIT pathsImported(result.dir);
        });
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!urls.isEmpty() && std::all_of(urls.begin(), urls.end(), [](const QUrl& u) { return u.isLocalFile(); }))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    QStringList paths;
    const QList<QUrl> urls = event->mimeData()->urls();
    for (const QUrl& url : urls) {
        if (url.isLocalFile())
            paths << QDir::cleanPath(url.toLocalFile());
    }
    if (paths.isEmpty())
        return;
    event->acceptProposedAction();
    importPaths(paths);
}

std::optional<Profile> MainWindow::runnableProfile()
{
    std::optional<Profile> profile = m_profiles->currentProfile();
    if (!profile) {
        showProfileView();
        statusBar()->showMessage(tr("The profile has errors: the editor shows them at their fields."), 10000);
    }
    return profile;
}

void MainWindow::runCurrentProfile()
{
    if (m_controller->isRunning())
        return;
    const std::optional<Profile> profile = runnableProfile();
    if (!profile)
        return;
    statusBar()->clearMessage();
    withSavedTarget(*profile, [this](const Profile& resolved) { startSweep(resolved); });
}

void MainWindow::startSweep(const Profile& profile)
{
    // The read may have taken a moment: a sweep started meanwhile keeps the controller.
    if (m_controller->isRunning() || m_matrix->isActive())
        return;
    bool allowHighLoad = false;
    if (confirmSweepStart(this, profile, &allowHighLoad))
        m_controller->start(profile, allowHighLoad);
}

void MainWindow::withSavedTarget(const Profile& profile, std::function<void(const Profile&)> then)
{
    if (profile.targetName.isEmpty()) {
        then(profile);
        return;
    }
    struct Resolved
    {
        Profile profile;
        QString error;
    };
    m_targetJobs->start(
        tr("Reading the saved targets"),
        [profile, path = m_targetsPage->store().path()](const JobTracker::CancelFlag&) {
            Resolved r { profile, {} };
            TargetStore store(path);
            QStringList errors;
            store.load(&errors);
            r.error = errors.isEmpty() ? resolveTargetReference(r.profile, store) : errors.join(u'\n');
            return r;
        },
        [this, then = std::move(then)](const Resolved& r) {
            if (r.error.isEmpty()) {
                then(r.profile);
                return;
            }
            statusBar()->showMessage(r.error, 20000);
            if (isVisible())
                QMessageBox::warning(this, tr("Saved target"), r.error);
        });
}

void MainWindow::askAndRunMatrix()
{
    if (m_controller->isRunning() || m_matrix->isActive())
        return;
    const std::optional<Profile> profile = runnableProfile();
    if (!profile)
        return;
    struct Loaded
    {
        TargetStore store;
        QStringList errors; // the Targets page shows them
    };
    m_targetJobs->start(
        tr("Reading the saved targets"),
        [path = m_targetsPage->store().path()](const JobTracker::CancelFlag&) {
            Loaded l { TargetStore(path), {} };
            l.store.load(&l.errors);
            return l;
        },
        [this, base = *profile](const Loaded& loaded) {
            if (m_controller->isRunning() || m_matrix->isActive())
                return;
            if (loaded.store.targets().isEmpty()) {
                showTargetsView();
                statusBar()->showMessage(tr("No saved targets yet: add them on the Targets page first."), 10000);
                return;
            }
            const std::optional<MatrixChoice> choice = askMatrix(this, loaded.store);
            if (!choice)
                return;
            runMatrix(matrixProfiles(base, *choice));
        });
}

bool MainWindow::runMatrix(const std::vector<Profile>& profiles)
{
    for (const Profile& p : profiles) {
        if (!confirmSweepStart(this, p))
            return false;
    }
    return m_matrix->start(profiles);
}

void MainWindow::showTargetsView()
{
    showPage(m_targetsPage, m_targetsView);
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
    m_matrixAction->setEnabled(!active && !(m_matrix && m_matrix->isActive()));
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
