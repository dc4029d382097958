// How responsive the window stays through a soak: the run page (offscreen, 1280×800) runs a soak
// profile against kneepoint-sim, started as a process of its own, and a 16 ms timer on the GUI thread
// measures how late each of its ticks comes. Reports figures (lateness p50/p99/max, the windows shown
// against those written, the run page's chart points, the process's RSS as the windows close); asserts
// nothing.
//
//   bench_gui_soak [--duration S] [--rate R] [--window S] [--time-scale F] [--fault SPEC] [--base-url URL] [--curve]
//   (default: a 30 s soak at 100 req/s, 5 s windows, the simulator at time scale 10)
#include "kit/liverun.h"
#include "kit/soakwindowfigures.h"
#include "kit/sweepcontroller.h"
#include "run/runpage.h"
#include "run/soakchart.h"
#include "run/soakpanel.h"
#include "run/soakwindowsmodel.h"
#include "sim/filelimit.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>

#include <malloc.h>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace kp;

namespace {

// The process's resident set, in MB (/proc/self/status VmRSS); -1 where it cannot be read.
double rssMb(const char* key = "VmRSS:")
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith(key))
            return line.mid(qsizetype(qstrlen(key))).trimmed().split(' ').value(0).toDouble() / 1024.0;
    }
    return -1;
}

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", QByteArrayLiteral("offscreen"));
    QApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("bench_gui_soak"));
    QStandardPaths::setTestModeEnabled(true);
    QCommandLineParser parser;
    const QCommandLineOption duration(
        QStringLiteral("duration"), QStringLiteral("Soak length, seconds."), QStringLiteral("S"), QStringLiteral("30"));
    const QCommandLineOption rate(QStringLiteral("rate"), QStringLiteral("Offered rate, req/s (wall clock)."),
        QStringLiteral("R"), QStringLiteral("100"));
    const QCommandLineOption window(
        QStringLiteral("window"), QStringLiteral("Window length, seconds."), QStringLiteral("S"), QStringLiteral("5"));
    const QCommandLineOption timeScale(QStringLiteral("time-scale"), QStringLiteral("Simulator time scale."),
        QStringLiteral("F"), QStringLiteral("10"));
    const QCommandLineOption fault(QStringLiteral("fault"),
        QStringLiteral("Faults for kneepoint-sim (its --fault, e.g. 500:0.05)."), QStringLiteral("SPEC"));
    const QCommandLineOption baseUrl(QStringLiteral("base-url"),
        QStringLiteral("A server already running (no kneepoint-sim is started)."), QStringLiteral("URL"));
    const QCommandLineOption simPath(QStringLiteral("sim"), QStringLiteral("The kneepoint-sim executable."),
        QStringLiteral("PATH"), QStringLiteral(KNEEPOINT_SIM));
    const QCommandLineOption curveOption(QStringLiteral("curve"),
        QStringLiteral("Print the RSS against the requests done at every window (JSON lines)."));
    parser.addOptions({ duration, rate, window, timeScale, fault, baseUrl, simPath, curveOption });
    parser.addHelpOption();
    parser.process(app);
    sim::raiseFileLimit();

    QString url = parser.value(baseUrl);
    QProcess sim;
    if (url.isEmpty()) {
        QStringList args { QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--time-scale"),
            parser.value(timeScale), QStringLiteral("--max-num-seqs"), QStringLiteral("256") };
        if (parser.isSet(fault))
            args << QStringLiteral("--fault") << parser.value(fault);
        sim.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        sim.start(parser.value(simPath), args);
        static const QRegularExpression listening(QStringLiteral("listening on (\\S+)"));
        QElapsedTimer waited;
        waited.start();
        QByteArray out;
        while (url.isEmpty() && waited.elapsed() < 20000 && sim.state() != QProcess::NotRunning) {
            sim.waitForReadyRead(200);
            out += sim.readAllStandardOutput();
            if (const QRegularExpressionMatch m = listening.match(QString::fromUtf8(out)); m.hasMatch())
                url = m.captured(1);
        }
        if (url.isEmpty()) {
            std::fprintf(stderr, "%s did not start: %s\n", qPrintable(parser.value(simPath)), out.constData());
            return 1;
        }
    }

    QTemporaryDir runs;
    ui::SweepController controller;
    controller.setRunsDirectory(runs.path());
    ui::RunPage page(&controller);
    page.resize(1280, 800);
    page.show();

    Profile profile;
    profile.name = QStringLiteral("bench soak");
    profile.target.baseUrl = url;
    profile.target.backend = Backend::OpenAi;
    profile.workload.inputLen = 64;
    profile.workload.outputLen = 16;
    profile.workload.ignoreEos = true;
    profile.load.rates = { parser.value(rate).toDouble() };
    profile.load.soak = true;
    profile.load.soakDurationS = parser.value(duration).toDouble();
    profile.load.soakWindowS = parser.value(window).toDouble();

    // Lateness: how long after its due time each 16 ms tick comes (a precise timer is due one interval
    // after the previous tick).
    constexpr double kTickMs = 16.0;
    std::vector<double> latenessMs;
    QElapsedTimer since;
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    probe.setInterval(int(kTickMs));
    QObject::connect(&probe, &QTimer::timeout, &app, [&] {
        latenessMs.push_back(std::max(0.0, double(since.nsecsElapsed()) / 1e6 - kTickMs));
        since.restart();
    });
    // The RSS curve: per closed window, the requests ended so far and the process's RSS (one line each
    // with --curve, always at the first window past 100,000 requests and at the last).
    struct CurvePoint
    {
        double elapsedS;
        qint64 requests;
        double rssMb;
    };
    std::vector<CurvePoint> curve;
    qint64 requestsDone = 0;
    QElapsedTimer soakClock;
    const bool printCurve = parser.isSet(curveOption);
    QObject::connect(&controller, &ui::SweepController::windowFinished, &app, [&](const ui::SoakWindowFigures& w) {
        requestsDone += w.completed + w.failed;
        curve.push_back({ double(soakClock.elapsed()) / 1000.0, requestsDone, rssMb() });
        if (printCurve) {
            // The heap in use (every arena): what the process holds, against what the allocator kept.
            const struct mallinfo2 heap = mallinfo2();
            std::printf("{\"elapsed_s\": %.1f, \"requests\": %lld, \"rss_mb\": %.1f, \"heap_in_use_mb\": %.1f}\n",
                curve.back().elapsedS, curve.back().requests, curve.back().rssMb, double(heap.uordblks) / 1048576.0);
            std::fflush(stdout);
        }
    });
    bool ok = true;
    QString runDirectory;
    QObject::connect(&controller, &ui::SweepController::started, &app, [&](const ui::RunInfo& info) {
        runDirectory = info.runDirectory;
        since.start();
        soakClock.start();
        probe.start(); // from the soak's start: the preflight is not what is measured
    });
    QObject::connect(&controller, &ui::SweepController::failed, &app, [&](const QString& m) {
        std::fprintf(stderr, "failed: %s\n", qPrintable(m));
        ok = false;
        app.quit();
    });
    QObject::connect(&controller, &ui::SweepController::finished, &app, [&] {
        // A last redraw of the panel, then stop.
        QTimer::singleShot(ui::SoakPanel::kRedrawMs + 100, &app, &QApplication::quit);
    });
    QElapsedTimer wall;
    wall.start();
    QTimer::singleShot(0, &app, [&] { controller.start(profile); });
    app.exec();
    probe.stop();
    if (sim.state() != QProcess::NotRunning) {
        sim.terminate();
        sim.waitForFinished(5000);
    }
    if (!ok || latenessMs.empty())
        return 1;

    std::sort(latenessMs.begin(), latenessMs.end());
    const auto at = [&](double p) {
        return latenessMs[std::min(latenessMs.size() - 1, std::size_t(p * double(latenessMs.size())))];
    };
    const ui::LiveRun* run = page.run();
    const StepMetrics* m = run->steps().empty() ? nullptr : &run->steps().front().metrics;
    std::vector<ui::SoakWindowFigures> written;
    QString error;
    const QString windowsFile = QDir(runDirectory).filePath(QStringLiteral("steps/000.windows.jsonl"));
    ui::readSoakWindows(windowsFile, &written, &error);
    std::printf("soak: %s s at %s req/s, %s s windows, time scale %s; wall %.1f s\n",
        qPrintable(parser.value(duration)), qPrintable(parser.value(rate)), qPrintable(parser.value(window)),
        qPrintable(parser.value(timeScale)), double(wall.elapsed()) / 1000.0);
    std::printf("requests: %lld completed, %lld failed\n", m ? m->completed : 0LL, m ? m->failed : 0LL);
    std::printf("windows: %d shown, %zu in windows.jsonl%s; chart: %d window points, %d per-second points\n",
        page.soakPanel()->model()->rowCount(), written.size(),
        page.soakPanel()->model()->windows() == written ? " (equal)" : " (DIFFERENT)",
        page.soakPanel()->chart()->windowPoints(), page.soakPanel()->chart()->secondPoints());
    std::printf("GUI timer (%g ms) lateness: p50 %.1f ms, p99 %.1f ms, max %.1f ms over %zu ticks\n", kTickMs, at(0.5),
        at(0.99), latenessMs.back(), latenessMs.size());
    if (!curve.empty()) {
        std::printf("RSS: %.1f MB at the first window, %.1f MB at the last (%zu windows); peak %.1f MB\n",
            curve.front().rssMb, curve.back().rssMb, curve.size(), rssMb("VmHWM:"));
        const auto past
            = std::find_if(curve.begin(), curve.end(), [](const CurvePoint& p) { return p.requests >= 100000; });
        if (past != curve.end() && past != curve.end() - 1)
            std::printf("RSS: %.1f MB at %lld requests (%.0f s), %.1f MB at %lld (%.0f s): ratio %.3f\n", past->rssMb,
                past->requests, past->elapsedS, curve.back().rssMb, curve.back().requests, curve.back().elapsedS,
                curve.back().rssMb / past->rssMb);
    }
    // What the soak wrote: one line of steps/000.requests.jsonl per request ended.
    QFile records(QDir(runDirectory).filePath(QStringLiteral("steps/000.requests.jsonl")));
    qint64 recordsWritten = 0;
    if (records.open(QIODevice::ReadOnly)) {
        while (!records.atEnd())
            recordsWritten += records.readLine().endsWith('\n') ? 1 : 0;
    }
    std::printf("records written: %lld (%s), requests ended in the windows: %lld\n", recordsWritten,
        qPrintable(records.fileName()), requestsDone);
    return 0;
}
