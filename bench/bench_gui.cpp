// How responsive the window stays while a large step runs: the run view of the desktop app is fed
// by a real sweep against the simulator, and a 10 ms timer on the GUI thread measures how late it
// fires. Reports figures; asserts nothing.
//
//   bench_gui [--requests N] [--rate R] [--time-scale F]      (default: 100000 requests)
#include "run/liverun.h"
#include "run/runpage.h"
#include "run/sweepcontroller.h"
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
    QObject::connect(&controller, &ui::SweepController::failed, &app, [&](const QString& m) {
        std::fprintf(stderr, "failed: %s\n", qPrintable(m));
        ok = false;
        app.quit();
    });
    QObject::connect(&controller, &ui::SweepController::finished, &app, [&] { app.quit(); });
    since.start();
    wall.start();
    probe.start();
    controller.start(profile);
    app.exec();
    probe.stop();
    if (!ok || gapsMs.empty())
        return 1;
    std::sort(gapsMs.begin(), gapsMs.end());
    const auto at
        = [&](double p) { return gapsMs[std::min(gapsMs.size() - 1, std::size_t(p * double(gapsMs.size())))]; };
    const ui::LiveRun* run = page.run();
    const qint64 completed = run->steps().empty() ? 0 : run->steps().front().metrics.completed;
    std::printf("requests: %s, completed: %lld, wall: %.1f s\n", qPrintable(parser.value(requests)), completed,
        double(wall.elapsed()) / 1000.0);
    std::printf("GUI timer (10 ms) interval: p50 %lld ms, p99 %lld ms, max %lld ms over %zu ticks\n", at(0.5), at(0.99),
        gapsMs.back(), gapsMs.size());
    return 0;
}
