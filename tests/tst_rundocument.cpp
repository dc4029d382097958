// run.json as a RunDocument: the one writer and the one reader give back what was written, keep the
// keys they do not know, and name the file and the key of what is wrong.

#include "metrics/latencystats.h"
#include "store/rundocument.h"

#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <limits>

using namespace kp;
using namespace Qt::StringLiterals;

namespace {

// Every member set, so that each one's key is written and read back.
RunDocument everything()
{
    RunDocument d;
    d.status = u"finished"_s;
    d.source = u"twin"_s;
    d.predicted = true;
    RunPrediction prediction;
    prediction.twinFile = u"/tmp/twin.json"_s;
    prediction.sourceRuns = { u"20260130-141502-nightly"_s };
    prediction.overrides.insert(u"max_num_seqs"_s, u"128"_s);
    prediction.replicas = 3;
    d.prediction = prediction;
    d.name = u"Nightly"_s;
    d.tags = QStringList { u"a"_s, u"b"_s };
    d.notes = u"two lines\nof notes"_s;
    d.created = QDateTime::fromString(u"2026-01-30T14:15:02.125"_s, Qt::ISODateWithMs);
    d.updated = QDateTime::fromString(u"2026-01-30T14:20:00.000"_s, Qt::ISODateWithMs);
    d.importedFrom = QStringList { u"/data/a.json"_s };
    d.importGroup = u"import-20260130"_s;
    d.importIdentity = QJsonObject { { u"max_num_seqs"_s, 64 } };
    d.fileSettings = QJsonObject { { u"backend"_s, u"vllm"_s } };
    d.profile = QJsonObject { { u"schema"_s, u"kneepoint.profile/1"_s }, { u"name"_s, u"Nightly"_s } };
    d.environment = QJsonObject { { u"kneepoint_version"_s, u"0.1.0"_s },
        { u"server_reported"_s, QJsonObject { { u"version"_s, u"0.7"_s } } } };
    RunPlan plan;
    plan.kind = u"list"_s;
    RunPlannedStep rate;
    rate.mode = u"rate"_s;
    rate.load = QJsonValue(u"inf"_s);
    rate.purpose = u"coarse"_s;
    RunPlannedStep users;
    users.mode = u"concurrency"_s;
    users.load = QJsonValue(32);
    users.purpose = QString();
    plan.planned = std::vector<RunPlannedStep> { rate, users };
    plan.stoppedEarly = u"the error rate passed 5 %"_s;
    plan.extra.insert(u"a_later_key"_s, true);
    d.plan = plan;

    RunStepEntry s;
    s.index = 4;
    s.load = u"40 req/s"_s;
    s.mode = u"rate"_s;
    s.offered = QJsonValue(u"40"_s);
    s.purpose = u"refine"_s;
    s.file = u"004.json"_s;
    s.completed = 96;
    s.failed = kUnknownCount; // null in the file
    s.partial = true;
    s.clientBound = true;
    s.predicted = false;
    s.datasetSkipped = 3;
    s.dispatchLagP99Ms = 31.5;
    s.sent = 100;
    s.errorRate = 0.04;
    s.flags = QStringList { u"partial"_s, u"client-bound"_s };
    s.startUnixS = 1769782502.25;
    s.startLateS = 0.125;
    s.startSpreadS = 0.5;
    s.meetsSlo = false;
    s.server = QJsonObject { { u"engine"_s, u"vllm"_s } };
    s.servers = QJsonArray { QJsonObject { { u"engine"_s, u"vllm"_s } } };
    s.joulesPerOutputToken = 0.75;
    s.metricsFile = u"004.metrics.jsonl"_s;
    s.intervals = QJsonObject { { u"ttft_ms"_s, QJsonArray { 1.5, 2.5 } } };
    s.sourceFile = u"a.json"_s;
    s.sourcePath = u"/data/a.json"_s;
    s.repeat = 2;
    s.noTimeline = u"a.json does not say when each request was sent"_s;
    s.shards = std::vector<RunShardPart> { { 1, u"20 req/s"_s, 48, 2, false, true, 0.25, 30.5 } };
    s.extra.insert(u"a_later_key"_s, u"kept"_s);
    d.steps = { s, RunStepEntry {} };

    RunCurrentStep current;
    current.index = 5;
    current.mode = u"concurrency"_s;
    current.offered = QJsonValue(8);
    current.load = u"8 users"_s;
    current.purpose = u"coarse"_s;
    current.started = QDateTime::fromString(u"2026-01-30T14:19:00.500"_s, Qt::ISODateWithMs);
    d.currentStep = current;
    d.shard = QJsonObject { { u"index"_s, 1 }, { u"count"_s, 2 } };
    RunMergeInfo merged;
    merged.count = 2;
    merged.shards = { { 1, u"/runs/a"_s, u"finished"_s, 3, QJsonObject { { u"host"_s, u"a"_s } } } };
    merged.flags = QStringList { u"step 1: shard 2/2 stopped early (partial)"_s };
    d.merged = merged;
    d.extra.insert(u"a_later_key"_s, QJsonObject { { u"x"_s, 1 } });
    return d;
}

QByteArray runJson(const char* text)
{
    return QByteArray(text);
}

} // namespace

class TestRunDocument : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyMemberReadsBackEqual()
    {
        const RunDocument d = everything();
        const QByteArray bytes = d.toBytes();
        const RunDocumentRead read = parseRunDocument(bytes, u"run.json"_s);
        QVERIFY2(read.ok(), qPrintable(read.error));
        QVERIFY2(read.warnings.isEmpty(), qPrintable(read.warnings.join(u'\n')));
        QVERIFY(*read.document == d);
        QCOMPARE(read.document->toBytes(), bytes);
        // The format, and a count not known, as the file has them.
        const QJsonObject json = QJsonDocument::fromJson(bytes).object();
        QCOMPARE(json.value(u"format").toString(), u"kneepoint.run/1"_s);
        QVERIFY(json.value(u"steps").toArray().at(0).toObject().value(u"failed").isNull());
        QCOMPARE(json.value(u"steps").toArray().at(0).toObject().value(u"client_bound").toBool(), true);
    }

    void unsetMembersAreLeftOut()
    {
        RunDocument d;
        d.steps.push_back(RunStepEntry {});
        const QJsonObject json = d.toJson();
        QCOMPARE(json.keys(), (QStringList { u"format"_s, u"steps"_s }));
        QCOMPARE(json.value(u"steps").toArray().at(0).toObject().keys(), QStringList { u"index"_s });
        const RunDocumentRead read = parseRunDocument(d.toBytes(), u"run.json"_s);
        QVERIFY(read.ok());
        QVERIFY(*read.document == d);
    }

    void writtenAndReadFromTheFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"run.json"_s);
        const RunDocument d = everything();
        QString error;
        QVERIFY2(writeRunDocument(path, d, &error), qPrintable(error));
        const RunDocumentRead read = readRunDocument(path);
        QVERIFY2(read.ok(), qPrintable(read.error));
        QVERIFY(*read.document == d);
    }

    // A file of a later version: its keys come back as they were.
    void unknownKeysAreKept()
    {
        const QByteArray text = runJson(R"({"format": "kneepoint.run/1", "status": "finished", "later": [1, 2],
            "plan": {"kind": "list", "later": "p"},
            "steps": [{"index": 0, "later": {"x": true}}],
            "current_step": {"index": 1, "later": 3}})");
        const RunDocumentRead read = parseRunDocument(text, u"run.json"_s);
        QVERIFY2(read.ok(), qPrintable(read.error));
        QVERIFY2(read.warnings.isEmpty(), qPrintable(read.warnings.join(u'\n')));
        QCOMPARE(read.document->toJson(), QJsonDocument::fromJson(text).object());
    }

    void aNullNumberStaysNull()
    {
        const QByteArray text = runJson(R"({"format": "kneepoint.run/1", "steps": [{"index": 0,
            "dispatch_lag_p99_ms": null, "completed": null}]})");
        const RunDocumentRead read = parseRunDocument(text, u"run.json"_s);
        QVERIFY(read.ok());
        QVERIFY(read.warnings.isEmpty());
        QVERIFY(read.document->steps.at(0).completed == std::optional<qint64>(kUnknownCount));
        // NaN is never equal to itself: the bytes are compared.
        QCOMPARE(read.document->toBytes(), QJsonDocument::fromJson(text).toJson(QJsonDocument::Indented));
    }

    void notARunNamesTheFileAndTheKey_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("error");
        QTest::addRow("no format") << runJson(R"({"steps": []})")
                                   << u"/r/run.json: format: missing (expected \"kneepoint.run/1\")"_s;
        QTest::addRow("another format")
            << runJson(R"({"format": "kneepoint.run/9"})")
            << u"/r/run.json: format: \"kneepoint.run/9\" is not a run this version reads (kneepoint.run/1)"_s;
        QTest::addRow("steps not an array")
            << runJson(R"({"format": "kneepoint.run/1", "steps": {}})") << u"/r/run.json: steps: expected an array"_s;
        QTest::addRow("not an object") << runJson("[1]") << u"/r/run.json: $: expected an object"_s;
        QTest::addRow("cut short") << runJson(R"({"format": "kneepoint.run/1", )")
                                   << u"/r/run.json: invalid JSON at offset "_s;
    }
    void notARunNamesTheFileAndTheKey()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, error);
        const RunDocumentRead read = parseRunDocument(text, u"/r/run.json"_s);
        QVERIFY(!read.ok());
        QVERIFY2(read.error.startsWith(error), qPrintable(read.error));
    }

    // A value of the wrong type is named with its file and key, and left unset; the rest is read.
    void aWrongValueNamesTheFileAndTheKey()
    {
        const QByteArray text = runJson(R"({"format": "kneepoint.run/1", "status": 3, "tags": [1, "kept"],
            "updated": "yesterday", "profile": [],
            "plan": {"kind": "list", "planned": [{"mode": "rate", "load": true}]},
            "steps": [{"index": 0, "client_bound": "yes", "completed": "ten", "load": "10 req/s"}, 7,
                      {"index": 1.5, "flags": ["partial", 2]}]})");
        const RunDocumentRead read = parseRunDocument(text, u"/r/run.json"_s);
        QVERIFY2(read.ok(), qPrintable(read.error));
        const QStringList expected = {
            u"/r/run.json: status: expected a string"_s,
            u"/r/run.json: tags[0]: expected a string; left out"_s,
            u"/r/run.json: updated: \"yesterday\" is not a time such as 2026-01-30T14:15:02.000"_s,
            u"/r/run.json: profile: expected an object"_s,
            u"/r/run.json: plan.planned[0].load: expected a load (a rate's text or a number)"_s,
            u"/r/run.json: steps[0].completed: expected a count or null"_s,
            u"/r/run.json: steps[0].client_bound: expected true or false"_s,
            u"/r/run.json: steps[1]: expected an object"_s,
            u"/r/run.json: steps[2].index: expected a whole number"_s,
            u"/r/run.json: steps[2].flags[1]: expected a string; left out"_s,
        };
        QCOMPARE(read.warnings, expected);
        const RunDocument& d = *read.document;
        QVERIFY(!d.status);
        QVERIFY(d.tags == std::optional<QStringList>(QStringList { u"kept"_s }));
        QVERIFY(!d.updated.isValid());
        QVERIFY(!d.profile);
        QCOMPARE(d.steps.size(), std::size_t(2));
        QVERIFY(!d.steps[0].clientBound);
        QVERIFY(!d.steps[0].completed);
        QVERIFY(d.steps[0].load == std::optional<QString>(u"10 req/s"_s));
        QCOMPARE(d.steps[1].index, 2); // its place in the array
        QVERIFY(d.steps[1].flags == std::optional<QStringList>(QStringList { u"partial"_s }));
    }

    void aStepAloneIsReadAsInTheFile()
    {
        QStringList warnings;
        const RunStepEntry e = parseRunStepEntry(
            QJsonObject { { u"load"_s, u"5 req/s"_s }, { u"partial"_s, 1 } }, 3, u"x: steps[3]"_s, &warnings);
        QCOMPARE(e.index, 3);
        QVERIFY(e.load == std::optional<QString>(u"5 req/s"_s));
        QCOMPARE(warnings, QStringList { u"x: steps[3].partial: expected true or false"_s });
    }
};

QTEST_GUILESS_MAIN(TestRunDocument)
#include "tst_rundocument.moc"
