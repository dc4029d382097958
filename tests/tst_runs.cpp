// Saved runs: reading run directories back, the catalog, importers of other tools' files, comparison.
#include "metrics/resultjson.h"
#include "metrics/stepsummary.h"
#include "profile/profilestore.h"
#include "runs/comparison.h"
#include "runs/importers.h"
#include "runs/importformats.h"
#include "runs/regressiongate.h"
#include "runs/runcatalog.h"
#include "runs/savedrun.h"
#include "runs/steptimeline.h"
#include "sim/filelimit.h"
#include "store/runwriter.h"
#include "support/heldfifo.h"
#include "sweep/analysisjson.h"
#include "sweep/analysistext.h"
#include "sweep/builtinsimulator.h"
#include "sweep/kneeanalysis.h"
#include "sweep/sweepplan.h"
#include "sweep/sweeprunner.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <thread>

#ifdef Q_OS_LINUX
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#endif

using namespace kp;

namespace {

QString importData(const QString& name)
{
    return QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/import/") + name;
}

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeText(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// The import contract: every figure or setting of an imported step file is read from a source file
// (the same number, in ms, s, µs or ns, or the same text), derived (kneepoint.derived names it), or
// unknown (null). Returns one line per value that is none of these.
QStringList importContractViolations(const QString& runDir)
{
    QStringList problems;
    const QJsonObject run = QJsonDocument::fromJson(readFile(runDir + QStringLiteral("/run.json"))).object();
    QByteArray source;
    for (const QJsonValue& f : run.value(u"imported_from").toArray())
        source += readFile(f.toString()) + '\n';
    if (source.isEmpty())
        return { runDir + QStringLiteral(": run.json names no source file") };
    // Every number and every string of the sources, whatever their format (JSON, JSON Lines, CSV).
    std::vector<double> numbers;
    static const QRegularExpression number(QStringLiteral("-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?"));
    const QString text = QString::fromUtf8(source);
    for (auto it = number.globalMatch(text); it.hasNext();)
        numbers.push_back(it.next().captured().toDouble());
    const auto stated = [&](double v) {
        if (std::isinf(v))
            return text.contains(QLatin1String("inf"), Qt::CaseInsensitive);
        for (double n : numbers) {
            for (double scale : { 1.0, 1e3, 1e-3, 1e6, 1e-6, 1e9, 1e-9 }) {
                const double x = n * scale;
                if (x == v || std::abs(x - v) <= 1e-12 * std::max(std::abs(x), std::abs(v)))
                    return true;
            }
        }
        return false;
    };
    const auto said = [&](const QString& s) { return text.contains(QLatin1Char('"') + s + QLatin1Char('"')); };
    static const QRegularExpression figureKey(QStringLiteral("^(?:mean|median|std|p[\\d.]+)_(\\w+?)_ms$"));
    // Structure, not figures: what a step file says about itself.
    static const QStringList structure { QStringLiteral("kneepoint.version"), QStringLiteral("kneepoint.percentiles"),
        QStringLiteral("kneepoint.percentile_metrics"), QStringLiteral("kneepoint.derived"),
        QStringLiteral("kneepoint.input_token_warning") };
    QDir steps(runDir + QStringLiteral("/steps"));
    for (const QString& name : steps.entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name)) {
        const QJsonObject step = QJsonDocument::fromJson(readFile(steps.filePath(name))).object();
        QStringList derived;
        for (const QJsonValue& d : step.value(u"kneepoint").toObject().value(u"derived").toArray())
            derived << d.toString();
        if (derived.contains(QStringLiteral("concurrency")))
            derived << QStringLiteral("mean_concurrency");
        const auto isDerived = [&](const QString& path) {
            const QString key = path.section(QLatin1Char('.'), -1);
            if (derived.contains(key))
                return true;
            const QRegularExpressionMatch m = figureKey.match(key);
            if (m.hasMatch() && derived.contains(m.captured(1)))
                return true;
            // kneepoint.latency.tpot.mean_ms: the metric's group
            const QStringList parts = path.split(QLatin1Char('.'));
            return parts.size() >= 3 && parts[1] == QLatin1String("latency") && derived.contains(parts[2]);
        };
        std::function<void(const QString&, const QJsonValue&)> check = [&](const QString& path, const QJsonValue& v) {
            if (structure.contains(path) || v.isNull() || v.isBool())
                return;
            if (v.isObject()) {
                const QJsonObject o = v.toObject();
                for (auto it = o.begin(); it != o.end(); ++it)
                    check(path.isEmpty() ? it.key() : path + QLatin1Char('.') + it.key(), it.value());
                return;
            }
            if (v.isArray()) {
                const QJsonArray a = v.toArray();
                for (qsizetype i = 0; i < a.size(); ++i)
                    check(path + QStringLiteral("[%1]").arg(i), a[i]);
                return;
            }
            if (isDerived(path))
                return;
            if (v.isDouble() && !stated(v.toDouble()))
                problems << QStringLiteral("%1: %2 = %3: not in the source, not derived")
                                .arg(name, path)
                                .arg(v.toDouble(), 0, 'g', 17);
            if (v.isString()) {
                const QString s = v.toString();
                const bool inf = s == QLatin1String("inf") && stated(std::numeric_limits<double>::infinity());
                if (!inf && !said(s))
                    problems << QStringLiteral("%1: %2 = \"%3\": not in the source, not derived").arg(name, path, s);
            }
        };
        check(QString(), step);
    }
    return problems;
}

// Everything under dir, hidden entries included.
QStringList entries(const QString& dir)
{
    return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
}

RequestRecord record(int index, qint64 sendMs, qint64 ttftMs, int chunks, qint64 gapMs)
{
    RequestRecord r;
    r.index = index;
    r.requestId = QStringLiteral("kp-%1").arg(index);
    r.scheduledNs = sendMs * 1'000'000 - 123;
    r.sentNs = sendMs * 1'000'000;
    r.firstByteNs = r.sentNs + ttftMs * 1'000'000 - 7'654'321;
    r.firstTokenNs = r.sentNs + ttftMs * 1'000'000 + 1;
    r.firstContentNs = r.firstTokenNs + 3;
    for (int c = 0; c < chunks; ++c)
        r.chunkNs.push_back(r.firstTokenNs + c * gapMs * 1'000'000 + c * 17);
    r.lastTokenNs = r.chunkNs.back();
    r.endNs = r.lastTokenNs + 999;
    r.httpStatus = 200;
    r.promptTokens = 100 + index;
    r.serverPromptTokens = index % 2 == 0 ? 100 + index : -1;
    r.outputTokens = chunks;
    r.outputTokensFromUsage = index % 3 == 0;
    return r;
}

void compareRecords(const RequestRecord& a, const RequestRecord& b)
{
    QCOMPARE(a.index, b.index);
    QCOMPARE(a.requestId, b.requestId);
    QCOMPARE(a.scheduledNs, b.scheduledNs);
    QCOMPARE(a.sentNs, b.sentNs);
    QCOMPARE(a.firstByteNs, b.firstByteNs);
    QCOMPARE(a.firstTokenNs, b.firstTokenNs);
    QCOMPARE(a.firstContentNs, b.firstContentNs);
    QCOMPARE(a.lastTokenNs, b.lastTokenNs);
    QCOMPARE(a.endNs, b.endNs);
    QCOMPARE(a.chunkNs, b.chunkNs);
    QCOMPARE(a.httpStatus, b.httpStatus);
    QCOMPARE(a.failure, b.failure);
    QCOMPARE(a.errorMessage, b.errorMessage);
    QVERIFY(a.response == b.response);
    QCOMPARE(a.promptTokens, b.promptTokens);
    QCOMPARE(a.serverPromptTokens, b.serverPromptTokens);
    QCOMPARE(a.outputTokens, b.outputTokens);
    QCOMPARE(a.outputTokensFromUsage, b.outputTokensFromUsage);
}

Profile testProfile(const QString& name)
{
    Profile p;
    p.name = name;
    p.target.baseUrl = QStringLiteral("http://127.0.0.1:8000");
    p.target.model = QStringLiteral("test/model");
    p.load.mode = LoadMode::Rate;
    return p;
}

// A synthetic step at `rate` with P99 TTFT `ttftP99` and the given request throughput.
StepMetrics syntheticMetrics(double ttftP99, double throughput)
{
    StepMetrics m;
    m.options.percentiles = { 99 };
    m.durationS = 10;
    m.completed = qint64(std::llround(throughput * 10));
    m.requestThroughput = throughput;
    m.outputThroughput = throughput * 100;
    m.ttft.count = m.completed;
    m.ttft.mean = ttftP99 / 2;
    m.ttft.median = ttftP99 / 2;
    m.ttft.percentiles = { { 99.0, ttftP99 } };
    m.tpot.count = m.completed;
    m.tpot.mean = 20;
    m.tpot.percentiles = { { 99.0, 30.0 } };
    return m;
}

// A finished run directory with one step per (rate, P99 TTFT, throughput).
QString writeRun(const QString& dir, const Profile& profile, const std::vector<std::array<double, 3>>& steps)
{
    RunWriter writer;
    QString error;
    if (!writer.open(dir, &error))
        return error;
    QList<QJsonObject> entries;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        StepSetup setup;
        setup.modelId = profile.target.model;
        setup.backend = QStringLiteral("openai-chat");
        setup.requestRate = steps[i][0];
        setup.numPrompts = 100;
        const StepMetrics m = syntheticMetrics(steps[i][1], steps[i][2]);
        if (!writer.writeStep(int(i), ResultJson::write(setup, m, {}, 2), &error))
            return error;
        QJsonObject entry;
        entry.insert(QLatin1String("index"), int(i));
        entry.insert(QLatin1String("load"), formatLoad(LoadMode::Rate, steps[i][0]));
        entry.insert(QLatin1String("file"), QFileInfo(writer.stepPath(int(i))).fileName());
        entry.insert(QLatin1String("completed"), m.completed);
        entry.insert(QLatin1String("failed"), 0);
        entry.insert(QLatin1String("partial"), false);
        entry.insert(QLatin1String("client_bound"), false);
        entries << entry;
    }
    if (!writer.writeRun(runDocument(profile, {}, QString(), QStringLiteral("finished"), entries), &error))
        return error;
    return {};
}

// requests.jsonl's line as QJsonDocument writes it: the specification requestRecordToJson's hand-written
// serialiser is held to, byte for byte.
QByteArray qtWriterLine(const RequestRecord& r)
{
    auto seconds = [](qint64 ns) { return ns < 0 ? QJsonValue(QJsonValue::Null) : QJsonValue(double(ns) / 1e9); };
    QJsonObject o;
    o.insert(QLatin1String("index"), r.index);
    o.insert(QLatin1String("request_id"), r.requestId);
    o.insert(QLatin1String("success"), r.success());
    if (!r.success()) {
        o.insert(QLatin1String("error_class"), failureClassKey(r.failure));
        o.insert(QLatin1String("error"), r.errorMessage);
        const ResponseFacts& f = r.response;
        if (!f.isEmpty()) {
            QJsonObject response;
            if (!f.location.isEmpty())
                response.insert(QLatin1String("location"), f.location);
            if (f.retryAfterS)
                response.insert(QLatin1String("retry_after_s"), *f.retryAfterS);
            if (!f.contentEncoding.isEmpty())
                response.insert(QLatin1String("content_encoding"), f.contentEncoding);
            if (f.contextExceeded)
                response.insert(QLatin1String("context_exceeded"), true);
            if (f.contextLimit)
                response.insert(QLatin1String("context_limit"), double(*f.contextLimit));
            o.insert(QLatin1String("response"), response);
        }
    }
    o.insert(QLatin1String("http_status"), r.httpStatus);
    if (r.attempts > 1)
        o.insert(QLatin1String("attempts"), r.attempts);
    o.insert(QLatin1String("scheduled"), seconds(r.scheduledNs));
    o.insert(QLatin1String("sent"), seconds(r.sentNs));
    o.insert(QLatin1String("first_byte"), seconds(r.firstByteNs));
    o.insert(QLatin1String("first_token"), seconds(r.firstTokenNs));
    o.insert(QLatin1String("first_content"), seconds(r.firstContentNs));
    o.insert(QLatin1String("last_token"), seconds(r.lastTokenNs));
    o.insert(QLatin1String("end"), seconds(r.endNs));
    if (r.connectNs >= 0)
        o.insert(QLatin1String("connect"), seconds(r.connectNs));
    QJsonArray chunks;
    for (qint64 t : r.chunkNs)
        chunks.append(double(t) / 1e9);
    o.insert(QLatin1String("chunks"), chunks);
    o.insert(QLatin1String("prompt_tokens"), r.promptTokens);
    if (r.serverPromptTokens >= 0)
        o.insert(QLatin1String("server_prompt_tokens"), r.serverPromptTokens);
    if (r.cachedTokens >= 0)
        o.insert(QLatin1String("cached_tokens"), r.cachedTokens);
    if (!r.model.isEmpty())
        o.insert(QLatin1String("model"), r.model);
    if (r.session >= 0) {
        o.insert(QLatin1String("session"), r.session);
        o.insert(QLatin1String("turn"), r.turn);
    }
    o.insert(QLatin1String("output_tokens"), r.outputTokens);
    o.insert(QLatin1String("output_tokens_from_usage"), r.outputTokensFromUsage);
    if (r.reasoningTokens >= 0)
        o.insert(QLatin1String("reasoning_tokens"), r.reasoningTokens);
    if (r.requestedOutputTokens > 0)
        o.insert(QLatin1String("max_tokens"), r.requestedOutputTokens);
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

} // namespace

class TestRuns : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // requests.jsonl's lines are written by hand; each equals QJsonDocument's object for the record:
    // every optional field present and absent, every failure class, response facts one by one,
    // strings that need escaping, times from zero to days, unknown ones, and 3,000 seeded random records.
    void recordLinesMatchQtsWriter()
    {
        const QString hard = QStringLiteral("q\"b\\s/\b\f\n\r\t\x01 é 中文 😀") + QChar(0xd800) + QStringLiteral("x");
        std::vector<RequestRecord> records;
        RequestRecord base;
        base.index = 7;
        base.requestId = QStringLiteral("kneepoint-0-7");
        base.httpStatus = 200;
        base.scheduledNs = 0;
        base.sentNs = 1'000;
        base.firstByteNs = 123'456'789;
        base.firstTokenNs = 123'456'790;
        base.firstContentNs = 200'000'000;
        base.lastTokenNs = 86'400'123'456'789;
        base.endNs = 86'400'123'456'790;
        base.chunkNs = { 123'456'790, 200'000'000, 1'000'000'000, 86'400'123'456'789 };
        base.promptTokens = 12;
        base.outputTokens = 4;
        records.push_back(base);
        RequestRecord full = base;
        full.attempts = 2;
        full.cachedTokens = 0;
        full.serverPromptTokens = 13;
        full.reasoningTokens = 2;
        full.requestedOutputTokens = 64;
        full.model = hard;
        full.requestId = hard;
        full.session = 3;
        full.turn = 2;
        full.outputTokensFromUsage = true;
        records.push_back(full);
        RequestRecord connected = base; // it opened a new connection
        connected.connectNs = 1'234'567;
        records.push_back(connected);
        RequestRecord unknown = base;
        unknown.firstByteNs = unknown.firstTokenNs = unknown.firstContentNs = unknown.lastTokenNs = -1;
        unknown.chunkNs.clear();
        records.push_back(unknown);
        for (int c = int(FailureClass::ConnectionRefused); c <= int(FailureClass::Cancelled); ++c) {
            RequestRecord failed = unknown;
            failed.failure = FailureClass(c);
            failed.httpStatus = 500 + c;
            failed.errorMessage = hard + QString::number(c);
            records.push_back(failed);
        }
        for (int fact = 0; fact < 6; ++fact) {
            RequestRecord failed = unknown;
            failed.failure = FailureClass::HttpOther;
            failed.httpStatus = 413;
            failed.errorMessage = QStringLiteral("HTTP 413");
            ResponseFacts& f = failed.response;
            if (fact == 0 || fact == 5)
                f.location = hard;
            if (fact == 1 || fact == 5)
                f.retryAfterS = fact == 1 ? 120.0 : 0.25;
            if (fact == 2 || fact == 5)
                f.contentEncoding = QStringLiteral("gzip");
            if (fact == 3 || fact == 5)
                f.contextExceeded = true;
            if (fact == 4 || fact == 5)
                f.contextLimit = 32768;
            records.push_back(failed);
        }
        std::mt19937_64 rng(23);
        const auto ns = [&rng] {
            switch (rng() % 4) {
            case 0:
                return qint64(-1);
            case 1:
                return qint64(rng() % 1'000'000);
            case 2:
                return qint64(rng() % 10'000'000'000);
            default:
                return qint64(rng() % 4'000'000'000'000'000);
            }
        };
        for (int i = 0; i < 3000; ++i) {
            RequestRecord r = rng() % 3 ? base : unknown;
            r.index = qint64(rng() % 100'000);
            r.scheduledNs = ns();
            r.sentNs = ns();
            r.firstByteNs = ns();
            r.endNs = ns();
            r.chunkNs.clear();
            for (auto chunks = rng() % 20; chunks > 0; --chunks)
                r.chunkNs.push_back(std::max<qint64>(0, ns()));
            if (rng() % 4 == 0) {
                r.failure = FailureClass(1 + rng() % int(FailureClass::Cancelled));
                r.errorMessage = hard.left(int(rng() % hard.size()));
                if (rng() % 2)
                    r.response.retryAfterS = double(rng() % 100'000) / double(1 + rng() % 1000);
            }
            r.outputTokens = int(rng() % 5000);
            r.cachedTokens = int(rng() % 3) - 1;
            r.connectNs = rng() % 2 ? ns() : -1;
            records.push_back(r);
        }
        for (const RequestRecord& r : records) {
            const QByteArray line = requestRecordToJson(r);
            QCOMPARE(line, qtWriterLine(r));
        }
        QVERIFY(requestRecordToJson(full).startsWith("{\"attempts\":2,\"cached_tokens\":0,\"chunks\":[0.12345679,0.2,1,"
                                                     "86400.123456789],\"end\":86400.12345679,"));
    }

    // Exact figures of a step's seconds from hand-made records and scrapes (times in ms from the step start).
    void stepTimelineFromRecords()
    {
        auto ms = [](qint64 v) { return v * 1'000'000; };
        auto rec
            = [&](qint64 index, qint64 scheduled, qint64 sent, std::vector<qint64> chunks, qint64 end, int tokens) {
                  RequestRecord r;
                  r.index = index;
                  r.scheduledNs = ms(scheduled);
                  r.sentNs = sent >= 0 ? ms(sent) : -1;
                  for (qint64 c : chunks)
                      r.chunkNs.push_back(ms(c));
                  if (!r.chunkNs.empty()) {
                      r.firstTokenNs = r.chunkNs.front();
                      r.lastTokenNs = r.chunkNs.back();
                  }
                  r.endNs = end >= 0 ? ms(end) : -1;
                  r.outputTokens = tokens;
                  return r;
              };
        std::vector<RequestRecord> records;
        records.push_back(rec(1, 500, 900, { 1200, 1300, 1500, 2100 }, 2100, 8)); // 2 tokens a chunk, gate wait
        records.push_back(rec(0, 100, 100, { 300, 400, 600 }, 650, 3));
        RequestRecord failed = rec(2, 1000, 1000, {}, 1050, 0); // scheduled on the boundary: second 1
        failed.failure = FailureClass::HttpServerError;
        failed.httpStatus = 503;
        records.push_back(failed);
        records.push_back(rec(3, 1500, 1500, { 2500, 2600 }, 2700, 2));
        RequestRecord unsent = rec(4, 2200, -1, {}, -1, 0); // stopped before it was sent
        unsent.failure = FailureClass::Cancelled;
        records.push_back(unsent);

        auto sample = [](double at, double running, double waiting, double kv, double queries, double hits) {
            ServerSample s;
            s.atS = at;
            s.running = running;
            s.waiting = waiting;
            s.kvUsage = kv;
            s.prefixCacheQueriesTotal = queries;
            s.prefixCacheHitsTotal = hits;
            return s;
        };
        const std::vector<ServerSample> samples { sample(1.8, 3, 0, 0.75, 400, 250), sample(0.0, 0, 0, 0.0, 0, 0),
            sample(0.5, 2, 0, 0.125, 100, 50), sample(1.2, 1, 1, 0.25, 300, 100) };

        const StepTimeline t = StepTimeline::compute(records, samples);
        QCOMPARE(t.seconds.size(), std::size_t(3)); // the last event at 2.7 s

        const TimelineSecond& s0 = t.seconds[0];
        QCOMPARE(s0.second, 0);
        QCOMPARE(s0.offered, 2);
        QCOMPARE(s0.sent, 2);
        QCOMPARE(s0.completed, 1);
        QCOMPARE(s0.failed, 0);
        QCOMPARE(s0.outputTokens, 3.0);
        QCOMPARE(s0.inFlight, 2); // request 1, and request 2 sent at exactly 1 s
        QCOMPARE(s0.ttftP50Ms, 200.0);
        QCOMPARE(s0.ttftP99Ms, 200.0);
        QCOMPARE(s0.itlP50Ms, 150.0); // gaps 100, 200
        QCOMPARE(s0.itlP99Ms, 199.0);
        QCOMPARE(s0.running, std::optional<double>(1.0)); // scrapes at 0 and 0.5 s
        QCOMPARE(s0.waiting, std::optional<double>(0.0));
        QCOMPARE(s0.kvUsage, std::optional<double>(0.0625));
        QCOMPARE(s0.prefixCacheHitRate, std::optional<double>(0.5)); // 50 / 100 from its first scrape

        const TimelineSecond& s1 = t.seconds[1];
        QCOMPARE(s1.offered, 2);
        QCOMPARE(s1.sent, 2);
        QCOMPARE(s1.completed, 0);
        QCOMPARE(s1.failed, 1);
        QCOMPARE(s1.outputTokens, 6.0); // three chunks of request 1
        QCOMPARE(s1.inFlight, 2);
        QVERIFY(!isKnown(s1.ttftP50Ms)); // nothing completed: unknown, not 0
        QVERIFY(!isKnown(s1.ttftP99Ms));
        QVERIFY(!isKnown(s1.itlP50Ms));
        QVERIFY(!isKnown(s1.itlP99Ms));
        QCOMPARE(s1.running, std::optional<double>(2.0));
        QCOMPARE(s1.waiting, std::optional<double>(0.5));
        QCOMPARE(s1.kvUsage, std::optional<double>(0.5));
        QCOMPARE(*s1.prefixCacheHitRate, 200.0 / 300.0); // from the scrape at 0.5 s to the one at 1.8 s

        const TimelineSecond& s2 = t.seconds[2];
        QCOMPARE(s2.offered, 1);
        QCOMPARE(s2.sent, 0);
        QCOMPARE(s2.completed, 2);
        QCOMPARE(s2.failed, 0);
        QCOMPARE(s2.outputTokens, 4.0);
        QCOMPARE(s2.inFlight, 0);
        QCOMPARE(s2.ttftP50Ms, 650.0); // 300 and 1000
        QCOMPARE(s2.ttftP99Ms, 993.0);
        QCOMPARE(s2.itlP50Ms, 150.0); // 100, 100, 200, 600
        QCOMPARE(s2.itlP99Ms, 588.0); // 587.9999999999999, as numpy computes it
        QVERIFY(!s2.running && !s2.waiting && !s2.kvUsage && !s2.prefixCacheHitRate); // no scrape in it

        // The Gantt view's requests of second 1, in schedule order.
        const std::vector<TimelineRequest> in1 = t.requestsIn(1);
        QCOMPARE(in1.size(), std::size_t(2));
        QCOMPARE(in1[0], (TimelineRequest { 2, ms(1000), ms(1000), -1, ms(1050), true }));
        QCOMPARE(in1[1], (TimelineRequest { 3, ms(1500), ms(1500), ms(2500), ms(2700), false }));
        QCOMPARE(t.requestsIn(0).front().index, 0);

        QCOMPARE(timelineCsvHeader(),
            QByteArray("step,load,second,offered,sent,completed,failed,output_tokens_per_s,in_flight,ttft_p50_ms,"
                       "ttft_p99_ms,itl_p50_ms,itl_p99_ms,server_running,server_waiting,server_kv_usage,"
                       "server_prefix_cache_hit_rate\n"));
        QCOMPARE(timelineCsvRows(3, QStringLiteral("40 req/s"), t),
            QByteArray("3,40 req/s,0,2,2,1,0,3,2,200,200,150,199,1,0,0.0625,0.5\n"
                       "3,40 req/s,1,2,2,0,1,6,2,,,,,2,0.5,0.5,0.6666666667\n"
                       "3,40 req/s,2,1,0,2,0,4,0,650,993,150,588,,,,\n"));
        QVERIFY(StepTimeline::compute({}, {}).isEmpty());

        // The load of a multi-turn rate step: its rate counts sessions, its rows say so and give the
        // requests it offered (20 sessions/s of 4 requests each), not "20 req/s".
        StepSetup setup;
        setup.requestRate = 20;
        StepMetrics metrics;
        metrics.completed = 70;
        metrics.failed = 10;
        QCOMPARE(timelineLoad(QStringLiteral("20 req/s"), setup, metrics), QStringLiteral("20 req/s"));
        metrics.numSessions = 20;
        QCOMPARE(timelineLoad(QStringLiteral("20 req/s"), setup, metrics), QStringLiteral("20 sessions/s (80 req/s)"));
        metrics.failed = kUnknownCount;
        QCOMPARE(timelineLoad(QStringLiteral("20 req/s"), setup, metrics), QStringLiteral("20 sessions/s"));
        setup.requestRate = std::numeric_limits<double>::infinity();
        setup.maxConcurrency = 8;
        QCOMPARE(timelineLoad(QStringLiteral("8 users"), setup, metrics), QStringLiteral("8 users"));
    }

    // A second with more requests than the Gantt view keeps: the first ones by schedule, all counted.
    void stepTimelineKeepsTheFirstRequestsOfASecond()
    {
        std::vector<RequestRecord> records;
        const int n = StepTimeline::kMaxRequestsPerSecond + 50;
        for (int i = n - 1; i >= 0; --i) {
            RequestRecord r;
            r.index = i;
            r.scheduledNs = qint64(i) * 1'000'000;
            r.sentNs = r.scheduledNs;
            r.endNs = r.sentNs + 5'000'000;
            r.failure = FailureClass::StreamCut;
            records.push_back(r);
        }
        const StepTimeline t = StepTimeline::compute(records, {});
        QCOMPARE(t.seconds.size(), std::size_t(1));
        QCOMPARE(t.seconds[0].offered, n);
        QCOMPARE(t.seconds[0].failed, n);
        QCOMPARE(t.seconds[0].outputTokens, 0.0);
        const std::vector<TimelineRequest> kept = t.requestsIn(0);
        QCOMPARE(int(kept.size()), StepTimeline::kMaxRequestsPerSecond);
        QCOMPARE(kept.front().index, 0);
        QCOMPARE(kept.back().index, StepTimeline::kMaxRequestsPerSecond - 1);
    }

    void requestRecordsRoundTrip()
    {
        RequestRecord ok = record(3, 1234, 87, 5, 12);
        RequestRecord failed;
        failed.index = 4;
        failed.requestId = QStringLiteral("kp-4");
        failed.scheduledNs = 5'000'000'000;
        failed.sentNs = 5'000'000'123;
        failed.endNs = 6'000'000'000;
        failed.httpStatus = 503;
        failed.failure = FailureClass::HttpServerError;
        failed.errorMessage = QStringLiteral("HTTP 503 from http://127.0.0.1:8000/v1/completions: \"overloaded\"");
        // What the advice draws on survives the file, so a reopened run gives the same advice.
        RequestRecord refused = failed;
        refused.httpStatus = 400;
        refused.failure = FailureClass::HttpOther;
        refused.response.retryAfterS = 7;
        refused.response.contextExceeded = true;
        refused.response.contextLimit = 2048;
        refused.response.location = QStringLiteral("https://llm.example/v1");
        refused.response.contentEncoding = QStringLiteral("gzip");
        QVERIFY(requestRecordToJson(refused).contains(
            "\"response\":{\"content_encoding\":\"gzip\",\"context_exceeded\":true,\"context_limit\":2048,"
            "\"location\":\"https://llm.example/v1\",\"retry_after_s\":7}"));
        QVERIFY(!requestRecordToJson(failed).contains("\"response\""));
        // The model of a mix is kept; without one the line has no "model".
        RequestRecord mixed = ok;
        mixed.model = QStringLiteral("sql-lora");
        QVERIFY(requestRecordToJson(mixed).contains("\"model\":\"sql-lora\""));
        QVERIFY(!requestRecordToJson(ok).contains("\"model\""));
        // A request sent twice (its kept-alive connection closed unread) says so; one sent once has no key.
        RequestRecord resent = ok;
        resent.attempts = 2;
        QVERIFY(requestRecordToJson(resent).contains("\"attempts\":2"));
        QVERIFY(!requestRecordToJson(ok).contains("\"attempts\""));
        // A request that opened a new connection keeps how long it took; one on a kept-alive connection has no key.
        RequestRecord connected = ok;
        connected.connectNs = 2'500'000;
        QVERIFY(requestRecordToJson(connected).contains("\"connect\":0.0025,"));
        QVERIFY(!requestRecordToJson(ok).contains("\"connect\""));
        for (const RequestRecord& r : { ok, failed, refused, mixed, resent, connected }) {
            QString error;
            const auto back = requestRecordFromJson(requestRecordToJson(r), &error);
            QVERIFY2(back, qPrintable(error));
            compareRecords(*back, r);
            QCOMPARE(back->model, r.model);
            QCOMPARE(back->attempts, r.attempts);
            QCOMPARE(back->connectNs, r.connectNs);
        }
        QString error;
        QVERIFY(!requestRecordFromJson("{\"index\": 1, \"success\": \"yes\"}", &error));
        QVERIFY2(error.contains(QLatin1String("success")), qPrintable(error));
        QVERIFY(!requestRecordFromJson("{\"index\": 1, \"success\": false, \"error_class\": \"bogus\"}", &error));
        QVERIFY2(error.contains(QLatin1String("error_class")), qPrintable(error));
        QVERIFY(!requestRecordFromJson("{\"index\": 1, \"success\": true, \"model\": 3}", &error));
        QVERIFY2(error.contains(QLatin1String("model: expected a string")), qPrintable(error));
        QVERIFY(!requestRecordFromJson("{\"index\": 1, \"success\": true, \"attempts\": 0}", &error));
        QVERIFY2(error.contains(QLatin1String("attempts: expected 1 or more")), qPrintable(error));
    }

    // Two writers into one directory: the one that waited for the lock while the other wrote its run and
    // let go must find the run there and refuse, never write its files over it.
    void secondWriterAfterTheFirstRunRefuses()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("shared"));
        QVERIFY(QDir().mkpath(dir));
        auto holder = std::make_unique<QLockFile>(dir + QStringLiteral("/run.lock"));
        holder->setStaleLockTime(0);
        QVERIFY(holder->tryLock(0)); // the first writer, before it has written run.json
        QString error;
        bool opened = true;
        std::thread second([&] {
            RunWriter writer;
            opened = writer.open(dir, &error);
        });
        // open() makes steps/ after its first look for run.json and before it waits for the lock.
        QTRY_VERIFY(QFileInfo::exists(dir + QStringLiteral("/steps")));
        QVERIFY(writeText(dir + QStringLiteral("/run.json"), "{\"format\": \"kneepoint.run/1\"}"));
        holder.reset(); // the first writer is done
        second.join();
        QVERIFY(!opened);
        QCOMPARE(error, dir + QStringLiteral(": already holds a run (run.json); choose another directory"));
        QVERIFY(!QFileInfo::exists(dir + QStringLiteral("/run.lock")));
    }

    // run.json that is not a run is refused, and a value of the wrong type is a warning, each naming
    // the file and the key.
    void malformedRunJsonNamesTheFileAndTheKey()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.path();
        const QString path = dir + QStringLiteral("/run.json");
        QVERIFY(writeText(path, "{\"format\": \"kneepoint.run/1\", \"steps\": {}}"));
        const SavedRunRead refused = readSavedRun(dir);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error, path + QStringLiteral(": steps: expected an array"));

        QVERIFY(writeText(path,
            "{\"format\": \"kneepoint.run/1\", \"status\": \"finished\", \"tags\": \"nightly\", \"steps\": "
            "[{\"index\": 0, \"load\": \"10 req/s\", \"client_bound\": \"yes\", \"completed\": 9}]}"));
        const SavedRunRead read = readSavedRun(dir, SavedRunDepth::RunJson);
        QVERIFY2(read.ok(), qPrintable(read.error));
        QCOMPARE(read.run->warnings,
            QStringList({ path + QStringLiteral(": tags: expected an array"),
                path + QStringLiteral(": steps[0].client_bound: expected true or false") }));
        QCOMPARE(read.run->steps.size(), std::size_t(1));
        QVERIFY(!read.run->steps[0].clientBound);
        QCOMPARE(read.run->steps[0].completed, qint64(9));
        QCOMPARE(read.run->steps[0].offered, 10.0);
    }

    // A run written the way the CLI and the GUI write it reads back with the same numbers and records.
    void savedRunRoundTrip()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("20260130-141502-round-trip"));
        Profile profile = testProfile(QStringLiteral("Round trip"));
        profile.target.apiKey = QStringLiteral("sk-literal-secret-0123456789");
        profile.slo.ttftMs = 500;
        RunWriter writer;
        QString error;
        QVERIFY2(writer.open(dir, &error), qPrintable(error));
        QVERIFY2(writer.writeRun(runDocument(profile, {}, QString(), QStringLiteral("running"), {}), &error),
            qPrintable(error));
        std::vector<RequestRecord> records;
        for (int i = 0; i < 20; ++i)
            records.push_back(record(i, 1 + i * 50, 80 + i * 3, 4 + i % 5, 10 + i % 4));
        records[7].failure = FailureClass::StreamCut;
        records[7].errorMessage = QStringLiteral("stream ended before [DONE]");
        for (const RequestRecord& r : records)
            QVERIFY2(writer.appendRequest(0, r, &error), qPrintable(error));
        MetricsOptions options;
        options.percentiles = { 50, 90, 99, 99.9 };
        options.selectedMetrics = { LatencyMetric::Ttft, LatencyMetric::Tpot, LatencyMetric::Itl, LatencyMetric::E2el };
        options.ttftSloMs = 500;
        const StepMetrics metrics
            = StepMetrics::fromRecords(records, double(StepMetrics::stepDurationNs(records)) / 1e9, options);
        StepSetup setup;
        setup.date = QStringLiteral("20260130-141510");
        setup.backend = setup.endpointType = QStringLiteral("openai-chat");
        setup.modelId = QStringLiteral("test/model");
        setup.numPrompts = 20;
        setup.requestRate = 20;
        QVERIFY2(writer.writeStep(0, ResultJson::write(setup, metrics, {}, 2), &error), qPrintable(error));
        QJsonObject entry;
        entry.insert(QLatin1String("index"), 0);
        entry.insert(QLatin1String("load"), QStringLiteral("20 req/s"));
        entry.insert(QLatin1String("purpose"), QStringLiteral("coarse"));
        entry.insert(QLatin1String("file"), QStringLiteral("000.json"));
        entry.insert(QLatin1String("completed"), metrics.completed);
        entry.insert(QLatin1String("failed"), metrics.failed);
        entry.insert(QLatin1String("partial"), false);
        entry.insert(QLatin1String("client_bound"), true);
        entry.insert(QLatin1String("dispatch_lag_p99_ms"), 31.5);
        entry.insert(QLatin1String("meets_slo"), true);
        QVERIFY2(writer.writeRun(runDocument(profile, {}, QString(), QStringLiteral("finished"), { entry }), &error),
            qPrintable(error));
        QVERIFY(!readFile(dir + QStringLiteral("/run.json")).contains("sk-literal-secret"));

        const SavedRunRead read = readSavedRun(dir);
        QVERIFY2(read.ok(), qPrintable(read.error));
        const SavedRun& run = *read.run;
        QVERIFY2(run.warnings.isEmpty(), qPrintable(run.warnings.join(u'\n')));
        QCOMPARE(run.id, QStringLiteral("20260130-141502-round-trip"));
        QCOMPARE(run.name, QStringLiteral("Round trip"));
        QCOMPARE(run.status, QStringLiteral("finished"));
        QCOMPARE(run.source, QStringLiteral("kneepoint"));
        QCOMPARE(run.created, QDateTime(QDate(2026, 1, 30), QTime(14, 15, 2)));
        QCOMPARE(run.target(), QStringLiteral("http://127.0.0.1:8000"));
        QCOMPARE(run.model(), QStringLiteral("test/model"));
        QCOMPARE(run.profile.slo.ttftMs, std::optional<double>(500));
        QVERIFY(run.profile.target.apiKey != profile.target.apiKey);
        QCOMPARE(run.steps.size(), std::size_t(1));
        const SavedStep& step = run.steps.front();
        QCOMPARE(step.load, QStringLiteral("20 req/s"));
        QCOMPARE(step.purpose, QStringLiteral("coarse"));
        QCOMPARE(step.mode, LoadMode::Rate);
        QCOMPARE(step.offered, 20.0);
        QVERIFY(step.clientBound);
        QVERIFY(!step.partial);
        QCOMPARE(step.dispatchLagP99Ms, 31.5);
        QCOMPARE(step.meetsSlo, std::optional<bool>(true));
        QCOMPARE(step.completed, 19);
        QCOMPARE(step.failed, 1);
        QCOMPARE(step.setup, setup);
        QVERIFY(step.metrics == metrics);
        QCOMPARE(step.requestsPath, dir + QStringLiteral("/steps/000.requests.jsonl"));

        std::vector<RequestRecord> back;
        QVERIFY2(readRequestRecords(step.requestsPath, &back, &error), qPrintable(error));
        QCOMPARE(back.size(), records.size());
        for (std::size_t i = 0; i < back.size(); ++i)
            compareRecords(back[i], records[i]);

        const std::vector<SweepPoint> points = run.sweepPoints();
        QCOMPARE(points.size(), std::size_t(1));
        QCOMPARE(points.front().offered, 20.0);
        QVERIFY(points.front().clientBound);
        QVERIFY(points.front().metrics == metrics);
    }

    // A sweep of the built-in simulator with its /metrics scraped, written as the programs write a run:
    // read back, each step carries the server's statistics of its run.json entry and its samples file,
    // and the analysis of the saved run speaks of the KV cache as the live one does.
    void savedRunKeepsServerTelemetry()
    {
        sim::raiseFileLimit();
        Profile profile = testProfile(QStringLiteral("Telemetry"));
        // 4 req/s of simulated load (120 req/s at time scale 30, as 40 at 10): 120 requests in 1 s of arrivals.
        profile.target.baseUrl = QStringLiteral("sim://small?time_scale=30&seed=3");
        profile.target.backend = Backend::OpenAi;
        profile.target.model.clear();
        profile.target.metricsIntervalS = 0.05;
        profile.workload.inputLen = 256;
        profile.workload.outputLen = 128;
        profile.workload.rangeRatio = 0.0;
        profile.workload.ignoreEos = true;
        profile.workload.numPrompts = 120;
        profile.load.mode = LoadMode::Rate;
        profile.load.rates = { 120.0, std::numeric_limits<double>::infinity() };
        profile.load.cooldownS = 0.2;
        BuiltinSimulator sim;
        QString error;
        QVERIFY2(sim.start(profile, &error), qPrintable(error));
        PreparedSweep prepared = prepareSweep(profile);
        QVERIFY2(prepared.ok(), qPrintable(prepared.error));
        SweepRunner runner;
        std::vector<StepResult> results;
        QObject::connect(
            &runner, &SweepRunner::stepFinished, &runner, [&](const StepResult& r) { results.push_back(r); });
        QSignalSpy finished(&runner, &SweepRunner::finished);
        runner.start(std::move(prepared.config));
        if (finished.isEmpty())
            finished.wait(300000);
        QVERIFY(!finished.isEmpty());
        QCOMPARE(results.size(), std::size_t(2));

        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("20260130-141502-telemetry"));
        RunWriter writer;
        QVERIFY2(writer.open(dir, &error), qPrintable(error));
        QList<QJsonObject> entries;
        for (const StepResult& r : results) {
            QVERIFY(r.server.stats);
            QVERIFY2(
                writer.writeStep(r.config.index, ResultJson::write(stepSetup(profile, r), r.metrics, {}, 2), &error),
                qPrintable(error));
            QVERIFY2(writer.writeMetrics(r.config.index, r.server.samplesJsonl(), &error), qPrintable(error));
            QJsonObject entry;
            entry.insert(QLatin1String("index"), r.config.index);
            entry.insert(QLatin1String("load"), loadLabel(r.config));
            entry.insert(QLatin1String("completed"), r.metrics.completed);
            entry.insert(QLatin1String("failed"), r.metrics.failed);
            entry.insert(QLatin1String("server"), r.server.stats->toJson());
            entry.insert(QLatin1String("metrics_file"), QFileInfo(writer.metricsPath(r.config.index)).fileName());
            entries << entry;
        }
        QJsonObject document = runDocument(profile, {}, QString(), QStringLiteral("finished"), entries);
        addServerReported(document, runner.serverFacts());
        QVERIFY2(writer.writeRun(document, &error), qPrintable(error));

        const SavedRunRead read = readSavedRun(dir);
        QVERIFY2(read.ok(), qPrintable(read.error));
        const SavedRun& run = *read.run;
        QVERIFY2(run.warnings.isEmpty(), qPrintable(run.warnings.join(u'\n')));
        QCOMPARE(run.environment.value(u"server_reported").toObject().value(u"metrics_engine").toString(),
            QStringLiteral("vllm"));
        QCOMPARE(run.steps.size(), std::size_t(2));
        const QJsonArray written
            = QJsonDocument::fromJson(readFile(dir + QStringLiteral("/run.json"))).object().value(u"steps").toArray();
        QCOMPARE(written.size(), 2);
        for (std::size_t i = 0; i < run.steps.size(); ++i) {
            const SavedStep& step = run.steps[i];
            QVERIFY(step.server);
            QCOMPARE(
                step.server, ServerStepStats::fromJson(written[qsizetype(i)].toObject().value(u"server").toObject()));
            QCOMPARE(*step.server, *results[i].server.stats);
            QCOMPARE(step.metricsPath, dir + QStringLiteral("/steps/%1.metrics.jsonl").arg(i, 3, 10, QLatin1Char('0')));
            QCOMPARE(
                StepTelemetry::samplesFromJsonl(readFile(step.metricsPath)).size(), results[i].server.samples.size());
        }
        const std::vector<SweepPoint> points = run.sweepPoints();
        QCOMPARE(points.size(), std::size_t(2));
        QCOMPARE(points[0].server, results[0].server.stats);
        QCOMPARE(points[1].server, results[1].server.stats);
        const AnalysisResult analysis = run.analyze();
        QVERIFY(analysis.server.available);
        QCOMPARE(analysis.server.stepsWithTelemetry, 2);
        QCOMPARE(*analysis.server.peakKvUsage,
            std::max(*results[0].server.stats->kvUsageMax, *results[1].server.stats->kvUsageMax));
        QStringList sentences;
        for (const AnalysisSentence& s : analysisText(analysis))
            sentences << s.text;
        QVERIFY2(sentences.join(u' ').contains(QStringLiteral("KV cache")), qPrintable(sentences.join(u'\n')));
    }

    // A run.json left "running" is an interrupted run: the step that was running is kept, partial, with
    // the numbers of the requests that finished; a record cut short by the kill is skipped.
    void interruptedRun()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("killed"));
        Profile profile = testProfile(QStringLiteral("Killed"));
        profile.load.rates = { 10, 20 };
        QVERIFY(writeRun(dir, profile, { { 10, 100, 9.8 } }).isEmpty());
        QJsonObject run = QJsonDocument::fromJson(readFile(dir + QStringLiteral("/run.json"))).object();
        run.insert(QLatin1String("status"), QLatin1String("running"));
        QJsonObject plan = run.value(u"plan").toObject();
        plan.insert(QLatin1String("planned"),
            QJsonArray { QJsonObject { { QStringLiteral("mode"), QStringLiteral("rate") },
                             { QStringLiteral("load"), QStringLiteral("10") },
                             { QStringLiteral("purpose"), QStringLiteral("coarse") } },
                QJsonObject { { QStringLiteral("mode"), QStringLiteral("rate") },
                    { QStringLiteral("load"), QStringLiteral("20") },
                    { QStringLiteral("purpose"), QStringLiteral("coarse") } } });
        run.insert(QLatin1String("plan"), plan);
        QVERIFY(writeText(dir + QStringLiteral("/run.json"), QJsonDocument(run).toJson()));
        QByteArray lines;
        for (int i = 0; i < 5; ++i)
            lines += requestRecordToJson(record(i, i * 50, 90, 4, 10)) + '\n';
        lines += requestRecordToJson(record(5, 300, 90, 4, 10)).left(40); // the kill
        QVERIFY(writeText(dir + QStringLiteral("/steps/001.requests.jsonl"), lines));

        const SavedRunRead read = readSavedRun(dir);
        QVERIFY2(read.ok(), qPrintable(read.error));
        QCOMPARE(read.run->status, QStringLiteral("interrupted"));
        QCOMPARE(read.run->steps.size(), std::size_t(2));
        const SavedStep& last = read.run->steps.back();
        QCOMPARE(last.index, 1);
        QVERIFY(last.partial);
        QCOMPARE(last.offered, 20.0);
        QCOMPARE(last.purpose, QStringLiteral("coarse"));
        QCOMPARE(last.completed, 5);
        QCOMPARE(last.metrics.ttft.count, 5);
        QVERIFY(!read.run->steps.front().partial);
        QVERIFY(read.run->warnings.join(u'\n').contains(QLatin1String("001.requests.jsonl")));
    }

    // The request lines are written by RunWriter's writer thread: each step's file holds exactly its
    // records, one line each in the order they were appended, once writeStep has returned (which
    // writes the step file after them); close() writes what is left.
    void requestLinesInOrder()
    {
        QTemporaryDir tmp;
        RunWriter writer;
        QString error;
        QVERIFY2(writer.open(tmp.filePath(QStringLiteral("order")), &error), qPrintable(error));
        QByteArray step0, step1, step2;
        for (int i = 0; i < 3000; ++i) {
            RequestRecord r = record(i, 1 + i, 80 + i % 7, 1 + i % 9, 10);
            if (i % 11 == 0) {
                r.failure = FailureClass::StreamCut;
                r.errorMessage = QStringLiteral("stream ended before [DONE] (%1)").arg(i);
            }
            // Steps 0 and 1 interleave, as a stopped step's late records may; step 2 follows.
            const int step = i < 2000 ? i % 2 : 2;
            QVERIFY2(writer.appendRequest(step, r, &error), qPrintable(error));
            (step == 0 ? step0 : step == 1 ? step1 : step2) += requestRecordToJson(r) + '\n';
        }
        QVERIFY2(writer.writeStep(0, "{\"step\": 0}", &error), qPrintable(error));
        QCOMPARE(readFile(writer.requestsPath(0)), step0);
        QCOMPARE(readFile(writer.stepPath(0)), QByteArray("{\"step\": 0}"));
        QVERIFY2(writer.writeStep(1, "{\"step\": 1}", &error), qPrintable(error));
        QCOMPARE(readFile(writer.requestsPath(1)), step1);
        QCOMPARE(step1.count('\n'), 1000);
        writer.close();
        QCOMPARE(readFile(writer.requestsPath(2)), step2);
        QCOMPARE(step2.count('\n'), 1000);
        QVERIFY(!QFile::exists(writer.stepPath(2)));
        QVERIFY(!QFile::exists(writer.dir() + QStringLiteral("/run.lock")));

        // The destructor writes what is left too.
        const QString dir = tmp.filePath(QStringLiteral("destroyed"));
        {
            RunWriter gone;
            QVERIFY2(gone.open(dir, &error), qPrintable(error));
            for (int i = 0; i < 5; ++i)
                QVERIFY(gone.appendRequest(4, record(i, 1, 80, 2, 10), &error));
        }
        QByteArray expected;
        for (int i = 0; i < 5; ++i)
            expected += requestRecordToJson(record(i, 1, 80, 2, 10)) + '\n';
        QCOMPARE(readFile(dir + QStringLiteral("/steps/004.requests.jsonl")), expected);
    }

    // A request file that cannot be opened (steps/ replaced by a file after open) is named by the next
    // append or by writeStep, which then leaves the step file unwritten.
    void requestFileErrorIsNamed()
    {
        QTemporaryDir tmp;
        const QString reason = QString::fromLocal8Bit(std::strerror(ENOTDIR));
        QString error;
        {
            RunWriter writer;
            QVERIFY2(writer.open(tmp.filePath(QStringLiteral("by-step")), &error), qPrintable(error));
            QVERIFY(QDir(writer.dir() + QStringLiteral("/steps")).removeRecursively());
            QVERIFY(writeText(writer.dir() + QStringLiteral("/steps"), "not a folder"));
            QVERIFY2(writer.appendRequest(0, record(0, 1, 80, 2, 10), &error), qPrintable(error));
            QVERIFY(!writer.writeStep(0, "{}", &error));
            QCOMPARE(error, writer.requestsPath(0) + QStringLiteral(": cannot append: ") + reason);
            QCOMPARE(readFile(writer.dir() + QStringLiteral("/steps")), QByteArray("not a folder"));
        }
        {
            RunWriter writer;
            QVERIFY2(writer.open(tmp.filePath(QStringLiteral("by-append")), &error), qPrintable(error));
            QVERIFY(QDir(writer.dir() + QStringLiteral("/steps")).removeRecursively());
            QVERIFY(writeText(writer.dir() + QStringLiteral("/steps"), "not a folder"));
            int appended = 0;
            bool refused = false;
            // Appends go on succeeding until the writer thread has tried the file; the first one after
            // that is refused (QTRY evaluates its condition more than once: it stays true once refused).
            QTRY_VERIFY_WITH_TIMEOUT(
                refused || (refused = !writer.appendRequest(3, record(appended++, 1, 80, 2, 10), &error)), 30000);
            QCOMPARE(error, writer.requestsPath(3) + QStringLiteral(": cannot append: ") + reason);
            // Reported once.
            QVERIFY2(writer.flushRequests(&error), qPrintable(error));
        }
    }

    // A disk that fills up mid-line is named by the system's reason, for the request log and for a step
    // file alike; a file-size limit fails the same way a full disk does, and applies to root too.
    void fullDiskIsNamed()
    {
#ifdef Q_OS_LINUX
        QTemporaryDir tmp;
        RunWriter writer;
        QString error;
        QVERIFY2(writer.open(tmp.filePath(QStringLiteral("full")), &error), qPrintable(error));
        const QString stepFile = writer.stepPath(0);
        QVERIFY(writer.writeStep(0, "{\"old\": true}", &error));

        rlimit old {};
        QCOMPARE(getrlimit(RLIMIT_FSIZE, &old), 0);
        const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
        rlimit small = old;
        small.rlim_cur = 2000;
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
        // The lines are written by the writer thread: the failure is reported by an append that comes
        // after it, or else by the flush.
        QString appendError;
        int appended = 0;
        while (appended < 100 && writer.appendRequest(1, record(appended, 50, 90, 4, 10), &appendError))
            ++appended;
        const bool flushed = appended == 100 && writer.flushRequests(&appendError);
        QString stepError;
        const bool stepWritten = writer.writeStep(0, QByteArray(4000, ' '), &stepError);
        setrlimit(RLIMIT_FSIZE, &old);
        std::signal(SIGXFSZ, oldHandler);

        const QString reason = QString::fromLocal8Bit(std::strerror(EFBIG));
        QVERIFY(!flushed);
        QCOMPARE(appendError, writer.requestsPath(1) + QStringLiteral(": cannot append: ") + reason);
        QVERIFY(!stepWritten);
        QVERIFY2(stepError.startsWith(stepFile + QStringLiteral(": cannot write: ")), qPrintable(stepError));
        QVERIFY2(stepError.endsWith(reason), qPrintable(stepError));
        QCOMPARE(readFile(stepFile), QByteArray("{\"old\": true}"));
        // The file stops at the limit, and every whole line before the failure reads back, in order.
        const QByteArray written = readFile(writer.requestsPath(1));
        QCOMPARE(written.size(), 2000);
        const QList<QByteArray> lines = written.split('\n');
        QVERIFY(lines.size() > 1);
        for (qsizetype i = 0; i + 1 < lines.size(); ++i)
            QCOMPARE(lines.at(i), requestRecordToJson(record(int(i), 50, 90, 4, 10)));
        // The failure was reported once; nothing more is written to the file that failed.
        QVERIFY2(writer.flushRequests(&error), qPrintable(error));
        QVERIFY(writer.appendRequest(1, record(100, 50, 90, 4, 10), &error));
        QVERIFY2(writer.flushRequests(&error), qPrintable(error));
        QCOMPARE(readFile(writer.requestsPath(1)).size(), 2000);
#else
        QSKIP("needs RLIMIT_FSIZE");
#endif
    }

    // A run being written reads as running while its writer holds run.lock, and as interrupted once the
    // writer is gone; a rename, tags or notes given in the runs library meanwhile survive its next write.
    void liveRunAndEditsWhileWriting()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("live"));
        const Profile profile = testProfile(QStringLiteral("Live"));
        const RunCatalog catalog(tmp.path());
        QString error;
        {
            RunWriter writer;
            QVERIFY2(writer.open(dir, &error), qPrintable(error));
            QVERIFY(QFile::exists(dir + QStringLiteral("/run.lock")));
            QVERIFY(writer.writeRun(runDocument(profile, {}, QString(), QStringLiteral("running"), {}), &error));
            QVERIFY(RunWriter::isLive(dir));
            QCOMPARE(readSavedRun(dir).run->status, QStringLiteral("running"));

            QVERIFY2(catalog.rename(dir, QStringLiteral("Renamed while running"), &error), qPrintable(error));
            QVERIFY(catalog.setTags(dir, { QStringLiteral("gpu-a"), QStringLiteral("tp2") }, &error));
            QVERIFY(catalog.setNotes(dir, QStringLiteral("driver 550"), &error));
            QVERIFY(writer.writeRun(runDocument(profile, {}, QString(), QStringLiteral("running"), {}), &error));
            SavedRunRead read = readSavedRun(dir);
            QCOMPARE(read.run->name, QStringLiteral("Renamed while running"));
            QCOMPARE(read.run->tags, (QStringList { QStringLiteral("gpu-a"), QStringLiteral("tp2") }));
            QCOMPARE(read.run->notes, QStringLiteral("driver 550"));

            QVERIFY(!catalog.moveToTrash(dir, &error)); // not while it is written
            QVERIFY2(error.contains(QLatin1String("still writing")), qPrintable(error));
            QVERIFY(catalog.setNotes(dir, QString(), &error)); // removed, and stays removed
            QVERIFY(writer.writeRun(runDocument(profile, {}, QString(), QStringLiteral("finished"), {}), &error));
            read = readSavedRun(dir);
            QCOMPARE(read.run->status, QStringLiteral("finished"));
            QCOMPARE(read.run->notes, QString());
            QCOMPARE(read.run->name, QStringLiteral("Renamed while running"));
        }
        QVERIFY(!QFile::exists(dir + QStringLiteral("/run.lock")));
        QVERIFY(!RunWriter::isLive(dir));
        // Left "running" by a writer that is gone: interrupted.
        QJsonObject run = QJsonDocument::fromJson(readFile(dir + QStringLiteral("/run.json"))).object();
        run.insert(QLatin1String("status"), QLatin1String("running"));
        QVERIFY(writeText(dir + QStringLiteral("/run.json"), QJsonDocument(run).toJson()));
        QCOMPARE(readSavedRun(dir).run->status, QStringLiteral("interrupted"));
        QVERIFY(!QFile::exists(dir + QStringLiteral("/run.lock")));
    }

    // An auto plan's steps are not known in advance: the step under way when the run was killed takes
    // its load from run.json's current_step.
    void interruptedAutoRunUsesCurrentStep()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("killed-auto"));
        Profile profile = testProfile(QStringLiteral("Killed auto"));
        profile.load.plan.kind = PlanKind::Auto;
        QVERIFY(writeRun(dir, profile, { { 10, 100, 9.8 } }).isEmpty());
        QJsonObject run = QJsonDocument::fromJson(readFile(dir + QStringLiteral("/run.json"))).object();
        run.insert(QLatin1String("status"), QLatin1String("running"));
        run.insert(QLatin1String("current_step"),
            QJsonObject { { QStringLiteral("index"), 1 }, { QStringLiteral("mode"), QStringLiteral("rate") },
                { QStringLiteral("offered"), QStringLiteral("37.5") },
                { QStringLiteral("load"), QStringLiteral("37.5 req/s") },
                { QStringLiteral("purpose"), QStringLiteral("coarse") } });
        QVERIFY(writeText(dir + QStringLiteral("/run.json"), QJsonDocument(run).toJson()));
        QByteArray lines;
        for (int i = 0; i < 4; ++i)
            lines += requestRecordToJson(record(i, i * 50, 90, 4, 10)) + '\n';
        QVERIFY(writeText(dir + QStringLiteral("/steps/001.requests.jsonl"), lines));

        const SavedRunRead read = readSavedRun(dir);
        QVERIFY2(read.ok(), qPrintable(read.error));
        QCOMPARE(read.run->status, QStringLiteral("interrupted"));
        QCOMPARE(read.run->steps.size(), std::size_t(2));
        const SavedStep& last = read.run->steps.back();
        QVERIFY(last.partial);
        QCOMPARE(last.offered, 37.5);
        QCOMPARE(last.purpose, QStringLiteral("coarse"));
        QCOMPARE(last.completed, 4);
    }

    void unreadableStepIsAWarning()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("damaged"));
        QVERIFY(writeRun(dir, testProfile(QStringLiteral("Damaged")), { { 10, 100, 9.8 }, { 20, 200, 19 } }).isEmpty());
        QVERIFY(writeText(dir + QStringLiteral("/steps/001.json"), "{\"completed\": 3,"));
        const SavedRunRead read = readSavedRun(dir);
        QVERIFY2(read.ok(), qPrintable(read.error));
        QCOMPARE(read.run->steps.size(), std::size_t(1));
        QCOMPARE(read.run->warnings.size(), 1);
        QVERIFY2(read.run->warnings.constFirst().startsWith(dir + QStringLiteral("/steps/001.json:")),
            qPrintable(read.run->warnings.constFirst()));

        QVERIFY(writeText(dir + QStringLiteral("/run.json"), "{\"format\": \"kneepoint.run/9\"}"));
        const SavedRunRead wrong = readSavedRun(dir);
        QVERIFY(!wrong.ok());
        QVERIFY2(wrong.error.contains(QLatin1String("run.json: format")), qPrintable(wrong.error));
        QVERIFY(!readSavedRun(tmp.filePath(QStringLiteral("nothing"))).ok());
    }

    // A finished run's catalogue line comes from run.json and analysis.json alone: its step files are
    // not read (a damaged one goes unnoticed) until the analysis is missing.
    void catalogReadsRunJsonAndAnalysisOnly()
    {
        QTemporaryDir tmp;
        const QString root = tmp.filePath(QStringLiteral("runs"));
        const QString dir = root + QStringLiteral("/20260101-090000-light");
        QVERIFY(writeRun(dir, testProfile(QStringLiteral("Light")), { { 10, 100, 9.8 }, { 20, 200, 19 } }).isEmpty());
        const SavedRunRead full = readSavedRun(dir);
        QVERIFY2(full.ok(), qPrintable(full.error));
        QVERIFY(writeText(dir + QStringLiteral("/analysis.json"),
            QJsonDocument(analysisJson(full.run->analyze())).toJson(QJsonDocument::Compact)));
        QVERIFY(writeText(dir + QStringLiteral("/steps/001.json"), "{\"completed\": 3,"));

        const RunCatalog catalog(root);
        QStringList warnings;
        std::vector<RunEntry> list = catalog.list(&warnings);
        QCOMPARE(list.size(), std::size_t(1));
        QCOMPARE(list[0].stepCount, 2); // as run.json lists them
        QCOMPARE(list[0].loadUnit, QStringLiteral("req/s"));
        QCOMPARE(list[0].name, QStringLiteral("Light"));
        QCOMPARE(warnings, QStringList());

        const SavedRunRead light = readSavedRun(dir, SavedRunDepth::RunJson);
        QVERIFY2(light.ok(), qPrintable(light.error));
        QCOMPARE(light.run->steps.size(), std::size_t(2));
        QCOMPARE(light.run->steps[1].offered, 20.0);
        QCOMPARE(light.run->steps[1].completed, full.run->steps[1].completed); // from its run.json entry
        QCOMPARE(light.run->profile.name, QStringLiteral("Light"));

        // A directory named freely (--out): the run's date is its first step's start, from run.json.
        const QString named = root + QStringLiteral("/nightly");
        QVERIFY(writeRun(named, testProfile(QStringLiteral("Nightly")), { { 10, 100, 9.8 } }).isEmpty());
        QJsonObject runJson = QJsonDocument::fromJson(readFile(named + QStringLiteral("/run.json"))).object();
        QJsonArray steps = runJson[u"steps"].toArray();
        QJsonObject first = steps[0].toObject();
        first.insert(QStringLiteral("start_unix_s"), 1767258000.5); // 2026-01-01 09:00:00.5 UTC
        steps[0] = first;
        runJson.insert(QStringLiteral("steps"), steps);
        QVERIFY(writeText(named + QStringLiteral("/run.json"), QJsonDocument(runJson).toJson()));
        QVERIFY(writeText(named + QStringLiteral("/analysis.json"),
            QJsonDocument(analysisJson(readSavedRun(named).run->analyze())).toJson(QJsonDocument::Compact)));
        list = catalog.list(&warnings);
        QCOMPARE(list.size(), std::size_t(2));
        const auto nightly
            = std::find_if(list.begin(), list.end(), [](const RunEntry& e) { return e.name == u"Nightly"; });
        QVERIFY(nightly != list.end());
        QCOMPARE(nightly->created, QDateTime::fromMSecsSinceEpoch(1767258000500));
        QVERIFY(QDir(named).removeRecursively());

        QVERIFY(QFile::remove(dir + QStringLiteral("/analysis.json")));
        list = catalog.list(&warnings);
        QCOMPARE(list[0].stepCount, 1); // the whole run was read: the damaged step is left out
        QCOMPARE(warnings.size(), 1);
        QVERIFY2(warnings.constFirst().startsWith(dir + QStringLiteral("/steps/001.json:")),
            qPrintable(warnings.constFirst()));
    }

    void catalog()
    {
        QTemporaryDir tmp;
        const QString root = tmp.filePath(QStringLiteral("runs"));
        const QString older = root + QStringLiteral("/20260101-090000-vllm-0-6");
        const QString newer = root + QStringLiteral("/20260102-090000-vllm-0-7");
        const QString third = root + QStringLiteral("/20260103-090000-other");
        QVERIFY(writeRun(older, testProfile(QStringLiteral("vLLM 0.6")), { { 10, 100, 9.8 } }).isEmpty());
        QVERIFY(writeRun(newer, testProfile(QStringLiteral("vLLM 0.7")), { { 10, 90, 9.9 } }).isEmpty());
        QVERIFY(writeRun(third, testProfile(QStringLiteral("vLLM 0.7")), { { 10, 90, 9.9 } }).isEmpty());
        QVERIFY(QDir().mkpath(root + QStringLiteral("/not-a-run")));
        const RunCatalog catalog(root);
        QCOMPARE(catalog.root(), root);

        std::vector<RunEntry> list = catalog.list();
        QCOMPARE(list.size(), std::size_t(3));
        QCOMPARE(list[0].dir, third);
        QCOMPARE(list[2].dir, older);
        QCOMPARE(list[2].name, QStringLiteral("vLLM 0.6"));
        QCOMPARE(list[2].stepCount, 1);
        QCOMPARE(list[2].target, QStringLiteral("http://127.0.0.1:8000"));
        QCOMPARE(list[2].loadUnit, QStringLiteral("req/s"));

        QString error;
        QCOMPARE(catalog.resolve(QStringLiteral("20260101-090000-vllm-0-6"), &error), std::optional<QString>(older));
        QCOMPARE(catalog.resolve(QStringLiteral("vLLM 0.6"), &error), std::optional<QString>(older));
        QCOMPARE(catalog.resolve(QStringLiteral("20260101"), &error), std::optional<QString>(older));
        QCOMPARE(catalog.resolve(older, &error), std::optional<QString>(older));
        QVERIFY(!catalog.resolve(QStringLiteral("vLLM 0.7"), &error));
        QVERIFY2(error.contains(QLatin1String("matches 2 runs")), qPrintable(error));
        QVERIFY(!catalog.resolve(QStringLiteral("nope"), &error));
        QVERIFY2(error.contains(QLatin1String("no run \"nope\"")), qPrintable(error));
        QVERIFY(!catalog.resolve(root + QStringLiteral("/not-a-run"), &error));
        QVERIFY2(error.contains(QLatin1String("no run.json")), qPrintable(error));

        QVERIFY2(catalog.rename(third, QStringLiteral("SGLang 0.4"), &error), qPrintable(error));
        QVERIFY2(
            catalog.setTags(third, { QStringLiteral("h100"), QStringLiteral(" tp2 "), QStringLiteral("h100") }, &error),
            qPrintable(error));
        QVERIFY2(catalog.setNotes(third, QStringLiteral("after the driver upgrade"), &error), qPrintable(error));
        const SavedRunRead edited = readSavedRun(third);
        QVERIFY(edited.ok());
        QCOMPARE(edited.run->name, QStringLiteral("SGLang 0.4"));
        QCOMPARE(edited.run->tags, (QStringList { QStringLiteral("h100"), QStringLiteral("tp2") }));
        QCOMPARE(edited.run->notes, QStringLiteral("after the driver upgrade"));
        QCOMPARE(edited.run->steps.size(), std::size_t(1));
        QCOMPARE(catalog.resolve(QStringLiteral("vLLM 0.7"), &error), std::optional<QString>(newer));

        const auto trashed = catalog.moveToTrash(newer, &error);
        QVERIFY2(trashed, qPrintable(error));
        QCOMPARE(*trashed, root + QStringLiteral("/.trash/20260102-090000-vllm-0-7"));
        QVERIFY(!QFileInfo::exists(newer));
        list = catalog.list();
        QCOMPARE(list.size(), std::size_t(2));
        QVERIFY2(catalog.restore(*trashed, &error), qPrintable(error));
        QVERIFY(QFileInfo::exists(newer + QStringLiteral("/run.json")));
        QCOMPARE(catalog.list().size(), std::size_t(3));
        QCOMPARE(entries(root + QStringLiteral("/.trash")), QStringList());
    }

    void importVllmFolder()
    {
        QTemporaryDir tmp;
        const QString root = tmp.filePath(QStringLiteral("runs"));
        const ImportResult result = importRun({ importData(QStringLiteral("vllm")) }, root);
        QVERIFY2(result.ok(), qPrintable(result.error));
        QCOMPARE(result.source, QStringLiteral("vllm"));
        QCOMPARE(result.stepCount, 3);
        QCOMPARE(result.requestCount, 3);
        QVERIFY(result.id.endsWith(QLatin1String("-vllm")));
        QCOMPARE(entries(root), QStringList { result.id });

        const SavedRunRead read = readSavedRun(result.dir);
        QVERIFY2(read.ok(), qPrintable(read.error));
        const SavedRun& run = *read.run;
        QCOMPARE(run.source, QStringLiteral("vllm"));
        QCOMPARE(run.status, QStringLiteral("finished"));
        QCOMPARE(run.name, QStringLiteral("vllm"));
        QCOMPARE(run.model(), QStringLiteral("meta-llama/Llama-3.1-8B-Instruct"));
        QCOMPARE(run.target(), QStringLiteral("imported vllm results"));
        QCOMPARE(run.steps.size(), std::size_t(3));
        QCOMPARE(run.steps[0].offered, 10.0);
        QCOMPARE(run.steps[1].offered, 20.0);
        QCOMPARE(run.steps[2].offered, 30.0);
        // Older and foreign spellings: "request_goodput:", output_token_throughput, mean_tps.
        QCOMPARE(run.steps[2].metrics.requestGoodput, std::optional<double>(20.5));
        QCOMPARE(run.steps[2].metrics.outputThroughput, 6336.0);
        QCOMPARE(run.steps[2].metrics.totalTokenThroughput, 9504.0);
        QCOMPARE(run.steps[2].failed, 2);
        QCOMPARE(run.steps[1].metrics.outputThroughput, 10.0);
        QCOMPARE(run.steps[0].metrics.ttft.percentile(99), std::optional<double>(200.0));

        // --save-detailed lists became records: TTFT and every chunk, the failure with its message.
        QVERIFY(!run.steps[1].requestsPath.isEmpty());
        QVERIFY(run.steps[0].requestsPath.isEmpty());
        std::vector<RequestRecord> records;
        QString error;
        QVERIFY2(readRequestRecords(run.steps[1].requestsPath, &records, &error), qPrintable(error));
        QCOMPARE(records.size(), std::size_t(3));
        QCOMPARE(records[0].firstTokenNs, 100'000'000);
        QCOMPARE(records[0].chunkNs, (std::vector<qint64> { 100'000'000, 110'000'000, 130'000'000 }));
        QCOMPARE(records[0].promptTokens, 10);
        QCOMPARE(records[0].outputTokens, 3);
        QVERIFY(records[1].success());
        QVERIFY(!records[2].success());
        QCOMPARE(records[2].errorMessage, QStringLiteral("Bad Request: prompt too long"));

        // Named, and into the same root: a second directory.
        ImportOptions options;
        options.name = QStringLiteral("Llama on H100");
        const ImportResult named = importRun({ importData(QStringLiteral("vllm/result_rate30.json")) }, root, options);
        QVERIFY2(named.ok(), qPrintable(named.error));
        QCOMPARE(readSavedRun(named.dir).run->name, QStringLiteral("Llama on H100"));
        QCOMPARE(entries(root).size(), 2);
    }

    void importSglang()
    {
        QTemporaryDir tmp;
        const ImportResult result = importRun({ importData(QStringLiteral("sglang.jsonl")) }, tmp.path());
        QVERIFY2(result.ok(), qPrintable(result.error));
        QCOMPARE(result.source, QStringLiteral("sglang"));
        const SavedRunRead read = readSavedRun(result.dir);
        QVERIFY2(read.ok(), qPrintable(read.error));
        const SavedRun& run = *read.run;
        QCOMPARE(run.steps.size(), std::size_t(3));
        QCOMPARE(run.steps[0].offered, 2.0);
        QCOMPARE(run.steps[1].offered, 4.0);
        QVERIFY(std::isinf(run.steps[2].offered));
        QCOMPARE(run.steps[1].metrics.e2el.percentile(99), std::optional<double>(1100.0));
        QCOMPARE(run.steps[1].metrics.itl.percentile(95), std::optional<double>(8.0));
        QCOMPARE(run.steps[1].metrics.meanConcurrency, 3.6);
        QCOMPARE(run.steps[2].metrics.totalTokenThroughput, 11520.0);
    }

    void importGuidellm()
    {
        QTemporaryDir tmp;
        ImportOptions options;
        options.format = ImportFormat::Guidellm;
        const ImportResult result
            = importRun({ importData(QStringLiteral("guidellm-benchmarks.json")) }, tmp.path(), options);
        QVERIFY2(result.ok(), qPrintable(result.error));
        QCOMPARE(result.source, QStringLiteral("guidellm"));
        const SavedRunRead read = readSavedRun(result.dir);
        QVERIFY2(read.ok(), qPrintable(read.error));
        const SavedRun& run = *read.run;
        QCOMPARE(run.target(), QStringLiteral("http://gpu-node-7:8000"));
        QCOMPARE(run.model(), QStringLiteral("Qwen/Qwen2.5-7B-Instruct"));
        QCOMPARE(run.environment.value(u"source_tool_version").toString(), QStringLiteral("0.4.0"));
        // The synchronous step (one user) first, then the rate axis in load order: 4, 8, all at once.
        QCOMPARE(run.steps.size(), std::size_t(4));
        QCOMPARE(run.steps[0].mode, LoadMode::Concurrency);
        QCOMPARE(run.steps[0].offered, 1.0);
        QCOMPARE(run.steps[1].offered, 4.0);
        QCOMPARE(run.steps[2].offered, 8.0);
        QVERIFY(std::isinf(run.steps[3].offered));
        QCOMPARE(run.steps[3].setup.maxConcurrency, std::optional<int>(512));
        const StepMetrics& m = run.steps[2].metrics;
        QCOMPARE(m.completed, 240);
        QCOMPARE(m.durationS, 30.0);
        QCOMPARE(m.requestThroughput, 8.0);
        QCOMPARE(m.outputThroughput, 1024.0);
        QCOMPARE(m.totalInputTokens, 256 * 240);
        QCOMPARE(m.ttft.mean, 60.0);
        QCOMPARE(m.ttft.percentile(99), std::optional<double>(150.0));
        // inter_token_latency_ms is the ITL; TPOT is derived from it (time_per_output_token_ms, 15.4, is not).
        QCOMPARE(m.itl.mean, 14.0);
        QCOMPARE(m.tpot.mean, 14.0);
        QCOMPARE(m.derived, (std::vector<QString> { QStringLiteral("tpot"), QStringLiteral("date") }));
        QCOMPARE(m.e2el.mean, 1840.0); // request_latency is in seconds
        // A constant or poisson strategy states no burstiness.
        for (std::size_t i = 0; i < run.steps.size(); ++i)
            QVERIFY(std::isnan(run.steps[i].setup.burstiness));
        QCOMPARE(run.steps[2].setup.date, StepSetup::dateString(QDateTime::fromSecsSinceEpoch(1030)));
        QCOMPARE(run.steps[3].failed, 3);
        const std::vector<SweepPoint> points = run.sweepPoints();
        QCOMPARE(points.size(), std::size_t(3));
    }

    // AIPerf's JSON export, as users committed it: every figure as the file gives it, the others unknown.
    void importAiperf_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("tokenizer");
        QTest::addColumn<QString>("target");
        QTest::addColumn<int>("users");
        QTest::addColumn<qint64>("numPrompts");
        QTest::addColumn<QList<double>>("totals"); // duration, completed, req/s, output tok/s, total tok/s
        QTest::addColumn<QList<qint64>>("tokens"); // input, output
        QTest::addColumn<QList<double>>("ttft"); // mean, median, std, min, max, p90, p99, count
        QTest::addColumn<QList<double>>("tpot");
        QTest::addColumn<QList<double>>("e2el");
        QTest::addColumn<QList<double>>("goodput"); // req/s, good requests, TTFT, TPOT, E2EL SLO (ms); NaN: none
        // One step of a duration-bound concurrency sweep: no input tokens, no total token throughput.
        QTest::addRow("0.11.0, 16 users")
            << importData(QStringLiteral("real/aiperf/0.11/concurrency_16/profile_export_aiperf.json"))
            << QStringLiteral("0.11.0") << QStringLiteral("qwen3-4b")
            << QStringLiteral("Qwen/Qwen3-4B-Instruct-2507-FP8")
            << QStringLiteral("http://vllm.gpu-sharing.svc.cluster.local:8000") << 16 << kUnknownCount
            << QList<double> { 299.935655192, 2044, 6.814794988917071, 1792.2310692134672, kUnknown }
            << QList<qint64> { kUnknownCount, 537554 }
            << QList<double> { 28.736161119863013, 26.7700945, 7.237359140441934, 22.086802, 85.414261, 33.0120912,
                   66.76023583999999, 2044 }
            << QList<double> { 8.77927431816552, 8.731694873219372, 0.3184381484015715, 8.018447871794871,
                   11.855786499999999, 9.14595657659939, 9.838724690325117, 2044 }
            << QList<double> { 2334.7705151291584, 2191.4849815, 1521.0363275886698, 44.094038, 10145.211403,
                   4260.8727653, 6997.258709539996, 2044 }
            // goodput, good_request_count and input_config.slos (inter_token_latency: per request, TPOT).
            << QList<double> { 6.814794988917071, 2044, 1500, 300, kUnknown };
        // A request-count run after a warm-up phase, which is not the measured load.
        QTest::addRow("0.10.0, 2 users")
            << importData(QStringLiteral("real/aiperf/0.10/c2/profile_export_aiperf.json")) << QStringLiteral("0.10.0")
            << QStringLiteral("qwen3.6-nvfp4") << QStringLiteral("nvidia/Qwen3.6-35B-A3B-NVFP4")
            << QStringLiteral("http://localhost:8000") << 2 << qint64(96)
            << QList<double> { 128.677665177, 96, 0.7460502167796494, 324.31424631925347, 2454.2643011558785 }
            << QList<qint64> { 274077, 41732 }
            << QList<double> { 154.26432382291665, 136.4860965, 53.97938920043559, 74.400987, 341.89748399999996,
                   224.46982849999998, 292.49688644999986, 96 }
            << QList<double> { 5.670039629867334, 5.566364894820418, 0.3681243218475883, 4.633652636863824,
                   7.109339948717949, 6.113031157878266, 7.077990921760222, 96 }
            << QList<double> { 2617.75843253125, 1560.043837, 2294.576178840648, 284.04670899999996, 10683.644552,
                   5869.8691395, 10438.077710599999, 96 }
            << QList<double> { kUnknown, kUnknown, kUnknown, kUnknown, kUnknown }; // no --goodput
    }

    void importAiperf()
    {
        QFETCH(QString, path);
        QFETCH(QString, version);
        QFETCH(QString, model);
        QFETCH(QString, tokenizer);
        QFETCH(QString, target);
        QFETCH(int, users);
        QFETCH(qint64, numPrompts);
        QFETCH(QList<double>, totals);
        QFETCH(QList<qint64>, tokens);
        QFETCH(QList<double>, ttft);
        QFETCH(QList<double>, tpot);
        QFETCH(QList<double>, e2el);
        QFETCH(QList<double>, goodput);
        const ImportContents contents = readImport({ path });
        QVERIFY2(contents.ok(), qPrintable(contents.error));
        QCOMPARE(contents.warnings, QStringList());
        QCOMPARE(contents.curves.size(), std::size_t(1));
        const ImportedCurve& curve = contents.curves.front();
        QCOMPARE(curve.source, QStringLiteral("aiperf"));
        QCOMPARE(curve.toolVersion, version);
        QCOMPARE(curve.model, model);
        QCOMPARE(curve.target, target);
        QCOMPARE(curve.axis, LoadMode::Concurrency);
        QCOMPARE(curve.steps.size(), std::size_t(1));
        const ImportedFileStep& step = curve.steps.front();
        QCOMPARE(step.mode, LoadMode::Concurrency);
        QCOMPARE(step.offered, double(users));
        QCOMPARE(step.setup.maxConcurrency, std::optional<int>(users));
        QVERIFY(std::isnan(step.setup.requestRate)); // users, not a rate: the file states none
        QVERIFY(std::isnan(step.setup.burstiness));
        QCOMPARE(step.setup.numPrompts, numPrompts);
        QCOMPARE(step.setup.modelId, model);
        QCOMPARE(step.setup.tokenizerId, tokenizer);
        QCOMPARE(step.setup.endpointType, QStringLiteral("chat"));
        QCOMPARE(step.setup.backend, QString());

        const StepMetrics& m = step.metrics;
        QCOMPARE(m.durationS, totals[0]);
        QCOMPARE(m.completed, qint64(totals[1]));
        QCOMPARE(m.failed, kUnknownCount); // no error_request_count key
        QCOMPARE(m.requestThroughput, totals[2]);
        QCOMPARE(m.outputThroughput, totals[3]);
        if (isKnown(totals[4]))
            QCOMPARE(m.totalTokenThroughput, totals[4]);
        else
            QVERIFY(std::isnan(m.totalTokenThroughput));
        QCOMPARE(m.totalInputTokens, tokens[0]);
        QCOMPARE(m.totalOutputTokens, tokens[1]);
        QCOMPARE(m.derived, std::vector<QString> { QStringLiteral("date") }); // from end_time
        const auto check = [](const LatencyStats& s, const QList<double>& v) {
            return s.mean == v[0] && s.median == v[1] && s.stddev == v[2] && s.min == v[3] && s.max == v[4]
                && s.percentile(90) == std::optional<double>(v[5]) && s.percentile(99) == std::optional<double>(v[6])
                && s.count == qint64(v[7]) && s.percentile(50) == std::optional<double>(v[1])
                && s.percentiles.size() == 9 && s.percentiles.front().first == 1.0;
        };
        QVERIFY(check(m.ttft, ttft));
        QVERIFY(check(m.tpot, tpot)); // inter_token_latency: per request (E2E - TTFT) / (OSL - 1)
        QVERIFY(check(m.e2el, e2el));
        // Not in the file, or not the same figure: unknown, never 0.
        QCOMPARE(m.itl, LatencyStats::unknown());
        QCOMPARE(m.firstContentTtft, LatencyStats::unknown());
        QCOMPARE(m.dispatchLag, LatencyStats::unknown());
        QVERIFY(std::isnan(m.maxOutputTokensPerS));
        QCOMPARE(m.maxConcurrentRequests, kUnknownCount);
        QVERIFY(std::isnan(m.meanConcurrency));
        QCOMPARE(m.options.percentiles, (std::vector<double> { 1, 5, 10, 25, 50, 75, 90, 95, 99 }));
        // Goodput as the file states it; a file without goodput keeps it unknown.
        const auto stated = [](double v) { return isKnown(v) ? std::optional<double>(v) : std::nullopt; };
        QCOMPARE(m.requestGoodput, stated(goodput[0]));
        if (isKnown(goodput[1]))
            QCOMPARE(m.goodCompleted, qint64(goodput[1]));
        QCOMPARE(m.options.ttftSloMs, stated(goodput[2]));
        QCOMPARE(m.options.tpotSloMs, stated(goodput[3]));
        QCOMPARE(m.options.e2elSloMs, stated(goodput[4]));

        // As a saved run: the source, the tool's version and the load; the step file keeps the unknowns null.
        QTemporaryDir tmp;
        const ImportResult result = importRun({ path }, tmp.path());
        QVERIFY2(result.ok(), qPrintable(result.error));
        QCOMPARE(result.source, QStringLiteral("aiperf"));
        const SavedRunRead read = readSavedRun(result.dir);
        QVERIFY2(read.ok(), qPrintable(read.error));
        const SavedRun& run = *read.run;
        QCOMPARE(run.model(), model);
        QCOMPARE(run.environment.value(u"source_tool_version").toString(), version);
        QCOMPARE(run.steps.size(), std::size_t(1));
        QCOMPARE(run.steps[0].mode, LoadMode::Concurrency);
        QCOMPARE(run.steps[0].offered, double(users));
        QCOMPARE(run.steps[0].metrics.ttft.percentile(99), std::optional<double>(ttft[6]));
        QCOMPARE(run.steps[0].metrics.failed, kUnknownCount);
        QCOMPARE(run.steps[0].metrics.itl, LatencyStats::unknown());
        QCOMPARE(run.steps[0].metrics.totalInputTokens, tokens[0]);
        QCOMPARE(run.steps[0].metrics.requestGoodput, stated(goodput[0]));
        const QJsonObject written
            = QJsonDocument::fromJson(readFile(result.dir + QStringLiteral("/steps/000.json"))).object();
        for (const char* key : { "failed", "mean_itl_ms", "request_rate", "max_concurrent_requests" })
            QVERIFY2(written.value(QLatin1String(key)).isNull(), key);
    }

    // AIPerf writes the CSV export next to the JSON export: one run, one step, read from the JSON. Other
    // CSV files in the folder (`vllm bench sweep`'s summary.csv) are no result files.
    void importAiperfFolderReadsTheRunOnce()
    {
        QTemporaryDir tmp;
        const QString real = importData(QStringLiteral("real/aiperf/0.10/c2/"));
        for (const char* name : { "profile_export_aiperf.json", "profile_export_aiperf.csv" })
            QVERIFY(QFile::copy(real + QLatin1String(name), tmp.filePath(QLatin1String(name))));
        QVERIFY(writeText(tmp.filePath(QStringLiteral("summary.csv")), "request_rate,max_concurrency\ninf,2\n"));
        const ImportContents contents = readImport({ tmp.path() });
        QVERIFY2(contents.ok(), qPrintable(contents.error));
        QCOMPARE(contents.warnings, QStringList());
        QCOMPARE(contents.curves.size(), std::size_t(1));
        QCOMPARE(contents.curves.front().steps.size(), std::size_t(1));
        QCOMPARE(
            contents.curves.front().files, QStringList { tmp.filePath(QStringLiteral("profile_export_aiperf.json")) });
        QCOMPARE(contents.curves.front().steps.front().metrics.ttft.mean, 154.26432382291665);

        // Alone, the CSV states no load: refused, naming the file and where the load is.
        QVERIFY(QFile::remove(tmp.filePath(QStringLiteral("profile_export_aiperf.json"))));
        const ImportContents alone = readImport({ tmp.path() });
        QVERIFY(!alone.ok());
        const QString why = tmp.filePath(QStringLiteral("profile_export_aiperf.csv"))
            + QStringLiteral(": the CSV export states no load (concurrency or request rate): import the "
                             "profile_export_*.json of the same run, whose input_config does");
        QCOMPARE(alone.refused, QStringList { why });
        QCOMPARE(
            alone.error, tmp.path() + QStringLiteral(": no benchmark result among the files read; refused: ") + why);
        QVERIFY(QFile::remove(tmp.filePath(QStringLiteral("profile_export_aiperf.csv"))));
        const ImportContents none = readImport({ tmp.path() });
        QVERIFY(none.error.startsWith(tmp.path() + QStringLiteral(": no result files")));
    }

    // The CSV export gives the JSON's figures rounded to two decimals, and nothing the CSV lacks.
    void aiperfCsvGivesTheJsonFigures()
    {
        const QString dir = importData(QStringLiteral("real/aiperf/0.10/c2/"));
        const QString csvPath = dir + QStringLiteral("profile_export_aiperf.csv");
        importdetail::FileContents csv;
        QString error;
        QVERIFY2(importdetail::readAiperfCsv(csvPath, readFile(csvPath), csv, &error), qPrintable(error));
        QCOMPARE(csv.source, QStringLiteral("aiperf"));
        QCOMPARE(csv.steps.size(), std::size_t(1));
        QVERIFY(std::isnan(csv.steps.front().offered)); // the CSV states no load
        const StepMetrics& c = csv.steps.front().metrics;
        QCOMPARE(c.durationS, 128.68);
        QCOMPARE(c.completed, 96);
        QCOMPARE(c.failed, kUnknownCount);
        QCOMPARE(c.requestThroughput, 0.75);
        QCOMPARE(c.outputThroughput, 324.31);
        QCOMPARE(c.totalTokenThroughput, 2454.26);
        QCOMPARE(c.totalInputTokens, 274077);
        QCOMPARE(c.totalOutputTokens, 41732);
        QCOMPARE(c.ttft.mean, 154.26);
        QCOMPARE(c.ttft.median, 136.49);
        QCOMPARE(c.ttft.percentile(99), std::optional<double>(292.50));
        QCOMPARE(c.ttft.count, kUnknownCount); // the CSV has no count column
        QCOMPARE(c.tpot.mean, 5.67);
        QCOMPARE(c.tpot.percentile(90), std::optional<double>(6.11));
        QCOMPARE(c.e2el.percentile(99), std::optional<double>(10438.08));
        QCOMPARE(c.e2el.max, 10683.64);
        QCOMPARE(c.itl, LatencyStats::unknown());

        const ImportContents json = readImport({ dir + QStringLiteral("profile_export_aiperf.json") });
        QVERIFY2(json.ok(), qPrintable(json.error));
        const StepMetrics& j = json.curves.front().steps.front().metrics;
        const auto rounded
            = [](double csvValue, double jsonValue) { return qAbs(csvValue - jsonValue) <= 0.005 + 1e-9; };
        QCOMPARE(c.completed, j.completed);
        QCOMPARE(c.totalInputTokens, j.totalInputTokens);
        QCOMPARE(c.totalOutputTokens, j.totalOutputTokens);
        QVERIFY(rounded(c.durationS, j.durationS));
        QVERIFY(rounded(c.requestThroughput, j.requestThroughput));
        QVERIFY(rounded(c.outputThroughput, j.outputThroughput));
        QVERIFY(rounded(c.totalTokenThroughput, j.totalTokenThroughput));
        for (const LatencyMetric metric : { LatencyMetric::Ttft, LatencyMetric::Tpot, LatencyMetric::E2el }) {
            const LatencyStats& a = c.stats(metric);
            const LatencyStats& b = j.stats(metric);
            QVERIFY(rounded(a.mean, b.mean) && rounded(a.median, b.median) && rounded(a.stddev, b.stddev));
            QVERIFY(rounded(a.min, b.min) && rounded(a.max, b.max));
            QCOMPARE(a.percentiles.size(), b.percentiles.size());
            for (std::size_t i = 0; i < a.percentiles.size(); ++i) {
                QCOMPARE(a.percentiles[i].first, b.percentiles[i].first);
                QVERIFY(rounded(a.percentiles[i].second, b.percentiles[i].second));
            }
        }
    }

    // GenAI-Perf's export in the shape its users quote (no real file was found): a flat input_config, no
    // duration and no request count; request_count 0 there means "not set", not zero prompts.
    void importGenaiPerfShape()
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("profile_export_genai_perf.json"));
        QVERIFY(writeText(path,
            R"({"request_throughput": {"unit": "requests/sec", "avg": 21.5},
                "time_to_first_token": {"unit": "ms", "avg": 40.0, "p50": 38.0, "p99": 90.0, "min": 30.0,
                                        "max": 95.0, "std": 9.0},
                "request_latency": {"unit": "ms", "avg": 4610.5, "p99": 6156.0},
                "output_token_throughput": {"unit": "tokens/sec", "avg": 12277.5},
                "input_config": {"model": ["ensemble"], "endpoint_type": "kserve", "u": "localhost:8001",
                                 "request_count": 0, "concurrency": 100, "request_rate": null,
                                 "tokenizer": "/path/to/tokenizer"}})"));
        const ImportContents contents = readImport({ path });
        QVERIFY2(contents.ok(), qPrintable(contents.error));
        const ImportedCurve& curve = contents.curves.front();
        QCOMPARE(curve.source, QStringLiteral("genai-perf"));
        QCOMPARE(curve.model, QStringLiteral("ensemble"));
        QCOMPARE(curve.target, QStringLiteral("localhost:8001"));
        QCOMPARE(curve.toolVersion, QString());
        const ImportedFileStep& step = curve.steps.front();
        QCOMPARE(step.mode, LoadMode::Concurrency);
        QCOMPARE(step.offered, 100.0);
        QCOMPARE(step.setup.numPrompts, kUnknownCount);
        QCOMPARE(step.setup.endpointType, QStringLiteral("kserve"));
        QCOMPARE(step.setup.tokenizerId, QStringLiteral("/path/to/tokenizer"));
        const StepMetrics& m = step.metrics;
        QCOMPARE(m.requestThroughput, 21.5);
        QCOMPARE(m.outputThroughput, 12277.5);
        QVERIFY(std::isnan(m.durationS));
        QCOMPARE(m.completed, kUnknownCount);
        QCOMPARE(m.totalOutputTokens, kUnknownCount);
        QVERIFY(std::isnan(m.totalTokenThroughput));
        QCOMPARE(m.ttft.percentile(99), std::optional<double>(90.0));
        QCOMPARE(m.ttft.count, kUnknownCount);
        QCOMPARE(m.tpot, LatencyStats::unknown());
        QCOMPARE(m.e2el.mean, 4610.5);
        QVERIFY(std::isnan(m.e2el.median));
        QCOMPARE(m.options.percentiles, (std::vector<double> { 50, 99 }));
        QCOMPARE(m.derived, std::vector<QString>());
    }

    // A file without its load, or asked as another tool's file: refused, naming the file and the key.
    void importAiperfRefusals()
    {
        QTemporaryDir tmp;
        const QString real = importData(QStringLiteral("real/aiperf/0.10/c2/profile_export_aiperf.json"));
        QJsonObject file = QJsonDocument::fromJson(readFile(real)).object();
        QJsonObject config = file.value(u"input_config").toObject();
        config.remove(QStringLiteral("phases"));
        file.insert(QStringLiteral("input_config"), config);
        const QString noLoad = tmp.filePath(QStringLiteral("profile_export_aiperf.json"));
        QVERIFY(writeText(noLoad, QJsonDocument(file).toJson()));
        const ImportContents refused = readImport({ noLoad });
        QCOMPARE(refused.error,
            noLoad
                + QStringLiteral(": input_config.concurrency, input_config.request_rate: missing: the load of the step "
                                 "is unknown"));

        ImportOptions asVllm;
        asVllm.format = ImportFormat::Vllm;
        const ImportContents wrong = readImport({ real }, asVllm);
        QVERIFY2(
            wrong.error.startsWith(real + QStringLiteral(": an AIPerf or GenAI-Perf export")), qPrintable(wrong.error));
        ImportOptions asAiperf;
        asAiperf.format = ImportFormat::Aiperf;
        const QString vllm = importData(QStringLiteral("vllm/result_rate30.json"));
        const ImportContents notAiperf = readImport({ vllm }, asAiperf);
        QVERIFY2(notAiperf.error.startsWith(vllm + QStringLiteral(": request_throughput, time_to_first_token")),
            qPrintable(notAiperf.error));
        QCOMPARE(importFormatFromName(u"AIPerf"), std::optional(ImportFormat::Aiperf));
        QCOMPARE(importFormatName(ImportFormat::Aiperf), QStringLiteral("aiperf"));
    }

    // A broken file: the error names the file and the key or line, and nothing is left under the root.
    // ---- import truth: the load a file measured, times only where the file has them --------------------

    // `--request-rate 10 --max-concurrency {1,16,128}`: the caps are the load; the rate is a setting,
    // and throughput reaching it is the rate's doing, not saturation.
    void importRateWithCapsIsAConcurrencySweep()
    {
        const QJsonObject real = QJsonDocument::fromJson(
            readFile(importData(QStringLiteral("real/vllm/rate-and-cap/cache-type-routing-validation/"
                                               "2paged-round-robin-1.0qps-concurrency4-Qwen3-32B-"
                                               "20260209-212640.json"))))
                                     .object();
        QVERIFY(!real.isEmpty());
        QTemporaryDir tmp;
        // Named so that file order is not load order.
        const std::tuple<const char*, int, double> files[]
            = { { "a-cap128.json", 128, 9.73 }, { "b-cap1.json", 1, 1.09 }, { "c-cap16.json", 16, 9.74 } };
        for (const auto& [name, cap, throughput] : files) {
            QJsonObject o = real;
            o.remove(QStringLiteral("label"));
            o.insert(QStringLiteral("request_rate"), 10.0);
            o.insert(QStringLiteral("max_concurrency"), cap);
            o.insert(QStringLiteral("num_prompts"), 200);
            o.insert(QStringLiteral("completed"), 200);
            o.insert(QStringLiteral("duration"), 200 / throughput);
            o.insert(QStringLiteral("request_throughput"), throughput);
            QVERIFY(writeText(tmp.filePath(QLatin1String(name)), QJsonDocument(o).toJson()));
        }
        const ImportContents read = readImport({ tmp.path() });
        QVERIFY2(read.ok(), qPrintable(read.error));
        QCOMPARE(read.curves.size(), std::size_t(1));
        const ImportedCurve& c = read.curves.front();
        QCOMPARE(c.axis, LoadMode::Concurrency);
        QCOMPARE(c.fixedRate, 10.0);
        QCOMPARE(c.steps.size(), std::size_t(3));
        QCOMPARE(c.steps[0].offered, 1.0);
        QCOMPARE(c.steps[1].offered, 16.0);
        QCOMPARE(c.steps[2].offered, 128.0);
        QCOMPARE(c.steps[0].metrics.requestThroughput, 1.09);
        QVERIFY(c.name.contains(QStringLiteral("request_rate=10")));

        const QString root = tmp.filePath(QStringLiteral("runs"));
        const ImportResult result = importRun({ tmp.path() }, root);
        QVERIFY2(result.ok(), qPrintable(result.error));
        const SavedRunRead saved = readSavedRun(result.dir);
        QVERIFY2(saved.ok(), qPrintable(saved.error));
        QCOMPARE(saved.run->steps.size(), std::size_t(3));
        QCOMPARE(saved.run->steps[1].load, QStringLiteral("16 users"));
        QCOMPARE(saved.run->steps[1].setup.requestRate, 10.0);
        const AnalysisResult a = saved.run->analyze();
        QVERIFY(!a.saturation.found);
        QVERIFY2(a.saturation.reason.text().contains(QStringLiteral("the rate, not the server")),
            qPrintable(a.saturation.reason.text()));

        // Two rates at each of two caps: a rate sweep per cap, never repeats of one load.
        QTemporaryDir sweep;
        for (const int cap : { 4, 64 }) {
            for (const double rate : { 2.0, 8.0 }) {
                QJsonObject o = real;
                o.insert(QStringLiteral("request_rate"), rate);
                o.insert(QStringLiteral("max_concurrency"), cap);
                QVERIFY(writeText(
                    sweep.filePath(QStringLiteral("r%1-c%2.json").arg(rate).arg(cap)), QJsonDocument(o).toJson()));
            }
        }
        const ImportContents bycap = readImport({ sweep.path() });
        QVERIFY2(bycap.ok(), qPrintable(bycap.error));
        QCOMPARE(bycap.curves.size(), std::size_t(2));
        for (const ImportedCurve& curve : bycap.curves) {
            QCOMPARE(curve.axis, LoadMode::Rate);
            QCOMPARE(curve.steps.size(), std::size_t(2));
            QCOMPARE(curve.steps[0].offered, 2.0);
            QCOMPARE(curve.steps[1].offered, 8.0);
            QCOMPARE(curve.steps[0].setup.maxConcurrency, curve.steps[1].setup.maxConcurrency);
        }
    }

    // Two real runs at one load (1 req/s, at most 4 in flight) that differ in --label: two runs of one
    // step each, and the analysis claims nothing from one load.
    void importRealRateAndCap()
    {
        QTemporaryDir tmp;
        const ImportResult result = importRun({ importData(QStringLiteral("real/vllm/rate-and-cap")) }, tmp.path());
        QVERIFY2(result.ok(), qPrintable(result.error));
        QCOMPARE(result.dirs.size(), 2);
        QVERIFY2(result.difference.contains(QStringLiteral("label=2paged-round-robin")), qPrintable(result.difference));
        for (const QString& dir : result.dirs) {
            const SavedRunRead read = readSavedRun(dir);
            QVERIFY2(read.ok(), qPrintable(read.error));
            QCOMPARE(read.run->steps.size(), std::size_t(1));
            const SavedStep& s = read.run->steps.front();
            QCOMPARE(s.setup.requestRate, 1.0);
            QCOMPARE(s.setup.maxConcurrency, std::optional<int>(4));
            const AnalysisResult a = read.run->analyze();
            QVERIFY(!a.knee.found);
            QVERIFY(!a.saturation.found);
            QVERIFY2(a.saturation.reason.text().contains(QStringLiteral("with at most 4 requests in flight")),
                qPrintable(a.saturation.reason.text()));
        }
    }

    // vLLM's per-request lists time each request from its own send: latencies, no timeline. With
    // start_times (current vLLM) the records share the step's clock.
    void importDetailTimesOnlyWithSendTimes()
    {
        const QString path
            = importData(QStringLiteral("real/vllm/0.6-save-detailed/Meta-Llama-3-8B-Instruct_tp1_len2000.json"));
        QTemporaryDir tmp;
        const ImportResult result = importRun({ path }, tmp.path());
        QVERIFY2(result.ok(), qPrintable(result.error));
        const SavedRunRead read = readSavedRun(result.dir);
        QVERIFY2(read.ok(), qPrintable(read.error));
        const SavedStep& step = read.run->steps.front();
        QVERIFY(!step.requestsPath.isEmpty());
        QVERIFY2(
            step.noTimeline.contains(QStringLiteral("does not say when it was sent")), qPrintable(step.noTimeline));

        QJsonObject o = QJsonDocument::fromJson(readFile(path)).object();
        QJsonArray starts;
        for (int i = 0; i < 10; ++i)
            starts.append(1000.0 + 0.5 * i);
        o.insert(QStringLiteral("start_times"), starts);
        const QString timed = tmp.filePath(QStringLiteral("timed.json"));
        QVERIFY(writeText(timed, QJsonDocument(o).toJson()));
        const ImportContents contents = readImport({ timed });
        QVERIFY2(contents.ok(), qPrintable(contents.error));
        const ImportedFileStep& s = contents.curves.front().steps.front();
        QVERIFY(!s.recordsWithoutSendTimes);
        QCOMPARE(s.records.size(), std::size_t(10));
        QCOMPARE(s.records[0].sentNs, qint64(0));
        QCOMPARE(s.records[4].sentNs, qint64(2'000'000'000));
        // TTFT stays the file's: first token minus send.
        QCOMPARE(s.records[4].firstTokenNs - s.records[4].sentNs,
            qint64(std::llround(o.value(u"ttfts").toArray()[4].toDouble() * 1e9)));
        const StepTimeline timeline = StepTimeline::compute(s.records, {});
        QCOMPARE(timeline.seconds.front().sent, qint64(2));
    }

    // SGLang 0.5: the model is in server_info; what the file lacks (date) is unknown, its backend posts
    // to /generate, and a cap with rate inf is a concurrency step.
    void realSglang05()
    {
        const QString path = importData(QStringLiteral("real/sglang/new/agg_n50_in128_out64_c8.jsonl"));
        const ImportContents read = readImport({ path });
        QVERIFY2(read.ok(), qPrintable(read.error));
        QCOMPARE(read.curves.size(), std::size_t(1));
        const ImportedCurve& c = read.curves.front();
        QCOMPARE(c.source, QStringLiteral("sglang"));
        QCOMPARE(c.model, QStringLiteral("Qwen/Qwen2.5-3B-Instruct"));
        QCOMPARE(c.axis, LoadMode::Concurrency);
        const ImportedFileStep& s = c.steps.front();
        QCOMPARE(s.offered, 8.0);
        QVERIFY(s.setup.date.isEmpty());
        QCOMPARE(s.setup.backend, QStringLiteral("sglang"));
        QCOMPARE(s.metrics.requestThroughput, 25.36630611684931);
        QCOMPARE(s.metrics.itl.percentile(95), std::optional<double>(21.319825435057282));
        QCOMPARE(s.metrics.e2el.mean, 306.8716875091195);
        QCOMPARE(s.metrics.meanConcurrency, 7.784201163950447);
        QVERIFY(!isKnown(s.metrics.failed));

        QTemporaryDir tmp;
        const ImportResult result = importRun({ path }, tmp.path());
        QVERIFY2(result.ok(), qPrintable(result.error));
        const QJsonObject step
            = QJsonDocument::fromJson(readFile(result.dir + QStringLiteral("/steps/000.json"))).object();
        QVERIFY(step.value(u"date").isNull());
        QVERIFY(step.value(u"endpoint_type").isNull());
        QCOMPARE(step.value(u"model_id").toString(), QStringLiteral("Qwen/Qwen2.5-3B-Instruct"));

        // Its API is the native /generate, not "completions".
        const ImportContents two = readImport({ path, importData(QStringLiteral("vllm/result_rate30.json")) });
        QVERIFY2(two.ok(), qPrintable(two.error));
        QVERIFY2(two.difference().contains(QStringLiteral("api=generate")), qPrintable(two.difference()));
    }

    // vLLM nightly files state latencies only: imported with every count and throughput unknown, and
    // the analysis says why it cannot place them.
    void realVllmLatencyOnly()
    {
        QTemporaryDir tmp;
        const ImportResult result
            = importRun({ importData(QStringLiteral("real/vllm/latency-only/results")) }, tmp.path());
        QVERIFY2(result.ok(), qPrintable(result.error));
        const SavedRunRead read = readSavedRun(result.dir);
        QVERIFY2(read.ok(), qPrintable(read.error));
        QCOMPARE(read.run->steps.size(), std::size_t(2));
        const SavedStep& inf = read.run->steps[1];
        QVERIFY(std::isinf(inf.offered));
        QCOMPARE(inf.metrics.ttft.mean, 13479.216601336375);
        QCOMPARE(inf.metrics.ttft.percentile(99), std::optional<double>(16596.106526181098));
        QCOMPARE(inf.metrics.itl.median, 78.93210835754871);
        QCOMPARE(inf.metrics.completed, kUnknownCount);
        QCOMPARE(inf.metrics.failed, kUnknownCount);
        QVERIFY(!isKnown(inf.metrics.requestThroughput));
        QVERIFY(!isKnown(inf.metrics.durationS));
        QVERIFY(!inf.metrics.e2el.reported());
        const AnalysisResult a = read.run->analyze();
        QVERIFY(!a.knee.found);
        QVERIFY(!a.saturation.found);
        QString notes;
        for (const AnalysisSentence& sentence : analysisText(a))
            notes += sentence.text + QLatin1Char('\n');
        QVERIFY2(notes.contains(QStringLiteral("gives no request throughput")), qPrintable(notes));
        QVERIFY2(!notes.contains(QStringLiteral("requests ended")), qPrintable(notes));
        QVERIFY2(!notes.contains(QStringLiteral("nan")), qPrintable(notes));
    }

    // Multi-turn results in the shape `vllm-bench` writes (its build_multi_turn_result_json): the load
    // is multi_turn_concurrency; conversation figures are figures, not settings that split runs.
    void importMultiTurn()
    {
        QTemporaryDir tmp;
        for (const int users : { 4, 16 }) {
            QJsonObject o;
            o.insert(QStringLiteral("date"), QStringLiteral("2026-03-02T10:00:00Z"));
            o.insert(QStringLiteral("mode"), QStringLiteral("multi_turn"));
            o.insert(QStringLiteral("backend"), QStringLiteral("openai-chat"));
            o.insert(QStringLiteral("model_id"), QStringLiteral("Qwen/Qwen3-8B"));
            o.insert(QStringLiteral("num_conversations"), users * 4);
            o.insert(QStringLiteral("turns_per_conversation"), 5);
            o.insert(QStringLiteral("multi_turn_concurrency"), users);
            o.insert(QStringLiteral("inter_turn_delay_ms"), 500);
            o.insert(QStringLiteral("duration"), 60.0);
            o.insert(QStringLiteral("conversations_completed"), users * 4 - 1);
            o.insert(QStringLiteral("conversations_failed"), 1);
            o.insert(QStringLiteral("avg_turns_completed"), 4.9);
            o.insert(QStringLiteral("avg_conversation_duration_ms"), 12500.0 + users);
            o.insert(QStringLiteral("completed"), users * 20 - 2);
            o.insert(QStringLiteral("failed"), 1);
            o.insert(QStringLiteral("request_throughput"), (users * 20 - 2) / 60.0);
            o.insert(QStringLiteral("mean_ttft_ms"), 40.0 + users);
            o.insert(QStringLiteral("p99_ttft_ms"), 90.0 + users);
            QVERIFY(writeText(tmp.filePath(QStringLiteral("mt-%1.json").arg(users)), QJsonDocument(o).toJson()));
        }
        const ImportContents read = readImport({ tmp.path() });
        QVERIFY2(read.ok(), qPrintable(read.error));
        QCOMPARE(read.curves.size(), std::size_t(1));
        const ImportedCurve& c = read.curves.front();
        QCOMPARE(c.axis, LoadMode::Concurrency);
        QCOMPARE(c.steps.size(), std::size_t(2));
        QCOMPARE(c.steps[0].offered, 4.0);
        QCOMPARE(c.steps[1].offered, 16.0);
        const StepMetrics& m = c.steps[1].metrics;
        QCOMPARE(m.numSessions, qint64(64));
        QVERIFY(std::find(m.derived.begin(), m.derived.end(), QStringLiteral("num_sessions")) != m.derived.end());
        QCOMPARE(m.meanSessionS, 12.516);
        const auto& settings = c.steps[1].setup.metadata;
        const auto has = [&](const char* key) {
            return std::any_of(
                settings.begin(), settings.end(), [&](const auto& kv) { return kv.first == QLatin1String(key); });
        };
        QVERIFY(has("turns_per_conversation"));
        QVERIFY(has("inter_turn_delay_ms"));
        QVERIFY(!has("conversations_completed"));
        QVERIFY(!has("multi_turn_concurrency"));
    }

    // A setting only one file states is a difference: SGLang lines with and without a second instance.
    void importSettingOneFileHasSplitsRuns()
    {
        const QByteArray line
            = readFile(importData(QStringLiteral("real/sglang/old/llama_3_3_70b_online_output.jsonl")))
                  .split('\n')
                  .front();
        QJsonObject a = QJsonDocument::fromJson(line).object();
        QJsonObject b = a;
        b.remove(QStringLiteral("random_input_len"));
        b.insert(QStringLiteral("num_instances"), 2);
        b.insert(QStringLiteral("routing_strategy"), QStringLiteral("static"));
        b.insert(QStringLiteral("request_rate"), 2.0);
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("two.jsonl"));
        QVERIFY(writeText(path,
            QJsonDocument(a).toJson(QJsonDocument::Compact) + '\n' + QJsonDocument(b).toJson(QJsonDocument::Compact)));
        const ImportContents read = readImport({ path });
        QVERIFY2(read.ok(), qPrintable(read.error));
        QCOMPARE(read.curves.size(), std::size_t(2));
        QVERIFY2(read.difference().contains(QStringLiteral("num_instances=2")), qPrintable(read.difference()));
    }

    // A figure a file states as 0.0 is 0.0, on screen and in exports; only a missing one is unknown.
    void importStatedZeroStaysZero()
    {
        QByteArray line = readFile(importData(QStringLiteral("real/sglang/old/llama_3_3_70b_online_output.jsonl")))
                              .split('\n')
                              .front();
        line.replace("\"median_itl_ms\": 13.638956006616354", "\"median_itl_ms\": 0.0");
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("zero.jsonl"));
        QVERIFY(writeText(path, line));
        const ResultFileContents read = ResultJson::read(line, path);
        QVERIFY2(read.ok(), qPrintable(read.error));
        const LatencyStats& itl = read.steps.front().metrics.itl;
        QCOMPARE(itl.median, 0.0);
        QVERIFY(itl.reported());
        QVERIFY(!read.steps.front().metrics.tpot.reported());
        // Our own statistics of no sample are not a statement.
        QVERIFY(!LatencyStats {}.reported());
    }

    // A stated end time is the step's date (a reformat, marked derived), not an empty one.
    void importAiperfDate()
    {
        const ImportContents read
            = readImport({ importData(QStringLiteral("real/aiperf/0.11/concurrency_16/profile_export_aiperf.json")) });
        QVERIFY2(read.ok(), qPrintable(read.error));
        const ImportedFileStep& s = read.curves.front().steps.front();
        QCOMPARE(s.setup.date, QStringLiteral("20260930-165839"));
        QVERIFY(std::find(s.metrics.derived.begin(), s.metrics.derived.end(), QStringLiteral("date"))
            != s.metrics.derived.end());
    }

    // Files of several tools: the words name every tool.
    void importWordsNameEveryTool()
    {
        QTemporaryDir tmp;
        const ImportResult result = importRun(
            { importData(QStringLiteral("sglang.jsonl")), importData(QStringLiteral("guidellm-benchmarks.json")),
                importData(QStringLiteral("vllm/result_rate30.json")) },
            tmp.path());
        QVERIFY2(result.ok(), qPrintable(result.error));
        QCOMPARE(result.sources,
            (QStringList { QStringLiteral("sglang"), QStringLiteral("guidellm"), QStringLiteral("vllm") }));
    }

    // The import contract (docs/ARCHITECTURE.md, "Imports"), over every importer and every real file:
    // each figure or setting in an imported step file is read from the source file (the same number,
    // possibly in another unit, or the same text), derived and listed in kneepoint.derived, or unknown
    // (null). Kneepoint's own client counters are never filled in for another tool's file.
    // The contract's check itself: values a file never had are caught.
    void importContractCheckCatchesInventions()
    {
        QTemporaryDir tmp;
        const ImportResult result = importRun(
            { importData(QStringLiteral("real/vllm/0.5/Mistral-7B-Instruct-v0.3_tp1_len2000.json")) }, tmp.path());
        QVERIFY2(result.ok(), qPrintable(result.error));
        QCOMPARE(importContractViolations(result.dir), QStringList());
        const QString path = result.dir + QStringLiteral("/steps/000.json");
        QJsonObject step = QJsonDocument::fromJson(readFile(path)).object();
        step.insert(QStringLiteral("burstiness"), 7.25);
        QJsonObject kneepoint = step.value(u"kneepoint").toObject();
        kneepoint.insert(QStringLiteral("input_token_source"), QStringLiteral("dataset"));
        step.insert(QStringLiteral("kneepoint"), kneepoint);
        QVERIFY(writeText(path, QJsonDocument(step).toJson()));
        const QStringList problems = importContractViolations(result.dir);
        QCOMPARE(problems.size(), 2);
        QVERIFY2(problems[0].contains(QStringLiteral("burstiness = 7.25")), qPrintable(problems[0]));
        QVERIFY2(problems[1].contains(QStringLiteral("kneepoint.input_token_source = \"dataset\"")),
            qPrintable(problems[1]));
    }

    void importContractHoldsForEveryRealFile_data()
    {
        QTest::addColumn<QString>("path");
        const QString real = importData(QStringLiteral("real/"));
        for (const char* p : { "vllm/0.5/Mistral-7B-Instruct-v0.3_tp1_len2000.json",
                 "vllm/0.6-save-detailed/Meta-Llama-3-8B-Instruct_tp1_len2000.json", "vllm/0.25-bench-sweep",
                 "vllm/rate-and-cap", "vllm/latency-only", "sglang/old/llama_3_3_70b_online_output.jsonl",
                 "sglang/new/agg_n50_in128_out64_c8.jsonl", "aiperf/0.11", "aiperf/0.10", "guidellm/0.5",
                 "guidellm/0.2" })
            QTest::newRow(p) << real + QLatin1String(p);
    }

    void importContractHoldsForEveryRealFile()
    {
        QFETCH(QString, path);
        QTemporaryDir tmp;
        const ImportResult result = importRun({ path }, tmp.path());
        QVERIFY2(result.ok(), qPrintable(result.error));
        QVERIFY(!result.dirs.isEmpty());
        for (const QString& dir : result.dirs) {
            const QStringList problems = importContractViolations(dir);
            QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        }
    }

    // The gate compares values, not bounds: an SLO capacity the sweep never reached ("at least N") is an
    // unknown verdict with the reason, not a FAIL of -88 %.
    void gateLeavesLowerBoundsUnknown()
    {
        QTemporaryDir tmp;
        const ImportResult result
            = importRun({ QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/results/vllm-sweep") }, tmp.path());
        QVERIFY2(result.ok(), qPrintable(result.error));
        const SavedRunRead read = readSavedRun(result.dir);
        QVERIFY2(read.ok(), qPrintable(read.error));
        SavedRun base = *read.run;
        base.profile.slo.ttftMs = 1e9; // every step meets it: the capacity is only "at least" the top load
        const AnalysisResult a = base.analyze();
        QVERIFY(a.sloCapacity.found);
        QVERIFY(a.sloCapacity.lowerBound);
        SavedRun next = base;
        QString error;
        const std::optional<GateCondition> condition = parseGateCondition(u"slo_capacity<-5%", &error);
        QVERIFY2(condition, qPrintable(error));
        const std::vector<GateVerdict> verdicts = evaluateGate(base, next, { *condition });
        QCOMPARE(verdicts.size(), std::size_t(1));
        QCOMPARE(verdicts[0].outcome, GateOutcome::Unknown);
        QVERIFY2(verdicts[0].reason.contains(QStringLiteral("only a lower bound: at least")),
            qPrintable(verdicts[0].reason));
        QVERIFY(!gateFailed(verdicts));
        // compare --fail-on-unknown: a verdict that could not be reached fails the gate, and JUnit says so.
        QVERIFY(gateFailed(verdicts, true));
        const QByteArray junit = gateJunitXml(verdicts, base, next, true);
        QVERIFY2(junit.contains("<failure message=") && junit.contains("type=\"unknown\""), junit.constData());
        QVERIFY2(!junit.contains("<skipped"), junit.constData());
        QVERIFY(gateJunitXml(verdicts, base, next).contains("<skipped"));
    }

    void importBrokenFiles_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("format");
        QTest::addColumn<QString>("expected");
        QTest::newRow("truncated JSON named")
            << importData(QStringLiteral("broken/vllm-folder/vllm-20.0qps-truncated.json")) << int(ImportFormat::Auto)
            << importData(QStringLiteral("broken/vllm-folder/vllm-20.0qps-truncated.json:10:1: invalid JSON"));
        QTest::newRow("not a result") << importData(QStringLiteral("broken/not-a-result.json"))
                                      << int(ImportFormat::Auto)
                                      << importData(
                                             QStringLiteral("broken/not-a-result.json: $: not a benchmark result"));
        QTest::newRow("detail lists disagree")
            << importData(QStringLiteral("broken/vllm-bad-itls.json")) << int(ImportFormat::Auto)
            << importData(QStringLiteral("broken/vllm-bad-itls.json: $.itls: 1 entries, but ttfts has 2"));
        QTest::newRow("guidellm without a strategy")
            << importData(QStringLiteral("broken/guidellm-no-strategy.json")) << int(ImportFormat::Auto)
            << importData(QStringLiteral("broken/guidellm-no-strategy.json: benchmarks[1]: no strategy"));
        QTest::newRow("guidellm asked of a vllm file")
            << importData(QStringLiteral("vllm/result_rate30.json")) << int(ImportFormat::Guidellm)
            << importData(QStringLiteral("vllm/result_rate30.json: benchmarks: missing"));
        QTest::newRow("missing") << importData(QStringLiteral("nothing-here.json")) << int(ImportFormat::Auto)
                                 << importData(QStringLiteral("nothing-here.json: no such file"));
    }

    // One unreadable file in a folder is listed with its reason; the folder's other files are imported.
    void importFolderKeepsWhatItCanRead()
    {
        QTemporaryDir tmp;
        const QString root = tmp.filePath(QStringLiteral("runs"));
        const ImportResult result = importRun({ importData(QStringLiteral("broken/vllm-folder")) }, root);
        QVERIFY2(result.ok(), qPrintable(result.error));
        QCOMPARE(result.refused.size(), 1);
        QVERIFY2(result.refused.front().startsWith(
                     importData(QStringLiteral("broken/vllm-folder/vllm-20.0qps-truncated.json:10:1: invalid JSON"))),
            qPrintable(result.refused.front()));
        QCOMPARE(result.stepCount, 1);
        const SavedRunRead read = readSavedRun(result.dir);
        QVERIFY2(read.ok(), qPrintable(read.error));
        QCOMPARE(read.run->steps.size(), std::size_t(1));
        QCOMPARE(read.run->steps.front().offered, 10.0);
    }

    void importBrokenFiles()
    {
        QFETCH(QString, path);
        QFETCH(int, format);
        QFETCH(QString, expected);
        QTemporaryDir tmp;
        const QString root = tmp.filePath(QStringLiteral("runs"));
        ImportOptions options;
        options.format = ImportFormat(format);
        const ImportResult result = importRun({ path }, root, options);
        QVERIFY(!result.ok());
        QVERIFY2(result.error.startsWith(expected), qPrintable(result.error));
        QVERIFY(result.dir.isEmpty());
        QCOMPARE(entries(root), QStringList());
    }

    void interpolation()
    {
        const std::vector<double> x { 10, 20, 30 };
        const std::vector<double> y { 100, 200, 400 };
        QCOMPARE(interpolate(x, y, 10), std::optional<double>(100));
        QCOMPARE(interpolate(x, y, 15), std::optional<double>(150));
        QCOMPARE(interpolate(x, y, 27.5), std::optional<double>(350));
        QCOMPARE(interpolate(x, y, 30), std::optional<double>(400));
        QCOMPARE(interpolate(x, y, 9.99), std::nullopt);
        QCOMPARE(interpolate(x, y, 30.01), std::nullopt);
        QCOMPARE(interpolate({}, {}, 1), std::nullopt);
        QCOMPARE(CompareStatistic::parse(u"p99.9")->percentile, 99.9);
        QCOMPARE(CompareStatistic::parse(u"median")->kind, CompareStatistic::Kind::Median);
        QCOMPARE(CompareStatistic::parse(u"mean")->label(), QStringLiteral("mean"));
        QCOMPARE(CompareStatistic::parse(u"95")->label(), QStringLiteral("P95"));
        QVERIFY(!CompareStatistic::parse(u"p101"));
        QCOMPARE(compareMetricFromKey(u"output-throughput"), std::optional(CompareMetric::OutputThroughput));
        QCOMPARE(compareMetricFromKey(u"e2e_latency"), std::optional(CompareMetric::E2el));
        QVERIFY(!compareMetricFromKey(u"latency"));
    }

    // Known answers: the baseline at 10/20/30 req/s with P99 TTFT 100/200/400 ms.
    void compareDeltas()
    {
        QTemporaryDir tmp;
        Profile base = testProfile(QStringLiteral("baseline"));
        base.target.apiKey = QStringLiteral("sk-do-not-show-0123456789");
        Profile candidate = testProfile(QStringLiteral("candidate"));
        candidate.load.maxConcurrency = 64;
        candidate.target.apiKey = QStringLiteral("sk-other-secret-9876543210");
        QVERIFY(writeRun(tmp.filePath(QStringLiteral("a")), base, { { 10, 100, 10 }, { 20, 200, 20 }, { 30, 400, 28 } })
                    .isEmpty());
        QVERIFY(writeRun(tmp.filePath(QStringLiteral("b")), candidate,
            { { 15, 180, 14.7 }, { 20, 210, 19.5 }, { 25, 240, 24 }, { 40, 500, 30 } })
                    .isEmpty());
        std::vector<SavedRun> runs;
        for (const QString& id : { QStringLiteral("a"), QStringLiteral("b") }) {
            SavedRunRead read = readSavedRun(tmp.filePath(id));
            QVERIFY2(read.ok(), qPrintable(read.error));
            runs.push_back(*read.run);
        }
        CompareStatistic p99;
        const Comparison c = compareRuns(runs, 0, CompareMetric::Ttft, p99);
        QCOMPARE(c.curves.size(), std::size_t(2));
        QCOMPARE(c.curves[0].points.size(), std::size_t(3));
        QCOMPARE(c.deltas[0].size(), std::size_t(0));
        const std::vector<CompareDelta>& d = c.deltas[1];
        QCOMPARE(d.size(), std::size_t(4));
        QCOMPARE(d[0].offered, 15.0);
        QCOMPARE(d[0].baselineValue, std::optional<double>(150));
        QVERIFY(d[0].interpolated);
        QCOMPARE(d[0].percent, std::optional<double>(20));
        QCOMPARE(d[1].baselineValue, std::optional<double>(200));
        QVERIFY(!d[1].interpolated);
        QCOMPARE(d[1].percent, std::optional<double>(5));
        QCOMPARE(d[2].baselineValue, std::optional<double>(300));
        QCOMPARE(d[2].percent, std::optional<double>(-20));
        QCOMPARE(d[3].percent, std::nullopt);
        QCOMPARE(d[3].baselineValue, std::nullopt);
        QCOMPARE(d[3].reason, QStringLiteral("outside the baseline's range (10 req/s to 30 req/s)"));

        // The candidate as the baseline: the original baseline's 10 req/s lies below its range.
        const Comparison swapped = compareRuns(runs, 1, CompareMetric::Throughput, p99);
        QCOMPARE(swapped.deltas[0][0].percent, std::nullopt);
        QVERIFY(swapped.deltas[0][0].reason.startsWith(QLatin1String("outside")));
        QCOMPARE(swapped.deltas[0][1].baselineValue, std::optional<double>(19.5));
        QCOMPARE(swapped.deltas[0][1].percent, std::optional<double>((20 - 19.5) / 19.5 * 100));

        // A percentile the runs did not record.
        CompareStatistic p95;
        p95.percentile = 95;
        const Comparison missing = compareRuns(runs, 0, CompareMetric::Ttft, p95);
        QCOMPARE(missing.curves[0].points[0].value, std::nullopt);
        QCOMPARE(missing.curves[0].points[0].missing, QStringLiteral("P95 TTFT not recorded (recorded: P99)"));

        // What changed: the profile's name and max_concurrency; never a key.
        QStringList keys;
        for (const SettingDifference& s : c.differences) {
            keys << s.key;
            for (const QString& v : s.values)
                QVERIFY2(!v.contains(QLatin1String("sk-")), qPrintable(v));
        }
        QVERIFY2(keys.contains(QStringLiteral("profile.load.max_concurrency")), qPrintable(keys.join(u' ')));
        QVERIFY(keys.contains(QStringLiteral("profile.name")));
        for (const QString& k : keys)
            QVERIFY2(!k.contains(QLatin1String("api_key")), qPrintable(k));
        const QByteArray json = QJsonDocument(comparisonJson(c)).toJson();
        QVERIFY(!json.contains("sk-"));
        QCOMPARE(comparisonJson(c)
                     .value(u"runs")
                     .toArray()
                     .at(1)
                     .toObject()
                     .value(u"points")
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(u"delta_percent")
                     .toDouble(),
            20.0);
        const QByteArray csv = comparisonCsv(c);
        QVERIFY2(csv.startsWith("run,name,load_unit,offered,ttft_p99,baseline,delta_percent,note,predicted\n"),
            csv.constData());
        QVERIFY2(csv.contains("b,candidate,req/s,15,180,150,20,baseline interpolated,false\n"), csv.constData());
    }

    // ---- Real result files of other tools (tests/data/import/real, sources in SOURCES.md) ----------------

    // Each figure a vLLM/SGLang step file states is the imported figure; each one it lacks is unknown
    // unless derived, and then marked.
    static void checkAgainstFile(const QJsonObject& file, const StepMetrics& m, const QString& where)
    {
        const auto same = [&](const char* key, double imported, const char* derivedKey = nullptr) {
            const QJsonValue v = file.value(QLatin1String(key));
            const QString what = where + QLatin1Char(' ') + QLatin1String(key);
            if (v.isDouble()) {
                QVERIFY2(imported == v.toDouble(), qPrintable(what + QStringLiteral(": %1").arg(imported)));
            } else if (!derivedKey || !m.isDerived(QLatin1String(derivedKey))) {
                QVERIFY2(std::isnan(imported) || imported == double(kUnknownCount),
                    qPrintable(what + QStringLiteral(": not in the file, yet %1").arg(imported)));
            }
        };
        same("completed", double(m.completed));
        same("failed", double(m.failed), "failed");
        same("duration", m.durationS, "duration");
        same("total_input_tokens", double(m.totalInputTokens));
        same("total_output_tokens", double(m.totalOutputTokens));
        same("request_throughput", m.requestThroughput, "request_throughput");
        same("output_throughput", m.outputThroughput, "output_throughput");
        same("total_token_throughput", m.totalTokenThroughput, "total_token_throughput");
        same("max_output_tokens_per_s", m.maxOutputTokensPerS);
        same("max_concurrent_requests", double(m.maxConcurrentRequests));
        for (LatencyMetric metric : allLatencyMetrics) {
            const LatencyStats& stats = m.stats(metric);
            QStringList names { latencyMetricKey(metric) };
            if (metric == LatencyMetric::E2el)
                names << QStringLiteral("e2e_latency") << QStringLiteral("latency");
            const auto value = [&](const QString& key) {
                for (const QString& name : names) {
                    const QJsonValue v = file.value(key.arg(name));
                    if (v.isDouble())
                        return v.toDouble();
                }
                return kUnknown;
            };
            const auto compare = [&](double expected, double imported, const QString& key) {
                const QString what = where + QLatin1Char(' ') + key.arg(names.front());
                if (std::isnan(expected))
                    QVERIFY2(std::isnan(imported),
                        qPrintable(what + QStringLiteral(": not in the file, yet %1").arg(imported)));
                else
                    QVERIFY2(imported == expected, qPrintable(what + QStringLiteral(": %1").arg(imported)));
            };
            compare(value(QStringLiteral("mean_%1_ms")), stats.mean, QStringLiteral("mean_%1_ms"));
            compare(value(QStringLiteral("median_%1_ms")), stats.median, QStringLiteral("median_%1_ms"));
            compare(value(QStringLiteral("std_%1_ms")), stats.stddev, QStringLiteral("std_%1_ms"));
            for (double p : { 90.0, 95.0, 99.0, 99.9 }) {
                const QString key = QStringLiteral("p%1_%2_ms").arg(LatencyStats::percentileWord(p));
                const auto imported = stats.percentile(p);
                compare(value(key.arg(QStringLiteral("%1"))), imported ? *imported : kUnknown, key);
            }
        }
    }

    static QList<QJsonObject> jsonObjects(const QString& path)
    {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        QList<QJsonObject> out;
        const QByteArray bytes = f.readAll();
        const QJsonDocument doc = QJsonDocument::fromJson(bytes);
        if (doc.isObject())
            return { doc.object() };
        for (const QByteArray& line : bytes.split('\n')) {
            if (!line.trimmed().isEmpty())
                out << QJsonDocument::fromJson(line).object();
        }
        return out;
    }

    void realVllm06SaveDetailed()
    {
        const QString path
            = importData(QStringLiteral("real/vllm/0.6-save-detailed/Meta-Llama-3-8B-Instruct_tp1_len2000.json"));
        const ImportContents read = readImport({ path });
        QVERIFY2(read.ok(), qPrintable(read.error));
        QCOMPARE(read.curves.size(), std::size_t(1));
        const ImportedCurve& curve = read.curves.front();
        // input_throughput and best_of do not make it SGLang's.
        QCOMPARE(curve.source, QStringLiteral("vllm"));
        QCOMPARE(curve.steps.size(), std::size_t(1));
        const ImportedFileStep& step = curve.steps.front();
        const StepMetrics& m = step.metrics;
        checkAgainstFile(jsonObjects(path).constFirst(), m, path);
        // mean_latency_ms is this generation's E2EL.
        QCOMPARE(m.e2el.mean, 2407.0737529546022);
        QCOMPARE(m.e2el.percentile(99), std::optional<double>(8329.030026607215));
        // Derived from the file's own fields, and marked so.
        QCOMPARE(m.totalTokenThroughput, double(1369 + 1945) / 8.566833823919296);
        QVERIFY(m.isDerived(u"total_token_throughput"));
        QCOMPARE(m.failed, 0);
        QVERIFY(m.isDerived(u"failed"));
        QVERIFY(std::isnan(m.maxOutputTokensPerS));
        QCOMPARE(m.maxConcurrentRequests, kUnknownCount);
        QCOMPARE(step.records.size(), std::size_t(10));
        QVERIFY(std::isinf(step.setup.requestRate));
        QCOMPARE(step.setup.modelId, QStringLiteral("meta-llama/Meta-Llama-3-8B-Instruct"));

        // The summary block says what is unknown and what was derived.
        const QByteArray summary = StepSummary::text(step.setup, m);
        QVERIFY2(
            summary.contains("Peak output token throughput (tok/s):    \xe2\x80\x94         \n"), summary.constData());
        QVERIFY2(
            summary.contains("Peak concurrent requests:                \xe2\x80\x94         \n"), summary.constData());
        QVERIFY2(summary.contains("Failed requests:                         0 (derived)\n"), summary.constData());
        QVERIFY(summary.contains("Total token throughput (tok/s):          386.84 (derived)\n"));

        // Written and read back: null in the step file, still unknown, still marked.
        QTemporaryDir tmp;
        const ImportResult result = importRun({ path }, tmp.path());
        QVERIFY2(result.ok(), qPrintable(result.error));
        const SavedRunRead saved = readSavedRun(result.dir);
        QVERIFY2(saved.ok(), qPrintable(saved.error));
        const StepMetrics& back = saved.run->steps.front().metrics;
        QVERIFY(std::isnan(back.maxOutputTokensPerS));
        QCOMPARE(back.maxConcurrentRequests, kUnknownCount);
        QVERIFY(back.isDerived(u"total_token_throughput"));
        QCOMPARE(back.e2el.mean, 2407.0737529546022);
        QVERIFY(std::isnan(back.tpot.max));
        QFile stepFile(saved.run->steps.front().resultPath);
        QVERIFY(stepFile.open(QIODevice::ReadOnly));
        const QJsonObject written = QJsonDocument::fromJson(stepFile.readAll()).object();
        QVERIFY(written.value(u"max_output_tokens_per_s").isNull());
        QVERIFY(written.value(u"max_concurrent_requests").isNull());
        // What the file says about its settings, and nothing else.
        const QJsonObject settings = saved.run->json.value(u"file_settings").toObject();
        QCOMPARE(settings.value(u"num_prompts").toInt(), 10);
        QCOMPARE(settings.value(u"backend").toString(), QStringLiteral("vllm"));
        QVERIFY(!settings.contains(u"burstiness"));
        QVERIFY(!settings.contains(u"max_concurrency"));
    }

    void realVllm05()
    {
        const QString path = importData(QStringLiteral("real/vllm/0.5/Mistral-7B-Instruct-v0.3_tp1_len2000.json"));
        const ImportContents read = readImport({ path });
        QVERIFY2(read.ok(), qPrintable(read.error));
        QCOMPARE(read.curves.size(), std::size_t(1));
        QCOMPARE(read.curves[0].source, QStringLiteral("vllm"));
        const StepMetrics& m = read.curves[0].steps.front().metrics;
        checkAgainstFile(jsonObjects(path).constFirst(), m, path);
        QCOMPARE(m.failed, 0);
        QVERIFY(m.isDerived(u"failed"));
        QCOMPARE(m.totalTokenThroughput, double(1585 + 2478) / 12.153742963448167);
        QVERIFY(std::isnan(m.e2el.mean));
        QVERIFY(!m.options.isSelected(LatencyMetric::E2el));
    }

    void realVllmBenchSweep()
    {
        const QString top = importData(QStringLiteral("real/vllm/0.25-bench-sweep"));
        const ImportContents read = readImport({ top });
        QVERIFY2(read.ok(), qPrintable(read.error));
        // Two server settings, never one curve; each one load with its two runs as repeats (summary.json
        // repeats them and adds nothing).
        QCOMPARE(read.curves.size(), std::size_t(2));
        QStringList names;
        for (const ImportedCurve& c : read.curves) {
            names << c.name;
            QCOMPARE(c.axis, LoadMode::Concurrency);
            QCOMPARE(c.steps.size(), std::size_t(2));
            QCOMPARE(c.steps[0].offered, 2.0);
            QCOMPARE(c.steps[1].offered, 2.0);
            QCOMPARE(c.steps[0].repeat, 0);
            QCOMPARE(c.steps[1].repeat, 1);
            for (const ImportedFileStep& s : c.steps) {
                QVERIFY(s.sourceFile.endsWith(QStringLiteral("run=%1.json").arg(s.repeat)));
                checkAgainstFile(jsonObjects(s.sourceFile).constFirst(), s.metrics, s.sourceFile);
                QVERIFY(!s.metrics.requestGoodput); // null in the file
                // Only the mean concurrency (Little's law: the E2EL sum over the duration) was not in it.
                QCOMPARE(s.metrics.derived, std::vector<QString> { QStringLiteral("concurrency") });
                QCOMPARE(s.metrics.meanConcurrency,
                    s.metrics.e2el.mean * double(s.metrics.completed) / 1000.0 / s.metrics.durationS);
            }
        }
        QCOMPARE(names,
            (QStringList { QStringLiteral("0.25-bench-sweep (max_num_seqs=4)"),
                QStringLiteral("0.25-bench-sweep (max_num_seqs=8)") }));
        QVERIFY(read.difference().contains(QStringLiteral("max_num_seqs=4")));
        // As the file has it, however odd: 6 concurrent requests under a limit of 2.
        QCOMPARE(read.curves[0].steps[0].metrics.maxConcurrentRequests, 6);

        // Written as two runs of one import group, which the analysis sees as one load with two repeats.
        QTemporaryDir tmp;
        const ImportResult result = importRun({ top }, tmp.path());
        QVERIFY2(result.ok(), qPrintable(result.error));
        QCOMPARE(result.dirs.size(), 2);
        QCOMPARE(result.stepCount, 4);
        const SavedRunRead first = readSavedRun(result.dirs[0]);
        const SavedRunRead second = readSavedRun(result.dirs[1]);
        QVERIFY(first.ok() && second.ok());
        QCOMPARE(first.run->json.value(u"import_group").toString(), second.run->json.value(u"import_group").toString());
        QCOMPARE(first.run->json.value(u"import_identity").toObject().value(u"max_num_seqs").toString(),
            QStringLiteral("4"));
        const QJsonArray entries = first.run->json.value(u"steps").toArray();
        QCOMPARE(entries.at(1).toObject().value(u"repeat").toInt(), 1);
    }

    void realSglangOld()
    {
        const QString path = importData(QStringLiteral("real/sglang/old/llama_3_3_70b_online_output.jsonl"));
        const ImportContents read = readImport({ path });
        QVERIFY2(read.ok(), qPrintable(read.error));
        // Two datasets in one file: two workloads, two curves (rates 4 and 8 occur in both).
        QCOMPARE(read.curves.size(), std::size_t(2));
        QCOMPARE(read.curves[0].source, QStringLiteral("sglang"));
        QCOMPARE(read.curves[0].steps.size(), std::size_t(5));
        QCOMPARE(read.curves[1].steps.size(), std::size_t(2));
        const QList<QJsonObject> lines = jsonObjects(path);
        QCOMPARE(lines.size(), 7);
        for (const ImportedCurve& c : read.curves) {
            for (const ImportedFileStep& s : c.steps) {
                const QJsonObject* line = nullptr;
                for (const QJsonObject& l : lines) {
                    if (l.value(u"dataset_name").toString() == c.identity.back().second
                        && l.value(u"request_rate").toDouble() == s.offered)
                        line = &l;
                }
                QVERIFY(line);
                const StepMetrics& m = s.metrics;
                checkAgainstFile(*line, m, path);
                // No request_throughput in the file: completed / duration, marked derived.
                QCOMPARE(
                    m.requestThroughput, line->value(u"completed").toDouble() / line->value(u"duration").toDouble());
                QVERIFY(m.isDerived(u"request_throughput"));
                // Neither failed nor num_prompts: the failures are unknown, not 0.
                QCOMPARE(m.failed, kUnknownCount);
                QVERIFY(std::isnan(m.ttft.mean));
                QVERIFY(!m.ttft.percentile(99));
                QCOMPARE(m.ttft.median, line->value(u"median_ttft_ms").toDouble());
            }
        }
        // The analysis of one workload finds throughput, not the "0 req/s" a zero would give.
        const std::vector<ImportedFileStep>& random = read.curves[0].steps;
        std::vector<SweepPoint> points;
        for (const ImportedFileStep& s : random)
            points.push_back(SweepPoint::fromStep(s.setup, s.metrics));
        const AnalysisResult a = KneeAnalysis::analyze(points, AnalysisOptions {});
        QVERIFY(a.peakStep >= 0);
        QCOMPARE(a.peakThroughput, 3200.0 / 383.073250005953);
        // The file keeps the median TTFT only: the knee is found on it, and the analysis says so.
        QCOMPARE(a.options.percentile, 50.0);
        QVERIFY2(a.knee.found, qPrintable(a.knee.reason.text()));
        QCOMPARE(a.knee.offered, 4.0); // 106 ms, before 191 ms at 8 req/s and 614 ms at 16
        QVERIFY(std::any_of(a.notes.begin(), a.notes.end(), [](const Sentence& n) {
            return n.text()
                == QStringLiteral("No step reports P99 TTFT; the latency curve is P50 TTFT, the highest "
                                  "percentile they report.");
        }));
        for (const QString& line : analysisLines(a))
            QVERIFY2(!line.contains(QStringLiteral(" 0 req/s")) && !line.contains(QStringLiteral("-9223")),
                qPrintable(line));
    }

    void realGuidellm05()
    {
        const QString path
            = importData(QStringLiteral("real/guidellm/0.5/Qwen_Qwen3-4B-Thinking-2507_tp4_quant-fp8_benchmarks.json"));
        const ImportContents read = readImport({ path });
        QVERIFY2(read.ok(), qPrintable(read.error));
        QCOMPARE(read.curves.size(), std::size_t(1));
        QCOMPARE(read.curves[0].source, QStringLiteral("guidellm"));
        QCOMPARE(read.curves[0].steps.size(), std::size_t(1));
        const StepMetrics& m = read.curves[0].steps[0].metrics;
        const QJsonObject b = jsonObjects(path).constFirst().value(u"benchmarks").toArray().first().toObject();
        const QJsonObject metrics = b.value(u"metrics").toObject();
        const auto successful = [&](const char* key, const char* field) {
            return metrics.value(QLatin1String(key))
                .toObject()
                .value(u"successful")
                .toObject()
                .value(QLatin1String(field));
        };
        QCOMPARE(m.ttft.mean, successful("time_to_first_token_ms", "mean").toDouble());
        QCOMPARE(m.ttft.median, successful("time_to_first_token_ms", "median").toDouble());
        QCOMPARE(m.e2el.mean, successful("request_latency", "mean").toDouble() * 1000);
        QCOMPARE(m.requestThroughput, successful("requests_per_second", "mean").toDouble());
        QCOMPARE(m.outputThroughput, successful("output_tokens_per_second", "mean").toDouble());
        // GuideLLM has no per-second peak: unknown, not 0.
        QVERIFY(std::isnan(m.maxOutputTokensPerS));
        // No "openai" backend it never named.
        QVERIFY(read.curves[0].steps[0].setup.backend != QLatin1String("openai"));
    }

    // GuideLLM 0.5's latencies, each from its own key: ITL as stated, TPOT derived from the same per-request
    // formula and marked; time_per_output_token_ms (TTFT included) is no TPOT and is not read.
    void realGuidellm05Latencies()
    {
        const QString path
            = importData(QStringLiteral("real/guidellm/0.5/Qwen_Qwen3-4B-Thinking-2507_tp4_quant-fp8_benchmarks.json"));
        const ImportContents read = readImport({ path });
        QVERIFY2(read.ok(), qPrintable(read.error));
        const ImportedFileStep& step = read.curves[0].steps[0];
        const StepMetrics& m = step.metrics;
        QCOMPARE(m.itl.mean, 24.17877651496134);
        QCOMPARE(m.itl.median, 24.178653868062757);
        QCOMPARE(m.itl.percentile(99), std::optional<double>(24.178931207367867));
        QCOMPARE(m.itl.count, 4092);
        QVERIFY(!m.isDerived(u"itl"));
        QCOMPARE(m.tpot, m.itl);
        QCOMPARE(m.derived, (std::vector<QString> { QStringLiteral("tpot"), QStringLiteral("date") }));
        // (TTFT + 1023 ITL) / 1024 tokens: the file's time_per_output_token_ms counts from the request's start.
        QVERIFY(m.tpot.mean != 24.32290418073535);
        QCOMPARE(m.ttft.mean, 171.7655062675476);
        QCOMPARE(m.completed, 4);
        QCOMPARE(m.failed, 0);
        // Settings: the strategy states no burstiness and no rate; the end of the benchmark is its date.
        QCOMPARE(step.mode, LoadMode::Concurrency);
        QCOMPARE(step.offered, 4.0);
        QCOMPARE(step.setup.maxConcurrency, std::optional<int>(4));
        QVERIFY(std::isnan(step.setup.burstiness));
        QVERIFY(std::isnan(step.setup.requestRate));
        QCOMPARE(step.setup.numPrompts, kUnknownCount);
        QCOMPARE(step.setup.backend, QStringLiteral("openai_http"));
        QCOMPARE(step.setup.date, StepSetup::dateString(QDateTime::fromMSecsSinceEpoch(1772470721589)));
        QVERIFY(step.setup.metadata.empty());
        QCOMPARE(step.metrics.incompleteRequests, qint64(0));

        // The date is a real one when read back, and the unknown burstiness stays unknown.
        QTemporaryDir tmp;
        const ImportResult result = importRun({ path }, tmp.path());
        QVERIFY2(result.ok(), qPrintable(result.error));
        const SavedRunRead saved = readSavedRun(result.dir);
        QVERIFY2(saved.ok(), qPrintable(saved.error));
        QCOMPARE(saved.run->steps.front().setup.date, step.setup.date);
        QCOMPARE(QDateTime::fromString(step.setup.date, QStringLiteral("yyyyMMdd-HHmmss")),
            QDateTime::fromSecsSinceEpoch(1772470721));
        QVERIFY(std::isnan(saved.run->steps.front().setup.burstiness));
        QVERIFY(saved.run->steps.front().metrics.isDerived(u"tpot"));
        QVERIFY(!saved.run->json.value(u"file_settings").toObject().contains(u"burstiness"));
    }

    // GuideLLM 0.2 (args.strategy, run_stats, worker): the report GuideLLM's own tests keep, one synchronous
    // benchmark with one request still running when it ended.
    void realGuidellm02()
    {
        const QString path = importData(QStringLiteral("real/guidellm/0.2/benchmarks_stripped.json"));
        const ImportContents read = readImport({ path });
        QVERIFY2(read.ok(), qPrintable(read.error));
        QCOMPARE(read.warnings, QStringList());
        QCOMPARE(read.curves.size(), std::size_t(1));
        const ImportedCurve& curve = read.curves[0];
        QCOMPARE(curve.source, QStringLiteral("guidellm"));
        QCOMPARE(curve.model, QStringLiteral("example_model"));
        QCOMPARE(curve.target, QStringLiteral("example_target"));
        QCOMPARE(curve.toolVersion, QString()); // no metadata in this generation
        QCOMPARE(curve.steps.size(), std::size_t(1));
        const ImportedFileStep& step = curve.steps[0];
        QCOMPARE(step.mode, LoadMode::Concurrency);
        QCOMPARE(step.offered, 1.0);
        QCOMPARE(step.setup.maxConcurrency, std::optional<int>(1));
        QVERIFY(std::isnan(step.setup.requestRate));
        QVERIFY(std::isnan(step.setup.burstiness));
        QCOMPARE(step.setup.numPrompts, kUnknownCount);
        QCOMPARE(step.setup.backend, QStringLiteral("openai_http"));
        QCOMPARE(step.setup.modelId, QStringLiteral("example_model"));
        QCOMPARE(step.setup.date, StepSetup::dateString(QDateTime::fromMSecsSinceEpoch(1749157198180)));
        QVERIFY(step.setup.metadata.empty());
        QCOMPARE(step.metrics.incompleteRequests, qint64(1));
        // The step's summary says so after the reference's lines (it is in none of them).
        QVERIFY(StepSummary::text(step.setup, step.metrics)
                    .contains("---------------Incomplete Requests----------------\n"
                              "Still running at the end:                1         \n"));

        const StepMetrics& m = step.metrics;
        QCOMPARE(m.durationS, 29.997201442718506);
        QCOMPARE(m.completed, 46);
        QCOMPARE(m.failed, 0);
        QCOMPARE(m.requestThroughput, 1.5481806532737452);
        QCOMPARE(m.outputThroughput, 198.13346751788123);
        QCOMPARE(m.totalTokenThroughput, 992.6867036588937);
        QCOMPARE(m.totalInputTokens, 11827);
        QCOMPARE(m.totalOutputTokens, 5888);
        QCOMPARE(m.meanConcurrency, 0.9977627456483604);
        QCOMPARE(m.maxConcurrentRequests, 1);
        QCOMPARE(m.ttft.mean, 16.792535781860348);
        QCOMPARE(m.ttft.median, 16.38054847717285);
        QCOMPARE(m.ttft.stddev, 1.1303385708366516);
        QCOMPARE(m.ttft.min, 15.790939331054688);
        QCOMPARE(m.ttft.max, 21.281957626342773);
        QCOMPARE(m.ttft.percentile(90), std::optional<double>(18.505334854125977));
        QCOMPARE(m.ttft.percentile(99), std::optional<double>(21.281957626342773));
        QCOMPARE(m.ttft.count, 46);
        QCOMPARE(m.itl.mean, 4.941609043733832);
        QCOMPARE(m.itl.median, 4.9241227427805505);
        QCOMPARE(m.itl.percentile(99), std::optional<double>(5.258346167136365));
        QCOMPARE(m.tpot, m.itl);
        QCOMPARE(m.derived, (std::vector<QString> { QStringLiteral("tpot"), QStringLiteral("date") }));
        QVERIFY(m.tpot.mean != 4.90300272307966); // time_per_output_token_ms: divided by all 128 tokens
        QCOMPARE(m.e2el.mean, 0.6444743664368339 * 1000);
        QCOMPARE(m.e2el.percentile(99), std::optional<double>(0.6891846656799316 * 1000));
        // Not in the file: unknown, never 0.
        QCOMPARE(m.firstContentTtft, LatencyStats::unknown());
        QCOMPARE(m.dispatchLag, LatencyStats::unknown());
        QVERIFY(std::isnan(m.maxOutputTokensPerS));
        QCOMPARE(m.requestGoodput, std::nullopt);
        QVERIFY(!m.options.hasSlos());
    }

    // A GuideLLM sweep's steps differ in their incomplete requests, which is a count, not a setting: they are
    // one curve. identityOf (importers.cpp) still takes every metadata key as a setting.
    void guidellmIncompleteCountsAreOneCurve()
    {
        QJsonObject report
            = QJsonDocument::fromJson(readFile(importData(QStringLiteral("guidellm-benchmarks.json")))).object();
        QJsonArray benchmarks = report.value(u"benchmarks").toArray();
        QJsonObject b = benchmarks[2].toObject();
        QJsonObject metrics = b.value(u"metrics").toObject();
        QJsonObject totals = metrics.value(u"request_totals").toObject();
        totals.insert(QStringLiteral("incomplete"), 5);
        metrics.insert(QStringLiteral("request_totals"), totals);
        b.insert(QStringLiteral("metrics"), metrics);
        benchmarks[2] = b;
        report.insert(QStringLiteral("benchmarks"), benchmarks);
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("benchmarks.json"));
        QVERIFY(writeText(path, QJsonDocument(report).toJson()));
        const ImportContents read = readImport({ path });
        QVERIFY2(read.ok(), qPrintable(read.error));
        std::size_t steps = 0;
        for (const ImportedCurve& c : read.curves)
            steps += c.steps.size();
        QCOMPARE(steps, std::size_t(4));
        QCOMPARE(read.curves.size(), std::size_t(1));
    }

    // AIPerf's SLOs: the three Kneepoint judges are kept, any other is named in a warning, never dropped
    // silently.
    void aiperfSlosTheRunCannotHold()
    {
        const QString real = importData(QStringLiteral("real/aiperf/0.11/concurrency_16/profile_export_aiperf.json"));
        QJsonObject file = QJsonDocument::fromJson(readFile(real)).object();
        QJsonObject config = file.value(u"input_config").toObject();
        QJsonObject slos = config.value(u"slos").toObject();
        slos.insert(QStringLiteral("request_latency"), 2000.0);
        slos.insert(QStringLiteral("output_token_throughput_per_user"), 600.0);
        config.insert(QStringLiteral("slos"), slos);
        file.insert(QStringLiteral("input_config"), config);
        importdetail::FileContents out;
        QString error;
        const QString path = QStringLiteral("/x/profile_export_aiperf.json");
        QVERIFY2(importdetail::readAiperfJson(path, file, out, &error), qPrintable(error));
        const MetricsOptions& o = out.steps.front().metrics.options;
        QCOMPARE(o.ttftSloMs, std::optional<double>(1500.0));
        QCOMPARE(o.tpotSloMs, std::optional<double>(300.0));
        QCOMPARE(o.e2elSloMs, std::optional<double>(2000.0));
        QCOMPARE(out.warnings,
            QStringList { path
                + QStringLiteral(": input_config.slos.output_token_throughput_per_user: an SLO on a figure "
                                 "Kneepoint's goodput does not judge (only time_to_first_token, "
                                 "inter_token_latency, request_latency), not kept") });
        QCOMPARE(out.steps.front().metrics.requestGoodput, std::optional<double>(6.814794988917071));
        QCOMPARE(out.steps.front().metrics.goodCompleted, 2044);

        // Without goodput and SLOs (AIPerf 0.10's file): both unknown, no warning.
        importdetail::FileContents plain;
        const QString c2 = importData(QStringLiteral("real/aiperf/0.10/c2/profile_export_aiperf.json"));
        QVERIFY2(importdetail::readAiperfJson(c2, QJsonDocument::fromJson(readFile(c2)).object(), plain, &error),
            qPrintable(error));
        QCOMPARE(plain.steps.front().metrics.requestGoodput, std::nullopt);
        QVERIFY(!plain.steps.front().metrics.options.hasSlos());
        QCOMPARE(plain.warnings, QStringList());
    }

    // Two folders of two models: two runs, each with its own model (not the last one read for both).
    void twoModelsAreTwoRuns()
    {
        const QString llama = QFINDTESTDATA("data/results/vllm-sweep");
        const QString opt = importData(QStringLiteral("real/vllm/0.25-bench-sweep/vllm_sweep_v0.25.1/"
                                                      "SERVE--max_num_seqs=8-BENCH--max_concurrency=2-num_prompts=8"));
        QTemporaryDir tmp;
        const ImportResult result = importRun({ llama, opt }, tmp.path());
        QVERIFY2(result.ok(), qPrintable(result.error));
        QCOMPARE(result.dirs.size(), 2);
        QVERIFY2(result.difference.contains(QStringLiteral("model=meta-llama/Llama-3.1-8B-Instruct"))
                && result.difference.contains(QStringLiteral("model=facebook/opt-125m")),
            qPrintable(result.difference));
        QCOMPARE(readSavedRun(result.dirs[0]).run->model(), QStringLiteral("meta-llama/Llama-3.1-8B-Instruct"));
        QCOMPARE(readSavedRun(result.dirs[0]).run->steps.size(), std::size_t(6));
        QCOMPARE(readSavedRun(result.dirs[1]).run->model(), QStringLiteral("facebook/opt-125m"));
        QCOMPARE(readSavedRun(result.dirs[1]).run->steps.size(), std::size_t(2));
    }

    // vLLM's --append-result with --metadata framework=...: one file, two servers at the same rates. The
    // file is put together here from a real run file, as --append-result appends one object per line.
    void appendedFrameworksAreTwoRuns()
    {
        const QString source
            = importData(QStringLiteral("real/vllm/0.25-bench-sweep/vllm_sweep_v0.25.1/"
                                        "SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8/run=0.json"));
        QJsonObject o = jsonObjects(source).constFirst();
        o.remove(QStringLiteral("max_num_seqs"));
        o.remove(QStringLiteral("run_number"));
        QTemporaryDir tmp;
        QFile out(tmp.filePath(QStringLiteral("append.jsonl")));
        QVERIFY(out.open(QIODevice::WriteOnly));
        for (const char* framework : { "vllm", "sgl" }) {
            o.insert(QStringLiteral("framework"), QLatin1String(framework));
            out.write(QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n');
        }
        out.close();
        const ImportContents read = readImport({ out.fileName() });
        QVERIFY2(read.ok(), qPrintable(read.error));
        QCOMPARE(read.curves.size(), std::size_t(2));
        QCOMPARE(read.curves[0].name, QStringLiteral("append (framework=vllm)"));
        QCOMPARE(read.curves[1].name, QStringLiteral("append (framework=sgl)"));
        QCOMPARE(read.curves[0].steps.size(), std::size_t(1));
    }

    // writeFileAtomically renames over a regular file only: a FIFO and a device are written in place
    // (their write errors reported, naming them), a folder is refused; none is replaced by a file.
    void atomicWriteKeepsSpecialFiles()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const auto typeOf = &HeldFifo::typeOf;
        QString error;

        // A FIFO, held open here for reading and writing so that the writer's open does not wait.
        const QString fifo = tmp.filePath(QStringLiteral("out.csv"));
        auto held = std::make_unique<HeldFifo>(fifo);
        QVERIFY(held->ok());
        const bool wrote = writeFileAtomically(fifo, "a,b\n1,2\n", &error);
        const QByteArray read = held->drain();
        held.reset();
        QVERIFY2(wrote, qPrintable(error));
        QCOMPARE(read, QByteArray("a,b\n1,2\n"));
        QCOMPARE(typeOf(fifo), mode_t(S_IFIFO));

        // A folder is named, not written into.
        const QString folder = tmp.filePath(QStringLiteral("folder"));
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(!writeFileAtomically(folder, "x", &error));
        QCOMPARE(error, folder + QStringLiteral(": is a folder, not a file"));
        QCOMPARE(typeOf(folder), mode_t(S_IFDIR));

        // A regular file is still replaced whole.
        const QString plain = tmp.filePath(QStringLiteral("plain.csv"));
        QVERIFY2(writeFileAtomically(plain, "old, longer\n", &error), qPrintable(error));
        QVERIFY2(writeFileAtomically(plain, "new\n", &error), qPrintable(error));
        QCOMPARE(readFile(plain), QByteArray("new\n"));

        // A full device: /dev/full for a user; for root (who could replace /dev/full itself) a node of
        // the same device in the temporary folder.
        QString full = QStringLiteral("/dev/full");
        if (::geteuid() == 0) {
            full = tmp.filePath(QStringLiteral("full"));
            if (::mknod(QFile::encodeName(full).constData(), S_IFCHR | 0666, makedev(1, 7)) != 0)
                QSKIP("no device node can be made here (mknod), and /dev/full is not written as root");
        }
        if (typeOf(full) != mode_t(S_IFCHR) || ::access(QFile::encodeName(full).constData(), W_OK) != 0)
            QSKIP("no writable /dev/full here");
        QVERIFY(!writeFileAtomically(full, QByteArray(100000, 'x'), &error));
        QVERIFY2(error.startsWith(full + QStringLiteral(": cannot write: ")), qPrintable(error));
        QVERIFY2(error.contains(QString::fromLocal8Bit(std::strerror(ENOSPC))), qPrintable(error));
        QCOMPARE(typeOf(full), mode_t(S_IFCHR));
    }

    // One wrong time in a step's records (1e9 s) costs one record, not a second for every second up
    // to it: the timeline ends at the step's duration and the drain's margin, at most a day.
    void timelineBoundedByStepTime()
    {
        RequestRecord ok;
        ok.index = 0;
        ok.scheduledNs = ok.sentNs = 100'000'000;
        ok.firstTokenNs = 300'000'000;
        ok.chunkNs = { 300'000'000, 1'200'000'000 };
        ok.lastTokenNs = ok.endNs = 1'200'000'000;
        ok.httpStatus = 200;
        ok.outputTokens = 2;
        RequestRecord late = ok;
        late.index = 1;
        late.lastTokenNs = late.endNs = 1'000'000'000LL * 1'000'000'000LL; // 1e9 s
        RequestRecord lateChunk = ok;
        lateChunk.index = 2;
        lateChunk.chunkNs = { 300'000'000, 5'000'000'000'000'000LL, 1'200'000'000 }; // out of order, 5e9 s
        ServerSample lateScrape;
        lateScrape.atS = 1e8;
        lateScrape.running = 3;

        const StepTimeline t = StepTimeline::compute({ ok, late, lateChunk }, { lateScrape }, 2.0);
        QCOMPARE(t.seconds.size(), std::size_t(2));
        QCOMPARE(t.recordsOutside, 2);
        QCOMPARE(t.samplesOutside, 1);
        QCOMPARE(t.seconds[0].offered, 1);
        QCOMPARE(t.seconds[1].completed, 1);
        QCOMPARE(
            t.leftOutNotes(QStringLiteral("steps/000.requests.jsonl"), QStringLiteral("steps/000.metrics.jsonl"), 2.0),
            QStringList({ QStringLiteral("steps/000.requests.jsonl: 2 records with a time past 62 s into the step (its "
                                         "duration, 60 s for the drain, at most a day) left out of the timeline"),
                QStringLiteral(
                    "steps/000.metrics.jsonl: 1 scrape with a time past 62 s into the step (its duration, 60 "
                    "s for the drain, at most a day) left out of the timeline") }));
        // Without a duration: at most a day.
        const StepTimeline unknown = StepTimeline::compute({ ok, late }, {});
        QCOMPARE(unknown.seconds.size(), std::size_t(2));
        QCOMPARE(unknown.recordsOutside, 1);
        QCOMPARE(StepTimeline::boundNs(0), 86400LL * 1'000'000'000LL);
        QCOMPARE(StepTimeline::boundNs(std::numeric_limits<double>::quiet_NaN()), 86400LL * 1'000'000'000LL);
        QCOMPARE(StepTimeline::boundNs(1e9), 86400LL * 1'000'000'000LL);
        // A request still draining within the margin stays.
        RequestRecord draining = ok;
        draining.index = 3;
        draining.lastTokenNs = draining.endNs = 61'500'000'000;
        draining.chunkNs = { 300'000'000, 61'500'000'000 };
        const StepTimeline drained = StepTimeline::compute({ ok, draining }, {}, 2.0);
        QCOMPARE(drained.recordsOutside, 0);
        QCOMPARE(drained.seconds.size(), std::size_t(62));
        QVERIFY(drained.leftOutNotes(QStringLiteral("a"), QStringLiteral("b"), 2.0).isEmpty());
    }

    // requests.jsonl: a bad line is the error for a reader that must not lose a request (a merge), and
    // is skipped and named (file and line) for one that shows what it can (timeline, report, twin).
    void requestRecordsSkipBadLines()
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("000.requests.jsonl"));
        RequestRecord r;
        r.index = 0;
        r.scheduledNs = r.sentNs = 1'000'000;
        r.firstTokenNs = 2'000'000;
        r.lastTokenNs = r.endNs = 3'000'000;
        r.httpStatus = 200;
        RequestRecord r2 = r;
        r2.index = 1;
        QByteArray outOfRange = requestRecordToJson(r);
        outOfRange.replace("\"end\":0.003", "\"end\":1e10");
        QVERIFY(outOfRange.contains("1e10"));
        QVERIFY(writeText(path,
            requestRecordToJson(r) + "\nnot json at all\n" + outOfRange + '\n' + requestRecordToJson(r2)
                + "\n{\"index\":"));

        std::vector<RequestRecord> records;
        QString error;
        QVERIFY(!readRequestRecords(path, &records, &error));
        QVERIFY2(error.startsWith(path + QStringLiteral(":2: ")), qPrintable(error));

        QStringList skipped;
        error.clear();
        QVERIFY2(readRequestRecords(path, &records, &error, &skipped), qPrintable(error));
        QCOMPARE(records.size(), std::size_t(2));
        QCOMPARE(records[1].index, 1);
        QCOMPARE(skipped.size(), 2);
        QVERIFY2(skipped[0].startsWith(path + QStringLiteral(":2: ")), qPrintable(skipped[0]));
        QVERIFY2(skipped[0].endsWith(QStringLiteral("; the line is skipped")), qPrintable(skipped[0]));
        QCOMPARE(skipped[1], path + QStringLiteral(":3: end: 1e+10 s is out of range; the line is skipped"));

        // Many bad lines: the first ten named, the rest counted.
        QVERIFY(writeText(path, QByteArray("x\n").repeated(25) + requestRecordToJson(r) + '\n'));
        skipped.clear();
        QVERIFY(readRequestRecords(path, &records, &error, &skipped));
        QCOMPARE(records.size(), std::size_t(1));
        QCOMPARE(skipped.size(), 11);
        QCOMPARE(skipped.last(), path + QStringLiteral(": 15 more bad lines skipped"));
    }
};

QTEST_GUILESS_MAIN(TestRuns)
#include "tst_runs.moc"
