// Sharded load: K kneepoint-cli processes against one simulator, merged, against one process
// running the same total load; the merge's checks; the container recipe and the Kubernetes Job.
#include "runs/runmerge.h"
#include "runs/savedrun.h"
#include "sim/filelimit.h"
#include "sim/simhost.h"
#include "sweep/shard.h"

#include <QDateTime>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace kp;

namespace {

constexpr int kProcessTimeoutMs = 180000;
constexpr int kShards = 2;
// 2 and 4 req/s of simulated load on the simulator's time scale of 40.
const QStringList kRates = { QStringLiteral("80"), QStringLiteral("160") };
constexpr int kPrompts = 61; // not a multiple of the shard count: the split must still be exact

struct Outcome
{
    int exitCode = -1;
    QString out;
    QString err;
};

Outcome finish(QProcess& p)
{
    if (!p.waitForFinished(kProcessTimeoutMs))
        p.kill();
    return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
        QString::fromUtf8(p.readAllStandardError()) };
}

Outcome runCli(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(KNEEPOINT_CLI), args);
    return finish(p);
}

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeFile(const QString& path, const QByteArray& data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(data) == data.size();
}

QJsonObject readJson(const QString& path)
{
    return QJsonDocument::fromJson(readFile(path)).object();
}

// vLLM's token counters from the simulator's /metrics.
std::pair<double, double> tokenCounters(const QUrl& base)
{
    QNetworkAccessManager nam;
    QNetworkReply* reply = nam.get(QNetworkRequest(base.resolved(QUrl(QStringLiteral("/metrics")))));
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    const QString text = QString::fromUtf8(reply->readAll());
    reply->deleteLater();
    auto counter = [&text](const QString& name) {
        const QRegularExpression re(
            QStringLiteral("^%1(\\{[^}]*\\})? ([0-9.e+]+)$").arg(QRegularExpression::escape(name)),
            QRegularExpression::MultilineOption);
        double sum = 0;
        for (auto it = re.globalMatch(text); it.hasNext();)
            sum += it.next().captured(2).toDouble();
        return sum;
    };
    return { counter(QStringLiteral("vllm:prompt_tokens_total")),
        counter(QStringLiteral("vllm:generation_tokens_total")) };
}

bool copyDir(const QString& from, const QString& to)
{
    QDir().mkpath(to + QStringLiteral("/steps"));
    for (const QString& name : QDir(from).entryList(QDir::Files))
        if (!QFile::copy(from + u'/' + name, to + u'/' + name))
            return false;
    for (const QString& name : QDir(from + QStringLiteral("/steps")).entryList(QDir::Files))
        if (!QFile::copy(from + QStringLiteral("/steps/") + name, to + QStringLiteral("/steps/") + name))
            return false;
    return true;
}

// Two samples of one latency (ms), from separate runs of the same load: close, not equal. The absolute
// part absorbs a loaded machine's scheduling noise on latencies of a few milliseconds.
bool withinBand(double a, double b)
{
    return std::abs(a - b) <= 0.5 * std::max(a, b) + 50.0;
}

} // namespace

class TestShard : public QObject
{
    Q_OBJECT

    kp::sim::SimHost m_sim;
    QTemporaryDir m_tmp;
    QStringList m_shardDirs;
    QString m_singleDir;
    QString m_mergedDir;
    std::pair<double, double> m_shardTokens; // what the simulator counted while the shards ran

    QStringList commonArgs() const
    {
        return { QStringLiteral("sweep"), QStringLiteral("--base-url"), m_sim.baseUrl().toString(),
            QStringLiteral("--model"), QStringLiteral("kneepoint/sim-default"), QStringLiteral("--no-preflight"),
            QStringLiteral("--request-rate"), kRates.join(u','), QStringLiteral("--num-prompts"),
            QString::number(kPrompts), QStringLiteral("--random-input-len"), QStringLiteral("24"),
            QStringLiteral("--random-output-len"), QStringLiteral("12"), QStringLiteral("--ignore-eos"),
            QStringLiteral("--seed"), QStringLiteral("7"), QStringLiteral("--workers"), QStringLiteral("2"),
            QStringLiteral("--metric-percentiles"), QStringLiteral("50,90,99"), QStringLiteral("--quiet") };
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        kp::sim::raiseFileLimit();
        kp::sim::SimServerOptions options;
        options.timeScale = 40;
        QVERIFY2(m_sim.start(options), qPrintable(m_sim.errorString()));
    }

    void cleanupTestCase() { m_sim.stop(); }

    void parsing()
    {
        QString error;
        const auto s = parseShard(u"2/3", false, &error);
        QVERIFY(s);
        QCOMPARE(s->index, 2);
        QCOMPARE(s->count, 3);
        const auto z = parseShard(u"0/3", true, &error);
        QVERIFY(z);
        QCOMPARE(z->index, 1);
        QVERIFY(!parseShard(u"0/3", false, &error));
        QVERIFY2(error.contains(QLatin1String("1 <= I <= K")), qPrintable(error));
        QVERIFY(!parseShard(u"4/3", false, &error));
        QVERIFY(!parseShard(u"x", false, &error));
        // The shares of a count add up to it exactly, and the seeds differ per shard.
        for (int total : { 0, 1, 7, 61, 100 }) {
            qint64 sum = 0;
            for (int i = 1; i <= 3; ++i)
                sum += ShardSpec { i, 3 }.share(total);
            QCOMPARE(sum, qint64(total));
        }
        QCOMPARE(ShardSpec {}.seed(42), quint64(42));
        QVERIFY(ShardSpec({ 1, 2 }).seed(42) != ShardSpec({ 2, 2 }).seed(42));
        QCOMPARE(ShardSpec({ 1, 2 }).seed(42), ShardSpec({ 1, 2 }).seed(42));

        const auto t = parseStartTime(u"2026-11-30T04:00:00Z", &error);
        QVERIFY(t);
        QCOMPARE(t->toSecsSinceEpoch(), qint64(1796011200));
        QCOMPARE(parseStartTime(u"2026-11-30T04:00:00", &error)->toSecsSinceEpoch(), qint64(1796011200));
        QCOMPARE(parseStartTime(u"1796011200.5", &error)->toMSecsSinceEpoch(), qint64(1796011200500));
        QVERIFY(!parseStartTime(u"tomorrow", &error));
        QVERIFY2(error.contains(QLatin1String("ISO 8601")), qPrintable(error));
    }

    void refusesAdaptivePlans()
    {
        QStringList args = commonArgs();
        args << QStringLiteral("--shard") << QStringLiteral("1/2") << QStringLiteral("--plan") << QStringLiteral("auto")
             << QStringLiteral("--out") << m_tmp.filePath(QStringLiteral("never"));
        Outcome r = runCli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QLatin1String("--shard 1/2: load.plan.kind: an auto plan")), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(m_tmp.filePath(QStringLiteral("never"))));

        args = commonArgs();
        args << QStringLiteral("--shard") << QStringLiteral("1/2") << QStringLiteral("--refine");
        r = runCli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QLatin1String("load.plan.refine")), qPrintable(r.err));

        args = commonArgs();
        args << QStringLiteral("--shard") << QStringLiteral("3/2");
        r = runCli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QLatin1String("--shard: \"3/2\" is not I/K")), qPrintable(r.err));

        args = commonArgs();
        args << QStringLiteral("--step-interval") << QStringLiteral("5");
        r = runCli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QLatin1String("--step-interval needs --start-at")), qPrintable(r.err));
    }

    void shardsAgreeWithOneClient()
    {
        // The shards, started together on a shared start time, against one simulator.
        const auto before = tokenCounters(m_sim.baseUrl());
        const QString startAt = QDateTime::currentDateTimeUtc().addSecs(1).toString(Qt::ISODateWithMs);
        std::vector<std::unique_ptr<QProcess>> procs;
        for (int i = 1; i <= kShards; ++i) {
            const QString dir = m_tmp.filePath(QStringLiteral("shard-%1").arg(i));
            m_shardDirs << dir;
            QStringList args = commonArgs();
            args << QStringLiteral("--shard") << QStringLiteral("%1/%2").arg(i).arg(kShards)
                 << QStringLiteral("--start-at") << startAt << QStringLiteral("--out") << dir;
            procs.push_back(std::make_unique<QProcess>());
            procs.back()->start(QStringLiteral(KNEEPOINT_CLI), args);
        }
        for (auto& p : procs) {
            const Outcome r = finish(*p);
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        }
        const auto after = tokenCounters(m_sim.baseUrl());
        m_shardTokens = { after.first - before.first, after.second - before.second };

        for (int i = 1; i <= kShards; ++i) {
            const QJsonObject run = readJson(m_shardDirs[i - 1] + QStringLiteral("/run.json"));
            QCOMPARE(run.value(u"shard").toObject().value(u"index").toInt(), i);
            QCOMPARE(run.value(u"shard").toObject().value(u"count").toInt(), kShards);
            QCOMPARE(run.value(u"shard").toObject().value(u"start_at").toString(), startAt);
            const QJsonArray steps = run.value(u"steps").toArray();
            QCOMPARE(steps.size(), kRates.size());
            // Each shard offers half the rate and its share of the requests.
            QCOMPARE(steps[0].toObject().value(u"load").toString(), QStringLiteral("40 req/s"));
            QCOMPARE(steps[0].toObject().value(u"completed").toInt(), i == 1 ? 31 : 30);
            QVERIFY(steps[0].toObject().value(u"start_unix_s").toDouble() > 1.7e9);
            QVERIFY(steps[0].toObject().contains(u"start_late_s"));
        }
        QCOMPARE(shardOfRun(m_shardDirs[0])->index, 1);
        QVERIFY(isShardSet(m_shardDirs));

        // Merged.
        m_mergedDir = m_tmp.filePath(QStringLiteral("merged"));
        Outcome r = runCli({ QStringLiteral("merge"), m_shardDirs[0], m_shardDirs[1], QStringLiteral("--out"),
            m_mergedDir, QStringLiteral("--quiet") });
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.out.count(u'\n'), kRates.size());

        // The same total load from one process.
        m_singleDir = m_tmp.filePath(QStringLiteral("single"));
        QStringList args = commonArgs();
        args << QStringLiteral("--out") << m_singleDir;
        r = runCli(args);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));

        const SavedRunRead merged = readSavedRun(m_mergedDir);
        const SavedRunRead single = readSavedRun(m_singleDir);
        QVERIFY2(merged.ok(), qPrintable(merged.error));
        QVERIFY2(single.ok(), qPrintable(single.error));
        QCOMPARE(merged.run->status, QStringLiteral("finished"));
        QCOMPARE(merged.run->steps.size(), single.run->steps.size());
        qint64 inputTokens = 0, outputTokens = 0;
        for (std::size_t i = 0; i < merged.run->steps.size(); ++i) {
            const SavedStep& m = merged.run->steps[i];
            const SavedStep& s = single.run->steps[i];
            QCOMPARE(m.metrics.completed, qint64(kPrompts));
            QCOMPARE(m.metrics.completed, s.metrics.completed);
            QCOMPARE(m.metrics.failed, s.metrics.failed);
            QCOMPARE(m.load, s.load);
            QCOMPARE(m.setup.numPrompts, s.setup.numPrompts);
            QCOMPARE(m.setup.requestRate, s.setup.requestRate);
            // The same prompts went out: the shards' requests cover the single client's indices.
            QCOMPARE(m.metrics.totalInputTokens, s.metrics.totalInputTokens);
            QCOMPARE(m.metrics.totalOutputTokens, s.metrics.totalOutputTokens);
            QCOMPARE(m.metrics.totalServerInputTokens, s.metrics.totalServerInputTokens);
            std::vector<RequestRecord> records;
            QString error;
            QVERIFY2(readRequestRecords(m.requestsPath, &records, &error), qPrintable(error));
            std::set<qint64> indices;
            for (const RequestRecord& rec : records)
                indices.insert(rec.index);
            QCOMPARE(indices.size(), std::size_t(kPrompts));
            QCOMPARE(*indices.rbegin(), qint64(kPrompts - 1));
            // Percentiles from the records, close to one client's.
            auto pick = [](const LatencyStats& stats, double p) {
                return p == 50 ? stats.median : stats.percentile(p).value_or(-1);
            };
            // Median and P90: the P99 of 61 requests is their slowest, too noisy to compare.
            for (double p : { 50.0, 90.0 }) {
                const double mt = pick(m.metrics.ttft, p), st = pick(s.metrics.ttft, p);
                QVERIFY2(mt > 0 && withinBand(mt, st),
                    qPrintable(QStringLiteral("TTFT p%1 %2 vs %3").arg(p).arg(mt).arg(st)));
                const double me = pick(m.metrics.e2el, p), se = pick(s.metrics.e2el, p);
                QVERIFY2(me > 0 && withinBand(me, se),
                    qPrintable(QStringLiteral("E2EL p%1 %2 vs %3").arg(p).arg(me).arg(se)));
            }
            // The merged percentiles are those of the pooled records, not an average of the shards'.
            const StepMetrics pooled = StepMetrics::fromRecords(records, m.metrics.durationS, MetricsOptions {});
            QCOMPARE(m.metrics.ttft.median, pooled.ttft.median);
            inputTokens += m.metrics.totalServerInputTokens;
            outputTokens += m.metrics.totalOutputTokens;
        }
        // Token totals: exactly what the simulator counted while the shards ran.
        QCOMPARE(double(inputTokens), m_shardTokens.first);
        QCOMPARE(double(outputTokens), m_shardTokens.second);

        const QJsonObject run = readJson(m_mergedDir + QStringLiteral("/run.json"));
        const QJsonObject info = run.value(u"merged").toObject();
        QCOMPARE(info.value(u"count").toInt(), kShards);
        QCOMPARE(info.value(u"shards").toArray().size(), kShards);
        QVERIFY(!run.contains(u"shard"));
        QVERIFY(QFileInfo::exists(m_mergedDir + QStringLiteral("/analysis.json")));
        QVERIFY(QFileInfo::exists(m_mergedDir + QStringLiteral("/sweep.csv")));
        // No temporary directory is left beside the result.
        QCOMPARE(
            QDir(m_tmp.path()).entryList({ QStringLiteral(".merged.merging-*") }, QDir::Dirs | QDir::Hidden).size(), 0);
    }

    void mismatchedShards()
    {
        QVERIFY(!m_shardDirs.isEmpty());
        // The same shard twice.
        Outcome r = runCli({ QStringLiteral("merge"), m_shardDirs[0], m_shardDirs[0], QStringLiteral("--out"),
            m_tmp.filePath(QStringLiteral("twice")) });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QLatin1String("are both shard 1/2")), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(m_tmp.filePath(QStringLiteral("twice"))));

        // Not a shard at all.
        r = runCli({ QStringLiteral("merge"), m_shardDirs[0], m_singleDir, QStringLiteral("--out"),
            m_tmp.filePath(QStringLiteral("unsharded")) });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QLatin1String("shard: missing; not a shard run")), qPrintable(r.err));

        // A different plan.
        const QString other = m_tmp.filePath(QStringLiteral("other-plan"));
        QVERIFY(copyDir(m_shardDirs[1], other));
        QJsonObject run = readJson(other + QStringLiteral("/run.json"));
        QJsonObject plan = run.value(u"plan").toObject();
        QJsonArray planned = plan.value(u"planned").toArray();
        planned.removeLast();
        plan.insert(QLatin1String("planned"), planned);
        run.insert(QLatin1String("plan"), plan);
        QVERIFY(writeFile(other + QStringLiteral("/run.json"), QJsonDocument(run).toJson()));
        r = runCli({ QStringLiteral("merge"), m_shardDirs[0], other, QStringLiteral("--out"),
            m_tmp.filePath(QStringLiteral("plans")) });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QLatin1String("ran different plans")), qPrintable(r.err));

        // A shard that stopped before its last step: merged, with the step and the shard flagged.
        const QString stopped = m_tmp.filePath(QStringLiteral("stopped"));
        QVERIFY(copyDir(m_shardDirs[1], stopped));
        run = readJson(stopped + QStringLiteral("/run.json"));
        QJsonArray steps = run.value(u"steps").toArray();
        steps.removeLast();
        run.insert(QLatin1String("steps"), steps);
        run.insert(QLatin1String("status"), QStringLiteral("stopped"));
        QVERIFY(writeFile(stopped + QStringLiteral("/run.json"), QJsonDocument(run).toJson()));
        QVERIFY(QFile::remove(stopped + QStringLiteral("/steps/001.json")));
        QVERIFY(QFile::remove(stopped + QStringLiteral("/steps/001.requests.jsonl")));
        MergeOptions options;
        options.outDir = m_tmp.filePath(QStringLiteral("with-gap"));
        const MergeReport report = mergeShardRuns({ m_shardDirs[0], stopped }, options);
        QVERIFY2(report.ok(), qPrintable(report.error));
        QCOMPARE(report.steps, 2);
        const QString flags = report.flags.join(u'\n');
        QVERIFY2(flags.contains(QLatin1String("shard 2/2 stopped")), qPrintable(flags));
        QVERIFY2(flags.contains(QLatin1String("step 2: no result from shard 2/2")), qPrintable(flags));
        const QJsonObject mergedRun = readJson(options.outDir + QStringLiteral("/run.json"));
        QCOMPARE(mergedRun.value(u"status").toString(), QStringLiteral("stopped"));
        const QJsonObject last = mergedRun.value(u"steps").toArray().last().toObject();
        QCOMPARE(last.value(u"partial").toBool(), true);
        QCOMPARE(last.value(u"completed").toInt(), kPrompts / 2 + 1); // shard 1's share alone
        QVERIFY(!last.value(u"flags").toArray().isEmpty());

        // Shards named by their ids under a data directory; without --out the merged run goes there.
        const QString runs = m_tmp.filePath(QStringLiteral("runs"));
        QVERIFY(QDir().mkpath(runs));
        QVERIFY(copyDir(m_shardDirs[0], runs + QStringLiteral("/shard-a")));
        QVERIFY(copyDir(m_shardDirs[1], runs + QStringLiteral("/shard-b")));
        r = runCli({ QStringLiteral("merge"), QStringLiteral("shard-a"), QStringLiteral("shard-b"),
            QStringLiteral("--data-dir"), runs, QStringLiteral("--quiet") });
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QStringList made = QDir(runs).entryList({ QStringLiteral("*-merged") }, QDir::Dirs);
        QCOMPARE(made.size(), 1);
        QVERIFY(QFileInfo::exists(runs + u'/' + made.constFirst() + QStringLiteral("/run.json")));

        // One directory is not a set of shards.
        r = runCli({ QStringLiteral("merge"), m_shardDirs[0], QStringLiteral("--out"),
            m_tmp.filePath(QStringLiteral("one")) });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QLatin1String("at least two shards")), qPrintable(r.err));

        // Two shards of three: the third is missing.
        QStringList ofThree;
        for (int i = 1; i <= 2; ++i) {
            const QString dir = m_tmp.filePath(QStringLiteral("of-three-%1").arg(i));
            QVERIFY(copyDir(m_shardDirs[i - 1], dir));
            run = readJson(dir + QStringLiteral("/run.json"));
            QJsonObject shard = run.value(u"shard").toObject();
            shard.insert(QLatin1String("count"), 3);
            run.insert(QLatin1String("shard"), shard);
            QVERIFY(writeFile(dir + QStringLiteral("/run.json"), QJsonDocument(run).toJson()));
            ofThree << dir;
        }
        QVERIFY(!isShardSet({ m_shardDirs[0], ofThree[1] }));
        options.outDir = m_tmp.filePath(QStringLiteral("two-of-three"));
        const MergeReport missing = mergeShardRuns(ofThree, options);
        QVERIFY(!missing.ok());
        QVERIFY2(missing.error.contains(QLatin1String("shard 3/3 missing")), qPrintable(missing.error));
        QVERIFY(!QFileInfo::exists(options.outDir));
    }

    void kubernetesManifest()
    {
        const QString manifest = QStringLiteral(KNEEPOINT_SOURCE_DIR "/packaging/k8s/kneepoint-job.yaml");
        QVERIFY(QFileInfo::exists(manifest));
        // Parsed as YAML (python3-yaml), every document checked for its kind and the fields the
        // workflow relies on.
        const QString script = QStringLiteral(R"PY(
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
kinds = {d["kind"]: d for d in docs}
assert {"ConfigMap", "PersistentVolumeClaim", "Job"} <= set(kinds), sorted(kinds)
job = kinds["Job"]
assert job["apiVersion"] == "batch/v1"
spec = job["spec"]
assert spec["completionMode"] == "Indexed"
assert spec["completions"] == spec["parallelism"], (spec["completions"], spec["parallelism"])
pod = spec["template"]["spec"]
assert pod["restartPolicy"] == "Never"
c = pod["containers"][0]
cmd = " ".join(c.get("command", []) + c.get("args", []))
k = spec["completions"]
assert "--shard" in cmd and "JOB_COMPLETION_INDEX" in cmd and ("/%d" % k) in cmd, cmd
assert "--start-at" in cmd and "--out" in cmd, cmd
env = {e["name"]: e for e in c["env"]}
ref = env["OPENAI_API_KEY"]["valueFrom"]["secretKeyRef"]
assert ref["name"] == "kneepoint-api-key" and ref["key"] == "api-key", ref
mounts = {m["name"]: m["mountPath"] for m in c["volumeMounts"]}
vols = {v["name"]: v for v in pod["volumes"]}
assert any("configMap" in v and v["configMap"]["name"] == kinds["ConfigMap"]["metadata"]["name"] for v in vols.values())
assert any("persistentVolumeClaim" in v and v["persistentVolumeClaim"]["claimName"] == kinds["PersistentVolumeClaim"]["metadata"]["name"] for v in vols.values())
profile = list(kinds["ConfigMap"]["data"].values())[0]
assert "${OPENAI_API_KEY}" in profile, profile
print("ok", k)
)PY");
        QProcess p;
        p.start(QStringLiteral("python3"), { QStringLiteral("-c"), script, manifest });
        QVERIFY(p.waitForFinished(60000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(p.exitCode() == 0, qPrintable(err));
        QVERIFY(QString::fromUtf8(p.readAllStandardOutput()).startsWith(QLatin1String("ok ")));
    }

    void containerRecipe()
    {
        // No container engine runs the tests; the recipe is checked for the lines the workflow needs.
        const QString text
            = QString::fromUtf8(readFile(QStringLiteral(KNEEPOINT_SOURCE_DIR "/packaging/container/Dockerfile")));
        QVERIFY(!text.isEmpty());
        for (const char* line : { "FROM debian:bookworm AS build", "packaging/deps.sh", "--preset release",
                 "FROM debian:bookworm-slim", "ENTRYPOINT [\"kneepoint-cli\"]", "USER " }) {
            QVERIFY2(text.contains(QLatin1String(line)), line);
        }
        QCOMPARE(text.count(QRegularExpression(QStringLiteral("^FROM "), QRegularExpression::MultilineOption)), 2);
    }
};

QTEST_GUILESS_MAIN(TestShard)
#include "tst_shard.moc"
