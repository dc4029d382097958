// Saved runs in the GUI and everything that leaves the application as a file: charts (PNG, SVG, PDF),
// run and comparison reports (HTML, Markdown, PDF), the steps table (CSV, JSON), the Runs page and the
// comparison view, and `kneepoint-cli export`. Fixtures: two recorded runs of the simulator under
// tests/data/export/runs; the Markdown report's tables are checked against a golden file.
#include "charts/comparechart.h"
#include "charts/gpuchart.h"
#include "charts/loadlatencychart.h"
#include "charts/paretochart.h"
#include "charts/prefixcachechart.h"
#include "charts/throughputchart.h"
#include "charts/ttftbreakdownchart.h"
#include "compare/compareview.h"
#include "export/chartexport.h"
#include "export/chartset.h"
#include "export/comparereport.h"
#include "export/runreport.h"
#include "kit/chartpanel.h"
#include "kit/jobtracker.h"
#include "kit/liverun.h"
#include "kit/openrun.h"
#include "kit/stepstablemodel.h"
#include "kit/sweepcontroller.h"
#include "kit/uiformat.h"
#include "run/exportactions.h"
#include "run/livestepchart.h"
#include "run/runpage.h"
#include "run/serverpanel.h"
#include "run/stepdetails.h"
#include "runs/importers.h"
#include "runs/runcatalog.h"
#include "runs/runsmodel.h"
#include "runs/runspage.h"
#include "runs/savedrun.h"
#include "runs/steptimeline.h"
#include "shell/mainwindow.h"
#include "sim/filelimit.h"
#include "sim/simhost.h"
#include "support/heldfifo.h"
#include "sweep/analysistext.h"
#include "sweep/capacityplan.h"
#include "twin/twin.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QComboBox>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFont>
#include <QFontMetricsF>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPainter>
#include <QPlainTextEdit>
#include <QProcess>
#include <QProgressBar>
#include <QRegularExpression>
#include <QSemaphore>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextCursor>
#include <QTextDocument>
#include <QThreadPool>
#include <QValueAxis>
#include <QXmlStreamReader>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

using namespace kp;
using namespace kp::ui;

namespace {

const QString kRunA = QStringLiteral("20261130-043500-sim-a");
const QString kRunB = QStringLiteral("20261130-043800-sim-b");
const QString kSecret = QStringLiteral("sk-kp-SECRET-4242");

// A copy of a fixture run under `to`, renamed, whose steps' server figures carry these prefix-cache
// hit rates (one per step, in step order) and KV-cache peaks.
bool withHitRates(const QString& from, const QString& to, const QString& name, const QList<double>& rates,
    const QList<double>& kvMax);

QString fixtureRoot()
{
    return QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/export/runs");
}

bool copyTree(const QString& from, const QString& to)
{
    if (!QDir().mkpath(to))
        return false;
    QDirIterator it(from, QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString target = to + path.mid(from.size());
        if (it.fileInfo().isDir()) {
            if (!QDir().mkpath(target))
                return false;
        } else if (!QFile::copy(path, target)) {
            return false;
        }
    }
    return true;
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

int distinctColours(const QImage& image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7) {
        for (int x = 0; x < image.width(); x += 5)
            colours.insert(image.pixel(x, y));
    }
    return int(colours.size());
}

QString screenshotDir()
{
    const QString dir = QDir(QCoreApplication::applicationDirPath()).absoluteFilePath(QStringLiteral("../screenshots"));
    QDir().mkpath(dir);
    return QDir::cleanPath(dir);
}

void saveScreenshot(QWidget* widget, const QString& name)
{
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    QCoreApplication::processEvents();
    const QString path = screenshotDir() + u'/' + name + QStringLiteral(".png");
    QVERIFY2(widget->grab().save(path), qPrintable(path));
    qInfo("screenshot: %s", qPrintable(path));
}

// The lines of a Markdown document that belong to tables.
QStringList tableLines(const QByteArray& markdown)
{
    QStringList lines;
    for (const QString& line : QString::fromUtf8(markdown).split(u'\n')) {
        if (line.startsWith(u'|'))
            lines << line;
    }
    return lines;
}

bool withHitRates(
    const QString& from, const QString& to, const QString& name, const QList<double>& rates, const QList<double>& kvMax)
{
    if (!copyTree(from, to))
        return false;
    const QString runJson = to + QStringLiteral("/run.json");
    QJsonObject run = QJsonDocument::fromJson(readAll(runJson)).object();
    run.insert(QLatin1String("name"), name);
    QJsonArray steps = run.value(QLatin1String("steps")).toArray();
    if (steps.size() != rates.size())
        return false;
    for (qsizetype i = 0; i < steps.size(); ++i) {
        QJsonObject entry = steps[i].toObject();
        ServerStepStats stats;
        stats.engine = QStringLiteral("vllm");
        stats.samples = 3;
        stats.kvUsageMean = kvMax[i] * 0.9;
        stats.kvUsageMax = kvMax[i];
        stats.prefixCacheQueries = 20000.0;
        stats.prefixCacheHits = 20000.0 * rates[i];
        stats.prefixCacheHitRate = rates[i];
        entry.insert(QLatin1String("server"), stats.toJson());
        steps[i] = entry;
    }
    run.insert(QLatin1String("steps"), steps);
    QFile f(runJson);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(QJsonDocument(run).toJson()) > 0;
}

} // namespace

class TestExport : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_root; // a copy of the fixture runs: the Runs page renames and deletes in it
    QString m_dirA, m_dirB;
    // Real sweeps of the simulator by kneepoint-cli, run once beside each other in initTestCase: a light
    // one (1 and 2 simulated req/s, 12 requests a step) of a server with two GPUs (cliGpuChart,
    // cliTimelineCsv) and one of a server with four batch slots that queue (cliTtftBreakdownChart).
    QString m_gpuRun, m_ttftRun;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("KneepointTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_export"));
        QSettings().clear();
        QVERIFY(m_tmp.isValid());
        m_root = m_tmp.filePath(QStringLiteral("runs"));
        QVERIFY(copyTree(fixtureRoot(), m_root));
        m_dirA = QDir(m_root).filePath(kRunA);
        m_dirB = QDir(m_root).filePath(kRunB);
        // A profile that had a key: a literal api_key and credential headers, as a careless writer
        // might have left them. None of it may reach a report.
        const QString runJson = m_dirA + QStringLiteral("/run.json");
        QJsonObject run = QJsonDocument::fromJson(readAll(runJson)).object();
        QJsonObject profile = run.value(QLatin1String("profile")).toObject();
        QJsonObject target = profile.value(QLatin1String("target")).toObject();
        target.insert(QLatin1String("api_key"), kSecret);
        QJsonObject headers;
        headers.insert(QLatin1String("Authorization"), QStringLiteral("Bearer ") + kSecret);
        headers.insert(QLatin1String("X-Api-Key"), kSecret);
        headers.insert(QLatin1String("X-Trace"), QStringLiteral("visible-trace"));
        target.insert(QLatin1String("headers"), headers);
        profile.insert(QLatin1String("target"), target);
        run.insert(QLatin1String("profile"), profile);
        QFile f(runJson);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QJsonDocument(run).toJson());
        f.close();

        // The two sweeps, each against a simulator at time scale 10 on a port of its own.
        sim::raiseFileLimit();
        sim::SimHost gpuServer;
        sim::SimServerOptions gpuOptions;
        gpuOptions.timeScale = 10;
        gpuOptions.gpus = 2;
        QVERIFY2(gpuServer.start(gpuOptions), qPrintable(gpuServer.errorString()));
        sim::SimHost ttftServer;
        sim::SimServerOptions ttftOptions;
        ttftOptions.timeScale = 10;
        ttftOptions.params.maxNumSeqs = 4;
        QVERIFY2(ttftServer.start(ttftOptions), qPrintable(ttftServer.errorString()));
        m_gpuRun = m_tmp.filePath(QStringLiteral("gpu-run"));
        m_ttftRun = m_tmp.filePath(QStringLiteral("ttft-run"));
        QProcess gpuSweep;
        gpuSweep.start(QStringLiteral(KNEEPOINT_CLI),
            { QStringLiteral("sweep"), QStringLiteral("--base-url"), gpuServer.baseUrl().toString(),
                QStringLiteral("--num-prompts"), QStringLiteral("12"), QStringLiteral("--request-rate"),
                QStringLiteral("10,20"), QStringLiteral("--random-input-len"), QStringLiteral("16"),
                QStringLiteral("--random-output-len"), QStringLiteral("16"), QStringLiteral("--quiet"),
                QStringLiteral("--out"), m_gpuRun });
        QProcess ttftSweep;
        ttftSweep.start(QStringLiteral(KNEEPOINT_CLI),
            { QStringLiteral("sweep"), QStringLiteral("--base-url"), ttftServer.baseUrl().toString(),
                QStringLiteral("--num-prompts"), QStringLiteral("24"), QStringLiteral("--request-rate"),
                QStringLiteral("10,80,400"), QStringLiteral("--random-input-len"), QStringLiteral("64"),
                QStringLiteral("--random-output-len"), QStringLiteral("32"), QStringLiteral("--quiet"),
                QStringLiteral("--out"), m_ttftRun });
        for (QProcess* sweep : { &gpuSweep, &ttftSweep }) {
            QVERIFY(sweep->waitForFinished(180000));
            QVERIFY2(sweep->exitStatus() == QProcess::NormalExit && sweep->exitCode() == 0,
                sweep->readAllStandardError().constData());
        }
    }

    void openSavedRun()
    {
        QString error;
        const std::optional<OpenedRun> opened = openRunDirectory(m_dirA, &error);
        QVERIFY2(opened, qPrintable(error));
        QCOMPARE(opened->meta.name, QStringLiteral("sim-a"));
        QCOMPARE(opened->steps.size(), std::size_t(7));
        QCOMPARE(opened->state, LiveRun::State::Finished);
        // P99 TTFT 37.8 ms at 40 req/s, 125 ms at 60, back to 50.7 ms at 120 and 22 ms at 160: one noisy
        // step, not a knee; the throughput saturates all the same.
        QVERIFY(!opened->analysis.result.knee.found);
        QVERIFY2(opened->analysis.result.knee.reason.text().startsWith(QStringLiteral("No knee in 20–160 req/s")),
            qPrintable(opened->analysis.result.knee.reason.text()));
        QVERIFY(opened->analysis.result.saturation.found);
        QCOMPARE(opened->analysis.result.saturation.offered, 120.0);
        QVERIFY(!opened->analysis.sentences.isEmpty());
        // The records were read: histograms as for a live run; the numbers are the result files'.
        const StepReport& first = opened->steps.front();
        QCOMPARE(first.index(), 0);
        QCOMPARE(first.load, QStringLiteral("10 req/s"));
        QCOMPARE(first.histograms.at(LatencyMetric::Ttft).total(), qint64(19));
        QVERIFY(first.clientBound);
        const SavedRunRead saved = readSavedRun(m_dirA);
        QVERIFY(saved.ok());
        for (std::size_t i = 0; i < opened->steps.size(); ++i)
            QCOMPARE(opened->steps[i].metrics, saved.run->steps[i].metrics);

        // Without records: the same numbers, no histograms.
        const std::optional<OpenedRun> light = openRunDirectory(m_dirA, &error, false);
        QVERIFY(light);
        QVERIFY(light->steps.front().histograms.at(LatencyMetric::Ttft).isEmpty());
        QCOMPARE(light->steps.back().metrics, opened->steps.back().metrics);
    }

    void chartFiles()
    {
        QString error;
        const std::optional<OpenedRun> opened = openRunDirectory(m_dirA, &error);
        QVERIFY(opened);
        LiveRun run(nullptr);
        QVERIFY(opened->showIn(&run));
        QCOMPARE(run.state(), LiveRun::State::Finished);
        ChartSet charts(&run);
        ChartOptions options;
        ChartPanel* panel = charts.panel(options);
        QCOMPARE(charts.latency()->pointCount(), 7);
        QVERIFY(!charts.latency()->kneeMarker().has_value()); // the words say there is none
        const ChartCaption caption = charts.caption(options, opened->meta);
        QVERIFY(caption.subtitle.contains(QStringLiteral("sim-a")));
        QVERIFY(caption.subtitle.contains(QStringLiteral("2026-11-30 04:35")));
        QVERIFY(caption.subtitle.contains(QStringLiteral("built-in simulator (preset default, time scale 5)")));

        // PNG at 1× and 2×.
        const QImage one = QImage::fromData(ChartExport::png(panel, caption, ChartExport::kDefaultSize, 1.0), "PNG");
        QCOMPARE(one.size(), QSize(1200, 720));
        QVERIFY2(distinctColours(one) > 20, "the chart image is nearly uniform");
        const QImage two = QImage::fromData(ChartExport::png(panel, caption, ChartExport::kDefaultSize, 2.0), "PNG");
        QCOMPARE(two.size(), QSize(2400, 1440));
        QVERIFY(distinctColours(two) > 20);
        QVERIFY(two.save(screenshotDir() + QStringLiteral("/export-latency@2x.png")));

        // SVG: well-formed XML with the run and the series in it.
        const QByteArray svg = ChartExport::svg(panel, caption);
        QXmlStreamReader xml(svg);
        int elements = 0;
        while (!xml.atEnd()) {
            if (xml.readNext() == QXmlStreamReader::StartElement)
                ++elements;
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(elements > 50);
        QVERIFY(svg.contains("sim-a"));
        QVERIFY(svg.contains("P99 TTFT"));

        // PDF: one page.
        const QByteArray pdf = ChartExport::pdf(panel, caption);
        QVERIFY(pdf.startsWith("%PDF-"));
        QCOMPARE(pdf.count(QByteArrayLiteral("/Type /Page\n")) + pdf.count(QByteArrayLiteral("/Type /Page\r")),
            qsizetype(1));

        // The throughput chart, and a file written through the same path the menu and the CLI use.
        ChartOptions throughput;
        throughput.kind = ChartKind::Throughput;
        const QString file = m_tmp.filePath(QStringLiteral("throughput.svg"));
        QVERIFY2(ChartExport::write(charts.panel(throughput), charts.caption(throughput, opened->meta),
                     ChartFileFormat::Svg, file, ChartExport::kDefaultSize, 1.0, &error),
            qPrintable(error));
        QVERIFY(readAll(file).contains("achieved req/s"));
        QVERIFY(!ChartExport::write(panel, caption, ChartFileFormat::Png,
            m_tmp.filePath(QStringLiteral("no/such/dir/x.png")), ChartExport::kDefaultSize, 1.0, &error));
        QVERIFY(error.contains(QStringLiteral("no/such/dir/x.png")));
    }

    // A figure a file states as 0.0 is exported as 0, not as an empty cell or null.
    void statedZeroIsExported()
    {
        QByteArray line = readAll(
            QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/import/real/sglang/old/llama_3_3_70b_online_output.jsonl"))
                              .split('\n')
                              .front();
        line.replace("\"median_itl_ms\": 13.638956006616354", "\"median_itl_ms\": 0.0");
        const QString path = m_tmp.filePath(QStringLiteral("zero.jsonl"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(line) == line.size());
        f.close();
        const ImportResult imported = importRun({ path }, m_tmp.filePath(QStringLiteral("zero-runs")));
        QVERIFY2(imported.ok(), qPrintable(imported.error));
        QString error;
        const std::optional<OpenedRun> opened = openRunDirectory(imported.dir, &error);
        QVERIFY2(opened, qPrintable(error));
        LiveRun run(nullptr);
        opened->showIn(&run);
        const RunReport report(&run, opened->meta);
        const QStringList csv = QString::fromUtf8(report.stepsCsv()).split(u'\n', Qt::SkipEmptyParts);
        const QStringList header = csv[0].split(u',');
        const QStringList row = csv[1].split(u',');
        QCOMPARE(row[header.indexOf(QStringLiteral("itl_p50_ms"))], QStringLiteral("0"));
        QCOMPARE(row[header.indexOf(QStringLiteral("itl_mean_ms"))], QString());
        QCOMPARE(row[header.indexOf(QStringLiteral("ttft_p50_ms"))], QStringLiteral("85.74514743"));
    }

    void runReports()
    {
        QString error;
        const std::optional<OpenedRun> opened = openRunDirectory(m_dirA, &error);
        QVERIFY(opened);
        LiveRun run(nullptr);
        opened->showIn(&run);
        const RunReport report(&run, opened->meta);
        // The HTML and the PDF from one document, as html() and pdf() make each (its charts drawn once).
        const ReportDoc doc = report.document();

        // Self-contained HTML: no network reference of any kind, no key.
        const QByteArray html = doc.html(ReportDoc::ImageMode::DataUri);
        QVERIFY(html.startsWith("<!DOCTYPE html>"));
        for (const char* bad :
            { "http://", "https://", "src=\"//", "href=\"//", "url(", "@import", "<script", "<link" })
            QVERIFY2(!html.contains(bad), bad);
        QVERIFY(!html.contains(kSecret.toUtf8()));
        QVERIFY(!html.contains("SECRET"));
        QVERIFY(html.contains("visible-trace")); // other headers stay
        static const QRegularExpression src(QStringLiteral("src=\"([^\"]{0,30})"));
        int images = 0;
        for (auto it = src.globalMatch(QString::fromUtf8(html)); it.hasNext();) {
            QVERIFY(it.next().captured(1).startsWith(QLatin1String("data:image/png;base64,")));
            ++images;
        }
        QCOMPARE(images, 9); // the two load charts, the Pareto front, and two timeline charts of each of three steps
        QVERIFY(html.contains("Knee and capacity"));
        QVERIFY(html.contains("No knee in 20–160 req/s"));
        QVERIFY(html.contains("Step 4 (60 req/s) is an outlier"));
        QVERIFY(html.contains("Debian")); // the client environment as recorded

        // Markdown, as write() puts it on disk: the tables as the golden file has them, the charts beside it,
        // each one the text names written as a file of its own.
        const QString outDir = m_tmp.filePath(QStringLiteral("out"));
        QDir().mkpath(outDir);
        QVERIFY2(report.write(ReportFormat::Markdown, outDir + QStringLiteral("/sim-a.md"), &error), qPrintable(error));
        const QByteArray md = readAll(outDir + QStringLiteral("/sim-a.md"));
        std::vector<std::pair<QString, QByteArray>> images2;
        static const QRegularExpression link(QStringLiteral("!\\[[^\\]]*\\]\\(([^)]+)\\)"));
        for (auto it = link.globalMatch(QString::fromUtf8(md)); it.hasNext();) {
            const QString name = it.next().captured(1);
            images2.emplace_back(name, readAll(outDir + u'/' + name));
            QVERIFY2(!QImage::fromData(images2.back().second).isNull(), qPrintable(name));
        }
        QCOMPARE(images2.size(), std::size_t(9));
        QCOMPARE(images2[0].first, QStringLiteral("sim-a-latency.png"));
        QCOMPARE(images2[1].first, QStringLiteral("sim-a-throughput.png"));
        // Seven steps with records and no knee: the step of the highest output throughput (160 req/s, step 7)
        // and its neighbours, second by second.
        QVERIFY(md.contains("Steps 5, 6, 7, around the highest output throughput, second by second (of 7 steps "
                            "with request records;"));
        QCOMPARE(images2[2].first, QStringLiteral("sim-a-pareto.png"));
        QVERIFY(md.contains("![Interactivity against throughput: the Pareto front]"));
        QStringList timelineImages;
        for (std::size_t i = 3; i < images2.size(); ++i)
            timelineImages << images2[i].first;
        QCOMPARE(timelineImages,
            (QStringList { QStringLiteral("sim-a-timeline-step5.png"),
                QStringLiteral("sim-a-timeline_latency-step5.png"), QStringLiteral("sim-a-timeline-step6.png"),
                QStringLiteral("sim-a-timeline_latency-step6.png"), QStringLiteral("sim-a-timeline-step7.png"),
                QStringLiteral("sim-a-timeline_latency-step7.png") }));
        QVERIFY(
            md.contains("![Step 7 · 160 req/s, second by second · TTFT and ITL](sim-a-timeline_latency-step7.png)"));
        QVERIFY(md.contains("![Load–latency"));
        QVERIFY(!md.contains(kSecret.toUtf8()));
        const QString golden = QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/export/report-sim-a.tables.md");
        const QStringList tables = tableLines(md);
        if (qEnvironmentVariableIsSet("KNEEPOINT_UPDATE_GOLDEN")) {
            QFile out(golden);
            QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
            out.write((tables.join(u'\n') + u'\n').toUtf8());
        }
        const QStringList expected = QString::fromUtf8(readAll(golden)).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(tables, expected);

        // The PDF.
        const QByteArray pdf = doc.pdf();
        QVERIFY(pdf.startsWith("%PDF-"));
        QVERIFY(pdf.count(QByteArrayLiteral("/Type /Page\n")) >= 2);

        // The steps table.
        const QStringList csv = QString::fromUtf8(report.stepsCsv()).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(csv.size(), 8);
        QVERIFY(csv[0].startsWith(QLatin1String("step,load,offered,unit,purpose,completed,failed")));
        QVERIFY(csv[0].contains(QLatin1String("ttft_p99_ms")));
        QVERIFY(csv[3].startsWith(QLatin1String("3,40 req/s,40,req/s,")));
        const QJsonObject json = QJsonDocument::fromJson(report.stepsJson()).object();
        QCOMPARE(json.value(QLatin1String("steps")).toArray().size(), 7);
        QCOMPARE(json.value(QLatin1String("run")).toObject().value(QLatin1String("name")).toString(),
            QStringLiteral("sim-a"));
        QCOMPARE(
            json.value(QLatin1String("steps")).toArray().at(2).toObject().value(QLatin1String("offered")).toDouble(),
            40.0);
    }

    void redaction()
    {
        QJsonObject o;
        o.insert(QLatin1String("api_key"), QStringLiteral("abc"));
        o.insert(QLatin1String("token_env"), QStringLiteral("${TOKEN}"));
        QJsonObject h;
        h.insert(QLatin1String("Authorization"), QStringLiteral("Bearer x"));
        h.insert(QLatin1String("x-goog-api-key"), QStringLiteral("y"));
        h.insert(QLatin1String("Accept"), QStringLiteral("text/event-stream"));
        o.insert(QLatin1String("headers"), h);
        const QJsonObject r = redactSecrets(o);
        QCOMPARE(r.value(QLatin1String("api_key")).toString(), redactedPlaceholder());
        QCOMPARE(r.value(QLatin1String("token_env")).toString(), QStringLiteral("${TOKEN}"));
        const QJsonObject rh = r.value(QLatin1String("headers")).toObject();
        QCOMPARE(rh.value(QLatin1String("Authorization")).toString(), redactedPlaceholder());
        QCOMPARE(rh.value(QLatin1String("x-goog-api-key")).toString(), redactedPlaceholder());
        QCOMPARE(rh.value(QLatin1String("Accept")).toString(), QStringLiteral("text/event-stream"));
    }

    // A twin's prediction saved as a run: the runs list, the compare view and report, the run's report
    // and its exported chart all say predicted.
    void predictedRun()
    {
        twin::Twin t;
        t.params = sim::presetByName(QStringLiteral("small"))->params;
        t.sourceRuns = QStringList { kRunA };
        for (int i = 0; i < 60; ++i)
            t.workload.push_back({ 200, 50 + i, -1 });
        t.requestsPerStep = 60;
        twin::SavedPredictionSpec spec;
        spec.twinFile = QStringLiteral("twin.json");
        spec.label = QStringLiteral("what-if");
        spec.points = twin::predict(t, { { LoadMode::Rate, 5 }, { LoadMode::Rate, 10 }, { LoadMode::Rate, 20 } }, {});
        for (const SweepPoint& p : spec.points) {
            StepSetup setup;
            setup.requestRate = p.offered;
            spec.setups.push_back(setup);
        }
        QTemporaryDir root;
        const twin::SavedPrediction saved = twin::savePrediction(t, spec, root.path());
        QVERIFY2(!saved.dir.isEmpty(), qPrintable(saved.error));
        const QString sentence = QStringLiteral(
            "Predicted by a twin fitted to 20261130-043500-sim-a, without overrides; not a measurement");

        RunsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy modelLoaded(&model, &RunsModel::reloaded);
        model.setCatalog(RunCatalog(root.path())); // read in the background
        QVERIFY(modelLoaded.wait(20000));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(
            model.index(0, RunsModel::Status).data().toString(), QStringLiteral("finished (predicted, not measured)"));
        QCOMPARE(model.index(0, RunsModel::Target).data().toString(),
            QStringLiteral("twin of 20261130-043500-sim-a (predicted)"));
        QVERIFY(model.index(0, RunsModel::Name).data(Qt::FontRole).value<QFont>().italic());
        QVERIFY(model.index(0, RunsModel::Name).data(RunsModel::FilterRole).toString().contains(u"predicted"));

        CompareView view;
        QString error;
        QVERIFY2(view.openRuns({ m_dirA, saved.dir }, &error), qPrintable(error));
        QCOMPARE(view.chart()->seriesName(0), QStringLiteral("sim-a (baseline)"));
        QCOMPARE(view.chart()->seriesName(1), QStringLiteral("what-if (predicted)"));
        QCOMPARE(view.chart()->seriesPenStyle(0), Qt::SolidLine);
        QCOMPARE(view.chart()->seriesPenStyle(1), Qt::DashLine);
        const QByteArray compareHtml = CompareReport(&view.runs(), &view.comparison()).document().html();
        QVERIFY(compareHtml.contains(QStringLiteral("what-if: %1").arg(sentence).toUtf8()));
        QVERIFY(compareHtml.contains("what-if (predicted)"));

        const std::optional<OpenedRun> opened = openRunDirectory(saved.dir, &error);
        QVERIFY2(opened, qPrintable(error));
        QVERIFY(opened->meta.predicted());
        QCOMPARE(opened->meta.predictionLine(), sentence);
        LiveRun run(nullptr);
        QVERIFY(opened->showIn(&run));
        ChartSet charts(&run);
        ChartOptions options;
        charts.panel(options);
        const ChartCaption caption = charts.caption(options, opened->meta);
        QCOMPARE(caption.title, QStringLiteral("Load–latency · P99 TTFT and P50 TTFT (predicted)"));
        QVERIFY2(caption.subtitle.startsWith(QStringLiteral("predicted, not measured · what-if")),
            qPrintable(caption.subtitle));
        const RunReport report(&run, opened->meta);
        const QByteArray html = report.html();
        QVERIFY(html.contains(sentence.toUtf8()));
        QVERIFY(html.contains("No per-request records: predicted"));
        const QJsonObject steps = QJsonDocument::fromJson(report.stepsJson()).object();
        QCOMPARE(steps.value(u"run").toObject().value(u"predicted").toBool(), true);
        QCOMPARE(steps.value(u"run").toObject().value(u"prediction").toString(), sentence);
        QCOMPARE(steps.value(u"steps").toArray().at(0).toObject().value(u"predicted").toBool(), true);
    }

    void compare()
    {
        CompareView view;
        QString error;
        QVERIFY2(view.openRuns({ m_dirA, m_dirB }, &error), qPrintable(error));
        QCOMPARE(view.chart()->seriesCount(), 2);
        QCOMPARE(view.chart()->seriesName(0), QStringLiteral("sim-a (baseline)"));
        QCOMPARE(view.chart()->seriesName(1), QStringLiteral("sim-b"));
        QVERIFY(view.deltasTable()->rowCount() > 0);
        QCOMPARE(view.findingsTable()->columnCount(), 3);
        QVERIFY(view.differencesTable()->rowCount() > 0); // max_concurrency, seed, ...
        view.setBaseline(1);
        QCOMPARE(view.comparison().baseline, 1);
        QCOMPARE(view.chart()->seriesName(1), QStringLiteral("sim-b (baseline)"));
        view.setMetric(CompareMetric::Throughput);
        QCOMPARE(view.chart()->curveTitle(), QStringLiteral("Throughput (req/s)"));
        view.setMetric(CompareMetric::Ttft);
        view.setBaseline(0);
        view.resize(1280, 800);
        view.show();
        saveScreenshot(&view, QStringLiteral("export-compare"));

        const CompareReport report(&view.runs(), &view.comparison());
        const QByteArray html = report.document().html();
        for (const char* bad : { "http://", "https://", "src=\"//", "url(" })
            QVERIFY2(!html.contains(bad), bad);
        QVERIFY(!html.contains("SECRET"));
        QVERIFY(html.contains("Deltas against sim-a"));
        QVERIFY(report.deltasTable().rows.size() > 0);
        const QString path = m_tmp.filePath(QStringLiteral("compare.md"));
        QVERIFY2(report.write(ReportFormat::Markdown, path, &error), qPrintable(error));
        QVERIFY(!QImage(m_tmp.filePath(QStringLiteral("compare-ttft.png"))).isNull());
        QVERIFY(readAll(path).contains("| Knee |"));
    }

    // Compared runs' interactivity–throughput fronts, one per run in its colour; a run's own front exports
    // like its other charts, with the loads on the front in the caption.
    void paretoCompareAndExport()
    {
        CompareView view;
        QString error;
        QVERIFY2(view.openRuns({ m_dirA, m_dirB }, &error), qPrintable(error));
        ParetoChart* chart = view.paretoChart();
        QCOMPARE(chart->fronts().size(), std::size_t(2));
        for (std::size_t i = 0; i < 2; ++i) {
            const ParetoSeries& s = chart->fronts()[i];
            QCOMPARE(s.name, view.runs()[i].name);
            QCOMPARE(s.color, CompareChart::runColor(int(i)));
            QVERIFY(!s.front.optimal().empty());
            // Every point on the front: no other point of the run is at least as good on both axes.
            for (const ParetoPoint& p : s.front.points) {
                const bool beaten
                    = std::any_of(s.front.points.begin(), s.front.points.end(), [&](const ParetoPoint& q) {
                          return q.perUser >= p.perUser && q.perUnit >= p.perUnit && !(q == p);
                      });
                QCOMPARE(p.optimal, !beaten);
                // The fixtures are per server: output throughput itself, and 1000 / median TPOT.
                const SweepPoint& step = view.runs()[i].sweepPoints()[std::size_t(p.step)];
                QCOMPARE(p.perUnit, step.metrics.outputThroughput);
                QCOMPARE(p.perUser, 1000.0 / step.metrics.tpot.median);
            }
        }
        QCOMPARE(chart->verticalTitle(), QStringLiteral("tok/s per server"));
        view.resize(1280, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        qobject_cast<QTabWidget*>(chart->parentWidget()->parentWidget())->setCurrentWidget(chart);
        saveScreenshot(&view, QStringLiteral("export-compare-pareto"));

        const CompareReport report(&view.runs(), &view.comparison());
        std::vector<std::pair<QString, QByteArray>> images;
        report.document(QStringLiteral("fronts")).markdown(&images);
        QVERIFY(std::any_of(images.begin(), images.end(),
            [](const auto& image) { return image.first == QStringLiteral("fronts-pareto.png"); }));

        const std::optional<OpenedRun> opened = openRunDirectory(m_dirA, &error);
        QVERIFY2(opened, qPrintable(error));
        SweepController controller;
        RunPage page(&controller);
        QVERIFY(opened->showIn(page.run()));
        ChartSet charts(page.run());
        ChartOptions options;
        options.kind = *ChartOptions::kindFromKey(QStringLiteral("pareto"));
        QCOMPARE(ChartOptions::kindKey(options.kind), QStringLiteral("pareto"));
        ChartPanel* panel = charts.panel(options);
        const ChartCaption caption = charts.caption(options, opened->meta);
        QCOMPARE(caption.title, QStringLiteral("Interactivity against throughput: the Pareto front"));
        const ParetoFront& front = charts.pareto()->fronts()[0].front;
        QStringList loads;
        for (const ParetoPoint& p : front.optimal())
            loads << UiFormat::load(p.offered);
        QVERIFY2(
            caption.note.startsWith(QStringLiteral("on the front: %1 req/s").arg(loads.join(QStringLiteral(", ")))),
            qPrintable(caption.note));
        const QString png = m_tmp.filePath(QStringLiteral("pareto.png"));
        QVERIFY2(ChartExport::write(panel, caption, ChartFileFormat::Png, png, ChartExport::kDefaultSize, 1.0, &error),
            qPrintable(error));
        QCOMPARE(QImage(png).size(), ChartExport::kDefaultSize);
    }

    // A run with prefix caching against the same kind of run without: the hit rate is a metric of the
    // comparison, and the run's hit-rate chart exports like the others.
    void prefixCacheCompareAndExport()
    {
        const QString on = m_tmp.filePath(QStringLiteral("cache/20261201-090000-cache-on"));
        const QString off = m_tmp.filePath(QStringLiteral("cache/20261201-093000-cache-off"));
        QVERIFY(withHitRates(m_dirA, on, QStringLiteral("cache on"), { 0.80, 0.79, 0.72, 0.60, 0.40, 0.30, 0.25 },
            { 0.3, 0.5, 0.8, 0.97, 1.0, 1.0, 1.0 }));
        QVERIFY(
            withHitRates(m_dirB, off, QStringLiteral("cache off"), { 0, 0, 0, 0, 0, 0 }, { 0.3, 0.6, 0.9, 1, 1, 1 }));

        CompareView view;
        QString error;
        QVERIFY2(view.openRuns({ on, off }, &error), qPrintable(error));
        const int item = view.metricBox()->findData(int(CompareMetric::PrefixCacheHitRate));
        QVERIFY(item >= 0);
        QCOMPARE(view.metricBox()->itemText(item), QStringLiteral("Prefix-cache hit rate"));
        view.metricBox()->setCurrentIndex(item);
        QCOMPARE(view.comparison().metric, CompareMetric::PrefixCacheHitRate);
        QVERIFY(!view.statisticBox()->isEnabled());
        QCOMPARE(view.chart()->curveTitle(), QStringLiteral("Prefix-cache hit rate (%)"));
        QCOMPARE(view.chart()->seriesCount(), 2);
        QCOMPARE(view.chart()->pointCount(0), 7);
        QCOMPARE(view.chart()->pointCount(1), 6);
        QList<double> onValues;
        for (const ComparePoint& p : view.comparison().curves[0].points)
            onValues << std::round(*p.value * 1000) / 1000;
        QCOMPARE(onValues, (QList<double> { 80, 79, 72, 60, 40, 30, 25 }));
        QCOMPARE(*view.comparison().curves[1].points[1].value, 0.0);
        // Against the cached run at 30 req/s (interpolated: 75.5%), the uncached one has none of it.
        const CompareDelta& d = view.comparison().deltas[1][1];
        QCOMPARE(d.offered, 30.0);
        QVERIFY(d.interpolated);
        QCOMPARE(*d.baselineValue, 75.5);
        QCOMPARE(*d.percent, -100.0);
        view.resize(1280, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        saveScreenshot(&view, QStringLiteral("export-compare-prefix-cache"));

        const CompareReport report(&view.runs(), &view.comparison());
        std::vector<std::pair<QString, QByteArray>> images;
        const QByteArray md = report.document(QStringLiteral("cache")).markdown(&images);
        QVERIFY2(md.contains("80.0%") && md.contains("-100.0%"), md.constData());
        QVERIFY(std::any_of(images.begin(), images.end(),
            [](const auto& image) { return image.first == QStringLiteral("cache-prefix_cache_hit_rate.png"); }));

        // Runs that report no hit rate: the chart says so instead of an empty plot.
        CompareView plain;
        QVERIFY2(plain.openRuns({ m_dirA, m_dirB }, &error), qPrintable(error));
        plain.setMetric(CompareMetric::PrefixCacheHitRate);
        QCOMPARE(plain.chart()->seriesCount(), 0);
        QCOMPARE(plain.chart()->placeholder(),
            QStringLiteral("No prefix-cache figures in these runs: their servers reported no cached tokens."));
        QCOMPARE(plain.comparison().curves[0].points[0].missing, QStringLiteral("no cached tokens reported"));

        // The run's own hit-rate chart: on the run page, and exported with a caption.
        const std::optional<OpenedRun> opened = openRunDirectory(on, &error);
        QVERIFY2(opened, qPrintable(error));
        // The fixture's 10 req/s step is client-bound and left out of the analysis: the peak is at 20 req/s.
        QStringList sentences;
        for (const AnalysisSentence& s : opened->analysis.sentences)
            sentences << s.text;
        QVERIFY2(sentences.contains(QStringLiteral(
                     "The prefix-cache hit rate fell from 79% to 25% from 40 req/s on, as the KV cache filled and "
                     "evicted prefixes (the server's figures).")),
            qPrintable(sentences.join(u'\n')));
        SweepController controller;
        RunPage page(&controller);
        QVERIFY(opened->showIn(page.run()));
        QCOMPARE(page.prefixCacheChart()->serverPoints().size(), std::size_t(7));
        QVERIFY(page.prefixCacheChart()->clientPoints().empty());
        page.resize(1280, 800);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        saveScreenshot(&page, QStringLiteral("export-runpage-prefix-cache"));

        ChartSet charts(page.run());
        ChartOptions options;
        options.kind = *ChartOptions::kindFromKey(QStringLiteral("prefix_cache"));
        QCOMPARE(ChartOptions::kindKey(options.kind), QStringLiteral("prefix_cache"));
        ChartPanel* panel = charts.panel(options);
        const ChartCaption caption = charts.caption(options, opened->meta);
        QCOMPARE(caption.title, QStringLiteral("Prefix-cache hit rate against offered load"));
        QVERIFY2(caption.note.startsWith(QStringLiteral("server: its /metrics prefix-cache figures")),
            qPrintable(caption.note));
        const QString png = m_tmp.filePath(QStringLiteral("prefix-cache.png"));
        QVERIFY2(ChartExport::write(panel, caption, ChartFileFormat::Png, png, ChartExport::kDefaultSize, 1.0, &error),
            qPrintable(error));
        QCOMPARE(QImage(png).size(), ChartExport::kDefaultSize);
        QVERIFY(QImage(png).save(screenshotDir() + QStringLiteral("/export-prefix-cache-chart.png")));
        // The report shows the chart for this run, and none for a run without figures.
        images.clear();
        RunReport(page.run(), opened->meta).markdown(QStringLiteral("on"), &images);
        QVERIFY(std::any_of(images.begin(), images.end(),
            [](const auto& image) { return image.first == QStringLiteral("on-prefix_cache.png"); }));
        // (runReports checks the report of sim-a, a run without cache figures: its nine images, each named,
        // have no prefix_cache chart among them.)
    }

    void runPageShowsSavedRun()
    {
        SweepController controller;
        RunPage page(&controller);
        QString error;
        const std::optional<OpenedRun> opened = openRunDirectory(m_dirA, &error);
        QVERIFY(opened);
        QVERIFY(opened->showIn(page.run()));
        QCOMPARE(page.stepsModel()->rowCount(), 7);
        QCOMPARE(page.latencyChart()->pointCount(), 7);
        QCOMPARE(page.throughputChart()->pointCount(), 7);
        QVERIFY(!page.latencyChart()->kneeMarker().has_value());
        QVERIFY(page.analysisList()->count() > 3);
        QVERIFY(page.progressText().contains(QStringLiteral("Finished")));
        page.resize(1280, 800);
        page.show();
        saveScreenshot(&page, QStringLiteral("export-runpage-saved"));
    }

    // vLLM's result files, imported: they give statistics without sample counts, and the charts and
    // the steps table still show every step's latency.
    void runPageShowsImportedRun()
    {
        QTemporaryDir runs;
        const ImportResult imported
            = importRun({ QFINDTESTDATA("data/results/vllm-sweep") }, runs.path(), ImportOptions {});
        QVERIFY2(imported.ok(), qPrintable(imported.error));
        SweepController controller;
        RunPage page(&controller);
        QString error;
        const std::optional<OpenedRun> opened = openRunDirectory(imported.dir, &error);
        QVERIFY2(opened, qPrintable(error));
        QVERIFY(opened->showIn(page.run()));
        QCOMPARE(page.stepsModel()->rowCount(), 6);
        QCOMPARE(page.latencyChart()->pointCount(), 6);
        QCOMPARE(page.throughputChart()->pointCount(), 6);
        QVERIFY(page.latencyChart()->kneeMarker().has_value());
        QCOMPARE(page.latencyChart()->kneeMarker()->x(), 30.0); // 230 ms, before 600 ms at 40 req/s
        const QModelIndex p99 = page.stepsModel()->index(0, StepsTableModel::TtftUpper);
        QCOMPARE(page.stepsModel()->data(p99).toString(), QStringLiteral("200"));
        page.resize(1280, 800);
        page.show();
        saveScreenshot(&page, QStringLiteral("export-runpage-imported"));

        // Capacity planning in the Analysis tab: the plan joins the analysis and the report.
        const int sentences = page.analysisList()->count();
        page.peakDemandEdit()->setText(QStringLiteral("1000 req/s"));
        page.redundancyEdit()->setText(QStringLiteral("N+2"));
        Redundancy spares;
        spares.kind = Redundancy::Kind::Spares;
        spares.spares = 2;
        const CapacityPlan expected
            = CapacityPlan::fromAnalysis(page.run()->analysis().result, { 1000, DemandUnit::RequestsPerS }, spares);
        QVERIFY2(expected.ok(), qPrintable(expected.error.text()));
        QCOMPARE(page.analysisList()->count(), sentences + 1);
        QListWidgetItem* planItem = page.analysisList()->item(0); // first: it answers the question
        QCOMPARE(planItem->text(), expected.sentence());
        QVERIFY2(planItem->text().contains(QStringLiteral("(%1 with N+2)").arg(expected.serversWithRedundancy)),
            qPrintable(planItem->text()));
        QCOMPARE(expected.serversWithRedundancy, expected.servers + 2);
        std::vector<std::pair<QString, QByteArray>> images;
        const QByteArray markdown = RunReport(page.run(), {}).markdown(QStringLiteral("imported"), &images);
        QVERIFY(markdown.contains(expected.sentence().toUtf8()));
        page.tabs()->setCurrentIndex(1);
        saveScreenshot(&page, QStringLiteral("export-runpage-capacity-plan"));
        // A demand that does not parse: a message at the field, and no plan.
        page.peakDemandEdit()->setText(QStringLiteral("lots"));
        QCOMPARE(page.analysisList()->count(), sentences);
        auto* message = page.findChild<QLabel*>(QStringLiteral("plan.message"));
        QVERIFY(message && message->isVisibleTo(&page));
        QVERIFY2(message->text().contains(QStringLiteral("\"lots\" is not a demand")), qPrintable(message->text()));
        page.peakDemandEdit()->clear();
        page.redundancyEdit()->clear();
        QVERIFY(!message->isVisibleTo(&page));
        QCOMPARE(page.analysisList()->count(), sentences);

        // Squeezed, the small charts keep room for every label of their vertical axes: fewer ticks.
        page.resize(1000, 480);
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QCoreApplication::processEvents();
        for (ChartPanel* panel :
            { static_cast<ChartPanel*>(page.throughputChart()), static_cast<ChartPanel*>(page.liveChart()) }) {
            const QRectF plot = panel->chart()->plotArea();
            QVERIFY2(plot.height() < 150, qPrintable(QString::number(plot.height())));
            for (QAbstractAxis* a : panel->chart()->axes(Qt::Vertical)) {
                auto* axis = qobject_cast<QValueAxis*>(a);
                QVERIFY(axis);
                const double labels = std::floor((axis->max() - axis->min()) / axis->tickInterval() + 1e-9) + 1;
                const double line = QFontMetricsF(axis->labelsFont()).height();
                QVERIFY2(labels * line <= plot.height(),
                    qPrintable(QStringLiteral("%1: %2 labels of %3 px in %4 px")
                                   .arg(panel->title())
                                   .arg(labels)
                                   .arg(line)
                                   .arg(plot.height())));
            }
        }
        saveScreenshot(&page, QStringLiteral("export-runpage-imported-small"));
    }

    // A saved run with server telemetry: the reopened run's Server tab has the charts the live run had,
    // its analysis reads the server's numbers, and the report has the environment and a server table.
    void savedRunWithServerTelemetry()
    {
        const QString dir = m_tmp.filePath(QStringLiteral("telemetry/20261130-043500-telemetry"));
        QVERIFY(copyTree(m_dirA, dir));
        const QString runJson = dir + QStringLiteral("/run.json");
        QJsonObject run = QJsonDocument::fromJson(readAll(runJson)).object();
        QJsonObject environment = run.value(QLatin1String("environment")).toObject();
        QJsonObject reported;
        reported.insert(QLatin1String("server"), QStringLiteral("kneepoint-sim"));
        reported.insert(QLatin1String("max_model_len"), 2048);
        reported.insert(QLatin1String("metrics_engine"), QStringLiteral("vllm"));
        reported.insert(QLatin1String("metrics_url"), QStringLiteral("http://127.0.0.1:8000/metrics"));
        environment.insert(QLatin1String("server_reported"), reported);
        run.insert(QLatin1String("environment"), environment);
        QJsonArray steps = run.value(QLatin1String("steps")).toArray();
        for (qsizetype i = 0; i < steps.size(); ++i) {
            QJsonObject entry = steps[i].toObject();
            const int index = entry.value(QLatin1String("index")).toInt();
            ServerStepStats stats;
            stats.engine = QStringLiteral("vllm");
            stats.samples = 3;
            stats.runningMean = 2.0 * double(i + 1);
            stats.runningMax = 3.0 * double(i + 1);
            stats.waitingMean = i >= 4 ? 5.0 * double(i) : 0.0;
            stats.waitingMax = i >= 4 ? 9.0 * double(i) : 0.0;
            stats.kvUsageMean = std::min(1.0, 0.1 + 0.12 * double(i));
            stats.kvUsageMax = std::min(1.0, 0.15 + 0.15 * double(i));
            stats.preemptions = 0.0;
            stats.ttftMeanMs = 40.0 + double(i);
            entry.insert(QLatin1String("server"), stats.toJson());
            const QString metricsFile = QStringLiteral("%1.metrics.jsonl").arg(index, 3, 10, QLatin1Char('0'));
            entry.insert(QLatin1String("metrics_file"), metricsFile);
            QByteArray samples;
            for (int k = 0; k < 3; ++k) {
                ServerSample sample;
                sample.atS = 0.5 * k;
                sample.running = double(k + i);
                sample.waiting = 0.0;
                sample.kvUsage = 0.1 * double(k + 1);
                samples += sample.toJsonLine() + '\n';
            }
            QFile f(dir + QStringLiteral("/steps/") + metricsFile);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(samples);
            steps[i] = entry;
        }
        run.insert(QLatin1String("steps"), steps);
        {
            QFile f(runJson);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(QJsonDocument(run).toJson());
        }

        QString error;
        const std::optional<OpenedRun> opened = openRunDirectory(dir, &error);
        QVERIFY2(opened, qPrintable(error));
        QVERIFY2(opened->warnings.isEmpty(), qPrintable(opened->warnings.join(u'\n')));
        QCOMPARE(opened->steps.size(), std::size_t(steps.size()));
        for (const StepReport& s : opened->steps) {
            QVERIFY(s.server.stats);
            QCOMPARE(s.server.samples.size(), std::size_t(3));
        }
        QVERIFY(opened->analysis.result.server.available);
        QStringList sentences;
        for (const AnalysisSentence& s : opened->analysis.sentences)
            sentences << s.text;
        QVERIFY2(sentences.join(u' ').contains(QStringLiteral("KV cache")), qPrintable(sentences.join(u'\n')));

        SweepController controller;
        RunPage page(&controller);
        QVERIFY(opened->showIn(page.run()));
        auto* server = qobject_cast<ServerPanel*>(page.tabs()->widget(5));
        QVERIFY(server);
        QCOMPARE(server->loadChart()->points().size(), std::size_t(steps.size()));
        QCOMPARE(server->timeChart()->points().size(), std::size_t(3));
        QVERIFY2(server->environmentText().contains(QStringLiteral("6.4.2")), qPrintable(server->environmentText()));
        QVERIFY2(
            server->environmentText().contains(QStringLiteral("max_model_len")), qPrintable(server->environmentText()));
        QVERIFY2(server->noteText().startsWith(QStringLiteral("vLLM metrics from")), qPrintable(server->noteText()));
        page.tabs()->setCurrentIndex(5);
        page.resize(1280, 800);
        page.show();
        saveScreenshot(&page, QStringLiteral("export-runpage-saved-server"));

        // The HTML and the Markdown of one document, as html() and markdown() make each.
        const ReportDoc doc = RunReport(page.run(), opened->meta).document(QStringLiteral("telemetry"));
        const QByteArray html = doc.html(ReportDoc::ImageMode::DataUri);
        QVERIFY(html.contains("qt_version"));
        QVERIFY(html.contains("6.4.2"));
        QVERIFY(html.contains("Server metrics"));
        QVERIFY(html.contains("KV cache avg / max"));
        QVERIFY(html.contains("max_model_len"));
        std::vector<std::pair<QString, QByteArray>> images;
        const QByteArray md = doc.markdown(&images);
        QVERIFY2(md.contains("| 7 | 160 | 14.0 / 21.0 | 30.0 / 54.0 | 82 / 100% | 0 |"),
            md.mid(md.indexOf("Server metrics"), 1500).constData());
    }

    void runsPage()
    {
        RunsPage page(m_root);
        QSignalSpy reloaded(&page, &RunsPage::reloaded);
        QVERIFY(page.model()->isLoading()); // read in the background
        QVERIFY(reloaded.wait(20000));
        QCOMPARE(page.model()->rowCount(), 2);
        QCOMPARE(page.proxy()->rowCount(), 2);
        // Newest first.
        QCOMPARE(page.proxy()->index(0, RunsModel::Name).data().toString(), QStringLiteral("sim-b"));
        QCOMPARE(page.proxy()->index(1, RunsModel::Knee).data().toString(), QStringLiteral("40 req/s"));
        page.filterBox()->setText(QStringLiteral("baseline")); // a tag of sim-a
        QCOMPARE(page.proxy()->rowCount(), 1);
        QCOMPARE(page.proxy()->index(0, RunsModel::Name).data().toString(), QStringLiteral("sim-a"));
        page.filterBox()->clear();
        QCOMPARE(page.proxy()->rowCount(), 2);

        // Rename, tags and notes go to run.json.
        QVERIFY(page.renameRun(m_dirB, QStringLiteral("sim-b max48")));
        QVERIFY(page.setRunTags(m_dirB, { QStringLiteral("candidate"), QStringLiteral("sim") }));
        QSignalSpy notesSaved(page.model(), &RunsModel::notesSaved);
        page.setRunNotes(m_dirB, QStringLiteral("max_concurrency 48"));
        QVERIFY(notesSaved.wait(20000));
        QCOMPARE(notesSaved.constFirst().at(1).toBool(), true);
        page.reload();
        QVERIFY(reloaded.wait(20000));
        const SavedRunRead b = readSavedRun(m_dirB);
        QVERIFY(b.ok());
        QCOMPARE(b.run->name, QStringLiteral("sim-b max48"));
        QCOMPARE(b.run->tags, QStringList({ QStringLiteral("candidate"), QStringLiteral("sim") }));
        QCOMPARE(b.run->notes, QStringLiteral("max_concurrency 48"));
        QCOMPARE(page.model()->index(page.model()->rowOf(m_dirB), RunsModel::Name).data().toString(),
            QStringLiteral("sim-b max48"));

        // Open and compare ask the window.
        QSignalSpy open(&page, &RunsPage::openRequested);
        QSignalSpy compare(&page, &RunsPage::compareRequested);
        page.selectDirs({ m_dirA });
        QVERIFY(page.openAction()->isEnabled());
        QVERIFY(!page.compareAction()->isEnabled());
        QCOMPARE(page.notesEditor()->toPlainText(), QStringLiteral("Baseline: default scheduler."));
        page.openAction()->trigger();
        QCOMPARE(open.size(), 1);
        QCOMPARE(open.at(0).at(0).toString(), m_dirA);
        page.selectDirs({ m_dirA, m_dirB });
        QVERIFY(page.compareAction()->isEnabled());
        page.compareAction()->trigger();
        QCOMPARE(compare.size(), 1);
        QCOMPARE(compare.at(0).at(0).toStringList().size(), 2);

        page.resize(1280, 500);
        page.show();
        page.selectDirs({ m_dirA });
        saveScreenshot(&page, QStringLiteral("export-runs"));

        // Delete to the trash, then undo.
        page.selectDirs({ m_dirB });
        QVERIFY(page.trashSelected());
        QVERIFY(reloaded.wait(20000));
        QCOMPARE(page.model()->rowCount(), 1);
        QVERIFY(!QFileInfo::exists(m_dirB));
        QVERIFY(page.message().contains(QStringLiteral("trash")));
        QVERIFY(page.undoAction()->isEnabled());
        QVERIFY(page.undoTrash());
        QVERIFY(reloaded.wait(20000));
        QCOMPARE(page.model()->rowCount(), 2);
        QVERIFY(QFileInfo::exists(m_dirB + QStringLiteral("/run.json")));
        QCOMPARE(page.selectedDirs(), QStringList { m_dirB });
        QVERIFY(!page.undoAction()->isEnabled());
    }

    // Typing reads and writes nothing; the notes reach run.json when typing pauses, when another run is
    // selected, when the page is left and when it is closed, and none is lost on the way.
    void runsPageNotes()
    {
        const auto notesOnDisk = [](const QString& dir) {
            const SavedRunRead read = readSavedRun(dir, SavedRunDepth::RunJson);
            return read.ok() ? read.run->notes : QStringLiteral("(unreadable)");
        };
        const QString before = notesOnDisk(m_dirA);
        const QString beforeB = notesOnDisk(m_dirB);
        auto page = std::make_unique<RunsPage>(m_root);
        QSignalSpy reloaded(page.get(), &RunsPage::reloaded);
        QVERIFY(reloaded.wait(20000));
        QSignalSpy saved(page->model(), &RunsModel::notesSaved);
        page->show();
        QVERIFY(QTest::qWaitForWindowExposed(page.get()));

        // Typing: nothing is written per keystroke.
        page->selectDirs({ m_dirA });
        QCOMPARE(page->notesEditor()->toPlainText(), before);
        page->notesEditor()->moveCursor(QTextCursor::End);
        QTest::keyClicks(page->notesEditor(), QStringLiteral(" Typed."));
        QVERIFY(!page->model()->isSavingNotes());
        QCOMPARE(notesOnDisk(m_dirA), before);
        // The pause after typing writes them.
        QVERIFY(saved.wait(20000));
        QCOMPARE(notesOnDisk(m_dirA), before + QStringLiteral(" Typed."));

        // Selecting another run writes what was typed for the first.
        QTest::keyClicks(page->notesEditor(), QStringLiteral(" Then selected B."));
        page->selectDirs({ m_dirB });
        QVERIFY(page->model()->isSavingNotes());
        QTRY_COMPARE_WITH_TIMEOUT(notesOnDisk(m_dirA), before + QStringLiteral(" Typed. Then selected B."), 20000);

        // Leaving the page writes them.
        page->selectDirs({ m_dirA });
        QCOMPARE(page->notesEditor()->toPlainText(), before + QStringLiteral(" Typed. Then selected B."));
        page->notesEditor()->moveCursor(QTextCursor::End);
        QTest::keyClicks(page->notesEditor(), QStringLiteral(" Then hidden."));
        page->hide();
        QVERIFY(page->model()->isSavingNotes());
        QTRY_COMPARE_WITH_TIMEOUT(
            notesOnDisk(m_dirA), before + QStringLiteral(" Typed. Then selected B. Then hidden."), 20000);

        // Closing the page writes them, after the writes asked for before.
        page->show();
        page->setRunNotes(m_dirB, QStringLiteral("first"));
        page->selectDirs({ m_dirB });
        QCOMPARE(page->notesEditor()->toPlainText(), QStringLiteral("first"));
        page->notesEditor()->moveCursor(QTextCursor::End);
        QTest::keyClicks(page->notesEditor(), QStringLiteral(", then closed"));
        page.reset();
        QTRY_COMPARE_WITH_TIMEOUT(notesOnDisk(m_dirB), QStringLiteral("first, then closed"), 20000);
        QThreadPool::globalInstance()->waitForDone();
        QCOMPARE(notesOnDisk(m_dirB), QStringLiteral("first, then closed"));

        // A new page shows what was written, without reading each run's file on selection.
        RunsPage again(m_root);
        QSignalSpy againLoaded(&again, &RunsPage::reloaded);
        QVERIFY(againLoaded.wait(20000));
        again.selectDirs({ m_dirA });
        QCOMPARE(again.notesEditor()->toPlainText(), before + QStringLiteral(" Typed. Then selected B. Then hidden."));
        again.setRunNotes(m_dirA, before);
        again.setRunNotes(m_dirB, beforeB);
        QTRY_VERIFY_WITH_TIMEOUT(!again.model()->isSavingNotes(), 20000);
        QCOMPARE(notesOnDisk(m_dirA), before);
        QCOMPARE(notesOnDisk(m_dirB), beforeB);
    }

    void mainWindow()
    {
        MainWindow window;
        window.runsPage()->setRoot(m_root);
        QTRY_COMPARE_WITH_TIMEOUT(window.runsPage()->model()->rowCount(), 2, 20000);
        window.resize(1280, 800);
        window.show();
        window.showRunsView();
        saveScreenshot(&window, QStringLiteral("export-mainwindow-runs"));

        // Read in the background: the window answers meanwhile, and says when it is done.
        QSignalSpy opened(&window, &MainWindow::savedRunOpened);
        QSignalSpy progress(window.jobs(), &JobTracker::progressChanged);
        QVERIFY(window.openSavedRun(m_dirA));
        QVERIFY(window.jobs()->isBusy());
        QTRY_COMPARE(opened.size(), 1);
        QCOMPARE(opened.constFirst(), (QVariantList { m_dirA, true }));
        QVERIFY(!window.jobs()->isBusy());
        // It said how far it was, step by step, in the status bar's bar.
        QCOMPARE(progress.size(), 8);
        QCOMPARE(progress.constFirst(), (QVariantList { 0, 7 }));
        QCOMPARE(progress.constLast(), (QVariantList { 7, 7 }));
        const auto* bar = window.statusBar()->findChild<QProgressBar*>(QStringLiteral("jobProgress"));
        QVERIFY(bar);
        QCOMPARE(bar->maximum(), 7);
        QCOMPARE(bar->value(), 7);
        {
            // Mid-job: the status bar shows the job, its percentage and Cancel.
            QSemaphore release;
            window.jobs()->start(
                QStringLiteral("Reading a long run"),
                [&release](const JobTracker::CancelFlag& job) {
                    job.progress(3, 7);
                    release.acquire();
                    return 0;
                },
                [](int) {});
            QTRY_COMPARE(bar->value(), 3);
            QVERIFY(bar->isVisible());
            saveScreenshot(&window, QStringLiteral("export-mainwindow-job"));
            release.release();
            QTRY_VERIFY(!window.jobs()->isBusy());
        }
        QVERIFY(window.isShowingRun());
        QCOMPARE(window.runPage()->stepsModel()->rowCount(), 7);
        QVERIFY(window.exportActions()->exportReportAction()->isEnabled());
        QCOMPARE(window.exportActions()->currentMeta().name, QStringLiteral("sim-a"));
        saveScreenshot(&window, QStringLiteral("export-mainwindow-run"));

        // File ▸ Export chart writes what it wrote when it read the run again on the GUI thread: the
        // opened run's meta, or run.json read in the background once the Runs page changed it.
        {
            ChartOptions options;
            options.kind = ChartKind::Latency;
            options.metric = window.runPage()->latencyChart()->metric();
            options.logScale = window.runPage()->latencyChart()->logScale();
            ChartSet charts(window.runPage()->run());
            const SavedRunRead read = readSavedRun(m_dirA);
            QVERIFY(read.ok());
            const QString direct = m_tmp.filePath(QStringLiteral("direct-latency.png"));
            QString error;
            QVERIFY2(ChartExport::write(charts.panel(options), charts.caption(options, runMeta(*read.run)),
                         ChartFileFormat::Png, direct, ChartExport::kDefaultSize, 1.0, &error),
                qPrintable(error));
            QSignalSpy exported(window.exportActions(), &RunExportActions::chartExported);
            const QString held = m_tmp.filePath(QStringLiteral("held-latency.png"));
            window.exportActions()->exportChartTo(ChartKind::Latency, held);
            QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 1, 20000);
            QCOMPARE(exported.at(0).at(1).toString(), QString());
            QCOMPARE(readAll(held), readAll(direct));
            window.exportActions()->forgetSavedMeta(window.runPage()->run()->info().runDirectory);
            const QString reread = m_tmp.filePath(QStringLiteral("reread-latency.png"));
            window.exportActions()->exportChartTo(ChartKind::Latency, reread);
            QVERIFY(window.exportActions()->findChild<JobTracker*>()->isBusy()); // run.json is read in a job
            QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 2, 20000);
            QCOMPARE(exported.at(1).at(1).toString(), QString());
            QCOMPARE(readAll(reread), readAll(direct));
            QCOMPARE(window.exportActions()->currentMeta().name, QStringLiteral("sim-a"));
        }

        QSignalSpy compared(&window, &MainWindow::comparisonOpened);
        QVERIFY(window.compareSavedRuns({ m_dirA, m_dirB }));
        QTRY_COMPARE(compared.size(), 1);
        QCOMPARE(compared.constFirst().at(1).toBool(), true);
        QCOMPARE(window.compareView()->chart()->seriesCount(), 2);

        // A newer job replaces the one under way: only the last one's result arrives.
        QVERIFY(window.openSavedRun(m_dirB));
        QVERIFY(window.openSavedRun(m_dirA));
        QTRY_COMPARE(opened.size(), 2);
        QCOMPARE(opened.at(1), (QVariantList { m_dirA, true }));
        // A cancelled one never arrives; an unreadable one says why.
        QVERIFY(window.openSavedRun(m_dirB));
        window.jobs()->cancel();
        QVERIFY(window.openSavedRun(m_tmp.filePath(QStringLiteral("no-such-run"))));
        QTRY_COMPARE(opened.size(), 3);
        QCOMPARE(opened.at(2).at(1).toBool(), false);
        QVERIFY2(window.statusBar()->currentMessage().contains(QLatin1String("no-such-run")),
            qPrintable(window.statusBar()->currentMessage()));
        QCOMPARE(window.exportActions()->currentMeta().name, QStringLiteral("sim-a"));

        // What a drop on the window does: result files become a run, shown selected on the Runs page.
        QSignalSpy imported(&window, &MainWindow::pathsImported);
        window.importPaths({ QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/import/sglang.jsonl") });
        QTRY_COMPARE(imported.size(), 1);
        const QString dir = imported.constFirst().constFirst().toString();
        QVERIFY(!dir.isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(window.runsPage()->model()->rowCount(), 3, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(window.runsPage()->selectedDirs(), QStringList { dir }, 20000);
        window.importPaths({ QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/import/broken/not-a-result.json") });
        QTRY_COMPARE(imported.size(), 2);
        QVERIFY(imported.at(1).constFirst().toString().isEmpty());
        QVERIFY2(window.statusBar()->currentMessage().contains(QLatin1String("not-a-result.json")),
            qPrintable(window.statusBar()->currentMessage()));
        QCOMPARE(window.runsPage()->model()->rowCount(), 3);
        QVERIFY(QDir(dir).removeRecursively());

        // Files that measured two workloads (the old SGLang file: dataset random, then sharegpt) become two
        // runs: both selected, the status bar says how they differ, and they open side by side.
        QSignalSpy importCompared(&window, &MainWindow::comparisonOpened);
        window.importPaths({ QFINDTESTDATA("data/import/real/sglang/old/llama_3_3_70b_online_output.jsonl") });
        QTRY_COMPARE(imported.size(), 3);
        QTRY_COMPARE(importCompared.size(), 1);
        const QStringList both = importCompared.constFirst().constFirst().toStringList();
        QCOMPARE(both.size(), 2);
        QCOMPARE(importCompared.constFirst().at(1).toBool(), true);
        QTRY_COMPARE_WITH_TIMEOUT(window.runsPage()->selectedDirs().size(), 2, 20000);
        const QStringList selected = window.runsPage()->selectedDirs();
        QCOMPARE(QSet<QString>(selected.begin(), selected.end()), QSet<QString>(both.begin(), both.end()));
        // The files have medians only: the comparison shows P50 rather than an empty P99 chart.
        QCOMPARE(window.compareView()->statisticBox()->currentData().toString(), QStringLiteral("p50"));
        QCOMPARE(window.compareView()->chart()->seriesCount(), 2);
        const QString status = window.statusBar()->currentMessage();
        QVERIFY2(status.contains(QLatin1String("as 2 runs")) && status.contains(QLatin1String("random"))
                && status.contains(QLatin1String("sharegpt")),
            qPrintable(status));
        for (const QString& d : both)
            QVERIFY(QDir(d).removeRecursively());
    }

    // An imported file that lacks figures (old SGLang: no request_throughput, no mean or P99 TTFT, no
    // ITL mean, no failed count): the table, the report, its exports and the charts show "—" or leave
    // the figure off, mark what the file's own fields gave, and show the file's settings, not a profile.
    void importedRunShowsUnknownAsUnknown()
    {
        QTemporaryDir runs;
        const ImportResult imported = importRun(
            { QFINDTESTDATA("data/import/real/sglang/old/llama_3_3_70b_online_output.jsonl") }, runs.path());
        QVERIFY2(imported.ok(), qPrintable(imported.error));
        QCOMPARE(imported.dirs.size(), 2); // dataset random (5 lines), dataset sharegpt (2 lines)
        QString error;
        std::optional<OpenedRun> opened;
        for (const QString& dir : imported.dirs) {
            opened = openRunDirectory(dir, &error);
            QVERIFY2(opened, qPrintable(error));
            if (opened->steps.size() == 5)
                break;
        }
        QCOMPARE(opened->steps.size(), std::size_t(5));
        SweepController controller;
        RunPage page(&controller);
        QVERIFY(opened->showIn(page.run()));
        const StepsTableModel* model = page.stepsModel();
        QCOMPARE(model->rowCount(), 5);
        auto cell = [model](int row, int column) { return model->data(model->index(row, column)).toString(); };
        // Line 1: completed 300 in 298.3675805060193 s, output_throughput 537.4142851849319.
        QCOMPARE(cell(0, StepsTableModel::Rps), UiFormat::throughput(300 / 298.3675805060193) + QStringLiteral("†"));
        QCOMPARE(cell(0, StepsTableModel::Rps), QStringLiteral("1.01†"));
        QCOMPARE(cell(0, StepsTableModel::OutputTokens), QStringLiteral("537"));
        for (int column : { int(StepsTableModel::TtftMean), int(StepsTableModel::TpotMean),
                 int(StepsTableModel::ItlMean), int(StepsTableModel::Errors) })
            QCOMPARE(cell(0, column), QStringLiteral("—"));
        // The analysis' percentile: the file has no P99, so the column is the median_ttft_ms it has.
        QCOMPARE(cell(0, StepsTableModel::TtftUpper), QStringLiteral("85.7"));
        QVERIFY(
            model->headerData(StepsTableModel::TtftUpper, Qt::Horizontal).toString().contains(QStringLiteral("P50")));
        QCOMPARE(model->data(model->index(0, StepsTableModel::Rps), Qt::ToolTipRole).toString(),
            QStringLiteral("† derived from the file's other fields"));

        // The latency chart has medians only: the curve is P50, all five steps on it.
        LoadLatencyChart* latency = page.latencyChart();
        QCOMPARE(latency->wantedPercentile(), 99.0);
        QCOMPARE(latency->percentile(), 50.0);
        QCOMPARE(latency->pointCount(), 5);
        QVERIFY2(latency->caption().contains(QStringLiteral("the curve shows P50")), qPrintable(latency->caption()));
        QCOMPARE(page.throughputChart()->pointCount(), 5);
        page.resize(1280, 800);
        page.show();
        saveScreenshot(&page, QStringLiteral("export-runpage-imported-sglang-old"));

        // PNG and SVG of it: drawn with P50, and the title says P99 is missing.
        ChartSet charts(page.run());
        ChartOptions options;
        const ChartCaption caption = charts.caption(options, opened->meta);
        QCOMPARE(caption.title, QStringLiteral("Load–latency · P50 TTFT (the run has no P99)"));
        const QImage image = ChartExport::image(charts.panel(options), caption);
        QCOMPARE(image.size(), ChartExport::kDefaultSize);
        QVERIFY(image.save(screenshotDir() + QStringLiteral("/export-chart-imported-sglang-old.png")));
        QVERIFY(ChartExport::svg(charts.panel(options), caption).contains("P50 TTFT (the run has no P99)"));

        // The report: dashes and marks, no "No request failed.", and the file's settings, not a profile.
        // The Markdown and the HTML of one document, as markdown() and html() make each.
        const RunReport report(page.run(), opened->meta);
        const ReportDoc reportDoc = report.document(QStringLiteral("imported"));
        std::vector<std::pair<QString, QByteArray>> images;
        const QString md = QString::fromUtf8(reportDoc.markdown(&images));
        // Completed, failed, req/s, tok/s, TTFT mean, P50, P99, TPOT mean, P99, ITL mean, E2EL P50, P99.
        QVERIFY2(md.contains(QStringLiteral("| 300 | — | 1.01† | 537 | — | 85.7 | — | — | — | — | 7819 | — |")),
            qPrintable(md));
        QVERIFY(md.contains(QStringLiteral("† derived from the file's other fields")));
        QVERIFY(!md.contains(QStringLiteral("No request failed")));
        QVERIFY(md.contains(QStringLiteral("The result files do not say how many requests failed")));
        QVERIFY(md.contains(QStringLiteral("Settings — from the files")));
        QVERIFY2(md.contains(QStringLiteral("random")), qPrintable(md)); // the file's dataset_name
        for (const char* absent : { "\"profile\"", "As run", "openai-chat", "num_prompts", "\"input_len\"" })
            QVERIFY2(!md.contains(QLatin1String(absent)), absent);
        QVERIFY(!md.contains(QStringLiteral("nan")));

        // The vLLM 0.6 file's settings as it states them; its tokenizer_id is a model name, not a secret.
        const ImportResult vllm = importRun({ QFINDTESTDATA("data/import/real/vllm/0.6-save-detailed") }, runs.path());
        QVERIFY2(vllm.ok(), qPrintable(vllm.error));
        const std::optional<OpenedRun> vllmRun = openRunDirectory(vllm.dir, &error);
        QVERIFY2(vllmRun, qPrintable(error));
        LiveRun shown(nullptr);
        QVERIFY(vllmRun->showIn(&shown));
        const QString vllmMd
            = QString::fromUtf8(RunReport(&shown, vllmRun->meta).markdown(QStringLiteral("v"), &images));
        for (const char* line : { "| **backend** | vllm |", "| **model_id** | meta-llama/Meta-Llama-3-8B-Instruct |",
                 "| **num_prompts** | 10 |", "| **tokenizer_id** | meta-llama/Meta-Llama-3-8B-Instruct |" })
            QVERIFY2(vllmMd.contains(QLatin1String(line)), line);
        QVERIFY(!vllmMd.contains(QStringLiteral("openai-chat")));
        QVERIFY(!vllmMd.contains(QStringLiteral("1000")));
        QTextDocument doc;
        doc.setHtml(QString::fromUtf8(reportDoc.html(ReportDoc::ImageMode::DataUri)));
        doc.setTextWidth(1200);
        QImage rendered(QSize(1200, int(std::min(6000.0, doc.size().height()))), QImage::Format_ARGB32);
        rendered.fill(Qt::white);
        {
            QPainter painter(&rendered);
            doc.drawContents(&painter);
        }
        QVERIFY(rendered.save(screenshotDir() + QStringLiteral("/export-report-imported-sglang-old.png")));

        // CSV: empty cells; JSON: null, and which figures are derived.
        const QStringList csv = QString::fromUtf8(report.stepsCsv()).split(u'\n');
        const QStringList header = csv[0].split(u',');
        const QStringList row = csv[1].split(u',');
        QCOMPARE(row[header.indexOf(QStringLiteral("completed"))], QStringLiteral("300"));
        QCOMPARE(row[header.indexOf(QStringLiteral("failed"))], QString());
        QCOMPARE(row[header.indexOf(QStringLiteral("ttft_mean_ms"))], QString());
        QCOMPARE(row[header.indexOf(QStringLiteral("ttft_p50_ms"))], QStringLiteral("85.74514743"));
        const QJsonObject step = QJsonDocument::fromJson(report.stepsJson())
                                     .object()
                                     .value(QLatin1String("steps"))
                                     .toArray()[0]
                                     .toObject();
        QVERIFY(step.value(QLatin1String("failed")).isNull());
        QCOMPARE(step.value(QLatin1String("completed")).toInteger(), 300);
        QCOMPARE(step.value(QLatin1String("request_throughput")).toDouble(), 300 / 298.3675805060193);
        QCOMPARE(step.value(QLatin1String("derived"))
                     .toArray()
                     .toVariantList()
                     .contains(QStringLiteral("request_throughput")),
            true);
        const QJsonObject ttft = step.value(QLatin1String("ttft_ms")).toObject();
        QVERIFY(ttft.value(QLatin1String("mean")).isNull());
        QVERIFY(ttft.value(QLatin1String("count")).isNull());
        QCOMPARE(ttft.value(QLatin1String("median")).toDouble(), 85.74514742940664);
    }

    // Unknown figures sort last, ascending or descending.
    void unknownSortsLast()
    {
        std::vector<StepReport> steps(3);
        const double means[] = { 5.0, kUnknown, 3.0 };
        for (int i = 0; i < 3; ++i) {
            steps[std::size_t(i)].config.index = i;
            steps[std::size_t(i)].config.rate = i + 1;
            // A file without the figure has every statistic unknown, as its reader leaves them.
            if (!isKnown(means[i]))
                steps[std::size_t(i)].metrics.ttft = LatencyStats::unknown();
            steps[std::size_t(i)].metrics.ttft.count = isKnown(means[i]) ? 10 : kUnknownCount;
            steps[std::size_t(i)].metrics.ttft.mean = means[i];
        }
        StepsTableModel model;
        model.setSteps(steps);
        StepsSortProxy proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(StepsTableModel::SortRole);
        auto order = [&proxy] {
            QStringList cells;
            for (int r = 0; r < proxy.rowCount(); ++r)
                cells << proxy.index(r, StepsTableModel::TtftMean).data().toString();
            return cells;
        };
        proxy.sort(StepsTableModel::TtftMean, Qt::AscendingOrder);
        QCOMPARE(order(), (QStringList { QStringLiteral("3.00"), QStringLiteral("5.00"), QStringLiteral("—") }));
        proxy.sort(StepsTableModel::TtftMean, Qt::DescendingOrder);
        QCOMPARE(order(), (QStringList { QStringLiteral("5.00"), QStringLiteral("3.00"), QStringLiteral("—") }));
    }

    // A run whose every request failed has no latency to draw: the chart says so instead of failing,
    // on the screen and in the file.
    void everyRequestFailedChart()
    {
        std::vector<StepReport> steps(2);
        for (int i = 0; i < 2; ++i) {
            steps[std::size_t(i)].config.index = i;
            steps[std::size_t(i)].config.rate = 5.0 * (i + 1);
            steps[std::size_t(i)].metrics.completed = 0;
            steps[std::size_t(i)].metrics.failed = 20;
        }
        LiveRun run(nullptr);
        QVERIFY(run.showSaved(RunInfo {}, steps, RunAnalysis {}, LiveRun::State::Finished, {}));
        ChartSet charts(&run);
        ChartOptions options;
        ChartPanel* panel = charts.panel(options);
        QCOMPARE(panel->placeholder(), QStringLiteral("Every request failed: no step has a TTFT to plot."));
        const ChartCaption caption = charts.caption(options, RunMeta {});
        QCOMPARE(caption.title, QStringLiteral("Load–latency · TTFT: every request failed"));
        QVERIFY(!caption.title.contains(QLatin1String("P99")));
        const QString png = m_tmp.filePath(QStringLiteral("all-failed.png"));
        QString error;
        QVERIFY2(ChartExport::write(panel, caption, ChartFileFormat::Png, png, ChartExport::kDefaultSize, 1.0, &error),
            qPrintable(error));
        QCOMPARE(QImage(png).size(), ChartExport::kDefaultSize);
        QVERIFY(ChartExport::svg(panel, caption).contains("Every request failed"));
        // The steps table: 0 completed, every request failed; the report says so.
        std::vector<std::pair<QString, QByteArray>> images;
        const QString md = QString::fromUtf8(RunReport(&run, RunMeta {}).markdown(QStringLiteral("failed"), &images));
        QVERIFY2(md.contains(QStringLiteral("40 of 40 requests failed")), qPrintable(md));
    }

    // export RUN --chart gpu of a real sweep against the simulator with two GPUs: the chart of each step's
    // GPU utilisation and memory, and the report's GPU table and chart; a run without GPU figures is refused.
    void cliGpuChart()
    {
        auto cli = [](const QStringList& args, QString* err) {
            QProcess p;
            p.start(QStringLiteral(KNEEPOINT_CLI), args);
            p.waitForFinished(180000);
            *err = QString::fromUtf8(p.readAllStandardError());
            return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        };
        QString err;
        const QString dir = m_gpuRun;
        const QString png = m_tmp.filePath(QStringLiteral("gpu.png"));
        QCOMPARE(cli({ QStringLiteral("export"), dir, QStringLiteral("--chart"), QStringLiteral("gpu"),
                         QStringLiteral("--out"), png },
                     &err),
            0);
        QCOMPARE(err.trimmed(), QStringLiteral("Wrote %1").arg(png));
        QCOMPARE(QImage(png).size(), QSize(1200, 720));
        QVERIFY(QImage(png).save(screenshotDir() + QStringLiteral("/export-gpu-chart.png")));

        // The chart's points are the steps' figures from run.json, the caption names the GPUs.
        QString error;
        const std::optional<OpenedRun> opened = openRunDirectory(dir, &error);
        QVERIFY2(opened, qPrintable(error));
        LiveRun live(nullptr);
        QVERIFY(opened->showIn(&live));
        QCOMPARE(live.steps().size(), std::size_t(2));
        ChartSet charts(&live);
        ChartOptions gpu;
        gpu.kind = *ChartOptions::kindFromKey(QStringLiteral("gpu"));
        QCOMPARE(ChartOptions::kindKey(gpu.kind), QStringLiteral("gpu"));
        charts.panel(gpu);
        const std::vector<SweepCurve::Point>& util = charts.gpu()->utilisationPoints();
        QCOMPARE(util.size(), std::size_t(2));
        QCOMPARE(charts.gpu()->memoryPoints().size(), std::size_t(2));
        for (std::size_t i = 0; i < 2; ++i) {
            const ServerStepStats& st = *live.steps()[i].server.stats;
            QCOMPARE(st.gpuCount, std::optional<int>(2));
            QCOMPARE(util[i].x, i == 0 ? 10.0 : 20.0);
            QCOMPARE(util[i].y, *st.gpuUtilisationMean);
            QCOMPARE(charts.gpu()->memoryPoints()[i].y, *st.gpuFbUsedMaxMiB / 1024.0);
            QVERIFY(live.steps()[i].metrics.joulesPerOutputToken.has_value());
        }
        // The run page draws the same points, its GPU chart forward: the run has no prefix-cache figures.
        SweepController controller;
        RunPage page(&controller);
        QVERIFY(opened->showIn(page.run()));
        QCOMPARE(page.gpuChart()->utilisationPoints().size(), std::size_t(2));
        QCOMPARE(page.gpuChart()->utilisationPoints()[1].y, util[1].y);
        QCOMPARE(page.cacheOrGpuTabs()->currentWidget(), page.gpuChart());
        page.resize(1280, 800);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        saveScreenshot(&page, QStringLiteral("export-runpage-gpu"));
        const ChartCaption caption = charts.caption(gpu, opened->meta);
        QCOMPARE(caption.title, QStringLiteral("GPU utilisation and memory against offered load"));
        QVERIFY2(caption.note.startsWith(QStringLiteral("2 GPUs")), qPrintable(caption.note));

        // The report: the GPU chart among its charts, and a row per step with its J per output token.
        std::vector<std::pair<QString, QByteArray>> images;
        const QString md = QString::fromUtf8(RunReport(&live, opened->meta).markdown(QStringLiteral("gpu"), &images));
        QVERIFY(std::any_of(images.begin(), images.end(),
            [](const auto& image) { return image.first == QStringLiteral("gpu-gpu.png"); }));
        QVERIFY2(md.contains(QStringLiteral("### GPUs and energy")), qPrintable(md));
        const ReportTable table = RunReport(&live, opened->meta).gpuTable();
        QCOMPARE(table.rows.size(), 2);
        for (int i = 0; i < 2; ++i) {
            const StepReport& step = live.steps()[std::size_t(i)];
            QCOMPARE(table.rows[i][0], QString::number(i + 1));
            QCOMPARE(table.rows[i][2], QStringLiteral("2"));
            QCOMPARE(table.rows[i][7], QString::number(*step.metrics.joulesPerOutputToken, 'f', 3));
            QCOMPARE(table.rows[i][6], QString::number(*step.server.stats->energyJ, 'f', 0));
            QVERIFY2(md.contains(table.rows[i].join(QStringLiteral(" | "))), qPrintable(md));
        }

        // A run whose server had no GPU exporter: no GPU chart is drawn, and the error says how to get one.
        QCOMPARE(cli({ QStringLiteral("export"), m_dirA, QStringLiteral("--chart"), QStringLiteral("gpu"),
                         QStringLiteral("--out"), png },
                     &err),
            2);
        QCOMPARE(err.trimmed(),
            QStringLiteral("error: no step of %1 has GPU figures: add a DCGM or AMD exporter URL to "
                           "target.metrics_urls, or run the simulator with --gpus N")
                .arg(m_dirA));
        const std::optional<OpenedRun> plain = openRunDirectory(m_dirA, &error);
        QVERIFY2(plain, qPrintable(error));
        LiveRun plainLive(nullptr);
        QVERIFY(plain->showIn(&plainLive));
        QVERIFY(RunReport(&plainLive, plain->meta).gpuTable().rows.isEmpty());
    }

    // export RUN --chart ttft_breakdown: a sweep of the simulator with four batch slots, so that requests
    // queue; the chart stacks each step's client part, queue, prefill and decode from run.json's server
    // figures; a run without the server's histograms gets a clear error and no chart.
    void cliTtftBreakdownChart()
    {
        auto cli = [](const QStringList& args, QString* err) {
            QProcess p;
            p.start(QStringLiteral(KNEEPOINT_CLI), args);
            p.waitForFinished(180000);
            *err = QString::fromUtf8(p.readAllStandardError());
            return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        };
        QString err;
        const QString dir = m_ttftRun;
        const QString png = m_tmp.filePath(QStringLiteral("ttft.png"));
        QCOMPARE(cli({ QStringLiteral("export"), dir, QStringLiteral("--chart"), QStringLiteral("ttft_breakdown"),
                         QStringLiteral("--out"), png },
                     &err),
            0);
        QCOMPARE(err.trimmed(), QStringLiteral("Wrote %1").arg(png));
        QCOMPARE(QImage(png).size(), QSize(1200, 720));
        QVERIFY(QImage(png).save(screenshotDir() + QStringLiteral("/export-ttft-breakdown-chart.png")));

        QString error;
        const std::optional<OpenedRun> opened = openRunDirectory(dir, &error);
        QVERIFY2(opened, qPrintable(error));
        LiveRun live(nullptr);
        QVERIFY(opened->showIn(&live));
        QCOMPARE(live.steps().size(), std::size_t(3));
        ChartSet charts(&live);
        ChartOptions ttft;
        ttft.kind = *ChartOptions::kindFromKey(QStringLiteral("ttft_breakdown"));
        QCOMPARE(ChartOptions::kindKey(ttft.kind), QStringLiteral("ttft_breakdown"));
        charts.panel(ttft);
        const std::vector<TtftBreakdownChart::Bar>& bars = charts.ttftBreakdown()->shownBars();
        QCOMPARE(bars.size(), std::size_t(3));
        for (std::size_t i = 0; i < bars.size(); ++i) {
            const StepReport& step = live.steps()[i];
            const ServerStepStats& st = *step.server.stats;
            QCOMPARE(bars[i].x, i == 0 ? 10.0 : i == 1 ? 80.0 : 400.0);
            QCOMPARE(bars[i].queue, *st.queueTime.meanMs);
            QCOMPARE(bars[i].prefill, *st.prefillTime.meanMs);
            QCOMPARE(*bars[i].decode, *st.decodeTime.meanMs);
            QCOMPARE(bars[i].ttft, step.metrics.ttft.mean);
            // The bands add up to the client's TTFT: the client part is what the server's parts leave.
            QVERIFY(bars[i].client >= 0.0);
            QVERIFY(std::fabs(bars[i].client + bars[i].queue + bars[i].prefill - bars[i].ttft) < 1e-9
                || (bars[i].client == 0.0 && bars[i].queue + bars[i].prefill > bars[i].ttft));
            QVERIFY(step.metrics.connectTime.count <= step.metrics.completed);
        }
        // The step's own file keeps the connect times of the connections it opened: the first step opens some.
        QVERIFY(live.steps()[0].metrics.connectTime.count >= 1);
        // Four slots for 24 requests at 400 req/s (about 150 req/s is what they serve): they wait, far
        // longer than at 10 req/s.
        QVERIFY2(
            bars[2].queue > bars[0].queue, qPrintable(QStringLiteral("%1 %2").arg(bars[0].queue).arg(bars[2].queue)));
        const ChartCaption caption = charts.caption(ttft, opened->meta);
        QCOMPARE(caption.title, QStringLiteral("Where TTFT goes against offered load"));
        QVERIFY2(caption.note.startsWith(QStringLiteral("means per step")), qPrintable(caption.note));

        // The run page has it as a tab beside the GPUs; the report draws it.
        SweepController controller;
        RunPage page(&controller);
        QVERIFY(opened->showIn(page.run()));
        QCOMPARE(page.ttftBreakdownChart()->shownBars().size(), std::size_t(3));
        page.cacheOrGpuTabs()->setCurrentWidget(page.ttftBreakdownChart());
        page.resize(1280, 800);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        saveScreenshot(&page, QStringLiteral("export-runpage-ttft-breakdown"));
        // The step details list every part: the client's exact, the server's percentiles as bucket estimates.
        page.selectStep(2);
        page.details()->tabs()->setCurrentIndex(page.details()->tabs()->count() - 1);
        QCOMPARE(
            page.details()->tabs()->tabText(page.details()->tabs()->count() - 1), QStringLiteral("TTFT breakdown"));
        const QList<QStringList> rows = TtftBreakdownChart::tableRows(live.steps()[2]);
        QCOMPARE(rows.size(), 10);
        QCOMPARE(rows[5][0], QStringLiteral("Queue"));
        QVERIFY2(rows[5][2].startsWith(QStringLiteral("≈ ")), qPrintable(rows[5].join(u'|')));
        QVERIFY2(!rows[2][2].startsWith(QStringLiteral("≈")), qPrintable(rows[2].join(u'|'))); // the client's TTFT
        saveScreenshot(&page, QStringLiteral("export-runpage-ttft-breakdown-details"));
        std::vector<std::pair<QString, QByteArray>> images;
        RunReport(&live, opened->meta).markdown(QStringLiteral("ttft"), &images);
        QVERIFY(std::any_of(images.begin(), images.end(),
            [](const auto& image) { return image.first == QStringLiteral("ttft-ttft_breakdown.png"); }));

        // A run whose server reported no queue and prefill times: no chart, an error that says what is missing.
        QCOMPARE(cli({ QStringLiteral("export"), m_dirA, QStringLiteral("--chart"), QStringLiteral("ttft_breakdown"),
                         QStringLiteral("--out"), png },
                     &err),
            2);
        QCOMPARE(err.trimmed(),
            QStringLiteral("error: no step of %1 has the server's queue and prefill times (vLLM's "
                           "request_queue_time_seconds and request_prefill_time_seconds on /metrics): no TTFT "
                           "breakdown to draw")
                .arg(m_dirA));
        const std::optional<OpenedRun> plain = openRunDirectory(m_dirA, &error);
        QVERIFY2(plain, qPrintable(error));
        LiveRun plainLive(nullptr);
        QVERIFY(plain->showIn(&plainLive));
        ChartSet plainCharts(&plainLive);
        plainCharts.panel(ttft);
        QVERIFY(!plainCharts.ttftBreakdown()->hasData());
        QVERIFY(!plainCharts.ttftBreakdown()->placeholder().isEmpty());
    }

    // export RUN --timeline: one CSV row per step and second of a real sweep against the simulator, the
    // figures its request records and scrapes give; a step without records is named and left out.
    void cliTimelineCsv()
    {
        auto cli = [](const QStringList& args, QString* err) {
            QProcess p;
            p.start(QStringLiteral(KNEEPOINT_CLI), args);
            p.waitForFinished(180000);
            *err = QString::fromUtf8(p.readAllStandardError());
            return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        };
        QString err;
        // A copy of the light sweep's run (its server had two GPUs, which the timeline does not show): the
        // end of this test removes a file from it.
        const QString dir = m_tmp.filePath(QStringLiteral("timeline-run"));
        QVERIFY(copyTree(m_gpuRun, dir));

        // What the files give, step by step.
        const SavedRunRead read = readSavedRun(dir);
        QVERIFY2(read.ok(), qPrintable(read.error));
        QCOMPARE(read.run->steps.size(), std::size_t(2));
        QByteArray expected = timelineCsvHeader();
        qint64 rows = 0;
        for (std::size_t i = 0; i < 2; ++i) {
            const SavedStep& step = read.run->steps[i];
            std::vector<RequestRecord> records;
            QString error;
            QVERIFY2(readRequestRecords(step.requestsPath, &records, &error), qPrintable(error));
            QVERIFY(!step.metricsPath.isEmpty());
            const StepTimeline t
                = StepTimeline::compute(records, StepTelemetry::samplesFromJsonl(readAll(step.metricsPath)));
            qint64 offered = 0, completed = 0, failed = 0;
            for (const TimelineSecond& s : t.seconds) {
                offered += s.offered;
                completed += s.completed;
                failed += s.failed;
            }
            QCOMPARE(offered, 12);
            QCOMPARE(completed, step.metrics.completed);
            QCOMPARE(failed, step.metrics.failed);
            QCOMPARE(t.seconds.back().inFlight, 0);
            expected += timelineCsvRows(int(i) + 1, step.load, t);
            rows += qint64(t.seconds.size());
        }
        QVERIFY(expected.startsWith("step,load,second,offered,sent,completed,failed,output_tokens_per_s,in_flight,"
                                    "ttft_p50_ms,ttft_p99_ms,itl_p50_ms,itl_p99_ms,server_running,server_waiting,"
                                    "server_kv_usage,server_prefix_cache_hit_rate\n"));
        QVERIFY(expected.contains("\n1,10 req/s,0,"));
        QVERIFY(expected.contains("\n2,20 req/s,0,"));

        const QString csv = m_tmp.filePath(QStringLiteral("timeline.csv"));
        QCOMPARE(
            cli({ QStringLiteral("export"), dir, QStringLiteral("--timeline"), QStringLiteral("--out"), csv }, &err),
            0);
        QCOMPARE(readAll(csv), expected);
        QCOMPARE(readAll(csv).count('\n'), rows + 1);
        QCOMPARE(err.trimmed(), QStringLiteral("Wrote %1 (%2 rows, 2 of 2 steps)").arg(csv).arg(rows));

        // The charts of one step, and the errors that name what is missing.
        const QString gantt = m_tmp.filePath(QStringLiteral("gantt.png"));
        QCOMPARE(cli({ QStringLiteral("export"), dir, QStringLiteral("--chart"), QStringLiteral("gantt"),
                         QStringLiteral("--step"), QStringLiteral("2"), QStringLiteral("--second"), QStringLiteral("0"),
                         QStringLiteral("--out"), gantt },
                     &err),
            0);
        QCOMPARE(QImage(gantt).size(), QSize(1200, 720));
        const QString timelinePng = m_tmp.filePath(QStringLiteral("timeline.png"));
        QCOMPARE(cli({ QStringLiteral("export"), dir, QStringLiteral("--chart"), QStringLiteral("timeline"),
                         QStringLiteral("--step"), QStringLiteral("1"), QStringLiteral("--out"), timelinePng },
                     &err),
            0);
        QCOMPARE(cli({ QStringLiteral("export"), dir, QStringLiteral("--chart"), QStringLiteral("timeline"),
                         QStringLiteral("--step"), QStringLiteral("3"), QStringLiteral("--out"), timelinePng },
                     &err),
            2);
        QCOMPARE(err.trimmed(), QStringLiteral("error: --step 3: %1 has steps 1 to 2").arg(dir));
        QCOMPARE(cli({ QStringLiteral("export"), dir, QStringLiteral("--chart"), QStringLiteral("gantt"),
                         QStringLiteral("--out"), timelinePng },
                     &err),
            2);
        QCOMPARE(err.trimmed(), QStringLiteral("error: --chart gantt draws one step: give --step N"));
        QCOMPARE(cli({ QStringLiteral("export"), dir, QStringLiteral("--timeline"), QStringLiteral("--out"),
                         m_tmp.filePath(QStringLiteral("timeline.json")) },
                     &err),
            2);
        QCOMPARE(err.trimmed(), QStringLiteral("error: --timeline is written as csv, not json (--out FILE.csv)"));

        // The report has the timeline of both steps.
        const QString md = m_tmp.filePath(QStringLiteral("timeline-report.md"));
        QCOMPARE(cli({ QStringLiteral("export"), dir, QStringLiteral("--out"), md }, &err), 0);
        const QByteArray report = readAll(md);
        QVERIFY(report.contains("## Timeline"));
        QVERIFY(QFile::exists(m_tmp.filePath(QStringLiteral("timeline-report-timeline-step2.png"))));
        QVERIFY(QFile::exists(m_tmp.filePath(QStringLiteral("timeline-report-timeline_latency-step1.png"))));

        // Without step 1's records: a note names the file, the other step is written.
        QVERIFY(QFile::remove(read.run->steps[0].requestsPath));
        QCOMPARE(
            cli({ QStringLiteral("export"), dir, QStringLiteral("--timeline"), QStringLiteral("--out"), csv }, &err),
            0);
        QVERIFY2(err.contains(QStringLiteral("note: step 1 (10 req/s) has no request records (steps/000.requests.jsonl "
                                             "in %1): left out of the timeline")
                                  .arg(dir)),
            qPrintable(err));
        QVERIFY(!readAll(csv).contains("\n1,10 req/s,"));
        QVERIFY(readAll(csv).contains("\n2,20 req/s,0,"));
    }

    void cliExport()
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("QT_QPA_PLATFORM")); // export picks the offscreen platform itself
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        env.remove(QStringLiteral("XDG_RUNTIME_DIR")); // as root or in a container: Qt says nothing of it
        auto cli = [&env](const QStringList& args, QString* err = nullptr) {
            QProcess p;
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(KNEEPOINT_CLI), args);
            p.waitForFinished(120000);
            if (err)
                *err = QString::fromUtf8(p.readAllStandardError());
            return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        };
        QString err;
        const QString png = m_tmp.filePath(QStringLiteral("cli-latency.png"));
        QCOMPARE(cli({ QStringLiteral("export"), QStringLiteral("sim-a"), QStringLiteral("--data-dir"), m_root,
                         QStringLiteral("--out"), png, QStringLiteral("--scale"), QStringLiteral("2") },
                     &err),
            0);
        QCOMPARE(QImage(png).size(), QSize(2400, 1440));
        QVERIFY2(err.trimmed() == QStringLiteral("Wrote %1").arg(png), qPrintable(err));
        const QString svg = m_tmp.filePath(QStringLiteral("cli.svg"));
        QCOMPARE(
            cli({ QStringLiteral("export"), kRunA, QStringLiteral("--data-dir"), m_root, QStringLiteral("--format"),
                    QStringLiteral("svg"), QStringLiteral("--out"), svg, QStringLiteral("--metric"),
                    QStringLiteral("e2el"), QStringLiteral("--percentile"), QStringLiteral("90") },
                &err),
            0);
        QVERIFY(readAll(svg).contains("P90 E2EL"));
        const QString html = m_tmp.filePath(QStringLiteral("cli.html"));
        QCOMPARE(cli({ QStringLiteral("export"), m_dirA, QStringLiteral("--out"), html }, &err), 0);
        QVERIFY(!readAll(html).contains("SECRET"));
        const QString csv = m_tmp.filePath(QStringLiteral("cli.csv"));
        QCOMPARE(cli({ QStringLiteral("export"), m_dirA, QStringLiteral("--out"), csv }, &err), 0);
        QCOMPARE(readAll(csv).count('\n'), qsizetype(8));
        // Errors name what is wrong.
        QCOMPARE(cli({ QStringLiteral("export"), QStringLiteral("no-such-run"), QStringLiteral("--data-dir"), m_root,
                         QStringLiteral("--out"), png },
                     &err),
            2);
        QVERIFY2(err.contains(QStringLiteral("no-such-run")), qPrintable(err));
        QCOMPARE(cli({ QStringLiteral("export"), m_dirA, QStringLiteral("--out"), png, QStringLiteral("--percentile"),
                         QStringLiteral("95") },
                     &err),
            2);
        QVERIFY2(err.contains(QStringLiteral("P95")), qPrintable(err));
        QCOMPARE(
            cli({ QStringLiteral("export"), m_dirA, QStringLiteral("--out"), m_tmp.filePath(QStringLiteral("x.doc")) },
                &err),
            2);
        // Commands without charts load no GUI platform: a platform that does not exist does not matter.
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("no-such-platform"));
        QCOMPARE(cli({ QStringLiteral("validate"), QStringLiteral("--help") }), 0);
    }

    // export --out and --timeline --out: a FIFO is written, not replaced by a regular file; a device
    // that refuses the write (a full one) fails with its name, and stays a device.
    void cliExportWritesSpecialFiles()
    {
        const auto cli = [](const QStringList& args, QString* err) {
            QProcess p;
            p.start(QStringLiteral(KNEEPOINT_CLI), args);
            p.waitForFinished(180000);
            *err = QString::fromUtf8(p.readAllStandardError());
            return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        };
        const auto typeOf = &HeldFifo::typeOf;
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString fifo = tmp.filePath(QStringLiteral("steps.csv"));
        auto held = std::make_unique<HeldFifo>(fifo);
        QVERIFY(held->ok());
        QString err;
        const int steps = cli({ QStringLiteral("export"), m_dirA, QStringLiteral("--format"), QStringLiteral("csv"),
                                  QStringLiteral("--out"), fifo },
            &err);
        const QByteArray csv = held->drain();
        QCOMPARE(steps, 0);
        QCOMPARE(typeOf(fifo), mode_t(S_IFIFO));
        const QString plain = tmp.filePath(QStringLiteral("plain.csv"));
        QCOMPARE(cli({ QStringLiteral("export"), m_dirA, QStringLiteral("--format"), QStringLiteral("csv"),
                         QStringLiteral("--out"), plain },
                     &err),
            0);
        QVERIFY(!csv.isEmpty());
        QCOMPARE(csv, readAll(plain));
        const int timeline = cli(
            { QStringLiteral("export"), m_dirA, QStringLiteral("--timeline"), QStringLiteral("--out"), fifo }, &err);
        const QByteArray rows = held->drain();
        held.reset();
        QCOMPARE(timeline, 0);
        QVERIFY2(err.contains(QStringLiteral("Wrote %1 (").arg(fifo)), qPrintable(err));
        QVERIFY(rows.startsWith(timelineCsvHeader()));
        QCOMPARE(typeOf(fifo), mode_t(S_IFIFO));

        // A full device: /dev/full for a user; for root (who could replace /dev/full itself) a node of
        // the same device in the temporary folder.
        QString full = QStringLiteral("/dev/full");
        if (::geteuid() == 0) {
            full = tmp.filePath(QStringLiteral("full.json"));
            if (::mknod(QFile::encodeName(full).constData(), S_IFCHR | 0666, makedev(1, 7)) != 0)
                QSKIP("no device node can be made here (mknod), and /dev/full is not written as root");
        }
        if (typeOf(full) != mode_t(S_IFCHR) || ::access(QFile::encodeName(full).constData(), W_OK) != 0)
            QSKIP("no writable /dev/full here");
        QCOMPARE(cli({ QStringLiteral("export"), m_dirA, QStringLiteral("--format"), QStringLiteral("json"),
                         QStringLiteral("--out"), full },
                     &err),
            1);
        QVERIFY2(
            err.contains(full + QStringLiteral(": cannot write: ") + QString::fromLocal8Bit(std::strerror(ENOSPC))),
            qPrintable(err));
        QVERIFY2(!err.contains(QStringLiteral("Wrote")), qPrintable(err));
        QCOMPARE(typeOf(full), mode_t(S_IFCHR));
    }

    // One wrong time in a step's records (1e9 s) and one garbage line: the timeline, its charts and
    // the report leave out that record and that line, each named, and keep the rest of the step.
    void cliTimelineLeavesOutBadRecords()
    {
        const auto cli = [](const QStringList& args, QString* err) {
            QProcess p;
            p.start(QStringLiteral(KNEEPOINT_CLI), args);
            if (!p.waitForFinished(60000))
                p.kill();
            *err = QString::fromUtf8(p.readAllStandardError());
            return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        };
        const QString dir = m_tmp.filePath(QStringLiteral("bad-times"));
        QVERIFY(copyTree(QDir(fixtureRoot()).filePath(kRunA), dir));
        const QString late = dir + QStringLiteral("/steps/001.requests.jsonl");
        QList<QByteArray> lines = readAll(late).split('\n');
        QJsonObject first = QJsonDocument::fromJson(lines[0]).object();
        first.insert(QStringLiteral("end"), 1e9);
        lines[0] = QJsonDocument(first).toJson(QJsonDocument::Compact);
        {
            QFile f(late);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(lines.join('\n'));
        }
        const QString garbage = dir + QStringLiteral("/steps/002.requests.jsonl");
        lines = readAll(garbage).split('\n');
        lines.insert(3, "{\"index\": \"three\"");
        {
            QFile f(garbage);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(lines.join('\n'));
        }
        const SavedRunRead read = readSavedRun(dir);
        QVERIFY2(read.ok(), qPrintable(read.error));
        const double durationS = read.run->steps[1].metrics.durationS;
        QVERIFY(durationS > 0 && durationS < 10);
        const QString leftOut
            = QStringLiteral("%1: 1 record with a time past %2 s into the step (its duration, 60 s for "
                             "the drain, at most a day) left out of the timeline")
                  .arg(late)
                  .arg(qint64(durationS + 60));
        const QString skipped = QStringLiteral("%1:4: ").arg(garbage);

        QString err;
        const QString csv = m_tmp.filePath(QStringLiteral("bad-times.csv"));
        QCOMPARE(
            cli({ QStringLiteral("export"), dir, QStringLiteral("--timeline"), QStringLiteral("--out"), csv }, &err),
            0);
        QVERIFY2(err.contains(QStringLiteral("note: step 2 (%1): %2").arg(read.run->steps[1].load, leftOut)),
            qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("warning: ") + skipped), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("; the line is skipped")), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral(", 7 of 7 steps)")), qPrintable(err));
        const QByteArray rows = readAll(csv);
        QVERIFY2(rows.size() < 100000, qPrintable(QString::number(rows.size())));
        QVERIFY(rows.contains("\n2,"));
        QVERIFY(rows.contains("\n3,"));

        for (const QString& chart : { QStringLiteral("timeline"), QStringLiteral("gantt") }) {
            const QString png = m_tmp.filePath(QStringLiteral("bad-times-%1.png").arg(chart));
            QCOMPARE(cli({ QStringLiteral("export"), dir, QStringLiteral("--chart"), chart, QStringLiteral("--step"),
                             QStringLiteral("2"), QStringLiteral("--out"), png },
                         &err),
                0);
            QVERIFY2(err.contains(QStringLiteral("warning: ") + leftOut), qPrintable(err));
            QVERIFY2(err.contains(QStringLiteral("warning: ") + skipped), qPrintable(err));
            QVERIFY(!QImage(png).isNull());
        }
        const QString md = m_tmp.filePath(QStringLiteral("bad-times.md"));
        QCOMPARE(cli({ QStringLiteral("export"), dir, QStringLiteral("--out"), md }, &err), 0);
        QVERIFY2(err.contains(QStringLiteral("warning: ") + leftOut), qPrintable(err));
        QVERIFY(readAll(md).contains("## Timeline"));
    }
};

QTEST_MAIN(TestExport)
#include "tst_export.moc"
