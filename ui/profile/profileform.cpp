#include "profileform.h"

#include "jobs/jobtracker.h"
#include "profile/keychain.h"
#include "profile/targetstore.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
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
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <cmath>
#include <limits>

namespace kp::ui {

namespace {

// Spin boxes and combos in a scrolling form only take the wheel when they have focus, so that
// scrolling the form does not change values under the pointer.
template <typename Base> class FocusWheel : public Base
{
public:
    using Base::Base;

protected:
    void wheelEvent(QWheelEvent* event) override
    {
        if (!this->hasFocus()) {
            event->ignore();
            return;
        }
        Base::wheelEvent(event);
    }
};

// Shows the shortest text that reads back as the value ("10 s", "0.125 s") rather than a fixed
// number of decimals, so that a profile's values are shown as written.
class NumberSpinBox : public FocusWheel<QDoubleSpinBox>
{
public:
    NumberSpinBox()
    {
        QLocale l = locale();
        l.setNumberOptions(l.numberOptions() | QLocale::OmitGroupSeparator);
        setLocale(l);
        setDecimals(6);
        setFocusPolicy(Qt::StrongFocus);
        setAccelerated(true);
        // The size hint is made for the largest value; values are short, and the form must fit.
        setMinimumWidth(fontMetrics().averageCharWidth() * 11);
    }

protected:
    QString textFromValue(double value) const override
    {
        return locale().toString(value, 'f', QLocale::FloatingPointShortest);
    }
};

class IntSpinBox : public FocusWheel<QSpinBox>
{
public:
    IntSpinBox()
    {
        setFocusPolicy(Qt::StrongFocus);
        setAccelerated(true);
        setMinimumWidth(fontMetrics().averageCharWidth() * 11);
    }
};

class ComboBox : public FocusWheel<QComboBox>
{
public:
    ComboBox() { setFocusPolicy(Qt::StrongFocus); }
};

QString tip(const QString& key, const QString& text)
{
    return QStringLiteral("<p><b>%1</b></p><p>%2</p>").arg(key.toHtmlEscaped(), text.toHtmlEscaped());
}

bool isInfinityWord(QStringView token)
{
    return token.compare(u"inf", Qt::CaseInsensitive) == 0 || token.compare(u"infinity", Qt::CaseInsensitive) == 0;
}

QStringList listTokens(const QString& text)
{
    static const QRegularExpression separators(QStringLiteral("[,;\\s]+"));
    return text.split(separators, Qt::SkipEmptyParts);
}

QString numberText(double v)
{
    return QLocale::c().toString(v, 'g', QLocale::FloatingPointShortest);
}

QColor errorColor(const QPalette& palette)
{
    return palette.color(QPalette::Window).lightness() < 128 ? QColor(0xef, 0x9a, 0x9a) : QColor(0xc6, 0x28, 0x28);
}

// Text inputs get a red frame. A style sheet border would replace the native drawing of spin box
// buttons and combo arrows, so those get a tinted background instead.
void markInvalid(QWidget* input, bool invalid, const QString& color)
{
    if (qobject_cast<QLineEdit*>(input) || qobject_cast<QPlainTextEdit*>(input)) {
        input->setStyleSheet(invalid ? QStringLiteral("%1 { border: 1px solid %2; border-radius: 3px; }")
                                           .arg(QString::fromLatin1(input->metaObject()->className()), color)
                                     : QString());
        return;
    }
    if (!qobject_cast<QAbstractSpinBox*>(input) && !qobject_cast<QComboBox*>(input))
        return; // check boxes and groups: the message under them is enough
    if (!invalid) {
        input->setPalette(QPalette());
        return;
    }
    QPalette pal = input->palette();
    const bool dark = pal.color(QPalette::Window).lightness() < 128;
    pal.setColor(QPalette::Base, dark ? QColor(0x5c, 0x1f, 0x1f) : QColor(0xfd, 0xe4, 0xe4));
    pal.setColor(QPalette::Button, dark ? QColor(0x5c, 0x1f, 0x1f) : QColor(0xfd, 0xe4, 0xe4));
    input->setPalette(pal);
}

} // namespace

struct ProfileForm::Field
{
    QString path;
    QString caption; // short label, used when several fields share one message line
    QWidget* input = nullptr;
    QLabel* message = nullptr;
    std::function<void()> load;
    std::function<QString()> store; // returns an input error
    std::function<bool()> enabled;
    QWidget* enableTarget = nullptr; // the input, or the row holding it and its buttons
    QString inputError;
    bool framed = false;
};

ProfileForm::ProfileForm(QWidget* parent)
    : QWidget(parent)
{
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(4);

    auto* nav = new QHBoxLayout;
    nav->setContentsMargins(6, 4, 6, 0);
    nav->setSpacing(2);
    auto* jump = new QLabel(tr("Go to:"));
    jump->setForegroundRole(QPalette::PlaceholderText);
    nav->addWidget(jump);
    const QList<std::pair<QString, QString>> sections
        = { { QStringLiteral("target"), tr("Target") }, { QStringLiteral("workload"), tr("Workload") },
              { QStringLiteral("load"), tr("Load") }, { QStringLiteral("slo"), tr("SLOs") },
              { QStringLiteral("server"), tr("Server info") }, { QStringLiteral("output"), tr("Output") } };
    for (const auto& [key, title] : sections) {
        auto* b = new QToolButton;
        b->setText(title);
        b->setAutoRaise(true);
        b->setObjectName(QStringLiteral("goto.") + key);
        connect(b, &QToolButton::clicked, this, [this, k = key] { scrollToSection(k); });
        nav->addWidget(b);
    }
    nav->addStretch();
    outer->addLayout(nav);

    m_otherIssues = new QLabel;
    m_otherIssues->setObjectName(QStringLiteral("form.otherIssues"));
    m_otherIssues->setWordWrap(true);
    m_otherIssues->setContentsMargins(8, 0, 8, 0);
    m_otherIssues->setVisible(false);
    outer->addWidget(m_otherIssues);

    m_scroll = new QScrollArea;
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* content = new QWidget;
    m_sections = new QVBoxLayout(content);
    m_sections->setContentsMargins(6, 2, 10, 6);
    m_sections->setSpacing(10);
    m_scroll->setWidget(content);
    outer->addWidget(m_scroll, 1);

    QFormLayout* general = addSection(QStringLiteral("profile"), tr("Profile"));
    addRow(general, tr("Name"), addText(QStringLiteral("name"), [](Profile& p) -> QString& { return p.name; }), {},
        tip(QStringLiteral("name"), tr("Shown in the profile library and kept with every run.")));
    addRow(general, tr("Description"),
        addText(QStringLiteral("description"), [](Profile& p) -> QString& { return p.description; }), {},
        tip(QStringLiteral("description"), tr("What this profile is for; kept with every run.")));

    buildTarget();
    buildWorkload();
    buildLoad();
    buildSlo();
    buildServer();
    buildOutput();
    m_sections->addStretch();
    // One label column width for every section, so that the inputs line up down the form.
    int labelWidth = 0;
    for (const QLabel* l : std::as_const(m_rowLabels))
        labelWidth = std::max(labelWidth, l->sizeHint().width());
    for (QLabel* l : std::as_const(m_rowLabels))
        l->setMinimumWidth(labelWidth);

    loadAll();
}

ProfileForm::~ProfileForm() = default;

void ProfileForm::setProfile(const Profile& profile)
{
    m_profile = profile;
    for (auto& f : m_fields)
        f->inputError.clear();
    loadAll();
    updateMessages();
}

void ProfileForm::loadAll()
{
    m_loading = true;
    for (auto& f : m_fields)
        f->load();
    m_loading = false;
    updateDependentState();
}

void ProfileForm::fieldChanged(Field* field)
{
    if (m_loading)
        return;
    field->inputError = field->store();
    updateDependentState();
    updateMessages();
    Q_EMIT edited();
}

QList<ProfileIssue> ProfileForm::inputErrors() const
{
    QList<ProfileIssue> out;
    for (const auto& f : m_fields) {
        if (!f->inputError.isEmpty())
            out.append({ f->path, f->inputError });
    }
    return out;
}

ProfileForm::Field* ProfileForm::fieldFor(const QString& path) const
{
    Field* best = nullptr;
    for (const auto& f : m_fields) {
        if (f->path == path)
            return f.get();
        if (path.startsWith(f->path) && path.size() > f->path.size()) {
            const QChar next = path.at(f->path.size());
            if ((next == QLatin1Char('[') || next == QLatin1Char('.')) && (!best || f->path.size() > best->path.size()))
                best = f.get();
        }
    }
    return best;
}

QWidget* ProfileForm::inputFor(const QString& path) const
{
    Field* f = fieldFor(path);
    return f ? f->input : nullptr;
}

QList<ProfileIssue> ProfileForm::showIssues(const QList<ProfileIssue>& issues)
{
    m_issues = issues;
    updateMessages();
    QList<ProfileIssue> other;
    for (const ProfileIssue& i : m_issues) {
        if (!fieldFor(i.path))
            other.append(i);
    }
    return other;
}

void ProfileForm::updateMessages()
{
    QHash<QLabel*, QStringList> lines;
    QHash<QLabel*, int> sharing;
    QHash<Field*, bool> flagged;
    for (const auto& f : m_fields) {
        if (f->message)
            ++sharing[f->message];
    }
    auto add = [&](Field* f, const QString& path, const QString& message) {
        QString text = message;
        if (path != f->path) // an element of a list or object: say which
            text = tr("%1: %2", "a field or list element, then what is wrong with it")
                       .arg(path.mid(f->path.lastIndexOf(QLatin1Char('.')) + 1), message);
        else if (sharing.value(f->message) > 1)
            text = tr("%1: %2", "a field or list element, then what is wrong with it").arg(f->caption, message);
        lines[f->message].append(text);
        flagged[f] = true;
    };
    QStringList other;
    for (const auto& f : m_fields) {
        if (!f->inputError.isEmpty())
            add(f.get(), f->path, f->inputError);
    }
    for (const ProfileIssue& issue : m_issues) {
        Field* f = fieldFor(issue.path);
        if (!f) {
            other << issue.toString();
            continue;
        }
        if (!f->inputError.isEmpty())
            continue; // the profile still holds the last readable value: its issues are stale
        add(f, issue.path, issue.message);
    }
    const QString color = errorColor(palette()).name();
    for (const auto& f : m_fields) {
        if (f->message) {
            const QStringList& l = lines.value(f->message);
            f->message->setText(l.join(QLatin1Char('\n')));
            f->message->setVisible(!l.isEmpty());
        }
        const bool bad = flagged.value(f.get());
        if (bad != f->framed) {
            f->framed = bad;
            f->input->setProperty("kpInvalid", bad);
            markInvalid(f->input, bad, color);
        }
    }
    m_otherIssues->setText(other.isEmpty() ? QString() : tr("Problems: %1").arg(other.join(QStringLiteral("; "))));
    m_otherIssues->setVisible(!other.isEmpty());
}

void ProfileForm::scrollToSection(const QString& section)
{
    for (const auto& [key, box] : m_sectionBoxes) {
        if (key == section)
            m_scroll->verticalScrollBar()->setValue(box->y() - m_sections->contentsMargins().top());
    }
}

ProfileForm::Field* ProfileForm::addField(
    const QString& path, QWidget* input, std::function<void()> load, std::function<QString()> store)
{
    auto field = std::make_unique<Field>();
    field->path = path;
    field->input = input;
    field->load = std::move(load);
    field->store = std::move(store);
    input->setObjectName(path);
    m_fields.push_back(std::move(field));
    return m_fields.back().get();
}

QLineEdit* ProfileForm::addText(const QString& path, const Accessor& accessor, const QString& placeholder)
{
    auto* edit = new QLineEdit;
    edit->setPlaceholderText(placeholder);
    edit->setClearButtonEnabled(false);
    Field* f = addField(
        path, edit,
        [this, edit, accessor] {
            edit->setText(accessor(m_profile));
            edit->setCursorPosition(0); // show the start of a long value
        },
        [this, edit, accessor] {
            accessor(m_profile) = edit->text();
            return QString();
        });
    connect(edit, &QLineEdit::textChanged, this, [this, f] { fieldChanged(f); });
    return edit;
}

QWidget* ProfileForm::addNumber(const QString& path, const std::function<double&(Profile&)>& accessor, double min,
    double max, double step, const QString& suffix)
{
    auto* spin = new NumberSpinBox;
    spin->setRange(min, max);
    spin->setSingleStep(step);
    spin->setSuffix(suffix);
    Field* f = addField(
        path, spin, [this, spin, accessor] { spin->setValue(accessor(m_profile)); },
        [this, spin, accessor] {
            accessor(m_profile) = spin->value();
            return QString();
        });
    connect(spin, &QDoubleSpinBox::valueChanged, this, [this, f] { fieldChanged(f); });
    return spin;
}

QWidget* ProfileForm::addOptionalNumber(const QString& path,
    const std::function<std::optional<double>&(Profile&)>& accessor, double unset, double max, double step,
    const QString& suffix)
{
    auto* spin = new NumberSpinBox;
    spin->setRange(unset, max);
    spin->setSingleStep(step);
    spin->setSuffix(suffix);
    spin->setSpecialValueText(tr("unset"));
    Field* f = addField(
        path, spin, [this, spin, accessor, unset] { spin->setValue(accessor(m_profile).value_or(unset)); },
        [this, spin, accessor] {
            const double v = spin->value();
            accessor(m_profile) = v == spin->minimum() ? std::nullopt : std::optional<double>(v);
            return QString();
        });
    connect(spin, &QDoubleSpinBox::valueChanged, this, [this, f] { fieldChanged(f); });
    return spin;
}

QWidget* ProfileForm::addInteger(
    const QString& path, const std::function<int&(Profile&)>& accessor, int min, int max, const QString& suffix)
{
    auto* spin = new IntSpinBox;
    spin->setRange(min, max);
    spin->setSuffix(suffix);
    Field* f = addField(
        path, spin, [this, spin, accessor] { spin->setValue(accessor(m_profile)); },
        [this, spin, accessor] {
            accessor(m_profile) = spin->value();
            return QString();
        });
    connect(spin, &QSpinBox::valueChanged, this, [this, f] { fieldChanged(f); });
    return spin;
}

QWidget* ProfileForm::addOptionalInteger(const QString& path,
    const std::function<std::optional<int>&(Profile&)>& accessor, int unset, int max, const QString& suffix)
{
    auto* spin = new IntSpinBox;
    spin->setRange(unset, max);
    spin->setSuffix(suffix);
    spin->setSpecialValueText(tr("unset"));
    Field* f = addField(
        path, spin, [this, spin, accessor, unset] { spin->setValue(accessor(m_profile).value_or(unset)); },
        [this, spin, accessor] {
            const int v = spin->value();
            accessor(m_profile) = v == spin->minimum() ? std::nullopt : std::optional<int>(v);
            return QString();
        });
    connect(spin, &QSpinBox::valueChanged, this, [this, f] { fieldChanged(f); });
    return spin;
}

QWidget* ProfileForm::addCheck(const QString& path, const std::function<bool&(Profile&)>& accessor, const QString& text)
{
    auto* box = new QCheckBox(text);
    Field* f = addField(
        path, box, [this, box, accessor] { box->setChecked(accessor(m_profile)); },
        [this, box, accessor] {
            accessor(m_profile) = box->isChecked();
            return QString();
        });
    connect(box, &QCheckBox::toggled, this, [this, f] { fieldChanged(f); });
    return box;
}

QWidget* ProfileForm::addIntegerList(const QString& path, const std::function<QList<int>&(Profile&)>& accessor,
    const QString& placeholder, const QString& unit, const QString& notAnInteger)
{
    auto* edit = new QLineEdit;
    edit->setPlaceholderText(placeholder);
    Field* f = addField(
        path, edit,
        [this, edit, accessor] {
            QStringList parts;
            for (int v : accessor(m_profile))
                parts << QString::number(v);
            edit->setText(parts.join(QStringLiteral(", ")));
        },
        [this, edit, accessor, notAnInteger]() -> QString {
            QList<int> out;
            for (const QString& token : listTokens(edit->text())) {
                bool ok = false;
                const int v = QLocale::c().toInt(token, &ok);
                if (!ok)
                    return notAnInteger.arg(token);
                out << v;
            }
            accessor(m_profile) = out;
            return QString();
        });
    connect(edit, &QLineEdit::textChanged, this, [this, f] { fieldChanged(f); });
    auto* row = new QWidget;
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    h->addWidget(edit, 1);
    h->addWidget(new QLabel(unit));
    f->enableTarget = row;
    return row;
}

QFormLayout* ProfileForm::addSection(const QString& key, const QString& title)
{
    auto* box = new QGroupBox(title);
    box->setObjectName(QStringLiteral("section.") + key);
    auto* form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    form->setLabelAlignment(Qt::AlignRight | Qt::AlignTop);
    form->setVerticalSpacing(6);
    m_sections->addWidget(box);
    m_sectionBoxes.append({ key, box });
    return form;
}

void ProfileForm::addRow(
    QFormLayout* form, const QString& label, QWidget* content, const QList<QWidget*>& inputs, const QString& tooltip)
{
    auto* cell = new QWidget;
    auto* v = new QVBoxLayout(cell);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(2);
    v->addWidget(content);
    auto* message = new QLabel;
    message->setWordWrap(true);
    message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPalette pal = message->palette();
    pal.setColor(QPalette::WindowText, errorColor(pal));
    message->setPalette(pal);
    message->setVisible(false);
    v->addWidget(message);

    const QList<QWidget*> owned = inputs.isEmpty() ? QList<QWidget*> { content } : inputs;
    for (QWidget* input : owned) {
        for (auto& f : m_fields) {
            if (f->input == input) {
                f->message = message;
                message->setObjectName(f->path + QStringLiteral(".message"));
                if (inputs.isEmpty() && !tooltip.isEmpty())
                    input->setToolTip(tooltip);
            }
        }
    }
    auto* l = new QLabel(label);
    l->setToolTip(tooltip);
    l->setBuddy(owned.constFirst());
    // Aligns the label with the first line of the input rather than the middle of the cell.
    const QWidget* first = owned.constFirst();
    const int lineHeight = QLineEdit().sizeHint().height();
    l->setMinimumHeight(std::min(first->sizeHint().boundedTo(first->maximumSize()).height(), lineHeight));
    l->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    l->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    m_rowLabels << l;
    form->addRow(l, cell);
}

QWidget* ProfileForm::grid(const QList<std::pair<QString, QWidget*>>& cells, int columns)
{
    auto* w = new QWidget;
    auto* g = new QGridLayout(w);
    g->setContentsMargins(0, 0, 0, 0);
    g->setHorizontalSpacing(8);
    g->setVerticalSpacing(4);
    for (qsizetype i = 0; i < cells.size(); ++i) {
        const auto& [caption, input] = cells[i];
        const int row = int(i / columns);
        const int col = int(i % columns) * 2;
        auto* l = new QLabel(caption);
        l->setBuddy(input);
        l->setToolTip(input->toolTip());
        g->addWidget(l, row, col, Qt::AlignRight);
        g->addWidget(input, row, col + 1);
        g->setColumnStretch(col + 1, 1);
        for (auto& f : m_fields) {
            if (f->input == input)
                f->caption = caption;
        }
    }
    return w;
}

void ProfileForm::buildTarget()
{
    QFormLayout* form = addSection(QStringLiteral("target"), tr("Target"));

    QLineEdit* saved = addText(
        QStringLiteral("target"), [](Profile& p) -> QString& { return p.targetName; }, tr("none: the endpoint below"));
    saved->setObjectName(QStringLiteral("savedTarget"));
    TargetStore targets;
    targets.load(nullptr);
    saved->setCompleter(new QCompleter(targets.names(), saved));
    addRow(form, tr("Saved target"), saved, {},
        tip(QStringLiteral("target"),
            tr("The name of a target kept on the Targets page. When set, the run uses that endpoint, model and "
               "key, and the fields below are not used; editing the target updates every profile that names it.")));

    QLineEdit* baseUrl = addText(
        QStringLiteral("target.base_url"), [](Profile& p) -> QString& { return p.target.baseUrl; },
        tr("http://gpu-box:8000 or sim://default"));
    addRow(form, tr("Base URL"), baseUrl, {},
        tip(QStringLiteral("target.base_url"),
            tr("Required. An http:// or https:// URL with a host, optionally a path prefix. A trailing /v1 is "
               "fine. sim://PRESET[?time_scale=F] runs the built-in simulator for the run.")));

    auto* backend = new ComboBox;
    backend->addItem(tr("openai-chat — chat completions"), backendName(Backend::OpenAiChat));
    backend->addItem(tr("openai — completions"), backendName(Backend::OpenAi));
    backend->addItem(tr("vllm — vLLM completions"), backendName(Backend::Vllm));
    Field* bf = addField(
        QStringLiteral("target.backend"), backend,
        [this, backend] { backend->setCurrentIndex(backend->findData(backendName(m_profile.target.backend))); },
        [this, backend] {
            if (auto b = backendFromName(backend->currentData().toString()))
                m_profile.target.backend = *b;
            return QString();
        });
    connect(backend, &QComboBox::currentIndexChanged, this, [this, bf] { fieldChanged(bf); });
    addRow(form, tr("Backend"), backend, {},
        tip(QStringLiteral("target.backend"),
            tr("openai: POST /v1/completions. openai-chat: POST /v1/chat/completions. vllm: vLLM's completions "
               "server (same wire format as openai).")));

    m_endpoint = addText(QStringLiteral("target.endpoint"), [](Profile& p) -> QString& { return p.target.endpoint; });
    addRow(form, tr("Endpoint"), m_endpoint, {},
        tip(QStringLiteral("target.endpoint"),
            tr("Path appended to the base URL, starting with /. Empty: the backend's default. May carry a query.")));

    addRow(form, tr("Model"),
        addText(
            QStringLiteral("target.model"), [](Profile& p) -> QString& { return p.target.model; },
            tr("empty: the first model the server lists")),
        {}, tip(QStringLiteral("target.model"), tr("Model name. Empty: the first model GET /v1/models lists.")));
    addRow(form, tr("Served model name"),
        addText(
            QStringLiteral("target.served_model_name"), [](Profile& p) -> QString& { return p.target.servedModelName; },
            tr("empty: the model name")),
        {},
        tip(QStringLiteral("target.served_model_name"),
            tr("The model sent in requests when it differs from the model name.")));

    // The key: masked, with a reveal toggle and the source it resolves from (never the key itself).
    QLineEdit* key = addText(
        QStringLiteral("target.api_key"), [](Profile& p) -> QString& { return p.target.apiKey; },
        tr("${ENV_VAR}, file:PATH, keychain:ENTRY, a key, or empty"));
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
    const QString keyTip = tip(QStringLiteral("target.api_key"),
        tr("A literal key, a ${NAME} reference read from the environment when the run starts, file:PATH (the "
           "file's first line), keychain:ENTRY (the desktop keychain), or empty (then OPENAI_API_KEY if set). "
           "Prefer a reference: profiles get shared. Sent as Authorization: Bearer."));
    key->setToolTip(keyTip);
    addRow(form, tr("API key"), keyCell, { key }, keyTip);

    auto* headers = new QPlainTextEdit;
    headers->setTabChangesFocus(true);
    headers->setPlaceholderText(tr("Name: value, one per line; values may use ${ENV_VAR}"));
    headers->setFixedHeight(headers->fontMetrics().lineSpacing() * 3 + 12);
    Field* hf = addField(
        QStringLiteral("target.headers"), headers,
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
    connect(headers, &QPlainTextEdit::textChanged, this, [this, hf] { fieldChanged(hf); });
    addRow(form, tr("Extra headers"), headers, {},
        tip(QStringLiteral("target.headers"),
            tr("Sent with every request, in this order. Values may contain ${NAME} references.")));

    const QString tt = QStringLiteral("target.timeouts.");
    QWidget* connectS = addNumber(
        tt + QStringLiteral("connect_s"), [](Profile& p) -> double& { return p.target.timeouts.connectS; }, 0, 86400, 1,
        tr(" s"));
    QWidget* firstS = addNumber(
        tt + QStringLiteral("first_token_s"), [](Profile& p) -> double& { return p.target.timeouts.firstTokenS; }, 0,
        86400, 10, tr(" s"));
    QWidget* idleS = addNumber(
        tt + QStringLiteral("idle_s"), [](Profile& p) -> double& { return p.target.timeouts.idleS; }, 0, 86400, 10,
        tr(" s"));
    QWidget* totalS = addNumber(
        tt + QStringLiteral("total_s"), [](Profile& p) -> double& { return p.target.timeouts.totalS; }, 0, 864000, 60,
        tr(" s"));
    connectS->setToolTip(tip(tt + QStringLiteral("connect_s"), tr("TCP (and TLS) connection, seconds.")));
    firstS->setToolTip(tip(tt + QStringLiteral("first_token_s"),
        tr("Request sent → first byte of the response body, seconds. Long on purpose: under overload, queueing is "
           "what is being measured.")));
    idleS->setToolTip(tip(tt + QStringLiteral("idle_s"), tr("Longest silence between two chunks, seconds.")));
    totalS->setToolTip(tip(tt + QStringLiteral("total_s"), tr("Request sent → last byte, seconds.")));
    addRow(form, tr("Timeouts"),
        grid({ { tr("connect"), connectS }, { tr("first token"), firstS }, { tr("idle"), idleS },
                 { tr("total"), totalS } },
            2),
        { connectS, firstS, idleS, totalS }, tip(QStringLiteral("target.timeouts"), tr("Seconds.")));

    QLineEdit* metricsUrl = addText(
        QStringLiteral("target.metrics_url"), [](Profile& p) -> QString& { return p.target.metricsUrl; },
        tr("<base_url>/metrics"));
    QWidget* metricsInterval = addNumber(
        QStringLiteral("target.metrics_interval_s"), [](Profile& p) -> double& { return p.target.metricsIntervalS; },
        0.05, 3600, 0.5, tr(" s"));
    metricsUrl->setToolTip(tip(QStringLiteral("target.metrics_url"),
        tr("The server's Prometheus metrics, read while each step runs. Empty: <base_url>/metrics; \"off\": not "
           "read.")));
    metricsInterval->setToolTip(tip(QStringLiteral("target.metrics_interval_s"), tr("Seconds between two reads.")));
    addRow(form, tr("Server metrics"), grid({ { tr("URL"), metricsUrl }, { tr("every"), metricsInterval } }, 2),
        { metricsUrl, metricsInterval },
        tip(QStringLiteral("target.metrics_url"), tr("KV cache, queue and preemptions explain the knee.")));

    addRow(form, QString(),
        addCheck(
            QStringLiteral("target.tls_verify"), [](Profile& p) -> bool& { return p.target.tlsVerify; },
            tr("Verify the server's TLS certificate")),
        {}, tip(QStringLiteral("target.tls_verify"), tr("Turn off only for servers with self-signed certificates.")));

    auto* proxy = new ComboBox;
    proxy->setEditable(true);
    proxy->addItem(QStringLiteral("none"));
    proxy->addItem(QStringLiteral("system"));
    proxy->lineEdit()->setPlaceholderText(tr("none, system or a proxy URL"));
    Field* pf = addField(
        QStringLiteral("target.proxy"), proxy,
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
    connect(proxy, &QComboBox::currentTextChanged, this, [this, pf] { fieldChanged(pf); });
    addRow(form, tr("Proxy"), proxy, {},
        tip(QStringLiteral("target.proxy"),
            tr("none: connect directly. system: the system or environment proxy settings. Otherwise a proxy URL: "
               "http://proxy:3128, socks5://host:1080.")));
}

void ProfileForm::buildWorkload()
{
    QFormLayout* form = addSection(QStringLiteral("workload"), tr("Workload"));

    auto* dataset = new ComboBox;
    for (const QString& d : knownDatasets())
        dataset->addItem(d, d);
    Field* df = addField(
        QStringLiteral("workload.dataset"), dataset,
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
    connect(dataset, &QComboBox::currentIndexChanged, this, [this, df] { fieldChanged(df); });
    addRow(form, tr("Dataset"), dataset, {},
        tip(QStringLiteral("workload.dataset"),
            tr("random: synthetic prompts of the lengths below. sharegpt: a ShareGPT JSON file. jsonl: one JSON "
               "object per line. replay: a request log replayed at its own timestamps. shared-prefix: synthetic "
               "prompts in groups that share a prefix (prefix caching).")));

    QLineEdit* path = addText(
        QStringLiteral("workload.dataset_path"), [](Profile& p) -> QString& { return p.workload.datasetPath; },
        tr("required for sharegpt, jsonl and replay"));
    auto* browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, [this, path] {
        const QString file = QFileDialog::getOpenFileName(
            this, tr("Dataset file"), path->text(), tr("Datasets (*.json *.jsonl);;All files (*)"));
        if (!file.isEmpty())
            path->setText(file);
    });
    auto* pathRow = new QWidget;
    auto* ph = new QHBoxLayout(pathRow);
    ph->setContentsMargins(0, 0, 0, 0);
    ph->setSpacing(4);
    ph->addWidget(path, 1);
    ph->addWidget(browse);
    const QString pathTip = tip(QStringLiteral("workload.dataset_path"),
        tr("The dataset file; required for sharegpt, jsonl and replay. A relative path is relative to the working "
           "directory."));
    path->setToolTip(pathTip);
    addRow(form, tr("Dataset file"), pathRow, { path }, pathTip);
    fieldFor(QStringLiteral("workload.dataset_path"))->enableTarget = pathRow;

    QWidget* prompts = addInteger(
        QStringLiteral("workload.num_prompts"), [](Profile& p) -> int& { return p.workload.numPrompts; }, 1,
        std::numeric_limits<int>::max(), tr(" requests"));
    addRow(form, tr("Prompts per step"), prompts, {},
        tip(QStringLiteral("workload.num_prompts"),
            tr("Requests per step (per rate or concurrency), unless a step duration is set.")));

    auto* seed = new QLineEdit;
    seed->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("-?[0-9]{0,19}")), seed));
    Field* sf = addField(
        QStringLiteral("workload.seed"), seed,
        [this, seed] { seed->setText(QString::number(m_profile.workload.seed)); },
        [this, seed]() -> QString {
            bool ok = false;
            const qint64 v = seed->text().toLongLong(&ok);
            if (!ok)
                return tr("\"%1\" is not an integer").arg(seed->text());
            m_profile.workload.seed = v;
            return QString();
        });
    connect(seed, &QLineEdit::textChanged, this, [this, sf] { fieldChanged(sf); });
    addRow(form, tr("Seed"), seed, {},
        tip(QStringLiteral("workload.seed"), tr("Seed for prompt sampling and arrival times.")));

    const int maxTokens = 10'000'000;
    QWidget* inputLen = addInteger(
        QStringLiteral("workload.input_len"), [](Profile& p) -> int& { return p.workload.inputLen; }, 1, maxTokens,
        tr(" tokens"));
    QWidget* outputLen = addInteger(
        QStringLiteral("workload.output_len"), [](Profile& p) -> int& { return p.workload.outputLen; }, 1, maxTokens,
        tr(" tokens"));
    QWidget* ratio = addNumber(
        QStringLiteral("workload.range_ratio"), [](Profile& p) -> double& { return p.workload.rangeRatio; }, 0, 0.99,
        0.05, QString());
    QWidget* prefix = addInteger(
        QStringLiteral("workload.prefix_len"), [](Profile& p) -> int& { return p.workload.prefixLen; }, 0, maxTokens,
        tr(" tokens"));
    inputLen->setToolTip(tip(QStringLiteral("workload.input_len"), tr("random: prompt length, tokens.")));
    outputLen->setToolTip(tip(QStringLiteral("workload.output_len"), tr("random: max_tokens per request.")));
    ratio->setToolTip(tip(QStringLiteral("workload.range_ratio"),
        tr("random: lengths drawn uniformly from [len·(1−r), len·(1+r)]; in [0, 1).")));
    prefix->setToolTip(
        tip(QStringLiteral("workload.prefix_len"), tr("random: a shared prefix in front of every prompt, tokens.")));
    addRow(form, tr("Random prompts"),
        grid({ { tr("input"), inputLen }, { tr("output"), outputLen }, { tr("spread"), ratio },
                 { tr("shared prefix"), prefix } },
            2),
        { inputLen, outputLen, ratio, prefix },
        tip(QStringLiteral("workload"),
            tr("Lengths of the synthetic prompts (datasets random and shared-prefix; for shared-prefix, input is "
               "the length after the prefix).")));

    QWidget* prefixes = addInteger(
        QStringLiteral("workload.num_prefixes"), [](Profile& p) -> int& { return p.workload.numPrefixes; }, 1,
        1'000'000, QString());
    QWidget* suffixes = addInteger(
        QStringLiteral("workload.suffixes_per_prefix"), [](Profile& p) -> int& { return p.workload.suffixesPerPrefix; },
        0, 1'000'000, QString());
    static_cast<QSpinBox*>(suffixes)->setSpecialValueText(tr("auto"));
    prefixes->setToolTip(tip(QStringLiteral("workload.num_prefixes"),
        tr("shared-prefix: distinct prefixes, each of the shared prefix length above.")));
    suffixes->setToolTip(tip(QStringLiteral("workload.suffixes_per_prefix"),
        tr("shared-prefix: prompts per prefix; auto: the prompts per step divided among the prefixes.")));
    addRow(form, tr("Shared prefixes"), grid({ { tr("prefixes"), prefixes }, { tr("prompts each"), suffixes } }, 2),
        { prefixes, suffixes },
        tip(QStringLiteral("workload.num_prefixes"),
            tr("Groups of prompts that share a prefix, to measure prefix caching (dataset shared-prefix).")));

    addRow(form, tr("Fixed output length"),
        addOptionalInteger(
            QStringLiteral("workload.fixed_output_len"),
            [](Profile& p) -> std::optional<int>& { return p.workload.fixedOutputLen; }, 0, maxTokens, tr(" tokens")),
        {},
        tip(QStringLiteral("workload.fixed_output_len"),
            tr("sharegpt/jsonl: max_tokens for every request instead of the dataset's own output length.")));

    QWidget* filter = addCheck(
        QStringLiteral("workload.filter_lengths"), [](Profile& p) -> bool& { return p.workload.filterLengths; },
        tr("Filter by length, as the reference does"));
    QWidget* minLen = addInteger(
        QStringLiteral("workload.min_len"), [](Profile& p) -> int& { return p.workload.minLen; }, 0, maxTokens,
        tr(" tokens"));
    QWidget* maxPrompt = addInteger(
        QStringLiteral("workload.max_prompt_len"), [](Profile& p) -> int& { return p.workload.maxPromptLen; }, 1,
        maxTokens, tr(" tokens"));
    QWidget* maxTotal = addInteger(
        QStringLiteral("workload.max_total_len"), [](Profile& p) -> int& { return p.workload.maxTotalLen; }, 1,
        maxTokens, tr(" tokens"));
    filter->setToolTip(tip(QStringLiteral("workload.filter_lengths"),
        tr("sharegpt: leave out conversations whose prompt or answer is shorter than the minimum, whose prompt "
           "is longer than the maximum, or whose prompt and answer together are longer than the total.")));
    minLen->setToolTip(tip(QStringLiteral("workload.min_len"), tr("sharegpt: shortest prompt or answer kept.")));
    maxPrompt->setToolTip(tip(QStringLiteral("workload.max_prompt_len"), tr("sharegpt: longest prompt kept.")));
    maxTotal->setToolTip(
        tip(QStringLiteral("workload.max_total_len"), tr("sharegpt: longest prompt and answer together kept.")));
    auto* filters = new QWidget;
    auto* fv = new QVBoxLayout(filters);
    fv->setContentsMargins(0, 0, 0, 0);
    fv->setSpacing(4);
    fv->addWidget(filter);
    fv->addWidget(
        grid({ { tr("minimum"), minLen }, { tr("prompt at most"), maxPrompt }, { tr("total at most"), maxTotal } }, 2));
    addRow(form, tr("ShareGPT filters"), filters, { filter, minLen, maxPrompt, maxTotal },
        tip(QStringLiteral("workload.filter_lengths"),
            tr("The length filters of the reference benchmark, on the dataset's token counts (dataset sharegpt).")));

    auto* badLines = new ComboBox;
    const QString skip = QStringLiteral("skip"); // the profile's values
    const QString fail = QStringLiteral("fail");
    badLines->addItem(tr("skip them and report how many"), skip);
    badLines->addItem(tr("fail at the first"), fail);
    Field* bf = addField(
        QStringLiteral("workload.bad_lines"), badLines,
        [this, badLines] { badLines->setCurrentIndex(std::max(0, badLines->findData(m_profile.workload.badLines))); },
        [this, badLines] {
            m_profile.workload.badLines = badLines->currentData().toString();
            return QString();
        });
    connect(badLines, &QComboBox::currentIndexChanged, this, [this, bf] { fieldChanged(bf); });
    addRow(form, tr("Bad lines"), badLines, {},
        tip(QStringLiteral("workload.bad_lines"),
            tr("jsonl/replay: what a line that is not a usable JSON object does.")));

    addRow(form, tr("Replay speed"),
        addNumber(
            QStringLiteral("workload.replay_speed"), [](Profile& p) -> double& { return p.workload.replaySpeed; }, 0.01,
            1000, 0.5, tr(" ×")),
        {},
        tip(QStringLiteral("workload.replay_speed"),
            tr("replay: the log's time runs this many times faster (in steps at rate inf; a step at a finite "
               "rate scales the log to that mean rate instead).")));
    addRow(form, QString(),
        addCheck(
            QStringLiteral("workload.ignore_eos"), [](Profile& p) -> bool& { return p.workload.ignoreEos; },
            tr("Ignore end-of-sequence (every request produces max_tokens)")),
        {},
        tip(QStringLiteral("workload.ignore_eos"),
            tr("Ask the server to ignore end-of-sequence so that every request produces max_tokens tokens "
               "(vLLM extension).")));

    QWidget* buckets = addIntegerList(
        QStringLiteral("workload.length_buckets"), [](Profile& p) -> QList<int>& { return p.workload.lengthBuckets; },
        tr("e.g. 0, 256, 512, 1024, 2048"), tr("prompt tokens"), tr("\"%1\" is not a whole number of tokens"));
    addRow(form, tr("Length buckets"), buckets, { fieldFor(QStringLiteral("workload.length_buckets"))->input },
        tip(QStringLiteral("workload.length_buckets"),
            tr("Edges of the prompt-length buckets the results are also reported by (the \"By length\" tab); "
               "the last bucket has no upper end.")));

    const QString sp = QStringLiteral("workload.sampling.");
    QWidget* temperature = addNumber(
        sp + QStringLiteral("temperature"), [](Profile& p) -> double& { return p.workload.sampling.temperature; }, 0,
        10, 0.1, QString());
    QWidget* topP = addOptionalNumber(
        sp + QStringLiteral("top_p"), [](Profile& p) -> std::optional<double>& { return p.workload.sampling.topP; }, 0,
        1, 0.05, QString());
    QWidget* topK = addOptionalInteger(
        sp + QStringLiteral("top_k"), [](Profile& p) -> std::optional<int>& { return p.workload.sampling.topK; }, -2,
        1'000'000, QString());
    QWidget* minP = addOptionalNumber(
        sp + QStringLiteral("min_p"), [](Profile& p) -> std::optional<double>& { return p.workload.sampling.minP; },
        -0.01, 1, 0.01, QString());
    QWidget* presence = addOptionalNumber(
        sp + QStringLiteral("presence_penalty"),
        [](Profile& p) -> std::optional<double>& { return p.workload.sampling.presencePenalty; }, -2.1, 2, 0.1,
        QString());
    QWidget* frequency = addOptionalNumber(
        sp + QStringLiteral("frequency_penalty"),
        [](Profile& p) -> std::optional<double>& { return p.workload.sampling.frequencyPenalty; }, -2.1, 2, 0.1,
        QString());
    QWidget* repetition = addOptionalNumber(
        sp + QStringLiteral("repetition_penalty"),
        [](Profile& p) -> std::optional<double>& { return p.workload.sampling.repetitionPenalty; }, 0, 10, 0.05,
        QString());
    temperature->setToolTip(tip(sp + QStringLiteral("temperature"), tr("≥ 0. 0: greedy, as the reference does.")));
    topP->setToolTip(tip(sp + QStringLiteral("top_p"), tr("In (0, 1]. Sent only when set.")));
    topK->setToolTip(tip(sp + QStringLiteral("top_k"), tr("≥ −1; −1 or 0 disable it (vLLM). Sent only when set.")));
    minP->setToolTip(tip(sp + QStringLiteral("min_p"), tr("In [0, 1]. Sent only when set.")));
    presence->setToolTip(tip(sp + QStringLiteral("presence_penalty"), tr("In [−2, 2]. Sent only when set.")));
    frequency->setToolTip(tip(sp + QStringLiteral("frequency_penalty"), tr("In [−2, 2]. Sent only when set.")));
    repetition->setToolTip(tip(sp + QStringLiteral("repetition_penalty"), tr("> 0. Sent only when set.")));
    addRow(form, tr("Sampling"),
        grid({ { tr("temperature"), temperature }, { tr("top p"), topP }, { tr("top k"), topK }, { tr("min p"), minP },
                 { tr("presence"), presence }, { tr("frequency"), frequency }, { tr("repetition"), repetition } },
            2),
        { temperature, topP, topK, minP, presence, frequency, repetition },
        tip(QStringLiteral("workload.sampling"),
            tr("Sampling parameters sent with every request; \"unset\" ones are left out. Step below the "
               "lowest value to unset one.")));

    auto* extra = new QPlainTextEdit;
    extra->setTabChangesFocus(true);
    extra->setPlaceholderText(tr("{ \"priority\": 1 }"));
    extra->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    extra->setFixedHeight(extra->fontMetrics().lineSpacing() * 3 + 12);
    Field* ef = addField(
        QStringLiteral("workload.extra_body"), extra,
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
    connect(extra, &QPlainTextEdit::textChanged, this, [this, ef] { fieldChanged(ef); });
    addRow(form, tr("Extra body"), extra, {},
        tip(QStringLiteral("workload.extra_body"),
            tr("A JSON object merged into every request body last, so it overrides Kneepoint's own keys.")));
}

void ProfileForm::buildLoad()
{
    QFormLayout* form = addSection(QStringLiteral("load"), tr("Load"));

    auto* mode = new ComboBox;
    mode->addItem(tr("rate — open loop, requests arrive at the rates"), loadModeName(LoadMode::Rate));
    mode->addItem(tr("concurrency — closed loop, N users"), loadModeName(LoadMode::Concurrency));
    Field* mf = addField(
        QStringLiteral("load.mode"), mode,
        [this, mode] { mode->setCurrentIndex(mode->findData(loadModeName(m_profile.load.mode))); },
        [this, mode] {
            if (auto m = loadModeFromName(mode->currentData().toString()))
                m_profile.load.mode = *m;
            return QString();
        });
    connect(mode, &QComboBox::currentIndexChanged, this, [this, mf] { fieldChanged(mf); });
    addRow(form, tr("Mode"), mode, {},
        tip(QStringLiteral("load.mode"),
            tr("rate: open loop, requests arrive at the given rates. concurrency: closed loop, N users each send "
               "their next request when the last one ends.")));

    auto* kind = new ComboBox;
    kind->addItem(tr("list — the rates or concurrencies below"), planKindName(PlanKind::List));
    kind->addItem(tr("linear — evenly spaced from start to stop"), planKindName(PlanKind::Linear));
    kind->addItem(tr("geometric — a geometric progression"), planKindName(PlanKind::Geometric));
    kind->addItem(tr("auto — measure floor and ceiling, then fill"), planKindName(PlanKind::Auto));
    Field* kf = addField(
        QStringLiteral("load.plan.kind"), kind,
        [this, kind] { kind->setCurrentIndex(kind->findData(planKindName(m_profile.load.plan.kind))); },
        [this, kind] {
            if (auto k = planKindFromName(kind->currentData().toString()))
                m_profile.load.plan.kind = *k;
            return QString();
        });
    connect(kind, &QComboBox::currentIndexChanged, this, [this, kf] { fieldChanged(kf); });
    addRow(form, tr("Plan"), kind, {},
        tip(QStringLiteral("load.plan.kind"),
            tr("list: the rates or concurrencies as given. linear / geometric: `steps` loads from start to stop. "
               "auto: a synchronous step and an all-out step measure the floor and ceiling of the server, then "
               "`steps` rates fill the range, denser near the ceiling, with two beyond it.")));

    auto* rates = new QLineEdit;
    rates->setPlaceholderText(tr("e.g. 1, 2, 4, 8, 16, inf"));
    Field* rf = addField(
        QStringLiteral("load.rates"), rates,
        [this, rates] {
            QStringList parts;
            for (double r : m_profile.load.rates)
                parts << formatRate(r);
            rates->setText(parts.join(QStringLiteral(", ")));
        },
        [this, rates]() -> QString {
            QList<double> out;
            for (const QString& token : listTokens(rates->text())) {
                if (isInfinityWord(token)) {
                    out << std::numeric_limits<double>::infinity();
                    continue;
                }
                bool ok = false;
                const double v = QLocale::c().toDouble(token, &ok);
                if (!ok)
                    return tr("\"%1\" is not a number or \"inf\"").arg(token);
                out << v;
            }
            m_profile.load.rates = out;
            return QString();
        });
    connect(rates, &QLineEdit::textChanged, this, [this, rf] { fieldChanged(rf); });
    auto* ratesRow = new QWidget;
    auto* rh = new QHBoxLayout(ratesRow);
    rh->setContentsMargins(0, 0, 0, 0);
    rh->addWidget(rates, 1);
    rh->addWidget(new QLabel(tr("req/s")));
    const QString ratesTip = tip(QStringLiteral("load.rates"),
        tr("Requests per second, one step each, separated by commas. inf sends all requests at once."));
    rates->setToolTip(ratesTip);
    addRow(form, tr("Rates"), ratesRow, { rates }, ratesTip);
    rf->enableTarget = ratesRow;

    QWidget* users = addIntegerList(
        QStringLiteral("load.concurrencies"), [](Profile& p) -> QList<int>& { return p.load.concurrencies; },
        tr("e.g. 1, 8, 32, 128"), tr("users"), tr("\"%1\" is not an integer"));
    QWidget* usersEdit = fieldFor(QStringLiteral("load.concurrencies"))->input;
    const QString usersTip = tip(QStringLiteral("load.concurrencies"),
        tr("Users in flight, one step each, separated by commas (concurrency mode)."));
    usersEdit->setToolTip(usersTip);
    addRow(form, tr("Concurrencies"), users, { usersEdit }, usersTip);

    QWidget* start = addNumber(
        QStringLiteral("load.plan.start"), [](Profile& p) -> double& { return p.load.plan.start; }, 0, 1e6, 1,
        QString());
    QWidget* stop = addNumber(
        QStringLiteral("load.plan.stop"), [](Profile& p) -> double& { return p.load.plan.stop; }, 0, 1e6, 1, QString());
    QWidget* steps = addInteger(
        QStringLiteral("load.plan.steps"), [](Profile& p) -> int& { return p.load.plan.steps; }, 0, 1000, QString());
    m_loadUnitInputs = { start, stop };
    start->setToolTip(tip(QStringLiteral("load.plan.start"), tr("linear, geometric: the first load (> 0).")));
    stop->setToolTip(tip(QStringLiteral("load.plan.stop"), tr("linear, geometric: the last load (≥ start).")));
    steps->setToolTip(tip(QStringLiteral("load.plan.steps"),
        tr("linear, geometric: the number of loads (≥ 2). auto: rates between floor and ceiling (0: 8).")));
    addRow(form, tr("Range"), grid({ { tr("start"), start }, { tr("stop"), stop }, { tr("steps"), steps } }, 3),
        { start, stop, steps }, tip(QStringLiteral("load.plan"), tr("The range for linear and geometric plans.")));

    QWidget* burstiness = addNumber(
        QStringLiteral("load.burstiness"), [](Profile& p) -> double& { return p.load.burstiness; }, 0, 1000, 0.1,
        QString());
    QWidget* maxConc = addOptionalInteger(
        QStringLiteral("load.max_concurrency"), [](Profile& p) -> std::optional<int>& { return p.load.maxConcurrency; },
        0, 1'000'000, tr(" in flight"));
    burstiness->setToolTip(tip(QStringLiteral("load.burstiness"),
        tr("Shape of the gamma distribution of inter-arrival times: 1 is Poisson, below 1 burstier, above 1 more "
           "regular.")));
    maxConc->setToolTip(tip(QStringLiteral("load.max_concurrency"),
        tr("rate mode: the most requests in flight; later arrivals wait for a slot (shown as dispatch lag).")));
    addRow(form, tr("Arrivals"), grid({ { tr("burstiness"), burstiness }, { tr("at most"), maxConc } }, 2),
        { burstiness, maxConc }, tip(QStringLiteral("load"), tr("How requests arrive in rate mode.")));

    QWidget* ramp = addNumber(
        QStringLiteral("load.ramp_up_s"), [](Profile& p) -> double& { return p.load.rampUpS; }, 0, 86400, 1, tr(" s"));
    QWidget* warmup = addInteger(
        QStringLiteral("load.warmup_requests"), [](Profile& p) -> int& { return p.load.warmupRequests; }, 0, 1'000'000,
        tr(" requests"));
    QWidget* cooldown = addNumber(
        QStringLiteral("load.cooldown_s"), [](Profile& p) -> double& { return p.load.cooldownS; }, 0, 86400, 1,
        tr(" s"));
    QWidget* duration = addOptionalNumber(
        QStringLiteral("load.step_duration_s"),
        [](Profile& p) -> std::optional<double>& { return p.load.stepDurationS; }, 0, 864000, 10, tr(" s"));
    ramp->setToolTip(tip(QStringLiteral("load.ramp_up_s"),
        tr("The rate rises linearly from zero to the step's rate over this time at the start of each step.")));
    warmup->setToolTip(
        tip(QStringLiteral("load.warmup_requests"), tr("Sent before each step and left out of its metrics.")));
    cooldown->setToolTip(tip(QStringLiteral("load.cooldown_s"), tr("Pause between steps.")));
    duration->setToolTip(tip(QStringLiteral("load.step_duration_s"),
        tr("Run each step for this long (prompts reused in order) instead of a number of prompts.")));
    addRow(form, tr("Steps"),
        grid({ { tr("ramp-up"), ramp }, { tr("warm-up"), warmup }, { tr("cooldown"), cooldown },
                 { tr("duration"), duration } },
            2),
        { ramp, warmup, cooldown, duration }, tip(QStringLiteral("load"), tr("How each step starts and ends.")));

    QWidget* refine = addCheck(
        QStringLiteral("load.plan.refine"), [](Profile& p) -> bool& { return p.load.plan.refine; },
        tr("Refine at the SLO boundary"));
    QWidget* tolerance = addNumber(
        QStringLiteral("load.plan.tolerance"), [](Profile& p) -> double& { return p.load.plan.tolerance; }, 0, 0.99,
        0.01, QString());
    QWidget* maxRefine = addInteger(
        QStringLiteral("load.plan.max_refine_steps"), [](Profile& p) -> int& { return p.load.plan.maxRefineSteps; }, 0,
        1000, tr(" steps"));
    refine->setToolTip(tip(QStringLiteral("load.plan.refine"),
        tr("After the coarse pass, add steps at the SLO boundary (and around the knee).")));
    tolerance->setToolTip(tip(QStringLiteral("load.plan.tolerance"),
        tr("Refine until the boundary is known within this fraction of the load; in (0, 1).")));
    maxRefine->setToolTip(
        tip(QStringLiteral("load.plan.max_refine_steps"), tr("Upper bound on the steps refinement adds.")));
    auto* refineRow = new QWidget;
    auto* rr = new QVBoxLayout(refineRow);
    rr->setContentsMargins(0, 0, 0, 0);
    rr->setSpacing(4);
    rr->addWidget(refine);
    rr->addWidget(grid({ { tr("tolerance"), tolerance }, { tr("at most"), maxRefine } }, 2));
    addRow(form, tr("Refinement"), refineRow, { refine, tolerance, maxRefine },
        tip(QStringLiteral("load.plan.refine"), tr("Steps added after the coarse pass.")));

    QWidget* repeats = addInteger(
        QStringLiteral("load.plan.repeats"), [](Profile& p) -> int& { return p.load.plan.repeats; }, 0, 1000,
        tr(" times"));
    QWidget* earlyStop = addCheck(
        QStringLiteral("load.plan.early_stop"), [](Profile& p) -> bool& { return p.load.plan.earlyStop; },
        tr("Stop escalating once the server collapses"));
    QWidget* stopErrors = addOptionalNumber(
        QStringLiteral("load.plan.stop_error_rate"),
        [](Profile& p) -> std::optional<double>& { return p.load.plan.stopErrorRate; }, 0, 1, 0.01, QString());
    repeats->setToolTip(tip(QStringLiteral("load.plan.repeats"),
        tr("Run the highest load that met the SLO this many more times, to show its spread.")));
    earlyStop->setToolTip(tip(QStringLiteral("load.plan.early_stop"),
        tr("Stop once throughput fell for two steps in a row while the SLO's latency rose (a collapse).")));
    stopErrors->setToolTip(tip(QStringLiteral("load.plan.stop_error_rate"),
        tr("Also stop escalating once a step's error rate passes this fraction, in (0, 1] (0.2 = 20 %).")));
    auto* stopRow = new QWidget;
    auto* sr = new QVBoxLayout(stopRow);
    sr->setContentsMargins(0, 0, 0, 0);
    sr->setSpacing(4);
    sr->addWidget(earlyStop);
    sr->addWidget(grid({ { tr("repeat best"), repeats }, { tr("stop at error rate"), stopErrors } }, 2));
    addRow(form, tr("Stopping"), stopRow, { earlyStop, repeats, stopErrors },
        tip(QStringLiteral("load.plan"), tr("When escalation stops, and what is repeated.")));
}

void ProfileForm::buildSlo()
{
    QFormLayout* form = addSection(QStringLiteral("slo"), tr("Service-level objectives"));
    QWidget* ttft = addOptionalNumber(
        QStringLiteral("slo.ttft_ms"), [](Profile& p) -> std::optional<double>& { return p.slo.ttftMs; }, 0, 1e7, 50,
        tr(" ms"));
    QWidget* tpot = addOptionalNumber(
        QStringLiteral("slo.tpot_ms"), [](Profile& p) -> std::optional<double>& { return p.slo.tpotMs; }, 0, 1e7, 5,
        tr(" ms"));
    QWidget* e2el = addOptionalNumber(
        QStringLiteral("slo.e2el_ms"), [](Profile& p) -> std::optional<double>& { return p.slo.e2elMs; }, 0, 1e8, 500,
        tr(" ms"));
    ttft->setToolTip(tip(QStringLiteral("slo.ttft_ms"), tr("Time to first token, ms (> 0).")));
    tpot->setToolTip(tip(QStringLiteral("slo.tpot_ms"), tr("Time per output token (excluding the first), ms (> 0).")));
    e2el->setToolTip(tip(QStringLiteral("slo.e2el_ms"), tr("End-to-end latency, ms (> 0).")));
    addRow(form, tr("Latency limits"), grid({ { tr("TTFT"), ttft }, { tr("TPOT"), tpot }, { tr("E2EL"), e2el } }, 3),
        { ttft, tpot, e2el },
        tip(QStringLiteral("slo"),
            tr("A step meets the SLO when the percentile below of each metric with a limit is within it.")));

    QWidget* percentile = addNumber(
        QStringLiteral("slo.percentile"), [](Profile& p) -> double& { return p.slo.percentile; }, 0, 100, 1, QString());
    static_cast<QDoubleSpinBox*>(percentile)->setPrefix(QStringLiteral("P"));
    QWidget* errors = addOptionalNumber(
        QStringLiteral("slo.max_error_rate"), [](Profile& p) -> std::optional<double>& { return p.slo.maxErrorRate; },
        -0.01, 1, 0.01, QString());
    percentile->setToolTip(
        tip(QStringLiteral("slo.percentile"), tr("The percentile the limits apply to, in (0, 100].")));
    errors->setToolTip(
        tip(QStringLiteral("slo.max_error_rate"), tr("Failed ÷ sent, in [0, 1]: 0.01 is 1 %. Step below 0 to unset.")));
    addRow(form, tr("Applies to"), grid({ { tr("percentile"), percentile }, { tr("max error rate"), errors } }, 2),
        { percentile, errors }, tip(QStringLiteral("slo"), tr("The same limits define goodput.")));
}

void ProfileForm::buildServer()
{
    QFormLayout* form = addSection(QStringLiteral("server"), tr("Server info (kept with the results)"));
    QLineEdit* engine = addText(
        QStringLiteral("server.engine"), [](Profile& p) -> QString& { return p.server.engine; }, tr("vllm, sglang, …"));
    QLineEdit* version = addText(
        QStringLiteral("server.engine_version"), [](Profile& p) -> QString& { return p.server.engineVersion; });
    engine->setToolTip(tip(QStringLiteral("server.engine"), tr("What the server runs, e.g. vllm, sglang.")));
    version->setToolTip(tip(QStringLiteral("server.engine_version"), tr("Its version.")));
    addRow(form, tr("Engine"), grid({ { tr("name"), engine }, { tr("version"), version } }, 2), { engine, version },
        tip(QStringLiteral("server"), tr("Informational: nothing here changes how the test runs.")));

    QLineEdit* host = addText(QStringLiteral("server.host"), [](Profile& p) -> QString& { return p.server.host; });
    QWidget* port = addOptionalInteger(
        QStringLiteral("server.port"), [](Profile& p) -> std::optional<int>& { return p.server.port; }, 0, 65535,
        QString());
    host->setToolTip(tip(QStringLiteral("server.host"), tr("The server's host name.")));
    port->setToolTip(tip(QStringLiteral("server.port"), tr("1–65535.")));
    addRow(form, tr("Address"), grid({ { tr("host"), host }, { tr("port"), port } }, 2), { host, port },
        tip(QStringLiteral("server"), tr("Where the server runs.")));

    const int big = std::numeric_limits<int>::max();
    QWidget* seqs = addOptionalInteger(
        QStringLiteral("server.max_num_seqs"), [](Profile& p) -> std::optional<int>& { return p.server.maxNumSeqs; }, 0,
        big, QString());
    QWidget* batched = addOptionalInteger(
        QStringLiteral("server.max_num_batched_tokens"),
        [](Profile& p) -> std::optional<int>& { return p.server.maxNumBatchedTokens; }, 0, big, tr(" tokens"));
    QWidget* modelLen = addOptionalInteger(
        QStringLiteral("server.max_model_len"), [](Profile& p) -> std::optional<int>& { return p.server.maxModelLen; },
        0, big, tr(" tokens"));
    QWidget* gpu = addOptionalNumber(
        QStringLiteral("server.gpu_memory_utilization"),
        [](Profile& p) -> std::optional<double>& { return p.server.gpuMemoryUtilization; }, 0, 1, 0.05, QString());
    QWidget* tp = addOptionalInteger(
        QStringLiteral("server.tensor_parallel_size"),
        [](Profile& p) -> std::optional<int>& { return p.server.tensorParallelSize; }, 0, 4096, QString());
    QWidget* pp = addOptionalInteger(
        QStringLiteral("server.pipeline_parallel_size"),
        [](Profile& p) -> std::optional<int>& { return p.server.pipelineParallelSize; }, 0, 4096, QString());
    seqs->setToolTip(tip(QStringLiteral("server.max_num_seqs"), tr("Sequences batched at once (≥ 1).")));
    batched->setToolTip(tip(QStringLiteral("server.max_num_batched_tokens"), tr("Tokens per batch (≥ 1).")));
    modelLen->setToolTip(tip(QStringLiteral("server.max_model_len"), tr("Context length (≥ 1).")));
    gpu->setToolTip(tip(QStringLiteral("server.gpu_memory_utilization"), tr("In (0, 1].")));
    tp->setToolTip(tip(QStringLiteral("server.tensor_parallel_size"), tr("≥ 1.")));
    pp->setToolTip(tip(QStringLiteral("server.pipeline_parallel_size"), tr("≥ 1.")));
    addRow(form, tr("Engine settings"),
        grid({ { tr("max seqs"), seqs }, { tr("batched tokens"), batched }, { tr("model length"), modelLen },
                 { tr("GPU memory"), gpu }, { tr("tensor parallel"), tp }, { tr("pipeline parallel"), pp } },
            2),
        { seqs, batched, modelLen, gpu, tp, pp },
        tip(QStringLiteral("server"), tr("The engine's settings, as the server was started.")));

    addRow(form, tr("Hardware"),
        addText(
            QStringLiteral("server.hardware"), [](Profile& p) -> QString& { return p.server.hardware; },
            tr("e.g. 2x H100 80GB SXM")),
        {}, tip(QStringLiteral("server.hardware"), tr("The accelerators the server runs on.")));
    QLineEdit* accelerator = addText(
        QStringLiteral("server.accelerator"), [](Profile& p) -> QString& { return p.server.accelerator; },
        tr("e.g. NVIDIA H100 80GB HBM3"));
    QWidget* acceleratorCount = addOptionalInteger(
        QStringLiteral("server.accelerator_count"),
        [](Profile& p) -> std::optional<int>& { return p.server.acceleratorCount; }, 0, 4096, QString());
    QLineEdit* driver = addText(
        QStringLiteral("server.driver_version"), [](Profile& p) -> QString& { return p.server.driverVersion; });
    QLineEdit* runtime = addText(
        QStringLiteral("server.runtime_version"), [](Profile& p) -> QString& { return p.server.runtimeVersion; },
        tr("CUDA 12.4, ROCm 6.1"));
    QLineEdit* precision = addText(
        QStringLiteral("server.precision"), [](Profile& p) -> QString& { return p.server.precision; },
        tr("bf16, fp8, awq int4"));
    accelerator->setToolTip(tip(QStringLiteral("server.accelerator"), tr("The accelerator model.")));
    acceleratorCount->setToolTip(
        tip(QStringLiteral("server.accelerator_count"), tr("How many serve the model (≥ 1).")));
    driver->setToolTip(tip(QStringLiteral("server.driver_version"), tr("The accelerator driver's version.")));
    runtime->setToolTip(tip(QStringLiteral("server.runtime_version"), tr("CUDA or ROCm version.")));
    precision->setToolTip(tip(QStringLiteral("server.precision"), tr("Weights' dtype and quantisation.")));
    addRow(form, tr("Accelerators"),
        grid({ { tr("model"), accelerator }, { tr("count"), acceleratorCount }, { tr("driver"), driver },
                 { tr("CUDA/ROCm"), runtime }, { tr("precision"), precision } },
            2),
        { accelerator, acceleratorCount, driver, runtime, precision },
        tip(QStringLiteral("server"),
            tr("Kept with every run: the same command differs across drivers and versions.")));
    addRow(form, tr("Notes"),
        addText(QStringLiteral("server.notes"), [](Profile& p) -> QString& { return p.server.notes; }), {},
        tip(QStringLiteral("server.notes"), tr("Anything else worth keeping with the results.")));
}

void ProfileForm::buildOutput()
{
    QFormLayout* form = addSection(QStringLiteral("output"), tr("Output"));
    QWidget* saveResult = addCheck(
        QStringLiteral("output.save_result"), [](Profile& p) -> bool& { return p.output.saveResult; },
        tr("Write the reference-compatible result JSON"));
    QWidget* detailed = addCheck(
        QStringLiteral("output.save_detailed"), [](Profile& p) -> bool& { return p.output.saveDetailed; },
        tr("with per-request lists"));
    saveResult->setToolTip(
        tip(QStringLiteral("output.save_result"), tr("Also write the reference-compatible result JSON per step.")));
    detailed->setToolTip(
        tip(QStringLiteral("output.save_detailed"), tr("Include per-request lists (input_lens, ttfts, itls, …).")));
    auto* files = new QWidget;
    auto* fh = new QHBoxLayout(files);
    fh->setContentsMargins(0, 0, 0, 0);
    fh->addWidget(saveResult);
    fh->addWidget(detailed);
    fh->addStretch();
    addRow(form, tr("Result files"), files, { saveResult, detailed },
        tip(QStringLiteral("output"), tr("Files written next to Kneepoint's own run records.")));

    QLineEdit* dir = addText(
        QStringLiteral("output.result_dir"), [](Profile& p) -> QString& { return p.output.resultDir; },
        tr("directory for result files"));
    auto* browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, [this, dir] {
        const QString d = QFileDialog::getExistingDirectory(this, tr("Result directory"), dir->text());
        if (!d.isEmpty())
            dir->setText(d);
    });
    auto* dirRow = new QWidget;
    auto* dh = new QHBoxLayout(dirRow);
    dh->setContentsMargins(0, 0, 0, 0);
    dh->setSpacing(4);
    dh->addWidget(dir, 1);
    dh->addWidget(browse);
    const QString dirTip = tip(QStringLiteral("output.result_dir"), tr("Directory for result files."));
    dir->setToolTip(dirTip);
    addRow(form, tr("Result directory"), dirRow, { dir }, dirTip);
    addRow(form, tr("File name"),
        addText(
            QStringLiteral("output.result_filename"), [](Profile& p) -> QString& { return p.output.resultFilename; },
            tr("{backend}-{rate}qps-{model}-{date}.json")),
        {},
        tip(QStringLiteral("output.result_filename"),
            tr("Empty: the reference's {backend}-{rate}qps-{model}-{date}.json.")));
    addRow(form, tr("Label"),
        addText(QStringLiteral("output.label"), [](Profile& p) -> QString& { return p.output.label; }), {},
        tip(QStringLiteral("output.label"), tr("Written into results as label.")));

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
    Field* mf = addField(
        QStringLiteral("output.percentile_metrics"), metrics,
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
        connect(b, &QCheckBox::toggled, this, [this, mf] { fieldChanged(mf); });
    addRow(form, tr("Percentiles of"), metrics, {},
        tip(QStringLiteral("output.percentile_metrics"), tr("Metrics to report percentiles for.")));

    auto* pcts = new QLineEdit;
    pcts->setPlaceholderText(tr("e.g. 50, 90, 99, 99.9"));
    Field* pf = addField(
        QStringLiteral("output.metric_percentiles"), pcts,
        [this, pcts] {
            QStringList parts;
            for (double v : m_profile.output.metricPercentiles)
                parts << numberText(v);
            pcts->setText(parts.join(QStringLiteral(", ")));
        },
        [this, pcts]() -> QString {
            QList<double> out;
            for (const QString& token : listTokens(pcts->text())) {
                bool ok = false;
                const double v = QLocale::c().toDouble(token, &ok);
                if (!ok)
                    return tr("\"%1\" is not a number").arg(token);
                out << v;
            }
            m_profile.output.metricPercentiles = out;
            return QString();
        });
    connect(pcts, &QLineEdit::textChanged, this, [this, pf] { fieldChanged(pf); });
    addRow(form, tr("Percentiles"), pcts, {},
        tip(QStringLiteral("output.metric_percentiles"), tr("Which percentiles, each in (0, 100]: 99 is P99.")));
}

void ProfileForm::updateDependentState()
{
    const Profile& p = m_profile;
    // Synthetic datasets (random, shared-prefix) take lengths; the others read a file.
    const bool random
        = p.workload.dataset == QLatin1String("random") || p.workload.dataset == QLatin1String("shared-prefix");
    const bool sharedPrefix = p.workload.dataset == QLatin1String("shared-prefix");
    const bool sharegpt = p.workload.dataset == QLatin1String("sharegpt");
    const bool lines = p.workload.dataset == QLatin1String("jsonl") || p.workload.dataset == QLatin1String("replay");
    const bool rate = p.load.mode == LoadMode::Rate;
    const PlanKind kind = p.load.plan.kind;
    const QHash<QString, bool> enabled = {
        { QStringLiteral("workload.dataset_path"), !random },
        { QStringLiteral("workload.fixed_output_len"), !random },
        { QStringLiteral("workload.input_len"), random },
        { QStringLiteral("workload.output_len"), random },
        { QStringLiteral("workload.range_ratio"), random },
        { QStringLiteral("workload.prefix_len"), random },
        { QStringLiteral("workload.num_prefixes"), sharedPrefix },
        { QStringLiteral("workload.suffixes_per_prefix"), sharedPrefix },
        { QStringLiteral("workload.filter_lengths"), sharegpt },
        { QStringLiteral("workload.min_len"), sharegpt && p.workload.filterLengths },
        { QStringLiteral("workload.max_prompt_len"), sharegpt && p.workload.filterLengths },
        { QStringLiteral("workload.max_total_len"), sharegpt && p.workload.filterLengths },
        { QStringLiteral("workload.bad_lines"), lines },
        { QStringLiteral("workload.replay_speed"), p.workload.dataset == QLatin1String("replay") },
        { QStringLiteral("load.rates"), rate && kind == PlanKind::List },
        { QStringLiteral("load.concurrencies"), !rate && kind == PlanKind::List },
        { QStringLiteral("load.burstiness"), rate },
        { QStringLiteral("load.max_concurrency"), rate },
        { QStringLiteral("load.ramp_up_s"), rate },
        { QStringLiteral("load.plan.start"), kind == PlanKind::Linear || kind == PlanKind::Geometric },
        { QStringLiteral("load.plan.stop"), kind == PlanKind::Linear || kind == PlanKind::Geometric },
        { QStringLiteral("load.plan.steps"), kind != PlanKind::List },
        { QStringLiteral("load.plan.tolerance"), p.load.plan.refine },
        { QStringLiteral("load.plan.max_refine_steps"), p.load.plan.refine },
        { QStringLiteral("output.save_detailed"), p.output.saveResult },
    };
    for (const auto& f : m_fields) {
        const auto it = enabled.constFind(f->path);
        (f->enableTarget ? f->enableTarget : f->input)->setEnabled(it == enabled.constEnd() || it.value());
    }
    for (QWidget* w : std::as_const(m_loadUnitInputs))
        static_cast<QDoubleSpinBox*>(w)->setSuffix(rate ? tr(" req/s") : tr(" users"));
    m_endpoint->setPlaceholderText(tr("default: %1").arg(defaultEndpoint(p.target.backend)));

    // A keychain entry is read when a run starts, not on every edit: the keychain may take seconds.
    const bool keychain = p.target.apiKeySource() == ApiKeyResolution::Source::Keychain;
    const ApiKeyResolution key = p.target.resolvedApiKey(false);
    QString source;
    if (keychain)
        source = keychainEntryName(p.target.apiKey).isEmpty()
            ? tr("\"keychain:\" needs an entry name.")
            : tr("Sent: keychain entry %1, read when a run starts.").arg(keychainEntryName(p.target.apiKey));
    else if (p.target.isBuiltinSimulator() && p.target.apiKey.isEmpty())
        source = tr("The built-in simulator needs no key.");
    else if (!key.ok())
        source = key.error;
    else if (key.source == ApiKeyResolution::Source::Literal)
        source = tr("Sent: %1. Prefer ${ENV_VAR}: profiles get shared.").arg(key.describe());
    else
        source = tr("Sent: %1.").arg(key.describe());
    m_apiKeySource->setText(source);
}

} // namespace kp::ui
