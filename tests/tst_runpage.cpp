// The live run view: its models, the pure curve helpers, and whole sweeps against the simulator on
// 127.0.0.1 driven through the controller thread, with screenshots of the main states.
#include "charts/comparechart.h"
#include "charts/ganttchart.h"
#include "charts/gpuchart.h"
#include "charts/loadlatencychart.h"
#include "charts/paretochart.h"
#include "charts/prefixcachechart.h"
#include "charts/throughputchart.h"
#include "charts/timelinechart.h"
#include "compare/compareview.h"
#include "kit/forecast.h"
#include "kit/liverun.h"
#include "kit/openrun.h"
#include "kit/ratetimeline.h"
#include "kit/soakwindowfigures.h"
#include "kit/stepreport.h"
#include "kit/stepstablemodel.h"
#include "kit/sweepcontroller.h"
#include "kit/sweepcurve.h"
#include "kit/uiformat.h"
#include "profile/profilepage.h"
#include "profile/profilestore.h"
#include "run/errorsmodel.h"
#include "run/livestepchart.h"
#include "run/runpage.h"
#include "run/serverpanel.h"
#include "run/soakchart.h"
#include "run/soakpanel.h"
#include "run/soakwindowsmodel.h"
#include "run/stepdetails.h"
#include "run/whatifpanel.h"
#include "runs/importers.h"
#include "runs/savedrun.h"
#include "shell/mainwindow.h"
#include "sim/faults.h"
#include "sim/filelimit.h"
#include "sim/simhost.h"
#include "support/simsweep.h"
#include "support/summarytable.h"
#include "sweep/analysistext.h"
#include "twin/twin.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QAreaSeries>
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLegend>
#include <QLineSeries>
#include <QListWidget>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QValueAxis>

#include <cmath>
#include <random>

using namespace kp;
using namespace kp::ui;

namespace {

StepReport syntheticStep(int index, double rate, double rps, double ttftMeanMs, double ttftP99Ms, qint64 failed = 0)
{
    StepReport s;
    s.config.index = index;
    s.config.mode = LoadMode::Rate;
    s.config.rate = rate;
    s.config.purpose = QStringLiteral("coarse");
    s.load = QStringLiteral("%1 req/s").arg(rate);
    s.durationS = 10;
    s.metrics.completed = 100;
    s.metrics.failed = failed;
    s.metrics.requestThroughput = rps;
    s.metrics.outputThroughput = rps * 120;
    s.metrics.ttft.count = 100;
    s.metrics.ttft.mean = ttftMeanMs;
    s.metrics.ttft.median = ttftMeanMs * 0.9;
    s.metrics.ttft.percentiles = { { 99.0, ttftP99Ms } };
    s.metrics.tpot.count = 100;
    s.metrics.tpot.mean = 18.7;
    s.metrics.itl.count = 1000;
    s.metrics.itl.mean = 18.6;
    if (failed > 0) {
        FailureGroup g;
        g.failure = FailureClass::HttpRateLimited;
        g.count = failed;
        g.example = QStringLiteral("HTTP 429 from http://127.0.0.1:1/v1/chat/completions");
        g.hint = QStringLiteral("The server limits the request rate.");
        g.steps = { index };
        s.failures.push_back(g);
    }
    return s;
}

// The test server: the small preset, 8 sequences at a time, whose capacity is about 25 requests per
// simulated second, so 25 × timeScale req/s on the client's clock.
sim::SimServerOptions smallServer(double timeScale)
{
    sim::SimServerOptions options;
    options.params = sim::presetByName(QStringLiteral("small"))->params;
    options.params.maxNumSeqs = 8;
    options.timeScale = timeScale;
    return options;
}

// The time scale of the test server that the sweeps share: its knee comes at about 250 req/s.
constexpr double kTimeScale = 10;

// Rates below and past the capacity of a server of smallServer(timeScale), so the analysis finds the
// knee: the same simulated load at every time scale.
QList<double> kneeRates(double timeScale)
{
    QList<double> rates;
    for (const double simulated : { 2.5, 5.0, 10.0, 15.0, 22.5, 30.0, 40.0, 50.0 })
        rates << simulated * timeScale;
    return rates;
}

QString closedPortUrl()
{
    QTcpServer s;
    s.listen(QHostAddress::LocalHost, 0);
    return QStringLiteral("http://127.0.0.1:%1").arg(s.serverPort());
}

// A short workload: 100-token prompts, 32-token answers, every request counted.
Profile sweepProfile(const QString& baseUrl, const QList<double>& rates, int prompts)
{
    Profile p = Profile::demo(QUrl(baseUrl), QString());
    p.name = QStringLiteral("Test sweep");
    p.target.model.clear(); // from /v1/models, or the built-in simulator's
    p.workload.numPrompts = prompts;
    p.workload.inputLen = 100;
    p.workload.outputLen = 32;
    p.workload.rangeRatio = 0.2;
    p.load.rates = rates;
    p.load.stepDurationS.reset();
    p.load.warmupRequests = 0;
    p.load.cooldownS = 0;
    p.slo = {};
    p.slo.ttftMs = 100;
    return p;
}

QJsonObject readJson(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

QString screenshotDir()
{
    const QString dir = QDir(QCoreApplication::applicationDirPath()).absoluteFilePath(QStringLiteral("../screenshots"));
    QDir().mkpath(dir);
    return QDir::cleanPath(dir);
}

void saveScreenshot(QWidget* widget, const QString& name)
{
    // Charts lay out their axes in posted events and drop replaced axes with deleteLater(): let both
    // happen, as the event loop would, before the grab.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    QCoreApplication::processEvents();
    const QString path = screenshotDir() + u'/' + name + QStringLiteral(".png");
    QVERIFY2(widget->grab().save(path), qPrintable(path));
    qInfo("screenshot: %s", qPrintable(path));
}

// Counts how late the GUI thread's timer fires: a blocked GUI thread shows as one long gap.
class Responsiveness : public QObject
{
public:
    Responsiveness()
    {
        m_timer.setInterval(20);
        connect(&m_timer, &QTimer::timeout, this, [this] { m_maxGapMs = std::max(m_maxGapMs, m_since.restart()); });
        m_since.start();
        m_timer.start();
    }
    qint64 maxGapMs() const { return m_maxGapMs; }

private:
    QTimer m_timer;
    QElapsedTimer m_since;
    qint64 m_maxGapMs = 0;
};

// The keys of a JSON document as paths ("steps[].server.kv_usage_peak"), elements of an array merged.
void collectKeys(const QJsonValue& value, const QString& path, QSet<QString>& keys)
{
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it) {
            const QString key = path.isEmpty() ? it.key() : path + u'.' + it.key();
            keys << key;
            collectKeys(it.value(), key, keys);
        }
    } else if (value.isArray()) {
        for (const QJsonValue& element : value.toArray())
            collectKeys(element, path + QStringLiteral("[]"), keys);
    }
}

QStringList keyPaths(const QString& file)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return { QStringLiteral("cannot read %1").arg(file) };
    QSet<QString> keys;
    collectKeys(QJsonDocument::fromJson(f.readAll()).object(), QString(), keys);
    QStringList sorted(keys.begin(), keys.end());
    sorted.sort();
    return sorted;
}

QStringList filesUnder(const QString& dir)
{
    QStringList files;
    QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        files << QDir(dir).relativeFilePath(it.next());
    files.sort();
    return files;
}

// A server sweep of kneepoint-sim per max_num_seqs on a free port: closed loops of 1, 4 and 8 users, each
// request streaming 128 tokens (about 100 ms at this time scale), so that users beyond max_num_seqs wait
// that long for a slot, far past the 40 ms SLO on the median TTFT (as tst_cli's server sweep). 16 requests
// a step: with 8 users on 4 slots every request after the first 4 waits, so the median waits; with 4 users
// on 4 slots none does; with 8 users on more slots only the first 8 start together, so a stall of the
// machine then moves the median no more than it moves those 8.
Profile serverSweepProfile(const QString& values)
{
    Profile p = sweepProfile(QStringLiteral("http://127.0.0.1:9"), {}, 16);
    p.name = QStringLiteral("Server sweep");
    p.load.mode = LoadMode::Concurrency;
    p.load.rates.clear();
    p.load.concurrencies = { 1, 4, 8 };
    p.load.plan.earlyStop = false;
    p.workload.inputLen = 16;
    p.workload.outputLen = 128;
    p.workload.rangeRatio = 0;
    p.workload.ignoreEos = true;
    p.slo = {};
    p.slo.ttftMs = 40;
    p.slo.percentile = 50;
    p.serverSweep.command = QStringLiteral("%1 --port {port} --max-num-seqs {max_num_seqs} --time-scale 10")
                                .arg(QStringLiteral(KNEEPOINT_SIM_PROGRAM));
    QJsonArray list;
    for (const QString& v : values.split(u','))
        list.append(v);
    p.serverSweep.parameters = { { QStringLiteral("max_num_seqs"), list } };
    p.serverSweep.graceS = 20;
    return p;
}

// Whether something listens at a run's base URL (its server still up).
bool answersAt(const QString& runDir)
{
    const QUrl url(readJson(runDir + QStringLiteral("/run.json"))
                       .value(u"profile")
                       .toObject()
                       .value(u"target")
                       .toObject()
                       .value(u"base_url")
                       .toString());
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, quint16(url.port()));
    return socket.waitForConnected(2000);
}

} // namespace

class TestRunPage : public QObject
{
    Q_OBJECT

    QTemporaryDir m_runs;
    sim::SimHost m_sim; // smallServer(kTimeScale)

private Q_SLOTS:
    // Failures of one class are grouped by status: a 500 and a 503 keep their own example and advice.
    void failureGroupsKeepEachStatus()
    {
        StepResult result;
        result.config.index = 2;
        for (const auto& [status, count] : { std::pair { 500, 3 }, std::pair { 503, 2 } }) {
            for (int i = 0; i < count; ++i) {
                RequestRecord r;
                r.index = i;
                r.httpStatus = status;
                r.failure = FailureClass::HttpServerError;
                r.errorMessage = QStringLiteral("HTTP %1 from http://127.0.0.1:1/v1/completions: x").arg(status);
                if (status == 503)
                    r.response.retryAfterS = 4;
                result.records.push_back(r);
            }
        }
        const StepReport report = makeStepReport(result, Profile {}, {}, {});
        QCOMPARE(report.failures.size(), std::size_t(2));
        QCOMPARE(report.failures[0].httpStatus, 500);
        QCOMPARE(report.failures[0].count, 3);
        QCOMPARE(report.failures[0].example, QStringLiteral("HTTP 500 from http://127.0.0.1:1/v1/completions: x"));
        QVERIFY2(
            report.failures[0].hint.contains(QStringLiteral("out-of-memory")), qPrintable(report.failures[0].hint));
        QCOMPARE(report.failures[1].httpStatus, 503);
        QCOMPARE(report.failures[1].count, 2);
        QCOMPARE(report.failures[1].example, QStringLiteral("HTTP 503 from http://127.0.0.1:1/v1/completions: x"));
        QVERIFY2(report.failures[1].hint.startsWith(QStringLiteral("The server is shedding load: HTTP 503 with "
                                                                   "Retry-After 4 s")),
            qPrintable(report.failures[1].hint));
        std::vector<FailureGroup> merged;
        mergeFailures(merged, report);
        mergeFailures(merged, report);
        QCOMPARE(merged.size(), std::size_t(2));
        QCOMPARE(merged[0].count, 6);
        QCOMPARE(merged[1].count, 4);
        ErrorsModel model;
        model.setGroups(merged);
        QCOMPARE(model.data(model.index(1, ErrorsModel::Class)).toString(),
            ErrorsModel::classTitle(FailureClass::HttpServerError) + QStringLiteral(" (HTTP 503)"));
        // A class that names its one status is not followed by it again.
        FailureGroup limited;
        limited.failure = FailureClass::HttpRateLimited;
        limited.httpStatus = 429;
        limited.count = 1;
        model.setGroups({ limited });
        QCOMPARE(model.data(model.index(0, ErrorsModel::Class)).toString(),
            ErrorsModel::classTitle(FailureClass::HttpRateLimited));

        // A context-length 400 names the max_model_len the preflight read, when the window has it.
        StepResult tooLong;
        RequestRecord r;
        r.httpStatus = 400;
        r.failure = FailureClass::HttpOther;
        r.errorMessage = QStringLiteral("HTTP 400 from http://127.0.0.1:1/v1/completions: maximum context length");
        r.response.contextExceeded = true;
        tooLong.records.push_back(r);
        QCOMPARE(makeStepReport(tooLong, Profile {}, {}, {}, 4096).failures.at(0).hint,
            QStringLiteral("The prompt and max_tokens together exceed the model's context (max_model_len 4096, from "
                           "/v1/models): lower the input and output lengths."));
        QVERIFY(!makeStepReport(tooLong, Profile {}, {}, {}).failures.at(0).hint.contains(QStringLiteral("4096")));
    }

    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("KneepointTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_runpage"));
        QSettings().clear();
        sim::raiseFileLimit();
        QVERIFY(m_runs.isValid());
        QVERIFY2(m_sim.start(smallServer(kTimeScale)), qPrintable(m_sim.errorString()));
    }

    void cleanupTestCase() { m_sim.stop(); }

    // One engine type records a run: the window's run directory and the CLI's, from one profile, hold
    // the same files with the same keys (step purposes, start times, validity, analysis, sweep.csv).
    void windowAndCliRecordTheSameRun()
    {
        Profile profile = sweepProfile(m_sim.baseUrl().toString(), { 50, 100 }, 12);
        profile.load.plan.repeats = 1; // a "repeat" step after the coarse ones: purposes differ

        SweepController controller;
        controller.setRunsDirectory(m_runs.filePath(QStringLiteral("same-window")));
        QSignalSpy started(&controller, &SweepController::started);
        QSignalSpy finished(&controller, &SweepController::finished);
        QSignalSpy failed(&controller, &SweepController::failed);
        controller.start(profile);
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty() || !failed.isEmpty(), 120000);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
        const QString windowDir = started.constFirst().constFirst().value<RunInfo>().runDirectory;

        const QString profilePath = m_runs.filePath(QStringLiteral("same.json"));
        QVERIFY(ProfileStore::save(profile, profilePath).ok());
        const QString cliDir = m_runs.filePath(QStringLiteral("same-cli"));
        QProcess cli;
        cli.start(QStringLiteral(KNEEPOINT_CLI),
            { QStringLiteral("sweep"), QStringLiteral("--profile"), profilePath, QStringLiteral("--out"), cliDir,
                QStringLiteral("--quiet") });
        QVERIFY(cli.waitForFinished(120000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());

        const QStringList files = filesUnder(windowDir);
        QCOMPARE(files, filesUnder(cliDir));
        QVERIFY2(files.contains(QStringLiteral("steps/002.requests.jsonl")), qPrintable(files.join(u' ')));
        for (const QString& file : files) {
            if (file.endsWith(QLatin1String(".json")))
                QCOMPARE(keyPaths(QDir(windowDir).filePath(file)), keyPaths(QDir(cliDir).filePath(file)));
        }
        const QJsonArray windowSteps = readJson(windowDir + QStringLiteral("/run.json"))[u"steps"].toArray();
        const QJsonArray cliSteps = readJson(cliDir + QStringLiteral("/run.json"))[u"steps"].toArray();
        QCOMPARE(windowSteps.size(), 3);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(windowSteps[i][u"purpose"], cliSteps[i][u"purpose"]);
            QCOMPARE(windowSteps[i][u"load"], cliSteps[i][u"load"]);
            QVERIFY(windowSteps[i][u"start_unix_s"].toDouble() > 1.7e9);
        }
        QCOMPARE(windowSteps[2][u"purpose"].toString(), QStringLiteral("repeat"));
        QFile windowCsv(windowDir + QStringLiteral("/sweep.csv"));
        QFile cliCsv(cliDir + QStringLiteral("/sweep.csv"));
        QVERIFY(windowCsv.open(QIODevice::ReadOnly) && cliCsv.open(QIODevice::ReadOnly));
        const QList<QByteArray> windowRows = windowCsv.readAll().split('\n');
        const QList<QByteArray> cliRows = cliCsv.readAll().split('\n');
        QCOMPARE(windowRows.size(), cliRows.size());
        QCOMPARE(windowRows.constFirst(), cliRows.constFirst());

        // output.save_result in the window: the reference's result file per step, in the run's results/.
        profile.output.saveResult = true;
        profile.load.plan.repeats = 0; // one file per rate: the reference's names differ by rate and second
        controller.start(profile);
        QTRY_VERIFY_WITH_TIMEOUT(finished.size() == 2 || !failed.isEmpty(), 120000);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
        const QDir results(started.at(1).constFirst().value<RunInfo>().runDirectory + QStringLiteral("/results"));
        const QStringList resultFiles = results.entryList({ QStringLiteral("*.json") }, QDir::Files);
        QCOMPARE(resultFiles.size(), 2);
        for (const QString& name : resultFiles) {
            QVERIFY2(name.contains(QStringLiteral("qps")), qPrintable(name));
            QFile f(results.filePath(name));
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QJsonObject result = QJsonDocument::fromJson(f.readAll()).object();
            QCOMPARE(result[u"completed"].toInt() + result[u"failed"].toInt(), 12);
        }
    }

    // The step view's By length tab: one row per populated prompt-length bucket.
    void stepDetailsLengthBuckets()
    {
        std::vector<RequestRecord> records;
        for (const int tokens : { 40, 90, 200, 300, 700, 3000 }) {
            RequestRecord r;
            r.index = qint64(records.size());
            r.scheduledNs = r.sentNs = qint64(records.size()) * 100'000'000;
            for (int i = 0; i < 4; ++i)
                r.chunkNs.push_back(r.sentNs + (tokens / 10 + 20 * i) * 1'000'000LL);
            r.firstTokenNs = r.firstContentNs = r.chunkNs.front();
            r.lastTokenNs = r.endNs = r.chunkNs.back();
            r.promptTokens = tokens;
            r.outputTokens = 4;
            r.outputTokensFromUsage = true;
            r.httpStatus = 200;
            records.push_back(r);
        }
        MetricsOptions options;
        options.lengthBucketEdges = { 0, 256, 512, 1024, 2048 };
        StepReport step;
        step.load = QStringLiteral("10 req/s");
        step.durationS = 2;
        step.metrics = StepMetrics::fromRecords(records, 2.0, options);
        StepDetails details;
        details.resize(760, 300);
        details.setStep(&step, 99);
        QTableWidget* table = details.lengthTable();
        QCOMPARE(table->rowCount(), 4);
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("0-256"));
        QCOMPARE(table->item(0, 1)->text(), QStringLiteral("3")); // 40, 90 and 200 tokens
        QCOMPARE(table->item(0, 4)->text(), QStringLiteral("11.0")); // mean TTFT of 4, 9 and 20 ms
        QCOMPARE(table->item(3, 0)->text(), QStringLiteral("2048+"));
        QVERIFY(details.tabs()->isTabEnabled(details.tabs()->indexOf(table)));
        details.tabs()->setCurrentWidget(table);
        details.show();
        saveScreenshot(&details, QStringLiteral("step-details-by-length"));
        step.metrics = StepMetrics::fromRecords(records, 2.0, MetricsOptions {});
        details.setStep(&step, 99);
        QCOMPARE(table->rowCount(), 0);
        QVERIFY(!details.tabs()->isTabEnabled(details.tabs()->indexOf(table)));
    }

    void histogram_data()
    {
        QTest::addColumn<QList<double>>("values");
        QTest::addColumn<double>("from");
        QTest::addColumn<double>("bin");
        QTest::addColumn<qint64>("above");
        QTest::addRow("one value") << QList<double> { 5.0 } << 5.0 << 0.05 << qint64(0);
        QTest::addRow("0..100 ms") << QList<double> { 0, 10, 20, 50, 99, 100 } << 0.0 << 5.0 << qint64(1);
        QTest::addRow("an outlier past P99.5") << (QList<double>(199, 10.0) << 5000.0) << 10.0 << 1.0 << qint64(1);
    }

    void histogram()
    {
        QFETCH(QList<double>, values);
        QFETCH(double, from);
        QFETCH(double, bin);
        QFETCH(qint64, above);
        const Histogram h = Histogram::compute(std::vector<double>(values.begin(), values.end()));
        QCOMPARE(h.fromMs, from);
        QCOMPARE(h.binMs, bin);
        QCOMPARE(h.above, above);
        QCOMPARE(h.total(), qint64(values.size()));
        QVERIFY(h.counts.size() <= 41);
    }

    void curveHelpers()
    {
        // An auto plan's one-user floor first: a step of the other mode, off the rate axis.
        StepReport floor = syntheticStep(3, 1, 8, 50, 60);
        floor.config.mode = LoadMode::Concurrency;
        floor.config.concurrency = 1;
        floor.config.rate = std::numeric_limits<double>::infinity();
        floor.config.purpose = QStringLiteral("floor");
        const std::vector<StepReport> steps { floor, syntheticStep(0, 40, 39, 150, 300),
            syntheticStep(1, 10, 10, 100, 200),
            syntheticStep(2, std::numeric_limits<double>::infinity(), 50, 900, 2000) };
        const auto curve = SweepCurve::latency(steps, LoadMode::Rate, LatencyMetric::Ttft, 99);
        QCOMPARE(curve.size(), std::size_t(2)); // "all at once" has no place on the load axis, nor the floor
        QCOMPARE(curve[0].step, 1);
        const auto users = SweepCurve::latency(steps, LoadMode::Concurrency, LatencyMetric::Ttft, 99);
        QCOMPARE(users.size(), std::size_t(1));
        QCOMPARE(users[0].x, 1.0);

        // The steps table names the rate axis and gives the floor's load its unit.
        StepsTableModel model;
        model.setMode(LoadMode::Rate);
        for (const StepReport& s : steps)
            model.append(s);
        QCOMPARE(model.headerData(StepsTableModel::Load, Qt::Horizontal).toString(), QStringLiteral("Load\n(req/s)"));
        QCOMPARE(model.data(model.index(0, StepsTableModel::Load)).toString(), QStringLiteral("1 user"));
        QCOMPARE(model.data(model.index(1, StepsTableModel::Load)).toString(), QStringLiteral("40"));
        // An imported step's requests its tool left running are flagged: they are in none of its figures.
        StepReport unfinished = steps[1];
        QVERIFY(!StepsTableModel::flagWords(unfinished).join(u' ').contains(QStringLiteral("still running")));
        unfinished.metrics.incompleteRequests = 1200;
        QVERIFY2(StepsTableModel::flagWords(unfinished).contains(QStringLiteral("1,200 still running at the end")),
            qPrintable(StepsTableModel::flagWords(unfinished).join(u'|')));
        QCOMPARE(curve[1].y, 300.0);
        QCOMPARE(*SweepCurve::valueAt(curve, 25), 250.0);
        QCOMPARE(*SweepCurve::valueAt(curve, 100), 300.0);

        std::vector<Region> regions(2);
        regions[0] = { RegionKind::Linear, 10, 40, 0, 2, {} };
        regions[1] = { RegionKind::Overload, 60, 80, 3, 4, {} };
        const auto spans = SweepCurve::spans(regions, 0, 100);
        QCOMPARE(spans.size(), std::size_t(2));
        QCOMPARE(spans[0].from, 0.0);
        QCOMPARE(spans[0].to, 50.0);
        QCOMPARE(spans[1].from, 50.0);
        QCOMPARE(spans[1].to, 100.0);
        // Repeats: one point per load, the mean of its trials, at the first trial's step.
        const auto means = SweepCurve::meanByLoad(
            { { 10, 100, 0 }, { 20, 100, 1 }, { 20, 140, 4 }, { 20, 150, 5 }, { 40, 300, 2 } });
        QCOMPARE(means.size(), std::size_t(3));
        QCOMPARE(means[1].y, 130.0);
        QCOMPARE(means[1].step, 1);
        QCOMPARE(means[2].y, 300.0);
        QCOMPARE(SweepCurve::niceCeiling(43), 50.0);
        QCOMPARE(SweepCurve::niceCeiling(0.0), 1.0);
        QCOMPARE(SweepCurve::niceStep(108), 25.0);
        QCOMPARE(SweepCurve::niceStep(0.9), 0.2);
    }

    // The hit-rate chart: the server's and the client's figures as two series, in percent, in load
    // order, a step without a figure left off; the knee marked on the server's curve.
    void prefixCacheChart()
    {
        std::vector<StepReport> steps;
        const double serverRates[] = { 0.82, 0.80, -1, 0.31 }; // < 0: the step has no server figure
        const qint64 cached[] = { 7500, kUnknownCount, 6000, 2500 };
        for (int i = 0; i < 4; ++i) {
            StepReport s = syntheticStep(i, 10.0 * (i + 1), 10.0 * (i + 1), 100 + 50 * i, 200 + 100 * i);
            s.metrics.totalInputTokens = 10000;
            s.metrics.totalCachedTokens = cached[i];
            if (serverRates[i] >= 0) {
                ServerStepStats st;
                st.engine = QStringLiteral("vllm");
                st.samples = 3;
                st.prefixCacheHitRate = serverRates[i];
                s.server.stats = st;
            }
            steps.push_back(s);
        }
        SweepController controller;
        RunPage page(&controller);
        PrefixCacheChart* chart = page.prefixCacheChart();
        QCOMPARE(chart->placeholder(),
            QStringLiteral("The prefix-cache hit rate against the offered load, as steps finish."));
        // Steps land one by one, as in a live run: the chart has drawn each before the next.
        QList<int> drawn;
        connect(page.run(), &LiveRun::stepAdded, this,
            [&] { drawn << int(chart->serverPoints().size() + chart->clientPoints().size()); });
        RunAnalysis analysis;
        analysis.result.knee.found = true;
        analysis.result.knee.offered = 30;
        QVERIFY(page.run()->showSaved(RunInfo {}, steps, analysis, LiveRun::State::Finished, {}));
        QCOMPARE(drawn, (QList<int> { 2, 3, 4, 6 }));
        auto values = [](const std::vector<SweepCurve::Point>& points) {
            QList<QPointF> out;
            for (const SweepCurve::Point& p : points)
                out << QPointF(p.x, std::round(p.y * 1000) / 1000);
            return out;
        };
        QCOMPARE(values(chart->serverPoints()), (QList<QPointF> { { 10, 82 }, { 20, 80 }, { 40, 31 } }));
        QCOMPARE(values(chart->clientPoints()), (QList<QPointF> { { 10, 75 }, { 30, 60 }, { 40, 25 } }));
        QCOMPARE(chart->serverPoints()[2].step, 3);
        QCOMPARE(chart->placeholder(), QString());
        page.resize(1280, 800);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        saveScreenshot(&page, QStringLiteral("prefix-cache-run"));

        // No figure on either side: the chart says so, and draws nothing at 0.
        for (StepReport& s : steps) {
            s.server.stats.reset();
            s.metrics.totalCachedTokens = kUnknownCount;
        }
        QVERIFY(page.run()->showSaved(RunInfo {}, steps, RunAnalysis {}, LiveRun::State::Finished, {}));
        QVERIFY(!chart->hasData());
        QCOMPARE(
            chart->placeholder(), QStringLiteral("No prefix-cache figures: the server reported no cached tokens."));
        saveScreenshot(&page, QStringLiteral("prefix-cache-run-empty"));
    }

    // The GPU chart: mean utilisation (%) and the fullest GPU's memory (GiB) against load, a step without
    // GPU figures left off, the knee on the utilisation curve; it takes the prefix cache's slot when only
    // it has figures. The Server tab lists each metrics URL's figures apart, and the step's GPUs and J/token.
    void gpuChartAndServers()
    {
        std::vector<StepReport> steps;
        const double util[] = { 35, 70, -1, 98 }; // < 0: no GPU figures in that step
        for (int i = 0; i < 4; ++i) {
            StepReport s = syntheticStep(i, 10.0 * (i + 1), 10.0 * (i + 1), 100 + 50 * i, 200 + 100 * i);
            ServerStepStats replicaA;
            replicaA.engine = QStringLiteral("vllm");
            replicaA.url = QStringLiteral("http://10.0.0.1:8000/metrics");
            replicaA.samples = 3;
            replicaA.runningMean = 4.0 * (i + 1);
            replicaA.waitingMean = i == 3 ? 17.5 : 0.0; // the first replica saturates at the top step
            replicaA.kvUsageMax = i == 3 ? 1.0 : 0.25;
            ServerStepStats replicaB = replicaA;
            replicaB.url = QStringLiteral("http://10.0.0.2:8000/metrics");
            replicaB.waitingMean = 0.0;
            replicaB.kvUsageMax = 0.25;
            ServerStepStats all;
            all.engine = QStringLiteral("vllm");
            all.samples = 3;
            all.runningMean = 8.0 * (i + 1);
            all.waitingMean = *replicaA.waitingMean;
            all.kvUsageMax = *replicaA.kvUsageMax;
            all.servers = { replicaA, replicaB };
            if (util[i] >= 0) {
                ServerStepStats gpus;
                gpus.url = QStringLiteral("http://10.0.0.9:9400/metrics");
                gpus.samples = 3;
                gpus.gpuCount = 2;
                gpus.gpuUtilisationMean = util[i];
                gpus.gpuUtilisationMax = util[i] + 1;
                gpus.gpuFbUsedMaxMiB = 20480.0 + 1024.0 * i;
                gpus.gpuPowerMeanW = 400.0 + 100 * i;
                gpus.energyJ = 4000.0 + 1000 * i;
                gpus.energySource = QStringLiteral("counter");
                for (ServerStepStats* t : { &gpus, &all }) {
                    t->gpuCount = gpus.gpuCount;
                    t->gpuUtilisationMean = gpus.gpuUtilisationMean;
                    t->gpuUtilisationMax = gpus.gpuUtilisationMax;
                    t->gpuFbUsedMaxMiB = gpus.gpuFbUsedMaxMiB;
                    t->gpuPowerMeanW = gpus.gpuPowerMeanW;
                    t->energyJ = gpus.energyJ;
                    t->energySource = gpus.energySource;
                }
                all.servers.push_back(gpus);
                s.metrics.joulesPerOutputToken = *gpus.energyJ / 8000.0;
            }
            all.prefixCacheHitRate = 0.0; // a vLLM server's rate of prompts that share nothing
            s.server.stats = all;
            steps.push_back(s);
        }
        SweepController controller;
        RunPage page(&controller);
        GpuChart* chart = page.gpuChart();
        QCOMPARE(chart->placeholder(),
            QStringLiteral("GPU utilisation and memory against the offered load, as steps finish."));
        QCOMPARE(page.cacheOrGpuTabs()->currentWidget(), page.prefixCacheChart());
        RunAnalysis analysis;
        analysis.result.knee.found = true;
        analysis.result.knee.offered = 30; // between the second and the fourth step's utilisation
        QVERIFY(page.run()->showSaved(RunInfo {}, steps, analysis, LiveRun::State::Finished, {}));
        auto values = [](const std::vector<SweepCurve::Point>& points) {
            QList<QPointF> out;
            for (const SweepCurve::Point& p : points)
                out << QPointF(p.x, p.y);
            return out;
        };
        QCOMPARE(values(chart->utilisationPoints()), (QList<QPointF> { { 10, 35 }, { 20, 70 }, { 40, 98 } }));
        QCOMPARE(values(chart->memoryPoints()), (QList<QPointF> { { 10, 20 }, { 20, 21 }, { 40, 23 } }));
        QCOMPARE(chart->utilisationPoints()[2].step, 3);
        QCOMPARE(chart->placeholder(), QString());
        // The GPUs have figures: their chart comes forward in the shared slot, over a 0% prefix-cache rate.
        QVERIFY(page.prefixCacheChart()->hasData());
        QCOMPARE(page.cacheOrGpuTabs()->currentWidget(), chart);

        // The Server tab: a row for all URLs, then one per URL, for every step.
        auto* server = qobject_cast<ServerPanel*>(page.tabs()->widget(5));
        QVERIFY(server);
        QTableWidget* table = server->stepsTable();
        QCOMPARE(table->rowCount(), 4 + 4 + 3 + 4);
        auto cell = [table](int r, int c) { return table->item(r, c)->text(); };
        QCOMPARE(cell(0, ServerPanel::UrlColumn), QStringLiteral("all 3"));
        QCOMPARE(cell(0, ServerPanel::GpuCountColumn), QStringLiteral("2"));
        QCOMPARE(cell(0, ServerPanel::GpuUtilColumn), QStringLiteral("35% / 36%"));
        QCOMPARE(cell(0, ServerPanel::GpuMemoryColumn), QStringLiteral("20.0"));
        QCOMPARE(cell(0, ServerPanel::PowerColumn), QStringLiteral("400"));
        QCOMPARE(cell(0, ServerPanel::EnergyColumn), QStringLiteral("4,000 (counter)"));
        QCOMPARE(cell(0, ServerPanel::JoulesPerTokenColumn), QStringLiteral("0.500"));
        QCOMPARE(cell(1, ServerPanel::UrlColumn), QStringLiteral("http://10.0.0.1:8000/metrics"));
        QCOMPARE(cell(1, ServerPanel::GpuCountColumn), QStringLiteral("—"));
        QCOMPARE(cell(1, ServerPanel::JoulesPerTokenColumn), QStringLiteral("—"));
        QCOMPARE(cell(3, ServerPanel::UrlColumn), QStringLiteral("http://10.0.0.9:9400/metrics"));
        // The third step has no GPU figures: its J/token is unknown, not 0.
        QCOMPARE(cell(8, ServerPanel::StepColumn), QStringLiteral("3"));
        QCOMPARE(cell(8, ServerPanel::UrlColumn), QStringLiteral("all 2"));
        QCOMPARE(cell(8, ServerPanel::EnergyColumn), QStringLiteral("—"));
        QCOMPARE(cell(8, ServerPanel::JoulesPerTokenColumn), QStringLiteral("—"));
        // The top step: the first replica's queue and KV cache are full, the second's are not.
        QCOMPARE(cell(12, ServerPanel::UrlColumn), QStringLiteral("http://10.0.0.1:8000/metrics"));
        QCOMPARE(cell(12, ServerPanel::WaitingColumn), QStringLiteral("17.5"));
        QCOMPARE(cell(12, ServerPanel::KvColumn), QStringLiteral("100%"));
        QCOMPARE(cell(13, ServerPanel::WaitingColumn), QStringLiteral("0.0"));
        QCOMPARE(cell(13, ServerPanel::KvColumn), QStringLiteral("25%"));
        QVERIFY(!table->isHidden());
        // The steps table: J per output token, "—" where the step had no GPU figures.
        const StepsTableModel* model = page.stepsModel();
        auto joules
            = [model](int row) { return model->data(model->index(row, StepsTableModel::JoulesPerToken)).toString(); };
        QCOMPARE(joules(0), QStringLiteral("0.500"));
        QCOMPARE(joules(1), QStringLiteral("0.625"));
        QCOMPARE(joules(2), QStringLiteral("—"));
        QCOMPARE(joules(3), QStringLiteral("0.875"));
        QVERIFY(!model->data(model->index(2, StepsTableModel::JoulesPerToken), StepsTableModel::SortRole).isValid());

        page.resize(1280, 800);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        saveScreenshot(&page, QStringLiteral("gpu-run"));
        page.tabs()->setCurrentIndex(5);
        saveScreenshot(&page, QStringLiteral("gpu-run-servers"));

        // No GPU figures and one URL: the chart says how to get them; the per-URL table stays hidden.
        for (StepReport& s : steps) {
            ServerStepStats plain;
            plain.engine = QStringLiteral("vllm");
            plain.samples = 3;
            plain.runningMean = 4.0;
            s.server.stats = plain;
            s.metrics.joulesPerOutputToken.reset();
        }
        QVERIFY(page.run()->showSaved(RunInfo {}, steps, RunAnalysis {}, LiveRun::State::Finished, {}));
        QVERIFY(!chart->hasData());
        QCOMPARE(chart->placeholder(),
            QStringLiteral("No GPU figures: add a DCGM or AMD exporter URL to target.metrics_urls, or run the "
                           "simulator with --gpus N."));
        QVERIFY(table->isHidden());
        QCOMPARE(page.cacheOrGpuTabs()->currentWidget(), page.prefixCacheChart());
        page.tabs()->setCurrentIndex(0);
        page.cacheOrGpuTabs()->setCurrentWidget(chart);
        saveScreenshot(&page, QStringLiteral("gpu-run-empty"));
    }

    // The Pareto tab: every usable step a point (1000 / median TPOT per user, output tok/s per GPU from the
    // profile's accelerator count), the steps no other beats on both joined into the front; a step without
    // TPOT left off, and a run with no usable step says why.
    void paretoChart()
    {
        std::vector<StepReport> steps;
        const double tpot[] = { 10, 12.5, 20, 25, 0 };
        const double rps[] = { 1, 3, 10, 9, 9.5 };
        for (int i = 0; i < 5; ++i) {
            StepReport s = syntheticStep(i, 2.0 * (i + 1), rps[i], 100, 200);
            s.metrics.tpot.median = tpot[i];
            if (tpot[i] == 0)
                s.metrics.tpot = {};
            steps.push_back(s);
        }
        SweepController controller;
        RunPage page(&controller);
        ParetoChart* chart = page.paretoChart();
        QCOMPARE(chart->placeholder(),
            QStringLiteral("Output tokens per second per user against per GPU, one point per step, as steps finish."));
        RunInfo info;
        info.profile.server.acceleratorCount = 2;
        QVERIFY(page.run()->showSaved(info, steps, RunAnalysis {}, LiveRun::State::Finished, {}));
        QCOMPARE(chart->fronts().size(), std::size_t(1));
        const ParetoFront& front = chart->fronts()[0].front;
        QCOMPARE(front.unit, ParetoUnit::Gpu);
        QCOMPARE(front.units, 2);
        QCOMPARE(front.leftOff, 1);
        QList<QPointF> optimal;
        for (const ParetoPoint& p : front.optimal())
            optimal << QPointF(p.perUser, p.perUnit);
        // Output throughput is 120 tok/s per req/s: 1200 tok/s over 2 GPUs at 50 tok/s per user, and so on;
        // the 9 req/s step (40 tok/s per user, 540 per GPU) is beaten by the 10 req/s one.
        QCOMPARE(optimal, (QList<QPointF> { { 50, 600 }, { 80, 180 }, { 100, 60 } }));
        QCOMPARE(chart->verticalTitle(), QStringLiteral("tok/s per GPU"));
        QCOMPARE(chart->placeholder(), QString());
        page.tabs()->setCurrentWidget(chart);
        page.resize(1280, 800);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        saveScreenshot(&page, QStringLiteral("pareto-run"));

        // No GPU count: per server. No step with TPOT: the chart says why, and draws nothing.
        QVERIFY(page.run()->showSaved(RunInfo {}, steps, RunAnalysis {}, LiveRun::State::Finished, {}));
        QCOMPARE(chart->verticalTitle(), QStringLiteral("tok/s per server"));
        QCOMPARE(chart->fronts()[0].front.optimal().front().perUnit, 1200.0);
        for (StepReport& s : steps)
            s.metrics.tpot = {};
        QVERIFY(page.run()->showSaved(RunInfo {}, steps, RunAnalysis {}, LiveRun::State::Finished, {}));
        QVERIFY(!chart->hasData());
        QVERIFY2(
            chart->placeholder().startsWith(QStringLiteral("No step to place: a step needs answers of two tokens")),
            qPrintable(chart->placeholder()));
    }

    void stepsModel()
    {
        StepsTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.append(syntheticStep(0, 40, 39.456, 142.3, 1234.56));
        model.append(syntheticStep(1, 10, 9.87, 10.5, 21.3, 3));
        model.append(syntheticStep(2, 7.5, 7.4, 8.25, 9.5));
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), int(StepsTableModel::ColumnCount));

        // Units in the headers, sensible precision in the cells.
        QCOMPARE(model.headerData(StepsTableModel::Load, Qt::Horizontal).toString(), QStringLiteral("Load\n(req/s)"));
        QCOMPARE(
            model.headerData(StepsTableModel::TtftUpper, Qt::Horizontal).toString(), QStringLiteral("TTFT P99\n(ms)"));
        QCOMPARE(model.index(0, StepsTableModel::TtftUpper).data().toString(), QLocale().toString(1235.0, 'f', 0));
        QCOMPARE(model.index(0, StepsTableModel::TtftMean).data().toString(), QLocale().toString(142.0, 'f', 0));
        QCOMPARE(model.index(1, StepsTableModel::TtftMean).data().toString(), QLocale().toString(10.5, 'f', 1));
        QCOMPARE(model.index(2, StepsTableModel::TtftMean).data().toString(), QLocale().toString(8.25, 'f', 2));
        QCOMPARE(model.index(2, StepsTableModel::Load).data().toString(), QLocale().toString(7.5, 'f', 1));
        QVERIFY(model.index(1, StepsTableModel::Errors).data().toString().startsWith(QStringLiteral("3 (")));

        // Sorting is numeric, through the proxy the run page uses.
        StepsSortProxy proxy;
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.setSortRole(StepsTableModel::SortRole);
        proxy.sort(StepsTableModel::Load, Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, 0).data(StepsTableModel::StepIndexRole).toInt(), 2);
        QCOMPARE(proxy.index(1, 0).data(StepsTableModel::StepIndexRole).toInt(), 1);
        QCOMPARE(proxy.index(2, 0).data(StepsTableModel::StepIndexRole).toInt(), 0);
        proxy.sort(StepsTableModel::TtftUpper, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, 0).data(StepsTableModel::StepIndexRole).toInt(), 0);

        model.setPercentile(99.9);
        QCOMPARE(model.headerData(StepsTableModel::TtftUpper, Qt::Horizontal).toString(),
            QStringLiteral("TTFT P99.9\n(ms)"));
        QCOMPARE(model.index(0, StepsTableModel::TtftUpper).data().toString(), QStringLiteral("—"));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
        model.setSteps({ syntheticStep(0, 5, 5, 10, 20) });
        QCOMPARE(model.rowCount(), 1);
    }

    void errorsModel()
    {
        ErrorsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        std::vector<FailureGroup> groups;
        mergeFailures(groups, syntheticStep(0, 10, 10, 10, 20, 3));
        mergeFailures(groups, syntheticStep(3, 80, 60, 10, 20, 4));
        QCOMPARE(groups.size(), std::size_t(1));
        QCOMPARE(groups.front().count, qint64(7));
        QCOMPARE(groups.front().steps, (std::vector<int> { 0, 3 }));
        model.setGroups(groups);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, ErrorsModel::Class).data().toString(), QStringLiteral("HTTP 429 (rate limited)"));
        QCOMPARE(model.index(0, ErrorsModel::Count).data().toLongLong(), 7);
        QCOMPARE(model.index(0, ErrorsModel::Steps).data().toString(), QStringLiteral("1, 4"));
        QVERIFY(!model.index(0, ErrorsModel::Hint).data().toString().isEmpty());
        QCOMPARE(model.total(), qint64(7));
        model.setGroups({});
        QCOMPARE(model.rowCount(), 0);
    }

    // A reasoning model's sweep: the load–latency chart's metric box offers TTFC beside TTFT; choosing it
    // draws each step's time to first content token (after the thinking) and the SLO's TTFC limit.
    void latencyChartChoosesTtfc()
    {
        SweepController controller;
        controller.setRunsDirectory(m_runs.filePath(QStringLiteral("reasoning")));
        RunPage page(&controller);
        page.resize(1280, 800);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        Profile profile
            = sweepProfile(QStringLiteral("sim://default?time_scale=10&reasoning_tokens=6"), { 20, 40 }, 12);
        profile.slo.ttfcMs = 400;
        QSignalSpy finished(&controller, &SweepController::finished);
        QSignalSpy failed(&controller, &SweepController::failed);
        controller.start(profile);
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty() || !failed.isEmpty(), 120000);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
        const std::vector<StepReport>& steps = page.run()->steps();
        QCOMPARE(steps.size(), std::size_t(2));
        for (const StepReport& s : steps)
            QCOMPARE(s.metrics.totalReasoningTokens, s.metrics.completed * 6);

        LoadLatencyChart* chart = page.latencyChart();
        chart->setLogScale(true); // every SLO line in view
        QComboBox* box = nullptr;
        for (QComboBox* b : chart->findChildren<QComboBox*>()) {
            if (b->findText(QStringLiteral("TTFC")) >= 0)
                box = b;
        }
        QVERIFY(box);
        const auto drawn = [chart](const QString& name) {
            for (QAbstractSeries* s : chart->chart()->series()) {
                if (s->name() == name && s->isVisible())
                    return static_cast<QLineSeries*>(s)->points();
            }
            return QList<QPointF> {};
        };
        QCOMPARE(drawn(QStringLiteral("P99 TTFT")).size(), 2);
        QCOMPARE(*chart->sloLine(), 100.0);

        QSignalSpy chosen(chart, &LoadLatencyChart::showsTtfcChanged);
        box->setCurrentIndex(box->findText(QStringLiteral("TTFC")));
        QCOMPARE(chosen.size(), 1);
        QVERIFY(chart->showsTtfc());
        const QList<QPointF> ttfc = drawn(QStringLiteral("P99 TTFC"));
        QCOMPARE(ttfc.size(), 2);
        QCOMPARE(chart->pointCount(), 2);
        for (qsizetype i = 0; i < ttfc.size(); ++i) {
            const StepMetrics& m = steps[std::size_t(i)].metrics;
            QCOMPARE(ttfc[i].x(), steps[std::size_t(i)].offered());
            QCOMPARE(ttfc[i].y(), *m.firstContentTtft.percentile(99));
            // Every request's first answer token comes after its first token (in the same read at the latest,
            // when a loaded server catches up): TTFC's curve is at or above TTFT's, and on average above it.
            QVERIFY2(ttfc[i].y() >= *m.ttft.percentile(99) && m.firstContentTtft.mean > m.ttft.mean,
                qPrintable(QStringLiteral("step %1: P99 TTFC %2 ms, P99 TTFT %3 ms, mean %4 / %5 ms")
                               .arg(i + 1)
                               .arg(ttfc[i].y())
                               .arg(*m.ttft.percentile(99))
                               .arg(m.firstContentTtft.mean)
                               .arg(m.ttft.mean)));
        }
        QCOMPARE(*chart->sloLine(), 400.0);
        saveScreenshot(chart, QStringLiteral("load-latency-ttfc"));

        box->setCurrentIndex(box->findText(QStringLiteral("TTFT")));
        QCOMPARE(chosen.size(), 2);
        QVERIFY(!chart->showsTtfc());
        QCOMPARE(chart->metric(), LatencyMetric::Ttft);
        QCOMPARE(drawn(QStringLiteral("P99 TTFT")).size(), 2);
        QCOMPARE(*chart->sloLine(), 100.0);
    }

    // The whole path: preflight, steps, one chart point per finished step, the knee marker placed by
    // the analysis, the run directory, and a GUI thread that never waits.
    void sweepAddsPointsAndKnee()
    {
        SweepController controller;
        controller.setRunsDirectory(m_runs.filePath(QStringLiteral("sweep")));
        RunPage page(&controller);
        page.resize(1280, 800);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        LiveRun* run = page.run();

        // Recorded right after the page has handled each step (its connection was made first).
        QList<QPair<int, int>> pointsPerStep;
        connect(run, &LiveRun::stepAdded, this, [&](int row) {
            int finite = 0;
            for (const StepReport& s : run->steps())
                finite += std::isfinite(s.offered()) ? 1 : 0;
            pointsPerStep << qMakePair(row + 1, page.latencyChart()->pointCount());
            QCOMPARE(page.throughputChart()->pointCount(), finite);
        });
        QSignalSpy finished(&controller, &SweepController::finished);
        QSignalSpy failed(&controller, &SweepController::failed);
        Responsiveness responsiveness;

        // Half a second of arrivals a step: from 13 requests at the lightest load (its latency is the
        // server's unloaded one, whatever the count) to 250 at the heaviest, where the queue that marks the
        // knee grows with every request past the server's capacity (more than the 120 a step it once had).
        const QList<double> rates = kneeRates(kTimeScale);
        Profile profile = sweepProfile(m_sim.baseUrl().toString(), rates, 120);
        profile.load.stepDurationS = 0.5;
        controller.start(profile);
        QCOMPARE(run->state(), LiveRun::State::Preparing);
        QTRY_VERIFY_WITH_TIMEOUT(run->currentStep().has_value() || !failed.isEmpty(), 30000);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
        QTRY_VERIFY_WITH_TIMEOUT(page.liveChart()->sampleCount() > 0, 30000);
        QVERIFY(page.progressText().contains(QStringLiteral("Step 1 of 8")));

        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 180000);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
        QCOMPARE(finished.constFirst().constFirst().toBool(), false);
        QCOMPARE(run->state(), LiveRun::State::Finished);
        QCOMPARE(run->steps().size(), std::size_t(rates.size()));
        QCOMPARE(pointsPerStep.size(), rates.size());
        for (const auto& [steps, points] : std::as_const(pointsPerStep))
            QCOMPARE(points, steps);
        QCOMPARE(page.latencyChart()->pointCount(), int(rates.size()));
        QCOMPARE(page.stepsModel()->rowCount(), int(rates.size()));

        // The analysis found the knee, and the chart marks it on the curve at that load.
        const AnalysisResult& analysis = run->analysis().result;
        QStringList curve;
        for (const StepReport& step : run->steps())
            curve << QStringLiteral("%1: %2 ms").arg(step.load).arg(step.metrics.ttft.percentile(99).value_or(0));
        // On a machine so loaded that the client fell behind its schedule, steps are flagged
        // client-bound and left out of the analysis, which must then say so instead of finding a knee.
        const auto clientBound = std::count_if(
            run->steps().begin(), run->steps().end(), [](const StepReport& s) { return s.clientBound; });
        if (clientBound > 0 && !analysis.knee.found) {
            QVERIFY2(analysis.knee.reason.text().contains(QStringLiteral("client-bound")),
                qPrintable(analysis.knee.reason.text()));
            QVERIFY(!page.latencyChart()->kneeMarker().has_value());
            qInfo("%d of %d steps client-bound on this machine: the knee was not checked (%s)", int(clientBound),
                int(rates.size()), qPrintable(analysis.knee.reason.text()));
        } else {
            QVERIFY2(analysis.knee.found,
                qPrintable(analysis.knee.reason.text() + QStringLiteral(" (P99 TTFT ")
                    + curve.join(QStringLiteral(", ")) + u')'));
            QTRY_VERIFY(page.latencyChart()->kneeMarker().has_value());
            QCOMPARE(page.latencyChart()->kneeMarker()->x(), analysis.knee.offered);
            QVERIFY(page.latencyChart()->regionCount() > 0);
        }
        QCOMPARE(*page.latencyChart()->sloLine(), 100.0);
        QVERIFY(page.analysisList()->count() > 0);

        // A sentence about the knee highlights it; the last step is selected and shown in full.
        for (int i = 0; i < page.analysisList()->count(); ++i) {
            if (page.analysisList()->item(i)->data(Qt::UserRole).toInt() == int(AnalysisTopic::Knee))
                page.analysisList()->setCurrentRow(i);
        }
        QCOMPARE(page.details()->stepIndex(), int(rates.size()) - 1);
        QVERIFY(page.details()->summaryText().contains(QStringLiteral("Serving Benchmark Result")));

        const QString dir = run->info().runDirectory;
        QVERIFY(dir.startsWith(m_runs.filePath(QStringLiteral("sweep"))));
        QCOMPARE(readJson(dir + QStringLiteral("/run.json")).value(u"status").toString(), QStringLiteral("finished"));
        for (int i = 0; i < rates.size(); ++i)
            QVERIFY(QFile::exists(dir + QStringLiteral("/steps/%1.json").arg(i, 3, 10, QLatin1Char('0'))));
        QVERIFY(QFile::exists(dir + QStringLiteral("/analysis.json")));
        QVERIFY(QFile::exists(dir + QStringLiteral("/sweep.csv")));
        // Fresh prompts are made as each request is sent: no /tokenize count before the run can be theirs,
        // so input tokens are the server's usage.prompt_tokens, as the CLI takes them.
        QCOMPARE(readJson(dir + QStringLiteral("/steps/000.json"))
                     .value(u"kneepoint")
                     .toObject()
                     .value(u"input_token_source")
                     .toString(),
            QStringLiteral("server_usage"));

        // Reported, not asserted: timing goals live in bench/bench_gui.
        qInfo("longest GUI-thread stall during the sweep: %lld ms", responsiveness.maxGapMs());
    }

    // The built-in simulator (sim://), pause between steps, a repeat added while running, and Stop:
    // what finished stays on screen and on disk.
    void pauseRepeatAndStop()
    {
        SweepController controller;
        controller.setRunsDirectory(m_runs.filePath(QStringLiteral("stop")));
        RunPage page(&controller);
        page.resize(1280, 800);
        page.show();
        LiveRun* run = page.run();
        QSignalSpy finished(&controller, &SweepController::finished);
        QSignalSpy failed(&controller, &SweepController::failed);

        // Steps of 40 requests at 60 req/s and up, at time scale 60: the first lasts about 0.7 s, and the
        // last four together about 0.5 s, time enough for Stop to land before the sweep ends.
        controller.start(
            sweepProfile(QStringLiteral("sim://default?time_scale=60"), { 60, 120, 180, 240, 300, 360, 420 }, 40));
        QTRY_VERIFY_WITH_TIMEOUT(run->hasInfo() || !failed.isEmpty(), 30000);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
        QVERIFY(run->info().target.startsWith(QStringLiteral("built-in simulator")));

        run->requestPause();
        QCOMPARE(run->state(), LiveRun::State::Pausing);
        QTRY_COMPARE_WITH_TIMEOUT(run->state(), LiveRun::State::Paused, 60000);
        QCOMPARE(run->steps().size(), std::size_t(1));
        QVERIFY(page.progressText().contains(QStringLiteral("Paused after step 1")));
        QVERIFY(run->repeatStep(0));
        run->requestResume();
        // The runner may have chosen the step after the pause already; the repeat comes next after it.
        auto repeated = [run] {
            for (std::size_t i = 1; i < run->steps().size() && i <= 2; ++i) {
                if (run->steps()[i].config.purpose == QLatin1String("repeat"))
                    return int(i);
            }
            return -1;
        };
        QTRY_VERIFY_WITH_TIMEOUT(repeated() > 0 || run->steps().size() > 2, 60000);
        QVERIFY(repeated() > 0);
        QCOMPARE(run->steps()[std::size_t(repeated())].offered(), 60.0);

        QTRY_VERIFY_WITH_TIMEOUT(run->steps().size() >= 3, 60000);
        run->requestStop();
        QCOMPARE(run->state(), LiveRun::State::Stopping);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        QCOMPARE(finished.constFirst().constFirst().toBool(), true);
        QCOMPARE(run->state(), LiveRun::State::Stopped);
        const int kept = int(run->steps().size());
        QVERIFY(kept >= 3 && kept < 8);
        // A step stopped before any request ended has no latency to plot; it is still listed.
        int withLatency = 0;
        for (const StepReport& step : run->steps())
            withLatency += step.metrics.ttft.count > 0 ? 1 : 0;
        QCOMPARE(page.latencyChart()->pointCount(), withLatency);
        QCOMPARE(page.stepsModel()->rowCount(), kept);

        const QString dir = run->info().runDirectory;
        const QJsonObject doc = readJson(dir + QStringLiteral("/run.json"));
        QCOMPARE(doc.value(u"status").toString(), QStringLiteral("stopped"));
        for (int i = 0; i < kept; ++i) {
            QVERIFY(QFile::exists(dir + QStringLiteral("/steps/%1.json").arg(i, 3, 10, QLatin1Char('0'))));
            // Request records are appended as requests end; a step stopped before any ended has none.
            const StepMetrics& m = run->steps()[std::size_t(i)].metrics;
            if (m.completed + m.failed > 0)
                QVERIFY(
                    QFile::exists(dir + QStringLiteral("/steps/%1.requests.jsonl").arg(i, 3, 10, QLatin1Char('0'))));
        }
        QVERIFY(page.progressText().contains(QStringLiteral("Stopped")));
    }

    // A profile with a server_sweep section, run from the window: per combination the server starts and the
    // run page names it, each combination's sweep shows as a run, a server that cannot start fails its
    // combination alone, and at the end the group's comparison opens on its runs with the best
    // configuration's sentence and the twin fitted on the first drawn dashed beside the others.
    void serverSweepFromTheWindow()
    {
        MainWindow window;
        window.controller()->setRunsDirectory(m_runs.filePath(QStringLiteral("serve")));
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        LiveRun* run = window.runPage()->run();
        QSignalSpy changed(window.controller(), &SweepController::serverSweepChanged);
        QSignalSpy groupEnded(window.controller(), &SweepController::serverSweepFinished);
        QSignalSpy finished(window.controller(), &SweepController::finished);
        QSignalSpy failed(window.controller(), &SweepController::failed);
        QSignalSpy opened(&window, &MainWindow::comparisonOpened);
        window.controller()->start(serverSweepProfile(QStringLiteral("1,x,4,16")));

        // The third combination's sweep, live: the line above the progress names it and its server.
        QTRY_VERIFY_WITH_TIMEOUT((window.runPage()->serverSweepText().contains(
                                      QStringLiteral("Server sweep 3 of 4: max_num_seqs=4</b> · server ready"))
                                     && run->steps().size() >= 1 && run->currentStep())
                || !finished.isEmpty() || !failed.isEmpty(),
            180000);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
        QVERIFY(finished.isEmpty());
        QVERIFY(window.isShowingRun());
        QVERIFY(run->isActive());
        QCOMPARE(run->info().profile.serverSweep.applied.value(0).second, QStringLiteral("4"));
        QVERIFY(run->info().runDirectory.endsWith(QStringLiteral("/03-max_num_seqs-4")));
        QVERIFY(!window.runAction()->isEnabled());
        QVERIFY(window.stopAction()->isEnabled());
        saveScreenshot(&window, QStringLiteral("server-sweep-run"));

        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 240000);
        QVERIFY(!finished.at(0).at(0).toBool());
        QVERIFY(failed.isEmpty());
        // max_num_seqs=x: the simulator refused it; its combination failed with the server's words, the
        // others went on.
        bool xFailed = false;
        for (const QList<QVariant>& args : changed) {
            const auto s = args.at(0).value<ServerSweepStatus>();
            if (s.phase == ServerSweepStatus::Phase::Failed) {
                QCOMPARE(s.label, QStringLiteral("max_num_seqs=x"));
                QVERIFY2(s.detail.contains(QStringLiteral("the server command exited with status 2 before the server "
                                                          "answered")),
                    qPrintable(s.detail));
                xFailed = true;
            }
        }
        QVERIFY(xFailed);
        QCOMPARE(groupEnded.size(), 1);
        const auto result = groupEnded.at(0).at(0).value<ServerSweepResult>();
        QVERIFY(!result.interrupted);
        QCOMPARE(result.runDirs.size(), 3);
        QVERIFY(result.runDirs.at(0).endsWith(QStringLiteral("/01-max_num_seqs-1")));
        QVERIFY(result.runDirs.at(2).endsWith(QStringLiteral("/04-max_num_seqs-16")));
        const QJsonObject matrix = readJson(result.groupDir + QStringLiteral("/matrix.json"));
        QCOMPARE(matrix.value(u"kind").toString(), QStringLiteral("server_sweep"));
        QCOMPARE(matrix.value(u"status").toString(), QStringLiteral("finished"));
        QCOMPARE(matrix.value(u"runs").toArray().at(1).toObject().value(u"state").toString(), QStringLiteral("failed"));
        for (const QString& dir : result.runDirs) {
            QCOMPARE(
                readJson(dir + QStringLiteral("/run.json")).value(u"status").toString(), QStringLiteral("finished"));
            QVERIFY(!answersAt(dir)); // every server was stopped
        }
        // The last combination's run stays on the run page, as a sweep's does.
        QCOMPARE(run->state(), LiveRun::State::Finished);
        QCOMPARE(run->info().runDirectory, result.runDirs.at(2));
        QCOMPARE(run->steps().size(), std::size_t(3));

        // The comparison opens on the three runs, named after their configurations.
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 120000);
        QVERIFY(opened.at(0).at(1).toBool());
        CompareView* view = window.compareView();
        QCOMPARE(qobject_cast<QStackedWidget*>(window.centralWidget())->currentWidget(), view);
        QCOMPARE(view->runs().size(), std::size_t(3));
        for (int i = 0; i < 3; ++i)
            QCOMPARE(view->runs().at(std::size_t(i)).dir, result.runDirs.at(i));
        QCOMPARE(view->runs().at(1).name, QStringLiteral("max_num_seqs=4"));
        QVERIFY(view->serverComparison().has_value());
        const ServerComparison& group = *view->serverComparison();
        // On a machine so loaded that a worker's event loop fell behind, a step is flagged client-bound
        // and the analysis leaves it out: which configuration wins is then the client's doing, and the
        // comparison must still name the one with the most load within the SLO.
        QStringList clientBound;
        for (const QString& dir : result.runDirs) {
            const QJsonArray steps = readJson(dir + QStringLiteral("/run.json")).value(u"steps").toArray();
            for (qsizetype i = 0; i < steps.size(); ++i) {
                if (steps.at(i).toObject().value(u"client_bound").toBool())
                    clientBound << QStringLiteral("%1 step %2").arg(QFileInfo(dir).fileName()).arg(i + 1);
            }
        }
        QCOMPARE(view->configurationsTable()->rowCount(), 3);
        QVERIFY(group.best >= 0 && group.best < 3);
        QVERIFY(view->configurationsTable()->item(group.best, 1)->text().contains(QStringLiteral("best")));
        if (!clientBound.isEmpty()) {
            qWarning("client-bound steps left out of the analysis: %s", qPrintable(clientBound.join(u", ")));
            const std::optional<double> best = group.runs.at(std::size_t(group.best)).sloCapacity;
            QVERIFY(best.has_value());
            for (const ServerRunFigures& r : group.runs)
                QVERIFY(!r.sloCapacity || *r.sloCapacity <= *best);
        } else {
            QCOMPARE(group.best, 2);
            const double capacity4 = *group.runs.at(1).sloCapacity;
            QVERIFY(capacity4 >= 4 && capacity4 < 8);
            const QString sentence
                = QStringLiteral("Best configuration for the SLO: max_num_seqs=16, with the most load "
                                 "within the SLO: ≥ 8 users, %1× the next best (max_num_seqs=4). It "
                                 "met the SLO at the highest load swept: sweep higher to find its limit.")
                      .arg(8 / capacity4, 0, 'f', 2);
            QCOMPARE(group.bestSentence, sentence);
            QVERIFY2(view->summaryText().contains(sentence), qPrintable(view->summaryText()));
        }
        QCOMPARE(view->configurationsTable()->item(0, 8)->text(), QStringLiteral("fitted here"));
        // The twin fitted on max_num_seqs=1 predicts the other two: dashed, in each one's colour, with its error.
        QCOMPARE(group.twinSource, 0);
        CompareChart* chart = view->chart();
        QCOMPARE(chart->predictionCount(), 2);
        for (int i = 0; i < 2; ++i) {
            const ServerRunFigures& r = group.runs.at(std::size_t(i + 1));
            QVERIFY2(r.twinError.has_value(), qPrintable(r.twinNote));
            QCOMPARE(chart->predictionPointCount(i), 3);
            QCOMPARE(chart->predictionPenStyle(i), Qt::DashLine);
            QCOMPARE(chart->predictionColor(i), CompareChart::runColor(i + 1));
            QCOMPARE(chart->predictionName(i),
                QStringLiteral("%1 · twin, error %2").arg(r.outcome.combination.label(), twinErrorText(r.twinError)));
            QCOMPARE(view->configurationsTable()->item(i + 1, 9)->text(), twinErrorText(r.twinError));
        }
        saveScreenshot(&window, QStringLiteral("server-sweep-comparison"));

        // The CLI's comparison report of the group's runs holds the same: the sentence, the configurations
        // and the twin's curves (its charts beside the Markdown, for a look).
        const QString report = screenshotDir() + QStringLiteral("/server-sweep-report.md");
        QProcess cli;
        cli.start(QStringLiteral(KNEEPOINT_CLI),
            QStringList { QStringLiteral("compare") } + result.runDirs
                + QStringList { QStringLiteral("--out"), report });
        QVERIFY(cli.waitForFinished(120000));
        const QByteArray err = cli.readAllStandardError();
        QVERIFY2(cli.exitCode() == 0, err.constData());
        QVERIFY2(err.contains("note: the runs are one server sweep's"), err.constData());
        QFile md(report);
        QVERIFY(md.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(md.readAll());
        QVERIFY(!group.bestSentence.isEmpty());
        QVERIFY2(text.contains(group.bestSentence), qPrintable(text)); // the same runs: the same words
        QVERIFY(text.contains(QStringLiteral("| max_num_seqs=16 |")));
        QVERIFY(text.contains(QStringLiteral("fitted here")));
        QVERIFY(QFileInfo::exists(screenshotDir() + QStringLiteral("/server-sweep-report-ttft.png")));
    }

    // Stop during a server sweep: the sweep stops, its server is taken down, what it measured stays, and
    // the combinations after it are not run.
    void serverSweepStopStopsTheServer()
    {
        SweepController controller;
        controller.setRunsDirectory(m_runs.filePath(QStringLiteral("serve-stop")));
        RunPage page(&controller);
        LiveRun* run = page.run();
        QSignalSpy groupEnded(&controller, &SweepController::serverSweepFinished);
        QSignalSpy finished(&controller, &SweepController::finished);
        QSignalSpy failed(&controller, &SweepController::failed);
        controller.start(serverSweepProfile(QStringLiteral("2,8")));
        QTRY_VERIFY_WITH_TIMEOUT(run->steps().size() >= 1 || !finished.isEmpty() || !failed.isEmpty(), 120000);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
        const QString dir = run->info().runDirectory;
        QVERIFY(dir.endsWith(QStringLiteral("/01-max_num_seqs-2")));
        QVERIFY(answersAt(dir));
        run->requestStop();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 120000);
        QVERIFY(finished.at(0).at(0).toBool());
        QCOMPARE(run->state(), LiveRun::State::Stopped);
        QVERIFY(!answersAt(dir));
        QCOMPARE(groupEnded.size(), 1);
        const auto result = groupEnded.at(0).at(0).value<ServerSweepResult>();
        QVERIFY(result.interrupted);
        QCOMPARE(result.runDirs, QStringList { dir });
        const QJsonObject matrix = readJson(result.groupDir + QStringLiteral("/matrix.json"));
        QCOMPARE(matrix.value(u"status").toString(), QStringLiteral("stopped"));
        const QJsonArray runs = matrix.value(u"runs").toArray();
        QCOMPARE(runs.at(0).toObject().value(u"state").toString(), QStringLiteral("stopped"));
        QCOMPARE(runs.at(1).toObject().value(u"state").toString(), QStringLiteral("not run"));
        const QJsonArray steps = readJson(dir + QStringLiteral("/run.json")).value(u"steps").toArray();
        QVERIFY(steps.size() >= 1);
        QVERIFY(page.serverSweepText().contains(QStringLiteral("Server sweep stopped")));
    }

    // An unreachable target fails the preflight: a message naming the URL, no load, no dialog.
    void unreachableTargetFails()
    {
        SweepController controller;
        controller.setRunsDirectory(m_runs.filePath(QStringLiteral("unreachable")));
        RunPage page(&controller);
        QSignalSpy failed(&controller, &SweepController::failed);
        const QString url = closedPortUrl();
        controller.start(sweepProfile(url, { 10 }, 5));
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 60000);
        const QString message = failed.constFirst().constFirst().toString();
        QVERIFY2(message.contains(QStringLiteral("preflight")) && message.contains(url), qPrintable(message));
        QCOMPARE(page.run()->state(), LiveRun::State::Failed);
        QVERIFY(!controller.isRunning());
        QVERIFY(page.progressText().contains(QStringLiteral("Failed")));
        QVERIFY(!QDir(m_runs.filePath(QStringLiteral("unreachable"))).exists());
        QVERIFY(QApplication::activeModalWidget() == nullptr);
    }

    // A runs folder that cannot be written is named before the preflight: nothing is sent.
    void unwritableRunsFolderFailsFirst()
    {
        const QString blocker = m_runs.filePath(QStringLiteral("a-file"));
        QFile file(blocker);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        SweepController controller;
        const QString runs = blocker + QStringLiteral("/runs");
        controller.setRunsDirectory(runs);
        RunPage page(&controller);
        QSignalSpy failed(&controller, &SweepController::failed);
        controller.start(sweepProfile(closedPortUrl(), { 10 }, 5));
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 60000);
        const QString message = failed.constFirst().constFirst().toString();
        QCOMPARE(message,
            QStringLiteral("The run cannot be saved: %1: cannot be a folder: %2 is a file").arg(runs, blocker));
        QCOMPARE(page.run()->state(), LiveRun::State::Failed);
    }

    // Failed requests are counted, grouped by class with an example and a hint, per run and per step.
    void errorsAreGrouped()
    {
        sim::SimHost faulty;
        sim::SimServerOptions options;
        options.timeScale = 100;
        options.seed = 7;
        QVERIFY(sim::applyFaultSpec(QStringLiteral("429:0.1"), options.faults).isEmpty());
        QVERIFY(sim::applyFaultSpec(QStringLiteral("500:0.05"), options.faults).isEmpty());
        QVERIFY(sim::applyFaultSpec(QStringLiteral("cut:0.05"), options.faults).isEmpty());
        QVERIFY2(faulty.start(options), qPrintable(faulty.errorString()));

        SweepController controller;
        controller.setRunsDirectory(m_runs.filePath(QStringLiteral("errors")));
        RunPage page(&controller);
        page.resize(1280, 800);
        page.show();
        QSignalSpy finished(&controller, &SweepController::finished);
        QSignalSpy failed(&controller, &SweepController::failed);
        // The preflight's one completion may draw a fault too; the next try draws another. Three steps of 60
        // requests at 3, 6 and 9 simulated req/s, a light load for the default server: the faults fail
        // requests, not the load, and the steps need only end.
        for (int attempt = 0; attempt < 5; ++attempt) {
            failed.clear();
            controller.start(sweepProfile(faulty.baseUrl().toString(), { 300, 600, 900 }, 60));
            QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty() || !failed.isEmpty(), 120000);
            if (!finished.isEmpty())
                break;
            QVERIFY2(failed.constFirst().constFirst().toString().contains(QStringLiteral("Injected fault")),
                qPrintable(failed.constFirst().constFirst().toString()));
        }
        QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));

        const LiveRun* run = page.run();
        qint64 failedRequests = 0;
        for (const StepReport& step : run->steps())
            failedRequests += step.metrics.failed;
        QVERIFY(failedRequests > 0);
        const ErrorsModel* errors = page.errorsModel();
        QVERIFY(errors->rowCount() >= 2);
        QCOMPARE(errors->total(), failedRequests);
        QCOMPARE(page.tabs()->tabText(3), QStringLiteral("Errors (%1)").arg(failedRequests));
        for (int row = 0; row < errors->rowCount(); ++row) {
            QVERIFY(!errors->index(row, ErrorsModel::Example).data().toString().isEmpty());
            QVERIFY(!errors->index(row, ErrorsModel::Steps).data().toString().isEmpty());
        }
        QVERIFY(page.details()->tabs()->tabText(2).startsWith(QStringLiteral("Failures (")));
        page.tabs()->setCurrentIndex(2);
        page.liveChart()->redraw();
        saveScreenshot(&page, QStringLiteral("errors"));
        faulty.stop();
    }

    // A saved step second by second: a real sweep, reopened; the timeline shows the figures the step's
    // request records give, and a click on a second draws that second's requests in the Gantt view.
    // The forecast: refused before three steps, fitted from the third on in the background, checked
    // against a step that lands at a load it predicted, and drawn dashed as "predicted" on the chart.
    void forecastDuringSweep()
    {
        // Steps of the long-context preset in simulated time (short requests: max_num_seqs binds), in the
        // order an auto plan might run them: 10, 40 and 100 req/s, then 60, a load the plan held ahead.
        const sim::SimParams truth = sim::presetByName(QStringLiteral("long-context"))->params;
        Profile profile = Profile::demo(QUrl(QStringLiteral("http://127.0.0.1:1")), QString());
        MetricsOptions metrics;
        metrics.percentiles = { 50, 90, 99 };
        auto step = [&](int index, double rate) {
            StepConfig config;
            config.index = index;
            config.mode = LoadMode::Rate;
            config.rate = rate;
            config.numPrompts = 200;
            config.seed = 7;
            std::mt19937_64 rng(11);
            for (int i = 0; i < config.numPrompts; ++i) {
                Prompt p;
                p.promptTokens = 100;
                p.outputTokens = sim::SimModel::drawOutputTokens(rng, 160, 0.6);
                config.prompts.push_back(p);
            }
            const StepResult result = kp::testing::simulateStep(truth, 1.0, config, metrics);
            StepReport report = makeStepReport(result, profile, {}, {});
            report.fit = std::make_shared<const twin::FitStep>(
                twin::fitStepFromRecords(LoadMode::Rate, rate, 1.0, result.records));
            return report;
        };
        const std::vector<StepReport> steps { step(0, 10), step(1, 40), step(2, 100), step(3, 60) };

        AnalysisOptions options;
        options.slo.ttftMs = 500;
        Forecaster forecaster;
        forecaster.reset(LoadMode::Rate, options, { 10, 40, 100, 60, 140 });
        forecaster.addStep(steps[0]);
        forecaster.addStep(steps[1]);
        QVERIFY(!forecaster.forecast());
        QVERIFY(!forecaster.isBusy());
        QVERIFY2(
            forecaster.refusal().contains(QStringLiteral("1 more finished step")), qPrintable(forecaster.refusal()));
        QCOMPARE(forecaster.sentence(), forecaster.refusal());

        forecaster.addStep(steps[2]);
        QVERIFY(forecaster.isBusy()); // on the thread pool: addStep returned at once
        QCOMPARE(forecaster.sentence(), QStringLiteral("Forecast: fitting the twin to 3 steps…"));
        QTRY_VERIFY_WITH_TIMEOUT(!forecaster.isBusy(), 120000);
        QVERIFY2(forecaster.forecast(), qPrintable(forecaster.refusal()));
        const Forecast& f = *forecaster.forecast();
        QCOMPARE(f.fromSteps, 3);
        // The measured loads, the planned ones ahead and three beyond the highest (140): 175, 210, 280.
        QList<double> loads;
        for (const SweepPoint& p : f.points)
            loads << p.offered;
        QCOMPARE(loads, (QList<double> { 10, 40, 60, 100, 140, 175, 210, 280 }));
        QVERIFY(!f.variants.empty());
        QVERIFY(forecaster.sentence().startsWith(QStringLiteral("Forecast: ")));
        QVERIFY2(forecaster.sentence().contains(QStringLiteral("(predicted from 3 steps)")),
            qPrintable(forecaster.sentence()));
        // Beside a run that measured its knee and SLO capacity, the forecast does not restate either with
        // its own figures.
        AnalysisResult measured;
        measured.knee.found = true;
        measured.knee.offered = 40;
        measured.sloCapacity.found = true;
        measured.sloCapacity.offered = 45;
        QCOMPARE(forecaster.sentence(&measured),
            QStringLiteral("Forecast: the dashed curve extends the measured one (predicted from 3 steps)"));
        measured.sloCapacity.lowerBound = true; // "at least": the forecast may still say where it lies
        QVERIFY2(!forecaster.sentence(&measured).contains(QStringLiteral("knee")), qPrintable(forecaster.sentence()));
        QVERIFY2(forecaster.sentence(&measured).contains(QStringLiteral("SLO capacity"))
                || forecaster.sentence(&measured).contains(QStringLiteral("extends the measured one")),
            qPrintable(forecaster.sentence(&measured)));
        const SweepPoint* at60 = f.at(60);
        QVERIFY(at60);
        const double forecastRps = at60->metrics.requestThroughput;
        const double forecastP99 = *at60->metrics.ttft.percentile(99);
        // The band holds the fitted curve.
        const auto band = f.band(2, LatencyMetric::Ttft, 99);
        QVERIFY(band && band->first <= forecastP99 && forecastP99 <= band->second);

        // The step at 60 req/s lands: the check carries the forecast's figures and the step's.
        forecaster.addStep(steps[3]);
        QCOMPARE(forecaster.checks().size(), std::size_t(1));
        const ForecastCheck check = forecaster.checks().front();
        QCOMPARE(check.stepIndex, 3);
        QCOMPARE(check.load, 60.0);
        QCOMPARE(check.fromSteps, 3);
        QCOMPARE(check.forecastRps, forecastRps);
        QCOMPARE(check.measuredRps, steps[3].metrics.requestThroughput);
        QCOMPARE(*check.forecastLatencyMs, forecastP99);
        QCOMPARE(*check.measuredLatencyMs, *steps[3].metrics.ttft.percentile(99));
        const QString expected
            = QStringLiteral("Step 4 at 60 req/s: forecast %1 req/s, measured %2 req/s (")
                  .arg(UiFormat::throughput(forecastRps), UiFormat::throughput(steps[3].metrics.requestThroughput));
        qInfo("%s", qPrintable(check.sentence()));
        QVERIFY2(check.sentence().startsWith(expected), qPrintable(check.sentence()));
        QVERIFY2(check.sentence().contains(
                     QStringLiteral("; P99 TTFT forecast %1 ms, measured %2 ms (")
                         .arg(UiFormat::ms(forecastP99), UiFormat::ms(*steps[3].metrics.ttft.percentile(99)))),
            qPrintable(check.sentence()));
        QTRY_VERIFY_WITH_TIMEOUT(!forecaster.isBusy(), 120000);
        QCOMPARE(forecaster.forecast()->fromSteps, 4);

        // On the page: the steps shown as a run shows them, the forecast drawn dashed and named predicted.
        SweepController controller;
        RunPage page(&controller);
        page.resize(1280, 800);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        RunInfo info;
        info.profile = profile;
        info.profile.load.mode = LoadMode::Rate;
        info.profile.slo.ttftMs = 500;
        info.analysisOptions = options;
        for (const double load : { 10.0, 40.0, 100.0, 60.0, 140.0 })
            info.preview.push_back({ LoadMode::Rate, load, QStringLiteral("coarse"), QString() });
        RunAnalysis analysis;
        std::vector<SweepPoint> points;
        for (const StepReport& s : steps) {
            SweepPoint p;
            p.offered = s.offered();
            p.metrics = s.metrics;
            points.push_back(p);
        }
        analysis.result = KneeAnalysis::analyze(points, options);
        analysis.sentences = analysisText(analysis.result);
        QVERIFY(page.run()->showSaved(info, steps, analysis, LiveRun::State::Finished));
        QTRY_VERIFY_WITH_TIMEOUT(page.forecaster()->forecast().has_value(), 120000);
        QTRY_VERIFY_WITH_TIMEOUT(!page.forecaster()->isBusy(), 120000);
        QCOMPARE(page.forecaster()->forecast()->fromSteps, 4);
        // The fourth step landed while the fit of three ran: that fit, when it came, was checked against it.
        QCOMPARE(page.forecaster()->checks().size(), std::size_t(1));
        QCOMPARE(page.forecaster()->checks().front().stepIndex, 3);
        QCOMPARE(page.forecaster()->checks().front().fromSteps, 3);
        QCOMPARE(page.forecaster()->checks().front().sentence(), check.sentence());
        QLineSeries* line = page.latencyChart()->forecastSeries();
        QVERIFY(line->isVisible());
        QCOMPARE(line->count(), int(page.forecaster()->forecast()->points.size()));
        QCOMPARE(line->pen().style(), Qt::DashLine);
        QVERIFY2(line->name().contains(QStringLiteral("predicted")), qPrintable(line->name()));
        QVERIFY(line->color().alpha() < 255); // lighter than the measured curve
        QVERIFY(page.latencyChart()->forecastBand()->isVisible());
        QVERIFY(page.latencyChart()->forecastTip(60).contains(QStringLiteral("predicted, not measured")));
        QVERIFY(page.latencyChart()->caption().contains(QStringLiteral("Forecast: ")));
        bool listed = false;
        for (int i = 0; i < page.analysisList()->count(); ++i)
            listed = listed || page.analysisList()->item(i)->text() == page.forecaster()->sentence();
        QVERIFY(listed);
        bool checkListed = false;
        for (int i = 0; i < page.analysisList()->count(); ++i)
            checkListed = checkListed || page.analysisList()->item(i)->text() == check.sentence();
        QVERIFY(checkListed);
        qInfo("%s", qPrintable(page.forecaster()->sentence()));
        page.tabs()->setCurrentIndex(1);
        saveScreenshot(&page, QStringLiteral("forecast"));

        // What if: the twin fitted to the finished run when its tab is opened; two replicas serve about
        // twice the saturation throughput of one; the twin saves to a file the reader accepts.
        WhatIfPanel* whatIf = page.whatIf();
        QVERIFY(!whatIf->twin());
        page.tabs()->setCurrentWidget(whatIf);
        QVERIFY(whatIf->status().contains(QStringLiteral("Fitting")));
        QTRY_VERIFY_WITH_TIMEOUT(whatIf->twin().has_value() && !whatIf->isBusy(), 120000);
        QCOMPARE(whatIf->maxNumSeqsBox()->value(), whatIf->twin()->params.maxNumSeqs);
        QCOMPARE(whatIf->replicasBox()->value(), 1);
        const double one = whatIf->predictedSaturationRps();
        QVERIFY(std::isfinite(one) && one > 0);
        QVERIFY2(whatIf->findings().contains(
                     QStringLiteral("Predicted saturation throughput: %1 req/s").arg(UiFormat::throughput(one))),
            qPrintable(whatIf->findings()));
        // Where the twin does not reproduce the run's steps, the panel says so under its forecasts.
        for (const Sentence& d : whatIf->twin()->disagreements)
            QVERIFY2(whatIf->findings().contains(d.text()), qPrintable(whatIf->findings()));
        qInfo("what-if twin: %d disagreement(s)", int(whatIf->twin()->disagreements.size()));
        QLineSeries* predictedLine = whatIf->chart()->predictedSeries();
        QVERIFY(predictedLine->isVisible());
        QCOMPARE(predictedLine->name(), QStringLiteral("predicted P99 TTFT"));
        QCOMPARE(predictedLine->pen().style(), Qt::DashLine);
        QCOMPARE(whatIf->chart()->measuredSeries()->count(), 4);
        whatIf->replicasBox()->setValue(2);
        QVERIFY(whatIf->isBusy()); // debounced, then on the thread pool
        QTRY_VERIFY_WITH_TIMEOUT(!whatIf->isBusy(), 120000);
        const double two = whatIf->predictedSaturationRps();
        QVERIFY2(two / one > 1.8 && two / one < 2.2, qPrintable(QStringLiteral("%1 → %2 req/s").arg(one).arg(two)));
        saveScreenshot(&page, QStringLiteral("whatif"));
        // The latency before the engine shows the fitted value (the simulator has none) and, set, adds to
        // every predicted TTFT.
        QCOMPARE(whatIf->preEngineBox()->value(), std::round(whatIf->twin()->params.preEngineMs * 100) / 100);
        whatIf->preEngineBox()->setValue(500);
        QVERIFY(whatIf->isBusy());
        QTRY_VERIFY_WITH_TIMEOUT(!whatIf->isBusy(), 120000);
        QVERIFY(!whatIf->predicted().empty());
        for (const SweepPoint& p : whatIf->predicted())
            QVERIFY2(p.metrics.ttft.median >= 500, qPrintable(QString::number(p.metrics.ttft.median)));
        // The predicted curve stays in view, though all of it lies above three times the measured latency.
        const QValueAxis* yAxis = nullptr;
        for (QAbstractAxis* axis : whatIf->chart()->predictedSeries()->attachedAxes()) {
            if (axis->orientation() == Qt::Vertical)
                yAxis = qobject_cast<QValueAxis*>(axis);
        }
        QVERIFY(yAxis);
        QVERIFY2(yAxis->max() >= 1000, qPrintable(QString::number(yAxis->max())));
        saveScreenshot(&page, QStringLiteral("whatif-pre-engine"));
        // The API server's time per request, set, is a queue that passes at most one request per that time: set so
        // that the two replicas' API servers (one each) pass half of what two replicas served, no predicted step
        // completes more than that.
        QCOMPARE(whatIf->apiServerBox()->value(), std::round(whatIf->twin()->params.apiServerMs * 100) / 100);
        const double apiServerMs = std::ceil(4000 / two);
        whatIf->apiServerBox()->setValue(apiServerMs);
        QVERIFY(whatIf->isBusy());
        QTRY_VERIFY_WITH_TIMEOUT(!whatIf->isBusy(), 120000);
        QVERIFY(!whatIf->predicted().empty());
        for (const SweepPoint& p : whatIf->predicted())
            QVERIFY2(p.metrics.requestThroughput <= 2 * 1000 / apiServerMs,
                qPrintable(QString::number(p.metrics.requestThroughput)));
        QVERIFY2(whatIf->predictedSaturationRps() < 0.75 * two,
            qPrintable(QString::number(whatIf->predictedSaturationRps())));

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("twin.json"));
        QString error;
        QVERIFY2(whatIf->saveTwin(path, &error), qPrintable(error));
        const twin::TwinRead read = twin::readTwinFile(path);
        QVERIFY2(read.twin, qPrintable(read.error));
        QCOMPARE(read.twin->params.maxNumSeqs, whatIf->maxNumSeqsBox()->value());
        QCOMPARE(read.twin->params.preEngineMs, 500.0);
        QCOMPARE(read.twin->params.apiServerMs, apiServerMs);
    }

    // A twin fitted to an imported summary table that it does not reproduce (the table's P99 TTFT grows from 20
    // req/s on, faster than its median; 200 requests a row, for a short fit): the What-if panel says where, under
    // its forecasts.
    void whatIfSaysWhereTheTwinMisses()
    {
        QTemporaryDir files, runs;
        QVERIFY(kp::testing::writeVllmResultFiles(kp::testing::publishedTable(), files.path(), 200));
        const ImportResult imported = importRun({ files.path() }, runs.path());
        QVERIFY2(imported.ok(), qPrintable(imported.error));
        QString error;
        const std::optional<OpenedRun> opened = openRunDirectory(imported.dir, &error);
        QVERIFY2(opened, qPrintable(error));
        SweepController idle;
        RunPage page(&idle);
        page.resize(1280, 940);
        QVERIFY(opened->showIn(page.run()));
        WhatIfPanel* whatIf = page.whatIf();
        page.tabs()->setCurrentWidget(whatIf);
        QTRY_VERIFY_WITH_TIMEOUT(whatIf->twin().has_value() && !whatIf->isBusy(), 120000);
        const QString findings = whatIf->findings();
        QVERIFY2(findings.contains(QStringLiteral("The measured steps put the knee at 20 req/s, the twin's figures for "
                                                  "them at 60 req/s: its forecast of where latency turns is that far "
                                                  "off.")),
            qPrintable(findings));
        QVERIFY2(findings.contains(QStringLiteral("The twin's P99 TTFT misses the measured")), qPrintable(findings));
        for (const Sentence& d : whatIf->twin()->disagreements)
            QVERIFY2(findings.contains(d.text()), qPrintable(findings));
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        saveScreenshot(&page, QStringLiteral("whatif-disagreements"));
    }

    // An imported file whose per-request times count from each request's own send: the records give
    // latencies, and the Timeline tab says why there is no timeline instead of drawing every request at 0.
    void importedStepWithoutSendTimesHasNoTimeline()
    {
        QTemporaryDir tmp;
        const ImportResult imported
            = importRun({ QStringLiteral(QT_TESTCASE_SOURCEDIR
                            "/data/import/real/vllm/0.6-save-detailed/Meta-Llama-3-8B-Instruct_tp1_len2000.json") },
                tmp.path());
        QVERIFY2(imported.ok(), qPrintable(imported.error));
        QString error;
        const std::optional<OpenedRun> opened = openRunDirectory(imported.dir, &error);
        QVERIFY2(opened, qPrintable(error));
        QVERIFY(opened->steps[0].timeline.isEmpty());
        SweepController idle;
        RunPage page(&idle);
        QVERIFY(opened->showIn(page.run()));
        page.selectStep(0);
        const QString why = QStringLiteral("Step 1 has no timeline: Meta-Llama-3-8B-Instruct_tp1_len2000.json times "
                                           "each request from its own send and does not say when it was sent: the "
                                           "requests' latencies are known, a timeline of the step is not.");
        QCOMPARE(page.timelineChart()->placeholder(), why);
        QCOMPARE(page.ganttChart()->placeholder(), why);
        page.resize(1280, 800);
        for (int tab = 0; tab < page.tabs()->count(); ++tab) {
            if (page.tabs()->widget(tab)->isAncestorOf(page.timelineChart()))
                page.tabs()->setCurrentIndex(tab);
        }
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        saveScreenshot(&page, QStringLiteral("imported-step-no-timeline"));
    }

    void savedStepTimelineAndGantt()
    {
        Profile profile = sweepProfile(m_sim.baseUrl().toString(), { 5 }, 12); // about 2.4 s of arrivals
        SweepController controller;
        controller.setRunsDirectory(m_runs.filePath(QStringLiteral("timeline")));
        QSignalSpy started(&controller, &SweepController::started);
        QSignalSpy finished(&controller, &SweepController::finished);
        QSignalSpy failed(&controller, &SweepController::failed);
        controller.start(profile);
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty() || !failed.isEmpty(), 120000);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
        const QString dir = started.constFirst().constFirst().value<RunInfo>().runDirectory;

        // The figures from the files, computed on their own.
        std::vector<RequestRecord> records;
        QString error;
        QVERIFY2(
            readRequestRecords(dir + QStringLiteral("/steps/000.requests.jsonl"), &records, &error), qPrintable(error));
        QCOMPARE(records.size(), std::size_t(12));
        QFile scrapes(dir + QStringLiteral("/steps/000.metrics.jsonl"));
        QVERIFY(scrapes.open(QIODevice::ReadOnly)); // the test server serves /metrics
        const std::vector<ServerSample> samples = StepTelemetry::samplesFromJsonl(scrapes.readAll());
        QVERIFY(!samples.empty());
        const StepTimeline expected = StepTimeline::compute(records, samples);
        QVERIFY(expected.seconds.size() >= 2);

        const std::optional<OpenedRun> opened = openRunDirectory(dir, &error);
        QVERIFY2(opened, qPrintable(error));
        SweepController idle;
        RunPage page(&idle);
        TimelineChart* timeline = page.timelineChart();
        GanttChart* gantt = page.ganttChart();
        QCOMPARE(timeline->placeholder(), QStringLiteral("Select a finished step to see it second by second."));
        QVERIFY(opened->showIn(page.run()));
        page.selectStep(0);
        QCOMPARE(timeline->title(), QStringLiteral("Step 1 · 5 req/s, second by second · Requests and tokens"));
        QCOMPARE(timeline->placeholder(), QString());
        QCOMPARE(timeline->seriesNames(),
            (QStringList { QStringLiteral("offered"), QStringLiteral("completed"), QStringLiteral("failed"),
                QStringLiteral("in flight"), QStringLiteral("output tokens/s") }));
        const int n = int(expected.seconds.size());
        for (const QString& name : timeline->seriesNames())
            QCOMPARE(timeline->pointCount(name), n);
        qint64 offered = 0, completed = 0;
        double tokens = 0;
        for (const TimelineSecond& s : expected.seconds) {
            offered += s.offered;
            completed += s.completed;
            tokens += s.outputTokens;
        }
        QCOMPARE(offered, 12);
        QCOMPARE(completed, opened->steps[0].metrics.completed);
        QCOMPARE(qint64(std::llround(tokens)), opened->steps[0].metrics.totalOutputTokens);
        // The drawn points are the step's seconds.
        const auto series = timeline->chart()->series();
        auto pointsOf = [&series](const QString& name) {
            for (QAbstractSeries* s : series) {
                if (s->name() == name && s->isVisible())
                    return static_cast<QLineSeries*>(s)->points();
            }
            return QList<QPointF> {};
        };
        QList<QPointF> wantCompleted, wantOffered;
        for (const TimelineSecond& s : expected.seconds) {
            wantCompleted << QPointF(s.second, double(s.completed));
            wantOffered << QPointF(s.second, double(s.offered));
        }
        QCOMPARE(pointsOf(QStringLiteral("completed")), wantCompleted);
        QCOMPARE(pointsOf(QStringLiteral("offered")), wantOffered);

        // Latency view: TTFT and ITL of the seconds in which requests completed, and no point at 0 for the rest.
        timeline->setView(TimelineChart::View::Latency);
        int withTtft = 0;
        for (const TimelineSecond& s : expected.seconds)
            withTtft += isKnown(s.ttftP99Ms) ? 1 : 0;
        QCOMPARE(timeline->pointCount(QStringLiteral("TTFT P99")), withTtft);
        // Server view: the built-in scrapes give running and waiting requests.
        timeline->setView(TimelineChart::View::Server);
        QVERIFY(timeline->seriesNames().contains(QStringLiteral("server: running")));
        timeline->setView(TimelineChart::View::Requests);

        page.resize(1280, 800);
        for (int tab = 0; tab < page.tabs()->count(); ++tab) {
            if (page.tabs()->widget(tab)->isAncestorOf(timeline))
                page.tabs()->setCurrentIndex(tab);
        }
        QCOMPARE(page.tabs()->tabText(page.tabs()->currentIndex()), QStringLiteral("Timeline"));
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QCoreApplication::processEvents();

        // A click on the plot at the last second picks it for the Gantt view.
        const int last = n - 1;
        QCOMPARE(gantt->second(), 0);
        QCOMPARE(gantt->barCount(), int(expected.seconds[0].offered));
        QLineSeries* anchor = nullptr;
        for (QAbstractSeries* s : series) {
            if (s->name() == QStringLiteral("offered"))
                anchor = static_cast<QLineSeries*>(s);
        }
        QVERIFY(anchor);
        const QPointF at = timeline->chart()->mapToPosition(QPointF(last, 0.5), anchor);
        const QPoint click = timeline->view()->mapFromScene(timeline->chart()->mapToScene(at));
        QTest::mouseClick(timeline->view()->viewport(), Qt::LeftButton, {}, click);
        QCOMPARE(gantt->second(), last);
        QCOMPARE(gantt->secondBox()->value(), last);
        QCOMPARE(gantt->barCount(), int(expected.seconds[std::size_t(last)].offered));
        gantt->secondBox()->setValue(0);
        QCOMPARE(gantt->second(), 0);
        QCOMPARE(gantt->barCount(), int(expected.seconds[0].offered));
        QCOMPARE(gantt->failedCount(), 0);
        QVERIFY(gantt->title().startsWith(QStringLiteral("Step 1 · 5 req/s · requests scheduled in second 0")));
        saveScreenshot(&page, QStringLiteral("timeline"));
        saveScreenshot(timeline, QStringLiteral("timeline-chart"));
        saveScreenshot(gantt, QStringLiteral("gantt-chart"));

        // Failures are drawn in their own colour; a step without records says why it has no timeline.
        StepReport handMade = opened->steps[0];
        RequestRecord ok;
        ok.index = 0;
        ok.scheduledNs = ok.sentNs = 100'000'000;
        ok.firstTokenNs = 200'000'000;
        ok.chunkNs = { 200'000'000, 300'000'000 };
        ok.lastTokenNs = 300'000'000;
        ok.endNs = 310'000'000;
        ok.outputTokens = 2;
        RequestRecord bad;
        bad.index = 1;
        bad.scheduledNs = bad.sentNs = 300'000'000;
        bad.endNs = 350'000'000;
        bad.failure = FailureClass::HttpServerError;
        handMade.timeline = StepTimeline::compute({ ok, bad }, {});
        gantt->setStep(&handMade, 0);
        QCOMPARE(gantt->barCount(), 2);
        QCOMPARE(gantt->failedCount(), 1);
        saveScreenshot(gantt, QStringLiteral("gantt-failed"));
        handMade.timeline = {};
        timeline->setStep(&handMade);
        QCOMPARE(timeline->placeholder(),
            QStringLiteral("Step 1 has no request records, so no timeline (a run exported without them, or an "
                           "imported file)."));
    }

    // The main window in its three states, at 1280×800, written to the build tree.
    // A step's per-second timeline keeps at most kMaxBuckets buckets however long it runs, and every
    // request: ten hours of snapshots, five a second.
    void rateTimelineStaysBounded()
    {
        RateTimeline t;
        qint64 completed = 0;
        for (int i = 1; i <= 5 * 36000; ++i) {
            completed += 7;
            t.add(double(i) / 5.0, completed, i / 50, 3 + i % 5);
        }
        QVERIFY(t.buckets().size() <= std::size_t(RateTimeline::kMaxBuckets));
        QCOMPARE(t.bucketS(), 32.0); // 36,000 s in at most 1,200 buckets: 1 s doubled five times
        QCOMPARE(t.buckets().size(), std::size_t(36000 / 32 + 1));
        qint64 sum = 0, failed = 0;
        int inFlight = 0;
        for (const RateTimeline::Bucket& b : t.buckets()) {
            sum += b.completed;
            failed += b.failed;
            inFlight = std::max(inFlight, b.maxInFlight);
        }
        QCOMPARE(sum, completed);
        QCOMPARE(failed, qint64(5 * 36000 / 50));
        QCOMPARE(inFlight, 7);
        QCOMPARE(t.buckets()[1].completed, qint64(32 * 5 * 7)); // [32, 64): 160 snapshots of 7
        QCOMPARE(t.closedBuckets(), 36000 / 32); // the last bucket has only begun
    }

    // The Server tab's chart of the running step keeps at most kMaxTimePoints scrapes, evenly spaced, the
    // first and the latest among them: an hour's soak against a server scraped ten times a second.
    void serverTimeChartStaysBounded()
    {
        ServerChart chart(ServerChart::Axis::Time, QStringLiteral("time"));
        constexpr int kScrapes = 36000;
        for (int i = 0; i < kScrapes; ++i)
            chart.addPoint({ double(i) / 10.0, double(i % 64), std::nullopt, 0.5 });
        const std::vector<ServerChart::Point>& p = chart.points();
        // 36,000 scrapes: one in 32 kept (samples 0, 32, …, 35,968: 1,125 of them), then the latest.
        QCOMPARE(p.size(), std::size_t(1125 + 1));
        QCOMPARE(p.front().x, 0.0);
        QCOMPARE(p.back().x, double(kScrapes - 1) / 10.0);
        QCOMPARE(p.back().running, std::optional<double>(double((kScrapes - 1) % 64)));
        for (std::size_t i = 1; i + 1 < p.size(); ++i)
            QCOMPARE(qRound((p[i].x - p[i - 1].x) * 10), 32);
        // A saved step's samples replace them, and a live step after it starts again at full resolution.
        chart.setPoints({ { 0.0, 1.0, 2.0, 0.1 }, { 1.0, 1.0, 2.0, 0.1 } });
        QCOMPARE(chart.points().size(), std::size_t(2));
        chart.setPoints({});
        for (int i = 0; i < 5; ++i)
            chart.addPoint({ double(i), 1.0, 0.0, 0.0 });
        QCOMPARE(chart.points().size(), std::size_t(5));
    }

    // Past SoakChart::kMaxWindowPoints windows, neighbours share a point: counts summed, throughputs over
    // their joint time, the highest known latency.
    void soakWindowsMerge()
    {
        std::vector<SoakWindowFigures> w(3);
        w[0].index = 0;
        w[0].startS = 0;
        w[0].endS = 10;
        w[0].completed = 100;
        w[0].failed = 2;
        w[0].failures[FailureClass::HttpServerError] = 2;
        w[0].requestThroughput = 10;
        w[0].outputThroughput = 500;
        w[0].ttftP99 = 200;
        w[1].index = 1;
        w[1].startS = 10;
        w[1].endS = 20;
        w[1].completed = 120;
        w[1].requestThroughput = 12;
        w[1].outputThroughput = 600;
        w[1].ttftP99 = 250;
        w[1].itlP50 = 20;
        w[2].index = 2;
        w[2].startS = 20;
        w[2].endS = 25;
        w[2].partial = true;
        w[2].completed = 40;
        w[2].requestThroughput = 8;
        int perPoint = 0;
        QCOMPARE(SoakChart::merged(w, 3, &perPoint), w);
        QCOMPARE(perPoint, 1);
        const std::vector<SoakWindowFigures> m = SoakChart::merged(w, 2, &perPoint);
        QCOMPARE(perPoint, 2);
        QCOMPARE(m.size(), std::size_t(2));
        QCOMPARE(m[0].startS, 0.0);
        QCOMPARE(m[0].endS, 20.0);
        QCOMPARE(m[0].completed, qint64(220));
        QCOMPARE(m[0].failed, qint64(2));
        QCOMPARE(m[0].failures.at(FailureClass::HttpServerError), qint64(2));
        QCOMPARE(m[0].requestThroughput, 11.0);
        QCOMPARE(m[0].outputThroughput, 550.0);
        QCOMPARE(m[0].ttftP99, 250.0);
        QCOMPARE(m[0].itlP50, 20.0); // unknown in the first, known in the second
        QVERIFY(std::isnan(m[0].ttftP50)); // unknown in both
        QVERIFY(!m[0].partial);
        QCOMPARE(m[1], w[2]);

        SoakWindowsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setWindows(w);
        model.append(w[0]);
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.data(model.index(2, SoakWindowsModel::Window)).toString(), QStringLiteral("3 (partial)"));
        QCOMPARE(model.data(model.index(0, SoakWindowsModel::TtftP50)).toString(), UiFormat::unknown());
        QCOMPARE(model.data(model.index(0, SoakWindowsModel::TtftP99)).toString(), QStringLiteral("200"));
        QVERIFY(!model.data(model.index(0, SoakWindowsModel::TtftP50), SoakWindowsModel::SortRole).isValid());
        QVERIFY(model.data(model.index(0, SoakWindowsModel::Failed), Qt::ToolTipRole)
                    .toString()
                    .contains(ErrorsModel::classTitle(FailureClass::HttpServerError)));
    }

    // A soak run from the window: its windows show as they close, in a chart that takes the load–latency
    // chart's place and in the Soak tab, each as windows.jsonl holds it; the whole soak's totals at the end;
    // the saved run opened as the Runs page opens one shows the same windows.
    void soakInTheWindow()
    {
        MainWindow window;
        window.controller()->setRunsDirectory(m_runs.filePath(QStringLiteral("soak")));
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        RunPage* page = window.runPage();
        LiveRun* run = page->run();
        SoakPanel* soak = page->soakPanel();
        QSignalSpy started(window.controller(), &SweepController::started);
        QSignalSpy finished(window.controller(), &SweepController::finished);
        QSignalSpy failed(window.controller(), &SweepController::failed);
        QSignalSpy closed(window.controller(), &SweepController::windowFinished);

        // Four seconds at 40 req/s in one-second windows (a light load for the test server).
        Profile profile = sweepProfile(m_sim.baseUrl().toString(), { 40 }, 12);
        profile.name = QStringLiteral("Soak");
        profile.slo = {};
        profile.load.soak = true;
        profile.load.soakDurationS = 4;
        profile.load.soakWindowS = 1;
        window.controller()->start(profile);
        QTRY_VERIFY_WITH_TIMEOUT(
            (run->currentStep() && run->liveWindows().size() >= 2 && run->timeline().closedBuckets() >= 1)
                || !finished.isEmpty() || !failed.isEmpty(),
            60000);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
        QVERIFY2(finished.isEmpty(), "the soak ended before the test saw two of its windows");
        const QString dir = started.constFirst().constFirst().value<RunInfo>().runDirectory;
        const QString windowsFile = dir + QStringLiteral("/steps/000.windows.jsonl");
        soak->refresh();
        QVERIFY(soak->chart()->isVisible());
        QVERIFY(!page->latencyChart()->isVisible());
        QCOMPARE(page->tabs()->currentWidget(), soak);
        const int shownLive = soak->model()->rowCount();
        QVERIFY(shownLive >= 2);
        QCOMPARE(soak->chart()->windowPoints(), shownLive);
        QVERIFY(soak->chart()->secondPoints() >= 1);
        QVERIFY2(soak->summaryText().contains(QStringLiteral("of 4 windows closed (1 s each)")),
            qPrintable(soak->summaryText()));
        QVERIFY2(soak->summaryText().contains(QStringLiteral(" left")), qPrintable(soak->summaryText()));
        {
            // Each window reached the window after its line was appended to the file.
            std::vector<SoakWindowFigures> written;
            QString error;
            QVERIFY2(readSoakWindows(windowsFile, &written, &error), qPrintable(error));
            QVERIFY(written.size() >= std::size_t(shownLive));
            written.resize(std::size_t(shownLive));
            QCOMPARE(soak->model()->windows(), written);
        }
        saveScreenshot(&window, QStringLiteral("soak-running"));

        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 120000);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
        soak->refresh();
        QFile file(windowsFile);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QList<QJsonObject> lines;
        for (const QByteArray& line : file.readAll().split('\n')) {
            if (!line.trimmed().isEmpty())
                lines << QJsonDocument::fromJson(line).object();
        }
        QVERIFY(lines.size() >= 4);
        QCOMPARE(closed.size(), lines.size());
        QCOMPARE(soak->model()->rowCount(), lines.size());
        QCOMPARE(soak->chart()->windowPoints(), lines.size());
        QCOMPARE(soak->chart()->showsPartial(), lines.constLast()[u"partial"].toBool());
        QVERIFY(soak->chart()->secondPoints() >= 3); // the step second by second, kept after it ended
        QVERIFY(page->liveChart()->sampleCount() <= int(LiveRun::kMaxLiveSamples));
        // The cells, against the file's own numbers.
        const QLocale locale;
        const std::pair<int, const char*> latencies[]
            = { { SoakWindowsModel::TtftP50, "ttft_ms/p50" }, { SoakWindowsModel::TtftP99, "ttft_ms/p99" },
                  { SoakWindowsModel::ItlP50, "itl_ms/p50" }, { SoakWindowsModel::ItlP99, "itl_ms/p99" },
                  { SoakWindowsModel::TpotP50, "tpot_ms/p50" }, { SoakWindowsModel::TpotP99, "tpot_ms/p99" },
                  { SoakWindowsModel::E2elP50, "e2el_ms/p50" }, { SoakWindowsModel::E2elP99, "e2el_ms/p99" } };
        QStringList shown;
        qint64 completed = 0, knownTtft = 0;
        for (int row = 0; row < lines.size(); ++row) {
            const QJsonObject& o = lines[row];
            const auto cell = [&](int column) { return soak->model()->index(row, column).data().toString(); };
            QCOMPARE(cell(SoakWindowsModel::Window),
                o[u"partial"].toBool() ? QStringLiteral("%1 (partial)").arg(o[u"window"].toInt() + 1)
                                       : QString::number(o[u"window"].toInt() + 1));
            QCOMPARE(cell(SoakWindowsModel::Sent), locale.toString(o[u"sent"].toInteger()));
            QCOMPARE(cell(SoakWindowsModel::Completed), locale.toString(o[u"completed"].toInteger()));
            QCOMPARE(cell(SoakWindowsModel::Failed), locale.toString(o[u"failed"].toInteger()));
            const QJsonValue rps = o[u"request_throughput"];
            const QJsonValue tokens = o[u"output_throughput"];
            QCOMPARE(
                cell(SoakWindowsModel::Rps), rps.isNull() ? UiFormat::unknown() : UiFormat::throughput(rps.toDouble()));
            QCOMPARE(cell(SoakWindowsModel::OutputTokens),
                tokens.isNull() ? UiFormat::unknown() : UiFormat::tokens(tokens.toDouble()));
            for (const auto& [column, path] : latencies) {
                const QStringList keys = QString::fromLatin1(path).split(u'/');
                const QJsonValue v = o[keys[0]].toObject()[keys[1]];
                QCOMPARE(cell(column), v.isNull() ? UiFormat::unknown() : UiFormat::ms(v.toDouble()));
                knownTtft += column == SoakWindowsModel::TtftP99 && !v.isNull() ? 1 : 0;
            }
            completed += o[u"completed"].toInteger();
            for (int column = 0; column < SoakWindowsModel::ColumnCount; ++column)
                shown << cell(column);
        }
        QVERIFY(knownTtft >= 3); // the full windows completed requests
        QCOMPARE(run->steps().size(), std::size_t(1));
        QCOMPARE(run->steps().front().metrics.completed, completed);
        QVERIFY2(soak->summaryText().contains(QStringLiteral("Whole soak")), qPrintable(soak->summaryText()));
        QVERIFY2(soak->summaryText().contains(QStringLiteral("%1 completed").arg(locale.toString(completed))),
            qPrintable(soak->summaryText()));
        QVERIFY2(soak->summaryText().contains(QStringLiteral("%1 windows").arg(lines.size())),
            qPrintable(soak->summaryText()));
        saveScreenshot(&window, QStringLiteral("soak-finished"));
        // Its seven legend entries fit under the plot at this width; in a narrower window they go beside it
        // rather than lose the last ones.
        QLegend* legend = soak->chart()->chart()->legend();
        QCOMPARE(legend->alignment(), Qt::AlignBottom);
        const QSize wide = window.size();
        window.resize(1000, wide.height());
        QTRY_COMPARE(legend->alignment(), Qt::AlignRight);
        saveScreenshot(&window, QStringLiteral("soak-narrow"));
        window.resize(wide);
        QTRY_COMPARE(legend->alignment(), Qt::AlignBottom);

        // Opened from the Runs page (a background job reads windows.jsonl): the same windows, cell for cell.
        QSignalSpy opened(&window, &MainWindow::savedRunOpened);
        QVERIFY(window.openSavedRun(dir));
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 60000);
        QVERIFY(opened.constFirst().at(1).toBool());
        soak->refresh();
        QCOMPARE(page->tabs()->currentWidget(), soak);
        QVERIFY(soak->chart()->isVisible());
        QCOMPARE(soak->model()->rowCount(), lines.size());
        QStringList reopened;
        for (int row = 0; row < lines.size(); ++row) {
            for (int column = 0; column < SoakWindowsModel::ColumnCount; ++column)
                reopened << soak->model()->index(row, column).data().toString();
        }
        QCOMPARE(reopened, shown);
        QCOMPARE(soak->chart()->windowPoints(), lines.size());
        QVERIFY(soak->chart()->secondPoints() >= 3); // from the records' timeline
        QVERIFY2(soak->summaryText().contains(QStringLiteral("%1 completed").arg(locale.toString(completed))),
            qPrintable(soak->summaryText()));
        saveScreenshot(&window, QStringLiteral("soak-opened"));

        // A kill can cut the last line short: the windows before it open, the cut one is named.
        QFile append(windowsFile);
        QVERIFY(append.open(QIODevice::Append));
        append.write("{\"window\": 99, \"start_s\"");
        append.close();
        QSignalSpy log(run, &LiveRun::logLine);
        QVERIFY(window.openSavedRun(dir));
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 2, 60000);
        QVERIFY(opened.at(1).at(1).toBool());
        soak->refresh();
        QCOMPARE(soak->model()->rowCount(), lines.size());
        bool named = false;
        for (const QList<QVariant>& line : std::as_const(log))
            named = named || line.constFirst().toString().contains(QStringLiteral("the last window is cut short"));
        QVERIFY(named);

        // An hour's soak writes a million records: past kSoakRecordsReadBytes of them the window opens the
        // soak by its windows alone and says where the records stay.
        const QString requestsFile = dir + QStringLiteral("/steps/000.requests.jsonl");
        {
            QFile records(requestsFile);
            QVERIFY(records.open(QIODevice::ReadWrite));
            const QByteArray written = records.readAll();
            QVERIFY(!written.isEmpty());
            while (records.size() <= kSoakRecordsReadBytes)
                records.write(written);
        }
        QVERIFY(window.openSavedRun(dir));
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 3, 60000);
        QVERIFY(opened.at(2).at(1).toBool());
        soak->refresh();
        QCOMPARE(soak->model()->rowCount(), lines.size());
        QCOMPARE(soak->chart()->windowPoints(), lines.size());
        const QString left = run->steps().front().noTimeline;
        QCOMPARE(soak->chart()->secondPoints(), 0);
        QVERIFY(run->steps().front().timeline.isEmpty());
        QVERIFY2(left.startsWith(QStringLiteral("the soak's request records (")) && left.endsWith(requestsFile),
            qPrintable(left));
        QVERIFY2(soak->summaryText().contains(QStringLiteral("No requests per second: the soak's request records")),
            qPrintable(soak->summaryText()));
        saveScreenshot(&window, QStringLiteral("soak-opened-large"));

        // Stopped after its first window: the window it stopped in is partial, ringed on the chart.
        window.controller()->start(profile);
        QTRY_VERIFY_WITH_TIMEOUT(
            (run->currentStep() && run->liveWindows().size() >= 1) || finished.size() > 1 || !failed.isEmpty(), 60000);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
        QCOMPARE(finished.size(), 1);
        run->requestStop();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 60000);
        soak->refresh();
        const int stoppedRows = soak->model()->rowCount();
        QVERIFY(stoppedRows >= 2);
        QVERIFY(soak->model()->windows().back().partial);
        QCOMPARE(soak->model()->index(stoppedRows - 1, SoakWindowsModel::Window).data().toString(),
            QStringLiteral("%1 (partial)").arg(stoppedRows));
        QVERIFY(soak->chart()->showsPartial());
        QVERIFY2(soak->summaryText().contains(QStringLiteral("Whole soak (stopped)")), qPrintable(soak->summaryText()));
        QVERIFY2(soak->summaryText().contains(QStringLiteral("the last partial")), qPrintable(soak->summaryText()));
        saveScreenshot(&window, QStringLiteral("soak-stopped"));

        // Any other run: no Soak tab, the load–latency chart back in its place.
        RunInfo info;
        info.profile = sweepProfile(m_sim.baseUrl().toString(), { 10 }, 10);
        QVERIFY(
            run->showSaved(info, { syntheticStep(0, 10, 9.9, 100, 150) }, RunAnalysis {}, LiveRun::State::Finished));
        QVERIFY(page->latencyChart()->isVisible());
        QVERIFY(!soak->chart()->isVisible());
        QVERIFY(!page->tabs()->isTabVisible(page->tabs()->indexOf(soak)));
    }

    void screenshots()
    {
        if (qEnvironmentVariableIsSet("KNEEPOINT_SKIP_SCREENSHOTS"))
            QSKIP("run as a test of its own: ctest -L screenshots");
        // A server of its own, slower than the shared one: the live screenshot is taken in the sixth
        // step once it has a few snapshots' worth of requests, so that step must last a few snapshots.
        // Half a second of arrivals a step: 75 requests in the sixth, past the knee, where they queue.
        constexpr double timeScale = 5;
        sim::SimHost slowSim;
        QVERIFY2(slowSim.start(smallServer(timeScale)), qPrintable(slowSim.errorString()));
        MainWindow window;
        window.controller()->setRunsDirectory(m_runs.filePath(QStringLiteral("screenshots")));
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.profilePage()->currentProfile().has_value());
        QVERIFY(!window.isShowingRun());
        saveScreenshot(&window, QStringLiteral("editor"));

        LiveRun* run = window.runPage()->run();
        QSignalSpy finished(window.controller(), &SweepController::finished);
        QSignalSpy failed(window.controller(), &SweepController::failed);
        Profile profile = sweepProfile(slowSim.baseUrl().toString(), kneeRates(timeScale), 40);
        profile.load.stepDurationS = 0.5;
        window.controller()->start(profile);
        QTRY_VERIFY_WITH_TIMEOUT((run->steps().size() >= 5 && run->currentStep() && run->liveSamples().size() > 15)
                || !failed.isEmpty() || !finished.isEmpty(),
            120000);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
        window.runPage()->liveChart()->redraw();
        saveScreenshot(&window, QStringLiteral("live-run"));

        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 180000);
        window.runPage()->liveChart()->redraw();
        saveScreenshot(&window, QStringLiteral("finished-run"));
        // Log scale, and the selected step's latency histogram.
        window.runPage()->latencyChart()->setLogScale(true);
        window.runPage()->details()->tabs()->setCurrentIndex(1);
        saveScreenshot(&window, QStringLiteral("finished-log-histogram"));
        window.runPage()->latencyChart()->setLogScale(false);
        window.runPage()->details()->tabs()->setCurrentIndex(0);

        // A sentence about the knee marks it on both charts.
        QListWidget* sentences = window.runPage()->analysisList();
        for (int i = 0; i < sentences->count(); ++i) {
            if (sentences->item(i)->data(Qt::UserRole).toInt() == int(AnalysisTopic::Knee))
                sentences->setCurrentRow(i);
        }
        window.runPage()->tabs()->setCurrentIndex(1);
        saveScreenshot(&window, QStringLiteral("finished-analysis"));

        // The Server tab: the simulator's queue and KV cache against load and during the last step,
        // and the environment the run records.
        auto* server = qobject_cast<ServerPanel*>(window.runPage()->tabs()->widget(5));
        QVERIFY(server);
        QCOMPARE(server->loadChart()->points().size(), run->steps().size());
        QVERIFY(!server->timeChart()->points().empty());
        QVERIFY2(
            server->environmentText().contains(QStringLiteral("max_model_len")), qPrintable(server->environmentText()));
        QVERIFY2(server->noteText().startsWith(QStringLiteral("vLLM metrics from")), qPrintable(server->noteText()));
        window.runPage()->tabs()->setCurrentIndex(5);
        saveScreenshot(&window, QStringLiteral("finished-server"));

        // The same in a dark palette: the charts follow it.
        const QPalette light = QApplication::palette();
        QPalette dark;
        dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
        dark.setColor(QPalette::WindowText, QColor(0xe0, 0xe0, 0xe0));
        dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        dark.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
        dark.setColor(QPalette::Text, QColor(0xe0, 0xe0, 0xe0));
        dark.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
        dark.setColor(QPalette::ButtonText, QColor(0xe0, 0xe0, 0xe0));
        dark.setColor(QPalette::Highlight, QColor(0x2a, 0x6f, 0xb0));
        dark.setColor(QPalette::HighlightedText, Qt::white);
        dark.setColor(QPalette::PlaceholderText, QColor(0x90, 0x90, 0x90));
        dark.setColor(QPalette::Link, QColor(0x6c, 0xb4, 0xee));
        for (QPalette::ColorRole role : { QPalette::WindowText, QPalette::Text, QPalette::ButtonText })
            dark.setColor(QPalette::Disabled, role, QColor(0x80, 0x80, 0x80));
        QApplication::setPalette(dark);
        QTRY_COMPARE(window.runPage()->latencyChart()->palette().color(QPalette::Base), QColor(0x1e, 0x1e, 0x1e));
        window.runPage()->tabs()->setCurrentIndex(0);
        saveScreenshot(&window, QStringLiteral("finished-run-dark"));
        QApplication::setPalette(light);
    }
};

QTEST_MAIN(TestRunPage)
#include "tst_runpage.moc"
