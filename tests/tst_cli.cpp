// kneepoint-cli as users run it: a real process against the simulator on 127.0.0.1.
#include "sim/faults.h"
#include "sim/filelimit.h"
#include "sim/simhost.h"
#include "support/heldfifo.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <cmath>
#include <csignal>
#include <cstring>
#include <map>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

constexpr int kProcessTimeoutMs = 180000;

struct Outcome
{
    int exitCode = -1;
    QString out;
    QString err;
};

// The outcome of a command started with p.start(): waits for it to end (killing it past the limit).
Outcome finishCli(QProcess& p)
{
    if (!p.waitForFinished(kProcessTimeoutMs))
        p.kill();
    return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
        QString::fromUtf8(p.readAllStandardError()) };
}

Outcome runCli(const QStringList& args, const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment())
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(KNEEPOINT_CLI), args);
    return finishCli(p);
}

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A run directory copied, to change it in a test.
bool copyRun(const QString& from, const QString& to)
{
    if (!QDir().mkpath(to + QStringLiteral("/steps")))
        return false;
    QDirIterator it(from, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (!QFile::copy(path, to + path.mid(from.size())))
            return false;
    }
    return true;
}

QString closedPort()
{
    QTcpServer s;
    s.listen(QHostAddress::LocalHost, 0);
    return QString::number(s.serverPort());
}

const QStringList kSmallWorkload = { QStringLiteral("--random-input-len"), QStringLiteral("16"),
    QStringLiteral("--random-output-len"), QStringLiteral("16"), QStringLiteral("--quiet") };

// twin predict --save: a run in the data directory that every verb shows as predicted.
void checkSavedPrediction(const QString& twinPath)
{
    QTemporaryDir data;
    const QString measured = QFINDTESTDATA("data/export/runs/20261130-043500-sim-a");
    const Outcome saved = runCli({ QStringLiteral("twin"), QStringLiteral("predict"), twinPath, QStringLiteral("--set"),
        QStringLiteral("max_num_seqs=128"), QStringLiteral("--rates"), QStringLiteral("20,40,80,120"),
        QStringLiteral("--save"), QStringLiteral("--data-dir"), data.path(), QStringLiteral("--label"),
        QStringLiteral("what-if") });
    QVERIFY2(saved.exitCode == 0, qPrintable(saved.err));
    const QStringList dirs = QDir(data.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QCOMPARE(dirs.size(), 1);
    const QString dir = QDir(data.path()).filePath(dirs.constFirst());
    QVERIFY2(saved.err.contains(
                 QStringLiteral("saved the predicted run in %1 (marked predicted, not a measurement)\n").arg(dir)),
        qPrintable(saved.err));
    const QJsonObject run = QJsonDocument::fromJson(readFile(dir + QStringLiteral("/run.json"))).object();
    QCOMPARE(run.value(QStringLiteral("predicted")).toBool(), true);
    QCOMPARE(
        run.value(QStringLiteral("prediction")).toObject().value(QStringLiteral("twin_file")).toString(), twinPath);

    const Outcome list = runCli({ QStringLiteral("runs"), QStringLiteral("--data-dir"), data.path() });
    QCOMPARE(list.exitCode, 0);
    QVERIFY2(list.out.contains(QStringLiteral("finished (predicted, not measured)\n")), qPrintable(list.out));
    const Outcome listJson
        = runCli({ QStringLiteral("runs"), QStringLiteral("--data-dir"), data.path(), QStringLiteral("--json") });
    QCOMPARE(QJsonDocument::fromJson(listJson.out.toUtf8())
                 .array()
                 .at(0)
                 .toObject()
                 .value(QStringLiteral("predicted"))
                 .toBool(),
        true);

    // The gate refuses a prediction: it would judge the twin's error, not the server.
    const Outcome gate = runCli({ QStringLiteral("compare"), measured, QStringLiteral("what-if"),
        QStringLiteral("--data-dir"), data.path(), QStringLiteral("--fail-if"), QStringLiteral("ttft.p99>+10%") });
    QCOMPARE(gate.exitCode, 2);
    QCOMPARE(gate.err,
        QStringLiteral("error: --fail-if judges measured runs; what-if (%1) is a prediction: Predicted by a twin "
                       "fitted to 20261130-043500-sim-a, with overrides max_num_seqs=128; not a measurement. Gate "
                       "a measured run instead, or compare without --fail-if to see the prediction beside it\n")
            .arg(dir));
    const Outcome compare = runCli({ QStringLiteral("compare"), measured, QStringLiteral("what-if"),
        QStringLiteral("--data-dir"), data.path(), QStringLiteral("--metric"), QStringLiteral("throughput") });
    QCOMPARE(compare.exitCode, 0);
    QVERIFY2(compare.out.contains(
                 QStringLiteral("\nwhat-if (%1), predicted by a twin, not a measurement\n").arg(dirs.constFirst())),
        qPrintable(compare.out));

    // An exported chart says predicted in its title; a chart of requests says there are none.
    const QString svg = data.filePath(QStringLiteral("latency.svg"));
    const Outcome chart = runCli({ QStringLiteral("export"), QStringLiteral("what-if"), QStringLiteral("--data-dir"),
        data.path(), QStringLiteral("--chart"), QStringLiteral("latency"), QStringLiteral("--out"), svg });
    QVERIFY2(chart.exitCode == 0, qPrintable(chart.err));
    QVERIFY2(readFile(svg).contains("<title>Load–latency · P99 TTFT and P50 TTFT (predicted)</title>"),
        readFile(svg).left(600).constData());
    const Outcome gantt = runCli({ QStringLiteral("export"), QStringLiteral("what-if"), QStringLiteral("--data-dir"),
        data.path(), QStringLiteral("--chart"), QStringLiteral("gantt"), QStringLiteral("--step"), QStringLiteral("1"),
        QStringLiteral("--out"), data.filePath(QStringLiteral("gantt.png")) });
    QCOMPARE(gantt.exitCode, 2);
    QCOMPARE(gantt.err,
        QStringLiteral("error: step 1 of %1: no per-request records: predicted (a twin's prediction has no "
                       "requests to draw)\n")
            .arg(dir));
    const QString csv = data.filePath(QStringLiteral("steps.csv"));
    QCOMPARE(runCli({ QStringLiteral("export"), QStringLiteral("what-if"), QStringLiteral("--data-dir"), data.path(),
                        QStringLiteral("--out"), csv })
                 .exitCode,
        0);
    const QList<QByteArray> rows = readFile(csv).trimmed().split('\n');
    QCOMPARE(rows.size(), 5);
    QVERIFY(rows.front().endsWith(",client_bound,predicted"));
    for (qsizetype i = 1; i < rows.size(); ++i)
        QVERIFY2(rows.at(i).endsWith(",false,false,true"), rows.at(i).constData());
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

    kp::sim::SimHost m_sim;
    QString m_base;
    QTemporaryDir m_dataHome; // XDG_DATA_HOME of every command: runs saved without --out land here
    const QString m_key = QStringLiteral("sk-kneepoint-test-0123456789abcdefghij");

private Q_SLOTS:
    void initTestCase()
    {
        kp::sim::raiseFileLimit();
        kp::sim::SimServerOptions options;
        options.timeScale = 10;
        options.apiKey = m_key;
        QVERIFY2(m_sim.start(options), qPrintable(m_sim.errorString()));
        m_base = m_sim.baseUrl().toString();
        QVERIFY(m_dataHome.isValid());
        qputenv("XDG_DATA_HOME", m_dataHome.path().toUtf8());
    }

    void cleanupTestCase() { m_sim.stop(); }

    void twinFitThenPredict()
    {
        QTemporaryDir dir;
        const QString twinPath = dir.filePath(QStringLiteral("twin.json"));
        const Outcome fit = runCli({ QStringLiteral("twin"), QStringLiteral("fit"),
            QFINDTESTDATA("data/export/runs/20261130-043500-sim-a"), QStringLiteral("--out"), twinPath });
        QVERIFY2(fit.exitCode == 0, qPrintable(fit.err));
        QVERIFY(fit.out.startsWith(QStringLiteral("twin of 20261130-043500-sim-a: 5 steps, fit error ")));
        QVERIFY(fit.err.contains(QStringLiteral("wrote %1 (serve it with: kneepoint-sim --config %1)").arg(twinPath)));
        const QJsonObject file = QJsonDocument::fromJson(readFile(twinPath)).object();
        QCOMPARE(file.value(QStringLiteral("twin")).toObject().value(QStringLiteral("format")).toString(),
            QStringLiteral("kneepoint.twin/1"));
        QCOMPARE(file.value(QStringLiteral("twin")).toObject().value(QStringLiteral("source_runs")).toArray(),
            QJsonArray({ QStringLiteral("20261130-043500-sim-a") }));

        const Outcome predicted = runCli({ QStringLiteral("twin"), QStringLiteral("predict"), twinPath,
            QStringLiteral("--set"), QStringLiteral("max_num_seqs=128"), QStringLiteral("--set"),
            QStringLiteral("kv_capacity_tokens=x2"), QStringLiteral("--replicas"), QStringLiteral("3"),
            QStringLiteral("--rates"), QStringLiteral("10,20,40,80"), QStringLiteral("--json") });
        QVERIFY2(predicted.exitCode == 0, qPrintable(predicted.err));
        const QJsonObject doc = QJsonDocument::fromJson(predicted.out.toUtf8()).object();
        QCOMPARE(doc.value(QStringLiteral("predicted")).toBool(), true);
        QCOMPARE(doc.value(QStringLiteral("replicas")).toInt(), 3);
        QCOMPARE(doc.value(QStringLiteral("overrides")).toObject(),
            QJsonObject({ { QStringLiteral("max_num_seqs"), QStringLiteral("128") },
                { QStringLiteral("kv_capacity_tokens"), QStringLiteral("x2") } }));
        const QJsonArray steps = doc.value(QStringLiteral("steps")).toArray();
        QCOMPARE(steps.size(), 4);
        for (int i = 0; i < steps.size(); ++i) {
            const QJsonObject step = steps.at(i).toObject();
            QCOMPARE(step.value(QStringLiteral("predicted")).toBool(), true);
            QCOMPARE(step.value(QStringLiteral("request_rate")).toDouble(), QList<double>({ 10, 20, 40, 80 }).at(i));
            QVERIFY(step.value(QStringLiteral("request_throughput")).toDouble() > 0);
        }
        QCOMPARE(doc.value(QStringLiteral("analysis")).toObject().value(QStringLiteral("predicted")).toBool(), true);

        const Outcome text = runCli({ QStringLiteral("twin"), QStringLiteral("predict"), twinPath,
            QStringLiteral("--rates"), QStringLiteral("10") });
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.startsWith(QStringLiteral("predicted by the twin %1 (fitted to 20261130-043500-sim-a)\n"
                                                   "predicted rate= 10 RPS= ")
                                        .arg(twinPath)));

        const Outcome bad = runCli({ QStringLiteral("twin"), QStringLiteral("predict"), twinPath,
            QStringLiteral("--set"), QStringLiteral("max_num_seqs=0") });
        QCOMPARE(bad.exitCode, 2);
        QCOMPARE(bad.err,
            QStringLiteral("error: --set max_num_seqs=0: max_num_seqs must be an integer from 1 to 100000, got 0\n"));

        checkSavedPrediction(twinPath);
    }

    void versionAndUsage()
    {
        const Outcome version = runCli({ QStringLiteral("--version") });
        QCOMPARE(version.exitCode, 0);
        QCOMPARE(version.out, QStringLiteral("kneepoint-cli " KNEEPOINT_VERSION "\n"));
        const Outcome help = runCli({ QStringLiteral("sweep"), QStringLiteral("--help") });
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains(QStringLiteral("--request-rate")));
        const Outcome unknown = runCli({ QStringLiteral("launch") });
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY(unknown.err.contains(QStringLiteral("unknown command \"launch\"")));
        const Outcome badFlag = runCli({ QStringLiteral("run"), QStringLiteral("--base-url"), m_base,
            QStringLiteral("--num-prompts"), QStringLiteral("many") });
        QCOMPARE(badFlag.exitCode, 2);
        QVERIFY(badFlag.err.contains(QStringLiteral("--num-prompts: not a number: \"many\"")));
        // A whole number too large for its field is out of range, not "not a number".
        const Outcome huge
            = runCli({ QStringLiteral("run"), QStringLiteral("--base-url"), QStringLiteral("http://127.0.0.1:9"),
                QStringLiteral("--random-output-len"), QStringLiteral("2147483648") });
        QCOMPARE(huge.exitCode, 2);
        QVERIFY2(
            huge.err.contains(QStringLiteral("--random-output-len: 2147483648 is out of range: at most 2147483647")),
            qPrintable(huge.err));
        const Outcome half = runCli({ QStringLiteral("run"), QStringLiteral("--base-url"),
            QStringLiteral("http://127.0.0.1:9"), QStringLiteral("--num-prompts"), QStringLiteral("2.5") });
        QVERIFY2(half.err.contains(QStringLiteral("--num-prompts: not a whole number: \"2.5\"")), qPrintable(half.err));

        // --metadata: KEY=VALUE, and never a key the result file writes itself.
        const Outcome noEquals = runCli({ QStringLiteral("run"), QStringLiteral("--base-url"),
            QStringLiteral("http://127.0.0.1:9"), QStringLiteral("--metadata"), QStringLiteral("framework") });
        QCOMPARE(noEquals.exitCode, 2);
        QVERIFY2(noEquals.err.contains(QStringLiteral("--metadata: \"framework\" is not KEY=VALUE")),
            qPrintable(noEquals.err));
        const Outcome reference
            = runCli({ QStringLiteral("run"), QStringLiteral("--base-url"), QStringLiteral("http://127.0.0.1:9"),
                QStringLiteral("--metadata"), QStringLiteral("gpu=h100"), QStringLiteral("request_rate=5") });
        QCOMPARE(reference.exitCode, 2);
        QVERIFY2(reference.err.contains(QStringLiteral(
                     "--metadata: \"request_rate=5\": \"request_rate\" is a key the result file writes itself")),
            qPrintable(reference.err));
    }

    void validateNamesFileLineAndField()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("settings.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            "{\n  \"base_url\": \"http://127.0.0.1:8000\",\n  \"model_id\": \"m\",\n  \"request_rates\": [10, 0]\n}\n");
        f.close();
        const Outcome bad = runCli({ QStringLiteral("validate"), QStringLiteral("--profile"), path });
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(path + QStringLiteral(":4:25: request_rates[1]: must be > 0")), qPrintable(bad.err));
        // The file may also be named on its own.
        const Outcome plain = runCli({ QStringLiteral("validate"), path });
        QCOMPARE(plain.exitCode, 2);
        QCOMPARE(plain.err, bad.err);

        // A rate a run would refuse for its load limits is refused here too.
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("{\"base_url\": \"http://192.0.2.10:8000\", \"model_id\": \"m\", \"request_rates\": [10, 1e308]}\n");
        f.close();
        const Outcome high = runCli({ QStringLiteral("validate"), path });
        QCOMPARE(high.exitCode, 2);
        QVERIFY2(high.err.contains(QStringLiteral("passes the limit of 2000 req/s")), qPrintable(high.err));
        QCOMPARE(runCli({ QStringLiteral("validate"), path, QStringLiteral("--allow-high-load") }).exitCode, 0);
    }

    // Before a run: how many requests will re-send a prompt, from the file's prompts (or the pool) and the
    // plan's requests, warm-ups included; synthetic prompts without a pool never repeat.
    void promptReuseIsSaidBeforeTheRun()
    {
        QTemporaryDir dir;
        QFile data(dir.filePath(QStringLiteral("three.jsonl")));
        QVERIFY(data.open(QIODevice::WriteOnly));
        data.write("{\"prompt\": \"one two\"}\n{\"prompt\": \"three four\"}\n{\"prompt\": \"five six\"}\n");
        data.close();
        const QString path = dir.filePath(QStringLiteral("settings.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("{\"target\": {\"base_url\": \"http://127.0.0.1:8000\", \"model\": \"m\"},"
                               " \"workload\": {\"dataset\": \"jsonl\", \"dataset_path\": \"%1\", \"num_prompts\": 10},"
                               " \"load\": {\"rates\": [10, 20], \"warmup_requests\": 1}}\n")
                    .arg(data.fileName())
                    .toUtf8());
        f.close();
        const Outcome file = runCli({ QStringLiteral("validate"), path });
        QCOMPARE(file.exitCode, 0);
        // 2 steps of 10 requests and a warm-up, 3 prompts: 19 of 22 re-send one.
        QVERIFY2(file.err.contains(QStringLiteral("note: The dataset has 3 prompts for 22 requests: 86 % of requests "
                                                  "will re-send a prompt (a prefix-caching server will look faster "
                                                  "than under real traffic)")),
            qPrintable(file.err));
        const Outcome random = runCli({ QStringLiteral("validate"), path, QStringLiteral("--dataset-name"),
            QStringLiteral("random"), QStringLiteral("--input-len"), QStringLiteral("8") });
        QCOMPARE(random.exitCode, 0);
        QVERIFY2(!random.err.contains(QStringLiteral("re-send")), qPrintable(random.err));
        const Outcome pool = runCli({ QStringLiteral("validate"), path, QStringLiteral("--dataset-name"),
            QStringLiteral("random"), QStringLiteral("--input-len"), QStringLiteral("8"),
            QStringLiteral("--prompt-pool"), QStringLiteral("4") });
        QCOMPARE(pool.exitCode, 0);
        QVERIFY2(pool.err.contains(QStringLiteral("The dataset has 4 prompts for 22 requests: 82 % of requests")),
            qPrintable(pool.err));
    }

    // A bad model mix or length distribution on the command line is named with its option and entry.
    void badMixAndDistributionAreNamed()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("settings.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"base_url\": \"http://127.0.0.1:8000\", \"model_id\": \"m\", \"request_rates\": [10]}\n");
        f.close();
        QCOMPARE(runCli({ QStringLiteral("validate"), path }).exitCode, 0);
        const Outcome mix
            = runCli({ QStringLiteral("validate"), path, QStringLiteral("--model-mix"), QStringLiteral("a:0.7,b") });
        QCOMPARE(mix.exitCode, 2);
        QVERIFY2(
            mix.err.contains(QStringLiteral("--model-mix: entry \"b\": expected NAME:WEIGHT, e.g. \"a:0.7,b:0.3\"")),
            qPrintable(mix.err));
        const Outcome zero
            = runCli({ QStringLiteral("validate"), path, QStringLiteral("--model-mix"), QStringLiteral("a:0,b:0") });
        QCOMPARE(zero.exitCode, 2);
        QVERIFY2(zero.err.contains(QStringLiteral(
                     "--model-mix: the weights of \"a:0,b:0\" sum to 0; they must sum to a positive number")),
            qPrintable(zero.err));
        const Outcome shape
            = runCli({ QStringLiteral("validate"), path, QStringLiteral("--input-len-dist"), QStringLiteral("gauss") });
        QCOMPARE(shape.exitCode, 2);
        QVERIFY2(shape.err.contains(QStringLiteral(
                     "--input-len-dist: unknown distribution \"gauss\" (uniform, fixed, normal, lognormal)")),
            qPrintable(shape.err));
        const Outcome noStd = runCli(
            { QStringLiteral("validate"), path, QStringLiteral("--output-len-dist"), QStringLiteral("normal") });
        QCOMPARE(noStd.exitCode, 2);
        QVERIFY2(noStd.err.contains(QStringLiteral("output_len_std")), qPrintable(noStd.err));
        QCOMPARE(runCli({ QStringLiteral("validate"), path, QStringLiteral("--model-mix"),
                            QStringLiteral("a:0.7,b:0.3"), QStringLiteral("--output-len-dist"),
                            QStringLiteral("normal"), QStringLiteral("--output-len-std"), QStringLiteral("16") })
                     .exitCode,
            0);
    }

    // A literal key is worth a warning that names the file (never the key); a long plan is summed up
    // rather than printed whole (a million rates is a valid plan).
    void validateWarnsOfAPlainKeyAndSumsUpLongPlans()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("keyed.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QByteArray rates;
        for (int r = 1; r <= 20; ++r)
            rates += (r > 1 ? "," : "") + QByteArray::number(r);
        f.write("{\"base_url\": \"http://127.0.0.1:8000\", \"api_key\": \"sk-live-31337\", \"request_rates\": [" + rates
            + "]}\n");
        f.close();
        const Outcome o = runCli({ QStringLiteral("validate"), path });
        QVERIFY2(o.exitCode == 0, qPrintable(o.err));
        QCOMPARE(o.out,
            path
                + QStringLiteral(
                    ": ok (list plan: 1 req/s, 2 req/s, 3 req/s, 4 req/s, 5 req/s, 6 req/s, 7 req/s, 8 req/s, "
                    "9 req/s, 10 req/s, 11 req/s, … 20 req/s (20 steps); 1000 requests per step)\n"));
        QCOMPARE(o.err,
            QStringLiteral("warning: %1:1:50: api_key: the API key is stored in plain text in %1; keep it out of the "
                           "file with \"${VAR}\" (an environment variable), \"keychain:ENTRY\" (the desktop keychain) "
                           "or \"file:PATH\" (a file of its own)\n")
                .arg(path));
        QVERIFY(!(o.out + o.err).contains(QStringLiteral("31337")));

        // Steps of a duration: the duration sets their requests, not num_prompts.
        const QString timed = QStringLiteral(QT_TESTCASE_SOURCEDIR "/../resources/profiles/demo.json");
        const Outcome d = runCli({ QStringLiteral("validate"), timed });
        QVERIFY2(d.exitCode == 0, qPrintable(d.err));
        QVERIFY2(d.out.endsWith(QStringLiteral("; 8 s per step)\n")), qPrintable(d.out));
    }

    // The run directory, the reference result file, the printed block; and the key is nowhere on disk.
    void runWritesResultsWithoutTheKey()
    {
        QTemporaryDir dir;
        const QString runDir = dir.filePath(QStringLiteral("run"));
        const QString resultDir = dir.filePath(QStringLiteral("results"));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("OPENAI_API_KEY"), m_key);
        const Outcome r = runCli(
            QStringList { QStringLiteral("run"), QStringLiteral("--base-url"), m_base, QStringLiteral("--backend"),
                QStringLiteral("openai"), QStringLiteral("--num-prompts"), QStringLiteral("20"),
                QStringLiteral("--request-rate"), QStringLiteral("40"), QStringLiteral("--out"), runDir,
                QStringLiteral("--save-result"), QStringLiteral("--save-detailed"), QStringLiteral("--result-dir"),
                resultDir, QStringLiteral("--label"), QStringLiteral("nightly"), QStringLiteral("--metadata"),
                QStringLiteral("framework=sim"), QStringLiteral(" gpu = none ") }
                + kSmallWorkload,
            env);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(r.out.startsWith(QStringLiteral("============ Serving Benchmark Result ============\n")));
        QVERIFY(r.out.contains(QStringLiteral("Successful requests:                     20        \n")));
        QVERIFY(r.out.contains(QStringLiteral("Request rate configured (RPS):           40.00     \n")));

        const QJsonObject run = QJsonDocument::fromJson(readFile(runDir + QStringLiteral("/run.json"))).object();
        QCOMPARE(run.value(u"status").toString(), QStringLiteral("finished"));
        QCOMPARE(run.value(u"steps").toArray().size(), 1);
        const QJsonObject step = QJsonDocument::fromJson(readFile(runDir + QStringLiteral("/steps/000.json"))).object();
        QCOMPARE(step.value(u"completed").toInt(), 20);
        QCOMPARE(step.value(u"request_rate").toDouble(), 40.0);
        QCOMPARE(step.value(u"framework").toString(), QStringLiteral("sim")); // vLLM's --metadata, trimmed
        QCOMPARE(step.value(u"gpu").toString(), QStringLiteral("none"));
        QCOMPARE(readFile(runDir + QStringLiteral("/steps/000.requests.jsonl")).count('\n'), 20);

        const QStringList results = QDir(resultDir).entryList({ QStringLiteral("*.json") });
        QCOMPARE(results.size(), 1);
        QVERIFY2(
            results.first().startsWith(QStringLiteral("nightly-40.0qps-sim-default-")), qPrintable(results.first()));
        const QJsonObject result = QJsonDocument::fromJson(readFile(resultDir + u'/' + results.first())).object();
        QCOMPARE(result.value(u"ttfts").toArray().size(), 20);
        QCOMPARE(result.value(u"latencies").toArray().size(), 20);
        QCOMPARE(result.value(u"start_times").toArray().size(), 20);
        QCOMPARE(result.value(u"label").toString(), QStringLiteral("nightly"));
        QCOMPARE(result.value(u"framework").toString(), QStringLiteral("sim"));

        QDirIterator files(dir.path(), QDir::Files, QDirIterator::Subdirectories);
        while (files.hasNext()) {
            const QString file = files.next();
            QVERIFY2(!readFile(file).contains(m_key.toUtf8()), qPrintable(file + QStringLiteral(" holds the API key")));
        }
    }

    // Each new API surface runs against the simulator; a whole answer's TTFT is "—", never a number. The
    // Messages API sends the key as x-api-key, which the simulator checks.
    void otherApiSurfacesRunWithUnknownTtftWhenWhole_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<bool>("ttftKnown");
        QTest::addRow("anthropic-messages, streamed")
            << QStringList { QStringLiteral("--backend"), QStringLiteral("anthropic-messages") } << true;
        QTest::addRow("anthropic-messages, --no-stream") << QStringList { QStringLiteral("--backend"),
            QStringLiteral("anthropic-messages"), QStringLiteral("--no-stream") }
                                                         << false;
        QTest::addRow("openai-responses, --no-stream") << QStringList { QStringLiteral("--backend"),
            QStringLiteral("openai-responses"), QStringLiteral("--no-stream") }
                                                       << false;
        QTest::addRow("openai-embeddings, batches of 4") << QStringList { QStringLiteral("--backend"),
            QStringLiteral("openai-embeddings"), QStringLiteral("--embedding-batch"), QStringLiteral("4") }
                                                         << false;
    }

    void otherApiSurfacesRunWithUnknownTtftWhenWhole()
    {
        QFETCH(QStringList, args);
        QFETCH(bool, ttftKnown);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("OPENAI_API_KEY"), m_key);
        QTemporaryDir dir;
        const Outcome r
            = runCli(QStringList { QStringLiteral("run"), QStringLiteral("--base-url"), m_base,
                         QStringLiteral("--num-prompts"), QStringLiteral("10"), QStringLiteral("--request-rate"),
                         QStringLiteral("40"), QStringLiteral("--out"), dir.filePath(QStringLiteral("run")),
                         QStringLiteral("--percentile-metrics"), QStringLiteral("ttft,e2el") }
                    + args + kSmallWorkload,
                env);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QVERIFY2(
            r.out.contains(QStringLiteral("Successful requests:                     10        \n")), qPrintable(r.out));
        const QString unknownTtft
            = QStringLiteral("Mean TTFT (ms):").leftJustified(40) + QStringLiteral(" —") + QString(9, u' ') + u'\n';
        QVERIFY2(r.out.contains(unknownTtft) != ttftKnown, qPrintable(r.out));
        const QString e2el = QStringLiteral("Mean E2EL (ms):").leftJustified(40) + u' ';
        QVERIFY2(r.out.contains(e2el) && !r.out.contains(e2el + u'—'), qPrintable(r.out)); // measured
    }

    // Images in chat against the simulator: every request's server prompt tokens are its text tokens plus
    // what the simulator counts for each image, ceil(W/28)·ceil(H/28) + 2, and the step says so.
    void imagesAddTheirTokens_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("size");
        QTest::addColumn<int>("imageTokens"); // per request
        QTest::addRow("png 448x448") << QStringLiteral("png") << QStringLiteral("448x448") << 2 * (16 * 16 + 2);
        QTest::addRow("jpeg 100x50") << QStringLiteral("jpeg") << QStringLiteral("100x50") << 2 * (4 * 2 + 2);
    }
    void imagesAddTheirTokens()
    {
        QFETCH(QString, format);
        QFETCH(QString, size);
        QFETCH(int, imageTokens);
        QTemporaryDir dir;
        const QString runDir = dir.filePath(QStringLiteral("run"));
        const Outcome r = runCli({ QStringLiteral("sweep"), QStringLiteral("--base-url"),
            QStringLiteral("sim://default?time_scale=2"), QStringLiteral("--backend"), QStringLiteral("openai-chat"),
            QStringLiteral("--num-prompts"), QStringLiteral("8"), QStringLiteral("--request-rate"),
            QStringLiteral("20"), QStringLiteral("--random-input-len"), QStringLiteral("16"),
            QStringLiteral("--random-output-len"), QStringLiteral("4"), QStringLiteral("--ignore-eos"),
            QStringLiteral("--image-count"), QStringLiteral("2"), QStringLiteral("--image-size"), size,
            QStringLiteral("--image-format"), format, QStringLiteral("--out"), runDir });
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // The request size the images make is said before the run (the first prompt's, exactly).
        const QRegularExpression note(
            QStringLiteral("note: images: 2 per request, ([0-9.]+) kB of data URLs in each \\(the first prompt's\\); "
                           "([0-9.]+) kB/s to send at the plan's highest rate, 20 req/s\n"));
        const QRegularExpressionMatch said = note.match(r.err);
        QVERIFY2(said.hasMatch(), qPrintable(r.err));
        QVERIFY(said.captured(1).toDouble() > 0);
        // Per second at 20 req/s, each figure rounded to 0.1 kB.
        QVERIFY2(std::abs(said.captured(2).toDouble() - said.captured(1).toDouble() * 20) <= 20 * 0.05 + 0.05,
            qPrintable(said.captured(0)));
        QVERIFY2(r.out.contains(QStringLiteral("Mean image tokens per request:")), qPrintable(r.out));
        const QJsonObject step = QJsonDocument::fromJson(readFile(runDir + QStringLiteral("/steps/000.json"))).object();
        QCOMPARE(step.value(u"completed").toInt(), 8);
        const QJsonObject extras = step.value(u"kneepoint").toObject();
        QCOMPARE(extras.value(u"images_per_request").toInt(), 2);
        QCOMPARE(extras.value(u"mean_image_tokens").toDouble(), double(imageTokens));
        const QList<QByteArray> lines = readFile(runDir + QStringLiteral("/steps/000.requests.jsonl")).split('\n');
        int requests = 0;
        qint64 serverTokens = 0;
        for (const QByteArray& line : lines) {
            if (line.isEmpty())
                continue;
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            QVERIFY(o.value(u"prompt_tokens").toInt() > 0);
            QCOMPARE(o.value(u"server_prompt_tokens").toInt(), o.value(u"prompt_tokens").toInt() + imageTokens);
            serverTokens += o.value(u"server_prompt_tokens").toInt();
            ++requests;
        }
        QCOMPARE(requests, 8);
        // Input throughput counts the images: the server's count, not the text's.
        QCOMPARE(step.value(u"total_input_tokens").toInteger(), serverTokens);
    }

    // An image folder holding a file that is not an image is refused naming the file; images on a
    // completions backend are refused naming the backend.
    void badImageInputsAreNamed()
    {
        QTemporaryDir dir;
        QFile notes(dir.filePath(QStringLiteral("notes.txt")));
        QVERIFY(notes.open(QIODevice::WriteOnly));
        notes.write("hello");
        notes.close();
        const Outcome folder = runCli({ QStringLiteral("run"), QStringLiteral("--base-url"),
            QStringLiteral("sim://default?time_scale=2"), QStringLiteral("--backend"), QStringLiteral("openai-chat"),
            QStringLiteral("--num-prompts"), QStringLiteral("2"), QStringLiteral("--request-rate"), QStringLiteral("5"),
            QStringLiteral("--image-dir"), dir.path(), QStringLiteral("--quiet") });
        QVERIFY(folder.exitCode != 0);
        QVERIFY2(folder.err.contains(QStringLiteral("image %1: not a PNG, JPEG, WebP or GIF image")
                                         .arg(QDir::toNativeSeparators(notes.fileName()))),
            qPrintable(folder.err));

        const Outcome completions = runCli({ QStringLiteral("run"), QStringLiteral("--base-url"), m_base,
            QStringLiteral("--backend"), QStringLiteral("openai"), QStringLiteral("--image-count"), QStringLiteral("1"),
            QStringLiteral("--image-size"), QStringLiteral("64x64") });
        QVERIFY(completions.exitCode != 0);
        QVERIFY2(completions.err.contains(QStringLiteral("images need a chat backend (openai-chat, openai-responses or "
                                                         "anthropic-messages); openai takes none")),
            qPrintable(completions.err));

        // 64 images of 8192x8192 would be 12.9 GB of pixels to encode for each request: refused before anything.
        const Outcome huge = runCli({ QStringLiteral("run"), QStringLiteral("--base-url"), m_base,
            QStringLiteral("--backend"), QStringLiteral("openai-chat"), QStringLiteral("--image-count"),
            QStringLiteral("64"), QStringLiteral("--image-size"), QStringLiteral("8192x8192") });
        QCOMPARE(huge.exitCode, 2);
        QVERIFY2(
            huge.err.contains(QStringLiteral("workload.image_count: 64 images of 8192x8192 are 12885 MB of pixels to "
                                             "encode for every request, above the limit of 268 MB per request")),
            qPrintable(huge.err));
    }

    void unknownBackendIsRefusedNamingTheKnownOnes()
    {
        const Outcome r = runCli({ QStringLiteral("run"), QStringLiteral("--base-url"), m_base,
            QStringLiteral("--backend"), QStringLiteral("tgi") });
        QVERIFY(r.exitCode != 0);
        QVERIFY2(
            r.err.contains(QStringLiteral("--backend: unknown backend \"tgi\"; expected openai, openai-chat, vllm, "
                                          "openai-responses, anthropic-messages or openai-embeddings")),
            qPrintable(r.err));
    }

    void sweepPrintsOneLinePerStepAndCsv()
    {
        QTemporaryDir dir;
        const QString runDir = dir.filePath(QStringLiteral("sweep"));
        const Outcome r
            = runCli(QStringList { QStringLiteral("sweep"), QStringLiteral("--base-url"), m_base,
                         QStringLiteral("--api-key"), m_key, QStringLiteral("--num-prompts"), QStringLiteral("12"),
                         QStringLiteral("--request-rate"), QStringLiteral("20,40"), QStringLiteral("--out"), runDir }
                + kSmallWorkload);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(r.err.contains(QStringLiteral("--api-key puts the key in the process list")));
        // A summary block per step, then the sweep table and the analysis.
        QCOMPARE(r.out.count(QStringLiteral("============ Serving Benchmark Result ============\n")), 2);
        const qsizetype table = r.out.indexOf(QStringLiteral("===================== Sweep ======================\n"));
        QVERIFY(table > 0);
        const QStringList lines = r.out.mid(table).split(u'\n', Qt::SkipEmptyParts);
        QVERIFY2(lines.size() >= 4, qPrintable(r.out));
        QVERIFY2(lines[1].startsWith(QStringLiteral("rate= 20 RPS= ")), qPrintable(lines[1]));
        QVERIFY2(lines[2].startsWith(QStringLiteral("rate= 40 RPS= ")), qPrintable(lines[2]));
        QCOMPARE(lines[3], QStringLiteral("-------------------- Analysis --------------------"));
        QVERIFY(QFile::exists(runDir + QStringLiteral("/analysis.json")));
        QCOMPARE(readFile(runDir + QStringLiteral("/sweep.csv")).count('\n'), 3);
        QVERIFY(QFile::exists(runDir + QStringLiteral("/steps/001.json")));
    }

    // Conversations and a Mooncake trace through the CLI: sessions and cached tokens in the summary and the
    // step file; a trace's bad line named, skipped and counted in run.json.
    void multiTurnAndTraceRuns()
    {
        QTemporaryDir dir;
        const QString runDir = dir.filePath(QStringLiteral("chat"));
        const Outcome chat
            = runCli(QStringList { QStringLiteral("run"), QStringLiteral("--base-url"), m_base,
                         QStringLiteral("--api-key"), m_key, QStringLiteral("--multi-turn"), QStringLiteral("--turns"),
                         QStringLiteral("3"), QStringLiteral("--system-prompt-len"), QStringLiteral("40"),
                         QStringLiteral("--num-prompts"), QStringLiteral("10"), QStringLiteral("--request-rate"),
                         QStringLiteral("40"), QStringLiteral("--out"), runDir }
                + kSmallWorkload);
        QVERIFY2(chat.exitCode == 0, qPrintable(chat.err));
        const auto row = [](const char* label, const char* value) {
            return QString::fromLatin1(label).leftJustified(40) + u' ' + QString::fromLatin1(value).leftJustified(10);
        };
        QVERIFY2(chat.out.contains(row("Sessions:", "4")), qPrintable(chat.out));
        QVERIFY(chat.out.contains(row("Completed first turns:", "4")));
        QVERIFY(chat.out.contains(row("Completed later turns:", "6")));
        QVERIFY(chat.out.contains(QStringLiteral("Prefix cache hit rate (%):")));
        const QJsonObject step = QJsonDocument::fromJson(readFile(runDir + QStringLiteral("/steps/000.json"))).object();
        QCOMPARE(step.value(u"num_sessions").toInt(), 4);
        QCOMPARE(step.value(u"completed").toInt(), 10);
        // Every session shares the 40-word system prompt (32 tokens in full blocks) once the first has run.
        QVERIFY(step.value(u"total_cached_tokens").toInt() > 0);

        const QString trace = dir.filePath(QStringLiteral("trace.jsonl"));
        QFile file(trace);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"timestamp": 0, "input_length": 600, "output_length": 4, "hash_ids": [1, 2]}
{"timestamp": 20, "input_length": 700, "output_length": 4, "hash_ids": [1, 3]}
{"timestamp": 40, "input_length": 10, "output_length": 4, "hash_ids": [1, 2, 3]}
{"timestamp": 60, "input_length": 512, "output_length": 4}
{"timestamp": 80, "input_length": 1000, "output_length": 4, "hash_ids": [1, 2]}
)");
        file.close();
        const QString traceDir = dir.filePath(QStringLiteral("trace"));
        const Outcome replay = runCli({ QStringLiteral("run"), QStringLiteral("--base-url"), m_base,
            QStringLiteral("--api-key"), m_key, QStringLiteral("--dataset-name"), QStringLiteral("mooncake"),
            QStringLiteral("--dataset-path"), trace, QStringLiteral("--num-prompts"), QStringLiteral("3"),
            QStringLiteral("--out"), traceDir, QStringLiteral("--quiet") });
        QVERIFY2(replay.exitCode == 0, qPrintable(replay.err));
        QVERIFY2(replay.err.contains(trace + QStringLiteral(":3:")), qPrintable(replay.err)); // 10 tokens in 3 blocks
        QVERIFY2(replay.err.contains(trace + QStringLiteral(":4:")), qPrintable(replay.err)); // no hash_ids
        const QJsonObject run = QJsonDocument::fromJson(readFile(traceDir + QStringLiteral("/run.json"))).object();
        const QJsonObject entry = run.value(u"steps").toArray().first().toObject();
        QCOMPARE(entry.value(u"dataset_skipped").toInt(), 2);
        QCOMPARE(entry.value(u"completed").toInt(), 3);
        const QJsonObject traceStep
            = QJsonDocument::fromJson(readFile(traceDir + QStringLiteral("/steps/000.json"))).object();
        // The third request repeats the first's blocks [1, 2]: its first 592 tokens (37 blocks of 16) are
        // cached, and the second's block 1 (the first 512 tokens) too.
        QCOMPARE(traceStep.value(u"total_input_tokens").toInt(), 600 + 700 + 1000);
        QVERIFY(traceStep.value(u"total_cached_tokens").toInt() >= 512 + 592);
    }

    // What the preflight learns that the profile contradicts, and a replayed log that would wait without
    // end, are refused before any load is sent or any run folder is made.
    void contradictionsAreRefusedBeforeTheLoad()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("never"));
        const QStringList base { QStringLiteral("run"), QStringLiteral("--base-url"), m_base,
            QStringLiteral("--api-key"), m_key, QStringLiteral("--num-prompts"), QStringLiteral("5"),
            QStringLiteral("--request-rate"), QStringLiteral("40"), QStringLiteral("--out"), out };

        // Model mix names the server does not list: every request of theirs would be a 404.
        const Outcome mix = runCli(base + kSmallWorkload
            + QStringList { QStringLiteral("--model-mix"),
                QStringLiteral("ghost-1:1,ghost-2:1,ghost-3:1,ghost-4:1,ghost-5:1,ghost-6:1,ghost-7:1") });
        QCOMPARE(mix.exitCode, 2);
        QVERIFY2(mix.err.contains(QStringLiteral("error: workload.model_mix: ghost-1, ghost-2, ghost-3, ghost-4, "
                                                 "ghost-5, and 2 more not listed by %1 (it lists ")
                                      .arg(m_base)),
            qPrintable(mix.err));
        QVERIFY(!QFileInfo::exists(out));

        // A synthetic request longer than the server's max_model_len (4096 for the test server).
        const Outcome longer = runCli(base
            + QStringList { QStringLiteral("--random-input-len"), QStringLiteral("4000"),
                QStringLiteral("--random-output-len"), QStringLiteral("200"), QStringLiteral("--quiet") });
        QCOMPARE(longer.exitCode, 2);
        QVERIFY2(longer.err.contains(QStringLiteral("error: workload.input_len + output_len: a request of 4200 tokens "
                                                    "is over the max_model_len 4096 that %1 reports")
                                         .arg(m_base)),
            qPrintable(longer.err));
        QVERIFY(!QFileInfo::exists(out));

        // A replayed log whose timestamp jumps by 1e12 s: refused at its line, before any time is computed.
        const QString log = dir.filePath(QStringLiteral("log.jsonl"));
        QFile file(log);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"timestamp\": 0, \"prompt\": \"one two three\"}\n"
                   "{\"timestamp\": 1e12, \"prompt\": \"four five six\"}\n");
        file.close();
        const QStringList replay = base
            + QStringList { QStringLiteral("--dataset-name"), QStringLiteral("replay"),
                  QStringLiteral("--dataset-path"), log, QStringLiteral("--quiet") };
        const Outcome jump = runCli(replay);
        QCOMPARE(jump.exitCode, 2);
        QVERIFY2(jump.err.contains(QStringLiteral("%1:2: the timestamp is 1e+12 s after the log's earliest; a "
                                                  "replayed log may span at most 864000000 s")
                                       .arg(log)),
            qPrintable(jump.err));

        // A log of 10 s at a replay speed that would make one pass last for ever.
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write("{\"timestamp\": 0, \"prompt\": \"one two three\"}\n"
                   "{\"timestamp\": 10, \"prompt\": \"four five six\"}\n");
        file.close();
        const Outcome slow
            = runCli(replay + QStringList { QStringLiteral("--replay-speed"), QStringLiteral("1e-300") });
        QCOMPARE(slow.exitCode, 2);
        QVERIFY2(slow.err.contains(QStringLiteral("error: workload.replay_speed: %1 spans 10 s; at replay_speed 1e-300 "
                                                  "one pass takes 1e+301 s, above the limit of 864000 s (ten days)")
                                       .arg(log)),
            qPrintable(slow.err));
        QVERIFY(!QFileInfo::exists(out));
    }

    // `analyze` reads every file `import` reads, and refuses a mix of things measured.
    void analyzeReadsWhatImportReads()
    {
        const QString guidellm
            = QFINDTESTDATA("data/import/real/guidellm/0.5/Qwen_Qwen3-4B-Thinking-2507_tp4_quant-fp8_benchmarks.json");
        const Outcome g = runCli({ QStringLiteral("analyze"), guidellm, QStringLiteral("--json") });
        QVERIFY2(g.exitCode == 0, qPrintable(g.err));
        const QJsonObject a = QJsonDocument::fromJson(g.out.toUtf8()).object();
        QCOMPARE(a.value(u"steps").toArray().size(), 1);

        const QString sglang = QFINDTESTDATA("data/import/real/sglang/old/llama_3_3_70b_online_output.jsonl");
        const Outcome mixed = runCli({ QStringLiteral("analyze"), sglang });
        QCOMPARE(mixed.exitCode, 2);
        QVERIFY2(
            mixed.err.contains(QStringLiteral("dataset_name=random | dataset_name=sharegpt")), qPrintable(mixed.err));

        // Imported, they are two runs; compared, on the highest statistic they record (medians only).
        QTemporaryDir runs;
        const Outcome imported
            = runCli({ QStringLiteral("import"), sglang, QStringLiteral("--data-dir"), runs.path() });
        QVERIFY2(imported.exitCode == 0, qPrintable(imported.err));
        QStringList ids;
        for (const QString& line : imported.out.split(u'\n', Qt::SkipEmptyParts))
            ids << line.section(u'\t', 0, 0);
        QCOMPARE(ids.size(), 2);
        const Outcome compared = runCli(QStringList { QStringLiteral("compare") } + ids
            + QStringList { QStringLiteral("--data-dir"), runs.path() });
        QVERIFY2(compared.exitCode == 0, qPrintable(compared.err));
        QVERIFY2(compared.err.contains(QStringLiteral("no run records P99 TTFT; comparing median TTFT")),
            qPrintable(compared.err));
        QVERIFY2(compared.out.contains(QStringLiteral("16 req/s  614.25")), qPrintable(compared.out));
    }

    // A folder with one unreadable file: the others are imported, the refusal is listed with its reason,
    // and the words name the tool; a folder of nothing readable is an error that lists every refusal.
    void importFolderListsRefusals()
    {
        const QString folder = QFINDTESTDATA("data/import/broken/vllm-folder");
        QVERIFY(!folder.isEmpty());
        QTemporaryDir runs;
        const Outcome r = runCli({ QStringLiteral("import"), folder, QStringLiteral("--data-dir"), runs.path() });
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("refused: ") + folder
                     + QStringLiteral("/vllm-20.0qps-truncated.json:10:1: invalid JSON")),
            qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("imported 1 vllm steps")), qPrintable(r.err));
        QCOMPARE(r.out.split(u'\n', Qt::SkipEmptyParts).size(), 1);

        QTemporaryDir bad;
        QVERIFY(QFile::copy(folder + QStringLiteral("/vllm-20.0qps-truncated.json"),
            bad.filePath(QStringLiteral("vllm-20.0qps-truncated.json"))));
        const Outcome none
            = runCli({ QStringLiteral("import"), bad.path(), QStringLiteral("--data-dir"), runs.path() });
        QCOMPARE(none.exitCode, 2);
        QVERIFY2(none.err.contains(QStringLiteral("no benchmark result among the files read; refused: ")),
            qPrintable(none.err));
    }

    // vLLM's own result files, one per rate, analysed as a sweep (METRICS.md's variants included).
    void analyzeReadsReferenceFiles()
    {
        const QString dir = QFINDTESTDATA("data/results/vllm-sweep");
        QVERIFY(!dir.isEmpty());
        const Outcome r = runCli({ QStringLiteral("analyze"), dir, QStringLiteral("--slo"),
            QStringLiteral("ttft:p99:500"), QStringLiteral("--peak"), QStringLiteral("1000"),
            QStringLiteral("--redundancy"), QStringLiteral("N+2"), QStringLiteral("--json") });
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject a = QJsonDocument::fromJson(r.out.toUtf8()).object();
        // The last step before P99 TTFT climbs: 230 ms at 30 req/s, 600 ms at 40.
        QCOMPARE(a.value(u"knee").toObject().value(u"offered").toDouble(), 30.0);
        QCOMPARE(a.value(u"saturation").toObject().value(u"offered").toDouble(), 50.0);
        QVERIFY(a.value(u"collapse").isNull());
        QVERIFY(!a.value(u"reasons").toObject().value(u"collapse").toString().isEmpty());
        // P99 TTFT crosses 500 ms between 30 req/s (230 ms) and 40 req/s (600 ms): 30 + 10·270/370.
        const QJsonObject slo = a.value(u"slo_capacity").toObject();
        QVERIFY(qAbs(slo.value(u"offered").toDouble() - (30.0 + 10.0 * 270.0 / 370.0)) < 1e-9);
        QCOMPARE(slo.value(u"binding").toString(), QStringLiteral("ttft"));
        QVERIFY(a.value(u"recommended").isObject());
        const QJsonObject plan = a.value(u"capacity_plan").toObject();
        QCOMPARE(plan.value(u"servers").toInt(), 28); // 1000 ÷ 35.73 = 27.99
        QCOMPARE(plan.value(u"servers_with_redundancy").toInt(), 30);

        const Outcome words
            = runCli({ QStringLiteral("analyze"), dir, QStringLiteral("--slo"), QStringLiteral("ttft:500") });
        QCOMPARE(words.exitCode, 0);
        QVERIFY2(words.out.contains(QStringLiteral("The knee is at 30 req/s")), qPrintable(words.out));
        QVERIFY(words.out.contains(QStringLiteral("SLO capacity is 37.3 req/s")));

        const Outcome missing = runCli({ QStringLiteral("analyze"), dir + QStringLiteral("/nothing-here") });
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.contains(QStringLiteral("nothing-here: no such file or directory")));
    }

    // AIPerf's JSON export, read by `analyze` as `import` reads it: one step at 16 users with the file's figures.
    void analyzeReadsAiperfExport()
    {
        const QString file = QFINDTESTDATA("data/import/real/aiperf/0.11/concurrency_16/profile_export_aiperf.json");
        QVERIFY(!file.isEmpty());
        const Outcome r = runCli({ QStringLiteral("analyze"), file, QStringLiteral("--json") });
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject a = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(a.value(u"mode").toString(), QStringLiteral("concurrency"));
        const QJsonArray steps = a.value(u"steps").toArray();
        QCOMPARE(steps.size(), 1);
        const QJsonObject step = steps.first().toObject();
        QCOMPARE(step.value(u"offered").toDouble(), 16.0);
        QCOMPARE(step.value(u"achieved").toDouble(), 6.814794988917071);
        QCOMPARE(step.value(u"latency_ms").toDouble(), 66.76023583999999); // time_to_first_token.p99
        // The export has no error_request_count: no error rate, rather than 0.
        QVERIFY(step.value(u"error_rate").isNull());

        const Outcome words = runCli({ QStringLiteral("analyze"), QFileInfo(file).absolutePath() });
        QCOMPARE(words.exitCode, 0);
        // One load tells what it measured, never a trend.
        QVERIFY2(words.out.contains(QStringLiteral("One load: with 16 users the server completed 6.81 req/s.")),
            qPrintable(words.out));
        QVERIFY2(!words.out.contains(QStringLiteral("Linear")), qPrintable(words.out));
    }

    void unreachableTargetExits3()
    {
        const QString port = closedPort();
        const Outcome r = runCli({ QStringLiteral("run"), QStringLiteral("--base-url"),
            QStringLiteral("http://127.0.0.1:") + port, QStringLiteral("--model"), QStringLiteral("m") });
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains(QStringLiteral("127.0.0.1:") + port), qPrintable(r.err));
        QVERIFY(r.err.contains(QStringLiteral("no load was sent")));
        const Outcome probe = runCli(
            { QStringLiteral("probe"), QStringLiteral("--base-url"), QStringLiteral("http://127.0.0.1:") + port });
        QCOMPARE(probe.exitCode, 3);
    }

    // The issue's case: "kneepoint-sim --seed 0 --fault 500:0.05" fails the preflight's one completion;
    // the preflight tries it again, says so on stderr, and passes.
    void preflightRetriesATransientFailure()
    {
        kp::sim::SimServerOptions options;
        options.timeScale = 10;
        options.seed = 0;
        QCOMPARE(kp::sim::applyFaultSpec(QStringLiteral("500:0.05"), options.faults), QString());
        kp::sim::FaultInjector faults(options.faults, options.seed);
        QCOMPARE(faults.draw(), kp::sim::FaultKind::Http500); // the first completion fails,
        QCOMPARE(faults.draw(), kp::sim::FaultKind::None); // the second does not
        kp::sim::SimHost sim;
        QVERIFY2(sim.start(options), qPrintable(sim.errorString()));
        const QString base = sim.baseUrl().toString();

        const Outcome r = runCli({ QStringLiteral("probe"), QStringLiteral("--base-url"), base });
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.out, QStringLiteral("ok\n"));
        QVERIFY2(
            r.err.contains(QStringLiteral("preflight: checking health (%1/health)\n").arg(base)), qPrintable(r.err));
        QVERIFY2(
            r.err.contains(QStringLiteral("preflight: completion failed (HTTP 500), retrying in 0.5 s (try 2 of 3)\n")),
            qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("[ ok ] completion  %1/v1/chat/completions  (2 tries, ").arg(base)),
            qPrintable(r.err));

        // --quiet keeps the progress off stderr; the outcome is the same.
        const Outcome quiet
            = runCli({ QStringLiteral("probe"), QStringLiteral("--base-url"), base, QStringLiteral("--quiet") });
        QCOMPARE(quiet.exitCode, 0);
        QVERIFY2(!quiet.err.contains(QStringLiteral("preflight: checking")), qPrintable(quiet.err));
    }

    void wrongKeyFailsPreflight()
    {
        const Outcome r = runCli({ QStringLiteral("run"), QStringLiteral("--base-url"), m_base,
            QStringLiteral("--api-key"), QStringLiteral("sk-wrong") });
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains(QStringLiteral("refused the key")), qPrintable(r.err));
        QVERIFY(!r.err.contains(QStringLiteral("sk-wrong")));
    }

    // A reasoning model behind the built-in simulator: TTFC after TTFT in every step, the reasoning tokens
    // exactly the simulator's, in the step files, the summary and sweep.csv; an SLO on TTFC decides.
    void reasoningSweepReportsTtfc()
    {
        QTemporaryDir dir;
        const QStringList sweep = { QStringLiteral("sweep"), QStringLiteral("--base-url"),
            QStringLiteral("sim://default?time_scale=2&reasoning_tokens=6"), QStringLiteral("--backend"),
            QStringLiteral("openai-chat"), QStringLiteral("--num-prompts"), QStringLiteral("12"),
            QStringLiteral("--request-rate"), QStringLiteral("20,40"), QStringLiteral("--random-input-len"),
            QStringLiteral("16"), QStringLiteral("--random-output-len"), QStringLiteral("16"),
            QStringLiteral("--random-range-ratio"), QStringLiteral("0"), QStringLiteral("--ignore-eos"),
            QStringLiteral("--quiet") };
        const QString runDir = dir.filePath(QStringLiteral("lax"));
        const Outcome r = runCli(sweep
            + QStringList { QStringLiteral("--slo"), QStringLiteral("ttfc:p99:60s"), QStringLiteral("--out"), runDir });
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.out.count(QStringLiteral("Total reasoning tokens:                  72        \n")), 2);
        QCOMPARE(r.out.count(QStringLiteral("Mean TTFC (ms):")), 2);
        for (const QString& name : { QStringLiteral("000"), QStringLiteral("001") }) {
            const QJsonObject step
                = QJsonDocument::fromJson(readFile(runDir + QStringLiteral("/steps/%1.json").arg(name))).object();
            QCOMPARE(step.value(u"completed").toInt(), 12);
            QCOMPARE(step.value(u"total_reasoning_tokens").toInt(), 12 * 6);
            QCOMPARE(step.value(u"total_output_tokens").toInt(), 12 * 16); // reasoning included
            QCOMPARE(step.value(u"kneepoint").toObject().value(u"short_outputs").toInt(), 0);
            // TTFC follows TTFT by about 6 decode steps (TPOT is the mean time of one).
            const double gap = step.value(u"mean_ttfc_ms").toDouble() - step.value(u"mean_ttft_ms").toDouble();
            const double sixTokens = 6 * step.value(u"mean_tpot_ms").toDouble();
            QVERIFY2(gap > 0.5 * sixTokens && gap < 2.0 * sixTokens,
                qPrintable(
                    QStringLiteral("step %1: TTFC - TTFT %2 ms, 6 x TPOT %3 ms").arg(name).arg(gap).arg(sixTokens)));
            const QList<QByteArray> requests
                = readFile(runDir + QStringLiteral("/steps/%1.requests.jsonl").arg(name)).split('\n');
            QCOMPARE(QJsonDocument::fromJson(requests.first()).object().value(u"reasoning_tokens").toInt(), 6);
        }
        const QList<QByteArray> csv = readFile(runDir + QStringLiteral("/sweep.csv")).split('\n');
        const QList<QByteArray> header = csv[0].split(',');
        QCOMPARE(csv[1].split(',')[header.indexOf("total_reasoning_tokens")], QByteArray("72"));

        // Every step misses a TTFC limit that its TTFT meets: the SLO on TTFC decides.
        const Outcome strict = runCli(sweep
            + QStringList { QStringLiteral("--slo"), QStringLiteral("ttft:p99:60s"), QStringLiteral("--slo"),
                QStringLiteral("ttfc:p99:0.001"), QStringLiteral("--out"), dir.filePath(QStringLiteral("strict")) });
        QCOMPARE(strict.exitCode, 4);
        QVERIFY2(strict.out.contains(QStringLiteral("P99 TTFC")), qPrintable(strict.out));
    }

    void missedSloExits4()
    {
        const Outcome r = runCli(
            QStringList { QStringLiteral("run"), QStringLiteral("--base-url"), m_base, QStringLiteral("--api-key"),
                m_key, QStringLiteral("--num-prompts"), QStringLiteral("8"), QStringLiteral("--request-rate"),
                QStringLiteral("20"), QStringLiteral("--goodput"), QStringLiteral("ttft:0.001") }
            + kSmallWorkload);
        QCOMPARE(r.exitCode, 4);
        QVERIFY(r.out.contains(QStringLiteral("Request goodput (req/s):                 0.00")));
    }

    // Ctrl-C stops the current step; every finished step stays on disk and the run says "stopped".
    void interruptKeepsFinishedSteps()
    {
        QTemporaryDir dir;
        const QString runDir = dir.filePath(QStringLiteral("run"));
        QProcess p;
        p.start(QStringLiteral(KNEEPOINT_CLI),
            QStringList { QStringLiteral("sweep"), QStringLiteral("--base-url"), m_base, QStringLiteral("--api-key"),
                m_key, QStringLiteral("--num-prompts"), QStringLiteral("10"), QStringLiteral("--request-rate"),
                QStringLiteral("50,0.5,0.5"), QStringLiteral("--out"), runDir }
                + kSmallWorkload);
        QVERIFY(p.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(runDir + QStringLiteral("/steps/000.json")), kProcessTimeoutMs);
        ::kill(static_cast<pid_t>(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(kProcessTimeoutMs));
        QCOMPARE(p.exitCode(), 130);
        const QJsonObject run = QJsonDocument::fromJson(readFile(runDir + QStringLiteral("/run.json"))).object();
        QCOMPARE(run.value(u"status").toString(), QStringLiteral("stopped"));
        QVERIFY(run.value(u"steps").toArray().size() >= 1);
        QCOMPARE(QJsonDocument::fromJson(readFile(runDir + QStringLiteral("/steps/000.json")))
                     .object()
                     .value(u"completed")
                     .toInt(),
            10);
    }

    // A soak against a simulator that fails a fifth of its requests (--fault 500:0.2): a line per window,
    // a line per window in steps/000.windows.jsonl whose counts and faults add up to the step's and to its
    // requests.jsonl; the step's own percentiles are unknown (a window's are in its line).
    void soakReportsWindowsAndCountsFaults()
    {
        kp::sim::SimServerOptions options;
        options.timeScale = 20;
        options.seed = 3;
        QCOMPARE(kp::sim::applyFaultSpec(QStringLiteral("500:0.2"), options.faults), QString());
        kp::sim::SimHost sim;
        QVERIFY2(sim.start(options), qPrintable(sim.errorString()));
        QTemporaryDir dir;
        const QString runDir = dir.filePath(QStringLiteral("soak"));
        const Outcome r
            = runCli(QStringList { QStringLiteral("soak"), QStringLiteral("--base-url"), sim.baseUrl().toString(),
                         QStringLiteral("--request-rate"), QStringLiteral("80"), QStringLiteral("--duration"),
                         QStringLiteral("1500ms"), QStringLiteral("--window"), QStringLiteral("500ms"),
                         QStringLiteral("--no-preflight"), QStringLiteral("--model"),
                         QStringLiteral("kneepoint/sim-default"), QStringLiteral("--out"), runDir }
                + kSmallWorkload);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // Windows of half a second from the step's start; the last one ends with the step's last request.
        QVERIFY2(r.out.contains(QStringLiteral("window 1 [0.0–0.5 s]: ")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("window 2 [0.5–1.0 s]: ")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("(http_server_error ")), qPrintable(r.out));

        const QJsonObject step = QJsonDocument::fromJson(readFile(runDir + QStringLiteral("/steps/000.json"))).object();
        const qint64 completed = step.value(u"completed").toInteger();
        const qint64 failed = step.value(u"failed").toInteger();
        QCOMPARE(completed + failed, 120); // 80 req/s for 1.5 s
        QVERIFY(step.value(u"median_ttft_ms").isNull()); // the whole soak has no single median: its windows do
        QVERIFY(step.value(u"mean_ttft_ms").toDouble() > 0);

        qint64 faultsInRecords = 0;
        std::vector<double> ends;
        for (const QByteArray& line : readFile(runDir + QStringLiteral("/steps/000.requests.jsonl")).split('\n')) {
            if (line.isEmpty())
                continue;
            const QJsonObject record = QJsonDocument::fromJson(line).object();
            QVERIFY2(!record.isEmpty(), line.constData());
            if (record.value(u"error_class").toString() == QLatin1String("http_server_error"))
                ++faultsInRecords;
            ends.push_back(record.value(u"end").toDouble());
        }
        QCOMPARE(qint64(ends.size()), completed + failed);
        QVERIFY(faultsInRecords > 0);

        std::sort(ends.begin(), ends.end());
        qint64 windowRequests = 0;
        qint64 windowFaults = 0;
        int windowsWithFaults = 0;
        double previousEnd = 0.0;
        const QList<QByteArray> lines
            = readFile(runDir + QStringLiteral("/steps/000.windows.jsonl")).trimmed().split('\n');
        QVERIFY2(lines.size() >= 3 && lines.size() <= 4, qPrintable(QString::number(lines.size())));
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const QJsonObject w = QJsonDocument::fromJson(lines[i]).object();
            QCOMPARE(w.value(u"window").toInt(), int(i));
            QCOMPARE(w.value(u"start_s").toDouble(), previousEnd);
            previousEnd = w.value(u"end_s").toDouble();
            const bool last = i + 1 == lines.size();
            if (!last)
                QCOMPARE(previousEnd, 0.5 * double(i + 1));
            else
                QVERIFY(std::abs(previousEnd - step.value(u"duration").toDouble()) < 1e-9);
            QCOMPARE(w.value(u"partial").toBool(), last && previousEnd - 0.5 * double(i) < 0.5);
            const qint64 n = w.value(u"completed").toInteger() + w.value(u"failed").toInteger();
            if (i < 2)
                QVERIFY(n > 0);
            windowRequests += n;
            const qint64 faults = w.value(u"failures").toObject().value(u"http_server_error").toInteger();
            windowFaults += faults;
            windowsWithFaults += faults > 0 ? 1 : 0;
            // A window's requests ended before its end (one that reached the client after its own window
            // closed is counted in the next, never in an earlier one).
            const qint64 endedBefore = std::lower_bound(ends.begin(), ends.end(), previousEnd) - ends.begin();
            QVERIFY2(windowRequests <= endedBefore || last,
                qPrintable(QStringLiteral("window %1: %2 > %3").arg(i).arg(windowRequests).arg(endedBefore)));
            if (w.value(u"completed").toInteger() > 0) {
                QVERIFY(w.value(u"ttft_ms").toObject().value(u"p99").toDouble()
                    >= w.value(u"ttft_ms").toObject().value(u"p50").toDouble());
                // Events read together share a time: a gap of 0 is a figure, the median may be one.
                QVERIFY(w.value(u"itl_ms").toObject().value(u"count").toInteger() > 0);
                QVERIFY(w.value(u"itl_ms").toObject().value(u"p99").toDouble() >= 0);
            }
        }
        QCOMPARE(windowRequests, completed + failed);
        QCOMPARE(windowFaults, faultsInRecords);
        QCOMPARE(
            step.value(u"kneepoint").toObject().value(u"failures").toObject().value(u"http_server_error").toInteger(),
            faultsInRecords);
        QVERIFY(windowsWithFaults >= 2);
        const QJsonObject run = QJsonDocument::fromJson(readFile(runDir + QStringLiteral("/run.json"))).object();
        const QJsonObject entry = run.value(u"steps").toArray().first().toObject();
        QCOMPARE(entry.value(u"windows_file").toString(), QStringLiteral("000.windows.jsonl"));
        QCOMPARE(entry.value(u"windows").toInt(), int(lines.size()));
    }

    // A soak stopped by Ctrl-C closes its window as partial and its step; killed (-9), what it wrote stays
    // readable: run.json names the step cut short, requests.jsonl holds at least every closed window's
    // requests, and analyze reads the run.
    void soakKeepsWhatItWroteWhenStoppedOrKilled()
    {
        QTemporaryDir dir;
        // Both soaks run at once, each on its own: one to be stopped, one to be killed.
        const auto runDirOf
            = [&dir](bool kill) { return dir.filePath(kill ? QStringLiteral("killed") : QStringLiteral("stopped")); };
        std::map<bool, QProcess> soaks;
        for (const bool kill : { false, true }) {
            soaks[kill].start(QStringLiteral(KNEEPOINT_CLI),
                QStringList { QStringLiteral("soak"), QStringLiteral("--base-url"), m_base, QStringLiteral("--api-key"),
                    m_key, QStringLiteral("--request-rate"), QStringLiteral("30"), QStringLiteral("--duration"),
                    QStringLiteral("2m"), QStringLiteral("--window"), QStringLiteral("0.5s"), QStringLiteral("--out"),
                    runDirOf(kill) }
                    + kSmallWorkload);
        }
        for (const bool kill : { false, true }) {
            const QString runDir = runDirOf(kill);
            QProcess& p = soaks[kill];
            QVERIFY(p.waitForStarted());
            const QString windows = runDir + QStringLiteral("/steps/000.windows.jsonl");
            QTRY_VERIFY_WITH_TIMEOUT(readFile(windows).count('\n') >= 3, kProcessTimeoutMs);
            if (kill)
                p.kill();
            else
                ::kill(static_cast<pid_t>(p.processId()), SIGINT);
            QVERIFY(p.waitForFinished(kProcessTimeoutMs));
            const QList<QByteArray> lines = readFile(windows).trimmed().split('\n');
            qint64 inWindows = 0;
            qint64 inLastWindow = 0;
            for (const QByteArray& line : lines) {
                const QJsonObject w = QJsonDocument::fromJson(line).object();
                QVERIFY2(!w.isEmpty(), line.constData());
                inLastWindow = w.value(u"completed").toInteger() + w.value(u"failed").toInteger();
                inWindows += inLastWindow;
            }
            qint64 records = 0;
            for (const QByteArray& line : readFile(runDir + QStringLiteral("/steps/000.requests.jsonl")).split('\n')) {
                if (line.isEmpty())
                    continue;
                QVERIFY2(!QJsonDocument::fromJson(line).object().isEmpty(), line.constData());
                ++records;
            }
            const QJsonObject run = QJsonDocument::fromJson(readFile(runDir + QStringLiteral("/run.json"))).object();
            if (kill) {
                QCOMPARE(p.exitStatus(), QProcess::CrashExit);
                QCOMPARE(run.value(u"status").toString(), QStringLiteral("running"));
                QVERIFY(run.contains(u"current_step"));
                // Every request of the windows before the last was written long before the kill.
                QVERIFY2(records >= inWindows - inLastWindow,
                    qPrintable(QStringLiteral("%1 < %2").arg(records).arg(inWindows - inLastWindow)));
            } else {
                QCOMPARE(p.exitCode(), 130);
                QCOMPARE(run.value(u"status").toString(), QStringLiteral("stopped"));
                QVERIFY(QJsonDocument::fromJson(lines.last()).object().value(u"partial").toBool());
                const QJsonObject step
                    = QJsonDocument::fromJson(readFile(runDir + QStringLiteral("/steps/000.json"))).object();
                QCOMPARE(step.value(u"completed").toInteger() + step.value(u"failed").toInteger(), records);
                QCOMPARE(inWindows, records);
            }
            const Outcome analyzed = runCli({ QStringLiteral("analyze"), runDir });
            QVERIFY2(analyzed.exitCode == 0, qPrintable(analyzed.err));
            QVERIFY2(analyzed.out.startsWith(QStringLiteral("1 steps from ")), qPrintable(analyzed.out));
        }
    }

    // A server configuration sweep: kneepoint-sim started per max_num_seqs on a free port, the profile swept
    // against each; the group compares them and names the best. A value the server refuses fails that
    // combination alone, by name; --resume runs only what did not finish.
    void serverSweepStartsTheServerPerCombination()
    {
        QTemporaryDir dir;
        const QString group = dir.filePath(QStringLiteral("group"));
        // Closed loops of 1, 4 and 12 users, 12 requests a step; a request streams 128 tokens (about 100 ms at
        // this time scale), so users beyond max_num_seqs wait that long for a slot, far past the 40 ms SLO on
        // the median TTFT (12 users on 4 slots: 8 of the 12 requests wait at least one whole request).
        const QStringList args = { QStringLiteral("sweep"), QStringLiteral("--serve"),
            QStringLiteral("%1 --port {port} --max-num-seqs {max_num_seqs} --time-scale 10")
                .arg(QStringLiteral(KNEEPOINT_SIM_PROGRAM)),
            QStringLiteral("--serve-param"), QStringLiteral("max_num_seqs=1,4,12,x"), QStringLiteral("--serve-grace"),
            QStringLiteral("20"), QStringLiteral("--base-url"), QStringLiteral("http://127.0.0.1:9"),
            QStringLiteral("--concurrency"), QStringLiteral("1,4,12"), QStringLiteral("--num-prompts"),
            QStringLiteral("12"), QStringLiteral("--random-input-len"), QStringLiteral("16"),
            QStringLiteral("--random-output-len"), QStringLiteral("128"), QStringLiteral("--no-early-stop"),
            QStringLiteral("--ignore-eos"), QStringLiteral("--slo"), QStringLiteral("ttft:p50:40"),
            QStringLiteral("--quiet"), QStringLiteral("--out"), group };
        // The commands mode (checked below) runs beside the group, with its own server on its own port: a
        // start command that leaves the server running and ends, a stop command that ends it.
        const QString pidFile = dir.filePath(QStringLiteral("sim.pid"));
        QProcess commandsProcess;
        commandsProcess.start(QStringLiteral(KNEEPOINT_CLI),
            { QStringLiteral("sweep"), QStringLiteral("--serve-mode"), QStringLiteral("commands"),
                QStringLiteral("--serve"),
                QStringLiteral(
                    "%1 --port {port} --max-num-seqs {max_num_seqs} --time-scale 10 >/dev/null 2>&1 & echo $! > %2")
                    .arg(QStringLiteral(KNEEPOINT_SIM_PROGRAM), pidFile),
                QStringLiteral("--serve-stop"), QStringLiteral("kill $(cat %1)").arg(pidFile),
                QStringLiteral("--serve-param"), QStringLiteral("max_num_seqs=8"), QStringLiteral("--base-url"),
                QStringLiteral("http://127.0.0.1:9"), QStringLiteral("--num-prompts"), QStringLiteral("8"),
                QStringLiteral("--request-rate"), QStringLiteral("20"), QStringLiteral("--quiet"),
                QStringLiteral("--out"), dir.filePath(QStringLiteral("commands")) });
        const Outcome first = runCli(args);
        // Three sweeps ran; the fourth combination's server refused its value: the sweep says so by name.
        QCOMPARE(first.exitCode, 1);
        QVERIFY2(first.err.contains(QStringLiteral("error: max_num_seqs=x: the server command exited with status 2 "
                                                   "before the server answered: \"kneepoint-sim: --max-num-seqs: 'x'")),
            qPrintable(first.err));
        const QJsonObject matrix = QJsonDocument::fromJson(readFile(group + QStringLiteral("/matrix.json"))).object();
        QCOMPARE(matrix.value(u"kind").toString(), QStringLiteral("server_sweep"));
        QCOMPARE(matrix.value(u"status").toString(), QStringLiteral("finished"));
        const QJsonArray runs = matrix.value(u"runs").toArray();
        QCOMPARE(runs.size(), 4);
        QStringList dirs;
        for (int i = 0; i < 3; ++i) {
            const QJsonObject r = runs.at(i).toObject();
            QCOMPARE(r.value(u"state").toString(), QStringLiteral("finished"));
            dirs << group + u'/' + r.value(u"dir").toString();
            // The combination is in run.json and in its environment; the server's output beside the steps.
            const QJsonObject run
                = QJsonDocument::fromJson(readFile(dirs.last() + QStringLiteral("/run.json"))).object();
            const QString value = r.value(u"parameters").toObject().value(u"max_num_seqs").toString();
            QCOMPARE(run.value(u"server_config").toObject().value(u"parameters").toObject().value(u"max_num_seqs"),
                QJsonValue(value));
            QCOMPARE(run.value(u"environment").toObject().value(u"server_config").toObject(),
                run.value(u"server_config").toObject());
            QVERIFY(run.value(u"server_config")
                        .toObject()
                        .value(u"command")
                        .toString()
                        .contains(QStringLiteral("--max-num-seqs %1 ").arg(value)));
            QCOMPARE(run.value(u"profile").toObject().value(u"server").toObject().value(u"max_num_seqs").toInt(),
                value.toInt());
            // Named after its configuration (the profile has no name and no model: the configuration alone).
            QCOMPARE(
                run.value(u"profile").toObject().value(u"name").toString(), QStringLiteral("max_num_seqs=") + value);
            QVERIFY(readFile(dirs.last() + QStringLiteral("/server.stdout.log"))
                        .contains("listening on http://127.0.0.1:"));
        }
        QCOMPARE(runs.at(3).toObject().value(u"state").toString(), QStringLiteral("failed"));
        QVERIFY(runs.at(3).toObject().value(u"error").toString().startsWith(QStringLiteral("max_num_seqs=x: ")));
        // Capacity follows max_num_seqs: 1 user, 4 users, and all 12 (the sweep's top: a lower bound).
        auto figure = [&](int i, const char* key) { return runs.at(i).toObject().value(QLatin1String(key)); };
        // (1 and 4 users meet it where the next step misses: the capacity lies between, interpolated.)
        QVERIFY(figure(0, "slo_capacity").toDouble() >= 1 && figure(0, "slo_capacity").toDouble() < 4);
        QVERIFY(figure(1, "slo_capacity").toDouble() >= 4 && figure(1, "slo_capacity").toDouble() < 12);
        QVERIFY(!figure(1, "slo_capacity_lower_bound").toBool());
        QCOMPARE(figure(2, "slo_capacity"), QJsonValue(12.0));
        QVERIFY(figure(2, "slo_capacity_lower_bound").toBool());
        QVERIFY(figure(0, "peak_throughput").toDouble() < figure(1, "peak_throughput").toDouble());
        QVERIFY(figure(1, "peak_throughput").toDouble() < figure(2, "peak_throughput").toDouble());
        QCOMPARE(matrix.value(u"best").toString(), runs.at(2).toObject().value(u"dir").toString());
        const QString sentence = QStringLiteral("Best configuration for the SLO: max_num_seqs=12, with the most load "
                                                "within the SLO: ≥ 12 users, %1× the next best (max_num_seqs=4).")
                                     .arg(12 / figure(1, "slo_capacity").toDouble(), 0, 'f', 2);
        QVERIFY2(first.out.contains(sentence), qPrintable(first.out));
        QVERIFY(readFile(group + QStringLiteral("/comparison.txt")).contains(sentence.toUtf8()));
        // The twin fitted on the first configuration predicts the others (the simulator is what it models).
        QCOMPARE(matrix.value(u"twin_fitted_on").toString(), runs.at(0).toObject().value(u"dir").toString());
        for (int i = 1; i < 3; ++i) {
            const QJsonObject r = runs.at(i).toObject();
            QVERIFY2(r.value(u"twin_predicted").isDouble() && r.value(u"twin_error").isDouble(),
                qPrintable(r.value(u"twin_note").toString()));
        }
        QVERIFY(
            first.out.contains(QStringLiteral("The twin fitted on max_num_seqs=1, set to each other configuration's "
                                              "parameters:\n  max_num_seqs=4: SLO capacity ")));
        // Every server was stopped: nothing answers on their ports any more.
        for (const QString& d : dirs) {
            const QJsonObject run = QJsonDocument::fromJson(readFile(d + QStringLiteral("/run.json"))).object();
            const QUrl url(run.value(u"profile").toObject().value(u"target").toObject().value(u"base_url").toString());
            QTcpSocket socket;
            socket.connectToHost(QHostAddress::LocalHost, quint16(url.port()));
            QVERIFY(!socket.waitForConnected(2000));
        }

        // Without --resume the group is not run again over itself.
        const Outcome again = runCli(args);
        QCOMPARE(again.exitCode, 2);
        QVERIFY(again.err.contains(QStringLiteral("add --resume to finish it")));
        // --resume: the three finished runs are left as they are, the failed one is tried again.
        QList<QByteArray> before;
        for (const QString& d : dirs)
            before << readFile(d + QStringLiteral("/run.json"));
        const Outcome resumed = runCli(args + QStringList { QStringLiteral("--resume") });
        QCOMPARE(resumed.exitCode, 1);
        QCOMPARE(resumed.err.count(QStringLiteral(": finished before, skipped ==")), 3);
        QVERIFY(resumed.err.contains(QStringLiteral("error: max_num_seqs=x: the server command exited")));
        for (int i = 0; i < 3; ++i)
            QCOMPARE(readFile(dirs.at(i) + QStringLiteral("/run.json")), before.at(i));
        QVERIFY(resumed.out.contains(sentence));
        QVERIFY(QDir(group + QStringLiteral("/.earlier")).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size() == 1);

        // The commands mode, started beside the group above.
        const Outcome commands = finishCli(commandsProcess);
        QVERIFY2(commands.exitCode == 0, qPrintable(commands.err));
        const QJsonObject commandsRun
            = QJsonDocument::fromJson(readFile(dir.filePath(QStringLiteral("commands/01-max_num_seqs-8/run.json"))))
                  .object();
        QCOMPARE(commandsRun.value(u"status").toString(), QStringLiteral("finished"));
        QCOMPARE(commandsRun.value(u"server_config").toObject().value(u"mode").toString(), QStringLiteral("commands"));
        const pid_t simPid = pid_t(readFile(pidFile).trimmed().toLongLong());
        QVERIFY(simPid > 0);
        // The stop command signalled it (it ends by itself then); a zombie left to init counts as ended.
        const auto alive = [simPid] {
            const QByteArray stat = readFile(QStringLiteral("/proc/%1/stat").arg(simPid));
            const qsizetype close = stat.lastIndexOf(')');
            return close > 0 && stat.size() > close + 2 && stat.at(close + 2) != 'Z';
        };
        QTRY_VERIFY_WITH_TIMEOUT(!alive(), 20000);

        // A command that is not there: named, with the shell's words.
        const Outcome missing = runCli({ QStringLiteral("sweep"), QStringLiteral("--serve"),
            QStringLiteral("kneepoint-no-such-server --port {port} --max-num-seqs {max_num_seqs}"),
            QStringLiteral("--serve-param"), QStringLiteral("max_num_seqs=8"), QStringLiteral("--base-url"),
            QStringLiteral("http://127.0.0.1:9"), QStringLiteral("--quiet"), QStringLiteral("--out"),
            dir.filePath(QStringLiteral("missing")) });
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains(QStringLiteral("error: max_num_seqs=8: the server command exited with status 127 "
                                                     "(command not found) before the server answered")),
            qPrintable(missing.err));
        // A parameter the command never uses is refused before anything starts.
        const Outcome unused = runCli({ QStringLiteral("sweep"), QStringLiteral("--serve"),
            QStringLiteral("true --port {port}"), QStringLiteral("--serve-param"), QStringLiteral("tp=1,2"),
            QStringLiteral("--base-url"), QStringLiteral("http://127.0.0.1:9"), QStringLiteral("--out"),
            dir.filePath(QStringLiteral("unused")) });
        QCOMPARE(unused.exitCode, 2);
        QVERIFY(unused.err.contains(
            QStringLiteral("server_sweep.parameters.tp: the command never uses {tp}, so its runs would not differ")));
    }

    // A server that never answers fails its combination once server_sweep.ready_timeout_s has passed, and its
    // whole process group is stopped; one that dies mid-sweep fails its combination with the server's exit,
    // keeping every step measured before; the combinations after both still run.
    void serverSweepOutlivesAServerThatHangsOrDies()
    {
        QTemporaryDir dir;
        const QString group = dir.filePath(QStringLiteral("group"));
        const QString hangPid = dir.filePath(QStringLiteral("hang.pid"));
        const QString sim
            = QStringLiteral("%1 --port {port} --time-scale 10").arg(QStringLiteral(KNEEPOINT_SIM_PROGRAM));
        // "die" kills its simulator once the first step's file is written (so while the sweep runs its second:
        // the four steps left take about a second), then exits 3; "hang" starts a process that never listens,
        // given 2 s (a simulator answers within some 0.2 s of its start, also on two busy cores).
        const QString command
            = QStringLiteral("case {mode} in "
                             "die) %1 & p=$!; until [ -e %2/01-mode-die/steps/000.json ]; do sleep 0.05; done; "
                             "kill -9 $p; exit 3;; "
                             "hang) echo $$ > %3; exec sleep 600;; "
                             "*) exec %1;; esac")
                  .arg(sim, group, hangPid);
        const Outcome out = runCli({ QStringLiteral("sweep"), QStringLiteral("--serve"), command,
            QStringLiteral("--serve-param"), QStringLiteral("mode=die,hang,ok"),
            QStringLiteral("--serve-ready-timeout"), QStringLiteral("2"), QStringLiteral("--serve-grace"),
            QStringLiteral("20"), QStringLiteral("--base-url"), QStringLiteral("http://127.0.0.1:9"),
            QStringLiteral("--request-rate"), QStringLiteral("20,40,60,80,100"), QStringLiteral("--num-prompts"),
            QStringLiteral("16"), QStringLiteral("--random-input-len"), QStringLiteral("16"),
            QStringLiteral("--random-output-len"), QStringLiteral("64"), QStringLiteral("--no-early-stop"),
            QStringLiteral("--quiet"), QStringLiteral("--out"), group });
        QCOMPARE(out.exitCode, 1);
        const QString dieDir = group + QStringLiteral("/01-mode-die");
        QVERIFY2(out.err.contains(QStringLiteral("error: mode=die: the server exited with status 3 during the sweep; "
                                                 "what was measured before is kept in %1")
                                      .arg(dieDir)),
            qPrintable(out.err));
        QVERIFY2(out.err.contains(QStringLiteral("error: mode=hang: the server was not ready after 2 s "
                                                 "(server_sweep.ready_timeout_s): http://127.0.0.1:")),
            qPrintable(out.err));
        const QJsonArray runs = QJsonDocument::fromJson(readFile(group + QStringLiteral("/matrix.json")))
                                    .object()
                                    .value(u"runs")
                                    .toArray();
        QCOMPARE(runs.size(), 3);
        QCOMPARE(runs.at(0).toObject().value(u"state").toString(), QStringLiteral("failed"));
        QCOMPARE(runs.at(1).toObject().value(u"state").toString(), QStringLiteral("failed"));
        QCOMPARE(runs.at(2).toObject().value(u"state").toString(), QStringLiteral("finished"));
        // The dead server's run keeps its first step, whole, and says it did not finish.
        const QJsonObject died = QJsonDocument::fromJson(readFile(dieDir + QStringLiteral("/run.json"))).object();
        QVERIFY2(died.value(u"status").toString() != QLatin1String("finished"),
            qPrintable(died.value(u"status").toString()));
        const QJsonObject firstStep
            = QJsonDocument::fromJson(readFile(dieDir + QStringLiteral("/steps/000.json"))).object();
        QCOMPARE(firstStep.value(u"completed").toInteger(), 16);
        QVERIFY(died.value(u"steps").toArray().size() >= 1);
        // The process that never listened was stopped with its group (gone, or a zombie left to init).
        const QByteArray stat
            = readFile(QStringLiteral("/proc/%1/stat").arg(QString::fromUtf8(readFile(hangPid).trimmed())));
        const qsizetype close = stat.lastIndexOf(')');
        QVERIFY2(close < 0 || (stat.size() > close + 2 && stat.at(close + 2) == 'Z'), stat.constData());
        // The last combination ran whole after both.
        const QJsonObject ok
            = QJsonDocument::fromJson(readFile(group + QStringLiteral("/03-mode-ok/run.json"))).object();
        QCOMPARE(ok.value(u"status").toString(), QStringLiteral("finished"));
        QCOMPARE(ok.value(u"steps").toArray().size(), 5);
    }

    // A sweep without --out is saved under --data-dir; runs lists it, import adds others' files, compare
    // sets them side by side.
    void runsImportCompare()
    {
        QTemporaryDir data;
        const QString root = data.filePath(QStringLiteral("runs"));
        const Outcome sweep
            = runCli(QStringList { QStringLiteral("sweep"), QStringLiteral("--base-url"), m_base,
                         QStringLiteral("--api-key"), m_key, QStringLiteral("--num-prompts"), QStringLiteral("8"),
                         QStringLiteral("--request-rate"), QStringLiteral("40,80"), QStringLiteral("--data-dir"), root }
                + kSmallWorkload);
        QVERIFY2(sweep.exitCode == 0, qPrintable(sweep.err));
        QCOMPARE(QDir(root).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size(), 1);

        const QString fixtures = QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/");
        const Outcome base = runCli({ QStringLiteral("import"), fixtures + QStringLiteral("results/vllm-sweep"),
            QStringLiteral("--name"), QStringLiteral("baseline"), QStringLiteral("--data-dir"), root });
        QVERIFY2(base.exitCode == 0, qPrintable(base.err));
        const QStringList created = base.out.trimmed().split(u'\t');
        QCOMPARE(created.size(), 2);
        QVERIFY(QFile::exists(created[1] + QStringLiteral("/run.json")));
        QVERIFY2(base.err.contains(QLatin1String("imported 6 vllm steps")), qPrintable(base.err));
        const Outcome other = runCli({ QStringLiteral("import"), fixtures + QStringLiteral("import/vllm"),
            QStringLiteral("--format"), QStringLiteral("vllm"), QStringLiteral("--name"), QStringLiteral("candidate"),
            QStringLiteral("--data-dir"), root });
        QVERIFY2(other.exitCode == 0, qPrintable(other.err));

        const Outcome list
            = runCli({ QStringLiteral("runs"), QStringLiteral("--data-dir"), root, QStringLiteral("--json") });
        QVERIFY2(list.exitCode == 0, qPrintable(list.err));
        const QJsonArray runs = QJsonDocument::fromJson(list.out.toUtf8()).array();
        QCOMPARE(runs.size(), 3);
        QStringList names;
        for (const QJsonValue& r : runs)
            names << r.toObject().value(u"name").toString();
        QVERIFY(names.contains(QStringLiteral("baseline")));
        QVERIFY(names.contains(QStringLiteral("candidate")));
        for (const QJsonValue& r : runs) {
            const QJsonObject o = r.toObject();
            if (o.value(u"source").toString() == QLatin1String("kneepoint")) {
                QCOMPARE(o.value(u"status").toString(), QStringLiteral("finished"));
                QCOMPARE(o.value(u"steps").toInt(), 2);
                QCOMPARE(o.value(u"target").toString(), m_base);
            }
        }
        const Outcome table = runCli({ QStringLiteral("runs"), QStringLiteral("--data-dir"), root });
        QVERIFY(table.out.startsWith(QLatin1String("DATE")));
        QVERIFY(table.out.contains(QLatin1String("finished (vllm)")));

        // The candidate at 10, 20 and 30 req/s against the baseline's 10..60 req/s: each on a baseline step.
        const Outcome compare = runCli({ QStringLiteral("compare"), QStringLiteral("baseline"),
            QStringLiteral("candidate"), QStringLiteral("--data-dir"), root, QStringLiteral("--json") });
        QVERIFY2(compare.exitCode == 0, qPrintable(compare.err));
        const QJsonObject c = QJsonDocument::fromJson(compare.out.toUtf8()).object();
        QCOMPARE(c.value(u"metric").toString(), QStringLiteral("ttft"));
        QCOMPARE(c.value(u"statistic").toString(), QStringLiteral("P99"));
        const QJsonArray points = c.value(u"runs").toArray().at(1).toObject().value(u"points").toArray();
        QCOMPARE(points.size(), 3);
        QCOMPARE(points.at(0).toObject().value(u"value").toDouble(), 200.0);
        QCOMPARE(points.at(0).toObject().value(u"baseline_value").toDouble(), 200.0);
        QCOMPARE(points.at(0).toObject().value(u"delta_percent").toDouble(), 0.0);

        const Outcome text
            = runCli({ QStringLiteral("compare"), QStringLiteral("candidate"), QStringLiteral("baseline"),
                QStringLiteral("--data-dir"), root, QStringLiteral("--metric"), QStringLiteral("throughput") });
        QVERIFY2(text.exitCode == 0, qPrintable(text.err));
        QVERIFY2(text.out.contains(QLatin1String("outside the baseline's range (10 req/s to 30 req/s)")),
            qPrintable(text.out));
        QVERIFY(text.out.contains(QLatin1String("Differences (settings and environment)")));

        const QString csv = data.filePath(QStringLiteral("c.csv"));
        const Outcome toCsv = runCli({ QStringLiteral("compare"), QStringLiteral("baseline"),
            QStringLiteral("candidate"), QStringLiteral("--data-dir"), root, QStringLiteral("--out"), csv });
        QVERIFY2(toCsv.exitCode == 0, qPrintable(toCsv.err));
        QVERIFY(
            readFile(csv).startsWith("run,name,load_unit,offered,ttft_p99,baseline,delta_percent,note,predicted\n"));

        const Outcome badOut
            = runCli({ QStringLiteral("compare"), QStringLiteral("baseline"), QStringLiteral("candidate"),
                QStringLiteral("--data-dir"), root, QStringLiteral("--out"), data.filePath(QStringLiteral("c.docx")) });
        QCOMPARE(badOut.exitCode, 2);
        QVERIFY2(badOut.err.contains(QLatin1String(".json, .csv and .txt")), qPrintable(badOut.err));
        const Outcome unknown = runCli({ QStringLiteral("compare"), QStringLiteral("baseline"), QStringLiteral("nope"),
            QStringLiteral("--data-dir"), root });
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains(QLatin1String("no run \"nope\"")), qPrintable(unknown.err));
    }

    // compare --fail-if: a verdict per condition, exit code 5 on a FAIL, the JUnit file. Imported runs
    // have exact figures and no intervals; a measured run against itself differs by exactly nothing,
    // inside its own intervals.
    void regressionGate()
    {
        QTemporaryDir data;
        const QString root = data.filePath(QStringLiteral("runs"));
        const QString fixtures = QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/");
        for (const auto& [path, name] : { std::pair { QStringLiteral("results/vllm-sweep"), QStringLiteral("base") },
                 std::pair { QStringLiteral("import/vllm"), QStringLiteral("new") } }) {
            const Outcome imported = runCli({ QStringLiteral("import"), fixtures + path, QStringLiteral("--format"),
                QStringLiteral("vllm"), QStringLiteral("--name"), name, QStringLiteral("--data-dir"), root });
            QVERIFY2(imported.exitCode == 0, qPrintable(imported.err));
        }
        const QString junit = data.filePath(QStringLiteral("gate.xml"));
        const QStringList gate = { QStringLiteral("compare"), QStringLiteral("base"), QStringLiteral("new"),
            QStringLiteral("--data-dir"), root, QStringLiteral("--fail-if"), QStringLiteral("ttft.p99>+10%"),
            QStringLiteral("--fail-if"), QStringLiteral("throughput<-5%"), QStringLiteral("--fail-if"),
            QStringLiteral("error_rate>+1"), QStringLiteral("--fail-if"), QStringLiteral("ttft.mean>+200%"),
            QStringLiteral("--fail-if"), QStringLiteral("slo_capacity<-5%"), QStringLiteral("--junit"), junit };
        const Outcome failed = runCli(gate);
        QCOMPARE(failed.exitCode, 5);
        const QString verdicts = failed.out.mid(failed.out.indexOf(QLatin1String("Regression gate: BASE base")));
        const QStringList lines = verdicts.trimmed().split(u'\n');
        QCOMPARE(lines.size(), 6);
        QCOMPARE(lines[1], QStringLiteral("FAIL ttft.p99: +247.8% (230 → 800 ms at 30 req/s) > +10%"));
        QCOMPARE(lines[2], QStringLiteral("FAIL throughput: -79.8% (19.8 → 4.00 req/s at 20 req/s) < -5%"));
        QCOMPARE(lines[3], QStringLiteral("FAIL error_rate: +33.3 points (0 → 33.3% at 20 req/s) > +1 points"));
        QCOMPARE(lines[4], QStringLiteral("pass ttft.mean: +153.6% (138 → 350 ms at 30 req/s), not > +200%"));
        QCOMPARE(lines[5],
            QStringLiteral("unknown slo_capacity: BASE has no SLO capacity: No SLO capacity: no SLO was given (the "
                           "profile's slo, or --slo ttft:p99:500)."));
        QVERIFY2(failed.err.contains(QStringLiteral("wrote ") + junit), qPrintable(failed.err));
        const QString xml = QString::fromUtf8(readFile(junit));
        QVERIFY2(xml.contains(QLatin1String("<testsuites name=\"kneepoint regression gate\" tests=\"5\" "
                                            "failures=\"3\" errors=\"0\" skipped=\"1\">")),
            qPrintable(xml));
        QVERIFY2(xml.contains(QLatin1String("<testcase classname=\"kneepoint.compare\" name=\"ttft.p99&gt;+10%\">")),
            qPrintable(xml));
        QVERIFY(xml.contains(QStringLiteral("<failure message=\"FAIL ttft.p99: +247.8% (230 → 800 ms at 30 req/s) "
                                            "&gt; +10%\" type=\"regression\">")));
        QVERIFY(xml.contains(QLatin1String("<skipped message=\"unknown slo_capacity: BASE has no SLO capacity")));
        QCOMPARE(xml.count(QLatin1String("<testcase ")), 5);
        QCOMPARE(xml.count(QLatin1String("<failure ")), 3);

        // Passing conditions only: exit code 0. --json carries the verdicts.
        const Outcome passed = runCli(
            { QStringLiteral("compare"), QStringLiteral("base"), QStringLiteral("new"), QStringLiteral("--data-dir"),
                root, QStringLiteral("--fail-if"), QStringLiteral("ttft.mean>+200%"), QStringLiteral("--json") });
        QCOMPARE(passed.exitCode, 0);
        const QJsonArray verdictsJson = QJsonDocument::fromJson(passed.out.toUtf8()).object().value(u"gate").toArray();
        QCOMPARE(verdictsJson.size(), 1);
        QCOMPARE(verdictsJson[0].toObject().value(u"outcome").toString(), QStringLiteral("pass"));
        QCOMPARE(verdictsJson[0].toObject().value(u"offered").toDouble(), 30.0);

        // Under a file-size limit (ulimit -f) a write that passes it fails with the reason and exit code 1,
        // not with SIGXFSZ (the child gets the limit and the default action of the signal).
        {
            QProcess p;
            p.setChildProcessModifier([] {
                rlimit limit {};
                getrlimit(RLIMIT_FSIZE, &limit);
                limit.rlim_cur = 1000;
                setrlimit(RLIMIT_FSIZE, &limit);
                std::signal(SIGXFSZ, SIG_DFL);
            });
            const QString big = data.filePath(QStringLiteral("big.json"));
            p.start(QStringLiteral(KNEEPOINT_CLI),
                { QStringLiteral("compare"), QStringLiteral("base"), QStringLiteral("new"),
                    QStringLiteral("--data-dir"), root, QStringLiteral("--out"), big });
            QVERIFY(p.waitForFinished(kProcessTimeoutMs));
            QCOMPARE(p.exitStatus(), QProcess::NormalExit);
            QCOMPARE(p.exitCode(), 1);
            const QString err = QString::fromUtf8(p.readAllStandardError());
            QVERIFY2(
                err.contains(big + QStringLiteral(": cannot write: ") + QString::fromLocal8Bit(std::strerror(EFBIG))),
                qPrintable(err));
        }

        // An unknown verdict passes the gate unless --fail-on-unknown asks otherwise.
        const QStringList unknownOnly = { QStringLiteral("compare"), QStringLiteral("base"), QStringLiteral("new"),
            QStringLiteral("--data-dir"), root, QStringLiteral("--fail-if"), QStringLiteral("slo_capacity<-5%") };
        QCOMPARE(runCli(unknownOnly).exitCode, 0);
        const Outcome strictGate = runCli(unknownOnly + QStringList { QStringLiteral("--fail-on-unknown") });
        QCOMPARE(strictGate.exitCode, 5);
        QVERIFY2(strictGate.out.endsWith(QStringLiteral("The gate fails: a verdict is unknown (--fail-on-unknown).\n")),
            qPrintable(strictGate.out));
        const Outcome alone = runCli({ QStringLiteral("compare"), QStringLiteral("base"), QStringLiteral("new"),
            QStringLiteral("--data-dir"), root, QStringLiteral("--fail-on-unknown") });
        QCOMPARE(alone.exitCode, 2);
        QCOMPARE(alone.err,
            QStringLiteral("error: --fail-on-unknown: there is nothing to judge without --fail-if conditions\n"));

        // A measured run against itself: every change is 0, inside the intervals its steps carry.
        const Outcome sweep = runCli(
            QStringList { QStringLiteral("sweep"), QStringLiteral("--base-url"), m_base, QStringLiteral("--api-key"),
                m_key, QStringLiteral("--num-prompts"), QStringLiteral("12"), QStringLiteral("--request-rate"),
                QStringLiteral("40,80"), QStringLiteral("--out"), data.filePath(QStringLiteral("measured")) }
            + kSmallWorkload);
        QVERIFY2(sweep.exitCode == 0, qPrintable(sweep.err));
        const QString measured = data.filePath(QStringLiteral("measured"));
        const QJsonObject step
            = QJsonDocument::fromJson(readFile(measured + QStringLiteral("/steps/000.json"))).object();
        const QJsonObject intervals = step.value(u"kneepoint").toObject().value(u"intervals").toObject();
        QCOMPARE(intervals.value(u"method").toString(), QStringLiteral("bootstrap"));
        QCOMPARE(intervals.value(u"resamples").toInt(), 500);
        const QJsonArray p99 = intervals.value(u"figures").toObject().value(u"p99_ttft_ms").toArray();
        QCOMPARE(p99.size(), 2);
        QVERIFY(p99[0].toDouble() <= step.value(u"p99_ttft_ms").toDouble());
        QVERIFY(step.value(u"p99_ttft_ms").toDouble() <= p99[1].toDouble());
        const QJsonObject runJson = QJsonDocument::fromJson(readFile(measured + QStringLiteral("/run.json"))).object();
        QCOMPARE(runJson.value(u"steps").toArray()[0].toObject().value(u"intervals").toObject(), intervals);

        const Outcome self = runCli({ QStringLiteral("compare"), measured, measured, QStringLiteral("--fail-if"),
            QStringLiteral("ttft.p99>-50%"), QStringLiteral("--fail-if"), QStringLiteral("ttft.p99>+1%"),
            QStringLiteral("--fail-if"), QStringLiteral("peak_throughput<+1%") });
        QCOMPARE(self.exitCode, 5);
        const QStringList selfLines
            = self.out.mid(self.out.indexOf(QLatin1String("Regression gate:"))).trimmed().split(u'\n');
        QCOMPARE(selfLines.size(), 4);
        QVERIFY2(selfLines[1].startsWith(QLatin1String("noise ttft.p99: +0.0% (")), qPrintable(selfLines[1]));
        QVERIFY2(selfLines[1].contains(QLatin1String(") > -50%, but inside the runs' 95% intervals (BASE ")),
            qPrintable(selfLines[1]));
        QVERIFY2(selfLines[2].startsWith(QLatin1String("pass ttft.p99: +0.0% (")), qPrintable(selfLines[2]));
        QVERIFY2(selfLines[2].endsWith(QLatin1String("), not > +1%")), qPrintable(selfLines[2]));
        QVERIFY2(selfLines[3].startsWith(QLatin1String("FAIL peak_throughput: +0.0% (")), qPrintable(selfLines[3]));

        // Bad conditions are refused before anything is read, naming the condition.
        const QList<std::pair<QString, QString>> bad {
            { QStringLiteral("ttfb.p99>10%"),
                QStringLiteral("error: --fail-if \"ttfb.p99>10%\": unknown metric "
                               "\"ttfb.p99\"; use ttft, tpot, itl or e2el") },
            { QStringLiteral("ttft>10%"),
                QStringLiteral("error: --fail-if \"ttft>10%\": name the statistic of ttft: "
                               "ttft.mean, ttft.median or a percentile such as ttft.p99") },
            { QStringLiteral("ttft.p99=10%"),
                QStringLiteral("error: --fail-if \"ttft.p99=10%\": write "
                               "METRIC>CHANGE or METRIC<CHANGE") },
            { QStringLiteral("throughput<-5ms"),
                QStringLiteral("error: --fail-if \"throughput<-5ms\": throughput is "
                               "in req/s, not \"ms\"") },
            { QStringLiteral("ttft.p99>fast"),
                QStringLiteral("error: --fail-if \"ttft.p99>fast\": \"fast\" is not "
                               "a change") },
        };
        for (const auto& [condition, message] : bad) {
            const Outcome refused = runCli({ QStringLiteral("compare"), QStringLiteral("base"), QStringLiteral("new"),
                QStringLiteral("--data-dir"), root, QStringLiteral("--fail-if"), condition });
            QCOMPARE(refused.exitCode, 2);
            QVERIFY2(refused.err.startsWith(message), qPrintable(refused.err));
        }
        const Outcome three = runCli({ QStringLiteral("compare"), QStringLiteral("base"), QStringLiteral("new"),
            measured, QStringLiteral("--data-dir"), root, QStringLiteral("--fail-if"), QStringLiteral("knee<-5%") });
        QCOMPARE(three.exitCode, 2);
        QVERIFY2(
            three.err.contains(QLatin1String("--fail-if judges two runs, BASE and NEW; got 3")), qPrintable(three.err));
    }

    // A broken file: exit 2, the message names the file and the key, and nothing is left behind.
    void importBrokenFile()
    {
        QTemporaryDir data;
        const QString root = data.filePath(QStringLiteral("runs"));
        const QString bad = QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/import/broken/guidellm-no-strategy.json");
        const Outcome r = runCli({ QStringLiteral("import"), bad, QStringLiteral("--data-dir"), root });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(bad + QStringLiteral(": benchmarks[1]: no strategy")), qPrintable(r.err));
        QCOMPARE(QDir(root).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList());
        const Outcome format
            = runCli({ QStringLiteral("import"), bad, QStringLiteral("--format"), QStringLiteral("csv") });
        QCOMPARE(format.exitCode, 2);
        QVERIFY(format.err.contains(QLatin1String("--format: unknown format \"csv\"")));
    }

    // twin fit --out and compare --junit: a FIFO is written, not replaced by a regular file.
    void writersKeepFifos()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const auto isFifo = [](const QString& path) { return HeldFifo::typeOf(path) == mode_t(S_IFIFO); };
        const QString fifo = tmp.filePath(QStringLiteral("out.fifo"));
        HeldFifo held(fifo);
        QVERIFY(held.ok());
        const QString runA = QFINDTESTDATA("data/export/runs/20261130-043500-sim-a");
        const QString runB = QFINDTESTDATA("data/export/runs/20261130-043800-sim-b");
        const Outcome fit
            = runCli({ QStringLiteral("twin"), QStringLiteral("fit"), runA, QStringLiteral("--out"), fifo });
        const QByteArray twin = held.drain();
        QVERIFY2(fit.exitCode == 0, qPrintable(fit.err));
        QVERIFY(isFifo(fifo));
        QVERIFY2(twin.contains("\"kneepoint.twin/1\""), twin.constData());

        const Outcome gate = runCli({ QStringLiteral("compare"), runA, runB, QStringLiteral("--fail-if"),
            QStringLiteral("ttft.p99>+10%"), QStringLiteral("--junit"), fifo });
        const QByteArray xml = held.drain();
        QVERIFY2(gate.exitCode == 0 || gate.exitCode == 5, qPrintable(gate.err));
        QVERIFY2(gate.err.contains(QStringLiteral("wrote ") + fifo), qPrintable(gate.err));
        QVERIFY(isFifo(fifo));
        QVERIFY2(xml.contains("<testsuites name=\"kneepoint regression gate\""), xml.constData());
    }

    // twin fit on a step with one wrong time (1e9 s) in its records: the record is left out and named,
    // and the fit ends as it does without it.
    void twinFitLeavesOutBadTimes()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString from = QFINDTESTDATA("data/export/runs/20261130-043500-sim-a");
        const QString dir = tmp.filePath(QStringLiteral("20261130-043500-sim-a"));
        QVERIFY(copyRun(from, dir));
        const QString late = dir + QStringLiteral("/steps/002.requests.jsonl");
        QList<QByteArray> lines = readFile(late).split('\n');
        for (int i : { 0, 1 }) {
            QJsonObject record = QJsonDocument::fromJson(lines[i]).object();
            record.insert(i == 0 ? QStringLiteral("end") : QStringLiteral("scheduled"), 1e9);
            if (i == 0)
                record.insert(QStringLiteral("last_token"), 1e9);
            lines[i] = QJsonDocument(record).toJson(QJsonDocument::Compact);
        }
        {
            QFile f(late);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(lines.join('\n'));
        }
        QElapsedTimer timer;
        timer.start();
        const QString twinPath = tmp.filePath(QStringLiteral("twin.json"));
        const Outcome fit
            = runCli({ QStringLiteral("twin"), QStringLiteral("fit"), dir, QStringLiteral("--out"), twinPath });
        QVERIFY2(fit.exitCode == 0, qPrintable(fit.err));
        QVERIFY2(timer.elapsed() < 60000, qPrintable(QString::number(timer.elapsed())));
        QVERIFY2(fit.err.contains(QStringLiteral("note: 20261130-043500-sim-a: step 2 (")), qPrintable(fit.err));
        QVERIFY2(fit.err.contains(QStringLiteral("%1: 2 records with a time past ").arg(late)), qPrintable(fit.err));
        QVERIFY(fit.out.startsWith(QStringLiteral("twin of 20261130-043500-sim-a: 5 steps, fit error ")));
    }

    // twin fit: a run named twice is fitted once; runs of different servers are fitted with a warning;
    // other tools' result files are read as import and analyze read them.
    void twinFitSources()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString twinPath = tmp.filePath(QStringLiteral("twin.json"));
        const QString runA = QFINDTESTDATA("data/export/runs/20261130-043500-sim-a");
        const QString runB = QFINDTESTDATA("data/export/runs/20261130-043800-sim-b");
        const Outcome twice
            = runCli({ QStringLiteral("twin"), QStringLiteral("fit"), runA, runA, QStringLiteral("--out"), twinPath });
        QVERIFY2(twice.exitCode == 0, qPrintable(twice.err));
        QVERIFY2(twice.out.startsWith(QStringLiteral("twin of 20261130-043500-sim-a: 5 steps, fit error ")),
            qPrintable(twice.out));
        QVERIFY2(twice.err.contains(
                     QStringLiteral("warning: %1 is named more than once; its steps are fitted once\n").arg(runA)),
            qPrintable(twice.err));
        QVERIFY2(!twice.err.contains(QStringLiteral("different servers")), qPrintable(twice.err));

        // The same simulator at another time scale: its milliseconds are not the first run's.
        const QString otherScale = tmp.filePath(QStringLiteral("20261130-043800-sim-b"));
        QVERIFY(copyRun(runB, otherScale));
        const QString runJson = otherScale + QStringLiteral("/run.json");
        QByteArray text = readFile(runJson);
        QVERIFY(text.contains("preset default, time scale 5"));
        text.replace("preset default, time scale 5", "preset default, time scale 1");
        {
            QFile f(runJson);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(text);
        }
        const Outcome sameServer
            = runCli({ QStringLiteral("twin"), QStringLiteral("fit"), runA, runB, QStringLiteral("--out"), twinPath });
        QVERIFY2(!sameServer.err.contains(QStringLiteral("different servers")), qPrintable(sameServer.err));
        const Outcome two = runCli(
            { QStringLiteral("twin"), QStringLiteral("fit"), runA, otherScale, QStringLiteral("--out"), twinPath });
        QVERIFY2(two.err.contains(QStringLiteral(
                     "warning: the runs measured different servers or time scales (20261130-043500-sim-a: built-in "
                     "simulator (preset default, time scale 5), model kneepoint/sim-default; 20261130-043800-sim-b: "
                     "built-in simulator (preset default, time scale 1), model kneepoint/sim-default): one twin "
                     "fitted to both describes neither; fit each on its own\n")),
            qPrintable(two.err));

        // A vLLM result file, as `import` and `analyze` read it: its one step is read and fitted, and the fit
        // says why one step is not enough (not that the file is no run directory).
        const Outcome file = runCli({ QStringLiteral("twin"), QStringLiteral("fit"),
            QFINDTESTDATA("data/import/vllm/result_rate30.json"), QStringLiteral("--out"), twinPath });
        QCOMPARE(file.exitCode, 2);
        QCOMPARE(file.err,
            QStringLiteral("error: cannot fit a twin to result_rate30: only 1 usable step (completed requests at a "
                           "finite load); a fit needs at least 3, one of them past saturation: sweep more loads\n"));

        // A folder of vLLM result files, one per rate, without per-request lists: read as `import` reads it,
        // its steps fitted from their summaries.
        const QString folder = tmp.filePath(QStringLiteral("vllm-sweep"));
        QVERIFY(QDir().mkpath(folder));
        const struct
        {
            double rate, rps, p99Ttft, medianTtft, meanTpot;
        } rows[] = { { 10, 9.6, 40, 30, 18.5 }, { 40, 32.0, 60, 40, 20.0 }, { 100, 45.0, 900, 300, 23.0 },
            { 200, 46.0, 1500, 700, 24.0 } };
        for (const auto& row : rows) {
            QJsonObject o { { QStringLiteral("date"), QStringLiteral("20261201-120000") },
                { QStringLiteral("backend"), QStringLiteral("vllm") },
                { QStringLiteral("model_id"), QStringLiteral("meta-llama/Llama-3.1-8B-Instruct") },
                { QStringLiteral("num_prompts"), 200 }, { QStringLiteral("request_rate"), row.rate },
                { QStringLiteral("burstiness"), 1.0 }, { QStringLiteral("duration"), 200 / row.rps },
                { QStringLiteral("completed"), 200 }, { QStringLiteral("total_input_tokens"), 128 * 200 },
                { QStringLiteral("total_output_tokens"), 128 * 200 }, { QStringLiteral("request_throughput"), row.rps },
                { QStringLiteral("median_ttft_ms"), row.medianTtft }, { QStringLiteral("p99_ttft_ms"), row.p99Ttft },
                { QStringLiteral("mean_tpot_ms"), row.meanTpot } };
            QFile f(QStringLiteral("%1/vllm-%2qps.json").arg(folder).arg(row.rate));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QJsonDocument(o).toJson());
        }
        const Outcome sweep = runCli({ QStringLiteral("twin"), QStringLiteral("fit"), folder, QStringLiteral("--out"),
            twinPath, QStringLiteral("--max-evaluations"), QStringLiteral("60") });
        QVERIFY2(sweep.exitCode == 0, qPrintable(sweep.err));
        QVERIFY2(sweep.out.startsWith(QStringLiteral("twin of "))
                && sweep.out.contains(QStringLiteral(": 4 steps, fit error ")),
            qPrintable(sweep.out));
        QVERIFY2(sweep.err.contains(QStringLiteral("note: some steps have no request records (an imported summary)")),
            qPrintable(sweep.err));
        QVERIFY2(!sweep.err.contains(QStringLiteral("not a run directory")), qPrintable(sweep.err));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
