#include "profile/profileform.h"

#include "kit/jobtracker.h"
#include "profile/keychain.h"
#include "profile/profileform_p.h"
#include "profile/targetstore.h"

#include <QCheckBox>
#include <QCompleter>
#include <QEvent>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QRegularExpressionValidator>
#include <QStringListModel>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

#include <functional>
#include <limits>
#include <optional>
#include <utility>

// ProfileForm's composite inputs: the fields no kind describes (FieldSpec::build), each made of several
// widgets or with a parser of its own. The generic field machinery is in profileform.cpp.

namespace kp::ui {

using form::ComboBox;
using form::listTokens;
using form::translated;
using form::withButton;
using form::withUnit;

namespace {

bool isInfinityWord(QStringView token)
{
    return token.compare(u"inf", Qt::CaseInsensitive) == 0 || token.compare(u"infinity", Qt::CaseInsensitive) == 0;
}

QString numberText(double v)
{
    return QLocale::c().toString(v, 'g', QLocale::FloatingPointShortest);
}

// The numbers of a list input ("inf" among them where infinity is allowed); nullopt, with *bad the first
// token that is not one.
std::optional<QList<double>> readNumbers(const QString& text, bool infinity, QString* bad)
{
    QList<double> out;
    for (const QString& token : listTokens(text)) {
        if (infinity && isInfinityWord(token)) {
            out << std::numeric_limits<double>::infinity();
            continue;
        }
        bool ok = false;
        const double v = QLocale::c().toDouble(token, &ok);
        if (!ok) {
            *bad = token;
            return std::nullopt;
        }
        out << v;
    }
    return out;
}

// The numbers as a list input shows them.
QString numbersText(const QList<double>& values, QString (*format)(double))
{
    QStringList parts;
    for (double v : values)
        parts << format(v);
    return parts.join(QStringLiteral(", "));
}

// Calls a function each time the watched widget takes focus.
class OnFocusIn : public QObject
{
public:
    OnFocusIn(std::function<void()> call, QObject* parent)
        : QObject(parent)
        , m_call(std::move(call))
    { }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::FocusIn)
            m_call();
        return QObject::eventFilter(watched, event);
    }

private:
    std::function<void()> m_call;
};

} // namespace

QWidget* ProfileForm::addSavedTarget(const FieldSpec& spec)
{
    auto* saved = static_cast<QLineEdit*>(addField(spec)->input);
    saved->setObjectName(QStringLiteral("savedTarget"));
    auto* names = new QStringListModel(saved);
    saved->setCompleter(new QCompleter(names, saved));
    // The saved targets' names, read from targets.json in the background when the form is built and
    // again whenever the field takes focus (the Targets page or the CLI may have saved one since).
    auto* reader = new JobTracker(saved);
    auto read = [reader, names] {
        reader->start(
            QString(), // no indicator shows this small read
            [path = defaultTargetsPath()](const JobTracker::CancelFlag&) {
                TargetStore store(path);
                store.load(nullptr);
                return store.names();
            },
            [names](const QStringList& found) {
                if (found != names->stringList())
                    names->setStringList(found);
            });
    };
    saved->installEventFilter(new OnFocusIn(read, saved));
    read();
    return saved;
}

// The key: masked, with a reveal toggle and the source it resolves from (never the key itself).
QWidget* ProfileForm::addApiKey(const FieldSpec& spec)
{
    auto* key = static_cast<QLineEdit*>(addField(spec)->input);
    key->setEchoMode(QLineEdit::Password);
    key->setInputMethodHints(Qt::ImhHiddenText | Qt::ImhNoPredictiveText | Qt::ImhNoAutoUppercase);
    auto* reveal = new QToolButton;
    reveal->setObjectName(QStringLiteral("target.api_key.reveal"));
    reveal->setCheckable(true);
    reveal->setText(tr("Show"));
    reveal->setToolTip(tr("Show or hide the key"));
    connect(reveal, &QToolButton::toggled, this, [key, reveal](bool shown) {
        key->setEchoMode(shown ? QLineEdit::Normal : QLineEdit::Password);
        reveal->setText(shown ? tr("Hide") : tr("Show"));
    });
    // Moves a typed key into the desktop keychain and leaves keychain:ENTRY in the profile.
    auto* storeKey = new QToolButton;
    storeKey->setObjectName(QStringLiteral("target.api_key.store"));
    storeKey->setText(tr("Store in keychain…"));
    storeKey->setToolTip(tr("Store the typed key in the desktop keychain and keep only a keychain:ENTRY "
                            "reference in the profile"));
    // The keychain may ask for its password first: the write waits up to a minute in the background.
    auto* keychainWrite = new JobTracker(storeKey);
    connect(storeKey, &QToolButton::clicked, this, [this, key, storeKey, keychainWrite] {
        Target typed;
        typed.apiKey = key->text();
        if (typed.apiKey.trimmed().isEmpty() || typed.apiKeySource() != ApiKeyResolution::Source::Literal) {
            QMessageBox::information(this, tr("Store in keychain"),
                tr("Type the key itself into the field first: only a literal key can be stored in the keychain."));
            return;
        }
        const QString host = QUrl(m_profile.target.baseUrl).host();
        bool ok = false;
        const QString entry
            = QInputDialog::getText(this, tr("Store in keychain"), tr("Keychain entry name (service \"Kneepoint\"):"),
                QLineEdit::Normal, host.isEmpty() ? QStringLiteral("default") : host, &ok)
                  .trimmed();
        if (!ok || entry.isEmpty())
            return;
        storeKey->setEnabled(false);
        keychainWrite->start(
            tr("Storing the key in the keychain"),
            [entry, secret = typed.apiKey.trimmed()](
                const JobTracker::CancelFlag&) { return writeKeychainSecret(entry, secret, 60000); },
            [this, key, storeKey, entry](const KeychainResult& r) {
                storeKey->setEnabled(true);
                if (!r.ok()) {
                    QMessageBox::warning(this, tr("Store in keychain"),
                        tr("The key was not stored: %1\n\nThe field still holds the key. Reference an environment "
                           "variable (${NAME}) or a key file (file:PATH) instead.")
                            .arg(r.error));
                    return;
                }
                key->setText(keychainReference(entry));
            });
    });
    m_apiKeySource = new QLabel;
    m_apiKeySource->setObjectName(QStringLiteral("target.api_key.source"));
    m_apiKeySource->setWordWrap(true);
    m_apiKeySource->setForegroundRole(QPalette::PlaceholderText);
    auto* keyCell = new QWidget;
    auto* keyV = new QVBoxLayout(keyCell);
    keyV->setContentsMargins(0, 0, 0, 0);
    keyV->setSpacing(2);
    auto* keyH = new QHBoxLayout;
    keyH->setSpacing(4);
    keyH->addWidget(key, 1);
    keyH->addWidget(reveal);
    keyH->addWidget(storeKey);
    keyV->addLayout(keyH);
    keyV->addWidget(m_apiKeySource);
    return keyCell;
}

QWidget* ProfileForm::addHeaders(const FieldSpec& spec)
{
    auto* headers = new QPlainTextEdit;
    headers->setTabChangesFocus(true);
    headers->setPlaceholderText(translated(spec.placeholder));
    headers->setFixedHeight(headers->fontMetrics().lineSpacing() * 3 + 12);
    Field* f = addField(
        QLatin1String(spec.key), headers,
        [this, headers] {
            QStringList lines;
            for (const HttpHeader& h : m_profile.target.headers)
                lines << h.name + QStringLiteral(": ") + h.value;
            headers->setPlainText(lines.join(QLatin1Char('\n')));
        },
        [this, headers]() -> QString {
            QList<HttpHeader> out;
            const QStringList lines = headers->toPlainText().split(QLatin1Char('\n'));
            for (qsizetype i = 0; i < lines.size(); ++i) {
                if (lines[i].trimmed().isEmpty())
                    continue;
                const qsizetype colon = lines[i].indexOf(QLatin1Char(':'));
                if (colon < 0)
                    return tr("line %1: expected \"Name: value\"").arg(i + 1);
                out.append({ lines[i].left(colon).trimmed(), lines[i].mid(colon + 1).trimmed() });
            }
            m_profile.target.headers = out;
            return QString();
        });
    connect(headers, &QPlainTextEdit::textChanged, this, [this, f] { fieldChanged(f); });
    return headers;
}

QWidget* ProfileForm::addMetricsUrls(const FieldSpec& spec)
{
    auto* urls = new QPlainTextEdit;
    urls->setTabChangesFocus(true);
    urls->setPlaceholderText(translated(spec.placeholder));
    urls->setFixedHeight(urls->fontMetrics().lineSpacing() * 3 + 12);
    Field* f = addField(
        QLatin1String(spec.key), urls,
        [this, urls] { urls->setPlainText(m_profile.target.metricsUrls.join(QLatin1Char('\n'))); },
        [this, urls]() -> QString {
            // One per line or comma-separated, as the profile file may have them.
            QStringList out;
            const QStringList parts = urls->toPlainText().split(QRegularExpression(QStringLiteral("[,\n]")));
            for (const QString& part : parts) {
                if (!part.trimmed().isEmpty())
                    out << part.trimmed();
            }
            m_profile.target.metricsUrls = out;
            return QString();
        });
    connect(urls, &QPlainTextEdit::textChanged, this, [this, f] { fieldChanged(f); });
    return urls;
}

QWidget* ProfileForm::addProxy(const FieldSpec& spec)
{
    auto* proxy = new ComboBox;
    proxy->setEditable(true);
    proxy->addItem(QStringLiteral("none"));
    proxy->addItem(QStringLiteral("system"));
    proxy->lineEdit()->setPlaceholderText(translated(spec.placeholder));
    Field* f = addField(
        QLatin1String(spec.key), proxy,
        [this, proxy] {
            const Target& t = m_profile.target;
            proxy->setCurrentText(t.proxyMode == ProxyMode::None ? QStringLiteral("none")
                    : t.proxyMode == ProxyMode::System           ? QStringLiteral("system")
                                                                 : t.proxyUrl);
        },
        [this, proxy] {
            const QString text = proxy->currentText().trimmed();
            Target& t = m_profile.target;
            if (text.isEmpty() || text == QLatin1String("none")) {
                t.proxyMode = ProxyMode::None;
                t.proxyUrl.clear();
            } else if (text == QLatin1String("system")) {
                t.proxyMode = ProxyMode::System;
                t.proxyUrl.clear();
            } else {
                t.proxyMode = ProxyMode::Url;
                t.proxyUrl = text;
            }
            return QString();
        });
    connect(proxy, &QComboBox::currentTextChanged, this, [this, f] { fieldChanged(f); });
    return proxy;
}

// The known datasets, and a profile's unknown one as it is.
QWidget* ProfileForm::addDataset(const FieldSpec& spec)
{
    auto* dataset = new ComboBox;
    for (const QString& d : knownDatasets())
        dataset->addItem(d, d);
    Field* f = addField(
        QLatin1String(spec.key), dataset,
        [this, dataset] {
            int i = dataset->findData(m_profile.workload.dataset);
            if (i < 0) {
                dataset->addItem(m_profile.workload.dataset, m_profile.workload.dataset);
                i = dataset->count() - 1;
            }
            dataset->setCurrentIndex(i);
        },
        [this, dataset] {
            m_profile.workload.dataset = dataset->currentData().toString();
            return QString();
        });
    connect(dataset, &QComboBox::currentIndexChanged, this, [this, f] { fieldChanged(f); });
    return dataset;
}

QWidget* ProfileForm::addDatasetFile(const FieldSpec& spec)
{
    Field* f = addField(spec);
    auto* path = static_cast<QLineEdit*>(f->input);
    auto* browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, [this, path] {
        const QString file = QFileDialog::getOpenFileName(
            this, tr("Dataset file"), path->text(), tr("Datasets (*.json *.jsonl);;All files (*)"));
        if (!file.isEmpty())
            path->setText(file);
    });
    f->enableTarget = withButton(path, browse);
    return f->enableTarget;
}

QWidget* ProfileForm::addSeed(const FieldSpec& spec)
{
    auto* seed = new QLineEdit;
    seed->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("-?[0-9]{0,19}")), seed));
    Field* f = addField(
        QLatin1String(spec.key), seed, [this, seed] { seed->setText(QString::number(m_profile.workload.seed)); },
        [this, seed]() -> QString {
            bool ok = false;
            const qint64 v = seed->text().toLongLong(&ok);
            if (!ok)
                return tr("\"%1\" is not an integer").arg(seed->text());
            m_profile.workload.seed = v;
            return QString();
        });
    connect(seed, &QLineEdit::textChanged, this, [this, f] { fieldChanged(f); });
    return seed;
}

QWidget* ProfileForm::addExtraBody(const FieldSpec& spec)
{
    auto* extra = new QPlainTextEdit;
    extra->setTabChangesFocus(true);
    extra->setPlaceholderText(translated(spec.placeholder));
    extra->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    extra->setFixedHeight(extra->fontMetrics().lineSpacing() * 3 + 12);
    Field* f = addField(
        QLatin1String(spec.key), extra,
        [this, extra] {
            const QJsonObject& o = m_profile.workload.extraBody;
            extra->setPlainText(
                o.isEmpty() ? QString() : QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)));
        },
        [this, extra]() -> QString {
            const QByteArray text = extra->toPlainText().trimmed().toUtf8();
            if (text.isEmpty()) {
                m_profile.workload.extraBody = {};
                return QString();
            }
            QJsonParseError error;
            const QJsonDocument doc = QJsonDocument::fromJson(text, &error);
            if (error.error != QJsonParseError::NoError)
                return tr("%1 at character %2").arg(error.errorString()).arg(error.offset + 1);
            if (!doc.isObject())
                return tr("must be a JSON object");
            m_profile.workload.extraBody = doc.object();
            return QString();
        });
    connect(extra, &QPlainTextEdit::textChanged, this, [this, f] { fieldChanged(f); });
    return extra;
}

// Rates are numbers or "inf", where an integer list takes whole numbers only.
QWidget* ProfileForm::addRates(const FieldSpec& spec)
{
    auto* rates = new QLineEdit;
    rates->setPlaceholderText(translated(spec.placeholder));
    Field* f = addField(
        QLatin1String(spec.key), rates,
        [this, rates] { rates->setText(numbersText(m_profile.load.rates, &formatRate)); },
        [this, rates]() -> QString {
            QString bad;
            const std::optional<QList<double>> out = readNumbers(rates->text(), true, &bad);
            if (!out)
                return tr("\"%1\" is not a number or \"inf\"").arg(bad);
            m_profile.load.rates = *out;
            return QString();
        });
    connect(rates, &QLineEdit::textChanged, this, [this, f] { fieldChanged(f); });
    f->enableTarget = withUnit(rates, translated(spec.text));
    return f->enableTarget;
}

QWidget* ProfileForm::addResultDirectory(const FieldSpec& spec)
{
    auto* dir = static_cast<QLineEdit*>(addField(spec)->input);
    auto* browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, [this, dir] {
        const QString d = QFileDialog::getExistingDirectory(this, tr("Result directory"), dir->text());
        if (!d.isEmpty())
            dir->setText(d);
    });
    return withButton(dir, browse);
}

// One check box per metric, one field for the list.
QWidget* ProfileForm::addPercentileMetrics(const FieldSpec& spec)
{
    auto* metrics = new QWidget;
    auto* mh = new QHBoxLayout(metrics);
    mh->setContentsMargins(0, 0, 0, 0);
    QList<QCheckBox*> boxes;
    for (const QString& m : knownPercentileMetrics()) {
        auto* b = new QCheckBox(m.toUpper());
        b->setObjectName(QStringLiteral("output.percentile_metrics.") + m);
        b->setProperty("kpMetric", m);
        mh->addWidget(b);
        boxes << b;
    }
    mh->addStretch();
    Field* f = addField(
        QLatin1String(spec.key), metrics,
        [this, boxes] {
            for (QCheckBox* b : boxes)
                b->setChecked(m_profile.output.percentileMetrics.contains(b->property("kpMetric").toString()));
        },
        [this, boxes] {
            QStringList out;
            for (QCheckBox* b : boxes) {
                if (b->isChecked())
                    out << b->property("kpMetric").toString();
            }
            m_profile.output.percentileMetrics = out;
            return QString();
        });
    for (QCheckBox* b : boxes)
        connect(b, &QCheckBox::toggled, this, [this, f] { fieldChanged(f); });
    return metrics;
}

// Percentiles are numbers, where an integer list takes whole numbers only.
QWidget* ProfileForm::addPercentiles(const FieldSpec& spec)
{
    auto* pcts = new QLineEdit;
    pcts->setPlaceholderText(translated(spec.placeholder));
    Field* f = addField(
        QLatin1String(spec.key), pcts,
        [this, pcts] { pcts->setText(numbersText(m_profile.output.metricPercentiles, &numberText)); },
        [this, pcts]() -> QString {
            QString bad;
            const std::optional<QList<double>> out = readNumbers(pcts->text(), false, &bad);
            if (!out)
                return tr("\"%1\" is not a number").arg(bad);
            m_profile.output.metricPercentiles = *out;
            return QString();
        });
    connect(pcts, &QLineEdit::textChanged, this, [this, f] { fieldChanged(f); });
    return pcts;
}

} // namespace kp::ui
