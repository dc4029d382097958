// How responsive the window stays while a large step runs: the run view of the desktop app is fed
// by a real sweep against the simulator, and a 10 ms timer on the GUI thread measures how late it
// fires. Then the same run, saved with every request record, is opened in the run view as the
// window opens it (a background job) and, for reference in the same invocation, read on the GUI
// thread as it once was. Reports figures; asserts nothing.
//
//   bench_gui [--requests N] [--rate R] [--time-scale F]      (default: 100000 requests)
#include "kit/jobtracker.h"
#include "kit/liverun.h"
#include "kit/openrun.h"
#include "kit/sweepcontroller.h"
#include "run/runpage.h"
#include "sim/filelimit.h"
#include "sim/simhost.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <optional>
#include <vector>

using namespace kp;

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", QByteArrayLiteral("offscreen"));
    QApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("bench_gui"));
    QStandardPaths::setTestModeEnabled(true);
    QCommandLineParser parser;
    const QCommandLineOption requests(QStringLiteral("requests"), QStringLiteral("Requests in the step."),
        QStringLiteral("N"), QStringLiteral("100000"));
    const QCommandLineOption rate(QStringLiteral("rate"), QStringLiteral("Offered rate, req/s (wall clock)."),
        QStringLiteral("R"), QStringLiteral("2000"));
    const QCommandLineOption timeScale(QStringLiteral("time-scale"), QStringLiteral("Simulator time scale."),
        QStringLiteral("F"), QStringLiteral("20"));
    parser.addOptions({ requests, rate, timeScale });
    parser.addHelpOption();
    parser.process(app);
    sim::raiseFileLimit();

    sim::SimServerOptions options;
    options.timeScale = parser.value(timeScale).toDouble();
    options.params.maxNumSeqs = 1024;
    options.params.kvCapacityTokens = 1'000'000;
    sim::SimHost host;
    if (!host.start(options)) {
        std::fprintf(stderr, "simulator: %s\n", qPrintable(host.errorString()));
        return 1;
    }
    QTemporaryDir runs;
    ui::SweepController controller;
    controller.setRunsDirectory(runs.path());
    ui::RunPage page(&controller);
    page.resize(1280, 800);
    page.show();

    Profile profile;
    profile.name = QStringLiteral("bench");
    profile.target.baseUrl = host.baseUrl().toString();
    profile.target.backend = Backend::OpenAi;
    profile.target.model = options.params.modelId;
    profile.workload.numPrompts = parser.value(requests).toInt();
    profile.workload.inputLen = 16;
    profile.workload.outputLen = 4;
    profile.workload.ignoreEos = true;
    profile.load.rates = { parser.value(rate).toDouble() };

    std::vector<qint64> gapsMs;
    QElapsedTimer since;
    QTimer probe;
    probe.setInterval(10);
    QObject::connect(&probe, &QTimer::timeout, &app, [&] { gapsMs.push_back(since.restart()); });
    QElapsedTimer wall;
    bool ok = true;
    QString runDirectory;
    QObject::connect(&controller, &ui::SweepController::started, &app,
        [&](const ui::RunInfo& info) { runDirectory = info.runDirectory; });
    QObject::connect(&controller, &ui::SweepController::failed, &app, [&](const QString& m) {
        std::fprintf(stderr, "failed: %s\n", qPrintable(m));
        ok = false;
        app.quit();
    });
    QObject::connect(&controller, &ui::SweepController::finished, &app, [&] { app.quit(); });
    // Runs the event loop with the probe timer on; returns the timer's intervals, sorted.
    auto measure = [&](const std::function<void()>& begin) {
        gapsMs.clear();
        since.start();
        wall.start();
        probe.start();
        QTimer::singleShot(0, &app, begin);
        app.exec();
        probe.stop();
        std::sort(gapsMs.begin(), gapsMs.end());
        return gapsMs;
    };
    auto report = [](const char* what, const std::vector<qint64>& gaps, qint64 wallMs) {
        if (gaps.empty()) {
            std::printf("%s: no ticks in %.1f s\n", what, double(wallMs) / 1000.0);
            return;
        }
        const auto at = [&](double p) { return gaps[std::min(gaps.size() - 1, std::size_t(p * double(gaps.size())))]; };
        std::printf("%s: %.1f s; GUI timer (10 ms) interval: p50 %lld ms, p99 %lld ms, max %lld ms over %zu ticks\n",
            what, double(wallMs) / 1000.0, at(0.5), at(0.99), gaps.back(), gaps.size());
    };

    const std::vector<qint64> live = measure([&] { controller.start(profile); });
    if (!ok || live.empty())
        return 1;
    const ui::LiveRun* run = page.run();
    const qint64 completed = run->steps().empty() ? 0 : run->steps().front().metrics.completed;
    std::printf("requests: %s, completed: %lld\n", qPrintable(parser.value(requests)), completed);
    report("live sweep", live, wall.elapsed());

    // Opening the saved run with its request records: as the window does it, in a background job ...
    ui::JobTracker jobs;
    const std::vector<qint64> background = measure([&] {
        jobs.start(
            QStringLiteral("open"),
            [dir = runDirectory](const ui::JobTracker::CancelFlag& cancelled) {
                QString error;
                return ui::openRunDirectory(dir, &error, true, &cancelled);
            },
            [&](const std::optional<ui::OpenedRun>& opened) {
                ok = opened && opened->showIn(page.run());
                QTimer::singleShot(50, &app, &QApplication::quit); // a few ticks after it, as before
            });
    });
    report("open the run (background job)", background, wall.elapsed());
    // ... and, for reference, read on the GUI thread.
    const std::vector<qint64> blocking = measure([&] {
        QString error;
        const std::optional<ui::OpenedRun> opened = ui::openRunDirectory(runDirectory, &error);
        ok = ok && opened && opened->showIn(page.run());
        QTimer::singleShot(50, &app, &QApplication::quit); // the ticks that waited are counted
    });
    report("open the run (on the GUI thread, reference)", blocking, wall.elapsed());
    if (!background.empty() && !blocking.empty())
        std::printf("GUI timer max interval while opening: %.1fx lower in the background\n",
            double(blocking.back()) / double(std::max<qint64>(1, background.back())));
    return ok ? 0 : 1;
}
