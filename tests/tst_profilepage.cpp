#include "client/imageparts.h"
#include "kit/profilelibrary.h"
#include "profile/planestimate.h"
#include "profile/profileform.h"
#include "profile/profilepage.h"

#include "metrics/boundedread.h"
#include "profile/profile.h"
#include "profile/profileschema.h"
#include "profile/profilestore.h"
#include "profile/targetstore.h"
#include "shell/runguard.h"
#include "sim/simhost.h"

#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QFocusEvent>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStringListModel>
#include <QTabWidget>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>

#include <cmath>
#include <functional>
#include <limits>

using namespace Qt::Literals::StringLiterals;
using kp::Profile;
using kp::ProfileStore;
using kp::ui::ProfilePage;

using ProfileMutator = std::function<void(Profile&)>;
Q_DECLARE_METATYPE(ProfileMutator)

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

template <typename T> T* child(const QWidget& page, const QString& name)
{
    T* w = page.findChild<T*>(name);
    if (!w)
        qWarning("no child %s named %s", T::staticMetaObject.className(), qPrintable(name));
    return w;
}

QString jsonText(const ProfilePage& page)
{
    return child<QPlainTextEdit>(page, u"json.text"_s)->toPlainText();
}

// Answers the next message box with the given button once it is up (its exec() runs an event loop).
void answerNextMessageBox(QMessageBox::StandardButton button, QString* seenText = nullptr)
{
    auto* timer = new QTimer;
    timer->setInterval(10);
    QObject::connect(timer, &QTimer::timeout, [timer, button, seenText] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box)
            return;
        if (seenText)
            *seenText = box->text() + u'\n' + box->informativeText();
        timer->stop();
        timer->deleteLater();
        box->button(button)->click();
    });
    timer->start();
}

// A fixed profile (the demo may change): seven rates for 6 s each, random prompts of 200 → 230 tokens.
Profile knownProfile()
{
    Profile p;
    p.name = u"Known sweep"_s;
    p.target.baseUrl = u"sim://default?time_scale=1"_s;
    p.workload.numPrompts = 200;
    p.workload.inputLen = 200;
    p.workload.outputLen = 230;
    p.workload.rangeRatio = 0.5;
    p.workload.ignoreEos = true;
    p.load.rates = { 5, 10, 20, 30, 40, 50, 70 };
    p.load.stepDurationS = 6;
    p.load.warmupRequests = 4;
    p.load.cooldownS = 1;
    p.slo.ttftMs = 1000;
    p.slo.tpotMs = 100;
    p.slo.maxErrorRate = 0.01;
    return p;
}

// Puts the known profile into the (empty) library, so that a new page opens it.
QString putKnownInLibrary()
{
    const QString dir = kp::ui::ProfileLibrary::defaultDirectory();
    QDir().mkpath(dir);
    const QString path = dir + u"/known.json"_s;
    return ProfileStore::save(knownProfile(), path).ok() ? path : QString();
}

// Grabs the page once its layouts have taken in the last changes (they are redone from posted events).
bool saveScreenshot(QWidget& page, const QString& name)
{
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    const QString dir = QCoreApplication::applicationDirPath() + u"/screenshots"_s;
    QDir().mkpath(dir);
    return page.grab().toImage().save(dir + u'/' + name);
}

// Grabs a band of the form around each input, one under the other: rows far apart in one picture.
bool saveRowsScreenshot(QWidget& page, const QList<QWidget*>& inputs, const QString& name)
{
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    auto* scroll = page.findChild<kp::ui::ProfileForm*>()->findChild<QScrollArea*>();
    QWidget* content = scroll ? scroll->widget() : nullptr;
    if (!content)
        return false;
    QList<QImage> bands;
    int height = 0;
    for (QWidget* input : inputs) {
        const int y = input->mapTo(content, QPoint(0, input->height() / 2)).y();
        const QRect band = QRect(0, y - 60, content->width(), 120).intersected(content->rect());
        bands << content->grab(band).toImage();
        height += bands.constLast().height();
    }
    const qreal dpr = bands.constFirst().devicePixelRatio();
    constexpr int gap = 3; // a grey rule between bands
    QImage out(bands.constFirst().width(), height + qRound(gap * dpr) * (bands.size() - 1),
        QImage::Format_ARGB32); // device pixels, as grabbed
    out.setDevicePixelRatio(dpr);
    out.fill(Qt::gray);
    QPainter painter(&out);
    qreal at = 0;
    for (const QImage& b : std::as_const(bands)) {
        painter.drawImage(QPointF(0, at), b);
        at += b.deviceIndependentSize().height() + gap;
    }
    painter.end();
    const QString dir = QCoreApplication::applicationDirPath() + u"/screenshots"_s;
    QDir().mkpath(dir);
    return out.save(dir + u'/' + name);
}

} // namespace

class TestProfilePage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();

    void demoOnEmptyLibrary();
    void libraryListsExistingProfiles();
    void loadProfileFile();
    void metricsUrlsField();
    void serverSweepSection();
    void loadTomlSavesNextToIt();
    void brokenFileKeepsItsText();
    void hugeFileIsRefused();
    void formEditUpdatesJson();
    void jsonEditUpdatesForm();
    void datasetOptionsInTheForm();
    void conversationOptionsInTheForm();
    void planRangeFollowsTheSchema();
    void lengthShapesMixAndImagesInTheForm();
    void promptReuseOptionsInTheForm();
    void syntheticImagesDecode();
    void jsonErrorsKeepTheText();
    void invalidValueAtField_data();
    void invalidValueAtField();
    void apiKeyMaskedAndRevealed();
    void savedTargetNamesCompleted();
    void saveRoundTrips();
    void literalKeyWarnsOnSave();
    void saveFailureIsShown();
    void unsavedChanges();
    void switchingAsksFirst();
    void libraryNewRenameDuplicateDelete();
    void planEstimate_data();
    void planEstimate();
    void planPreviewText();
    void runOnlyWhenValid();
    void testConnectionAgainstSimulator();
    void testConnectionBuiltinSimulator();
    void testConnectionUnreachable();
    void screenshots();
    void changedOnDiskIsNoticed();
    void sweepStartAsksFirst();

private:
    QTemporaryDir m_root;
    int m_testIndex = 0;
    QString m_home;
};

void TestProfilePage::initTestCase()
{
    QVERIFY(m_root.isValid());
    QCoreApplication::setOrganizationName(u"KneepointTest"_s);
    QCoreApplication::setApplicationName(u"tst_profilepage"_s);
    QStandardPaths::setTestModeEnabled(true);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    qunsetenv("OPENAI_API_KEY");
    for (const char* v : { "http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY" })
        qunsetenv(v);
}

void TestProfilePage::init()
{
    // A fresh home (and so a fresh config location) per test: each starts with an empty library.
    m_home = m_root.filePath(u"home-%1"_s.arg(++m_testIndex));
    QVERIFY(QDir().mkpath(m_home));
    qputenv("HOME", QFile::encodeName(m_home));
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_home + u"/.config"_s));
    QVERIFY(kp::ui::ProfileLibrary::defaultDirectory().startsWith(m_home));
}

void TestProfilePage::demoOnEmptyLibrary()
{
    const QString dir = kp::ui::ProfileLibrary::defaultDirectory();
    QVERIFY(!QFileInfo::exists(dir));
    ProfilePage page;
    QVERIFY(QFileInfo(dir).isDir());
    const QStringList files = QDir(dir).entryList(QDir::Files);
    QCOMPARE(files, QStringList { u"demo-built-in-simulator.json"_s });
    QCOMPARE(page.currentName(), u"Demo — built-in simulator"_s);
    QCOMPARE(page.currentPath(), QDir(dir).absoluteFilePath(files.constFirst()));
    QVERIFY(!page.isModified());
    const std::optional<Profile> p = page.currentProfile();
    QVERIFY(p);
    QCOMPARE(*p, Profile::demo(QUrl(u"sim://default?time_scale=1"_s), QString()));
    QVERIFY(p->target.isBuiltinSimulator());
    auto* list = child<QListWidget>(page, u"library.list"_s);
    QCOMPARE(list->count(), 1);
    QCOMPARE(list->currentItem()->text(), u"Demo — built-in simulator"_s);

    // selectDemo() finds it again rather than making another.
    page.selectDemo();
    QCOMPARE(QDir(dir).entryList(QDir::Files).size(), 1);
}

void TestProfilePage::libraryListsExistingProfiles()
{
    const QString dir = kp::ui::ProfileLibrary::defaultDirectory();
    QVERIFY(QDir().mkpath(dir));
    Profile a;
    a.name = u"zeta"_s;
    a.target.baseUrl = u"http://127.0.0.1:8000"_s;
    Profile b = a;
    b.name = u"Alpha"_s;
    QVERIFY(ProfileStore::save(a, dir + u"/z.json"_s).ok());
    QVERIFY(ProfileStore::save(b, dir + u"/a.json"_s).ok());
    QVERIFY(writeAll(dir + u"/broken.json"_s, "{ \"target\": "));

    ProfilePage page;
    auto* list = child<QListWidget>(page, u"library.list"_s);
    QCOMPARE(list->count(), 3);
    QCOMPARE(list->item(0)->text(), u"Alpha"_s);
    QCOMPARE(list->item(1)->text(), u"broken"_s);
    QCOMPARE(list->item(2)->text(), u"zeta"_s);
    QVERIFY(list->item(1)->toolTip().contains(u"broken.json:1:"_s));
    // No demo is added to a library that has profiles.
    QVERIFY(!QFileInfo::exists(dir + u"/demo-built-in-simulator.json"_s));
}

void TestProfilePage::loadProfileFile()
{
    ProfilePage page;
    const QString file = QFINDTESTDATA("data/profiles/kneepoint-full.json");
    QVERIFY(!file.isEmpty());
    QSignalSpy changed(&page, &ProfilePage::currentChanged);
    page.openFile(file);
    QCOMPARE(page.currentPath(), QFileInfo(file).absoluteFilePath());
    QCOMPARE(page.currentName(), u"llama-8b on node-3"_s);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed.constFirst().constFirst().toString(), u"llama-8b on node-3"_s);
    QVERIFY(!page.isModified());

    QCOMPARE(child<QLineEdit>(page, u"target.base_url"_s)->text(), u"https://node-3.example.internal:8000"_s);
    QCOMPARE(child<QLineEdit>(page, u"load.rates"_s)->text(), u"1, 2.5, 5, 10, 20, inf"_s);
    QCOMPARE(child<QSpinBox>(page, u"workload.num_prompts"_s)->value(), 500);
    QCOMPARE(child<QDoubleSpinBox>(page, u"slo.percentile"_s)->value(), 99.9);
    QCOMPARE(child<QDoubleSpinBox>(page, u"target.timeouts.connect_s"_s)->text(), u"5 s"_s);
    QCOMPARE(child<QPlainTextEdit>(page, u"target.headers"_s)->toPlainText(),
        u"X-Team: inference\napi-key: sk-header-secret"_s);
    // The form shows what the file holds, so the profile is the file's.
    const kp::ProfileLoadResult loaded = ProfileStore::load(file);
    QVERIFY(loaded.ok());
    QCOMPARE(page.currentProfile(), loaded.profile);
    QVERIFY(kp::ui::ProfileLibrary::recentFiles().contains(QFileInfo(file).absoluteFilePath()));
}

// target.metrics_urls: one URL per line in the form, comma-separated text read as well, written back as the
// list the file holds.
void TestProfilePage::metricsUrlsField()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"replicas.json"_s);
    QVERIFY(QFile::copy(QFINDTESTDATA("data/profiles/metrics-urls.json"), path));
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
    ProfilePage page;
    page.openFile(path);
    auto* urls = child<QPlainTextEdit>(page, u"target.metrics_urls"_s);
    QCOMPARE(urls->toPlainText(),
        u"http://replica-1:8000/metrics\nhttp://replica-2:8000/metrics\nhttp://replica-1:9400/metrics"_s);
    QVERIFY(!page.isModified());

    urls->setPlainText(u" http://a:8000/metrics, http://b:8000/metrics\n\nhttp://gpu:9400/metrics \n"_s);
    QVERIFY(page.isModified());
    const QStringList expected
        = { u"http://a:8000/metrics"_s, u"http://b:8000/metrics"_s, u"http://gpu:9400/metrics"_s };
    QCOMPARE(page.currentProfile()->target.metricsUrls, expected);
    QVERIFY(page.save());
    const kp::ProfileLoadResult back = ProfileStore::load(path);
    QVERIFY(back.ok());
    QCOMPARE(back.profile->target.metricsUrls, expected);

    // Emptied: the list goes, and metrics_url decides again.
    urls->setPlainText(QString());
    QVERIFY(page.save());
    QVERIFY(ProfileStore::load(path).profile->target.metricsUrls.isEmpty());
    QVERIFY(!readAll(path).contains("metrics_urls"));
}

// The Server sweep section: the command, the parameters one per line, the mode; saved as server_sweep.
void TestProfilePage::serverSweepSection()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"served.json"_s);
    QVERIFY(ProfileStore::save(knownProfile(), path).ok());
    ProfilePage page;
    page.resize(1280, 800);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    page.openFile(path);
    auto* form = page.findChild<kp::ui::ProfileForm*>();
    auto* command = child<QLineEdit>(page, u"server_sweep.command"_s);
    auto* parameters = child<QPlainTextEdit>(page, u"server_sweep.parameters"_s);
    auto* mode = child<QComboBox>(page, u"server_sweep.mode"_s);
    QCOMPARE(mode->currentData().toString(), u"process"_s);
    QVERIFY(parameters->toPlainText().isEmpty());

    command->setText(u"kneepoint-sim --port {port} --max-num-seqs {max_num_seqs}"_s);
    parameters->setPlainText(u"max_num_seqs = 8, 32\n\n"_s);
    QCOMPARE(page.currentProfile()->serverSweep.command, command->text());
    QCOMPARE(page.currentProfile()->serverSweep.parameters.value(u"max_num_seqs").toArray(),
        (QJsonArray { u"8"_s, u"32"_s }));
    // A line that is no parameter is named where it is typed; the profile keeps the last readable one.
    parameters->setPlainText(u"max num seqs = 8"_s);
    QCOMPARE(form->inputErrors().size(), 1);
    QCOMPARE(form->inputErrors().constFirst().path, u"server_sweep.parameters"_s);
    QVERIFY2(form->inputErrors().constFirst().message.contains(u"line 1: expected NAME = V1, V2"_s),
        qPrintable(form->inputErrors().constFirst().message));
    QCOMPARE(page.currentProfile()->serverSweep.parameters.value(u"max_num_seqs").toArray().size(), 2);
    parameters->setPlainText(u"max_num_seqs = 8, 32\ntp = 1, 2"_s);
    QVERIFY(form->inputErrors().isEmpty());
    mode->setCurrentIndex(mode->findData(u"commands"_s));
    child<QLineEdit>(page, u"server_sweep.stop_command"_s)->setText(u"docker stop vllm"_s);
    QCOMPARE(page.currentProfile()->serverSweep.mode, u"commands"_s);
    form->scrollToSection(u"server_sweep"_s);
    QVERIFY(saveScreenshot(page, u"profilepage-server-sweep.png"_s));

    QVERIFY(page.save());
    const kp::ProfileLoadResult back = ProfileStore::load(path);
    QVERIFY(back.ok());
    QCOMPARE(back.profile->serverSweep.mode, u"commands"_s);
    QCOMPARE(back.profile->serverSweep.stopCommand, u"docker stop vllm"_s);
    QCOMPARE(back.profile->serverSweep.parameters.value(u"tp").toArray(), (QJsonArray { u"1"_s, u"2"_s }));
    // Back to the process mode: the default, not written.
    mode->setCurrentIndex(mode->findData(u"process"_s));
    QVERIFY(page.currentProfile()->serverSweep.mode.isEmpty());
}

void TestProfilePage::loadTomlSavesNextToIt()
{
    QTemporaryDir dir;
    const QString toml = dir.filePath(u"service.toml"_s);
    QVERIFY(QFile::copy(QFINDTESTDATA("data/profiles/service.toml"), toml));
    const QByteArray original = readAll(toml);
    ProfilePage page;
    page.openFile(toml);
    QVERIFY(page.currentProfile());
    const QString message = child<QLabel>(page, u"page.message"_s)->text();
    QVERIFY2(message.contains(u"service.kneepoint.json"_s), qPrintable(message));
    QVERIFY2(message.contains(u"TOML"_s), qPrintable(message));
    QVERIFY(page.save());
    QCOMPARE(readAll(toml), original);
    const QString json = dir.filePath(u"service.kneepoint.json"_s);
    QCOMPARE(page.currentPath(), json);
    const kp::ProfileLoadResult back = ProfileStore::load(json);
    QVERIFY(back.ok());
    QCOMPARE(back.layout, kp::ProfileLayout::Kneepoint);
    QCOMPARE(back.profile, page.currentProfile());
}

void TestProfilePage::brokenFileKeepsItsText()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"bad-rate.json"_s);
    QVERIFY(QFile::copy(QFINDTESTDATA("data/profiles/bad-rate.json"), path));
    ProfilePage page;
    page.openFile(path);
    QCOMPARE(page.currentPath(), path);
    QVERIFY(!page.currentProfile());
    QVERIFY(!page.isModified());
    QCOMPARE(jsonText(page), QString::fromUtf8(readAll(path)));
    auto* diagnostics = child<QListWidget>(page, u"json.diagnostics"_s);
    QVERIFY(diagnostics->count() >= 1);
    QVERIFY2(diagnostics->item(0)->text().startsWith(u"bad-rate.json:"_s), qPrintable(diagnostics->item(0)->text()));
    QVERIFY(!child<QWidget>(page, u"editor.form"_s)->isEnabled());
    QVERIFY(!child<QPushButton>(page, u"page.run"_s)->isEnabled());
    QCOMPARE(child<QTabWidget>(page, u"editor.tabs"_s)->currentWidget(), child<QWidget>(page, u"editor.json"_s));
}

void TestProfilePage::formEditUpdatesJson()
{
    QVERIFY(!putKnownInLibrary().isEmpty());
    ProfilePage page;
    QVERIFY(jsonText(page).contains(u"\"num_prompts\": 200,"_s));
    child<QSpinBox>(page, u"workload.num_prompts"_s)->setValue(77);
    QVERIFY(jsonText(page).contains(u"\"num_prompts\": 77,"_s));
    child<QLineEdit>(page, u"load.rates"_s)->setText(u"2, 4, inf"_s);
    QVERIFY2(jsonText(page).contains(u"\"rates\": [2, 4, \"inf\"]"_s), qPrintable(jsonText(page)));
    child<QLineEdit>(page, u"target.model"_s)->setText(u"qwen"_s);
    QCOMPARE(jsonText(page), QString::fromUtf8(ProfileStore::toJson(*page.currentProfile())));
    QCOMPARE(page.currentProfile()->target.model, u"qwen"_s);
}

// Multi-turn sessions and traces: their fields follow the dataset and the multi-turn switch.
void TestProfilePage::conversationOptionsInTheForm()
{
    QVERIFY(!putKnownInLibrary().isEmpty());
    ProfilePage page;
    auto* dataset = child<QComboBox>(page, u"workload.dataset"_s);
    auto* multiTurn = child<QCheckBox>(page, u"workload.multi_turn"_s);
    auto* think = child<QDoubleSpinBox>(page, u"workload.think_time_s"_s);
    auto* turns = child<QSpinBox>(page, u"workload.turns"_s);
    auto* system = child<QSpinBox>(page, u"workload.system_prompt_len"_s);
    auto* history = child<QComboBox>(page, u"workload.multi_turn_history"_s);
    auto* speed = child<QDoubleSpinBox>(page, u"workload.replay_speed"_s);
    QVERIFY(dataset && multiTurn && think && turns && system && history && speed);
    dataset->setCurrentIndex(dataset->findData(u"random"_s));
    QVERIFY(!think->isEnabled() && !turns->isEnabled() && !history->isEnabled());

    multiTurn->setChecked(true);
    QVERIFY(think->isEnabled() && turns->isEnabled() && system->isEnabled() && history->isEnabled());
    turns->setValue(4);
    system->setValue(200);
    think->setValue(1.5);
    history->setCurrentIndex(history->findData(u"live"_s));
    const QString json = jsonText(page);
    QVERIFY2(json.contains(u"\"multi_turn\": true"_s) && json.contains(u"\"turns\": 4"_s)
            && json.contains(u"\"system_prompt_len\": 200"_s) && json.contains(u"\"think_time_s\": 1.5"_s)
            && json.contains(u"\"multi_turn_history\": \"live\""_s),
        qPrintable(json));

    // Synthetic turns belong to the random dataset; a trace has its own schedule and speed.
    dataset->setCurrentIndex(dataset->findData(u"sharegpt"_s));
    QVERIFY(think->isEnabled() && !turns->isEnabled() && !system->isEnabled());
    multiTurn->setChecked(false);
    dataset->setCurrentIndex(dataset->findData(u"mooncake"_s));
    QVERIFY(dataset->currentIndex() >= 0);
    QVERIFY(speed->isEnabled() && !think->isEnabled());
}

// The plan's range fields are enabled where the profile schema says they apply (ProfileField::applies).
void TestProfilePage::planRangeFollowsTheSchema()
{
    QVERIFY(!putKnownInLibrary().isEmpty());
    ProfilePage page;
    auto* kind = child<QComboBox>(page, u"load.plan.kind"_s);
    auto* start = child<QDoubleSpinBox>(page, u"load.plan.start"_s);
    auto* stop = child<QDoubleSpinBox>(page, u"load.plan.stop"_s);
    auto* steps = child<QSpinBox>(page, u"load.plan.steps"_s);
    QVERIFY(kind && start && stop && steps);
    const struct
    {
        kp::PlanKind kind;
        bool range;
        bool stepped;
    } cases[] = { { kp::PlanKind::List, false, false }, { kp::PlanKind::Linear, true, true },
        { kp::PlanKind::Geometric, true, true }, { kp::PlanKind::Auto, false, true } };
    for (const auto& c : cases) {
        kind->setCurrentIndex(kind->findData(kp::planKindName(c.kind)));
        QCOMPARE(kind->currentData().toString(), kp::planKindName(c.kind));
        QCOMPARE(start->isEnabled(), c.range);
        QCOMPARE(stop->isEnabled(), c.range);
        QCOMPARE(steps->isEnabled(), c.stepped);
        Profile p;
        p.load.plan.kind = c.kind;
        QCOMPARE(kp::profileField(u"load.plan.start")->appliesTo(p), c.range);
        QCOMPARE(kp::profileField(u"load.plan.steps")->appliesTo(p), c.stepped);
    }
}

// The workload's length shapes, model mix and images have fields: the engine's message at the field for
// a bad value, and the values round-trip through the JSON both ways.
void TestProfilePage::lengthShapesMixAndImagesInTheForm()
{
    QVERIFY(!putKnownInLibrary().isEmpty());
    ProfilePage page;
    page.resize(1280, 800);
    page.show();
    auto* inDist = child<QComboBox>(page, u"workload.input_len_dist"_s);
    auto* inStd = child<QDoubleSpinBox>(page, u"workload.input_len_std"_s);
    auto* outDist = child<QComboBox>(page, u"workload.output_len_dist"_s);
    auto* outStd = child<QDoubleSpinBox>(page, u"workload.output_len_std"_s);
    auto* mix = child<QLineEdit>(page, u"workload.model_mix"_s);
    auto* count = child<QSpinBox>(page, u"workload.image_count"_s);
    auto* size = child<QLineEdit>(page, u"workload.image_size"_s);
    auto* format = child<QComboBox>(page, u"workload.image_format"_s);
    auto* dir = child<QLineEdit>(page, u"workload.image_dir"_s);
    QVERIFY(inDist && inStd && outDist && outStd && mix && count && size && format && dir);
    QCOMPARE(inDist->currentData().toString(), u"uniform"_s);
    QCOMPARE(count->text(), u"none"_s);

    // A grid row has one message label, named after its last field.
    const auto messageAt = [&](const QString& key) { return child<QLabel>(page, key + u".message"_s)->text(); };
    const auto engineMessage = [](const std::function<void(Profile&)>& change, const QString& path) {
        Profile p = knownProfile();
        change(p);
        for (const kp::ProfileIssue& i : kp::validateProfile(p)) {
            if (i.path == path)
                return i.message;
        }
        return QString();
    };

    inDist->setCurrentIndex(inDist->findData(u"normal"_s));
    QVERIFY(!page.currentProfile());
    const QString needsStd
        = engineMessage([](Profile& p) { p.workload.inputLenDist = u"normal"_s; }, u"workload.input_len_std"_s);
    QVERIFY(!needsStd.isEmpty());
    QVERIFY2(messageAt(u"workload.output_len_std"_s).endsWith(needsStd),
        qPrintable(messageAt(u"workload.output_len_std"_s)));
    inStd->setValue(64);
    outDist->setCurrentIndex(outDist->findData(u"lognormal"_s));
    outStd->setValue(8);

    mix->setText(u"a:0.7,b:x"_s);
    const QString badMix
        = engineMessage([](Profile& p) { p.workload.modelMix = u"a:0.7,b:x"_s; }, u"workload.model_mix"_s);
    QVERIFY(!badMix.isEmpty());
    QVERIFY2(messageAt(u"workload.model_mix"_s).endsWith(badMix), qPrintable(messageAt(u"workload.model_mix"_s)));
    mix->setText(u"a:0.7,b:0.3"_s);

    count->setValue(2);
    size->setText(u"448"_s);
    QVERIFY(!page.currentProfile());
    const QString badSize = engineMessage(
        [](Profile& p) {
            p.workload.imageCount = 2;
            p.workload.imageSize = u"448"_s;
        },
        u"workload.image_size"_s);
    QVERIFY(badSize.contains(u"WIDTHxHEIGHT"_s));
    QVERIFY2(
        messageAt(u"workload.image_format"_s).endsWith(badSize), qPrintable(messageAt(u"workload.image_format"_s)));
    size->setText(u"448x448"_s);
    format->setCurrentIndex(format->findData(u"jpeg"_s));
    dir->setText(u"/srv/images"_s);

    const std::optional<Profile> edited = page.currentProfile();
    QVERIFY2(edited, qPrintable(child<QLabel>(page, u"page.state"_s)->text()));
    QCOMPARE(edited->workload.inputLenDist, u"normal"_s);
    QCOMPARE(edited->workload.inputLenStd, std::optional<double>(64));
    QCOMPARE(edited->workload.outputLenDist, u"lognormal"_s);
    QCOMPARE(edited->workload.outputLenStd, std::optional<double>(8));
    QCOMPARE(edited->workload.modelMix, u"a:0.7,b:0.3"_s);
    QCOMPARE(edited->workload.imageCount, 2);
    QCOMPARE(edited->workload.imageSize, u"448x448"_s);
    QCOMPARE(edited->workload.imageFormat, u"jpeg"_s);
    QCOMPARE(edited->workload.imageDir, u"/srv/images"_s);
    QString json = jsonText(page);
    for (const QString& expected :
        { u"\"input_len_dist\": \"normal\""_s, u"\"input_len_std\": 64"_s, u"\"output_len_dist\": \"lognormal\""_s,
            u"\"output_len_std\": 8"_s, u"\"model_mix\": \"a:0.7,b:0.3\""_s, u"\"image_count\": 2"_s,
            u"\"image_size\": \"448x448\""_s, u"\"image_format\": \"jpeg\""_s, u"\"image_dir\": \"/srv/images\""_s })
        QVERIFY2(json.contains(expected), qPrintable(expected + u" in "_s + json));

    // And back: the JSON's values in the fields.
    json.replace(u"\"image_count\": 2"_s, u"\"image_count\": 3"_s);
    json.replace(u"\"image_format\": \"jpeg\""_s, u"\"image_format\": \"png\""_s);
    json.replace(u"\"output_len_dist\": \"lognormal\""_s, u"\"output_len_dist\": \"fixed\""_s);
    json.replace(u"\"model_mix\": \"a:0.7,b:0.3\""_s, u"\"model_mix\": \"c:1\""_s);
    child<QPlainTextEdit>(page, u"json.text"_s)->setPlainText(json);
    QTRY_COMPARE(count->value(), 3);
    QCOMPARE(format->currentData().toString(), u"png"_s);
    QCOMPARE(outDist->currentData().toString(), u"fixed"_s);
    QCOMPARE(mix->text(), u"c:1"_s);
    page.findChild<kp::ui::ProfileForm*>()->scrollToSection(u"workload"_s);
    child<QWidget>(page, u"workload.image_count"_s)->setFocus();
    QVERIFY(saveScreenshot(page, u"profilepage-images.png"_s));
}

// The prompt pool and the cache reset have fields: set in the form they are in the profile, its JSON and the
// plan's notes, set in the JSON they are in the form, and a pool the form cannot take gets the engine's message.
void TestProfilePage::promptReuseOptionsInTheForm()
{
    QVERIFY(!putKnownInLibrary().isEmpty());
    ProfilePage page;
    page.resize(1280, 800);
    page.show();
    auto* pool = child<QSpinBox>(page, u"workload.prompt_pool"_s);
    auto* reset = child<QCheckBox>(page, u"load.reset_cache_between_steps"_s);
    auto* dataset = child<QComboBox>(page, u"workload.dataset"_s);
    auto* notes = child<QLabel>(page, u"plan.notes"_s);
    QVERIFY(pool && reset && dataset && notes);
    QCOMPARE(pool->value(), 0);
    QCOMPARE(pool->text(), u"fresh prompts"_s);
    QVERIFY(!reset->isChecked());
    QVERIFY(pool->toolTip().contains(u"workload.prompt_pool"_s));
    QVERIFY(reset->toolTip().contains(u"load.reset_cache_between_steps"_s));
    QVERIFY(!jsonText(page).contains(u"prompt_pool"_s));
    QVERIFY(!jsonText(page).contains(u"reset_cache_between_steps"_s));
    QVERIFY(!notes->text().contains(u"re-send"_s));

    pool->setValue(12);
    QCOMPARE(pool->text(), u"12 prompts"_s);
    QVERIFY(page.isModified());
    QVERIFY2(jsonText(page).contains(u"\"prompt_pool\": 12"_s), qPrintable(jsonText(page)));
    QCOMPARE(page.currentProfile()->workload.promptPool, 12);
    QVERIFY2(notes->text().contains(u"The dataset has 12 prompts for 1,378 requests: 99 % of requests will re-send"_s),
        qPrintable(notes->text()));
    reset->setChecked(true);
    QVERIFY2(jsonText(page).contains(u"\"reset_cache_between_steps\": true"_s), qPrintable(jsonText(page)));
    QVERIFY(page.currentProfile()->load.resetCacheBetweenSteps);
    QCOMPARE(jsonText(page), QString::fromUtf8(ProfileStore::toJson(*page.currentProfile())));

    // Back to what is saved: fresh prompts, no reset, nothing to save.
    pool->setValue(0);
    reset->setChecked(false);
    QVERIFY(!jsonText(page).contains(u"prompt_pool"_s));
    QVERIFY(!jsonText(page).contains(u"reset_cache_between_steps"_s));
    QVERIFY(!page.isModified());

    // And from the JSON into the form.
    Profile fromJson = knownProfile();
    fromJson.workload.promptPool = 40;
    fromJson.load.resetCacheBetweenSteps = true;
    const QString text = QString::fromUtf8(ProfileStore::toJson(fromJson));
    QVERIFY(text.contains(u"\"prompt_pool\": 40"_s) && text.contains(u"\"reset_cache_between_steps\": true"_s));
    auto* json = child<QPlainTextEdit>(page, u"json.text"_s);
    json->setPlainText(text);
    QCOMPARE(pool->value(), 40);
    QVERIFY(reset->isChecked());
    QCOMPARE(page.currentProfile()->workload.promptPool, 40);
    QVERIFY(page.currentProfile()->load.resetCacheBetweenSteps);

    // A negative pool, which the spin box cannot take: the engine's message in the JSON tab, and the form
    // keeps the last readable value.
    Profile negative = knownProfile();
    negative.workload.promptPool = -1;
    QString engineMessage;
    for (const kp::ProfileIssue& i : kp::validateProfile(negative)) {
        if (i.path == u"workload.prompt_pool"_s)
            engineMessage = i.message;
    }
    QVERIFY(!engineMessage.isEmpty());
    json->setPlainText(QString(text).replace(u"\"prompt_pool\": 40"_s, u"\"prompt_pool\": -1"_s));
    auto* diagnostics = child<QListWidget>(page, u"json.diagnostics"_s);
    QCOMPARE(diagnostics->count(), 1);
    QVERIFY2(diagnostics->item(0)->text().endsWith(u": workload.prompt_pool: "_s + engineMessage),
        qPrintable(diagnostics->item(0)->text()));
    QVERIFY(!page.currentProfile());
    QCOMPARE(pool->value(), 40);
    json->setPlainText(text);
    QCOMPARE(diagnostics->count(), 0);
    QVERIFY(page.currentProfile());

    // A log is replayed as recorded: no pool.
    QVERIFY(pool->isEnabled());
    dataset->setCurrentIndex(dataset->findData(u"replay"_s));
    QVERIFY(!pool->isEnabled());
    dataset->setCurrentIndex(dataset->findData(u"mooncake"_s));
    QVERIFY(!pool->isEnabled());
    dataset->setCurrentIndex(dataset->findData(u"sharegpt"_s));
    QVERIFY(pool->isEnabled() && reset->isEnabled());

    // A picture of both rows, each with the rows around it.
    dataset->setCurrentIndex(dataset->findData(u"random"_s));
    pool->setValue(0);
    reset->setChecked(true);
    QVERIFY(saveRowsScreenshot(page, { pool, reset }, u"profilepage-prompt-reuse.png"_s));
}

// The synthetic images decode as what they say: Qt's own PNG and JPEG readers see the size and the tiles'
// colours (a JPEG's within its rounding).
void TestProfilePage::syntheticImagesDecode()
{
    const QByteArray pngBytes = kp::syntheticPng(70, 40, 5, 9);
    const QImage png = QImage::fromData(pngBytes, "PNG");
    QCOMPARE(png.size(), QSize(70, 40));
    const QImage jpeg = QImage::fromData(kp::syntheticJpeg(70, 40, 5, 9), "JPEG");
    QCOMPARE(jpeg.size(), QSize(70, 40));
    for (const QPoint at : { QPoint(0, 0), QPoint(20, 5), QPoint(69, 39), QPoint(40, 24) }) {
        const QColor a = png.pixelColor(at);
        const QColor b = jpeg.pixelColor(at);
        QVERIFY2(std::abs(a.red() - b.red()) <= 3 && std::abs(a.green() - b.green()) <= 3
                && std::abs(a.blue() - b.blue()) <= 3,
            qPrintable(u"at %1,%2: PNG %3, JPEG %4"_s.arg(at.x()).arg(at.y()).arg(a.name(), b.name())));
    }
    // Tiles differ, and another key is another image.
    QVERIFY(png.pixelColor(0, 0) != png.pixelColor(20, 0));
    QVERIFY(QImage::fromData(kp::syntheticPng(70, 40, 5, 10), "PNG") != png);
}

// Each dataset's own options have form fields, enabled for that dataset only, written to the JSON.
void TestProfilePage::datasetOptionsInTheForm()
{
    QVERIFY(!putKnownInLibrary().isEmpty());
    ProfilePage page;
    auto* dataset = child<QComboBox>(page, u"workload.dataset"_s);
    auto* minLen = child<QSpinBox>(page, u"workload.min_len"_s);
    auto* prefixes = child<QSpinBox>(page, u"workload.num_prefixes"_s);
    auto* badLines = child<QComboBox>(page, u"workload.bad_lines"_s);
    auto* speed = child<QDoubleSpinBox>(page, u"workload.replay_speed"_s);
    auto* filter = child<QCheckBox>(page, u"workload.filter_lengths"_s);
    QVERIFY(dataset && minLen && prefixes && badLines && speed && filter);
    QVERIFY(!minLen->isEnabled() && !prefixes->isEnabled() && !badLines->isEnabled() && !speed->isEnabled());

    dataset->setCurrentIndex(dataset->findData(u"sharegpt"_s));
    QVERIFY(minLen->isEnabled() && filter->isEnabled() && !prefixes->isEnabled());
    minLen->setValue(10);
    QVERIFY2(jsonText(page).contains(u"\"min_len\": 10"_s), qPrintable(jsonText(page)));
    filter->setChecked(false);
    QVERIFY(!minLen->isEnabled());
    QVERIFY(jsonText(page).contains(u"\"filter_lengths\": false"_s));

    dataset->setCurrentIndex(dataset->findData(u"replay"_s));
    QVERIFY(badLines->isEnabled() && speed->isEnabled() && !minLen->isEnabled());
    badLines->setCurrentIndex(badLines->findData(u"fail"_s));
    speed->setValue(4);
    QVERIFY(jsonText(page).contains(u"\"bad_lines\": \"fail\""_s));
    QVERIFY(jsonText(page).contains(u"\"replay_speed\": 4"_s));

    dataset->setCurrentIndex(dataset->findData(u"shared-prefix"_s));
    QVERIFY(prefixes->isEnabled() && !badLines->isEnabled());
    prefixes->setValue(3);
    QVERIFY(jsonText(page).contains(u"\"num_prefixes\": 3"_s));

    // Length buckets: edges in order, or the engine's message at the field.
    page.resize(1280, 800);
    page.show();
    auto* buckets = child<QLineEdit>(page, u"workload.length_buckets"_s);
    QCOMPARE(buckets->text(), u"0, 256, 512, 1024, 2048"_s);
    buckets->setText(u"0, 128, 4096"_s);
    QVERIFY2(jsonText(page).contains(u"\"length_buckets\": [0, 128, 4096]"_s), qPrintable(jsonText(page)));
    buckets->setText(u"0, 512, 256"_s);
    QVERIFY(!page.currentProfile());
    QVERIFY2(child<QLabel>(page, u"workload.length_buckets.message"_s)->text().contains(u"increasing"_s),
        qPrintable(child<QLabel>(page, u"workload.length_buckets.message"_s)->text()));
    buckets->setText(u"0, 512, many"_s);
    QVERIFY(child<QLabel>(page, u"workload.length_buckets.message"_s)->text().contains(u"\"many\""_s));
    buckets->setText(u"0, 512"_s);
    QVERIFY(page.currentProfile());
    QCOMPARE(page.currentProfile()->workload.lengthBuckets, (QList<int> { 0, 512 }));
    QCOMPARE(page.currentProfile()->workload.numPrefixes, 3);
    dataset->setCurrentIndex(dataset->findData(u"sharegpt"_s));
    page.findChild<kp::ui::ProfileForm*>()->scrollToSection(u"workload"_s);
    QVERIFY(saveScreenshot(page, u"profilepage-workload.png"_s));
}

void TestProfilePage::jsonEditUpdatesForm()
{
    QVERIFY(!putKnownInLibrary().isEmpty());
    ProfilePage page;
    auto* json = child<QPlainTextEdit>(page, u"json.text"_s);
    QString text = json->toPlainText();
    text.replace(u"\"num_prompts\": 200,"_s, u"\"num_prompts\": 321,"_s);
    text.replace(u"\"ttft_ms\": 1000,"_s, u"\"ttft_ms\": 250, // tighter\n"_s);
    json->setPlainText(text);
    QCOMPARE(child<QSpinBox>(page, u"workload.num_prompts"_s)->value(), 321);
    QCOMPARE(child<QDoubleSpinBox>(page, u"slo.ttft_ms"_s)->value(), 250.0);
    QCOMPARE(page.currentProfile()->workload.numPrompts, 321);
    // The user's text (and its comment) stays as written.
    QCOMPARE(json->toPlainText(), text);
    QVERIFY(page.isModified());
}

void TestProfilePage::jsonErrorsKeepTheText()
{
    QVERIFY(!putKnownInLibrary().isEmpty());
    ProfilePage page;
    auto* json = child<QPlainTextEdit>(page, u"json.text"_s);
    QString text = json->toPlainText();
    text.replace(u"\"rates\": [5, 10"_s, u"\"rates\": [5, -10"_s);
    json->setPlainText(text);
    auto* diagnostics = child<QListWidget>(page, u"json.diagnostics"_s);
    QCOMPARE(diagnostics->count(), 1);
    const qsizetype at = text.indexOf(u"-10"_s);
    const qsizetype lineStart = text.lastIndexOf(u'\n', at) + 1;
    QCOMPARE(diagnostics->item(0)->text(),
        u"known.json:%1:%2: load.rates[1]: must be > 0"_s.arg(text.left(at).count(u'\n') + 1).arg(at - lineStart + 1));
    QCOMPARE(json->toPlainText(), text);
    QVERIFY(!page.currentProfile());
    QVERIFY(page.isModified());
    QVERIFY(!child<QWidget>(page, u"editor.form"_s)->isEnabled());
    QVERIFY(!page.save());
    QCOMPARE(json->toPlainText(), text);

    text.append(u"\n}"_s); // a syntax error as well: still kept as typed
    json->setPlainText(text);
    QCOMPARE(json->toPlainText(), text);
    QVERIFY(diagnostics->item(0)->text().startsWith(u"known.json:"_s));

    // Discarding the JSON edits returns to the last readable profile.
    child<QPushButton>(page, u"form.discardJson"_s)->click();
    QVERIFY(page.currentProfile());
    QVERIFY(child<QWidget>(page, u"editor.form"_s)->isEnabled());
    QVERIFY(!page.isModified());
}

void TestProfilePage::invalidValueAtField_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("text");
    QTest::addColumn<ProfileMutator>("same");
    QTest::addColumn<QString>("issuePath");
    QTest::addColumn<QString>("shown");

    QTest::addRow("negative rate") << u"load.rates"_s << u"5, -3, 10"_s << ProfileMutator([](Profile& p) {
        p.load.rates = { 5, -3, 10 };
    }) << u"load.rates[1]"_s << u"rates[1]: must be > 0"_s;
    QTest::addRow("bad base_url")
        << u"target.base_url"_s << u"ftp://models.example"_s
        << ProfileMutator([](Profile& p) { p.target.baseUrl = u"ftp://models.example"_s; }) << u"target.base_url"_s
        << u"must be an http:// or https:// URL with a host (or sim://PRESET for the built-in "
           "simulator), got \"ftp://models.example\""_s;
    QTest::addRow("empty base_url") << u"target.base_url"_s << QString()
                                    << ProfileMutator([](Profile& p) { p.target.baseUrl.clear(); })
                                    << u"target.base_url"_s << u"is required"_s;
    QTest::addRow("endpoint without slash") << u"target.endpoint"_s << u"v1/chat/completions"_s
                                            << ProfileMutator([](Profile& p) { p.target.endpoint = u"v1/chat"_s; })
                                            << u"target.endpoint"_s << u"must start with \"/\""_s;
    QTest::addRow("unterminated key reference")
        << u"target.api_key"_s << u"${KP_KEY"_s << ProfileMutator([](Profile& p) { p.target.apiKey = u"${KP_KEY"_s; })
        << u"target.api_key"_s << u"unterminated ${ reference"_s;
    QTest::addRow("percentile out of range")
        << u"output.metric_percentiles"_s << u"50, 120"_s << ProfileMutator([](Profile& p) {
               p.output.metricPercentiles = { 50, 120 };
           })
        << u"output.metric_percentiles[1]"_s << u"metric_percentiles[1]: must be in (0, 100]"_s;
}

void TestProfilePage::invalidValueAtField()
{
    QFETCH(QString, field);
    QFETCH(QString, text);
    QFETCH(ProfileMutator, same);
    QFETCH(QString, issuePath);
    QFETCH(QString, shown);

    // The message is the engine's, for the same value.
    Profile p = Profile::demo(QUrl(u"sim://default"_s), QString());
    same(p);
    QString engineMessage;
    for (const kp::ProfileIssue& i : kp::validateProfile(p)) {
        if (i.path == issuePath)
            engineMessage = i.message;
    }
    QVERIFY(!engineMessage.isEmpty());
    QVERIFY(shown.endsWith(engineMessage));

    ProfilePage page;
    page.resize(1280, 800);
    page.show();
    auto* input = child<QLineEdit>(page, field);
    auto* message = child<QLabel>(page, field + u".message"_s);
    QVERIFY(input && message);
    QVERIFY(!message->isVisibleTo(&page));
    const QString before = input->text();
    input->setText(text);
    QCOMPARE(message->text(), shown);
    QVERIFY(message->isVisibleTo(&page));
    QVERIFY(input->property("kpInvalid").toBool());
    QVERIFY(!page.currentProfile());
    QVERIFY(!child<QPushButton>(page, u"page.run"_s)->isEnabled());
    QVERIFY(child<QLabel>(page, u"page.state"_s)->text().contains(u"1 problem"_s));

    input->setText(before);
    QVERIFY(message->text().isEmpty());
    QVERIFY(!message->isVisibleTo(&page));
    QVERIFY(!input->property("kpInvalid").toBool());
    QVERIFY(page.currentProfile());
}

// The saved target field completes the names in targets.json, read in the background when the form is
// built and again when the field takes focus.
void TestProfilePage::savedTargetNamesCompleted()
{
    const auto saveTargets = [](const QStringList& names) {
        kp::TargetStore store;
        for (const QString& name : names) {
            kp::NamedTarget t;
            t.name = name;
            t.target.baseUrl = u"http://10.0.0.7:8000"_s;
            store.put(t);
        }
        QString error;
        if (!store.save(&error))
            qWarning("%s", qPrintable(error));
        return store.path();
    };
    QVERIFY(saveTargets({ u"lab-a100"_s, u"lab-h100"_s, u"gateway"_s }).startsWith(m_home));
    ProfilePage page;
    auto* field = child<QLineEdit>(page, u"savedTarget"_s);
    QVERIFY(field && field->completer());
    auto* names = qobject_cast<QStringListModel*>(field->completer()->model());
    QVERIFY(names);
    QTRY_COMPARE(names->stringList(), (QStringList { u"lab-a100"_s, u"lab-h100"_s, u"gateway"_s }));
    field->completer()->setCompletionPrefix(u"lab-"_s);
    QCOMPARE(field->completer()->completionCount(), 2);
    QCOMPARE(field->completer()->currentCompletion(), u"lab-a100"_s);

    saveTargets({ u"lab-a100"_s, u"lab-l40s"_s });
    QFocusEvent focusIn(QEvent::FocusIn, Qt::TabFocusReason);
    QCoreApplication::sendEvent(field, &focusIn);
    QTRY_COMPARE(names->stringList(), (QStringList { u"lab-a100"_s, u"lab-l40s"_s }));
    field->completer()->setCompletionPrefix(u"lab-l"_s);
    QCOMPARE(field->completer()->completionCount(), 1);
    QCOMPARE(field->completer()->currentCompletion(), u"lab-l40s"_s);
}

void TestProfilePage::apiKeyMaskedAndRevealed()
{
    QVERIFY(!putKnownInLibrary().isEmpty());
    const QByteArray secret = "sk-env-secret-4242";
    qputenv("KP_TST_PAGE_KEY", secret);
    ProfilePage page;
    auto* key = child<QLineEdit>(page, u"target.api_key"_s);
    auto* reveal = child<QToolButton>(page, u"target.api_key.reveal"_s);
    auto* source = child<QLabel>(page, u"target.api_key.source"_s);
    QCOMPARE(key->echoMode(), QLineEdit::Password);
    reveal->click();
    QCOMPARE(key->echoMode(), QLineEdit::Normal);
    reveal->click();
    QCOMPARE(key->echoMode(), QLineEdit::Password);

    key->setText(u"${KP_TST_PAGE_KEY}"_s);
    QVERIFY2(source->text().contains(u"environment variable KP_TST_PAGE_KEY"_s), qPrintable(source->text()));
    QVERIFY(!source->text().contains(QString::fromLatin1(secret)));
    QVERIFY(jsonText(page).contains(u"\"api_key\": \"${KP_TST_PAGE_KEY}\""_s));
    QVERIFY(!jsonText(page).contains(QString::fromLatin1(secret)));

    qunsetenv("KP_TST_PAGE_KEY");
    key->setText(u"${KP_TST_PAGE_KEY} "_s);
    key->setText(u"${KP_TST_PAGE_KEY}"_s);
    QVERIFY2(source->text().contains(u"environment variable KP_TST_PAGE_KEY is not set"_s), qPrintable(source->text()));

    // A literal key is masked in the field and in the JSON tab, and kept through JSON edits.
    key->setText(u"sk-literal-9999"_s);
    QVERIFY(source->text().contains(u"the key written in the profile"_s));
    QVERIFY(!source->text().contains(u"sk-literal-9999"_s));
    QVERIFY(!jsonText(page).contains(u"sk-literal-9999"_s));
    QVERIFY(jsonText(page).contains(u"\"api_key\": \"<redacted>\""_s));
    auto* json = child<QPlainTextEdit>(page, u"json.text"_s);
    json->setPlainText(json->toPlainText().replace(u"\"num_prompts\": 200"_s, u"\"num_prompts\": 201"_s));
    QCOMPARE(page.currentProfile()->workload.numPrompts, 201);
    QCOMPARE(page.currentProfile()->target.apiKey, u"sk-literal-9999"_s);
    QVERIFY(page.save());
    QCOMPARE(ProfileStore::load(page.currentPath()).profile->target.apiKey, u"sk-literal-9999"_s);
}

void TestProfilePage::saveRoundTrips()
{
    ProfilePage page;
    const QString path = page.currentPath();
    QSignalSpy modified(&page, &ProfilePage::modifiedChanged);
    child<QSpinBox>(page, u"workload.num_prompts"_s)->setValue(64);
    child<QLineEdit>(page, u"load.rates"_s)->setText(u"1, 2, 4, 8"_s);
    child<QLineEdit>(page, u"server.hardware"_s)->setText(u"1x L40S"_s);
    QVERIFY(page.isModified());
    QVERIFY(page.save());
    QVERIFY(!page.isModified());
    QCOMPARE(modified.constLast().constFirst().toBool(), false);
    QCOMPARE(page.currentPath(), path);
    const Profile saved = *page.currentProfile();
    QCOMPARE(readAll(path), ProfileStore::toJson(saved));
    const kp::ProfileLoadResult back = ProfileStore::load(path);
    QVERIFY(back.ok());
    QCOMPARE(*back.profile, saved);
    // Written through a temporary file and renamed: nothing else is left in the folder but the
    // previous version.
    QCOMPARE(QDir(QFileInfo(path).absolutePath()).entryList(QDir::Files | QDir::Hidden),
        (QStringList { QFileInfo(path).fileName(), QFileInfo(path).fileName() + u".bak"_s }));

    ProfilePage again;
    again.openFile(path);
    QCOMPARE(again.currentProfile(), std::optional<Profile>(saved));
    QCOMPARE(child<QLineEdit>(again, u"server.hardware"_s)->text(), u"1x L40S"_s);
}

// A key typed into the form is written into the file on save: the page warns as it does when such a file
// is opened, naming the file and never the key; a reference to the key elsewhere gets no warning.
void TestProfilePage::literalKeyWarnsOnSave()
{
    const QString path = putKnownInLibrary();
    QVERIFY(!path.isEmpty());
    ProfilePage page;
    QCOMPARE(page.currentPath(), path);
    auto* key = child<QLineEdit>(page, u"target.api_key"_s);
    auto* bar = child<QFrame>(page, u"page.messageBar"_s);
    auto* message = child<QLabel>(page, u"page.message"_s);
    const int info = 0;
    const int warning = 1;

    key->setText(u"${KP_TST_UNSET_KEY}"_s);
    QVERIFY(page.save());
    QCOMPARE(message->text(), u"Saved to %1."_s.arg(path));
    QCOMPARE(bar->property("kpLevel").toInt(), info);

    const QString secret = u"sk-typed-31337"_s;
    key->setText(secret);
    QVERIFY(page.save());
    const QString keyWarning = u"target.api_key: the API key is stored in plain text in known.json; keep it out of "
                               u"the file with \"${VAR}\" (an environment variable), \"keychain:ENTRY\" (the desktop "
                               u"keychain) or \"file:PATH\" (a file of its own)"_s;
    QCOMPARE(message->text(), u"Saved to %1, with a warning: %2"_s.arg(path, keyWarning));
    QCOMPARE(bar->property("kpLevel").toInt(), warning);
    QVERIFY(bar->isVisibleTo(&page));
    QCOMPARE(ProfileStore::load(path).profile->target.apiKey, secret);

    // The same words as the file gets when it is opened again.
    ProfilePage again;
    again.openFile(path);
    const QString read = child<QLabel>(again, u"page.message"_s)->text();
    QVERIFY2(read.startsWith(u"Read with a warning: known.json:"_s) && read.endsWith(u": "_s + keyWarning),
        qPrintable(read));

    // Problems that stop the profile from running come first; the key's warning is not lost behind them.
    child<QLineEdit>(page, u"load.rates"_s)->setText(QString());
    QVERIFY(page.save());
    QVERIFY2(message->text().startsWith(u"Saved to %1, with problems that stop it from running: "_s.arg(path)),
        qPrintable(message->text()));
    QVERIFY2(message->text().endsWith(u'\n' + keyWarning), qPrintable(message->text()));
    QVERIFY(!message->text().contains(secret));

    child<QLineEdit>(page, u"load.rates"_s)->setText(u"5, 10"_s);
    key->setText(u"file:~/.config/kneepoint/key"_s);
    QVERIFY(page.save());
    QCOMPARE(message->text(), u"Saved to %1."_s.arg(path));
    QCOMPARE(bar->property("kpLevel").toInt(), info);
}

// A profile past the settings-file limit (or a device that never ends) is refused with its path, not
// read into memory.
void TestProfilePage::hugeFileIsRefused()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"huge.json"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QVERIFY(file.resize(kp::kMaxSettingsFileBytes + 1)); // sparse: no disk space taken
    file.close();
    ProfilePage page;
    page.openFile(path);
    const QString message = child<QLabel>(page, u"page.message"_s)->text();
    QCOMPARE(message,
        u"Cannot read the profile: %1: larger than 16 MB, the most Kneepoint reads from one file of this kind"_s.arg(
            path));
    QVERIFY(page.currentPath() != path);
}

void TestProfilePage::saveFailureIsShown()
{
    QTemporaryDir dir;
    const QString folder = dir.filePath(u"profiles"_s);
    QVERIFY(QDir().mkpath(folder));
    const QString path = folder + u"/x.json"_s;
    QVERIFY(ProfileStore::save(Profile::demo(QUrl(u"sim://default"_s), QString()), path).ok());
    ProfilePage page;
    page.openFile(path);
    QCOMPARE(page.currentPath(), path);
    child<QSpinBox>(page, u"workload.num_prompts"_s)->setValue(5);
    // The folder is replaced by a file: the save cannot create its temporary file there.
    QVERIFY(QDir(folder).removeRecursively());
    QVERIFY(writeAll(folder, "not a folder"));
    QVERIFY(!page.save());
    const QString message = child<QLabel>(page, u"page.message"_s)->text();
    QVERIFY2(message.contains(u"x.json"_s), qPrintable(message));
    QVERIFY(page.isModified());
    QCOMPARE(readAll(folder), QByteArray("not a folder"));
}

void TestProfilePage::unsavedChanges()
{
    QVERIFY(!putKnownInLibrary().isEmpty());
    ProfilePage page;
    QSignalSpy modified(&page, &ProfilePage::modifiedChanged);
    auto* prompts = child<QSpinBox>(page, u"workload.num_prompts"_s);
    QVERIFY(!page.isModified());
    QVERIFY(page.maybeSave()); // nothing to ask

    prompts->setValue(201);
    QVERIFY(page.isModified());
    QCOMPARE(modified.size(), 1);
    QVERIFY(child<QLabel>(page, u"page.title"_s)->text().endsWith(u" •"_s));
    prompts->setValue(200); // back to what is saved
    QVERIFY(!page.isModified());
    QCOMPARE(modified.size(), 2);
    QCOMPARE(modified.constLast().constFirst().toBool(), false);

    prompts->setValue(333);
    QString asked;
    answerNextMessageBox(QMessageBox::Cancel, &asked);
    QVERIFY(!page.maybeSave());
    QVERIFY(asked.contains(u"Known sweep"_s));
    QVERIFY(page.isModified());
    QCOMPARE(prompts->value(), 333);

    answerNextMessageBox(QMessageBox::Discard);
    QVERIFY(page.maybeSave());
    QVERIFY(!page.isModified());
    QCOMPARE(prompts->value(), 200);

    prompts->setValue(444);
    answerNextMessageBox(QMessageBox::Save);
    QVERIFY(page.maybeSave());
    QVERIFY(!page.isModified());
    QCOMPARE(ProfileStore::load(page.currentPath()).profile->workload.numPrompts, 444);
}

void TestProfilePage::switchingAsksFirst()
{
    const QString dir = kp::ui::ProfileLibrary::defaultDirectory();
    QVERIFY(QDir().mkpath(dir));
    Profile a;
    a.name = u"A"_s;
    a.target.baseUrl = u"http://127.0.0.1:8000"_s;
    Profile b = a;
    b.name = u"B"_s;
    QVERIFY(ProfileStore::save(a, dir + u"/a.json"_s).ok());
    QVERIFY(ProfileStore::save(b, dir + u"/b.json"_s).ok());
    ProfilePage page;
    QCOMPARE(page.currentName(), u"A"_s);
    auto* list = child<QListWidget>(page, u"library.list"_s);
    child<QLineEdit>(page, u"target.model"_s)->setText(u"changed"_s);

    answerNextMessageBox(QMessageBox::Cancel);
    list->setCurrentRow(1);
    QCOMPARE(page.currentName(), u"A"_s);
    QCOMPARE(list->currentRow(), 0);
    QVERIFY(page.isModified());

    QSignalSpy changed(&page, &ProfilePage::currentChanged);
    answerNextMessageBox(QMessageBox::Discard);
    list->setCurrentRow(1);
    QCOMPARE(page.currentName(), u"B"_s);
    QCOMPARE(changed.constLast().constFirst().toString(), u"B"_s);
    QVERIFY(!page.isModified());
    QVERIFY(ProfileStore::load(dir + u"/a.json"_s).profile->target.model.isEmpty());
}

void TestProfilePage::libraryNewRenameDuplicateDelete()
{
    const QString dir = kp::ui::ProfileLibrary::defaultDirectory();
    ProfilePage page;
    page.show();
    auto* list = child<QListWidget>(page, u"library.list"_s);

    // New: a file in the library, named in place.
    // The runs are read for the server section in the background; then the file is made.
    child<QToolButton>(page, u"library.new"_s)->click();
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(dir + u"/new-profile.json"_s), 20000);
    QCOMPARE(page.currentName(), u"New profile"_s);
    QCOMPARE(list->count(), 2);
    auto* editor = list->viewport()->findChild<QLineEdit*>();
    QVERIFY(editor);
    QSignalSpy changed(&page, &ProfilePage::currentChanged);
    editor->setText(u"Staging 8B"_s);
    QTest::keyClick(editor, Qt::Key_Return);
    QTRY_VERIFY(QFileInfo::exists(dir + u"/staging-8b.json"_s));
    QVERIFY(!QFileInfo::exists(dir + u"/new-profile.json"_s));
    QTRY_COMPARE(page.currentName(), u"Staging 8B"_s);
    QCOMPARE(page.currentPath(), dir + u"/staging-8b.json"_s);
    QTRY_VERIFY(!changed.isEmpty());
    QCOMPARE(changed.constLast().constFirst().toString(), u"Staging 8B"_s);
    QCOMPARE(ProfileStore::load(page.currentPath()).profile->name, u"Staging 8B"_s);
    QCOMPARE(list->currentItem()->text(), u"Staging 8B"_s);
    QVERIFY(!page.isModified());

    // Duplicate: the copy is opened.
    child<QToolButton>(page, u"library.duplicate"_s)->click();
    QCOMPARE(page.currentPath(), dir + u"/staging-8b-copy.json"_s);
    QCOMPARE(page.currentName(), u"Staging 8B (copy)"_s);
    QCOMPARE(list->count(), 3);

    // Delete asks first; Cancel keeps the file.
    QString asked;
    answerNextMessageBox(QMessageBox::Cancel, &asked);
    child<QToolButton>(page, u"library.delete"_s)->click();
    QVERIFY(asked.contains(u"Staging 8B (copy)"_s));
    QVERIFY(QFileInfo::exists(dir + u"/staging-8b-copy.json"_s));
    answerNextMessageBox(QMessageBox::Yes);
    child<QToolButton>(page, u"library.delete"_s)->click();
    QVERIFY(!QFileInfo::exists(dir + u"/staging-8b-copy.json"_s));
    QCOMPARE(list->count(), 2);
    QVERIFY(!page.currentPath().isEmpty());
    QVERIFY(QFileInfo::exists(page.currentPath()));
}

void TestProfilePage::planEstimate_data()
{
    QTest::addColumn<ProfileMutator>("mutate");
    QTest::addColumn<int>("steps");
    QTest::addColumn<qint64>("requests");
    QTest::addColumn<int>("unknownRequestSteps");
    QTest::addColumn<qint64>("warmup");
    QTest::addColumn<double>("sendingS");
    QTest::addColumn<double>("cooldownS");
    QTest::addColumn<int>("unknownDurationSteps");

    QTest::addRow("demo: rates for a fixed time")
        << ProfileMutator([](Profile&) {}) << 7 << qint64(1350) << 0 << qint64(28) << 42.0 << 7.0 << 0;
    QTest::addRow("prompts at a rate, after a ramp") << ProfileMutator([](Profile& p) {
        p.load.stepDurationS.reset();
        p.load.rates = { 10 };
        p.workload.numPrompts = 100;
        p.load.rampUpS = 4;
        p.load.warmupRequests = 0;
        p.load.cooldownS = 0;
    }) << 1 << qint64(100) << 0 << qint64(0) << 12.0 << 0.0
                                                     << 0;
    QTest::addRow("all inside the ramp") << ProfileMutator([](Profile& p) {
        p.load.stepDurationS.reset();
        p.load.rates = { 10 };
        p.workload.numPrompts = 10;
        p.load.rampUpS = 4;
    }) << 1 << qint64(10) << 0 << qint64(4)
                                         << std::sqrt(8.0) << 1.0 << 0;
    QTest::addRow("inf: all at once") << ProfileMutator([](Profile& p) {
        p.load.stepDurationS.reset();
        p.load.rates = { 10, inf };
        p.load.cooldownS = 0;
    }) << 2 << qint64(400) << 0 << qint64(8)
                                      << 20.0 << 0.0 << 1;
    QTest::addRow("users for a fixed time") << ProfileMutator([](Profile& p) {
        p.load.mode = kp::LoadMode::Concurrency;
        p.load.concurrencies = { 4, 8 };
        p.load.stepDurationS = 30;
        p.load.cooldownS = 5;
        p.load.warmupRequests = 0;
    }) << 2 << qint64(0) << 2 << qint64(0) << 60.0
                                            << 10.0 << 0;
    QTest::addRow("auto rates") << ProfileMutator([](Profile& p) {
        p.load.plan.kind = kp::PlanKind::Auto;
        p.load.stepDurationS.reset();
        p.workload.numPrompts = 1000;
        p.load.warmupRequests = 0;
        p.load.cooldownS = 0;
    }) << 10 << qint64(100 + 1000 + 8 * 1000)
                                << 0 << qint64(0) << 0.0 << 0.0 << 10;
    QTest::addRow("geometric users") << ProfileMutator([](Profile& p) {
        p.load.mode = kp::LoadMode::Concurrency;
        p.load.plan.kind = kp::PlanKind::Geometric;
        p.load.plan.start = 1;
        p.load.plan.stop = 16;
        p.load.plan.steps = 5;
        p.load.stepDurationS.reset();
        p.load.cooldownS = 0;
        p.load.warmupRequests = 0;
    }) << 5 << qint64(1000) << 0 << qint64(0)
                                     << 0.0 << 0.0 << 5;
}

void TestProfilePage::planEstimate()
{
    QFETCH(ProfileMutator, mutate);
    QFETCH(int, steps);
    QFETCH(qint64, requests);
    QFETCH(int, unknownRequestSteps);
    QFETCH(qint64, warmup);
    QFETCH(double, sendingS);
    QFETCH(double, cooldownS);
    QFETCH(int, unknownDurationSteps);

    Profile p = knownProfile();
    mutate(p);
    QVERIFY(kp::validateProfile(p).isEmpty());
    const kp::ui::PlanEstimate e = kp::ui::estimatePlan(p);
    QCOMPARE(int(e.steps.size()), steps);
    QCOMPARE(e.requests, requests);
    QCOMPARE(e.unknownRequestSteps, unknownRequestSteps);
    QCOMPARE(e.warmupRequests, warmup);
    QVERIFY2(std::abs(e.sendingS - sendingS) < 1e-9, qPrintable(QString::number(e.sendingS)));
    QCOMPARE(e.cooldownS, cooldownS);
    QCOMPARE(e.unknownDurationSteps, unknownDurationSteps);
    QCOMPARE(e.inputTokens, requests * (p.workload.inputLen + p.workload.prefixLen));
    QCOMPARE(e.outputTokens, requests * p.workload.outputLen);
}

void TestProfilePage::planPreviewText()
{
    QVERIFY(!putKnownInLibrary().isEmpty());
    ProfilePage page;
    auto text = [&page](const char* name) { return child<QLabel>(page, QString::fromLatin1(name))->text(); };
    QCOMPARE(text("plan.steps"), u"7 steps"_s);
    QCOMPARE(text("plan.requests"), u"1,350 requests + 28 warm-up"_s);
    QCOMPARE(text("plan.duration"), u"≈ 49 s"_s);
    QCOMPARE(text("plan.durationDetail"),
        u"sending 42 s · cooldown 7 s; plus warm-up, answering each step's last requests"_s);
    QCOMPARE(text("plan.tokens"), u"≈ 581 k tokens (270 k input, 311 k output)"_s);
    auto* table = page.findChild<QTreeWidget*>(u"plan.table"_s);
    QVERIFY(table);
    QCOMPARE(table->topLevelItemCount(), 7);
    QCOMPARE(table->topLevelItem(6)->text(1), u"70 req/s"_s);
    QCOMPARE(table->topLevelItem(6)->text(2), u"420"_s);
    QCOMPARE(table->topLevelItem(6)->text(3), u"6 s"_s);

    // Updated as fields change.
    child<QLineEdit>(page, u"load.rates"_s)->setText(u"10, inf"_s);
    QCOMPARE(text("plan.steps"), u"2 steps"_s);
    QCOMPARE(text("plan.requests"), u"260 requests + 8 warm-up"_s);
    QCOMPARE(text("plan.duration"), u"at least 8 s"_s);
    QCOMPARE(text("plan.durationDetail"),
        u"sending 6 s · cooldown 2 s; plus 1 step whose length depends on the server, warm-up, answering each "
        "step's last requests"_s);
    child<QDoubleSpinBox>(page, u"load.step_duration_s"_s)->setValue(0); // unset: num_prompts per step
    QCOMPARE(text("plan.requests"), u"400 requests + 8 warm-up"_s);
    QCOMPARE(text("plan.duration"), u"at least 22 s"_s);
    QCOMPARE(text("plan.tokens"), u"≈ 172 k tokens (80,000 input, 92,000 output)"_s);
    child<QCheckBox>(page, u"workload.ignore_eos"_s)->setChecked(false);
    QCOMPARE(text("plan.tokens"), u"≈ 172 k tokens (80,000 input, up to 92,000 output)"_s);

    // A load problem hides the plan and says why.
    child<QLineEdit>(page, u"load.rates"_s)->setText(u"10, 0"_s);
    QCOMPARE(text("plan.unavailable"), u"The plan appears once this is fixed: load.rates[1]: must be > 0"_s);
}

void TestProfilePage::runOnlyWhenValid()
{
    ProfilePage page;
    QSignalSpy run(&page, &ProfilePage::runRequested);
    auto* button = child<QPushButton>(page, u"page.run"_s);
    QVERIFY(button->isEnabled());
    child<QLineEdit>(page, u"target.base_url"_s)->setText(u"nonsense"_s);
    QVERIFY(!button->isEnabled());
    button->click();
    QCOMPARE(run.size(), 0);
    child<QLineEdit>(page, u"target.base_url"_s)->setText(u"http://127.0.0.1:9"_s);
    button->click();
    QCOMPARE(run.size(), 1);
    QCOMPARE(run.constFirst().constFirst().value<Profile>().target.baseUrl, u"http://127.0.0.1:9"_s);
}

void TestProfilePage::testConnectionAgainstSimulator()
{
    kp::sim::SimHost host;
    QVERIFY2(host.start(kp::sim::SimServerOptions {}), qPrintable(host.errorString()));
    ProfilePage page;
    child<QLineEdit>(page, u"target.base_url"_s)->setText(host.baseUrl().toString());
    auto* test = child<QPushButton>(page, u"connection.test"_s);
    QVERIFY(test->isEnabled());
    test->click();
    QCOMPARE(test->text(), u"Cancel test"_s); // the GUI thread did not wait
    QTRY_VERIFY_WITH_TIMEOUT(page.findChild<QLabel*>(u"check.completion"_s), 30000);
    for (const QString& name : { u"health"_s, u"models"_s, u"completion"_s }) {
        auto* mark = child<QLabel>(page, u"check."_s + name);
        QVERIFY2(mark->property("kpOk").toBool(), qPrintable(name));
        QVERIFY(child<QLabel>(page, u"check.%1.latency"_s.arg(name))->text().endsWith(u" ms"_s));
        QVERIFY(!page.findChild<QLabel*>(u"check.%1.hint"_s.arg(name)));
    }
    QVERIFY(child<QLabel>(page, u"check.models.detail"_s)->text().startsWith(u"models: "_s));
    QVERIFY(child<QLabel>(page, u"connection.status"_s)->text().startsWith(u"All checks passed"_s));
    QVERIFY(child<QLabel>(page, u"connection.notes"_s)->text().contains(u"No API key"_s));
    QCOMPARE(test->text(), u"Test connection"_s);
}

void TestProfilePage::testConnectionBuiltinSimulator()
{
    ProfilePage page; // the demo: sim://default
    auto* test = child<QPushButton>(page, u"connection.test"_s);
    test->click();
    QTRY_VERIFY_WITH_TIMEOUT(page.findChild<QLabel*>(u"check.completion"_s), 30000);
    for (const QString& name : { u"health"_s, u"models"_s, u"completion"_s })
        QVERIFY2(child<QLabel>(page, u"check."_s + name)->property("kpOk").toBool(), qPrintable(name));
    QVERIFY(child<QLabel>(page, u"connection.notes"_s)->text().contains(u"built-in simulator"_s));
    // The profile itself still targets sim://.
    QCOMPARE(page.currentProfile()->target.baseUrl, u"sim://default?time_scale=1"_s);
}

void TestProfilePage::testConnectionUnreachable()
{
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost));
    const quint16 port = probe.serverPort();
    probe.close();
    ProfilePage page;
    child<QLineEdit>(page, u"target.base_url"_s)->setText(u"http://127.0.0.1:%1"_s.arg(port));
    child<QPushButton>(page, u"connection.test"_s)->click();
    QTRY_VERIFY_WITH_TIMEOUT(page.findChild<QLabel*>(u"check.health"_s), 30000);
    QVERIFY(!child<QLabel>(page, u"check.health"_s)->property("kpOk").toBool());
    const QString hint = child<QLabel>(page, u"check.health.hint"_s)->text();
    QVERIFY2(hint.contains(u"Nothing listens on 127.0.0.1:%1"_s.arg(port)), qPrintable(hint));
    QVERIFY(child<QLabel>(page, u"check.models"_s)->property("kpSkipped").toBool());
    QVERIFY(child<QLabel>(page, u"check.completion"_s)->property("kpSkipped").toBool());
    QVERIFY(child<QLabel>(page, u"connection.status"_s)->text().startsWith(u"The server could not be reached"_s));
}

void TestProfilePage::screenshots()
{
    ProfilePage page;
    page.resize(1280, 800);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    child<QPushButton>(page, u"connection.test"_s)->click();
    QTRY_VERIFY_WITH_TIMEOUT(page.findChild<QLabel*>(u"check.completion"_s), 30000);
    QVERIFY(saveScreenshot(page, u"profilepage.png"_s));

    child<QLineEdit>(page, u"target.base_url"_s)->setText(u"ftp://gpu-box:8000"_s);
    child<QLineEdit>(page, u"load.rates"_s)->setText(u"5, -10, 20"_s);
    child<QDoubleSpinBox>(page, u"target.timeouts.connect_s"_s)->setValue(0);
    QVERIFY(saveScreenshot(page, u"profilepage-errors.png"_s));
    QCoreApplication::processEvents();
    page.findChild<kp::ui::ProfileForm*>()->scrollToSection(u"load"_s);
    QVERIFY(saveScreenshot(page, u"profilepage-errors-load.png"_s));

    auto* tabs = child<QTabWidget>(page, u"editor.tabs"_s);
    tabs->setCurrentIndex(1);
    auto* json = child<QPlainTextEdit>(page, u"json.text"_s);
    json->setPlainText(json->toPlainText().replace(u"\"num_prompts\": 200"_s, u"\"num_prompts\": \"200\""_s));
    QVERIFY(saveScreenshot(page, u"profilepage-json.png"_s));
    qInfo("screenshots in %s/screenshots", qPrintable(QCoreApplication::applicationDirPath()));
}

void TestProfilePage::changedOnDiskIsNoticed()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"watched.json"_s);
    Profile p = Profile::demo(QUrl(u"sim://default"_s), QString());
    p.workload.numPrompts = 10;
    QVERIFY(ProfileStore::save(p, path).ok());
    ProfilePage page;
    page.openFile(path);
    auto* prompts = child<QSpinBox>(page, u"workload.num_prompts"_s);
    QCOMPARE(prompts->value(), 10);

    // No unsaved edits: another program's change is reloaded.
    p.workload.numPrompts = 20;
    QVERIFY(ProfileStore::save(p, path).ok());
    QTRY_COMPARE_WITH_TIMEOUT(prompts->value(), 20, 60000);
    QVERIFY(!page.isModified());

    // Our own save is not taken for a change made elsewhere.
    prompts->setValue(25);
    QVERIFY(page.save());
    QCoreApplication::processEvents();
    QVERIFY(!page.findChild<QMessageBox*>(u"profileChangedOnDisk"_s));

    // Over unsaved edits the user is asked; reloading takes the file's version.
    prompts->setValue(30);
    QVERIFY(page.isModified());
    p.workload.numPrompts = 40;
    QVERIFY(ProfileStore::save(p, path).ok());
    QMessageBox* box = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((box = page.findChild<QMessageBox*>(u"profileChangedOnDisk"_s)), 60000);
    QCOMPARE(prompts->value(), 30);
    box->grab().save(QCoreApplication::applicationDirPath() + u"/profile-changed-on-disk.png"_s);
    box->findChild<QPushButton*>(u"reload"_s)->click();
    QTRY_COMPARE_WITH_TIMEOUT(prompts->value(), 40, 60000);
    QVERIFY(!page.isModified());
}

void TestProfilePage::sweepStartAsksFirst()
{
    Profile p;
    p.target.baseUrl = u"http://192.0.2.10:8000"_s;
    p.target.apiKey = u"sk-shown-nowhere"_s;
    p.workload.numPrompts = 400;
    p.load.rates = { 10, 20, 5000 };
    const QStringList questions = kp::ui::sweepStartQuestions(p);
    QCOMPARE(questions.size(), 3);
    QVERIFY(questions[0].contains(u"plain HTTP to 192.0.2.10"_s));
    QVERIFY(questions[1].contains(u"5000 req/s"_s));
    QVERIFY2(questions[2].contains(u"3 steps, 1200 requests, about"_s), qPrintable(questions[2]));
    for (const QString& q : questions)
        QVERIFY(!q.contains(u"sk-shown-nowhere"_s));

    // The dialog: Cancel keeps the sweep from starting.
    QString seen;
    auto* timer = new QTimer;
    timer->setInterval(10);
    QObject::connect(timer, &QTimer::timeout, [timer, &seen] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box)
            return;
        timer->stop();
        timer->deleteLater();
        seen = box->informativeText();
        box->grab().save(QCoreApplication::applicationDirPath() + u"/sweep-start-confirmation.png"_s);
        box->button(QMessageBox::Cancel)->click();
    });
    timer->start();
    QVERIFY(!kp::ui::confirmSweepStart(nullptr, p));
    QVERIFY(seen.contains(u"load limits"_s));

    p.target.baseUrl = u"sim://default"_s;
    p.load.rates = { 10 };
    QVERIFY(kp::ui::sweepStartQuestions(p).isEmpty());
    QVERIFY(kp::ui::confirmSweepStart(nullptr, p));
}

QTEST_MAIN(TestProfilePage)
#include "tst_profilepage.moc"
