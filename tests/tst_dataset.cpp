#include "client/tokenizeprepass.h"
#include "dataset/dataset.h"
#include "load/arrivalschedule.h"
#include "metrics/buckettable.h"
#include "metrics/resultjson.h"
#include "metrics/stepmetrics.h"
#include "metrics/stepsummary.h"
#include "profile/profilestore.h"
#include "sim/simhost.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

#include <limits>
#include <set>

using namespace kp;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(kp::ShareGptStats)
Q_DECLARE_METATYPE(kp::LengthShape)

namespace {

constexpr qint64 ms = 1'000'000;

QString fixture(const QString& name)
{
    return QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/datasets/") + name;
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

QByteArray words(int count, const char* word = "w")
{
    QByteArray out;
    for (int i = 0; i < count; ++i) {
        if (i > 0)
            out += ' ';
        out += word;
    }
    return out;
}

QByteArray conversation(int promptWords, int outputWords)
{
    return R"({"conversations": [{"from": "human", "value": ")" + words(promptWords, "p")
        + R"("}, {"from": "gpt", "value": ")" + words(outputWords, "o") + R"("}]})";
}

ShareGptOptions smallLimits()
{
    ShareGptOptions o;
    o.numPrompts = 100;
    o.filter.maxPromptLen = 10;
    o.filter.maxTotalLen = 16;
    return o;
}

std::multiset<QString> texts(const std::vector<Prompt>& prompts)
{
    std::multiset<QString> out;
    for (const Prompt& p : prompts)
        out.insert(p.text);
    return out;
}

// A completed request: sent at sentMs, first token at ttftMs later, one chunk per output token 10 ms apart.
RequestRecord completed(int promptTokens, qint64 sentMs, qint64 ttftMs, int outputTokens)
{
    RequestRecord r;
    r.scheduledNs = r.sentNs = sentMs * ms;
    for (int i = 0; i < outputTokens; ++i)
        r.chunkNs.push_back((sentMs + ttftMs + 10 * i) * ms);
    r.firstTokenNs = r.firstContentNs = r.chunkNs.front();
    r.lastTokenNs = r.endNs = r.chunkNs.back();
    r.promptTokens = promptTokens;
    r.outputTokens = outputTokens;
    r.outputTokensFromUsage = true;
    r.httpStatus = 200;
    return r;
}

std::size_t distinct(const std::vector<Prompt>& prompts)
{
    std::set<QString> out;
    for (const Prompt& p : prompts)
        out.insert(p.text);
    return out.size();
}

} // namespace

class TestDataset : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void wordCounts_data();
    void wordCounts();
    void shareGptFilterCounts_data();
    void shareGptFilterCounts();
    void shareGptDefaultLimits();
    void shareGptSampling();
    void shareGptOversampling();
    void shareGptProgress();
    void shareGptMalformed_data();
    void shareGptMalformed();
    void shareGptSkipsAMalformedConversation();
    void jsonlRefusesPromptAndMessages();
    void jsonlSkipsBadLines();
    void jsonlRefusesHugeOutputTokens();
    void lengthSpreadBeyondADouble();
    void jsonlStrict();
    void jsonlLineTooLong();
    void replayIsoTimestamps();
    void replayNumericTimestamps();
    void replayStrict();
    void replaySchedule();
    void replayScheduleAtRate();
    void sharedPrefix();
    void freshTextPerPosition();
    void promptPool();
    void lengthDistributionDraws_data();
    void lengthDistributionDraws();
    void lengthDistributionBands_data();
    void lengthDistributionBands();
    void lengthDistributionClamp();
    void lengthDistributionProfile();
    void workloadSources();
    void lengthBuckets();
    void lengthBucketsInResultJson();
    void perModelBreakdown();
    void lengthBucketTable();
    void tokenizeUrls();
    void tokenizePrePass();
    void tokenizeUnavailable();
    void tokenizeThroughProxy();
    void inputTokenSources();
    void profileFields();
    void shareGptMultiTurn();
    void shareGptMultiTurnFilters();
    void shareGptMultiTurnStrict();
    void jsonlConversations();
    void jsonlConversationsStrict();
    void randomSessions();
    void sessionsCoverNumPrompts();
    void mooncakeTrace();
    void mooncakeBadLines();
    void mooncakePromptText();
};

void TestDataset::wordCounts_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("count");
    QTest::addRow("empty") << QString() << 0;
    QTest::addRow("ascii") << u"  one two\tthree\nfour  "_s << 4;
    QTest::addRow("nbsp") << u"a\u00a0b"_s << 2;
    QTest::addRow("ideographic") << u"\u3000x\u3000y\u3000"_s << 2;
    QTest::addRow("em space, narrow nbsp, line separator") << u"a\u2003b\u202fc\u2028d\u205fe\u1680f"_s << 6;
    QTest::addRow("non-space multibyte") << u"caf\u00e9 \u2019quoted\u2019 \u4e2d\u6587 \U0001F600"_s << 4;
    QTest::addRow("next line") << u"x\u0085y"_s << 2;
}

void TestDataset::wordCounts()
{
    QFETCH(QString, text);
    QFETCH(int, count);
    QCOMPARE(countWords(text), count);
    const QByteArray utf8 = text.toUtf8();
    QCOMPARE(countWordsUtf8(std::string_view(utf8.constData(), std::size_t(utf8.size()))), count);
}

void TestDataset::shareGptFilterCounts_data()
{
    QTest::addColumn<bool>("enabled");
    QTest::addColumn<int>("maxPromptLen");
    QTest::addColumn<int>("maxTotalLen");
    QTest::addColumn<int>("fixedOutput");
    QTest::addColumn<ShareGptStats>("expected");
    QTest::addColumn<QStringList>("kept"); // ids are not read: the kept prompts' texts, sorted

    // 10 conversations: 3 without two turns; the rest decided by the limits.
    ShareGptStats small { 10, 3, 1, 1, 1, 1, 3, 0 };
    QTest::addRow("small limits") << true << 10 << 16 << 0 << small
                                  << QStringList { u"four words right here"_s, u"one two three four five"_s,
                                         u"tab\tnbsp\u00a0ideographic\u3000space words"_s };
    ShareGptStats defaults { 10, 3, 1, 1, 0, 0, 5, 0 };
    QTest::addRow("reference limits") << true << 1024 << 2048 << 0 << defaults
                                      << QStringList { u"four words right here"_s, u"one two three four five"_s,
                                             u"p1 p2 p3 p4 p5 p6 p7 p8"_s,
                                             u"tab\tnbsp\u00a0ideographic\u3000space words"_s,
                                             u"w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12"_s };
    // A fixed output length skips the minimum on the dataset's output (as the reference does).
    ShareGptStats fixed { 10, 3, 1, 0, 1, 0, 5, 0 };
    QTest::addRow("fixed output") << true << 10 << 16 << 3 << fixed
                                  << QStringList { u"four words right here"_s, u"one two three four five"_s,
                                         u"p1 p2 p3 p4 p5 p6 p7 p8"_s, u"say yes or no please"_s,
                                         u"tab\tnbsp\u00a0ideographic\u3000space words"_s };
    ShareGptStats off { 10, 3, 0, 0, 0, 0, 7, 0 };
    QTest::addRow("filters off") << false << 10 << 16 << 0 << off
                                 << QStringList { u"four words right here"_s, u"hi there"_s,
                                        u"one two three four five"_s, u"p1 p2 p3 p4 p5 p6 p7 p8"_s,
                                        u"say yes or no please"_s, u"tab\tnbsp\u00a0ideographic\u3000space words"_s,
                                        u"w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12"_s };
}

void TestDataset::shareGptFilterCounts()
{
    QFETCH(bool, enabled);
    QFETCH(int, maxPromptLen);
    QFETCH(int, maxTotalLen);
    QFETCH(int, fixedOutput);
    QFETCH(ShareGptStats, expected);
    QFETCH(QStringList, kept);
    ShareGptOptions o;
    o.numPrompts = int(expected.usable); // exactly the usable ones: no oversampling
    o.filter.enabled = enabled;
    o.filter.maxPromptLen = maxPromptLen;
    o.filter.maxTotalLen = maxTotalLen;
    o.fixedOutputTokens = fixedOutput;
    const QString path = fixture(u"sharegpt-small.json"_s);
    const DatasetResult r = loadShareGpt(path, o);
    QVERIFY2(r.ok(), qPrintable(r.error));
    expected.bytes = QFileInfo(path).size();
    QCOMPARE(r.shareGpt, expected);
    QStringList got;
    for (const Prompt& p : r.prompts)
        got << p.text;
    got.sort();
    QCOMPARE(got, kept);
    for (const Prompt& p : r.prompts) {
        QCOMPARE(p.promptTokens, countWords(p.text));
        if (fixedOutput > 0)
            QCOMPARE(p.outputTokens, fixedOutput);
        QCOMPARE(p.atNs, qint64(-1));
    }
    if (!enabled) {
        QCOMPARE(r.warnings,
            QStringList { path
                + u": 3 of 10 conversations dropped: 3 with fewer than two turns, 0 prompts too short, 0 outputs too short, 0 prompts too long, 0 too long in total"_s });
    }
}

void TestDataset::shareGptDefaultLimits()
{
    // The reference's limits at their boundaries: prompt 4..1024, output >= 4, total <= 2048.
    QTemporaryDir dir;
    const QByteArray json = "[" + conversation(1024, 1024) + "," + conversation(1025, 4) + ","
        + conversation(1024, 1025) + "," + conversation(4, 4) + "," + conversation(3, 100) + "," + conversation(100, 3)
        + "]";
    const QString path = writeFile(dir, u"limits.json"_s, json);
    ShareGptOptions o;
    o.numPrompts = 2;
    const DatasetResult r = loadShareGpt(path, o);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.shareGpt, (ShareGptStats { 6, 0, 1, 1, 1, 1, 2, json.size() }));
    QCOMPARE(r.prompts.size(), std::size_t(2));
    std::multiset<int> lengths;
    for (const Prompt& p : r.prompts)
        lengths.insert(p.promptTokens * 10000 + p.outputTokens);
    QCOMPARE(lengths, (std::multiset<int> { 4 * 10000 + 4, 1024 * 10000 + 1024 }));
}

void TestDataset::shareGptSampling()
{
    // 50 usable conversations; 20 are kept, the same ones in the same order for the same seed.
    QTemporaryDir dir;
    QByteArray json = "[";
    for (int i = 0; i < 50; ++i)
        json += (i ? "," : "") + conversation(4 + i, 10);
    json += "]";
    const QString path = writeFile(dir, u"fifty.json"_s, json);
    ShareGptOptions o;
    o.numPrompts = 20;
    o.seed = 7;
    const DatasetResult a = loadShareGpt(path, o);
    const DatasetResult b = loadShareGpt(path, o);
    QVERIFY(a.ok());
    QCOMPARE(a.prompts.size(), std::size_t(20));
    QCOMPARE(distinct(a.prompts), std::size_t(20));
    std::vector<int> orderA;
    std::vector<int> orderB;
    for (const Prompt& p : a.prompts)
        orderA.push_back(p.promptTokens);
    for (const Prompt& p : b.prompts)
        orderB.push_back(p.promptTokens);
    QCOMPARE(orderA, orderB);
    QVERIFY(!std::is_sorted(orderA.begin(), orderA.end())); // shuffled, not file order
    QVERIFY(a.warnings.isEmpty());

    o.seed = 8;
    const DatasetResult c = loadShareGpt(path, o);
    std::vector<int> orderC;
    for (const Prompt& p : c.prompts)
        orderC.push_back(p.promptTokens);
    QVERIFY(orderC != orderA);

    // The kept set is a prefix of the same shuffle: asking for more keeps the first 20 in front.
    o.seed = 7;
    o.numPrompts = 30;
    const DatasetResult d = loadShareGpt(path, o);
    std::vector<int> orderD;
    for (const Prompt& p : d.prompts)
        orderD.push_back(p.promptTokens);
    QCOMPARE(std::vector<int>(orderD.begin(), orderD.begin() + 20), orderA);
}

void TestDataset::shareGptOversampling()
{
    ShareGptOptions o = smallLimits();
    o.numPrompts = 8;
    const QString path = fixture(u"sharegpt-small.json"_s);
    const DatasetResult r = loadShareGpt(path, o);
    QVERIFY(r.ok());
    QCOMPARE(r.prompts.size(), std::size_t(8));
    QCOMPARE(distinct(r.prompts), std::size_t(3));
    QCOMPARE(r.warnings.size(), 2);
    QCOMPARE(r.warnings.at(1), path + u": 3 usable conversations for 8 requests: oversampled"_s);
    const DatasetResult again = loadShareGpt(path, o);
    QCOMPARE(texts(again.prompts), texts(r.prompts));
}

void TestDataset::shareGptProgress()
{
    QTemporaryDir dir;
    // About 20 MB: several progress calls, the last at the end of the file.
    QByteArray json = "[";
    const QByteArray one = conversation(300, 300);
    const int count = int(20'000'000 / one.size());
    json.reserve(qsizetype(count) * (one.size() + 1) + 2);
    for (int i = 0; i < count; ++i)
        json += (i ? "," : "") + one;
    json += "]";
    const QString path = writeFile(dir, u"big.json"_s, json);
    std::vector<std::pair<qint64, qint64>> calls;
    ShareGptOptions o;
    o.numPrompts = 10;
    o.progress = [&calls](qint64 done, qint64 total) { calls.emplace_back(done, total); };
    const DatasetResult r = loadShareGpt(path, o);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.shareGpt.conversations, qint64(count));
    QCOMPARE(r.shareGpt.usable, qint64(count));
    QVERIFY(calls.size() >= 3);
    QCOMPARE(calls.back(), std::make_pair(qint64(json.size()), qint64(json.size())));
    for (std::size_t i = 1; i < calls.size(); ++i)
        QVERIFY(calls[i].first >= calls[i - 1].first);
}

void TestDataset::shareGptMalformed_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message"); // after "FILE: "
    QTest::addRow("truncated")
        << QByteArray(R"([{"conversations": [{"from": "human", "value": "abc)")
        << u"byte 52: parse error at line 1, column 52: syntax error while parsing value - invalid string: missing closing quote; last read: '\"abc'"_s;
    QTest::addRow("trailing comma")
        << QByteArray("[\n" + conversation(4, 4) + ",\n]")
        << u"byte 100: parse error at line 3, column 1: syntax error while parsing value - unexpected ']'; expected '[', '{', or a literal"_s;
    QTest::addRow("object at the top") << QByteArray(R"({"conversations": []})")
                                       << u"byte 1: expected a JSON array of conversations, found an object"_s;
    QTest::addRow("number entry") << QByteArray("[" + conversation(4, 4) + ", 17]")
                                  << u"byte 101: expected conversation 1 to be an object, found a number"_s;
    QTest::addRow("conversations not an array")
        << QByteArray(R"([{"conversations": "hello"}])")
        << u"byte 26: expected \"conversations\" of conversation 0 to be an array, found a string"_s;
    QTest::addRow("turn not an object")
        << QByteArray(R"([{"conversations": ["hello"]}])")
        << u"byte 27: expected turn 0 of conversation 0 to be an object, found a string"_s;
    QTest::addRow("value not a string")
        << QByteArray(R"([{"conversations": [{"from": "human", "value": null}]}])")
        << u"byte 51: expected \"value\" of turn 0 of conversation 0 to be a string, found null"_s;
    QTest::addRow("empty file")
        << QByteArray()
        << u"byte 1: parse error at line 1, column 1: syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal"_s;
}

void TestDataset::shareGptMalformed()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString path = writeFile(dir, u"bad.json"_s, bytes);
    ShareGptOptions strict;
    strict.strict = true;
    const DatasetResult r = loadShareGpt(path, strict);
    QCOMPARE(r.error, path + u": "_s + message);
    QVERIFY(r.prompts.empty());

    const DatasetResult missing = loadShareGpt(dir.filePath(u"missing.json"_s), ShareGptOptions {});
    QCOMPARE(missing.error, dir.filePath(u"missing.json"_s) + u": cannot open: No such file or directory"_s);
}

// One conversation with a value of the wrong type is skipped and named (bad_lines: skip), the rest read;
// strict, it ends the read as before. Single-turn and multi-turn alike.
void TestDataset::shareGptSkipsAMalformedConversation()
{
    QTemporaryDir dir;
    const QByteArray bad = R"({"conversations": [{"from": "human", "value": null}, {"from": "gpt", "value": "x"}]})";
    const QByteArray file = "[" + conversation(4, 4) + ", " + bad + ", 17, " + conversation(5, 5) + "]";
    const QString path = writeFile(dir, u"one-bad.json"_s, file);
    const qint64 badEnd = file.indexOf(bad) + bad.size();
    for (const bool multiTurn : { false, true }) {
        ShareGptOptions o;
        o.numPrompts = 2;
        o.multiTurn = multiTurn;
        const DatasetResult r = loadShareGpt(path, o);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(multiTurn ? r.sessions.size() : r.prompts.size(), std::size_t(2));
        QCOMPARE(r.badLines, qint64(2));
        QCOMPARE(r.shareGpt.badConversations, qint64(2));
        QVERIFY2(r.warnings.contains(path
                     + u": conversation 1 (ending at byte %1): expected \"value\" of turn 0 of "
                       "conversation 1 to be a string, found null"_s.arg(badEnd)),
            qPrintable(r.warnings.join(u'\n')));
        QVERIFY2(r.warnings.contains(path
                     + u": conversation 2 (ending at byte %1): expected conversation 2 to be an "
                       "object, found a number"_s.arg(file.indexOf(", 17") + 5)),
            qPrintable(r.warnings.join(u'\n')));
        o.strict = true;
        QCOMPARE(loadShareGpt(path, o).error,
            path
                + u": byte %1: expected \"value\" of turn 0 of conversation 1 to be a string, found null"_s.arg(
                    file.indexOf("null") + 4));
    }
}

// A line with both "prompt" and "messages" is refused by name, not read as its prompt alone.
void TestDataset::jsonlRefusesPromptAndMessages()
{
    QTemporaryDir dir;
    const QString path = writeFile(dir, u"both.jsonl"_s,
        "{\"prompt\": \"one two\"}\n"
        "{\"prompt\": \"three\", \"messages\": [{\"role\": \"user\", \"content\": \"four five\"}]}\n");
    const QString refused = path + u":2: has both \"prompt\" and \"messages\": keep one of them"_s;
    DatasetResult r = loadJsonl(path, 8, false);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.prompts.size(), std::size_t(1));
    QCOMPARE(r.warnings.first(), refused);
    QCOMPARE(loadJsonl(path, 8, true).error, refused);
    r = loadJsonlConversations(path, 8, 0, false);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.sessions.size(), std::size_t(1));
    QCOMPARE(r.warnings.first(), refused);
}

// An output_tokens beyond an int would wrap to a max_tokens of 0 and every request would fail: refused,
// naming the line, in the prompt and the conversation readers alike.
void TestDataset::jsonlRefusesHugeOutputTokens()
{
    QTemporaryDir dir;
    const QString path = writeFile(dir, u"huge.jsonl"_s,
        "{\"prompt\": \"ok then\", \"output_tokens\": 10000000}\n"
        "{\"prompt\": \"two to the 31\", \"output_tokens\": 2147483648}\n"
        "{\"prompt\": \"very large\", \"output_tokens\": 1e300}\n");
    const DatasetResult r = loadJsonl(path, 32, false);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.prompts.size(), std::size_t(1));
    QCOMPARE(r.prompts[0].outputTokens, 10000000);
    QCOMPARE(r.warnings,
        (QStringList { path + u":2: \"output_tokens\" must be a whole number from 1 to 10000000"_s,
            path + u":3: \"output_tokens\" must be a whole number from 1 to 10000000"_s,
            path + u": skipped 2 of 3 lines"_s }));
    const DatasetResult strict = loadJsonl(path, 32, true);
    QCOMPARE(strict.error, path + u":2: \"output_tokens\" must be a whole number from 1 to 10000000"_s);
}

void TestDataset::jsonlSkipsBadLines()
{
    const QString path = fixture(u"custom.jsonl"_s);
    const DatasetResult r = loadJsonl(path, 32, false);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.badLines, qint64(5));
    QCOMPARE(r.warnings,
        (QStringList { path + u":4: not JSON (illegal value at column 2)"_s,
            path + u":5: needs a string \"prompt\" or a \"messages\" array"_s, path + u":6: not a JSON object"_s,
            path + u":7: \"output_tokens\" must be a whole number from 1 to 10000000"_s, path + u":8: empty prompt"_s,
            path + u": skipped 5 of 9 lines"_s }));
    QCOMPARE(r.prompts.size(), std::size_t(3));
    QCOMPARE(r.prompts[0].text, u"Explain the water cycle"_s);
    QCOMPARE(r.prompts[0].promptTokens, 4);
    QCOMPARE(r.prompts[0].outputTokens, 48);
    QCOMPARE(r.prompts[1].text, u"Be brief.\nName three rivers"_s);
    QCOMPARE(r.prompts[1].promptTokens, 5);
    QCOMPARE(r.prompts[1].outputTokens, 32);
    QCOMPARE(r.prompts[2].outputTokens, 7);
}

// A line past the limit ends the read with its number, in either mode: it may never end (a file with
// no newline, /dev/zero).
void TestDataset::jsonlLineTooLong()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"long.jsonl"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\"prompt\": \"fine\"}\n");
    file.write("{\"prompt\": \"");
    file.write(QByteArray(kMaxDatasetLineBytes, 'a'));
    file.write("\"}\n");
    file.close();
    for (bool strict : { false, true }) {
        const DatasetResult r = loadJsonl(path, 32, strict);
        QCOMPARE(r.error, path + u":2: a line longer than 16 MB; a JSONL dataset has one prompt a line"_s);
        QVERIFY(r.prompts.empty());
    }
}

void TestDataset::jsonlStrict()
{
    const QString path = fixture(u"custom.jsonl"_s);
    const DatasetResult r = loadJsonl(path, 32, true);
    QCOMPARE(r.error, path + u":4: not JSON (illegal value at column 2)"_s);
    QVERIFY(r.prompts.empty());

    // Through the workload: bad_lines "fail".
    Workload w;
    w.dataset = u"jsonl"_s;
    w.datasetPath = path;
    w.badLines = u"fail"_s;
    QCOMPARE(loadWorkload(w).error, path + u":4: not JSON (illegal value at column 2)"_s);
    w.badLines = u"skip"_s;
    w.numPrompts = 6;
    const DatasetResult skipped = loadWorkload(w);
    QVERIFY(skipped.ok());
    QCOMPARE(skipped.badLines, qint64(5));
    QCOMPARE(skipped.prompts.size(), std::size_t(6));
    QCOMPARE(skipped.warnings.last(), path + u": 3 prompts available for 6 requests: prompts are reused"_s);
}

void TestDataset::replayIsoTimestamps()
{
    const QString path = fixture(u"replay.jsonl"_s);
    const DatasetResult r = loadReplay(path, 64, false);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.warnings,
        (QStringList { path + u":5: \"timestamp\" is a number where earlier lines have ISO-8601 text"_s,
            path + u":6: needs a \"timestamp\": ISO-8601 text or seconds"_s, path + u": skipped 2 of 6 lines"_s,
            path + u": timestamps are not in order; requests are replayed in time order"_s }));
    QCOMPARE(r.prompts.size(), std::size_t(4));
    QCOMPARE(r.prompts[0].text, u"first request"_s);
    QCOMPARE(r.prompts[0].atNs, qint64(0));
    QCOMPARE(r.prompts[0].outputTokens, 10);
    QCOMPARE(r.prompts[1].text, u"second request"_s);
    QCOMPARE(r.prompts[1].atNs, 250 * ms);
    QCOMPARE(r.prompts[1].outputTokens, 64);
    QCOMPARE(r.prompts[2].text, u"third, written out of order"_s);
    QCOMPARE(r.prompts[2].atNs, 1500 * ms);
    QCOMPARE(r.prompts[3].text, u"fourth request after a gap"_s);
    QCOMPARE(r.prompts[3].atNs, 2000 * ms);
}

void TestDataset::replayNumericTimestamps()
{
    // Epoch seconds and relative seconds give the same schedule: only differences count.
    QTemporaryDir dir;
    for (const double base : { 1714564800.0, 0.0 }) {
        QByteArray lines;
        for (const double t : { 0.0, 0.5, 0.5, 3.0, 3.125 })
            lines += R"({"timestamp": )" + QByteArray::number(base + t, 'f', 3) + R"(, "prompt": "p q r"})" + "\n";
        const QString path = writeFile(dir, u"numeric.jsonl"_s, lines);
        const DatasetResult r = loadReplay(path, 16, false);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY(r.warnings.isEmpty());
        std::vector<qint64> at;
        for (const Prompt& p : r.prompts)
            at.push_back(p.atNs);
        QCOMPARE(at, (std::vector<qint64> { 0, 500 * ms, 500 * ms, 3000 * ms, 3125 * ms }));
    }
}

void TestDataset::replayStrict()
{
    const QString path = fixture(u"replay.jsonl"_s);
    QCOMPARE(loadReplay(path, 64, true).error,
        path + u":5: \"timestamp\" is a number where earlier lines have ISO-8601 text"_s);
    QTemporaryDir dir;
    const QString bad = writeFile(dir, u"bad.jsonl"_s,
        R"({"timestamp": "yesterday", "prompt": "a b"})"
        "\n");
    QCOMPARE(loadReplay(bad, 64, true).error,
        bad + u":1: \"timestamp\" \"yesterday\" is not ISO-8601 (e.g. 2024-05-01T12:00:00.250Z)"_s);
}

void TestDataset::replaySchedule()
{
    // Log at 0, 0.5 s, 3 s: span 3 s, mean gap 1.5 s, period 4.5 s. Twice as fast, 7 requests.
    const std::vector<qint64> log { 0, 500 * ms, 3000 * ms };
    QCOMPARE(ArrivalSchedule::replayOffsetsNs(log, 7, std::numeric_limits<double>::infinity(), 2.0),
        (std::vector<qint64> { 0, 250 * ms, 1500 * ms, 2250 * ms, 2500 * ms, 3750 * ms, 4500 * ms }));
    QCOMPARE(ArrivalSchedule::replayOffsetsNs(log, 3, std::numeric_limits<double>::infinity(), 1.0), log);
    QCOMPARE(ArrivalSchedule::replayOffsetsNs(log, 2, std::numeric_limits<double>::infinity(), 0.5),
        (std::vector<qint64> { 0, 1000 * ms }));
    QCOMPARE(ArrivalSchedule::replayRate(log), 3.0 / 4.5);
    QCOMPARE(ArrivalSchedule::replayRate({ 0 }), 0.0);
    // One request: every repeat at once.
    QCOMPARE(ArrivalSchedule::replayOffsetsNs({ 0 }, 3, std::numeric_limits<double>::infinity(), 1.0),
        (std::vector<qint64> { 0, 0, 0 }));
    QVERIFY(ArrivalSchedule::replayOffsetsNs({}, 3, 1.0, 1.0).empty());
}

void TestDataset::replayScheduleAtRate()
{
    // A finite rate rescales the log so that it runs at that mean rate: 4 req/s is 6 times the log's 2/3.
    const std::vector<qint64> log { 0, 500 * ms, 3000 * ms };
    const std::vector<qint64> got = ArrivalSchedule::replayOffsetsNs(log, 6, 4.0, 1.0);
    const std::vector<double> expected { 0, 0.5 / 6, 3.0 / 6, 4.5 / 6, 5.0 / 6, 7.5 / 6 };
    QCOMPARE(got.size(), expected.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        QVERIFY2(std::llabs(got[i] - std::llround(expected[i] * 1e9)) <= 1, qPrintable(QString::number(got[i])));
    // Over whole periods the achieved rate is the asked one: 6 requests in 1.5 s (the next would leave at 1.5 s).
    QCOMPARE(ArrivalSchedule::replayOffsetsNs(log, 7, 4.0, 1.0).back(), 1500 * ms);
}

void TestDataset::sharedPrefix()
{
    RandomDatasetOptions o;
    o.inputLen = 20;
    o.outputLen = 8;
    o.seed = 3;
    const DatasetResult r = sharedPrefixDataset(o, 50, 4, 5);
    QVERIFY(r.ok());
    QCOMPARE(r.prompts.size(), std::size_t(20));
    QStringList prefixes;
    for (std::size_t i = 0; i < r.prompts.size(); ++i) {
        const Prompt& p = r.prompts[i];
        QCOMPARE(p.promptTokens, 70);
        QCOMPARE(countWords(p.text), 70);
        QCOMPARE(p.outputTokens, 8);
        const QString prefix = p.text.section(u' ', 0, 49);
        if (i % 5 == 0)
            prefixes << prefix;
        else
            QCOMPARE(prefix, prefixes.last());
    }
    QCOMPARE(prefixes.size(), 4);
    QCOMPARE(QSet<QString>(prefixes.begin(), prefixes.end()).size(), 4);
    QCOMPARE(sharedPrefixDataset(o, 50, 4, 5).prompts[7].text, r.prompts[7].text); // deterministic
    QCOMPARE(sharedPrefixDataset(o, 0, 4, 5).error,
        u"shared-prefix dataset: prefix_len, num_prefixes and suffixes per prefix must be >= 1"_s);
}

void TestDataset::freshTextPerPosition()
{
    // Shared-prefix: every position keeps its prompt's prefix and length, and gets a suffix of its own.
    RandomDatasetOptions o;
    o.inputLen = 40;
    o.outputLen = 8;
    o.seed = 3;
    const DatasetResult r = sharedPrefixDataset(o, 20, 2, 3);
    QVERIFY(r.ok());
    const Prompt& p = r.prompts[4]; // the second prefix
    QVERIFY(p.synthetic);
    QCOMPARE(p.sharedTokens, 20);
    std::set<QString> texts { p.text };
    for (qint64 position : { 0, 1, 2, 6, 1000, 1000000 }) {
        const QString text = freshText(p, 3, position);
        QCOMPARE(countWords(text), p.promptTokens);
        QCOMPARE(text.left(p.sharedChars), p.text.left(p.sharedChars));
        QCOMPARE(text.section(u' ', 0, 19), p.text.section(u' ', 0, 19));
        QCOMPARE(freshText(p, 3, position), text); // same seed and position: the same text
        QVERIFY(freshText(p, 4, position) != text);
        texts.insert(text);
    }
    QCOMPARE(texts.size(), std::size_t(7));

    // Random without a prefix: the whole text is the position's own, of the prompt's length.
    RandomDatasetOptions random = o;
    random.numPrompts = 4;
    random.rangeRatio = 0.5;
    const DatasetResult plain = randomDataset(random);
    QVERIFY(plain.prompts[2].synthetic);
    QCOMPARE(plain.prompts[2].sharedChars, 0);
    QCOMPARE(countWords(freshText(plain.prompts[2], 3, 77)), plain.prompts[2].promptTokens);
    QVERIFY(freshText(plain.prompts[2], 3, 77) != plain.prompts[2].text);

    // Random with prefix_len: the common prefix stays.
    Workload w;
    w.numPrompts = 3;
    w.inputLen = 10;
    w.prefixLen = 6;
    const DatasetResult prefixed = loadWorkload(w);
    QVERIFY2(prefixed.ok(), qPrintable(prefixed.error));
    const Prompt& q = prefixed.prompts[1];
    QCOMPARE(q.sharedTokens, 6);
    QCOMPARE(freshText(q, 0, 5).section(u' ', 0, 5), q.text.section(u' ', 0, 5));
    QCOMPARE(countWords(freshText(q, 0, 5)), 16);

    // Synthetic sessions: the system prompt and lengths stay, the turns are the position's own.
    const DatasetResult sessions = kp::randomSessions(o, 3, 5);
    QVERIFY(sessions.ok());
    const Conversation& c = sessions.sessions.front();
    QVERIFY(c.synthetic);
    const Conversation a = freshSession(c, 3, 10);
    const Conversation b = freshSession(c, 3, 11);
    QCOMPARE(a.system, c.system);
    QCOMPARE(a.turns.size(), c.turns.size());
    for (std::size_t t = 0; t < c.turns.size(); ++t) {
        QCOMPARE(countWords(a.turns[t].user), c.turns[t].userTokens);
        QCOMPARE(countWords(a.turns[t].answer), c.turns[t].answerTokens);
        QVERIFY(a.turns[t].user != b.turns[t].user);
        QVERIFY(a.turns[t].user != c.turns[t].user);
    }
    QCOMPARE(freshSession(c, 3, 10).turns[1].user, a.turns[1].user);
}

void TestDataset::promptPool()
{
    Workload w;
    w.numPrompts = 50;
    w.inputLen = 8;
    w.promptPool = 5;
    DatasetResult r = loadWorkload(w);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.prompts.size(), std::size_t(5));
    QVERIFY(!r.prompts[0].synthetic); // a pool's texts are sent as they are
    w.promptPool = 0;
    const DatasetResult all = loadWorkload(w);
    QCOMPARE(all.prompts.size(), std::size_t(50));
    QCOMPARE(all.prompts[3].text, r.prompts[3].text); // the pool is the dataset's first prompts

    // A file shorter than num_prompts: the copies keep their source's id, so a ledger sees the repeats.
    QTemporaryDir dir;
    QFile file(dir.filePath(u"three.jsonl"_s));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\"prompt\": \"one two\"}\n{\"prompt\": \"three four\"}\n{\"prompt\": \"five six\"}\n");
    file.close();
    w = Workload {};
    w.dataset = u"jsonl"_s;
    w.datasetPath = file.fileName();
    w.numPrompts = 8;
    r = loadWorkload(w);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.prompts.size(), std::size_t(8));
    std::set<int> ids;
    for (const Prompt& p : r.prompts) {
        QVERIFY(!p.synthetic);
        ids.insert(p.id);
    }
    QCOMPARE(ids, (std::set<int> { 0, 1, 2 }));
}

void TestDataset::workloadSources()
{
    Workload w;
    w.dataset = u"shared-prefix"_s;
    w.prefixLen = 16;
    w.inputLen = 8;
    w.numPrefixes = 3;
    w.numPrompts = 10; // 4 suffixes per prefix (rounded up), 12 prompts, 10 sampled
    DatasetResult r = loadWorkload(w);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.prompts.size(), std::size_t(10));
    QVERIFY(r.warnings.isEmpty());
    w.prefixLen = 0;
    QCOMPARE(loadWorkload(w).error, u"workload.prefix_len: must be >= 1 for the shared-prefix dataset"_s);

    w = Workload {};
    w.dataset = u"sharegpt"_s;
    w.datasetPath = fixture(u"sharegpt-small.json"_s);
    w.numPrompts = 5;
    r = loadWorkload(w);
    QVERIFY(r.ok());
    QCOMPARE(r.shareGpt.usable, qint64(5));
    QCOMPARE(r.prompts.size(), std::size_t(5));
    w.maxPromptLen = 10;
    w.maxTotalLen = 16;
    QCOMPARE(loadWorkload(w).shareGpt.usable, qint64(3));
    w.filterLengths = false;
    QCOMPARE(loadWorkload(w).shareGpt.usable, qint64(7));

    w = Workload {};
    w.dataset = u"replay"_s;
    w.datasetPath = fixture(u"replay.jsonl"_s);
    r = loadWorkload(w);
    QVERIFY(r.ok());
    QCOMPARE(r.prompts.size(), std::size_t(4)); // the whole log, in time order, not sampled
    QCOMPARE(r.prompts[3].atNs, 2000 * ms);

    w.dataset = u"sharegpt"_s;
    w.datasetPath.clear();
    QCOMPARE(loadWorkload(w).error, u"workload.dataset_path: required for the sharegpt dataset"_s);
}

void TestDataset::lengthBuckets()
{
    // Prompts of 100 (two, one failed), 300, 300, 600 and 5000 tokens over a 10 s step.
    std::vector<RequestRecord> records { completed(100, 0, 50, 5), completed(300, 100, 200, 3),
        completed(300, 200, 400, 2), completed(600, 300, 800, 4), completed(5000, 400, 3000, 11) };
    RequestRecord failed = completed(100, 500, 10, 1);
    failed.failure = FailureClass::HttpServerError;
    records.push_back(failed);
    MetricsOptions options;
    options.percentiles = { 50, 99 };
    options.lengthBucketEdges = { 0, 256, 512, 1024, 2048 };
    const StepMetrics m = StepMetrics::fromRecords(records, 10.0, options);
    QCOMPARE(m.lengthBuckets.size(), std::size_t(5));
    QCOMPARE(m.populatedLengthBuckets(), qint64(4));
    const LengthBucketMetrics& b0 = m.lengthBuckets[0];
    QCOMPARE(b0.lo, qint64(0));
    QCOMPARE(b0.hi, qint64(256));
    QCOMPARE(b0.label(), u"0-256"_s);
    QCOMPARE(b0.completed, qint64(1));
    QCOMPARE(b0.failed, qint64(1));
    QCOMPARE(b0.ttft.mean, 50.0);
    QCOMPARE(b0.totalInputTokens, qint64(100));
    QCOMPARE(b0.requestThroughput, 0.1);
    const LengthBucketMetrics& b1 = m.lengthBuckets[1];
    QCOMPARE(b1.completed, qint64(2));
    QCOMPARE(b1.ttft.mean, 300.0);
    QCOMPARE(b1.ttft.median, 300.0);
    QCOMPARE(b1.ttft.percentile(99).value_or(-1), 398.0); // 200 + 0.99 × 200
    QCOMPARE(b1.tpot.mean, 10.0);
    QCOMPARE(b1.e2el.mean, (220.0 + 410.0) / 2);
    QCOMPARE(b1.totalInputTokens, qint64(600));
    QCOMPARE(b1.totalOutputTokens, qint64(5));
    QCOMPARE(b1.outputThroughput, 0.5);
    QCOMPARE(m.lengthBuckets[2].completed, qint64(1));
    QCOMPARE(m.lengthBuckets[2].ttft.mean, 800.0);
    QCOMPARE(m.lengthBuckets[3].requests(), qint64(0));
    QCOMPARE(m.lengthBuckets[3].ttft.count, qint64(0));
    const LengthBucketMetrics& last = m.lengthBuckets[4];
    QCOMPARE(last.hi, qint64(-1));
    QCOMPARE(last.label(), u"2048+"_s);
    QCOMPARE(last.ttft.mean, 3000.0);
    QCOMPARE(last.itl.count, qint64(10));
    // The buckets partition the step.
    qint64 completedSum = 0;
    double throughputSum = 0;
    for (const LengthBucketMetrics& b : m.lengthBuckets) {
        completedSum += b.completed;
        throughputSum += b.requestThroughput;
    }
    QCOMPARE(completedSum, m.completed);
    QCOMPARE(throughputSum, m.requestThroughput);
    // Prompts shorter than the first edge land in the first bucket.
    options.lengthBucketEdges = { 200, 400 };
    const StepMetrics shifted = StepMetrics::fromRecords(records, 10.0, options);
    QCOMPARE(shifted.lengthBuckets[0].requests(), qint64(4)); // 100, 100, 300, 300
    QCOMPARE(shifted.lengthBuckets[1].requests(), qint64(2)); // 600, 5000
    // No edges: no buckets.
    QVERIFY(StepMetrics::fromRecords(records, 10.0, MetricsOptions {}).lengthBuckets.empty());
}

void TestDataset::lengthBucketsInResultJson()
{
    std::vector<RequestRecord> records { completed(100, 0, 50, 5), completed(700, 100, 200, 3) };
    MetricsOptions options;
    options.lengthBucketEdges = { 0, 512 };
    const StepMetrics m = StepMetrics::fromRecords(records, 2.0, options);
    StepSetup setup;
    setup.backend = u"openai-chat"_s;
    const QByteArray json = ResultJson::write(setup, m, {}, 2);
    QVERIFY(json.contains("\"length_buckets\""));
    QVERIFY(json.contains("\"prompt_tokens_max\": null"));
    const ResultFileContents back = ResultJson::read(json, u"step.json"_s);
    QVERIFY2(back.ok(), qPrintable(back.error));
    QCOMPARE(back.steps.size(), std::size_t(1));
    QVERIFY2(back.steps[0].warnings.isEmpty(), qPrintable(back.steps[0].warnings.join(u'\n')));
    QCOMPARE(back.steps[0].metrics.lengthBuckets, m.lengthBuckets);
    QCOMPARE(back.steps[0].metrics.options.lengthBucketEdges, options.lengthBucketEdges);
    // Without edges the file has no length_buckets (as before).
    QVERIFY(!ResultJson::write(setup, StepMetrics::fromRecords(records, 2.0, MetricsOptions {}))
                 .contains("length_buckets"));
}

void TestDataset::perModelBreakdown()
{
    // Model a: two completed (TTFT 50 and 200 ms); model b: one failed; no model on the warm-up-like third.
    auto named = [](RequestRecord r, const QString& model) {
        r.model = model;
        return r;
    };
    std::vector<RequestRecord> records { named(completed(100, 0, 50, 5), u"a"_s),
        named(completed(100, 100, 200, 3), u"a"_s) };
    RequestRecord failed = named(completed(100, 500, 10, 1), u"b"_s);
    failed.failure = FailureClass::HttpNotFound;
    failed.httpStatus = 404;
    records.push_back(failed);
    const StepMetrics m = StepMetrics::fromRecords(records, 2.0, MetricsOptions {});
    QCOMPARE(m.perModel.size(), std::size_t(2));
    const ModelMetrics& a = m.perModel[0];
    QCOMPARE(a.model, u"a"_s);
    QCOMPARE(a.completed, qint64(2));
    QCOMPARE(a.failed, qint64(0));
    QCOMPARE(a.requestThroughput, 1.0);
    QCOMPARE(a.outputThroughput, 4.0);
    QCOMPARE(a.ttft.median, 125.0);
    QCOMPARE(a.ttft.percentile(99).value_or(-1), 198.5); // 50 + 0.99 × 150
    QCOMPARE(a.e2el.median, (90.0 + 220.0) / 2);
    const ModelMetrics& b = m.perModel[1];
    QCOMPARE(b.model, u"b"_s);
    QCOMPARE(b.completed, qint64(0));
    QCOMPARE(b.failed, qint64(1));
    QCOMPARE(b.ttft.count, qint64(0));
    QCOMPARE(a.requests() + b.requests(), m.completed + m.failed);

    StepSetup setup;
    setup.backend = u"openai-chat"_s;
    const QByteArray json = ResultJson::write(setup, m, {}, 2);
    QVERIFY(json.contains("\"per_model\""));
    const ResultFileContents back = ResultJson::read(json, u"step.json"_s);
    QVERIFY2(back.ok(), qPrintable(back.error));
    QVERIFY2(back.steps[0].warnings.isEmpty(), qPrintable(back.steps[0].warnings.join(u'\n')));
    QCOMPARE(back.steps[0].metrics.perModel, m.perModel);

    // The summary: the reference's block, then a section per model; b's latencies are unknown, not 0.
    const QByteArray summary = StepSummary::text(setup, m);
    QVERIFY(summary.contains("-------------------- Model a ---------------------\n"
                             "Requests:                                2         \n"
                             "Successful requests:                     2         \n"
                             "Failed requests:                         0         \n"
                             "Request throughput (req/s):              1.00      \n"
                             "Output token throughput (tok/s):         4.00      \n"
                             "Median TTFT (ms):                        125.00    \n"
                             "P99 TTFT (ms):                           198.50    \n"));
    QVERIFY(summary.contains("Failed requests:                         1         \n"
                             "Request throughput (req/s):              0.00      \n"
                             "Output token throughput (tok/s):         0.00      \n"
                             "Median TTFT (ms):                        \xe2\x80\x94"));
    QVERIFY(summary.indexOf(" Model a ") > summary.indexOf("P99 ITL (ms):"));

    // Without a model on any record: no breakdown, no key, no section.
    for (RequestRecord& r : records)
        r.model.clear();
    const StepMetrics plain = StepMetrics::fromRecords(records, 2.0, MetricsOptions {});
    QVERIFY(plain.perModel.empty());
    QVERIFY(!ResultJson::write(setup, plain).contains("per_model"));
    QVERIFY(!StepSummary::text(setup, plain).contains(" Model "));
}

void TestDataset::lengthBucketTable()
{
    std::vector<RequestRecord> records { completed(100, 0, 50, 5), completed(300, 100, 200, 3),
        completed(5000, 400, 3000, 11) };
    MetricsOptions options;
    options.lengthBucketEdges = { 0, 256, 512, 1024, 2048 };
    const StepMetrics m = StepMetrics::fromRecords(records, 10.0, options);
    QCOMPARE(kp::lengthBucketTable(m),
        u"By prompt length (tokens):\n"
        "  bucket      reqs  fail  req/s   mean TTFT   p99 TTFT  mean TPOT  mean E2EL\n"
        "  0-256          1     0   0.10       50.00      50.00      10.00      90.00\n"
        "  256-512        1     0   0.10      200.00     200.00      10.00     220.00\n"
        "  2048+          1     0   0.10     3000.00    3000.00      10.00    3100.00\n"_s);
}

void TestDataset::tokenizeUrls()
{
    QCOMPARE(tokenizeUrl(QUrl(u"http://h:8000/v1/chat/completions"_s)), QUrl(u"http://h:8000/tokenize"_s));
    QCOMPARE(tokenizeUrl(QUrl(u"http://h:8000/v1/completions"_s)), QUrl(u"http://h:8000/tokenize"_s));
    QCOMPARE(tokenizeUrl(QUrl(u"https://gw/llm/v1/completions?x=1"_s)), QUrl(u"https://gw/llm/tokenize"_s));
}

void TestDataset::tokenizePrePass()
{
    // The simulator serves vLLM's POST /tokenize; its tokens are words, so the counts stay.
    sim::SimHost host;
    QVERIFY2(host.start(sim::SimServerOptions {}), qPrintable(host.errorString()));
    RequestTemplate request;
    request.backend = Backend::OpenAiChat;
    request.url = host.baseUrl().resolved(QUrl(u"/v1/chat/completions"_s));
    request.model = u"kneepoint/sim-default"_s;
    std::vector<Prompt> prompts(5);
    const QStringList texts { u"one two three"_s, u"a\tb  c\nd"_s, u"one two three"_s, u"x"_s,
        u"caf\u00e9 \u3000 au lait"_s };
    for (std::size_t i = 0; i < prompts.size(); ++i) {
        prompts[i].text = texts[qsizetype(i)];
        prompts[i].promptTokens = 1000; // wrong on purpose: the server's count replaces it
    }
    const TokenizeOutcome outcome = tokenizePrompts(request, prompts);
    QVERIFY2(outcome.available, qPrintable(outcome.message));
    QCOMPARE(outcome.counted, 4); // distinct texts
    std::vector<int> counts;
    for (const Prompt& p : prompts)
        counts.push_back(p.promptTokens);
    QCOMPARE(counts, (std::vector<int> { 3, 4, 3, 1, 3 }));
    QCOMPARE(outcome.datasetTokens, qint64(5000));
    QCOMPARE(outcome.serverTokens, qint64(14));
    QCOMPARE(outcome.message,
        u"input tokens counted by the server's /tokenize (4 prompts; 14 tokens against the dataset's 5000, 35614.3% apart)"_s);

    // One distinct prompt is one prompt.
    std::vector<Prompt> single(2);
    for (Prompt& p : single) {
        p.text = u"one two"_s;
        p.promptTokens = 2;
    }
    QCOMPARE(tokenizePrompts(request, single).message,
        u"input tokens counted by the server's /tokenize (1 prompt; 4 tokens against the dataset's 4, 0.0% apart)"_s);
}

void TestDataset::tokenizeUnavailable()
{
    // A server without /tokenize (here: a path the simulator does not serve) leaves the prompts alone.
    sim::SimHost host;
    QVERIFY2(host.start(sim::SimServerOptions {}), qPrintable(host.errorString()));
    RequestTemplate request;
    request.url = host.baseUrl().resolved(QUrl(u"/nothing/v1/completions"_s));
    std::vector<Prompt> prompts(3);
    for (Prompt& p : prompts) {
        p.text = u"a b"_s;
        p.promptTokens = 2;
    }
    const TokenizeOutcome outcome = tokenizePrompts(request, prompts);
    QVERIFY(!outcome.available);
    QCOMPARE(outcome.message,
        host.baseUrl().resolved(QUrl(u"/nothing/tokenize"_s)).toString()
            + u": HTTP 404; input tokens are the server's usage.prompt_tokens where it sends them, else the dataset's count"_s);
    for (const Prompt& p : prompts)
        QCOMPARE(p.promptTokens, 2);
}

void TestDataset::tokenizeThroughProxy()
{
    // The pre-pass is made by the target's network client: with target.proxy set, /tokenize goes
    // through that proxy (absolute-form request line), as the load does.
    QTcpServer proxy;
    QVERIFY(proxy.listen(QHostAddress::LocalHost, 0));
    QStringList requestLines;
    connect(&proxy, &QTcpServer::newConnection, this, [&] {
        while (QTcpSocket* socket = proxy.nextPendingConnection()) {
            auto buffer = std::make_shared<QByteArray>();
            connect(socket, &QTcpSocket::readyRead, socket, [socket, buffer, &requestLines] {
                *buffer += socket->readAll();
                for (;;) {
                    const qsizetype end = buffer->indexOf("\r\n\r\n");
                    if (end < 0)
                        return;
                    const QByteArray head = buffer->left(end);
                    qsizetype length = 0;
                    for (const QByteArray& line : head.split('\n')) {
                        if (line.toLower().startsWith("content-length:"))
                            length = line.mid(15).trimmed().toLongLong();
                    }
                    if (buffer->size() < end + 4 + length)
                        return;
                    requestLines << QString::fromLatin1(head.left(head.indexOf("\r\n")));
                    buffer->remove(0, end + 4 + length);
                    const QByteArray body = R"({"count": 7})";
                    socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                        + QByteArray::number(body.size()) + "\r\n\r\n" + body);
                }
            });
        }
    });
    RequestTemplate request;
    request.url = QUrl(u"http://llm.invalid:8000/v1/completions"_s); // resolvable only by the proxy
    std::vector<Prompt> prompts(2);
    prompts[0].text = u"a b"_s;
    prompts[1].text = u"c d"_s;
    TransportOptions transport;
    transport.proxyMode = ProxyMode::Url;
    transport.proxyUrl = QUrl(u"http://127.0.0.1:%1"_s.arg(proxy.serverPort()));
    const TokenizeOutcome outcome = tokenizePrompts(request, prompts, transport);
    QVERIFY2(outcome.available, qPrintable(outcome.message));
    QCOMPARE(prompts[0].promptTokens, 7);
    QCOMPARE(prompts[1].promptTokens, 7);
    QCOMPARE(requestLines,
        QStringList({ u"POST http://llm.invalid:8000/tokenize HTTP/1.1"_s,
            u"POST http://llm.invalid:8000/tokenize HTTP/1.1"_s }));
}

void TestDataset::inputTokenSources()
{
    // Two requests: the dataset says 100 and 100, the server 110 and 120 (15% apart in total).
    RequestRecord a = completed(100, 0, 50, 3);
    a.serverPromptTokens = 110;
    RequestRecord b = completed(100, 10, 50, 3);
    b.serverPromptTokens = 120;
    const RequestRecord c = completed(300, 20, 50, 3); // no usage
    MetricsOptions options;
    options.lengthBucketEdges = { 0, 115 };
    StepMetrics m = StepMetrics::fromRecords({ a, b, c }, 1.0, options);
    QCOMPARE(m.totalInputTokens, qint64(500));
    QCOMPARE(m.lengthBuckets[0].requests(), qint64(2));
    QCOMPARE(m.datasetInputTokensReported, qint64(200));
    QCOMPARE(m.totalServerInputTokens, qint64(230));
    QCOMPARE(m.inputTokenDisagreement().value_or(-1), 30.0 / 230.0);
    QCOMPARE(m.inputTokenWarning(),
        u"input tokens: the client counted 200 and the server 230 over 2 requests (13.0% apart); the server's count "
        "includes any chat template"_s);
    options.inputTokenSource = InputTokenSource::ServerUsage;
    m = StepMetrics::fromRecords({ a, b, c }, 1.0, options);
    QCOMPARE(m.totalInputTokens, qint64(530)); // 110 + 120 + the dataset's 300 where no usage came
    QCOMPARE(m.lengthBuckets[0].requests(), qint64(1)); // 110
    QCOMPARE(m.lengthBuckets[1].requests(), qint64(2)); // 120, 300
    const QByteArray json = ResultJson::write(StepSetup {}, m);
    QVERIFY(json.contains("\"input_token_source\":\"server_usage\""));
    QVERIFY(json.contains("\"input_token_warning\":\"input tokens: the client counted 200 and"));
    QCOMPARE(
        ResultJson::read(json, u"x"_s).steps.at(0).metrics.options.inputTokenSource, InputTokenSource::ServerUsage);
    // Within 5%: no warning.
    b.serverPromptTokens = 100; // 210 against 200: 4.8%
    QCOMPARE(StepMetrics::fromRecords({ a, b }, 1.0, MetricsOptions {}).inputTokenWarning(), QString());
}

void TestDataset::profileFields()
{
    // The workload's dataset settings: read, checked, written back only when they differ from the defaults.
    const QByteArray json = R"({"schema": "kneepoint.profile/1", "target": {"base_url": "http://h:8000", "model": "m"},
 "workload": {"dataset": "replay", "dataset_path": "log.jsonl", "filter_lengths": false, "min_len": 2,
  "max_prompt_len": 4000, "max_total_len": 8000, "bad_lines": "fail", "replay_speed": 2.5, "num_prefixes": 3,
  "suffixes_per_prefix": 7, "length_buckets": [0, 100, 1000]}})";
    const ProfileLoadResult r = ProfileStore::loadFromData(json, u"p.json"_s);
    QVERIFY2(r.ok(), qPrintable(r.errors.join(u'\n')));
    const Workload& w = r.profile->workload;
    QCOMPARE(w.dataset, u"replay"_s);
    QCOMPARE(w.filterLengths, false);
    QCOMPARE(w.minLen, 2);
    QCOMPARE(w.maxPromptLen, 4000);
    QCOMPARE(w.maxTotalLen, 8000);
    QCOMPARE(w.badLines, u"fail"_s);
    QCOMPARE(w.replaySpeed, 2.5);
    QCOMPARE(w.numPrefixes, 3);
    QCOMPARE(w.suffixesPerPrefix, 7);
    QCOMPARE(w.lengthBuckets, (QList<int> { 0, 100, 1000 }));
    const ProfileLoadResult back = ProfileStore::loadFromData(ProfileStore::toJson(*r.profile), u"back.json"_s);
    QVERIFY(back.ok());
    QCOMPARE(back.profile->workload, w);
    QVERIFY(!ProfileStore::toJson(Profile {}).contains("length_buckets"));

    Profile bad = *r.profile;
    bad.workload.badLines = u"ignore"_s;
    bad.workload.replaySpeed = 0;
    bad.workload.lengthBuckets = { 0, 512, 256 };
    QStringList issues;
    for (const ProfileIssue& issue : validateProfile(bad))
        issues << issue.toString();
    QCOMPARE(issues,
        (QStringList { u"workload.bad_lines: expected \"skip\" or \"fail\", got \"ignore\""_s,
            u"workload.replay_speed: must be a number > 0"_s,
            u"workload.length_buckets[2]: edges must be >= 0 and increasing"_s }));
}

namespace {

// A ShareGPT file of the given entries; ends[i] is the byte just past entry i.
QByteArray shareGptFile(const QList<QByteArray>& entries, QList<qint64>* ends)
{
    QByteArray out = "[";
    for (qsizetype i = 0; i < entries.size(); ++i) {
        if (i > 0)
            out += ", ";
        out += entries[i];
        if (ends)
            ends->append(out.size());
    }
    out += "]";
    return out;
}

QByteArray turn(const char* from, const char* value)
{
    return QByteArray(R"({"from": ")") + from + R"(", "value": ")" + value + R"("})";
}

QByteArray entry(const QList<QByteArray>& turns)
{
    QByteArray out = R"({"id": "x", "conversations": [)";
    for (qsizetype i = 0; i < turns.size(); ++i)
        out += (i > 0 ? ", " : "") + turns[i];
    return out + "]}";
}

const QList<QByteArray> kMultiTurnEntries = {
    entry({ turn("system", "You are terse."), turn("human", "What is a knee point"),
        turn("gpt", "Where latency turns up sharply"), turn("human", "And the saturation point"),
        turn("gpt", "Where throughput stops growing"), turn("human", "Thanks"), turn("gpt", "You are welcome") }),
    entry({ turn("human", "one two three four"), turn("gpt", "a b c d"), turn("human", "x y z w"),
        turn("human", "again") }),
    entry({ turn("gpt", "hello there you all"), turn("human", "hi") }),
    entry({ turn("human", "one two three four"), turn("gpt", "a b c d"), turn("tool", "x") }),
    entry({ turn("user", "Name three rivers please"), turn("chatgpt", "Nile Amazon Yangtze rivers"),
        turn("human", "And lakes") }),
    entry({ turn("human", "just one") }),
};

const Conversation* byOrigin(const std::vector<Conversation>& sessions, const QString& origin)
{
    for (const Conversation& c : sessions)
        if (c.origin == origin)
            return &c;
    return nullptr;
}

} // namespace

void TestDataset::shareGptMultiTurn()
{
    QTemporaryDir dir;
    QList<qint64> ends;
    const QString path = writeFile(dir, u"multi.json"_s, shareGptFile(kMultiTurnEntries, &ends));
    ShareGptOptions o;
    o.numPrompts = 4;
    o.multiTurn = true;
    const DatasetResult r = loadShareGpt(path, o);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QVERIFY(r.prompts.empty());
    QCOMPARE(r.shareGpt.conversations, qint64(6));
    QCOMPARE(r.shareGpt.usable, qint64(2));
    QCOMPARE(r.shareGpt.badConversations, qint64(3));
    QCOMPARE(r.shareGpt.tooFewTurns, qint64(1));
    QCOMPARE(r.badLines, qint64(3));
    QCOMPARE(r.warnings,
        (QStringList { path
                + u": 4 of 6 conversations dropped: 1 with fewer than two turns, 0 prompts too short, 0 outputs too "
                  "short, 0 prompts too long, 0 too long in total"_s,
            path + u": conversation 1 (ending at byte %1): turns 2 and 3 are two user turns in a row"_s.arg(ends[1]),
            path + u": conversation 2 (ending at byte %1): turn 0 is an answer before any user turn"_s.arg(ends[2]),
            path + u": conversation 3 (ending at byte %1): turn 2 has the unknown role \"tool\""_s.arg(ends[3]) }));
    QCOMPARE(r.sessions.size(), std::size_t(2));
    const Conversation* first = byOrigin(r.sessions, path + u": conversation 0"_s);
    QVERIFY(first);
    QCOMPARE(first->system, u"You are terse."_s);
    QCOMPARE(first->systemTokens, 3);
    QCOMPARE(first->turns.size(), std::size_t(3));
    QCOMPARE(first->turns[0].user, u"What is a knee point"_s);
    QCOMPARE(first->turns[0].userTokens, 5);
    QCOMPARE(first->turns[0].answer, u"Where latency turns up sharply"_s);
    QCOMPARE(first->turns[0].answerTokens, 5);
    QCOMPARE(first->turns[0].outputTokens, 5);
    QCOMPARE(first->turns[1].user, u"And the saturation point"_s);
    QCOMPARE(first->turns[1].outputTokens, 4);
    QCOMPARE(first->turns[2].user, u"Thanks"_s);
    QCOMPARE(first->turns[2].answer, u"You are welcome"_s);
    QCOMPARE(first->turns[2].outputTokens, 3);
    // The last question has no answer, so no output length: it is left out.
    const Conversation* rivers = byOrigin(r.sessions, path + u": conversation 4"_s);
    QVERIFY(rivers);
    QVERIFY(rivers->system.isEmpty());
    QCOMPARE(rivers->turns.size(), std::size_t(1));
    QCOMPARE(rivers->turns[0].answer, u"Nile Amazon Yangtze rivers"_s);

    // A fixed output length sets max_tokens of every turn; the recorded answers stay the history.
    o.fixedOutputTokens = 9;
    const DatasetResult fixed = loadShareGpt(path, o);
    QVERIFY(fixed.ok());
    for (const Conversation& c : fixed.sessions)
        for (const Turn& t : c.turns)
            QCOMPARE(t.outputTokens, 9);
    QCOMPARE(byOrigin(fixed.sessions, path + u": conversation 0"_s)->turns[1].answerTokens, 4);

    // Kept in memory: only the sessions whose turns cover num_prompts (the smallest shuffle keys).
    o.numPrompts = 1;
    const DatasetResult one = loadShareGpt(path, o);
    QVERIFY(one.ok());
    QCOMPARE(one.sessions.size(), std::size_t(1));
    QCOMPARE(one.shareGpt.usable, qint64(2));
}

void TestDataset::shareGptMultiTurnFilters()
{
    QTemporaryDir dir;
    // Turn 1: prompt 4 + 4 = 8 tokens; turn 2: prompt 4 + 4 + 4 = 12, + 4 = 16; turn 3: prompt 20.
    const char* four = "w w w w";
    const QList<QByteArray> entries = {
        entry({ turn("human", four), turn("gpt", four), turn("human", four), turn("gpt", four), turn("human", four),
            turn("gpt", four) }),
        entry({ turn("human", "too short"), turn("gpt", four), turn("human", four), turn("gpt", four) }),
    };
    const QString path = writeFile(dir, u"filters.json"_s, shareGptFile(entries, nullptr));
    ShareGptOptions o;
    o.multiTurn = true;
    o.numPrompts = 10;
    o.filter.maxTotalLen = 16; // stops before turn 3 (prompt 20 + answer 4)
    DatasetResult r = loadShareGpt(path, o);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.shareGpt.promptTooShort, qint64(1)); // the first turn fails: the conversation is dropped
    QCOMPARE(r.sessions.size(), std::size_t(1));
    QCOMPARE(r.sessions[0].turns.size(), std::size_t(2));
    // A conversation cut short by the filters is said, with one example.
    QCOMPARE(r.warnings.last(),
        path
            + u": the length filters cut 1 conversations short, leaving out 1 turns (conversation 0 kept 2 of its 3 "
              "turns): a turn's prompt carries the history before it, which counts toward max_prompt_len (1024) "
              "and max_total_len (16); raise them or set filter_lengths to false to keep more turns"_s);
    o.filter.maxPromptLen = 11; // turn 2's prompt (12 with history) is over
    r = loadShareGpt(path, o);
    QCOMPARE(r.sessions[0].turns.size(), std::size_t(1));
    QCOMPARE(r.shareGpt.cutByFilters, qint64(1));
    QCOMPARE(r.shareGpt.turnsCut, qint64(2));
    o.filter.enabled = false;
    r = loadShareGpt(path, o);
    QCOMPARE(r.sessions.size(), std::size_t(2));
    QCOMPARE(r.sessions[0].turns.size() + r.sessions[1].turns.size(), std::size_t(5));
}

void TestDataset::shareGptMultiTurnStrict()
{
    QTemporaryDir dir;
    QList<qint64> ends;
    const QString path = writeFile(dir, u"multi.json"_s, shareGptFile(kMultiTurnEntries, &ends));
    ShareGptOptions o;
    o.multiTurn = true;
    o.strict = true;
    const DatasetResult r = loadShareGpt(path, o);
    QCOMPARE(r.error,
        path + u": conversation 1 (ending at byte %1): turns 2 and 3 are two user turns in a row"_s.arg(ends[1]));
    QVERIFY(r.sessions.empty());

    Workload w;
    w.dataset = u"sharegpt"_s;
    w.datasetPath = path;
    w.multiTurn = true;
    w.badLines = u"fail"_s;
    QCOMPARE(loadWorkload(w).error, r.error);
}

void TestDataset::jsonlConversations()
{
    const QString path = fixture(u"conversations.jsonl"_s);
    const DatasetResult r = loadJsonlConversations(path, 32, 0, false);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.badLines, qint64(5));
    QCOMPARE(r.warnings,
        (QStringList { path + u":4: messages[0] is an answer before any user turn"_s,
            path + u":5: messages[0] and messages[1] are two user turns in a row"_s, path + u":6: no user turn"_s,
            path + u":7: messages[1] has the unknown role \"tool\" (system, user or assistant)"_s,
            path + u":8: messages[1] is a system message after the start"_s, path + u": skipped 5 of 8 lines"_s }));
    QCOMPARE(r.sessions.size(), std::size_t(3));
    const Conversation& rivers = r.sessions[0];
    QCOMPARE(rivers.origin, path + u":1"_s);
    QCOMPARE(rivers.system, u"Be brief."_s);
    QCOMPARE(rivers.systemTokens, 2);
    QCOMPARE(rivers.turns.size(), std::size_t(2));
    QCOMPARE(rivers.turns[0].user, u"Name three rivers"_s);
    QCOMPARE(rivers.turns[0].userTokens, 3);
    QCOMPARE(rivers.turns[0].answer, u"Nile Amazon Yangtze"_s);
    QCOMPARE(rivers.turns[0].outputTokens, 3);
    QCOMPARE(rivers.turns[1].user, u"And two lakes"_s);
    QCOMPARE(rivers.turns[1].answer, u"Baikal Victoria"_s);
    QCOMPARE(rivers.turns[1].answerTokens, 2);
    QCOMPARE(rivers.turns[1].outputTokens, 2);
    // A line with just a prompt is a session of one turn.
    QCOMPARE(r.sessions[1].turns.size(), std::size_t(1));
    QCOMPARE(r.sessions[1].turns[0].user, u"Explain the water cycle"_s);
    QCOMPARE(r.sessions[1].turns[0].outputTokens, 48);
    // A last question without an answer: the line's output_tokens.
    QCOMPARE(r.sessions[2].turns.size(), std::size_t(2));
    QCOMPARE(r.sessions[2].turns[0].outputTokens, 1);
    QCOMPARE(r.sessions[2].turns[1].user, u"Tell me a story"_s);
    QVERIFY(r.sessions[2].turns[1].answer.isEmpty());
    QCOMPARE(r.sessions[2].turns[1].outputTokens, 64);

    const DatasetResult fixed = loadJsonlConversations(path, 32, 7, false);
    for (const Conversation& c : fixed.sessions)
        for (const Turn& t : c.turns)
            QCOMPARE(t.outputTokens, 7);
}

void TestDataset::jsonlConversationsStrict()
{
    const QString path = fixture(u"conversations.jsonl"_s);
    const DatasetResult r = loadJsonlConversations(path, 32, 0, true);
    QCOMPARE(r.error, path + u":4: messages[0] is an answer before any user turn"_s);
    QVERIFY(r.sessions.empty());
}

void TestDataset::lengthDistributionDraws_data()
{
    QTest::addColumn<LengthShape>("shape");
    QTest::addColumn<QList<int>>("inputs");
    QTest::addColumn<QList<int>>("outputs");
    QTest::addRow("fixed") << LengthShape::Fixed << QList<int> { 512, 512, 512, 512, 512 }
                           << QList<int> { 64, 64, 64, 64, 64 };
    // The first pair checked by hand: mt19937_64(42)'s first four outputs through Box–Muller.
    QTest::addRow("normal") << LengthShape::Normal << QList<int> { 389, 552, 528, 104, 544 }
                            << QList<int> { 72, 62, 47, 93, 38 };
    QTest::addRow("lognormal") << LengthShape::Lognormal << QList<int> { 365, 325, 475, 462, 274 }
                               << QList<int> { 70, 55, 53, 74, 58 };
}

void TestDataset::lengthDistributionDraws()
{
    QFETCH(LengthShape, shape);
    QFETCH(QList<int>, inputs);
    QFETCH(QList<int>, outputs);
    RandomDatasetOptions o;
    o.numPrompts = 5;
    o.inputLen = 512;
    o.outputLen = 64;
    o.inputShape = shape;
    o.outputShape = shape;
    o.inputStd = 256;
    o.outputStd = 16;
    o.seed = 42;
    const DatasetResult r = randomDataset(o);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QList<int> gotInputs;
    QList<int> gotOutputs;
    for (const Prompt& p : r.prompts) {
        gotInputs << p.promptTokens;
        gotOutputs << p.outputTokens;
        QCOMPARE(countWords(p.text), p.promptTokens);
    }
    QCOMPARE(gotInputs, inputs);
    QCOMPARE(gotOutputs, outputs);
}

// A spread beyond a double: every prompt still has at least one token (as documented), never 0.
void TestDataset::lengthSpreadBeyondADouble()
{
    RandomDatasetOptions o;
    o.numPrompts = 20;
    o.inputLen = 128;
    o.outputLen = 16;
    o.inputShape = LengthShape::Lognormal;
    o.inputStd = 1e300;
    o.maxModelLen = 4096;
    o.seed = 7;
    const DatasetResult r = randomDataset(o);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.prompts.size(), std::size_t(20));
    for (const Prompt& p : r.prompts) {
        QVERIFY2(p.promptTokens >= 1 && p.promptTokens <= 4095, qPrintable(QString::number(p.promptTokens)));
        QCOMPARE(countWords(p.text), p.promptTokens);
    }
}

void TestDataset::lengthDistributionBands_data()
{
    QTest::addColumn<LengthShape>("shape");
    QTest::addColumn<int>("mean");
    QTest::addColumn<double>("std");
    QTest::addRow("normal 512±64") << LengthShape::Normal << 512 << 64.0;
    QTest::addRow("lognormal 512±256") << LengthShape::Lognormal << 512 << 256.0;
    QTest::addRow("lognormal 128±32") << LengthShape::Lognormal << 128 << 32.0;
}

void TestDataset::lengthDistributionBands()
{
    QFETCH(LengthShape, shape);
    QFETCH(int, mean);
    QFETCH(double, std);
    RandomDatasetOptions o;
    o.numPrompts = 20000;
    o.inputLen = mean;
    o.outputLen = 1;
    o.inputShape = shape;
    o.outputShape = LengthShape::Fixed;
    o.inputStd = std;
    o.seed = 7;
    const DatasetResult r = randomDataset(o);
    QVERIFY2(r.ok(), qPrintable(r.error));
    double sum = 0;
    double sumSq = 0;
    for (const Prompt& p : r.prompts) {
        sum += p.promptTokens;
        sumSq += double(p.promptTokens) * p.promptTokens;
        QCOMPARE(p.outputTokens, 1);
    }
    const double n = double(r.prompts.size());
    const double sampleMean = sum / n;
    const double sampleStd = std::sqrt(sumSq / n - sampleMean * sampleMean);
    // The standard error of the mean is std/√20000 < 1% of std; the bands are several times wider.
    QVERIFY2(std::abs(sampleMean - mean) < 0.05 * std, qPrintable(QString::number(sampleMean)));
    QVERIFY2(std::abs(sampleStd - std) < 0.05 * std, qPrintable(QString::number(sampleStd)));
    if (shape == LengthShape::Lognormal) {
        // Right-skewed: the median sits below the mean, unlike a normal's.
        std::vector<int> lengths;
        for (const Prompt& p : r.prompts)
            lengths.push_back(p.promptTokens);
        std::nth_element(lengths.begin(), lengths.begin() + lengths.size() / 2, lengths.end());
        QVERIFY(lengths[lengths.size() / 2] < mean);
    }
}

void TestDataset::lengthDistributionClamp()
{
    RandomDatasetOptions o;
    o.numPrompts = 2000;
    o.inputLen = 500;
    o.outputLen = 100;
    o.inputShape = LengthShape::Normal;
    o.outputShape = LengthShape::Normal;
    o.inputStd = 400;
    o.outputStd = 400;
    o.maxModelLen = 600;
    const DatasetResult r = randomDataset(o);
    QVERIFY2(r.ok(), qPrintable(r.error));
    int atOne = 0;
    int atContext = 0;
    for (const Prompt& p : r.prompts) {
        QVERIFY(p.promptTokens >= 1 && p.promptTokens <= 599);
        QVERIFY(p.outputTokens >= 1 && p.promptTokens + p.outputTokens <= 600);
        atOne += p.promptTokens == 1;
        atContext += p.promptTokens == 599;
    }
    // A spread this wide reaches both bounds many times.
    QVERIFY(atOne > 100);
    QVERIFY(atContext > 100);
}

void TestDataset::lengthDistributionProfile()
{
    Profile p = Profile::demo(QUrl(u"http://127.0.0.1:1"_s));
    auto issues = [](const Profile& profile) {
        QStringList out;
        for (const ProfileIssue& i : validateProfile(profile))
            out << i.toString();
        return out.join(u'\n');
    };
    QVERIFY(issues(p).isEmpty());
    p.workload.inputLenDist = u"lognormal"_s;
    QCOMPARE(issues(p), u"workload.input_len_std: is required when workload.input_len_dist is \"lognormal\""_s);
    p.workload.inputLenStd = -1;
    QCOMPARE(issues(p), u"workload.input_len_std: must be a number >= 0"_s);
    p.workload.inputLenStd = 256;
    p.workload.outputLenDist = u"gauss"_s;
    QCOMPARE(issues(p),
        u"workload.output_len_dist: unknown distribution \"gauss\"; expected one of uniform, fixed, normal, lognormal"_s);
    p.workload.outputLenDist = u"fixed"_s;
    QVERIFY(issues(p).isEmpty());
    p.workload.numPrompts = 3;
    p.workload.inputLen = 100;
    p.workload.outputLen = 9;
    const DatasetResult r = loadWorkload(p.workload, {});
    QVERIFY2(r.ok(), qPrintable(r.error));
    for (const Prompt& prompt : r.prompts)
        QCOMPARE(prompt.outputTokens, 9);
}

void TestDataset::randomSessions()
{
    RandomDatasetOptions o;
    o.numPrompts = 10;
    o.inputLen = 20;
    o.outputLen = 8;
    o.rangeRatio = 0.5;
    o.seed = 7;
    const DatasetResult r = kp::randomSessions(o, 3, 50);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QVERIFY(r.prompts.empty());
    QCOMPARE(r.sessions.size(), std::size_t(4)); // 4 × 3 turns cover 10 requests
    for (const Conversation& c : r.sessions) {
        QCOMPARE(c.system, r.sessions[0].system); // one system prompt for all, so a prefix cache shares it
        QCOMPARE(c.systemTokens, 50);
        QCOMPARE(countWords(c.system), 50);
        QCOMPARE(c.turns.size(), std::size_t(3));
        for (const Turn& t : c.turns) {
            QVERIFY(t.userTokens >= 10 && t.userTokens <= 30);
            QVERIFY(t.answerTokens >= 4 && t.answerTokens <= 12);
            QCOMPARE(countWords(t.user), t.userTokens);
            QCOMPARE(countWords(t.answer), t.answerTokens);
            QCOMPARE(t.outputTokens, t.answerTokens);
        }
    }
    QVERIFY(r.sessions[0].turns[0].user != r.sessions[1].turns[0].user);
    // Seeded: the same seed gives the same sessions, another seed others (the system prompt too).
    const DatasetResult again = kp::randomSessions(o, 3, 50);
    QCOMPARE(again.sessions[3].turns[2].user, r.sessions[3].turns[2].user);
    QCOMPARE(again.sessions[0].system, r.sessions[0].system);
    o.seed = 8;
    const DatasetResult other = kp::randomSessions(o, 3, 50);
    QVERIFY(other.sessions[0].turns[0].user != r.sessions[0].turns[0].user);
    QVERIFY(other.sessions[0].system != r.sessions[0].system);
    QVERIFY(kp::randomSessions(o, 2, 0).sessions[0].system.isEmpty());
    QCOMPARE(kp::randomSessions(o, 0, 0).error,
        u"random sessions: num_prompts, input_len, output_len and turns must be >= 1"_s);

    Workload w;
    w.multiTurn = true;
    w.numPrompts = 7;
    w.turns = 2;
    w.systemPromptLen = 5;
    w.inputLen = 4;
    w.outputLen = 3;
    const DatasetResult fromWorkload = loadWorkload(w);
    QVERIFY2(fromWorkload.ok(), qPrintable(fromWorkload.error));
    QCOMPARE(fromWorkload.sessions.size(), std::size_t(4));
    QCOMPARE(fromWorkload.sessions[2].turns[1].userTokens, 4);
    QCOMPARE(fromWorkload.sessions[2].turns[1].outputTokens, 3);
    QCOMPARE(fromWorkload.sessions[2].systemTokens, 5);
}

void TestDataset::sessionsCoverNumPrompts()
{
    Workload w;
    w.dataset = u"jsonl"_s;
    w.datasetPath = fixture(u"conversations.jsonl"_s);
    w.multiTurn = true;
    w.numPrompts = 12; // 5 turns in 3 conversations
    w.seed = 3;
    const DatasetResult r = loadWorkload(w);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QVERIFY(r.prompts.empty());
    QCOMPARE(r.warnings.constLast(),
        w.datasetPath + u": 5 turns in 3 conversations for 12 requests: conversations are reused"_s);
    qint64 turns = 0;
    for (const Conversation& c : r.sessions)
        turns += qint64(c.turns.size());
    QVERIFY(turns >= 12);
    QVERIFY(turns - qint64(r.sessions.back().turns.size()) < 12); // no more sessions than needed
    std::set<QString> origins;
    for (std::size_t i = 0; i < r.sessions.size(); ++i) {
        origins.insert(r.sessions[i].origin);
        QCOMPARE(r.sessions[i].origin, r.sessions[i % 3].origin); // the shuffled order, wrapped around
    }
    QCOMPARE(origins.size(), std::size_t(3));
    // Seeded: the same order again; fewer requests take fewer sessions, without a warning.
    QCOMPARE(loadWorkload(w).sessions[0].origin, r.sessions[0].origin);
    w.numPrompts = 1;
    const DatasetResult one = loadWorkload(w);
    QCOMPARE(one.sessions.size(), std::size_t(1));
    QCOMPARE(one.sessions[0].origin, r.sessions[0].origin);
    QVERIFY(!one.warnings.constLast().contains(u"reused"_s));

    // ShareGPT: shuffled as it is read, then wrapped around the same way.
    QTemporaryDir dir;
    w.dataset = u"sharegpt"_s;
    w.datasetPath = writeFile(dir, u"multi.json"_s, shareGptFile(kMultiTurnEntries, nullptr));
    w.numPrompts = 10; // 4 turns in 2 conversations
    const DatasetResult share = loadWorkload(w);
    QVERIFY2(share.ok(), qPrintable(share.error));
    QCOMPARE(share.warnings.constLast(),
        w.datasetPath + u": 4 turns in 2 conversations for 10 requests: conversations are reused"_s);
    turns = 0;
    for (std::size_t i = 0; i < share.sessions.size(); ++i) {
        QCOMPARE(share.sessions[i].origin, share.sessions[i % 2].origin);
        turns += qint64(share.sessions[i].turns.size());
    }
    QVERIFY(turns >= 10 && turns - qint64(share.sessions.back().turns.size()) < 10);

    w.dataset = u"shared-prefix"_s;
    QCOMPARE(loadWorkload(w).error,
        u"workload.multi_turn: the shared-prefix dataset has no conversations; use sharegpt, jsonl or random"_s);
}

void TestDataset::mooncakeTrace()
{
    const QString path = fixture(u"mooncake.jsonl"_s);
    MooncakeOptions o;
    o.numPrompts = 100;
    DatasetResult r = loadMooncake(path, o);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.badLines, qint64(5));
    QCOMPARE(r.prompts.size(), std::size_t(5));
    // Time order, from the earliest timestamp (ms).
    const std::vector<qint64> at = { 0, 1000 * ms, 2500 * ms, 4000 * ms, 5000 * ms };
    const std::vector<int> input = { 600, 1000, 512, 1500, 20 };
    const std::vector<int> output = { 10, 20, 5, 600, 8 };
    const std::vector<std::vector<qint64>> ids = { { 0, 2 }, { 0, 1 }, { 3 }, { 0, 1, 4 }, { 5 } };
    for (std::size_t i = 0; i < r.prompts.size(); ++i) {
        QCOMPARE(r.prompts[i].atNs, at[i]);
        QCOMPARE(r.prompts[i].promptTokens, input[i]);
        QCOMPARE(r.prompts[i].outputTokens, output[i]);
        QCOMPARE(r.prompts[i].hashIds, ids[i]);
        QVERIFY(r.prompts[i].text.isEmpty());
    }
    QVERIFY(r.warnings.contains(path + u": timestamps are not in order; requests are replayed in time order"_s));
    // A trace shorter than the requests asked is replayed again from its start, as the jsonl dataset says.
    QCOMPARE(r.warnings.last(), path + u": 5 prompts available for 100 requests: prompts are reused"_s);

    // Bounded: the earliest num_prompts usable lines in file order, then in time order.
    o.numPrompts = 2;
    r = loadMooncake(path, o);
    QVERIFY(r.ok());
    QVERIFY(!r.warnings.join(u'\n').contains(u"reused"_s));
    QCOMPARE(r.badLines, qint64(0));
    QCOMPARE(r.prompts.size(), std::size_t(2));
    QCOMPARE(r.prompts[0].promptTokens, 600);
    QCOMPARE(r.prompts[1].atNs, 1000 * ms);

    o.numPrompts = 100;
    o.fixedOutputTokens = 16;
    r = loadMooncake(path, o);
    QCOMPARE(r.prompts[3].outputTokens, 16);

    Workload w;
    w.dataset = u"mooncake"_s;
    w.datasetPath = path;
    w.numPrompts = 3;
    r = loadWorkload(w);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.prompts.size(), std::size_t(3));
    QCOMPARE(r.prompts[2].atNs, 2500 * ms);
    w.datasetPath.clear();
    QCOMPARE(loadWorkload(w).error, u"workload.dataset_path: required for the mooncake dataset"_s);
}

void TestDataset::mooncakeBadLines()
{
    const QString path = fixture(u"mooncake.jsonl"_s);
    MooncakeOptions o;
    o.numPrompts = 100;
    o.maxModelLen = 2048;
    DatasetResult r = loadMooncake(path, o);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.badLines, qint64(6));
    QCOMPARE(r.prompts.size(), std::size_t(4));
    QCOMPARE(r.warnings.mid(0, 7),
        (QStringList { path + u":4: needs \"hash_ids\": an array of whole numbers"_s,
            path + u":5: input_length 2000 needs more than the 2 blocks of hash_ids (512 tokens each)"_s,
            path + u":6: input_length 300 fills fewer than the 2 blocks of hash_ids (512 tokens each)"_s,
            path + u":7: needs \"timestamp\": a whole number of milliseconds >= 0"_s,
            path + u":8: hash_ids[1] is not a whole number"_s,
            path + u":9: input_length + output_length = 2100 is over max_model_len 2048"_s,
            path + u": skipped 6 of 10 lines"_s }));
    o.strict = true;
    r = loadMooncake(path, o);
    QCOMPARE(r.error, path + u":4: needs \"hash_ids\": an array of whole numbers"_s);
    QVERIFY(r.prompts.empty());
}

void TestDataset::mooncakePromptText()
{
    const DatasetResult r = loadMooncake(fixture(u"mooncake.jsonl"_s), MooncakeOptions {});
    QVERIFY2(r.ok(), qPrintable(r.error));
    const Prompt& a = r.prompts[1]; // ids 0, 1; 1000 tokens
    const Prompt& b = r.prompts[0]; // ids 0, 2; 600 tokens
    const QStringList wordsA = promptText(a, 1).split(u' ');
    const QStringList wordsB = promptText(b, 1).split(u' ');
    QCOMPARE(wordsA.size(), 1000); // cut to input_length
    QCOMPARE(wordsB.size(), 600);
    QCOMPARE(countWords(promptText(a, 1)), 1000);
    // Equal hash ids are equal text (block 0), different ids differ (block 1 against block 2).
    QCOMPARE(wordsA.mid(0, kTraceBlockTokens), wordsB.mid(0, kTraceBlockTokens));
    QVERIFY(wordsA.mid(kTraceBlockTokens, 88) != wordsB.mid(kTraceBlockTokens, 88));
    // A whole block: 512 words, the same for the same id and seed whatever prompt it is in.
    const Prompt& c = r.prompts[3]; // ids 0, 1, 4; 1500 tokens
    QCOMPARE(promptText(c, 1).left(promptText(a, 1).size()), promptText(a, 1));
    QVERIFY(promptText(a, 2) != promptText(a, 1));
    Prompt plain;
    plain.text = u"plain text"_s;
    QCOMPARE(promptText(plain, 1), u"plain text"_s);

    // The cost per request (not a timed assertion: a loaded machine varies).
    Prompt big;
    big.promptTokens = 8000;
    for (qint64 id = 0; id < 16; ++id)
        big.hashIds.push_back(1000 + id);
    QElapsedTimer timer;
    timer.start();
    int total = 0;
    for (int i = 0; i < 200; ++i)
        total += int(promptText(big, quint64(i % 4)).size());
    qDebug("promptText: 8,000-token prompt in %.1f us on average (%d chars)", double(timer.nsecsElapsed()) / 200 / 1e3,
        total / 200);
    QCOMPARE(countWords(promptText(big, 0)), 8000);
}

QTEST_GUILESS_MAIN(TestDataset)
#include "tst_dataset.moc"
