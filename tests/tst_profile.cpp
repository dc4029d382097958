#include "profile/modelmix.h"
#include "profile/profile.h"
#include "profile/profileoverrides.h"
#include "profile/profileschema.h"
#include "profile/profilestore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <limits>

#ifdef Q_OS_LINUX
#include <csignal>
#include <sys/resource.h>
#endif

using namespace Qt::Literals::StringLiterals;
using kp::Profile;
using kp::ProfileStore;

using ProfileMutator = std::function<void(Profile&)>;
Q_DECLARE_METATYPE(ProfileMutator)
Q_DECLARE_METATYPE(std::optional<double>)
Q_DECLARE_METATYPE(kp::ModelShare)
Q_DECLARE_METATYPE(kp::FieldValue)

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeAll(const QString& path, const QByteArray& data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}

// Sets or unsets environment variables for one scope and puts them back afterwards.
class EnvGuard
{
public:
    EnvGuard(const char* name, const std::optional<QByteArray>& value)
        : m_name(name)
        , m_wasSet(qEnvironmentVariableIsSet(name))
        , m_old(qgetenv(name))
    {
        if (value)
            qputenv(name, *value);
        else
            qunsetenv(name);
    }
    ~EnvGuard()
    {
        if (m_wasSet)
            qputenv(m_name, m_old);
        else
            qunsetenv(m_name);
    }
    EnvGuard(const EnvGuard&) = delete;
    EnvGuard& operator=(const EnvGuard&) = delete;

private:
    const char* m_name;
    bool m_wasSet;
    QByteArray m_old;
};

} // namespace

class TestProfile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void defaults();
    void requiredCompanionsAreNamed();
    void modelMix_data();
    void modelMix();
    void modelMixInProfile();
    void demo();
    void kneepointSchema();
    void savedFormIsStable();
    void unusedSectionsAreLeftOut();
    void shippedProfilesRoundTrip();
    void schemaIsConsistent();
    void serverCommandSecrets_data();
    void serverCommandSecrets();
    void limitsAreNamed_data();
    void limitsAreNamed();
    void limitsInFiles();
    void roundTrip_data();
    void roundTrip();
    void soakMode();
    void nestedLayout();
    void flatLayout();
    void tomlTables();
    void layoutDetection_data();
    void layoutDetection();
    void requestRates_data();
    void requestRates();
    void fileErrors_data();
    void fileErrors();
    void endlessAndHugeFilesAreRefused();
    void syntaxErrors_data();
    void syntaxErrors();
    void notANumber_data();
    void notANumber();
    void longRateListOnOneLine();
    void plainTextKeyWarns_data();
    void plainTextKeyWarns();
    void displayUrlMasksPassword_data();
    void displayUrlMasksPassword();
    void everyPrefixIsHandled_data();
    void everyPrefixIsHandled();
    void unknownKeyWarnings();
    void validation_data();
    void validation();
    void apiKey_data();
    void apiKey();
    void headerEnvironment();
    void redaction();
    void saveReplacesAtomically();
    void saveKeepsOriginalWhenWriteFails();
    void saveToReadOnlyDirectory();
    void saveErrors();
    void snapshotObject();
    void overrides();
    void conversationKeys();
    void conversationKeysRefused();
    void requestUrl_data();
    void requestUrl();
    void rates_data();
    void rates();
    void goodput_data();
    void goodput();
    void sloPercentilesAndRepeatScope();

private:
    QString fixture(const QString& name)
    {
        const QString path = QFINDTESTDATA(u"data/profiles/"_s + name);
        if (path.isEmpty())
            qFatal("missing fixture %s", qPrintable(name));
        return path;
    }
};

void TestProfile::defaults()
{
    const Profile p;
    QCOMPARE(p.target.backend, kp::Backend::OpenAiChat);
    QCOMPARE(p.target.effectiveEndpoint(), u"/v1/chat/completions"_s);
    QCOMPARE(p.workload.sampling.temperature, 0.0);
    QCOMPARE(p.load.mode, kp::LoadMode::Rate);
    QCOMPARE(p.load.rates, QList<double> { inf });
    QCOMPARE(p.load.burstiness, 1.0);
    QCOMPARE(p.slo.percentile, 99.0);
    QCOMPARE(p.target.proxyMode, kp::ProxyMode::None);
    // Only the server is missing from a default profile.
    QCOMPARE(kp::validateProfile(p), (QList<kp::ProfileIssue> { { u"target.base_url"_s, u"is required"_s } }));
}

// Images without a size, and sessions with a backend that has none: said as what is missing or wrong,
// naming the field, not as a type error on an empty value.
void TestProfile::requiredCompanionsAreNamed()
{
    Profile p = Profile::demo(QUrl(u"http://127.0.0.1:18080"_s));
    p.workload.imageCount = 2;
    p.workload.imageSize.clear();
    QCOMPARE(kp::validateProfile(p),
        (QList<kp::ProfileIssue> { { u"workload.image_size"_s,
            u"required with workload.image_count (WIDTHxHEIGHT in pixels, e.g. 448x448), unless workload.image_dir "
            "gives the images"_s } }));
    p.workload.imageSize = u"448x448"_s;
    QVERIFY(kp::validateProfile(p).isEmpty());

    Profile e = Profile::demo(QUrl(u"http://127.0.0.1:18080"_s));
    e.target.backend = kp::Backend::OpenAiEmbeddings;
    e.workload.multiTurn = true;
    bool said = false;
    for (const kp::ProfileIssue& i : kp::validateProfile(e))
        said = said
            || (i.path == u"workload.multi_turn"_s
                && i.message
                    == u"openai-embeddings embeds inputs and answers nothing, so it has no conversations; "
                       "multi_turn needs a chat backend"_s);
    QVERIFY(said);
}

void TestProfile::demo()
{
    const Profile p = Profile::demo(QUrl(u"http://127.0.0.1:18080"_s));
    QVERIFY2(kp::validateProfile(p).isEmpty(), qPrintable(kp::validateProfile(p).value(0).toString()));
    QCOMPARE(p.target.requestUrl(), QUrl(u"http://127.0.0.1:18080/v1/chat/completions"_s));
    QCOMPARE(p.target.model, u"kneepoint/sim-default"_s);
    QCOMPARE(p.workload.dataset, u"random"_s);
    QVERIFY(p.load.rates.size() >= 4);
    QCOMPARE(p.server.port, 18080);
    QVERIFY(!p.target.isBuiltinSimulator());

    const Profile builtin = Profile::demo(QUrl(u"sim://default?time_scale=2"_s), QString());
    QVERIFY(builtin.target.isBuiltinSimulator());
    QVERIFY2(kp::validateProfile(builtin).isEmpty(), qPrintable(kp::validateProfile(builtin).value(0).toString()));
    QCOMPARE(builtin.target.baseUrl, u"sim://default?time_scale=2"_s);
}

void TestProfile::kneepointSchema()
{
    const EnvGuard key("KP_TEST_KEY", QByteArray("sk-from-env"));
    const auto r = ProfileStore::load(fixture(u"kneepoint-full.json"_s));
    QVERIFY2(r.ok(), qPrintable(r.errors.join(u'\n')));
    QCOMPARE(r.layout, kp::ProfileLayout::Kneepoint);
    QCOMPARE(r.format, kp::ProfileFormat::Json);
    QCOMPARE(r.warnings, QStringList());
    const Profile& p = *r.profile;
    QCOMPARE(p.name, u"llama-8b on node-3"_s);
    QCOMPARE(p.target.baseUrl, u"https://node-3.example.internal:8000"_s);
    QCOMPARE(p.target.backend, kp::Backend::Vllm);
    QCOMPARE(p.target.requestModel(), u"llama-8b"_s);
    QCOMPARE(p.target.apiKey, u"${KP_TEST_KEY}"_s);
    QCOMPARE(p.target.resolvedApiKey().key, u"sk-from-env"_s);
    QCOMPARE(p.target.headers,
        (QList<kp::HttpHeader> { { u"X-Team"_s, u"inference"_s }, { u"api-key"_s, u"sk-header-secret"_s } }));
    QCOMPARE(p.target.timeouts, (kp::Timeouts { 5, 120, 30, 900 }));
    QCOMPARE(p.target.tlsVerify, false);
    QCOMPARE(p.target.proxyMode, kp::ProxyMode::Url);
    QCOMPARE(p.target.proxyUrl, u"http://user:hunter2@proxy.example:3128"_s);
    QCOMPARE(p.serverSweep.parameters.value(u"tensor_parallel_size").toArray(), (QJsonArray { 1, 2 }));
    QCOMPARE(p.serverSweep.readyTimeoutS, 900.0);
    QCOMPARE(p.serverSweep.graceS, 60.0);
    QVERIFY(p.serverSweep.mode.isEmpty());
    QCOMPARE(p.workload.dataset, u"sharegpt"_s);
    QCOMPARE(p.workload.numPrompts, 500);
    QCOMPARE(p.workload.seed, 42);
    QCOMPARE(p.workload.rangeRatio, 0.25);
    QCOMPARE(p.workload.fixedOutputLen, 200);
    QCOMPARE(p.workload.sampling.topK, 50);
    QCOMPARE(p.workload.sampling.frequencyPenalty, -0.5);
    QCOMPARE(p.workload.extraBody.value(u"priority"_s).toInt(), 1);
    QCOMPARE(p.workload.extraBody.value(u"chat_template_kwargs"_s).toObject().value(u"enable_thinking"_s), false);
    QCOMPARE(p.load.rates, (QList<double> { 1, 2.5, 5, 10, 20, inf }));
    QCOMPARE(p.load.concurrencies, (QList<int> { 8, 16 }));
    QCOMPARE(p.load.mode, kp::LoadMode::Rate);
    QCOMPARE(p.load.stepCount(), 6);
    QCOMPARE(p.load.burstiness, 0.5);
    QCOMPARE(p.load.maxConcurrency, 256);
    QCOMPARE(p.load.stepDurationS, 120.0);
    QCOMPARE(p.slo.ttftMs, 500.0);
    QCOMPARE(p.slo.percentile, 99.9);
    QCOMPARE(p.slo.maxErrorRate, 0.01);
    QCOMPARE(p.server.tensorParallelSize, 2);
    QCOMPARE(p.server.gpuMemoryUtilization, 0.9);
    QCOMPARE(p.load.plan.kind, kp::PlanKind::List);
    QVERIFY(p.load.plan.refine);
    QCOMPARE(p.load.plan.tolerance, 0.1);
    QCOMPARE(p.load.plan.maxRefineSteps, 4);
    QCOMPARE(p.load.plan.repeats, 2);
    QCOMPARE(p.load.plan.stopErrorRate, 0.2);
    QCOMPARE(p.output.percentileMetrics, (QStringList { u"ttft"_s, u"tpot"_s, u"itl"_s, u"e2el"_s }));
    QCOMPARE(p.output.metricPercentiles, (QList<double> { 50, 90, 99, 99.9 }));
}

// The fixture is written exactly as the writer writes: saving what was read changes nothing.
void TestProfile::savedFormIsStable()
{
    const QString path = fixture(u"kneepoint-full.json"_s);
    const auto r = ProfileStore::load(path);
    QVERIFY(r.ok());
    QCOMPARE(QString::fromUtf8(ProfileStore::toJson(*r.profile)), QString::fromUtf8(readAll(path)));
}

// A section none of whose fields the profile sets is not written ("server_sweep": {} in every profile was noise);
// set, it is.
void TestProfile::unusedSectionsAreLeftOut()
{
    Profile p = Profile::demo(QUrl(u"http://127.0.0.1:8000"_s));
    QJsonObject written = ProfileStore::toJsonObject(p);
    QVERIFY(!written.contains(u"server_sweep"_s));
    for (const QString& key : written.keys()) {
        if (written.value(key).isObject())
            QVERIFY2(!written.value(key).toObject().isEmpty(), qPrintable(key));
    }
    p.serverSweep.command = u"vllm serve m --port {port}"_s;
    written = ProfileStore::toJsonObject(p);
    QCOMPARE(written.value(u"server_sweep"_s).toObject().value(u"command"_s).toString(), p.serverSweep.command);
    const auto read = ProfileStore::loadFromData(ProfileStore::toJson(p), u"p.json"_s);
    QVERIFY(read.ok());
    QCOMPARE(read.profile->serverSweep.command, p.serverSweep.command);
}

void TestProfile::roundTrip_data()
{
    QTest::addColumn<QString>("file");
    QTest::addRow("kneepoint schema") << u"kneepoint-full.json"_s;
    QTest::addRow("nested layout") << u"nested.json"_s;
    QTest::addRow("flat layout") << u"flat.json"_s;
    QTest::addRow("toml tables") << u"service.toml"_s;
    QTest::addRow("python Infinity") << u"python-infinity.json"_s;
    QTest::addRow("demo") << QString();
    QTest::addRow("metrics urls") << u"metrics-urls.json"_s;
}

void TestProfile::roundTrip()
{
    QFETCH(QString, file);
    Profile original;
    if (file.isEmpty()) {
        original = Profile::demo(QUrl(u"http://127.0.0.1:8000"_s));
    } else {
        const auto first = ProfileStore::load(fixture(file));
        QVERIFY2(first.ok(), qPrintable(first.errors.join(u'\n')));
        original = *first.profile;
    }
    if (file == u"metrics-urls.json")
        QCOMPARE(original.target.metricsUrls,
            QStringList({ u"http://replica-1:8000/metrics"_s, u"http://replica-2:8000/metrics"_s,
                u"http://replica-1:9400/metrics"_s }));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString saved = dir.filePath(u"saved.json"_s);
    const auto s = ProfileStore::save(original, saved);
    QVERIFY2(s.ok(), qPrintable(s.error));

    const auto second = ProfileStore::load(saved);
    QVERIFY2(second.ok(), qPrintable(second.errors.join(u'\n')));
    QCOMPARE(second.layout, kp::ProfileLayout::Kneepoint);
    // The one warning a saved profile may get: its literal key, which saving keeps as written.
    if (original.target.apiKeySource() == kp::ApiKeyResolution::Source::Literal) {
        QCOMPARE(second.warnings.size(), 1);
        QVERIFY2(second.warnings.constFirst().contains(
                     u": target.api_key: the API key is stored in plain text in %1; "_s.arg(saved)),
            qPrintable(second.warnings.constFirst()));
    } else {
        QCOMPARE(second.warnings, QStringList());
    }
    QVERIFY(*second.profile == original);
    QCOMPARE(ProfileStore::toJson(*second.profile), readAll(saved));
}

// load.mode "soak": one rate step of soak_duration_s, per window of soak_window_s; written back as read.
void TestProfile::soakMode()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"soak.json"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"target": {"base_url": "http://127.0.0.1:8000"},
        "load": {"mode": "soak", "rates": [25], "soak_duration_s": 7200}})");
    file.close();
    const auto r = ProfileStore::load(path);
    QVERIFY2(r.ok(), qPrintable(r.errors.join(u'\n')));
    QVERIFY(r.profile->load.soak);
    QCOMPARE(r.profile->load.mode, kp::LoadMode::Rate);
    QCOMPARE(r.profile->load.soakDurationS, 7200.0);
    QCOMPARE(r.profile->load.soakWindowS, 60.0);
    const QByteArray json = ProfileStore::toJson(*r.profile);
    QVERIFY2(json.contains(R"("mode": "soak")"), json.constData());
    QVERIFY2(json.contains(R"("soak_duration_s": 7200)"), json.constData());
    QVERIFY2(json.contains(R"("soak_window_s": 60)"), json.constData());
    // Outside a soak the soak's keys are not written.
    Profile rate = *r.profile;
    rate.load.soak = false;
    QVERIFY(!ProfileStore::toJson(rate).contains("soak"));
    const QString saved = dir.filePath(u"saved.json"_s);
    QVERIFY(ProfileStore::save(*r.profile, saved).ok());
    const auto again = ProfileStore::load(saved);
    QVERIFY2(again.ok(), qPrintable(again.errors.join(u'\n')));
    QVERIFY(*again.profile == *r.profile);

    QFile bad(path);
    QVERIFY(bad.open(QIODevice::WriteOnly | QIODevice::Truncate));
    bad.write(R"({"load": {"mode": "soaking"}})");
    bad.close();
    const auto refused = ProfileStore::load(path);
    QVERIFY(!refused.ok());
    QVERIFY2(refused.errors.join(u'\n').contains(u"expected \"rate\", \"concurrency\" or \"soak\", got \"soaking\""_s),
        qPrintable(refused.errors.join(u'\n')));
}

void TestProfile::nestedLayout()
{
    const auto r = ProfileStore::load(fixture(u"nested.json"_s));
    QVERIFY2(r.ok(), qPrintable(r.errors.join(u'\n')));
    QCOMPARE(r.layout, kp::ProfileLayout::Nested);
    const QString path = fixture(u"nested.json"_s);
    QCOMPARE(r.warnings,
        QStringList { path
            + u":4:16: api.api_key: the API key is stored in plain text in %1; keep it out of the file with "
              "\"${VAR}\" (an environment variable), \"keychain:ENTRY\" (the desktop keychain) or \"file:PATH\" "
              "(a file of its own)"_s.arg(path) });
    const Profile& p = *r.profile;
    QCOMPARE(p.target.baseUrl, u"http://gpu-box:8000"_s);
    QCOMPARE(p.target.apiKey, u"sk-nested-literal"_s);
    QCOMPARE(p.target.timeouts.totalS, 300.0);
    QCOMPARE(p.target.backend, kp::Backend::OpenAiChat);
    QCOMPARE(p.target.model, u"Qwen/Qwen2.5-7B-Instruct"_s);
    QCOMPARE(p.workload.dataset, u"random"_s);
    QCOMPARE(p.workload.numPrompts, 200);
    QCOMPARE(p.load.rates, QList<double> { 8 });
    QCOMPARE(p.output.resultFilename, u"results/qwen-rate8.json"_s);
    QCOMPARE(p.output.saveResult, true);
    QCOMPARE(p.server.host, u"0.0.0.0"_s);
    QCOMPARE(p.server.port, 8000);
    QCOMPARE(p.server.maxNumSeqs, 128);
    QCOMPARE(p.server.gpuMemoryUtilization, 0.85);
    QCOMPARE(p.server.tensorParallelSize, 1);
}

void TestProfile::flatLayout()
{
    const auto r = ProfileStore::load(fixture(u"flat.json"_s));
    QVERIFY2(r.ok(), qPrintable(r.errors.join(u'\n')));
    QCOMPARE(r.layout, kp::ProfileLayout::Flat);
    QCOMPARE(r.warnings, QStringList());
    const Profile& p = *r.profile;
    QCOMPARE(p.target.baseUrl, u"http://10.0.0.7:8000"_s);
    QCOMPARE(p.target.apiKey, u"${KP_TEST_FLAT_KEY}"_s);
    QCOMPARE(p.target.model, u"mistralai/Mistral-7B-Instruct-v0.3"_s);
    QCOMPARE(p.target.backend, kp::Backend::Vllm);
    QCOMPARE(p.target.requestUrl(), QUrl(u"http://10.0.0.7:8000/v1/completions"_s));
    QCOMPARE(p.workload.dataset, u"sharegpt"_s);
    QCOMPARE(p.workload.datasetPath, u"ShareGPT.json"_s);
    QCOMPARE(p.workload.numPrompts, 300);
    QCOMPARE(p.load.rates, (QList<double> { 1, 4, 16, inf }));
    QCOMPARE(p.server.maxNumSeqs, 64);
    QCOMPARE(p.server.gpuMemoryUtilization, 0.95);
}

void TestProfile::tomlTables()
{
    const auto r = ProfileStore::load(fixture(u"service.toml"_s));
    QVERIFY2(r.ok(), qPrintable(r.errors.join(u'\n')));
    QCOMPARE(r.format, kp::ProfileFormat::Toml);
    QCOMPARE(r.layout, kp::ProfileLayout::Tables);
    QCOMPARE(r.warnings, QStringList());
    const Profile& p = *r.profile;
    QCOMPARE(p.name, u"qwen sweep"_s);
    QCOMPARE(p.target.baseUrl, u"http://gpu-box:8000"_s);
    QCOMPARE(p.target.apiKey, u"${KP_TEST_KEY}"_s);
    QCOMPARE(p.target.backend, kp::Backend::OpenAiChat);
    QCOMPARE(p.target.timeouts.totalS, 300.0);
    QCOMPARE(p.target.headers, (QList<kp::HttpHeader> { { u"X-Team"_s, u"inference"_s } }));
    QCOMPARE(p.workload.inputLen, 1000);
    QCOMPARE(p.workload.outputLen, 200);
    QCOMPARE(p.load.rates, (QList<double> { 2, 4, 8, inf }));
    QCOMPARE(p.load.burstiness, 1.5);
    QCOMPARE(p.load.maxConcurrency, 64);
    QCOMPARE(p.server.tensorParallelSize, 2);
    QCOMPARE(p.server.hardware, u"1x L40S"_s);
    QCOMPARE(p.slo.ttftMs, 800.0);
    QCOMPARE(p.slo.tpotMs, 40.0);
}

void TestProfile::layoutDetection_data()
{
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<QString>("name");
    QTest::addColumn<kp::ProfileLayout>("layout");
    QTest::addColumn<kp::ProfileFormat>("format");
    QTest::addRow("kneepoint json") << R"({"schema": "kneepoint.profile/1", "target": {"base_url": "http://h"}})"_ba
                                    << u"p.json"_s << kp::ProfileLayout::Kneepoint << kp::ProfileFormat::Json;
    QTest::addRow("json without extension") << R"({"api": {"base_url": "http://h"}})"_ba << u"settings"_s
                                            << kp::ProfileLayout::Nested << kp::ProfileFormat::Json;
    QTest::addRow("json after comment") << "// mine\n{\"base_url\": \"http://h\"}"_ba << u"s.conf"_s
                                        << kp::ProfileLayout::Flat << kp::ProfileFormat::Json;
    QTest::addRow("toml without extension") << "[service]\nbase_url = \"http://h\"\n"_ba << u"profile"_s
                                            << kp::ProfileLayout::Tables << kp::ProfileFormat::Toml;
    QTest::addRow("flat toml") << "base_url = \"http://h\"\nrequest_rates = [1, 2]\n"_ba << u"p.toml"_s
                               << kp::ProfileLayout::Flat << kp::ProfileFormat::Toml;
    QTest::addRow("kneepoint toml") << "schema = \"kneepoint.profile/1\"\n[target]\nbase_url = \"http://h\"\n"_ba
                                    << u"p.toml"_s << kp::ProfileLayout::Kneepoint << kp::ProfileFormat::Toml;
    QTest::addRow("tables json") << R"({"service": {"base_url": "http://h"}, "load": {"rates": [1]}})"_ba << u"p.json"_s
                                 << kp::ProfileLayout::Tables << kp::ProfileFormat::Json;
}

void TestProfile::layoutDetection()
{
    QFETCH(QByteArray, data);
    QFETCH(QString, name);
    QFETCH(kp::ProfileLayout, layout);
    QFETCH(kp::ProfileFormat, format);
    const auto r = ProfileStore::loadFromData(data, name);
    QVERIFY2(r.ok(), qPrintable(r.errors.join(u'\n')));
    QCOMPARE(r.layout, layout);
    QCOMPARE(r.format, format);
}

void TestProfile::requestRates_data()
{
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QList<double>>("rates");
    QTest::addColumn<QStringList>("errors");
    const QStringList none;
    QTest::addRow("request_rate, one value")
        << R"({"base_url": "http://h", "request_rate": 10})"_ba << u"a.json"_s << QList<double> { 10 } << none;
    QTest::addRow("request_rate inf") << R"({"base_url": "http://h", "request_rate": "inf"})"_ba << u"a.json"_s
                                      << QList<double> { inf } << none;
    QTest::addRow("request_rate as a string")
        << R"({"base_url": "http://h", "request_rate": "2.5"})"_ba << u"a.json"_s << QList<double> { 2.5 } << none;
    QTest::addRow("request_rates, a sweep")
        << R"({"api": {"base_url": "http://h"}, "benchmark": {"request_rates": [1, 2, "Inf"]}})"_ba << u"a.json"_s
        << QList<double> { 1, 2, inf } << none;
    QTest::addRow("request_rates with one value")
        << R"({"base_url": "http://h", "request_rates": 3})"_ba << u"a.json"_s << QList<double> { 3 } << none;
    QTest::addRow("python Infinity") << R"({"base_url": "http://h", "request_rates": [4, Infinity]})"_ba << u"a.json"_s
                                     << QList<double> { 4, inf } << none;
    QTest::addRow("toml inf") << "[service]\nbase_url = \"http://h\"\n[load]\nrates = [1, inf]\n"_ba << u"a.toml"_s
                              << QList<double> { 1, inf } << none;
    QTest::addRow("toml request_rate") << "[service]\nbase_url = \"http://h\"\n[load]\nrequest_rate = 7\n"_ba
                                       << u"a.toml"_s << QList<double> { 7 } << none;
    QTest::addRow("both") << R"({"base_url": "http://h", "request_rate": 1, "request_rates": [2]})"_ba << u"a.json"_s
                          << QList<double>()
                          << QStringList {
                                 u"a.json:1:45: request_rates: give one of request_rate, request_rates or rates"_s
                             };
    QTest::addRow("zero request_rate") << R"({"base_url": "http://h", "request_rate": 0})"_ba << u"a.json"_s
                                       << QList<double>()
                                       << QStringList { u"a.json:1:42: request_rate: must be > 0"_s };
    QTest::addRow("-inf") << R"({"base_url": "http://h", "request_rates": [1, "-inf"]})"_ba << u"a.json"_s
                          << QList<double>() << QStringList { u"a.json:1:47: request_rates[1]: must be > 0"_s };
    QTest::addRow("toml negative") << "[service]\nbase_url = \"http://h\"\n[load]\nrates = [1, -3]\n"_ba << u"a.toml"_s
                                   << QList<double>() << QStringList { u"a.toml:4:13: load.rates[1]: must be > 0"_s };
}

void TestProfile::requestRates()
{
    QFETCH(QByteArray, data);
    QFETCH(QString, name);
    QFETCH(QList<double>, rates);
    QFETCH(QStringList, errors);
    const auto r = ProfileStore::loadFromData(data, name);
    QCOMPARE(r.errors, errors);
    if (errors.isEmpty()) {
        QCOMPARE(r.profile->load.rates, rates);
        QCOMPARE(r.profile->load.mode, kp::LoadMode::Rate);
    }
}

void TestProfile::fileErrors_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("errors"); // %F stands for the fixture's path
    QTest::addRow("bad value in an array element")
        << u"bad-rate.json"_s << QStringList { u"%F:14:9: load.rates[2]: must be > 0"_s };
    QTest::addRow("syntax error") << u"syntax-error.json"_s
                                  << QStringList { u"%F:5:5: target: syntax error while parsing object - unexpected "
                                                   "string literal; expected '}'"_s };
    QTest::addRow("wrong types") << u"wrong-type.json"_s
                                 << QStringList {
                                        u"%F:5:19: target.tls_verify: expected true or false, got string \"yes\""_s,
                                        u"%F:8:20: workload.num_prompts: expected an integer, got string \"100\""_s,
                                        u"%F:9:13: workload.seed: expected an integer, got number 1.5"_s,
                                        u"%F:12:18: load.rates[1]: expected a number or \"inf\", got string \"fast\""_s,
                                    };
    QTest::addRow("flat layout, named as the file names them")
        << u"flat-errors.json"_s
        << QStringList {
               u"%F:4:14: backend: unknown backend \"tgi\"; expected openai, openai-chat, vllm, openai-responses, "
               "anthropic-messages or openai-embeddings (for TGI or TensorRT-LLM use their OpenAI-compatible "
               "endpoints)"_s,
               u"%F:2:15: base_url: must be an http:// or https:// URL with a host (or sim://PRESET for the built-in simulator), got \"ftp://files.example\""_s,
               u"%F:1:1: dataset_path: is required when dataset_name is \"sharegpt\""_s,
               u"%F:6:18: num_prompts: must be >= 1"_s,
               u"%F:7:24: request_rates[1]: must be > 0"_s,
               u"%F:8:29: gpu_memory_utilization: must be in (0, 1]"_s,
           };
    QTest::addRow("toml syntax error") << u"bad.toml"_s
                                       << QStringList { u"%F:3:9: Error while parsing value: could not determine value "
                                                        "type"_s };
}

void TestProfile::fileErrors()
{
    QFETCH(QString, file);
    QFETCH(QStringList, errors);
    const QString path = fixture(file);
    for (QString& e : errors)
        e.replace(u"%F"_s, path);
    const auto r = ProfileStore::load(path);
    QCOMPARE(r.errors, errors);
    QVERIFY(!r.ok());
}

// /dev/zero or a FIFO given as a profile grew without end; a file past the limit is refused by its size.
void TestProfile::endlessAndHugeFilesAreRefused()
{
    const QString limit = u"larger than 16 MB, the most Kneepoint reads from one file of this kind"_s;
    if (QFileInfo::exists(u"/dev/zero"_s)) {
        const auto r = ProfileStore::load(u"/dev/zero"_s);
        QCOMPARE(r.errors, QStringList { u"/dev/zero: "_s + limit });
    }
    QTemporaryDir dir;
    const QString big = dir.filePath(u"big.json"_s);
    QFile f(big);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QVERIFY(f.resize(16LL * 1024 * 1024 + 1));
    f.close();
    QCOMPARE(ProfileStore::load(big).errors, QStringList { big + u": "_s + limit });
    QCOMPARE(ProfileStore::load(dir.filePath(u"missing.json"_s)).errors.size(), 1);
}

void TestProfile::syntaxErrors_data()
{
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<QString>("error");
    QTest::addRow("empty") << QByteArray()
                           << u"s.json:1:1: syntax error while parsing value - unexpected end of input; expected '[', "
                              "'{', or a literal"_s;
    QTest::addRow("trailing comma in a list")
        << "{\n  \"load\": {\n    \"rates\": [1, 2,]\n  }\n}"_ba
        << u"s.json:3:20: load.rates: syntax error while parsing value - unexpected ']'; expected '[', '{', or a literal"_s;
    QTest::addRow("bad number") << "{\"load\": {\"rates\": [1, 2x, 3]}}"_ba
                                << u"s.json:1:24: load.rates[1]: syntax error while parsing array - invalid literal; "
                                   "last read: '2x'; expected ']'"_s;
    QTest::addRow("missing colon") << "{\"target\": {\"base_url\" \"http://x\"}}"_ba
                                   << u"s.json:1:24: target.base_url: syntax error while parsing object separator - "
                                      "unexpected string literal; expected ':'"_s;
    QTest::addRow("unclosed object") << "{\"target\": {\"base_url\": \"http://x\"}\n"_ba
                                     << u"s.json:2:1: syntax error while parsing object - unexpected end of input; "
                                        "expected '}'"_s;
    QTest::addRow("columns count characters") << "{\"x\": \"é\", \"y\": @}"_ba
                                              << u"s.json:1:17: y: syntax error while parsing value - invalid literal; "
                                                 "last read: '\"y\": @'"_s;
    QTest::addRow("not an object") << "[1, 2]"_ba << u"s.json:1:1: a profile must be an object at the top level"_s;
    // 100,000 nested arrays in 200 KB overflowed the parser's stack: refused before parsing, at the
    // bracket past the limit (a "[" inside a string or a comment does not count).
    QTest::addRow("deep nesting") << "// [[[[\n{\"a\": \"[[[[\", \"b\":\n"_ba + QByteArray(100000, '[')
                                  << u"s.json:3:512: arrays and objects nest deeper than 512 levels"_s;
    // nlohmann refuses a number beyond a double's range without a position: the file's line and column.
    QTest::addRow("number beyond a double")
        << "{\"load\": {\n \"rates\": [1, -1e400]}}"_ba
        << u"s.json:2:15: load.rates[1]: number -1e400 is out of range (the largest is about 1.8e308)"_s;
    QTest::addRow("long integer beyond a double") << "{\"workload\": {\"seed\": 1"_ba + QByteArray(400, '0') + "}}"_ba
                                                  << u"s.json:1:23: workload.seed: number 1"_s + QString(400, u'0')
            + u" is out of range (the largest is about 1.8e308)"_s;
    QTest::addRow("newer schema")
        << "{\"schema\": \"kneepoint.profile/2\"}"_ba
        << u"s.json:1:12: schema: unsupported version \"kneepoint.profile/2\"; this Kneepoint "
           "reads \"kneepoint.profile/1\""_s;
}

void TestProfile::syntaxErrors()
{
    QFETCH(QByteArray, data);
    QFETCH(QString, error);
    const auto r = ProfileStore::loadFromData(data, u"s.json"_s);
    QCOMPARE(r.errors, QStringList { error });
}

void TestProfile::notANumber_data()
{
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QStringList>("errors");
    const QByteArray head = "{\"target\": {\"base_url\": \"http://h:1\"},\n \"load\": "_ba;
    // NaN fails every comparison, so it used to read "must be > 0".
    QTest::addRow("nan as a rate") << head + "{\"rates\": [2, \"nan\"]}}"_ba << u"n.json"_s
                                   << QStringList { u"n.json:2:24: load.rates[1]: \"nan\" is not a number"_s };
    QTest::addRow("NaN in any case") << head + "{\"rates\": [\"-NaN\"]}}"_ba << u"n.json"_s
                                     << QStringList { u"n.json:2:21: load.rates[0]: \"-NaN\" is not a number"_s };
    QTest::addRow("toml nan rate") << "[service]\nbase_url = \"http://h:1\"\n[load]\nrates = [1, nan]\n"_ba
                                   << u"n.toml"_s
                                   << QStringList { u"n.toml:4:13: load.rates[1]: nan is not a number"_s };
    QTest::addRow("toml nan number") << "[service]\nbase_url = \"http://h:1\"\n[load]\nburstiness = nan\n"_ba
                                     << u"n.toml"_s
                                     << QStringList { u"n.toml:4:14: load.burstiness: nan is not a number"_s };
    // inf is a rate ("send everything at once"), but no other number means anything infinite.
    QTest::addRow("toml inf number") << "[service]\nbase_url = \"http://h:1\"\n[load]\ncooldown_s = inf\n"_ba
                                     << u"n.toml"_s
                                     << QStringList {
                                            u"n.toml:4:14: load.cooldown_s: must be a finite number, got inf"_s
                                        };
    QTest::addRow("inf rate is fine") << head + "{\"rates\": [\"inf\", Infinity]}}"_ba << u"n.json"_s << QStringList {};
}

void TestProfile::notANumber()
{
    QFETCH(QByteArray, data);
    QFETCH(QString, name);
    QFETCH(QStringList, errors);
    const auto r = ProfileStore::loadFromData(data, name);
    QCOMPARE(r.errors, errors);
    QCOMPARE(r.ok(), errors.isEmpty());

    // A NaN that reaches a profile by another way (the command line, the window) is named too.
    Profile p;
    p.target.baseUrl = u"http://h:1"_s;
    p.load.rates = { std::numeric_limits<double>::quiet_NaN() };
    p.load.burstiness = std::numeric_limits<double>::quiet_NaN();
    QStringList issues;
    for (const kp::ProfileIssue& i : kp::validateProfile(p))
        issues << i.toString();
    QCOMPARE(issues,
        (QStringList { u"load.rates[0]: is not a number (nan)"_s, u"load.burstiness: is not a number (nan)"_s }));
}

// Positions used to be found by counting from the start of the line for every value: 10^5 rates on
// one line took 87 s, 2 x 10^5 would take minutes. Counting on from the previous value keeps it linear.
void TestProfile::longRateListOnOneLine()
{
    constexpr int count = 200000;
    QByteArray data = "{\"schema\": \"kneepoint.profile/1\", \"target\": {\"base_url\": \"http://h:1\"}, "
                      "\"load\": {\"rates\": [1"_ba;
    data.reserve(data.size() + 2 * count + 8);
    for (int i = 1; i < count - 1; ++i)
        data += ",1";
    data += ",0]}}"; // the last one is wrong, so that its position is asked for
    const auto r = ProfileStore::loadFromData(data, u"m.json"_s);
    const int column = int(data.size()) - 3; // "0]}}" ends the line
    QCOMPARE(r.errors, QStringList { u"m.json:1:%1: load.rates[199999]: must be > 0"_s.arg(column) });

    data.chop(5);
    data += ",1]}}";
    const auto ok = ProfileStore::loadFromData(data, u"m.json"_s);
    QVERIFY2(ok.ok(), qPrintable(ok.errors.join(u'\n')));
    QCOMPARE(ok.profile->load.rates.size(), count);
}

void TestProfile::plainTextKeyWarns_data()
{
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<QStringList>("warnings");
    const QString advice
        = u"the API key is stored in plain text in k.json; keep it out of the file with \"${VAR}\" (an "
          "environment variable), \"keychain:ENTRY\" (the desktop keychain) or \"file:PATH\" (a file of "
          "its own)"_s;
    QTest::addRow("literal key")
        << "{\"schema\": \"kneepoint.profile/1\",\n \"target\": {\"base_url\": \"https://h\", \"api_key\": \"sk-proj-4f9a77\"}}"_ba
        << QStringList { u"k.json:2:49: target.api_key: "_s + advice };
    QTest::addRow("nested layout, named as the file names it")
        << "{\"api\": {\"base_url\": \"https://h\",\n \"api_key\": \"sk-proj-4f9a77\"}}"_ba
        << QStringList { u"k.json:2:13: api.api_key: "_s + advice };
    QTest::addRow("environment variable")
        << "{\"api\": {\"base_url\": \"https://h\", \"api_key\": \"${KEY}\"}}"_ba << QStringList {};
    QTest::addRow("keychain") << "{\"api\": {\"base_url\": \"https://h\", \"api_key\": \"keychain:prod\"}}"_ba
                              << QStringList {};
    QTest::addRow("file") << "{\"api\": {\"base_url\": \"https://h\", \"api_key\": \"file:~/.key\"}}"_ba
                          << QStringList {};
}

// A key written in a profile is read by anyone who gets the file: a warning, not a refusal, and
// never the key itself.
void TestProfile::plainTextKeyWarns()
{
    QFETCH(QByteArray, data);
    QFETCH(QStringList, warnings);
    const auto r = ProfileStore::loadFromData(data, u"k.json"_s);
    QVERIFY2(r.ok(), qPrintable(r.errors.join(u'\n')));
    QCOMPARE(r.warnings, warnings);
    for (const QString& w : r.warnings)
        QVERIFY(!w.contains(u"4f9a77"_s));
}

void TestProfile::displayUrlMasksPassword_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("shown");
    QTest::addRow("password") << u"http://user:s3cret@gw.example.com:8080/v1"_s
                              << u"http://user:***@gw.example.com:8080/v1"_s;
    QTest::addRow("user only") << u"https://user@gw.example.com/v1"_s << u"https://user@gw.example.com/v1"_s;
    QTest::addRow("none") << u"http://127.0.0.1:8000"_s << u"http://127.0.0.1:8000"_s;
    QTest::addRow("not a url") << u"localhost:8000"_s << u"localhost:8000"_s;
}

void TestProfile::displayUrlMasksPassword()
{
    QFETCH(QString, url);
    QFETCH(QString, shown);
    QCOMPARE(kp::displayUrl(url), shown);
    // Messages that quote a wrong URL do not quote its password either.
    Profile p;
    p.target.baseUrl = u"ftp://user:s3cret@files.example"_s;
    const QList<kp::ProfileIssue> issues = kp::validateProfile(p);
    QCOMPARE(issues.size(), 1);
    QVERIFY2(!issues.constFirst().message.contains(u"s3cret"_s), qPrintable(issues.constFirst().message));
    QVERIFY(issues.constFirst().message.contains(u"ftp://user:***@files.example"_s));
}

void TestProfile::everyPrefixIsHandled_data()
{
    QTest::addColumn<QString>("file");
    QTest::addRow("json") << u"kneepoint-full.json"_s;
    QTest::addRow("toml") << u"service.toml"_s;
}

// Cut a file anywhere: the result is a profile or located errors, never a crash or a silent failure.
void TestProfile::everyPrefixIsHandled()
{
    QFETCH(QString, file);
    const QByteArray data = readAll(fixture(file));
    const QString name = u"cut."_s + QFileInfo(file).suffix();
    static const QRegularExpression located(u"^cut\\.(json|toml):\\d+:\\d+: "_s);
    for (qsizetype n = 0; n < data.size(); ++n) {
        const auto r = ProfileStore::loadFromData(data.left(n), name);
        if (r.ok())
            continue;
        QVERIFY2(!r.errors.isEmpty(), qPrintable(QString::number(n)));
        for (const QString& e : r.errors)
            QVERIFY2(located.match(e).hasMatch(), qPrintable(u"%1: %2"_s.arg(n).arg(e)));
    }
}

void TestProfile::unknownKeyWarnings()
{
    const QString path = fixture(u"unknown-keys.json"_s);
    const auto r = ProfileStore::load(path);
    QVERIFY2(r.ok(), qPrintable(r.errors.join(u'\n')));
    QCOMPARE(r.warnings,
        (QStringList {
            path + u":5:5: target.modle: unknown key, ignored (did you mean \"model\"?)"_s,
            path + u":9:5: load.burstyness: unknown key, ignored (did you mean \"burstiness\"?)"_s,
            path + u":11:3: comment: unknown key, ignored"_s,
        }));

    const auto other = ProfileStore::loadFromData(
        R"({"base_url": "http://h", "backend": "sglang", "tokenizer": "t", "base_url": "http://h2"})"_ba, u"f.json"_s);
    QVERIFY(other.ok());
    QCOMPARE(other.profile->target.baseUrl, u"http://h2"_s);
    QCOMPARE(other.warnings,
        (QStringList {
            u"f.json:1:65: base_url: duplicate key; the last one is used"_s,
            u"f.json:1:37: backend: \"sglang\" is read as \"openai\""_s,
            u"f.json:1:47: tokenizer: not used by Kneepoint (token counts come from the server's usage reports); "
            "ignored"_s,
        }));
}

void TestProfile::validation_data()
{
    QTest::addColumn<ProfileMutator>("mutate");
    QTest::addColumn<QStringList>("issues");
    const auto row
        = [](const char* name, ProfileMutator m, QStringList issues) { QTest::addRow("%s", name) << m << issues; };
    row("valid", [](Profile&) {}, {});
    row("no scheme", [](Profile& p) { p.target.baseUrl = u"localhost:8000"_s; },
        { u"target.base_url: must be an http:// or https:// URL with a host (or sim://PRESET for the built-in simulator), got \"localhost:8000\""_s });
    row("no host", [](Profile& p) { p.target.baseUrl = u"http://"_s; },
        { u"target.base_url: must be an http:// or https:// URL with a host (or sim://PRESET for the built-in simulator), got \"http://\""_s });
    row("endpoint", [](Profile& p) { p.target.endpoint = u"v1/completions"_s; },
        { u"target.endpoint: must start with \"/\""_s });
    row("timeouts", [](Profile& p) { p.target.timeouts.idleS = 0; }, { u"target.timeouts.idle_s: must be > 0"_s });
    row("proxy",
        [](Profile& p) {
            p.target.proxyMode = kp::ProxyMode::Url;
            p.target.proxyUrl = u"proxy:3128"_s;
        },
        { u"target.proxy: must be \"none\", \"system\" or an http://, https:// or socks5:// URL with a host, got "
          "\"proxy:3128\""_s });
    row("metrics urls",
        [](Profile& p) {
            p.target.metricsUrls = { u"http://a:8000/metrics"_s, u"b:9400"_s };
        },
        { u"target.metrics_urls[1]: must be an http:// or https:// URL, or \"off\", got \"b:9400\""_s });
    row("metrics urls off", [](Profile& p) { p.target.metricsUrls = { u"off"_s }; }, {});
    row("metrics url and urls",
        [](Profile& p) {
            p.target.metricsUrl = u"http://a:8000/metrics"_s;
            p.target.metricsUrls = { u"http://b:8000/metrics"_s };
        },
        { u"target.metrics_urls: give either target.metrics_url or target.metrics_urls, not both (metrics_url is "
          "\"http://a:8000/metrics\")"_s });
    row("api key reference", [](Profile& p) { p.target.apiKey = u"${OPEN"_s; },
        { u"target.api_key: unterminated ${ reference"_s });
    row("header",
        [](Profile& p) {
            p.target.headers = { { u"X Y"_s, u"a\nb"_s } };
        },
        { u"target.headers[\"X Y\"]: is not a valid HTTP header name"_s,
            u"target.headers[\"X Y\"]: must not contain line breaks"_s });
    row("dataset", [](Profile& p) { p.workload.dataset = u"sonnet"_s; },
        { u"workload.dataset: unknown dataset \"sonnet\"; expected one of random, sharegpt, jsonl, replay, shared-prefix, mooncake"_s });
    row("dataset path", [](Profile& p) { p.workload.dataset = u"jsonl"_s; },
        { u"workload.dataset_path: is required when workload.dataset is \"jsonl\""_s });
    row("num_prompts", [](Profile& p) { p.workload.numPrompts = 0; }, { u"workload.num_prompts: must be >= 1"_s });
    row("range ratio", [](Profile& p) { p.workload.rangeRatio = 1; }, { u"workload.range_ratio: must be in [0, 1)"_s });
    row("sampling",
        [](Profile& p) {
            p.workload.sampling.temperature = -1;
            p.workload.sampling.topP = 0;
        },
        { u"workload.sampling.temperature: must be >= 0"_s, u"workload.sampling.top_p: must be in (0, 1]"_s });
    row("empty rates", [](Profile& p) { p.load.rates.clear(); }, { u"load.rates: needs at least one rate"_s });
    row("nan rate",
        [](Profile& p) {
            p.load.rates = { 1, std::numeric_limits<double>::quiet_NaN() };
        },
        { u"load.rates[1]: is not a number (nan)"_s });
    row("rates ignored in concurrency mode",
        [](Profile& p) {
            p.load.mode = kp::LoadMode::Concurrency;
            p.load.rates = { -1 };
            p.load.concurrencies = { 1, 0 };
        },
        { u"load.concurrencies[1]: must be >= 1"_s });
    row("burstiness", [](Profile& p) { p.load.burstiness = 0; }, { u"load.burstiness: must be > 0"_s });
    row("max_concurrency", [](Profile& p) { p.load.maxConcurrency = 0; }, { u"load.max_concurrency: must be >= 1"_s });
    row("step duration", [](Profile& p) { p.load.stepDurationS = 0.0; }, { u"load.step_duration_s: must be > 0"_s });
    row("soak",
        [](Profile& p) {
            p.load.soak = true;
            p.load.rates = { 20 };
        },
        {});
    row("soak at inf", [](Profile& p) { p.load.soak = true; },
        { u"load.rates: a soak runs one finite rate (req/s)"_s });
    row("soak at two rates",
        [](Profile& p) {
            p.load.soak = true;
            p.load.rates = { 20, 40 };
        },
        { u"load.rates: a soak runs one finite rate (req/s)"_s });
    row("soak of users",
        [](Profile& p) {
            p.load.soak = true;
            p.load.mode = kp::LoadMode::Concurrency;
            p.load.concurrencies = { 4 };
        },
        { u"load.mode: \"soak\" runs at a request rate, not at a concurrency"_s });
    row("soak planned",
        [](Profile& p) {
            p.load.soak = true;
            p.load.plan.kind = kp::PlanKind::Auto;
        },
        { u"load.plan.kind: must be \"list\" with load.mode \"soak\": a soak runs one rate"_s });
    row("soak window",
        [](Profile& p) {
            p.load.soak = true;
            p.load.rates = { 20 };
            p.load.soakWindowS = 0.05;
        },
        { u"load.soak_window_s: must be >= 0.1"_s });
    row("percentile zero", [](Profile& p) { p.slo.percentile = 0; }, { u"slo.percentile: must be in (0, 100]"_s });
    row("percentile 100", [](Profile& p) { p.slo.percentile = 100; }, {});
    row("slo",
        [](Profile& p) {
            p.slo.ttftMs = -5.0;
            p.slo.maxErrorRate = 2.0;
        },
        { u"slo.ttft_ms: must be > 0"_s, u"slo.max_error_rate: must be in [0, 1]"_s });
    row("server", [](Profile& p) { p.server.port = 70000; }, { u"server.port: must be in [1, 65535]"_s });
    row("output",
        [](Profile& p) {
            p.output.percentileMetrics = { u"ttft"_s, u"latency"_s };
            p.output.metricPercentiles = { 99, 101 };
        },
        { u"output.percentile_metrics[1]: unknown metric \"latency\"; expected one of ttft, tpot, itl, e2el"_s,
            u"output.metric_percentiles[1]: must be in (0, 100]"_s });
}

void TestProfile::validation()
{
    QFETCH(ProfileMutator, mutate);
    QFETCH(QStringList, issues);
    Profile p;
    p.target.baseUrl = u"http://127.0.0.1:8000"_s;
    mutate(p);
    QStringList got;
    for (const kp::ProfileIssue& issue : kp::validateProfile(p))
        got.append(issue.toString());
    QCOMPARE(got, issues);
}

void TestProfile::apiKey_data()
{
    QTest::addColumn<QString>("apiKey");
    QTest::addColumn<QByteArray>("envValue"); // KP_TEST_SECRET; null: unset
    QTest::addColumn<QByteArray>("openAiKey"); // OPENAI_API_KEY; null: unset
    QTest::addColumn<QString>("key");
    QTest::addColumn<kp::ApiKeyResolution::Source>("source");
    QTest::addColumn<QString>("error");
    using Source = kp::ApiKeyResolution::Source;
    QTest::addRow("literal") << u"sk-literal"_s << QByteArray() << "sk-openai"_ba << u"sk-literal"_s << Source::Literal
                             << QString();
    QTest::addRow("env reference") << u"${KP_TEST_SECRET}"_s << "sk-env"_ba
                                   << "sk-openai"_ba << u"sk-env"_s << Source::Environment << QString();
    QTest::addRow("env inside text") << u"team-${KP_TEST_SECRET}"_s << "42"_ba << QByteArray() << u"team-42"_s
                                     << Source::Environment << QString();
    QTest::addRow("unset reference") << u"${KP_TEST_SECRET}"_s << QByteArray() << "sk-openai"_ba << QString()
                                     << Source::Environment
                                     << u"target.api_key: environment variable KP_TEST_SECRET is not set"_s;
    QTest::addRow("OPENAI_API_KEY fallback")
        << QString() << QByteArray() << "sk-openai"_ba << u"sk-openai"_s << Source::OpenAiApiKey << QString();
    QTest::addRow("no key") << QString() << QByteArray() << QByteArray() << QString() << Source::None << QString();
}

void TestProfile::apiKey()
{
    QFETCH(QString, apiKey);
    QFETCH(QByteArray, envValue);
    QFETCH(QByteArray, openAiKey);
    QFETCH(QString, key);
    QFETCH(kp::ApiKeyResolution::Source, source);
    QFETCH(QString, error);
    const EnvGuard secret("KP_TEST_SECRET", envValue.isNull() ? std::nullopt : std::optional(envValue));
    const EnvGuard openAi("OPENAI_API_KEY", openAiKey.isNull() ? std::nullopt : std::optional(openAiKey));

    kp::Target t;
    t.apiKey = apiKey;
    const kp::ApiKeyResolution r = t.resolvedApiKey();
    QCOMPARE(r.key, key);
    QCOMPARE(r.source, source);
    QCOMPARE(r.error, error);
    QCOMPARE(r.ok(), error.isEmpty());
    QVERIFY(!r.describe().contains(u"sk-"_s));
}

void TestProfile::headerEnvironment()
{
    const EnvGuard token("KP_TEST_TOKEN", QByteArray("abc"));
    const EnvGuard missing("KP_TEST_MISSING", std::nullopt);
    kp::Target t;
    t.headers = { { u"Authorization"_s, u"Bearer ${KP_TEST_TOKEN}"_s }, { u"X-Plain"_s, u"1"_s } };
    QString error;
    QCOMPARE(t.resolvedHeaders(&error),
        (QList<kp::HttpHeader> { { u"Authorization"_s, u"Bearer abc"_s }, { u"X-Plain"_s, u"1"_s } }));
    QCOMPARE(error, QString());
    t.headers.append({ u"X-Other"_s, u"${KP_TEST_MISSING}"_s });
    t.resolvedHeaders(&error);
    QCOMPARE(error, u"target.headers.X-Other: environment variable KP_TEST_MISSING is not set"_s);
}

void TestProfile::redaction()
{
    Profile p = Profile::demo(QUrl(u"http://127.0.0.1:8000"_s));
    p.target.apiKey = u"sk-live-secret"_s;
    p.target.baseUrl = u"https://user:pw@gateway.example/v1"_s;
    p.target.proxyMode = kp::ProxyMode::Url;
    p.target.proxyUrl = u"http://me:hunter2@proxy:3128"_s;
    p.target.headers = {
        { u"Authorization"_s, u"Bearer sk-live-secret"_s },
        { u"x-api-key"_s, u"${GATEWAY_KEY}"_s },
        { u"X-Team"_s, u"inference"_s },
    };
    const Profile r = kp::redactedProfile(p);
    QCOMPARE(r.target.apiKey, u"<redacted>"_s);
    QCOMPARE(r.target.baseUrl, u"https://user:redacted@gateway.example/v1"_s);
    QCOMPARE(r.target.proxyUrl, u"http://me:redacted@proxy:3128"_s);
    QCOMPARE(r.target.headers,
        (QList<kp::HttpHeader> { { u"Authorization"_s, u"<redacted>"_s }, { u"x-api-key"_s, u"${GATEWAY_KEY}"_s },
            { u"X-Team"_s, u"inference"_s } }));
    QVERIFY(!ProfileStore::toJson(r).contains("sk-live-secret"));
    QVERIFY(!ProfileStore::toJson(r).contains("hunter2"));

    p.target.apiKey = u"${OPENAI_KEY_PROD}"_s;
    QCOMPARE(kp::redactedProfile(p).target.apiKey, u"${OPENAI_KEY_PROD}"_s);
    p.target.apiKey.clear();
    QCOMPARE(kp::redactedProfile(p).target.apiKey, QString());
    // Nothing else changes.
    Profile expected = p;
    expected.target.baseUrl = r.target.baseUrl;
    expected.target.proxyUrl = r.target.proxyUrl;
    expected.target.headers = r.target.headers;
    QVERIFY(kp::redactedProfile(p) == expected);
}

// A server sweep's commands keep their options but not the secrets in them.
void TestProfile::serverCommandSecrets_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("written");
    QTest::addRow("option") << u"vllm serve m --api-key sk-abc --max-num-batched-tokens 8192"_s
                            << u"vllm serve m --api-key <redacted> --max-num-batched-tokens 8192"_s;
    QTest::addRow("option=") << u"sglang --hf-token=hf_x1 --tokenizer-mode auto"_s
                             << u"sglang --hf-token=<redacted> --tokenizer-mode auto"_s;
    QTest::addRow("variable") << u"HF_TOKEN=hf_y OPENAI_API_KEY='sk z' vllm serve m"_s
                              << u"HF_TOKEN=<redacted> OPENAI_API_KEY=<redacted> vllm serve m"_s;
    QTest::addRow("reference") << u"vllm serve m --api-key ${VLLM_KEY} --password -"_s
                               << u"vllm serve m --api-key ${VLLM_KEY} --password -"_s;
}

void TestProfile::serverCommandSecrets()
{
    QFETCH(QString, command);
    QFETCH(QString, written);
    QCOMPARE(kp::redactCommandSecrets(command), written);
    Profile p = Profile::demo(QUrl(u"http://127.0.0.1:8000"_s));
    p.serverSweep.command = command;
    QCOMPARE(kp::redactedProfile(p).serverSweep.command, written);
}

void TestProfile::saveReplacesAtomically()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"nested/dir/profile.json"_s);
    Profile p = Profile::demo(QUrl(u"http://127.0.0.1:8000"_s));
    QVERIFY(ProfileStore::save(p, path).ok());
    p.name = u"second"_s;
    QVERIFY(ProfileStore::save(p, path).ok());
    QCOMPARE(ProfileStore::load(path).profile->name, u"second"_s);
    // No temporary files are left next to it; the previous version is kept.
    QCOMPARE(QDir(QFileInfo(path).absolutePath()).entryList(QDir::Files),
        (QStringList { u"profile.json"_s, u"profile.json.bak"_s }));
    QCOMPARE(ProfileStore::load(path + u".bak"_s).profile->name, Profile::demo(QUrl(u"http://127.0.0.1:8000"_s)).name);
}

void TestProfile::saveKeepsOriginalWhenWriteFails()
{
#ifdef Q_OS_LINUX
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"profile.json"_s);
    const QByteArray original = "{\"original\": true}\n";
    QVERIFY(writeAll(path, original));

    // A file-size limit makes the write fail halfway, as a full disk would; it applies to root too.
    rlimit old {};
    QCOMPARE(getrlimit(RLIMIT_FSIZE, &old), 0);
    const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit small = old;
    small.rlim_cur = 64;
    QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
    const kp::ProfileSaveResult result = ProfileStore::save(Profile::demo(QUrl(u"http://127.0.0.1:8000"_s)), path);
    setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, oldHandler);

    QVERIFY(!result.ok());
    QVERIFY2(result.error.startsWith(path + u": cannot "_s), qPrintable(result.error));
    QCOMPARE(readAll(path), original);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList { u"profile.json"_s });
#else
    QSKIP("needs RLIMIT_FSIZE");
#endif
}

void TestProfile::saveToReadOnlyDirectory()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"profile.json"_s);
    const QByteArray original = "{\"original\": true}\n";
    QVERIFY(writeAll(path, original));
    QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::ExeOwner);
    const auto restore = qScopeGuard([&] {
        QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    });
    if (QFile probe(dir.filePath(u"probe"_s)); probe.open(QIODevice::WriteOnly)) {
        probe.remove();
        QSKIP("permissions are not enforced for this user (root?); saveKeepsOriginalWhenWriteFails covers the case");
    }
    const kp::ProfileSaveResult result = ProfileStore::save(Profile::demo(QUrl(u"http://127.0.0.1:8000"_s)), path);
    QVERIFY(!result.ok());
    QVERIFY2(result.error.startsWith(path + u": cannot write: "_s), qPrintable(result.error));
    QCOMPARE(readAll(path), original);
}

void TestProfile::saveErrors()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const Profile p = Profile::demo(QUrl(u"http://127.0.0.1:8000"_s));

    const QString toml = dir.filePath(u"p.toml"_s);
    QCOMPARE(ProfileStore::save(p, toml).error,
        toml + u": profiles are saved as JSON in Kneepoint's schema; choose a .json file name"_s);
    QVERIFY(!QFile::exists(toml));

    const QString blocker = dir.filePath(u"file"_s);
    QVERIFY(writeAll(blocker, "x"));
    const QString below = blocker + u"/sub/p.json"_s;
    const kp::ProfileSaveResult r = ProfileStore::save(p, below);
    QVERIFY(!r.ok());
    QVERIFY2(r.error.startsWith(below + u": cannot "_s), qPrintable(r.error));
    QCOMPARE(readAll(blocker), "x"_ba);

    const auto missing = ProfileStore::load(dir.filePath(u"missing.json"_s));
    QCOMPARE(missing.errors.size(), 1);
    QVERIFY(missing.errors[0].startsWith(dir.filePath(u"missing.json"_s) + u": cannot open: "_s));
}

void TestProfile::snapshotObject()
{
    Profile p = Profile::demo(QUrl(u"http://127.0.0.1:8000"_s));
    p.target.apiKey = u"sk-secret"_s;
    const QJsonObject snapshot = ProfileStore::toJsonObject(kp::redactedProfile(p));
    QCOMPARE(snapshot.value(u"schema"_s).toString(), kp::profileSchemaId());
    QCOMPARE(snapshot.value(u"target"_s).toObject().value(u"api_key"_s).toString(), u"<redacted>"_s);
    QCOMPARE(snapshot.value(u"load"_s).toObject().value(u"rates"_s).toArray().size(), p.load.rates.size());
    const auto back = ProfileStore::fromJsonObject(snapshot, u"run.json"_s);
    QVERIFY2(back.ok(), qPrintable(back.errors.join(u'\n')));
    QVERIFY(*back.profile == kp::redactedProfile(p));
}

void TestProfile::overrides()
{
    Profile p = Profile::demo(QUrl(u"http://127.0.0.1:8000"_s));
    kp::ProfileOverrides o;
    o.set(u"target.base_url"_s, u"http://10.1.1.1:9000"_s);
    o.backend = kp::Backend::OpenAi;
    o.set(u"target.model"_s, u"other"_s);
    o.datasetName = u"custom"_s;
    o.set(u"workload.dataset_path"_s, u"prompts.jsonl"_s);
    o.set(u"workload.num_prompts"_s, qint64(40));
    o.set(u"workload.num_prompts"_s, qint64(50)); // the last value given wins
    o.rates = QList<double> { 3, inf };
    o.set(u"load.burstiness"_s, 2.0);
    o.set(u"load.max_concurrency"_s, qint64(32));
    o.set(u"workload.seed"_s, qint64(7));
    o.set(u"workload.ignore_eos"_s, false);
    o.set(u"target.api_key"_s, u"${KP_KEY}"_s);
    QVERIFY(o.isSet(u"workload.seed"));
    QVERIFY(!o.isSet(u"workload.turns"));
    QStringList errors;
    const QStringList changed = kp::applyOverrides(p, o, &errors);
    QCOMPARE(errors, QStringList());
    QCOMPARE(changed,
        (QStringList { u"target.base_url"_s, u"target.backend"_s, u"target.model"_s, u"target.api_key"_s,
            u"workload.dataset"_s, u"workload.dataset_path"_s, u"workload.num_prompts"_s, u"workload.seed"_s,
            u"workload.ignore_eos"_s, u"load.rates"_s, u"load.burstiness"_s, u"load.max_concurrency"_s }));
    QCOMPARE(p.target.requestUrl(), QUrl(u"http://10.1.1.1:9000/v1/completions"_s));
    QCOMPARE(p.workload.dataset, u"jsonl"_s);
    QCOMPARE(p.load.rates, (QList<double> { 3, inf }));
    QCOMPARE(p.load.maxConcurrency, 32);
    QCOMPARE(p.workload.seed, 7);
    QCOMPARE(p.workload.ignoreEos, false);
    QCOMPARE(p.target.apiKey, u"${KP_KEY}"_s);
    QCOMPARE(p.workload.inputLen, Profile::demo(QUrl(u"http://127.0.0.1:8000"_s)).workload.inputLen); // untouched
    QVERIFY(kp::validateProfile(p).isEmpty());

    kp::ProfileOverrides c;
    c.concurrencies = QList<int> { 1, 8, 64 };
    kp::applyOverrides(p, c);
    QCOMPARE(p.load.mode, kp::LoadMode::Concurrency);
    QCOMPARE(p.load.stepCount(), 3);

    QCOMPARE(kp::applyOverrides(p, kp::ProfileOverrides()), QStringList());

    // A value of the wrong type, or a key no plain field has, changes nothing and is named.
    kp::ProfileOverrides wrong;
    wrong.set(u"workload.turns"_s, 2.5);
    wrong.set(u"workload.no_such_key"_s, 1.0);
    wrong.set(u"load.rates"_s, 1.0);
    QCOMPARE(kp::applyOverrides(p, wrong, &errors), QStringList());
    QCOMPARE(errors,
        (QStringList { u"workload.no_such_key: not a key of a profile's plain values"_s,
            u"load.rates: not a key of a profile's plain values"_s,
            u"workload.turns: expected a whole number, got 2.5"_s }));
}

void TestProfile::conversationKeys()
{
    // Kneepoint's schema, JSON: read, saved atomically, read back the same.
    const QByteArray json = R"({"schema": "kneepoint.profile/1", "target": {"base_url": "http://h:8000", "model": "m"},
 "workload": {"dataset": "sharegpt", "dataset_path": "chats.json", "multi_turn": true, "multi_turn_history": "live",
  "think_time_s": 2.5, "turns": 4, "system_prompt_len": 300, "max_model_len": 8192}})";
    const kp::ProfileLoadResult r = ProfileStore::loadFromData(json, u"p.json"_s);
    QVERIFY2(r.ok(), qPrintable(r.errors.join(u'\n')));
    QCOMPARE(r.warnings, QStringList());
    const kp::Workload& w = r.profile->workload;
    QCOMPARE(w.multiTurn, true);
    QCOMPARE(w.multiTurnHistory, u"live"_s);
    QCOMPARE(w.thinkTimeS, 2.5);
    QCOMPARE(w.turns, 4);
    QCOMPARE(w.systemPromptLen, 300);
    QCOMPARE(w.maxModelLen, std::optional<int>(8192));
    QTemporaryDir dir;
    const QString path = dir.filePath(u"conv.json"_s);
    QVERIFY(ProfileStore::save(*r.profile, path).ok());
    const kp::ProfileLoadResult back = ProfileStore::load(path);
    QVERIFY2(back.ok(), qPrintable(back.errors.join(u'\n')));
    QCOMPARE(back.profile->workload, w);
    // Defaults are not written.
    const QByteArray plain = ProfileStore::toJson(Profile::demo(QUrl(u"http://127.0.0.1:8000"_s)));
    for (const char* key : { "multi_turn", "think_time_s", "\"turns\"", "system_prompt_len", "max_model_len" })
        QVERIFY2(!plain.contains(key), key);

    // Kneepoint's schema, TOML.
    const QByteArray toml = "schema = \"kneepoint.profile/1\"\n[target]\nbase_url = \"http://h:8000\"\n"
                            "[workload]\ndataset = \"mooncake\"\ndataset_path = \"trace.jsonl\"\nmax_model_len = 4096\n"
                            "replay_speed = 2.0\n"_ba;
    const kp::ProfileLoadResult t = ProfileStore::loadFromData(toml, u"p.toml"_s);
    QVERIFY2(t.ok(), qPrintable(t.errors.join(u'\n')));
    QCOMPARE(t.profile->workload.dataset, u"mooncake"_s);
    QCOMPARE(t.profile->workload.maxModelLen, std::optional<int>(4096));
    QCOMPARE(t.profile->workload.replaySpeed, 2.0);
    QCOMPARE(t.profile->workload.multiTurn, false);

    // The flat layout (the reference's option names, plus Kneepoint's).
    const QByteArray flat = R"({"base_url": "http://h:8000", "dataset_name": "random", "multi_turn": true,
 "multi_turn_history": "recorded", "think_time": 0.5, "turns": 3, "system_prompt_len": 64})";
    const kp::ProfileLoadResult f = ProfileStore::loadFromData(flat, u"flat.json"_s);
    QVERIFY2(f.ok(), qPrintable(f.errors.join(u'\n')));
    QCOMPARE(f.layout, kp::ProfileLayout::Flat);
    QCOMPARE(f.warnings, QStringList());
    QCOMPARE(f.profile->workload.multiTurn, true);
    QCOMPARE(f.profile->workload.thinkTimeS, 0.5);
    QCOMPARE(f.profile->workload.turns, 3);
    QCOMPARE(f.profile->workload.systemPromptLen, 64);

    // The command line's options.
    Profile p = Profile::demo(QUrl(u"http://127.0.0.1:8000"_s));
    kp::ProfileOverrides o;
    o.set(u"workload.multi_turn"_s, true);
    o.set(u"workload.multi_turn_history"_s, u"live"_s);
    o.set(u"workload.think_time_s"_s, 0.0);
    o.set(u"workload.turns"_s, qint64(5));
    o.set(u"workload.system_prompt_len"_s, qint64(128));
    o.set(u"workload.max_model_len"_s, qint64(2048));
    o.set(u"workload.replay_speed"_s, 4.0);
    QCOMPARE(kp::applyOverrides(p, o),
        (QStringList { u"workload.replay_speed"_s, u"workload.multi_turn"_s, u"workload.multi_turn_history"_s,
            u"workload.think_time_s"_s, u"workload.turns"_s, u"workload.system_prompt_len"_s,
            u"workload.max_model_len"_s }));
    QCOMPARE(p.workload.turns, 5);
    QCOMPARE(p.workload.maxModelLen, std::optional<int>(2048));
    QCOMPARE(p.workload.replaySpeed, 4.0);
    QVERIFY(kp::validateProfile(p).isEmpty());
}

void TestProfile::conversationKeysRefused()
{
    const QByteArray json = R"({"schema": "kneepoint.profile/1", "target": {"base_url": "http://h:8000"},
 "workload": {"dataset": "mooncake", "dataset_path": "t.jsonl", "multi_turn": true,
  "multi_turn_history": "fresh", "think_time_s": -1, "turns": 0, "system_prompt_len": -2, "max_model_len": 0}})";
    const kp::ProfileLoadResult r = ProfileStore::loadFromData(json, u"c.json"_s);
    QVERIFY(!r.ok());
    QCOMPARE(r.errors,
        (QStringList {
            u"c.json:2:79: workload.multi_turn: cannot be used with the mooncake dataset: its requests are sent on "
            "the log's own schedule, not as conversations"_s,
            u"c.json:3:25: workload.multi_turn_history: expected \"recorded\" or \"live\", got \"fresh\""_s,
            u"c.json:3:50: workload.think_time_s: must be a number >= 0"_s,
            u"c.json:3:63: workload.turns: must be >= 1"_s, u"c.json:3:87: workload.system_prompt_len: must be >= 0"_s,
            u"c.json:3:108: workload.max_model_len: must be >= 1"_s }));

    Profile p = Profile::demo(QUrl(u"http://127.0.0.1:8000"_s));
    p.workload.multiTurn = true;
    p.workload.dataset = u"replay"_s;
    p.workload.datasetPath = u"log.jsonl"_s;
    QCOMPARE(kp::validateProfile(p).value(0).toString(),
        u"workload.multi_turn: cannot be used with the replay dataset: its requests are sent on the log's own "
        "schedule, not as conversations"_s);
    p.workload.dataset = u"shared-prefix"_s;
    p.workload.prefixLen = 8;
    QCOMPARE(kp::validateProfile(p).value(0).toString(),
        u"workload.multi_turn: cannot be used with the shared-prefix dataset: it has no conversations; use random "
        "with workload.turns"_s);
    p.workload.dataset = u"mooncake"_s;
    p.workload.multiTurn = false;
    p.workload.datasetPath.clear();
    QCOMPARE(kp::validateProfile(p).value(0).toString(),
        u"workload.dataset_path: is required when workload.dataset is \"mooncake\""_s);
}

void TestProfile::requestUrl_data()
{
    QTest::addColumn<QString>("baseUrl");
    QTest::addColumn<QString>("endpoint");
    QTest::addColumn<kp::Backend>("backend");
    QTest::addColumn<QString>("url");
    QTest::addRow("chat default") << u"http://h:8000"_s << QString() << kp::Backend::OpenAiChat
                                  << u"http://h:8000/v1/chat/completions"_s;
    QTest::addRow("completions default") << u"http://h:8000/"_s << QString() << kp::Backend::Vllm
                                         << u"http://h:8000/v1/completions"_s;
    QTest::addRow("base ends in /v1") << u"https://gw.example/v1"_s << QString() << kp::Backend::OpenAi
                                      << u"https://gw.example/v1/completions"_s;
    QTest::addRow("prefix kept") << u"https://gw.example/llm/"_s << QString() << kp::Backend::OpenAiChat
                                 << u"https://gw.example/llm/v1/chat/completions"_s;
    QTest::addRow("custom endpoint") << u"http://h"_s << u"/generate"_s << kp::Backend::OpenAi
                                     << u"http://h/generate"_s;
    QTest::addRow("query merged")
        << u"https://az.example/openai?api-version=2024-06-01"_s << u"/deployments/gpt/chat/completions?x=1"_s
        << kp::Backend::OpenAiChat
        << u"https://az.example/openai/deployments/gpt/chat/completions?api-version=2024-06-01&x=1"_s;
}

void TestProfile::requestUrl()
{
    QFETCH(QString, baseUrl);
    QFETCH(QString, endpoint);
    QFETCH(kp::Backend, backend);
    QFETCH(QString, url);
    kp::Target t;
    t.baseUrl = baseUrl;
    t.endpoint = endpoint;
    t.backend = backend;
    QCOMPARE(t.requestUrl().toString(), url);
}

void TestProfile::rates_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<std::optional<double>>("rate");
    QTest::addColumn<QString>("formatted");
    QTest::addRow("integer") << u"10"_s << std::optional<double>(10) << u"10"_s;
    QTest::addRow("fraction") << u" 0.5 "_s << std::optional<double>(0.5) << u"0.5"_s;
    QTest::addRow("inf") << u"inf"_s << std::optional<double>(inf) << u"inf"_s;
    QTest::addRow("Infinity") << u"Infinity"_s << std::optional<double>(inf) << u"inf"_s;
    QTest::addRow("zero") << u"0"_s << std::optional<double>() << QString();
    QTest::addRow("negative") << u"-1"_s << std::optional<double>() << QString();
    QTest::addRow("word") << u"fast"_s << std::optional<double>() << QString();
}

void TestProfile::rates()
{
    QFETCH(QString, text);
    QFETCH(std::optional<double>, rate);
    QFETCH(QString, formatted);
    QCOMPARE(kp::parseRate(text), rate);
    if (rate)
        QCOMPARE(kp::formatRate(*rate), formatted);
}

void TestProfile::goodput_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<std::optional<double>>("ttft");
    QTest::addColumn<std::optional<double>>("tpot");
    QTest::addColumn<std::optional<double>>("e2el");
    QTest::addColumn<QString>("error");
    using O = std::optional<double>;
    QTest::addRow("one") << u"ttft:500"_s << O(500) << O() << O() << QString();
    QTest::addRow("spaces") << u"ttft:500 tpot:50"_s << O(500) << O(50) << O() << QString();
    QTest::addRow("commas") << u"E2EL:2000.5,tpot:40"_s << O() << O(40) << O(2000.5) << QString();
    QTest::addRow("unknown metric") << u"itl:5"_s << O() << O() << O()
                                    << u"\"itl:5\" is not metric:milliseconds with metric ttft, tpot or e2el"_s;
    QTest::addRow("no value") << u"ttft"_s << O() << O() << O()
                              << u"\"ttft\" is not metric:milliseconds with metric ttft, tpot or e2el"_s;
}

void TestProfile::goodput()
{
    QFETCH(QString, spec);
    QFETCH(std::optional<double>, ttft);
    QFETCH(std::optional<double>, tpot);
    QFETCH(std::optional<double>, e2el);
    QFETCH(QString, error);
    kp::Slo slo;
    QCOMPARE(kp::applyGoodput(spec, slo), error);
    if (error.isEmpty()) {
        QCOMPARE(slo.ttftMs, ttft);
        QCOMPARE(slo.tpotMs, tpot);
        QCOMPARE(slo.e2elMs, e2el);
    }
}

void TestProfile::sloPercentilesAndRepeatScope()
{
    // Each limit at its own percentile; a limit without one takes the shared percentile.
    const QByteArray json = R"({"schema": "kneepoint.profile/1", "target": {"base_url": "http://h:8000", "model": "m"},
 "load": {"rates": [10, 20], "plan": {"repeats": 2, "repeat_scope": "all"}},
 "slo": {"ttft_ms": 300, "ttft_percentile": 90, "tpot_ms": 50, "percentile": 99.9}})";
    const kp::ProfileLoadResult r = ProfileStore::loadFromData(json, u"p.json"_s);
    QVERIFY2(r.ok(), qPrintable(r.errors.join(u'\n')));
    QCOMPARE(r.warnings, QStringList());
    const kp::Slo& slo = r.profile->slo;
    QCOMPARE(slo.ttftP(), 90.0);
    QCOMPARE(slo.tpotP(), 99.9);
    QCOMPARE(slo.e2elP(), 99.9);
    QCOMPARE(slo.limitPercentiles(), (std::vector<double> { 90, 99.9 }));
    QCOMPARE(r.profile->load.plan.repeatScope, kp::Plan::RepeatScope::All);
    QTemporaryDir dir;
    const QString path = dir.filePath(u"slo.json"_s);
    QVERIFY(ProfileStore::save(*r.profile, path).ok());
    const kp::ProfileLoadResult back = ProfileStore::load(path);
    QVERIFY2(back.ok(), qPrintable(back.errors.join(u'\n')));
    QCOMPARE(back.profile->slo, slo);
    QCOMPARE(back.profile->load.plan, r.profile->load.plan);

    // An old profile: one percentile for every limit, and repeats of the best load.
    const kp::ProfileLoadResult old = ProfileStore::loadFromData(
        R"({"schema": "kneepoint.profile/1", "target": {"base_url": "http://h:8000", "model": "m"},
 "load": {"rates": [10], "plan": {"repeats": 2}}, "slo": {"ttft_ms": 300, "tpot_ms": 50, "percentile": 95}})",
        u"old.json"_s);
    QVERIFY2(old.ok(), qPrintable(old.errors.join(u'\n')));
    QCOMPARE(old.profile->slo.ttftP(), 95.0);
    QCOMPARE(old.profile->slo.tpotP(), 95.0);
    QCOMPARE(old.profile->load.plan.repeatScope, kp::Plan::RepeatScope::Best);
    // The default is not written, so old files stay as they were.
    QVERIFY(!ProfileStore::toJson(*old.profile).contains("repeat_scope"));
    QVERIFY(!ProfileStore::toJson(*old.profile).contains("ttft_percentile"));

    // Out of range, and an unknown scope, named by their keys.
    Profile bad = *r.profile;
    bad.slo.tpotPercentile = 0;
    QCOMPARE(kp::validateProfile(bad).size(), 1);
    QCOMPARE(kp::validateProfile(bad).constFirst().toString(), u"slo.tpot_percentile: must be in (0, 100]"_s);
    const kp::ProfileLoadResult scope = ProfileStore::loadFromData(
        R"({"schema": "kneepoint.profile/1", "target": {"base_url": "http://h:8000", "model": "m"},
 "load": {"rates": [10], "plan": {"repeat_scope": "some"}}})",
        u"scope.json"_s);
    QVERIFY(!scope.ok());
    QVERIFY2(scope.errors.join(u'\n').contains(u"load.plan.repeat_scope: expected \"best\" or \"all\", got \"some\""_s),
        qPrintable(scope.errors.join(u'\n')));
}

// Every profile shipped or kept as a fixture reads, saves and reads back to the same profile. With
// KNEEPOINT_PROFILE_SNAPSHOT=DIR, what each read said and what it saved are written there, so that
// a change to the reader or the writer can be compared file by file with the output before it.
void TestProfile::shippedProfilesRoundTrip()
{
    QStringList files;
    for (const QString& dir : { QFINDTESTDATA(u"data/profiles"_s), QFINDTESTDATA(u"../resources/profiles"_s) }) {
        QVERIFY(!dir.isEmpty());
        for (const QFileInfo& info : QDir(dir).entryInfoList(QDir::Files, QDir::Name))
            files << info.absoluteFilePath();
    }
    QVERIFY(files.size() >= 10);
    const QString snapshot = qEnvironmentVariable("KNEEPOINT_PROFILE_SNAPSHOT");
    int loaded = 0;
    for (const QString& path : files) {
        const kp::ProfileLoadResult first = ProfileStore::load(path);
        QByteArray out = "layout: " + kp::profileLayoutName(first.layout).toUtf8() + '\n';
        for (const QString& e : first.errors)
            out += "error: " + QString(e).replace(path, QFileInfo(path).fileName()).toUtf8() + '\n';
        for (const QString& w : first.warnings)
            out += "warning: " + QString(w).replace(path, QFileInfo(path).fileName()).toUtf8() + '\n';
        if (first.ok()) {
            ++loaded;
            const QByteArray saved = ProfileStore::toJson(*first.profile);
            out += saved;
            const kp::ProfileLoadResult again = ProfileStore::loadFromData(saved, u"saved.json"_s);
            QVERIFY2(again.ok(), qPrintable(path + u": "_s + again.errors.join(u"; "_s)));
            QVERIFY2(again.profile == first.profile, qPrintable(path));
            QCOMPARE(ProfileStore::toJson(*again.profile), saved);
        }
        if (!snapshot.isEmpty())
            QVERIFY(writeAll(snapshot + u'/' + QFileInfo(path).fileName() + u".txt"_s, out));
    }
    QVERIFY(loaded >= 6);
}

// The table every reader, the writer and the validator iterate: one entry per key, sections together,
// and a default profile within every range.
void TestProfile::schemaIsConsistent()
{
    QStringList keys;
    QStringList closed; // sections already left
    QString current;
    const Profile defaults;
    for (const kp::ProfileField& f : kp::profileFields()) {
        QVERIFY2(!keys.contains(f.path()), f.key);
        keys << f.path();
        const QString top = f.path().section(u'.', 0, 0);
        if (top != current) {
            QVERIFY2(!closed.contains(top), f.key);
            closed << current;
            current = top;
        }
        QCOMPARE(kp::profileField(f.path()), &f);
        QVERIFY2(f.isDefault(defaults), f.key);
        if (const std::optional<double> v = kp::fieldNumber(defaults, f); v && f.appliesTo(defaults))
            QVERIFY2(kp::fieldRangeIssue(f, *v).isEmpty(), f.key);
        if (f.min && f.max)
            QVERIFY2(f.min->value < f.max->value, f.key);
    }
    QVERIFY(kp::profileField(u"workload.think_time_s") != nullptr);
    QCOMPARE(kp::profileField(u"workload.no_such_key"), nullptr);
    QVERIFY(kp::validateProfile(Profile::demo(QUrl(u"http://127.0.0.1:8000"_s))).isEmpty());
}

// Lengths, counts and waits that would exhaust memory or wait for days are refused with the limit
// named (docs/PROFILES.md, "Limits"); the limit itself is accepted.
void TestProfile::limitsAreNamed_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<kp::FieldValue>("value");
    QTest::addColumn<QString>("issue");
    const auto row = [](const char* name, const char* key, kp::FieldValue value, const QString& issue) {
        QTest::addRow("%s", name) << QString::fromLatin1(key) << value << issue;
    };
    row("think time", "workload.think_time_s", 1e9, u"1e9 is above the limit 3600 s"_s);
    row("think time at the limit", "workload.think_time_s", 3600.0, QString());
    row("think time below 0", "workload.think_time_s", -1.0, u"must be a number >= 0"_s);
    row("think time inf", "workload.think_time_s", inf, u"inf is above the limit 3600 s"_s);
    row("prompt length spread", "workload.input_len_std", 1e9, u"1e9 is above the limit 1e7 tokens"_s);
    row("output length spread", "workload.output_len_std", 1e300, u"1e300 is above the limit 1e7 tokens"_s);
    row("embedding batch", "workload.embedding_batch", qint64(100000000),
        u"100000000 is above the limit 10000 prompts"_s);
    row("embedding batch at the limit", "workload.embedding_batch", qint64(10000), QString());
    row("system prompt", "workload.system_prompt_len", qint64(100000000),
        u"100000000 is above the limit 10000000 tokens"_s);
    row("turns", "workload.turns", qint64(3000000), u"3000000 is above the limit 10000 turns"_s);
    row("turns at 0", "workload.turns", qint64(0), u"must be >= 1"_s);
    row("prompt length", "workload.input_len", qint64(10000001), u"10000001 is above the limit 10000000 tokens"_s);
    row("output length", "workload.output_len", qint64(2000000000), u"2000000000 is above the limit 10000000 tokens"_s);
    row("prefix", "workload.prefix_len", qint64(20000000), u"20000000 is above the limit 10000000 tokens"_s);
    row("images", "workload.image_count", qint64(65), u"65 is above the limit 64 images"_s);
    row("images below 0", "workload.image_count", qint64(-1), u"must be >= 0"_s);
    row("replay speed", "workload.replay_speed", 1e6, u"1e6 is above the limit 1000"_s);
    row("replay speed 0", "workload.replay_speed", 0.0, u"must be a number > 0"_s);
    row("warm-up", "load.warmup_requests", qint64(2000000), u"2000000 is above the limit 1000000 requests"_s);
    row("cooldown", "load.cooldown_s", 1e6, u"1e6 is above the limit 86400 s"_s);
    row("step duration", "load.step_duration_s", 1e7, u"1e7 is above the limit 864000 s"_s);
    row("total timeout", "target.timeouts.total_s", 1e9, u"1e9 is above the limit 864000 s"_s);
    row("connect timeout 0", "target.timeouts.connect_s", 0.0, u"must be > 0"_s);
    row("repeats", "load.plan.repeats", qint64(5000), u"5000 is above the limit 1000 repeats"_s);
    row("fraction", "slo.max_error_rate", 1.5, u"must be in [0, 1]"_s);
    row("percentile", "slo.percentile", 0.0, u"must be in (0, 100]"_s);
    row("top_k", "workload.sampling.top_k", qint64(-2), u"must be >= -1 (-1 or 0: disabled)"_s);
}

void TestProfile::limitsAreNamed()
{
    QFETCH(QString, key);
    QFETCH(kp::FieldValue, value);
    QFETCH(QString, issue);
    const kp::ProfileField* field = kp::profileField(key);
    QVERIFY(field);
    Profile p = Profile::demo(QUrl(u"http://127.0.0.1:8000"_s));
    QCOMPARE(kp::setFieldValue(p, *field, value), QString());
    QStringList issues; // of this key: a count of images also asks for their size, which is not the point here
    for (const kp::ProfileIssue& i : kp::validateProfile(p)) {
        if (i.path == key)
            issues << i.toString();
    }
    QCOMPARE(issues, issue.isEmpty() ? QStringList() : QStringList { key + u": "_s + issue });
}

// A file names the line, the column and the key as the file spells it.
void TestProfile::limitsInFiles()
{
    const kp::ProfileLoadResult kneepoint = ProfileStore::loadFromData(
        R"({"schema": "kneepoint.profile/1", "target": {"base_url": "http://127.0.0.1:8000"},
"workload": {"multi_turn": true, "think_time_s": 1e9, "turns": 3000000}})",
        u"k.json"_s);
    QCOMPARE(kneepoint.errors,
        (QStringList { u"k.json:2:50: workload.think_time_s: 1e9 is above the limit 3600 s"_s,
            u"k.json:2:64: workload.turns: 3000000 is above the limit 10000 turns"_s }));
    const kp::ProfileLoadResult flat = ProfileStore::loadFromData(
        R"({"base_url": "http://127.0.0.1:8000", "think_time": 1e9, "embedding_batch": 100000000})", u"f.json"_s);
    QCOMPARE(flat.errors,
        (QStringList { u"f.json:1:53: think_time: 1e9 is above the limit 3600 s"_s,
            u"f.json:1:77: embedding_batch: 100000000 is above the limit 10000 prompts"_s }));
    // Setting a value of the wrong type through the schema is refused, naming the key.
    Profile p;
    QCOMPARE(kp::setFieldValue(p, *kp::profileField(u"workload.turns"), 2.5),
        u"workload.turns: expected a whole number, got 2.5"_s);
    QCOMPARE(kp::setFieldValue(p, *kp::profileField(u"workload.turns"), u"x"_s),
        u"workload.turns: expected a whole number"_s);
    QCOMPARE(kp::setFieldValue(p, *kp::profileField(u"workload.max_model_len"), qint64(4096)), QString());
    QCOMPARE(p.workload.maxModelLen, std::optional<int>(4096));
    QCOMPARE(kp::setFieldValue(p, *kp::profileField(u"workload.max_model_len"), std::nullopt), QString());
    QCOMPARE(p.workload.maxModelLen, std::nullopt);
}

QTEST_GUILESS_MAIN(TestProfile)
void TestProfile::modelMix_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QList<kp::ModelShare>>("shares");
    QTest::addColumn<QString>("error");
    using Shares = QList<kp::ModelShare>;
    QTest::addRow("two") << u"a:0.7,b:0.3"_s << Shares { { u"a"_s, 0.7 }, { u"b"_s, 0.3 } } << QString();
    QTest::addRow("spaces, colon in a name")
        << u" org/m:v1 : 2 , b:0 "_s << Shares { { u"org/m:v1"_s, 2 }, { u"b"_s, 0 } } << QString();
    QTest::addRow("empty") << u""_s << Shares {} << QString();
    QTest::addRow("no weight") << u"a:0.7,b"_s << Shares {}
                               << u"entry \"b\": expected NAME:WEIGHT, e.g. \"a:0.7,b:0.3\""_s;
    QTest::addRow("no name") << u":1"_s << Shares {} << u"entry \":1\": expected NAME:WEIGHT, e.g. \"a:0.7,b:0.3\""_s;
    QTest::addRow("empty entry") << u"a:1,,b:1"_s << Shares {}
                                 << u"entry \"\": expected NAME:WEIGHT, e.g. \"a:0.7,b:0.3\""_s;
    QTest::addRow("not a number") << u"a:0.7,b:lots"_s << Shares {}
                                  << u"entry \"b:lots\": the weight \"lots\" is not a number"_s;
    QTest::addRow("infinite") << u"a:inf"_s << Shares {} << u"entry \"a:inf\": the weight \"inf\" is not a number"_s;
    QTest::addRow("negative") << u"a:1,b:-0.5"_s << Shares {} << u"entry \"b:-0.5\": the weight must be >= 0"_s;
    QTest::addRow("twice") << u"a:1,a:2"_s << Shares {} << u"entry \"a:2\": the model \"a\" is listed twice"_s;
    QTest::addRow("sum beyond a double")
        << u"a:1e308,b:1e308"_s << Shares {}
        << u"the weights of \"a:1e308,b:1e308\" sum beyond what a number holds; weights are relative (a:1,b:1 "
           "is an even mix)"_s;
    QTest::addRow("zero sum") << u"a:0,b:0"_s << Shares {}
                              << u"the weights of \"a:0,b:0\" sum to 0; they must sum to a positive number"_s;
}

void TestProfile::modelMix()
{
    QFETCH(QString, text);
    QFETCH(QList<kp::ModelShare>, shares);
    QFETCH(QString, error);
    const kp::ModelMix mix = kp::parseModelMix(text);
    QCOMPARE(mix.error, error);
    QCOMPARE(mix.shares, shares);
}

void TestProfile::modelMixInProfile()
{
    // The draw: seeded, by position, never the share of weight 0; about the weights over many positions.
    const QList<kp::ModelShare> shares = kp::parseModelMix(u"a:0.7,b:0.3,c:0"_s).shares;
    int a = 0;
    for (qint64 i = 0; i < 10000; ++i) {
        const qsizetype pick = kp::pickModel(shares, 5, i);
        QVERIFY(pick == 0 || pick == 1);
        a += pick == 0;
        QCOMPARE(kp::pickModel(shares, 5, i), pick);
    }
    QVERIFY2(a > 6800 && a < 7200, qPrintable(QString::number(a))); // 4.5 standard deviations either side
    // The first draws for seed 11, checked by hand (splitmix64 of seed and position).
    QString first;
    for (qint64 i = 0; i < 20; ++i)
        first += QString::number(kp::pickModel(shares, 11, i));
    QCOMPARE(first, u"00000001010011100111"_s);

    kp::Profile p = kp::Profile::demo(QUrl(u"http://127.0.0.1:1"_s));
    p.workload.modelMix = u"a:0.5,b:x"_s;
    const QList<kp::ProfileIssue> issues = kp::validateProfile(p);
    QCOMPARE(issues.size(), 1);
    QCOMPARE(issues.front().toString(), u"workload.model_mix: entry \"b:x\": the weight \"x\" is not a number"_s);
    p.workload.modelMix = u"a:0.5,b:0.5"_s;
    QVERIFY(kp::validateProfile(p).isEmpty());
}

#include "tst_profile.moc"
