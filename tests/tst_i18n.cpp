// Translations: every user-visible string of the window is marked for translation and translated, the
// window speaks Chinese with the zh_CN catalogue, exported PDFs embed the CJK font, and the CLI's output
// does not change with the locale.

#include "client/errorwords.h"
#include "export/chartexport.h"
#include "export/chartset.h"
#include "export/comparereport.h"
#include "export/reportdoc.h"
#include "export/runreport.h"
#include "i18n/language.h"
#include "kit/liverun.h"
#include "kit/runmeta.h"
#include "kit/sweepcontroller.h"
#include "kit/uiformat.h"
#include "metrics/phrase.h"
#include "metrics/resultjson.h"
#include "profile/profile.h"
#include "run/runpage.h"
#include "runs/comparison.h"
#include "runs/importers.h"
#include "runs/savedrun.h"
#include "shell/mainwindow.h"
#include "sim/faults.h"
#include "sim/simhost.h"
#include "sweep/analysistext.h"
#include "sweep/analysiswords.h"
#include "sweep/capacityplan.h"
#include "sweep/kneeanalysis.h"
#include "sweep/slospec.h"
#include "sweep/sweepplanner.h"

#include <QAction>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <QTranslator>
#include <QXmlStreamReader>

namespace {

const QString kSourceDir = QStringLiteral(KNEEPOINT_SOURCE_DIR);
constexpr int kProcessTimeoutMs = 120000;

// Literals the window shows on purpose as they are: values a profile file holds, metadata keys of
// image files, the program's name, and each language's name in that language.
const QSet<QString> kAllowedLiterals = {
    QStringLiteral("none"), // target.proxy values in the editable proxy box
    QStringLiteral("system"),
    QStringLiteral("Title"), // PNG text chunk keys
    QStringLiteral("Description"),
    QStringLiteral("Software"),
    QStringLiteral("Kneepoint"),
    QStringLiteral("English"),
};

// Calls and constructors whose string arguments end up on screen.
const QRegularExpression kDisplayCall(QStringLiteral(
    "\\b(setText|setWindowTitle|setToolTip|setStatusTip|setWhatsThis|setPlaceholderText|setTitle|setTitleText|"
    "setLabelText|setSuffix|setPrefix|setSpecialValueText|setHeaderLabels|setHorizontalHeaderLabels|"
    "setVerticalHeaderLabels|showMessage|addAction|addMenu|addTab|insertTab|setTabText|setTabToolTip|addItem|"
    "addItems|insertItem|addRow|setName|setInformativeText|setDetailedText|setAccessibleName|setHtml|"
    "information|warning|critical|question|about|getOpenFileName|getSaveFileName|getExistingDirectory|"
    "QLabel|QPushButton|QCheckBox|QRadioButton|QGroupBox|QAction|QToolButton|QMenu|QCommandLinkButton)\\s*\\("));

// Removes comments, keeps string literals (and their line numbers).
QString withoutComments(const QString& code)
{
    QString out;
    out.reserve(code.size());
    for (qsizetype i = 0; i < code.size(); ++i) {
        const QChar c = code[i];
        const QChar next = i + 1 < code.size() ? code[i + 1] : QChar();
        if (c == u'/' && next == u'/') {
            while (i < code.size() && code[i] != u'\n')
                ++i;
            out += u'\n';
        } else if (c == u'/' && next == u'*') {
            i += 2;
            while (i + 1 < code.size() && !(code[i] == u'*' && code[i + 1] == u'/')) {
                if (code[i] == u'\n')
                    out += u'\n';
                ++i;
            }
            ++i;
        } else if (c == u'"' || c == u'\'') {
            out += c;
            for (++i; i < code.size() && code[i] != c; ++i) {
                out += code[i];
                if (code[i] == u'\\' && i + 1 < code.size())
                    out += code[++i];
            }
            if (i < code.size())
                out += code[i];
        } else {
            out += c;
        }
    }
    return out;
}

// The top-level arguments of the call whose "(" is at open.
QStringList callArguments(const QString& code, qsizetype open)
{
    QStringList args;
    QString current;
    int depth = 0;
    for (qsizetype i = open + 1; i < code.size(); ++i) {
        const QChar c = code[i];
        if (c == u'"' || c == u'\'') {
            current += c;
            for (++i; i < code.size() && code[i] != c; ++i) {
                current += code[i];
                if (code[i] == u'\\' && i + 1 < code.size())
                    current += code[++i];
            }
            current += c;
            continue;
        }
        if (c == u'(' || c == u'{' || c == u'[')
            ++depth;
        if (c == u')' || c == u'}' || c == u']') {
            if (depth == 0) {
                args << current.trimmed();
                return args;
            }
            --depth;
        }
        if (c == u',' && depth == 0) {
            args << current.trimmed();
            current.clear();
            continue;
        }
        current += c;
    }
    return args;
}

// The text of an argument that is a bare literal ("…", u"…"_s, QStringLiteral("…"), QLatin1String("…"),
// QString::fromUtf8("…"), possibly followed by .arg(…)); nullopt for anything else (tr(), variables).
std::optional<QString> literalText(const QString& arg)
{
    static const QRegularExpression literal(
        QStringLiteral("^(?:QStringLiteral\\(|QLatin1String(?:View)?\\(|QString::fromUtf8\\(|QString\\()?((?:u8?\"(?:[^"
                       "\"\\\\]|\\\\.)*\"\\s*|\"(?:[^\"\\\\]|\\\\.)*\"\\s*)+)"));
    const QRegularExpressionMatch m = literal.match(arg);
    if (!m.hasMatch())
        return std::nullopt;
    static const QRegularExpression piece(QStringLiteral("\"((?:[^\"\\\\]|\\\\.)*)\""));
    QString text;
    for (auto it = piece.globalMatch(m.captured(1)); it.hasNext();)
        text += it.next().captured(1);
    return text;
}

// Whether a literal holds words a person reads: letters beyond placeholders, markup, units and acronyms.
bool isWords(const QString& text)
{
    static const QSet<QString> units = { QStringLiteral("ms"), QStringLiteral("req"), QStringLiteral("tok"),
        QStringLiteral("s"), QStringLiteral("x") };
    static const QRegularExpression fileName(QStringLiteral("^[\\w.-]+\\.[A-Za-z0-9]+$")); // "comparison.png"
    if (fileName.match(text).hasMatch())
        return false;
    QString t = text;
    t.remove(QRegularExpression(QStringLiteral("%L?[0-9n]+|%[a-z]")));
    t.remove(QRegularExpression(QStringLiteral("<[^>]*>|&[a-z]+;|\\\\[nt]")));
    static const QRegularExpression word(QStringLiteral("[A-Za-z][A-Za-z'-]*"));
    for (auto it = word.globalMatch(t); it.hasNext();) {
        const QString w = it.next().captured(0);
        if (w.size() < 2 || units.contains(w) || w.toUpper() == w)
            continue;
        return true;
    }
    return false;
}

struct TsMessage
{
    QString context;
    QString source;
    QString translation;
    bool unfinished = false;
};

QList<TsMessage> readTs(const QString& path)
{
    QList<TsMessage> messages;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return messages;
    QXmlStreamReader xml(&file);
    QString context;
    TsMessage current;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement())
            continue;
        if (xml.name() == u"name") {
            context = xml.readElementText();
        } else if (xml.name() == u"message") {
            current = TsMessage { context, {}, {}, false };
        } else if (xml.name() == u"source") {
            current.source = xml.readElementText();
        } else if (xml.name() == u"translation") {
            const QString type = xml.attributes().value(QLatin1String("type")).toString();
            current.unfinished = type == u"unfinished";
            const bool obsolete = type == u"obsolete" || type == u"vanished";
            current.translation = xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
            if (!obsolete)
                messages << current;
        }
    }
    return messages;
}

QSet<QString> placeholders(const QString& text)
{
    QSet<QString> set;
    static const QRegularExpression p(QStringLiteral("%L?([0-9]+|n)"));
    for (auto it = p.globalMatch(text); it.hasNext();)
        set << it.next().captured(1);
    return set;
}

struct Outcome
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Outcome runCli(const QStringList& args, const QString& locale)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LANG"), locale);
    env.insert(QStringLiteral("LC_ALL"), locale);
    env.insert(QStringLiteral("LANGUAGE"), locale.section(u'.', 0, 0));
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(KNEEPOINT_CLI), args);
    if (!p.waitForFinished(kProcessTimeoutMs))
        p.kill();
    return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
        p.readAllStandardError() };
}

QStringList menuTexts(const QMenuBar* bar)
{
    QStringList texts;
    for (QAction* a : bar->actions()) {
        texts << a->text();
        if (a->menu()) {
            for (QAction* item : a->menu()->actions()) {
                if (!item->isSeparator())
                    texts << item->text();
            }
        }
    }
    return texts;
}

} // namespace

class TestI18n : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("KneepointTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_i18n"));
    }

    // A string shown by the window goes through tr(); a bare literal with words is a miss.
    void literalsAreMarked()
    {
        QStringList misses;
        int files = 0;
        QDirIterator it(kSourceDir + QStringLiteral("/ui"), { QStringLiteral("*.cpp"), QStringLiteral("*.h") },
            QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            QFile file(path);
            QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
            ++files;
            const QString code = withoutComments(QString::fromUtf8(file.readAll()));
            for (auto m = kDisplayCall.globalMatch(code); m.hasNext();) {
                const QRegularExpressionMatch call = m.next();
                const qsizetype open = call.capturedEnd(0) - 1;
                for (const QString& arg : callArguments(code, open)) {
                    const std::optional<QString> text = literalText(arg);
                    if (!text || !isWords(*text) || kAllowedLiterals.contains(*text))
                        continue;
                    const int line = int(code.left(open).count(u'\n')) + 1;
                    misses << QStringLiteral("%1:%2: %3(\"%4\") is not marked for translation (tr())")
                                  .arg(QDir(kSourceDir).relativeFilePath(path))
                                  .arg(line)
                                  .arg(call.captured(1), *text);
                }
            }
        }
        QVERIFY(files > 20);
        QVERIFY2(misses.isEmpty(), qPrintable(misses.join(u'\n')));
    }

    void scannerFindsBareLiterals()
    {
        QVERIFY(isWords(QStringLiteral("Run sweep")));
        QVERIFY(!isWords(QStringLiteral("%1 %2 ms")));
        QVERIFY(!isWords(QStringLiteral("<b>%1</b>")));
        QVERIFY(!isWords(QStringLiteral("TTFT")));
        QVERIFY(!isWords(QStringLiteral("comparison.png")));
        QCOMPARE(literalText(QStringLiteral("QStringLiteral(\"Stop\")")), QStringLiteral("Stop"));
        QCOMPARE(literalText(QStringLiteral("u\"Stop \" u\"now\"_s")), QStringLiteral("Stop now"));
        QVERIFY(!literalText(QStringLiteral("tr(\"Stop\")")));
        const QString code = QStringLiteral("a->setText(QStringLiteral(\"x, y\"), tr(\"z\"));");
        QCOMPARE(callArguments(code, code.indexOf(u'(')),
            QStringList({ QStringLiteral("QStringLiteral(\"x, y\")"), QStringLiteral("tr(\"z\")") }));
    }

    // lupdate over the sources into a copy of each catalogue: every message it finds is translated. The
    // English catalogue holds only the plural forms.
    void catalogueIsComplete_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("pluralOnly");
        QTest::addColumn<int>("atLeast");
        QTest::newRow("zh_CN") << QStringLiteral("kneepoint_zh_CN.ts") << false << 500;
        QTest::newRow("en") << QStringLiteral("kneepoint_en.ts") << true << 0;
    }

    void catalogueIsComplete()
    {
        QFETCH(QString, file);
        QFETCH(bool, pluralOnly);
        QFETCH(int, atLeast);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString committed = kSourceDir + QStringLiteral("/resources/translations/") + file;
        const QString copy = dir.filePath(file);
        QVERIFY2(QFile::copy(committed, copy), qPrintable(committed));
        QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
        QStringList args = { QStringLiteral("-silent"), QStringLiteral("-locations"), QStringLiteral("none"),
            QStringLiteral("-no-obsolete"), QStringLiteral("-tr-function-alias"),
            QStringLiteral("translate+=phrase,translate+=sentence") };
        if (pluralOnly)
            args << QStringLiteral("-pluralonly");
        args << QStringLiteral("ui") << QStringLiteral("app/gui") << QStringLiteral("engine") << QStringLiteral("-ts")
             << copy;
        QProcess lupdate;
        lupdate.setWorkingDirectory(kSourceDir);
        lupdate.setProcessChannelMode(QProcess::MergedChannels);
        lupdate.start(QStringLiteral(KNEEPOINT_LUPDATE), args);
        QVERIFY(lupdate.waitForFinished(kProcessTimeoutMs));
        QVERIFY2(lupdate.exitCode() == 0, lupdate.readAll().constData());

        const QList<TsMessage> messages = readTs(copy);
        QVERIFY(messages.size() >= atLeast);
        QStringList unfinished, mismatched;
        for (const TsMessage& m : messages) {
            if (m.unfinished || m.translation.isEmpty())
                unfinished << QStringLiteral("%1: \"%2\"").arg(m.context, m.source);
            else if (placeholders(m.source) != placeholders(m.translation))
                mismatched << QStringLiteral("%1: \"%2\" → \"%3\"").arg(m.context, m.source, m.translation);
        }
        QVERIFY2(unfinished.isEmpty(),
            qPrintable(QStringLiteral("%1 untranslated in resources/translations/%2 (cmake --build <dir> --target "
                                      "kneepoint_lupdate, then translate):\n%3")
                           .arg(unfinished.size())
                           .arg(file, unfinished.join(u'\n'))));
        QVERIFY2(mismatched.isEmpty(), qPrintable(mismatched.join(u'\n')));
        // A tr() helper called from a free function is filed by lupdate under the enclosing namespace,
        // while the helper translates in its class's context: such a message is never shown translated.
        QStringList underNamespace;
        for (const TsMessage& m : messages) {
            if (m.context == QLatin1String("kp") || m.context == QLatin1String("kp::ui"))
                underNamespace << QStringLiteral("%1: \"%2\"").arg(m.context, m.source);
        }
        QVERIFY2(underNamespace.isEmpty(),
            qPrintable(QStringLiteral("messages filed under a namespace (call QCoreApplication::translate with the "
                                      "class's context in free functions):\n")
                + underNamespace.join(u'\n')));
    }

    void languageFollowsTheLocale()
    {
        QCOMPARE(kp::ui::Language::codeFor(QLocale(QStringLiteral("zh_CN"))), QStringLiteral("zh_CN"));
        QCOMPARE(kp::ui::Language::codeFor(QLocale(QStringLiteral("zh_SG"))), QStringLiteral("zh_CN"));
        QCOMPARE(kp::ui::Language::codeFor(QLocale(QStringLiteral("zh_TW"))), QStringLiteral("en"));
        QCOMPARE(kp::ui::Language::codeFor(QLocale(QStringLiteral("de_DE"))), QStringLiteral("en"));
        QCOMPARE(kp::ui::Language::localeFor(QString()), QLocale::system());
        QCOMPARE(kp::ui::Language::localeFor(QStringLiteral("zh_CN")).language(), QLocale::Chinese);

        QCOMPARE(kp::ui::Language::chosen(), QString());
        kp::ui::Language::setChosen(QStringLiteral("zh_CN"));
        QCOMPARE(kp::ui::Language::chosen(), QStringLiteral("zh_CN"));
        kp::ui::Language::setChosen(QStringLiteral("xx"));
        QCOMPARE(kp::ui::Language::chosen(), QString()); // unknown codes fall back to the system's
        kp::ui::Language::setChosen(QString());
        QCOMPARE(kp::ui::Language::chosen(), QString());
    }

    // Engine sentences are English until the application switches translation on, and stay English
    // inside an EnglishPhrases scope (text bound for files).
    void phrasesFollowTheLanguage()
    {
        QVERIFY(!kp::phraseTranslation());
        QCOMPARE(kp::phrase("KneeAnalysis", "The curve bends at %1.").arg(QStringLiteral("8 req/s")),
            QStringLiteral("The curve bends at 8 req/s."));
        QCOMPARE(kp::loadWord(32, true), QStringLiteral("32 users"));

        QTranslator zh;
        QVERIFY(zh.load(QStringLiteral(":/i18n/kneepoint_zh_CN.qm")));
        QCoreApplication::installTranslator(&zh);
        kp::setPhraseTranslation(true);
        QCOMPARE(kp::phrase("KneeAnalysis", "The curve bends at %1.").arg(QStringLiteral("8 req/s")),
            QStringLiteral("曲线在 8 req/s 处弯折。"));
        QCOMPARE(kp::loadWord(32, true), QStringLiteral("32 并发"));
        {
            const kp::EnglishPhrases english;
            QCOMPARE(kp::loadWord(32, true), QStringLiteral("32 users"));
        }
        QCOMPARE(kp::loadWord(32, true), QStringLiteral("32 并发"));
        kp::setPhraseTranslation(false);
        QCoreApplication::removeTranslator(&zh);
        QCOMPARE(kp::loadWord(32, true), QStringLiteral("32 users"));
    }

    // A Sentence keeps its phrases and values: worded when read, its nested phrases in the same
    // language, placeholders filled by number in one pass (a value's own "%" is never a placeholder).
    void sentencesAreWordedWhenRead()
    {
        const kp::Sentence users = kp::sentence("KneeAnalysis", "%1 users").arg(QStringLiteral("32"));
        const kp::Sentence bends = kp::sentence("KneeAnalysis", "The curve bends at %1.").arg(users);
        const kp::Sentence spread
            = kp::sentence("KneeAnalysis", "throughput %1 to %2").arg(QStringLiteral("5%1"), QStringLiteral("%2"));
        QCOMPARE(bends.text(), QStringLiteral("The curve bends at 32 users."));
        QCOMPARE(spread.text(), QStringLiteral("throughput 5%1 to %2"));
        QCOMPARE((kp::Sentence::plain(QStringLiteral("a")) + kp::Sentence() + kp::Sentence::plain(QStringLiteral("b")))
                     .capitalized()
                     .text(),
            QStringLiteral("Ab"));
        QCOMPARE(kp::Sentence::join({ users, users }, kp::Sentence::plain(QStringLiteral("; "))).english(),
            QStringLiteral("32 users; 32 users"));
        QVERIFY(kp::Sentence().isEmpty());
        QVERIFY(kp::Sentence::plain(QString()).isEmpty());
        QVERIFY(!users.isEmpty());
        QCOMPARE(bends, kp::sentence("KneeAnalysis", "The curve bends at %1.").arg(users));
        QVERIFY(!(bends == kp::sentence("KneeAnalysis", "The curve bends at %1.").arg(QStringLiteral("32 users"))));

        QTranslator zh;
        QVERIFY(zh.load(QStringLiteral(":/i18n/kneepoint_zh_CN.qm")));
        QCoreApplication::installTranslator(&zh);
        kp::setPhraseTranslation(true);
        const QString chinese = bends.text();
        const QString english = bends.english();
        kp::setPhraseTranslation(false);
        QCoreApplication::removeTranslator(&zh);
        QCOMPARE(chinese, QStringLiteral("曲线在 32 并发 处弯折。"));
        QCOMPARE(english, QStringLiteral("The curve bends at 32 users."));
        QCOMPARE(bends.text(), english);
    }

    // The analysis of vLLM's result files, in Chinese: sentences built from translated phrases, the
    // numbers and units as in English; the capacity plan too.
    void analysisInChinese()
    {
        const QString dir = QFINDTESTDATA("data/results/vllm-sweep");
        QVERIFY(!dir.isEmpty());
        std::vector<kp::SweepPoint> points;
        for (const QFileInfo& f : QDir(dir).entryInfoList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name)) {
            QFile file(f.filePath());
            QVERIFY(file.open(QIODevice::ReadOnly));
            const kp::ResultFileContents contents = kp::ResultJson::read(file.readAll(), f.filePath());
            QVERIFY2(contents.ok(), qPrintable(contents.error));
            for (const kp::ImportedStep& step : contents.steps)
                points.push_back(kp::SweepPoint::fromStep(step.setup, step.metrics));
        }
        std::sort(points.begin(), points.end(),
            [](const kp::SweepPoint& a, const kp::SweepPoint& b) { return a.offered < b.offered; });
        kp::Slo slo;
        QVERIFY(kp::parseSloSpec(u"ttft:p99:500", slo).isEmpty());
        const kp::AnalysisOptions options = kp::analysisOptionsFor(slo);
        kp::PeakDemand peak;
        QVERIFY(kp::parsePeakDemand(u"1000", peak).isEmpty());

        // One analysis, worded in either language when it is read.
        const kp::AnalysisResult result = kp::KneeAnalysis::analyze(points, options);
        const kp::CapacityPlan plan = kp::CapacityPlan::fromAnalysis(result, peak, kp::Redundancy {});
        QVERIFY2(result.knee.reason.text().startsWith(QStringLiteral("The knee is at 30 req/s")),
            qPrintable(result.knee.reason.text()));
        const QStringList englishLines = kp::analysisLines(result);

        QTranslator zh;
        QVERIFY(zh.load(QStringLiteral(":/i18n/kneepoint_zh_CN.qm")));
        QCoreApplication::installTranslator(&zh);
        kp::setPhraseTranslation(true);
        const QString knee = result.knee.reason.text();
        const QString sloCapacity = result.sloCapacity.reason.text();
        const QString planText = plan.sentence();
        const QStringList lines = kp::analysisLines(result, &plan);
        const QString kneeInEnglish = result.knee.reason.english();
        QStringList filed;
        {
            const kp::EnglishPhrases inEnglish;
            filed = kp::analysisLines(result);
        }
        kp::setPhraseTranslation(false);
        QCoreApplication::removeTranslator(&zh);

        QVERIFY2(knee.startsWith(QStringLiteral("拐点在 30 req/s（实际 ")), qPrintable(knee));
        QVERIFY2(sloCapacity.startsWith(QStringLiteral("SLO 容量为 37.3 req/s")), qPrintable(sloCapacity));
        QVERIFY2(planText.contains(QStringLiteral("台服务器")), qPrintable(planText));
        // Text bound for files stays English while the window speaks Chinese.
        QCOMPARE(kneeInEnglish, result.knee.reason.text());
        QCOMPARE(filed, englishLines);
        QCOMPARE(lines.size(), englishLines.size() + 1);
        for (const QString& line : lines) {
            static const QRegularExpression englishWords(QStringLiteral("\\b(the|of|at|and|is|step|throughput)\\b"));
            QVERIFY2(!englishWords.match(line).hasMatch(), qPrintable(line));
        }
        if (!qEnvironmentVariable("KNEEPOINT_SCREENSHOT_DIR").isEmpty())
            qInfo().noquote() << lines.join(u'\n');
    }

    // The planner's step details and stop reasons, the steps' purposes and the report's language follow
    // the window, while the stop reason written to run.json stays English.
    void sweepTextInChinese()
    {
        kp::Load load;
        load.rates = { 10, 20, 30, 40, 50 };
        auto step = [](const kp::PlannedStep& s, double rps, double p99) {
            kp::StepOutcome o;
            o.step = s;
            o.metrics.requestThroughput = rps;
            o.metrics.completed = 100;
            o.metrics.ttft.count = 100;
            o.metrics.ttft.max = p99;
            o.metrics.ttft.percentiles = { { 99.0, p99 } };
            return o;
        };
        QTranslator zh;
        QVERIFY(zh.load(QStringLiteral(":/i18n/kneepoint_zh_CN.qm")));
        QCoreApplication::installTranslator(&zh);
        kp::setPhraseTranslation(true);
        // Throughput peaks at 30 req/s, then falls twice while latency rises: the planner stops at 50.
        kp::SweepPlanner planner(load, kp::Slo {});
        std::vector<kp::StepOutcome> done;
        const std::vector<std::pair<double, double>> curve { { 10, 50 }, { 20, 60 }, { 29, 200 }, { 26, 900 },
            { 22, 3000 } };
        for (const auto& [rps, p99] : curve)
            done.push_back(step(*planner.next(done), rps, p99));
        QVERIFY(!planner.next(done));
        const QString shown = planner.stopReasonText();
        const QString written = planner.stopReason();
        kp::PlannedStep floor { kp::LoadMode::Concurrency, 1, QStringLiteral("floor"), {} };
        kp::Load autoLoad;
        autoLoad.plan.kind = kp::PlanKind::Auto;
        const QString floorDetail = kp::SweepPlanner(autoLoad, kp::Slo {}).next({}).value_or(floor).detail;
        const QString purpose = kp::ui::UiFormat::purposeWord(QStringLiteral("refine"));
        const QString unknown = kp::ui::UiFormat::purposeWord(QStringLiteral("warmup"));
        kp::Profile invalid = kp::Profile::demo(QUrl(QStringLiteral("sim://default")), QString());
        invalid.load.rates = { 5, -3 };
        const QList<kp::ProfileIssue> issues = kp::validateProfile(invalid);
        kp::ui::ReportDoc doc(QStringLiteral("报告"));
        const QByteArray html = doc.html(kp::ui::ReportDoc::ImageMode::DataUri);
        kp::setPhraseTranslation(false);
        QCoreApplication::removeTranslator(&zh);

        QCOMPARE(shown, QStringLiteral("服务器崩溃：吞吐量连续两步下降而延迟上升（直到 50 req/s）"));
        QCOMPARE(written,
            QStringLiteral("the server collapsed: throughput fell for two steps in a row while latency rose (up to "
                           "50 req/s)"));
        QCOMPARE(floorDetail, QStringLiteral("一次一个请求"));
        QCOMPARE(purpose, QStringLiteral("细化"));
        QCOMPARE(unknown, QStringLiteral("warmup"));
        QCOMPARE(
            kp::errorWords(QNetworkReply::RemoteHostClosedError), QStringLiteral("the server closed the connection"));
        QCOMPARE(
            kp::errorWords(QAbstractSocket::RemoteHostClosedError), QStringLiteral("the server closed the connection"));
        QCOMPARE(kp::errorWords(QAbstractSocket::SslHandshakeFailedError), QStringLiteral("ssl handshake failed"));
        QCOMPARE(
            kp::errorWords(QNetworkReply::ProxyConnectionRefusedError), QStringLiteral("proxy connection refused"));
        QCOMPARE(issues.size(), 1);
        QCOMPARE(issues.constFirst().path, QStringLiteral("load.rates[1]"));
        QCOMPARE(issues.constFirst().message, QStringLiteral("必须 > 0")); // in the form, at the field
        QCOMPARE(kp::validateProfile(invalid).constFirst().message, QStringLiteral("must be > 0")); // CLI
        QVERIFY2(html.contains("<html lang=\"zh-CN\">"), html.left(200).constData());
        QVERIFY(kp::ui::ReportDoc(QStringLiteral("report"))
                    .html(kp::ui::ReportDoc::ImageMode::DataUri)
                    .contains("<html lang=\"en\">"));
        QCOMPARE(kp::ui::UiFormat::purposeWord(QStringLiteral("refine")), QStringLiteral("refine"));
    }

    // The CLI never installs a translator: its output is the same under any locale, byte for byte.
    void cliOutputIgnoresTheLocale()
    {
        const QString dir = QFINDTESTDATA("data/results/vllm-sweep");
        QVERIFY(!dir.isEmpty());
        const QList<QStringList> commands = {
            { QStringLiteral("analyze"), dir, QStringLiteral("--slo"), QStringLiteral("ttft:p99:500"),
                QStringLiteral("--peak"), QStringLiteral("1000"), QStringLiteral("--redundancy"),
                QStringLiteral("N+2") },
            { QStringLiteral("analyze"), dir, QStringLiteral("--slo"), QStringLiteral("ttft:p99:500"),
                QStringLiteral("--peak"), QStringLiteral("1000"), QStringLiteral("--json") },
        };
        for (const QStringList& args : commands) {
            const Outcome c = runCli(args, QStringLiteral("C"));
            QVERIFY2(c.exitCode == 0, c.err.constData());
            QVERIFY(c.out.contains("req/s"));
            for (const QString& locale : { QStringLiteral("zh_CN.UTF-8"), QStringLiteral("de_DE.UTF-8") }) {
                const Outcome l = runCli(args, locale);
                QCOMPARE(l.exitCode, 0);
                QCOMPARE(l.out, c.out);
            }
        }
    }

    // The remaining tests run with the zh_CN catalogue installed, as the application does at start.
    void mainWindowSpeaksChinese()
    {
        QCOMPARE(kp::ui::Language::install(qApp, QLocale(QStringLiteral("zh_CN"))), QStringLiteral("zh_CN"));
        QCOMPARE(kp::ui::Language::current(), QStringLiteral("zh_CN"));
        QCOMPARE(QLocale().language(), QLocale::Chinese);

        kp::ui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(window.windowTitle().startsWith(QStringLiteral("Kneepoint — ")), qPrintable(window.windowTitle()));
        const QStringList menus = menuTexts(window.menuBar());
        for (const QString& text : { QStringLiteral("文件(&F)"), QStringLiteral("扫描(&S)"), QStringLiteral("视图(&V)"),
                 QStringLiteral("帮助(&H)"), QStringLiteral("运行扫描(&R)"), QStringLiteral("停止(&S)"),
                 QStringLiteral("语言(&L)"), QStringLiteral("退出(&Q)") })
            QVERIFY2(menus.contains(text), qPrintable(text + QStringLiteral(" not in: ") + menus.join(u" | ")));
        QCOMPARE(window.runAction()->text(), QStringLiteral("运行扫描(&R)"));
        QVERIFY(!menus.contains(QStringLiteral("&File")));

        // A picture to look at: KNEEPOINT_SCREENSHOT_DIR=/tmp/shots ctest -R i18n
        const QString shots = qEnvironmentVariable("KNEEPOINT_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            QDir().mkpath(shots);
            QVERIFY(window.grab().save(shots + QStringLiteral("/mainwindow-zh_CN.png")));
            window.showRunView();
            QVERIFY(window.grab().save(shots + QStringLiteral("/runview-zh_CN.png")));
            // vLLM's result files imported and opened: the charts, steps and analysis in Chinese.
            QTemporaryDir runs;
            const kp::ImportResult imported
                = kp::importRun({ QFINDTESTDATA("data/results/vllm-sweep") }, runs.path(), kp::ImportOptions {});
            QVERIFY2(imported.ok(), qPrintable(imported.error));
            QSignalSpy opened(&window, &kp::ui::MainWindow::savedRunOpened);
            QVERIFY(window.openSavedRun(imported.dir));
            QTRY_COMPARE(opened.size(), 1);
            window.runPage()->tabs()->setCurrentIndex(1);
            window.runPage()->peakDemandEdit()->setText(QStringLiteral("1000 req/s"));
            window.runPage()->redundancyEdit()->setText(QStringLiteral("N+2"));
            QCoreApplication::processEvents();
            QVERIFY(window.grab().save(shots + QStringLiteral("/analysis-zh_CN.png")));
            window.runPage()->peakDemandEdit()->clear();
            window.runPage()->redundancyEdit()->clear();
            window.showRunsView();
            QCoreApplication::processEvents();
            QVERIFY(window.grab().save(shots + QStringLiteral("/runs-zh_CN.png")));
        }
    }

    // A sweep in the Chinese window: the log names each step's purpose and the planner's reasons in
    // Chinese, while every file of the run stays English.
    void sweepInChineseWritesEnglishFiles()
    {
        if (kp::ui::Language::current() != QLatin1String("zh_CN"))
            kp::ui::Language::install(qApp, QLocale(QStringLiteral("zh_CN")));
        QTemporaryDir runs;
        QVERIFY(runs.isValid());
        kp::ui::SweepController controller;
        controller.setRunsDirectory(runs.path());
        kp::ui::RunPage page(&controller);
        page.resize(1280, 800);
        page.show();
        QStringList log;
        connect(page.run(), &kp::ui::LiveRun::logLine, this, [&log](const QString& line) { log << line; });
        QSignalSpy finished(&controller, &kp::ui::SweepController::finished);
        QSignalSpy failed(&controller, &kp::ui::SweepController::failed);

        // Time scale 5: the all-at-once step stays far below the planner's 2,000 req/s cap (at 20 a fast
        // client passes it, and the plan stops before its coarse steps).
        kp::Profile profile = kp::Profile::demo(QUrl(QStringLiteral("sim://small?time_scale=5&seed=1")), QString());
        profile.name = QStringLiteral("Auto sweep");
        profile.target.model.clear();
        profile.workload.numPrompts = 30;
        profile.load.plan.kind = kp::PlanKind::Auto;
        profile.load.plan.steps = 2;
        profile.load.plan.refine = false;
        profile.load.stepDurationS.reset();
        profile.load.warmupRequests = 0;
        profile.load.cooldownS = 0;
        controller.start(profile);
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty() || !failed.isEmpty(), 180000);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));

        const QString text = log.join(u'\n');
        for (const QString& expected :
            { QStringLiteral("内置模拟器：预设 small，时间倍率 5"), QStringLiteral("（下限：一次一个请求）"),
                QStringLiteral("（上限：全部请求一次发出）"), QStringLiteral("（粗扫：介于下限（") })
            QVERIFY2(text.contains(expected), qPrintable(expected + QStringLiteral(" not in the log:\n") + text));

        static const QRegularExpression han(QStringLiteral("[\\x{3000}-\\x{9fff}\\x{ff00}-\\x{ffef}]"));
        const QString dir = page.run()->info().runDirectory;
        QVERIFY2(QFileInfo(dir + QStringLiteral("/run.json")).isFile(), qPrintable(dir));
        int files = 0;
        for (QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories); it.hasNext();) {
            QFile f(it.next());
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QString content = QString::fromUtf8(f.readAll());
            const QRegularExpressionMatch m = han.match(content);
            QVERIFY2(!m.hasMatch(),
                qPrintable(QStringLiteral("%1 holds Chinese text: …%2…")
                               .arg(f.fileName(), content.mid(m.capturedStart() - 40, 80))));
            ++files;
        }
        QVERIFY(files >= 4);
        // What File ▸ Export writes from the window: the steps as JSON and CSV, English too.
        const kp::ui::RunReport exported(
            page.run(), kp::ui::RunMeta::fromInfo(page.run()->info(), QStringLiteral("finished")));
        for (const QByteArray& data : { exported.stepsJson(), exported.stepsCsv() }) {
            const QString content = QString::fromUtf8(data);
            QVERIFY(content.contains(QLatin1String("floor")));
            const QRegularExpressionMatch m = han.match(content);
            QVERIFY2(!m.hasMatch(), qPrintable(content.mid(m.capturedStart() - 60, 120)));
        }

        // Failed requests too: Qt's own error strings are translated once its catalogue is installed,
        // and a request's message goes to requests.jsonl. A server that cuts a third of the streams,
        // on both transports (fixed seeds: one whose preflight request is not cut runs the sweep).
        for (const kp::TransportKind transport : { kp::TransportKind::Qnam, kp::TransportKind::Socket }) {
            QString failedDir;
            for (quint64 seed = 1; seed <= 8 && failedDir.isEmpty(); ++seed) {
                kp::sim::SimHost host;
                kp::sim::SimServerOptions options;
                options.timeScale = 20;
                options.seed = seed;
                QCOMPARE(kp::sim::applyFaultSpec(QStringLiteral("cut:0.3"), options.faults), QString());
                QVERIFY2(host.start(options), qPrintable(host.errorString()));
                kp::Profile cut = kp::Profile::demo(host.baseUrl(), QString());
                cut.name = QStringLiteral("Cut streams");
                cut.target.model.clear();
                cut.target.transport = transport;
                cut.workload.numPrompts = 30;
                cut.load.rates = { 40 };
                cut.load.stepDurationS.reset();
                cut.load.warmupRequests = 0;
                cut.load.cooldownS = 0;
                QSignalSpy done(&controller, &kp::ui::SweepController::finished);
                QSignalSpy refused(&controller, &kp::ui::SweepController::failed);
                controller.start(cut);
                QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty() || !refused.isEmpty(), 120000);
                if (refused.isEmpty())
                    failedDir = page.run()->info().runDirectory;
            }
            QVERIFY2(!failedDir.isEmpty(), "every preflight request was cut");
            QVERIFY(page.run()->failureCount() > 0);
            QByteArray requests;
            for (QDirIterator it(failedDir, QDir::Files, QDirIterator::Subdirectories); it.hasNext();) {
                QFile f(it.next());
                QVERIFY(f.open(QIODevice::ReadOnly));
                const QString content = QString::fromUtf8(f.readAll());
                if (f.fileName().endsWith(QLatin1String(".requests.jsonl")))
                    requests += content.toUtf8();
                const QRegularExpressionMatch m = han.match(content);
                QVERIFY2(!m.hasMatch(),
                    qPrintable(QStringLiteral("%1 holds Chinese text: …%2…")
                                   .arg(f.fileName(), content.mid(m.capturedStart() - 60, 120))));
            }
            QVERIFY2(requests.contains("\"error\""), requests.left(400).constData());
        }

        const QString shots = qEnvironmentVariable("KNEEPOINT_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            QDir().mkpath(shots);
            for (int i = 0; i < page.tabs()->count(); ++i) {
                if (qobject_cast<QPlainTextEdit*>(page.tabs()->widget(i)))
                    page.tabs()->setCurrentIndex(i);
            }
            QCoreApplication::processEvents();
            QVERIFY(page.grab().save(shots + QStringLiteral("/log-zh_CN.png")));
            page.tabs()->setCurrentIndex(0);
            QCoreApplication::processEvents();
            QVERIFY(page.grab().save(shots + QStringLiteral("/steps-zh_CN.png")));
        }
    }

    // A comparison in the Chinese window: its reasons in Chinese on screen and in the report, and in
    // English in the JSON and CSV written from the same window.
    void comparisonInChineseWritesEnglishFiles()
    {
        if (kp::ui::Language::current() != QLatin1String("zh_CN"))
            kp::ui::Language::install(qApp, QLocale(QStringLiteral("zh_CN")));
        QTemporaryDir runsDir;
        std::vector<kp::SavedRun> runs;
        for (int i = 0; i < 2; ++i) {
            const kp::ImportResult imported
                = kp::importRun({ QFINDTESTDATA("data/results/vllm-sweep") }, runsDir.path(), kp::ImportOptions {});
            QVERIFY2(imported.ok(), qPrintable(imported.error));
            const kp::SavedRunRead read = kp::readSavedRun(imported.dir);
            QVERIFY2(read.ok(), qPrintable(read.error));
            runs.push_back(*read.run);
        }
        const kp::CompareStatistic p95 = *kp::CompareStatistic::parse(u"p95");
        const kp::Comparison shown = kp::compareRuns(runs, 0, kp::CompareMetric::Ttft, p95);
        QCOMPARE(shown.curves[0].points[0].missing, QStringLiteral("未记录 P95 TTFT（已记录：P99）"));
        const kp::ui::CompareReport report(&runs, &shown);
        QString error;
        const QString json = runsDir.filePath(QStringLiteral("compare.json"));
        const QString csv = runsDir.filePath(QStringLiteral("compare.csv"));
        QVERIFY2(report.write(kp::ui::ReportFormat::Json, json, &error), qPrintable(error));
        QVERIFY2(report.write(kp::ui::ReportFormat::Csv, csv, &error), qPrintable(error));
        static const QRegularExpression han(QStringLiteral("[\\x{3000}-\\x{9fff}\\x{ff00}-\\x{ffef}]"));
        for (const auto& [path, english] :
            { std::pair { json, QStringLiteral("P95 TTFT not recorded (recorded: P99)") },
                std::pair { csv, QStringLiteral("the baseline has no P95 ttft values") } }) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QString content = QString::fromUtf8(f.readAll());
            QVERIFY2(content.contains(english), qPrintable(content.left(300)));
            const QRegularExpressionMatch m = han.match(content);
            QVERIFY2(
                !m.hasMatch(), qPrintable(path + QStringLiteral(": …") + content.mid(m.capturedStart() - 60, 120)));
        }
        const QString html = runsDir.filePath(QStringLiteral("compare.html"));
        QVERIFY2(report.write(kp::ui::ReportFormat::Html, html, &error), qPrintable(error));
        QFile h(html);
        QVERIFY(h.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(h.readAll()).contains(QStringLiteral("基准没有 P95 ttft 数值")));
    }

    // A chart exported as PDF in zh_CN: its Chinese title and axes come with an embedded CJK font.
    void pdfEmbedsTheCjkFont()
    {
        QVERIFY2(!QFontDatabase::families(QFontDatabase::SimplifiedChinese).isEmpty(),
            "no Simplified Chinese font: install fonts-noto-cjk (packaging/deps.sh)");
        kp::ui::LiveRun run(nullptr);
        kp::ui::ChartSet charts(&run);
        const kp::ui::ChartOptions options;
        kp::ui::ChartCaption caption;
        caption.title = QCoreApplication::translate("kp::ui::LoadLatencyChart", "Load–latency");
        caption.subtitle = QCoreApplication::translate("kp::ui::MainWindow", "built-in simulator");
        QCOMPARE(caption.title, QStringLiteral("负载–延迟"));
        const QByteArray pdf = kp::ui::ChartExport::pdf(charts.panel(options), caption);
        QVERIFY(pdf.startsWith("%PDF"));
        QVERIFY2(pdf.contains("/FontFile2"), "the PDF embeds no TrueType font program");
        static const QRegularExpression baseFont(QStringLiteral("/BaseFont\\s*/([A-Za-z0-9+_-]+)"));
        QStringList fonts;
        for (auto it = baseFont.globalMatch(QString::fromLatin1(pdf)); it.hasNext();)
            fonts << it.next().captured(1);
        QStringList cjk;
        for (const QString& family : QFontDatabase::families(QFontDatabase::SimplifiedChinese)) {
            const QString compact = QString(family).remove(u' ').toLower();
            for (const QString& font : fonts) {
                const QString name = font.section(u'+', -1).toLower();
                if (name.startsWith(compact) || name.contains(QLatin1String("cjk")))
                    cjk << font;
            }
        }
        QVERIFY2(!cjk.isEmpty(), qPrintable(QStringLiteral("no CJK font among ") + fonts.join(u", ")));

        const QString shots = qEnvironmentVariable("KNEEPOINT_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            QFile out(shots + QStringLiteral("/chart-zh_CN.pdf"));
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(pdf);
        }
    }
};

QTEST_MAIN(TestI18n)
#include "tst_i18n.moc"
