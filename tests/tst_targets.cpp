// Saved targets: the store, the Targets page, the desktop application's matrix run, profiles that refer to a target by
// name, `kneepoint-cli targets`, and a matrix sweep of one workload against two simulators of different sizes.
#include "client/requestbuilder.h"
#include "compare/compareview.h"
#include "kit/profilelibrary.h"
#include "kit/sweepcontroller.h"
#include "profile/profilepage.h"
#include "profile/profilestore.h"
#include "profile/targetstore.h"
#include "runs/runcatalog.h"
#include "shell/mainwindow.h"
#include "sim/filelimit.h"
#include "sim/simhost.h"
#include "sim/simmodel.h"
#include "support/simclient.h"
#include "targets/matrixrun.h"
#include "targets/targetspage.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QListWidget>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

using namespace kp;

namespace {

constexpr int kProcessTimeoutMs = 300000;

struct Outcome
{
    int exitCode = -1;
    QString out;
    QString err;
};

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeFile(const QString& path, const QByteArray& data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}

// As typed: the page hears of it.
void type(QLineEdit* edit, const QString& text)
{
    edit->setText(text);
    Q_EMIT edit->textEdited(text);
}

NamedTarget sampleTarget(const QString& name, const QString& url)
{
    NamedTarget t;
    t.name = name;
    t.target.baseUrl = url;
    t.target.backend = Backend::OpenAi;
    t.target.model = QStringLiteral("org/model-7b");
    t.target.apiKey = QStringLiteral("${KNEEPOINT_TEST_KEY}");
    t.target.headers = { { QStringLiteral("X-Team"), QStringLiteral("capacity") } };
    t.target.timeouts.totalS = 90;
    return t;
}

} // namespace

class TestTargets : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;

    QProcessEnvironment environment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.filePath(QStringLiteral("data")));
        env.insert(QStringLiteral("KNEEPOINT_TEST_KEY"), QStringLiteral("sk-test-key-for-targets"));
        return env;
    }

    Outcome runCli(const QStringList& args) const
    {
        QProcess p;
        p.setProcessEnvironment(environment());
        p.start(QStringLiteral(KNEEPOINT_CLI), args);
        if (!p.waitForFinished(kProcessTimeoutMs))
            p.kill();
        return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError()) };
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        // The window's profile library, targets and runs live in the temporary home.
        qputenv("XDG_CONFIG_HOME", m_home.filePath(QStringLiteral("gui-config")).toUtf8());
        qputenv("XDG_DATA_HOME", m_home.filePath(QStringLiteral("gui-data")).toUtf8());
        kp::sim::raiseFileLimit();
    }

    void storeRoundTrip()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sub/targets.json"));
        TargetStore store(path);
        QStringList errors;
        QVERIFY(store.load(&errors)); // no file yet: empty
        QVERIFY(store.targets().isEmpty());
        store.put(sampleTarget(QStringLiteral("staging"), QStringLiteral("https://staging.example.com/v1")));
        store.put(sampleTarget(QStringLiteral("local"), QStringLiteral("http://127.0.0.1:8000")));
        NamedTarget changed = sampleTarget(QStringLiteral("staging"), QStringLiteral("https://staging2.example.com"));
        store.put(changed); // replaces in place
        QCOMPARE(store.names(), (QStringList { QStringLiteral("staging"), QStringLiteral("local") }));
        // A rename keeps the place; a rename onto another target's name replaces that one, and the old name goes.
        store.put(sampleTarget(QStringLiteral("stage"), QStringLiteral("https://staging2.example.com")),
            QStringLiteral("staging"));
        QCOMPARE(store.names(), (QStringList { QStringLiteral("stage"), QStringLiteral("local") }));
        store.put(
            sampleTarget(QStringLiteral("local"), QStringLiteral("http://127.0.0.1:8001")), QStringLiteral("stage"));
        QCOMPARE(store.names(), QStringList { QStringLiteral("local") });
        QCOMPARE(store.find(QStringLiteral("local"))->target.baseUrl, QStringLiteral("http://127.0.0.1:8001"));
        store.put(changed);
        store.put(sampleTarget(QStringLiteral("local"), QStringLiteral("http://127.0.0.1:8000")));
        QCOMPARE(store.names(), (QStringList { QStringLiteral("local"), QStringLiteral("staging") }));
        QString error;
        QVERIFY2(store.save(&error), qPrintable(error));
        QCOMPARE(
            QFile::permissions(path) & (QFileDevice::ReadGroup | QFileDevice::ReadOther), QFileDevice::Permissions());

        TargetStore again(path);
        QVERIFY2(again.load(&errors), qPrintable(errors.join(u'\n')));
        QCOMPARE(again.targets(), store.targets());
        QCOMPARE(again.find(QStringLiteral("staging"))->target.baseUrl, QStringLiteral("https://staging2.example.com"));
        QVERIFY(again.remove(QStringLiteral("staging")));
        QVERIFY(!again.remove(QStringLiteral("staging")));
        QCOMPARE(again.names(), QStringList { QStringLiteral("local") });
    }

    void storeErrorsNameFileAndTarget()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("targets.json"));
        QVERIFY(writeFile(path,
            "{\"schema\": \"kneepoint.targets/1\", \"targets\": [\n"
            "                {\"name\": \"a\", \"base_url\": \"http://127.0.0.1:1\"},\n"
            "                {\"name\": \"a\", \"base_url\": \"http://127.0.0.1:2\"},\n"
            "                {\"name\": \"bad url\", \"base_url\": \"http://127.0.0.1:3\"},\n"
            "                {\"name\": \"b\", \"base_url\": \"ftp://nowhere\"}]}"));
        TargetStore store(path);
        QStringList errors;
        QVERIFY(!store.load(&errors));
        const QString all = errors.join(u'\n');
        QVERIFY2(all.contains(path + QStringLiteral(": targets[1].name: \"a\" is used twice")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("targets[2].name: target name \"bad url\"")), qPrintable(all));
        QVERIFY2(all.contains(path + QStringLiteral(" (targets[3] \"b\"): target.base_url: must be an http://")),
            qPrintable(all));

        QVERIFY(writeFile(path, "{\"schema\": \"kneepoint.targets/1\",\n \"targets\": [,]}"));
        QVERIFY(!store.load(&errors));
        QVERIFY2(errors.last().startsWith(path + QStringLiteral(": line 2: ")), qPrintable(errors.last()));
    }

    void profileReferenceResolvesLikeEmbedded()
    {
        QTemporaryDir dir;
        TargetStore store(dir.filePath(QStringLiteral("targets.json")));
        store.put(sampleTarget(QStringLiteral("staging"), QStringLiteral("https://staging.example.com/v1")));
        QString error;
        QVERIFY(store.save(&error));

        // The same profile twice: once referring to the target, once embedding it.
        Profile embedded;
        embedded.name = QStringLiteral("p");
        embedded.target
            = sampleTarget(QStringLiteral("staging"), QStringLiteral("https://staging.example.com/v1")).target;
        QJsonObject referring = ProfileStore::toJsonObject(embedded);
        referring.insert(QStringLiteral("target"), QStringLiteral("staging"));
        const ProfileLoadResult loaded = ProfileStore::fromJsonObject(referring, QStringLiteral("p.json"));
        QVERIFY2(loaded.ok(), qPrintable(loaded.errors.join(u'\n')));
        Profile profile = *loaded.profile;
        QCOMPARE(profile.targetName, QStringLiteral("staging"));
        QVERIFY(validateProfile(profile).isEmpty()); // the reference is checked when resolved
        // Saving keeps the reference, so that editing the target updates the profile.
        QCOMPARE(
            ProfileStore::toJsonObject(profile).value(QStringLiteral("target")).toString(), QStringLiteral("staging"));

        QVERIFY(resolveTargetReference(profile, store).isEmpty());
        QVERIFY(profile.targetName.isEmpty());
        QCOMPARE(profile, embedded);
        qputenv("KNEEPOINT_TEST_KEY", "sk-resolved");
        QString e1, e2;
        const RequestTemplate a = requestTemplate(profile, &e1);
        const RequestTemplate b = requestTemplate(embedded, &e2);
        QVERIFY(e1.isEmpty() && e2.isEmpty());
        QCOMPARE(a.url, QUrl(QStringLiteral("https://staging.example.com/v1/completions")));
        QCOMPARE(a.url, b.url);
        QCOMPARE(a.headers, b.headers);
        QVERIFY(a.headers.contains({ QByteArrayLiteral("Authorization"), QByteArrayLiteral("Bearer sk-resolved") }));
        Prompt prompt;
        prompt.text = QStringLiteral("hello");
        prompt.promptTokens = 1;
        prompt.outputTokens = 8;
        QCOMPARE(buildRequestBody(a, prompt), buildRequestBody(b, prompt));
    }

    void missingTargetIsClear()
    {
        QTemporaryDir dir;
        TargetStore store(dir.filePath(QStringLiteral("targets.json")));
        store.put(sampleTarget(QStringLiteral("local"), QStringLiteral("http://127.0.0.1:8000")));
        Profile profile;
        profile.targetName = QStringLiteral("prod");
        QCOMPARE(resolveTargetReference(profile, store),
            QStringLiteral("target \"prod\" is not among the saved targets in %1 (it holds: local)").arg(store.path()));
        QCOMPARE(profile.targetName, QStringLiteral("prod"));

        const QString profilePath = m_home.filePath(QStringLiteral("refers-to-missing.json"));
        QVERIFY(writeFile(
            profilePath, "{\"schema\": \"kneepoint.profile/1\", \"target\": \"nowhere\", \"load\": {\"rates\": [1]}}"));
        const Outcome o = runCli({ QStringLiteral("sweep"), QStringLiteral("--profile"), profilePath });
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(o.err.contains(QStringLiteral("error: %1:1:45: target: target \"nowhere\" is not among the saved "
                                               "targets in ")
                                    .arg(profilePath)),
            qPrintable(o.err));
        const Outcome flag = runCli({ QStringLiteral("run"), QStringLiteral("--target"), QStringLiteral("prod") });
        QCOMPARE(flag.exitCode, 2);
        QVERIFY2(
            flag.err.contains(QStringLiteral("error: --target: target \"prod\" is not among")), qPrintable(flag.err));
    }

    void cliAddListShowRemove()
    {
        Outcome o = runCli({ QStringLiteral("targets"), QStringLiteral("add"), QStringLiteral("gw"),
            QStringLiteral("--base-url"), QStringLiteral("https://gateway.example.com/v1"), QStringLiteral("--model"),
            QStringLiteral("meta/llama-70b"), QStringLiteral("--backend"), QStringLiteral("openai-chat"),
            QStringLiteral("--api-key-env"), QStringLiteral("GATEWAY_KEY") });
        QVERIFY2(o.exitCode == 0, qPrintable(o.err));
        o = runCli({ QStringLiteral("targets"), QStringLiteral("add"), QStringLiteral("gw"),
            QStringLiteral("--base-url"), QStringLiteral("https://other.example.com") });
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(o.err.contains(QStringLiteral("already exists")), qPrintable(o.err));
        o = runCli({ QStringLiteral("targets"), QStringLiteral("add"), QStringLiteral("x"),
            QStringLiteral("--base-url"), QStringLiteral("not a url") });
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(o.err.contains(QStringLiteral("target.base_url: must be an http://")), qPrintable(o.err));

        o = runCli({ QStringLiteral("targets"), QStringLiteral("list"), QStringLiteral("--json") });
        QCOMPARE(o.exitCode, 0);
        const QJsonArray list = QJsonDocument::fromJson(o.out.toUtf8()).array();
        QCOMPARE(list.size(), 1);
        const QJsonObject gw = list.at(0).toObject();
        QCOMPARE(gw.value(QStringLiteral("name")).toString(), QStringLiteral("gw"));
        QCOMPARE(gw.value(QStringLiteral("model")).toString(), QStringLiteral("meta/llama-70b"));
        QCOMPARE(gw.value(QStringLiteral("backend")).toString(), QStringLiteral("openai-chat"));
        QCOMPARE(gw.value(QStringLiteral("api_key")).toString(), QStringLiteral("${GATEWAY_KEY}"));

        o = runCli({ QStringLiteral("targets"), QStringLiteral("show"), QStringLiteral("gw") });
        QCOMPARE(o.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(o.out.toUtf8()).object().value(QStringLiteral("base_url")).toString(),
            QStringLiteral("https://gateway.example.com/v1"));

        o = runCli({ QStringLiteral("targets"), QStringLiteral("remove"), QStringLiteral("gw") });
        QCOMPARE(o.exitCode, 0);
        o = runCli({ QStringLiteral("targets"), QStringLiteral("remove"), QStringLiteral("gw") });
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(o.err.contains(QStringLiteral("no saved target \"gw\"")), qPrintable(o.err));
    }

    // A saved target supplies what the profile leaves out before the profile is checked: a profile of
    // the nested layout with no server at all runs against it. What both give, the target's wins; the
    // profile's key and credential headers never go to another server than the one they were written for.
    void savedTargetFillsTheProfile()
    {
        QTemporaryDir dir;
        TargetStore store(dir.filePath(QStringLiteral("targets.json")));
        store.put(sampleTarget(QStringLiteral("gw"), QStringLiteral("https://staging.example.com/v1")));
        NamedTarget bare { QStringLiteral("bare"), {} };
        bare.target.baseUrl = QStringLiteral("http://127.0.0.1:8000");
        store.put(bare);

        const QString nested = dir.filePath(QStringLiteral("nested.json"));
        QVERIFY(writeFile(nested, "{\"benchmark\": {\"request_rate\": 4,\n \"num_prompts\": 10}}"));
        const ProfileLoadResult alone = ProfileStore::load(nested);
        QCOMPARE(alone.errors, QStringList { nested + QStringLiteral(":1:15: benchmark.base_url: is required") });
        const ProfileLoadResult merged = ProfileStore::loadForRun(nested, store, QStringLiteral("gw"));
        QVERIFY2(merged.ok(), qPrintable(merged.errors.join(u'\n')));
        QCOMPARE(merged.profile->targetName, QString());
        QCOMPARE(merged.profile->target, store.find(QStringLiteral("gw"))->target);
        QCOMPARE(merged.profile->load.rates, QList<double> { 4 });

        // The profile names its own server, model, headers and key.
        const QString own = dir.filePath(QStringLiteral("own.json"));
        QVERIFY(writeFile(own,
            "{\"api\": {\"base_url\": \"http://10.0.0.9:8000\", \"model\": \"own/model\", "
            "\"served_model_name\": \"served\", \"api_key\": \"${OWN_KEY}\",\n"
            " \"headers\": {\"X-Run\": \"r1\", \"x-team\": \"mine\", \"Authorization\": \"Bearer ${OWN_KEY}\"}}}"));
        const ProfileLoadResult other = ProfileStore::loadForRun(own, store, QStringLiteral("gw"));
        QVERIFY2(other.ok(), qPrintable(other.errors.join(u'\n')));
        const Target& t = other.profile->target;
        QCOMPARE(t.baseUrl, QStringLiteral("https://staging.example.com/v1"));
        QCOMPARE(t.model, QStringLiteral("org/model-7b")); // the target's
        QCOMPARE(t.servedModelName, QStringLiteral("served")); // the target has none
        QCOMPARE(t.apiKey, QStringLiteral("${KNEEPOINT_TEST_KEY}"));
        QCOMPARE(t.headers,
            (QList<HttpHeader> { { QStringLiteral("X-Team"), QStringLiteral("capacity") },
                { QStringLiteral("X-Run"), QStringLiteral("r1") } }));

        // A target without a key or a model: the profile's model comes along, its key does not (another host).
        const ProfileLoadResult toBare = ProfileStore::loadForRun(own, store, QStringLiteral("bare"));
        QVERIFY2(toBare.ok(), qPrintable(toBare.errors.join(u'\n')));
        QCOMPARE(toBare.profile->target.model, QStringLiteral("own/model"));
        QCOMPARE(toBare.profile->target.apiKey, QString());
        QCOMPARE(toBare.profile->target.headers.size(), 2); // X-Run and x-team; not Authorization
        // ... unless the profile was written for the same server.
        Target sameServer;
        sameServer.baseUrl = QStringLiteral("http://127.0.0.1:8000/v1");
        sameServer.apiKey = QStringLiteral("${OWN_KEY}");
        sameServer.headers = { { QStringLiteral("Authorization"), QStringLiteral("Bearer ${OWN_KEY}") } };
        const Target kept = withSavedTarget(bare.target, sameServer);
        QCOMPARE(kept.apiKey, QStringLiteral("${OWN_KEY}"));
        QCOMPARE(kept.headers, sameServer.headers);
        QCOMPARE(kept.baseUrl, bare.target.baseUrl);

        // A reference in the file to a target the store lacks is named at the reference.
        const QString dangling = dir.filePath(QStringLiteral("dangling.json"));
        QVERIFY(writeFile(dangling, "{\"schema\": \"kneepoint.profile/1\",\n \"target\": \"nowhere\"}"));
        const ProfileLoadResult missing = ProfileStore::loadForRun(dangling, store);
        QCOMPARE(missing.errors,
            QStringList { dangling
                + QStringLiteral(":2:12: target: target \"nowhere\" is not among the saved targets in %1 (it holds: "
                                 "gw, bare)")
                      .arg(store.path()) });
        // The same file, when the command line names a target, runs against that one.
        const ProfileLoadResult replaced = ProfileStore::loadForRun(dangling, store, QStringLiteral("bare"));
        QVERIFY2(replaced.ok(), qPrintable(replaced.errors.join(u'\n')));
        QCOMPARE(replaced.profile->target.baseUrl, bare.target.baseUrl);
    }

    // A password in a base URL is shown masked wherever the CLI shows the URL; a profile that leaves
    // its server to --target validates.
    void cliMasksPasswordsAndMergesTargets()
    {
        Outcome o = runCli({ QStringLiteral("targets"), QStringLiteral("add"), QStringLiteral("pw"),
            QStringLiteral("--base-url"), QStringLiteral("http://alice:hunter2@127.0.0.1:9/v1"),
            QStringLiteral("--model"), QStringLiteral("org/m") });
        QVERIFY2(o.exitCode == 0, qPrintable(o.err));
        QVERIFY2(o.err.contains(QStringLiteral("saved target \"pw\" (http://alice:***@127.0.0.1:9/v1) in ")),
            qPrintable(o.err));
        o = runCli({ QStringLiteral("targets"), QStringLiteral("list") });
        QCOMPARE(o.exitCode, 0);
        QVERIFY2(o.out.contains(QStringLiteral("http://alice:***@127.0.0.1:9/v1")), qPrintable(o.out));
        o = runCli({ QStringLiteral("targets"), QStringLiteral("list"), QStringLiteral("--json") });
        QCOMPARE(o.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(o.out.toUtf8()).array().at(0).toObject().value(QStringLiteral("base_url")),
            QJsonValue(QStringLiteral("http://alice:***@127.0.0.1:9/v1")));
        o = runCli({ QStringLiteral("targets"), QStringLiteral("show"), QStringLiteral("pw") });
        QCOMPARE(o.exitCode, 0);
        QVERIFY2(!o.out.contains(QStringLiteral("hunter2")), qPrintable(o.out));

        const QString nested = m_home.filePath(QStringLiteral("nested-for-cli.json"));
        QVERIFY(writeFile(nested, "{\"benchmark\": {\"request_rate\": 4, \"num_prompts\": 10}}"));
        o = runCli({ QStringLiteral("validate"), nested });
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(o.err.contains(nested + QStringLiteral(":1:15: benchmark.base_url: is required")), qPrintable(o.err));
        o = runCli({ QStringLiteral("validate"), nested, QStringLiteral("--target"), QStringLiteral("pw") });
        QVERIFY2(o.exitCode == 0, qPrintable(o.err));
        QVERIFY2(o.out.startsWith(nested + QStringLiteral(": ok (list plan: 4 req/s;")), qPrintable(o.out));
        QVERIFY2(!(o.out + o.err).contains(QStringLiteral("hunter2")), qPrintable(o.out + o.err));

        o = runCli({ QStringLiteral("targets"), QStringLiteral("remove"), QStringLiteral("pw") });
        QCOMPARE(o.exitCode, 0);
    }

    void targetsPageEditsTheStore()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("targets.json"));
        ui::TargetsPage page(path);
        page.resize(1000, 640);
        QTRY_VERIFY(!page.isReading());
        QCOMPARE(page.list()->count(), 0);
        page.addNew();
        QCOMPARE(page.nameEdit()->text(), QStringLiteral("target"));
        page.nameEdit()->setText(QStringLiteral("lab-a100"));
        page.baseUrlEdit()->setText(QStringLiteral("http://10.0.0.7:8000"));
        page.modelEdit()->setText(QStringLiteral("meta/llama-3.1-8b"));
        page.keyEdit()->setText(QStringLiteral("${LAB_KEY}"));
        QSignalSpy changed(&page, &ui::TargetsPage::targetsChanged);
        QVERIFY2(page.saveCurrent(), qPrintable(page.errorText()));
        QTRY_VERIFY(!page.isSaving());
        QVERIFY2(page.errorText().isEmpty(), qPrintable(page.errorText()));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(page.list()->count(), 1);
        QCOMPARE(page.list()->currentItem()->text(), QStringLiteral("lab-a100"));
        QCOMPARE(page.statusText(), QStringLiteral("Saved \"lab-a100\"."));

        TargetStore store(path);
        QStringList errors;
        QVERIFY(store.load(&errors));
        QCOMPARE(store.names(), QStringList { QStringLiteral("lab-a100") });
        QCOMPARE(store.find(QStringLiteral("lab-a100"))->target.apiKey, QStringLiteral("${LAB_KEY}"));
        QCOMPARE(store.find(QStringLiteral("lab-a100"))->target.model, QStringLiteral("meta/llama-3.1-8b"));

        // A literal key is masked on screen; a bad URL cannot be saved and says why.
        page.keyEdit()->setText(QStringLiteral("sk-literal"));
        Q_EMIT page.keyEdit()->textEdited(page.keyEdit()->text());
        QCOMPARE(page.keyEdit()->echoMode(), QLineEdit::Password);
        page.baseUrlEdit()->setText(QStringLiteral("gopher://x"));
        QVERIFY(!page.saveCurrent());
        QVERIFY2(page.errorText().startsWith(QStringLiteral("target.base_url: must be an http://")),
            qPrintable(page.errorText()));
        page.baseUrlEdit()->setText(QStringLiteral("http://10.0.0.7:8000"));
        page.keyEdit()->setText(QStringLiteral("${LAB_KEY}"));
        Q_EMIT page.keyEdit()->textEdited(page.keyEdit()->text());
        const QString shot = QString::fromLocal8Bit(qgetenv("KNEEPOINT_SCREENSHOTS"));
        if (!shot.isEmpty())
            page.grab().save(shot + QStringLiteral("/targets-page.png"));

        // Renaming keeps one entry; removing empties the store.
        page.nameEdit()->setText(QStringLiteral("lab-h100"));
        QVERIFY(page.saveCurrent());
        QTRY_VERIFY(!page.isSaving());
        QVERIFY(store.load(&errors));
        QCOMPARE(store.names(), QStringList { QStringLiteral("lab-h100") });
        QCOMPARE(page.list()->count(), 1);
        QCOMPARE(page.list()->item(0)->text(), QStringLiteral("lab-h100"));
        QVERIFY(page.removeCurrent());
        QVERIFY(page.isSaving());
        QCOMPARE(page.statusText(), QStringLiteral("Removing \"lab-h100\"…"));
        QTRY_VERIFY(!page.isSaving());
        QCOMPARE(changed.count(), 3);
        QCOMPARE(page.statusText(), QStringLiteral("Removed \"lab-h100\"."));
        QCOMPARE(page.list()->count(), 0);
        QVERIFY(store.load(&errors));
        QVERIFY(store.targets().isEmpty());
    }

    // The page reads targets.json in the background: it says so, takes no edit and no save until the
    // read ends, then lists the file's targets.
    void targetsPageReadsInTheBackground()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("targets.json"));
        TargetStore saved(path);
        saved.put(sampleTarget(QStringLiteral("lab-a100"), QStringLiteral("http://10.0.0.7:8000")));
        saved.put(sampleTarget(QStringLiteral("lab-h100"), QStringLiteral("http://10.0.0.8:8000")));
        QString error;
        QVERIFY2(saved.save(&error), qPrintable(error));
        const QByteArray before = readFile(path);

        ui::TargetsPage page(path);
        page.resize(1000, 640);
        QSignalSpy loaded(&page, &ui::TargetsPage::loaded);
        QVERIFY(page.isReading());
        QCOMPARE(page.statusText(), QStringLiteral("Reading %1…").arg(path));
        QCOMPARE(page.list()->count(), 0);
        QVERIFY(!page.list()->isEnabled());
        QVERIFY(!page.nameEdit()->isEnabled());
        QVERIFY(!page.findChild<QPushButton*>(QStringLiteral("saveTarget"))->isEnabled());
        const QString shots = QString::fromLocal8Bit(qgetenv("KNEEPOINT_SCREENSHOTS"));
        if (!shots.isEmpty())
            QVERIFY(page.grab().save(shots + QStringLiteral("/targets-page-reading.png")));
        // A save now would write a store not yet read: refused, the file untouched.
        page.nameEdit()->setText(QStringLiteral("other"));
        page.baseUrlEdit()->setText(QStringLiteral("http://10.0.0.9:8000"));
        QVERIFY(!page.saveCurrent());
        QVERIFY(!page.isSaving());

        QTRY_COMPARE(loaded.count(), 1);
        QVERIFY(!page.isReading());
        QCOMPARE(page.list()->count(), 2);
        QCOMPARE(page.list()->item(0)->text(), QStringLiteral("lab-a100"));
        QCOMPARE(page.list()->item(1)->text(), QStringLiteral("lab-h100"));
        QCOMPARE(page.nameEdit()->text(), QStringLiteral("lab-a100"));
        QCOMPARE(page.baseUrlEdit()->text(), QStringLiteral("http://10.0.0.7:8000"));
        QVERIFY(page.list()->isEnabled());
        QVERIFY(page.nameEdit()->isEnabled());
        QVERIFY(page.findChild<QPushButton*>(QStringLiteral("saveTarget"))->isEnabled());
        QCOMPARE(page.store().names(), saved.names());
        QCOMPARE(page.errorText(), QString());
        QCOMPARE(readFile(path), before);
        if (!shots.isEmpty())
            QVERIFY(page.grab().save(shots + QStringLiteral("/targets-page-read.png")));

        // Reading again while a save is written waits for it: the list then shows the file with it (a rename
        // keeps the target's place).
        page.nameEdit()->setText(QStringLiteral("lab-l40s"));
        QVERIFY(page.saveCurrent());
        page.reload();
        QVERIFY(!page.isReading());
        QTRY_COMPARE(loaded.count(), 2);
        QCOMPARE(page.list()->count(), 2);
        QCOMPARE(page.list()->item(0)->text(), QStringLiteral("lab-l40s"));
        QCOMPARE(page.list()->item(1)->text(), QStringLiteral("lab-h100"));
        QCOMPARE(page.list()->currentItem()->text(), QStringLiteral("lab-l40s"));

        // A file it cannot read: the error names it, shown once the read ends.
        QVERIFY(writeFile(path, "{\"schema\": "));
        page.reload();
        QTRY_COMPARE(loaded.count(), 3);
        QVERIFY2(page.errorText().startsWith(path + QStringLiteral(": line 1: ")), qPrintable(page.errorText()));
        QCOMPARE(page.statusText(), page.errorText());
        QCOMPARE(page.list()->count(), 0);
    }

    // A save that fails says why, naming the file, and loses nothing: the form keeps the edit, the list
    // and the store stay as they were. A second save waits until the first is written.
    void targetsPageSaveFailureKeepsTheEdit()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("targets.json"));
        ui::TargetsPage page(path);
        QTRY_VERIFY(!page.isReading());
        QSignalSpy changed(&page, &ui::TargetsPage::targetsChanged);
        QSignalSpy finished(&page, &ui::TargetsPage::saveFinished);
        page.addNew();
        type(page.nameEdit(), QStringLiteral("lab-a100"));
        type(page.baseUrlEdit(), QStringLiteral("http://10.0.0.7:8000"));
        type(page.modelEdit(), QStringLiteral("meta/llama-3.1-8b"));
        QVERIFY(page.findChild<QPushButton*>(QStringLiteral("saveTarget"))->isEnabled());
        // Where the file should be, a folder: the atomic write cannot replace it.
        QVERIFY(QDir().mkpath(path));
        QVERIFY(page.saveCurrent());
        QVERIFY(page.isSaving());
        QCOMPARE(page.statusText(), QStringLiteral("Saving \"lab-a100\"…"));
        QVERIFY(!page.findChild<QPushButton*>(QStringLiteral("saveTarget"))->isEnabled());
        QVERIFY(!page.list()->isEnabled());
        QVERIFY(page.nameEdit()->isEnabled());
        QVERIFY(!page.saveCurrent());
        QTRY_COMPARE(finished.count(), 1);
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QCOMPARE(page.errorText(), path + QStringLiteral(": is a folder, not a file"));
        QCOMPARE(page.statusText(), page.errorText());
        QCOMPARE(changed.count(), 0);
        QCOMPARE(page.nameEdit()->text(), QStringLiteral("lab-a100"));
        QCOMPARE(page.baseUrlEdit()->text(), QStringLiteral("http://10.0.0.7:8000"));
        QCOMPARE(page.modelEdit()->text(), QStringLiteral("meta/llama-3.1-8b"));
        QCOMPARE(page.list()->count(), 0);
        QVERIFY(page.store().targets().isEmpty());
        QVERIFY(page.findChild<QPushButton*>(QStringLiteral("saveTarget"))->isEnabled());

        // The folder gone, the same edit saves.
        QVERIFY(QDir(path).removeRecursively());
        QVERIFY(page.saveCurrent());
        QTRY_COMPARE(finished.count(), 2);
        QCOMPARE(finished.at(1).at(0).toBool(), true);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(page.list()->count(), 1);
        QCOMPARE(page.list()->item(0)->text(), QStringLiteral("lab-a100"));
        TargetStore onDisk(path);
        QStringList errors;
        QVERIFY(onDisk.load(&errors));
        QCOMPARE(onDisk.names(), QStringList { QStringLiteral("lab-a100") });
        QCOMPARE(onDisk.find(QStringLiteral("lab-a100"))->target.model, QStringLiteral("meta/llama-3.1-8b"));
    }

    // The line under the form names the library's profiles that refer to the target shown, found in the
    // background (every profile is read), and follows the selection.
    void targetsPageFindsItsUsersInTheBackground()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("targets.json"));
        TargetStore store(path);
        store.put(sampleTarget(QStringLiteral("lab-used"), QStringLiteral("http://10.0.0.7:8000")));
        store.put(sampleTarget(QStringLiteral("lab-free"), QStringLiteral("http://10.0.0.8:8000")));
        QString error;
        QVERIFY2(store.save(&error), qPrintable(error));
        const ui::ProfileLibrary library;
        QVERIFY2(library.ensureExists(&error), qPrintable(error));
        for (const char* name : { "Uses lab A", "Uses lab B" })
            QVERIFY(writeFile(library.uniquePath(QString::fromLatin1(name)),
                QByteArray("{\"schema\": \"kneepoint.profile/1\", \"name\": \"") + name
                    + "\", \"target\": \"lab-used\", \"load\": {\"rates\": [1]}}"));

        ui::TargetsPage page(path);
        QTRY_VERIFY(!page.isReading());
        QCOMPARE(page.list()->currentItem()->text(), QStringLiteral("lab-used"));
        page.select(QStringLiteral("lab-free"));
        QCOMPARE(page.usedByText(), QStringLiteral("Looking for the profiles that refer to this target…"));
        QTRY_COMPARE(page.usedByText(), QStringLiteral("No profile in the library refers to this target yet."));
        page.select(QStringLiteral("lab-used"));
        QCOMPARE(page.usedByText(), QStringLiteral("Looking for the profiles that refer to this target…"));
        QTRY_COMPARE(page.usedByText(), QStringLiteral("Used by 2 profile(s): Uses lab A, Uses lab B"));
        page.select(QStringLiteral("lab-free"));
        // Hidden, removal writes at once (the question is for a user who sees the page).
        QSignalSpy finished(&page, &ui::TargetsPage::saveFinished);
        QVERIFY(page.removeCurrent());
        QTRY_COMPARE(finished.count(), 1);
        QCOMPARE(page.store().names(), QStringList { QStringLiteral("lab-used") });
        for (const ui::ProfileLibrary::Entry& e : library.entries())
            QVERIFY(QFile::remove(e.path));
    }

    // A file read only in part (one target of two is wrong) is not saved over: a save or a removal would
    // drop the unread target. Corrected elsewhere, it is read again when the page is shown and saves.
    void targetsPageKeepsAFileItCouldNotReadWhole()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("targets.json"));
        const QByteArray broken = "{\"schema\": \"kneepoint.targets/1\", \"targets\": [\n"
                                  "  {\"name\": \"lab-a100\", \"base_url\": \"http://10.0.0.7:8000\"},\n"
                                  "  {\"name\": \"lab h100!\", \"base_url\": \"http://10.0.0.8:8000\"}]}\n";
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(broken);
        file.close();
        ui::TargetsPage page(path);
        QSignalSpy loaded(&page, &ui::TargetsPage::loaded);
        QSignalSpy finished(&page, &ui::TargetsPage::saveFinished);
        QTRY_COMPARE(loaded.count(), 1);
        QVERIFY2(
            page.errorText().startsWith(path + QStringLiteral(": targets[1].name: ")), qPrintable(page.errorText()));
        QCOMPARE(page.list()->count(), 1); // what could be read is shown

        page.addNew();
        type(page.nameEdit(), QStringLiteral("lab-b200"));
        type(page.baseUrlEdit(), QStringLiteral("http://10.0.0.9:8000"));
        QVERIFY(!page.saveCurrent());
        QVERIFY(!page.isSaving());
        QVERIFY2(page.errorText().contains(QStringLiteral("targets[1].name"))
                && page.errorText().contains(QStringLiteral("Not saved: part of the file could not be read")),
            qPrintable(page.errorText()));
        QCOMPARE(page.nameEdit()->text(), QStringLiteral("lab-b200")); // the edit is kept
        page.select(QStringLiteral("lab-a100"));
        QVERIFY(!page.removeCurrent());
        QCOMPARE(finished.count(), 0);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), broken); // untouched
        file.close();

        // Corrected by hand: the page reads it again when it is shown, and saves over it.
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(QByteArray(broken).replace("lab h100!", "lab-h100"));
        file.close();
        page.show();
        QTRY_COMPARE(loaded.count(), 2);
        QCOMPARE(page.errorText(), QString());
        QCOMPARE(page.list()->count(), 2);
        page.addNew();
        type(page.nameEdit(), QStringLiteral("lab-b200"));
        type(page.baseUrlEdit(), QStringLiteral("http://10.0.0.9:8000"));
        QVERIFY(page.saveCurrent());
        QTRY_COMPARE(finished.count(), 1);
        QCOMPARE(finished.at(0).at(0).toBool(), true);
        TargetStore onDisk(path);
        QStringList errors;
        QVERIFY(onDisk.load(&errors));
        QCOMPARE(onDisk.names(),
            (QStringList { QStringLiteral("lab-a100"), QStringLiteral("lab-h100"), QStringLiteral("lab-b200") }));
    }

    // What the user types while a save is written stays in the form; the list follows the file.
    void targetsPageKeepsTypingDuringASave()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("targets.json"));
        ui::TargetsPage page(path);
        QTRY_VERIFY(!page.isReading());
        QSignalSpy finished(&page, &ui::TargetsPage::saveFinished);
        page.addNew();
        page.nameEdit()->setText(QStringLiteral("lab-a100"));
        page.baseUrlEdit()->setText(QStringLiteral("http://10.0.0.7:8000"));
        page.modelEdit()->setText(QStringLiteral("first"));
        QVERIFY(page.saveCurrent());
        type(page.modelEdit(), QStringLiteral("second"));
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY(finished.at(0).at(0).toBool());
        QCOMPARE(page.modelEdit()->text(), QStringLiteral("second"));
        QCOMPARE(page.list()->currentItem()->text(), QStringLiteral("lab-a100"));
        QCOMPARE(page.store().find(QStringLiteral("lab-a100"))->target.model, QStringLiteral("first"));
        QCOMPARE(page.statusText(), QStringLiteral("Saved \"lab-a100\"."));
        // Saved again, the edit replaces the target rather than adding one.
        QVERIFY(page.saveCurrent());
        QTRY_COMPARE(finished.count(), 2);
        QCOMPARE(page.list()->count(), 1);
        QCOMPARE(page.store().find(QStringLiteral("lab-a100"))->target.model, QStringLiteral("second"));
    }

    // A page closed while its save is written: the write still lands, and the result goes nowhere.
    void targetsPageClosedDuringASave()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("targets.json"));
        auto* page = new ui::TargetsPage(path);
        QTRY_VERIFY(!page->isReading());
        page->addNew();
        page->nameEdit()->setText(QStringLiteral("lab-a100"));
        page->baseUrlEdit()->setText(QStringLiteral("http://10.0.0.7:8000"));
        QVERIFY(page->saveCurrent());
        delete page;
        TargetStore onDisk(path);
        QStringList errors;
        QTRY_VERIFY(onDisk.load(&errors) && onDisk.names() == QStringList { QStringLiteral("lab-a100") });
        // Whatever the pool delivers now finds no page.
        QCoreApplication::processEvents();
    }

    // Run with a profile that names a saved target reads targets.json in the background; a name that is
    // not there is said on the status bar, and no sweep starts.
    void windowRunWithUnknownTarget()
    {
        ui::MainWindow window;
        Profile profile;
        profile.name = QStringLiteral("named");
        QJsonObject json = ProfileStore::toJsonObject(profile);
        json.insert(QStringLiteral("target"), QStringLiteral("no-such-target"));
        const QString path = m_home.filePath(QStringLiteral("named-target.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(json).toJson());
        file.close();
        window.openProfile(path);
        QVERIFY(window.profilePage()->currentProfile());
        QCOMPARE(window.profilePage()->currentProfile()->targetName, QStringLiteral("no-such-target"));
        window.runCurrentProfile();
        QTRY_VERIFY_WITH_TIMEOUT(window.statusBar()->currentMessage().contains(QLatin1String("no-such-target")), 20000);
        QVERIFY(!window.controller()->isRunning());
    }

    // The window runs the profile against two targets one after another, tags both runs as one
    // matrix and opens the comparison on them.
    void windowMatrixRun()
    {
        ui::MainWindow window;
        NamedTarget small { QStringLiteral("sim-small"), {} };
        small.target.baseUrl = QStringLiteral("sim://small?time_scale=20");
        small.target.backend = Backend::OpenAi;
        NamedTarget large { QStringLiteral("sim-large"), {} };
        large.target.baseUrl = QStringLiteral("sim://large?time_scale=20");
        large.target.backend = Backend::OpenAi;
        ui::MatrixChoice pick;
        pick.targets = { small, large };
        Profile base;
        base.name = QStringLiteral("matrix test");
        base.workload.numPrompts = 60;
        base.workload.inputLen = 64;
        base.workload.outputLen = 16;
        base.load.rates = { 50, 200 };
        base.load.plan.earlyStop = false;
        base.target.headers = { { QStringLiteral("X-Matrix"), QStringLiteral("yes") } };
        const std::vector<Profile> profiles = ui::matrixProfiles(base, pick);
        QCOMPARE(profiles.size(), std::size_t(2));
        QCOMPARE(profiles.at(1).name, QStringLiteral("matrix test — sim-large"));
        QCOMPARE(profiles.at(1).target.baseUrl, large.target.baseUrl);
        // The window merges a saved target with the profile's as the CLI does: the header comes along.
        QCOMPARE(profiles.at(1).target.headers, base.target.headers);

        QSignalSpy done(window.matrixRun(), &ui::MatrixRun::finished);
        QVERIFY(window.runMatrix(profiles));
        QVERIFY(window.matrixRun()->isActive());
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 240000);
        const QStringList dirs = done.at(0).at(0).toStringList();
        QCOMPARE(dirs.size(), 2);
        QVERIFY(done.at(0).at(1).toBool());
        // The comparison reads the runs in the background, then shows.
        QTRY_COMPARE(window.compareView()->runs().size(), std::size_t(2));
        QCOMPARE(window.compareView()->runs().at(0).dir, dirs.at(0));
        QCOMPARE(qobject_cast<QStackedWidget*>(window.centralWidget())->currentWidget(), window.compareView());
        const std::vector<RunEntry> runs = RunCatalog(window.controller()->runsDirectory()).list();
        int tagged = 0;
        for (const RunEntry& e : runs)
            tagged += e.tags.contains(window.matrixRun()->tag()) ? 1 : 0;
        QCOMPARE(tagged, 2);
    }

    // One workload against a small and a large simulator: two runs, grouped, whose capacities differ
    // the way the presets' documented capacities do (large ≈ 6.4 times small).
    void matrixOfTwoSimulators()
    {
        kp::sim::SimHost small;
        kp::sim::SimHost large;
        for (auto [host, preset] : { std::pair { &small, "small" }, std::pair { &large, "large" } }) {
            kp::sim::SimServerOptions options;
            options.params = kp::sim::presetByName(QString::fromLatin1(preset))->params;
            if (host == &large)
                options.params.modelId = QStringLiteral("sim/large-model");
            options.timeScale = 6;
            QVERIFY2(host->start(options), qPrintable(host->errorString()));
        }
        // The small target names its model; the large one leaves it to the server's list.
        for (auto [name, host] : { std::pair { "small", &small }, std::pair { "large", &large } }) {
            QStringList add { QStringLiteral("targets"), QStringLiteral("add"), QString::fromLatin1(name),
                QStringLiteral("--base-url"), host->baseUrl().toString(), QStringLiteral("--backend"),
                QStringLiteral("openai") };
            if (host == &small)
                add << QStringLiteral("--model") << QStringLiteral("kneepoint/sim-small");
            const Outcome o = runCli(add);
            QVERIFY2(o.exitCode == 0, qPrintable(o.err));
        }
        // The profile leaves the server to the targets and adds a header of its own.
        const QString profile = m_home.filePath(QStringLiteral("matrix-profile.json"));
        QVERIFY(writeFile(profile, "{\"benchmark\": {\"num_prompts\": 150, \"headers\": {\"X-Matrix\": \"yes\"}}}"));
        const QString out = m_home.filePath(QStringLiteral("matrix"));
        const Outcome o = runCli({ QStringLiteral("sweep"), QStringLiteral("--profile"), profile,
            QStringLiteral("--target"), QStringLiteral("small"), QStringLiteral("--target"), QStringLiteral("large"),
            QStringLiteral("--request-rate"), QStringLiteral("200"), QStringLiteral("--num-prompts"),
            QStringLiteral("150"), QStringLiteral("--random-input-len"), QStringLiteral("200"),
            QStringLiteral("--random-output-len"), QStringLiteral("230"), QStringLiteral("--ignore-eos"),
            QStringLiteral("--no-early-stop"), QStringLiteral("--quiet"), QStringLiteral("--out"), out });
        QVERIFY2(o.exitCode == 0, qPrintable(o.err + o.out));
        const QJsonObject matrix = QJsonDocument::fromJson(readFile(out + QStringLiteral("/matrix.json"))).object();
        QCOMPARE(matrix.value(QStringLiteral("format")).toString(), QStringLiteral("kneepoint.matrix/1"));
        QCOMPARE(matrix.value(QStringLiteral("status")).toString(), QStringLiteral("finished"));
        const QJsonArray runs = matrix.value(QStringLiteral("runs")).toArray();
        QCOMPARE(runs.size(), 2);
        QCOMPARE(runs.at(0).toObject().value(QStringLiteral("dir")).toString(), QStringLiteral("01-small"));
        QCOMPARE(runs.at(1).toObject().value(QStringLiteral("dir")).toString(), QStringLiteral("02-large"));
        // The model each sweep sent: the target's, and the one the large server lists.
        QCOMPARE(
            runs.at(0).toObject().value(QStringLiteral("model")).toString(), QStringLiteral("kneepoint/sim-small"));
        QCOMPARE(runs.at(1).toObject().value(QStringLiteral("model")).toString(), QStringLiteral("sim/large-model"));
        static const QRegularExpression rowSmall(QStringLiteral("\n01-small +small +kneepoint/sim-small "));
        static const QRegularExpression rowLarge(QStringLiteral("\n02-large +large +sim/large-model "));
        QVERIFY2(rowSmall.match(o.out).hasMatch() && rowLarge.match(o.out).hasMatch(), qPrintable(o.out));
        for (const QJsonValue& v : runs) {
            const QString dir = out + u'/' + v.toObject().value(QStringLiteral("dir")).toString();
            const QJsonObject run = QJsonDocument::fromJson(readFile(dir + QStringLiteral("/run.json"))).object();
            QCOMPARE(run.value(QStringLiteral("status")).toString(), QStringLiteral("finished"));
            QCOMPARE(v.toObject().value(QStringLiteral("exit_code")).toInt(), 0);
        }
        // The runs went to the servers their targets name.
        const QJsonObject smallRun
            = QJsonDocument::fromJson(readFile(out + QStringLiteral("/01-small/run.json"))).object();
        QCOMPARE(smallRun.value(QStringLiteral("profile"))
                     .toObject()
                     .value(QStringLiteral("target"))
                     .toObject()
                     .value(QStringLiteral("base_url")),
            QJsonValue(small.baseUrl().toString()));
        QCOMPARE(smallRun.value(QStringLiteral("profile"))
                     .toObject()
                     .value(QStringLiteral("target"))
                     .toObject()
                     .value(QStringLiteral("headers"))
                     .toObject()
                     .value(QStringLiteral("X-Matrix")),
            QJsonValue(QStringLiteral("yes")));
        // Each server served its own sweep's 150 requests, and only those: its own records say so.
        // (Which one is faster is a matter of timing on a shared machine; where the requests went is not.)
        for (auto* host : { &small, &large }) {
            int measured = 0;
            for (const auto& [id, truth] : kp::testing::truthByRequestId(host->baseUrl()))
                measured += id.startsWith(QStringLiteral("kneepoint-0-")) ? 1 : 0;
            QCOMPARE(measured, 150);
        }
        // A peak is a figure, or unknown (null) where a loaded machine left the step unreliable: never 0.
        for (const auto& run : runs) {
            const QJsonValue peak = run.toObject().value(QStringLiteral("peak_throughput"));
            QVERIFY2(peak.isNull() || peak.toDouble() > 0, QJsonDocument(run.toObject()).toJson().constData());
        }
        QVERIFY2(o.out.contains(QStringLiteral("01-small")) && o.out.contains(QStringLiteral("02-large"))
                && o.out.contains(QStringLiteral("SLO capacity")),
            qPrintable(o.out));
        // The Runs page and `kneepoint-cli runs` list the matrix's runs, grouped.
        const std::vector<RunEntry> listed = RunCatalog(m_home.path()).list();
        QCOMPARE(listed.size(), std::size_t(2));
        QStringList ids;
        for (const RunEntry& e : listed) {
            QCOMPARE(e.group, QStringLiteral("matrix"));
            ids << e.id;
        }
        ids.sort();
        QCOMPARE(ids, (QStringList { QStringLiteral("matrix/01-small"), QStringLiteral("matrix/02-large") }));
        small.stop();
        large.stop();
    }
};

QTEST_MAIN(TestTargets)
#include "tst_targets.moc"
